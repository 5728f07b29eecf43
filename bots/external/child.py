"""The bot's end of the wire: the process that loads a student's file and answers the arcade.

It runs ``child_main`` (``python -u -c`` ``bots.external.transport.CHILD_CODE``). Before anything
of the bot's runs, it moves the protocol to private descriptors and points its standard output
at its standard error (the bot's log), standard input at ``/dev/null``, and watches for the
arcade's death. Then ``Child`` answers each request with the handler of its kind.

Warm bots, each game from the same state: once the file is loaded, the process is a zygote. At
each game's ``NewGame`` it forks the game's process (``Child.on_new_game``), which answers that
game's requests and exits at the next ``NewGame``; the loaded process only waits for it, so every
game starts from the state the file's loading left (its globals, its ``random``), never from the
last game's. The fork is in the same sandbox, cgroups and rlimits as the loaded process; a process
that runs threads of its own (a pool started while loading) is not forked, since a fork copies
only the thread that calls it: it plays its games itself, as before.
"""

from __future__ import annotations

import errno
import functools
import os
import sys
import threading
import time
import traceback
from dataclasses import replace
from pathlib import Path
from typing import Any, BinaryIO, Callable

from bots.external.wire import (MAX_LINE, PART, Exited, Failed, Invalid, Lines, Load, Loaded, Move, MoveMany, Moved,
                                MovedMany, NewGame, OutOfMemory,
                                    ProtocolError, Reply, Request, Seed, Started, decode, encode)

MAX_DETAIL = 2000
"""Characters of a fault's detail sent to the arcade at most (an exception's message can be
megabytes; the whole of it is in the log)."""


def log_exception(what: str, cells: str = "") -> str:
    """Print the exception being handled to the log under ``what``; its last line, for the
    arcade (with the file and line of a syntax error; with ``cells``, a notebook's name, the
    notebook's cell and line where it was raised: ``robot_ludo.ipynb, cell 5, line 2``)."""
    print(f"--- {what}:", file=sys.stderr)
    traceback.print_exc(file=sys.stderr)
    kind, value, trace = sys.exc_info()
    text = traceback.format_exception_only(kind, value)[-1].strip()  # one line
    if isinstance(value, SyntaxError) and value.lineno:
        text += f" ({Path(value.filename or '?').name}, line {value.lineno})"
    elif cells:
        inside = [frame for frame in traceback.extract_tb(trace) if frame.filename.startswith(f"{cells}, cell ")]
        if inside:
            text += f" ({inside[-1].filename}, line {inside[-1].lineno})"
    return text


MEMORY_SIGNS = ("failed to map segment from shared object", "cannot allocate memory", "memory allocation",
                "out of memory", "memoryerror", "std::bad_alloc", "cannot allocate thread-local", "memory exhausted",
                "cannot allocate vector of size")
"""What a library says, in its own words, when the memory cap stops it (lower case): the dynamic
loader mapping a shared object (numpy's OpenBLAS: ``failed to map segment from shared object``,
in an ``ImportError``), ``ENOMEM``'s text, OpenBLAS's own allocator, C++'s ``bad_alloc``, R's
``Error: cannot allocate vector of size 21 Kb``."""


def memory_sign(text: str) -> str | None:
    """The line of ``text`` that says memory ran out (``MEMORY_SIGNS``), ``None`` if none does."""
    for line in text.splitlines():
        if any(sign in line.lower() for sign in MEMORY_SIGNS):
            return line.strip().lstrip("|").strip()  # a log's lines of output begin "| "
    return None


