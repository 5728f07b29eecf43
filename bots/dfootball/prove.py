"""Who wins D-Football with perfect play, proved for each board the arcade offers (issue #47).

Run ``python -m bots.dfootball.prove`` (``--help`` for the options; never in CI: n = 15 takes
minutes and gigabytes). For each n it solves the opening position, Michigan to move, with the
compiled solver (``bots/dfootball/_solve.c``, built by ``pip install .``; its reference is the
pure-Python ``bots.dfootball.solver``, which gives the same answers and, for n <= 9, searches the
same positions), and writes what it found to ``bots/dfootball/proved.json``: for each n the winner,
the positions searched, the table entries made, the table's size and the seconds, with the
command and the machine. A search is a proof: every value it stores is exact, the race rule
settles a position only once the teams can no longer meet, and the answer does not depend on the
table's size (a smaller table only searches more).

The shipped ``proved.json`` was made by ``python -m bots.dfootball.prove --to 15`` on the shared
2-core machine (2026-11-29); the README's table of who wins quotes it.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

from bots.dfootball.solver import start_position

PROVED_PATH = Path(__file__).with_name("proved.json")


def table_bits(n: int) -> int:
    """The table's size for board ``n`` (2**bits slots of 8 bytes): at least about four times the
    positions a solve stores (7.97 M for n = 12, growing about 4.5x an n) up to n = 14, and 2**30
    (8 GiB) for n = 15, where some entries are replaced (searched again if met again)."""
    return min(30, max(20, 2 * n + 2))


def prove(n: int, bits: int | None = None) -> dict:
    """Solve board ``n``'s opening position: what ``proved.json`` keeps for it."""
    from bots.dfootball._solve import solve

    bits = table_bits(n) if bits is None else bits
    started = time.perf_counter()
    cpu = time.process_time()
    michigan, nodes, stored = solve(*start_position(n), 2 * n + 1, bits)
    return {"n": n, "winner": "Michigan" if michigan else "Ohio", "positions": nodes, "stored": stored,
            "table_slots": 1 << bits, "seconds": round(time.perf_counter() - started, 2),
            "cpu_seconds": round(time.process_time() - cpu, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="who wins D-Football with perfect play, proved by the compiled solver")
    parser.add_argument("--from", dest="first", type=int, default=1, help="the first n (default 1)")
    parser.add_argument("--to", type=int, default=15, help="the last n (default 15, the arcade's largest)")
    parser.add_argument("--bits", type=int, default=None, help="the table's size, 2**BITS slots (default: by n)")
    parser.add_argument("--out", default=str(PROVED_PATH), help="where the results go (default: proved.json)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    try:
        kept = {row["n"]: row for row in json.loads(out.read_text())["boards"]}
    except (OSError, ValueError, KeyError, TypeError):
        kept = {}
    for n in range(args.first, args.to + 1):
        row = prove(n, args.bits)
        kept[n] = row
        print(f"n = {n:2}: {row['winner']:8} wins  {row['positions']:>14,} positions  {row['stored']:>14,} stored  "
              f"{row['seconds']:8.2f} s", flush=True)
        out.write_text(json.dumps({
            "command": " ".join(["python -m bots.dfootball.prove", *(sys.argv[1:] if argv is None else argv)]),
            "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}",
            "boards": [kept[k] for k in sorted(kept)],
        }, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
