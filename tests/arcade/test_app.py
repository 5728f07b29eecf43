"""Pilot tests of whole flows: menu → setup → a game played by keys, undo, leaving, bot faults."""

from __future__ import annotations

import random
import time

import pytest

from arcade.screens.game import GameScreen
from arcade.screens.menu import MenuScreen
from arcade.screens.pacing import Pacing
from arcade.screens.setup import SetupScreen
from bots import toothpicks as toothpick_bots
from arcade.match import play_out
from bots.base import Bot, BotEntry, FunctionBot
from games.toothpicks import Toothpicks
from tests.conftest import choose_in_menu, make_app, open_game, settle


async def test_a_whole_human_game_against_perfect_played_by_keys():
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await choose_in_menu(pilot, "toothpicks")
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("ctrl+s")  # Start: Human against perfect
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.players == ("human", "perfect")
        # Human takes 1 first (winning from 10), then answers k with 3 - k.
        await pilot.press("1")
        await settle(pilot)
        while screen.result is None:
            assert screen.state.to_move == 0
            await pilot.press(str(3 - screen.state.event.taken))
            await settle(pilot)
        assert screen.result.winner == 0
        assert screen.state.left == 0
        plies = len(screen.history) - 1
        assert screen.query_one("#moves").row_count == plies
        banner = str(screen.query_one("#result-banner").render())
        assert "Player 1 wins!" in banner
        await pilot.press("n")
        await settle(pilot)
        assert len(screen.history) == 1 and screen.result is None


async def test_a_human_move_and_undo_back_to_the_humans_last_move():
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "perfect"))
        await pilot.press("2")
        await settle(pilot)
        assert [s.left for s in screen.history] == [10, 8, 6]  # perfect answered with 2
        await pilot.press("1")
        await settle(pilot)
        assert screen.state.left == 3
        await pilot.press("u")
        await settle(pilot)
        assert [s.left for s in screen.history] == [10, 8, 6]
        assert screen.state.to_move == 0
        await pilot.press("u")
        await settle(pilot)
        assert [s.left for s in screen.history] == [10]
        assert screen.query_one("#moves").row_count == 0
        await pilot.press("u")  # nothing left to undo: a bell, no error
        await settle(pilot)
        assert len(screen.history) == 1


async def test_a_click_on_one_of_the_last_sticks_takes_from_it_to_the_end():
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "human"))
        board = screen.query_one("ToothpickBoard")

        def stick(i: int) -> tuple[int, int]:  # a point on stick i (from 0), wherever it is drawn
            return board.left + i * board.stick_width + 1, board.stick_rows[0] + 1

        assert board.left > 0  # 100×32: the sticks are centred
        await pilot.click("#sticks", offset=stick(8))  # the ninth of ten sticks
        await settle(pilot)
        assert screen.state.left == 8 and screen.state.event.taken == 2
        await pilot.click("#sticks", offset=stick(2))  # too far from the end: nothing
        await settle(pilot)
        assert screen.state.left == 8
        await pilot.click("#sticks", offset=stick(7))  # the last stick: take 1
        await settle(pilot)
        assert screen.state.left == 7 and screen.state.to_move == 0


async def test_an_illegal_key_is_refused_with_a_message_and_nothing_changes():
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "human"), count=1)
        await pilot.press("2")
        await settle(pilot)
        assert len(screen.history) == 1
        assert any("take 1 to 1" in str(n.message) for n in app._notifications)
        await pilot.press("1")
        await settle(pilot)
        assert screen.result is not None and screen.result.winner == 0


def slow_bot(game, state, ctx):
    deadline = time.perf_counter() + 10
    while time.perf_counter() < deadline and not ctx.cancelled():
        time.sleep(0.01)
    return 1


def crashing_bot(game, state, ctx):
    raise ZeroDivisionError("the student's bug")


def cheating_bot(game, state, ctx):
    return 7


class ListeningBot(Bot):
    """Takes one toothpick and records how each game ended (``Bot.game_over``)."""

    endings: list = []

    def choose(self, state, ctx):
        return 1

    def game_over(self, state, result):
        ListeningBot.endings.append((state, result))


class StubbornBot(ListeningBot):
    """Takes one, and cannot follow an undo (like a program with a board of its own)."""

    rewindable = False


