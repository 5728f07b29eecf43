"""The courses' helper modules (``bots/course_modules/``): CS 61A's ``dice``, ``ucb`` and ``hog``,
Robot Ludo's ``state`` and ``match``, as a student's file imports them by their bare names.

They are thin facades over ``games.hog`` and ``games.ludo``: the same objects, the courses'
names, what ``from ... import *`` hands on, and the behaviour the courses' code has (checked
here against the games' own protocol on random positions).
"""

from __future__ import annotations

import copy
import importlib
import io
import random
import runpy
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.hog
import games.ludo
from bots import course_modules_path

NAMES = ("dice", "ucb", "hog", "state", "match")


@pytest.fixture(scope="module")
def course():
    """The five modules, imported as a bot's process does: their folder last on ``sys.path``."""
    folder = course_modules_path()
    saved = {name: sys.modules.pop(name) for name in NAMES if name in sys.modules}
    sys.path.append(folder)
    try:
        yield {name: importlib.import_module(name) for name in NAMES}
    finally:
        sys.path.remove(folder)
        for name in NAMES:
            sys.modules.pop(name, None)
        sys.modules.update(saved)


def star(module) -> set[str]:
    """The names ``from module import *`` binds."""
    namespace: dict = {}
    exec(f"from {module.__name__} import *", namespace)
    return set(namespace) - {"__builtins__"}


def test_the_folder_holds_plain_modules_beside_the_bots_package():
    folder = Path(course_modules_path())
    assert folder.parent == Path(games.ludo.__file__).resolve().parent.parent / "bots"
    assert {p.stem for p in folder.glob("*.py")} == set(NAMES)
    assert not (folder / "__init__.py").exists()  # a folder on a bot's path, not a package of ours


# -- CS 61A: dice ------------------------------------------------------------------------------

def test_dice_are_the_games_own(course):
    dice = course["dice"]
    for name in ("four_sided", "six_sided", "make_fair_dice", "make_test_dice"):
        assert getattr(dice, name) is getattr(games.hog, name)
    assert star(dice) == {"four_sided", "six_sided", "make_fair_dice", "make_test_dice", "randint"}


def test_make_test_dice_cycles_through_its_outcomes(course):
    die = course["dice"].make_test_dice(4, 1, 2)
    assert [die() for _ in range(7)] == [4, 1, 2, 4, 1, 2, 4]
    with pytest.raises(AssertionError):
        course["dice"].make_test_dice()


@pytest.mark.parametrize("name, sides", [("four_sided", 4), ("six_sided", 6), (None, 10)])
def test_fair_dice_draw_random_randint_from_the_global_random(course, name, sides):
    dice = course["dice"]
    die = getattr(dice, name) if name else dice.make_fair_dice(sides)
    random.seed(61)
    rolls = [die() for _ in range(200)]
    random.seed(61)
    assert rolls == [random.randint(1, sides) for _ in range(200)]
    assert set(rolls) == set(range(1, sides + 1))


# -- CS 61A: ucb -------------------------------------------------------------------------------

def test_main_runs_its_function_only_when_the_module_is_main(course, tmp_path, monkeypatch):
    script = tmp_path / "project.py"
    script.write_text("from ucb import main\nCALLS = []\n@main\ndef run(*args):\n    CALLS.append(args)\n")
    monkeypatch.setattr(sys, "argv", ["project.py", "-r", "x"])
    assert runpy.run_path(str(script), run_name="__main__")["CALLS"] == [("-r", "x")]
    as_a_bot = runpy.run_path(str(script), run_name="arcade_bot_project")
    assert as_a_bot["CALLS"] == [] and callable(as_a_bot["run"])  # main returns the function


def test_trace_log_and_interact_do_nothing(course, monkeypatch, capsys):
    ucb = course["ucb"]

    def f(x):
        return x + 1

    assert ucb.trace(f) is f
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # a read would find nothing; none happens
    assert ucb.interact() is None and ucb.interact("msg") is None
    assert ucb.log("message") is None and ucb.log_current_line() is None
    assert capsys.readouterr() == ("", "")
    assert star(ucb) == {"main", "trace", "interact", "log", "log_current_line"}


# -- CS 61A: hog -------------------------------------------------------------------------------

def test_hog_hands_on_the_course_api_but_not_a_final_strategy(course):
    hog = course["hog"]
    names = star(hog)
    assert names == set(hog.__all__)
    assert {"roll_dice", "take_turn", "play", "make_averaged", "max_scoring_num_rolls", "always_roll",
            "piggy_points", "more_boar", "GOAL_SCORE", "six_sided", "four_sided", "make_test_dice",
            "main", "trace", "interact"} <= names
    assert "final_strategy" not in names and not hasattr(hog, "final_strategy")
    for name in names - {"main", "trace", "interact"}:
        assert getattr(hog, name) is getattr(games.hog, name), name
    assert hog.main is course["ucb"].main


