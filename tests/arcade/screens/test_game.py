"""The game screen, whatever the game: the Footer, the commentary, the pace of bots, undo, the
move list, leaving and restarting, rematch and swap, the command palette, and every size."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.app import App

from arcade.screens.game_keys import FOOTER_PRIORITY, KEYS, offered
from arcade.screens.pacing import PACES, Pacing
from arcade.screens.setup import SetupScreen
from arcade.widgets.footer import PALETTE_WIDTH, FittedFooter, action_name, key_width, leave_out
from tests.conftest import SIZE, footer_columns, footer_keys, make_app, open_game, play_moves, random_step, settle, snapshot_after, wait_until


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
            assert footer_keys(screen).get("e") == "Enter counter"
        footer = footer_keys(screen)
        assert footer.get("question_mark") == "Rules" and footer.get("q") == "Menu", footer
        assert footer_columns(screen) <= width, footer
        if players[0] != "human":
            assert screen.result is not None
            assert "p" not in footer and "s" not in footer  # nothing to pause after the end


def _screen_key_widths() -> dict[str, int]:
    """The game screen's actions shown in the Footer, with the columns their entries take."""
    app, widths, seen = App(), {}, set()
    for binding in KEYS:
        if binding.show and (binding.action, binding.description) not in seen:
            seen.add((binding.action, binding.description))
            action = action_name(binding.action)
            widths[action] = widths.get(action, 0) + key_width(app, binding)
    return widths


SCREEN_KEYS = _screen_key_widths()


@settings(max_examples=300, deadline=None)
@given(offered_now=st.sets(st.sampled_from(sorted(set(SCREEN_KEYS) - {"back", "help"}))),
       board=st.integers(0, 60), extra=st.integers(0, 120))
def test_leave_out_keeps_rules_and_menu_and_fits_the_width(offered_now, board, extra):
    """Whatever the screen offers now, beside whatever the board's keys take, in any terminal at
    least as wide as Menu, Rules, the palette key and the board's keys: Menu and Rules stay, what
    stays fits, and nothing is left out that would have fitted in its turn."""
    entries = [(action, SCREEN_KEYS[action]) for action in FOOTER_PRIORITY
               if action in offered_now | {"back", "help"}]
    width = PALETTE_WIDTH + board + SCREEN_KEYS["back"] + SCREEN_KEYS["help"] + extra
    room = width - PALETTE_WIDTH - board
    left_out = leave_out(entries, room)
    assert "back" not in left_out and "help" not in left_out
    assert left_out <= offered_now
    assert sum(w for action, w in entries if action not in left_out) <= room
    for action, w in entries:
        if action in left_out:
            assert w > room
        else:
            room -= w


@given(watching=st.booleans(), paused=st.booleans(), over=st.booleans(),
       pace=st.integers(0, len(PACES) - 1), types_letters=st.booleans())
def test_the_screen_offers_one_of_pause_and_resume_and_one_analysis_key(watching, paused, over, pace,
                                                                         types_letters):
    def now(action, parameters=()):
        return offered(action, parameters, watching=watching, paused=paused, over=over, pace=pace,
                       types_letters=types_letters)

    assert now("pause") + now("resume") == watching
    assert now("analysis") != now("analysis", ("shift",))
    assert now("swap") == over
    assert now("pace", (-1,)) == (watching and pace > 0)
    assert now("pace", (1,)) == (watching and pace < len(PACES) - 1)
    assert now("new_game") and now("help") and now("back") and now("undo")


@given(step=st.sampled_from(["chance", "forced", "bot"]), watching=st.booleans(), paused=st.booleans(),
       step_once=st.booleans(), pace=st.integers(0, len(PACES) - 1), dice=st.booleans())
def test_the_waits_before_what_the_screen_plays(step, watching, paused, step_once, pace, dice):
    wait = Pacing.wait(step, watching=watching, paused=paused, step_once=step_once, pace=pace,
                       dice_just_rolled=dice)
    if step_once:  # ``s``: the next move now
        assert wait == 0
    elif step == "forced":  # a human's forced pass, paused or not
        assert wait == Pacing.FORCED_DELAY
    elif paused and (watching or step == "bot"):
        assert wait is None
    elif step == "chance":
        assert wait == Pacing.CHANCE_DELAY
    elif watching:
        assert wait == Pacing.WATCH_DELAY * PACES[pace]
    else:  # a human plays this bot: a moment to see the position, longer to see the dice
        assert wait == (max(Pacing.BOT_DELAY, Pacing.DICE_LOOK) if dice else Pacing.BOT_DELAY)


