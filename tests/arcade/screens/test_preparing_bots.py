"""A new game's bots are made off the UI thread (``arcade/screens/bot_turn.py`` ``make_bots``):
while a bot's ``make()`` blocks, the game screen answers keys and says "preparing bots…", no
human move is taken, the game goes on once the bots are made, a newer new game drops the bots of
the older, a bot that cannot be made forfeits, and leaving meanwhile closes what was made."""

from __future__ import annotations

import subprocess
import sys
import threading
from dataclasses import dataclass, field

import pytest

from arcade.boards.base import Board
from arcade.screens.game import GameScreen
from arcade.screens.help import HelpScreen
from bots import toothpicks as toothpick_bots
from bots.base import Bot, BotEntry, FunctionBot
from tests.conftest import make_app, open_game, settle, wait_until

BLOCKED_FOR = 60.0
"""The most a blocked ``make()`` waits for its test to release it (a test that never does fails)."""


@dataclass(frozen=True)
class Blocker(BotEntry):
    """A toothpicks bot whose ``make()`` waits until the test sets ``release``; it records the
    threads it was made on and the bots it made (and on which thread), and can start a process when made (``spawn``),
    which ``close()`` kills, as a file bot's entry kills its program."""

    release: threading.Event = field(default_factory=threading.Event, compare=False)
    made: list = field(default_factory=list, compare=False)
    made_on: dict = field(default_factory=dict, compare=False)
    threads: list = field(default_factory=list, compare=False)
    released: list = field(default_factory=list, compare=False)
    spawn: bool = False
    processes: list = field(default_factory=list, compare=False)
    closed_after: list = field(default_factory=list, compare=False)

    def make(self, game) -> Bot:
        self.threads.append(threading.current_thread())
        self.released.append(self.release.wait(BLOCKED_FOR))
        if self.spawn:
            self.processes.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"]))
        bot = FunctionBot(game, lambda game, state, ctx: 1)
        self.made.append(bot)
        self.made_on[threading.current_thread()] = bot
        return bot

    def close(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()
        self.closed_after.append(len(self.made))


def blocker(monkeypatch, **kwargs) -> Blocker:
    """A fresh ``Blocker`` under the name ``blocker`` in Toothpick Takeaway's bots."""
    entry = Blocker("blocker", "takes one; made only when the test says", lambda game: None, **kwargs)
    monkeypatch.setattr(toothpick_bots, "BOTS", {**toothpick_bots.BOTS, "blocker": entry})
    return entry


def panel_text(screen: GameScreen) -> str:
    return str(screen.query_one("#side-panel").render())


@pytest.mark.parametrize("players", [("blocker", "human"), ("human", "blocker")])
async def test_the_screen_answers_keys_and_takes_no_move_while_a_bot_is_made(monkeypatch, players):
    entry = blocker(monkeypatch)
    app = make_app()
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            screen = await open_game(pilot, "toothpicks", players, wait=False)
            await wait_until(pilot, lambda: entry.threads, what="the bot's make() to start")
            assert entry.threads[0] is not threading.main_thread()
            assert screen.preparing and "preparing bots…" in panel_text(screen)
            # the screen answers keys: the rules open and close, the analysis comes and goes
            await pilot.press("question_mark")
            await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), what="the rules to open")
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is screen, what="the rules to close")
            await pilot.press("a")
            await wait_until(pilot, lambda: screen.panel.analysis is not None, what="the analysis to show")
            await pilot.press("a")
            await wait_until(pilot, lambda: screen.panel.analysis is None, what="the analysis to hide")
            # no side is moved for by a human: a key on the board, or a move it proposes, is refused
            screen.board.focus()
            await pilot.press("1")
            screen.board.post_message(Board.MovePicked(1))
            await pilot.pause()
            assert len(screen.history) == 1 and not entry.made
            assert screen.preparing and "preparing bots…" in panel_text(screen)

            entry.release.set()
            await wait_until(pilot, lambda: not screen.preparing, what="the bots to be ready")
            assert entry.released == [True] and screen.session.bots == {players.index("blocker"): entry.made[0]}
            assert "preparing bots…" not in panel_text(screen)
            if players[0] == "blocker":
                await wait_until(pilot, lambda: len(screen.history) == 2, what="the bot to move")
            await pilot.press("1")  # the human's turn now: the board takes the key
            await wait_until(pilot, lambda: len(screen.history) >= 3, what="the human to move")
            assert [state.event.taken for state in screen.history[1:3]] == [1, 1]
            assert screen.history[players.index("human") + 1].event.side == players.index("human")
    finally:
        entry.release.set()


async def test_a_new_game_while_bots_are_made_drops_the_older_games_bots(monkeypatch):
    entry = blocker(monkeypatch)
    app = make_app()
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            screen = await open_game(pilot, "toothpicks", ("human", "blocker"), wait=False)
            await wait_until(pilot, lambda: len(entry.threads) == 1, what="the first make() to start")
            await pilot.press("n")  # nobody moved: no question
            await wait_until(pilot, lambda: len(entry.threads) == 2, what="the second make() to start")
            assert screen.games_started == 2 and screen.preparing
            entry.release.set()
            await wait_until(pilot, lambda: len(entry.made) == 2 and not screen.preparing, what="both makes")
            await settle(pilot)
            # the second game's bot, not the first's (both threads were released at once)
            assert screen.session.bots == {1: entry.made_on[entry.threads[1]]}
            await pilot.press("1")
            await wait_until(pilot, lambda: len(screen.history) == 3, what="the human and the bot to move")
    finally:
        entry.release.set()


async def test_leaving_while_a_bot_is_made_closes_what_was_made(monkeypatch):
    entry = blocker(monkeypatch, spawn=True)
    app = make_app()
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            screen = await open_game(pilot, "toothpicks", ("blocker", "human"), wait=False)
            await wait_until(pilot, lambda: entry.threads, what="the bot's make() to start")
            await pilot.press("q")  # nobody moved: leaves at once
            await wait_until(pilot, lambda: not isinstance(app.screen, GameScreen), what="the screen to close")
            assert screen.gone and not entry.processes
            entry.release.set()  # make() goes on after the screen closed, and starts its process
            await wait_until(pilot, lambda: entry.processes and entry.processes[0].poll() is not None,
                             what="the process started after leaving to be closed")
            assert entry.closed_after[-1] == 1  # closed after the bot was made
            assert len(screen.history) == 1
    finally:
        entry.release.set()
        for process in entry.processes:
            if process.poll() is None:
                process.kill()
                process.wait()


async def test_a_bot_that_cannot_be_made_forfeits_and_the_app_goes_on(monkeypatch):
    def broken(game) -> Bot:
        raise ValueError("no table for this goal")

    monkeypatch.setattr(toothpick_bots, "BOTS", {**toothpick_bots.BOTS, "broken": BotEntry("broken", "", broken)})
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "broken"))
        await wait_until(pilot, lambda: screen.result is not None, what="the forfeit")
        assert screen.result.winner == 0 and "produced an error" in screen.result.reason
        assert "no table for this goal" in screen.result.reason
        assert not screen.preparing and len(screen.history) == 1
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), what="the rules to open")
