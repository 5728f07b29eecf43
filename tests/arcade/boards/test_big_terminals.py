"""The boards on a big terminal (issue 15, friction: larger terminals): centred, larger cells where
a game can (D-Football's boxed players, Toothpicks' taller sticks, Robot Ludo's two-line squares,
Hog's big dice), the commentary grown. Snapshots looked at as pictures; Pilot tests that clicks
still land on the larger cells. And Robot Ludo's square numbers on the longest track at 80×24."""

from __future__ import annotations

import re

from arcade.boards.dfootball import FootballBoard
from arcade.boards.ludo import LudoBoard
from games.ludo import make_start_board
from tests.conftest import HUMANS, SIZE, make_app, open_game, settle, snapshot_after

BIG = (120, 40)
HUGE = (160, 50)


def test_dfootball_at_120_by_40_centred_with_a_jump(snap_compare):
    assert snapshot_after(snap_compare, "dfootball", moves=(11, 13), size=BIG)


def test_dfootball_at_160_by_50_boxed_players_and_the_analysis(snap_compare):
    assert snapshot_after(snap_compare, "dfootball", moves=(11, 13), keys=("a",), size=HUGE)


def test_othello_at_120_by_40_bigger_squares_with_a_move(snap_compare):
    assert snapshot_after(snap_compare, "othello", moves=(20,), size=BIG)  # E3


def test_toothpicks_at_120_by_40_tall_sticks_centred(snap_compare):
    assert snapshot_after(snap_compare, "toothpicks", moves=(2,), size=BIG)


def test_ludo_at_120_by_40_two_line_squares(snap_compare):
    from tests.arcade.boards.test_ludo import place, readme_position

    async def run_before(pilot):
        await pilot.pause()
        screen = await open_game(pilot, "ludo", HUMANS, counters=6, length=12, safe="3,9")
        place(screen, readme_position(), turn=0, roll=2)
        await settle(pilot)
        await pilot.press("tab")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=BIG, run_before=run_before)


def test_ludo_longest_track_at_160_by_50(snap_compare):
    assert snapshot_after(snap_compare, "ludo", size=HUGE, counters=10, length=40)


def test_hog_at_120_by_40_big_dice_with_a_sow_sad(snap_compare):
    assert snapshot_after(snap_compare, "hog", moves=(4, (5, 1, 3, 6)), size=BIG)


def test_hog_ten_big_dice_in_two_rows_at_160_by_50(snap_compare):
    assert snapshot_after(snap_compare, "hog", moves=(10, (5, 2, 3, 6, 4, 4, 5, 6, 2, 3)), size=HUGE)


async def test_a_click_on_a_boxed_dfootball_player_moves_it():
    app = make_app()
    async with app.run_test(size=HUGE) as pilot:
        screen = await open_game(pilot, "dfootball", HUMANS, n=11)
        board = screen.query_one(FootballBoard)
        assert board.width_per_square == 5 and "box_top" in board.rows
        field = board.query_one("#field")
        await pilot.click(field, offset=(board.column(11), board.rows["box_top"]))
        await settle(pilot)
        assert screen.state.ply == 1 and screen.state.event.move == 11


async def test_a_click_on_a_two_line_ludo_square_plays_its_counter():
    from tests.arcade.boards.test_ludo import place, readme_position

    app = make_app()
    async with app.run_test(size=BIG) as pilot:
        screen = await open_game(pilot, "ludo", HUMANS, counters=6, length=12, safe="3,9")
        place(screen, readme_position(), turn=0, roll=2)
        await settle(pilot)
        board = screen.query_one(LudoBoard)
        assert (board.cell_w, board.cell_h) == (6, 2)
        col, row = board.cells[4]  # one of Red's two counters on 4 moves 2 to 6
        ox, oy = board._origin
        # the tile's second line, inside the board's padding
        await pilot.click(board, offset=(1 + ox + col * board.cell_w + 2, oy + row * board.cell_h + 1))
        await settle(pilot)
        red = screen.state.squares(0)
        assert (red[4], red[6]) == (1, 1)


async def test_ludo_longest_track_numbers_every_square_at_80_by_24():
    """Issue 15: the move list says 'B 15→17'; on the longest track at 80×24 there is no room
    for numbers round the ring, so every empty square shows its own number."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, "ludo", HUMANS, counters=10, length=40)
        board = screen.query_one(LudoBoard)
        assert board.numbered_cells
        lines = board.render_board().plain.split("\n")
        ox, oy = board._origin
        for square, (col, row) in board.cells.items():
            cell = lines[oy + row][ox + col * board.cell_w: ox + (col + 1) * board.cell_w]
            assert re.search(rf"(?<!\d){square}(?!\d)", cell), (square, cell)
        # a counter's square shows the counter; its neighbours keep their numbers
        place_board = make_start_board(10, 40)
        place_board.blue[15] = 1
        state = screen.game.state_from_board(place_board, 0, None)
        screen.session.history = [screen.game.initial_state(), state]
        screen.generation += 1
        screen.rebuild_logs()
        screen.advance()
        await settle(pilot)
        plain = board.render_board().plain
        assert "B" in plain and re.search(r"(?<!\d)14(?!\d)", plain) and re.search(r"(?<!\d)16(?!\d)", plain)
        assert not re.search(r"(?<!\d)15(?!\d)", "\n".join(plain.split("\n")[oy: oy + 11]))
