"""Snapshots of the app's screens, with Toothpick Takeaway as the game (80×24, pinned theme)."""

from __future__ import annotations

from tests.conftest import make_app, open_game, settle

SIZE = (80, 24)


def test_menu(snap_compare):
    assert snap_compare(make_app(), terminal_size=SIZE)


def test_setup_screen(snap_compare):
    assert snap_compare(make_app(start_game="toothpicks"), terminal_size=SIZE)


def test_game_in_progress_with_the_last_move_faint(snap_compare):
    async def run_before(pilot):
        await pilot.pause()
        await open_game(pilot, "toothpicks", ("human", "perfect"))
        await pilot.press("2")  # perfect answers by taking 2: those two stay faint
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_analysis_view(snap_compare):
    async def run_before(pilot):
        await pilot.pause()
        await open_game(pilot, "toothpicks", ("human", "perfect"), count=7)
        await pilot.press("a")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_result(snap_compare):
    async def run_before(pilot):
        await pilot.pause()
        await open_game(pilot, "toothpicks", ("perfect", "random"))
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_help_screen(snap_compare):
    async def run_before(pilot):
        await pilot.pause()
        await open_game(pilot, "toothpicks", ("human", "perfect"))
        await pilot.press("question_mark")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_small_terminal_notice(snap_compare):
    async def run_before(pilot):
        await pilot.pause()
        await open_game(pilot, "toothpicks", ("human", "perfect"))

    assert snap_compare(make_app(), terminal_size=(56, 16), run_before=run_before)
