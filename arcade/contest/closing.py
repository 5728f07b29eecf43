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
the board's points are then these (``arcade.contest.standings``, ``closing_credit``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from arcade.contest import store
from arcade.contest.config import Config, ContestError, secret_seed
from arcade.contest.db import Database, Submission
from arcade.files import write_whole

RESULT = "closing.json"


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
    specs = {s.team: store.spec_of(folder, s.digest, s.entry) for s in current}
    teams = {spec: team for team, spec in specs.items()}
    challenges = []
    for s in current:
        original = first.get(s.team)
        if original is not None and original.digest != s.digest:
            spec = store.spec_of(folder, original.digest, original.entry)
            teams[spec] = s.team
            challenges.append((specs[s.team], spec))
    try:
        result = run_tournament(config.game, list(specs.values()), settings=dict(config.options), games=config.games,
                                seed=secret_seed(folder), jobs=jobs, fmt=config.closing, limits=limits,
                                record=Path(folder) / "records" / "closing.jsonl", repair=True, challenges=challenges)
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
    ``beat_original`` and ``extra_credit``), and the ``challenges``' results, each by team:
    ``new`` and ``original`` the two players' wins, ``draws``, ``games``, ``played`` which went
    on, and the two submissions' digests (``new_digest``, ``original_digest``)."""
    from arcade.tournament.formats import representative

    results = []
    beat = {}
    for challenge in challenges:
        team = teams[challenge.a]
        beat[team] = challenge.wins[0] > challenge.wins[1]
        results.append({"team": team, "new": challenge.wins[0], "original": challenge.wins[1],
                        "draws": challenge.draws, "games": challenge.games,
                        "played": "original" if representative(challenge) == challenge.b else "new",
                        "new_digest": _digest(challenge.a), "original_digest": _digest(challenge.b)})
    for row in rows:
        row["completed"] = row["games"] > row["forfeits"]  # a game it did not forfeit: won, lost or drawn
        row["beat_original"] = beat.get(row["team"])
        row["extra_credit"] = extra_credit(row["wins"], row["draws"], row["completed"], bool(row["beat_original"]))
    return {"points": "cs4341", "challenges": results}


def _digest(spec: str) -> str:
    """The digest of the kept submission ``spec`` names (``DIR/submissions/DIGEST/…``)."""
    import re

    found = re.search(r"/submissions/([0-9a-f]{64})/", spec.replace("\\", "/"))
    return found.group(1) if found else ""


def closing_result(folder: Path) -> dict | None:
    try:
        return json.loads((Path(folder) / RESULT).read_text())
    except (OSError, ValueError):
        return None


def closing_credit(folder: Path) -> dict[str, float]:
    """Each team's CS4341 extra credit, from ``closing.json`` (empty before the closing stage)."""
    result = closing_result(folder)
    rows = result.get("standings") if type(result) is dict else None
    return {str(row["team"]): row["extra_credit"] for row in rows or ()
            if type(row) is dict and "team" in row and type(row.get("extra_credit")) in (int, float)}
