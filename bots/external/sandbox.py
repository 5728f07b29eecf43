"""How a student's file bot is contained: bubblewrap (``bwrap``), or a plain process.

``bots.external`` starts each file bot's process with ``command(...)`` and ``set_limits()`` from
here; ``bots.registry.resolve`` picks the mode. The modes (``bots.limits.SANDBOXES``, which a
run's ``Limits`` names):

``bwrap`` (a class tournament's default)
    The bot runs under bubblewrap (the Debian package ``bubblewrap``): its own user, PID, mount,
    network, IPC, UTS and cgroup namespaces (``--unshare-all``, ``--unshare-user``), a new session,
    ``--die-with-parent``. Its file system is read-only and holds only what it needs: the system's
    ``/usr`` (and the ``/lib*`` links; for R, ``/etc/R`` and ``/etc/alternatives``), the Python
    runtime, the arcade's ``games/`` and ``bots/``
    (the course API modules it may import), and its own folder at ``/bot`` (a bot may import its
    helper modules: so give each student's bot a folder of its own) with the packages
    ``arcade bot install`` put in its ``.deps`` (``bots.deps_folder``, bound on its own from its descriptor); ``/tmp`` is a private tmpfs
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
    whom the bot is to the kernel. Root's runs it through ``LAUNCHER``, as
    ``nobody`` outside the namespace too: else the bot would own the host's root-owned files in
    reach (and could change the modes of the host's ``/dev/null`` and the other bound devices)
    and ``RLIMIT_NPROC`` would not hold it; then what it reads in the arcade's binds (the
    runtime, ``games/``, ``bots/``) must be readable by others (as under ``umask 022``), and its
    own folder is a copy (regular files and folders only, never through a link, at most
    ``sandbox_launch.FOLDER_MAX``), so a folder only its owner may enter works.

    As a user too, the bot's folder is a copy (``Staged``: made by the arcade in a private
    folder of a neutral name), so no mount names its host path and a hard link in it is left
    out. A seccomp filter (``seccomp_program``, bwrap's ``--seccomp``) fails ``ptrace`` and its
    relatives (``DENIED_CALLS``) and every call through another architecture's entry.

    Not guaranteed: a bot can read everything in its binds (the runtime, the arcade's code, its
    folder, its ``.deps``, whose mount names its path); its processes share the machine's CPUs
    and kernel with everything else.
``none``
    A process of its own (its own session and process group, killed with it): limits apply, the
    seccomp filter is loaded on it (``install_seccomp``) and the arcade makes itself not dumpable
    (``hide_arcade``), and nothing else is hidden from it: it is the user who runs the arcade. ``auto`` means ``bwrap`` when it works on this machine and
    ``none`` otherwise, with a one-line warning that the bots are not contained.

Either way the process gets rlimits (``set_limits``, then the bot's process itself): CPU seconds,
address space (the memory cap), open files, file size, no core files; in the sandbox also
processes (``RLIMIT_NPROC``, counted in the bot's own user namespace). Where the arcade may make
cgroups (``BotCgroup``: as root, or as a user in a cgroup delegated to them, as systemd's
``user@UID.service``) the bot's processes and threads are one count (``pids.max``), a freezer
stops them between turns (root's), and the memory cap is one budget for all of them (cgroup v2's
``memory.max``, ``memory.swap.max`` 0, ``memory.oom.group``; v1's ``memory.limit_in_bytes`` and
``memsw``): anonymous and shared memory, ``memfd`` and tmpfs files, dirtied page cache; a kill
for it is a memory forfeit. Without a memory cgroup, a sandboxed bot's cap is split
(``process_caps``): ``SPLIT`` processes at most, each ``RLIMIT_AS`` a ``1/SPLIT`` share, and
``SPLIT_OPEN_FILES`` open files a process (``memfd`` files, outside any address space, are not
held, only bounded); an unsandboxed one gets the cap a process, its processes not counted.
``memory_mode`` says which holds (the log's header, ``--plan``, the setup screen).
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
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bots import deps_folder  # .deps: bound on its own at /bot/.deps, never part of the folder's copy
from bots.external import safe_files
from bots.limits import SANDBOXES

ROOT = Path(__file__).resolve().parents[2]
"""The arcade's root, whose ``games/`` and ``bots/`` the sandbox binds."""
LAUNCHER = Path(__file__).resolve().with_name("sandbox_launch.py")
"""Root's launcher of bwrap (run by its path: it imports nothing of the arcade's)."""

