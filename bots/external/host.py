"""The arcade's end of the wire: a file bot's process started, loaded, asked for moves against
the clock, and its faults turned into ``Forfeit``s; the ``BotEntry`` that plays it."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence, Union

from bots.external import cgroups
from bots.base import ERROR, INVALID, MEMORY, Bot, BotEntry, Context, Forfeit, limit_text, took_too_long
from bots.external.logs import BotLog, log_dir, log_name, roll_over
from bots.external.wire import (REPLIES, Exited, Failed, Invalid, Load, Loaded, Lines, Message, Move, MoveMany, Moved,
                                MovedMany, NewGame, OutOfMemory, ProtocolError, Reply, Seed, Started, decode, encode)
from bots import DEPS_RULE
from bots.external.specs import deps_elsewhere, package_of, parse_spec, read_notebook
from bots.external.transport import Launch, ProcessTransport, Transport
from bots.limits import Limits, move_time
from games.base import Termination

UNCONTAINED = Limits(sandbox="none")
"""A file bot's limits where nobody gave any: the game's time, the default memory cap, no
sandbox (``bots.registry.admit`` settles the sandbox of a real run)."""

LOAD_TIMEOUT = 20.0
"""Seconds a bot's process has to start and load its file (its top-level code included)."""

NEW_GAME_TIMEOUT = 5.0
"""Seconds a bot's loaded process has to fork a game's process and answer ``Started``."""

POLL = 0.05
"""Seconds between looks at ``cancelled`` while waiting for an answer."""

WINDOW = 64
"""Requests an R strategy's process holds at most when it is asked many positions in one turn
(``ask_many``): the next is written as each answer arrives, so that the bot never waits on the
arcade between two calls and neither way's buffer (the request pipe's 64 KiB, the answer
socket's) can fill."""

BATCH_BYTES = 24 << 10
"""Bytes of positions in one ``MoveMany`` at most (a Python bot's process is asked many positions
in batches; a position longer than this is a batch of its own). Two batches are in flight, so
that the bot's process reads the next while it answers one: under the request pipe's 64 KiB, a
write never waits on a bot busy answering."""


