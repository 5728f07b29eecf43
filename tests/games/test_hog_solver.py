"""The exact Hog solver and the bots: distributions against enumeration, the optimal table
against an independent value iteration and a top-down recursion, policy evaluation against
the optimal value, and seeded matches."""

from __future__ import annotations

import functools
import random
import sys
from fractions import Fraction
from itertools import product

import pytest

from bots.base import Context
from bots.hog import BOTS, optimal, counter_always_roll_6
from bots.registry import resolve
from arcade.match import run_match
from games import hog_solver
from games.hog import (
    Hog,
    always_roll,
    final_strategy,
    make_test_dice,
    more_boar_strategy,
    piggypoints_strategy,
    play,
)


# -- an independent model of a turn: faces 1..6 convolved, tracking "a one was seen" -----------
@functools.lru_cache(maxsize=None)
def turn_distribution(n: int) -> dict[int, Fraction]:
    states = {(0, False): Fraction(1)}
    for _ in range(n):
        nxt: dict = {}
        for (total, seen_one), p in states.items():
            for face in range(1, 7):
                key = (total + face, seen_one or face == 1)
                nxt[key] = nxt.get(key, 0) + p / 6
        states = nxt
    points: dict[int, Fraction] = {}
    for (total, seen_one), p in states.items():
        key = 1 if seen_one else total
        points[key] = points.get(key, 0) + p
    return points


def piggy(score):
    return 4 + abs((score // 10) % 10 - score % 10)


def extra(a, b):
    da, db = [int(c) for c in str(a)], [int(c) for c in str(b)]
    return min(da) < min(db) and max(da) > max(db)


@functools.lru_cache(maxsize=None)
def outcomes(n, opponent):
    if n == 0:
        return ((piggy(opponent), 1.0),)
    return tuple((p, float(q)) for p, q in turn_distribution(n).items())


@pytest.mark.parametrize("n", range(1, 11))
def test_point_distribution_matches_an_independent_convolution(n):
    assert dict(hog_solver.point_distribution(n)) == turn_distribution(n)
    assert sum(p for _, p in hog_solver.point_distribution(n)) == 1


@pytest.mark.parametrize("n", range(1, 5))
def test_point_distribution_matches_enumeration(n):
    counts: dict[int, int] = {}
    for faces in product(range(1, 7), repeat=n):
        points = 1 if 1 in faces else sum(faces)
        counts[points] = counts.get(points, 0) + 1
    assert dict(hog_solver.point_distribution(n)) == {p: Fraction(c, 6**n) for p, c in counts.items()}


def value_iteration(goal: int, rng: random.Random) -> dict:
    """Bellman sweeps in a random order from all-zero values until nothing changes."""
    states = [(s, o) for s in range(goal) for o in range(goal)]
    value = {state: 0.0 for state in states}

    def after(t, o):
        if t >= goal:
            return 1.0
        return value[(t, o)] if extra(t, o) else 1.0 - value[(o, t)]

    for _ in range(1000):
        rng.shuffle(states)
        change = 0.0
        for s, o in states:
            best = max(sum(q * after(s + p, o) for p, q in outcomes(n, o)) for n in range(11))
            change = max(change, abs(best - value[(s, o)]))
            value[(s, o)] = best
        if change == 0.0:
            return value
    raise AssertionError("value iteration did not converge")


def test_optimal_table_matches_value_iteration_state_by_state():
    goal = 30
    table = hog_solver.solve(goal)
    value = value_iteration(goal, random.Random(7))
    for s in range(goal):
        for o in range(goal):
            assert table.win[s][o] == pytest.approx(value[(s, o)], abs=1e-12), (s, o)


def test_optimal_table_matches_a_top_down_recursion_for_goal_100():
    goal = 100
    table = hog_solver.solve(goal)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))

    @functools.lru_cache(maxsize=None)
    def values(s, o):
        def after(t):
            if t >= goal:
                return 1.0
            return win(t, o) if extra(t, o) else 1.0 - win(o, t)

        return tuple(sum(q * after(s + p) for p, q in outcomes(n, o)) for n in range(11))

    def win(s, o):
        return max(values(s, o))

    for total in range(2 * goal - 2, -1, -1):  # deepest first keeps the recursion shallow
        for s in range(max(0, total - goal + 1), min(goal - 1, total) + 1):
            o = total - s
            mine = values(s, o)
            assert table.win[s][o] == pytest.approx(max(mine), abs=1e-12), (s, o)
            assert table.values[s][o] == pytest.approx(mine, abs=1e-12)
            best = table.policy[s][o]
            assert mine[best] >= max(mine) - 1e-9  # the chosen number of dice is optimal
            assert all(v < mine[best] - 1e-13 for v in mine[:best])  # and the fewest of the best