CPU_SECONDS = 3600
"""CPU seconds a bot's process may use in all (a whole match): a bound on a runaway loop."""
PROCESSES = 64
"""Processes (and threads) a bot may run at once."""
OPEN_FILES = 256
SPLIT_OPEN_FILES = 64
"""Open files a process of a bot may have where no memory cgroup holds its memory: a ``memfd``
file (at most ``LOG_FILE_SIZE``) is in no address space, so this bounds them a process."""
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
    if mode not in SANDBOXES:
        raise ValueError(f"unknown sandbox {mode!r}; sandboxes: {', '.join(SANDBOXES)}")
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


ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""Set to 1 in the sandbox where the memory cap is split (``process_caps``): with a thread
each of the machine's processors, OpenBLAS (numpy) would fail to load within ``SPLIT`` tasks."""


UNPRIVILEGED = 65534
"""The user and group the bot is inside its sandbox (``nobody``), and, when root starts the
arcade, outside it too (``LAUNCHER``)."""


def command(argv: list[str], bot_file: Path | None, probe: bool = False, folder: Path | None = None,
            seccomp: int | None = None, deps: int | None = None) -> list[str]:
    """``argv`` run inside a bwrap sandbox that sees ``bot_file``'s folder, read-only, at
    ``/bot`` (so each student's bot belongs in a folder of its own); as root, through
    ``LAUNCHER``, which starts bwrap as ``UNPRIVILEGED`` and copies the folder. ``folder``: what
    is bound at ``/bot`` instead of the folder itself (a user's copy: ``Staged``); ``seccomp``:
    the descriptor of the seccomp filter bwrap loads for the bot (``seccomp_program``); ``deps``:
    the descriptor of the bot's ``.deps`` (``safe_files.plain_folder_at``), bound at
    ``/bot/.deps`` from that descriptor (``deps_bind``), never by its name."""
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
    # /etc/R and /etc/alternatives: an R strategy's R settings, and the links R's BLAS is found by
    for name in ("/etc/ld.so.cache", "/etc/localtime", "/etc/R", "/etc/alternatives"):
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
            args += ["--ro-bind", str(folder or bot_file.parent), "/bot", "--chdir", "/bot"]
            if deps is not None:  # what `arcade bot install` put there, checked on this descriptor
                args += deps_bind(deps)
    if not probe and _memory_root() is None:  # the cap split over SPLIT processes: one thread for BLAS
        for name in ONE_THREAD:
            args += ["--setenv", name, "1"]
    if seccomp is not None:
        args += ["--seccomp", str(seccomp)]
    args += ["--remount-ro", "/", "--"] + argv  # the root too: only /tmp and /dev/shm can be written
    if os.geteuid() != 0:
        return ["bwrap", *args]
    bwrap = shutil.which("bwrap", path=ENVIRONMENT["PATH"]) or "bwrap"
    return [sys.executable, "-I", "-S", str(LAUNCHER), str(os.getpid()), bwrap, *args]


DEPS_AT = "/bot/" + deps_folder("b.py").name
"""Where the bot's ``.deps`` is in its sandbox."""


def deps_bind(deps: int) -> list[str]:
    """bwrap's arguments that bind the folder open as ``deps`` at ``DEPS_AT``: ``--ro-bind-fd``
    (bwrap 0.7 and later, and root's launcher, which binds it itself): the descriptor is
    inherited, used and closed, never the bot's (it could walk out of it with ``..``). Where a
    user's bwrap is older, ``Staged`` copies ``.deps`` with the folder instead."""
    return ["--ro-bind-fd", str(deps), DEPS_AT]


@functools.lru_cache(maxsize=1)
def _binds_descriptors() -> bool:
    """Whether this machine's bwrap has ``--ro-bind-fd`` (bubblewrap 0.7, 2022)."""
    try:
        done = subprocess.run(["bwrap", "--help"], capture_output=True, text=True, timeout=20, env=ENVIRONMENT)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--ro-bind-fd" in done.stdout + done.stderr