async def test_pause_becomes_resume_and_a_key_left_out_of_the_footer_still_works(monkeypatch):
    from arcade.screens.pacing import Pacing

    # the bots at a watcher's pace: at no delay two random movers can end the game before the first key
    monkeypatch.setattr(Pacing, "WATCH_DELAY", 0.5)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "dfootball", ("random_move", "random_move"), wait=False, n=15)
        await pilot.press("p")
        await pilot.pause()
        assert screen.paused and footer_keys(screen).get("p") == "Resume"
        await pilot.press("p")
        await pilot.pause()
        assert not screen.paused and footer_keys(screen).get("p") == "Pause"
        await pilot.press("p")
        await pilot.resize_terminal(72, 24)
        await pilot.pause()
        assert not screen.has_class("too-small")
        assert footer_keys(screen).get("a") == "Analysis" and footer_keys(screen).get("q") == "Menu"
        assert "pace" in screen.query_one(FittedFooter).left_out and "plus" not in footer_keys(screen)
        assert "step" in screen.query_one(FittedFooter).left_out and "s" not in footer_keys(screen)
        pace = screen.pace
        await pilot.press("plus")  # still works
        await pilot.pause()
        assert screen.pace == pace + 1
        played = len(screen.history)
        await pilot.press("s")  # so does step: paused, one move
        await settle(pilot)
        assert screen.paused and len(screen.history) == played + 1


async def test_a_long_game_neither_rebuilds_the_footer_each_move_nor_piles_up_its_watchers(monkeypatch):
    """The footer is rebuilt when its keys change, not at every move (it was five times a move),
    and Textual's watchers of the keys it rebuilt away are dropped (they were kept for good: 12
    more a move on a Ludo screen, each rebuild scanning them all, the screen slower each move)."""
    import random


    rebuilds = []
    compose = FittedFooter.compose
    monkeypatch.setattr(FittedFooter, "compose", lambda self: (rebuilds.append(1), (yield from compose(self)))[1])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, "ludo", ("human", "human"), counters=15, length=40)
        footer = screen.query_one(FittedFooter)
        rng, plies, before = random.Random(7), 0, len(rebuilds)
        while plies < 400 and not screen.state.over:
            random_step(screen, rng)
            plies += 1
            if plies % 50 == 0:
                await settle(pilot)
                watchers = sum(len(entries) for entries in getattr(footer, "__watchers", {}).values())
                assert watchers <= len(footer.query("FooterKey")), f"{watchers} watchers after {plies} plies"
        await settle(pilot)
        assert plies == 400 and len(rebuilds) - before < plies / 4
        shown = footer_keys(screen)
        assert shown.get("q") == "Menu" and shown.get("question_mark") == "Rules"


async def test_minus_and_plus_change_the_pace_of_bots_playing_each_other(monkeypatch):
    from arcade.screens.pacing import Pacing

    monkeypatch.setattr(Pacing, "WATCH_DELAY", 0.8)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("random", "random"), wait=False, count=99)
        footer = footer_keys(screen)
        assert footer.get("minus") == "Slow" and footer.get("plus") == "Fast" and footer.get("a") == "Analysis"
        assert screen.watch_delay() == pytest.approx(0.8)
        assert "pace: 0.8 s a move" in str(screen.query_one("#side-panel").render())
        await pilot.press("minus")
        assert screen.watch_delay() == pytest.approx(1.6)
        for _ in range(10):
            await pilot.press("plus")
        assert screen.watch_delay() == 0 and "plus" not in footer_keys(screen)  # the fastest: no wait
        for _ in range(100):  # bots now play without waiting: 99 toothpicks are soon gone
            if screen.result is not None:
                break
            await pilot.pause(0.05)
        assert screen.result is not None
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:  # a human's game has no pace keys
        screen = await open_game(pilot, "toothpicks", ("human", "random"))
        assert "minus" not in footer_keys(screen) and "pace" not in str(screen.query_one("#side-panel").render())


async def test_a_long_bot_name_puts_the_score_on_its_own_line():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "dfootball", ("random_move", "human"), n=4)
        panel = screen.query_one("#side-panel")
        text = str(panel.render()).splitlines()
        assert "bot random_move" in [line.strip() for line in text] and "4 players" in [line.strip() for line in text]
        assert all(len(line) <= panel.size.width for line in text)


