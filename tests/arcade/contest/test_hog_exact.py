"""Hog's exact scoring (``arcade.contest.hog_exact``, the ``cs61a-hog`` preset): strategies
tabulated in the sandbox, a pair's result computed by the solver instead of sampled, and sampled
games for a strategy that is no function of the scores (it draws random numbers, keeps state or
fails)."""

from __future__ import annotations

import json

import pytest

from arcade.contest.db import Database
from arcade.contest.evidence import pair_of
from arcade.contest.run import run
from arcade.contest.submit import submit
from games.hog_solver import evaluate
from tests.arcade.contest.helpers import arcade
from tests.arcade.contest.helpers import records

GOAL = 20
STRATEGIES = {
    "steady": "def final_strategy(score, opponent_score):\n    return 4\n",
    "bold": "def final_strategy(score, opponent_score):\n    return 6 if score < 12 else 2\n",
    "dice": "import random\n\ndef final_strategy(score, opponent_score):\n    return random.randrange(1, 7)\n",
    "counter": "calls = 0\n\ndef final_strategy(score, opponent_score):\n    global calls\n    calls += 1\n"
               "    return 3 + calls % 2\n",
}


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


def test_tabulated_pairs_are_exact_and_the_others_sampled(tmp_path, capsys):
    folder = tmp_path / "c"
    assert arcade("contest", "new", str(folder), "--preset", "cs61a-hog", "--option", f"goal={GOAL}",
                  "--games", "4") == 0
    digests = {}
    for team, text in STRATEGIES.items():
        path = tmp_path / f"{team}.py"
        path.write_text(text)
        verdict = submit(folder, team, str(path))
        assert verdict.accepted, verdict.line
        digests[team] = verdict.digest
    said = []
    run(folder, say=said.append)
    assert any("dice: scored by sampled games (not a function of the scores" in line for line in said)
    assert any("counter: scored by sampled games" in line for line in said)
    a, b = pair_of(digests["steady"], digests["bold"])
    with Database(folder) as db:
        exact = db.exact()
    assert list(exact) == [(a, b)]
    steady, bold = (lambda s, o: 4), (lambda s, o: 6 if s < 12 else 2)
    first, second = (steady, bold) if a == digests["steady"] else (bold, steady)
    assert exact[(a, b)] == pytest.approx((evaluate(first, second, GOAL) + 1 - evaluate(second, first, GOAL)) / 2)
    played = {tuple(sorted(key[:2])) for key in records(folder)}
    assert (a, b) not in played and len(played) == 5 and len(records(folder)) == 20
    capsys.readouterr()
    arcade("contest", "standings", str(folder), "--json")
    rows = {row["team"]: row for row in json.loads(capsys.readouterr().out)["standings"]}
    chance_steady = exact[(a, b)] if a == digests["steady"] else 1 - exact[(a, b)]
    assert rows["steady"]["score"] == pytest.approx(rows["steady"]["wins"] + 4 * chance_steady, abs=0.01)
    assert rows["dice"]["score"] == rows["dice"]["wins"] and rows["dice"]["games"] == 12
    before = rows
    assert arcade("contest", "rebuild", str(folder)) == 0
    capsys.readouterr()
    arcade("contest", "standings", str(folder), "--json")
    assert {row["team"]: row for row in json.loads(capsys.readouterr().out)["standings"]} == before
