"""What the courses collected enters a season as handed in (``arcade/contest/store.py``'s
grammar): STATS 306's nbgrader notebook, named by its team-name cell; a CS 61A contest file beside
its own ``hog.py``, named by ``PLAYER_NAME``; a package's submodule entry; a notebook in the drop
folder. A hand-in that names another team than the one given, or none when none is given, is
refused in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest
from hypothesis import given, settings, strategies as st

from arcade.contest import store
from arcade.contest.db import Database
from arcade.contest.inbox import read_inbox
from arcade.contest.submit import same_name, submit
from tests.arcade.contest.helpers import arcade
from tests.bots.external.test_notebook import needs_r
from tests.course_bots.make_notebooks import stats306
from tests.paths import TESTS

SAMPLES = TESTS / "course_bots"
HOG_PROJECT = '''"""A student's project hog.py: the course's imports, their own helpers."""
from dice import six_sided, four_sided, make_test_dice
from ucb import main, trace, interact

GOAL_SCORE = 100


def free_points(score):
    return 4 + abs((score % 100) // 10 - score % 10)


def cautious(score, opponent_score):
    return 0 if free_points(opponent_score) >= 8 else 4
'''
HOG_CONTEST = '''from hog import *

PLAYER_NAME = 'Oski Bears'  # Change this line!


def final_strategy(score, opponent_score):
    return cautious(score, opponent_score)
'''


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


def season(tmp_path: Path, preset: str, *extra: str) -> Path:
    folder = tmp_path / preset
    assert arcade("contest", "new", str(folder), "--preset", preset, "--games", "2", *extra) == 0
    return folder


def hog_folder(tmp_path: Path, contest: str = HOG_CONTEST) -> Path:
    folder = tmp_path / "oski"
    folder.mkdir()
    (folder / "hog.py").write_text(HOG_PROJECT)
    (folder / "hog_contest.py").write_text(contest)
    shutil.copy(SAMPLES.parent.parent / "bots" / "course_modules" / "ucb.py", folder / "ucb.py")  # their own copy
    return folder


@needs_r
def test_the_course_notebook_enters_a_stats306_season_named_by_its_cell_and_plays(tmp_path, capsys):
    folder = season(tmp_path, "stats306")
    capsys.readouterr()
    notebook = SAMPLES / "stats306_notebook" / "instructions.ipynb"
    assert arcade("contest", "submit", str(folder), str(notebook)) == 0  # no team: the notebook's
    assert capsys.readouterr().out.startswith("accepted: wolverines's submission ")
    other = tmp_path / "mine" / "instructions.ipynb"
    other.parent.mkdir()
    shutil.copy(notebook, other)
    assert arcade("contest", "submit", str(folder), "bob", str(other)) == 1
    assert capsys.readouterr().out == ("rejected: the hand-in's the team-name cell names the team 'wolverines', "
                                       "not bob\n")
    changed = stats306()
    changed.cells[6].source = "bob"
    changed.cells[3].source = "my_strategy <- function(game) valid_moves(game)[[1]]"
    other.write_text(nbformat.writes(changed))
    assert arcade("contest", "submit", str(folder), "bob", str(other)) == 0  # given and named alike
    capsys.readouterr()
    assert arcade("contest", "run", str(folder)) == 0
    standings = json.loads(_out(capsys, "contest", "standings", str(folder), "--json"))
    rows = {row["team"]: row for row in standings["standings"]}
    assert rows["wolverines"]["games"] == 2 and rows["bob"]["games"] == 2
    assert rows["wolverines"]["forfeits"] == 0 and rows["bob"]["forfeits"] == 0


def _out(capsys, *args: str) -> str:
    capsys.readouterr()
    arcade(*args)
    return capsys.readouterr().out


def test_the_template_notebook_names_no_team_and_is_refused_without_one(tmp_path):
    folder = season(tmp_path, "stats306")
    template = stats306()
    template.cells[6].source = "YOUR ANSWER HERE"
    path = tmp_path / "instructions.ipynb"
    path.write_text(nbformat.writes(template))
    verdict = submit(folder, None, str(path))
    assert not verdict.accepted
    assert verdict.line == ("rejected: no team given, and the hand-in names none (a notebook's team-name cell, "
                            "PLAYER_NAME or TEAM_NAME): arcade contest submit DIR TEAM PATH")
    assert not (folder / "submissions.jsonl").exists()  # a verdict of no team is written nowhere


def test_a_malformed_notebook_is_refused_in_one_line_and_recorded(tmp_path):
    folder = season(tmp_path, "stats306")
    path = tmp_path / "instructions.ipynb"
    path.write_bytes(b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "ir"}}, "cells": 1}')
    verdict = submit(folder, "carol", str(path))
    assert verdict.line == "rejected: instructions.ipynb is a damaged notebook: it has no list of cells"
    assert [json.loads(line)["reason"] for line in (folder / "submissions.jsonl").read_text().splitlines()] == \
        ["instructions.ipynb is a damaged notebook: it has no list of cells"]


def test_a_contest_file_beside_its_own_hog_py_enters_as_a_folder(tmp_path):
    folder = season(tmp_path, "cs61a-hog")
    hand_in = hog_folder(tmp_path)
    alone = submit(folder, "oski_bears", str(hand_in / "hog_contest.py"))  # the file alone cannot play
    assert not alone.accepted and "NameError: name 'cautious' is not defined" in alone.reason
    assert alone.reason.endswith("; only hog_contest.py was handed in, not its folder's hog.py, ucb.py: submit the "
                                 "folder, or FOLDER:hog_contest.py")
    verdict = submit(folder, "oski_bears", str(hand_in))  # its folder: hog_contest.py plays, hog.py is its helper
    assert verdict.accepted, verdict.reason
    with Database(folder) as db:
        (current,) = db.current()
    assert current.entry == "oski/hog_contest.py:"
    named = submit(folder, "oski_bears", f"{hand_in}:hog_contest.py:final_strategy")
    assert named.accepted, named.reason
    with Database(folder) as db:
        assert [s.entry for s in db.current()] == ["oski/hog_contest.py:final_strategy"]


def test_a_hog_contest_file_names_its_team_by_player_name(tmp_path):
    folder = season(tmp_path, "cs61a-hog")
    hand_in = hog_folder(tmp_path)
    verdict = submit(folder, None, str(hand_in))
    assert verdict.line == ("rejected: the hand-in's PLAYER_NAME names the team: team name 'Oski Bears' does not "
                            "match the contest's rule ^[a-z_]+$ (and at most 40 letters, digits, _ or -); give the "
                            "team: arcade contest submit DIR TEAM PATH")
    assert submit(folder, "oski_bears", str(hand_in)).accepted  # the same name, as a team's name is written
    (hand_in / "hog_contest.py").write_text(HOG_CONTEST.replace("Oski Bears", "oski"))
    assert submit(folder, None, str(hand_in)).line.startswith("accepted: oski's submission ")
    refused = submit(folder, "golden", str(hand_in))
    assert refused.line == "rejected: the hand-in's PLAYER_NAME names the team 'oski', not golden"


def test_a_folder_of_several_files_that_could_play_asks_for_one(tmp_path):
    folder = season(tmp_path, "cs61a-hog")
    hand_in = hog_folder(tmp_path)
    (hand_in / "final.py").write_text("def final_strategy(score, opponent_score):\n    return 5\n")
    verdict = submit(folder, "oski_bears", str(hand_in))
    assert verdict.line == ("rejected: " + str(hand_in) + " holds 4 bot files at its top (final.py, hog_contest.py): "
                            "name the one that plays, FOLDER:FILE[:FUNCTION], or submit a package, or the file itself")
    assert submit(folder, "oski_bears", f"{hand_in}:final.py").accepted
    missing = submit(folder, "oski_bears", f"{hand_in}:../hog_contest.py")
    assert "holds no file ../hog_contest.py to play" in missing.reason


def test_a_package_plays_an_object_of_its_submodule(tmp_path):
    folder = season(tmp_path, "robot-ludo")
    package = tmp_path / "tdgammon"
    shutil.copytree(SAMPLES / "ludo_player", package)
    (package / "__init__.py").write_text("")
    spec = f"{package}:td_player.py:TDPlayer(color=0, weights=[1.0, 0.5]).make_a_move"
    verdict = submit(folder, "td", spec)
    assert verdict.accepted, verdict.reason
    with Database(folder) as db:
        assert [s.entry for s in db.current()] == ["tdgammon/td_player.py:TDPlayer(color=0, weights=[1.0, 0.5]).make_a_move"]


@needs_r
def test_a_notebook_in_the_drop_folder_enters_under_its_folders_team(tmp_path):
    folder = season(tmp_path, "stats306")
    drop = folder / "inbox" / "wolverines"
    drop.mkdir(parents=True)
    shutil.copy(SAMPLES / "stats306_notebook" / "instructions.ipynb", drop)
    said: list[str] = []
    assert read_inbox(folder, said.append, quiet=0) == 1
    assert said[0].startswith("inbox wolverines: accepted: wolverines's submission"), said


@pytest.mark.parametrize("spec, expected", [
    ("{d}", ("{d}", "", "")),
    ("{d}:final_strategy", ("{d}", "", "final_strategy")),
    ("{d}:hog_contest.py", ("{d}", "hog_contest.py", "")),
    ("{d}:hog_contest.py:final_strategy", ("{d}", "hog_contest.py", "final_strategy")),
    ("{d}:sub/x.py:P(name='a:b').m", ("{d}", "sub/x.py", "P(name='a:b').m")),
    ("{d}/hog_contest.py:final_strategy", ("{d}/hog_contest.py", "", "final_strategy")),
])
def test_the_submissions_grammar(tmp_path, spec, expected):
    hand_in = hog_folder(tmp_path)
    path, inner, entry = store.split_submission(spec.format(d=hand_in))
    assert (str(path), inner, entry) == tuple(part.format(d=hand_in) for part in expected)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_same_name_is_a_name_of_the_rules_letters_for_any_text(text):
    name = same_name(text)
    assert name == name.lower() and " " not in name and "-" not in name
    assert same_name(name) == name


# -- a hand-in's own packages ------------------------------------------------------------------------

def test_a_folders_packages_are_installed_for_it_from_the_contests_wheels_when_allowed(tmp_path):
    """A Robot Ludo entry's ``requirements.txt`` names a package: refused while the contest allows
    none, installed into the kept copy's ``.deps`` (from the contest's folder of wheels, offline)
    once ``packages`` names it; the student's own ``.deps`` is no part of the hand-in, so it is not
    counted against ``max_bytes``."""
    from tests.bots.external.test_deps import make_wheel

    folder = season(tmp_path, "toothpicks")
    make_wheel(folder / "wheels")
    hand_in = tmp_path / "picker"
    hand_in.mkdir()
    (hand_in / "requirements.txt").write_text("arcadetiny==1.0\n")
    (hand_in / "picker.py").write_text("from arcadetiny import pick\n\n\ndef strategy(n):\n    return pick([1, 2]) if n > 1 else 1\n")
    (hand_in / ".deps").mkdir()
    (hand_in / ".deps" / "huge.bin").write_bytes(b"x" * (2 << 20))  # over max_bytes: not the student's bytes
    refused = submit(folder, "picker", str(hand_in))
    assert refused.line == ("rejected: requirements.txt, line 1: arcadetiny is not among the packages this contest "
                            "allows (none; contest.toml's packages)")
    text = (folder / "contest.toml").read_text()
    (folder / "contest.toml").write_text(text.replace('packages = []', 'packages = ["arcadetiny"]')
                                         .replace('wheels = ""', 'wheels = "wheels"'))
    verdict = submit(folder, "picker", str(hand_in))
    assert verdict.accepted, verdict.reason
    kept = folder / "submissions" / verdict.digest / "picker"
    assert (kept / ".deps" / "arcadetiny" / "__init__.py").is_file()
    assert not (kept / ".deps" / "huge.bin").exists()
