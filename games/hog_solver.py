"""Exact analysis of Hog: the dice's point distributions, the optimal policy, policy evaluation.

Hog's position between turns is the pair (mover's score, opponent's score), both below the goal.
Every turn adds at least one point to the mover's score, so the sum of the scores grows strictly
and the positions form an acyclic graph: dynamic programming over anti-diagonals (largest sum
first) computes values exactly, with no iteration to convergence. Values are win probabilities
in double precision (the exact rationals have denominators of thousands of digits); "exact" here
means computed, not sampled.

``W(s, o)`` is the probability that the player to move, with score ``s`` against ``o``, wins
against a perfect opponent::

    W(s, o) = max over n in 0..10 of  sum over points p of  P_n(p) * after(s + p, o)
    after(t, o) = 1            if t >= goal
                = W(t, o)      if more_boar(t, o)     (extra turn: the same player moves again)
                = 1 - W(o, t)  otherwise              (the opponent moves)

with ``P_0`` the certain Piggy Points of ``o`` and ``P_n`` (n >= 1) the distribution of a roll of
n six-sided dice under Sow Sad. The rules (``piggy_points``, ``more_boar``) come from
``games.hog_rules``; this module imports nothing else of ours (not ``games.hog``, which uses it),
nothing from ``bots`` or ``arcade``: both the course facade's ``final_strategy`` and the
``optimal`` bot read the same table.
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction
from operator import mul
from typing import Callable, Sequence

from games.hog_rules import MAX_DICE, SIDES, digits, more_boar, piggy_points  # noqa: F401 (digits: re-exported)

Strategy = Callable[[int, int], int]
"""A course-style strategy: ``strategy(score, opponent_score) -> number of dice``."""

TIE = 1e-12
"""Numbers of dice whose win probabilities differ by less than this are tied; the fewest wins."""


@functools.lru_cache(maxsize=None)
def point_distribution(num_rolls: int, sides: int = SIDES) -> tuple[tuple[int, Fraction], ...]:
    """The exact distribution of a turn's points when rolling ``num_rolls`` >= 1 fair dice.

    Sow Sad: any 1 scores 1 point; otherwise the sum. Returns ``(points, probability)`` pairs in
    ascending order of points, probabilities summing to 1.
    """
    if num_rolls < 1:
        raise ValueError("rolling needs at least one die")
    # ways[t]: sequences of faces 2..sides summing to t
    ways = {0: 1}
    for _ in range(num_rolls):
        step: dict[int, int] = {}
        for total, count in ways.items():
            for face in range(2, sides + 1):
                step[total + face] = step.get(total + face, 0) + count
        ways = step
    all_sequences = sides**num_rolls
    no_one = (sides - 1) ** num_rolls
    pairs = [(1, Fraction(all_sequences - no_one, all_sequences))]
    pairs += [(total, Fraction(count, all_sequences)) for total, count in sorted(ways.items())]
    return tuple(pairs)


@functools.lru_cache(maxsize=None)
def _float_rows() -> tuple[tuple[float, int, tuple[float, ...]], ...]:
    """For n = 1..10: (P(Sow Sad), lowest sum 2n, probabilities of sums 2n..6n) as floats."""
    rows = []
    for n in range(1, MAX_DICE + 1):
        dist = point_distribution(n)
        rows.append((float(dist[0][1]), 2 * n, tuple(float(p) for _, p in dist[1:])))
    return tuple(rows)


@functools.lru_cache(maxsize=None)
def _more_boar_table(goal: int) -> tuple[tuple[bool, ...], ...]:
    span = range(goal)
    return tuple(tuple(more_boar(t, o) for o in span) for t in span)


@functools.lru_cache(maxsize=None)
def _more_boar_columns(goal: int) -> tuple[tuple[int, ...], ...]:
    """For each opponent's score o, the scores t (ascending) at which ``more_boar(t, o)``."""
    mb = _more_boar_table(goal)
    return tuple(tuple(t for t in range(goal) if mb[t][o]) for o in range(goal))


def _afters(s: int, o: int, goal: int, a_moves, b_moves, columns) -> tuple[list[float], list[float]]:
    """A's win chance after the mover (at ``s``, the other at ``o``) scores x, for x = 0..60:
    ``after_a`` when A moved, ``after_b`` when B moved (a sum that reaches the goal wins; an
    extra turn by ``more_boar`` keeps the mover to move, else the other moves). Each is a slice of
    the other side's row, the few extra turns patched in: the solvers' inner step."""
    reach = SIDES * MAX_DICE
    k = min(reach, goal - 1 - s)
    after_a = [1.0, *b_moves[o][s + 1:s + 1 + k]] + [1.0] * (reach - k)
    after_b = [0.0, *a_moves[o][s + 1:s + 1 + k]] + [0.0] * (reach - k)
    column = columns[o]
    for t in column[bisect_right(column, s):bisect_right(column, s + k)]:
        after_a[t - s], after_b[t - s] = a_moves[t][o], b_moves[t][o]
    return after_a, after_b


def _diagonals(goal: int):
    """The positions (s, o) below the goal, largest s + o first."""
    for total in range(2 * goal - 2, -1, -1):
        for s in range(max(0, total - goal + 1), min(goal - 1, total) + 1):
            yield s, total - s


@dataclass(frozen=True)
class OptimalTable:
    """The exactly optimal policy for one goal.

    ``win[s][o]``: probability that the mover wins from (s, o) with perfect play on both sides.
    ``policy[s][o]``: the optimal number of dice (the fewest among ties).
    ``values[s][o][n]``: the win probability of rolling n dice now and playing perfectly after.
    """

    goal: int
    win: tuple[tuple[float, ...], ...]
    policy: tuple[tuple[int, ...], ...]
    values: tuple[tuple[tuple[float, ...], ...], ...]

    def strategy(self, score: int, opponent_score: int) -> int:
        """The optimal number of dice, as a course-style strategy (scores below the goal)."""
        return self.policy[score][opponent_score]


