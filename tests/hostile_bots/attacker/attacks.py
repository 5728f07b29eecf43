"""A malicious student's toothpick strategies, one attack each (tests/test_sandbox.py).

Each plays 1 toothpick after trying its attack, and prints what it found as one line
``REPORT <attack> <text>`` to its output (its log), which the test reads."""

import os
import signal
import sys
import time
from pathlib import Path

MARK = "hostile-marker-3b9e"


def report(attack, text):
    print(f"REPORT {attack} {text}", flush=True)


def others():
    """The processes this bot can see that are not its own (its parent and itself excluded)."""
    mine = {os.getpid(), os.getppid()}
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in mine:
            try:
                found.append((int(entry), Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")))
            except OSError:
                pass
    return found


def kill_rival(left):
    killed = []
    for pid, cmdline in others():
        if b"child_main" in cmdline:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            except OSError:
                pass
    report("kill_rival", f"killed={killed}")
    return 1


def stop_arcade(left):
    stopped = []
    for pid, cmdline in others():
        if b"arcade" in cmdline or b"pytest" in cmdline:
            try:
                os.kill(pid, signal.SIGSTOP)
                stopped.append(pid)
            except OSError:
                pass
    report("stop_arcade", f"stopped={stopped}")
    return 1


def frozen_clock(left):
    time.perf_counter = lambda: 0.0
    time.monotonic = lambda: 0.0
    time.time = lambda: 0.0
    deadline = os.times().elapsed + 0.45
    while os.times().elapsed < deadline:
        pass
    return 1


def forged_reply(left):
    from bots.external.protocol import Moved, encode  # the arcade's own wire format, as it is today

    time.sleep(0.45)
    for fd in range(3, 64):  # the protocol's pipe: write a well-formed answer of its own, late
        try:
            if os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:") and fd != 0:
                os.write(fd, encode(Moved(1)))
        except OSError:
            pass
    os._exit(0)  # no real answer follows: the forged one is all the arcade gets


def spy(left):
    """Everything a student would like to read: the arcade's command line, environment and memory,
    the other bot's file, the seed."""
    seen = []
    for pid, cmdline in others():
        seen.append(cmdline.decode(errors="replace")[:60])
        for part in ("environ", "mem", "fd/2"):
            try:
                with open(f"/proc/{pid}/{part}", "rb") as handle:
                    data = handle.read(4096)
                if b"SECRET_TOKEN" in data or b"--seed" in data:
                    report("spy", f"LEAK {pid}/{part}")
            except OSError:
                pass
    found_victim = []
    for folder, dirs, files in os.walk("/"):
        dirs[:] = [d for d in dirs if os.path.join(folder, d) not in ("/proc", "/sys", "/dev", "/usr")]
        for name in files:
            if name == "victim.py":
                found_victim.append(os.path.join(folder, name))
    report("spy", f"processes={seen} victim_files={found_victim} env={sorted(os.environ)}")
    return 1


def tamper(left):
    """Rewrite the rules so that every later game is rigged; write anywhere else we can."""
    written = []
    for target in ("/arcade/games/toothpicks.py", "/bot/attacks.py", "/work/main/games/toothpicks.py",
                   "/root/owned", "/usr/owned", "/owned", "/tmp/owned"):
        try:
            with open(target, "a") as handle:
                handle.write("\n# owned\n")
            written.append(target)
        except OSError:
            pass
    report("tamper", f"written={written}")
    return 1


def terminal(left):
    """Escape sequences to the instructor's terminal."""
    reached = []
    for pid, _ in others() + [(os.getppid(), b"")]:
        for fd in (2,):
            try:
                with open(f"/proc/{pid}/fd/{fd}", "w") as handle:
                    handle.write("\x1b]0;pwned\x07\x1b[2J")
                reached.append((pid, fd))
            except OSError:
                pass
    try:
        with open("/dev/tty", "w") as handle:
            handle.write("\x1b[2J")
        reached.append("tty")
    except OSError:
        pass
    report("terminal", f"reached={reached}")
    return 1


def daemons(left):
    """Double-fork and setsid: children meant to outlive the match."""
    for _ in range(3):
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c", f"import time; time.sleep(120)  # {MARK}"])
            os._exit(0)
    time.sleep(0.05)
    report("daemons", "started")
    return 1


def fork_bomb(left):
    started = 0
    for _ in range(300):
        try:
            if os.fork() == 0:
                time.sleep(30)
                os._exit(0)
            started += 1
        except OSError:
            break
    report("fork_bomb", f"started={started}")
    return 1


def flood_log(left):
    chunk = "x" * 1023 + "\n"
    for _ in range(50 * 1024):  # 50 MiB of output
        sys.stdout.write(chunk)
    sys.stdout.flush()
    return 1


def network(left):
    import socket

    try:
        socket.create_connection(("1.1.1.1", 53), timeout=1)
        report("network", "connected")
    except OSError as exc:
        report("network", f"refused {type(exc).__name__}")
    return 1


def gil_hog(left):
    """One long C call that holds the GIL: the watchdog thread cannot run."""
    return sum(range(10 ** 13)) and 1


def _to_pipes(data):
    for fd in range(3, 64):
        try:
            if os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:"):
                os.write(fd, data)
        except OSError:
            pass


def protocol_string(left):
    """An answer that is a JSON string the arcade's own code uses as a signal ("cancelled")."""
    _to_pipes(b'"cancelled"\n')
    time.sleep(0.2)
    return 1


def protocol_flood(left):
    """Megabytes on the protocol's pipe without an end of line: the arcade's buffer must not grow."""
    for _ in range(6):
        _to_pipes(b"x" * (1 << 20))
    return 1
