"""Hog on screen: snapshots of the key states (80×24, pinned theme) and Pilot tests of the keys."""

from __future__ import annotations

import time

from hypothesis import given
from hypothesis import strategies as st

from arcade.boards.hog import HogBoard
from tests.conftest import HUMANS, SIZE, make_app, open_game, play_moves, settle, snapshot_after, wait_until


def test_sow_sad_roll(snap_compare):
    assert snapshot_after(snap_compare, "hog", [3, (4, 5, 6), 5, (3, 4, 1, 6, 2)])


def test_piggy_points_turn_triggering_more_boar(snap_compare):
    # 20 against 43: Piggy Points 4 + |4 - 3| = 5 makes 25 against 43: More Boar
    assert snapshot_after(snap_compare, "hog", [4, (5, 5, 5, 5), 10, (5, 5, 5, 5, 5, 4, 4, 4, 3, 3), 0])


def test_commentary_after_a_lead_change_and_a_new_maximum_gain(snap_compare):
    assert snapshot_after(snap_compare, "hog", [4, (5, 5, 5, 5), 5, (6, 6, 6, 6, 6)])


def test_coach(snap_compare):
    assert snapshot_after(snap_compare, "hog", [4, (5, 5, 5, 5), 5, (6, 6, 6, 6, 6)], keys=["c", "3"])


def test_heat_map_with_the_cursor_moved(snap_compare):
    assert snapshot_after(
        snap_compare, "hog", [4, (5, 5, 5, 5), 5, (6, 6, 6, 6, 6)], keys=["a", "right", "right", "shift+down"]
    )


def test_the_end(snap_compare):
    # a 30-point game: Player 0 rolls five sixes and wins at once
    assert snapshot_after(snap_compare, "hog", [5, (6, 6, 6, 6, 6)], goal=30)


async def test_digits_plus_minus_and_enter_choose_and_roll():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_game(pilot, "hog", ("human", "always_roll_6"))
        board = screen.board
        assert isinstance(board, HogBoard)
        await pilot.press("3")
        assert board.chosen == 3
        await pilot.press("plus", "plus")
        assert board.chosen == 5
        await pilot.press("minus")
        assert board.chosen == 4
        await pilot.press("1", "0")  # typed quickly: ten
        assert board.chosen == 10
        await pilot.press("plus")
        assert board.chosen == 10  # no more than ten
        await pilot.press("0", "minus")
        assert board.chosen == 0
        await pilot.press("2", "enter")
        await settle(pilot)
        first = screen.history[1].event
        assert first.player == 0 and first.num_dice == 2 and first.rolling
        rolled = screen.history[2].event
        assert len(rolled.dice) == 2 and rolled.points == (1 if 1 in rolled.dice else sum(rolled.dice))
        # the bot (always_roll_6) has answered unless More Boar gave Player 0 another turn
        assert screen.state.to_move == 0
        if not rolled.more_boar:
            assert any(s.event.player == 1 and s.event.num_dice == 6 for s in screen.history[3:])


async def test_preview_line_and_coach_report_the_position():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_game(pilot, "hog", HUMANS)
        play_moves(screen, [0])  # Player 0: Piggy Points against 0: 4 points
        await settle(pilot)
        board = screen.board
        # Player 1 with 0 against 4: rolling 0 gives 4 + |0 - 4| = 8, 8 against 4: no More Boar
        assert board.preview_line().plain == "Roll 0: +8 → 8 · no extra turn"
        await pilot.press("c")
        await settle(pilot)
        table = board.table
        assert table is not None
        line = board.coach_line().plain
        assert f"{table.policy[0][4]} " in line and f"{table.win[0][4]:.1%}" in line


