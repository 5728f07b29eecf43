"""``arcade hog analyze``: exact (computed, not sampled) win probabilities of Hog strategies.

    arcade hog analyze [--goal N] [--json]

Prints, to 4 decimals: the value of the game under perfect play; ``optimal`` against each of the
course's strategies and against itself, moving first and moving second; and the best fixed
number of dice against ``always_roll(6)`` next to the exact best response
(``counter_always_roll_6``).
"""

from __future__ import annotations

import argparse
import json
import time

from arcade.commands.common import UsageError


def register(subparsers) -> None:
    hog = subparsers.add_parser("hog")
    hog_sub = hog.add_subparsers(dest="hog_command", metavar="HOG_COMMAND")
    analyze = hog_sub.add_parser("analyze", help="exact win probabilities of optimal play and the course's strategies")
    analyze.add_argument("--goal", default="100", help="the goal score (default 100)")
    analyze.add_argument("--json", action="store_true", help="print one JSON object and nothing else")
    analyze.set_defaults(run=run_analyze)
    hog.set_defaults(run=lambda args: _missing_command(hog))


def _missing_command(parser: argparse.ArgumentParser) -> int:
    raise UsageError("hog needs a command; valid commands: analyze")


def analysis(goal: int) -> dict:
    """Every figure ``arcade hog analyze`` prints, as a dict."""
    from bots.hog import counter_table
    from games import hog_solver
    from games.hog import always_roll, more_boar_strategy, piggypoints_strategy

    start = time.perf_counter()
    table = hog_solver.solve.__wrapped__(goal)  # time a fresh build
    build_seconds = time.perf_counter() - start
    optimal = table.strategy
    opponents = [("optimal", optimal), ("more_boar_strategy", more_boar_strategy), ("piggypoints_strategy", piggypoints_strategy)]
    opponents += [(f"always_roll({n})", always_roll(n)) for n in range(11)]
    rows = []
    for name, strategy in opponents:
        first = hog_solver.evaluate(optimal, strategy, goal)
        second = 1.0 - hog_solver.evaluate(strategy, optimal, goal)
        rows.append({"opponent": name, "first": first, "second": second, "average": (first + second) / 2})
    six = always_roll(6)
    fixed = []
    for n in range(11):
        strategy = always_roll(n)
        first = hog_solver.evaluate(strategy, six, goal)
        second = 1.0 - hog_solver.evaluate(six, strategy, goal)
        fixed.append({"dice": n, "first": first, "second": second, "average": (first + second) / 2})
    counter = counter_table(goal)
    counter_first = counter.win[0][0]
    counter_second = 1.0 - hog_solver.evaluate(six, counter.strategy, goal)
    return {
        "goal": goal,
        "build_seconds": build_seconds,
        "value": table.win[0][0],
        "optimal_vs": rows,
        "always_roll_vs_always_roll_6": fixed,
        "best_dice_vs_always_roll_6": max(fixed, key=lambda row: row["average"])["dice"],
        "counter_always_roll_6": {
            "first": counter_first,
            "second": counter_second,
            "average": (counter_first + counter_second) / 2,
        },
    }


def run_analyze(args: argparse.Namespace) -> int:
    from games.base import OptionError
    from games.hog import Hog

    try:
        goal = Hog(goal=args.goal).goal
    except OptionError as exc:
        raise UsageError(str(exc)) from None
    data = analysis(goal)
    if args.json:
        print(json.dumps(data))
        return 0
    print(f"Hog to {goal}: exact win probabilities (dynamic programming, not sampled)")
    print(f"optimal table built in {data['build_seconds']:.2f} s")
    print(f"perfect play: the first player wins {data['value']:.4f}")
    print()
    print("optimal against            moving first  moving second  average")
    for row in data["optimal_vs"]:
        print(f"  {row['opponent']:<24} {row['first']:>12.4f}  {row['second']:>13.4f}  {row['average']:>7.4f}")
    print()
    print("always_roll(N) against always_roll(6)")
    print("  N                          moving first  moving second  average")
    best = data["best_dice_vs_always_roll_6"]
    for row in data["always_roll_vs_always_roll_6"]:
        mark = "  ← best" if row["dice"] == best else ""
        print(f"  {row['dice']:<24} {row['first']:>12.4f}  {row['second']:>13.4f}  {row['average']:>7.4f}{mark}")
    counter = data["counter_always_roll_6"]
    print(
        f"  {'counter_always_roll_6':<24} {counter['first']:>12.4f}  {counter['second']:>13.4f}  "
        f"{counter['average']:>7.4f}  (exact best response)"
    )
    return 0
