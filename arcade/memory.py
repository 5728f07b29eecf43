"""What the arcade remembers between runs: the last setup of each game and the theme.

One JSON file, ``settings.json``, in the user's configuration directory, platformdirs-style:
``$XDG_CONFIG_HOME/contest-arcade`` or ``~/.config/contest-arcade``. A file that is missing,
unreadable or not what we wrote is ignored (the defaults then), and a write that fails is
ignored too: remembering is a convenience, never a reason for an error on screen. Tests point
``XDG_CONFIG_HOME`` at a temporary directory (``tests/conftest.py``), never at the real home.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

APP_DIR = "contest-arcade"
FILE = "settings.json"


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/contest-arcade``, else ``~/.config/contest-arcade``."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / APP_DIR


def load() -> dict[str, Any]:
    """Everything remembered; ``{}`` when there is nothing usable."""
    try:
        data = json.loads((config_dir() / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save(data: dict[str, Any]) -> None:
    """Write ``data`` whole (a temporary file renamed over the old one); failures are ignored."""
    folder = config_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / (FILE + ".tmp")
        temporary.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        temporary.replace(folder / FILE)
    except OSError:
        pass


def last_setup(game_id: str) -> tuple[tuple[str, str] | None, dict | None]:
    """The players and options last started for ``game_id`` (``None``s if none)."""
    entry = load().get("games", {}).get(game_id)
    if not isinstance(entry, dict):
        return None, None
    players = entry.get("players")
    settings = entry.get("settings")
    if not (isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) for p in players)):
        players = None
    if not isinstance(settings, dict):
        settings = None
    return (tuple(players) if players else None), settings  # type: ignore[return-value]


def remember_setup(game_id: str, players: tuple[str, str], settings: dict) -> None:
    data = load()
    games = data.get("games") if isinstance(data.get("games"), dict) else {}
    games[game_id] = {"players": list(players), "settings": {k: list(v) if isinstance(v, tuple) else v
                                                             for k, v in settings.items()}}
    data["games"] = games
    save(data)


def last_theme() -> str | None:
    theme = load().get("theme")
    return theme if isinstance(theme, str) else None


def remember_theme(theme: str) -> None:
    data = load()
    if data.get("theme") != theme:
        data["theme"] = theme
        save(data)
