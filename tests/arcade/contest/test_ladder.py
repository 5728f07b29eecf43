"""``format = "ladder"``: OpenSkill ratings with their uncertainty, each round's meetings where one
game tells most, the stopping rule, the board's ``rating`` and ``uncertainty``, the same ladder
from the same seed, and a run killed at several moments resumed into the ladder an uninterrupted
run plays."""

from __future__ import annotations

import csv
import io
import json
import math
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade.contest import ladder
from arcade.contest.config import Config, ContestError, load, loads
from arcade.contest.db import Database
from arcade.contest.ladder import Meeting, Rating, Round
from arcade.contest.run import run
from arcade.contest.submit import submit
from tests.arcade.contest.helpers import arcade, bot, kill_9_then_finish, records


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


def season(tmp_path: Path, teams: dict[str, str], budget: int, *flags: str, sigma: float = 2.0) -> Path:
    folder = tmp_path / "c"
    assert arcade("contest", "new", str(folder), "--preset", "stats306", "--format", "ladder", "--games", "2",
                  "--time-limit", "10", *flags) == 0  # no time forfeit a busy machine makes in one run only
    path = folder / "contest.toml"
    text = path.read_text()
    assert "ladder_games = 60" in text and "ladder_sigma = 2.0" in text
    path.write_text(text.replace("ladder_games = 60", f"ladder_games = {budget}")
                    .replace("ladder_sigma = 2.0", f"ladder_sigma = {sigma}"))
    for team, name in teams.items():
        verdict = submit(folder, team, bot(tmp_path, name))
        assert verdict.accepted, verdict.line
    return folder


def board(folder: Path, capsys) -> list[dict]:
    capsys.readouterr()
    assert arcade("contest", "standings", str(folder), "--json") == 0
    return json.loads(capsys.readouterr().out)["standings"]


ratings = st.builds(Rating, st.floats(0, 50), st.floats(0.3, 25 / 3), st.just(0))


@settings(max_examples=200, deadline=None)
@given(ratings, ratings)
def test_the_information_of_a_game_is_what_openskills_update_takes_off_the_variances(x, y):
    model = ladder.model()
    expected = ladder.information(x, y)
    for ranks in ([1, 2], [2, 1]):  # whichever side wins
        [[a], [b]] = model.rate([[model.rating(mu=x.mu, sigma=x.sigma)], [model.rating(mu=y.mu, sigma=y.sigma)]],
                                ranks=ranks)
        shrunk = 0.5 * math.log(x.sigma ** 2 / a.sigma ** 2) + 0.5 * math.log(y.sigma ** 2 / b.sigma ** 2)
        assert shrunk == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert ladder.information(y, x) == pytest.approx(expected, rel=1e-12) and expected > 0


def test_the_closest_and_most_uncertain_meet_first_each_entry_once_a_round():
    config = Config(game="dfootball", format="ladder", games=2)
    rated = {"a": Rating(30, 2.5, 10), "b": Rating(29.5, 2.5, 10), "c": Rating(10, 2.5, 10),
             "d": Rating(25, 25 / 3, 0), "e": Rating(9.5, 2.5, 10)}
    planned = ladder.plan(config, [], list(rated), rated, secret=1)
    pairs = [(m.a, m.b) for m in planned.meetings]
    assert pairs[0] in (("a", "d"), ("b", "d"))  # the new entry's σ: its game tells most
    assert ("c", "e") in pairs and len({d for pair in pairs for d in pair}) == 2 * len(pairs) == 4
    assert planned.number == 1 and all((m.first, m.count) == (1, 2) for m in planned.meetings)
    again = ladder.plan(config, [planned], list(rated), rated, secret=1)
    assert all(m.first == 3 for m in again.meetings if (m.a, m.b) in pairs)  # numbered after the pair's games
    equal = {d: Rating(25, 5, 0) for d in "abcdefgh"}  # ties: broken by the contest's secret, the same each time
    assert ladder.plan(config, [], list(equal), equal, 7) == ladder.plan(config, [], list(equal), equal, 7)
    assert {ladder.plan(config, [], list(equal), equal, s).meetings for s in range(8)} != {
        ladder.plan(config, [], list(equal), equal, 0).meetings}


