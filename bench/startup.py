"""How fast the menu appears, against a bare Textual app (the issue's yardstick).

Each run is a fresh interpreter that starts the app headless, waits for its first screen to
mount, and exits; the figure is the wall time of the whole process, median of N runs.

    python bench/startup.py [N]
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


def timed(code: str) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout.strip()


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    bare = [timed(BARE)[0] for _ in range(runs)]
    arcade_runs = [timed(ARCADE) for _ in range(runs)]
    arcade = [t for t, _ in arcade_runs]
    print(f"bare Textual app to first screen: median {statistics.median(bare) * 1000:.0f} ms over {runs} runs")
    print(f"arcade menu to first screen:      median {statistics.median(arcade) * 1000:.0f} ms over {runs} runs")
    print(f"game modules imported by the menu: {arcade_runs[0][1] or 'none'}")


if __name__ == "__main__":
    main()
