"""What a D-Football strategy written in R costs: starting R, and each move's round trip.

Prints, for the course's ``prefer_jumps`` and ``random_move`` in R
(``tests/course_bots/stats306_course/course_strategies.R``), in the bwrap sandbox (when it works
here) and in a plain process: the time to start ``Rscript`` and load the file (wall and CPU:
R, dplyr, the course's API, compiling), then over N games against the built-in
``random_move`` the first move's round trip (the one a startup cost would land on) and the
median and 95th percentile of all moves, against the contest's 100 ms. First, bare ``Rscript``
with and without ``library(dplyr)``, for comparison.

    python bench/r_bots.py [N]
"""

from __future__ import annotations

import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arcade.catalog import load  # noqa: E402
from bots.base import Context  # noqa: E402
from bots.dfootball import BOTS  # noqa: E402
from bots.external.host import FileBotSource  # noqa: E402
from bots.external.rlang import R_MISSING  # noqa: E402
from bots.limits import Limits  # noqa: E402
from bots.external.sandbox import bwrap_problem  # noqa: E402

COURSE = ROOT / "tests" / "course_bots" / "stats306_course" / "course_strategies.R"


def bare(rscript: str, code: str, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.monotonic()
        subprocess.run([rscript, "--vanilla", "-e", code], check=True, capture_output=True)
        times.append(time.monotonic() - start)
    return statistics.median(times)


def bench(function: str, mode: str, games: int) -> None:
    game = load("dfootball")()
    source = FileBotSource("dfootball", f"{COURSE}:{function}", Limits(time=5.0, sandbox=mode))
    start = time.monotonic()
    host = source.ready_host(game)
    load_wall, load_cpu = time.monotonic() - start, host.cpu_seconds()
    opponent = BOTS["random_move"].make(game)
    firsts, moves = [], []
    rng = random.Random(1)
    for number in range(games):
        state = game.initial_state()
        mine = number % 2
        first = True
        while state.result is None:
            if state.to_move == mine:
                start = time.monotonic()
                move = source.ask(game, state, Context(rng=rng), rng.getrandbits(63) if first else None)
                seconds = time.monotonic() - start
                (firsts if first else moves).append(seconds)
                first = False
            else:
                move = opponent.choose(state, Context(rng=rng))
            state = game.play(state, move)
    source.close()
    everything = sorted(firsts + moves)
    p95 = everything[int(0.95 * (len(everything) - 1))]
    print(f"{function:>13} {mode:>5}  load {load_wall * 1000:6.0f} ms wall, {load_cpu * 1000:5.0f} ms CPU   "
          f"first move median {statistics.median(firsts) * 1000:5.1f} ms, max {max(firsts) * 1000:5.1f} ms   "
          f"all moves median {statistics.median(everything) * 1000:5.1f} ms, p95 {p95 * 1000:5.1f} ms "
          f"({len(everything)} moves)")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    rscript = shutil.which("Rscript")
    if rscript is None:
        sys.exit(R_MISSING)
    print(f"Rscript alone:            {bare(rscript, 'invisible(1)') * 1000:5.0f} ms")
    print(f"Rscript + library(dplyr): {bare(rscript, 'suppressPackageStartupMessages(library(dplyr))') * 1000:5.0f} ms")
    modes = ["none"] + (["bwrap"] if bwrap_problem() is None else [])
    for mode in modes:
        for function in ("prefer_jumps", "random_move"):
            bench(function, mode, games)


if __name__ == "__main__":
    main()
