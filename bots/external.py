"""A student's bot from a file, ``path/to/file.py:function``, run in a process of its own.

Wherever a bot name is accepted (``arcade match``, ``arcade tournament``, the setup screen) a
file bot can be named instead: ``bots.registry.resolve`` hands the spec to ``file_entry``. The
function is written in the course's own signature for the game (``bots.adapters``). Without
``:function`` the game's usual name is used (``engine`` for Robot Ludo, ``strategy`` otherwise).

How it runs
===========
The arcade never imports the student's code. ``Host`` starts ``python -u`` in a new session
(its own process group) that speaks JSON lines over its stdin/stdout pipes (``child_main``).
That process:

- sets ``RLIMIT_AS`` (the memory cap, ``DEFAULT_MEMORY`` = 1 GiB) and no core files, *before*
  it loads the file, so the module's own top-level code is capped too;
- moves the protocol to private descriptors and points its standard output and error at the
  bot's log file, standard input at ``/dev/null``: whatever the bot prints (Python or C level,
  or its own subprocesses) ends in the log, never on the arcade's terminal or in ``--json``;
- loads the file under a module name that is not ``__main__`` (a student's test code under
  ``if __name__ == "__main__"`` does not run), with the file's folder on ``sys.path`` and the
  arcade's root too (``from games.hog import more_boar`` works, as the README promises);
- before each game seeds the global ``random`` (and numpy's, if loaded) from the game's seed, so
  a bot that draws from them plays the same games for the same match seed;
- calls the function for each move through the game's adapter and times the call.

One process serves a bot for a whole match (its module's globals live on between games, as in
the courses' notebooks); a process that faulted is killed and the next game gets a fresh one.
After the match (``FileBotSource.close``, called by ``arcade.match.run_match``), when the bot
is garbage collected, or when the arcade exits, the whole process group is killed with
``SIGKILL``.

Forfeits
========
``ExternalBot.choose`` raises ``Forfeit`` for a fault; the match runner and the game screen end
that game with the other side winning. The checks come in the course's order (``play_game`` in
D-Football): an error first, then the time, then the move.

- the function raises, calls ``exit``, the file cannot be loaded, or the process exits or
  crashes: ``"strategy produced an error (...)"``;
- it goes over the memory cap: ``"strategy exceeded the memory cap (1 GiB)"``;
- its call took longer than the limit (``"strategy took >100ms to return a move"``, the limit as
  actually used); one that does not answer by the limit plus a grace (``grace``) is killed and
  forfeits with the same words;
- it returns something that is not a legal move or not of the signature's type:
  ``"strategy returned an invalid move (...)"``.

The limit per move is, first to last: ``Context.time_limit`` (``--time-limit``), the source's
own ``time_limit``, the game's default (``Adapter.time_limit``: 100 ms D-Football, the
``time_limit`` option in Othello, 1 s otherwise). The call is timed inside the bot's process
(as the course timed the strategy alone, not the arcade's bookkeeping); the arcade's own clock
enforces the hard stop.

POSIX only (``resource``, process groups, ``select`` on pipes).
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
import weakref
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from concurrent.futures import ThreadPoolExecutor

from bots import sandbox
from bots.base import ERROR, INVALID, MEMORY, Bot, BotEntry, Context, Forfeit, limit_text, printable, took_too_long
from bots.sandbox import PidsCgroup
from games.base import Termination

__all__ = ["ERROR", "INVALID", "MEMORY", "BadSpec", "Forfeit", "limit_text", "took_too_long"]

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MEMORY = 1 << 30
"""The memory cap of a bot's process: 1 GiB of address space (``RLIMIT_AS``)."""

LOG_ROLLOVER = 8 << 20
"""A bot's log past this size (bytes) is renamed ``*.log.1`` (replacing the previous one) when
the next process starts: logs do not grow without bound across matches."""

LOG_HEAD = 64 << 10
LOG_TAIL = 64 << 10
"""A bot process's log keeps the first and the last 64 KiB of what it printed."""

MAX_REPLY = 4 << 20
"""Bytes of one protocol line from the bot's process at most (an answer is a few bytes)."""

LOAD_TIMEOUT = 20.0
"""Seconds a bot's process has to start and load its file (its top-level code included)."""


class BadSpec(ValueError):
    """A file bot spec that names no loadable function; the message says why."""