async def test_the_move_list_shows_moves_as_players_read_them_and_never_cuts_dice():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "hog", ("human", "human"))
        play_moves(screen, [10, (4, 5, 5, 3, 3, 4, 4, 5, 5, 3)])
        await settle(pilot)
        table = screen.query_one("#moves")
        assert table.get_row_at(1)[2].replace("\n", "") == "4-5-5-3-3-4-4-5-5-3"  # on two lines, faces apart
        assert not table.show_horizontal_scrollbar
    from games.ludo import Ludo, make_start_board

    game = Ludo()
    state = game.state_from_board(make_start_board(4, 20), 0, 6)
    assert game.move_label(state, (0, 0, 0)) == "enter →0"
    assert game.move_label(state, (0, -1, -1)) == "pass"
    assert game.move_label(game.state_from_board(make_start_board(4, 20), 1, 3), (1, 15, 3)) == "15→18"
    assert game.move_label(game.state_from_board(make_start_board(4, 20), 1, 3), (1, 8, 2)) == "8→home"


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


async def test_undo_before_the_humans_first_move_names_the_dice_not_a_bot():
    """Ludo, the human moving first: only the die has been rolled (seed 21: Red's first roll is a
    6, a choice to make), no bot has moved."""
    app = make_app(seed=21)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "ludo", ("human", "random"))
        assert len(screen.history) == 2 and screen.state.to_move == 0
        await pilot.press("u")
        await settle(pilot)
        messages = [str(n.message) for n in app._notifications]
        assert "Nothing of yours to take back yet: the dice's roll stands." in messages
        assert not any("bot" in message for message in messages)


async def test_leaving_or_restarting_a_game_in_progress_asks_first():
    from arcade.screens.confirm import ConfirmScreen
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


def test_leaving_a_game_in_progress_asks_first(snap_compare):
    """Friction: q in a game in progress asks before throwing it away."""
    assert snapshot_after(snap_compare, "toothpicks", moves=(2,), keys=("q",))


async def test_at_the_end_x_swaps_sides_and_n_is_a_rematch():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "perfect"), count=1)
        assert "x" not in footer_keys(screen)  # only at the end
        await pilot.press("1")
        await settle(pilot)
        assert screen.result is not None and screen.result.winner == 0
        assert footer_keys(screen).get("x") == "Swap sides" and footer_keys(screen).get("n") == "New"
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
        assert screen.analyst.on
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


def test_the_keys_panel_beside_hog_shows_the_notice_not_a_garbled_board(snap_compare):
    """Defect 7: Ctrl+P → Keys takes 30 columns; Hog's board needs them: the notice says so."""

    async def run_before(pilot):
        await pilot.pause()
        await open_game(pilot, "hog", ("human", "human"))
        pilot.app.action_show_help_panel()
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


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
    """Opened in the smallest terminal, then taken through every tiny size (and back to 80×24
    between them), the screen pages and moves without an error."""
    app = make_app()
    async with app.run_test(size=TINY[0]) as pilot:
        await _open(pilot, where)
        for size in TINY:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            for key in ("pagedown", "pageup", "down", "up", "end", "home", "tab"):
                await pilot.press(key)
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
        assert app.screen is not None and app.is_running, where
    assert app.return_code in (None, 0), where


@pytest.mark.parametrize("game_id", ["dfootball", "toothpicks", "hog", "ludo", "othello"])
async def test_after_a_forfeit_the_board_reads_as_an_ending_with_no_one_to_move(game_id):
    """A bot's fault ends the game on a state that is not over by the rules: the board's heading
    must not go on saying whose move it is under the result."""
    import re

    from arcade.catalog import CATALOG
    from arcade.screens.game import GameScreen
    from bots.base import BotEntry

    def boom(game, state, ctx):
        raise ValueError("deliberate bug")

    entry = CATALOG[game_id]
    defaults = {option.key: option.default for option in entry.load().options}
    faulty = BotEntry.function("boom", "raises", boom)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = GameScreen(entry, ("boom", "boom"), defaults, {0: faulty, 1: faulty})
        await app.push_screen(screen)
        for _ in range(20):
            await settle(pilot)
            if screen.result is not None:
                break
        assert screen.result is not None and "produced an error" in screen.result.reason
        assert not screen.state.over and screen.board.ended(screen.state)
        text = re.sub(r"<[^>]+>", "", app.export_screenshot()).replace("&#160;", " ")
        assert not re.search(r"\bto move\b|to play\b", text), text
        if game_id == "dfootball":
            loser = screen.game.sides[1 - screen.result.winner].name
            assert str(screen.board.heading()) == f"{loser} loses!"