def out_of_memory(exc: BaseException) -> str | None:
    """Whether ``exc`` (or an exception it was raised from, or during) is the memory cap
    reached: ``MemoryError``, ``ENOMEM``, or a library's words for it (``memory_sign``: numpy's
    ``ImportError`` ends with "Original error was: ….so: failed to map segment from shared
    object"). Its line that says so, else ``None``."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, MemoryError) or (isinstance(exc, OSError) and exc.errno == errno.ENOMEM):
            return f"{type(exc).__name__}: {exc}".rstrip(": ")
        sign = memory_sign(str(exc))
        if sign is not None:
            return f"{type(exc).__name__}: {sign}" if not sign.startswith(type(exc).__name__) else sign
        exc = exc.__cause__ or exc.__context__
    return None


def set_caps(memory: int | None, processes: int | None) -> None:
    """The memory cap (``RLIMIT_AS``), the process cap (``RLIMIT_NPROC``: in the sandbox, counted
    in its own user namespace) and no core files, before the bot's file runs."""
    import resource

    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    if processes:
        resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ValueError, OSError):
        pass


def load_module(path: Path, package: str | None = None):
    """Execute the bot's file as a module named ``arcade_bot_<name>`` (never ``__main__``: its
    ``if __name__ == "__main__"`` part does not run). With ``package``, the file's folder is loaded
    first as that package (its ``__init__.py``), so the file's relative imports (``from .helper
    import f``) work, and the file is its submodule."""
    import importlib
    import importlib.util

    def execute(name: str, file: Path, locations: list[str] | None = None):
        spec = importlib.util.spec_from_file_location(name, file, submodule_search_locations=locations)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot import {file.name}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module

    if package is None:
        return execute(f"arcade_bot_{path.stem}", path)
    name = f"arcade_bot_{package}"
    top = execute(name, path.parent / "__init__.py", [str(path.parent)])
    return top if path.name == "__init__.py" else importlib.import_module(f"{name}.{path.stem}")


def notebook_module(path: Path, cells: list):
    """A notebook's code cells (``[label, source]``, read by the arcade) run in order as one
    module named ``arcade_bot_<name>`` (never ``__main__``), each compiled under its own name
    (``instructions.ipynb, cell 12``) so that a traceback names the cell and shows its line."""
    import linecache
    import types

    module = types.ModuleType(f"arcade_bot_{path.stem}")
    module.__file__ = str(path)
    sys.modules[module.__name__] = module
    for label, source in cells:
        name = f"{path.name}, {label}"
        linecache.cache[name] = (len(source), None, source.splitlines(True), name)
        exec(compile(source, name, "exec"), module.__dict__)  # noqa: S102 - the bot's own code, in its process
    return module


def load_function(path: Path, function: str, adapter, package: str | None = None, cells: list | None = None) -> Callable:
    """``function`` from the file at ``path`` (``load_module``), its folder first on ``sys.path``,
    then the packages ``arcade bot install`` put in its ``.deps`` (before the arcade's own, so a
    bot's ``numpy<2`` is the numpy it gets), and the courses' helper modules last
    (``bots/course_modules/``: ``from dice import six_sided``, ``from state import getmoves``; the
    bot's own ``dice.py`` wins). Without the name asked for, the game's other default names are
    tried (``Adapter.find_function``). ``function`` may be an entry (``bots.external.entry``):
    ``TDPlayer(color=0).make_a_move`` builds the object here and takes its method; a class the
    game's course plays by a method (Toothpick Takeaway's ``Player``) is made and its method taken.
    A notebook's ``cells`` (``path`` is the notebook) run instead of a file (``notebook_module``)."""
    from bots import course_modules_path, deps_folder

    sys.path.insert(0, str(path.parent))
    deps = deps_folder(path)  # the one rule: the bot's own folder's (a package's: the package's)
    if deps.is_dir():
        sys.path.insert(1, str(deps))
    sys.path.append(course_modules_path())
    from bots.external.entry import parse_entry

    entry = parse_entry(function)  # checked by the arcade already (an EntryError is a ValueError)
    module = notebook_module(path, cells) if cells is not None else load_module(path, package)
    found = adapter.find_function(module, entry.name)
    if found is None:
        names = [n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                 and getattr(v, "__module__", None) == module.__name__]
        raise LookupError(f"{path.name} has no function {entry.name!r}"
                          + (f"; its functions: {', '.join(names)}" if names else ""))
    fn = entry.build(found)  # an object's method: its class's code runs here, in the bot's process
    if isinstance(fn, type) and adapter.player_method:
        fn = adapter.from_class(fn)  # the course's player class (the notebook's Player): its method
    if not callable(fn):
        raise TypeError(f"{function!r} in {path.name} is not a function")
    return fn


