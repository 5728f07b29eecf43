"""Fault injection for file bots: one function per failure, in any game's course signature.

``faults(pick, invalid, wrong)`` returns the functions a game's fault file exports, each taking
the game's arguments: ``pick(*args)`` is a legal answer, ``invalid`` a legal-looking answer of
the right type that is not a legal move, ``wrong`` a value of the wrong type. Every function
prints ``pid=<its process id>`` first (the tests find the processes in the log this way).
"""

import os
import signal
import subprocess
import sys
import time


def _hello():
    print(f"pid={os.getpid()}")


def faults(pick, invalid, wrong):
    def good(*args):
        _hello()
        print("a line on stdout: printing is not a fault")
        print("a line on stderr", file=sys.stderr)
        os.write(1, b"and a line straight to file descriptor 1\n")
        return pick(*args)

    def raises(*args):
        _hello()
        raise ValueError("deliberate bug")

    def slow(*args):
        _hello()
        time.sleep(float(os.environ.get("FAULT_SLOW_SECONDS", "0.45")))
        return pick(*args)

    def hangs(*args):
        _hello()
        while True:
            pass

    def invalid_move(*args):
        _hello()
        return invalid

    def wrong_type(*args):
        _hello()
        return wrong

    def exits(*args):
        _hello()
        sys.exit(3)

    def hard_exit(*args):
        _hello()
        sys.stdout.flush()
        os._exit(7)

    def crashes(*args):
        _hello()
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
        time.sleep(5)

    def memory(*args):
        _hello()
        hog = bytes(1536 << 20)  # 1.5 GiB (calloc: no page touched): fine without a cap, not under 1 GiB
        return pick(*args) if hog else None

    def spawns(*args):
        _hello()
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        print(f"grandchild={child.pid}")
        sys.stdout.flush()
        while True:
            time.sleep(0.01)

    return {
        "good": good,
        "raises": raises,
        "slow": slow,
        "hangs": hangs,
        "invalid_move": invalid_move,
        "wrong_type": wrong_type,
        "exits": exits,
        "hard_exit": hard_exit,
        "crashes": crashes,
        "memory": memory,
        "spawns": spawns,
    }
