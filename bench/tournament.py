"""A round robin's throughput on one process, two local processes and a 2-worker Dask cluster.

Toothpick Takeaway (many tiny games: the runner's own cost shows) and Hog (longer games), the same
bots and seed each way; prints games a second and the speed-up over one process, and checks that
the standings are the same every way.

    python bench/tournament.py [GAMES_A_PAIR]
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arcade.tournament import run_tournament  # noqa: E402

ROUNDS = {
    "toothpicks": ["perfect", "random", "always_1", "always_2", "mirror"],
    "hog": ["optimal", "more_boar", "piggypoints", "always_roll_4", "always_roll_6"],
}


def timed(game_id: str, games: int, **how) -> tuple[float, dict]:
    started = time.perf_counter()
    result = run_tournament(game_id, ROUNDS[game_id], games=games, seed=1, **how)
    return time.perf_counter() - started, result.as_json()


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    os.environ.setdefault("ARCADE_BOT_LOGS", tempfile.mkdtemp(prefix="bench-tournament-"))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; {games} games a pair, 5 bots (10 pairs)")
    try:
        from distributed import LocalCluster
    except ImportError:
        LocalCluster = None
        print("(no cluster figures: pip install distributed)")
    for game_id in ROUNDS:
        total = 10 * games
        one, standings = timed(game_id, games, jobs=1)
        print(f"{game_id:<10} --jobs 1: {one:6.2f} s, {total / one:8.0f} games/s")
        two, again = timed(game_id, games, jobs=2)
        assert again == standings
        print(f"{game_id:<10} --jobs 2: {two:6.2f} s, {total / two:8.0f} games/s, {one / two:.2f}× one process")
        if LocalCluster is not None:
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                              dashboard_address=":0") as cluster:
                timed(game_id, 10, cluster=cluster.scheduler_address)  # the workers import the arcade
                on, again = timed(game_id, games, cluster=cluster.scheduler_address)
            assert again == standings
            print(f"{game_id:<10} 2 workers: {on:6.2f} s, {total / on:8.0f} games/s, {one / on:.2f}× one process")


if __name__ == "__main__":
    main()
