"""Robot Ludo on screen: snapshots of the key states (80×24, pinned theme) and Pilot tests of
the keys (Tab/arrows cycle, Enter plays, e enters)."""

from __future__ import annotations

from arcade.boards.ludo import LudoBoard, ring_cells, ring_shape
from games.ludo import Ludo, make_start_board
from tests.conftest import HUMANS, SIZE, make_app, open_game, play_moves, settle


def place(screen, board, turn, roll=None) -> None:
    """Make the position of a notebook ``board`` current (``turn`` to roll, or rolled ``roll``)."""
    state = screen.game.state_from_board(board, turn, roll)
    screen.session.history = [screen.game.initial_state(), state]
    screen.generation += 1
    screen.rebuild_logs()
    screen.advance()


def snapshot(snap_compare, setup, keys=(), players=HUMANS, **settings):
    async def run_before(pilot):
        await pilot.pause()
        screen = await open_game(pilot, "ludo", players, **settings)
        setup(screen)
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
        await settle(pilot)

    return snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def readme_position() -> object:
    board = make_start_board(6, 12, (3, 9))
    board.red = [0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0]
    board.blue = [0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]
    board.redpen, board.bluepen = 3, 4
    return board


def test_start(snap_compare):
    assert snapshot(snap_compare, lambda screen: None, players=("human", "expectimax"))


def test_a_six_with_entering_highlighted(snap_compare):
    def setup(screen):
        place(screen, make_start_board(4, 20), turn=0)
        play_moves(screen, [6, (0, 0, 0), 6, (1, 0, 0), 3, (0, 0, 3), 2, (1, 10, 2), 6])

    assert snapshot(snap_compare, setup)


def test_a_cut_with_its_ghost(snap_compare):
    def setup(screen):
        place(screen, readme_position(), turn=1, roll=3)
        play_moves(screen, [(1, 1, 3), 6])  # Blue's counter at 1 cuts both Red counters at 4; Red rolls 6

    assert snapshot(snap_compare, setup, counters=6, length=12, safe="3,9")


def test_a_stack(snap_compare):
    board = make_start_board(6, 20, (5,))
    board.red = [0] * 20
    board.blue = [0] * 20
    board.red[3] = 3  # a stack of three
    board.red[5] = 1  # sharing a safe square with two Blue counters
    board.blue[5] = 2
    board.blue[10] = 1
    board.red[16] = 1
    board.redpen, board.bluepen = 1, 2

    def setup(screen):
        place(screen, board, turn=0, roll=2)

    assert snapshot(snap_compare, setup, keys=["tab"], counters=6, length=20, safe="5")


def test_the_end(snap_compare):
    def setup(screen):
        place(screen, make_start_board(1, 6), turn=0)
        play_moves(screen, [6, (0, 0, 0), 6, (1, 0, 0), 6, (0, 0, 6)])  # Red goes round in one 6

    assert snapshot(snap_compare, setup, counters=1, length=6)


# -- Pilot tests of the keys ----------------------------------------------------------------

async def test_tab_cycles_enter_plays_and_e_enters():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_game(pilot, "ludo", HUMANS, counters=3, length=20)
        board = screen.board
        assert isinstance(board, LudoBoard)
        # a controlled position: Red has counters on 2 and 9 and rolled 6
        start = make_start_board(3, 20)
        start.red[2] = start.red[9] = 1
        start.redpen = 1
        place(screen, start, turn=0, roll=6)
        await settle(pilot)
        assert board.chosen_move() == (0, 0, 0)
        await pilot.press("tab")
        assert board.chosen_move() == (0, 2, 6)
        await pilot.press("right")
        assert board.chosen_move() == (0, 9, 6)
        await pilot.press("shift+tab")
        await pilot.press("enter")
        await settle(pilot)
        moved = [s for s in screen.history if s.event is not None and s.event.side == 0]
        assert moved[-1].event.move == (0, 2, 6)
        # Blue's turn now, then e enters on a 6
        place(screen, start, turn=0, roll=6)
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        moved = [s for s in screen.history if s.event is not None and s.event.side == 0]
        assert moved[-1].event.entered


async def test_e_without_a_six_is_refused_and_commentary_announces_a_cut():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_game(pilot, "ludo", HUMANS, counters=6, length=12, safe="3,9")
        place(screen, readme_position(), turn=1, roll=3)
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert screen.state.to_move == 1  # nothing played
        await pilot.press("enter")  # the first move: 1 -> 4, cutting two
        await settle(pilot)
        lines = [str(line.text) for line in screen.query_one("#commentary").lines]
        assert any("Cut!" in line for line in lines)


