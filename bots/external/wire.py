"""The file-bot wire: the messages between the arcade and a bot's process, and the one place
bytes become messages and messages become bytes.

A message is one line: a JSON object (ASCII only, so no raw control character or newline can
hide in it) whose ``kind`` names its class, with that class's fields and no others. The arcade
sends ``Load``, then for each game ``NewGame`` (a Python bot's), ``Seed`` and ``Move`` requests;
the bot's process answers a ``Load`` with ``Loaded`` or a failure, a ``NewGame`` with ``Started``,
a ``Move`` with ``Moved`` or a failure, and a ``Seed`` with nothing. A Python bot's process is
also asked many positions in one request (``MoveMany``, a contest's table): it answers them in
order in ``MovedMany`` parts, and a failure at one position ends the parts (the positions after it
are not called).

``encode`` and ``decode`` are the only ways across. ``decode`` is total: whatever bytes it is
given (the bot's process can write anything on its pipe), it returns a message or raises
``ProtocolError`` with a short, printable reason; nothing else escapes it. ``Lines`` cuts a byte
stream into lines for it, holding at most ``MAX_LINE`` bytes of an unfinished one.
"""

from __future__ import annotations

import json
import math
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Callable, ClassVar, Union

from bots.base import printable

MAX_LINE = 4 << 20
"""Bytes of one message's line at most, its newline excluded (either way; a move and its answer
take a few hundred bytes). ``encode`` refuses a longer message, ``decode`` a longer line, and
``Lines`` stops buffering an unfinished line past it."""

MAX_DEPTH = 32
"""How deep JSON arrays and objects may nest in a message's free-form fields, a move's arguments
and its answer (the arguments with Othello's, D-Football's or Ludo's board nest 3 deep)."""


class ProtocolError(ValueError):
    """Bytes that are no message of this protocol (or a message that cannot be sent); ``str``
    says why in a few printable words. A ``ValueError``, as a malformed value is."""


# -- the fields' checks ---------------------------------------------------------------------------

def _text(value: object) -> bool:
    return isinstance(value, str)


def _count(value: object) -> bool:
    return type(value) is int and value >= 0  # not a bool


def _optional_count(value: object) -> bool:
    return value is None or _count(value)


def _optional_name(value: object) -> bool:
    return value is None or (isinstance(value, str) and value.isidentifier())


def _optional_cells(value: object) -> bool:
    """``None``, or a notebook's cells: a list of ``[label, source]`` pairs of text."""
    return value is None or (isinstance(value, list) and all(
        isinstance(cell, list) and len(cell) == 2 and all(isinstance(part, str) for part in cell) for cell in value))


def _flag(value: object) -> bool:
    return isinstance(value, bool)


def _integer(value: object) -> bool:
    return type(value) is int


def _json(value: object) -> bool:
    """Whether ``value`` is a JSON value (no NaN or infinity) with arrays and objects nested at
    most ``MAX_DEPTH`` deep (a tuple goes out as an array and comes back a list). Iterative, so
    a deep value cannot exhaust the stack here."""
    if not isinstance(value, (list, tuple, dict)):
        return _scalar(value)
    todo: list[tuple[Any, int]] = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(item, dict):
            if not all(isinstance(key, str) for key in item):
                return False
            item = item.values()
        for child in item:
            if isinstance(child, (list, tuple, dict)):
                todo.append((child, depth + 1))
            elif not _scalar(child):
                return False
    return True


def _scalar(value: object) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)  # not NaN, nor 1e999 read as infinity
    return value is None or isinstance(value, (str, int))  # a bool is an int


def _checked(check: Callable[[object], bool], **default: Any) -> Any:
    """A dataclass field whose value (sent or received) must pass ``check``."""
    return field(metadata={"check": check}, **default)


