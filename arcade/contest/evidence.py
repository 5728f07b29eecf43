"""The contest's evidence: each pair's record file (``DIR/records/A--B.jsonl``, an
``arcade.records`` record: its games checked against the rules on every read), and ``rebuild``,
which makes the database again from the records and the submissions log.

A pair is two submissions named by their digests, ``a`` the smaller (player A, first in odd
games). Its games are dealt from the season's seed, ``arcade.seeds.season_seed(secret)``, by
their numbers and the sides' roles alone (``arcade.seeds.season_rngs``: common random numbers),
so that a pair's games are the same whenever they are played and two equal strategies meet the
same games against every opponent; each game line carries the season's seed. A line dealt the
old way, from ``arcade.seeds.pair_seed(secret, "contest", a, b)`` (a season that began before
this derivation), is checked against that seed and kept. A pair's record is written before the
database: a kill between the two leaves a game the database lacks, which the next run takes from
the record (``PairLogs.open``), never plays again.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from arcade.contest import store
from arcade.contest.config import Config, ContestError, secret_seed
from arcade.contest.db import NAME, Database
from arcade.match import GameRecord
from arcade.seeds import pair_seed, season_seed

STAGE = "contest"


def pair_of(x: str, y: str) -> tuple[str, str]:
    return (x, y) if x <= y else (y, x)


def header(config: Config, limits, a: str, b: str, teams: dict[str, str]) -> dict:
    """A pair's record header (no seed: the games' own are on their lines, the secret nowhere)."""
    return {"kind": "tournament", "game": config.game, "options": config.options, "bots": [a, b],
            "format": "contest", "games_per_pair": config.games, "seed": None, "limits": limits.as_json(),
            "teams": [teams.get(a, ""), teams.get(b, "")]}


class PairLogs:
    """The record files of the pairs a run plays, opened as needed; ``append`` writes a game to
    its pair's record, then to the database (the log interface of ``arcade.tournament.runner``)."""

    def __init__(self, folder: Path, config: Config, limits, db: Database, teams: dict[str, str]) -> None:
        self.folder = Path(folder)
        self.config = config
        self.limits = limits
        self.db = db
        self.teams = teams
        self.secret = secret_seed(folder)
        self.season = season_seed(self.secret)
        """Every game's seed (``arcade.seeds.season_seed``): the tasks' and the record lines'."""
        self.logs: dict[tuple[str, str], Any] = {}

    def open(self, a: str, b: str):
        """Pair ``(a, b)``'s record, resumed (damaged lines moved aside, said on standard error),
        its games put in the database if it lacks them."""
        from arcade.records.log import RecordLog
        from arcade.records.schema import RecordError

        if (a, b) in self.logs:
            return self.logs[(a, b)]
        path = self.folder / "records" / f"{a}--{b}.jsonl"
        try:
            log = RecordLog(path, header(self.config, self.limits, a, b, self.teams), repair=True,
                            pair_seed=lambda _stage, x, y: pair_seed(self.secret, STAGE, x, y), season=self.season)
        except RecordError as exc:
            raise ContestError(str(exc)) from None
        self.logs[(a, b)] = log
        self.db.add_games(a, b, log.games.values())
        return log

    def get(self, stage: str, a: str, b: str, number: int) -> GameRecord | None:
        return self.open(a, b).get(stage, a, b, number)

    def append(self, stage: str, a: str, b: str, seed: int, record: GameRecord) -> bool:
        from arcade.records.schema import RecordError

        try:
            added = self.open(a, b).append(stage, a, b, seed, record)
        except RecordError as exc:
            raise ContestError(f"the run stopped: {exc}") from None
        self.db.add_games(a, b, [record])
        return added

    def close_pair(self, a: str, b: str) -> None:
        """Close the record of pair ``(a, b)`` (its games are all in): a run streaming its pairs
        keeps open only the records of the pairs in play."""
        log = self.logs.pop((a, b), None)
        if log is not None:
            log.close()

    def close(self) -> None:
        for log in self.logs.values():
            log.close()
        self.logs.clear()


def rebuild(folder: str | os.PathLike, say=print) -> tuple[int, int, int]:
    """The database made again from the evidence: the submissions log, then every pair's record,
    each game checked against the rules (``arcade.records.referee.Referee``) and counted once; a
    damaged line is left out and said in one line. ``(submissions, games, damaged lines)``."""
    folder = Path(folder)
    for suffix in ("", "-wal", "-shm"):
        try:
            (folder / (NAME + suffix)).unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise ContestError(f"cannot remove {folder / (NAME + suffix)}: {exc.strerror}") from None
    secret = secret_seed(folder)
    with Database(folder) as db:
        lines = store.logged(folder)
        db.write("INSERT INTO submissions (id, team, digest, entry, submitted, verdict, reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 [(i, l["team"], l["digest"], l["entry"], l["submitted"], l["verdict"], l["reason"])
                  for i, l in enumerate(lines, start=1)])
        games = damaged = 0
        for path in sorted((folder / "records").glob("*--*.jsonl")):
            got, bad = _read_pair(path, secret, say)
            damaged += bad
            if got:
                (a, b), played = got
                db.add_games(a, b, played)
                games += len(got[1])
        from arcade.contest.hog_exact import exact_again

        exact_again(folder, db)
    return len(lines), games, damaged


def _read_pair(path: Path, secret: int, say) -> tuple[tuple | None, int]:
    """A pair's record read line by line: ``((a, b), [GameRecord…])`` of its good games, and how
    many lines were damaged (each said)."""
    from arcade.records.reader import RecordReader
    from arcade.records.referee import Referee
    from arcade.records.schema import RecordError, game_record, parse_game, shown

    try:
        reader = RecordReader(path)
    except RecordError as exc:
        say(f"left out: {exc}")
        return (None, 1)
    with reader:
        bots = reader.header.get("bots", [])
        if reader.header.get("format") != "contest" or len(bots) != 2:
            say(f"left out: {reader.name} is no pair of this contest")
            return (None, 1)
        a, b = bots
        try:
            referee = Referee(reader.header, reader.name, lambda _stage, x, y: pair_seed(secret, STAGE, x, y),
                              season_seed(secret))
        except RecordError as exc:
            say(f"left out: {exc}")
            return (None, 1)
        games: dict[int, GameRecord] = {}
        bad = 0
        for line in reader.lines:
            if not line.complete or line.blank:
                continue
            try:
                data = parse_game(line, reader.name)
                problem = "another pair's game" if data["pair"] != [a, b] else (
                    f"game {data['number']} twice" if data["number"] in games else referee.problem(data))
                if problem:
                    raise RecordError(f"{reader.name} line {line.number}: {shown(problem)}")
            except RecordError as exc:
                say(f"left out: {exc}")
                bad += 1
                continue
            games[data["number"]] = game_record(data)
    return ((a, b), list(games.values())), bad
