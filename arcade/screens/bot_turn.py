"""A bot's turn on the game screen: the session asks the bot for its move in a thread worker,
and its thoughts (``BotThought``) and answer (``BotMoved``) come back as messages.

Each turn carries the screen's ``generation`` (its count of positions, undos and new games): a
bot that is still thinking when the generation moves on is told to stop (``cancelled()``), and
what it says after that is dropped.
"""

from __future__ import annotations

from typing import Callable

from textual.dom import DOMNode
from textual.message import Message
from textual.worker import get_current_worker

from arcade.session import Answer, Session

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
