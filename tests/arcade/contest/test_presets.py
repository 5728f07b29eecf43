"""Every preset runs a short season end to end from the command line: ``new``, two teams'
``submit`` (probed in the sandbox), ``run``, the board; CS4341's closes and plays its groups."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.arcade.contest.helpers import arcade
from tests.paths import ROOT

TEAMS = {
    "stats306": ("from games.dfootball import valid_moves\n\ndef strategy(game):\n    return valid_moves(game)[{i}]\n",
                 ("0", "-1")),
    "cs4341": (None, ()),
    "robot-ludo": ("from state import getmoves\n\ndef engine(board, turn, roll):\n    return getmoves(board, turn, roll)[{i}]\n",
                   ("0", "-1")),
    "cs61a-hog": ("def final_strategy(score, opponent_score):\n    return {i}\n", ("4", "6")),
    "toothpicks": ("def strategy(left):\n    return min({i}, left)\n", ("1", "2")),
}


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


@pytest.mark.parametrize("preset", list(TEAMS))
def test_a_short_season_of_every_preset(tmp_path, preset, capsys):
    folder = tmp_path / "c"
    extra = ["--option", "goal=30"] if preset == "cs61a-hog" else []
    assert arcade("contest", "new", str(folder), "--preset", preset, "--games", "2", *extra) == 0
    template, answers = TEAMS[preset]
    for team, answer in zip(("alpha", "beta"), answers or ("", "")):
        path = tmp_path / team / "bot.py"
        path.parent.mkdir()
        if template is None:
            shutil.copy(ROOT / "examples" / "ours.py", path)  # Othello: the greedy example, twice over
            if team == "beta":
                path.write_text(path.read_text() + "\n# beta's copy\n")
        else:
            path.write_text(template.format(i=answer))
        assert arcade("contest", "submit", str(folder), team, str(path)) == 0, capsys.readouterr().out
    if preset == "cs4341":
        toml = folder / "contest.toml"
        toml.write_text(toml.read_text().replace('closes = ""', 'closes = "2020-01-01T00:00:00Z"'))
    capsys.readouterr()
    assert arcade("contest", "run", str(folder)) == 0
    out = capsys.readouterr().out
    assert out.endswith("nothing missing\n")
    assert arcade("contest", "standings", str(folder), "--json") == 0
    board = json.loads(capsys.readouterr().out)
    rows = board["standings"]
    assert sorted(r["team"] for r in rows) == ["alpha", "beta"]
    assert board["points"] == {"stats306": "stats306", "cs4341": "cs4341"}.get(preset, "none")  # the course's own
    if board["points"] == "stats306":
        assert rows[0]["points"] == 6.0
    elif board["points"] == "none":
        assert all(r["points"] == 0 for r in rows)
    if preset == "cs61a-hog":
        assert sum(r["score"] for r in rows) == pytest.approx(2) and all(r["games"] == 0 for r in rows)
    else:
        assert all(r["games"] == 2 for r in rows)
    if preset == "cs4341":
        assert "closing stage (groups) played" in out and len(board["closing"]["standings"]) == 2
        credit = {r["team"]: r["extra_credit"] for r in board["closing"]["standings"]}  # the course's points
        assert board["points"] == "cs4341" and {r["team"]: r["points"] for r in rows} == credit
        assert min(credit.values()) >= 5  # each completed a game of the final
