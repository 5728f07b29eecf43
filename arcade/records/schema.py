"""What a record holds: its header and game lines, each checked against the schema before it is
used (``parse_header``, ``parse_game``), and the texts from it shown plain (``shown``).

The reader and the log read ``LINE_CAP`` from here each time they use it (``schema.LINE_CAP``, no
copy of their own): one cap, which a test may lower.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Callable

from arcade.match import GameRecord
from games.base import Termination


FORMAT = "contest-arcade record 1"

LINE_CAP = 16 << 20
"""The longest line a record may hold, in bytes (a class's game with every move and time is far
shorter; a line of a gigabyte is no record)."""

TEXT_CAP = 1024
"""How much of one text from a record (a reason, a name, a value) a message or listing shows, in
bytes (``arcade.untrusted.CAP``)."""


class RecordError(ValueError):
    """A record file that cannot be used for this run (a message for the user)."""


Key = tuple[str, str, str, int]
"""A game's place in a run: its stage, its pair (bot A, bot B) and its number."""


def shown(value: object, cap: int = TEXT_CAP) -> str:
    """``value`` (text from a record, or a path) safe to print on one line: no escape sequence
    or control character, at most ``cap`` bytes, the cut said (``arcade.untrusted.clean``)."""
    from arcade.untrusted import clean

    return clean(value, cap)


@dataclass(frozen=True)
class Line:
    """One line of a file: its number (from 1), where it starts, its bytes (``None``: longer
    than ``LINE_CAP``) and whether a newline ends it (only a file's last line may lack one)."""

    number: int
    offset: int
    data: bytes | None
    complete: bool

    @property
    def blank(self) -> bool:
        return self.data is not None and not self.data.strip()


# -- the schema ---------------------------------------------------------------------------------

def _is_int(value: Any) -> bool:
    return type(value) is int


def _is_number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def _player(value: Any) -> bool:
    return _is_int(value) and value in (0, 1)


def _optional(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or check(value)


def _strings(value: Any) -> bool:
    return type(value) is list and all(type(item) is str for item in value)


def _seconds(value: Any) -> bool:
    return type(value) is list and all(_is_number(item) and item >= 0 for item in value)


TERMINATIONS = frozenset(t.value for t in Termination)

HEADER_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "record": (lambda v: v == FORMAT, f"{FORMAT!r}"),
    "kind": (lambda v: type(v) is str and v in ("match", "tournament", "game"), "match, tournament or game"),
    "game": (lambda v: type(v) is str, "a game id"),
    "options": (lambda v: type(v) is dict, "an object"),
    "bots": (lambda v: _strings(v) and len(v) >= 2, "a list of two or more names"),
    "seed": (_optional(_is_int), "an integer or null"),
}
"""A header's required fields: each one's check and what it must be."""

HEADER_OPTIONAL: dict[str, tuple[Callable[[Any], bool], str]] = {
    "games": (lambda v: _is_int(v) and v >= 1, "a whole number from 1"),
    "games_per_pair": (lambda v: _is_int(v) and v >= 1, "a whole number from 1"),
    "format": (lambda v: type(v) is str, "text"),
    "time_limit": (_optional(lambda v: _is_number(v) and v > 0), "a positive number or null"),
    "memory": (_optional(lambda v: _is_int(v) and v >= 0), "a whole number or null"),
    "sandbox": (lambda v: type(v) is str, "text"),
    "limits": (lambda v: type(v) is dict and set(v) <= {"time", "grace", "memory", "sandbox"}
               and all(v.get(k) is None or _is_number(v.get(k)) for k in ("time", "grace", "memory"))
               and type(v.get("sandbox", "")) is str, "an object of time, grace, memory and sandbox"),
    "finished": (lambda v: type(v) is bool, "true or false"),
}
"""A header's other known fields (checked when present; other fields are left alone). Headers
written before ``Limits`` hold ``time_limit``, ``memory`` and ``sandbox``; today's hold ``limits``."""

GAME_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "stage": (lambda v: type(v) is str, "text"),
    "pair": (lambda v: _strings(v) and len(v) == 2, "a list of two names"),
    "pair_seed": (_is_int, "an integer"),
    "number": (lambda v: _is_int(v) and v >= 1, "a whole number from 1"),
    "first": (_player, "0 or 1"),
    "winner": (_optional(_player), "0, 1 or null"),
    "reason": (lambda v: type(v) is str, "text"),
    "plies": (lambda v: _is_int(v) and v >= 0, "a whole number"),
    "moves": (_strings, "a list of texts"),
}
"""A game line's required fields."""

