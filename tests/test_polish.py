"""Issue 15, play polish: Pilot and unit tests of the defects and frictions a first-time player met."""

from __future__ import annotations

import pytest
from textual.color import Color
from textual.widgets import Input, Label, Select

from arcade.screens.setup import SetupScreen
from tests.conftest import make_app, open_game, play_moves, settle


# -- defect 1: the focused setup field shows in every theme ---------------------------------------
@pytest.mark.parametrize("theme", ["textual-dark", "textual-light", "nord", "gruvbox", "solarized-light"])
async def test_the_focused_setup_field_stands_out_in_every_theme(theme):
    app = make_app(start_game="othello")
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        await pilot.press("tab")  # Player 2's choice
        await pilot.pause()
        focused = screen.focused
        assert isinstance(focused, Select) and focused.id == "side-1"
        labels = list(screen.query(".setup-label").results(Label))
        marked = [label for label in labels if str(label.content).startswith("▸")]
        assert [str(label.content).strip("▸ ") for label in marked] == [app.screen.game_cls.sides[1].name]
        # the marked label's background is the accent, far from the screen's own
        background = screen.styles.background
        label_bg = marked[0].styles.background
        assert _distance(label_bg, background) > 100
        unmarked = [label for label in labels if label not in marked]
        assert all(label.styles.background.a == 0 or label.styles.background == background for label in unmarked)


def _distance(a: Color, b: Color) -> float:
    return sum((x - y) ** 2 for x, y in zip(a.rgb, b.rgb)) ** 0.5


async def test_an_option_error_names_the_options_label_not_its_key():
    app = make_app(start_game="dfootball")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        field = app.screen.query_one("#option-n", Input)
        field.value = "40"
        await pilot.press("ctrl+s")
        await pilot.pause()
        error = str(app.screen.query_one("#setup-error").render())
        assert "Players a side must be 1–15, not '40'" in error
        assert "'n'" not in error
        assert app.screen.focused is field


# -- defect 2: 99 toothpicks at 80×24 ---------------------------------------------------------------
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


# -- defect 3: the commentary wraps to the width left by its scrollbar ------------------------------
async def test_commentary_lines_keep_their_last_character_when_the_scrollbar_appears():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "hog", ("human", "human"))
        log = screen.query_one("#commentary")
        width = log.scrollable_content_region.width
        for n in range(12):  # exactly as wide as the pane, then the scrollbar appears
            screen.write_commentary(f"{n:02d} " + "x" * (width - 6) + " y.")
        await pilot.pause()
        assert log.show_vertical_scrollbar and not log.show_horizontal_scrollbar
        assert log.scrollable_content_region.width == width
        assert [strip.text.rstrip()[-3:] for strip in log.lines[-12:]] == [" y."] * 12
        assert all(strip.cell_length <= width for strip in log.lines)


# -- defect 4: the Footer keeps Rules and Menu, and says what each key does now ----------------------
def _footer(screen) -> dict[str, str]:
    """The keys the Footer shows: key → description."""
    shown = {}
    for key, active in screen.active_bindings.items():
        if active.binding.show and active.binding.description:
            shown.setdefault(active.binding.action, (key, active.binding))
    return {key: binding.description for key, binding in shown.values()}


def _footer_columns(screen) -> int:
    shown = {}
    for key, active in screen.active_bindings.items():
        if active.binding.show and active.binding.description:
            shown.setdefault(active.binding.action, active.binding)
    return sum(screen.footer_width(binding) for binding in shown.values()) + screen.PALETTE_WIDTH


