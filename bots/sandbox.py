"""How a student's file bot is contained: bubblewrap (``bwrap``), or a plain process.

``bots.external`` starts each file bot's process with ``command(...)`` and ``set_limits()`` from
here; ``bots.registry.resolve`` picks the mode. The modes:

``bwrap`` (a class tournament's default)
    The bot runs under bubblewrap (the Debian package ``bubblewrap``): its own user, PID, mount,
    network, IPC, UTS and cgroup namespaces (``--unshare-all``, ``--unshare-user``), a new session,
    ``--die-with-parent``. Its file system is read-only and holds only what it needs: the system's
    ``/usr`` (and the ``/lib*`` links), the Python runtime, the arcade's ``games/`` and ``bots/``
    (the course API modules it may import), and its own folder at ``/bot`` (a bot may import its
    helper modules: so give each student's bot a folder of its own) with the packages
    ``arcade bot install`` put in its ``.deps`` (``DEPS``, bound on its own); ``/tmp`` is a private tmpfs
    of ``TMP_SIZE``; ``/proc`` shows its own processes only, read-only; ``/dev`` is read-only and
    holds only ``DEVICES`` (the host's null, zero, full, random, urandom and tty), the ``fd`` and
    standard-stream links and ``/dev/shm``, a private tmpfs of ``SHM_SIZE``; no network at all;
    an empty environment. It cannot see the arcade, the other bot, other students' files or the
    instructor's terminal, and everything it started dies with it (the PID namespace's first
    process is bwrap's).

    Whoever starts the arcade, root included, the bot is ``UNPRIVILEGED`` (``nobody``) with no
    capabilities at all (``--cap-drop ALL``: every capability set empty) and no new privileges:
    it cannot become root (setuid(0) fails), remount or mount anything, chroot, make device
    nodes, or make namespaces (``--disable-userns``: no user namespace, hence no other one), so
    it writes only to its ``/tmp`` and ``/dev/shm``. A user's arcade runs bwrap as that user,
    whom the bot is to the kernel. Root's runs it through ``bots/sandbox_launch.py``, as
    ``nobody`` outside the namespace too: else the bot would own the host's root-owned files in
    reach (and could change the modes of the host's ``/dev/null`` and the other bound devices)
    and ``RLIMIT_NPROC`` would not hold it; then what it reads in the arcade's binds (the
    runtime, ``games/``, ``bots/``) must be readable by others (as under ``umask 022``), and its
    own folder is a copy (regular files and folders only, never through a link, at most
    ``sandbox_launch.FOLDER_MAX``), so a folder only its owner may enter works.

    Not guaranteed: a bot can read everything in its binds (the runtime, the arcade's code, its
    folder); it may trace its own processes and bwrap's reaper (its PID namespace's process 1,
    which has no more rights than the bot; the arcade is out of its sight); its processes share
    the machine's CPUs and kernel with everything else.
``none``
    A process of its own (its own session and process group, killed with it), as before: limits
    apply, nothing is hidden from it. ``auto`` means ``bwrap`` when it works on this machine and
    ``none`` otherwise, with a one-line warning that the bots are not contained.

Either way the process gets rlimits (``set_limits``, then the bot's process itself): CPU seconds,
address space (the memory cap), open files, file size, no core files; in the sandbox also
processes (``RLIMIT_NPROC``, counted in the bot's own user namespace), held as well, when the
arcade is root and may make one, by a cgroup of the ``pids`` controller (``PidsCgroup``).
"""

from __future__ import annotations

import errno
import functools
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bots import DEPS  # bound on its own at /bot/.deps: as root, never part of the folder's copy

MODES = ("auto", "bwrap", "none")
ROOT = Path(__file__).resolve().parent.parent

CPU_SECONDS = 3600
"""CPU seconds a bot's process may use in all (a whole match): a bound on a runaway loop."""
PROCESSES = 64
"""Processes (and threads) a bot may run at once."""
OPEN_FILES = 256
LOG_FILE_SIZE = 1 << 20
"""Bytes a file the bot writes may reach (its private ``/tmp`` is a tmpfs of ``TMP_SIZE``)."""
TMP_SIZE = 64 << 20
SHM_SIZE = 4 << 20
"""Bytes of the bot's ``/dev/shm`` (a tmpfs: its memory is not the bot's process's)."""
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
"""The character devices in the bot's ``/dev``, bound from the host's."""


class SandboxUnavailable(RuntimeError):
    """``bwrap`` was asked for and cannot run here; the message says why and what to install."""


