"""What the live board (``arcade contest board DIR``, ``arcade.screens.contest``) shows, read from
the contest's database with no screen: the standings and the crosstable (``Snapshot``), a team's
page (``TeamPage``: its submissions, its games with their forfeit reasons, its log), a game's
moves for the replay screen (``replay_of``, from the pair's record, the evidence), and the
database's ``version``, which the screen polls to redraw only when something changed.

Everything here runs in the screen's worker thread: each call opens the database on its own
connection (SQLite's WAL lets it read while ``run`` writes)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from arcade.contest.config import Config, ContestError, load
from arcade.contest.db import Database, Submission

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
    """The board now: ``config``, the standings' ``rows`` (``arcade.contest.standings.Row``),
    the ``crosstable`` (``(row digest, column digest) -> (wins, games)``), the games played, the
    pairs still missing games (all-pairs) and when it was read."""

    config: Config
    rows: list
    crosstable: dict[tuple[str, str], tuple[int, int]]
    games: int
    missing: int | None
    read: str

    def summary(self) -> str:
        config = self.config
        per = "a meeting" if config.format == "ladder" else "a pair"
        left = "" if self.missing is None else (f" · {self.missing} pairs to play" if self.missing else
                                                " · nothing missing")
        teams = len(self.rows)
        kind = f"{config.game} ladder" if config.format == "ladder" else config.game
        computed = sum(row.computed for row in self.rows) // 2
        played = f"{self.games} games" + (f" played, {computed} pair{'s' * (computed != 1)} computed"
                                          if config.scoring == "exact" else "")
        return (f"{kind} · {config.games} games {per} · {teams} team{'s' * (teams != 1)} · {played}"
                f"{left} · {self.read}")


def snapshot(folder: str | os.PathLike) -> Snapshot:
    from arcade.contest.run import missing_pairs
    from arcade.contest.standings import standings

    folder = Path(folder)
    config = load(folder)
    with Database(folder) as db:
        rows = standings(db, config)
        digests = {row.digest for row in rows}
        cross: dict[tuple[str, str], list[int]] = {}
        for a, b, _number, winner, _forfeit, _reason in db.games_of(digests):
            for player, (me, other) in enumerate(((a, b), (b, a))):
                cell = cross.setdefault((me, other), [0, 0])
                cell[0] += winner == player
                cell[1] += 1
        games = db.read("SELECT COUNT(*) FROM games")[0][0]
        missing = None if config.format == "ladder" else len(missing_pairs(db, config, db.current()))
    return Snapshot(config, rows, {k: (v[0], v[1]) for k, v in cross.items()}, games, missing, clock())


def clock() -> str:
    """The time a board is read, as the board says it (a test stops it for a picture)."""
    return datetime.now(timezone.utc).astimezone().strftime("%H:%M:%S")


@dataclass(frozen=True)
class TeamGame:
    """One game of a team's submission: ``a`` and ``b`` its pair, ``number``; ``opponent`` the
    other team, ``first`` whether the team moved first, ``result`` (``won``, ``lost``,
    ``drew``) and the game's ``reason`` (a forfeit's, in the courses' words), ``forfeited``
    whether the team forfeited it, ``current`` whether it was the team's current submission."""

    a: str
    b: str
    number: int
    opponent: str
    first: bool
    result: str
    reason: str
    forfeited: bool
    current: bool


@dataclass
class TeamPage:
    team: str
    submissions: list[Submission]
    games: list[TeamGame]
    log_path: Path | None = None
    log: list[str] = field(default_factory=list)
    scoring: str = ""
    """Hog's exact scoring: how the current submission is scored (its win rate against
    always_roll(6), or why by sampled games); ``""`` in a season scored by wins."""


def team_page(folder: str | os.PathLike, team: str, log_lines: int = LOG_LINES) -> TeamPage:
    """``team``'s page: every submission it made (newest first), the games of each of its
    accepted submissions (the current one's first, then by number) and the last lines of its
    current submission's log (where ``run`` on this machine writes it: ``bots.external.logs``)."""
    folder = Path(folder)
    config = load(folder)
    with Database(folder) as db:
        every = db.submissions()
        current = {s.team: s.digest for s in db.current()}
        mine = [s for s in every if s.team == team]
        owners = {s.digest: s.team for s in every if s.verdict == "accepted"}
        digests = [s.digest for s in reversed(mine) if s.verdict == "accepted"]
        rows = db.games_of(set(digests), both=False)
        tabled = db.tabled() if config.scoring == "exact" else {}
    games = []
    order = {d: i for i, d in enumerate(dict.fromkeys(digests))}
    for a, b, number, winner, forfeit, reason in rows:
        me = 0 if a in order else 1
        digest, other = (a, b) if me == 0 else (b, a)
        result = "drew" if winner is None else ("won" if winner == me else "lost")
        games.append(TeamGame(a, b, number, owners.get(other, other[:12]), (number % 2 == 1) == (me == 0), result,
                              reason, forfeit == me, digest == current.get(team)))
    games.sort(key=lambda g: (order[g.a if g.a in order else g.b], g.opponent, g.number))
    page = TeamPage(team, list(reversed(mine)), games)
    if config.scoring == "exact" and team in current:
        vs, why = tabled.get(current[team], (None, None))
        page.scoring = ("table not asked yet" if why is None else f"scored by sampled games: {why}" if why else
                        f"scored exactly, {vs:.4f} against always_roll(6)")
    if team in current:
        entry = next(s.entry for s in mine if s.digest == current[team])
        page.log_path, page.log = log_of(folder, config, current[team], entry, log_lines)
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
