"""How fast the menu appears, against a bare Textual app (the yardstick: at most 1.1×).

Three programs are timed, each a fresh process in a pseudo-terminal of its own (80×24, as a real
terminal gives it; nothing headless): the bare app (a Header, a two-item OptionList, a Footer),
the arcade's app started directly (``python -c 'ArcadeApp().run()'``), and **the command a user
types**, the ``arcade`` console script that ``pip install`` writes (which first goes through
``arcade.cli``). A run's figure is the wall time from the start of the process to the moment its
first frame, with the marker text in it, has been written to the terminal, and the CPU time
(user and system) the process used by then; then the process is killed.

The runs come in rounds, one of each program back to back in a rotating order, so that a machine
whose load changes affects all alike; the figure that counts is the median over the rounds of
each program's ratio to the bare app of the same round.

    python bench/startup.py [ROUNDS]
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import sys
import termios
import time

MARKER = b"Choose a game"
"""Text in the first frame of each program: the menu's heading, and the bare app's first option."""

BARE = """
from textual.app import App
from textual.widgets import Footer, Header, OptionList
class Bare(App):
    def compose(self):
        yield Header(); yield OptionList("Choose a game", "b"); yield Footer()
Bare().run()
"""

APP = """
from arcade.app import ArcadeApp
ArcadeApp().run()
"""

ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][A-Za-z0-9]|\x1b[=>]")
SIZE = (24, 80)


def command_path() -> str:
    """The ``arcade`` console script of this interpreter's environment (what the user types)."""
    beside = os.path.join(os.path.dirname(sys.executable), "arcade")
    found = beside if os.access(beside, os.X_OK) else shutil.which("arcade")
    if not found:
        raise SystemExit("no `arcade` command: install the project (pip install -e .) first")
    return found


def first_frame(argv: list[str], deadline: float = 60.0) -> tuple[float, float]:
    """Start ``argv`` in a new pseudo-terminal; return (wall, CPU) seconds until the marker is
    on the screen. The process is killed once it is (its CPU is read from its rusage)."""
    env = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor", LINES=str(SIZE[0]),
               COLUMNS=str(SIZE[1]))
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: size its terminal, then become the program
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[0], SIZE[1], 0, 0))
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    seen = b""
    wall = None
    try:
        while time.perf_counter() - start < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break  # the program ended
            if not chunk:
                break
            seen = (seen + chunk)[-200_000:]
            if MARKER in ESCAPES.sub(b"", seen):
                wall = time.perf_counter() - start
                break
    finally:
        os.kill(pid, signal.SIGKILL)
        _, _, usage = os.wait4(pid, 0)
        os.close(fd)
    if wall is None:
        raise SystemExit(f"{argv!r} showed no first frame in {deadline:.0f} s:\n"
                         f"{ESCAPES.sub(b'', seen)[-2000:].decode(errors='replace')}")
    return wall, usage.ru_utime + usage.ru_stime


def programs() -> dict[str, list[str]]:
    return {
        "bare": [sys.executable, "-c", BARE],
        "app": [sys.executable, "-c", APP],
        "command": [command_path()],
    }


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", nargs="?", type=int, default=15, help="rounds of the three programs (15)")
    rounds = parser.parse_args().rounds
    progs = programs()
    names = list(progs)
    for name in names:  # warm the file cache (the first run reads every module from disk)
        first_frame(progs[name])
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for n in range(rounds):
        order = names[n % len(names):] + names[:n % len(names)]
        for name in order:
            runs[name].append(first_frame(progs[name]))
    print(f"{rounds} rounds in a {SIZE[1]}×{SIZE[0]} pseudo-terminal, load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for index, what in ((0, "wall"), (1, "CPU")):
        bare = [run[index] for run in runs["bare"]]
        line = f"{what:>4}: bare Textual app {statistics.median(bare) * 1000:4.0f} ms"
        for name, label in (("app", "the app started directly"), ("command", "the `arcade` command")):
            times = [run[index] for run in runs[name]]
            ratios = sorted(a / b for a, b in zip(times, bare))
            line += (f"; {label} {statistics.median(times) * 1000:4.0f} ms, "
                     f"{statistics.median(ratios):.3f}× (quartiles {ratios[len(ratios) // 4]:.3f}–"
                     f"{ratios[3 * len(ratios) // 4]:.3f}×)")
        print(line)
    print("target: the command's wall ratio ≤ 1.1×")


if __name__ == "__main__":
    main()
