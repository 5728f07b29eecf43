"""Othello on screen: snapshots of the key states (80×24, pinned theme) and Pilot tests of the keys."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arcade.boards.othello import OthelloBoard
from arcade.screens.pacing import Pacing
from games.othello import PASS, Othello, parse_square
from tests.conftest import HUMANS, SIZE, footer_keys, make_app, open_game, play_moves, settle, snapshot_after


@pytest.fixture(autouse=True)
def quick_analysis(monkeypatch):
    """The analysis deepens for the game's time a move (10 s) while a human thinks, and ``settle``
    waits for it: these tests, which look at the board and the panel, let it think half a second."""
    import bots.othello

    monkeypatch.setattr(bots.othello, "analysis_seconds", lambda game: 0.5)


def first_pass_game(seed_from: int = 0) -> list[int]:
    """The moves of the first seeded random game that reaches a pass, up to just before it."""
    game = Othello()
    for seed in range(seed_from, seed_from + 500):
        rng = random.Random(seed)
        state, moves = game.initial_state(), []
        while not state.over:
            legal = game.legal_moves(state)
            if legal == [PASS]:
                return moves
            move = rng.choice(legal)
            moves.append(move)
            state = game.play(state, move)
    raise AssertionError("no pass found")


def random_game(seed: int) -> list[int]:
    game = Othello()
    rng = random.Random(seed)
    state, moves = game.initial_state(), []
    while not state.over:
        move = rng.choice(game.legal_moves(state))
        moves.append(move)
        state = game.play(state, move)
    return moves


def test_opening(snap_compare):
    assert snapshot_after(snap_compare, "othello", [])


def test_a_move_with_its_flips_highlighted(snap_compare):
    # E3, F3, F4, then orange D3 flips two discs: the last move and its flips are marked
    moves = [parse_square(s) for s in ("E3", "F3", "F4", "D3")]
    assert snapshot_after(snap_compare, "othello", moves)


def test_a_pass(snap_compare):
    assert snapshot_after(snap_compare, "othello", first_pass_game())


def test_the_end_with_counts(snap_compare):
    assert snapshot_after(snap_compare, "othello", random_game(2))  # orange wins 37–27


async def test_typing_a_square_plays_it_and_illegal_squares_say_why():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_game(pilot, "othello", HUMANS)
        board = screen.board
        assert isinstance(board, OthelloBoard)
        await pilot.press("a", "1")  # no trap: nothing happens but a notice
        await settle(pilot)
        assert len(screen.history) == 1
        await pilot.press("e", "3")
        await settle(pilot)
        assert screen.state.event.move == parse_square("E3")
        # orange: the cursor jumps to a legal move; arrows then Enter play
        assert board.cursor in screen.game.legal_moves(screen.state)
        before = board.cursor
        await pilot.press("enter")
        await settle(pilot)
        assert screen.state.event.move == before and screen.state.ply == 2


async def test_analysis_is_on_shift_a_while_a_human_moves_and_on_a_otherwise(monkeypatch):
    """``a`` types column A while a human moves, so the analysis is offered on ``A`` then (and the
    Footer says so); in a game of bots ``a`` toggles it."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_game(pilot, "othello", HUMANS)
        await pilot.press("a")
        await settle(pilot)
        assert not screen.analyst.on and screen.board.typed == "a"
        shown = {key for key, active in screen.active_bindings.items() if active.binding.show}
        assert "A" in shown and "a" not in shown  # what the Footer offers
        await pilot.press("A")
        await settle(pilot)
        assert screen.analyst.on and "expected: blue" in str(screen.query_one("#side-panel").render())
        await pilot.press("A")
        await settle(pilot)
        assert not screen.analyst.on
    monkeypatch.setattr(Pacing, "WATCH_DELAY", 30)  # the bots wait: nobody human to move
    async with make_app().run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_game(pilot, "othello", ("greedy", "greedy"))
        shown = {key for key, active in screen.active_bindings.items() if active.binding.show}
        assert "a" in shown and "A" not in shown
        await pilot.press("a")
        await settle(pilot)
        assert screen.analyst.on