class Staged:
    """What one sandboxed process starts with besides its command line: as a user, a copy of
    the bot's folder (regular files and folders of one name, never through a link, at most
    ``sandbox_launch.FOLDER_MAX``, readable whatever the ``umask``) in a private folder of a
    neutral name, so the bot sees neither its folder's host path nor a hard link's target (root's
    launcher copies it in its own namespace); the descriptor of its ``.deps`` when that holds
    only plain folders and files (bound from it: a name swapped after the look binds nothing
    else; a user's bwrap without ``--ro-bind-fd``, before 0.7, gets ``.deps`` in the copy
    instead); and the seccomp filter's descriptor. ``argv(...)`` is the command, ``pass_fds`` what
    it must inherit; ``started()`` once it runs, ``close()`` when it is gone. A copy that fails
    makes a command that says why and exits (status 71, as root's launcher does)."""

    def __init__(self, bot_file: Path | None) -> None:
        self.bot_file = bot_file
        self.folder: Path | None = None
        self.problem: str | None = None
        self.deps: int | None = None
        self.seccomp = seccomp_fd()
        if bot_file is None:
            return
        where = deps_folder(bot_file)
        try:
            source = safe_files.open_folder(where.parent)
        except OSError as exc:
            self.problem = f"the sandbox cannot open the bot's folder: {exc.strerror or exc}"
            return
        try:
            if os.geteuid() == 0 or _binds_descriptors():
                self.deps = safe_files.plain_folder_at(source, where.name)
            if os.geteuid() != 0:  # without --ro-bind-fd, .deps is copied too (within FOLDER_MAX)
                self.folder = copy_for_user(source, where.name if self.deps is not None else None)
        except OSError as exc:
            self.problem = f"the sandbox could not copy the bot's folder: {exc.strerror or exc}"
        finally:
            os.close(source)

    @property
    def pass_fds(self) -> tuple[int, ...]:
        inherited = (self.seccomp,) if self.seccomp is not None else ()
        return inherited + ((self.deps,) if self.deps is not None else ())

    def argv(self, argv: list[str]) -> list[str]:
        if self.problem is not None:
            return [sys.executable, "-I", "-S", "-c", "import sys; print(sys.argv[1], file=sys.stderr); sys.exit(71)",
                    self.problem]
        return command(argv, self.bot_file, folder=self.folder, seccomp=self.seccomp, deps=self.deps)

    def started(self) -> None:
        if self.seccomp is not None:
            os.close(self.seccomp)
            self.seccomp = None
        if self.deps is not None:  # bwrap (or the launcher) has its own
            os.close(self.deps)
            self.deps = None

    def close(self) -> None:
        self.started()
        if self.folder is not None:
            remove_copy(self.folder)
            self.folder = None


def copy_for_user(source: int, deps: str | None = None) -> Path:
    """A copy of the folder open as ``source`` for a user's sandbox (``Staged``), ``deps`` left
    out (bound on its own): ``bot`` in a new private folder ``arcade-bot-XXXXXXXX`` of the
    temporary folder, made from descriptors (``safe_files.copy_tree``)."""
    from bots.external.sandbox_launch import FOLDER_MAX

    target = Path(tempfile.mkdtemp(prefix="arcade-bot-"))
    try:
        held = safe_files.open_folder(target)
        try:
            safe_files.copy_tree(source, held, "bot", skip=deps, limit=FOLDER_MAX, read_only=True)
        finally:
            os.close(held)
    except OSError as exc:
        remove_copy(target / "bot")
        if exc.errno == errno.ENOSPC:
            raise OSError(exc.errno, f"{exc.strerror}; it must fit in {FOLDER_MAX >> 20} MiB") from None
        raise
    return target / "bot"


def remove_copy(copy: Path) -> None:
    """Remove a user's copy (``copy_for_user``: its private folder, whatever is in it), from
    descriptors, its read-only folders made writable first."""
    try:
        held = safe_files.open_folder(copy.parent.parent)
    except OSError:
        return
    try:
        safe_files.remove_tree(held, copy.parent.name)
    except OSError:
        pass
    finally:
        os.close(held)


# -- seccomp: no ptrace and its relatives ------------------------------------------------------

DENIED_CALLS = ("ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd", "process_madvise",
                "perf_event_open", "bpf", "userfaultfd", "keyctl", "add_key", "request_key",
                "io_uring_setup", "io_uring_enter", "io_uring_register")