@pytest.mark.parametrize("game_id, players, moves", [
    ("ludo", ("human", "human"), [6]),            # Tab, Enter and "e Enter counter"
    ("hog", ("final", "always_roll_5"), None),     # bots to the end
    ("othello", ("human", "human"), []),
    ("dfootball", ("human", "human"), []),
    ("toothpicks", ("human", "human"), []),
])
@pytest.mark.parametrize("width", [80, "smallest"])
async def test_the_footer_fits_and_keeps_rules_and_menu(game_id, players, moves, width):
    from arcade.catalog import CATALOG

    if width == "smallest":  # the narrowest terminal the game accepts
        entry = CATALOG[game_id]
        width = entry.board_class()(entry.load()()).min_size()[0]
    app = make_app()
    async with app.run_test(size=(width, 24)) as pilot:
        screen = await open_game(pilot, game_id, players)
        for _ in range(1200):  # bots: to the end (a minute at most, for a loaded machine)
            if "human" in players or screen.result is not None:
                break
            await pilot.pause(0.05)
        if moves:  # Ludo: Red has rolled a six (enter a counter, or not)
            from games.ludo import make_start_board

            state = screen.game.state_from_board(make_start_board(4, 20), 0, 6)
            screen.session.history = [screen.game.initial_state(), state]
            screen.generation += 1
            screen.advance()
            await settle(pilot)
            assert _footer(screen).get("e") == "Enter counter"
        footer = _footer(screen)
        assert footer.get("question_mark") == "Rules" and footer.get("q") == "Menu", footer
        assert _footer_columns(screen) <= width, footer
        if players[0] != "human":
            assert screen.result is not None
            assert "p" not in footer and "s" not in footer  # nothing to pause after the end


async def test_pause_becomes_resume_and_a_key_left_out_of_the_footer_still_works():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "dfootball", ("random_move", "random_move"), wait=False, n=15)
        await pilot.press("p")
        await pilot.pause()
        assert screen.paused and _footer(screen).get("p") == "Resume"
        await pilot.press("p")
        await pilot.pause()
        assert not screen.paused and _footer(screen).get("p") == "Pause"
        await pilot.press("p")
        await pilot.resize_terminal(72, 24)
        await pilot.pause()
        assert not screen.has_class("too-small")
        assert _footer(screen).get("a") == "Analysis" and _footer(screen).get("q") == "Menu"
        assert "pace" in screen.footer_hidden and "plus" not in _footer(screen)
        assert "step" in screen.footer_hidden and "s" not in _footer(screen)
        pace = screen.pace
        await pilot.press("plus")  # still works
        await pilot.pause()
        assert screen.pace == pace + 1
        played = len(screen.history)
        await pilot.press("s")  # so does step: paused, one move
        await settle(pilot)
        assert screen.paused and len(screen.history) == played + 1


# -- defect 5: Hog keeps each player's last roll, and a bot waits while the human looks at the dice ---
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
        await pilot.press("u")  # undo back to the start: no stale last turn
        await settle(pilot)
        assert screen.board.last_turns == {} and "last turn" not in screen.board.render().plain


async def test_a_bot_waits_while_a_human_looks_at_the_dice(monkeypatch):
    from arcade.screens.game import GameScreen

    monkeypatch.setattr(GameScreen, "DICE_LOOK", 2.0)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "hog", ("human", "final"))
        await pilot.press("5", "enter")
        await pilot.pause(0.2)
        assert screen.state.event.side == -1 and screen.state.to_move == 1  # the dice, the bot waits
        await pilot.pause(2.0)
        await settle(pilot)
        assert screen.state.to_move == 0


# -- defect 7: size notices by each game's real need; the keys panel never garbles a board -----------
@pytest.mark.parametrize("width, small", [(79, False), (70, False), (69, True)])
async def test_othello_plays_in_any_terminal_its_board_fits(width, small):
    app = make_app()
    async with app.run_test(size=(width, 24)) as pilot:
        screen = await open_game(pilot, "othello", ("human", "human"))
        assert screen.has_class("too-small") == small