def test_ring_geometry_for_every_length():
    for length in range(6, 41, 2):
        width, height = ring_shape(length)
        cells = ring_cells(length)
        assert 2 * width + 2 * height - 4 == length and len(set(cells.values())) == length
        assert cells[0] == (0, height - 1) and cells[length // 2] == (width - 1, 0)
        assert width * 4 <= 46 and height <= 11  # fits the board area at 80×24
        game = Ludo(length=length)
        assert game.home_square(1) == length // 2


def test_the_longest_track_fits(snap_compare):
    """Length 40 with ten counters a side: the ring fills the board area at 80×24."""
    board = make_start_board(10, 40, (5, 25))
    board.red[0] = 2
    board.red[7] = 1
    board.red[33] = 1
    board.red[25] = 1
    board.blue[25] = 1
    board.blue[20] = 3
    board.blue[39] = 1
    board.blue[2] = 1
    board.redpen, board.bluepen = 5, 4

    def setup(screen):
        place(screen, board, turn=1, roll=4)
        play_moves(screen, [(1, 39, 4), 5])  # Blue 39 -> 3 (no cut); Red rolls 5

    assert snapshot(snap_compare, setup, counters=10, length=40, safe="5,25")


async def test_a_humans_forced_pass_in_ludo_is_played_for_them_with_a_note():
    from games.ludo import make_start_board

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "ludo", ("human", "human"))
        state = screen.game.state_from_board(make_start_board(4, 20), 0, 2)  # all in the pen, a 2
        screen.session.history = [screen.game.initial_state(), state]
        screen.rebuild_logs()
        screen.generation += 1
        screen.advance()
        await settle(pilot)
        passes = [s for s in screen.history if s.event is not None and s.event.side == 0]
        assert passes and passes[0].event.move == (0, -1, -1)  # no Enter needed
        log = "\n".join(strip.text for strip in screen.query_one("#commentary").lines)
        assert "Red has no move: passed for you" in log
        assert screen.state.to_move != 0 or screen.state.roll is None


async def test_ludo_analysis_shows_expectimaxs_move_on_the_board():
    import random

    from bots.base import Context
    from bots.ludo import BOTS
    from games.ludo import make_start_board

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "ludo", ("human", "human"))
        board = make_start_board(4, 20)
        board.red[3], board.red[8], board.blue[12], board.redpen, board.bluepen = 1, 1, 1, 2, 3
        state = screen.game.state_from_board(board, 0, 5)
        screen.session.history = [screen.game.initial_state(), state]
        screen.generation += 1
        screen.advance()
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        best = BOTS["expectimax"].make(screen.game).choose(state, Context(rng=random.Random(0), time_limit=0.5))
        label = screen.game.move_label(state, best)
        assert f"★ expectimax: {label}" in screen.board.render().plain


async def test_ludo_longest_track_with_the_analysis_on_keeps_every_line_inside_the_ring_at_80x24():
    """The die, both pens, the analysis's move, the last move and the legend all fit inside the
    longest ring (the last move moves beside the die when a line is short)."""
    from games.ludo import make_start_board

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "ludo", ("human", "human"), counters=10, length=40, safe="5,25")
        board = make_start_board(10, 40, (5, 25))
        board.red[0], board.red[7], board.blue[20], board.blue[39] = 2, 1, 3, 1
        board.redpen, board.bluepen = 7, 6
        state = screen.game.state_from_board(board, 1, 4)
        screen.session.history = [screen.game.initial_state(), state]
        screen.generation += 1
        screen.advance()
        await settle(pilot)
        play_moves(screen, [(1, 39, 4), 5])
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        text = screen.board.render().plain
        for wanted in ("roll 5", "R pen 7", "B pen 6", "★ expectimax:", "last B 39→3", "just left"):
            assert wanted in text, wanted


async def test_the_ludo_ring_numbers_its_squares_when_there_is_room():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "ludo", ("human", "human"))
        lines = screen.board.render().plain.split("\n")
        top, bottom = lines[1].split(), lines[1 + 7 + 1].split()
        assert top == ["14", "13", "12", "11", "10"] and bottom[:5] == ["0", "1", "2", "3", "4"]
        text = "\n".join(lines)
        assert "⌂ home ◇ safe square" in text and "∘ just left · R² = 2 Red" in text


