"""Snapshots of issue 15's play polish: what a first-time player tripped over, looked at as
pictures (80×24 unless said, pinned theme)."""

from __future__ import annotations

from tests.conftest import make_app, play_moves, open_game, settle, snapshot_after

SIZE = (80, 24)


def test_setup_focus_shows_in_a_light_theme(snap_compare):
    """Defect 1: the focused field's row is marked (▸, reversed label, tinted field)."""

    async def run_before(pilot):
        pilot.app.theme = "textual-light"
        await pilot.pause()
        await pilot.press("tab", "tab")  # Player 1, Player 2, then the first option
        await pilot.pause()

    assert snap_compare(make_app(start_game="toothpicks"), terminal_size=SIZE, run_before=run_before)


def test_ninety_nine_toothpicks_fit_at_80_by_24(snap_compare):
    """Defect 2: every stick, the take labels and the just-taken marks show at 80×24."""
    assert snapshot_after(snap_compare, "toothpicks", moves=(3, 9), count=99, max_take=9)


def test_hog_keeps_the_humans_roll_after_the_bots_turn(snap_compare):
    """Defect 5: the bot's dice are drawn and the human's last turn stays as a line."""
    assert snapshot_after(snap_compare, "hog", keys=("5", "enter"), players=("human", "final"))


def test_othello_a_refused_typed_square_is_said_on_the_board(snap_compare):
    """Defect 6: h is column H (no vim keys); H3 at the opening is refused, the foot line says why."""
    assert snapshot_after(snap_compare, "othello", keys=("h", "3"))


def test_the_keys_panel_beside_hog_shows_the_notice_not_a_garbled_board(snap_compare):
    """Defect 7: Ctrl+P → Keys takes 30 columns; Hog's board needs them: the notice says so."""

    async def run_before(pilot):
        await pilot.pause()
        await open_game(pilot, "hog", ("human", "human"))
        pilot.app.action_show_help_panel()
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_othello_at_70_columns(snap_compare):
    """Defect 7: Othello's board is 30 wide; 70 columns are enough for the whole game screen."""
    assert snapshot_after(snap_compare, "othello", size=(70, 24))


def test_hog_heat_map_cursor_on_a_labelled_column(snap_compare):
    """Defect 9: the cursor's ▼ sits on column 30 and the label 30 moves past it."""
    assert snapshot_after(snap_compare, "hog", [4, (5, 5, 5, 5), 5, (6, 6, 6, 6, 6)], keys=["a"])


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


def test_leaving_a_game_in_progress_asks_first(snap_compare):
    """Friction: q in a game in progress asks before throwing it away."""
    assert snapshot_after(snap_compare, "toothpicks", moves=(2,), keys=("q",))