def memory_text(limit: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= size:
            return f"{limit / size:g} {unit}"
    return f"{limit} bytes"


# -- specs ---------------------------------------------------------------------------------------

def is_file_spec(name: str) -> bool:
    """Whether ``name`` names a file bot (``x.py`` or ``x.py:function``) rather than a built-in."""
    path, sep, _function = name.rpartition(":")
    return name.endswith(".py") or bool(sep and path.endswith(".py"))


def short_name(name: str) -> str:
    """A bot's name for a table: a file bot's file name and function, a built-in's name as is."""
    if not is_file_spec(name):
        return name
    path, sep, function = name.rpartition(":")
    if not sep or not path.endswith(".py"):
        return printable(Path(name).name)
    return printable(f"{Path(path).name}:{function}")  # a file's name may hold escape sequences


def parse_spec(spec: str, game_id: str) -> tuple[Path, str]:
    """The file and function of ``spec``; ``BadSpec`` if the file is missing or the name is bad."""
    from bots.adapters import adapter_for

    path_text, sep, function = spec.rpartition(":")
    if not sep or not path_text.endswith(".py"):
        path_text, function = spec, ""
    adapter = adapter_for(game_id)
    function = function or adapter.default_function
    path = Path(path_text).expanduser()
    if not function.isidentifier():
        raise BadSpec(f"bot {spec!r}: {function!r} is not a function name (write path/to/file.py:function)")
    if not path.is_file():
        raise BadSpec(f"bot {spec!r}: no such file {str(path)!r} (write path/to/file.py:function)")
    return path.resolve(), function


def log_dir() -> Path:
    """Where bots' logs go: ``$ARCADE_BOT_LOGS``, else ``$XDG_STATE_HOME/contest-arcade/bot-logs``."""
    if os.environ.get("ARCADE_BOT_LOGS"):
        return Path(os.environ["ARCADE_BOT_LOGS"])
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "contest-arcade" / "bot-logs"


# -- the bot's process, seen from the arcade -----------------------------------------------------

_LIVE: "weakref.WeakSet[Host]" = weakref.WeakSet()


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class Host:
    """One bot process: start it, load the file, ask for moves, kill it with its whole group."""

    def __init__(self, game_id: str, path: Path, function: str, settings: dict, memory: int | None,
                 log_path: Path, sandbox: str = "none") -> None:
        self.game_id = game_id
        self.path = path
        self.function = function
        self.settings = settings
        self.memory = memory
        self.log_path = log_path
        self.sandbox = sandbox
        self.proc: subprocess.Popen | None = None
        self.buffer = b""
        self.cgroup: PidsCgroup | None = None
        self.log: LogPump | None = None
        self._finalizer: weakref.finalize | None = None

    # -- life --------------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        """Start the process and load the file; ``Forfeit`` (an error) if that fails."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        try:
            if self.log_path.stat().st_size > LOG_ROLLOVER:
                os.replace(self.log_path, self.log_path.with_name(self.log_path.name + ".1"))
        except OSError:
            pass
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
        contained = "in the bwrap sandbox" if self.sandbox == "bwrap" else "NOT contained (no sandbox)"
        header = f"=== {stamp} · {self.path}:{self.function} · {self.game_id} · {contained} ===\n"
        code = (
            "import sys; sys.path.insert(0, sys.argv[1]); "
            "from bots.external import child_main; child_main()"
        )
        if self.sandbox == "bwrap":
            root, bot_path = "/arcade", f"/bot/{self.path.name}"
            argv = sandbox.command([sys.executable, "-u", "-c", code, root, "0"], self.path)
            cwd, env = None, sandbox.ENVIRONMENT
            self.cgroup = sandbox.PidsCgroup()
        else:
            root, bot_path = str(ROOT), str(self.path)
            argv = [sys.executable, "-u", "-c", code, root, str(os.getpid())]
            cwd, env = str(self.path.parent), None
        self.log = LogPump(self.log_path, header)
        cgroup = self.cgroup

        def before_exec() -> None:  # in the bot's process, before it runs anything
            if cgroup is not None:
                cgroup.join()
            sandbox.set_limits()

        self.proc = _spawn(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log.write_end,
            cwd=cwd,
            env=env,
            start_new_session=True,
            close_fds=True,
            preexec_fn=before_exec,
        )
        self.log.started()
        self.buffer = b""
        _LIVE.add(self)
        self._finalizer = weakref.finalize(self, _reap, self.proc, self.cgroup)
        reply = self.exchange(
            {
                "op": "load",
                "path": bot_path,
                "function": self.function,
                "game": self.game_id,
                "memory": self.memory,
                "processes": sandbox.PROCESSES if self.sandbox == "bwrap" else None,
            },
            LOAD_TIMEOUT,
        )
        if reply is None:
            self.kill()
            raise Forfeit(ERROR, f"could not load {self.path.name} within {LOAD_TIMEOUT:g}s")
        if not reply.get("ok"):
            self.kill()
            if reply.get("kind") == "memory":
                raise Forfeit(MEMORY, f"{memory_text(self.memory or 0)}, while loading {self.path.name}", Termination.MEMORY)
            raise Forfeit(ERROR, f"could not load {self.path.name}: {reply.get('detail', '')}")

    def kill(self) -> None:
        """Kill the process and everything it started (its process group); wait for it."""
        proc = self.proc
        if proc is None:
            return
        _reap(proc, self.cgroup)
        if self._finalizer is not None:
            self._finalizer.detach()
        self.proc = None
        self.cgroup = None
        if self.log is not None:
            self.log.close()

    def cpu_seconds(self) -> float:
        """CPU seconds used so far by the bot's process and everything it started (from
        ``/proc``, on the arcade's side; 0 where it cannot be read)."""
        return _tree_cpu(self.proc.pid) if self.proc is not None else 0.0

    # -- talking -----------------------------------------------------------------------------
    def send(self, message: dict) -> bool:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode())
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def receive(self, timeout: float, cancelled=lambda: False) -> dict | None | str:
        """The next reply; ``None`` if none came in ``timeout`` seconds, ``"eof"`` if the process
        closed its end (it exited or crashed), ``"cancelled"`` if ``cancelled()`` became true."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if cancelled():
                return "cancelled"
            ready, _, _ = select.select([fd], [], [], min(left, 0.05))
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return "eof"
            self.buffer += chunk
            if len(self.buffer) > MAX_REPLY and b"\n" not in self.buffer:
                self.buffer = b""
                return {"ok": False, "kind": "error", "detail": f"the bot's process sent over {MAX_REPLY >> 20} MiB "
                                                                "without an end of line"}
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            reply = json.loads(line)
        except ValueError:
            reply = None
        if not isinstance(reply, dict):  # only the arcade's own child_main speaks this protocol
            return {"ok": False, "kind": "error", "detail": "the bot's process garbled its answer"}
        return reply

    def exchange(self, message: dict, timeout: float, cancelled=lambda: False):
        if not self.send(message):
            return "eof"
        return self.receive(timeout, cancelled)

    def exit_text(self) -> str:
        """How the process ended, for an ``eof``: its exit status or the signal that killed it."""
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


def _reap(proc: subprocess.Popen, cgroup: PidsCgroup | None = None) -> None:
    _kill_group(proc.pid)
    for stream in (proc.stdin, proc.stdout):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    if cgroup is not None:
        cgroup.remove()


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


def _tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` and its descendants, read from ``/proc``."""
    ticks = os.sysconf("SC_CLK_TCK")
    total, todo, seen = 0.0, [pid], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rpartition(")")[2].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
            for task in os.listdir(f"/proc/{current}/task"):
                children = Path(f"/proc/{current}/task/{task}/children").read_text().split()
                todo.extend(int(c) for c in children)
        except (OSError, ValueError, IndexError):
            continue
    return total