@dataclass(frozen=True)
class Choice:
    """The mode in force (``bwrap`` or ``none``), and a warning for the user when ``auto`` fell
    back to ``none``."""

    mode: str
    warning: str | None = None


INSTALL = "install the Debian package bubblewrap (sudo apt install bubblewrap)"


@functools.lru_cache(maxsize=1)
def bwrap_problem() -> str | None:
    """``None`` when bwrap runs a contained process on this machine, else why not."""
    path = shutil.which("bwrap")
    if path is None:
        return f"bwrap is not installed; {INSTALL}"
    try:
        done = subprocess.run(
            command(["/bin/true"] if Path("/bin/true").exists() else ["true"], None, probe=True),
            capture_output=True, timeout=20, env=ENVIRONMENT,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap cannot start ({exc})"
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()
        return f"bwrap cannot create a sandbox here ({why[-1] if why else f'status {done.returncode}'})"
    return None


def choose(mode: str) -> Choice:
    """The mode in force for ``mode`` (``auto``, ``bwrap`` or ``none``); ``SandboxUnavailable``
    when ``bwrap`` is asked for and cannot run; ``ValueError`` for an unknown mode."""
    if mode not in MODES:
        raise ValueError(f"unknown sandbox {mode!r}; sandboxes: {', '.join(MODES)}")
    if mode == "none":
        return Choice("none")
    problem = bwrap_problem()
    if problem is None:
        return Choice("bwrap")
    if mode == "bwrap":
        raise SandboxUnavailable(f"the bwrap sandbox cannot run: {problem}")
    return Choice("none", f"warning: file bots are NOT contained (no sandbox: {problem})")


def _runtime_paths() -> list[Path]:
    """The folders the Python runtime lives in (the interpreter, its standard library, the
    site-packages of the arcade's environment), outside ``/usr``."""
    paths = set()
    for prefix in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix):
        path = Path(prefix).resolve()
        if path != Path("/usr") and not str(path).startswith("/usr/"):
            paths.add(path)
    executable = Path(sys.executable).resolve()
    if not str(executable).startswith("/usr/"):
        paths.add(executable.parent.parent)
    # drop paths inside other paths (bound once, by the outermost)
    return sorted(p for p in paths if not any(q != p and q in p.parents for q in paths))


ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
"""bwrap's own environment: the sandbox's first process is bwrap, whose ``/proc/1/environ`` the
bot can read, so bwrap gets none of the arcade's (the bot's own is cleared: ``--clearenv``)."""


UNPRIVILEGED = 65534
"""The user and group the bot is inside its sandbox (``nobody``), and, when root starts the
arcade, outside it too (``bots/sandbox_launch.py``)."""


def command(argv: list[str], bot_file: Path | None, probe: bool = False) -> list[str]:
    """``argv`` run inside a bwrap sandbox that sees ``bot_file``'s folder, read-only, at
    ``/bot`` (so each student's bot belongs in a folder of its own); as root, through
    ``bots/sandbox_launch.py``, which starts bwrap as ``UNPRIVILEGED``."""
    args = ["--unshare-all", "--unshare-user", "--uid", str(UNPRIVILEGED), "--gid", str(UNPRIVILEGED),
            "--cap-drop", "ALL", "--disable-userns", "--die-with-parent", "--new-session", "--clearenv",
            "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--setenv", "HOME", "/tmp",
            "--setenv", "PYTHONDONTWRITEBYTECODE", "1", "--setenv", "PYTHONNOUSERSITE", "1",
            "--ro-bind", "/usr", "/usr"]
    for name in ("lib", "lib64", "lib32", "bin", "sbin"):
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    for name in ("/etc/ld.so.cache", "/etc/localtime"):
        if Path(name).exists():
            args += ["--ro-bind", name, name]
    args += ["--proc", "/proc", "--remount-ro", "/proc", "--tmpfs", "/dev"]
    for name in DEVICES:  # the host's own nodes (a tmpfs in a user namespace cannot hold devices)
        if Path("/dev", name).exists():
            args += ["--dev-bind", f"/dev/{name}", f"/dev/{name}"]
    for link, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                         ("stderr", "/proc/self/fd/2")):
        args += ["--symlink", target, f"/dev/{link}"]
    args += ["--size", str(SHM_SIZE), "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
             "--size", str(TMP_SIZE), "--tmpfs", "/tmp"]
    if not probe:
        for path in _runtime_paths():
            args += ["--ro-bind", str(path), str(path)]
        args += ["--ro-bind", str(ROOT / "games"), "/arcade/games", "--ro-bind", str(ROOT / "bots"), "/arcade/bots"]
        if bot_file is not None:  # the bot's own folder (its helper modules), read-only, at /bot
            args += ["--ro-bind", str(bot_file.parent), "/bot", "--chdir", "/bot"]
            deps = bot_file.parent / DEPS
            if deps.is_dir() and not deps.is_symlink():  # what `arcade bot install` put there
                args += ["--ro-bind", str(deps), f"/bot/{DEPS}"]
    args += ["--remount-ro", "/", "--"] + argv  # the root too: only /tmp and /dev/shm can be written
    if os.geteuid() != 0:
        return ["bwrap", *args]
    bwrap = shutil.which("bwrap", path=ENVIRONMENT["PATH"]) or "bwrap"
    return [sys.executable, "-I", "-S", str(ROOT / "bots" / "sandbox_launch.py"), str(os.getpid()), bwrap, *args]


