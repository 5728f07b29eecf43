"""A round robin's throughput on one process, two local processes, the default (no ``--jobs``:
the tournament's own process, and workers once its games show they pay, ``arcade.tournament.jobs.Pace``)
and a 2-worker Dask cluster.

Toothpick Takeaway (many tiny games: the runner's own cost shows), Hog (quick bots, a table each
worker builds again), D-Football (``perfect``'s searches) and Robot Ludo (expectimax), the same
bots and seed each way. The three local ways are run in turn in every round (their order rotating,
so that a load that comes and goes falls on each alike), ``--rounds`` rounds, and their medians
compared: the default must be no more than 5 % slower than the better of one process and two.
Prints seconds, games a second, and checks that the standings are the same every way.
``--load N`` adds N busy processes for the whole run (a loaded machine).

    python bench/tournament.py [--totals 100,2000] [--only toothpicks,hog] [--load N] [--rounds R] [--no-cluster]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arcade.tournament.runner import run_tournament  # noqa: E402

ROUNDS = {
    "toothpicks": ["perfect", "random", "always_1", "always_2", "mirror"],
    "hog": ["optimal", "more_boar", "piggypoints", "always_roll_4", "always_roll_6"],
    "dfootball": ["perfect", "prefer_jumps", "random_move"],
    "ludo": ["expectimax", "heuristic", "random"],
}
"""Each game's bots."""
WAYS = {"--jobs 1": 1, "--jobs 2": 2, "default": None}
"""The local ways, by the ``jobs`` each passes (``None``: the default, no ``--jobs``)."""


def spin() -> None:
    while True:
        pass


def timed(game_id: str, games: int, **how) -> tuple[float, dict]:
    started = time.perf_counter()
    result = run_tournament(game_id, ROUNDS[game_id], games=games, seed=1, **how)
    return time.perf_counter() - started, result.as_json()


def interleaved(rounds: int, game_id: str, games: int) -> dict[str, list[float]]:
    """Each local way's seconds in every round, the ways' order rotating round by round; the
    standings checked equal every way."""
    times: dict[str, list[float]] = {way: [] for way in WAYS}
    names = list(WAYS)
    standings = None
    for round_ in range(rounds):
        for way in names[round_ % 3:] + names[:round_ % 3]:
            took, got = timed(game_id, games, jobs=WAYS[way])
            assert standings is None or got == standings, (game_id, way)
            standings = got
            times[way].append(took)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--totals", default="100,2000", help="tournament sizes in games (comma-separated)")
    parser.add_argument("--only", default="toothpicks,hog", help="games (comma-separated; of " + ", ".join(ROUNDS) + ")")
    parser.add_argument("--load", type=int, default=0, help="busy processes added for the whole run")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of the three ways, their medians taken")
    parser.add_argument("--no-cluster", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("ARCADE_BOT_LOGS", tempfile.mkdtemp(prefix="bench-tournament-"))
    busy = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.load)]
    for process in busy:
        process.start()
    time.sleep(1.0 if busy else 0.0)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {args.load} busy processes added, "
          f"load average {os.getloadavg()[0]:.1f}; medians of {args.rounds} interleaved rounds")
    LocalCluster = None
    if not args.no_cluster:
        try:
            from distributed import LocalCluster
        except ImportError:
            print("(no cluster figures: pip install distributed)")
    worst = 0.0
    try:
        for game_id in args.only.split(","):
            pairs = len(ROUNDS[game_id]) * (len(ROUNDS[game_id]) - 1) // 2
            for total in (int(t) for t in args.totals.split(",")):
                games = max(1, total // pairs)
                times = interleaved(args.rounds, game_id, games)
                medians = {way: statistics.median(seconds) for way, seconds in times.items()}
                best = min(medians["--jobs 1"], medians["--jobs 2"])
                ratio = medians["default"] / best
                worst = max(worst, ratio)
                print(f"{game_id:<10} {pairs * games:>5} games  " + "  ".join(
                    f"{way}: {medians[way]:6.2f} s" for way in WAYS)
                      + f"  default / better of 1 and 2: {ratio:.2f}×{'' if ratio <= 1.05 else '  (over 5 %)'}"
                      + f"  load {os.getloadavg()[0]:.1f}")
                if LocalCluster is not None:
                    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      dashboard_address=":0") as cluster:
                        timed(game_id, 2, cluster=cluster.scheduler_address)  # the workers import the arcade
                        on, _standings = timed(game_id, games, cluster=cluster.scheduler_address)
                    print(f"{game_id:<10} {'':>11}  2 Dask workers: {on:6.2f} s, "
                          f"{medians['--jobs 1'] / on:.2f}× one process")
        print(f"worst default / better of 1 and 2: {worst:.2f}×")
    finally:
        for process in busy:
            process.kill()


if __name__ == "__main__":
    main()
