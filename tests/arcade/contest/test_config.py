"""A contest's ``contest.toml`` and presets (``arcade.contest.config``): human-readable, holding no
secret, every preset a valid contest, and the team-name rule refusing, never cleaning."""

from __future__ import annotations

import os
import re
import tomllib
from datetime import datetime, timezone

import pytest
from hypothesis import given, settings, strategies as st

from arcade.contest.config import (PRESETS, Config, ContestError, check_team, create, dumps, load, loads,
                                   secret_seed)
from tests.arcade.contest.helpers import arcade


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_makes_a_contest_whose_file_reads_back_the_same(tmp_path, name, capsys):
    assert arcade("contest", "new", str(tmp_path / name), "--preset", name) == 0
    config = load(tmp_path / name)
    assert config.game == PRESETS[name]["game"] and config.games == PRESETS[name]["games"]
    assert loads(dumps(config)) == config
    text = (tmp_path / name / "contest.toml").read_text()
    assert "# each pair's games" in text and tomllib.loads(text)["game"] == config.game
    seed = secret_seed(tmp_path / name)
    assert str(seed) not in text and (tmp_path / name / "secret").stat().st_mode & 0o777 == 0o600


def test_the_courses_settings():
    stats = PRESETS["stats306"]
    assert stats["game"] == "dfootball" and stats["options"] == {"n": 11} and stats["games"] == 100
    assert stats["points"] == "stats306"
    assert PRESETS["cs4341"]["closing"] == "groups" and PRESETS["cs4341"]["options"]["time_limit"] == 10.0
    assert PRESETS["cs61a-hog"]["scoring"] == "exact"


def test_the_robot_ludo_preset_is_the_challenges_contest_settings(tmp_path, capsys):
    arcade("contest", "new", str(tmp_path / "c"), "--preset", "robot-ludo")
    assert load(tmp_path / "c").options == {"counters": 12, "length": 36, "safe": [9, 27], "starting": "red"}


def test_options_and_flags_override_the_preset_and_bad_ones_are_one_line(tmp_path, capsys):
    assert arcade("contest", "new", str(tmp_path / "c"), "--preset", "stats306", "--option", "n=5",
                  "--games", "4", "--closes", "2018-12-15T12:00:00-05:00") == 0
    config = load(tmp_path / "c")
    assert config.options == {"n": 5} and config.games == 4 and config.closed()
    assert config.closing_time() == datetime(2018, 12, 15, 17, tzinfo=timezone.utc)
    assert arcade("contest", "new", str(tmp_path / "c"), "--game", "hog") == 2
    assert "holds a contest already" in capsys.readouterr().err
    assert arcade("contest", "new", str(tmp_path / "d"), "--game", "hog", "--option", "goal=0") == 2
    assert arcade("contest", "new", str(tmp_path / "e"), "--game", "chess") == 2
    assert arcade("contest", "new", str(tmp_path / "f"), "--game", "hog", "--closes", "noon") == 2
    err = capsys.readouterr().err
    assert "unknown game" in err and "not an ISO time" in err and "Traceback" not in err
    assert arcade("contest", "submit", str(tmp_path / "nothing"), "a", "x.py") == 2
    assert "holds no contest" in capsys.readouterr().err


def test_a_contests_secret_is_written_whole_private_and_never_over_a_file_or_a_link(tmp_path, capsys):
    assert arcade("contest", "new", str(tmp_path / "c"), "--game", "hog") == 0
    secret = tmp_path / "c" / "secret"
    assert re.fullmatch(r"\d+\n", secret.read_text()) and os.stat(secret).st_mode & 0o777 == 0o600
    assert sorted(p.name for p in (tmp_path / "c").iterdir()) == ["contest.toml", "inbox", "records", "secret",
                                                                 "submissions"]  # no temporary file left
    for planted in ("old secret\n", None):  # a leftover secret, or a link a student planted
        folder = tmp_path / ("left" if planted else "linked")
        folder.mkdir()
        if planted:
            (folder / "secret").write_text(planted)
        else:
            (folder / "secret").symlink_to(tmp_path / "stolen")
        assert arcade("contest", "new", str(folder), "--game", "hog") == 2
        assert "holds a contest's secret already" in capsys.readouterr().err
        assert not (tmp_path / "stolen").exists() and not (folder / "contest.toml").exists()
        if planted:
            assert (folder / "secret").read_text() == planted


def test_a_hand_edited_file_is_checked(tmp_path):
    create(tmp_path / "c", Config(game="toothpicks"))
    path = tmp_path / "c" / "contest.toml"
    path.write_text(path.read_text().replace("games_per_pair = 100", "games_per_pair = 0"))
    with pytest.raises(ContestError, match="games must be a whole number from 1"):
        load(tmp_path / "c")
    path.write_text("game = [")
    with pytest.raises(ContestError, match="is not TOML"):
        load(tmp_path / "c")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=50))
def test_a_team_name_is_accepted_only_as_the_rule_says_and_never_cleaned(name):
    config = Config(game="dfootball")
    ok = re.fullmatch(r"[a-z_]{1,40}", name) is not None
    try:
        check_team(config, name)
        accepted = True
    except ContestError as exc:
        accepted = False
        assert "\n" not in str(exc) and "\x1b" not in str(exc)
    assert accepted == ok


def test_each_preset_keeps_its_courses_numbers():
    """The presets are the courses' contests (README's "What each course's contest takes"): STATS
    306's 100 games a pair and its points; the Robot Ludo tournament script's 10 games a pairing
    with each engine as red and as blue; no points where a course stated none."""
    assert PRESETS["stats306"]["games"] == 100 and PRESETS["stats306"]["points"] == "stats306"
    assert PRESETS["robot-ludo"]["games"] == 20 and PRESETS["robot-ludo"]["points"] == "none"
    assert PRESETS["cs61a-hog"]["points"] == "none" and PRESETS["toothpicks"]["points"] == "none"


def test_a_contest_read_again_mid_edit_keeps_the_last_good_config(tmp_path):
    """``contest.toml`` caught half-written (an editor's truncate, then write) by a run or a
    verdict: the read is tried again, and the config read before is kept if it stays broken."""
    import threading

    from arcade.contest.config import create, load, load_again

    folder = tmp_path / "c"
    first = create(folder, Config(game="toothpicks", options={}, games=2))
    path = folder / "contest.toml"
    good = path.read_text()
    path.write_text("")
    assert load_again(folder, first, tries=2) is first
    path.write_text(good.replace('closes = ""', 'closes = "2030-01-01T00:00:00+00:00"')[:40])
    fixed = threading.Timer(0.1, lambda: path.write_text(good.replace('closes = ""', 'closes = "2030-01-01T00:00:00+00:00"')))
    fixed.start()
    again = load_again(folder, first)
    fixed.join()
    assert again.closes == "2030-01-01T00:00:00+00:00" and load(folder) == again