class LogPump:
    """A bot's standard output and error, read from a pipe into its log file: the first
    ``LOG_HEAD`` bytes of each process as written, then only the last ``LOG_TAIL`` kept, written
    when the process ends after a line saying how much was cut. A bot cannot fill the disk."""

    def __init__(self, path: Path, header: str) -> None:
        self.path = path
        self.read_end, self.write_end = os.pipe()
        self.file = open(path, "ab")
        self.file.write(header.encode())
        self.file.flush()
        self.written = 0
        self.tail = bytearray()
        self.cut = 0
        self.thread = threading.Thread(target=self._pump, name="bot-log", daemon=True)

    def started(self) -> None:
        """The process has the write end: close ours, and start reading."""
        os.close(self.write_end)
        self.thread.start()

    def _pump(self) -> None:
        try:
            while True:
                chunk = os.read(self.read_end, 1 << 16)
                if not chunk:
                    break
                room = LOG_HEAD - self.written
                if room > 0:
                    self.file.write(chunk[:room])
                    self.file.flush()
                    self.written += min(room, len(chunk))
                    chunk = chunk[room:]
                if chunk:
                    self.tail += chunk
                    if len(self.tail) > LOG_TAIL:
                        self.cut += len(self.tail) - LOG_TAIL
                        del self.tail[:len(self.tail) - LOG_TAIL]
            if self.cut:
                self.file.write(f"\n[… {self.cut:,} bytes of output cut: the log keeps the first "
                                f"{LOG_HEAD >> 10} KiB and the last {LOG_TAIL >> 10} KiB …]\n".encode())
            self.file.write(bytes(self.tail))
            self.file.flush()
        except (OSError, ValueError):
            pass
        finally:
            os.close(self.read_end)
            self.file.close()

    def close(self) -> None:
        """Wait for the pump to write the end of the log (the process is gone)."""
        if self.thread.is_alive():
            self.thread.join(timeout=2)