async def test_cursor_keys_move_and_h_is_column_h_as_every_letter_is_a_column():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_game(pilot, "othello", HUMANS)
        board = screen.board
        start = board.cursor
        await pilot.press("up", "right")
        assert board.cursor == start + 9
        await pilot.press("down", "left")
        assert board.cursor == start
        await pilot.press("j", "k", "l")  # no vim keys: nothing moves
        assert board.cursor == start
        await pilot.press("h")  # column H, as the hint and the help say
        assert board.cursor & 7 == 7 and board.typed == "h"
        await pilot.press("3")  # H3 is no move at the opening: refused, and said on the board
        await settle(pilot)
        assert len(screen.history) == 1
        assert "H3 is not a legal move" in board.footline()
        assert board.footline()[2:] in " ".join(board.render().plain.split())  # whole, wrapped if need be
        assert not app._notifications  # said once, on the board: no toast over it
        await pilot.press("enter")  # Enter on the refused square: said again
        await settle(pilot)
        assert "H3 is not a legal move" in board.footline() and len(screen.history) == 1
        await pilot.press("d", "6")
        await settle(pilot)
        assert screen.state.event.move == parse_square("D6")


async def test_a_click_plays_the_square():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_game(pilot, "othello", HUMANS)
        board = screen.board
        f4 = parse_square("F4")
        x = board.left + (f4 & 7) * 3 + 1
        y = board.top + (8 - ((f4 >> 3) + 1))
        await pilot.click(board, offset=(x + 1, y))  # +1: the board's left padding
        await settle(pilot)
        assert screen.state.event is not None and screen.state.event.move == f4


async def test_pass_key_only_when_no_move_and_the_bot_thinking_is_shown():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_game(pilot, "othello", HUMANS)
        await pilot.press("p")
        await settle(pilot)
        assert len(screen.history) == 1  # a pass is refused while a move exists
        assert "a pass is only legal when no move flips" in screen.board.footline()
        assert not app._notifications
        play_moves(screen, first_pass_game())
        await settle(pilot)
        assert screen.game.legal_moves(screen.state) == [PASS]
        await pilot.press("p")
        await settle(pilot)
        assert screen.state.event.move == PASS
        assert "passes" in screen.state.event.text


@pytest.fixture
def thoughts(monkeypatch) -> list[str]:
    """Every thought a bot's worker posts to the screen, as it posts it."""
    from arcade.screens.bot_turn import BotThought

    seen: list[str] = []
    original = BotThought.__init__

    def spy(message, generation, text):
        seen.append(text)
        original(message, generation, text)

    monkeypatch.setattr(BotThought, "__init__", spy)
    return seen


async def e3_and_the_reply() -> None:
    """A human's E3 against ``alphabeta-0.1s``, to the bot's reply."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_game(pilot, "othello", ("human", "alphabeta-0.1s"))
        await pilot.press("e", "3")
        await settle(pilot)
        assert screen.state.ply == 2


async def test_engine_reports_depth_score_and_line_while_thinking(monkeypatch, thoughts):
    from bots.othello import book

    monkeypatch.setattr(book, "_SHIPPED", book.Book())  # no book: the engine searches the reply
    await e3_and_the_reply()
    assert any(t.startswith("depth ") and "score" in t for t in thoughts)


async def test_a_book_move_says_so_while_the_bot_plays_it(thoughts):
    """The reply to a first move is in the shipped opening book: the bot's thought says it is the
    book's, with the depth and score the engine found when it built it."""
    await e3_and_the_reply()
    assert any(t.startswith("book · depth ") and "score" in t for t in thoughts), thoughts


async def test_help_shows_the_rules():
    from arcade.screens.help import HelpScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await open_game(pilot, "othello", HUMANS)
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


@pytest.mark.parametrize("width, small", [(79, False), (70, False), (69, True)])
async def test_othello_plays_in_any_terminal_its_board_fits(width, small):
    app = make_app()
    async with app.run_test(size=(width, 24)) as pilot:
        screen = await open_game(pilot, "othello", ("human", "human"))
        assert screen.has_class("too-small") == small


async def test_othello_never_shows_two_analysis_keys_even_when_too_small():
    app = make_app()
    async with app.run_test(size=(60, 24)) as pilot:
        screen = await open_game(pilot, "othello", ("human", "human"))
        assert screen.has_class("too-small")
        assert list(footer_keys(screen).values()).count("Analysis") == 1


