"""Any keys, in any order, on any screen: the app never dies. Seeded random key sequences (every
printable key, digits, arrows, Enter, Tab, Escape, the command palette's Ctrl+P and the function
keys the screens bind; not q, which quits from the menu) are pressed on each game's screen against a bot, and
from the menu through whatever screens the keys open; the app must still be running and answer
(a screen shown), with no worker failed."""

from __future__ import annotations

import random
import string

import pytest

from arcade.catalog import CATALOG
from tests.conftest import make_app, open_game, settle

KEYS = ([key for key in string.ascii_lowercase if key != "q"] + list(string.digits)  # q quits, as it should
        + ["up", "down", "left", "right", "enter", "tab", "shift+tab", "escape", "space", "home", "end",
           "pageup", "pagedown", "backspace", "plus", "minus", "question_mark", "ctrl+p", "ctrl+s",
           "A", "X", "N", "full_stop", "comma"])


@pytest.fixture(autouse=True)
def elsewhere(tmp_path, monkeypatch):
    """The keys can reach the command palette's "Save screenshot", which writes to the working
    folder: here a temporary one, never the repository."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ARCADE_GAMES", str(tmp_path / "games"))


def mash(seed: str, count: int) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(KEYS) for _ in range(count)]


async def press_all(pilot, keys: list[str]) -> None:
    app = pilot.app
    for i, key in enumerate(keys):
        await pilot.press(key)
        if i % 10 == 9:
            await settle(pilot)
        assert app.is_running and app.screen is not None, f"the app stopped after {keys[:i + 1]}"
    await settle(pilot)
    assert app.is_running


@pytest.mark.parametrize("opponent", ["bot"])
@pytest.mark.parametrize("game_id", list(CATALOG))
async def test_random_keys_on_a_game_screen_never_stop_the_app(game_id, opponent):
    from bots.registry import bots_for

    second = "human" if opponent == "human" else next(
        (name for name in bots_for(game_id) if name.startswith("random")), next(iter(bots_for(game_id))))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, game_id, ("human", second))
        await press_all(pilot, mash(f"{game_id}-{opponent}", 50))


@pytest.mark.parametrize("seed", range(1))
async def test_random_keys_from_the_menu_never_stop_the_app(seed):
    keys = mash(f"menu-{seed}", 100)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press_all(pilot, keys)