# -- the messages ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Load:
    """Arcade → bot: load ``function`` from the file at ``path`` (as the bot's process sees it)
    for ``game``, under a memory cap of ``memory`` bytes and ``processes`` processes (``None``:
    no cap of that kind). The memory cap is set before the file's own code runs. ``package``: the
    name of the package the file's folder is (``specs.package_of``), ``None`` for a plain file.
    ``cells``: for a notebook (``path`` is its file), the code that plays, ``[label, source]`` a
    cell, as ``bots.external.notebook`` read it in the arcade (the bot's process never parses the
    notebook); ``None`` for a file of code."""

    kind: ClassVar[str] = "load"
    path: str = _checked(_text)
    function: str = _checked(_text)
    game: str = _checked(_text)
    memory: int | None = _checked(_optional_count, default=None)
    processes: int | None = _checked(_optional_count, default=None)
    package: str | None = _checked(_optional_name, default=None)
    cells: list | None = _checked(_optional_cells, default=None)


@dataclass(frozen=True)
class NewGame:
    """Arcade → bot: a game starts. The loaded process (``child.Child.on_new_game``) ends the last
    game's process, if any, and forks this game's from its loaded state, which answers
    ``Started``; the arcade sends nothing else until it has."""

    kind: ClassVar[str] = "newgame"


@dataclass(frozen=True)
class Seed:
    """Arcade → bot: seed the global ``random`` (and numpy's) before a game. No answer."""

    kind: ClassVar[str] = "seed"
    seed: int = _checked(_integer)


@dataclass(frozen=True)
class Move:
    """Arcade → bot: call the function with ``args`` (the game's adapter's ``request``)."""

    kind: ClassVar[str] = "move"
    args: list = _checked(lambda value: isinstance(value, list) and _json(value))


def _arguments(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(args, list) for args in value) and _json(value)


@dataclass(frozen=True)
class MoveMany:
    """Arcade → bot (a Python bot's process): call the function with each of ``args`` in turn (a
    ``Move``'s ``args`` each). The answers come in order in ``MovedMany`` parts; a failure at one
    position (the reply a ``Move`` would get: ``Failed``, ``Invalid``, ``OutOfMemory``,
    ``Exited``) follows the parts before it and ends the request."""

    kind: ClassVar[str] = "movemany"
    args: list = _checked(_arguments)


@dataclass(frozen=True)
class Loaded:
    """Bot → arcade: the file is loaded and the function found."""

    kind: ClassVar[str] = "loaded"


@dataclass(frozen=True)
class Started:
    """Bot → arcade: this game's process is ready. ``forked``: it is a fork of the loaded process
    (the game starts from the loaded state); ``False``: the loaded process plays the game itself,
    as it played the games before (it runs threads of its own, or cannot fork)."""

    kind: ClassVar[str] = "started"
    forked: bool = _checked(_flag, default=True)


@dataclass(frozen=True)
class Moved:
    """Bot → arcade: the function's answer, as the adapter's ``answer`` made it a JSON value."""

    kind: ClassVar[str] = "moved"
    move: Any = _checked(_json)


@dataclass(frozen=True)
class MovedMany:
    """Bot → arcade: the next answers to a ``MoveMany``, in order (each as ``Moved``'s ``move``);
    a request's answers may come in several parts, each line under ``PART`` bytes but for a
    single answer longer than that."""

    kind: ClassVar[str] = "movedmany"
    moves: list = _checked(lambda value: isinstance(value, list) and _json(value))


PART = 32 << 10
"""Bytes of answers at which a bot's process sends a ``MovedMany`` part."""


@dataclass(frozen=True)
class Failed:
    """Bot → arcade: the file could not be loaded, or the function raised; ``detail`` says what
    (one line; the traceback is in the bot's log)."""

    kind: ClassVar[str] = "failed"
    detail: str = _checked(_text)


@dataclass(frozen=True)
class OutOfMemory:
    """Bot → arcade: loading or the call ran into the memory cap."""

    kind: ClassVar[str] = "memory"
    detail: str = _checked(_text, default="")


@dataclass(frozen=True)
class Exited:
    """Bot → arcade: the function called ``exit``; the process ends after this message."""

    kind: ClassVar[str] = "exited"
    detail: str = _checked(_text)


@dataclass(frozen=True)
class Invalid:
    """Bot → arcade: the function returned something that is not of the signature's type."""

    kind: ClassVar[str] = "invalid"
    detail: str = _checked(_text)


Request = Union[Load, NewGame, Seed, Move, MoveMany]
Reply = Union[Loaded, Started, Moved, MovedMany, Failed, OutOfMemory, Exited, Invalid]
Message = Union[Request, Reply]

