"""What a D-Football strategy written in R costs: starting R, and each move's round trip.

Prints, for the course's ``prefer_jumps`` and ``random_move`` in R
(``tests/course_bots/stats306_course/course_strategies.R``), in the bwrap sandbox (when it works
here) and in a plain process: the time to start ``Rscript`` and load the file (wall and CPU:
R, dplyr, the course's API, compiling), then over N games against the built-in
``random_move`` the first move's round trip (the one a startup cost would land on) and the
median and 95th percentile of all moves (the whole ``ask``: the arcade's thaw and freeze
included), and the median and slowest on the bot's clock (``Context.took``: the round trip the
contest's 100 ms is judged on). First, bare ``Rscript``
with and without ``library(dplyr)``, for comparison.

Then where a move's time goes, inside R (``r_costs``): reading the request's JSON
(``r/json.R``'s ``json_decode``, an 11-a-side board), each strategy, writing the answer
(``json_reply``), each the mean of ``COST_RUNS`` calls in one ``Rscript``; the rest of a move's
round trip is the wire: the request's pipe, R waking up, the answer's ``cat`` relay to the
packet socket, the arcade's thaw and freeze.

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


COST_RUNS = 300
"""Calls timed for each of ``r_costs``'s figures."""

COSTS_R = r"""
args <- commandArgs(trailingOnly = TRUE)
wire <- new.env(parent = baseenv())
sys.source(file.path(args[[1]], "json.R"), envir = wire)
for (name in ls(wire)) assign(name, compiler::cmpfun(get(name, envir = wire)), envir = wire)
course <- attach(NULL, name = "d_football")
sys.source(file.path(args[[1]], "d_football.R"), envir = course)
suppressPackageStartupMessages(library(dplyr))
source(args[[2]])
runs <- as.integer(args[[3]])
line <- paste0('{"kind":"move","args":[{"board":[1,1,1,1,1,1,1,1,1,1,1,0,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1],',
               '"turn":1,"last_move":[11,12]}]}')
each <- function(expr) {
  call <- substitute(expr)
  start <- proc.time()[["elapsed"]]
  for (i in seq_len(runs)) eval(call, parent.frame())
  (proc.time()[["elapsed"]] - start) / runs * 1000
}
game <- wire$json_decode(line)$args[[1]]
cat(sprintf("%.3f %.3f %.3f %.3f\n", each(wire$json_decode(line)), each(prefer_jumps(game)),
            each(random_move(game)), each(wire$json_reply("moved", move = 3))))
"""


def r_costs(rscript: str) -> tuple[float, ...]:
    """Milliseconds inside R for one move: ``json_decode`` of a request, ``prefer_jumps``,
    ``random_move`` and ``json_reply`` (the mean of ``COST_RUNS`` calls each)."""
    from bots.external.rlang import R_DIR

    done = subprocess.run([rscript, "--vanilla", "-e", COSTS_R, str(R_DIR), str(COURSE), str(COST_RUNS)],
                          check=True, capture_output=True, text=True)
    return tuple(float(x) for x in done.stdout.split())


def bench(function: str, mode: str, games: int) -> None:
    game = load("dfootball")()
    source = FileBotSource("dfootball", f"{COURSE}:{function}", Limits(time=5.0, sandbox=mode))
    start = time.monotonic()
    host = source.ready_host(game)
    load_wall, load_cpu = time.monotonic() - start, host.cpu_seconds()
    opponent = BOTS["random_move"].make(game)
    firsts, moves, clocked = [], [], []
    rng = random.Random(1)
    for number in range(games):
        state = game.initial_state()
        mine = number % 2
        first = True
        while state.result is None:
            if state.to_move == mine:
                start = time.monotonic()
                ctx = Context(rng=rng)
                move = source.ask(game, state, ctx, rng.getrandbits(63) if first else None)
                seconds = time.monotonic() - start
                (firsts if first else moves).append(seconds)
                clocked.append(ctx.took)  # the bot's clock, which the 100 ms is judged on
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
          f"({len(everything)} moves); on the bot's clock median {statistics.median(clocked) * 1000:4.1f} ms, "
          f"max {max(clocked) * 1000:5.1f} ms")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    rscript = shutil.which("Rscript")
    if rscript is None:
        sys.exit(R_MISSING)
    print(f"Rscript alone:            {bare(rscript, 'invisible(1)') * 1000:5.0f} ms")
    print(f"Rscript + library(dplyr): {bare(rscript, 'suppressPackageStartupMessages(library(dplyr))') * 1000:5.0f} ms")
    decode, prefer, random_, reply = r_costs(rscript)
    print(f"inside R, a move: reading the request {decode:.2f} ms, prefer_jumps {prefer:.2f} ms, "
          f"random_move {random_:.2f} ms, writing the answer {reply:.2f} ms (the rest of a round trip: the wire)")
    modes = ["none"] + (["bwrap"] if bwrap_problem() is None else [])
    for mode in modes:
        for function in ("prefer_jumps", "random_move"):
            bench(function, mode, games)


if __name__ == "__main__":
    main()
