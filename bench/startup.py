"""How fast the menu appears, against a bare Textual app (the issue's yardstick: at most 1.1×).

Each run is a fresh interpreter that starts the app headless, waits for its first screen to
mount, and exits; the figure is the wall time of the whole process. The runs come in pairs, the
bare app and the arcade back to back (which goes first alternates), so that a machine whose load
changes affects both alike; the figure that counts is the median of the pairs' ratios.

    python bench/startup.py [PAIRS]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

BARE = """
from textual.app import App
from textual.widgets import Footer, Header, OptionList
class Bare(App):
    def compose(self):
        yield Header(); yield OptionList("a", "b"); yield Footer()
async def first_screen(pilot):
    await pilot.pause()
    pilot.app.exit()
Bare().run(headless=True, auto_pilot=first_screen)
"""

ARCADE = """
from arcade.app import ArcadeApp
async def first_screen(pilot):
    await pilot.pause()
    pilot.app.exit()
ArcadeApp().run(headless=True, auto_pilot=first_screen)
import sys
loaded = sorted(m for m in sys.modules if m.startswith(("games.", "bots.")) and m not in ("games.base",))
print(",".join(loaded))
"""


def timed(code: str) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user and system: what a busy machine changes least) and output."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, done.stdout.strip()


def main() -> None:
    import os

    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    timed(BARE), timed(ARCADE)  # warm the file cache (the first run reads every module from disk)
    runs: dict[str, list] = {"bare": [], "arcade": []}
    loaded = ""
    for n in range(pairs):
        for name in (("arcade", "bare") if n % 2 else ("bare", "arcade")):
            wall, cpu, out = timed(ARCADE if name == "arcade" else BARE)
            runs[name].append((wall, cpu))
            loaded = out if name == "arcade" else loaded
    print(f"{pairs} interleaved pairs, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for index, what in ((0, "wall"), (1, "CPU")):
        bare = [run[index] for run in runs["bare"]]
        arcade = [run[index] for run in runs["arcade"]]
        ratios = sorted(a / b for a, b in zip(arcade, bare))
        print(f"{what:>4}: bare Textual app {statistics.median(bare) * 1000:4.0f} ms, arcade menu "
              f"{statistics.median(arcade) * 1000:4.0f} ms; pair by pair median {statistics.median(ratios):.3f}× "
              f"(quartiles {ratios[len(ratios) // 4]:.3f}–{ratios[3 * len(ratios) // 4]:.3f}×; target ≤ 1.1×)")
    print(f"game modules imported by the menu: {loaded or 'none'}")


if __name__ == "__main__":
    main()
