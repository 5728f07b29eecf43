"""A student's toothpick strategy that takes CPU outside its own turn (tests/test_freeze.py).

On its first move it starts ``SPINNERS`` processes, each in a session of its own (``setsid``:
out of the bot's process group), that spin for ever, and a thread that "ponders" (spins) in the
bot's own process. Both are meant to run on the opponent's time: to think ahead, and to slow the
opponent down until it forfeits on time. Otherwise it plays the course's perfect move."""

import os
import threading

SPINNERS = 8
_STARTED = []


def _spin():
    count = 0
    while True:
        count += 1


def _start():
    for _ in range(SPINNERS):
        read_end, write_end = os.pipe()
        if os.fork() == 0:
            os.setsid()
            os.write(write_end, b"!")
            _spin()
        os.close(write_end)
        os.read(read_end, 1)  # the spinner runs
        os.close(read_end)
    threading.Thread(target=_spin, daemon=True).start()
    print(f"REPORT burn spinners={SPINNERS} pid={os.getpid()}", flush=True)


def burn(left):
    if not _STARTED:
        _STARTED.append(True)
        _start()
    return left % 3 or 1