async def test_the_keys_panel_shows_the_notice_instead_of_a_garbled_board():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "hog", ("human", "human"))
        assert not screen.has_class("too-small")
        app.action_show_help_panel()
        await settle(pilot)
        assert screen.has_class("too-small")
        notice = str(screen.query_one("#too-small-notice").render())
        assert "50×24 beside the keys panel" in notice
        app.action_hide_help_panel()
        await settle(pilot)
        assert not screen.has_class("too-small") and screen.board.size.width > 40
    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:  # room for both: the game stays
        screen = await open_game(pilot, "hog", ("human", "human"))
        app.action_show_help_panel()
        await settle(pilot)
        assert not screen.has_class("too-small")


# -- defect 8: every screen survives any size ---------------------------------------------------------
TINY = [(1, 1), (3, 2), (6, 4), (7, 3), (10, 4), (20, 5), (30, 8)]


async def _open(pilot, where: str):
    from arcade.screens.help import HelpScreen
    from arcade.screens.tournament import TournamentScreen

    app = pilot.app
    if where == "help":
        await app.push_screen(HelpScreen("hog"))
    elif where == "tournament":
        await app.push_screen(TournamentScreen("toothpicks"))
    elif where.startswith("setup-"):
        await app.push_screen(SetupScreen(__import__("arcade.catalog").catalog.CATALOG[where[6:]]))
    elif where.startswith("game-"):
        await open_game(pilot, where[5:], ("human", "human"), wait=False)
    await pilot.pause()


@pytest.mark.parametrize("where", ["menu", "help", "tournament", "setup-ludo", "game-ludo", "game-hog",
                                   "game-othello", "game-dfootball", "game-toothpicks"])
async def test_every_screen_survives_any_size_and_paging(where):
    for size in TINY:
        app = make_app()
        async with app.run_test(size=size) as pilot:
            await _open(pilot, where)
            for key in ("pagedown", "pageup", "down", "up", "end", "home", "tab"):
                await pilot.press(key)
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await pilot.resize_terminal(*size)
            await pilot.pause()
        assert app.return_code in (None, 0), (where, size)


# -- defect 9: the small things -------------------------------------------------------------------------
async def test_a_long_bot_name_puts_the_score_on_its_own_line():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "dfootball", ("random_move", "human"), n=4)
        panel = screen.query_one("#side-panel")
        text = str(panel.render()).splitlines()
        assert "bot random_move" in [line.strip() for line in text] and "4 players" in [line.strip() for line in text]
        assert all(len(line) <= panel.size.width for line in text)


async def test_othello_never_shows_two_analysis_keys_even_when_too_small():
    app = make_app()
    async with app.run_test(size=(60, 24)) as pilot:
        screen = await open_game(pilot, "othello", ("human", "human"))
        assert screen.has_class("too-small")
        assert list(_footer(screen).values()).count("Analysis") == 1


async def test_the_move_list_shows_moves_as_players_read_them_and_never_cuts_dice():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "hog", ("human", "human"))
        play_moves(screen, [10, (4, 5, 5, 3, 3, 4, 4, 5, 5, 3)])
        await settle(pilot)
        table = screen.query_one("#moves")
        assert table.get_row_at(1)[2] == "4553344553"
        assert not table.show_horizontal_scrollbar
    from games.ludo import Ludo, make_start_board

    game = Ludo()
    state = game.state_from_board(make_start_board(4, 20), 0, 6)
    assert game.move_label(state, (0, 0, 0)) == "enter →0"
    assert game.move_label(state, (0, -1, -1)) == "pass"
    assert game.move_label(game.state_from_board(make_start_board(4, 20), 1, 3), (1, 15, 3)) == "15→18"
    assert game.move_label(game.state_from_board(make_start_board(4, 20), 1, 3), (1, 8, 2)) == "8→home"


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


async def test_undo_when_only_the_bot_has_moved_refuses_instead_of_replaying_it():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("perfect", "human"))
        assert len(screen.history) == 2 and screen.state.to_move == 1
        first = screen.history[1]
        await pilot.press("u")
        await settle(pilot)
        assert screen.history[1] is first and len(screen.history) == 2
        assert any("Nothing of yours" in str(n.message) for n in app._notifications)
        await pilot.press("1")
        await settle(pilot)
        await pilot.press("u")  # now there is a move of the human's to take back
        await settle(pilot)
        assert len(screen.history) == 2 and screen.state.to_move == 1