NEXT_GAME = 75
"""The exit status of a game's process that read the next ``NewGame``: the loaded process forks
the next game's. Any other end of a game's process (a crash, the bot's ``exit``, the end of the
arcade's pipe) ends the loaded process the same way, so the arcade sees the process end as before."""

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4


def die_with_parent() -> None:
    """``SIGKILL`` this process when its parent ends (``prctl(PR_SET_PDEATHSIG)``): a game's
    process with its loaded process, and in the sandbox the loaded process with bwrap's, without
    a thread of its own (a thread counts against ``RLIMIT_NPROC``)."""
    import signal

    parent = os.getppid()
    prctl = _prctl()
    if prctl is not None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(70)


@functools.lru_cache(maxsize=1)
def _prctl():
    """libc's ``prctl`` (``None`` where it cannot be had), found once: in the loaded process,
    so that a game's process does not pay for ``ctypes`` at its start."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def own_threads() -> int:
    """The threads of this process other than the arcade's watchdog (``watch_parent``): from
    ``/proc/self/task`` (a library's native threads too), else Python's count."""
    try:
        count = len(os.listdir("/proc/self/task"))
    except OSError:
        count = threading.active_count()
    return count - (WATCHDOG is not None and WATCHDOG.is_alive())


MOVED_BYTES = len(encode(Moved(0))) - 1
"""A ``Moved``'s line but for its move's digits."""


class Child:
    """The bot's process's state (the adapter and the loaded function) and one handler per
    request. ``send`` is how an answer leaves; ``handle`` returns ``False`` when the process must
    end (the function called ``exit``). ``fork`` is ``os.fork`` (a test gives another)."""

    def __init__(self, send: Callable[[Reply], None], fork: Callable[[], int] = os.fork) -> None:
        self.send = send
        self.fn: Callable | None = None
        self.adapter: Any = None
        self.fork = fork
        self.in_game = False
        """Whether this is a game's process (forked at ``NewGame``), not the loaded one."""

    def reply(self, message: Reply) -> None:
        """Send ``message``, its detail (if any) cut to ``MAX_DETAIL`` characters."""
        detail = getattr(message, "detail", "")
        if len(detail) > MAX_DETAIL:
            message = replace(message, detail=detail[:MAX_DETAIL] + "…")
        self.send(message)

    def handle(self, request: Request) -> bool:
        handler = {Load: self.on_load, NewGame: self.on_new_game, Seed: self.on_seed,
                   Move: self.on_move, MoveMany: self.on_move_many}.get(type(request))
        if handler is None:  # an answer's kind: the arcade never sends one
            raise ProtocolError(f"a {request.kind} message sent to the bot")
        return handler(request) is not False

    def on_load(self, request: Load) -> None:
        self.fn = None
        try:  # the arcade's own code for the game, loaded before the caps: they are the bot's
            from bots.adapters import adapter_for

            self.adapter = adapter_for(request.game)
        except BaseException as exc:  # noqa: BLE001 - an unknown game: said as a load failure
            self.reply(Failed(f"{type(exc).__name__}: {exc}"))
            return
        set_caps(request.memory, request.processes)
        try:
            fn = load_function(Path(request.path), request.function, self.adapter, request.package, request.cells)
        except BaseException as exc:  # noqa: BLE001 - any failure to load is reported
            try:
                detail = log_exception("loading failed", Path(request.path).name if request.cells is not None else "")
            except MemoryError:
                detail = "MemoryError"
            memory = out_of_memory(exc)
            if memory is not None:  # the cap reached while loading (a library mapped, a table built)
                self.reply(OutOfMemory(memory))
                return
            if isinstance(exc, (LookupError, TypeError)) and not isinstance(exc, KeyError):
                place = detail.rpartition(" (")[2] if request.cells is not None and ", cell " in detail else ""
                detail = str(exc) + (f" ({place}" if place else "")
            self.reply(Failed(detail))
            return
        self.fn = fn
        self.reply(Loaded())

    def on_new_game(self, request: NewGame) -> None:
        """A game starts. A game's process ends here (its game is over: the loaded process forks
        the next). The loaded process forks the game's process and waits for it: the game's
        process answers ``Started`` and serves the game; when it exits with ``NEXT_GAME`` the
        loaded process forks the next game's, and when it ends any other way the loaded process
        ends the same way. With threads of its own, or where the fork fails (``RLIMIT_NPROC``),
        the loaded process answers ``Started(forked=False)`` and plays the game itself."""
        if self.in_game:
            _flush()
            os._exit(NEXT_GAME)
        if self.fn is None or own_threads() > 1:
            self.reply(Started(forked=False))
            return
        import gc
        import importlib
        import signal

        prctl = _prctl()
        if prctl is not None:  # no game's process may write the loaded one's memory (/proc/PID/mem)
            prctl(PR_SET_DUMPABLE, 0)
        try:  # what the adapter imports at a call (the game's Board): once here, not in every game
            importlib.import_module(f"games.{self.adapter.game_id}")
        except Exception:  # noqa: BLE001 - a game's process imports it then, as before
            pass
        gc.freeze()  # the loaded objects: no collection touches (copies) their pages in a game's process
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP})
        while True:  # the loaded process runs none of the bot's code from here: no signal handler either
            _flush()
            try:
                pid = self.fork()
            except OSError:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
                self.reply(Started(forked=False))
                return
            if pid == 0:  # the game's process
                self.in_game = True
                if prctl is not None:
                    prctl(PR_SET_DUMPABLE, 1)  # as the one process was (its own /proc files its own)
                die_with_parent()
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
                self.reply(Started())
                return
            _, status = os.waitpid(pid, 0)
            if os.WIFEXITED(status) and os.WEXITSTATUS(status) == NEXT_GAME:
                continue
            _end_as(status)

    def on_seed(self, request: Seed) -> None:
        """Seed the global ``random`` and numpy's (if the bot loaded it): no answer."""
        import random

        random.seed(request.seed)
        numpy = sys.modules.get("numpy")
        if numpy is not None:
            try:
                numpy.random.seed(request.seed % (1 << 32))
            except Exception:  # noqa: BLE001
                pass

    def on_move(self, request: Move) -> bool:
        """Call the function through the adapter; answer its move or its fault. ``False`` after
        an ``exit``. (The arcade times the call, on its own clock.)"""
        reply, go_on, _ = self.call(request.args)
        self.reply(reply)
        return go_on

    def on_move_many(self, request: MoveMany) -> bool:
        """Call the function at each of the request's positions in turn, as ``on_move`` would;
        send the answers in ``MovedMany`` parts of about ``PART`` bytes, and at a fault the parts
        so far, then the fault (the positions after it are not called). ``False`` after an
        ``exit``."""
        part: list = []
        size = 0
        for args in request.args:
            reply, go_on, length = self.call(args)
            if not isinstance(reply, Moved):
                if part:
                    self.reply(MovedMany(part))
                self.reply(reply)
                return go_on
            if part and size + length > PART:
                self.reply(MovedMany(part))
                part, size = [], 0
            part.append(reply.move)
            size += length
        self.reply(MovedMany(part))
        return True

    def call(self, args: list) -> tuple[Reply, bool, int]:
        """The function called with ``args`` through the adapter: its answer (``Moved``, else
        ``Invalid``) or its fault, ``False`` after an ``exit``, and the answer's bytes on the wire."""
        if self.fn is None or self.adapter is None:
            return Failed("no function loaded"), True, 0
        try:
            value = self.adapter.call(self.fn, args)
        except (MemoryError, OSError) as exc:
            if isinstance(exc, OSError) and exc.errno != errno.ENOMEM:
                return Failed(log_exception("the strategy raised")), True, 0
            log_exception("out of memory (the memory cap)")
            return OutOfMemory(), True, 0
        except SystemExit as exc:
            log_exception("the strategy called exit")
            return Exited(f"it called exit({exc.code!r})"), False, 0
        except BaseException:  # noqa: BLE001 - the course forfeits on any error
            return Failed(log_exception("the strategy raised")), True, 0
        reply, size = self.answer(value)
        return reply, True, size

    def answer(self, value: Any) -> tuple[Moved | Invalid, int]:
        """The function's return value as the answer: ``Moved`` if the adapter takes it and it
        can be sent (in a ``MovedMany`` part too), else ``Invalid``; and its line's bytes. The
        bot's prints are flushed to the log first."""
        from bots.adapters import WrongAnswer

        try:
            move = Moved(self.adapter.answer(value))
            if type(move.move) is int and -1 << 64 < move.move < 1 << 64:  # a number of dice, a column: no check needed
                return move, MOVED_BYTES + len(str(move.move))
            size = len(encode(move))  # a ProtocolError (a ValueError) here: no JSON value, or too long
            if size > MAX_LINE - 32:  # no room in a MovedMany part
                raise ValueError(f"an answer over {MAX_LINE >> 20} MiB")
            return move, size
        except (WrongAnswer, TypeError, ValueError) as exc:
            return Invalid(str(exc)), 0
        finally:
            sys.stdout.flush()


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass


