"""A helper process of the two-core endgame solve: ``python -m bots.othello.solve_helper``.

``bots.othello.parallel_solve`` starts two of these and hands them jobs (its docstring has the
protocol): each searches with its own ``Engine._solve`` and bounds table, answers one line a
job, and exits at the end of its input. This module is the only one that needs both the engine
and the protocol's helper side; the coordinator (``parallel_solve``) does not import the engine,
so the engine (``search``) may import the coordinator.
"""

from __future__ import annotations

import os
import select
import sys

from bots.othello.search import Engine, Timeout


def main() -> None:
    fd = sys.stdin.fileno()
    out = sys.stdout.fileno()
    buffer = b""
    queue: list[str] = []
    engine = Engine(parallel=False)
    engine.etable = {}
    current = [-1]

    def fill(block: bool) -> None:
        nonlocal buffer
        if not block and not select.select([fd], [], [], 0)[0]:
            return
        data = os.read(fd, 65536)
        if not data:
            os._exit(0)  # the coordinator is gone
        buffer += data
        *lines, buffer = buffer.split(b"\n")
        queue.extend(line.decode() for line in lines)

    def cancelled() -> bool:
        fill(False)
        for line in queue:
            if line == f"A {current[0]}":
                queue.remove(line)
                return True
        return False

    engine.cancelled = cancelled
    while True:
        while not queue:
            fill(True)
        parts = queue.pop(0).split()
        if not parts:
            continue
        if parts[0] == "R":
            engine.etable = {}
        elif parts[0] == "A":
            continue  # an abort that came after its job ended
        elif parts[0] == "L":
            p, o = int(parts[1]), int(parts[2])
            line = engine.line_from(p, o)
            os.write(out, ("L " + " ".join(map(str, line)) + "\n").encode())
        elif parts[0] == "J":
            job_id, p, o, alpha, beta, empties = (int(x) for x in parts[1:])
            current[0] = job_id
            engine.nodes = 0
            engine._check_at = 256
            engine.deadline = float("inf")
            try:
                value = engine._solve(p, o, alpha, beta, empties, False)
                entry = engine.etable.get(p << 64 | o)
                reply = f"{job_id} {value} {engine.nodes} {entry[2] if entry else -1}"
            except Timeout:
                reply = f"{job_id} x {engine.nodes} -1"
            current[0] = -1
            os.write(out, (reply + "\n").encode())


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