async def test_othello_shows_no_cursor_at_a_pass_and_a_disc_under_the_cursor_keeps_its_colour():
    from games.othello import PASS
    from tests.test_othello_screens import first_pass_game

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


# -- defect 10: Robot Ludo's course API copies boards as the course does; moves of the declared type --
def test_a_copied_ludo_board_is_a_board_of_its_own():
    import copy
    import timeit

    from games.ludo import Ludo, make_start_board, makemove

    board = make_start_board(4, 20, [5])
    board.red[3] = 1
    twin = copy.copy(board)
    assert twin == board and twin is not board
    assert twin.red is not board.red and twin.blue is not board.blue and twin.safe is not board.safe
    twin.red[3] = 0
    twin.blue[7] = 2
    twin.redpen = 0
    assert board.red[3] == 1 and board.blue[7] == 0 and board.redpen == 4  # the live board is untouched
    moved = makemove(board, (0, 3, 2))
    assert moved is not board and board.red[3] == 1 and moved.red[5] == 1 and moved.red[3] == 0
    assert makemove(board, (0, 3, 2), copy=False) is board and board.red[5] == 1
    fast = min(timeit.repeat(lambda: makemove(moved, (0, 5, 1)), number=2000, repeat=3))
    slow = min(timeit.repeat(lambda: copy.deepcopy(moved), number=2000, repeat=3))
    assert fast * 3 < slow  # a shallow copy of three lists, not deepcopy


def test_ludo_takes_moves_of_the_declared_type_only():
    from games.base import IllegalMove
    from games.ludo import Ludo, make_start_board

    game = Ludo()
    state = game.state_from_board(make_start_board(4, 20), 0, 6)
    assert (0, 0, 0) in game.legal_moves(state)
    for wrong in ([0, 0, 0], (0.0, 0, 0), (False, 0, 0), "000", (0, 0)):
        with pytest.raises(IllegalMove):
            game.play(state, wrong)
    assert game.play(state, (0, 0, 0)).pens == (3, 4)


# -- defect 11: D-Football perfect keeps its deadline with margin ---------------------------------------
def test_dfootball_perfect_answers_well_inside_100_ms_even_on_a_slow_clock():
    import random

    import bots.dfootball as dfb
    from bots.dfootball.solver import child, moves, start_position

    # no phase may start after 25 ms: 75 ms of margin for what no deadline controls (time slices)
    assert max(dfb.WIN_DEADLINE, dfb.EXTRA_SECONDS, dfb.LOSS_DEADLINE, dfb.HARD_DEADLINE) <= 0.025

    class SlowClock:
        """Time as a machine twenty times slower sees it: 1 ms passes at every reading."""

        def __init__(self) -> None:
            self.now = 0.0

        def __call__(self) -> float:
            self.now += 0.001
            return self.now

    rng = random.Random(3)
    searched = 0
    for _ in range(40):
        m, o = start_position(11)
        size = 23
        for _ply in range(30):
            options = moves(m, o, size)
            if not options:
                break
            if dfb.BOOK.get(size, m, o) is None:
                clock = SlowClock()
                decision = dfb.decide(m, o, size, clock=clock, table={})
                assert decision.seconds <= dfb.HARD_DEADLINE + 0.005, decision
                searched += decision.path != "book"
            bit = rng.choice(options)[0]
            m, o = child(m, o, bit, size)
    assert searched > 50