async def test_othello_shows_no_cursor_at_a_pass_and_a_disc_under_the_cursor_keeps_its_colour():
    from games.othello import PASS

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "othello", ("human", "human"))
        play_moves(screen, first_pass_game())
        await settle(pilot)
        assert screen.game.legal_moves(screen.state) == [PASS]
        text = screen.board.render()
        assert not any(span.style and "reverse" in str(span.style) for span in text.spans)
        play_moves(screen, [PASS])
        await settle(pilot)
        board = screen.board
        disc = next(sq for sq in range(64) if screen.state.at(sq) is not None)
        board.cursor = disc
        text = board.render()
        cursor_spans = [span for span in text.spans if "underline" in str(span.style)]
        assert cursor_spans and all("reverse" not in str(span.style) for span in cursor_spans)


async def test_othello_analysis_puts_a_star_on_the_best_move():
    from games.othello import square_name

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "othello", ("human", "human"))
        assert "★" not in screen.board.render().plain
        await pilot.press("A")
        await settle(pilot)
        best = screen.board.recommended(screen.state)
        text = screen.board.render().plain
        assert text.count("★") == 1
        row = best // 8 + 1  # square = (row - 1) * 8 + column
        line = next(line for line in text.split("\n") if line.strip().startswith(str(row)) and "★" in line)
        assert f"best move: {square_name(best)}" in str(screen.query_one("#side-panel").render())
        assert line


def test_othello_a_refused_typed_square_is_said_on_the_board(snap_compare):
    """Defect 6: h is column H (no vim keys); H3 at the opening is refused, the foot line says why."""
    assert snapshot_after(snap_compare, "othello", keys=("h", "3"))


def test_othello_at_70_columns(snap_compare):
    """Defect 7: Othello's board is 30 wide; 70 columns are enough for the whole game screen."""
    assert snapshot_after(snap_compare, "othello", size=(70, 24))


@given(st.text(alphabet="ab :✗", max_size=80), st.integers(0, 20), st.integers(1, 60), st.integers(0, 4))
def test_the_foot_line_fits_its_width_and_room(foot, pad, width, room):
    from arcade.boards.othello import foot_lines

    lines = foot_lines(foot, pad, width, room)
    assert len(lines) <= room
    assert all(indent + len(line) <= width for indent, line in lines)


async def test_the_analysis_keeps_its_best_move_in_sight_at_80_by_24():
    from textual.geometry import Region

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "othello", ("human", "alphabeta"))
        await pilot.press("A")
        await settle(pilot)
        await pilot.pause(0.3)
        await settle(pilot)
        panel = screen.panel
        width, height = panel.size
        shown = [strip.text for strip in panel.render_lines(Region(0, 0, width, height))]
        assert any("│ best move: " in line for line in shown), shown
        assert any("│ expected: blue " in line for line in shown), shown


async def test_the_board_grows_on_a_big_terminal_and_a_click_still_plays_its_square():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_game(pilot, "othello", HUMANS)
        board = screen.board
        lines = board.render().plain.rstrip("\n").split("\n")
        cw, ch = board.cell
        assert cw > 3 and ch > 1  # bigger squares than 80×24's 3×1
        assert len(lines) <= board.size.height and all(len(line) <= board.size.width for line in lines)
        assert 8 * cw > board.size.width // 2  # the board takes more than half the room
        f4 = parse_square("F4")
        x = board.left + (f4 & 7) * cw + cw // 2
        y = board.top + (8 - ((f4 >> 3) + 1)) * ch + ch // 2
        await pilot.click(board, offset=(x + 1, y))  # +1: the board's left padding
        await settle(pilot)
        assert screen.state.event is not None and screen.state.event.move == f4


@pytest.mark.parametrize("size", [(100, 32), (120, 40)])
async def test_the_board_keeps_its_squares_when_the_game_ends(size):
    """The result's banner takes a line above the board at the end: the board gives up its
    bottom letters, not its square size (it used to fall back to 3×1 squares at 100×32)."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await open_game(pilot, "othello", HUMANS)
        board = screen.board
        board.render()
        before = board.cell
        assert before[1] > 1
        play_moves(screen, random_game(2))
        await settle(pilot)
        assert screen.state.over
        lines = board.render().plain.rstrip("\n").split("\n")
        assert board.cell == before
        assert len(lines) <= board.size.height and all(len(line) <= board.size.width for line in lines)
        assert any("last move" in line for line in lines)  # the foot line still says what the marks are
