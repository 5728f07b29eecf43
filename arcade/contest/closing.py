"""A format's closing stage, once the contest has closed: CS4341's groups (``closing_stage =
"groups"``), played over the final field (each team's current submission) by the tournament's own
groups format (``arcade.tournament``), its record ``DIR/records/closing.jsonl`` (a kill resumes it)
and its standings ``DIR/closing.json``, by team.

With CS4341's points (``points = "cs4341"``) it is the course's tournament whole. First each
team's original player (its first accepted submission) plays its new one (its current) where they
differ, as the stage ``original vs new`` of the same record: "The new player you submit on Oct.
11th will play against your original player from Oct. 1st … The winner of this match will
represent your team in the tournament." The course played one match; here it is
``games_per_pair`` games (the preset's 2: each side first once), and the original goes on only
when it won more of them (``arcade.tournament.formats.representative``). Then the groups, and the
course's extra credit from the groups' games (``extra_credit``), written into each row of
``closing.json`` (``extra_credit``, ``completed``, ``beat_original``) beside the challenges'
results (``challenges``: each team's new and original players' wins, the draws, who played on);
the board's points are then these (``arcade.contest.boardmodel``: ``ClosingStage.credit_of``).

On the season's conventions: the record names each player by its submission's digest (the kept
copy's path is found from it, never written), and its seed is ``arcade.seeds.closing_seed`` of
the contest's secret (its pairs' seeds and the groups' draw come from it), so that the secret
is in no file but ``DIR/secret``. A record begun by an earlier arcade, which wrote the secret in
its header and named the players by their paths, is refused, said in one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from arcade.contest import store
from arcade.contest.config import Config, ContestError, secret_seed
from arcade.contest.db import Database, Submission
from arcade.files import write_whole
from arcade.seeds import closing_seed

RESULT = "closing.json"
RECORD = "closing.jsonl"
"""The closing stage's record, in ``DIR/records/``."""


def originals(db: Database) -> dict[str, Submission]:
    """Each team's original player: its first accepted submission."""
    first: dict[str, Submission] = {}
    for submission in db.submissions():
        if submission.verdict == "accepted":
            first.setdefault(submission.team, submission)
    return first


def extra_credit(wins: int, draws: int, completed: bool, beat_original: bool) -> int:
    """CS4341's extra credit for a team's tournament: "+2 point for EACH game that your player wins
    in the tournament", "+1 point for EACH game that your player draws", "5 points for successfully
    completing at least one game (with a win, loss, or draw)", "5 points if your new player …
    wins against your original player"."""
    return 2 * wins + draws + 5 * bool(completed) + 5 * bool(beat_original)


def run_closing(folder: Path, config: Config, limits, jobs: int, say: Callable[[str], None]) -> list[dict] | None:
    """Play the closing stage (again from its record if it was begun), write ``closing.json``
    and return its standings; ``None`` with fewer than two teams."""
    from arcade.records.schema import RecordError
    from arcade.tournament.formats import TournamentError
    from arcade.tournament.runner import run_tournament

    course = config.points == "cs4341"
    with Database(folder) as db:
        current = sorted(db.current(), key=lambda s: s.team)
        first = originals(db) if course else {}
    if len(current) < 2:
        say("closing stage: fewer than two teams, nothing to play")
        return None
    specs = {s.digest: store.spec_of(folder, s.digest, s.entry) for s in current}
    teams = {s.digest: s.team for s in current}
    challenges = []
    for s in current:
        original = first.get(s.team)
        if original is not None and original.digest != s.digest:
            specs[original.digest] = store.spec_of(folder, original.digest, original.entry)
            teams[original.digest] = s.team
            challenges.append((s.digest, original.digest))
    secret = secret_seed(folder)
    record = Path(folder) / "records" / RECORD
    if _holds_secret(record, secret):
        raise ContestError(f"the closing stage stopped: {record} was begun by an earlier arcade and holds the "
                           "contest's secret seed: delete it, then run again to play the closing stage anew")
    try:
        result = run_tournament(config.game, [s.digest for s in current], settings=dict(config.options),
                                games=config.games, seed=closing_seed(secret), jobs=jobs, fmt=config.closing,
                                limits=limits, record=record, repair=True, challenges=challenges, specs=specs)
    except (TournamentError, RecordError) as exc:
        raise ContestError(f"the closing stage stopped: {exc}") from None
    rows = [{**s.as_json(), "team": teams[s.bot]} for s in result.standings]
    for row in rows:
        row.pop("bot")
    data: dict = {"stage": config.closing, "standings": rows}
    if course:
        data |= credit(rows, result.challenges, teams)
    write_whole(Path(folder) / RESULT, json.dumps(data, indent=1) + "\n")
    say(f"closing stage ({config.closing}) played: {rows[0]['team']} first")
    return rows


def credit(rows: list[dict], challenges: list, teams: dict[str, str]) -> dict:
    """CS4341's extra credit written into the closing's ``rows`` (each team's ``completed``,
    ``beat_original`` and ``extra_credit``), and the ``challenges``' results, each by team
    (``teams``: a player's digest to its team): ``new`` and ``original`` the two players' wins,
    ``draws``, ``games``, ``played`` which went on, and the two submissions' digests
    (``new_digest``, ``original_digest``)."""
    from arcade.tournament.formats import representative

    results = []
    beat = {}
    for challenge in challenges:
        team = teams[challenge.a]
        beat[team] = challenge.wins[0] > challenge.wins[1]
        results.append({"team": team, "new": challenge.wins[0], "original": challenge.wins[1],
                        "draws": challenge.draws, "games": challenge.games,
                        "played": "original" if representative(challenge) == challenge.b else "new",
                        "new_digest": challenge.a, "original_digest": challenge.b})
    for row in rows:
        row["completed"] = row["games"] > row["forfeits"]  # a game it did not forfeit: won, lost or drawn
        row["beat_original"] = beat.get(row["team"])
        row["extra_credit"] = extra_credit(row["wins"], row["draws"], row["completed"], bool(row["beat_original"]))
    return {"points": "cs4341", "challenges": results}


def _holds_secret(record: Path, secret: int) -> bool:
    """Whether the closing record ``record`` was begun by an earlier arcade: its header's seed is
    the contest's secret (it named its players by their paths too)."""
    from arcade.records.reader import open_regular
    from arcade.records.schema import RecordError

    try:
        with open_regular(record) as handle:
            header = json.loads(handle.readline(1 << 20))
    except (RecordError, OSError, ValueError):  # none yet, or no header: the record's own reader says so
        return False
    return type(header) is dict and header.get("seed") == secret


def closing_result(folder: Path) -> dict | None:
    try:
        return json.loads((Path(folder) / RESULT).read_text())
    except (OSError, ValueError):
        return None
