"""A format's closing stage, once the contest has closed: CS4341's groups (``closing_stage =
"groups"``), played over the final field (each team's current submission) by the tournament's own
groups format (``arcade.tournament``), its record ``DIR/records/closing.jsonl`` (a kill resumes it)
and its standings ``DIR/closing.json``, by team."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from arcade.contest import store
from arcade.contest.config import Config, ContestError, secret_seed
from arcade.contest.db import Database
from arcade.files import write_whole

RESULT = "closing.json"


def run_closing(folder: Path, config: Config, limits, jobs: int, say: Callable[[str], None]) -> list[dict] | None:
    """Play the closing stage (again from its record if it was begun), write ``closing.json``
    and return its standings; ``None`` with fewer than two teams."""
    from arcade.records.schema import RecordError
    from arcade.tournament.formats import TournamentError
    from arcade.tournament.runner import run_tournament

    with Database(folder) as db:
        current = sorted(db.current(), key=lambda s: s.team)
    if len(current) < 2:
        say("closing stage: fewer than two teams, nothing to play")
        return None
    teams = {store.spec_of(folder, s.digest, s.entry): s.team for s in current}
    try:
        result = run_tournament(config.game, list(teams), settings=dict(config.options), games=config.games,
                                seed=secret_seed(folder), jobs=jobs, fmt=config.closing, limits=limits,
                                record=Path(folder) / "records" / "closing.jsonl", repair=True)
    except (TournamentError, RecordError) as exc:
        raise ContestError(f"the closing stage stopped: {exc}") from None
    rows = [{**s.as_json(), "team": teams[s.bot]} for s in result.standings]
    for row in rows:
        row.pop("bot")
    write_whole(Path(folder) / RESULT, json.dumps({"stage": config.closing, "standings": rows}, indent=1) + "\n")
    say(f"closing stage ({config.closing}) played: {rows[0]['team']} first")
    return rows


def closing_result(folder: Path) -> dict | None:
    try:
        return json.loads((Path(folder) / RESULT).read_text())
    except (OSError, ValueError):
        return None