@pytest.fixture
def fault_bots(monkeypatch):
    extra = {
        "stubborn": BotEntry("stubborn", "takes one, cannot rewind", StubbornBot),
        "slow": BotEntry.function("slow", "thinks for ten seconds", slow_bot),
        "crash": BotEntry.function("crash", "raises", crashing_bot),
        "cheat": BotEntry.function("cheat", "takes seven", cheating_bot),
        "listener": BotEntry("listener", "takes one, hears the end", ListeningBot),
    }
    monkeypatch.setattr(toothpick_bots, "BOTS", {**toothpick_bots.BOTS, **extra})


async def test_leaving_while_a_bot_thinks_returns_to_the_menu_at_once(fault_bots):
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("slow", "human"), wait=False)
        await pilot.pause(0.1)
        assert screen.thinking == 0
        assert "thinking" in str(screen.query_one("#side-panel").render())
        await pilot.press("?")  # the screen answers keys while the bot thinks
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        started = time.perf_counter()
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await app.workers.wait_for_complete()
        assert time.perf_counter() - started < 5  # the bot saw it was cancelled
        assert len(screen.history) == 1  # its late answer was dropped


@pytest.mark.parametrize("bot, wording", [("crash", "produced an error"), ("cheat", "returned an invalid move")])
async def test_a_faulty_bot_forfeits_and_the_app_goes_on(fault_bots, bot, wording):
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", bot))
        await pilot.press("1")
        await settle(pilot)
        assert screen.result is not None and screen.result.winner == 0
        assert wording in screen.result.reason
        await pilot.press("n")
        await settle(pilot)
        assert screen.result is None and len(screen.history) == 1


async def test_bots_hear_the_end_of_the_game_once_however_it_ends(fault_bots, monkeypatch):
    """``Bot.game_over`` comes once per ending: the other side's move, a forfeit, and again after
    an undo reopened the game and it ended anew."""
    monkeypatch.setattr(ListeningBot, "endings", [])
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "listener"), count=2)
        await pilot.press("2")  # the human takes the last two: the game ends on the human's move
        await settle(pilot)
        assert screen.result is not None and screen.result.winner == 0
        await settle(pilot)
        assert len(ListeningBot.endings) == 1
        state, result = ListeningBot.endings[0]
        assert state.result == result and result.winner == 0
        await pilot.press("u")  # undo reopens the game; ending it again tells the bot again
        await settle(pilot)
        assert screen.result is None
        await pilot.press("2")
        await settle(pilot)
        assert len(ListeningBot.endings) == 2
    # a match (``play_out``) tells both bots too, a forfeit included: the listener's opponent cheats
    game = Toothpicks()
    outcome = play_out(game, (FunctionBot(game, cheating_bot), ListeningBot(game)),
                       random.Random(0), (random.Random(1), random.Random(2)))
    assert outcome.forfeit == 0 and len(ListeningBot.endings) == 3
    assert ListeningBot.endings[-1][1] == outcome.result and outcome.result.winner == 1


async def test_undo_against_a_bot_that_cannot_rewind_is_refused_with_a_message(fault_bots):
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "stubborn"))
        await pilot.press("1")
        await settle(pilot)
        assert [s.left for s in screen.history] == [10, 9, 8]
        await pilot.press("u")
        await settle(pilot)
        assert [s.left for s in screen.history] == [10, 9, 8]  # nothing changed
        notes = [n.message for n in app._notifications]
        assert any("cannot take moves back" in note for note in notes)
        await pilot.press("1")  # the game goes on
        await settle(pilot)
        assert screen.state.left == 6


async def test_bots_play_each_other_with_pause_and_step(monkeypatch):
    monkeypatch.setattr(Pacing, "WATCH_DELAY", 30)  # nothing moves unless stepped
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("perfect", "random"))
        assert len(screen.history) == 1
        await pilot.press("s")
        await settle(pilot)
        assert len(screen.history) == 2 and screen.paused
        await pilot.press("s")
        await settle(pilot)
        assert len(screen.history) == 3
        assert "paused" in str(screen.query_one("#side-panel").render())
        monkeypatch.setattr(Pacing, "WATCH_DELAY", 0)
        await pilot.press("p")
        for _ in range(20):
            await settle(pilot)
            if screen.result is not None:
                break
        assert screen.result is not None and screen.result.winner == 0


