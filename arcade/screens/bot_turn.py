"""The game screen's bots in thread workers: a new game's bots are made in one (``make_bots``:
a bot may build its tables or start a program when it is made), and each turn the
session asks the bot for its move in another (``start_turn``); what they have to say comes back
as messages: the bots made (``BotsMade``), a bot's thoughts (``BotThought``) and its answer
(``BotMoved``). The screen never waits on a bot.

Each turn carries the screen's ``generation`` (its count of positions, undos and new games): a
bot that is still thinking when the generation moves on is told to stop (``cancelled()``), and
what it says after that is dropped. The bots being made carry the screen's count of games: bots
made for a game that is no longer current (a newer new game, the screen left) are dropped.
"""

from __future__ import annotations

import traceback
from contextlib import suppress
from typing import Callable, Mapping

from textual.dom import DOMNode
from textual.message import Message
from textual.worker import get_current_worker

from arcade.session import Answer, Session
from bots.base import ERROR, Bot, BotEntry, Forfeit
from games.base import Game

GROUP = "bot"
"""The worker group of bots' turns (one at a time)."""


class BotThought(Message):
    """A line of a bot's thinking (depth, best line), from its worker; a newer one replaces an
    older one still in the queue."""

    def __init__(self, generation: int, text: str) -> None:
        super().__init__()
        self.generation = generation
        self.text = text

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, BotThought)


class BotMoved(Message):
    """A bot's answer (a move or a fault), from its worker."""

    def __init__(self, generation: int, answer: Answer) -> None:
        super().__init__()
        self.generation = generation
        self.answer = answer


def start_turn(node: DOMNode, session: Session, generation: int, current: Callable[[], int]) -> None:
    """Ask the bot of ``session``'s side to move for its move, in a worker of ``node``, which gets
    the messages; ``current()`` is the generation now (the turn is stale once it differs)."""

    def ask() -> None:
        worker = get_current_worker()

        def stale() -> bool:
            return worker.is_cancelled or current() != generation

        def report(text: str) -> None:
            if not stale():
                node.post_message(BotThought(generation, text))

        answer = session.ask(session.context(session.state.to_move, report, stale))
        if not stale():
            node.post_message(BotMoved(generation, answer))

    node.run_worker(ask, thread=True, exclusive=True, group=GROUP)


def cancel_turn(node: DOMNode) -> None:
    """Stop the bot's turn under way in ``node``'s worker, if any."""
    node.workers.cancel_group(node, GROUP)


MAKING = "bot-making"
"""The worker group of a new game's bots being made (one new game at a time)."""


class BotsMade(Message):
    """A new game's bots, made in their worker (``make_bots``): ``bots`` by side, and ``failed``,
    the side whose bot could not be made and its ``Forfeit``, if one could not."""

    def __init__(self, number: int, bots: dict[int, Bot], failed: tuple[int, Forfeit] | None) -> None:
        super().__init__()
        self.number = number
        self.bots = bots
        self.failed = failed


def make_bots(node: DOMNode, game: Game, entries: Mapping[int, BotEntry], number: int,
              current: Callable[[], int], gone: Callable[[], bool]) -> None:
    """Make the bots of ``entries`` for game ``number`` of ``node`` in a worker (a bot may build
    its tables or start a program), then post ``BotsMade``; ``current()`` is the game
    number now. Bots made for a game that is no longer current are told it was left; if
    ``gone()`` (the screen was left while they were being made) the entries are closed too, so
    that nothing they started outlives the screen."""
    entries = dict(entries)

    def make() -> None:
        worker = get_current_worker()

        def stale() -> bool:
            return worker.is_cancelled or current() != number

        bots: dict[int, Bot] = {}
        failed = None
        for side, entry in entries.items():
            if stale():
                break
            try:
                bots[side] = entry.make(game)
            except Exception as exc:  # a bot that cannot be made forfeits its game; the arcade goes on
                detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
                failed = (side, Forfeit(ERROR, detail))
                break
        if not stale():
            node.post_message(BotsMade(number, bots, failed))
            return
        for bot in bots.values():
            with suppress(Exception):
                bot.left(game.initial_state())
        if gone():
            for entry in entries.values():
                entry.close()

    node.run_worker(make, thread=True, exclusive=True, group=MAKING)


def cancel_making(node: DOMNode) -> None:
    """Stop waiting for the bots being made in ``node``'s worker, if any (their thread finishes
    what it is making, then finds itself stale)."""
    node.workers.cancel_group(node, MAKING)
