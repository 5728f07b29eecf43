"""A student's toothpick strategy that takes CPU outside its own turn (tests/bots/external/test_freezer.py).

Over its first moves (8 a move) it starts ``SPINNERS`` processes (``burn_many``: 40), each in a
session of its own (``setsid``: out of the bot's process group), and a thread that "ponders" in the bot's own
process. They spin only while it is not the bot's turn (a flag in memory they share says whose
turn it is), so the bot itself stays fast: they are meant to think ahead on the opponent's time
and to slow the opponent down until it forfeits on time. Otherwise it plays the course's
perfect move."""

import mmap
import os
import threading
import time

SPINNERS = 8
_STARTED = []
_THEIRS = mmap.mmap(-1, 1)  # shared with the forked spinners: 1 while it is the opponent's turn


def _spin():
    count = 0
    while True:
        if _THEIRS[0]:
            for _ in range(10_000):
                count += 1
        else:
            time.sleep(0.001)


def _start(spinners):
    """Fork up to 8 more spinners (a few a move keep the bot's own move fast), the thread once."""
    for _ in range(min(8, spinners - len(_STARTED))):
        if os.fork() == 0:
            os.setsid()
            _spin()
        _STARTED.append(True)
    if len(_STARTED) == spinners:
        print(f"REPORT burn spinners={spinners} pid={os.getpid()}", flush=True)
        threading.Thread(target=_spin, daemon=True).start()


def burn(left, spinners=SPINNERS):
    _THEIRS[0] = 0
    if len(_STARTED) < spinners:
        _start(spinners)
    _THEIRS[0] = 1  # the opponent's turn begins as this move is sent
    return left % 3 or 1


def burn_many(left):
    """``burn`` with 40 spinners: enough to starve a rival on any machine, were they to run."""
    return burn(left, 40)
