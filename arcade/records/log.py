"""A run's record file (``RecordLog``): read and checked on resume, damaged lines moved aside on
``--repair``, each finished game appended whole, or not at all."""

from __future__ import annotations

import json
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import IO, Callable, Iterator

from arcade.match import GameRecord
from arcade.records import schema
from arcade.records.reader import Line, RecordReader, open_regular
from arcade.records.referee import Referee
from arcade.records.schema import FORMAT, Key, RecordError, game_record, parse_game, shown, upgrade


def _say(text: str) -> None:
    from arcade.untrusted import clean

    print(f"arcade: {clean(text, cap=None)}", file=sys.stderr)


class RecordLog:
    """A record file opened for a run described by ``header`` (a dict of plain values).

    An existing file is read first, every line checked against the schema and played again
    (``Referee``). A damaged line (malformed, forged, a game twice) is a ``RecordError`` naming
    it, and nothing is played; with ``repair`` damaged lines are moved aside into
    ``FILE.damaged`` instead, and the good ones kept. A last line cut short by a kill is moved
    there too. ``say`` gets the one line telling what was moved (default: standard error);
    ``pair_seed(stage, a, b)``: a tournament's pairs' seeds; ``season``: a contest season's seed
    (both: ``Referee``).
    """

    def __init__(self, path: str | os.PathLike, header: dict, repair: bool = False,
                 say: Callable[[str], None] = _say, pair_seed: Callable[[str, str, str], int] | None = None,
                 season: int | None = None) -> None:
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
                handle = self._resume(handle, repair, say, pair_seed, season)
        except OSError as exc:
            handle.close()
            raise RecordError(f"cannot write {self.name}: {exc.strerror or exc}") from None
        except BaseException:
            handle.close()
            raise
        self.handle = handle

    def _resume(self, handle: IO[bytes], repair: bool, say: Callable[[str], None],
                pair_seed: Callable[[str, str, str], int] | None, season: int | None) -> IO[bytes]:
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
            referee = Referee(reader.header, self.name, pair_seed, season)
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
    """The file in pieces of at most ``schema.LINE_CAP`` bytes: ``(line number, piece, whether the
    piece begins its line)``."""
    number = 0
    starting = True
    while True:
        chunk = handle.readline(schema.LINE_CAP)
        if not chunk:
            return
        number += starting
        yield number, chunk, starting
        starting = chunk.endswith(b"\n")
