"""Contest seasons (``arcade contest``): figures.

``ladder``: how well a ladder (``format = "ladder"``, ``arcade.contest.ladder``) orders a field
against all pairs, for the games each plays. A field of 40 entries with true strengths drawn from
a normal distribution (spread ``--spread``, on OpenSkill's scale: β = 25/6), each game's winner
drawn from the model's own win chance; all pairs (2 games a pair, 1,560 games), the ladder at
``ladder_games`` 40 and 60 (2 games a meeting), and the same budgets with the pairs drawn at random
instead of chosen (each round a random matching). Prints the games played and the Spearman
correlation of the final order with the true one, averaged over ``--seeds`` fields.

    python bench/contest.py ladder [--seeds 10] [--spread 4,1.5]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arcade.contest import ladder as lad  # noqa: E402
from arcade.contest.config import Config  # noqa: E402

FIELD = 40


def _winner(rng: random.Random, truth: dict, a: str, b: str) -> int:
    chance = 1 / (1 + math.exp((truth[b] - truth[a]) / (math.sqrt(2) * lad.BETA)))
    return 0 if rng.random() < chance else 1


def spearman(score: dict, truth: dict) -> float:
    order = sorted(score, key=lambda d: -score[d])
    place = {d: i for i, d in enumerate(sorted(truth, key=lambda d: -truth[d]))}
    n = len(truth)
    return 1 - 6 * sum((i - place[d]) ** 2 for i, d in enumerate(order)) / (n * (n * n - 1))


def all_pairs(truth: dict, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    wins = dict.fromkeys(truth, 0.0)
    names = sorted(truth)
    games = 0
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for _ in range(2):
                games += 1
                wins[a if _winner(rng, truth, a, b) == 0 else b] += 1
    return games, spearman({d: w + rng.random() * 0.01 for d, w in wins.items()}, truth)  # ties: at random


def a_ladder(truth: dict, budget: int, seed: int, chosen: bool = True) -> tuple[int, float]:
    """A ladder's games and order's correlation; ``chosen=False``: a random matching each round
    until every entry has played ``budget`` games."""
    config = Config(game="othello", format="ladder", games=2, ladder_games=budget)
    rng = random.Random(seed)
    rounds: list = []
    results: dict = {}
    while True:
        rated = lad.ratings(rounds, results)
        if chosen:
            planned = lad.plan(config, rounds, list(truth), rated, seed)
        else:
            names = sorted(truth)
            rng.shuffle(names)
            done = min(rated.get(d, lad.Rating()).games for d in names) >= budget
            planned = None if done else lad.Round(len(rounds) + 1, tuple(
                lad.Meeting(*sorted(names[i:i + 2]), 1 + 2 * len(rounds), 2) for i in range(0, len(names) - 1, 2)))
        if planned is None:
            break
        rounds.append(planned)
        for m in planned.meetings:
            for number in m.numbers:
                results[(m.a, m.b, number)] = _winner(rng, truth, m.a, m.b)
    rated = lad.ratings(rounds, results)
    return len(results), spearman({d: r.mu for d, r in rated.items()}, truth)


def ladder_figures(seeds: int, spreads: list[float]) -> None:
    ways = {"all pairs": lambda t, s: all_pairs(t, s)}
    for budget in (40, 60):
        ways[f"ladder, {budget} games each"] = lambda t, s, b=budget: a_ladder(t, b, s)
        ways[f"random pairs, {budget} games each"] = lambda t, s, b=budget: a_ladder(t, b, s, chosen=False)
    for spread in spreads:
        print(f"{FIELD} entries, strengths' spread {spread:g} (beta {lad.BETA:.2f}), {seeds} fields:")
        for name, way in ways.items():
            figures = []
            for seed in range(seeds):
                rng = random.Random(1000 + seed)
                truth = {f"e{i:02d}": rng.gauss(25, spread) for i in range(FIELD)}
                figures.append(way(truth, seed))
            games = sum(g for g, _ in figures) / seeds
            print(f"  {name:28} {games:7.0f} games   Spearman {sum(r for _, r in figures) / seeds:.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    ladder = sub.add_parser("ladder", help="a ladder's order against all pairs'")
    ladder.add_argument("--seeds", type=int, default=10)
    ladder.add_argument("--spread", default="4,1.5")
    args = parser.parse_args(argv)
    if args.what == "ladder":
        ladder_figures(args.seeds, [float(s) for s in args.spread.split(",")])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
