"""What the arcade remembers between runs: the last setup of each game and the theme.

One JSON file, ``settings.json``, in the user's configuration directory, platformdirs-style:
``$XDG_CONFIG_HOME/contest-arcade`` or ``~/.config/contest-arcade``. Remembering is a
convenience, never a reason for an error: a write that fails is ignored, and a file that is not
what we wrote (not JSON, nested too deep, not an object, too big, not a regular file) gives the
defaults. A bad file is never lost and never silently overwritten: ``check()`` (the app calls it
once at start) moves it aside to ``settings.json.bad`` and returns a notice for the player.
Tests point ``XDG_CONFIG_HOME`` at a temporary directory (``tests/conftest.py``), never at the
real home.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from arcade.files import write_whole
from bots.limits import SANDBOXES

APP_DIR = "contest-arcade"
FILE = "settings.json"
BAD = FILE + ".bad"
MAX_BYTES = 1 << 20
"""A settings file bigger than this is not one we wrote (ours is a few KiB)."""


class BadSettings(ValueError):
    """The settings file exists but is not one the arcade wrote; the message says why."""


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/contest-arcade``, else ``~/.config/contest-arcade``."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / APP_DIR


def _read() -> dict[str, Any]:
    """The settings file's object; ``{}`` when there is none or it cannot be opened;
    ``BadSettings`` when it is there but not ours."""
    path = config_dir() / FILE
    try:
        info = path.lstat()
    except OSError:
        return {}
    if not stat.S_ISREG(info.st_mode):
        raise BadSettings("it is not a regular file")
    if info.st_size > MAX_BYTES:
        raise BadSettings(f"it is {info.st_size:,} bytes, more than settings ever take")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError:
        return {}  # unreadable (permissions): nothing to remember, nothing to move
    try:
        data = json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise BadSettings("it is nested too deeply") from None
    except ValueError as exc:  # not UTF-8, not JSON
        raise BadSettings(f"it is not JSON ({type(exc).__name__})") from None
    if not isinstance(data, dict):
        raise BadSettings("it is not a JSON object")
    return data


def load() -> dict[str, Any]:
    """Everything remembered; ``{}`` when there is nothing usable."""
    try:
        return _read()
    except BadSettings:
        return {}


def check() -> str | None:
    """``None`` when the settings file is usable or absent; else move it aside to
    ``settings.json.bad`` (replacing an older one) and return a one-line notice for the player."""
    try:
        _read()
        return None
    except BadSettings as exc:
        folder = config_dir()
        try:
            os.replace(folder / FILE, folder / BAD)
        except OSError:
            return f"Settings file {folder / FILE} is unusable ({exc}); using the defaults."
        return f"Settings file was unusable ({exc}); kept as {folder / BAD}, using the defaults."


def save(data: dict[str, Any]) -> str | None:
    """Write ``data`` whole (a temporary file renamed over the old one); what failed (a full disk,
    a folder that cannot be written), in a few words, or ``None``: a failure stops nothing, and
    the screen that saved may say it. A settings file that is not ours is first moved aside
    (``check``), never overwritten."""
    folder = config_dir()
    check()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_whole(folder / FILE, json.dumps(data, indent=1, sort_keys=True))
    except OSError as exc:
        return f"cannot write {folder / FILE}: {exc.strerror or exc}"
    return None


def _games(data: dict[str, Any]) -> dict[str, Any]:
    games = data.get("games")
    return games if isinstance(games, dict) else {}


def last_setup(game_id: str) -> tuple[tuple[str, str] | None, dict | None]:
    """The players and options last started for ``game_id`` (``None``s if none, or if what is
    stored is not what we wrote)."""
    entry = _games(load()).get(game_id)
    if not isinstance(entry, dict):
        return None, None
    players = entry.get("players")
    settings = entry.get("settings")
    if not (isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) for p in players)):
        players = None
    if not (isinstance(settings, dict) and all(isinstance(key, str) for key in settings)):
        settings = None
    return (tuple(players) if players else None), settings  # type: ignore[return-value]


def last_limits(game_id: str) -> dict:
    """The file bots' limits last started for ``game_id``: ``time`` (seconds, or ``None``: the
    game's) and ``sandbox``, each present only if stored as we wrote it."""
    entry = _games(load()).get(game_id)
    limits = entry.get("limits") if isinstance(entry, dict) else None
    if not isinstance(limits, dict):
        return {}
    kept = {}
    time = limits.get("time")
    if time is None or (isinstance(time, (int, float)) and not isinstance(time, bool) and 0 < time < float("inf")):
        kept["time"] = time
    if limits.get("sandbox") in SANDBOXES:
        kept["sandbox"] = limits["sandbox"]
    return kept


def remember_setup(game_id: str, players: tuple[str, str], settings: dict, limits: dict | None = None) -> str | None:
    """Remember ``game_id``'s players and options, and the file bots' ``limits`` when given
    (a setup without file bots keeps the last ones); what failed writing it, or ``None`` (``save``)."""
    data = load()
    games = _games(data)
    old = games.get(game_id)
    if limits is None and isinstance(old, dict) and isinstance(old.get("limits"), dict):
        limits = old["limits"]
    games[game_id] = {"players": list(players), "settings": {k: list(v) if isinstance(v, tuple) else v
                                                             for k, v in settings.items()}}
    if limits is not None:
        games[game_id]["limits"] = limits
    data["games"] = games
    return save(data)


def last_theme() -> str | None:
    theme = load().get("theme")
    return theme if isinstance(theme, str) else None


def remember_theme(theme: str) -> None:
    data = load()
    if data.get("theme") != theme:
        data["theme"] = theme
        save(data)