"""System calls a bot's processes may not make (they fail with ``EPERM``): tracing or reading
another process (bwrap's reaper, its own), the kernel's keyrings, BPF, perf, userfaultfd and
io_uring (a kernel attack surface no bot needs)."""

_SYSCALLS = {
    "x86_64": (0xC000003E, (101, 310, 311, 312, 438, 440, 298, 321, 323, 250, 248, 249, 425, 426, 427)),
    "aarch64": (0xC00000B7, (117, 270, 271, 272, 438, 440, 241, 280, 282, 219, 217, 218, 425, 426, 427)),
}
"""Each machine's audit architecture and the numbers of ``DENIED_CALLS``, in that order."""
X32 = 0x40000000
"""x86_64's x32 system calls (``nr | X32``), refused whole, as is any other architecture's call."""


def seccomp_program(machine: str | None = None) -> bytes | None:
    """The classic BPF program (``struct sock_filter`` entries) that fails ``DENIED_CALLS`` with
    ``EPERM``, and every call made through another architecture's entry (the 32-bit ones, x32);
    ``None`` on a machine it does not know (no filter there). Built here, not with libseccomp:
    fifteen comparisons, and the Python bindings of libseccomp on PyPI are unmaintained."""
    import struct

    machine = machine or os.uname().machine
    if machine not in _SYSCALLS:
        return None
    arch, numbers = _SYSCALLS[machine]
    load, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06
    deny, allow = 0x00050000 | errno.EPERM, 0x7FFF0000
    checks = [(jge, X32)] if machine == "x86_64" else []
    checks += [(jeq, number) for number in numbers]
    program = [(load, 0, 0, 4), (jeq, 1, 0, arch), (ret, 0, 0, deny), (load, 0, 0, 0)]
    for at, (op, value) in enumerate(checks):
        program.append((op, len(checks) - at, 0, value))  # to the last entry: deny
    program += [(ret, 0, 0, allow), (ret, 0, 0, deny)]
    return b"".join(struct.pack("=HBBI", *entry) for entry in program)


def seccomp_fd() -> int | None:
    """A new descriptor holding ``seccomp_program()`` from its start, for bwrap's ``--seccomp``
    (bwrap reads it to its end: one a process), or ``None`` without a program here."""
    program = seccomp_program()
    if program is None:
        return None
    fd = os.memfd_create("arcade-seccomp", os.MFD_CLOEXEC)
    os.write(fd, program)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def install_seccomp() -> bool:
    """Load ``seccomp_program()`` on this process (and all it starts), with no new privileges:
    an unsandboxed bot's (``set_limits``). ``False`` where it cannot be loaded."""
    import ctypes

    program = seccomp_program()
    if program is None:
        return False

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = Fprog(len(program) // 8, ctypes.addressof(buffer))
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    return libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) == 0


# -- limits -------------------------------------------------------------------------------------

def set_limits(open_files: int = OPEN_FILES) -> None:
    """In the bot's process before it starts (``preexec_fn``): CPU seconds, open files, file
    size (as root its hard limit is lowered by ``sandbox_launch``, once the bot's folder is copied),
    no core files, and death with the arcade (``PR_SET_PDEATHSIG``: a bot stuck in a long C
    call holding the GIL, whose watchdog thread cannot run, still dies when the arcade is killed).
    The memory cap and the process count are set by the bot's process itself, once it is inside
    its namespaces (``bots.external.child.set_caps``). ``open_files``: ``SPLIT_OPEN_FILES`` where
    the memory cap is split (``process_caps``): fewer ``memfd`` files a process, outside its cap."""
    for limit, value in ((resource.RLIMIT_CPU, CPU_SECONDS), (resource.RLIMIT_NOFILE, open_files),
                         (resource.RLIMIT_FSIZE, LOG_FILE_SIZE), (resource.RLIMIT_CORE, 0)):
        try:
            soft, hard = resource.getrlimit(limit)
            cap = value if hard == resource.RLIM_INFINITY else min(value, hard)
            if limit == resource.RLIMIT_FSIZE and os.geteuid() == 0:  # root's launcher copies the bot's
                resource.setrlimit(limit, (cap, hard))  # folder first, then holds the hard limit too
                continue
            resource.setrlimit(limit, (cap, cap if limit != resource.RLIMIT_CPU else min(hard, cap + 5)
                                       if hard != resource.RLIM_INFINITY else cap + 5))
        except (ValueError, OSError):
            pass
    _die_with_parent()


