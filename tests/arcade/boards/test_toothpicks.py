"""Snapshots of the app's screens, with Toothpick Takeaway as the game (80×24, pinned theme)."""

from __future__ import annotations

import pytest

from tests.conftest import make_app, open_game, play_moves, settle, snapshot_after

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


def _sticks_drawn(screen) -> tuple[int, int, list[str]]:
    """(sticks drawn, lines drawn, the lines) of the toothpick board."""
    text = screen.board.render_sticks().plain
    lines = text.split("\n")
    return sum(line.count(g) for line in lines for g in "┃╻╹╎") // max(1, screen.board.stick_height), len(lines), lines


@pytest.mark.parametrize("max_take", [2, 9])
async def test_every_toothpick_shows_at_80_by_24_or_the_screen_says_enlarge(max_take):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "human"), count=99, max_take=max_take)
        assert not screen.has_class("too-small")
        board = screen.board
        takes = [max_take, 1, max_take] * 40
        while not screen.state.over:
            event = screen.state.event
            shown = screen.state.left + (event.taken if event else 0)
            drawn, lines, text = _sticks_drawn(screen)
            assert drawn == shown
            assert lines <= board.size.height, "\n".join(text)
            assert all(len(line) <= board.size.width for line in text)
            # a label under each stick a human may take
            labels = {token for line in text[1:-1] for token in line.split()}
            assert {str(k) for k in range(1, min(max_take, screen.state.left) + 1)} <= labels
            play_moves(screen, [min(takes.pop(), screen.state.left)])
            await pilot.pause()


async def test_a_short_terminal_asks_to_be_enlarged_rather_than_cut_toothpicks():
    app = make_app()
    async with app.run_test(size=(80, 18)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "human"), count=99, max_take=9)
        assert screen.has_class("too-small")
        notice = str(screen.query_one("#too-small-notice").render())
        assert "Enlarge" in notice and "80×18" in notice
    app = make_app()
    async with app.run_test(size=(80, 18)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "human"), count=10)
        assert not screen.has_class("too-small")


def test_ninety_nine_toothpicks_fit_at_80_by_24(snap_compare):
    """Defect 2: every stick, the take labels and the just-taken marks show at 80×24."""
    assert snapshot_after(snap_compare, "toothpicks", moves=(3, 9), count=99, max_take=9)


async def test_a_digit_over_the_largest_take_says_why_it_takes_nothing():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "human"))
        await pilot.press("3")
        await settle(pilot)
        assert screen.state.left == 10
        assert any("largest take in this game is 2" in str(n.message) for n in app._notifications)


def test_the_analysis_of_a_winning_last_take_says_it_takes_the_last():
    from dataclasses import replace

    from arcade.boards.toothpicks import ToothpickBoard
    from games.toothpicks import Toothpicks

    game = Toothpicks(count=10, max_take=2)
    board = ToothpickBoard(game)
    for left, line in [(2, "take 2, the last toothpicks"), (1, "take 1, the last toothpick"),
                       (4, "take 1, leaving 3 (a multiple of 3)")]:
        state = replace(game.initial_state(), left=left)
        (text,) = board.analysis_lines(state)
        assert line in text and "leaving 0" not in text
