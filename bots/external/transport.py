"""The seam between the arcade's end of the wire and the bot's process: a ``Transport`` carries
bytes and knows the process's health; ``bots.external.host`` speaks the protocol through it.

``ProcessTransport`` is the real one: a ``python -u`` process in a session of its own, its
protocol on its stdin (a pipe) and its stdout (a packet socket the kernel stamps with each
answer's arrival), its output in its log (for an R strategy, the process becomes R, as ``Rscript``
would start it: ``bots.external.rlang``). ``MemoryTransport`` plays the bot's
process from a script, in memory and on a clock of its own (as python-chess's tests'
``MockTransport`` does), so the host's logic is tested without processes or waiting.
"""

from __future__ import annotations

import atexit
import functools
import operator
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol

from bots.external import cgroups, sandbox, seccomp
from bots.external.freezer import Freezer
from bots.external.logs import BotLog, LogPump, log_header
from bots.external.wire import PART, Message, Move, MoveMany, Moved, MovedMany, Reply, Request, decode, encode
from bots.external.rlang import R_CHILD_CODE, is_r_file
from bots.external.specs import PROGRAM
from bots.external.cgroups import BotCgroup

ROOT = Path(__file__).resolve().parents[2]
"""The arcade's root folder (``games`` and ``bots`` are imported from it)."""

CHILD_CODE = ("import sys; sys.path.insert(0, sys.argv[1]); "
              "from bots.external.child import child_main; child_main()")
"""What the bot's process runs: ``python -u -c CHILD_CODE <arcade root> <arcade pid>``."""
PROGRAM_CODE = ("import sys; sys.path.insert(0, sys.argv[1]); "
                "from bots.othello.cs4341_program import referee_main; referee_main()")
"""What a CS4341 program's process runs (``bots.external.program``): the arcade's referee of its
files, which copies the program's folder into a private working folder and starts it there."""


@dataclass(frozen=True)
class Launch:
    """What starting a bot's process needs: whose file, for which game, its match's log, and the
    sandbox (``bwrap`` or ``none``)."""

    game_id: str
    path: Path
    function: str
    log: BotLog
    sandbox: str = "none"
    memory: int | None = None
    """The memory cap, bytes: all of the bot's processes together where a memory cgroup can be
    made (``BotCgroup``), else each process's (the bot's process sets ``RLIMIT_AS``)."""
    notebook: Any = None
    """A notebook's reading (``bots.external.notebook.Notebook``: its language and the cells that
    play) when ``path`` is a notebook, else ``None``."""

    @property
    def language(self) -> str:
        """``"R"`` or ``"python"``: what runs the bot (an R file, or an R notebook, runs in R)."""
        if self.notebook is not None:
            return self.notebook.language
        return "R" if is_r_file(self.path) else "python"


class Transport(Protocol):
    """A bot's process as the host sees it: bytes in and out, and whether it still runs."""

    def write(self, data: bytes) -> bool:
        """Send ``data``; ``False`` if the process's end is closed."""

    @property
    def written(self) -> float | None:
        """When the bytes ``write`` last sent left the arcade, on the host's clock (``None``: the
        transport cannot tell; the host then takes the time before it wrote)."""

    def read(self, timeout: float) -> bytes | None:
        """Bytes the process wrote, waiting up to ``timeout`` seconds: ``None`` if none came,
        ``b""`` at the end of the stream (the process exited or crashed)."""

    @property
    def arrived(self) -> float | None:
        """When the bytes ``read`` last returned reached the arcade, on the host's clock: the
        moment the process wrote them, however late the arcade came to read them (a busy app).
        ``None`` if the transport cannot tell (the host then takes the time it read them)."""

    @property
    def alive(self) -> bool:
        """Whether the process still runs."""

    def cpu_seconds(self) -> float:
        """CPU seconds the process and everything it started used so far."""

    def exit_text(self) -> str:
        """How the process ended, for an end of stream: its status or the signal that killed it."""

    def freeze(self) -> None:
        """Stop every process of the bot: it uses no CPU until ``thaw`` (``bots.external.freezer``)."""

    def thaw(self) -> None:
        """Let the bot's processes go on (before a request)."""

    def close(self) -> None:
        """Kill the process and everything it started, and wait for it."""


# -- the real one: a process ----------------------------------------------------------------------

_LIVE: "weakref.WeakSet[ProcessTransport]" = weakref.WeakSet()

SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
"""The socket option that makes Linux stamp each packet with the time it was sent (35 on the
common architectures; Python 3.11 does not name it)."""

PACKET = 1 << 18
"""Bytes read from the answer socket at once: more than one packet can hold (the kernel's
default send buffer), so no packet is cut."""