async def test_a_small_terminal_shows_a_notice_instead_of_the_board():
    app = make_app()
    async with app.run_test(size=(50, 16)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "perfect"))
        assert screen.has_class("too-small")
        assert not screen.query_one("#game-grid").display or screen.query_one("#game-grid").styles.display == "none"
        assert "Enlarge the terminal" in str(screen.query_one("#too-small-notice").render())


async def test_the_setup_screen_refuses_bad_options_with_a_message():
    app = make_app(start_game="toothpicks")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        setup.query_one("#option-count").value = "500"
        await pilot.click("#start")
        await pilot.pause()
        assert app.screen is setup
        assert "1–99" in str(setup.query_one("#setup-error").render())
        setup.query_one("#option-count").value = "12"
        await pilot.pause(0.5)  # a button ignores a second press during its active effect
        await pilot.click("#start")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.screen.state.left == 12


KEYS = ["up", "down", "left", "right", "enter", "space", "tab", "1", "2", "3", "9", "a", "u", "n", "p", "s",
        "x", "question_mark", "escape", "q", "pageup", "pagedown", "ctrl+s"]


RANDOM_PRESSES = 60
"""Keys a random-key run presses, a budget: about three presses of each key a seed, two seeds (at
100 presses the two runs took half of this file's time)."""


@pytest.mark.parametrize("seed", range(2))
async def test_random_key_presses_never_crash_the_app(seed):
    rng = random.Random(seed)
    app = make_app(start_game="toothpicks")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(RANDOM_PRESSES):
            key = rng.choice(KEYS)
            if key == "q" and isinstance(app.screen, MenuScreen):
                continue  # q quits the app from the menu
            await pilot.press(key)
        await settle(pilot)
        assert app.is_running


async def test_the_menu_is_the_first_screen_and_its_styles_are_parsed_once(monkeypatch):
    """The app opens on the menu itself (no blank screen under it) and reaches its first frame
    without parsing every style a second time (a mode of ``App.MODES`` did: Textual's
    ``refresh_css`` on registering the mode's screen), part of a start-up as fast as a bare app's."""
    from textual.css.stylesheet import Stylesheet

    from arcade.app import ArcadeApp

    reparsed = []
    original = Stylesheet.reparse
    monkeypatch.setattr(Stylesheet, "reparse", lambda self: reparsed.append(1) or original(self))
    app = ArcadeApp(seed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen) and len(app.screen_stack) == 1
        assert not reparsed
        assert app.screen.query_one("#games").has_focus


async def screenshot_notice(pilot) -> object:
    """The screenshot's notification, once it comes (the file is written in a thread)."""
    from tests.conftest import wait_until

    app = pilot.app
    await wait_until(pilot, lambda: any(n.title == "Screenshot" for n in app._notifications),
                     what="the screenshot's notification")
    return next(n for n in app._notifications if n.title == "Screenshot")


@pytest.mark.parametrize("downloads", [False, True])
async def test_a_screenshot_from_the_palette_is_saved_and_says_where(downloads, tmp_path, monkeypatch):
    """An account without ~/Downloads (Textual's only choice) gets its screenshot in the folder
    the arcade was started in; one with it, there. The notification names the file."""
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    if downloads:
        (home / "Downloads").mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    monkeypatch.chdir(work)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.run_action("screenshot")  # what the palette's "Screenshot" runs
        notice = await screenshot_notice(pilot)
        folder = home / "Downloads" if downloads else work
        saved = list(folder.glob("*.svg"))
        assert notice.severity == "information" and len(saved) == 1, notice.message
        assert notice.message == f"Saved screenshot to {saved[0]}"
        assert "<svg" in saved[0].read_text()


async def test_a_screenshot_that_cannot_be_saved_says_where_and_why(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.deliver_screenshot(path=str(blocker / "no"), filename="x.svg")
        notice = await screenshot_notice(pilot)
        assert notice.severity == "error" and str(blocker / "no") in notice.message
        assert "Not a directory" in notice.message or "No such file" in notice.message
