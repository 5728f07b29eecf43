"""What the live board (``arcade contest board DIR``, ``arcade.screens.contest``) shows, read from
the contest's folder with no screen: the board (``Snapshot``: the one model,
``arcade.contest.boardmodel.Board``, its standings' and crosstable's cells as the app shows them),
a team's page (``TeamPage``: the model's, with its log), a game's moves for the replay screen
(``replay_of``, from the pair's record, the evidence), and the database's ``version``, which the
screen polls to redraw only when something changed.

Everything here runs in the screen's worker thread: each call opens the database on its own
connection (SQLite's WAL lets it read while ``run`` writes)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from arcade.contest import boardmodel
from arcade.contest.boardmodel import Board, build
from arcade.contest.config import Config, ContestError, load
from arcade.contest.db import Database

LOG_LINES = 200
"""A log's last lines shown on a team's page."""


def version(folder: str | os.PathLike) -> tuple:
    """What changes when the board would: the games, the submissions, Hog's exact pairs and tables,
    ``contest.toml`` and the ladder's plan (cheap queries and ``stat``\\ s: the screen asks every
    second)."""
    folder = Path(folder)
    with Database(folder) as db:
        games = db.read("SELECT COUNT(*) FROM games")[0][0]
        submissions = db.read("SELECT COALESCE(MAX(id), 0) FROM submissions")[0][0]
        exact = db.read("SELECT COUNT(*) FROM exact")[0][0]
        tabled = db.read("SELECT COUNT(*) FROM tabled")[0][0]
    stamps = []
    for name in ("contest.toml", "ladder.jsonl", "closing.json"):
        try:
            stamps.append((folder / name).stat().st_mtime_ns)
        except OSError:
            stamps.append(0)
    return (games, submissions, exact, tabled, *stamps)


@dataclass
class Snapshot:
    """The board now (``board``: ``arcade.contest.boardmodel.Board``, the one model every view
    formats), the pairs still missing games (all-pairs; ``None`` on a ladder) and when it was
    read."""

    board: Board
    missing: int | None
    read: str

    @property
    def config(self) -> Config:
        return self.board.config

    @property
    def rows(self) -> list:
        return self.board.rows

    def summary(self) -> str:
        config, rules = self.config, self.board.format
        left = "" if self.missing is None else (f" · {self.missing} pairs to play" if self.missing else
                                                " · nothing missing")
        teams = len(self.rows)
        played = rules.played_text(self.board.played, self.rows)
        return (f"{rules.kind()} · {config.games} games {rules.per} · {teams} team{'s' * (teams != 1)} · {played}"
                f"{left} · {self.read}")

    def standings(self) -> list[list[str]]:
        """The standings' cells as the app shows them: the board's columns
        (``Board.columns``), each cell as the model writes it."""
        columns = self.board.columns()
        return [[row.text(column.key) for column in columns] for row in self.rows]

    def crosstable(self) -> list[list[str]]:
        """The crosstable's cells as the app shows them: each row team's against each team, in the
        board's order (``Board.cross_text``)."""
        teams = [row.team for row in self.rows]
        return [[self.board.cross_text(team, other) for other in teams] for team in teams]


def snapshot(folder: str | os.PathLike) -> Snapshot:
    from arcade.contest.run import missing_pairs

    folder = Path(folder)
    config = load(folder)
    with Database(folder) as db:
        board = build(folder, db, config)
        pairs = missing_pairs(db, config, db.current())
        missing = None if pairs is None else len(pairs)
    return Snapshot(board, missing, clock())


def clock() -> str:
    """The time a board is read, as the board says it (a test stops it for a picture)."""
    return datetime.now(timezone.utc).astimezone().strftime("%H:%M:%S")


@dataclass
class TeamPage(boardmodel.TeamPage):
    """A team's page as the app shows it: the model's (``arcade.contest.boardmodel.TeamPage``: its
    submissions, its games, how it is scored), with the last lines of its current submission's
    log on this machine."""

    log_path: Path | None = None
    log: list[str] = field(default_factory=list)


def team_page(folder: str | os.PathLike, team: str, log_lines: int = LOG_LINES) -> TeamPage:
    """``team``'s page: the board's (every submission it made, newest first; the games of each of
    its accepted submissions, the current one's first, then by opponent and number) and the last
    lines of its current submission's log (where ``run`` on this machine writes it:
    ``bots.external.logs``)."""
    folder = Path(folder)
    config = load(folder)
    board = build(folder, config=config)
    made = board.teams.get(team) or boardmodel.TeamPage(team)
    page = TeamPage(made.team, made.submissions, made.games, made.scoring)
    current = next((s for s in made.submissions if s.verdict == "accepted"), None)
    if current is not None:
        page.log_path, page.log = log_of(folder, config, current.digest, current.entry, log_lines)
    return page


def log_of(folder: Path, config: Config, digest: str, entry: str, lines: int) -> tuple[Path | None, list[str]]:
    """A submission's log file and its last ``lines`` lines (``[]``: none yet)."""
    from arcade.contest.store import spec_of
    from bots.external import parse_spec
    from bots.external.logs import log_dir, log_name
    from bots.external.specs import package_of

    try:
        path, function = parse_spec(spec_of(folder, digest, entry), config.game)
    except ValueError:
        return None, []
    log = log_dir() / log_name(path, function, package_of(path))
    try:
        with open(log, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(0, handle.tell() - 256 * lines))
            text = handle.read().decode("utf-8", "replace")
    except OSError:
        return log, []
    return log, text.splitlines()[-lines:]


@dataclass(frozen=True)
class Replay:
    """A recorded game for ``arcade.screens.replay.ReplayScreen``."""

    game: object
    players: tuple[str, str]
    moves: list[str]
    title: str


def replay_of(folder: str | os.PathLike, a: str, b: str, number: int, teams: dict[str, str]) -> Replay:
    """Game ``number`` of pair ``(a, b)``, from its record (every line checked as it is read);
    ``ContestError`` in one line if the record lacks it or is damaged."""
    from arcade.records.reader import RecordReader
    from arcade.records.referee import make_game
    from arcade.records.schema import RecordError

    path = Path(folder) / "records" / f"{a}--{b}.jsonl"
    try:
        with RecordReader(path) as reader:
            game = make_game(reader.header, reader.name)
            chosen = next((line for _n, line in reader.games() if line["number"] == number), None)
    except RecordError as exc:
        raise ContestError(str(exc)) from None
    if chosen is None or chosen.get("pair") != [a, b]:
        raise ContestError(f"{path.name} holds no game {number}")
    names = (teams.get(a, a[:12]), teams.get(b, b[:12]))
    players = names if chosen["first"] == 0 else names[::-1]
    return Replay(game.match_variant(number), players, list(chosen["moves"]),
                  f"Game {number}: {players[0]} vs {players[1]} · {chosen.get('reason', '')}")
