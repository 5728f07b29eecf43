"""A contest's folder (``arcade.contest``) as a site: ``site_of(DIR)`` reads its ``contest.toml``, its
board (``arcade.contest.boardmodel.build``, the one model ``arcade contest standings`` and the app
format: the standings, the crosstable, each team's games, submissions and verdicts), its pairs'
records (the games, through the one safe reader) and its closing stage
(``DIR/records/closing.jsonl``, ``DIR/closing.json``: CS4341's groups), and ``publish_contest(DIR,
OUT)`` writes the site (``arcade contest publish DIR OUT``; ``arcade
contest run DIR --publish OUT`` calls it after each batch of games). ``OUT/standings.json`` holds
the board as ``arcade contest standings --json`` prints it."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import asdict, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from arcade.web.model import Closing, Contest, Site, SiteGame, Submission
from arcade.web.publish import Report, publish, write_whole


def site_of(folder: str | os.PathLike, db=None, config=None, say: Callable[[str], None] | None = None,
            now: datetime | None = None) -> tuple[Site, dict]:
    """The site of the contest in ``folder`` (``db``, ``config``: the run's own, else opened here)
    and the board as ``arcade contest standings --json`` gives it (``Board.as_json``: the board
    is built once, ``arcade.contest.boardmodel``). A damaged record line is left out, said
    through ``say``."""
    from arcade.contest.boardmodel import build
    from arcade.contest.config import load
    from arcade.contest.db import Database

    folder = Path(folder)
    config = config or load(folder)
    if db is None:
        with Database(folder) as opened:
            return site_of(folder, opened, config, say, now)
    board = build(folder, db, config)
    submissions = [s for page in board.teams.values() for s in page.submissions]
    current = {row.digest for row in board.rows}
    owners = {s.digest: s.team for s in submissions if s.verdict == "accepted"}
    games = list(contest_games(folder, owners, current, say))
    if dealt(config) and not config.closed(now):
        games = [replace(game, withheld=True) for game in games]
    contest = Contest(
        game=config.game, options=dict(config.options), title=f"{_title(config.game)} contest",
        games_per_pair=config.games, format=config.format, scoring=config.scoring, points=config.points,
        closes=config.closes, time_limit=config.time,
        updated=(now or datetime.now(timezone.utc)).isoformat(timespec="seconds"))
    site = Site(contest, board, [Submission(s.team, s.submitted, s.verdict == "accepted", s.reason) for s in submissions],
                games, closing_of(folder, config, board.closing, owners, say))
    return site, board.as_json()


def dealt(config) -> bool:
    """Whether the contest's games have dice: a season deals game k of every pair alike
    (``arcade.seeds.season_rngs``), so their moves are shown once the contest has closed, when no
    submission can use them (``SiteGame.withheld``)."""
    from games.base import Game

    return type(config.make_game()).chance_outcomes is not Game.chance_outcomes


def _title(game: str) -> str:
    from arcade.catalog import CATALOG

    entry = CATALOG.get(game)
    return entry.title if entry else game


def contest_games(folder: Path, owners: dict[str, str], current: set[str],
                  say: Callable[[str], None] | None) -> list[SiteGame]:
    """Every pair's games (``DIR/records/A--B.jsonl``), in the order of the files' names then
    the games' numbers; a file or line that is damaged is left out and said."""
    from arcade.records.schema import RecordError
    from arcade.web.model import games_from_record

    games: list[SiteGame] = []
    for path in sorted((folder / "records").glob("*--*.jsonl")):
        damaged: list[str] = []
        try:
            games.extend(sorted(games_from_record(path, owners, lambda a, b: a in current and b in current, damaged),
                                key=lambda g: g.number))
        except RecordError as exc:
            damaged.append(str(exc))
        for message in damaged:
            if say:
                say(f"left out of the site: {message}")
    return games


CLOSING_RECORD = "closing.jsonl"
_DIGEST = re.compile(r"(?:^|/)submissions/([0-9a-f]{64})/")


def closing_of(folder: Path, config, stage, owners: dict[str, str],
               say: Callable[[str], None] | None) -> Closing | None:
    """The closing stage: its standings and CS4341's matches of each team's new and original
    players (the board's, ``arcade.contest.boardmodel.ClosingStage``, from ``closing.json`` once
    it has ended), its games (its record, each bot named by the team of the submission in its
    path; a team's original player, where it played its new one, ``TEAM (original)``); ``None``
    when it has not begun. Each game's key is ``closing/ROUND/TEAM/TEAM/NUMBER`` (the teams in
    order of name), the same wherever the contest's folder is."""
    from arcade.records.schema import RecordError
    from arcade.web.model import ORIGINAL, games_from_record

    path = folder / "records" / CLOSING_RECORD
    if stage is None and not path.is_file():
        return None
    challenges = list(stage.challenges) if stage else []
    names = dict(owners) | {c.original_digest: c.team + ORIGINAL for c in challenges}
    games: list[SiteGame] = []
    damaged: list[str] = []
    if path.is_file():
        try:
            for game in games_from_record(path, _TeamOfPath(names), damaged=damaged):
                first, second = sorted(game.sides)
                games.append(replace(game, key=f"closing/{game.stage}/{first}/{second}/{game.number}", counted=False))
        except RecordError as exc:
            damaged.append(str(exc))
    for message in damaged:
        if say:
            say(f"left out of the site: {message}")
    credit = ("extra_credit", "completed", "beat_original")
    rows = [{k: v for k, v in asdict(row).items() if stage.credit or k not in credit} for row in stage.rows] \
        if stage else []
    return Closing(str(stage.stage if stage and stage.stage else config.closing), rows, games, challenges,
                   {c.team + ORIGINAL: c.team for c in challenges})


class _TeamOfPath(Mapping):
    """A closing record's bot to its team: a submission's digest (``arcade.contest.closing``
    names them so), or in a record an earlier arcade began, its path (``DIR/submissions/DIGEST/…``);
    it names what it is asked and lists nothing."""

    def __init__(self, owners: dict[str, str]) -> None:
        self.owners = owners

    def __getitem__(self, bot: str) -> str:
        if bot in self.owners:
            return self.owners[bot]
        found = _DIGEST.search(bot.replace(os.sep, "/"))
        if found is None or found.group(1) not in self.owners:
            raise KeyError(bot)
        return self.owners[found.group(1)]

    def __iter__(self):
        return iter(())

    def __len__(self) -> int:
        return 0


def publish_contest(folder: str | os.PathLike, out: str | os.PathLike, db=None, config=None,
                    say: Callable[[str], None] | None = None) -> Report:
    """Write (or bring up to date) the site of the contest in ``folder`` in ``out``: what a
    student may see of it (``public_site``), its ``standings.json`` as ``arcade contest standings
    --json`` prints it."""
    from arcade.contest.public import Public

    public = Public.of(folder)
    site, board = site_of(folder, db, config, say)
    report = publish(public_site(site, public), out)
    data = (json.dumps(public.json(board)) + "\n").encode()
    target = Path(out) / "standings.json"
    try:
        same = target.read_bytes() == data
    except OSError:
        same = False
    if not same:
        write_whole(target, data)
    return report


def public_site(site: Site, public) -> Site:
    """``site`` as a student may see it: every text that came from the contest's folder in its
    public form (``arcade.contest.public.Public``: no path of the machine's, no log, no host name,
    no secret), the board's (``Public.board``), the submissions' verdicts, the games' reasons (their
    pages, replays and records) and the closing stage's."""
    closing = site.closing
    if closing is not None:
        closing = replace(closing, standings=[public.json(dict(row)) for row in closing.standings],
                          games=[replace(game, reason=public.text(game.reason)) for game in closing.games])
    return replace(site, board=public.board(site.board),
                   submissions=[replace(s, reason=public.text(s.reason)) for s in site.submissions],
                   games=[replace(game, reason=public.text(game.reason)) for game in site.games], closing=closing)


def site_keeper(out: str):
    """The ``Publisher`` of ``arcade contest run --publish OUT`` (``arcade.contest.run``): the
    contest's site brought up to date in folder ``out``, only the pages that changed written; a
    site that cannot be written is a ``ContestError``."""
    from arcade.contest.config import ContestError
    from arcade.web.publish import PublishError

    def keep(folder: Path, config, db, say: Callable[[str], None]) -> None:
        try:
            publish_contest(folder, out, db=db, config=config, say=say)
        except PublishError as exc:
            raise ContestError(f"--publish: {exc}") from None

    return keep
