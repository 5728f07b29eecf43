"""Hog figures: how long the exact tables take to build, and exact win rates.

    .venv/bin/python bench/hog.py [--repeat 5]

Prints the build time of the optimal table (goal 100 and 200), of a policy evaluation and of the
best response to always_roll(6) (best and median of --repeat fresh builds), and the exact
average win rates (both seat orders) that the README quotes, with a seeded 2000-game match of
optimal against always_roll(6) beside the exact figure as a check.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arcade.match import run_match  # noqa: E402
from bots.hog import BOTS  # noqa: E402
from games import hog_solver  # noqa: E402
from games.hog import Hog, always_roll, more_boar_strategy, piggypoints_strategy  # noqa: E402


def timed(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    print("build times (best / median of", args.repeat, "fresh builds, seconds)")
    for goal in (100, 200):
        best, median = timed(lambda: hog_solver.solve.__wrapped__(goal), args.repeat)
        print(f"  optimal table, goal {goal:<3}        {best:.3f} / {median:.3f}")
    table = hog_solver.solve(100)
    best, median = timed(lambda: hog_solver.evaluate(table.strategy, always_roll(6)), args.repeat)
    print(f"  evaluate vs always_roll(6)    {best:.3f} / {median:.3f}")
    best, median = timed(lambda: hog_solver._best_response_cached.__wrapped__(
        tuple(tuple(6 for _ in range(100)) for _ in range(100)), 100), args.repeat)
    print(f"  best response to roll(6)      {best:.3f} / {median:.3f}")

    print()
    print("exact average win rates against always_roll(6) (both seat orders), goal 100")
    six = always_roll(6)
    rows = [
        ("optimal / final", table.strategy),
        ("counter_always_roll_6", hog_solver.best_response(six).strategy),
        ("more_boar_strategy", more_boar_strategy),
        ("piggypoints_strategy", piggypoints_strategy),
        ("always_roll(5)", always_roll(5)),
        ("always_roll(8)", always_roll(8)),
    ]
    for name, strategy in rows:
        print(f"  {name:<24} {hog_solver.average_win_probability(strategy, six):.4f}")
    print(f"  perfect play, first player wins {table.win[0][0]:.4f}")

    print()
    games = 2000
    start = time.perf_counter()
    summary = run_match(Hog(), (BOTS["optimal"], BOTS["always_roll_6"]), games=games, seed=1)
    elapsed = time.perf_counter() - start
    rate = summary.wins[0] / games
    half_width = 1.96 * (rate * (1 - rate) / games) ** 0.5
    exact = hog_solver.average_win_probability(table.strategy, six)
    print(f"seeded match, optimal vs always_roll_6, {games} games (seed 1): {rate:.4f} ± {half_width:.4f}"
          f" (exact {exact:.4f}); {elapsed:.1f} s, {elapsed / games * 1000:.2f} ms a game")


if __name__ == "__main__":
    main()
