"""A round robin's throughput on one process, two local processes, the workers the plan chooses
(``arcade.tournament.jobs``: what a run without ``--jobs`` uses) and a 2-worker Dask cluster.

Toothpick Takeaway (many tiny games: the runner's own cost shows), Hog (quick bots, a table each
worker builds again), D-Football (``perfect``'s searches) and Robot Ludo (expectimax), the same
bots and seed each way; prints seconds, games a second and the speed-up over one process, checks
that the standings are the same every way, and that the chosen workers are never clearly slower
than one process. ``--load N`` adds N busy processes for the whole run (a loaded machine).

    python bench/tournament.py [--games N] [--load N] [--rounds R] [--no-cluster]
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

from arcade.catalog import load  # noqa: E402
from arcade.tournament.jobs import plan_jobs  # noqa: E402
from arcade.tournament.plan import plan  # noqa: E402
from arcade.tournament.runner import run_tournament  # noqa: E402
from bots.limits import Limits  # noqa: E402

ROUNDS = {
    "toothpicks": (["perfect", "random", "always_1", "always_2", "mirror"], 1.0),
    "hog": (["optimal", "more_boar", "piggypoints", "always_roll_4", "always_roll_6"], 1.0),
    "dfootball": (["perfect", "prefer_jumps", "random_move"], 0.05),
    "ludo": (["expectimax", "heuristic", "random"], 0.1),
}
"""Each game's bots and its share of ``--games`` (its games are longer)."""


def spin() -> None:
    while True:
        pass


def timed(game_id: str, games: int, **how) -> tuple[float, dict]:
    started = time.perf_counter()
    result = run_tournament(game_id, ROUNDS[game_id][0], games=games, seed=1, **how)
    return time.perf_counter() - started, result.as_json()


def best_of(rounds: int, game_id: str, games: int, **how) -> tuple[float, dict]:
    """The median of ``rounds`` runs (a loaded machine's times scatter), and the standings."""
    times, standings = [], None
    for _ in range(rounds):
        took, standings = timed(game_id, games, **how)
        times.append(took)
    return statistics.median(times), standings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games a pair (scaled down for longer games)")
    parser.add_argument("--load", type=int, default=0, help="busy processes added for the whole run")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each way, their median taken")
    parser.add_argument("--no-cluster", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("ARCADE_BOT_LOGS", tempfile.mkdtemp(prefix="bench-tournament-"))
    busy = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.load)]
    for process in busy:
        process.start()
    time.sleep(1.0 if busy else 0.0)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {args.load} busy processes added, "
          f"load average {os.getloadavg()[0]:.1f}; median of {args.rounds} runs each")
    LocalCluster = None
    if not args.no_cluster:
        try:
            from distributed import LocalCluster
        except ImportError:
            print("(no cluster figures: pip install distributed)")
    try:
        for game_id, (bots, scale) in ROUNDS.items():
            games = max(2, int(args.games * scale))
            total = len(bots) * (len(bots) - 1) // 2 * games
            one, standings = best_of(args.rounds, game_id, games, jobs=1)
            print(f"{game_id:<10} {total:>5} games  --jobs 1: {one:6.2f} s, {total / one:8.0f} games/s")
            two, again = best_of(args.rounds, game_id, games, jobs=2)
            assert again == standings
            print(f"{game_id:<10} {'':>11}  --jobs 2: {two:6.2f} s, {one / two:.2f}× one process")
            started = time.perf_counter()
            choice = plan_jobs(load(game_id)(), plan(game_id, bots, games=games), Limits())
            choosing = time.perf_counter() - started
            auto, again = best_of(args.rounds, game_id, games, jobs=choice.jobs)
            assert again == standings
            auto += choosing
            print(f"{game_id:<10} {'':>11}  chosen {choice.jobs}: {auto:6.2f} s (choosing {choosing:.2f} s of it), "
                  f"{one / auto:.2f}× one process, {min(one, two) / auto:.2f}× the better of 1 and 2 "
                  f"(expected {choice.expected:.2f} s, {choice.serial:.2f} s on one)")
            if LocalCluster is not None:
                with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as cluster:
                    timed(game_id, 2, cluster=cluster.scheduler_address)  # the workers import the arcade
                    on, again = timed(game_id, games, cluster=cluster.scheduler_address)
                assert again == standings
                print(f"{game_id:<10} {'':>11}  2 Dask workers: {on:6.2f} s, {one / on:.2f}× one process")
    finally:
        for process in busy:
            process.kill()


if __name__ == "__main__":
    main()