def _end_as(status: int) -> None:
    """End this process as a game's process ended (its ``waitpid`` status): killed by the same
    signal, or exited with the same status."""
    import signal

    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        for step in (lambda: signal.signal(number, signal.SIG_DFL),
                     lambda: signal.pthread_sigmask(signal.SIG_UNBLOCK, {number}),
                     lambda: os.kill(os.getpid(), number)):
            try:
                step()
            except (OSError, ValueError):  # SIGKILL's action cannot be set: it needs none
                pass
        os._exit(128 + number)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 70)


def serve(child: Child, source: BinaryIO) -> None:
    """Answer requests read from ``source`` until it closes or ``child`` says stop. A line that
    is no request raises ``ProtocolError`` (only the arcade writes there): the process ends."""
    lines = Lines()
    while True:
        line = lines.next()
        if line is None:
            chunk = source.read(1 << 16)
            if not chunk:
                return
            lines.feed(chunk)
            continue
        if not child.handle(decode(line)):
            return


WATCHDOG_STACK = 256 << 10
"""The stack of the process's one thread of its own (``watch_parent``): 256 KiB, not the usual
8 MiB of address space, which ``RLIMIT_AS`` (the bot's cap, a third of it where it is split)
would count as the bot's."""


WATCHDOG: threading.Thread | None = None
"""``watch_parent``'s thread, where it runs one."""


