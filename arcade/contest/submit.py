"""``submit``: one submission's verdict, **accepted** or **rejected** with its reason in one line,
as an autograder gives it.

In order: the contest is open (its closing time not passed), the team's name matches the rule,
the files can be copied in (regular files only, capped, content-addressed), no other team's
accepted submission is the same bytes, and the admission probe passes in the sandbox
(``arcade.contest.probe``). A team's newer accepted submission takes its place on the board; every
verdict stays in the submissions log and the database (the history). The same bytes the team
sent before and had accepted are one submission: they take their place again, unprobed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from arcade.contest import store
from arcade.contest.config import Config, ContestError, check_team, load, load_again, secret_seed
from arcade.contest.db import Database
from arcade.contest.formats import format_of
from arcade.contest.packages import install_packages


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    team: str
    reason: str = ""
    digest: str = ""

    @property
    def line(self) -> str:
        from arcade.untrusted import clean

        if self.accepted:
            return f"accepted: {self.team}'s submission {self.digest[:12]}" + (f" ({self.reason})" if self.reason else "")
        return f"rejected: {clean(self.reason, cap=600)}"


def now_text() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def submit(folder: str | Path, team: str | None, spec: str, now: datetime | None = None) -> Verdict:
    """Judge ``spec`` (the submission's grammar: ``arcade.contest.store``) as ``team``'s
    submission to the contest in ``folder``; without ``team`` (``None`` or ``""``), the team the
    hand-in names itself (a notebook's team-name cell, ``PLAYER_NAME``/``TEAM_NAME``:
    ``store.declared_team``). A team name outside the rule, a closed contest, or a hand-in whose
    team cannot be told, is refused and written nowhere (it may be anyone's typing); every other
    verdict is recorded, a hand-in that names another team than the one given among them."""
    folder = Path(folder)
    config = load(folder)
    if team:
        try:
            check_team(config, team)
        except ContestError as exc:
            return Verdict(False, team, str(exc))
    if config.closed(now):
        return Verdict(False, team or "", f"the contest closed at {config.closes}")
    try:
        files = store.read(spec, config.max_bytes, config.game, team or "")
        declared, where = store.declared_team(files)
    except ContestError as exc:
        return record(folder, Verdict(False, team, str(exc)), "") if team else Verdict(False, "", str(exc))
    if not team:
        if declared is None:
            return Verdict(False, "", "no team given, and the hand-in names none (a notebook's team-name cell, "
                                      "PLAYER_NAME or TEAM_NAME): arcade contest submit DIR TEAM PATH")
        team = declared
        try:
            check_team(config, team)
        except ContestError as exc:
            return Verdict(False, "", f"the hand-in's {where} names the team: {exc}; give the team: "
                                      "arcade contest submit DIR TEAM PATH")
    elif declared is not None and same_name(declared) != same_name(team):
        from arcade.untrusted import clean

        return record(folder, Verdict(False, team, f"the hand-in's {where} names the team {clean(repr(declared), cap=60)}, "
                                                   f"not {team}"), files.entry)
    with Database(folder) as db:
        owner = db.owner(files.digest)
        if owner == team and any(s.team == team and s.digest == files.digest for s in db.current()):
            return Verdict(True, team, "already the team's current submission", files.digest)
        if owner == team:
            return record(folder, Verdict(True, team, "the same files as before", files.digest), files.entry, db, now, config)
        if owner is not None:
            return record(folder, Verdict(False, team, "the same files as another team's submission", files.digest),
                          files.entry, db)
    kept = store.keep(folder, files)
    problem = install_packages(folder, config, kept / files.entry.partition("/")[0])
    timing: list[float] = []
    problem = problem or judge(folder, config, files, kept, timing)
    if problem is None:
        keep_probe_pace(folder, files.digest, timing)
    if problem is not None:
        problem += beside(spec, files, problem)
    verdict = Verdict(problem is None, team, problem or "", files.digest)
    with Database(folder) as db:
        return record(folder, verdict, files.entry, db, now, config)


def beside(spec: str, files: store.Files, problem: str) -> str:
    """A hint for a file handed in alone that fails for want of a name or a module its folder
    holds (a Hog contest file's ``from hog import *`` of the student's own ``hog.py``): ``""``
    where there is none to give."""
    import os

    from bots.external.specs import SUFFIXES

    if len(files.entries) != 2 or not any(sign in problem for sign in ("NameError", "ImportError", "ModuleNotFound")):
        return ""
    path, _inner, _entry = store.split_submission(spec)
    try:
        others = sorted(name for name in os.listdir(path.parent) if name.endswith(SUFFIXES) and name != path.name)
    except OSError:
        return ""
    if not others:
        return ""
    from arcade.untrusted import clean

    return (f"; only {clean(path.name, cap=40)} was handed in, not its folder's {clean(', '.join(others[:3]), cap=80)}: "
            f"submit the folder, or FOLDER:{clean(path.name, cap=40)}")


def same_name(name: str) -> str:
    """A team's name as two names are compared (a hand-in's ``PLAYER_NAME = "HOG 9000"`` is the
    team ``hog_9000``): lower case, spaces and ``-`` as ``_``."""
    import re

    return re.sub(r"[\s-]+", "_", name.strip().lower())


def judge(folder: Path, config: Config, files: store.Files, kept: Path, timing: list[float] | None = None) -> str | None:
    """The admission probe of the kept copy (``None``: it passed), its positions drawn for this
    admission from the contest's secret (``arcade.seeds.probe_seed``: no student can compute them);
    ``timing`` gets each answer's seconds."""
    from arcade.contest.probe import probe

    from arcade.seeds import probe_seed

    spec = store.spec_of(folder, files.digest, files.entry)
    seed = probe_seed(secret_seed(folder), files.digest)
    try:
        game = config.make_game()
    except Exception as exc:  # noqa: BLE001 - checked when loaded; a message all the same
        return f"the contest's game cannot be made: {exc}"
    return probe(game, spec, config.limits, config.probe_positions, seed,
                 format_of(config).table_seconds, timing)


PROBES = "probes"
"""``DIR/probes/DIGEST.json``: a submission's seconds a move in its probe (``keep_probe_pace``),
what ``arcade contest status`` estimates its games by until it has played some."""


def keep_probe_pace(folder: Path, digest: str, timing: list[float]) -> None:
    """Keep the probe's mean seconds an answer for ``digest`` (written whole; an estimate's input,
    not evidence: a file that cannot be written is left out)."""
    import json

    from arcade.files import write_whole

    if not timing:
        return
    try:
        write_whole(Path(folder) / PROBES / f"{digest}.json",
                    json.dumps({"move_seconds": round(sum(timing) / len(timing), 6), "moves": len(timing)}))
    except OSError:
        pass


def probe_pace(folder: Path, digest: str) -> float | None:
    """The seconds a move ``digest`` took in its probe (``keep_probe_pace``), ``None`` if unknown."""
    import json

    try:
        value = json.loads((Path(folder) / PROBES / f"{digest}.json").read_text()).get("move_seconds")
    except (OSError, ValueError, AttributeError):
        return None
    return float(value) if type(value) in (int, float) and value >= 0 else None


def record(folder: Path, verdict: Verdict, entry: str, db: Database | None = None,
           now: datetime | None = None, config: Config | None = None) -> Verdict:
    """Write ``verdict`` to the submissions log, then the database, under the submit lock, an
    acceptance decided there and only there (``final``): whatever ran before it (the probe, an
    install) ran outside the lock, so what it found may no longer hold when it is written."""
    own = db is None
    db = db or Database(folder)
    try:
        with store.Lock(folder):
            verdict = final(folder, verdict, db, config or load(folder), now)
            line = {"team": verdict.team, "digest": verdict.digest, "entry": entry, "submitted": now_text(),
                    "verdict": "accepted" if verdict.accepted else "rejected", "reason": verdict.reason}
            store.log(folder, line)
            db.add_submission(line["team"], line["digest"], entry, line["submitted"], line["verdict"], line["reason"])
    finally:
        if own:
            db.close()
    return verdict


def final(folder: Path, verdict: Verdict, db: Database, config: Config, now: datetime | None = None) -> Verdict:
    """``verdict`` as it stands when it is written (called under the submit lock): an acceptance
    holds only if no other team's accepted submission is the same bytes (two teams sending them at
    once: the first written keeps them) and the contest has not closed meanwhile (its
    ``contest.toml`` read again, ``config`` the one read before: the instructor may have moved the
    time; ``now``: a test's clock)."""
    if not verdict.accepted:
        return verdict
    if db.owner(verdict.digest) not in (None, verdict.team):
        return Verdict(False, verdict.team, "the same files as another team's submission", verdict.digest)
    config = load_again(folder, config)
    if config.closed(now):
        return Verdict(False, verdict.team, f"the contest closed at {config.closes}, before the verdict "
                                            "(its probe ran past the closing time)", verdict.digest)
    return verdict
