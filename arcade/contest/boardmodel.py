"""The board of a contest season, one typed model built once from the contest's database, its
``contest.toml``, its ladder's plan and its ``closing.json`` (``build``), which every view only
formats: ``arcade contest standings`` (its table, ``--crosstable``, ``--csv``, and ``--json``:
``Board.as_json``), the app's live board (``arcade.contest.board`` → ``arcade.screens.contest``)
and the published site (``arcade.web.contest`` → ``arcade.web``). Before it each view counted the
games itself, and they disagreed.

- ``Board.rows``: the standings (``Row``: rank, team, score, a ladder's rating ± σ, Hog's exact
  scoring's ``vs_always_roll_6``, ``computed``, ``scored``, ``why``, won–drawn–lost, games,
  forfeits, points, submitted), ranked; ``Board.columns()`` the columns every view shows, each
  with its heading in the terminal (``Column.short``) and on the site (``Column.long``), and
  ``Row.text`` each cell as every view writes it.
- ``Board.crosstable``: each ordered pair of teams on the board, a ``Cell``: the row team's
  wins–draws–losses against the column team's, over the games between their current submissions;
  a pair of Hog's exact scoring computed from the two tables, not played, is its expected
  wins–draws–losses over ``games_per_pair`` games (its exact win chance kept beside), marked
  ``*`` (``Board.cross_note`` says so under every crosstable).
- ``Board.teams``: a ``TeamPage`` each team that submitted: its submissions and their verdicts
  (newest first) and the games of each of its accepted submissions (``TeamGame``: the opponent,
  the number, whether it moved first, the result, the reason in the course's words).
- ``Board.closing``: the closing stage (``ClosingStage``, from ``closing.json``: CS4341's groups,
  each team's extra credit, its new player against its original one), ``None`` before one.

``tally`` builds a board from plain data (the database's rows, or a test's or a bench's games);
``build`` reads the contest's folder and calls it. What a score, a rank and the points are is
``arcade.contest.standings``'s.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from arcade.contest.config import Config
from arcade.contest.db import Database, Submission
from arcade.contest.boardparts import (  # noqa: F401 - the board's pieces, named here too
    COMPUTED, COMPUTED_MARK, DATA, DRAWS, EXACT, FORFEITS, GAMES, LADDER, LOSSES, POINTS, RANK, RATING, SCORE,
    SUBMITTED, TEAM, VS, WINS, Cell, Column, Row, number)
from arcade.contest.formats import Format, format_of
from arcade.contest.standings import points as points_of

SEASON = "contest"
"""The season's games' stage in their pairs' records (``arcade.contest.evidence.STAGE``): a
game's key there is ``contest/A/B/NUMBER``, the site's name for its replay page."""
@dataclass(frozen=True)
class TeamGame:
    """One game of a team's submission: ``a`` and ``b`` its pair, ``number``; ``opponent`` the
    other team, ``first`` whether the team moved first, ``result`` (``won``, ``lost``, ``drew``),
    the game's ``reason`` (a forfeit's, in the course's words), ``forfeited`` whether the team
    forfeited it and ``by_forfeit`` whether either side did, ``current`` whether it was played by
    the two teams' current submissions (it counts in the crosstable); ``key`` its record's name
    (``contest/A/B/NUMBER``: the site's replay page)."""

    a: str
    b: str
    number: int
    opponent: str
    first: bool
    result: str
    reason: str
    forfeited: bool
    current: bool
    by_forfeit: bool = False
    key: str = ""

    def verdict(self) -> str:
        """The result as every view writes it: ``won``, ``lost``, ``drew``, ``won by forfeit`` (the
        opponent forfeited) or ``lost by forfeit`` (the team did)."""
        return self.result + (" by forfeit" if self.by_forfeit and self.result != "drew" else "")


@dataclass
class TeamPage:
    """A team's page: every ``submission`` it made (newest first, each with its verdict and
    reason), the ``games`` of each of its accepted submissions (the current one's first, then by
    opponent and number) and, with Hog's exact scoring, how its current submission is ``scoring``
    (its win rate against always_roll(6), or why it is scored by sampled games; ``""`` otherwise)."""

    team: str
    submissions: list[Submission] = field(default_factory=list)
    games: list[TeamGame] = field(default_factory=list)
    scoring: str = ""


@dataclass(frozen=True)
class ClosingRow:
    """A team in the closing stage's standings: its rank, its games' results, how far it got
    (``stage``), and with CS4341's points its ``extra_credit``, whether it ``completed`` a game and
    whether its new player ``beat_original`` (``None``: one submission, no match)."""

    rank: int
    team: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: int = 0
    forfeits: int = 0
    points: float = 0
    stage: str = ""
    extra_credit: float | None = None
    completed: bool | None = None
    beat_original: bool | None = None


@dataclass(frozen=True)
class Challenge:
    """CS4341's match of a team's new player against its original one, before the groups: each
    one's wins, the draws, which played the groups (``new`` or ``original``) and the two
    submissions' digests."""

    team: str
    new: int
    original: int
    draws: int
    played: str
    games: int = 0
    new_digest: str = ""
    original_digest: str = ""

    @classmethod
    def parse(cls, data: object) -> "Challenge | None":
        """A challenge of ``closing.json`` as ``arcade.contest.closing`` writes one, else ``None``."""
        if not (type(data) is dict and all(type(data.get(k)) is str for k in ("team", "original_digest"))
                and all(type(data.get(k)) is int for k in ("new", "original", "draws"))
                and data.get("played") in ("new", "original")):
            return None
        games = data.get("games")
        return cls(data["team"], data["new"], data["original"], data["draws"], data["played"],
                   games if type(games) is int else 0, str(data.get("new_digest", "")), data["original_digest"])


@dataclass(frozen=True)
class ClosingStage:
    """The closing stage once played (``closing.json``, ``arcade.contest.closing``): its format
    (``stage``), its standings (``rows``, ranked), CS4341's ``challenges``, whether its rows carry
    the course's extra credit (``credit``) and the file's ``data`` as read (``as_json``)."""

    stage: str
    rows: tuple[ClosingRow, ...] = ()
    challenges: tuple[Challenge, ...] = ()
    credit: bool = False
    data: Mapping = field(default_factory=dict)

    @classmethod
    def parse(cls, data: object) -> "ClosingStage | None":
        """``closing.json``'s content as a stage; ``None`` for none, or for what is no stage. A row
        that is no team's is left out; a field of the wrong type reads as missing."""
        if type(data) is not dict:
            return None
        rows = tuple(row for row in (_closing_row(r) for r in data.get("standings") or () if type(r) is dict) if row)
        challenges = tuple(c for c in (Challenge.parse(c) for c in data.get("challenges") or ()) if c)
        return cls(str(data.get("stage") or ""), rows, challenges, data.get("points") == "cs4341", data)

    def as_json(self) -> dict:
        return dict(self.data)

    def credit_of(self) -> dict[str, float]:
        """Each team's extra credit (CS4341's points), where the rows carry it."""
        return {row.team: row.extra_credit for row in self.rows if row.extra_credit is not None}


def _closing_row(data: dict) -> ClosingRow | None:
    """A row of ``closing.json``'s standings; ``None`` for one that names no team."""
    def whole(key: str) -> int:
        value = data.get(key)
        return value if type(value) is int else 0

    def figure(key: str) -> float | None:
        value = data.get(key)
        return value if type(value) in (int, float) else None

    def truth(key: str) -> bool | None:
        value = data.get(key)
        return value if type(value) is bool else None

    if type(data.get("team")) is not str:
        return None
    return ClosingRow(whole("rank"), data["team"], whole("wins"), whole("draws"), whole("losses"), whole("games"),
                      whole("forfeits"), figure("points") or 0, str(data.get("stage") or ""), figure("extra_credit"),
                      truth("completed"), truth("beat_original"))


@dataclass
class Board:
    """The season's board (the module's docstring): ``config``, ``rows`` ranked, the
    ``crosstable`` by teams, each team's page, the closing stage, and ``played``, the games in
    the database (those of replaced submissions too)."""

    config: Config
    rows: list[Row]
    crosstable: dict[tuple[str, str], Cell] = field(default_factory=dict)
    teams: dict[str, TeamPage] = field(default_factory=dict)
    closing: ClosingStage | None = None
    played: int = 0

    @property
    def format(self) -> Format:
        """The season's format (``arcade.contest.formats``): its columns, its notes."""
        return format_of(self.config)

    @property
    def exact(self) -> bool:
        return self.format.exact

    @property
    def score_column(self) -> Column:
        """The score's column: a ladder's is its rating, written ``μ ± σ``."""
        return self.format.score_column

    def columns(self) -> tuple[Column, ...]:
        """The standings' columns every view shows, the format's (``Format.columns``): a ladder's
        rating as ``μ ± σ`` in the score's place, exact scoring's ``vs_always_roll_6`` and
        ``computed`` after the score and no draws."""
        return self.format.columns()

    def data_columns(self) -> tuple[str, ...]:
        """The rows' fields in ``--csv`` (``as_json``'s, less the digest): the format's."""
        return self.format.data_columns()

    def row(self, team: str) -> Row | None:
        return next((row for row in self.rows if row.team == team), None)

    def cell(self, team: str, other: str) -> Cell | None:
        return self.crosstable.get((team, other))

    def cross_text(self, team: str, other: str) -> str:
        """A crosstable's cell as every view writes it: ``""`` on the diagonal, ``·`` for a pair not
        met yet, else the cell's ``W–D–L``."""
        if team == other:
            return ""
        cell = self.crosstable.get((team, other))
        return "·" if cell is None else cell.text()

    def cross_note(self) -> str:
        """What a crosstable's cells are, in one line, under every crosstable."""
        note = "Each cell: the row team's wins–draws–losses against the column team's current submission"
        return note + self.format.cross_note() + "."

    def notes(self, computed: str, vs: str) -> list[str]:
        """The lines under the standings, naming the two exact columns as the view at hand heads them:
        what exact scoring's numbers are and each team scored by sampled games, and why; none in
        another season."""
        return self.format.notes(self.rows, computed, vs)

    def as_json(self) -> dict:
        """The board as ``arcade contest standings --json`` prints it (and the site's
        ``standings.json``): the contest's game, games a pair, format, points and scoring, the
        standings' rows (``Row.as_json``), the crosstable (each team's cells by opponent, in the
        board's order) and the closing stage (``closing.json``'s content; ``null`` before one)."""
        cross: dict[str, dict] = {}
        for row in self.rows:
            cells = {other.team: self.crosstable[(row.team, other.team)].as_json() for other in self.rows
                     if (row.team, other.team) in self.crosstable}
            cross[row.team] = cells
        return {"game": self.config.game, "games_per_pair": self.config.games, "format": self.config.format,
                "points": self.config.points, "scoring": self.config.scoring,
                "standings": [row.as_json() for row in self.rows], "crosstable": cross,
                "closing": self.closing.as_json() if self.closing else None}


Game = tuple[str, str, int, "int | None", "int | None", str]
"""A game as the database keeps it: ``(a, b, number, winner, forfeit, reason)``, ``a`` first in odd
games, ``winner`` and ``forfeit`` players (0: ``a``, 1: ``b``) or ``None``."""


def tally(config: Config, submissions: Sequence[Submission], games: Iterable[Game],
          exact: Mapping[tuple[str, str], float] | None = None,
          tabled: Mapping[str, tuple[float | None, str]] | None = None,
          ratings: Mapping[str, tuple[float, float]] | None = None, closing: object = None,
          keys: Mapping[tuple[str, str, int], str] | None = None) -> Board:
    """The board of ``submissions`` (every one tried, in arrival order: a team's current one is its
    last accepted) and ``games``, with Hog's ``exact`` pairs (``(a, b) -> a's chance``) and
    ``tabled`` submissions (``digest -> (vs_always_roll_6, why)``), a ladder's ``ratings``
    (``digest -> (μ, σ)``; an entry without one has the model's first), ``closing.json``'s content
    and each game's record key (``keys``; by default ``contest/A/B/NUMBER``)."""
    games = list(games)
    accepted = [s for s in submissions if s.verdict == "accepted"]
    current = {s.team: s for s in accepted}
    rows = {s.digest: Row(s.team, s.submitted, s.digest) for s in sorted(current.values(), key=lambda s: -s.id)}
    results = _results(config, rows, games)
    cells = {pair: Cell(*counts[:3]) for pair, counts in results.items() if pair[0] in rows and pair[1] in rows}
    for row in rows.values():
        row.score = row.wins
    data = {"exact": exact or {}, "tabled": tabled or {}, "ratings": ratings or {}}
    rules = format_of(config)
    rules.score(rows, cells, data)
    stage = ClosingStage.parse(closing)
    ranked = _rank(config, list(rows.values()), stage)
    teams = {row.digest: row.team for row in ranked}
    crosstable = {(teams[a], teams[b]): cell for (a, b), cell in cells.items()}
    pages = _pages(rules, submissions, games, data, keys or {})
    return Board(config, ranked, crosstable, pages, stage, len(games))


def _results(config: Config, rows: dict[str, Row], games: list[Game]) -> dict[tuple[str, str], list[int]]:
    """Each row's games counted into it (all pairs: those against another current submission; a
    ladder: all of its current submission's, as its rating counts them), and each ordered pair of
    digests' ``[wins, draws, losses]``."""
    every = format_of(config).every_game
    results: dict[tuple[str, str], list[int]] = {}
    for a, b, _number, winner, forfeit, _reason in games:
        for player, (me, other) in enumerate(((a, b), (b, a))):
            row = rows.get(me)
            if row is None or not (every or other in rows):
                continue
            won, lost = winner == player, winner == 1 - player
            row.games += 1
            row.wins += won
            row.losses += lost
            row.draws += winner is None
            row.forfeits += forfeit == player
            counts = results.setdefault((me, other), [0, 0, 0])
            counts[0 if won else 2 if lost else 1] += 1
    return results


def _rank(config: Config, rows: list[Row], closing: ClosingStage | None) -> list[Row]:
    """The rows ordered by score, then fewer forfeits, then name (equal scores share a rank), with
    their points: the rule's, or CS4341's extra credit from the closing stage (0 before it)."""
    ranked = sorted(rows, key=lambda r: (-r.score, r.forfeits, r.team))
    for i, row in enumerate(ranked):
        row.rank = ranked[i - 1].rank if i and ranked[i - 1].score == row.score else i + 1
    for row, value in zip(ranked, points_of([r.score for r in ranked], config.points)):
        row.points = value
    if config.points == "cs4341":  # earned in the closing stage alone
        credit = closing.credit_of() if closing else {}
        for row in ranked:
            row.points = credit.get(row.team, 0)
    return ranked


def _pages(rules: Format, submissions: Sequence[Submission], games: list[Game],
           data: Mapping[str, object], keys: Mapping[tuple[str, str, int], str]) -> dict[str, TeamPage]:
    """Every team's page (``TeamPage``), in the order the teams first submitted."""
    owners = {s.digest: s.team for s in submissions if s.verdict == "accepted"}
    current = {s.team: s.digest for s in submissions if s.verdict == "accepted"}
    live = set(current.values())
    pages: dict[str, TeamPage] = {}
    for s in reversed(submissions):
        pages.setdefault(s.team, TeamPage(s.team)).submissions.append(s)
    order = {team: {d: i for i, d in enumerate(dict.fromkeys(s.digest for s in page.submissions
                                                              if s.verdict == "accepted"))}
             for team, page in pages.items()}
    for a, b, game_number, winner, forfeit, reason in games:
        for me, (mine, other) in enumerate(((a, b), (b, a))):
            team = owners.get(mine)
            if team is None:
                continue
            result = "drew" if winner is None else ("won" if winner == me else "lost")
            pages[team].games.append(TeamGame(
                a, b, game_number, owners.get(other, other[:12]), (game_number % 2 == 1) == (me == 0), result, reason,
                forfeit == me, mine in live and other in live, forfeit is not None,
                keys.get((a, b, game_number), f"{SEASON}/{a}/{b}/{game_number}")))
    for team, page in pages.items():
        page.games.sort(key=lambda g: (order[team][g.a if owners.get(g.a) == team else g.b], g.opponent, g.number))
        if team in current:
            page.scoring = rules.team_scoring(current[team], data)
    return {team: pages[team] for team in sorted(pages, key=lambda t: min(s.id for s in pages[t].submissions))}


def build(folder: str | os.PathLike, db: Database | None = None, config: Config | None = None) -> Board:
    """The board of the contest in ``folder`` now (``db``, ``config``: the caller's own, else opened
    here): its database, ``contest.toml``, a ladder's plan, ``closing.json``."""
    from arcade.contest.closing import closing_result
    from arcade.contest.config import load

    folder = Path(folder)
    config = config or load(folder)
    if db is None:
        with Database(folder) as opened:
            return build(folder, opened, config)
    submissions = db.submissions()
    current = [s.digest for s in db.current()]
    games = db.read("SELECT a, b, number, winner, forfeit, reason FROM games")
    data = format_of(config).board_data(folder, db, current)
    return tally(config, submissions, games, data.get("exact"), data.get("tabled"), data.get("ratings"),
                 closing_result(folder))
