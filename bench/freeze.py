"""What freezing a bot between its turns costs (``bots.external.freezer``).

A D-Football file bot (``good`` in ``tests/fault_bots/dfootball_faults.py``) plays N games against
a random built-in bot; every ``freeze`` (after an answer) and ``thaw`` (before a request) is
timed, and so is the move's round trip as the match runner sees it (thaw and freeze included,
neither counted in the bot's own time). Then the burner (``tests/hostile_bots/burner``, a
toothpicks bot: 8 spinners and a pondering thread to stop each time) against a random bot. Each way the machine offers:
the cgroup freezer (v2, v1: as root) and signals, in the sandbox and without it.

    python bench/freeze.py [N]
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

from arcade.catalog import load  # noqa: E402
from arcade.match import play_out  # noqa: E402
from arcade.seeds import match_rngs  # noqa: E402
from bots.external import cgroups, sandbox  # noqa: E402
from bots.base import BotEntry, random_move  # noqa: E402
from bots.external import file_entry  # noqa: E402
from bots.external.freezer import Freezer  # noqa: E402
from bots.limits import Limits  # noqa: E402
from byob import Timed  # noqa: E402  (bench/byob.py: a bot whose moves are timed)

GOOD = f"{ROOT / 'tests' / 'fault_bots' / 'dfootball_faults.py'}:good"
BURNER = f"{ROOT / 'tests' / 'hostile_bots' / 'burner' / 'burner.py'}:burn"

TIMES: dict[str, list[float]] = {"freeze": [], "thaw": []}


def timed(name: str, method):
    def wrapper(self) -> None:
        was = self.frozen
        start = time.perf_counter()
        method(self)
        if was != self.frozen:  # a real freeze or thaw, not a repeat
            TIMES[name].append(time.perf_counter() - start)
    return wrapper


Freezer.freeze = timed("freeze", Freezer.freeze)
Freezer.thaw = timed("thaw", Freezer.thaw)


def figures(values: list[float]) -> str:
    values = sorted(values)
    if not values:
        return "-"
    p95 = values[int(0.95 * (len(values) - 1))]
    return f"median {statistics.median(values) * 1000:5.2f} ms, p95 {p95 * 1000:5.2f}, max {values[-1] * 1000:5.2f}"


def run(game_id: str, spec: str, label: str, mode: str, method: str, games: int) -> None:
    game = load(game_id)()
    rival = BotEntry.function("random", "", random_move)
    for key in TIMES:
        TIMES[key].clear()
    moves: list[float] = []
    for number in range(1, games + 1):
        entry = file_entry(game_id, spec, Limits(sandbox=mode))
        try:
            bot = Timed(entry.make(game))
            chance, a, b = match_rngs(0, number)
            play_out(game, (bot, rival.make(game)), chance, (a, b), Limits(time=5.0))
            assert entry.source.host is None or entry.source.host.transport.freezer.method == method.split("-")[0]
            moves += bot.seconds[1:]
        finally:
            entry.close()
    print(f"{label:<7} {mode:<5} {method:<9} freeze {figures(TIMES['freeze'])} · thaw {figures(TIMES['thaw'])} · "
          f"move round trip {figures(moves)} ({len(moves)} moves)")


def methods() -> list[tuple[str, object]]:
    """(name, what ``cgroups._freezer_root`` gives) for each way this machine offers."""
    found = []
    root = cgroups._freezer_root()
    if root is not None:
        found.append((f"cgroup-v{2 if root[1] else 1}", root))
        v1 = Path("/sys/fs/cgroup/freezer")
        if root[1] and (v1 / "cgroup.procs").exists():
            (v1 / "contest-arcade").mkdir(exist_ok=True)
            found.append(("cgroup-v1", (v1 / "contest-arcade", False)))
    found.append(("signals", None))
    return found


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    os.environ.setdefault("ARCADE_BOT_LOGS", tempfile.mkdtemp(prefix="bench-freeze-"))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, euid {os.geteuid()}; D-Football, "
          f"{games} games each (its limit: 100 ms a move; freeze and thaw are not counted in it)")
    print("the burner: toothpicks, 8 spinners in sessions of their own and a pondering thread")
    problem = sandbox.bwrap_problem()
    if problem:
        print(f"(no bwrap figures: {problem})")
    for name, root in methods():
        cgroups._freezer_root = lambda root=root: root
        for mode in ("none",) + (() if problem else ("bwrap",)):
            run("dfootball", GOOD, "good", mode, name, games)
            run("toothpicks", BURNER, "burner", mode, name, games)


if __name__ == "__main__":
    main()
