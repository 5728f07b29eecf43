"""What a bot is, and how the app and the match runner call one.

A bot is a player that is not a human. It sees a game (the rules, with their options), a state
where it is to move, and a ``Context`` (its random generator, its time budget, a way to report
what it is thinking, a way to learn that its answer is no longer wanted), and returns one of
``game.legal_moves(state)``. It never touches the UI and never changes the state.

A bot object lives for one game: the runner calls ``bot_entry.make(game)`` at the start of each
game, so a bot may keep memory of the game so far (a transposition table, say).

Each game's bots live in ``bots/<game id>.py`` as a dict ``BOTS`` of ``BotEntry`` objects, in
the order the setup screen lists them; ``bots.registry`` finds them by game id.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from games.base import Game, Move, Result, State


@dataclass
class Context:
    """What a bot gets besides the position.

    ``rng``: the only source of randomness a bot may use (seeded by the runner).
    ``time_limit``: seconds for this move, or ``None`` for the bot's own default.
    ``report(text)``: show a line of thinking (depth, best line, score) while the bot works.
    ``cancelled()``: true once the answer is no longer wanted (the user left or undid);
    a long search should check it and return early with any legal move.
    """

    rng: random.Random = field(default_factory=random.Random)
    time_limit: float | None = None
    report: Callable[[str], None] = lambda text: None
    cancelled: Callable[[], bool] = lambda: False
    started: float = field(default_factory=time.perf_counter)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started


class Bot:
    """Base class of bots. Subclasses implement ``choose``."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def choose(self, state: State, ctx: Context) -> Move:
        raise NotImplementedError

    def game_over(self, state: State, result: Result) -> None:
        """Called once when a game this bot plays has ended, however it ended (the last state and
        the result, a forfeit included). Nothing by default; a bot that speaks to a program
        tells it here (Othello's ``external`` writes ``end_game``)."""


class FunctionBot(Bot):
    """A bot made of a function ``fn(game, state, ctx) -> move`` (most simple bots)."""

    def __init__(self, game: Game, fn: Callable[[Game, State, Context], Move]) -> None:
        super().__init__(game)
        self.fn = fn

    def choose(self, state: State, ctx: Context) -> Move:
        return self.fn(self.game, state, ctx)


@dataclass(frozen=True)
class BotEntry:
    """A bot as the setup screen and ``arcade bots GAME`` list it.

    ``factory(game)`` builds a fresh bot for one game. Use ``BotEntry.function`` for a bot that
    is a plain function of ``(game, state, ctx)``.
    """

    name: str
    description: str
    factory: Callable[[Game], Bot]
    options: dict[str, Any] = field(default_factory=dict)

    def make(self, game: Game) -> Bot:
        return self.factory(game)

    @classmethod
    def function(cls, name: str, description: str, fn: Callable[[Game, State, Context], Move]) -> "BotEntry":
        return cls(name, description, lambda game: FunctionBot(game, fn))


def random_move(game: Game, state: State, ctx: Context) -> Move:
    """A uniformly random legal move: every game's weakest bot."""
    return ctx.rng.choice(list(game.legal_moves(state)))
