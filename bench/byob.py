"""What running a bot from a file costs: starting its process, and each move's round trip.

For each game a trivial file bot in the course's signature (``good`` in
``tests/fault_bots/<game>_faults.py``, which prints a few lines each move) plays N games against
a random built-in bot; the figures are the median time to start the process and load the file,
and the median and 95th percentile of a move's round trip as the match runner sees it (pipe,
JSON, the course's arguments built, the call, the answer checked), with the call's own time as
the bot's process measured it beside. Each with the bot in the bwrap sandbox (when bwrap works
here) and in a plain process. Then a tournament's speed with 1 and 2 jobs.

    python bench/byob.py [N]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arcade.match import play_out  # noqa: E402
from arcade.seeds import match_rngs  # noqa: E402
from bots.base import BotEntry, Context, random_move  # noqa: E402
from bots.external import file_entry  # noqa: E402
from bots.limits import Limits  # noqa: E402
from arcade.catalog import load  # noqa: E402

FAULTS = ROOT / "tests" / "fault_bots"


class Timed:
    """Wraps a bot and records each move's time."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.seconds: list[float] = []

    def choose(self, state, ctx: Context):
        start = time.perf_counter()
        move = self.bot.choose(state, ctx)
        self.seconds.append(time.perf_counter() - start)
        return move


def per_game(game_id: str, games: int, sandbox: str) -> None:
    game = load(game_id)()
    starts, moves = [], []
    rival = BotEntry.function("random", "", random_move)
    for number in range(1, games + 1):
        entry = file_entry(game_id, f"{FAULTS / f'{game_id}_faults.py'}:good", Limits(sandbox=sandbox))
        started = time.perf_counter()
        assert entry.probe(game) is None
        starts.append(time.perf_counter() - started)
        timed = Timed(entry.make(game))
        chance, a, b = match_rngs(0, number)
        outcome = play_out(game, (timed, rival.make(game)), chance, (a, b), Limits(time=5.0))
        assert outcome.forfeit is None, outcome.result.reason
        moves += timed.seconds[1:]  # the first move also seeds the bot's random
        entry.close()
    moves.sort()
    p95 = moves[int(0.95 * (len(moves) - 1))]
    print(f"{game_id:<11} {sandbox:<5} start+load {statistics.median(starts) * 1000:6.1f} ms · move round trip "
          f"median {statistics.median(moves) * 1000:5.2f} ms, p95 {p95 * 1000:5.2f} ms ({len(moves)} moves)")


def tournament(jobs: int) -> None:
    from arcade.tournament.runner import run_tournament

    bots = ["perfect", "random", "always_1", "always_2", "mirror", f"{FAULTS / 'toothpicks_faults.py'}:good"]
    started = time.perf_counter()
    result = run_tournament("toothpicks", bots, games=100, seed=0, jobs=jobs)
    seconds = time.perf_counter() - started
    games = sum(p.games for p in result.pairs)
    print(f"toothpicks round robin, 6 bots (one a file bot), {games} games, --jobs {jobs}: {seconds:.2f} s")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    os.environ.setdefault("ARCADE_BOT_LOGS", tempfile.mkdtemp(prefix="bench-byob-"))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; {games} games a game")
    from bots.external.sandbox import bwrap_problem

    problem = bwrap_problem()
    if problem:
        print(f"(no bwrap figures: {problem})")
    for game_id in ("toothpicks", "hog", "dfootball", "ludo", "othello"):
        for sandbox in ("none",) + (() if problem else ("bwrap",)):
            per_game(game_id, games, sandbox)
    for jobs in (1, 2):
        tournament(jobs)


if __name__ == "__main__":
    main()