def hide_arcade() -> None:
    """Make the arcade's own process not dumpable (``PR_SET_DUMPABLE`` 0) before it starts an
    unsandboxed bot: its ``/proc/PID`` files then belong to root, so a bot running as the same
    user cannot read its environment, its open files (the ``--record`` file, with a secret
    seed), its memory or trace it. Root's bot is root, whom this does not stop."""
    try:
        import ctypes

        PR_SET_DUMPABLE = 4
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _die_with_parent() -> None:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0)  # SIGKILL when the thread that started us ends
    except (OSError, AttributeError):
        pass


FREEZE_WAIT = 0.5
"""Seconds ``BotCgroup.freeze`` waits at most for every process to be frozen."""


class BotCgroup:
    """The cgroups that hold a bot's processes, where the arcade may make them (as root, or in
    a cgroup delegated to the user: ``_delegated_root``): one of the ``pids`` controller that caps
    its processes and threads together at ``PROCESSES`` (``RLIMIT_NPROC`` does not hold root's
    processes, nor an unsandboxed user's apart from the user's others), one of ``memory`` (its cap
    for all of them: ``memory``), and, as root, one with a freezer (``freeze``,
    ``thaw``: cgroup v2's ``cgroup.freeze``, else cgroup v1's ``freezer``) that stops every one
    of them between the bot's turns, whatever sessions or process groups they made. Inside the
    sandbox the bot can neither see nor leave them. ``join()`` runs in the bot's process before
    it starts; ``kill()`` and ``remove()`` after."""

    def __init__(self, pids: bool = True, memory: int | None = None) -> None:
        self.path: Path | None = None
        """The ``pids`` cgroup (``None``: none could be made here)."""
        self.freezer: Path | None = None
        """The cgroup whose freezer stops the bot (``None``: none could be made here)."""
        self.freezer_v2 = False
        self.memory: Path | None = None
        """The cgroup whose memory controller holds all of the bot's memory to ``memory`` bytes
        (``None``: no cap asked, or none could be made here: each process's ``RLIMIT_AS`` then)."""
        self.memory_v2 = False
        base = _pids_root() if pids else None
        if base is not None:
            self.path = _make_cgroup(base, {"pids.max": str(PROCESSES)})  # processes and threads
        found = _freezer_root()
        if found is not None:
            root, self.freezer_v2 = found
            if self.path is not None and self.path.parent == root:
                self.freezer = self.path  # cgroup v2 with pids: one cgroup does both
            else:
                self.freezer = _make_cgroup(root, {})
        if memory:
            self._cap_memory(memory)

    def _cap_memory(self, memory: int) -> None:
        """One memory budget for every process of the bot: anonymous, shared, ``memfd``, tmpfs
        and page cache it dirties, no swap; on cgroup v2 its processes are the OOM victims as a
        group (``memory.oom.group``), on v1 the arcade kills the group once one was."""
        found = _memory_root()
        if found is None:
            return
        root, self.memory_v2 = found
        if self.memory_v2:
            settings = {"memory.max": str(memory), "memory.oom.group": "1"}
            if (root / "memory.swap.max").exists() or not (root / "memory.max").exists():
                settings["memory.swap.max"] = "0"  # absent where swap is not accounted: no swap to hold
            shared = next((p for p in (self.path, self.freezer) if p is not None and p.parent == root), None)
            if shared is not None and _write_all(shared, settings):
                self.memory = shared
                return
        else:
            settings = {"memory.limit_in_bytes": str(memory)}
            if (root / "memory.memsw.limit_in_bytes").exists():
                settings["memory.memsw.limit_in_bytes"] = str(memory)  # after the first: never below it
        self.memory = _make_cgroup(root, settings)

    def memory_exceeded(self) -> bool:
        """Whether the kernel killed a process of the bot for its memory cgroup's cap (its
        ``oom_kill`` count, v2's ``memory.events``, v1's ``memory.oom_control``)."""
        if self.memory is None:
            return False
        name = "memory.events" if self.memory_v2 else "memory.oom_control"
        try:
            for line in (self.memory / name).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key in ("oom_kill", "oom_group_kill") and int(value) > 0:
                    return True
        except (OSError, ValueError):
            pass
        return False

    @property
    def paths(self) -> list[Path]:
        return list(dict.fromkeys(p for p in (self.path, self.freezer, self.memory) if p is not None))

    def join(self) -> None:
        for path in self.paths:
            try:
                (path / "cgroup.procs").write_text(str(os.getpid()))
            except OSError:
                pass

    def freeze(self, wait: float = FREEZE_WAIT) -> bool:
        """Freeze every process in the cgroup; ``True`` once all are frozen (or ``wait`` seconds
        passed: a process in an uninterruptible wait in the kernel, which uses no CPU there).
        ``False`` when there is no freezer here (or it cannot be written)."""
        if self.freezer is None:
            return False
        name, value, done = (("cgroup.freeze", "1", "frozen 1") if self.freezer_v2
                             else ("freezer.state", "FROZEN", "FROZEN"))
        state = self.freezer / ("cgroup.events" if self.freezer_v2 else "freezer.state")
        try:
            (self.freezer / name).write_text(value)
            deadline = time.monotonic() + wait
            pause = 0.0002
            while done not in state.read_text() and time.monotonic() < deadline:
                time.sleep(pause)
                pause = min(pause * 2, 0.005)
            return True
        except OSError:
            return False

    def thaw(self) -> None:
        if self.freezer is not None:
            try:
                (self.freezer / ("cgroup.freeze" if self.freezer_v2 else "freezer.state")).write_text(
                    "0" if self.freezer_v2 else "THAWED")
            except OSError:
                pass

    def kill(self) -> None:
        """``SIGKILL`` every process in the cgroups, then thaw them (a process frozen by cgroup
        v1's freezer dies only once thawed; it runs none of its code before)."""
        for path in self.paths:
            try:
                for pid in (path / "cgroup.procs").read_text().split():
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except OSError:
                        pass
            except OSError:
                pass
        self.thaw()

    def remove(self, wait: float = 2.0) -> None:
        """Remove the cgroups once their processes are gone. The arcade's wait ends with bwrap's,
        when the bot's PID namespace may still be dying (a removal then fails with ``EBUSY`` and
        would leave one cgroup a bot behind), so kill what is left in them and retry for up to
        ``wait`` seconds."""
        deadline = time.monotonic() + wait
        for path in self.paths:
            while True:
                try:
                    path.rmdir()
                    break
                except OSError as exc:
                    if exc.errno != errno.EBUSY or time.monotonic() > deadline:
                        break
                self.kill()
                time.sleep(0.01)
        self.path = self.freezer = self.memory = None


