"""Random Othello playouts through the game API: ours (``games.othello``: ``legal_moves`` and
``play``, what students' bots and the tournament use) beside OpenSpiel's (``pyspiel``,
``legal_actions`` and ``apply_action``), the same loop and the same seeded choices, in playouts a
CPU second (``time.process_time``: a busy machine's waits do not count), the median of ``ROUNDS``
rounds run in turn (each side's in every round, so that the machine's load falls on both alike).

OpenSpiel is a bench-only extra (``pip install -e '.[bench]'``, its ``open_spiel`` wheel); without
it only our figure is printed, beside the issue's (OpenSpiel 2.0.2: 2,020 playouts a CPU second on
the machine of issue 33).

    python bench/othello_api.py [--playouts N] [--rounds R] [--pure]

``--pure`` times the game on its pure-Python primitives (an install without a C compiler: no
``games._othello_bits``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ISSUE_OPENSPIEL = 2020
"""Playouts a CPU second of OpenSpiel 2.0.2's Othello in issue 33 (ours was 543 there)."""


def ours(playouts: int, seed: int) -> float:
    """Playouts a CPU second through our game API."""
    from games.othello import Othello

    game = Othello()
    rng = random.Random(seed)
    started = time.process_time()
    for _ in range(playouts):
        state = game.initial_state()
        while not state.over:
            state = game.play(state, rng.choice(game.legal_moves(state)))
    return playouts / (time.process_time() - started)


def openspiel(playouts: int, seed: int) -> float | None:
    """Playouts a CPU second through OpenSpiel's (``None`` where it is not installed)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("othello")
    rng = random.Random(seed)
    started = time.process_time()
    for _ in range(playouts):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    return playouts / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=300, help="playouts a round, each side")
    parser.add_argument("--rounds", type=int, default=7, help="rounds, their median taken")
    parser.add_argument("--pure", action="store_true", help="ours on the pure-Python primitives")
    args = parser.parse_args()
    if args.pure:
        sys.modules["games._othello_bits"] = None  # as if it had not been built
    from games.othello import BITS_IN_C
    mine, theirs = [], []
    for round_ in range(args.rounds):
        mine.append(ours(args.playouts, round_))
        other = openspiel(args.playouts, round_)
        if other is not None:
            theirs.append(other)
    ours_rate = statistics.median(mine)
    print(f"python {sys.version.split()[0]}; {args.rounds} rounds of {args.playouts} playouts, medians")
    print(f"ours ({'C primitives' if BITS_IN_C else 'pure Python'})"[:23].ljust(23)
          + f" {ours_rate:8.0f} playouts/CPU-s   (rounds {min(mine):.0f}–{max(mine):.0f})")
    if theirs:
        rate = statistics.median(theirs)
        import pyspiel

        print(f"OpenSpiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''}".rstrip()
              + f"      {rate:8.0f} playouts/CPU-s   (rounds {min(theirs):.0f}–{max(theirs):.0f})")
        print(f"ours / OpenSpiel        {ours_rate / rate:8.2f}×")
    else:
        print(f"(OpenSpiel not installed: pip install -e '.[bench]'; issue 33 measured it at "
              f"{ISSUE_OPENSPIEL:,} playouts/CPU-s: ours is {ours_rate / ISSUE_OPENSPIEL:.2f}× that)")


if __name__ == "__main__":
    main()
