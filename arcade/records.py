"""Game record logs: a match's or a tournament's every finished game, one JSON line each.

``arcade tournament … --record FILE`` (and ``arcade match … --record FILE``) append to FILE as
games finish, flushed line by line, so that a crash, Ctrl+C or SIGKILL loses at most the games
being played. The first line is a header: what was run (the game and its options, the bots, the
format, games a pair, the seed — a secret seed included, so that the file can replay it —, and
the run's ``limits``: ``bots.limits.Limits.as_json``, the time a move, the grace, the memory cap in
bytes and the sandbox). Each other line is one game::

    {"stage": "round robin", "pair": ["perfect", "random"], "pair_seed": 123…, "number": 3,
     "first": 0, "winner": 0, "reason": "…", "termination": "normal", "plies": 9,
     "forfeit": null, "moves": ["1", "2", …], "times": [0.0001, …], …}

A record is evidence, and a file is anything anyone put there, so there is one reader
(``RecordReader``): only a regular file is read, line by line (never whole), a line longer than
``LINE_CAP`` is no record line, and every line is checked against the schema (``parse_header``,
``parse_game``). Whatever is wrong is a ``RecordError`` naming the file and the line.

Running the same command again with the same file **resumes**: the games already in the file are
not played again, and the standings come out as an uninterrupted run's. A file whose header says
something else is refused with a message naming the difference. Each recorded game is played
again through the rules first (``Referee``: its moves, its dice drawn again from its seed): a line
whose moves do not give its result is refused as forged. Resuming never deletes or rewrites a
line: a damaged line stops the run naming it, and ``repair`` (``--repair``) moves damaged lines
aside into ``FILE.damaged`` (appended, each after a line saying where it came from and why),
keeping the good ones. A last line cut short by a kill (no newline at its end) is moved there too,
and said, before anything is appended.
A file written before ``limits`` (its ``time_limit``, ``memory`` and ``sandbox``) is read as the
same run (``upgrade``).
"""

from __future__ import annotations

import json
import math
import os
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Callable, Iterator

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


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _regular(path: Path, mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise RecordError(f"{shown(path)} is {_kind(mode)}, not a regular file: a record is a file")


def open_regular(path: str | os.PathLike, write: bool = False, raw: bool = False) -> IO[bytes]:
    """``path`` opened as bytes, for reading (``write``: for appending, created if missing; ``raw``:
    unbuffered, so that a failed write leaves nothing behind to be written later); a
    ``RecordError`` in one line if it is not a regular file (a device, FIFO, directory, socket)
    or cannot be opened. Opening never blocks (a FIFO with no writer) nor takes a terminal."""
    path = Path(path)
    cannot = f"cannot {'write' if write else 'read'} {shown(path)}"
    try:
        _regular(path, os.stat(path).st_mode)
    except FileNotFoundError:
        if not write:
            raise RecordError(f"{cannot}: no such file") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise RecordError(f"{cannot}: {shown(getattr(exc, 'strerror', None) or exc, 200)}") from None
    flags = os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    flags |= (os.O_WRONLY | os.O_APPEND | os.O_CREAT) if write else os.O_RDONLY
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        raise RecordError(f"{cannot}: {exc.strerror or exc}") from None
    try:
        _regular(path, os.fstat(fd).st_mode)  # what was opened, whatever the name pointed to before
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "ab" if write else "rb", buffering=0 if raw else -1)


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


def lines(handle: IO[bytes]) -> Iterator[Line]:
    """The lines of ``handle`` one at a time, at most ``LINE_CAP`` bytes of each in memory (the
    rest of a longer line is skipped, by chunks)."""
    number = offset = 0
    while True:
        data = handle.readline(LINE_CAP + 1)
        if not data:
            return
        number += 1
        size = len(data)
        if size > LINE_CAP and not data.endswith(b"\n"):
            while data and not data.endswith(b"\n"):
                data = handle.readline(LINE_CAP)
                size += len(data)
            yield Line(number, offset, None, data.endswith(b"\n"))
        else:
            complete = data.endswith(b"\n")
            yield Line(number, offset, data[:-1] if complete else data, complete)
        offset += size


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