def test_ludo_move_list_in_squares(snap_compare):
    """Defect 9: the move list says enter →0, 0→3, pass… not (0, 0, 0) tuples."""
    from games.ludo import make_start_board

    async def run_before(pilot):
        await pilot.pause()
        screen = await open_game(pilot, "ludo", ("human", "human"))
        state = screen.game.state_from_board(make_start_board(4, 20), 0, None)
        screen.session.history = [screen.game.initial_state(), state]
        play_moves(screen, [6, (0, 0, 0), 6, (1, 0, 0), 3, (0, 0, 3), 2, (1, 10, 2), 5, (0, 3, 5), 1])
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


# -- the real tournament's settings at 80×24 ---------------------------------------------------

def test_the_contest_preset_at_80x24(snap_compare):
    """The tournament's 12 counters on 36 squares (safe 9 and 27): both colours on the safe
    squares (``R²B³`` takes the mark's column; the tile still shows the square is safe), a stack
    at Blue's home, the counts beside the ring."""
    board = make_start_board(12, 36, (9, 27))
    board.red[0], board.red[9], board.red[14], board.red[27], board.red[31] = 3, 2, 1, 1, 1
    board.blue[9], board.blue[18], board.blue[27], board.blue[3], board.blue[12] = 3, 4, 1, 1, 1
    board.redpen, board.bluepen = 4, 2

    def setup(screen):
        place(screen, board, turn=0, roll=5)
        play_moves(screen, [(0, 31, 5), 3])  # Red 31 -> home (31 + 5 = 36); Blue rolls 3

    assert snapshot(snap_compare, setup, **Ludo.presets["contest"])


def test_fifteen_counters_on_forty_squares_at_80x24(snap_compare):
    """The largest game: a stack of twelve, eleven Red sharing Red's home with two Blue
    (``R⁺B²``: a count of ten or more shortens where both colours share four columns), a cut's
    ghost, pens and homes in two digits."""
    board = make_start_board(15, 40, (10, 30))
    board.red[0], board.red[10], board.red[33] = 11, 1, 1
    board.blue[0], board.blue[10], board.blue[20], board.blue[29] = 2, 1, 12, 0
    board.redpen, board.bluepen = 2, 0

    def setup(screen):
        place(screen, board, turn=1, roll=4)
        play_moves(screen, [(1, 20, 4), 6])  # Blue 20 -> 24; Red rolls 6

    assert snapshot(snap_compare, setup, counters=15, length=40, safe="10,30")


def test_a_squares_stack_is_never_a_count_cut_in_two():
    """Any stacks of up to 15 a colour, with a cut's ghost, fit a square of four columns (and of
    six) without a count cut short: each letter shows its exact count, or ``⁺`` for ten or more."""
    import re

    from hypothesis import given, settings
    from hypothesis import strategies as st
    from rich.style import Style

    from arcade.boards.ludo import SUPERSCRIPT

    digits = {v: k for k, v in zip("0123456789", "0123456789".translate(SUPERSCRIPT))}

    @settings(max_examples=300, deadline=None)
    @given(red=st.integers(0, 15), blue=st.integers(0, 15), ghost=st.integers(0, 15), cw=st.sampled_from([4, 6]))
    def check(red, blue, ghost, cw):
        pieces = [(letter, count, Style()) for letter, count in (("R", red), ("B", blue), ("b", ghost)) if count]
        text, room = LudoBoard.stack_text(pieces, cw - 1, cw)
        assert text.cell_len <= room <= cw
        shown = dict(re.findall(r"([RBb])([⁰¹²³⁴⁵⁶⁷⁸⁹⁺]*)", text.plain))
        for letter, count, _ in pieces:
            if letter not in shown:
                assert letter == "b"  # only a ghost may give way
                continue
            mark = shown[letter]
            assert (mark == "⁺" and count >= 10) or int("".join(digits[c] for c in mark) or "1") == count

    check()


async def test_with_the_analysis_on_at_80_by_24_the_legend_stays_on_the_board_and_every_square_is_numbered():
    """The die, the pens, the analysis's move, the last move and the legend beside the 20-square
    ring within the board's twelve lines; every square's number is on the screen (the rows above
    and below the ring, the side squares' own)."""
    app = make_app(seed=21)  # Red's first roll is a 6: a move to analyse
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "ludo", ("human", "heuristic"))
        await pilot.press("a")
        await settle(pilot)
        board = screen.board
        lines = board.render().plain.rstrip("\n").split("\n")
        assert len(lines) <= board.size.height
        text = "\n".join(lines)
        for wanted in ("roll 6", "R pen 4", "B pen 4", "★ expectimax:", "⌂", "◇", "just left"):
            assert wanted in text, wanted
        numbers = {token for line in lines for token in line.replace("│", " ").split() if token.isdigit()}
        assert set(map(str, range(20))) <= numbers
