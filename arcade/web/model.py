"""What a published site is made from: the contest's metadata, its standings, its teams and its
games. Plain data, filled by whoever publishes (``arcade.web.contest`` from a contest's folder,
a test, the bench); every text in it may come from a student (a team's name, a rejection's
reason, a forfeit's reason, a bot's output) and is shown as text, never markup.

``games_from_record`` turns a record file (``arcade.records``: what matches, tournaments and
contests write) into ``SiteGame``s through the one safe reader.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterator, Mapping, Sequence

if TYPE_CHECKING:
    from arcade.contest.boardmodel import Board


@dataclass(frozen=True)
class Contest:
    """The contest: its ``game`` (a catalog id) and ``options``, ``games_per_pair``, ``format``,
    ``scoring``, the ``points`` rule, the closing time (``closes``, ISO 8601, ``""``: never), a
    move's ``time_limit`` in seconds (``None``: the game's), ``rules`` (extra lines of the
    contest's own rules, plain text), its ``title`` and when the data was read (``updated``, ISO)."""

    game: str
    options: Mapping = field(default_factory=dict)
    title: str = ""
    games_per_pair: int | None = None
    format: str = ""
    scoring: str = "wins"
    points: str = ""
    closes: str = ""
    time_limit: float | None = None
    rules: tuple[str, ...] = ()
    updated: str = ""


@dataclass(frozen=True)
class Submission:
    """One submission of a team: when, ``accepted`` or not, and the verdict's reason."""

    team: str
    submitted: str
    accepted: bool
    reason: str = ""


@dataclass(frozen=True)
class SiteGame:
    """One played game. ``key`` names it uniquely and stably in the contest (its page's name is
    made from it); ``sides`` are the teams that played side 0 and side 1; ``winner`` and
    ``forfeit`` are sides (or ``None``); ``moves`` every move and dice outcome as the record
    writes them; ``number`` the game's number in its pair (some games vary with it: Robot
    Ludo's first side); ``counted``: a game between two current submissions (the crosstable's)."""

    key: str
    sides: tuple[str, str]
    moves: tuple[str, ...]
    winner: int | None
    reason: str
    termination: str = "normal"
    forfeit: int | None = None
    number: int = 1
    stage: str = ""
    counted: bool = True
    withheld: bool = False
    """Its moves are not shown until the contest closes: a game with dice, whose deal is game
    ``number``'s in every pair (``arcade.seeds.season_rngs``), would tell a later submission its dice."""

    def fingerprint(self, label: str = "") -> str:
        """A digest of everything its replay page shows (a changed game is drawn again), and the
        ``label`` it is shown under (a closing stage's round)."""
        text = repr((self.key, self.sides, self.moves, self.winner, self.reason, self.termination,
                     self.forfeit, self.number, self.stage, self.counted, self.withheld)) + (f" {label}" if label else "")
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


CLOSING_COLUMNS = ("rank", "team", "wins", "draws", "losses", "games", "forfeits", "points", "stage",
                   "extra_credit", "beat_original")
"""A closing stage's standings row (``DIR/closing.json``'s): ``stage`` how far the team got; with
CS4341's points, its ``extra_credit`` and whether its new player ``beat_original`` (``None``: no
match, one submission)."""
ORIGINAL = " (original)"
"""What names a team's original player in the closing stage's games (``TEAM (original)``), where
it played its new one and, having won, the groups (``arcade.contest.closing``)."""


@dataclass
class Closing:
    """A closing stage, played once the contest has closed (CS4341's groups): its format
    (``stage``), its standings (rows of ``CLOSING_COLUMNS``, ranked; empty while it is played)
    and its games (each ``SiteGame.stage`` its round: ``first round``, ``final``…)."""

    stage: str
    standings: Sequence[Mapping] = ()
    games: Sequence[SiteGame] = ()
    challenges: Sequence = ()
    """CS4341's matches of each team's new player against its original one, played first
    (``arcade.contest.boardmodel.Challenge``: ``team``, ``new`` and ``original`` wins, ``draws``,
    ``played``)."""
    aliases: Mapping[str, str] = field(default_factory=dict)
    """A side's name in the games to its team's, where they differ (``TEAM (original)``)."""


@dataclass
class Site:
    """Everything a site shows: the contest, its ``board`` (``arcade.contest.boardmodel.Board``,
    the one model the command and the app format too: the standings, the crosstable, each team's
    games), the teams' submissions, the season's games (their replays) and the closing stage
    (``None``: none played)."""

    contest: Contest
    board: Board
    submissions: Sequence[Submission] = ()
    games: Sequence[SiteGame] = ()
    closing: Closing | None = None


def board_of(contest: Contest, teams: Sequence[str], games: Sequence[SiteGame],
             submitted: str = "2025-03-01T10:00:00+00:00") -> Board:
    """The board (``arcade.contest.boardmodel.tally``) of a site filled without a contest's folder
    (a test, the bench): each of ``teams`` with one accepted submission (named by the team,
    ``submitted`` then), after the counted ``games`` (each its record's ``key``: its team pages
    link its replay)."""
    from arcade.contest.boardmodel import tally
    from arcade.contest.config import Config
    from arcade.contest.db import Submission as Entry

    entries = [Entry(i, team, team, "", submitted, "accepted", "") for i, team in enumerate(teams, start=1)]
    played, keys = [], {}
    for game in games:
        if not game.counted:
            continue
        swap = game.number % 2 == 0  # the database's pair: its first player moves first in odd games
        a, b = game.sides[::-1] if swap else game.sides

        def player(side: int | None, swap: bool = swap) -> int | None:
            return None if side is None else (1 - side if swap else side)

        played.append((a, b, game.number, player(game.winner), player(game.forfeit), game.reason))
        keys[(a, b, game.number)] = game.key
    config = Config(game=contest.game, options=dict(contest.options), games=contest.games_per_pair or 1,
                    format=contest.format or "all-pairs", scoring=contest.scoring, points=contest.points or "none")
    return tally(config, entries, played, keys=keys)


_UNSAFE = re.compile(r"[^a-z0-9_-]+")


def slug(name: str) -> str:
    """A file name for ``name`` (a team's, a game's key): its safe letters, lower-cased and cut,
    then a digest of the whole name, so that two names never share a file (``Team`` and
    ``team`` neither, on a case-blind disk) and no name makes a path (``..``, ``/``, NUL)."""
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    readable = _UNSAFE.sub("-", name.lower()).strip("-")[:40]
    return f"{readable}-{digest}" if readable else digest


def games_from_record(path: str | os.PathLike, names: Mapping[str, str] | None = None,
                      counted: Callable[[str, str], bool] = lambda a, b: True,
                      damaged: list[str] | None = None) -> Iterator[SiteGame]:
    """The games of record file ``path`` (read by ``arcade.records.reader.RecordReader``: a regular
    file, line by line, each line checked against the schema), each as a ``SiteGame``. Players
    are named by ``names`` (a bot's name to a team's), else the header's ``teams`` (a contest's
    pair record), else by the names that tell the header's bots apart (``arcade.records.reader.namer``,
    ``alice/hog.py``, ``bob/hog.py``); ``counted(a, b)`` says whether the pair's games count
    (bot names). A damaged line is left out, its message added to ``damaged`` (without it: the
    ``RecordError`` is raised); a file that is no record raises ``RecordError``."""
    from arcade.records.reader import RecordReader, namer
    from arcade.records.schema import RecordError, parse_game

    with RecordReader(path) as reader:
        name = namer(reader.header, names)
        for line in reader.lines:
            if not line.complete or line.blank:
                continue
            try:
                data = parse_game(line, reader.name)
            except RecordError as exc:
                if damaged is None:
                    raise
                damaged.append(str(exc))
                continue
            yield _site_game(data, name, counted)


def _site_game(line: dict, namer: Callable[[str], str], counted: Callable[[str, str], bool]) -> SiteGame:
    a, b = line["pair"]
    first = line["first"]
    sides = (namer(a), namer(b)) if first == 0 else (namer(b), namer(a))

    def side(player: int | None) -> int | None:
        return None if player is None else (player if first == 0 else 1 - player)

    return SiteGame(
        key=f"{line['stage']}/{a}/{b}/{line['number']}", sides=sides, moves=tuple(line["moves"]),
        winner=side(line["winner"]), reason=line["reason"], termination=line.get("termination", "normal"),
        forfeit=side(line.get("forfeit")), number=line["number"], stage=line["stage"], counted=bool(counted(a, b)))