def _write_all(path: Path, settings: dict[str, str]) -> bool:
    try:
        for name, value in settings.items():
            (path / name).write_text(value)
        return True
    except OSError:
        return False


@functools.lru_cache(maxsize=1)
def _memory_root() -> tuple[Path, bool] | None:
    """Where to make bots' memory cgroups, and whether it is cgroup v2: as root, cgroup v2 with
    ``memory`` (enabled for its children), else cgroup v1's ``memory`` hierarchy; as a user, a
    cgroup delegated to the user (``_delegated_root``). ``None``: each process's ``RLIMIT_AS``
    (``process_caps``)."""
    if os.geteuid() != 0:
        return _delegated_root("memory")
    return _first_root("memory", ("memory.max", "memory.limit_in_bytes"))


SPLIT = 3
"""The processes a sandboxed bot may have at once where no memory cgroup holds them together
(``process_caps``): each gets ``1/SPLIT`` of the memory cap, so together they hold the cap."""


def memory_mode(sandbox: str = "bwrap", cgroup: "BotCgroup | None" = None) -> str:
    """How a bot's memory cap holds here for a bot in ``sandbox`` (``bwrap`` or ``none``), in
    a few words (the log's header, ``--plan``, the setup screen): ``one budget (cgroup v1)``,
    ``(cgroup v2)`` or ``(delegated cgroup v2)``: every process of the bot and everything they
    hold together; else, in the sandbox, ``split: 3 processes × 1/3 of the cap`` (``SPLIT``,
    ``RLIMIT_NPROC`` and ``RLIMIT_AS``: their address spaces hold the cap, not ``memfd`` or tmpfs
    files); else ``per process, processes not counted`` (nothing holds the total). With
    ``cgroup``, the bot's own (whether its memory cgroup could be made)."""
    found = _memory_root()
    if cgroup is not None and cgroup.memory is None:
        found = None
    if found is not None:
        delegated = "delegated " if os.geteuid() != 0 else ""
        return f"one budget ({delegated}cgroup v{2 if found[1] else 1})"
    if sandbox == "bwrap":
        return f"split: {SPLIT} processes × 1/{SPLIT} of the cap (no memory cgroup)"
    return "per process, processes not counted (no memory cgroup)"