async def test_playing_a_whole_game_by_keys_to_the_end():
    app = make_app(seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_game(pilot, "hog", ("human", "optimal"), goal=40)
        for _ in range(200):
            if screen.result is not None:
                break
            await pilot.press("6", "enter")
            await settle(pilot)
        assert screen.result is not None and max(screen.state.scores) >= 40
        await pilot.press("enter")  # rolling after the end does nothing
        assert screen.result is not None


async def test_clicks_on_the_chooser_and_on_the_map():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_game(pilot, "hog", HUMANS)
        board = screen.board
        assert board.chosen == 5 and board.chooser_y is not None
        y = board.chooser_y
        # content x: "Dice " then " − " (5-7), " 5 " (8-10), " + " (11-13); the board's padding is 1
        await pilot.click(board, offset=(1 + 12, y))
        assert board.chosen == 6
        await pilot.click(board, offset=(1 + 6, y))
        await pilot.click(board, offset=(1 + 6, y))
        assert board.chosen == 4
        await pilot.click(board, offset=(1 + 9, y))  # the number: roll
        await settle(pilot)
        assert screen.history[1].event.num_dice == 4
        await pilot.press("a")
        await settle(pilot)
        top, left, row0, col0, rows, cols = board.map_geometry
        await pilot.click(board, offset=(1 + left + 7, top + 2))
        assert board.cursor == (row0 + 2, col0 + 7)


async def test_random_keys_never_break_the_game():
    import random

    rng = random.Random(4)
    keys = [*"0123456789", "plus", "minus", "enter", "space", "a", "c", "left", "right", "up", "down",
            "shift+up", "shift+right", "home", "u", "n"]
    app = make_app(seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_game(pilot, "hog", ("human", "optimal"))
        for _ in range(50):
            await pilot.press(rng.choice(keys))
        await settle(pilot)
        for before, after in zip(screen.history, screen.history[1:]):
            assert after.ply == before.ply + 1
        board = screen.board
        assert 0 <= board.chosen <= 10
        goal = screen.game.goal
        assert all(0 <= v < goal for v in board.cursor)


async def test_hog_keeps_the_humans_last_roll_in_view_after_the_bots_turn():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "hog", ("human", "final"))
        await pilot.press("5", "enter")
        await settle(pilot)
        mine = next(s.event for s in screen.history if s.event is not None and s.event.side == -1)
        assert screen.state.event.player == 1 and screen.state.to_move == 0  # the bot has played
        drawn = screen.board.render().plain
        assert f"Player 0's last turn: {'+'.join(map(str, mine.dice))}" in drawn or "Player 0's last turn:" in drawn
        assert screen.board.turn_text(screen.board.last_turns[0]) in drawn
        history = list(screen.history)
        await pilot.press("u")  # the dice were rolled: the roll stands, nothing is undone or re-rolled
        await settle(pilot)
        assert list(screen.history) == history and screen.board.turn_text(screen.board.last_turns[0]) in drawn


async def test_a_bot_waits_while_a_human_looks_at_the_dice(monkeypatch):
    """After the human's dice, the bot's turn waits ``DICE_LOOK`` before it starts. Checked without
    a race against the machine: the wait the screen asks for is recorded, and the bot moves no
    sooner than that long after it was asked for (a busy machine may only make it later)."""
    from arcade.screens.pacing import Pacing

    monkeypatch.setattr(Pacing, "DICE_LOOK", 2.0)
    asked: list[tuple[float, float]] = []
    wait = Pacing.wait.__func__

    def recorded(cls, step, **kwargs):
        delay = wait(cls, step, **kwargs)
        if kwargs["dice_just_rolled"]:
            asked.append((delay, time.monotonic()))
        return delay

    monkeypatch.setattr(Pacing, "wait", classmethod(recorded))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "hog", ("human", "final"))
        await pilot.press("5", "enter")
        await wait_until(pilot, lambda: screen.state.ply >= 4, what="the bot's turn and its dice")
        moved = time.monotonic()
        assert screen.state.scores[1] > 0  # the bot rolled (a roll scores at least 1)
        assert asked and asked[0][0] == 2.0
        assert moved - asked[0][1] >= 2.0