def test_hog_behaves_as_the_course_says(course):
    hog = course["hog"]
    assert hog.roll_dice(3, hog.make_test_dice(4, 6, 1)) == 1  # Sow Sad, all dice rolled
    assert hog.roll_dice(2, hog.make_test_dice(4, 6)) == 10
    assert hog.take_turn(0, 46) == 6  # Piggy Points: 4 + |4 - 6|
    assert hog.make_averaged(hog.roll_dice, 1000)(1, hog.make_test_dice(4, 2, 5, 1)) == 3.0
    assert hog.max_scoring_num_rolls(hog.make_test_dice(1, 6)) == 1
    assert hog.play(hog.always_roll(5), hog.always_roll(5), dice=hog.make_test_dice(5))[0] >= 100


# -- Robot Ludo: state and match -----------------------------------------------------------------

def test_state_and_match_names(course):
    state, match = course["state"], course["match"]
    for name in ("Board", "makemove", "getmoves", "isvalidboard", "isvalidmove"):
        assert getattr(state, name) is getattr(games.ludo, name)
    assert star(state) == {"Board", "makemove", "getmoves", "isvalidboard", "isvalidmove", "copy",
                           "deepcopy", "dataclass", "np"}
    assert state.np is np and state.copy is copy
    assert state.halfshift is match.halfshift is games.ludo.halfshift  # by name only from state
    assert {"match", "judge", "make_start_board", "halfshift", "simple_player", "simple_player2",
            "Board", "getmoves", "makemove", "random"} <= star(match)
    for name in ("match", "judge", "make_start_board", "simple_player", "simple_player2", "simple_player3"):
        assert getattr(match, name) is getattr(games.ludo, name)
    assert match.random is random


def test_match_and_judge_play_with_the_global_random(course):
    match = course["match"]
    first = match.match(10, 20, None, match.simple_player2, match.simple_player, seed=5)
    assert first in (0, 1, None)
    assert match.match(10, 20, None, match.simple_player2, match.simple_player, seed=5) == first
    random.seed(9)
    red, blue = match.judge(2, 6, None, match.simple_player, match.simple_player, games=20)
    assert red + blue == pytest.approx(1.0)


@st.composite
def positions(draw):
    """A Ludo game and a legal-looking position in it: counters on squares, in pens, home."""
    half = draw(st.integers(3, 20))
    length = 2 * half
    counters = draw(st.integers(1, 10))
    safe = draw(st.lists(st.integers(1, length - 1), max_size=3, unique=True))
    sides = []
    for _ in range(2):
        out = draw(st.integers(0, counters))
        squares = [0] * length
        for square in draw(st.lists(st.integers(0, length - 1), min_size=out, max_size=out)):
            squares[square] += 1
        sides.append((squares, draw(st.integers(0, counters - out))))
    (red, redpen), (blue, bluepen) = sides
    game = games.ludo.Ludo(counters=counters, length=length, safe=tuple(s for s in safe if s != half))
    board = games.ludo.Board(counters, length, list(game.safe), red, blue, redpen, bluepen)
    return game, board, draw(st.integers(0, 1)), draw(st.integers(1, 6))


@settings(max_examples=200, deadline=None)
@given(positions())
def test_getmoves_and_makemove_agree_with_the_games_protocol(course, position):
    state = course["state"]
    game, board, turn, roll = position
    assert state.isvalidboard(board)
    ours = game.state_from_board(board, turn, roll)
    moves = state.getmoves(board, turn, roll)
    assert moves == game.legal_moves(ours)
    for move in moves:
        assert state.isvalidmove(board, move)
        before = repr(board)
        after = state.makemove(board, move, copyboard=True)
        assert repr(board) == before
        played = game.play(ours, move)
        assert (after.red, after.blue, [after.redpen, after.bluepen]) == (
            list(played.red), list(played.blue), list(played.pens))


@settings(max_examples=100, deadline=None)
@given(positions())
def test_a_copied_board_never_aliases_lists_or_numpy_arrays(course, position):
    state = course["state"]
    _game, board, turn, roll = position
    arrays = state.Board(board.counters, board.length, np.array(board.safe), np.array(board.red),
                         np.array(board.blue), board.redpen, board.bluepen)
    for original in (board, arrays):
        copied = copy.copy(original)
        for field in ("safe", "red", "blue"):
            assert getattr(copied, field) is not getattr(original, field)
            assert list(getattr(copied, field)) == list(getattr(original, field))
        snapshot = [list(original.red), list(original.blue), original.redpen, original.bluepen]
        for move in state.getmoves(original, turn, roll):
            state.makemove(original, move, copyboard=True)
            state.makemove(original, move, True)
            assert [list(original.red), list(original.blue), original.redpen, original.bluepen] == snapshot


def test_makemove_without_a_copy_changes_the_board_itself(course):
    state = course["state"]
    board = course["match"].make_start_board(2, 6)
    assert state.makemove(board, (0, 0, 0), copyboard=False) is board and board.red[0] == 1
    assert state.makemove(board, (0, 0, 0), copy=False) is board and board.redpen == 0  # the notebook's word
