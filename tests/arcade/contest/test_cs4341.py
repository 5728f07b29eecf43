"""CS4341's contest as the course ran it (the ``cs4341`` preset): programs handed in as the course
collected them (a folder of code and an executable named the team) play a season in the sandbox
and their games are recorded, one that breaks the referee's rules is refused at admission or
forfeits in the referee's words; the closing stage plays each team's original player against its
new one, the winner plays the groups, and the points are the course's extra credit
(``points = "cs4341"``: ``arcade.contest.closing``), on the command line and the published site.

The season of programs runs in the bwrap sandbox: it skips without one, and fails if
``ARCADE_REQUIRE_SANDBOX`` is set; the closing stage's season is of file bots, unsandboxed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade.contest.closing import credit, extra_credit
from arcade.contest.config import Config, ContestError, check
from arcade.tournament.formats import CHALLENGE
from bots.external import sandbox
from tests.arcade.contest.helpers import arcade
from tests.bots.external.programs import program
from tests.paths import ROOT

PROBLEM = sandbox.bwrap_problem()
if PROBLEM is not None and os.environ.get("ARCADE_REQUIRE_SANDBOX"):
    raise RuntimeError(f"ARCADE_REQUIRE_SANDBOX is set and the sandbox cannot run: {PROBLEM}")
needs_bwrap = pytest.mark.skipif(PROBLEM is not None, reason=f"the bwrap sandbox cannot run here: {PROBLEM}")

GREEDY = (ROOT / "examples" / "ours.py").read_text()
FLAKY = GREEDY + ("\n\ncalls = 0\n_greedy = strategy\n\n\ndef strategy(board, player):\n    global calls\n"
                  "    calls += 1\n    if calls > 6:  # past the admission probe's six positions\n"
                  "        raise RuntimeError('flaky after six moves')\n    return _greedy(board, player)\n")


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))
    return tmp_path / "logs"


def submit(capsys, folder: Path, *args: str) -> str:
    arcade("contest", "submit", str(folder), *args)
    return capsys.readouterr().out.strip()


def close(folder: Path) -> None:
    toml = folder / "contest.toml"
    toml.write_text(toml.read_text().replace('closes = ""', 'closes = "2020-01-01T00:00:00Z"'))


def record_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


@needs_bwrap
def test_programs_play_a_season_in_the_sandbox_and_their_games_are_recorded(tmp_path, capsys, logs):
    folder = tmp_path / "c"
    assert arcade("contest", "new", str(folder), "--preset", "cs4341", "--games", "2", "--time-limit", "2") == 0
    students = tmp_path / "students"
    gamma = program(students, "gamma", "shell").parent  # a script running the code beside it
    tired = program(students, "tired", "tired").parent  # greedy for three moves a game, then garbage
    garbage = program(students, "garbage", "garbage").parent
    eps = students / "eps.py"
    eps.write_text(GREEDY)
    capsys.readouterr()
    assert submit(capsys, folder, "gamma", str(gamma)).startswith("accepted: gamma's submission")
    assert submit(capsys, folder, f"{tired}:program").startswith("accepted: tired's submission")  # its name: its team
    assert submit(capsys, folder, "eps", str(eps)).startswith("accepted: eps's submission")
    assert submit(capsys, folder, "garbage", str(garbage)) == \
        "rejected: as Blue, move 1: garbage played Z 9: off the board (Invalid move!)"
    assert submit(capsys, folder, "zeta", str(gamma)) == f"rejected: {gamma} holds no program named zeta at its top " \
        "(it holds gamma): a program is the team's executable (a script beginning with its #! line, or a compiled " \
        "program), named as the course's groupname"
    entries = {line["team"]: line["entry"] for line in map(json.loads, (folder / "submissions.jsonl").open())
               if line["verdict"] == "accepted"}
    assert entries == {"gamma": "gamma/gamma:program", "tired": "tired/tired:program", "eps": "bot/eps.py:"}

    assert arcade("contest", "run", str(folder)) == 0
    assert capsys.readouterr().out.endswith("6 games played; nothing missing\n")
    games = [game for path in (folder / "records").glob("*--*.jsonl") for game in record_lines(path)]
    assert len(games) == 6 and all(game["moves"] for game in games)
    forfeits = [game["reason"] for game in games if game.get("forfeit") is not None]
    assert len(forfeits) == 4 and all("tired played Z 9: off the board (Invalid move!)" in r for r in forfeits)
    assert arcade("contest", "standings", str(folder), "--json") == 0
    rows = {row["team"]: row for row in json.loads(capsys.readouterr().out)["standings"]}
    assert {team: (row["games"], row["forfeits"]) for team, row in rows.items()} == \
        {"gamma": (4, 0), "eps": (4, 0), "tired": (4, 4)}
    log = next(logs.glob("gamma.program.*.log")).read_text()
    assert "in the bwrap sandbox" in log and "gamma read: " in log  # each game's end, told in end_game


def test_the_closing_stage_is_the_courses_tournament(tmp_path, capsys):
    folder = tmp_path / "c"
    assert arcade("contest", "new", str(folder), "--preset", "cs4341", "--games", "2", "--time-limit", "2",
                  "--sandbox", "none") == 0
    assert 'points = "cs4341"' in (folder / "contest.toml").read_text()
    hand_ins = [("alpha", FLAKY), ("alpha", GREEDY), ("beta", GREEDY), ("beta", FLAKY), ("gamma", GREEDY),
                ("delta", FLAKY)]  # alpha's new player is better, beta's worse; gamma and delta hand in once
    capsys.readouterr()
    for number, (team, code) in enumerate(hand_ins):
        path = tmp_path / "hand-ins" / f"{team}-{number}" / "bot.py"
        path.parent.mkdir(parents=True)
        path.write_text(f"{code}\n# {team}'s\n")
        assert submit(capsys, folder, team, str(path)).startswith(f"accepted: {team}'s")
    close(folder)
    assert arcade("contest", "run", str(folder)) == 0
    assert "closing stage (groups) played" in capsys.readouterr().out
    closing = json.loads((folder / "closing.json").read_text())
    matches = {c["team"]: c for c in closing["challenges"]}
    assert {team: (c["new"], c["original"], c["played"]) for team, c in matches.items()} == \
        {"alpha": (2, 0, "new"), "beta": (0, 2, "original")}  # the flaky player forfeits both games
    lines = record_lines(folder / "records" / "closing.jsonl")
    digests = {c["team"]: (c["new_digest"], c["original_digest"]) for c in closing["challenges"]}
    groups = [" ".join(line["pair"]) for line in lines if line["stage"] != CHALLENGE]
    assert sum(line["stage"] == CHALLENGE for line in lines) == 4 and len(groups) == 16
    assert not any(digests["beta"][0] in pair for pair in groups)  # beta's original played for it
    assert any(digests["beta"][1] in pair for pair in groups) and any(digests["alpha"][0] in pair for pair in groups)
    rows = {row["team"]: row for row in closing["standings"]}
    for team, row in rows.items():
        assert row["extra_credit"] == 2 * row["wins"] + row["draws"] + 5 * row["completed"] + 5 * bool(row["beat_original"])
    assert (rows["alpha"]["beat_original"], rows["beta"]["beat_original"], rows["gamma"]["beat_original"]) == \
        (True, False, None)
    assert rows["delta"]["completed"] is False and rows["delta"]["extra_credit"] == 0  # it forfeited every game
    assert all(rows[team]["completed"] for team in ("alpha", "beta", "gamma"))

    before = (folder / "closing.json").read_bytes()
    assert arcade("contest", "run", str(folder)) == 0  # the closing stage again: read from its record
    assert (folder / "closing.json").read_bytes() == before
    capsys.readouterr()
    assert arcade("contest", "standings", str(folder), "--json") == 0
    board = json.loads(capsys.readouterr().out)
    assert board["points"] == "cs4341"
    assert {row["team"]: row["points"] for row in board["standings"]} == \
        {team: row["extra_credit"] for team, row in rows.items()}
    assert arcade("contest", "standings", str(folder)) == 0
    text = capsys.readouterr().out
    assert f"alpha ({rows['alpha']['extra_credit']} extra credit)" in text
    assert "original vs new: alpha's new player 2, its original 0, 0 drawn; the new played the groups (+5 extra credit)" \
        in text and "beta's new player 0, its original 2, 0 drawn; the original played the groups\n" in text

    assert arcade("contest", "publish", str(folder), str(tmp_path / "site")) == 0
    page = (tmp_path / "site" / "closing.html").read_text()
    assert "Extra credit" in page and 'id="challenges"' in page and "beta (original)" in page
    team_pages = sorted(p.name.split("-")[0] for p in (tmp_path / "site" / "teams").iterdir())
    assert team_pages == ["alpha", "beta", "delta", "gamma"]  # an original player's games are its team's


def test_the_courses_points_need_its_tournament():
    with pytest.raises(ContestError, match="closing_stage must be \"groups\""):
        check(Config(game="othello", points="cs4341"))
    assert check(Config(game="othello", points="cs4341", closing="groups")).points == "cs4341"


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6), st.integers(0, 6),
                          st.integers(0, 2), st.integers(0, 2)), min_size=1, max_size=6))
def test_the_extra_credit_is_the_courses(teams):
    """Each team: its groups' wins, draws, losses and forfeits, its new player's and original's
    wins in their match (both 0: no match)."""
    rows, challenges, teams_of = [], [], {}
    for number, (wins, draws, losses, forfeits, new, original) in enumerate(teams):
        team = f"t{number}"
        games = wins + draws + losses
        rows.append({"team": team, "wins": wins, "draws": draws, "losses": losses, "games": games,
                     "forfeits": min(forfeits, losses)})
        if new or original:
            a, b = f"{'a' * 63}{number}", f"{'b' * 63}{number}"  # the two players' digests
            teams_of |= {a: team, b: team}
            challenges.append(SimpleNamespace(stage=CHALLENGE, a=a, b=b, wins=[new, original], draws=0,
                                              games=new + original))  # a PairResult's counts
    result = credit(rows, challenges, teams_of)
    for row, (wins, draws, losses, forfeits, new, original) in zip(rows, teams):
        completed = row["games"] > row["forfeits"]
        assert row["completed"] == completed
        assert row["beat_original"] == ((new > original) if (new or original) else None)
        assert row["extra_credit"] == extra_credit(wins, draws, completed, new > original) == \
            2 * wins + draws + 5 * completed + 5 * (new > original)
    for match in result["challenges"]:
        assert match["played"] == ("original" if match["original"] > match["new"] else "new")
        assert match["new_digest"].startswith("a") and match["original_digest"].startswith("b")