def make_game(header: dict, name: str):
    """The game a header names, with its options; ``RecordError`` (line 1) if there is none."""
    from arcade.catalog import UnknownGame, load
    from games.base import GameError

    try:
        return load(header["game"])(**header["options"])
    except (UnknownGame, GameError, TypeError, ValueError, OverflowError, RecursionError) as exc:
        raise RecordError(f"{name} line 1: {shown(exc, 200)}") from None


class RecordReader:
    """A record file opened for reading: ``header`` (checked), then ``games()``, each line
    checked as it comes; only a regular file is read, one line at a time. A last line with no
    newline (cut short by a kill, or still being written) is no game: ``cut_short`` says its
    number once ``games()`` has reached it."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.name = shown(self.path)
        self.handle = open_regular(self.path)
        try:
            self.lines = lines(self.handle)
            self.header = parse_header(next(self.lines, None), self.name)
        except BaseException:
            self.handle.close()
            raise
        self.cut_short: int | None = None

    def games(self) -> Iterator[tuple[int, dict]]:
        """Each game line's number in the file and its fields (blank lines are skipped)."""
        for line in self.lines:
            if not line.complete:
                self.cut_short = line.number
                return
            if not line.blank:
                yield line.number, parse_game(line, self.name)

    def close(self) -> None:
        self.handle.close()

    def __enter__(self) -> "RecordReader":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def recorded_seed(path: str | os.PathLike) -> int | None:
    """The seed in the header of record file ``path`` (a secret one included), or ``None`` when
    there is no such file yet (or it is no record file: opening it will say so)."""
    try:
        with RecordReader(path) as reader:
            return reader.header.get("seed")
    except RecordError:
        return None


def read_games(path: str | os.PathLike) -> tuple[dict, list[dict]]:
    """A record file's header and its games (whole lines only), every line checked; a
    ``RecordError`` naming the file and line says what is wrong."""
    with RecordReader(path) as reader:
        return reader.header, [data for _number, data in reader.games()]


# -- resuming: every recorded game played again -------------------------------------------------