def process_caps(memory: int | None, bwrap: bool, cgroup: "BotCgroup | None") -> tuple[int | None, int | None]:
    """The bot's process's own ``RLIMIT_AS`` and ``RLIMIT_NPROC`` (``child.set_caps``) for a
    memory cap of ``memory`` bytes: where its memory cgroup holds all of its processes, the cap
    and ``PROCESSES``; else, in the sandbox, ``1/SPLIT`` of the cap each and ``SPLIT`` processes
    (``RLIMIT_NPROC`` counts the sandbox's tasks: bwrap's first process, one more, and threads
    too, so ``SPLIT`` address spaces of the bot's at most); else (no sandbox, no cgroup) the cap
    each, the processes not counted (``RLIMIT_NPROC`` would count all of the user's)."""
    held = cgroup is not None and cgroup.memory is not None
    if not bwrap:
        return memory, None
    if held or not memory:
        return memory, PROCESSES
    return memory // SPLIT, SPLIT + 1


def _owned(path: Path) -> bool:
    """Whether ``path`` is this user's to write (a delegated cgroup's folder or file is chowned
    to the user it is delegated to)."""
    try:
        return path.stat().st_uid == os.geteuid() and os.access(path, os.W_OK)
    except OSError:
        return False


def _own_cgroup(controller: str) -> str | None:
    """The arcade's own cgroup of ``controller``'s hierarchy (``""``: cgroup v2's), from
    ``/proc/self/cgroup``; ``None`` where it is in none."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if (controller == "" and names == "") or controller in names.split(","):
            return path
    return None


def _delegated_root(controller: str) -> tuple[Path, bool] | None:
    """A user's place for bots' cgroups of ``controller`` (``memory``, ``pids``): the cgroup
    closest to the arcade's own that contains it and is delegated to the user (its folder and
    ``cgroup.procs`` theirs, as systemd makes ``user@UID.service`` and what runs under it), on
    cgroup v2 one that gives ``controller`` to its children (``cgroup.subtree_control``); the
    bots' cgroups go in its ``contest-arcade``. ``None`` where there is none."""
    for base, v2 in ((Path("/sys/fs/cgroup"), True), (Path("/sys/fs/cgroup/unified"), True),
                     (Path("/sys/fs/cgroup") / controller, False)):
        own = _own_cgroup("" if v2 else controller)
        try:
            if own is None or (v2 and controller not in (base / "cgroup.controllers").read_text().split()):
                continue
        except OSError:
            continue
        here = base / own.strip("/")
        while here == base or base in here.parents:
            found = _delegation(here, controller, v2)
            if found is not None:
                return found, v2
            if here == base:
                break
            here = here.parent
    return None


def _delegation(here: Path, controller: str, v2: bool) -> Path | None:
    """``here/contest-arcade`` ready for bots' cgroups, when ``here`` is delegated to this user
    (and on cgroup v2 gives ``controller`` to its children); else ``None``."""
    if not (_owned(here) and _owned(here / "cgroup.procs")):
        return None
    try:
        if v2 and controller not in (here / "cgroup.subtree_control").read_text().split():
            return None
        root = here / "contest-arcade"
        root.mkdir(exist_ok=True)
        if v2:
            given = set((root / "cgroup.controllers").read_text().split())
            (root / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in ("memory", "pids") if c in given))
        probe = _make_cgroup(root, {})
        if probe is None:
            return None
        knob = "pids.max" if controller == "pids" else "memory.max" if v2 else "memory.limit_in_bytes"
        works = (probe / knob).exists()
        probe.rmdir()
    except OSError:
        return None
    if works:
        _sweep(root)
        return root
    return None