async def test_the_heat_maps_cursor_marker_never_overwrites_a_column_label():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "hog", ("human", "human"))
        await pilot.press("a")
        await settle(pilot)
        board = screen.board
        for co in range(0, 100, 3):
            board.cursor = (20, co)
            header = board.analysis_view(60, 20)[1].plain
            assert header.count("▼") == 1
            _, _, _, col0, _, cols = board.map_geometry
            expected = [o for o in range(col0, col0 + cols) if o % 10 == 0 and o - col0 + len(str(o)) < cols]
            tokens = header[len("you\\"):].replace("▼", " ").split()
            assert all(str(o) in tokens for o in expected), header


def test_hog_keeps_the_humans_roll_after_the_bots_turn(snap_compare):
    """Defect 5: the bot's dice are drawn and the human's last turn stays as a line."""
    assert snapshot_after(snap_compare, "hog", keys=("5", "enter"), players=("human", "final"))


def test_hog_heat_map_cursor_on_a_labelled_column(snap_compare):
    """Defect 9: the cursor's ▼ sits on column 30 and the label 30 moves past it."""
    assert snapshot_after(snap_compare, "hog", [4, (5, 5, 5, 5), 5, (6, 6, 6, 6, 6)], keys=["a"])


async def test_ten_dice_in_the_move_list_stay_apart_and_whole_at_80_by_24():
    """``4566325151`` read as one number: the faces keep their dashes, on two lines if need be."""
    from textual.widgets import DataTable

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, "hog", HUMANS)
        play_moves(screen, [10, (4, 5, 6, 6, 3, 2, 5, 1, 5, 1)])
        await settle(pilot)
        table = screen.query_one("#moves", DataTable)
        cell = str(table.get_row_at(table.row_count - 1)[2])
        assert cell.replace("\n", "") == "4-5-6-6-3-2-5-1-5-1"
        room = table.outer_size.width - 2 - 1 - 3 - 10 - 2  # border, scrollbar, #, who, padding
        assert all(len(line) <= room for line in cell.split("\n")), (cell, room, table.outer_size)


@given(st.text(alphabet="12-3 ab", max_size=60), st.integers(1, 30))
def test_a_broken_move_fits_its_room_and_keeps_its_text_when_there_is_room(text, room):
    from arcade.widgets.game_log import break_move

    lines = break_move(text, room)
    assert 1 <= len(lines) <= 3 and all(len(line) <= room for line in lines)
    if not any(line.endswith("…") for line in lines):
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")


async def test_the_heat_map_header_keeps_each_score_apart_from_its_name():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, "hog", HUMANS)
        play_moves(screen, [1, (1,)])
        await settle(pilot)
        summary = screen.board.score_summary().plain
        assert summary.startswith("  Player 0: 1  ▶ Player 1: 0  ") and "Player 0 1" not in summary


@given(width=st.integers(16, 100), dice=st.lists(st.integers(1, 6), min_size=1, max_size=10),
       piggy=st.booleans(), more_boar=st.booleans(), player=st.integers(0, 1))
def test_the_other_players_last_turn_always_fits_its_line(width, dice, piggy, more_boar, player):
    """At any board width, the line under the dice saying the other player's last turn is never
    cut: the faces, else their count, else the points with the rule, else the points alone."""
    from dataclasses import replace

    from games.hog import Hog, HogEvent

    game = Hog()
    board = HogBoard(game)
    board.style = lambda name: ""  # unmounted: no stylesheet to read the component classes from
    sow_sad = not piggy and 1 in dice
    points = 1 if sow_sad else (7 if piggy else sum(dice))
    board.last_turns = {player: HogEvent(side=player, move=0, text="", player=player, num_dice=0 if piggy else len(dice),
                                         dice=() if piggy else tuple(dice), points=points, sow_sad=sow_sad,
                                         piggy=piggy, more_boar=more_boar)}
    board.state = replace(game.initial_state(), event=HogEvent(side=1 - player, move=1, text="", player=1 - player, num_dice=1, dice=(2,), points=2))
    (line,) = board.other_turn_line(width)
    assert len(line.plain) <= width, line.plain
    assert line.plain.endswith(f"+{points}") or f"{points} point" in line.plain or f"+{points}" in line.plain
