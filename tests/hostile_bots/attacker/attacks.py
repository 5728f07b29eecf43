"""A malicious student's toothpick strategies, one attack each (tests/bots/external/test_sandbox.py).

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
    """The processes this bot can see that are not its own (itself and its ancestors excluded:
    its game's process is forked from its loaded process, under bwrap's)."""
    mine = {os.getpid()}
    pid = os.getppid()
    while pid > 0 and pid not in mine:
        mine.add(pid)
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])
        except (OSError, ValueError, IndexError):
            break
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
    from bots.external.wire import Moved, encode  # the arcade's own wire format, as it is today

    time.sleep(0.45)
    for fd in range(3, 64):  # the protocol's way back (a socket): write a well-formed answer, late
        try:
            if os.readlink(f"/proc/self/fd/{fd}").startswith(("pipe:", "socket:")) and fd != 0:
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
    """``data`` on every pipe and socket the process holds (the protocol's among them), in
    pieces a packet socket takes."""
    for fd in range(3, 64):
        try:
            if os.readlink(f"/proc/self/fd/{fd}").startswith(("pipe:", "socket:")):
                for at in range(0, len(data), 1 << 16):
                    os.write(fd, data[at:at + (1 << 16)])
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


# -- root gives nothing: every way out of the sandbox's privileges, tried at once ---------------

_LIBC = None


def _libc():
    global _LIBC
    if _LIBC is None:
        import ctypes

        _LIBC = ctypes.CDLL(None, use_errno=True)
    return _LIBC


def _call(name, *args):
    """``None`` when libc's ``name(*args)`` succeeded, else the error's name."""
    import ctypes
    import errno

    result = getattr(_libc(), name)(*args)
    if result == 0:
        return None
    return errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))


def _in_child(action):
    """``action()`` (``None`` for success) in a forked child, so that a success changes nothing
    here: the child's answer, or ``'died'``."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            answer = action()
        except BaseException as exc:  # the attack's own failure is an answer too
            answer = type(exc).__name__
        os.write(write_end, ("ok" if answer is None else str(answer)).encode())
        os._exit(0)
    os.close(write_end)
    os.waitpid(pid, 0)
    with os.fdopen(read_end, "rb") as pipe:
        return pipe.read().decode() or "died"


def _mount_points():
    points = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        point = line.split()[4].replace("\\040", " ")
        if point not in points:
            points.append(point)
    return points


CLONE = {"user": 0x10000000, "mount": 0x00020000, "net": 0x40000000, "pid": 0x20000000,
         "ipc": 0x08000000, "uts": 0x04000000, "cgroup": 0x02000000}
MS_REMOUNT, MS_BIND = 32, 4096


_ESCAPED = []


def escape(left):
    """Everything root would allow: capabilities, setuid(0), new namespaces, remounting each
    mount read-write (then writing to it), mounting, chroot, device nodes, changing the owner's
    bits of the host's devices, writing to every place, filling /dev/shm. Each success is named
    in ``got``; a success is undone at once (a file made is removed, a mode is set to what it was).
    Once a match: its first move."""
    if _ESCAPED:
        return 1
    _ESCAPED.append(True)
    got = []
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    caps = {key: status[key].strip() for key in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")}
    uid = status["Uid"].split()
    no_new_privs = status.get("NoNewPrivs", "?").strip()
    for key, value in caps.items():
        if int(value, 16):
            got.append(f"{key}={value}")
    if "0" in uid:
        got.append("uid 0")
    for name, flag in CLONE.items():
        if _in_child(lambda flag=flag: _call("unshare", flag)) == "ok":
            got.append(f"unshare {name}")
    if _in_child(lambda: os.setuid(0)) == "ok":
        got.append("setuid 0")
    if _in_child(lambda: os.setgid(0)) == "ok":
        got.append("setgid 0")
    points = _mount_points()
    for point in points:
        for flags in (MS_REMOUNT | MS_BIND, MS_REMOUNT):
            remount = lambda point=point, flags=flags: _call("mount", None, point.encode(), None, flags, None)  # noqa: E731
            if _in_child(remount) == "ok":
                got.append(f"remount {point}")
                break
    for name in ("mnt-tmpfs", "mnt-bind"):
        os.makedirs(f"/tmp/{name}", exist_ok=True)
    if _in_child(lambda: _call("mount", b"none", b"/tmp/mnt-tmpfs", b"tmpfs", 0, None)) == "ok":
        got.append("mount tmpfs")
    if _in_child(lambda: _call("mount", b"/usr", b"/tmp/mnt-bind", None, MS_BIND, None)) == "ok":
        got.append("bind mount")
    if _in_child(lambda: _call("chroot", b"/tmp")) == "ok":
        got.append("chroot")
    if _in_child(lambda: _call("mknod", b"/tmp/null-node", 0o20666, os.makedev(1, 3))) == "ok":
        got.append("mknod")
    for path in ("/dev/null", "/dev/full", "/dev/tty", "/proc/kallsyms", "/usr/bin"):
        try:
            mode = os.stat(path).st_mode & 0o7777
            os.chmod(path, mode)  # the same bits: allowed means the owner's rights, and nothing changes
            got.append(f"chmod {path}")
        except OSError:
            pass
    written = set()
    places = ["/", "/bot", "/arcade", "/arcade/games", "/arcade/bots", "/usr", "/usr/lib", "/etc", "/dev",
              "/proc", "/proc/sys", "/root", "/home", "/var", sys.prefix, sys.base_prefix, os.path.dirname(os.__file__)]
    for place in places + points:
        if place in written or place in ("/tmp", "/dev/shm") or not os.path.isdir(place):
            continue
        target = os.path.join(place, f".escape-{MARK}")
        try:
            with open(target, "x") as handle:
                handle.write("owned\n")
            os.remove(target)
            written.add(place)
        except OSError:
            pass
    got += [f"wrote {place}" for place in sorted(written)]
    try:
        with open("/proc/sys/kernel/hostname", "w") as handle:
            handle.write("owned")
        got.append("wrote /proc/sys")
    except OSError:
        pass
    shm = 0  # shared memory outside its memory cap: files of 512 KiB (a file's own cap is 1 MiB)
    try:
        for part in range(128):
            with open(f"/dev/shm/fill-{MARK}-{part}", "wb") as handle:
                handle.write(b"\0" * (1 << 19))
                handle.flush()
                os.fsync(handle.fileno())
            shm += 1 << 19
    except OSError:
        pass
    for part in range(128):
        try:
            os.remove(f"/dev/shm/fill-{MARK}-{part}")
        except OSError:
            pass
    import stat

    devices = {}
    for name in sorted(os.listdir("/dev")):
        info = os.lstat(f"/dev/{name}")
        kind = ("char" if stat.S_ISCHR(info.st_mode) else "block" if stat.S_ISBLK(info.st_mode) else
                "link" if stat.S_ISLNK(info.st_mode) else "dir" if stat.S_ISDIR(info.st_mode) else "other")
        devices[name] = kind
    report("escape", f"got={got} shm={shm} devices={devices} caps={caps} uid={uid} no_new_privs={no_new_privs}")
    return 1


_TRACED = []


def trace(left):
    """Trace or read another process: ``ptrace`` (attach, seize) its parent (in the sandbox, its
    PID namespace's first process, bwrap's reaper; without it, the arcade), ``process_vm_readv``
    of its memory and ``kcmp``. Each result in ``got`` (an errno's name, or ``ok``). Once a
    match."""
    import ctypes

    if _TRACED:
        return 1
    _TRACED.append(True)
    libc = _libc()
    got = {}

    class Iovec(ctypes.Structure):
        _fields_ = [("base", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    buffer = ctypes.create_string_buffer(64)
    for target in (os.getppid(),):
        got[f"attach {target}"] = _in_child(lambda t=target: _call("ptrace", 16, t, 0, 0))  # PTRACE_ATTACH
        got[f"seize {target}"] = _in_child(lambda t=target: _call("ptrace", 0x4206, t, 0, 0))  # PTRACE_SEIZE
        local, remote = Iovec(ctypes.addressof(buffer), 64), Iovec(0x400000, 64)
        result = libc.process_vm_readv(target, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)
        got[f"vm_readv {target}"] = "ok" if result >= 0 else errno_name(ctypes.get_errno())
        result = libc.syscall(312, os.getpid(), target, 0, 0, 0)  # kcmp (x86_64)
        got[f"kcmp {target}"] = "ok" if result >= 0 else errno_name(ctypes.get_errno())
    report("trace", f"got={got}")
    return 1


def errno_name(number):
    import errno

    return errno.errorcode.get(number, str(number))


def where(left):
    """Where am I on the host: the sources of this process's mounts (``/proc/self/mountinfo``'s
    root field, each line's 4th), reported whole."""
    roots = sorted({line.split()[3] for line in Path("/proc/self/mountinfo").read_text().splitlines()})
    report("where", f"roots={roots} bot={sorted(os.listdir('/bot'))}")
    return 1