def _best(values: Sequence[float]) -> int:
    top = max(values)
    for n, value in enumerate(values):
        if value >= top - TIE:
            return n
    return 0  # pragma: no cover - max is always reached


@functools.lru_cache(maxsize=8)
def solve(goal: int = 100) -> OptimalTable:
    """Solve Hog to ``goal`` exactly (about 0.2 s for goal 100 in CPython)."""
    if goal < 1:
        raise ValueError("the goal must be at least 1")
    rows = _float_rows()
    mb = _more_boar_table(goal)
    piggy = [piggy_points(o) for o in range(goal)]
    win = [[0.0] * goal for _ in range(goal)]
    policy = [[0] * goal for _ in range(goal)]
    values: list[list[tuple[float, ...]]] = [[()] * goal for _ in range(goal)]
    reach = SIDES * MAX_DICE
    for s, o in _diagonals(goal):
        after = [1.0] * (reach + 1)
        win_o = win[o]
        for x in range(1, min(reach, goal - 1 - s) + 1):
            t = s + x
            after[x] = win[t][o] if mb[t][o] else 1.0 - win_o[t]
        vals = [after[piggy[o]]]
        one = after[1]
        for p_one, low, probs in rows:
            vals.append(p_one * one + sum(map(mul, probs, after[low : low + len(probs)])))
        best = _best(vals)
        win[s][o] = vals[best]
        policy[s][o] = best
        values[s][o] = tuple(vals)
    return OptimalTable(
        goal,
        tuple(map(tuple, win)),
        tuple(map(tuple, policy)),
        tuple(map(tuple, values)),
    )


def _tabulate(strategy: Strategy, goal: int) -> list[list[int]]:
    """A strategy's choices for every position, each checked to be an int 0..10."""
    table = []
    for s in range(goal):
        row = []
        for o in range(goal):
            n = strategy(s, o)
            if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_DICE:
                raise ValueError(f"strategy returned {n!r} for ({s}, {o}); it must be an int 0..10")
            row.append(n)
        table.append(row)
    return table


def _expected(n: int, after: Sequence[float], opponent_score: int, rows) -> float:
    if n == 0:
        return after[piggy_points(opponent_score)]
    p_one, low, probs = rows[n - 1]
    return p_one * after[1] + sum(map(mul, probs, after[low : low + len(probs)]))


def evaluate(strategy0: Strategy, strategy1: Strategy, goal: int = 100) -> float:
    """The exact probability that ``strategy0``, moving first from 0-0, beats ``strategy1``."""
    return evaluate_tables(strategy0, strategy1, goal)[0][0][0]


def evaluate_tables(strategy_a: Strategy, strategy_b: Strategy, goal: int = 100):
    """Win probabilities of A for every position: ``(a_moves, b_moves)``.

    ``a_moves[s][o]``: A to move with score s, B has o. ``b_moves[s][o]``: B to move with score s,
    A has o. Both give the probability that A wins.
    """
    rows = _float_rows()
    columns = _more_boar_columns(goal)
    table_a, table_b = _tabulate(strategy_a, goal), _tabulate(strategy_b, goal)
    a_moves = [[0.0] * goal for _ in range(goal)]
    b_moves = [[0.0] * goal for _ in range(goal)]
    for s, o in _diagonals(goal):
        after_a, after_b = _afters(s, o, goal, a_moves, b_moves, columns)
        a_moves[s][o] = _expected(table_a[s][o], after_a, o, rows)
        b_moves[s][o] = _expected(table_b[s][o], after_b, o, rows)
    return a_moves, b_moves


def average_win_probability(strategy: Strategy, baseline: Strategy, goal: int = 100) -> float:
    """The course's ``average_win_rate`` computed exactly: the mean over both seat orders."""
    first = evaluate(strategy, baseline, goal)
    second = 1.0 - evaluate(baseline, strategy, goal)
    return (first + second) / 2


@functools.lru_cache(maxsize=8)
def _best_response_cached(key: tuple, goal: int) -> OptimalTable:
    table_b = [list(row) for row in key]
    rows = _float_rows()
    columns = _more_boar_columns(goal)
    a_moves = [[0.0] * goal for _ in range(goal)]
    b_moves = [[0.0] * goal for _ in range(goal)]
    policy = [[0] * goal for _ in range(goal)]
    values: list[list[tuple[float, ...]]] = [[()] * goal for _ in range(goal)]
    for s, o in _diagonals(goal):
        after_a, after_b = _afters(s, o, goal, a_moves, b_moves, columns)
        vals = [_expected(n, after_a, o, rows) for n in range(MAX_DICE + 1)]
        best = _best(vals)
        a_moves[s][o] = vals[best]
        policy[s][o] = best
        values[s][o] = tuple(vals)
        b_moves[s][o] = _expected(table_b[s][o], after_b, o, rows)
    return OptimalTable(goal, tuple(map(tuple, a_moves)), tuple(map(tuple, policy)), tuple(map(tuple, values)))


def best_response(strategy: Strategy, goal: int = 100) -> OptimalTable:
    """The policy that maximises the win probability against the fixed ``strategy``.

    ``win[s][o]`` of the result is the best responder's probability of winning with s against o,
    the responder to move.
    """
    key = tuple(map(tuple, _tabulate(strategy, goal)))
    return _best_response_cached(key, goal)
