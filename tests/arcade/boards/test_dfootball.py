"""D-Football on screen: snapshots of the key states (80×24, pinned theme) and Pilot tests of
the keys and the mouse."""

from __future__ import annotations

import pytest

import arcade.boards.dfootball
from arcade.boards.dfootball import FootballBoard
from tests.conftest import HUMANS, SIZE, choose_in_menu, make_app, open_game, play_moves, settle, snapshot_after


def test_a_jump_with_its_ghost_and_the_last_move_marked(snap_compare):
    # n = 11: Michigan 11->12, Ohio jumps 13->11, Michigan jumps back 10->12 over Ohio's 11
    assert snapshot_after(snap_compare, "dfootball", [11, 13, 10], n=11)


def test_a_forced_move(snap_compare):
    # n = 5: Michigan's first move is forced (5->6), and so is Ohio's answer
    assert snapshot_after(snap_compare, "dfootball", [5], n=5)


def test_the_end_ohio_loses(snap_compare):
    # the notebook's example game: 2, 4, 1, 5, 3 and Ohio cannot move
    assert snapshot_after(snap_compare, "dfootball", [2, 4, 1, 5, 3], n=2)


def test_fifteen_a_side_fits_with_the_analysis_on(snap_compare):
    assert snapshot_after(snap_compare, "dfootball", [15, 17, 14], keys=["a"], n=15)


def test_analysis_says_who_wins(snap_compare):
    assert snapshot_after(snap_compare, "dfootball", [], keys=["a"], n=11)


@pytest.fixture(autouse=True)
def digits_typed_at_any_pace(monkeypatch):
    """Two digits make one square when typed within a second (``DIGIT_SECONDS``); a busy machine
    can take longer than that between two key presses of a test (at load 10, "1" "8" became
    square 8). Here the window is an hour; ``test_two_digits_make_a_square_only_within_a_second``
    tests the second itself on a clock of its own."""
    monkeypatch.setattr(arcade.boards.dfootball, "DIGIT_SECONDS", 3600.0)


async def test_cursor_keys_and_enter_move_the_chosen_player():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, "dfootball", HUMANS, n=4)
        # 4->5 (forced), Ohio 6->4 jump (forced), then Michigan can move 3 (jump) only... play on
        play_moves(screen, [4, 6])
        await settle(pilot)
        board = screen.query_one(FootballBoard)
        movable = screen.game.legal_moves(screen.state)
        assert board.cursor == movable[0]
        await pilot.press("right")
        assert board.cursor == movable[min(1, len(movable) - 1)]
        chosen = board.cursor
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state.ply == 3 and screen.state.event.move == chosen


async def test_two_digits_jump_the_cursor_to_square_twelve():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, "dfootball", HUMANS, n=11)
        play_moves(screen, [11])  # Ohio to move: 13 (jump) is its only move
        await settle(pilot)
        board = screen.query_one(FootballBoard)
        assert board.cursor == 13
        play_moves(screen, [13, 10, 14])  # Michigan: 12 can step, 9 ... ; cursor digits
        await settle(pilot)
        movable = screen.game.legal_moves(screen.state)
        assert 12 in movable
        await pilot.press("1", "2")
        assert board.cursor == 12
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state.event.move == 12
        # a square with no movable player leaves the cursor and says so
        before = board.cursor
        await pilot.press("5")
        assert board.cursor == before and "no Ohio player" in board.hint


async def test_a_click_on_a_player_moves_it():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, "dfootball", HUMANS, n=11)
        board = screen.query_one(FootballBoard)
        field = board.query_one("#field")
        row = board.rows["pieces"]
        x = board.column(11)
        await pilot.click(field, offset=(x, row))
        await settle(pilot)
        assert screen.state.ply == 1 and screen.state.event.move == 11
        # a click on an Ohio player that cannot move does nothing
        await pilot.click(field, offset=(board.column(23), row))
        await settle(pilot)
        assert screen.state.ply == 1


async def test_perfect_answers_a_human_at_once():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, "dfootball", ("human", "perfect"), n=11)
        await pilot.press("enter")  # Michigan 11->12
        await settle(pilot)
        assert screen.state.ply == 2 and screen.state.event.side == 1


async def test_a_whole_game_from_the_menu_won_by_keys_against_perfect():
    """Menu → D-Football → setup (human Michigan against perfect, n = 11) → a game typed with
    digits and Enter, the human playing perfect's own choices: Michigan wins, as it must."""
    from arcade.screens.game import GameScreen
    from arcade.screens.menu import MenuScreen
    from arcade.screens.setup import SetupScreen
    from bots.dfootball import decide
    from bots.dfootball.solver import from_board

    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await choose_in_menu(pilot, "dfootball")
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("ctrl+s")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.players == ("human", "perfect")
        assert screen.game.n == 11
        while screen.result is None:
            state = screen.state
            assert state.to_move == 0
            m, o = from_board(state.board, 1)
            square = decide(m, o, 23, clock=lambda: 0.0).square
            await pilot.press(*str(square))
            await pilot.press("enter")
            await settle(pilot)
            assert screen.state.ply > state.ply, f"square {square} was not played"
        assert screen.result.winner == 0
        assert "Michigan wins!" in str(screen.query_one("#result-banner").render())


async def test_with_the_analysis_on_the_commentary_says_who_wins():
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(pilot, "dfootball", ("human", "perfect"), n=3)
        await pilot.press("a")
        await settle(pilot)
        lines = [strip.text for strip in screen.query_one("#commentary").lines]
        verdicts = [line for line in lines if line.startswith("analysis:")]
        assert len(verdicts) == 1 and "Michigan" in verdicts[0]


async def test_dfootball_analysis_marks_perfects_move_on_the_field():
    import random

    from bots.base import Context
    from bots.dfootball import BOTS

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "dfootball", ("human", "human"))
        play_moves(screen, [11, 13, 10])
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        board = screen.board
        best = board.recommended(screen.state)
        bot = BOTS["perfect"].make(screen.game)
        assert best == bot.choose(screen.state, Context(rng=random.Random(0)))
        lines = board.render_field().plain.split("\n")
        marks = lines[board.rows["marks"]]
        assert marks.index("★") == board.column(best)
        assert f"★ perfect moves {best}" in str(screen.query_one("#side-panel").render())
        await pilot.press("a")  # analysis off: no star
        await settle(pilot)
        assert "★" not in board.render_field().plain


async def test_two_digits_make_a_square_only_within_a_second(monkeypatch):
    monkeypatch.setattr(arcade.boards.dfootball, "DIGIT_SECONDS", 1.0)
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(pilot, "dfootball", HUMANS, n=11)
        play_moves(screen, [11, 13, 10, 14])  # Michigan to move, 12 among its players that can
        await settle(pilot)
        board = screen.query_one(FootballBoard)
        assert 12 in screen.game.legal_moves(screen.state)
        board.action_digit(1, now=100.0)
        board.action_digit(2, now=100.9)  # within the second: square 12
        assert board.typed == "12" and board.cursor == 12
        board.action_digit(1, now=200.0)
        board.action_digit(2, now=201.1)  # a second and more apart: square 2 alone
        assert board.typed == "2"
