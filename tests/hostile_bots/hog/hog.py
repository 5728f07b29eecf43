"""A toothpick strategy that holds memory past its cap in ways a per-process cap misses
(tests/bots/external/test_sandbox.py, test_memory_modes.py): many processes, each under the cap,
and ``memfd`` files, which are not in any process's address space. Each keeps what it took and
plays on; a fork refused (a process cap) is no error: it holds what the processes it got can."""

import os
import time

HELD = []


def _touch(megabytes):
    block = bytearray(megabytes << 20)  # no module to load: it loads under the smallest caps too
    block[::4096] = b"\x01" * len(range(0, megabytes << 20, 4096))  # every page touched
    HELD.append(block)


def _fork():
    """``os.fork()``, or ``None`` where the process cap refuses it."""
    try:
        return os.fork()
    except OSError:
        return None


def forks(left):
    """20 children, each touching blocks of 8 MiB as long as its own cap allows, sleeping on."""
    if not HELD:
        for _ in range(20):
            pid = _fork()
            if pid is None:
                break
            if pid == 0:
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


def _memfds(count):
    kept = []
    try:
        for _ in range(count):
            fd = os.memfd_create("hog")
            os.write(fd, b"x" * (1 << 20))
            kept.append(fd)
    except OSError:
        pass
    return kept


def memfds(left):
    """4 processes (as many as it may have), each writing 240 memfd files of 1 MiB (kept open,
    never mapped)."""
    if not HELD:
        for _ in range(3):
            pid = _fork()
            if pid is None:
                break
            if pid == 0:
                _memfds(240)
                time.sleep(3600)
                os._exit(0)
        HELD.append(_memfds(240))
        time.sleep(3)
    return 1


def share(left):
    """No hog: a bot that uses 24 MiB in its own process, under half of its 53 MiB share of a split
    160 MiB cap, and prints its address space then (``VmSize``, in kB) to its log."""
    if not HELD:
        _touch(24)
        with open("/proc/self/status") as status:
            size = next(line.split()[1] for line in status if line.startswith("VmSize"))
        print(f"VmSize {size} kB", flush=True)
    return 1