@atexit.register
def _kill_all() -> None:
    for host in list(_LIVE):
        host.kill()


# -- the bot, seen from the match runner ----------------------------------------------------------

def grace(limit: float) -> float:
    """Extra seconds past the limit before a silent bot is killed (its own clock judges a late
    answer; this only bounds a bot that never answers)."""
    return max(0.5, limit / 2)


class FileBotSource:
    """A file bot for one game: its spec, limits and log, and the process that serves it.

    One process at a time serves every game the source's bots play (they ask in turn); ``close``
    kills it. The memory cap is ``memory`` bytes (``None``: no cap).
    """

    def __init__(self, game_id: str, spec: str, time_limit: float | None = None,
                 memory: int | None = DEFAULT_MEMORY, logs: Path | None = None, sandbox: str = "none") -> None:
        from bots.adapters import adapter_for

        self.sandbox = sandbox
        self.game_id = game_id
        self.spec = spec
        self.path, self.function = parse_spec(spec, game_id)
        self.adapter = adapter_for(game_id)
        self.time_limit = time_limit
        self.memory = memory
        stem = f"{self.path.stem}.{self.function}.log"
        self.log_path = (logs or log_dir()) / stem
        self.lock = threading.RLock()
        self.host: Host | None = None
        self.settings: dict = {}

    def limit(self, game, ctx: Context | None = None) -> float:
        if ctx is not None and ctx.time_limit is not None:
            return ctx.time_limit
        if self.time_limit is not None:
            return self.time_limit
        return self.adapter.time_limit(game)

    def ready_host(self, game) -> Host:
        """The live process, started (and the file loaded) if need be; ``Forfeit`` if it cannot."""
        with self.lock:
            if self.host is None or not self.host.alive:
                if self.host is not None:
                    self.host.kill()
                self.host = Host(self.game_id, self.path, self.function, dict(game.settings), self.memory,
                                 self.log_path, self.sandbox)
                try:
                    self.host.start()
                except Forfeit:
                    self.host = None
                    raise
            return self.host

    def discard(self) -> None:
        with self.lock:
            if self.host is not None:
                self.host.kill()
                self.host = None

    close = discard

    def probe(self, game) -> str | None:
        """Start the process and load the file: ``None`` if that works, else what went wrong (and
        where the bot's output went)."""
        try:
            self.ready_host(game)
        except Forfeit as exc:
            why = exc.detail if exc.wording == ERROR and exc.detail else exc
            return f"cannot load bot {self.spec!r}: {why} (details in {self.log_path})"
        return None

    def ask(self, game, state, ctx: Context, seed: int | None) -> Any:
        """The bot's move in ``state`` (our move), or ``Forfeit``.

        The arcade keeps the clock: a move takes the round trip on the arcade's monotonic clock,
        or the CPU time the bot's processes used for it where that is more (threads); nothing the
        bot's process says changes it. The checks come in the course's order: an error, then the
        time, then the move."""
        limit = self.limit(game, ctx)
        with self.lock:
            host = self.ready_host(game)
            if seed is not None and not host.send({"op": "seed", "seed": seed}):
                return self._lost(host)
            args = self.adapter.request(game, state)
            cpu_before = host.cpu_seconds()
            start = time.monotonic()
            reply = host.exchange({"op": "move", "args": args}, limit + grace(limit), ctx.cancelled)
            seconds = max(time.monotonic() - start, host.cpu_seconds() - cpu_before)
            if reply == "cancelled":
                self.discard()
                return None
            if reply is None:
                self.discard()
                raise Forfeit(took_too_long(limit), f"no answer after {limit + grace(limit):g}s; stopped", Termination.TIME)
            if reply == "eof":
                return self._lost(host)
            kind = None if reply.get("ok") else reply.get("kind")
            detail = str(reply.get("detail", ""))
            if kind == "memory":
                self.discard()
                raise Forfeit(MEMORY, memory_text(self.memory or 0), Termination.MEMORY)
            if kind in ("error", "exit"):
                if kind == "exit":
                    self.discard()
                raise Forfeit(ERROR, detail)
            if seconds > limit:
                self.discard()  # whatever else it sent stays behind with it: the next game starts clean
                raise Forfeit(took_too_long(limit), f"{seconds * 1000:.0f} ms", Termination.TIME)
        if not reply.get("ok"):
            raise Forfeit(INVALID, detail, Termination.INVALID)
        from bots.adapters import WrongAnswer

        try:
            return self.adapter.to_move(game, state, reply["move"])
        except (WrongAnswer, KeyError) as exc:
            raise Forfeit(INVALID, str(exc), Termination.INVALID) from None

    def _lost(self, host: Host) -> None:
        text = host.exit_text()
        self.discard()
        raise Forfeit(ERROR, text, Termination.CRASH)  # the process died: a signal or a hard exit