# -- friction: no game in progress is thrown away without a question --------------------------------
async def test_leaving_or_restarting_a_game_in_progress_asks_first():
    from arcade.screens.confirm import ConfirmScreen
    from arcade.screens.game import GameScreen
    from arcade.screens.menu import MenuScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "human"))
        await pilot.press("q")  # nothing played yet: leaves at once
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        screen = await open_game(pilot, "toothpicks", ("human", "human"))
        await pilot.press("1")
        await settle(pilot)
        for key in ("q", "escape", "n"):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("n")  # No: the game goes on
            await settle(pilot)
            assert app.screen is screen and len(screen.history) == 2
        await pilot.press("n", "y")  # Yes to a new game
        await settle(pilot)
        assert app.screen is screen and len(screen.history) == 1
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("q", "y")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)


async def test_a_finished_game_is_left_without_a_question():
    from arcade.screens.menu import MenuScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "human"), count=1)
        await pilot.press("1")
        await settle(pilot)
        assert screen.result is not None
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)


# -- friction: Robot Ludo plays a human's forced pass, with a note ------------------------------------
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


# -- friction: a speed control when bots play each other ----------------------------------------------
async def test_minus_and_plus_change_the_pace_of_bots_playing_each_other(monkeypatch):
    from arcade.screens.game import GameScreen

    monkeypatch.setattr(GameScreen, "WATCH_DELAY", 0.8)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("random", "random"), wait=False, count=99)
        footer = _footer(screen)
        assert footer.get("minus") == "Slow" and footer.get("plus") == "Fast" and footer.get("a") == "Analysis"
        assert screen.watch_delay() == pytest.approx(0.8)
        assert "pace: 0.8 s a move" in str(screen.query_one("#side-panel").render())
        await pilot.press("minus")
        assert screen.watch_delay() == pytest.approx(1.6)
        for _ in range(10):
            await pilot.press("plus")
        assert screen.watch_delay() == 0 and "plus" not in _footer(screen)  # the fastest: no wait
        for _ in range(100):  # bots now play without waiting: 99 toothpicks are soon gone
            if screen.result is not None:
                break
            await pilot.pause(0.05)
        assert screen.result is not None
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:  # a human's game has no pace keys
        screen = await open_game(pilot, "toothpicks", ("human", "random"))
        assert "minus" not in _footer(screen) and "pace" not in str(screen.query_one("#side-panel").render())


# -- friction: Othello's casual default is quick, the contest's one choice away ---------------------------
async def test_othello_setup_starts_quick_and_offers_the_contests_time_limit():
    from arcade.screens.game import GameScreen
    from games.othello import TIME_LIMIT, Othello

    assert Othello().time_limit == TIME_LIMIT == 10.0  # the command line and matches keep the contest's
    app = make_app(start_game="othello")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        field = app.screen.query_one("#option-time_limit", Select)
        assert field.value == "1.0"
        assert ("10 s · the contest's", "10.0") in [(str(label), value) for label, value in field._options]
        field.value = "10.0"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.screen.game.time_limit == 10.0


# -- friction: the analysis shows the recommended move on the board --------------------------------------
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

# -- friction: setup remembers the last choices per game, and the theme -----------------------------------
async def test_setup_remembers_the_last_players_and_options_per_game_and_the_theme(tmp_path, monkeypatch):
    import json
    import os

    from arcade import memory
    from arcade.screens.game import GameScreen

    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # nothing may go to the real home
    assert memory.config_dir() == tmp_path / "config" / "contest-arcade"
    app = make_app(start_game="toothpicks")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.query_one("#side-1", Select).value = "random"
        app.screen.query_one("#option-count", Input).value = "21"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        app.theme = "nord"
        await pilot.pause()
    saved = json.loads((memory.config_dir() / "settings.json").read_text())
    assert saved["games"]["toothpicks"] == {"players": ["human", "random"], "settings": {"count": 21, "max_take": 2}}
    assert saved["theme"] == "nord"
    assert not (tmp_path / "home").exists()
    app = make_app(start_game="toothpicks")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "nord"
        assert app.screen.query_one("#side-1", Select).value == "random"
        assert app.screen.query_one("#option-count", Input).value == "21"
    app = make_app(start_game="hog")  # another game: its own defaults
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#side-0", Select).value == "human"


