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

Running the same command again with the same file **resumes**: the games already in the file are
not played again, and the standings come out as an uninterrupted run's. A file whose header says
something else is refused with a message naming the difference. A last line cut short by a kill
is dropped (the file is truncated to its last whole line) before anything is appended. A file
written before ``limits`` (its ``time_limit``, ``memory`` and ``sandbox``) is read as the same run
(``upgrade``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO

from arcade.match import GameRecord

FORMAT = "contest-arcade record 1"


class RecordError(ValueError):
    """A record file that cannot be used for this run (a message for the user)."""


Key = tuple[str, str, str, int]
"""A game's place in a run: its stage, its pair (bot A, bot B) and its number."""


def recorded_seed(path: str | os.PathLike) -> int | None:
    """The seed in the header of record file ``path`` (a secret one included), or ``None`` when
    there is no such file yet (or it is no record file: opening it will say so)."""
    try:
        with open(path, encoding="utf-8") as handle:
            header = json.loads(handle.readline())
    except (OSError, ValueError):
        return None
    return header.get("seed") if isinstance(header, dict) and header.get("record") == FORMAT else None


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
    """A record file opened for a run described by ``header`` (a dict of plain values)."""

    def __init__(self, path: str | os.PathLike, header: dict) -> None:
        self.path = Path(path)
        self.header = json.loads(json.dumps({"record": FORMAT, **header}))  # as the file will hold it
        self.games: dict[Key, GameRecord] = {}
        self.handle: IO[str] | None = None
        try:
            text = self.path.read_bytes()
        except FileNotFoundError:
            text = b""
        except OSError as exc:
            raise RecordError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        keep = self._read(text) if text.strip() else 0
        try:
            self.handle = open(self.path, "r+" if text.strip() else "w", encoding="utf-8")
            if keep:
                self.handle.seek(keep)
                self.handle.truncate()
            else:
                self.handle.write(json.dumps(self.header) + "\n")
                self.handle.flush()
        except OSError as exc:
            raise RecordError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def _read(self, data: bytes) -> int:
        """Read an existing file: check its header, load its games; the offset of the end of its
        last whole line."""
        lines = data.split(b"\n")
        try:
            found = json.loads(lines[0])
        except ValueError:
            raise RecordError(f"{self.path} is not a record file (its first line is not a record header)") from None
        if not isinstance(found, dict) or found.get("record") != FORMAT:
            raise RecordError(f"{self.path} is not a record file of this arcade ({FORMAT!r})")
        found = upgrade(found)
        for key, value in self.header.items():
            if found.get(key) != value:
                raise RecordError(
                    f"{self.path} records another run: its {key} is {found.get(key)!r}, not {value!r}; "
                    "use another file, or the arguments it was recorded with"
                )
        if len(lines) < 2:
            raise RecordError(f"{self.path} ends inside its header line")
        offset = len(lines[0]) + 1
        for line in lines[1:-1]:  # the whole lines; what follows the last newline was cut short
            if not line.strip():
                offset += len(line) + 1
                continue
            try:
                data_line = json.loads(line)
                record = GameRecord.from_json({k: v for k, v in data_line.items()
                                               if k not in ("stage", "pair", "pair_seed")})
                stage, (a, b) = data_line["stage"], data_line["pair"]
            except (ValueError, KeyError, TypeError):
                break  # a line cut short by a kill: dropped, and everything after it
            self.games[(stage, a, b, record.number)] = record
            offset += len(line) + 1
        return offset

    @property
    def seed(self) -> int | None:
        return self.header.get("seed")

    def get(self, stage: str, a: str, b: str, number: int) -> GameRecord | None:
        return self.games.get((stage, a, b, number))

    def append(self, stage: str, a: str, b: str, pair_seed: int, record: GameRecord) -> bool:
        """Write one finished game (flushed); ``False`` if the file holds it already."""
        key = (stage, a, b, record.number)
        if key in self.games or self.handle is None:
            return False
        self.games[key] = record
        line = {"stage": stage, "pair": [a, b], "pair_seed": pair_seed, **record.as_json()}
        self.handle.write(json.dumps(line) + "\n")
        self.handle.flush()
        return True

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()
            self.handle = None

    def __enter__(self) -> "RecordLog":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def read_games(path: str | os.PathLike) -> tuple[dict, list[dict]]:
    """A record file's header and its games (whole lines only); ``RecordError`` says why not."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    rows = data.split(b"\n")
    try:
        header = json.loads(rows[0])
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("record") != FORMAT:
        raise RecordError(f"{path} is not a record file of this arcade (made with --record)")
    games = []
    for row in rows[1:-1]:
        try:
            line = json.loads(row)
        except ValueError:
            break
        if isinstance(line, dict) and "moves" in line and "pair" in line:
            games.append(line)
    return header, games


def describe(line: dict) -> str:
    """One line about a recorded game: its stage, number, players and result."""
    from bots.external import short_name

    a, b = (short_name(name) for name in line["pair"])
    first = line.get("first", 0)
    side0, side1 = (a, b) if first == 0 else (b, a)
    stage = "" if line.get("stage") == "match" else f"{line.get('stage')} · "
    return f"{stage}game {line['number']}: {side0} vs {side1} · {line.get('reason', '')}"


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