class ExternalBot(Bot):
    """One game's player backed by a ``FileBotSource``."""

    def __init__(self, game, source: FileBotSource) -> None:
        super().__init__(game)
        self.source = source
        self.seeded = False

    def choose(self, state, ctx: Context):
        seed = None
        if not self.seeded:
            seed = ctx.rng.getrandbits(63)
            self.seeded = True
        move = self.source.ask(self.game, state, ctx, seed)
        if move is None:  # cancelled: the answer is no longer wanted
            return self.game.legal_moves(state)[0]
        return move


@dataclass(frozen=True)
class ExternalEntry(BotEntry):
    """A ``BotEntry`` for a file bot; ``close()`` kills its process (the match runner calls it)."""

    source: FileBotSource | None = field(default=None, compare=False)

    def close(self) -> None:
        if self.source is not None:
            self.source.close()

    def probe(self, game) -> str | None:
        return self.source.probe(game) if self.source is not None else None


def file_entry(game_id: str, spec: str, time_limit: float | None = None,
               memory: int | None = DEFAULT_MEMORY, logs: Path | None = None, sandbox: str = "none") -> ExternalEntry:
    """The ``BotEntry`` of file bot ``spec`` for ``game_id`` in ``sandbox`` (``bwrap`` or
    ``none``, as ``bots.sandbox.choose`` decided); ``BadSpec`` if it names no file."""
    source = FileBotSource(game_id, spec, time_limit=time_limit, memory=memory, logs=logs, sandbox=sandbox)
    return ExternalEntry(
        name=spec,
        description=f"your {source.adapter.signature} from {source.path.name} (output: {source.log_path})",
        factory=lambda game: ExternalBot(game, source),
        source=source,
    )


def close_entry(entry: BotEntry) -> None:
    """Kill a file bot's process (nothing for a built-in bot): ``entry.close()``."""
    entry.close()


# -- the bot's process, inside ---------------------------------------------------------------------