def _make_cgroup(base: Path, settings: dict[str, str]) -> Path | None:
    """A new cgroup under ``base`` for one bot, with ``settings`` written; ``None`` if it cannot be."""
    try:
        path = base / f"bot-{os.getpid()}-{os.urandom(4).hex()}"
        path.mkdir(parents=True)
    except OSError:
        return None
    try:
        for name, value in settings.items():
            (path / name).write_text(value)
    except OSError:
        try:
            path.rmdir()
        except OSError:
            pass
        return None
    return path


def _sweep(root: Path) -> None:
    """Remove the cgroups that arcades now gone left under ``root`` (an arcade killed with
    ``SIGKILL`` cleans nothing up): ``bot-PID-…`` of a PID that no longer runs, made over a
    minute ago (an arcade in another PID namespace may be about to join a new one). What is left
    in one is killed and thawed first: a bot frozen by cgroup v1's freezer when its arcade died
    would otherwise wait there for ever, since a frozen process dies only once thawed."""
    try:
        names = [entry.name for entry in root.iterdir() if entry.name.startswith("bot-")]
    except OSError:
        return
    for name in names:
        try:
            os.kill(int(name.split("-")[1]), 0)
            continue  # its arcade still runs
        except ProcessLookupError:
            pass
        except (OSError, ValueError, IndexError):
            continue
        path = root / name
        try:
            if path.stat().st_mtime >= time.time() - 60:
                continue
        except OSError:
            continue
        for procs, thaw, value in (("cgroup.procs", "cgroup.freeze", "0"), ("cgroup.procs", "freezer.state", "THAWED")):
            try:
                for pid in (path / procs).read_text().split():
                    os.kill(int(pid), signal.SIGKILL)
                if (path / thaw).exists():
                    (path / thaw).write_text(value)
            except (OSError, ValueError):
                pass
        try:
            path.rmdir()
        except OSError:
            pass  # its processes are still dying: the next sweep removes it


@functools.lru_cache(maxsize=1)
def _pids_root() -> Path | None:
    """Where to make bots' pids cgroups: as root, cgroup v1's ``pids`` hierarchy or v2 with
    ``pids``; as a user, a delegated cgroup (``_delegated_root``). Elsewhere a sandboxed bot is
    held by ``RLIMIT_NPROC``, counted in its own user namespace."""
    if os.geteuid() != 0:
        found = _delegated_root("pids")
        return found[0] if found is not None else None
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
            _sweep(root)
            return root
        except OSError:
            continue
    return None


@functools.lru_cache(maxsize=1)
def _freezer_root() -> tuple[Path, bool] | None:
    """Where to make bots' freezer cgroups, and whether it is cgroup v2: root only (a user's
    cgroups are not the arcade's to make); cgroup v2 (``/sys/fs/cgroup``, or
    ``/sys/fs/cgroup/unified`` beside v1) where its ``cgroup.freeze`` exists (Linux 5.2), else
    cgroup v1's ``freezer`` hierarchy. ``None``: bots are stopped with signals instead."""
    if os.geteuid() != 0:
        return None
    return _first_root(None, ("cgroup.freeze", "freezer.state"), v1="freezer")


def _first_root(controller: str | None, markers: tuple[str, str], v1: str | None = None) -> tuple[Path, bool] | None:
    """The arcade's cgroup folder (``contest-arcade``, swept of old bots' cgroups) under the first
    hierarchy that works as root: cgroup v2 (``/sys/fs/cgroup``, or ``/sys/fs/cgroup/unified``
    beside v1) with ``controller`` enabled for its children (``None``: a core feature such as the
    freeze), else cgroup v1's hierarchy of that name; it works when a probe cgroup made there has
    ``markers`` (v2's file, v1's file). ``None`` when none does."""
    for base, v2 in ((Path("/sys/fs/cgroup"), True), (Path("/sys/fs/cgroup/unified"), True),
                     (Path("/sys/fs/cgroup") / (v1 or controller or ""), False)):
        try:
            if v2 and controller not in (base / "cgroup.controllers").read_text().split() + [None]:
                continue
            if not (base / "cgroup.procs").exists():
                continue
            root = base / "contest-arcade"
            root.mkdir(exist_ok=True)
            if v2 and controller is not None:
                (root / "cgroup.subtree_control").write_text(f"+{controller}")
            probe = _make_cgroup(root, {})
            if probe is None:
                continue
            works = (probe / markers[0 if v2 else 1]).exists()
            probe.rmdir()
            if works:
                _sweep(root)
                return root, v2
        except OSError:
            continue
    return None