class Referee:
    """Checks that a game line of a run's record is what the rules give: its moves are legal one
    after the other, its dice are those its seed draws, and they end in its result (a forfeit
    where the forfeiting side was to move, the game not over there). The game's colours and
    seed are the run's (``arcade.match.run_match``): a match's is the header's, a tournament's
    pair's is ``pair_seed(stage, a, b)`` (``arcade.seeds.pair_seed`` with the run's seed; without
    it the line's own seed is taken, and only its dice are checked against it)."""

    def __init__(self, header: dict, name: str, pair_seed: Callable[[str, str, str], int] | None = None) -> None:
        self.header = header
        self.game = make_game(header, name)
        self.pair_seed = pair_seed

    def problem(self, data: dict) -> str | None:
        """Why the line is not what the rules give, or ``None``."""
        from arcade.seeds import match_rngs
        from games.base import CHANCE, GameError

        number, first = data["number"], data["first"]
        if first != (0 if number % 2 else 1):
            return f"game {number} is not one that player {'AB'[first]} begins"
        if self.pair_seed is not None:
            try:
                seed = self.pair_seed(data["stage"], *data["pair"])
            except UnicodeEncodeError:  # a name no run could have (a lone surrogate)
                return "its seed is not the run's"
        else:
            seed = self.header["seed"] if self.header.get("kind") == "match" else data["pair_seed"]
        if data["pair_seed"] != seed:
            return "its seed is not the run's"
        game = self.game.match_variant(number)

        def player(side: int) -> int:
            return side if first == 0 else 1 - side

        if data.get("moved_first") is not None and data["moved_first"] != player(game.first_side):
            return "it says the wrong player moved first"
        dice = match_rngs(seed, number)[0]
        state = game.initial_state()
        for index, text in enumerate(data["moves"], start=1):
            if state.over:
                return f"it goes on after the game ended (move {index})"
            try:
                if state.to_move == CHANCE:
                    outcome = game.sample_chance(state, dice)
                    if game.move_text(state, outcome).upper() != text.strip().upper():
                        return f"move {index}: the dice gave {shown(game.move_text(state, outcome), 80)}, " \
                               f"not {shown(repr(text), 80)}"
                    state = game.play(state, outcome)
                else:
                    state = game.play(state, game.parse_move(state, text))
            except GameError:
                return f"move {index} ({shown(repr(text), 80)}) is not legal there"
        termination = Termination(data.get("termination", "normal"))
        winner = data["winner"]
        if data["plies"] != state.ply:
            return f"its moves make {state.ply} plies, not {data['plies']}"
        if termination is Termination.NORMAL:
            if not state.over:
                return "its moves do not end the game"
            if winner != (None if state.result.winner is None else player(state.result.winner)):
                return f"its moves give {self._winner(state.result.winner, player)}, not {self._player(winner)}"
            if data["reason"] != state.result.reason:
                return f"its moves end '{shown(state.result.reason, 80)}', not '{shown(data['reason'], 80)}'"
        elif termination is Termination.DRAW_BY_RULE:
            if state.over or state.ply != game.max_game_length() or winner is not None:
                return "it is no draw by the move cap"
        else:
            if state.over or state.to_move == CHANCE:
                return "it is a forfeit where no player was to move"
            if data["forfeit"] != player(state.to_move):
                return f"the forfeit is {self._player(player(state.to_move))}'s to move, " \
                       f"not {self._player(data['forfeit'])}'s"
            if not data["reason"].startswith(game.sides[state.to_move].name + " "):
                return "its reason names another side"
        return None

    @staticmethod
    def _player(player: int | None) -> str:
        return "a draw" if player is None else f"player {'AB'[player]}"

    def _winner(self, side: int | None, player: Callable[[int], int]) -> str:
        return "a draw" if side is None else f"player {'AB'[player(side)]}'s win"


def _say(text: str) -> None:
    from arcade.untrusted import clean

    print(f"arcade: {clean(text, cap=None)}", file=sys.stderr)


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


