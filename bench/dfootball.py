"""D-Football figures: how fast ``perfect`` answers, how it decides, and its contest scores.

    .venv/bin/python bench/dfootball.py [--n 11] [--games 50] [--k 50]

1. Move times: ``perfect`` plays ``--games`` games against each course bot (``random_move``,
   ``prefer_jumps``) from each side (Michigan and Ohio) at ``--n``; every call is timed as the
   course's ``play_game`` times it (the whole call, the first move of each game included). Prints
   the slowest, 99th-percentile and median move time, how many moves took over 100 ms, and how
   ``perfect`` decided (book, search, lost-position count, fallback rule) per side.
   ``--load P`` runs P busy processes and ``--threads T`` T busy threads of this process (they
   hold the GIL as the arcade's screen does) meanwhile, and the p99.9 and max are printed: the
   deadline must hold with margin on a busy 2-core machine.
2. Scores: ``play_repeatedly(perfect, X, k=--k, n=--n)`` for X in the two course bots, with the
   course's forfeit rules (an answer over 100 ms loses the game; warnings are counted).
3. The method in lost positions (``--loss-n``, default 9, where Ohio loses with perfect play):
   ``perfect`` as Ohio against ``random_move``, ``prefer_jumps`` and ``perfect`` playing a random
   move with probability ``--noise`` (5%) (``--loss-games`` each), with
   its method (fewest winning replies, else the rule), with the rule alone, and with the first
   valid move: how often each turns a lost game into a win.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import threading
import statistics
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bots.dfootball as dfb  # noqa: E402
from bots.dfootball import BOOK, decide, perfect, prefer_jumps, random_move  # noqa: E402
from bots.dfootball.solver import from_board, moves  # noqa: E402
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
    parser.add_argument("--loss-n", type=int, default=9)
    parser.add_argument("--loss-games", type=int, default=100)
    parser.add_argument("--noise", type=float, default=0.05,
                        help="how often the noisy perfect opponent plays a random move (default 0.05)")
    parser.add_argument("--load", type=int, default=0, help="busy processes during the move times")
    parser.add_argument("--threads", type=int, default=0,
                        help="busy threads in this process (GIL contention) during the move times")
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: times,scores,loss")
    parser.add_argument("--verify", type=int, default=None, metavar="N",
                        help="instead: walk every line perfect can meet at this n (every opponent move) "
                             "and check each won position's move with the exact solver")
    parser.add_argument("--side", choices=("michigan", "ohio", "both"), default="both",
                        help="the side perfect plays in --verify")
    args = parser.parse_args()
    if args.verify is not None:
        verify(args.verify, args.side)
        return
    n = args.n
    skip = set(filter(None, args.skip.split(",")))
    print(f"D-Football bench, n = {n}; book: {len(BOOK)} entries")
    if "times" not in skip:
        with busy(args.load, args.threads):
            move_times(args, n)
    if "scores" not in skip:
        scores(args, n)
    if "loss" not in skip:
        loss_method(args)


def _spin(stop) -> None:
    while not stop.is_set():
        sum(range(20_000))


class busy:
    """``processes`` busy processes and ``threads`` busy threads while the block runs."""

    def __init__(self, processes: int, threads: int) -> None:
        self.processes, self.threads = processes, threads

    def __enter__(self) -> "busy":
        self.stop_p = multiprocessing.Event()
        self.stop_t = threading.Event()
        self.procs = [multiprocessing.Process(target=_spin, args=(self.stop_p,), daemon=True) for _ in range(self.processes)]
        self.thrs = [threading.Thread(target=_spin, args=(self.stop_t,), daemon=True) for _ in range(self.threads)]
        for worker in (*self.procs, *self.thrs):
            worker.start()
        if self.processes or self.threads:
            print(f"under load: {self.processes} busy processes, {self.threads} busy threads in this one")
        return self

    def __exit__(self, *exc) -> None:
        self.stop_p.set()
        self.stop_t.set()
        for worker in (*self.procs, *self.thrs):
            worker.join()


def move_times(args, n: int) -> None:
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
        f"p99.9 {percentile(all_times, 99.9) * 1000:.1f} ms, "
        f"p99 {percentile(all_times, 99) * 1000:.1f} ms, over 100 ms: {sum(t > 0.1 for t in all_times)}"
    )



def scores(args, n: int) -> None:
    for name, opponent in (("random_move", random_move), ("prefer_jumps", prefer_jumps)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            score = play_repeatedly(perfect, opponent, k=args.k, n=n)
        notes = Counter(str(w.message) for w in caught)
        extra = f"; warnings: {dict(notes)}" if notes else ""
        print(f"play_repeatedly(perfect, {name}, k={args.k}, n={n}) = {score}{extra}")



def loss_method(args) -> None:
    n = args.loss_n
    original_loss, original_rule = dfb.loss_choice, dfb.rule_move

    def first_valid(m, o, size, avoid=frozenset()):
        return moves(m, o, size)[0][0].bit_length()

    noise = random.Random(args.seed)

    def noisy_perfect(game):
        """perfect, but a random valid move with probability ``--noise``."""
        if noise.random() < args.noise:
            return random_move(game)
        return perfect(game)

    variants = {
        "fewest winning replies (perfect)": (original_loss, original_rule),
        "the rule alone": (lambda *a, **k: (None, 0), original_rule),
        "first valid move": (lambda *a, **k: (None, 0), first_valid),
    }
    print(f"lost positions: perfect as Ohio at n = {n} (Michigan wins with perfect play), {args.loss_games} games each")
    try:
        for label, (loss, rule) in variants.items():
            dfb.loss_choice, dfb.rule_move = loss, rule
            results = []
            for name, opponent in (("random_move", random_move), ("prefer_jumps", prefer_jumps),
                                   (f"perfect with {args.noise:.0%} random moves", noisy_perfect)):
                random.seed(args.seed)
                noise.seed(args.seed)
                wins = 0
                for _ in range(args.loss_games):
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        wins += play_game(opponent, perfect, n=n) == "ohio"
                results.append(f"vs {name} {wins}/{args.loss_games}")
            print(f"    {label:34}: " + ", ".join(results))
    finally:
        dfb.loss_choice, dfb.rule_move = original_loss, original_rule


def verify(n: int, side: str) -> None:
    """Walk every position perfect can meet and check it (``bots.dfootball.book.verify``)."""
    from bots.dfootball.book import verify as walk

    began = time.perf_counter()
    found = walk(n, side, progress=lambda text: print(text, file=sys.stderr, flush=True))
    print(f"verify n={n} ({side}): {found['positions']} positions, {found['won']} won, {found['given_away']} won "
          f"positions given away; decided by {found['paths']}; {time.perf_counter() - began:.0f} s")

if __name__ == "__main__":
    main()
