"""The command line: listing bots, matches, and one-line errors with exit status 2."""

from __future__ import annotations

import ast
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
    assert [line.split()[0] for line in lines[:-1]] == ["perfect", "random", "always_1", "always_2", "mirror"]
    assert lines[-1] == ("your own: path/to/file.py[:function] (or a notebook, .ipynb), strategy(toothpicks_left) -> take "
                         "(without :function: strategy, else Player)")


def test_bots_names_the_contests_function_for_a_file_bot(capsys):
    assert main(["bots", "hog"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "your own: path/to/file.py[:function] (or a notebook, .ipynb), final_strategy(score, opponent_score) -> dice "
        "(without :function: final_strategy, else strategy)")


@pytest.mark.parametrize(
    "args, message",
    [
        (["bots", "chess"], "unknown game 'chess'; valid games: dfootball, toothpicks, othello, ludo, hog"),
        (["match", "toothpicks", "perfect", "deep_blue"], "unknown bot 'deep_blue' for toothpicks; valid bots: perfect,"),
        (["match", "toothpicks", "perfect", "random", "--option", "count=0"], "option 'count' must be 1–99"),
        (["match", "toothpicks", "perfect", "random", "--option", "colour=red"], "valid options: count, max_take"),
        (["match", "toothpicks", "perfect", "random", "--option", "count"], "must look like KEY=VALUE"),
        (["match", "ludo", "random", "random", "--option", "preset=world"],
         "unknown preset 'world' for ludo; presets: contest, notebook"),
        (["match", "toothpicks", "perfect", "random", "--option", "preset=contest"],
         "unknown preset 'contest' for toothpicks; presets: none"),
        (["match", "ludo", "random", "random", "--option", "counters=16"], "option 'counters' must be 1–15"),
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


def test_a_preset_reaches_the_game_and_options_beside_it_override_it(capsys):
    main(["match", "ludo", "random", "random", "--games", "2", "--option", "preset=contest", "--json"])
    assert json.loads(capsys.readouterr().out)["options"] == {"counters": 12, "length": 36, "safe": [9, 27],
                                                              "starting": "red"}
    main(["match", "ludo", "random", "random", "--games", "2", "--option", "preset=notebook",
          "--option", "starting=blue", "--json"])
    assert json.loads(capsys.readouterr().out)["options"] == {"counters": 10, "length": 20, "safe": [],
                                                              "starting": "blue"}


def test_match_table_without_json(capsys):
    assert main(["match", "toothpicks", "perfect", "random", "--games", "6"]) == 0
    out = capsys.readouterr().out
    assert "perfect" in out and "random" in out and "draws: 0" in out


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN", "0", "-1", "soon"])
@pytest.mark.parametrize(
    "command",
    [
        ["match", "toothpicks", "random", "random"],
        ["tournament", "toothpicks", "random", "perfect"],
        ["othello-player", "me"],
        ["othello-referee", "alpha", "beta"],
    ],
    ids=["match", "tournament", "othello-player", "othello-referee"],
)
def test_time_limit_must_be_a_positive_finite_number(command, value, capsys, tmp_path):
    """argparse's ``float`` takes ``nan`` (every bot would forfeit) and ``inf`` (a hung bot would
    never be stopped): each ``--time-limit`` refuses them in one line, with exit status 2."""
    extra = ["--dir", str(tmp_path)] if command[0].startswith("othello") else []
    assert main([*command, *extra, f"--time-limit={value}"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and list(tmp_path.iterdir()) == []
    assert captured.err == f"arcade: error: --time-limit must be a positive, finite number of seconds, not {value!r}\n"


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_float_option_refuses_nan_and_infinity(value):
    done = run("match", "othello", "random", "random", "--games", "1", "--option", f"time_limit={value}", "--json")
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("arcade: error: option 'time_limit' ") and value in lines[0]


def test_time_limit_in_a_subprocess_is_one_line_and_status_2():
    done = run("match", "toothpicks", "random", "random", "--time-limit", "nan", "--json")
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == ["arcade: error: --time-limit must be a positive, finite number of seconds, not 'nan'"]


@pytest.mark.parametrize("columns", [60, 80])
def test_tournament_standings_keep_the_seed_in_the_title_and_a_long_name_in_its_column(tmp_path, columns, capsys,
                                                                                      monkeypatch):
    bot = tmp_path / "a_student_submission_with_a_rather_long_name.py"
    bot.write_text("def strategy(toothpicks_left):\n    return 1\n")
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(["tournament", "toothpicks", "perfect", "random", f"{bot}:strategy", "--format", "groups",
                 "--seed", "12345", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    table = lines[: next(i for i, line in enumerate(lines) if line.startswith("└")) + 1]
    assert "seed 12345" in table[0] and all(len(line) <= columns for line in table)
    rows = [line for line in table if line.startswith("│")]
    assert len(rows) == 3  # one line a bot: a long name is cut with …, never folded or run on
    (long_row,) = [row for row in rows if "…" in row]
    assert [cell.strip() for cell in long_row.split("│")][-2] in ("semi-final", "final")
    assert all(len(row.split("│")) == 8 for row in rows)


def test_cut_middle_keeps_both_ends():
    from arcade.commands.tournament import cut_middle

    assert cut_middle("short", 10) == "short"
    assert cut_middle("a_student_submission.py:strategy", 12) == "a_stud…ategy"
    for width in range(0, 40):
        assert len(cut_middle("a_student_submission.py:strategy", width)) <= width


def test_a_match_does_not_report_a_stopped_move_as_the_slowest_answer(capsys, monkeypatch):
    import time

    import bots.toothpicks as toothpick_bots
    from bots.base import ERROR, BotEntry, Forfeit
    from games.base import Termination

    def stopped(game, state, ctx):
        time.sleep(0.2)
        raise Forfeit(ERROR, "no answer after 0.1s; stopped", Termination.TIME)

    monkeypatch.setattr(toothpick_bots, "BOTS", {**toothpick_bots.BOTS,
                                                 "stopper": BotEntry.function("stopper", "is stopped", stopped)})
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["match", "toothpicks", "perfect", "stopper", "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    (row,) = [line for line in out.splitlines() if "stopper" in line and "│" in line]
    assert "no answer" in row and "ms" not in row


def test_options_lists_a_games_options_with_what_they_accept(capsys):
    assert main(["options", "ludo"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["key", "accepts", "default"]
    keys = [line.split()[0] for line in lines[1:-1]]
    assert keys == ["counters", "length", "safe", "starting"]
    assert "--option" in lines[-1]
    assert main(["options", "nosuchgame"]) == 2


def test_an_unknown_flag_prints_the_commands_usage_not_the_top_levels(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["match", "toothpicks", "perfect", "random", "--bogus"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: arcade match") and "unrecognized arguments: --bogus" in err


def test_match_help_says_a_bot_may_be_a_file(capsys):
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    assert "path/to/bot.py[:function]" in capsys.readouterr().out


MENU_MODULES = {"arcade", "arcade.app", "arcade.catalog", "arcade.cli", "arcade.screens", "arcade.screens.menu",
                "arcade.widgets", "arcade.widgets.footer", "games", "games.base"}
"""What ``arcade`` with no command may import of the project: the app and its menu."""


def loaded_by(argv: list[str]) -> set[str]:
    """The modules ``arcade.cli.main(argv)`` imports, in a fresh interpreter, the app's run
    replaced by nothing (it would take the terminal) and ``--help``'s exit caught."""
    code = (
        "import sys\n"
        "import arcade.app\n"
        "arcade.app.ArcadeApp.run = lambda self, *a, **k: None\n"
        "before = set(sys.modules) - {'arcade', 'arcade.app', 'arcade.catalog', 'arcade.screens',\n"
        "    'arcade.screens.menu', 'arcade.widgets', 'arcade.widgets.footer', 'games', 'games.base'}\n"
        "import arcade.cli, io, contextlib\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        arcade.cli.main({argv!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(sorted(set(sys.modules) - before))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return set(ast.literal_eval(done.stdout))


def test_the_arcade_command_alone_imports_the_menu_and_no_command():
    """``arcade`` opens the menu having imported the app and nothing of the commands: no
    argument parser, no tournament pool, no records, no bot (the start-up issue's 46 modules)."""
    ours = {m for m in loaded_by([]) if m.split(".")[0] in ("arcade", "bots", "games")}
    assert ours <= MENU_MODULES, sorted(ours - MENU_MODULES)
    assert not {"argparse", "multiprocessing", "concurrent.futures.process"} & loaded_by([])


@pytest.mark.parametrize("command", ["play", "match", "tournament", "replay", "bot", "hog", "othello-player"])
def test_a_command_imports_its_own_module_and_no_other_commands(command):
    from arcade.cli import COMMANDS

    commands = {m for m in loaded_by([command, "--help"]) if m.startswith("arcade.commands.")}
    assert commands == {"arcade.commands.common", f"arcade.commands.{COMMANDS[command][0]}"}


def test_the_command_table_names_every_parser_its_module_registers():
    """``COMMANDS`` is the one list of commands: each module registers exactly the commands the
    table gives it (in any order), each with the table's help, and ``arcade --help`` lists them all."""
    import argparse
    import importlib

    from arcade.cli import COMMANDS, Commands, build_parser

    for module in {module for module, _ in COMMANDS.values()}:
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(f"arcade.commands.{module}").register(Commands(sub))
        assert set(sub.choices) == {name for name, (owner, _) in COMMANDS.items() if owner == module}
        for action in sub._choices_actions:
            assert action.help == COMMANDS[action.dest][1]
    helped = build_parser("").format_help()
    for name, (_, text) in COMMANDS.items():
        assert name in helped and text.split()[0] in helped
    assert set(build_parser().parse_args(["bots", "hog"]).__dict__) >= {"command", "game", "run"}
