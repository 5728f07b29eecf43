"""Students' files in the courses' own shapes play unchanged: the function found by the contest's
name (``final_strategy`` in Hog, ``engine`` in Robot Ludo), and course-shaped sample submissions
(``tests/course_bots/``), each copied to a folder of its own, played through ``arcade match``
with and without the sandbox; and a bot that is a package, with relative imports."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from bots import course_modules_path
from bots.external import sandbox
from bots.adapters import ADAPTERS
from bots.external import is_file_spec, parse_spec, short_name
from bots.external.child import load_module
from bots.external.specs import package_of
from tests.paths import TESTS


def test_the_contests_names_come_first():
    assert ADAPTERS["hog"].default_functions == ("final_strategy", "strategy")
    assert ADAPTERS["ludo"].default_functions == ("engine", "your_engine")
    assert ADAPTERS["dfootball"].default_functions == ("my_strategy", "strategy")
    assert ADAPTERS["toothpicks"].default_functions == ("strategy", "Player")  # the notebook's class
    assert ADAPTERS["othello"].default_functions == ("strategy",)
    for adapter in ADAPTERS.values():
        assert adapter.default_function == adapter.default_functions[0]
        assert adapter.signature.startswith(adapter.default_function + "(")


def final(score, opponent_score):
    return 4


def plain(score, opponent_score):
    return 5


@pytest.mark.parametrize("module, name, found", [
    (SimpleNamespace(final_strategy=final, strategy=plain), "final_strategy", final),
    (SimpleNamespace(strategy=plain), "final_strategy", plain),  # the fallback
    (SimpleNamespace(strategy=plain), "mine", None),  # a name of the student's own: no fallback
    (SimpleNamespace(mine=final, strategy=plain), "mine", final),
    (SimpleNamespace(), "final_strategy", None),
])
def test_a_hog_file_without_final_strategy_plays_its_strategy(module, name, found):
    assert ADAPTERS["hog"].find_function(module, name) is found


# -- course-shaped submissions through `arcade match` --------------------------------------------

SAMPLES = TESTS / "course_bots"

PROBLEM = sandbox.bwrap_problem()
if PROBLEM is not None and os.environ.get("ARCADE_REQUIRE_SANDBOX"):
    raise RuntimeError(f"ARCADE_REQUIRE_SANDBOX is set and the sandbox cannot run: {PROBLEM}")
MODES = ["none", pytest.param("bwrap", marks=pytest.mark.skipif(
    PROBLEM is not None, reason=f"the bwrap sandbox cannot run here: {PROBLEM}"))]

# folder, the file as a student names it (no :function), game, opponent, games
SUBMISSIONS = [
    ("cs61a_hog", "hog.py", "hog", "always_roll_6", 4),
    ("hog_contest", "hog_contest.py", "hog", "more_boar", 4),
    ("own_dice", "hog.py", "hog", "always_roll_6", 2),
    ("robot_ludo", "engine.py", "ludo", "random", 2),
    ("toothpick_notebook", "notebook_player.py", "toothpicks", "random", 4),
    ("toothpick_notebook", "board_strategy.py", "toothpicks", "random", 4),
    ("toothpick_python_notebook", "toothpicks.ipynb", "toothpicks", "random", 4),  # a notebook's code cells
    ("ludo_notebook", "robot_ludo.ipynb", "ludo", "random", 2),
]


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "logs"
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(folder))
    return folder


def own_folder(tmp_path: Path, name: str) -> Path:
    """A copy of the sample ``name`` in a folder of its own, as a student hands it in."""
    folder = tmp_path / "submissions" / name
    shutil.copytree(SAMPLES / name, folder)
    return folder


def arcade_match(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", "match", *args],
                          capture_output=True, text=True, timeout=180, cwd=cwd, env=os.environ.copy())


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name, file, game, opponent, games", SUBMISSIONS, ids=[s[0] for s in SUBMISSIONS])
def test_a_course_shaped_submission_plays_unchanged(tmp_path, logs, mode, name, file, game, opponent, games):
    folder = own_folder(tmp_path, name)
    done = arcade_match(folder.parent, game, f"{name}/{file}", opponent, "--games", str(games), "--seed", "7",
                        "--sandbox", mode, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == games and sum(result["wins"]) + result["draws"] == games
    assert result["forfeits"] == [0, 0], result["forfeit_reasons"]
    log = next(logs.glob(f"{Path(file).stem}.*.log")).read_text()
    assert ("in the bwrap sandbox" if mode == "bwrap" else "NOT contained") in log
    assert "Traceback" not in log


@pytest.mark.parametrize("mode", MODES)
def test_without_its_own_dice_the_course_dice_is_found_instead(tmp_path, mode):
    """``own_dice/hog.py`` imports ``WHOSE``, which only the student's ``dice.py`` has: it plays
    above (their file wins over the course's), and without it the course's ``dice`` is the one
    found, so the import fails and the bot cannot load."""
    folder = own_folder(tmp_path, "own_dice")
    (folder / "dice.py").unlink()
    done = arcade_match(folder.parent, "hog", "own_dice/hog.py", "always_roll_6", "--games", "2",
                        "--sandbox", mode, "--json")
    assert done.returncode != 0
    assert "cannot import name 'WHOSE' from 'dice'" in done.stderr


# -- players that are objects ---------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("folder, spec, game, wins", [
    # the notebook's Player with its `def move(the_board)` (no self): found without :function
    ("toothpick_notebook", "notebook_player.py", "toothpicks", 6),
    ("toothpick_notebook", "board_strategy.py:SmartPlayer", "toothpicks", 6),  # a class: SmartPlayer().move
    ("toothpick_notebook", "board_strategy.py:SmartPlayer(greedy=False).move", "toothpicks", 6),
    # Robot Ludo's tournament script plays TDPlayer(color=0).make_a_move
    ("ludo_player", "td_player.py:TDPlayer(color=0, weights=[1.0, 0.5], name='td:1').make_a_move", "ludo", None),
])
def test_a_player_object_plays_as_its_course_builds_it(tmp_path, logs, mode, folder, spec, game, wins):
    """Issue 33, items 1 and 2: a Toothpick Takeaway player written against the notebook's classes
    (``the_board.state``, ``Player.move``) plays every game without a forfeit (and, playing the
    notebook's analysis, wins every one of six from ten against ``always_1``), and an object's
    method built with literal arguments is a bot, built in the bot's own process."""
    own_folder(tmp_path, folder)
    opponent = "always_1" if game == "toothpicks" else "random"
    done = arcade_match(tmp_path / "submissions", game, f"{folder}/{spec}", opponent, "--games", "6", "--seed", "4",
                        "--sandbox", mode, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["forfeits"] == [0, 0], result["forfeit_reasons"]
    if wins is not None:
        assert result["wins"][0] == wins


def test_a_players_class_that_needs_arguments_says_how_to_name_it(tmp_path):
    folder = own_folder(tmp_path, "ludo_player")
    (folder / "player.py").write_text("class Player:\n    def __init__(self, colour):\n        pass\n\n"
                                      "    def move(self, the_board):\n        return 1\n")
    done = arcade_match(folder.parent, "toothpicks", "ludo_player/player.py", "random", "--sandbox", "none")
    assert done.returncode == 2
    line, = done.stderr.strip().splitlines()
    assert "Player() cannot be made without arguments" in line and "file.py:Player(...).move" in line


# -- a bot that is a package ---------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("spec", ["packaged_bot:engine", "packaged_bot/engine.py", "packaged_bot/"])
def test_a_package_with_relative_imports_plays(tmp_path, logs, mode, spec):
    """``packaged_bot/__init__.py`` imports ``.engine``, which imports ``.weights``: the folder
    is loaded as a package (and is the bot's folder, ``/bot`` in the sandbox)."""
    folder = own_folder(tmp_path, "packaged_bot")
    done = arcade_match(folder.parent, "ludo", spec, "random", "--games", "2", "--seed", "3",
                        "--sandbox", mode, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["forfeits"] == [0, 0] and sum(result["wins"]) == 2
    assert len(list(logs.glob("packaged_bot.engine.packaged_bot-*.log"))) == 1


def test_package_specs_are_recognised_only_with_a_slash_or_a_function(tmp_path, monkeypatch):
    folder = own_folder(tmp_path, "packaged_bot")
    monkeypatch.chdir(folder.parent)
    assert is_file_spec("packaged_bot:engine") and is_file_spec("packaged_bot/") and is_file_spec(str(folder))
    assert not is_file_spec("packaged_bot")  # a bare name stays a built-in bot's name
    assert not is_file_spec("random:engine")  # no such folder
    assert short_name("packaged_bot:engine") == "packaged_bot:engine"
    assert short_name(f"{folder}/") == "packaged_bot"
    assert parse_spec("packaged_bot:engine", "ludo") == (folder / "__init__.py", "engine")
    assert parse_spec("packaged_bot/", "ludo") == (folder / "__init__.py", "engine")
    assert parse_spec("packaged_bot/weights.py:progress", "ludo") == (folder / "weights.py", "progress")
    assert package_of(folder / "engine.py") == "packaged_bot"
    assert package_of(SAMPLES / "robot_ludo" / "engine.py") is None


def test_load_module_runs_a_packages_submodule_with_its_relative_imports(tmp_path, monkeypatch):
    folder = own_folder(tmp_path, "packaged_bot")
    monkeypatch.syspath_prepend(course_modules_path())
    for name in ("state", "match"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    try:
        module = load_module(folder / "weights.py", "packaged_bot")
        assert module.__name__ == "arcade_bot_packaged_bot.weights"
        assert module.progress((1, 10, 3), 20) == 0  # halfshift(10, 20)
        assert load_module(folder / "__init__.py", "packaged_bot").engine.__module__ == "arcade_bot_packaged_bot.engine"
    finally:
        for name in [n for n in sys.modules if n.startswith("arcade_bot_packaged_bot") or n in ("state", "match")]:
            del sys.modules[name]


# -- Robot Ludo at the real tournament's settings ------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_the_ludo_entry_plays_a_full_match_at_the_contest_preset(tmp_path, logs, mode):
    """``robot_ludo/engine.py`` (``from state import ...``, ``from match import halfshift``, boards
    of numpy arrays) plays the tournament's 12 counters on 36 squares, safe 9 and 27, from a
    folder of its own: every game to its end, no forfeit."""
    folder = own_folder(tmp_path, "robot_ludo")
    done = arcade_match(folder.parent, "ludo", "robot_ludo/engine.py", "expectimax", "--games", "2", "--seed", "5",
                        "--option", "preset=contest", "--sandbox", mode, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["options"] == {"counters": 12, "length": 36, "safe": [9, 27], "starting": "red"}
    assert sum(result["wins"]) == 2 and result["forfeits"] == [0, 0], result["forfeit_reasons"]
    assert "Traceback" not in next(logs.glob("engine.*.log")).read_text()


def test_the_course_match_and_judge_run_the_entry_at_the_contest_settings(monkeypatch):
    """The course's own ``match``/``judge`` (``bots/course_modules/match.py``) at 12 counters on
    36 squares with safe squares 9 and 27, the entry against the notebook's engines."""
    monkeypatch.syspath_prepend(str(SAMPLES / "robot_ludo"))
    monkeypatch.syspath_prepend(course_modules_path())
    for name in ("state", "match", "engine"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    try:
        import engine
        import match as course_match

        assert course_match.match(12, 36, (9, 27), engine.engine, course_match.simple_player2, seed=3,
                                  maxiters=5000) in (0, 1)
        first, second = course_match.judge(12, 36, (9, 27), engine.engine, course_match.simple_player3, games=6)
        assert first + second == pytest.approx(1.0)
    finally:
        for name in ("state", "match", "engine"):
            sys.modules.pop(name, None)