GAME_OPTIONAL: dict[str, tuple[Callable[[Any], bool], str]] = {
    "forfeit": (_optional(_player), "0, 1 or null"),
    "termination": (lambda v: type(v) is str and v in TERMINATIONS, "one of " + ", ".join(sorted(TERMINATIONS))),
    "max_move_seconds": (lambda v: _seconds(v) and len(v) == 2, "a list of two numbers of seconds"),
    "moved_first": (_optional(_player), "0, 1 or null"),
    "times": (_seconds, "a list of numbers of seconds"),
}
"""A game line's fields that older records may lack (``GameRecord``'s defaults); no other field
may be there."""


def _decode(data: bytes | None) -> Any:
    """The JSON value of one line; ``ValueError`` saying why not."""
    if data is None:
        raise ValueError(f"longer than {LINE_CAP >> 20} MiB")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except RecursionError:
        raise ValueError("not JSON (nested too deep)") from None
    except ValueError as exc:
        raise ValueError(f"not JSON ({shown(exc, 80)})") from None


def _check_fields(value: Any, required: dict, optional: dict, strict: bool) -> str | None:
    """What is wrong with ``value`` against a schema, or ``None``."""
    if type(value) is not dict:
        return "not a JSON object"
    for key, (check, wanted) in required.items():
        if key not in value:
            return f"no {key!r}"
        if not check(value[key]):
            return f"its {key} must be {wanted}, not {shown(repr(value[key]), 80)}"
    for key, (check, wanted) in optional.items():
        if key in value and not check(value[key]):
            return f"its {key} must be {wanted}, not {shown(repr(value[key]), 80)}"
    if strict:
        unknown = sorted(set(value) - set(required) - set(optional))
        if unknown:
            return f"an unknown field {shown(repr(unknown[0]), 80)}"
    return None


def parse_header(line: Line | None, name: str) -> dict:
    """A record's header from its first line (``name``: the file, as messages show it)."""
    if line is None:
        raise RecordError(f"{name} is empty: not a record file of this arcade (made with --record)")
    try:
        header = _decode(line.data)
    except ValueError as exc:
        raise RecordError(f"{name} is not a record file of this arcade (line 1: {exc})") from None
    if type(header) is not dict or header.get("record") != FORMAT:
        raise RecordError(f"{name} is not a record file of this arcade (made with --record): line 1 is no "
                          "record header")
    problem = _check_fields(header, HEADER_FIELDS, HEADER_OPTIONAL, strict=False)
    if problem:
        raise RecordError(f"{name} line 1: the header is malformed: {problem}")
    if not line.complete:
        raise RecordError(f"{name} ends inside its header line")
    return header


def parse_game(line: Line, name: str) -> dict:
    """A game line checked against the schema; ``RecordError`` naming the file and line."""
    try:
        data = _decode(line.data)
    except ValueError as exc:
        raise RecordError(f"{name} line {line.number}: {exc}") from None
    problem = _check_fields(data, GAME_FIELDS, GAME_OPTIONAL, strict=True)
    if problem is None:
        if data.get("forfeit") is not None and (data.get("termination") not in FORFEIT_VALUES
                                                 or data["winner"] != 1 - data["forfeit"]):
            problem = "its forfeit goes with no forfeit's termination or winner"
        elif data.get("termination") in FORFEIT_VALUES and data.get("forfeit") is None:
            problem = "it ends in a forfeit but names no player who forfeited"
    if problem:
        raise RecordError(f"{name} line {line.number}: {problem}")
    return data


FORFEIT_VALUES = frozenset(t.value for t in Termination if t.is_forfeit)


def game_record(data: dict) -> GameRecord:
    """The ``GameRecord`` of a game line that ``parse_game`` accepted."""
    return GameRecord.from_json({k: v for k, v in data.items() if k not in ("stage", "pair", "pair_seed")})


def upgrade(header: dict) -> dict:
    """A header as this arcade writes it. Before ``Limits``, a header held ``time_limit``,
    ``memory`` and ``sandbox`` instead of ``limits``, the memory cap in a match's ``--memory``
    MiB (0: no cap), or a tournament's bytes (0: no cap, ``None``: the default cap)."""
    if "limits" in header or not {"time_limit", "memory", "sandbox"} <= set(header):
        return header
    from bots.limits import DEFAULT_MEMORY, Limits

    old = dict(header)
    memory = old.pop("memory")
    try:
        if memory is None:
            memory = DEFAULT_MEMORY
        elif old.get("kind") == "match":
            memory <<= 20
        limits = Limits(time=old.pop("time_limit"), memory=memory or None, sandbox=old.pop("sandbox"))
    except (TypeError, ValueError):  # not this arcade's values: compared as they are, and refused
        return header
    old["limits"] = json.loads(json.dumps(limits.as_json()))
    return old