def test_the_stopping_rule():
    config = Config(game="dfootball", format="ladder", games=2, ladder_sigma=2.0, ladder_games=20)
    assert ladder.needing(config, {"a": Rating(25, 1.9, 5), "b": Rating(25.1, 1.9, 5)}) == set()  # σ under target
    assert ladder.needing(config, {"a": Rating(25, 3, 20), "b": Rating(25.1, 3, 20)}) == set()  # budget played
    assert ladder.needing(config, {"a": Rating(40, 3, 5), "b": Rating(20, 3, 5)}) == set()  # settled: 20 ≥ 2·√18
    assert ladder.needing(config, {"a": Rating(30, 3, 5), "b": Rating(25, 3, 5)}) == {"a", "b"}  # 5 < 2·√18
    three = {"a": Rating(40, 3, 5), "b": Rating(20, 3, 5), "c": Rating(19, 1, 5)}
    assert ladder.needing(config, three) == {"b"}  # c is sure enough; a is settled above b
    assert ladder.plan(config, [], ["a", "b"], {"a": Rating(40, 3, 5), "b": Rating(20, 3, 5)}, 1) is None
    assert ladder.plan(config, [], ["a"], {}, 1) is None  # one entry: nothing to play


def test_the_plan_is_appended_whole_and_a_line_cut_short_by_a_kill_is_no_round(tmp_path):
    first = Round(1, (Meeting("a", "b", 1, 2),))
    second = Round(2, (Meeting("a", "b", 3, 2), Meeting("c", "d", 1, 2)))
    ladder.append_round(tmp_path, first)
    with open(tmp_path / ladder.LOG, "a") as handle:
        handle.write('{"round":2,"meet')  # killed while writing it: none of its games was played
    assert ladder.read_rounds(tmp_path) == [first]
    ladder.append_round(tmp_path, second)
    assert ladder.read_rounds(tmp_path) == [first, second]
    assert (tmp_path / ladder.LOG).read_text().count("\n") == 2
    (tmp_path / ladder.LOG).write_text('{"round":1,"meetings":[["b","a",1,2]]}\n')
    with pytest.raises(ContestError, match=r"line 1 is damaged \(a meeting is not \[a, b, first, count\]\)"):
        ladder.read_rounds(tmp_path)


def test_contest_toml_says_the_ladders_rule_and_hogs_exact_scoring_is_no_ladder(tmp_path, capsys):
    assert arcade("contest", "new", str(tmp_path / "c"), "--game", "othello", "--format", "ladder") == 0
    config = load(tmp_path / "c")
    assert (config.format, config.ladder_sigma, config.ladder_games) == ("ladder", 2.0, 60)
    text = (tmp_path / "c" / "contest.toml").read_text()
    assert "once its rating's uncertainty (sigma) is below this" in text
    assert loads(text.replace("ladder_games = 60", "ladder_games = 9")).ladder_games == 9
    for bad, said in (("ladder_games = 0", "ladder_games must be a whole number from 1"),
                      ("ladder_sigma = -1.0", "ladder_sigma must be a number above 0")):
        with pytest.raises(ContestError, match=said):
            loads(text.replace(bad.split(" = ")[0] + (" = 60" if "games" in bad else " = 2.0"), bad))
    capsys.readouterr()
    assert arcade("contest", "new", str(tmp_path / "h"), "--preset", "cs61a-hog", "--format", "ladder") == 2
    assert "scoring = \"exact\" is for format = 'all-pairs' alone, not 'ladder'" in capsys.readouterr().err
    assert arcade("contest", "new", str(tmp_path / "a"), "--game", "othello") == 0
    assert "ladder_" not in (tmp_path / "a" / "contest.toml").read_text()  # all-pairs: not the ladder's fields