def answer_channel() -> tuple[socket.socket, socket.socket]:
    """The bot's answers' way back: a connected pair of Unix packet sockets, the arcade's end
    first. The kernel stamps every packet with the moment the bot's process sent it, so the
    arcade's clock never charges the bot for the arcade's own delays (a busy screen, the GIL)
    in picking its answer up. A stream (a pipe) carries no such stamp."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        ours.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    except OSError:  # no stamps: ``arrived`` falls back to the time the bytes were read
        pass
    return ours, theirs


ANCILLARY = socket.CMSG_SPACE(16) + socket.CMSG_SPACE(64 * 4)
"""Room for a packet's stamp, and for descriptors a bot might send to get them closed."""


def sent_at(ancillary: list[tuple[int, int, bytes]]) -> float | None:
    """The kernel's send time of a packet (``SO_TIMESTAMPNS``, wall-clock seconds), if stamped.
    Descriptors a bot's process sent along (``SCM_RIGHTS``: only a hostile bot does) are closed."""
    stamp = None
    for level, kind, data in ancillary:
        if level != socket.SOL_SOCKET:
            continue
        if kind == SO_TIMESTAMPNS and len(data) in (8, 16):
            seconds, nanoseconds = struct.unpack("qq" if len(data) == 16 else "ii", data)
            stamp = seconds + nanoseconds / 1e9
        elif kind == socket.SCM_RIGHTS:
            for fd in struct.unpack(f"{len(data) // 4}i", data[:len(data) // 4 * 4]):
                try:
                    os.close(fd)
                except OSError:
                    pass
    return stamp


class ProcessTransport:
    """A bot's process, started at once: ``python -u`` in a new session (its own process group),
    in the bwrap sandbox or not, in its cgroups where the arcade may make them, its standard
    error (where the child points its output) pumped into the log. ``freeze`` and ``thaw`` stop
    and resume all its processes (``Freezer``). Killed with everything it started by ``close``,
    when garbage collected, or at exit."""

    def __init__(self, launch: Launch) -> None:
        bwrap = launch.sandbox == "bwrap"
        code = R_CHILD_CODE if launch.language == "R" else CHILD_CODE  # an R strategy: R, after a few lines
        program = launch.function == PROGRAM
        code = PROGRAM_CODE if program else code  # a program: its referee, which starts it
        self.staged = sandbox.Staged(launch.path) if bwrap else None  # a user's copy, the seccomp filter
        if self.staged is not None:
            argv = self.staged.argv([sys.executable, "-u", "-c", code, "/arcade", "0"])
            cwd, env = None, sandbox.ENVIRONMENT
        else:
            sandbox.hide_arcade()
            argv = [sys.executable, "-u", "-c", code, str(ROOT), str(os.getpid())]
            cwd, env = str(launch.path.parent), {**os.environ, "MALLOC_ARENA_MAX": "1"}  # as in the sandbox
        self.cgroup: BotCgroup | None = BotCgroup(memory=launch.memory)  # processes and memory: one budget
        self.log = LogPump(launch.log, log_header(launch.path, launch.function, launch.game_id, launch.sandbox,
                                                  cgroups.memory_mode(launch.sandbox, self.cgroup)
                                                  if launch.memory else "no cap"))
        self.answers, answers_end = answer_channel()
        self.arrived: float | None = None
        self.written: float | None = None
        cgroup = self.cgroup
        split = bwrap and bool(launch.memory) and (cgroup is None or cgroup.memory is None)  # process_caps
        open_files = sandbox.OPEN_FILES
        file_size = sandbox.TMP_SIZE if program else sandbox.LOG_FILE_SIZE  # a program's copy: /tmp
        if split and launch.language == "R":  # R will not start with fewer files: smaller ones instead
            open_files, file_size = sandbox.R_OPEN_FILES, sandbox.R_SPLIT_FILE_SIZE
        elif split:  # fewer memfd files a process (outside the split cap)
            open_files = sandbox.SPLIT_OPEN_FILES

        def before_exec() -> None:  # in the bot's process, before it runs anything
            if cgroup is not None:
                cgroup.join()
            sandbox.set_limits(open_files, file_size)
            if not bwrap:  # bwrap loads the filter itself (--seccomp)
                seccomp.install_seccomp()

        staged = self.staged
        try:
            self.proc: subprocess.Popen | None = _spawn(
                argv, stdin=subprocess.PIPE, stdout=answers_end.fileno(), stderr=self.log.write_end, cwd=cwd,
                env=env, start_new_session=True, close_fds=True, preexec_fn=before_exec,
                pass_fds=staged.pass_fds if staged is not None else (),
            )
        except BaseException:
            self.answers.close()
            self.log.close()
            if staged is not None:
                staged.close()
            raise
        finally:
            answers_end.close()  # the process has its own copy: its exit is the end of the stream
            if staged is not None:
                staged.started()
        self.log.started()
        self.freezer = Freezer(self.proc.pid, self.cgroup, whole_session=not bwrap)
        _LIVE.add(self)
        self._finalizer = weakref.finalize(self, _reap, self.proc, self.freezer, self.answers, self.staged)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def write(self, data: bytes) -> bool:
        """Write ``data`` to the process's stdin, ``written`` the moment it starts: the clock is
        read and the write begins in one step of C code (``map`` over the two calls), so no other
        thread can take the GIL in between and delay the request after its time was taken."""
        if self.proc is None or self.proc.stdin is None:
            return False
        try:
            fd = self.proc.stdin.fileno()
            view = memoryview(data)
            written, sent = tuple(map(operator.call, (time.monotonic, functools.partial(os.write, fd, view))))
            while sent < len(view):
                sent += os.write(fd, view[sent:])
            self.written = written
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def read(self, timeout: float) -> bytes | None:
        if self.proc is None:
            return b""
        ready, _, _ = select.select([self.answers], [], [], timeout)
        if not ready:
            return None
        try:
            data, ancillary, _, _ = self.answers.recvmsg(PACKET, ANCILLARY)
        except OSError:
            return b""
        now, wall = time.monotonic(), time.time()
        stamp = sent_at(ancillary)
        self.arrived = now if stamp is None else now - max(0.0, wall - stamp)
        return data

    def cpu_seconds(self) -> float:
        """On the arcade's side: one read of the bot's cgroup's CPU counter (``BotCgroup.cpu_seconds``:
        every process it ever had), else the tree of its processes in ``/proc`` (0 where it cannot
        be read)."""
        if self.proc is None:
            return 0.0
        counted = self.cgroup.cpu_seconds() if self.cgroup is not None else None
        return counted if counted is not None else _tree_cpu(self.proc.pid)

    def exit_text(self) -> str:
        proc = self.proc
        if proc is None:
            return "its process is gone"
        try:
            code = proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "its process stopped answering"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"its process crashed ({name})"
        return f"its process exited with status {code}"

    def memory_exceeded(self) -> bool:
        """Whether the bot's processes together went over its memory cgroup's cap (the kernel
        killed one of them for it)."""
        return self.cgroup is not None and self.cgroup.memory_exceeded()

    def freeze(self) -> None:
        if self.proc is not None:
            self.freezer.freeze()

    def thaw(self) -> None:
        if self.proc is not None:
            self.freezer.thaw()

    def close(self) -> None:
        proc = self.proc
        if proc is None:
            return
        _reap(proc, self.freezer, self.answers, self.staged)
        self._finalizer.detach()
        self.proc = None
        self.cgroup = None
        self.log.close()


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _reap(proc: subprocess.Popen, freezer: Freezer, answers: socket.socket | None = None,
          staged: sandbox.Staged | None = None) -> None:
    """Kill the bot's processes (all of them, frozen or not), close its pipes, wait for it and
    remove its cgroups and a user's copy of its folder."""
    freezer.kill()
    _kill_group(proc.pid)
    for stream in (proc.stdin, answers):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    if freezer.cgroup is not None:
        freezer.cgroup.remove()
    if staged is not None:
        staged.close()


@atexit.register
def _kill_all() -> None:
    for transport in list(_LIVE):
        transport.close()


_SPAWNER: ThreadPoolExecutor | None = None
_SPAWNER_LOCK = threading.Lock()


def _spawn(argv: list[str], **options) -> subprocess.Popen:
    """``Popen`` from one long-lived thread: a bot's process dies with the thread that started it
    (``PR_SET_PDEATHSIG``, bwrap's ``--die-with-parent``), and the app asks bots from short-lived
    worker threads, so none of those may be its parent."""
    global _SPAWNER
    with _SPAWNER_LOCK:
        if _SPAWNER is None:
            _SPAWNER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot-spawner")
        spawner = _SPAWNER
    return spawner.submit(subprocess.Popen, argv, **options).result()


CPUCLOCK_SCHED = 2
"""The kind of a process's CPU clock that counts in nanoseconds the time its threads ran
(``CPUCLOCK_SCHED`` in Linux's ``posix-timers.h``)."""


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) that process ``pid`` has used, every thread of it (ended ones
    too), to the nanosecond: its CPU clock, which Linux lets any process of the namespace read
    (``clock_getcpuclockid``, written out: Python does not name it). ``None`` if it cannot be
    read (the process is gone)."""
    try:
        return time.clock_gettime_ns(((~pid) << 3) | CPUCLOCK_SCHED) / 1e9
    except (OSError, OverflowError):
        return None


def _tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` and its descendants. Each process's own CPU clock
    (``process_cpu``), to the nanosecond; ``/proc/PID/stat`` only where that cannot be read: it
    counts in clock ticks (10 ms), so a move using a tenth of a millisecond could read as 0 or
    as 10 ms, and a trivial bot's "slowest move" as exactly 10.0 ms."""
    ticks = os.sysconf("SC_CLK_TCK")
    total, todo, seen = 0.0, [pid], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            precise = process_cpu(current)
            if precise is None:
                fields = Path(f"/proc/{current}/stat").read_text().rpartition(")")[2].split()
                precise = (int(fields[11]) + int(fields[12])) / ticks
            total += precise
            for task in os.listdir(f"/proc/{current}/task"):
                children = Path(f"/proc/{current}/task/{task}/children").read_text().split()
                todo.extend(int(c) for c in children)
        except (OSError, ValueError, IndexError):
            continue
    return total


# -- the one for tests: a script, in memory ---------------------------------------------------------

Step = Reply | bytes | float | None
"""What a scripted process does after a request: answer a message, write raw bytes, pause for
a number of seconds (on the transport's clock), or end (``None``: its stream closes)."""


class MemoryTransport:
    """A bot's process played by ``script``: called with each request the host sends, it gives
    the steps the process takes (``Step``). Time is the transport's own ``now`` (give ``clock`` to
    the host): waiting for nothing moves it on at once, so a test of a time-out takes no time.
    ``sent`` holds every request received; ``cpu`` is what ``cpu_seconds`` reports. ``lag`` is
    how late the arcade comes to read what arrived (a busy app): each read that returns bytes
    moves ``now`` on by it, while ``arrived`` stays the moment they came. A ``MoveMany`` is played
    as a Python bot's process plays it (``bots.external.child.Child.on_move_many``): each position
    through ``script`` as a ``Move``, the answers in ``MovedMany`` parts, and at the first
    position whose steps are not a ``Moved`` (after pauses) the part so far, then those steps."""

    def __init__(self, script: Callable[[Request], Iterable[Step]],
                 exit_text: str = "its process exited with status 0", lag: float = 0.0) -> None:
        self.script = script
        self.lag = lag
        self.arrived: float | None = None
        self.written: float | None = None
        self.now = 0.0
        self.cpu = 0.0
        self.sent: list[Message] = []
        self.pending: deque[tuple[float, bytes]] = deque()  # (when, bytes); b"" is the end
        self.ended = False
        self.closed = False
        self.frozen = False
        self.sent_frozen: list[Message] = []
        """Requests written while the process was frozen (the host must thaw it first)."""
        self._exit_text = exit_text

    def clock(self) -> float:
        return self.now

    @property
    def alive(self) -> bool:
        return not (self.closed or self.ended)

    def write(self, data: bytes) -> bool:
        if not self.alive:
            return False
        at = self.written = self.now
        for line in data.splitlines():
            request = decode(line)
            self.sent.append(request)
            if self.frozen:
                self.sent_frozen.append(request)
            steps = self.many(request) if isinstance(request, MoveMany) else self.script(request)
            for step in steps:
                if isinstance(step, (int, float)):
                    at += step
                elif step is None:
                    self.pending.append((at, b""))
                else:
                    self.pending.append((at, step if isinstance(step, bytes) else encode(step)))
        return True

    def many(self, request: MoveMany) -> list[Step]:
        steps: list[Step] = []
        part: list = []
        size = 0
        for args in request.args:
            answer = list(self.script(Move(args)))
            pauses = [step for step in answer if isinstance(step, (int, float))]
            replies = [step for step in answer if not isinstance(step, (int, float))]
            if len(replies) != 1 or not isinstance(replies[0], Moved):
                if part:
                    steps.append(MovedMany(part))
                return steps + answer
            steps.extend(pauses)
            length = len(encode(replies[0]))
            if part and size + length > PART:
                steps.append(MovedMany(part))
                part, size = [], 0
            part.append(replies[0].move)
            size += length
        return steps + [MovedMany(part)]

    def read(self, timeout: float) -> bytes | None:
        if self.pending and self.pending[0][0] <= self.now + timeout:
            at, data = self.pending.popleft()
            self.arrived = at
            self.now = max(self.now, at) + self.lag
            self.ended = self.ended or not data
            return data
        self.now += timeout
        return None

    def cpu_seconds(self) -> float:
        return self.cpu

    def exit_text(self) -> str:
        return self._exit_text

    def freeze(self) -> None:
        self.frozen = True

    def thaw(self) -> None:
        self.frozen = False

    def close(self) -> None:
        self.closed = True
