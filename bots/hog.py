"""Hog bots: the course's strategies, a best response to ``always_roll(6)``, and perfect play.

Every bot here is a course-style strategy, ``strategy(score, opponent_score) -> number of dice``,
wrapped by ``StrategyBot``; a student's strategy written for the course runs unchanged::

    from bots.hog import strategy_entry
    entry = strategy_entry("mine", "my final strategy", my_strategy)

``bots.hog.optimal(score, opponent_score)`` is the exactly optimal policy for the goal of 100
(the table of ``games.hog_solver.solve``, built in about 0.2 s on first use); the ``optimal``
bot solves whatever goal the game was set up with.
"""

from __future__ import annotations

import functools
from typing import Callable

from bots.base import Bot, BotEntry, Context
from games import hog_solver
from games.base import CHANCE, IllegalMove
from games.hog import (
    GOAL_SCORE,
    Hog,
    HogState,
    always_roll,
    final_strategy,
    more_boar_strategy,
    piggypoints_strategy,
)

Strategy = Callable[[int, int], int]


def optimal(score: int, opponent_score: int) -> int:
    """The number of dice that maximises the probability of winning to 100 (a course strategy)."""
    return hog_solver.solve(GOAL_SCORE).policy[score][opponent_score]


@functools.lru_cache(maxsize=None)
def counter_table(goal: int = GOAL_SCORE) -> hog_solver.OptimalTable:
    """The exact best response to ``always_roll(6)`` for ``goal`` (built once, about 0.3 s)."""
    return hog_solver.best_response(always_roll(6), goal)


def counter_always_roll_6(score: int, opponent_score: int) -> int:
    """The best response to ``always_roll(6)`` for the goal of 100 (a course strategy)."""
    return counter_table(GOAL_SCORE).policy[score][opponent_score]


class StrategyBot(Bot):
    """A bot that asks a course-style strategy, checking its answer is an int from 0 to 10."""

    def __init__(self, game: Hog, strategy: Strategy, name: str = "strategy") -> None:
        super().__init__(game)
        self.strategy = strategy
        self.name = name

    def choose(self, state: HogState, ctx: Context) -> int:
        if state.to_move == CHANCE or state.over:
            raise IllegalMove("a strategy chooses dice only on its own turn")
        mover = state.to_move
        n = self.strategy(state.scores[mover], state.scores[1 - mover])
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= hog_solver.MAX_DICE:
            raise IllegalMove(f"strategy {self.name} returned {n!r}; a strategy must return an int from 0 to 10")
        return n


class OptimalBot(Bot):
    """Perfect play for the game's goal: the dice count of the exact DP table, with its odds."""

    def __init__(self, game: Hog) -> None:
        super().__init__(game)
        self.table = hog_solver.solve(game.goal)

    def choose(self, state: HogState, ctx: Context) -> int:
        mover = state.to_move
        s, o = state.scores[mover], state.scores[1 - mover]
        n = self.table.policy[s][o]
        ctx.report(f"{n} dice: wins {self.table.win[s][o]:.1%} against perfect play")
        return n


class BestResponseBot(Bot):
    """The exact best response to a fixed strategy (default ``always_roll(6)``) for the game's goal."""

    def __init__(self, game: Hog, target: Strategy | None = None) -> None:
        super().__init__(game)
        self.table = counter_table(game.goal) if target is None else hog_solver.best_response(target, game.goal)

    def choose(self, state: HogState, ctx: Context) -> int:
        mover = state.to_move
        s, o = state.scores[mover], state.scores[1 - mover]
        n = self.table.policy[s][o]
        ctx.report(f"{n} dice: wins {self.table.win[s][o]:.1%} against always_roll(6)")
        return n


def strategy_entry(name: str, description: str, strategy: Strategy) -> BotEntry:
    """A ``BotEntry`` for a course-style strategy function."""
    return BotEntry(name, description, lambda game: StrategyBot(game, strategy, name))


def _final_bot(game: Hog) -> Bot:
    """``final_strategy``, the table for 100, built here with the bot (as ``OptimalBot``'s is),
    not in its first move: built there, under load, it took 1,958 ms of a move held to 1 s. With
    another goal, that goal's optimal table."""
    if game.goal == GOAL_SCORE:
        hog_solver.solve(GOAL_SCORE)  # what final_strategy reads (cached: once a process)
        return StrategyBot(game, final_strategy, "final")
    return OptimalBot(game)


BOTS: dict[str, BotEntry] = {
    entry.name: entry
    for entry in (
        BotEntry("optimal", "perfect play: exact DP on the probability of winning (More Boar included)", OptimalBot),
        BotEntry("final", "the course's final_strategy: here the optimal policy", _final_bot),
        BotEntry(
            "counter_always_roll_6",
            "the exact best response to always_roll(6)",
            BestResponseBot,
        ),
        strategy_entry("more_boar", "the course's more_boar_strategy (cutoff 8, 6 dice)", more_boar_strategy),
        strategy_entry("piggypoints", "the course's piggypoints_strategy (cutoff 8, 6 dice)", piggypoints_strategy),
        *(
            strategy_entry(f"always_roll_{n}", f"always rolls {n} {'die' if n == 1 else 'dice'}", always_roll(n))
            for n in range(11)
        ),
    )
}
