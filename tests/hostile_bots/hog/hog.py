"""A toothpick strategy that holds memory past its cap in ways a per-process cap misses
(tests/bots/external/test_sandbox.py): many processes, each under the cap, and ``memfd`` files,
which are not in any process's address space. Each keeps what it took and plays on."""

import mmap
import os
import time

HELD = []


def _touch(megabytes):
    block = mmap.mmap(-1, megabytes << 20)
    for at in range(0, megabytes << 20, 4096):
        block[at] = 1
    HELD.append(block)


def forks(left):
    """20 children, each touching blocks of 8 MiB as long as its own cap allows, sleeping on."""
    if not HELD:
        for _ in range(20):
            if os.fork() == 0:
                try:
                    while True:
                        _touch(8)
                except (OSError, MemoryError):
                    pass
                time.sleep(3600)
                os._exit(0)
        HELD.append(True)
        time.sleep(3)  # let them touch it while the arcade's clock runs (20 s a move here)
    return 1


def memfds(left):
    """4 processes, each writing 240 memfd files of 1 MiB (kept open, never mapped)."""
    if not HELD:
        for child in range(4):
            if child == 3 or os.fork() == 0:
                kept = []
                try:
                    for _ in range(240):
                        fd = os.memfd_create("hog")
                        os.write(fd, b"x" * (1 << 20))
                        kept.append(fd)
                except OSError:
                    pass
                if child != 3:
                    time.sleep(3600)
                    os._exit(0)
        HELD.append(kept)
        time.sleep(3)
    return 1
