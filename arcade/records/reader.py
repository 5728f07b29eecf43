"""The one reader of record files: only a regular file is read, one line at a time (never
whole), every line checked against the schema (``arcade.records.schema``) as it comes."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import IO, Callable, Iterator, Mapping

from arcade.records import schema
from arcade.records.schema import Line, RecordError, parse_game, parse_header, shown


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


def lines(handle: IO[bytes]) -> Iterator[Line]:
    """The lines of ``handle`` one at a time, at most ``schema.LINE_CAP`` bytes of each in memory
    (the rest of a longer line is skipped, by chunks)."""
    number = offset = 0
    while True:
        data = handle.readline(schema.LINE_CAP + 1)
        if not data:
            return
        number += 1
        size = len(data)
        if size > schema.LINE_CAP and not data.endswith(b"\n"):
            while data and not data.endswith(b"\n"):
                data = handle.readline(schema.LINE_CAP)
                size += len(data)
            yield Line(number, offset, None, data.endswith(b"\n"))
        else:
            complete = data.endswith(b"\n")
            yield Line(number, offset, data[:-1] if complete else data, complete)
        offset += size


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


def namer(header: dict, names: Mapping[str, str] | None = None) -> Callable[[str], str]:
    """How a record's players are named, the one rule for every front end (``arcade replay``,
    the site): by ``names`` (a bot's name to a team's), else the header's ``teams`` (a contest's
    pair record), else by the shortest path that tells the header's bots apart
    (``bots.external.short_names``: ``alice/hog.py`` and ``bob/hog.py``, never ``hog.py`` twice);
    a bot the header does not list, by its short name."""
    from bots.external import short_name, short_names

    teams, bots = header.get("teams"), header.get("bots", [])
    bots = [bot for bot in bots if type(bot) is str] if type(bots) is list else []
    labels: dict[str, str] = short_names(bots)
    if type(teams) is list and len(teams) == len(bots) and all(type(t) is str and t for t in teams):
        labels.update(zip(bots, teams))
    given = {} if names is None else names  # a Mapping that lists nothing (and is falsy) still names
    return lambda bot: given.get(bot) or labels.get(bot) or short_name(bot)


def describe(line: dict, name: Callable[[str], str] | None = None) -> str:
    """One line about a recorded game: its stage, number, players (named by ``name``, a record's
    ``namer``; else each by its short name) and result (texts from the record made printable and
    capped)."""
    from bots.external import short_name

    name = name or short_name
    a, b = (shown(name(bot), 200) for bot in line["pair"])
    first = line.get("first", 0)
    side0, side1 = (a, b) if first == 0 else (b, a)
    stage = "" if line.get("stage") == "match" else f"{shown(line.get('stage'), 200)} · "
    return f"{stage}game {line['number']}: {side0} vs {side1} · {shown(line.get('reason', ''))}"