def test_a_broken_settings_file_is_ignored():
    from arcade import memory

    memory.config_dir().mkdir(parents=True)
    (memory.config_dir() / "settings.json").write_text("{not json")
    assert memory.last_setup("hog") == (None, None) and memory.last_theme() is None
    memory.remember_theme("nord")
    assert memory.last_theme() == "nord"


# -- friction: rematch and swap sides at the end ----------------------------------------------------------
async def test_at_the_end_x_swaps_sides_and_n_is_a_rematch():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "perfect"), count=1)
        assert "x" not in _footer(screen)  # only at the end
        await pilot.press("1")
        await settle(pilot)
        assert screen.result is not None and screen.result.winner == 0
        assert _footer(screen).get("x") == "Swap sides" and _footer(screen).get("n") == "New"
        assert "n rematch · x swap" in str(screen.query_one("#result-banner").render())
        await pilot.press("x")
        await settle(pilot)
        assert screen.players == ("perfect", "human") and screen.humans == {1}
        assert screen.result is not None and screen.result.winner == 0  # perfect took the one stick
        assert "Player 1 (bot perfect) vs Player 2 (Human)" in " ".join(
            strip.text.strip() for strip in screen.query_one("#commentary").lines)
        await pilot.press("n")  # a rematch, same sides, no question at the end
        await settle(pilot)
        assert screen.players == ("perfect", "human") and len(screen.history) == 2


# -- friction: a big terminal is used: the commentary grows, the side panel widens -------------------------
async def test_a_big_terminal_gives_the_commentary_and_the_side_panel_more_room():
    sizes = {}
    for size in ((80, 24), (120, 40)):
        app = make_app()
        async with app.run_test(size=size) as pilot:
            screen = await open_game(pilot, "hog", ("human", "human"))
            sizes[size] = (screen.query_one("#commentary").size, screen.query_one("#side-panel").size,
                           screen.board.size)
    (small_log, small_panel, small_board), (big_log, big_panel, big_board) = sizes[(80, 24)], sizes[(120, 40)]
    assert small_log.height == 6 and big_log.height >= 12
    assert big_panel.width > small_panel.width
    assert big_board.height > small_board.height and big_board.width > small_board.width


# -- friction: the game's commands in the command palette --------------------------------------------------
async def test_the_command_palette_offers_the_games_commands():
    from arcade.screens.palette import GameCommands

    app = make_app(start_game="toothpicks")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")  # the setup screen's Start: human against perfect
        await settle(pilot)
        screen = app.screen
        provider = GameCommands(screen)
        names = [name for name, _help, _run in provider.commands()]
        assert {"New game", "Analysis on/off", "Swap sides", "Rules", "Switch game: Hog"} <= set(names)
        hits = [hit async for hit in provider.search("analysis")]
        assert hits and "Analysis" in str(hits[0].match_display)
        dict((n, run) for n, _h, run in provider.commands())["Analysis on/off"]()
        assert screen.analysis
        await pilot.press("1")  # a game in progress: switching asks first
        await settle(pilot)
        dict((n, run) for n, _h, run in provider.commands())["Switch game: Hog"]()
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        from arcade.screens.menu import MenuScreen
        from arcade.screens.setup import SetupScreen

        assert isinstance(app.screen, SetupScreen) and app.screen.entry.id == "hog"
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "CommandPalette"


# -- friction: the Ludo ring shows its squares' numbers and a legend that explains itself ------------------
async def test_the_ludo_ring_numbers_its_squares_when_there_is_room():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "ludo", ("human", "human"))
        lines = screen.board.render().plain.split("\n")
        top, bottom = lines[1].split(), lines[1 + 7 + 1].split()
        assert top == ["14", "13", "12", "11", "10"] and bottom[:5] == ["0", "1", "2", "3", "4"]
        text = "\n".join(lines)
        assert "⌂ home ◇ safe square" in text and "∘ just left · R² = 2 Red" in text


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