@pytest.mark.parametrize("size", [(80, 24), (50, 20)])
async def test_a_long_question_wraps_whole_in_the_confirmation(size):
    """The swap question is longer than the box's 60 columns: it wraps, nothing is cut."""
    from textual.geometry import Region

    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "human"))
        play_moves(screen, [1])
        await settle(pilot)
        screen.request_swap()
        await settle(pilot)
        question = app.screen.query_one("#confirm-question")
        width, height = question.size
        shown = " ".join(strip.text for strip in question.render_lines(Region(0, 0, width, height)))
        assert "Throw this game away and play again with the sides swapped?" in " ".join(shown.split())
        assert question.region.right <= app.screen.query_one("#confirm").region.right


def test_the_swap_confirmation_at_80_by_24(snap_compare):
    async def run_before(pilot):
        screen = await open_game(pilot, "toothpicks", ("human", "human"))
        play_moves(screen, [1])
        await settle(pilot)
        screen.request_swap()
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=run_before)


@given(st.lists(st.text(alphabet="ab-._", min_size=1, max_size=30), min_size=1, max_size=6), st.integers(8, 60))
def test_a_folded_path_breaks_after_slashes_and_keeps_every_character(parts, width):
    from pathlib import Path

    from arcade.screens.game import fold_path

    path = Path("/" + "/".join(parts))
    lines = fold_path(path, width).split("\n")
    assert all(len(line) <= width for line in lines)
    assert "".join(lines) == str(path)
    for line, following in zip(lines, lines[1:]):  # a break inside a name only for a long name
        assert line.endswith("/") or len(line) == width


async def test_the_saved_game_toast_shows_the_path_whole_at_80_by_24(tmp_path, monkeypatch):
    long_folder = tmp_path / "a-rather-long-folder-name-for-saved-games"
    monkeypatch.setenv("ARCADE_GAMES", str(long_folder))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, "toothpicks", ("human", "perfect"))
        await pilot.press("ctrl+s")
        await settle(pilot)
        (path,) = long_folder.glob("toothpicks-*.jsonl")
        (note,) = [n for n in app._notifications if n.title == "Game saved"]
        room = 80 // 2 - 3  # a toast's text: half the screen, less padding and its edge
        lines = str(note.message).split("\n")
        assert all(len(line) <= room for line in lines)
        assert "".join(lines[:-1]) == str(path)


async def test_a_long_bot_name_stays_on_the_line_of_its_word_bot_in_the_side_panel():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "human"))
        screen.players = ("human", "/home/student/contest/submissions/ours.py:strategy")
        assert screen.player_label(1) == "bot ours.py:strategy"
        screen.panel.labels = ("Human", "bot a_bot_whose_name_is_far_too_long_for_the_panel:strategy")
        await pilot.pause()
        width = screen.panel.size.width
        lines = screen.panel.render().plain.split("\n")
        (label,) = [line for line in lines if "bot" in line]
        assert label.startswith("    bot …") and label.endswith("panel:strategy") and len(label) <= width


async def test_the_commentary_wraps_again_after_a_resize():
    """A line written at 80 columns is wrapped again, not cut, when the terminal narrows."""
    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "human"))
        line = "Player 1 takes 2 toothpicks, leaving 8, and the commentary says a good deal about it"
        screen.commentary.say(line)
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        await pilot.pause()
        commentary = screen.commentary
        width = commentary.scrollable_content_region.width
        shown = [strip.text.rstrip() for strip in commentary.lines]
        assert all(len(text) <= width for text in shown)
        assert line in " ".join(" ".join(shown).split())
        await pilot.resize_terminal(120, 30)
        await settle(pilot)
        await pilot.pause()
        assert len(commentary.lines) < len(shown)  # wider again: fewer lines


async def test_a_file_bot_that_errs_mid_game_says_where_its_output_went(tmp_path):

    bot = tmp_path / "oops.py"
    bot.write_text("def strategy(toothpicks_left):\n    raise ValueError('oops')\n")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(pilot, "toothpicks", (f"{bot}:strategy", "human"), wait=False)
        await wait_until(pilot, lambda: screen.result is not None, what="the forfeit")
        await settle(pilot)
        said = [text.plain for text in screen.commentary.said]
        log = screen.bot_entries[0].source.log_path
        assert any("produced an error" in line for line in said)
        assert f"its output: {log}" in said
