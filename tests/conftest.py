"""Shared fixtures: a pinned environment for snapshots, and helpers to open a game screen."""

from __future__ import annotations

import pytest

from arcade.app import ArcadeApp
from arcade.screens.game import GameScreen
from games import CATALOG

THEME = "textual-dark"


@pytest.fixture(autouse=True)
def pinned_environment(monkeypatch):
    """Snapshots must not depend on the user's environment or on timing."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TEXTUAL_THEME", raising=False)
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
    monkeypatch.setattr(GameScreen, "BOT_DELAY", 0)
    monkeypatch.setattr(GameScreen, "WATCH_DELAY", 0)
    monkeypatch.setattr(GameScreen, "CHANCE_DELAY", 0)


def make_app(start_game: str | None = None, seed: int = 0) -> ArcadeApp:
    """The arcade with a fixed theme and seed (use for snapshots and Pilot tests)."""
    app = ArcadeApp(start_game=start_game, seed=seed)
    app.theme = THEME
    return app


async def open_game(pilot, game_id: str, players: tuple[str, str], wait: bool = True, **settings) -> GameScreen:
    """Push a game screen straight away (skipping menu and setup) and, if ``wait``, let it settle."""
    entry = CATALOG[game_id]
    defaults = {option.key: option.default for option in entry.load().options}
    defaults.update(settings)
    screen = GameScreen(entry, players, defaults)
    await pilot.app.push_screen(screen)
    if wait:
        await settle(pilot)
    else:
        await pilot.pause()
    return screen


async def settle(pilot) -> None:
    """Wait until bots have answered and the screen has redrawn."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()
