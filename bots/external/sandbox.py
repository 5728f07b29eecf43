"""How a student's file bot is contained: bubblewrap (``bwrap``), or a plain process.

``bots.external`` starts each file bot's process with ``command(...)`` and ``set_limits()`` from
here; ``bots.registry.resolve`` picks the mode. The modes (``bots.limits.SANDBOXES``, which a
run's ``Limits`` names):

``bwrap`` (a class tournament's default)
    The bot runs under bubblewrap (the Debian package ``bubblewrap``): its own user, PID, mount,
    network, IPC, UTS and cgroup namespaces (``--unshare-all``, ``--unshare-user``), a new session,
    ``--die-with-parent``. Its file system is read-only and holds only what it needs: the system's
    ``/usr`` (and the ``/lib*`` links; for R, ``/etc/R`` and ``/etc/alternatives``; for a CS4341
    program in Java, Debian's ``/etc/java-*``), the Python
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
    out. A seccomp filter (``bots.external.seccomp``, bwrap's ``--seccomp``) fails ``ptrace`` and its
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
cgroups (``bots.external.cgroups.BotCgroup``: as root, or as a user in a cgroup delegated to them, as systemd's
``user@UID.service``) the bot's processes and threads are one count (``pids.max``), a freezer
stops them between turns (root's), and the memory cap is one budget for all of them (cgroup v2's
``memory.max``, ``memory.swap.max`` 0, ``memory.oom.group``; v1's ``memory.limit_in_bytes`` and
``memsw``): anonymous and shared memory, ``memfd`` and tmpfs files, dirtied page cache; a kill
for it is a memory forfeit. Without a memory cgroup, a sandboxed bot's cap is split
(``process_caps``): ``SPLIT`` processes at most, each ``RLIMIT_AS`` a ``1/SPLIT`` share, and
``SPLIT_OPEN_FILES`` open files a process (``memfd`` files, outside any address space, are not
held, only bounded; R will not start under ``R_OPEN_FILES``, 167, so an R bot's files are
smaller instead: ``R_SPLIT_FILE_SIZE``, the same 64 MiB a process); an unsandboxed one gets the
cap a process, its processes not counted.
``memory_mode`` says which holds (the log's header, ``--plan``, the setup screen).
"""

from __future__ import annotations

import errno
import functools
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bots import deps_folder  # .deps: bound on its own at /bot/.deps, never part of the folder's copy
from bots.external import safe_files
from bots.external.cgroups import memory_root
from bots.external.seccomp import seccomp_fd
from bots.limits import SANDBOXES

ROOT = Path(__file__).resolve().parents[2]
"""The arcade's root, whose ``games/`` and ``bots/`` the sandbox binds."""
LAUNCHER = Path(__file__).resolve().with_name("sandbox_launch.py")
"""Root's launcher of bwrap (run by its path: it imports nothing of the arcade's)."""

CPU_SECONDS = 3600
"""CPU seconds a bot's process may use in all (a whole match): a bound on a runaway loop."""
OPEN_FILES = 256
SPLIT_OPEN_FILES = 64
"""Open files a process of a bot may have where no memory cgroup holds its memory: a ``memfd``
file (at most ``LOG_FILE_SIZE``) is in no address space, so this bounds them a process."""
LOG_FILE_SIZE = 1 << 20
"""Bytes a file the bot writes may reach (its private ``/tmp`` is a tmpfs of ``TMP_SIZE``)."""
R_OPEN_FILES = 167
"""Open files an R bot's process may have where a Python bot's gets ``SPLIT_OPEN_FILES``: R
will not start under ``ceil(100 / 0.6)``, 167 ("Fatal error: the limit on the number of open
files is too low": its table of 100 loaded libraries must fit in 60% of them; R 4.2, measured;
``R_MAX_NUM_DLLS`` may not go under 100). Where no cgroup holds the bot its R gets these
(``OPEN_FILES`` otherwise)."""
R_SPLIT_FILE_SIZE = SPLIT_OPEN_FILES * LOG_FILE_SIZE // R_OPEN_FILES
"""Bytes a file an R bot writes may reach where its open files are ``R_OPEN_FILES`` (no cgroup
holds it): 392 KiB, so its ``memfd`` files (outside any address space) stay within the Python
bot's bound there, ``SPLIT_OPEN_FILES`` x ``LOG_FILE_SIZE``, 64 MiB a process."""
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


def java_settings() -> list[str]:
    """Debian's JVM settings folders (``/etc/java-17-openjdk``: the JVM's ``jvm.cfg`` and security
    files are links into it), bound read-only where a JVM is installed (``default-jre-headless``)."""
    return sorted(str(path) for path in Path("/etc").glob("java-*") if path.is_dir() and not path.is_symlink())