class RecordLog:
    """A record file opened for a run described by ``header`` (a dict of plain values).

    An existing file is read first, every line checked against the schema and played again
    (``Referee``). A damaged line (malformed, forged, a game twice) is a ``RecordError`` naming
    it, and nothing is played; with ``repair`` damaged lines are moved aside into
    ``FILE.damaged`` instead, and the good ones kept. A last line cut short by a kill is moved
    there too. ``say`` gets the one line telling what was moved (default: standard error);
    ``pair_seed(stage, a, b)``: a tournament's pairs' seeds (``Referee``).
    """

    def __init__(self, path: str | os.PathLike, header: dict, repair: bool = False,
                 say: Callable[[str], None] = _say, pair_seed: Callable[[str, str, str], int] | None = None) -> None:
        self.path = Path(path)
        self.name = shown(self.path)
        self.side = Path(f"{self.path}.damaged")
        self.header = json.loads(json.dumps({"record": FORMAT, **header}))  # as the file will hold it
        self.games: dict[Key, GameRecord] = {}
        self.handle: IO[bytes] | None = None
        handle = open_regular(self.path, write=True, raw=True)  # a device, a directory, no right to write: said now
        try:
            if os.fstat(handle.fileno()).st_size == 0:
                self._write(handle, self.header)
            else:
                handle = self._resume(handle, repair, say, pair_seed)
        except OSError as exc:
            handle.close()
            raise RecordError(f"cannot write {self.name}: {exc.strerror or exc}") from None
        except BaseException:
            handle.close()
            raise
        self.handle = handle

    def _resume(self, handle: IO[bytes], repair: bool, say: Callable[[str], None],
                pair_seed: Callable[[str, str, str], int] | None) -> IO[bytes]:
        """Read the existing file; move what must go aside; the handle to append to."""
        damaged: dict[int, str] = {}
        cut: Line | None = None
        where: dict[Key, int] = {}
        with RecordReader(self.path) as reader:
            found = upgrade(reader.header)
            for key, value in self.header.items():
                if found.get(key) != value:
                    raise RecordError(
                        f"{self.name} records another run: its {key} is {shown(repr(found.get(key)), 200)}, "
                        f"not {shown(repr(value), 200)}; use another file, or the arguments it was recorded with"
                    )
            referee = Referee(reader.header, self.name, pair_seed)
            for line in reader.lines:
                if not line.complete:
                    cut = line  # the last line: a kill's, not damage
                    break
                if line.blank:
                    continue
                try:
                    data = parse_game(line, self.name)
                    key = (data["stage"], data["pair"][0], data["pair"][1], data["number"])
                    if key in where:
                        raise RecordError(f"{self.name} line {line.number}: game {key[3]} of {shown(key[1], 80)} "
                                          f"and {shown(key[2], 80)} is at line {where[key]} already")
                    problem = referee.problem(data)
                    if problem:
                        raise RecordError(f"{self.name} line {line.number}: forged: {problem}")
                except RecordError as exc:
                    if not repair:
                        raise RecordError(f"{exc}; nothing was played: correct the line, or run again with "
                                          f"--repair to move damaged lines aside into {shown(self.side)}") from None
                    damaged[line.number] = str(exc)
                    continue
                where[key] = line.number
                self.games[key] = game_record(data)
        if cut is not None:
            damaged[cut.number] = f"{self.name} line {cut.number}: cut short (no newline at its end): " \
                                  "a game being written when the run was stopped"
        if not damaged:
            return handle
        self._move_aside(damaged)
        if cut is not None and len(damaged) == 1:
            handle.truncate(cut.offset)  # only the cut tail goes, and it is in the side file now
            say(f"{self.name}: its last line ({cut.number}) was cut short by a stop; moved aside into "
                f"{shown(self.side)} (that game is played again)")
            return handle
        handle.close()
        self._keep_only_good(damaged)
        numbers = sorted(damaged)
        listed = ", ".join(map(str, numbers[:10])) + (f" and {len(numbers) - 10} more" if len(numbers) > 10 else "")
        say(f"{self.name}: moved {len(numbers)} damaged line{'s' if len(numbers) > 1 else ''} ({listed}) aside "
            f"into {shown(self.side)}; the good ones are kept (those games are played again)")
        return open_regular(self.path, write=True, raw=True)

    def _move_aside(self, damaged: dict[int, str]) -> None:
        """Append each damaged line to the side file whole, after a line naming where it was and why."""
        from datetime import datetime, timezone

        stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
        ended = True
        with open_regular(self.side, write=True) as side, open_regular(self.path) as source:
            for number, chunk, starts in _chunks(source):
                if number not in damaged:
                    continue
                if starts:
                    note = f"{'' if ended else chr(10)}# line {number} of {self.name}, moved aside {stamp}: " \
                           f"{damaged[number]}\n"
                    side.write(note.encode("utf-8", "backslashreplace"))
                side.write(chunk)
                ended = chunk.endswith(b"\n")
            if not ended:
                side.write(b"\n")
            side.flush()
            os.fsync(side.fileno())

    def _keep_only_good(self, damaged: dict[int, str]) -> None:
        """Replace the file by its lines but the damaged ones, byte for byte (a new file renamed
        over it: a crash leaves the old file or the new one, never half of one)."""
        target = Path(os.path.realpath(self.path))
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".repair", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as out, open_regular(self.path) as source:
                for number, chunk, _starts in _chunks(source):
                    if number not in damaged:
                        out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    @staticmethod
    def _write(handle: IO[bytes], value: dict) -> None:
        """Append ``value``'s line whole, or not at all: a write that fails (a full disk) has
        what it wrote of the line cut off again, so the file stays a record that resumes."""
        data = memoryview(json.dumps(value).encode("utf-8") + b"\n")
        start = os.fstat(handle.fileno()).st_size
        try:
            while data:
                data = data[handle.write(data) or 0:]
        except OSError:
            try:
                os.ftruncate(handle.fileno(), start)
            except OSError:
                pass
            raise

    @property
    def seed(self) -> int | None:
        return self.header.get("seed")

    def get(self, stage: str, a: str, b: str, number: int) -> GameRecord | None:
        return self.games.get((stage, a, b, number))

    def append(self, stage: str, a: str, b: str, pair_seed: int, record: GameRecord) -> bool:
        """Write one finished game (unbuffered: it is in the file when this returns); ``False``
        if the file holds it already. A write that fails (a full disk, a lost device) is a
        ``RecordError`` saying so: the file keeps every game before it, whole, and the same
        command resumes from them."""
        key = (stage, a, b, record.number)
        if key in self.games or self.handle is None:
            return False
        try:
            self._write(self.handle, {"stage": stage, "pair": [a, b], "pair_seed": pair_seed, **record.as_json()})
        except OSError as exc:
            self.close()
            raise RecordError(f"cannot write {self.name}: {shown(exc.strerror or exc, 200)}; it holds the "
                              f"{len(self.games)} games finished before, whole: run the same command again "
                              "(with space to write) to resume") from None
        self.games[key] = record
        return True

    def close(self) -> None:
        if self.handle is not None:
            handle, self.handle = self.handle, None
            try:
                handle.close()
            except OSError:  # unbuffered: nothing was left to write
                pass

    def __enter__(self) -> "RecordLog":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _chunks(handle: IO[bytes]) -> Iterator[tuple[int, bytes, bool]]:
    """The file in pieces of at most ``LINE_CAP`` bytes: ``(line number, piece, whether the
    piece begins its line)``."""
    number = 0
    starting = True
    while True:
        chunk = handle.readline(LINE_CAP)
        if not chunk:
            return
        number += starting
        yield number, chunk, starting
        starting = chunk.endswith(b"\n")