def batches(requests: list[list]) -> list[list[list]]:
    """``requests`` (a ``Move``'s arguments each) cut into ``MoveMany`` batches of at most
    ``BATCH_BYTES`` bytes of arguments, in order: as many as the first few positions' size says
    fit, each batch measured whole (one encoding of it) and halved until it fits; a position
    longer than ``BATCH_BYTES`` is a batch of its own."""
    import json

    def size(batch: list[list]) -> int:
        return len(json.dumps(batch, separators=(",", ":")))

    sample = requests[:64]
    each = max(1, size(sample) // len(sample)) if sample else 1
    step = max(1, BATCH_BYTES // each)
    cut: list[list[list]] = []
    for start in range(0, len(requests), step):
        todo = [requests[start:start + step]]
        while todo:  # a stack: the first half on top
            batch = todo.pop()
            if len(batch) > 1 and size(batch) > BATCH_BYTES:
                half = len(batch) // 2
                todo += [batch[half:], batch[:half]]
            else:
                cut.append(batch)
    return cut


def memory_text(limit: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= size:
            return f"{limit / size:g} {unit}"
    return f"{limit} bytes"


RAISE_MEMORY = "raise the cap with --memory MIB (0: no cap)"
ALL_PROCESSES = "all of its processes together"
"""What a memory forfeit adds when the bot's memory cgroup counted it (its forks, ``memfd``
files, tmpfs included)."""
"""How a run's memory cap is raised: the commands' option (``arcade.commands.common``)."""


def memory_at_load(limit: int | None, name: str, sign: str = "", split: bool = False) -> str:
    """What a bot that reached its memory cap while its file loaded (a large library mapped)
    forfeits with: that the cap was reached, the cap, what said so, and how to raise it."""
    said = f": {sign}" if sign else ""
    return f"{cap_text(limit, split)}, reached while loading {name}{said}; {RAISE_MEMORY}"


def cap_text(limit: int | None, split: bool = False) -> str:
    """The memory cap in words: ``160 MiB``, or where it is split over the bot's processes
    (``cgroups.process_caps``) ``53 MiB a process, 160 MiB over 3`` (the share rounded down)."""
    if not split or not limit:
        return memory_text(limit or 0)
    share = limit // cgroups.SPLIT
    share -= share % (1 << 20) if share >= 1 << 20 else 0
    return f"{memory_text(share)} a process, {memory_text(limit)} over {cgroups.SPLIT}"


LOG_LOOK = 8192
"""Bytes at the end of a bot's log read for a sign that its process died of the memory cap."""


def log_memory_sign(path: Path) -> str | None:
    """The line near the end of the log at ``path`` that says memory ran out (a library that
    exits on its own, as OpenBLAS does: "Memory allocation still failed … giving up"), or ``None``."""
    from bots.external.child import memory_sign

    try:
        with open(path, "rb") as log:
            log.seek(0, 2)
            log.seek(max(0, log.tell() - LOG_LOOK))
            return memory_sign(log.read().decode("utf-8", "replace"))
    except OSError:
        return None


# -- what waiting for an answer can come to, besides an answer ------------------------------------

@dataclass(frozen=True)
class TimedOut:
    """No answer within the time given."""


@dataclass(frozen=True)
class Eof:
    """The process closed its end: it exited or crashed."""


@dataclass(frozen=True)
class Cancelled:
    """The caller's ``cancelled()`` became true: the answer is no longer wanted."""


@dataclass(frozen=True)
class Garbled:
    """The process sent bytes that are no answer (``detail`` says how): only a bot writing on
    the protocol's pipe itself does that, and it forfeits with an error."""

    detail: str


Outcome = Union[Reply, TimedOut, Eof, Cancelled, Garbled]


class Host:
    """One bot process seen from the arcade: start it and load the file, send requests, wait for
    answers (typed ``Outcome``s), kill it with everything it started. It talks through a
    ``Transport`` made by ``connect`` (a real process unless a test gives another) and waits on
    ``clock``."""

    def __init__(self, launch: Launch, memory: int | None,
                 connect: Callable[[Launch], Transport] = ProcessTransport,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.launch = launch
        self.memory = memory
        self.connect = connect
        self.clock = clock
        self.transport: Transport | None = None
        self.split = False
        """Whether the memory cap is split over the bot's processes (no memory cgroup holds them)."""
        self.lines = Lines()
        self.arrival: float | None = None
        """When the bytes that ended the last answer reached the arcade (the host's clock)."""
        self.cpu_mark: float | None = None
        """The last ``cpu_seconds`` reading, ``None`` once a game's process started (``cpu_at_turn``)."""

    @property
    def alive(self) -> bool:
        return self.transport is not None and self.transport.alive

    @property
    def warm(self) -> bool:
        """Whether the process forks each game from its loaded state (``NewGame``): a Python
        bot's (``bots.external.child``); an R strategy's process plays its games itself."""
        return self.launch.language == "python"

    def new_game(self) -> Outcome:
        """A game starts: the loaded process forks the game's (``NewGame``), which answers
        ``Started``; what came instead otherwise. The bot's processes must be thawed."""
        self.cpu_mark = None  # the last game's process is gone: its CPU left the tree
        return self.exchange(NewGame(), NEW_GAME_TIMEOUT)

    def start(self) -> None:
        """Start the process and load the file; ``Forfeit`` (an error) if that fails."""
        launch = self.launch
        self.transport = self.connect(launch)
        self.lines = Lines()
        bwrap = launch.sandbox == "bwrap"
        memory, processes = cgroups.process_caps(self.memory, bwrap, getattr(self.transport, "cgroup", None))
        self.split = memory != self.memory
        notebook = launch.notebook
        reply = self.exchange(
            Load(path=f"/bot/{launch.path.name}" if bwrap else str(launch.path), function=launch.function,
                 game=launch.game_id, memory=memory, processes=processes,
                 package=None if notebook is not None else package_of(launch.path),
                 cells=None if notebook is None else [list(cell) for cell in notebook.cells]),
            LOAD_TIMEOUT,
        )
        if isinstance(reply, Loaded) and not self.memory_exceeded():
            self.freeze()  # loaded: no CPU until its first turn
            return
        if self.memory_exceeded():
            self.kill()
            raise Forfeit(MEMORY, memory_at_load(self.memory, launch.path.name, ALL_PROCESSES), Termination.MEMORY)
        exit_text = self.exit_text() if isinstance(reply, Eof) else ""
        self.kill()  # the log's end written (its pump waited for)
        raise self._load_failure(reply, exit_text)

    def _load_failure(self, reply: Outcome, exit_text: str = "") -> Forfeit:
        name = self.launch.path.name
        if isinstance(reply, TimedOut):
            return Forfeit(ERROR, f"could not load {name} within {LOAD_TIMEOUT:g}s")
        if isinstance(reply, OutOfMemory):
            return Forfeit(MEMORY, memory_at_load(self.memory, name, reply.detail, self.split), Termination.MEMORY)
        if isinstance(reply, Eof):
            sign = log_memory_sign(self.launch.log.path) if self.memory else None
            if sign is not None:  # the process ended itself for want of memory
                return Forfeit(MEMORY, memory_at_load(self.memory, name, f"{sign} ({exit_text})", self.split),
                               Termination.MEMORY)
            return Forfeit(ERROR, f"could not load {name}: {exit_text}")
        detail = getattr(reply, "detail", "") or _unexpected(reply)
        elsewhere = deps_elsewhere(self.launch.path) if "ModuleNotFoundError" in detail else None
        if elsewhere is not None:  # installed for a folder above the bot's: say the rule
            detail += f" ({elsewhere} is not this bot's: {DEPS_RULE}; run arcade bot install {self.launch.path.parent})"
        return Forfeit(ERROR, f"could not load {name}: {detail}")

    def kill(self) -> None:
        """Kill the process and everything it started (its process group); wait for it."""
        if self.transport is not None:
            self.transport.close()
            self.transport = None

    def memory_exceeded(self) -> bool:
        """Whether all of the bot's processes together went over its memory cap (its memory
        cgroup's; ``False`` where there is none)."""
        exceeded = getattr(self.transport, "memory_exceeded", None)
        return exceeded is not None and exceeded()

    def freeze(self) -> None:
        """Stop every process of the bot until ``thaw``: between its turns it gets no CPU."""
        if self.transport is not None:
            self.transport.freeze()

    def thaw(self) -> None:
        """Let the bot's processes go on: before a request, never counted in its time."""
        if self.transport is not None:
            self.transport.thaw()

    def cpu_seconds(self) -> float:
        """CPU seconds used so far by the bot's process and everything it started (measured on
        the arcade's side; 0 where it cannot be read)."""
        self.cpu_mark = self.transport.cpu_seconds() if self.transport is not None else 0.0
        return self.cpu_mark

    def cpu_at_turn(self) -> float:
        """``cpu_seconds`` at the start of a turn: the reading that ended the last turn, where
        there was one since the process (or its game's process) started, since the bot was frozen
        from then on and used none (a read saved a move: with no cgroup, a walk of ``/proc``)."""
        return self.cpu_mark if self.cpu_mark is not None else self.cpu_seconds()

    def exit_text(self) -> str:
        """How the process ended, for an ``Eof``: its exit status or the signal that killed it."""
        return self.transport.exit_text() if self.transport is not None else "its process is gone"

    # -- talking -----------------------------------------------------------------------------
    def send(self, message: Message) -> bool:
        """Send ``message``; ``False`` if the process's end is closed."""
        return self.transport is not None and self.transport.write(encode(message))

    def receive(self, timeout: float, cancelled: Callable[[], bool] = lambda: False) -> Outcome:
        """The next answer, or what came instead within ``timeout`` seconds: ``TimedOut``,
        ``Eof``, ``Cancelled`` (``cancelled()`` became true) or ``Garbled``."""
        deadline = self.clock() + timeout
        while True:
            try:
                line = self.lines.next()
            except ProtocolError as exc:
                return Garbled(f"the bot's process sent {exc}")
            if line is not None:
                return _reply(line)
            left = deadline - self.clock()
            if left <= 0:
                return TimedOut()
            if cancelled():
                return Cancelled()
            if self.transport is None:
                return Eof()
            chunk = self.transport.read(min(left, POLL))
            if chunk == b"":
                return Eof()
            if chunk is not None:
                self.lines.feed(chunk)
                arrived = getattr(self.transport, "arrived", None)
                self.arrival = arrived if arrived is not None else self.clock()

    def exchange(self, message: Message, timeout: float, cancelled: Callable[[], bool] = lambda: False) -> Outcome:
        """Send ``message`` and wait for its answer (``Eof`` if it cannot be sent)."""
        return self.round_trip(message, timeout, cancelled)[0]

    def round_trip(self, message: Message, timeout: float,
                   cancelled: Callable[[], bool] = lambda: False) -> tuple[Outcome, float]:
        """``exchange``, and the bot's own round trip in seconds: from the moment the request
        was written to the moment its answer reached the arcade (``Transport.arrived``), not
        to the moment the arcade came to read it. A busy arcade (a screen drawing, another
        thread holding the GIL) is not the bot's time; without an answer, up to now."""
        data = encode(message)
        before = self.clock()
        if self.transport is None or not self.transport.write(data):
            return Eof(), self.clock() - before
        written = getattr(self.transport, "written", None)
        start = before if written is None else max(before, written)
        self.arrival = None
        outcome = self.receive(timeout, cancelled)
        end = self.clock()
        answered = end
        if self.arrival is not None and isinstance(outcome, REPLIES + (Garbled,)):
            answered = min(max(self.arrival, start), end)
        return outcome, answered - start


def _reply(line: bytes) -> Outcome:
    """A line from the bot's process as an answer, or ``Garbled``."""
    try:
        message = decode(line)
    except ProtocolError as exc:
        return Garbled(f"the bot's process garbled its answer ({exc})")
    if not isinstance(message, REPLIES):
        return Garbled(f"the bot's process garbled its answer (a {message.kind} request)")
    return message


def _unexpected(reply: Outcome) -> str:
    return f"the bot's process garbled its answer (an unexpected {getattr(reply, 'kind', 'answer')})"


# -- the bot, seen from the match runner ----------------------------------------------------------

class FileBotSource:
    """A file bot for one game: its spec, limits and log, and the process that serves it.

    One process at a time serves every game the source's bots play (they ask in turn); ``close``
    kills it. ``limits`` (``bots.limits``) give its time a move (a move's ``Context.time_limit``
    comes first), the grace, the memory cap (bytes, ``None``: no cap) and the sandbox, settled to
    ``bwrap`` or ``none``. ``connect`` and ``clock`` are the host's (a test gives a
    ``MemoryTransport``'s)."""

    def __init__(self, game_id: str, spec: str, limits: Limits = UNCONTAINED, logs: Path | None = None, *,
                 connect: Callable[[Launch], Transport] = ProcessTransport,
                 clock: Callable[[], float] = time.monotonic) -> None:
        from bots.adapters import adapter_for

        if limits.sandbox not in ("bwrap", "none"):
            raise ValueError(f"a file bot's sandbox must be settled (bwrap or none), not {limits.sandbox!r}")
        self.limits = limits
        self.game_id = game_id
        self.spec = spec
        self.path, self.function = parse_spec(spec, game_id)
        self.notebook = read_notebook(self.path, self.function, spec)
        """A notebook's reading (its language, the cells that play), read once: ``None`` for a file of code."""
        self.adapter = adapter_for(game_id)
        self.log_path = (logs or log_dir()) / log_name(self.path, self.function, package_of(self.path))
        self.log = BotLog(self.log_path)
        self.rolled = False
        """Whether the log was rolled over: when the first process starts, never after."""
        self.connect = connect
        self.clock = clock
        self.lock = threading.RLock()
        self.host: Host | None = None

    @property
    def sandbox(self) -> str:
        """``bwrap`` or ``none``: the limits' (one owner: ``limits``)."""
        return self.limits.sandbox

    @property
    def memory(self) -> int | None:
        """The memory cap in bytes (``None``: none): the limits'."""
        return self.limits.memory

    def limit(self, game, ctx: Context | None = None) -> float:
        """This move's seconds: the move's ``Context.time_limit``, else the limits' time, else the
        game's default (``bots.limits.move_time``)."""
        if ctx is not None and ctx.time_limit is not None:
            return ctx.time_limit
        return move_time(game, self.limits.time)

    def grace(self, limit: float) -> float:
        """Seconds past ``limit`` before a silent bot is stopped (``Limits.grace_for``)."""
        return self.limits.grace_for(limit)

    def ready_host(self, game) -> Host:
        """The live process, started (and the file loaded) if need be; ``Forfeit`` if it cannot."""
        with self.lock:
            if self.host is None or not self.host.alive:
                if self.host is not None:
                    self.host.kill()
                if not self.rolled:  # the match starts: an old log moves aside; this match's stays
                    roll_over(self.log_path)
                    self.rolled = True
                launch = Launch(self.game_id, self.path, self.function, self.log, self.sandbox, self.memory,
                                self.notebook)
                self.host = Host(launch, self.memory, self.connect, self.clock)
                try:
                    self.host.start()
                except Forfeit:
                    self.host = None
                    raise
            return self.host

    def discard(self) -> None:
        """Kill the process (the next request starts a fresh one, writing on in the same log)."""
        with self.lock:
            if self.host is not None:
                self.host.kill()
                self.host = None

    def close(self) -> None:
        """Kill the process and release the log: the match is over."""
        with self.lock:
            self.discard()
            self.log.close()

    def probe(self, game) -> str | None:
        """Start the process and load the file: ``None`` if that works, else what went wrong (and
        where the bot's output went)."""
        try:
            self.ready_host(game)
        except Forfeit as exc:
            why = exc.detail if exc.wording == ERROR and exc.detail else exc
            return f"cannot load bot {self.spec!r}: {why} (details in {self.log_path})"
        return None

    def ask(self, game, state, ctx: Context, seed: int | None, new_game: bool = False) -> Any:
        """The bot's move in ``state`` (our move), ``None`` if ``ctx`` cancelled the request, or
        ``Forfeit``.

        The arcade keeps the clock: a move takes the bot's round trip (``Host.round_trip``: from
        the request written to the answer's arrival, stamped by the kernel, so a busy arcade is
        not charged to the bot), or the CPU time the bot's processes used for it where that is
        more (threads); nothing the bot's process says changes it. ``ctx.took`` gets the seconds.
        The bot's processes run only for its turn: thawed before the request (the clock starts
        after), frozen once the answer came. The checks come in the course's order: an error,
        then the time, then the move. ``new_game``: the game's first request of this bot, which
        starts the game's process first (``Host.new_game``: a fork of the loaded process), outside
        the move's clock."""
        limit = self.limit(game, ctx)
        with self.lock:
            host = self.ready_host(game)
            args = self.adapter.request(game, state)
            host.thaw()  # its turn: the clock starts after
            try:
                if new_game and host.warm:
                    self._started(host, host.new_game())
                if seed is not None and not host.send(Seed(seed)):
                    self._lost(host)
                cpu_before = host.cpu_at_turn()
                reply, seconds = host.round_trip(Move(args), limit + self.grace(limit), ctx.cancelled)
                seconds = max(seconds, host.cpu_seconds() - cpu_before)
            finally:
                host.freeze()  # its turn is over, whatever came (a process about to be killed too)
            ctx.took = seconds
            if host.memory_exceeded():
                self.discard()
                raise Forfeit(MEMORY, f"{memory_text(self.memory or 0)}, {ALL_PROCESSES}", Termination.MEMORY)
            if isinstance(reply, Cancelled):
                self.discard()
                return None
            self._judge(host, reply, seconds, limit)
        return self._move(game, state, reply)

    def ask_many(self, game, states: Sequence, seconds: float, seed: int | None = None) -> tuple[list, float]:
        """The bot's moves in ``states`` (our moves), asked in one turn of ``seconds`` in all
        rather than a move's time each, and the seconds it took; or ``Forfeit``. Hog's exact
        scoring asks a strategy its whole table this way (``arcade.contest.hog_exact``: the course
        asked for all 10,000 positions with no clock a move, so a strategy may spend its first
        call building a table of its own).

        A Python bot's process is asked the positions in ``MoveMany`` batches (``batches``, two in
        flight) and answers them in ``MovedMany`` parts; an R strategy's, one ``Move`` a position,
        pipelined (``WINDOW`` in flight). Either way the bot's processes are thawed once for all of
        them (``seed``, if given, is sent first, as before a game's first move), and the clock is
        the bot's whole turn: from the first request to the last answer, or the CPU its processes
        used where that is more. Past ``seconds`` it forfeits with ``Termination.TIME`` as soon as
        an answer arrives late (or the grace after ``seconds`` passes with none). A fault at one
        position forfeits as a move's does, the position's arguments in its detail; a process left
        holding requests is discarded, so that the next request starts a fresh one."""
        asked = [self.adapter.request(game, state) for state in states]
        with self.lock:
            host = self.ready_host(game)
            host.thaw()  # its turn: the clock starts after
            try:
                if seed is not None and not host.send(Seed(seed)):
                    self._lost(host)
                cpu_before = host.cpu_at_turn()
                host.arrival = None
                start = self.clock()
                exchange = self._in_batches if host.warm else self._pipelined
                answers, reply, held = exchange(host, asked, start, seconds)
                took = max((host.arrival or self.clock()) - start, host.cpu_seconds() - cpu_before)
            finally:
                host.freeze()
            if host.memory_exceeded():
                self.discard()
                raise Forfeit(MEMORY, f"{memory_text(self.memory or 0)}, {ALL_PROCESSES}", Termination.MEMORY)
            if len(answers) < len(asked) and not isinstance(reply, (TimedOut, type(None))):
                if held:
                    self.discard()  # the requests after the fault are still in its hands
                try:
                    self._judge(host, reply, 0.0, seconds)
                except Forfeit as exc:
                    raise Forfeit(exc.wording, f"{exc.detail}; asked {asked[len(answers)]}".lstrip("; "),
                                  exc.kind) from None
                raise Forfeit(INVALID, f"{reply.detail}; asked {asked[len(answers)]}", Termination.INVALID)
            if len(answers) < len(asked) or took > seconds:
                self.discard()
                raise Forfeit(f"strategy took >{limit_text(seconds)} to answer {len(asked):,} positions",
                              f"{len(answers):,} answered", Termination.TIME)
        moves = []
        for state, args, answer in zip(states, asked, answers):
            try:
                moves.append(self._move(game, state, Moved(answer)))
            except Forfeit as exc:
                raise Forfeit(exc.wording, f"{exc.detail}; asked {args}", exc.kind) from None
        return moves, took

    def _pipelined(self, host: Host, asked: list[list], start: float, seconds: float) -> tuple[list, Outcome | None, bool]:
        """``ask_many``'s exchange with a process that takes one ``Move`` at a time (``WINDOW`` in
        flight): the answers, the reply that ended them early (``None``: none did), and whether
        requests after it are still in the process's hands."""
        deadline = start + seconds + self.limits.grace_for(0.0)
        answers: list = []
        sent, reply = 0, None
        while len(answers) < len(asked):
            while sent < len(asked) and sent - len(answers) < WINDOW:
                if not host.send(Move(asked[sent])):
                    break
                sent += 1
            reply = host.receive(max(0.0, deadline - self.clock()))
            if not isinstance(reply, Moved):
                break
            answers.append(reply.move)
            reply = None
            if self.clock() - start > seconds:
                break
        return answers, reply, len(answers) < sent - 1

    def _in_batches(self, host: Host, asked: list[list], start: float,
                    seconds: float) -> tuple[list, Outcome | None, bool]:
        """``ask_many``'s exchange with a Python bot's process: ``MoveMany`` batches, two in
        flight, answered in ``MovedMany`` parts; as ``_pipelined``. A part with more answers than
        were asked is garbled."""
        deadline = start + seconds + self.limits.grace_for(0.0)
        cut = batches(asked)
        ends: list[int] = []  # where each sent batch ends among the positions
        answers: list = []
        reply: Outcome | None = None
        while len(answers) < len(asked):
            while len(ends) < len(cut) and sum(end > len(answers) for end in ends) < 2:
                if not host.send(MoveMany(cut[len(ends)])):
                    break
                ends.append((ends[-1] if ends else 0) + len(cut[len(ends)]))
            reply = host.receive(max(0.0, deadline - self.clock()))
            if isinstance(reply, Moved):  # a Move's answer where none was asked
                reply = Garbled(_unexpected(reply))
            if not isinstance(reply, MovedMany):
                break
            if len(answers) + len(reply.moves) > (ends[-1] if ends else 0):
                reply = Garbled(f"the bot's process garbled its answer ({len(answers) + len(reply.moves):,} answers "
                                f"to {ends[-1] if ends else 0:,} positions)")
                break
            answers.extend(reply.moves)
            reply = None
            if self.clock() - start > seconds:
                break
        faulted = next((end for end in ends if end > len(answers)), len(asked))
        return answers, reply, bool(ends) and ends[-1] > faulted

    def _judge(self, host: Host, reply: Outcome, seconds: float, limit: float) -> None:
        """``Forfeit`` for an error or the time, in that order; a process that cannot be trusted
        to serve the next request is discarded first."""
        match reply:
            case TimedOut():
                self.discard()
                raise Forfeit(took_too_long(limit), f"no answer after {limit + self.grace(limit):g}s; stopped",
                              Termination.TIME)
            case Eof():
                self._lost(host)
            case OutOfMemory():
                self.discard()
                raise Forfeit(MEMORY, cap_text(self.memory, host.split), Termination.MEMORY)
            case Exited(detail=detail):
                self.discard()
                raise Forfeit(ERROR, detail)
            case Failed(detail=detail) | Garbled(detail=detail):
                raise Forfeit(ERROR, detail)
            case Moved() | Invalid():
                pass
            case _:
                raise Forfeit(ERROR, _unexpected(reply))
        if seconds > limit:
            self.discard()  # whatever else it sent stays behind with it: the next game starts clean
            raise Forfeit(took_too_long(limit), f"{seconds * 1000:.0f} ms", Termination.TIME)

    def _started(self, host: Host, reply: Outcome) -> None:
        """The answer to ``NewGame``: ``Started``, else a ``Forfeit`` (the process discarded)."""
        if isinstance(reply, Started):
            return
        if isinstance(reply, Eof):
            self._lost(host)
        self.discard()
        if isinstance(reply, TimedOut):
            raise Forfeit(ERROR, f"its process did not start the game within {NEW_GAME_TIMEOUT:g}s", Termination.CRASH)
        raise Forfeit(ERROR, getattr(reply, "detail", "") or _unexpected(reply))

    def _move(self, game, state, reply: Moved | Invalid) -> Any:
        if isinstance(reply, Invalid):
            raise Forfeit(INVALID, reply.detail, Termination.INVALID)
        from bots.adapters import WrongAnswer

        try:
            return self.adapter.to_move(game, state, reply.move)
        except (WrongAnswer, TypeError, ValueError) as exc:  # a forged answer of any JSON shape
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
        """The move; the game's first request starts the game's process (``NewGame``: a fork of
        the loaded one, so that every game starts from the loaded state) and seeds it."""
        seed = None
        first = not self.seeded
        if first:
            seed = ctx.rng.getrandbits(63)
            self.seeded = True
        move = self.source.ask(self.game, state, ctx, seed, new_game=first)
        if move is None:  # cancelled: the answer is no longer wanted
            return self.game.legal_moves(state)[0]
        return move


@dataclass(frozen=True)
class ExternalEntry(BotEntry):
    """A ``BotEntry`` for a file bot; ``close()`` kills its process (the match runner calls it),
    or with ``keep`` (a tournament's worker lends it: ``arcade.tournament.worker.lend``) gives the
    source back to be kept, its loaded process frozen for the worker's next task."""

    source: FileBotSource | None = field(default=None, compare=False)
    keep: Callable[[], None] | None = field(default=None, compare=False)

    def close(self) -> None:
        if self.keep is not None:
            self.keep()
        elif self.source is not None:
            self.source.close()

    def probe(self, game) -> str | None:
        return self.source.probe(game) if self.source is not None else None


def file_entry(game_id: str, spec: str, limits: Limits = UNCONTAINED, logs: Path | None = None) -> ExternalEntry:
    """The ``BotEntry`` of file bot ``spec`` for ``game_id`` under ``limits``, their sandbox
    ``bwrap`` or ``none`` (as ``bots.registry.admit`` settled it); ``BadSpec`` if it names no file."""
    source = FileBotSource(game_id, spec, limits, logs)
    return ExternalEntry(
        name=spec,
        description=f"your {source.adapter.signature} from {source.path.name} (output: {source.log_path})",
        factory=lambda game: ExternalBot(game, source),
        source=source,
    )