# -- limits -------------------------------------------------------------------------------------

def set_limits() -> None:
    """In the bot's process before it starts (``preexec_fn``): CPU seconds, open files, file
    size, no core files, and death with the arcade (``PR_SET_PDEATHSIG``: a bot stuck in a long C
    call holding the GIL, whose watchdog thread cannot run, still dies when the arcade is killed).
    The memory cap and the process count are set by the bot's process itself, once it is inside
    its namespaces (``bots.external.child.set_caps``)."""
    for limit, value in ((resource.RLIMIT_CPU, CPU_SECONDS), (resource.RLIMIT_NOFILE, OPEN_FILES),
                         (resource.RLIMIT_FSIZE, LOG_FILE_SIZE), (resource.RLIMIT_CORE, 0)):
        try:
            soft, hard = resource.getrlimit(limit)
            cap = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(limit, (cap, cap if limit != resource.RLIMIT_CPU else min(hard, cap + 5)
                                       if hard != resource.RLIM_INFINITY else cap + 5))
        except (ValueError, OSError):
            pass
    _die_with_parent()


def _die_with_parent() -> None:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0)  # SIGKILL when the thread that started us ends
    except (OSError, AttributeError):
        pass


class PidsCgroup:
    """A cgroup of the ``pids`` controller that caps a bot's processes at ``PROCESSES``, where the
    arcade may make one (as root: ``RLIMIT_NPROC`` does not hold root's processes). ``join()``
    runs in the bot's process before it starts; ``remove()`` after it died."""

    def __init__(self) -> None:
        self.path: Path | None = None
        base = _pids_root()
        if base is None:
            return
        try:
            path = base / f"bot-{os.getpid()}-{os.urandom(4).hex()}"
            path.mkdir(parents=True)
            (path / "pids.max").write_text(str(PROCESSES))
            self.path = path
        except OSError:
            self.path = None

    def join(self) -> None:
        if self.path is not None:
            try:
                (self.path / "cgroup.procs").write_text(str(os.getpid()))
            except OSError:
                pass

    def remove(self, wait: float = 2.0) -> None:
        """Remove the cgroup once its processes are gone. The arcade's wait ends with bwrap's, when
        the bot's PID namespace may still be dying (a removal then fails with ``EBUSY`` and would
        leave one cgroup a bot behind), so kill what is left in it and retry for up to ``wait``
        seconds."""
        if self.path is None:
            return
        deadline = time.monotonic() + wait
        while True:
            try:
                self.path.rmdir()
                break
            except OSError as exc:
                if exc.errno != errno.EBUSY or time.monotonic() > deadline:
                    break
            try:
                for pid in (self.path / "cgroup.procs").read_text().split():
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except OSError:
                        pass
            except OSError:
                pass
            time.sleep(0.01)
        self.path = None


@functools.lru_cache(maxsize=1)
def _pids_root() -> Path | None:
    """Where to make bots' pids cgroups: root only (others are held by ``RLIMIT_NPROC``, counted
    in the bot's own user namespace), cgroup v1's ``pids`` hierarchy or v2 with ``pids``."""
    if os.geteuid() != 0:
        return None
    v1 = Path("/sys/fs/cgroup/pids")
    v2 = Path("/sys/fs/cgroup")
    for base, v2_style in ((v1, False), (v2, True)):
        try:
            if v2_style and "pids" not in (base / "cgroup.controllers").read_text().split():
                continue
            if not (base / "cgroup.procs").exists():
                continue
            root = base / "contest-arcade"
            root.mkdir(exist_ok=True)
            if v2_style:
                (root / "cgroup.subtree_control").write_text("+pids")
            return root
        except OSError:
            continue
    return None