def describe(line: dict) -> str:
    """One line about a recorded game: its stage, number, players and result (texts from the
    record made printable and capped)."""
    from bots.external import short_name

    a, b = (shown(short_name(name), 200) for name in line["pair"])
    first = line.get("first", 0)
    side0, side1 = (a, b) if first == 0 else (b, a)
    stage = "" if line.get("stage") == "match" else f"{shown(line.get('stage'), 200)} · "
    return f"{stage}game {line['number']}: {side0} vs {side1} · {shown(line.get('reason', ''))}"


def games_dir() -> Path:
    """Where saved games go: ``$ARCADE_GAMES``, else ``$XDG_STATE_HOME/contest-arcade/games``."""
    if os.environ.get("ARCADE_GAMES"):
        return Path(os.environ["ARCADE_GAMES"])
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "contest-arcade" / "games"


def save_game(game, players: tuple[str, str], session, folder: Path | None = None) -> Path:
    """Save the game in ``session`` (finished or not) as a record of one game, in ``folder``
    (``games_dir()``); the file's path. ``arcade replay PATH`` opens it."""
    from datetime import datetime

    folder = folder or games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"{game.id}-{stamp}.jsonl"
    number = 1
    while path.exists():
        number += 1
        path = folder / f"{game.id}-{stamp}-{number}.jsonl"
    result = session.result
    record = GameRecord(
        number=1, first=0,
        winner=None if result is None else result.winner,
        reason="not finished" if result is None else result.reason,
        plies=session.state.ply,
        forfeit=None if result is None else result.forfeited,
        termination=result.termination if result is not None else GameRecord.termination,
        moves=session.move_texts(), times=list(session.times),
    )
    header = {"kind": "game", "game": game.id, "options": dict(game.settings), "bots": list(players),
              "seed": None, "finished": result is not None}
    with RecordLog(path, header) as log:
        log.append("game", players[0], players[1], 0, record)
    return path