def watch_parent() -> None:
    """End the process when the arcade dies without killing it (SIGKILL, a crash). The arcade's
    pid is ``argv[2]``: 0 in the sandbox, where the parent is bwrap's, which dies with the arcade:
    there ``PR_SET_PDEATHSIG`` (and the PID namespace, whose processes the kernel kills with its
    first) does it, without a thread, which ``RLIMIT_NPROC`` would count as one of the bot's
    processes (the loaded process and a game's fit in its count as the one process did)."""
    global WATCHDOG
    arcade = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if not arcade:
        die_with_parent()
        return
    parent = arcade

    def watchdog() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(70)

    if os.getppid() != parent:
        os._exit(70)
    threading.stack_size(WATCHDOG_STACK)  # its stack is address space the bot's cap counts
    WATCHDOG = threading.Thread(target=watchdog, daemon=True)
    WATCHDOG.start()
    threading.stack_size(0)  # the bot's own threads get the usual


def child_main() -> None:
    """The bot's process: answer the arcade's lines until its pipe closes."""
    watch_parent()
    proto_in = os.fdopen(os.dup(0), "rb", buffering=0)
    proto_out = os.dup(1)  # a packet socket (``bots.external.transport.answer_channel``)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)  # the bot's prints go to the log (stderr is the log file)

    def reply(message: Reply) -> None:
        data = memoryview(encode(message))
        while data:  # packets of at most 64 KiB: a packet socket takes no more than its buffer
            data = data[os.write(proto_out, data[:1 << 16]):]

    serve(Child(reply), proto_in)
