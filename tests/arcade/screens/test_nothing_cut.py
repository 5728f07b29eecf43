"""No text cut off (``tests.conftest.texts_cut``): every label, summary, note and board line on
the menu, each game's setup, and each game's screen (fresh, part-way through a random game with
the analysis on, with its help open) fits its widget at 80×24, the smallest size the arcade takes;
and through whole random games with each game's options at their smallest and largest (15 Ludo
counters on a 40-square track, D-Football's n = 15, Hog to 200), the analysis on."""

from __future__ import annotations

import random

import pytest

from arcade.catalog import CATALOG
from tests.conftest import HUMANS, choose_in_menu, make_app, open_game, random_step, settle, texts_cut

SMALLEST = [(80, 24)]


@pytest.mark.parametrize("size", SMALLEST)
@pytest.mark.parametrize("game_id", list(CATALOG))
async def test_the_menu_and_a_games_setup_cut_no_text(game_id, size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert await texts_cut(pilot, app.screen) == []
        await choose_in_menu(pilot, game_id)
        assert await texts_cut(pilot, app.screen) == []


@pytest.mark.parametrize("size", SMALLEST)
@pytest.mark.parametrize("game_id", list(CATALOG))
async def test_a_game_part_way_with_analysis_and_help_cuts_no_text(game_id, size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await open_game(pilot, game_id, HUMANS)
        assert await texts_cut(pilot, screen) == []
        rng = random.Random(f"{game_id}{size}")
        for _ in range(12):
            state = screen.state
            if state.over:
                break
            random_step(screen, rng)
        await settle(pilot)
        assert await texts_cut(pilot, screen) == []
        await pilot.press("a")
        await settle(pilot)
        assert await texts_cut(pilot, app.screen) == []
        await pilot.press("question_mark")
        await settle(pilot)
        assert await texts_cut(pilot, app.screen) == []


def extremes(game_id: str) -> list[dict]:
    """Each number option of ``game_id`` at its minimum, then all at their maximum (a Ludo
    track's length stays even), the others at their defaults."""
    options = [o for o in CATALOG[game_id].load().options if o.kind == "int"]
    low = {o.key: o.minimum + (o.minimum % 2 if o.even else 0) for o in options}
    high = {o.key: o.maximum - (o.maximum % 2 if o.even else 0) for o in options}
    return [low, high]


@pytest.mark.parametrize("which", ["smallest", "largest"])
@pytest.mark.parametrize("game_id", list(CATALOG))
async def test_whole_random_games_at_the_options_extremes_cut_no_text(game_id, which):
    settings = extremes(game_id)[which == "largest"]
    app = make_app()
    async with app.run_test(size=SMALLEST[0]) as pilot:
        screen = await open_game(pilot, game_id, HUMANS, **settings)
        await pilot.press("a")  # the analysis on: its lines are the longest
        await settle(pilot)
        rng = random.Random(f"{game_id}{which}")
        plies, looks = 0, 0
        limit = screen.game.max_game_length()
        while not screen.state.over and plies < limit:
            for _ in range(rng.randint(1, 12) * (1 + plies // 20)):  # longer strides in a long game
                state = screen.state
                if state.over:
                    break
                random_step(screen, rng)
                plies += 1
            await settle(pilot)  # the screen may roll or pass for a side on its own
            looks += 1
            assert await texts_cut(pilot, screen) == [], f"after {plies} plies"
        assert screen.state.over and looks >= 1  # to the end, looked at on the way


@pytest.mark.parametrize("game_id", list(CATALOG))
async def test_a_replay_with_long_names_cuts_no_text_from_start_to_end(game_id):
    from arcade.match import play_out
    from arcade.screens.replay import ReplayScreen
    from bots.registry import bots_for

    game = CATALOG[game_id].load()()
    entries = bots_for(game_id)
    bot = next((entry for name, entry in entries.items() if name.startswith("random")), next(iter(entries.values())))
    bot = bot.make(game)
    outcome = play_out(game, (bot, bot), random.Random(3), (random.Random(3), random.Random(4)))
    names = ("a_team_with_a_rather_long_name/strategy_final_v2.py", "another_team_folder/strategy.py:final")
    app = make_app()
    async with app.run_test(size=SMALLEST[0]) as pilot:
        screen = ReplayScreen(CATALOG[game_id], game, names, outcome.moves, "Replay of game 1: a long title " * 3)
        await app.push_screen(screen)
        await settle(pilot)
        for key in ["right"] * 5 + ["end"]:
            await pilot.press(key)
            await settle(pilot)
            assert await texts_cut(pilot, screen) == [], key
