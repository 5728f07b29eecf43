"""D-Football figures: how fast ``perfect`` answers, how it decides, and its contest scores.

    .venv/bin/python bench/dfootball.py [--n 11] [--games 50] [--k 50]

1. Move times: ``perfect`` plays ``--games`` games against each course bot (``random_move``,
   ``prefer_jumps``) from each side (Michigan and Ohio) at ``--n``; every call is timed as the
   course's ``play_game`` times it (the whole call, the first move of each game included). Prints
   the slowest, 99th-percentile and median move time, how many moves took over 100 ms, and how
   ``perfect`` decided (book, search, lost-position count, fallback rule) per side.
2. Scores: ``play_repeatedly(perfect, X, k=--k, n=--n)`` for X in the two course bots, with the
   course's forfeit rules (an answer over 100 ms loses the game; warnings are counted).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.dfootball import BOOK, decide, perfect, prefer_jumps, random_move  # noqa: E402
from bots.dfootball_solver import from_board  # noqa: E402
from games.dfootball import play_game, play_repeatedly  # noqa: E402


def timed_perfect(times: list[float], paths: Counter):
    def strategy(game):
        start = time.perf_counter()
        board = list(game["board"])
        m, o = from_board(board, 1)
        d = decide(m, o, len(board))
        times.append(time.perf_counter() - start)
        paths[d.path + ("" if d.winning is not False else " (lost)") + (" (unknown)" if d.winning is None else "")] += 1
        return d.square

    return strategy


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=11)
    parser.add_argument("--games", type=int, default=50, help="games per opponent and side")
    parser.add_argument("--k", type=int, default=50, help="play_repeatedly's k")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    n = args.n
    print(f"D-Football bench, n = {n}; book: {len(BOOK)} entries")
    random.seed(args.seed)
    all_times: list[float] = []
    for name, opponent in (("random_move", random_move), ("prefer_jumps", prefer_jumps)):
        for side in ("michigan", "ohio"):
            times: list[float] = []
            paths: Counter = Counter()
            wins = 0
            forfeits = 0
            bot = timed_perfect(times, paths)
            for _ in range(args.games):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    if side == "michigan":
                        winner = play_game(bot, opponent, n=n)
                    else:
                        winner = play_game(opponent, bot, n=n)
                forfeits += sum(side in str(w.message) for w in caught)
                wins += winner == side
            all_times.extend(times)
            print(
                f"perfect as {side:8} vs {name:12}: won {wins}/{args.games}, forfeits {forfeits}; "
                f"{len(times)} moves: slowest {max(times) * 1000:.1f} ms, p99 {percentile(times, 99) * 1000:.1f} ms, "
                f"median {statistics.median(times) * 1000:.2f} ms, over 100 ms: {sum(t > 0.1 for t in times)}"
            )
            print("    decided by: " + ", ".join(f"{k} {v}" for k, v in sorted(paths.items())))
    print(
        f"all {len(all_times)} moves: slowest {max(all_times) * 1000:.1f} ms, "
        f"p99 {percentile(all_times, 99) * 1000:.1f} ms, over 100 ms: {sum(t > 0.1 for t in all_times)}"
    )
    for name, opponent in (("random_move", random_move), ("prefer_jumps", prefer_jumps)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            score = play_repeatedly(perfect, opponent, k=args.k, n=n)
        notes = Counter(str(w.message) for w in caught)
        extra = f"; warnings: {dict(notes)}" if notes else ""
        print(f"play_repeatedly(perfect, {name}, k={args.k}, n={n}) = {score}{extra}")


if __name__ == "__main__":
    main()
