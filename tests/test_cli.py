"""The command line: listing bots, matches, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from arcade.cli import main


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_bots_lists_name_then_description(capsys):
    assert main(["bots", "toothpicks"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[0] == "perfect" and "multiple" in lines[0]
    assert [line.split()[0] for line in lines] == ["perfect", "random", "always_1", "always_2", "mirror"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["bots", "chess"], "unknown game 'chess'; valid games: dfootball, toothpicks, othello, ludo, hog"),
        (["match", "toothpicks", "perfect", "deep_blue"], "unknown bot 'deep_blue' for toothpicks; valid bots: perfect,"),
        (["match", "toothpicks", "perfect", "random", "--option", "count=0"], "option 'count' must be 1–99"),
        (["match", "toothpicks", "perfect", "random", "--option", "colour=red"], "valid options: count, max_take"),
        (["match", "toothpicks", "perfect", "random", "--option", "count"], "must look like KEY=VALUE"),
    ],
)
def test_mistakes_give_one_line_naming_the_choices_and_exit_2(args, message):
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arcade: error: ") and message in lines[0]


def test_match_json_is_one_object_and_nothing_else():
    done = run("match", "toothpicks", "always_1", "always_2", "--games", "10", "--seed", "4", "--json")
    assert done.returncode == 0
    result = json.loads(done.stdout)
    for key in ("game", "players", "games", "wins", "draws", "forfeits", "first_player_wins", "max_move_seconds"):
        assert key in result
    assert result["game"] == "toothpicks" and result["players"] == ["always_1", "always_2"]
    # From 10 the takes alternate 1 and 2, so whoever moves first takes the last one:
    # A first: 9 7 6 4 3 1 0; B first: 8 7 5 4 2 1 0.
    assert result["wins"] == [5, 5] and result["first_player_wins"] == [5, 5]


def test_the_same_seed_gives_the_same_match(capsys):
    outputs = []
    for _ in range(2):
        main(["match", "toothpicks", "random", "mirror", "--games", "40", "--seed", "11", "--json"])
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0]["wins"] == outputs[1]["wins"]
    main(["match", "toothpicks", "random", "mirror", "--games", "40", "--seed", "12", "--json"])
    other = json.loads(capsys.readouterr().out)
    assert other["seed"] == 12 and sum(other["wins"]) + other["draws"] == 40


def test_options_reach_the_game(capsys):
    main(["match", "toothpicks", "perfect", "perfect", "--games", "4", "--option", "count=9", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert result["options"] == {"count": 9, "max_take": 2}
    assert result["first_player_wins"] == [0, 0]  # from 9 the second mover wins


def test_match_table_without_json(capsys):
    assert main(["match", "toothpicks", "perfect", "random", "--games", "6"]) == 0
    out = capsys.readouterr().out
    assert "perfect" in out and "random" in out and "draws: 0" in out