REQUESTS: tuple[type, ...] = (Load, NewGame, Seed, Move, MoveMany)
REPLIES: tuple[type, ...] = (Loaded, Started, Moved, MovedMany, Failed, OutOfMemory, Exited, Invalid)
KINDS: dict[str, type] = {cls.kind: cls for cls in REQUESTS + REPLIES}


# -- bytes ----------------------------------------------------------------------------------------

def encode(message: Message) -> bytes:
    """``message`` as its line, newline included; ``ProtocolError`` if a field is not of its
    type (a bot's answer that is no JSON value, say) or the line would pass ``MAX_LINE``."""
    if type(message) not in KINDS.values():
        raise ProtocolError(f"not a message: a {type(message).__name__}")
    body: dict[str, Any] = {"kind": message.kind}
    for spec in fields(message):
        value = getattr(message, spec.name)
        if not spec.metadata["check"](value):
            raise ProtocolError(f"{message.kind}: {spec.name} is not of its type")
        body[spec.name] = value
    try:
        line = json.dumps(body, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")
    except (TypeError, ValueError, RecursionError) as exc:  # e.g. an int too long to write
        raise ProtocolError(f"{message.kind}: cannot be written ({type(exc).__name__})") from None
    if len(line) > MAX_LINE:
        raise ProtocolError(f"{message.kind}: over {MAX_LINE >> 20} MiB")
    return line + b"\n"


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _parse(line: bytes) -> object:
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a line over {MAX_LINE >> 20} MiB")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError("a line that is not UTF-8") from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise ProtocolError("JSON nested too deep") from None
    except (ValueError, MemoryError):  # JSONDecodeError, or an int of too many digits
        raise ProtocolError("a line that is not JSON") from None


def decode(line: bytes) -> Message:
    """The message of ``line`` (one trailing newline allowed); ``ProtocolError`` for anything
    else: too long, not UTF-8, not JSON, not an object, an unknown kind, a field missing, extra
    or of the wrong type. Nothing but ``ProtocolError`` escapes, whatever the bytes."""
    body = _parse(line[:-1] if line.endswith(b"\n") else line)
    if not isinstance(body, dict):
        raise ProtocolError("a message that is not a JSON object")
    kind = body.pop("kind", None)
    if not isinstance(kind, str):
        raise ProtocolError("a message without a kind")
    cls = KINDS.get(kind)
    if cls is None:
        raise ProtocolError(f"an unknown kind of message ({_shown(kind)})")
    values = {}
    for spec in fields(cls):
        if spec.name in body:
            value = body.pop(spec.name)
            if not spec.metadata["check"](value):
                raise ProtocolError(f"{kind}: {spec.name} is not of its type")
            values[spec.name] = value
        elif spec.default is MISSING:
            raise ProtocolError(f"{kind}: no {spec.name}")
    if body:
        raise ProtocolError(f"{kind}: an unknown field ({_shown(next(iter(body)))})")
    return cls(**values)


def _shown(name: str) -> str:
    """A name from the other end, cut short and made printable for a message."""
    text = printable(repr(name[:32]))
    return text if len(text) <= 32 else text[:31] + "…"


class Lines:
    """A byte stream cut into lines: ``feed`` what arrives, ``next`` the complete lines. An
    unfinished line longer than ``MAX_LINE`` is dropped with a ``ProtocolError`` (the buffer never
    holds much more than ``MAX_LINE`` and one read)."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.scanned = 0  # bytes of ``buffer`` known to hold no newline

    def feed(self, data: bytes) -> None:
        self.buffer += data

    def next(self) -> bytes | None:
        """The next whole line (without its newline), ``None`` if none has ended yet."""
        end = self.buffer.find(b"\n", self.scanned)
        if end < 0:
            self.scanned = len(self.buffer)
            if len(self.buffer) > MAX_LINE:
                self.clear()
                raise ProtocolError(f"over {MAX_LINE >> 20} MiB without an end of line")
            return None
        line = bytes(self.buffer[:end])
        del self.buffer[:end + 1]
        self.scanned = 0
        return line

    def clear(self) -> None:
        self.buffer.clear()
        self.scanned = 0