def test_policy_evaluation_agrees_with_the_optimal_value():
    table = hog_solver.solve(100)
    # perfect play against itself: the first player's chance is W(0, 0)
    assert hog_solver.evaluate(table.strategy, table.strategy) == pytest.approx(table.win[0][0], abs=1e-12)
    # no strategy does better against a perfect opponent than the optimal value
    response = hog_solver.best_response(table.strategy)
    assert response.win[0][0] == pytest.approx(table.win[0][0], abs=1e-12)
    for s in range(0, 100, 7):
        for o in range(0, 100, 5):
            assert response.win[s][o] <= table.win[s][o] + 1e-12


def test_best_response_to_always_roll_6_is_at_least_as_good_as_optimal_against_it():
    six = always_roll(6)
    br = hog_solver.best_response(six)
    assert br.win[0][0] >= hog_solver.evaluate(optimal, six) - 1e-12
    assert hog_solver.evaluate(counter_always_roll_6, six) == pytest.approx(br.win[0][0], abs=1e-12)


@pytest.mark.parametrize(
    "name, strategy",
    [("always_roll_6", always_roll(6)), ("piggypoints", piggypoints_strategy), ("more_boar", more_boar_strategy)]
    + [(f"always_roll_{n}", always_roll(n)) for n in (0, 1, 4, 10)],
)
def test_optimal_beats_the_course_strategies_in_both_orders(name, strategy):
    assert hog_solver.evaluate(optimal, strategy) > 0.5
    assert hog_solver.evaluate(strategy, optimal) < 0.5


def test_exact_evaluation_agrees_with_seeded_simulation():
    """always_roll(6) against itself: exact first-player chance vs 3000 seeded games (3 sigma)."""
    exact = hog_solver.evaluate(always_roll(6), always_roll(6))
    game = Hog()
    entry = resolve("hog", "always_roll_6")
    summary = run_match(game, (entry, entry), games=3000, seed=11)
    first_wins = sum(r.winner == r.first for r in summary.records) / summary.games
    assert abs(first_wins - exact) < 3 * (0.25 / 3000) ** 0.5


def test_final_strategy_and_bots_optimal_are_the_table():
    table = hog_solver.solve(100)
    for s in range(100):
        for o in range(100):
            assert final_strategy(s, o) == optimal(s, o) == table.policy[s][o]


def test_optimal_runs_as_a_course_strategy():
    score0, score1 = play(optimal, always_roll(6), dice=make_test_dice(4, 5, 6, 3, 2))
    assert max(score0, score1) >= 100


def test_every_bot_answers_a_legal_move_and_reports_bad_strategies():
    game = Hog()
    state = game.position(37, 52, 1)
    for name, entry in BOTS.items():
        move = entry.make(game).choose(state, Context(rng=random.Random(1)))
        assert move in game.legal_moves(state), name
    bad = __import__("bots.hog", fromlist=["strategy_entry"]).strategy_entry("bad", "returns 11", always_roll(11))
    with pytest.raises(Exception, match="int from 0 to 10"):
        bad.make(game).choose(state, Context())


def test_optimal_bot_uses_the_goal_of_its_game():
    game = Hog(goal=40)
    bot = BOTS["optimal"].make(game)
    table = hog_solver.solve(40)
    reports = []
    state = game.position(20, 31, 0)
    assert bot.choose(state, Context(report=reports.append)) == table.policy[20][31]
    assert reports and "%" in reports[0]


def test_seeded_match_optimal_beats_always_roll_6():
    summary = run_match(Hog(), (BOTS["optimal"], BOTS["always_roll_6"]), games=400, seed=3)
    assert summary.wins[0] > summary.wins[1] * 1.5