def child_main() -> None:
    """The bot's process: answer the arcade's JSON lines until its pipe closes."""
    import errno
    import importlib.util
    import random
    import traceback

    # the arcade's pid (0 in the sandbox: there the parent is bwrap's, and bwrap dies with the arcade)
    parent = (int(sys.argv[2]) if len(sys.argv) > 2 else 0) or os.getppid()

    def watchdog() -> None:  # the arcade died without killing us (SIGKILL, a crash): stop too
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(70)

    if os.getppid() != parent:
        os._exit(70)
    threading.Thread(target=watchdog, daemon=True).start()

    proto_in = os.fdopen(os.dup(0), "rb", buffering=0)
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)  # the bot's prints go to the log (stderr is the log file)

    def reply(message: dict) -> None:
        proto_out.write(json.dumps(message) + "\n")
        proto_out.flush()

    def log_exception(what: str) -> str:
        print(f"--- {what}:", file=sys.stderr)
        traceback.print_exc(file=sys.stderr)
        kind, value = sys.exc_info()[:2]
        text = traceback.format_exception_only(kind, value)[-1].strip()  # one line
        if isinstance(value, SyntaxError) and value.lineno:
            text += f" ({Path(value.filename or '?').name}, line {value.lineno})"
        return text

    fn = None
    adapter = None
    reader = proto_in
    pending = b""
    while True:
        while b"\n" not in pending:
            chunk = reader.read(1 << 16)
            if not chunk:
                return
            pending += chunk
        line, _, pending = pending.partition(b"\n")
        message = json.loads(line)
        op = message.get("op")
        if op == "load":
            if message.get("memory"):
                import resource

                cap = int(message["memory"])
                resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
            if message.get("processes"):  # in the sandbox: counted in its own user namespace
                import resource

                cap = int(message["processes"])
                resource.setrlimit(resource.RLIMIT_NPROC, (cap, cap))
            try:
                import resource

                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            except (ImportError, ValueError, OSError):
                pass
            path = Path(message["path"])
            try:
                from bots.adapters import adapter_for

                adapter = adapter_for(message["game"])
                sys.path.insert(0, str(path.parent))
                spec = importlib.util.spec_from_file_location(f"arcade_bot_{path.stem}", path)
                if spec is None or spec.loader is None:
                    raise ImportError(f"cannot import {path.name}")
                module = importlib.util.module_from_spec(spec)
                sys.modules[spec.name] = module
                spec.loader.exec_module(module)
                fn = getattr(module, message["function"], None)
                if fn is None:
                    names = [n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                             and getattr(v, "__module__", None) == spec.name]
                    raise LookupError(
                        f"{path.name} has no function {message['function']!r}"
                        + (f"; its functions: {', '.join(names)}" if names else "")
                    )
                if not callable(fn):
                    raise TypeError(f"{message['function']!r} in {path.name} is not a function")
            except MemoryError:
                fn = None
                reply({"ok": False, "kind": "memory", "detail": "MemoryError"})
                continue
            except BaseException as exc:  # noqa: BLE001 - any failure to load is reported
                fn = None
                detail = log_exception("loading failed")
                if isinstance(exc, (LookupError, TypeError)) and not isinstance(exc, KeyError):
                    detail = str(exc)
                reply({"ok": False, "kind": "error", "detail": detail})
                continue
            reply({"ok": True})
        elif op == "seed":
            random.seed(message["seed"])
            numpy = sys.modules.get("numpy")
            if numpy is not None:
                try:
                    numpy.random.seed(message["seed"] % (1 << 32))
                except Exception:  # noqa: BLE001
                    pass
        elif op == "move":
            if fn is None or adapter is None:
                reply({"ok": False, "kind": "error", "detail": "no function loaded"})
                continue
            start = time.perf_counter()
            try:
                value = adapter.call(fn, message["args"])
            except (MemoryError, OSError) as exc:
                seconds = time.perf_counter() - start
                if isinstance(exc, OSError) and exc.errno != errno.ENOMEM:
                    detail = log_exception("the strategy raised")
                    reply({"ok": False, "kind": "error", "seconds": seconds, "detail": detail})
                    continue
                log_exception("out of memory (the memory cap)")
                reply({"ok": False, "kind": "memory", "seconds": seconds})
                continue
            except SystemExit as exc:
                seconds = time.perf_counter() - start
                log_exception("the strategy called exit")
                reply({"ok": False, "kind": "exit", "seconds": seconds, "detail": f"it called exit({exc.code!r})"})
                return
            except BaseException:  # noqa: BLE001 - the course forfeits on any error
                seconds = time.perf_counter() - start
                detail = log_exception("the strategy raised")
                reply({"ok": False, "kind": "error", "seconds": seconds, "detail": detail})
                continue
            seconds = time.perf_counter() - start
            from bots.adapters import WrongAnswer

            try:
                answer = adapter.answer(value)
                text = json.dumps({"ok": True, "move": answer, "seconds": seconds})
            except (WrongAnswer, TypeError, ValueError) as exc:
                reply({"ok": False, "kind": "invalid", "seconds": seconds, "detail": str(exc)})
                continue
            finally:
                sys.stdout.flush()
            proto_out.write(text + "\n")
            proto_out.flush()


if __name__ == "__main__":
    child_main()