def test_a_ladder_plays_until_its_stopping_rule_and_the_board_shows_the_ratings(tmp_path, capsys):
    teams = {"alice": "far", "bob": "near", "carol": "middle", "dave": "lucky", "eve": "careless"}
    folder = season(tmp_path, teams, 6, "--sandbox", "none")
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    played = run(folder, say=lambda line: None)
    rounds = ladder.read_rounds(folder)
    assert played == sum(m.count for r in rounds for m in r.meetings) == len(records(folder))
    rows = board(folder, capsys)
    with Database(folder) as db:
        rated = ladder.board(folder, db, [row["digest"] for row in rows])
        assert ladder.needing(load(folder), rated) == set()  # stopped by its rule…
    assert all(row["games"] >= 6 or row["uncertainty"] < 2 for row in rows)  # …here: every budget played
    assert all(row["score"] == row["rating"] == round(rated[row["digest"]].mu, 2) for row in rows)
    assert all(row["uncertainty"] == round(rated[row["digest"]].sigma, 2) < 25 / 3 for row in rows)
    assert [row["rating"] for row in rows] == sorted((row["rating"] for row in rows), reverse=True)
    assert rows[-1]["team"] == "eve" and rows[-1]["forfeits"] > 0  # the careless one loses its games
    assert run(folder, say=lambda line: None) == 0  # nothing missing
    run(copy, jobs=2, say=lambda line: None)  # the same ladder from the same seed, on two processes
    assert records(copy) == records(folder)
    assert (copy / ladder.LOG).read_text() == (folder / ladder.LOG).read_text()
    assert arcade("contest", "standings", str(folder), "--csv") == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert table[0][:5] == ["rank", "team", "score", "rating", "uncertainty"] and len(table) == 6
    assert arcade("contest", "standings", str(folder)) == 0
    out = capsys.readouterr().out
    assert f"{rows[0]['rating']:.2f} ± {rows[0]['uncertainty']:.2f}" in out and "ladder" in out
    assert arcade("contest", "status", str(folder)) == 0
    assert "0 of 5 entries still need games" in capsys.readouterr().out
    assert submit(folder, "bob", bot(tmp_path, "slow")).accepted  # a new submission needs games: the ladder goes on
    assert run(folder, say=lambda line: None) > 0
    new = {row["team"]: row for row in board(folder, capsys)}["bob"]
    assert new["games"] >= 6 and new["uncertainty"] < 25 / 3


def test_kill_9_at_several_moments_then_resumed_is_the_uninterrupted_ladder(tmp_path, capsys):
    teams = {"alice": "slow", "bob": "lucky", "carol": "middle", "dave": "far"}
    folder = season(tmp_path, teams, 8)
    whole = tmp_path / "whole"
    shutil.copytree(folder, whole)
    kill_9_then_finish(folder, (1, 5, 10, 17), tmp_path / "logs", must_reach=False)
    run(whole, say=lambda line: None)
    assert len(records(whole)) >= 16 and records(folder) == records(whole)
    assert (folder / ladder.LOG).read_text() == (whole / ladder.LOG).read_text()
    assert board(folder, capsys) == board(whole, capsys)
    with Database(folder) as db:
        assert sum(db.counts().values()) == len(records(whole))
    assert arcade("contest", "rebuild", str(folder)) == 0  # the database made again from the records: the same
    assert board(folder, capsys) == board(whole, capsys)


def test_a_replaced_submissions_games_in_an_unfinished_round_are_left_out(tmp_path):
    folder = season(tmp_path, {"alice": "far", "bob": "near", "carol": "middle", "dave": "lucky"}, 4, "--sandbox", "none")
    config = load(folder)
    with Database(folder) as db:
        digests = [s.digest for s in db.current()]
        wanted = ladder.next_games(folder, config, db, digests, secret=5)
    assert len(wanted) == 2 and all(numbers == {1, 2} for _pair, numbers in wanted)
    assert len(ladder.read_rounds(folder)) == 1  # planned and written before a game is played
    assert submit(folder, "alice", bot(tmp_path, "slow")).accepted
    with Database(folder) as db:
        current = [s.digest for s in db.current()]
        again = ladder.next_games(folder, replace(config), db, current, secret=5)
    alive = set(current)
    assert again == [w for w in wanted if set(w[0]) <= alive] and len(again) == 1