def command(argv: list[str], bot_file: Path | None, probe: bool = False, folder: Path | None = None,
            seccomp: int | None = None, deps: int | None = None, held: int | None = None) -> list[str]:
    """``argv`` run inside a bwrap sandbox that sees ``bot_file``'s folder, read-only, at
    ``/bot`` (so each student's bot belongs in a folder of its own); as root, through
    ``LAUNCHER``, which starts bwrap as ``UNPRIVILEGED`` and copies the folder. ``folder``: what
    is bound at ``/bot`` instead of the folder itself (a user's copy: ``Staged``); ``seccomp``:
    the descriptor of the seccomp filter bwrap loads for the bot (``seccomp_program``); ``deps``:
    the descriptor of the bot's ``.deps`` (``safe_files.plain_folder_at``), bound at
    ``/bot/.deps`` from that descriptor (``deps_bind``), never by its name; ``held``: as root, the
    descriptor of the bot's folder (``safe_files.open_folder``'s walk), which the launcher copies
    from rather than from its path."""
    args = ["--unshare-all", "--unshare-user", "--uid", str(UNPRIVILEGED), "--gid", str(UNPRIVILEGED),
            "--cap-drop", "ALL", "--disable-userns", "--die-with-parent", "--new-session", "--clearenv",
            "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--setenv", "HOME", "/tmp",
            "--setenv", "PYTHONDONTWRITEBYTECODE", "1", "--setenv", "PYTHONNOUSERSITE", "1",
            "--setenv", "MALLOC_ARENA_MAX", "1",  # one malloc arena: a thread's 64 MiB one counts in RLIMIT_AS
            "--ro-bind", "/usr", "/usr"]
    for name in ("lib", "lib64", "lib32", "bin", "sbin"):
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    # /etc/R and /etc/alternatives: an R strategy's R settings, and the links R's BLAS (and `java`)
    # is found by; /etc/java-*: Debian's JVM settings (jvm.cfg), which a CS4341 program in Java needs
    for name in ("/etc/ld.so.cache", "/etc/localtime", "/etc/R", "/etc/alternatives", *java_settings()):
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
            if held is not None and folder is None:  # root's launcher copies it from the walked descriptor
                args += ["--ro-bind-fd", str(held), "/bot", "--chdir", "/bot"]
            else:
                args += ["--ro-bind", str(folder or bot_file.parent), "/bot", "--chdir", "/bot"]
            if deps is not None:  # what `arcade bot install` put there, checked on this descriptor
                args += deps_bind(deps)
    if not probe and memory_root() is None:  # the cap split over SPLIT processes: one thread for BLAS
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
        self.held: int | None = None
        """As root, the bot's folder as the walk opened it: the launcher copies it from this
        descriptor (``--ro-bind-fd``), never from its path (a student's path may flip)."""
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
            if os.geteuid() == 0:
                self.held = os.dup(source)
            if os.geteuid() != 0:  # without --ro-bind-fd, .deps is copied too (within FOLDER_MAX)
                self.folder = copy_for_user(source, where.name if self.deps is not None else None)
        except OSError as exc:
            self.problem = f"the sandbox could not copy the bot's folder: {exc.strerror or exc}"
        finally:
            os.close(source)

    @property
    def pass_fds(self) -> tuple[int, ...]:
        inherited = (self.seccomp,) if self.seccomp is not None else ()
        return inherited + tuple(fd for fd in (self.deps, self.held) if fd is not None)

    def argv(self, argv: list[str]) -> list[str]:
        if self.problem is not None:
            return [sys.executable, "-I", "-S", "-c", "import sys; print(sys.argv[1], file=sys.stderr); sys.exit(71)",
                    self.problem]
        return command(argv, self.bot_file, folder=self.folder, seccomp=self.seccomp, deps=self.deps, held=self.held)

    def started(self) -> None:
        if self.seccomp is not None:
            os.close(self.seccomp)
            self.seccomp = None
        for name in ("deps", "held"):  # bwrap (or the launcher) has its own
            fd = getattr(self, name)
            if fd is not None:
                os.close(fd)
                setattr(self, name, None)

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


# -- limits -------------------------------------------------------------------------------------

def set_limits(open_files: int = OPEN_FILES, file_size: int = LOG_FILE_SIZE) -> None:
    """In the bot's process before it starts (``preexec_fn``): CPU seconds, open files, file
    size (as root its hard limit is lowered by ``sandbox_launch``, once the bot's folder is copied),
    no core files, and death with the arcade (``PR_SET_PDEATHSIG``: a bot stuck in a long C
    call holding the GIL, whose watchdog thread cannot run, still dies when the arcade is killed).
    The memory cap and the process count are set by the bot's process itself, once it is inside
    its namespaces (``bots.external.child.set_caps``). ``open_files``: ``SPLIT_OPEN_FILES`` where
    the memory cap is split (``process_caps``): fewer ``memfd`` files a process, outside its cap
    (an R bot's: ``R_OPEN_FILES`` of ``R_SPLIT_FILE_SIZE``). ``file_size``: a CS4341 program's
    is ``TMP_SIZE``, since its working folder (a copy of its own, a compiled program of a few MiB
    included) is in its ``/tmp``, which bounds it anyway."""
    for limit, value in ((resource.RLIMIT_CPU, CPU_SECONDS), (resource.RLIMIT_NOFILE, open_files),
                         (resource.RLIMIT_FSIZE, file_size), (resource.RLIMIT_CORE, 0)):
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
