"""Hog's course API against every vector of the course's own tests (../shared/reference/hog.json,
copied as tests/reference/hog.json): roll_dice, piggy_points, take_turn, more_boar, play
(fixed dice and the 100 fuzzed games, turn by turn), commentary transcripts, make_averaged,
max_scoring_num_rolls and the course's strategies."""

from __future__ import annotations

import json

import pytest

import games.hog as hog
from games.hog import (
    GOAL_SCORE,
    Hog,
    always_roll,
    announce_highest,
    announce_lead_changes,
    both,
    capture_commentary,
    final_strategy,
    make_averaged,
    make_test_dice,
    max_scoring_num_rolls,
    more_boar,
    more_boar_strategy,
    piggy_points,
    piggypoints_strategy,
    play,
    roll_dice,
    say_scores,
    silence,
    take_turn,
)
from games.base import CHANCE
from tests.paths import TESTS

VECTORS = json.loads((TESTS / "reference" / "hog.json").read_text())


def _cases(section: str) -> list:
    return VECTORS[section]["cases"]


def _ids(cases, fmt):
    return [fmt(i, c) for i, c in enumerate(cases)]


def _strategy(text: str):
    """The vectors write strategies as Python text: always_roll(n) or a lambda."""
    return eval(text, {"always_roll": always_roll})  # noqa: S307 (test data we ship)


def _dice(cycle):
    if cycle == "1..99":
        return make_test_dice(*range(1, 100))
    if isinstance(cycle, str):
        return make_test_dice(*eval(cycle))  # noqa: S307 ("[2]*55 + [1,2]*500")
    return make_test_dice(*cycle)


# -- roll_dice: every call of every case (a case's dice are shared by its calls) -----------------
ROLL_CALLS = [(i, j) for i, case in enumerate(_cases("roll_dice")) for j in range(len(case["calls"]))]


@pytest.mark.parametrize("case_index, call_index", ROLL_CALLS, ids=[f"case{i}-call{j}" for i, j in ROLL_CALLS])
def test_roll_dice_vectors(case_index, call_index):
    case = _cases("roll_dice")[case_index]
    dice = _dice(case["dice_cycle"])
    for call in case["calls"][:call_index]:
        assert roll_dice(call["num_rolls"], dice) == call["expected"]
    call = case["calls"][call_index]
    assert roll_dice(call["num_rolls"], dice) == call["expected"]


def test_roll_dice_rolls_every_die_even_after_a_one():
    calls = []

    def dice():
        calls.append(1)
        return 1

    assert roll_dice(7, dice) == 1
    assert len(calls) == 7


def test_roll_dice_rejects_zero_and_non_integers():
    with pytest.raises(AssertionError, match="at least once"):
        roll_dice(0, make_test_dice(3))
    with pytest.raises(AssertionError, match="integer"):
        roll_dice(2.0, make_test_dice(3))


@pytest.mark.parametrize("case", _cases("piggy_points"), ids=_ids(_cases("piggy_points"), lambda i, c: f"{i}-{c['args'][0]}"))
def test_piggy_points_vectors(case):
    assert piggy_points(*case["args"]) == case["expected"]


@pytest.mark.parametrize("case", _cases("take_turn"), ids=_ids(_cases("take_turn"), lambda i, c: f"{i}-roll{c['num_rolls']}"))
def test_take_turn_vectors(case):
    if case["dice_cycle"] is None:
        def dice():
            raise AssertionError("rolling zero dice must not roll")
    else:
        dice = _dice(case["dice_cycle"])
    assert take_turn(case["num_rolls"], case["opponent_score"], dice) == case["expected"]


def test_take_turn_calls_roll_dice(monkeypatch):
    # hog/tests/03.py: take_turn must go through roll_dice (looked up at call time)
    monkeypatch.setattr(hog, "roll_dice", lambda num_rolls, dice=None: 9002)
    assert hog.take_turn(5, 0) == 9002


def test_take_turn_checks_its_arguments():
    for bad, message in ((11, "more than 10"), (-1, "negative"), (1.5, "integer")):
        with pytest.raises(AssertionError, match=message):
            take_turn(bad, 0, make_test_dice(3))
    with pytest.raises(AssertionError, match="over"):
        take_turn(1, 100, make_test_dice(3))


@pytest.mark.parametrize("case", _cases("more_boar"), ids=_ids(_cases("more_boar"), lambda i, c: f"{i}-{c['args'][0]}v{c['args'][1]}"))
def test_more_boar_vectors(case):
    assert more_boar(*case["args"]) is case["expected"]


@pytest.mark.parametrize("case", _cases("play"), ids=_ids(_cases("play"), lambda i, c: f"play{i}"))
def test_play_vectors(case):
    result = play(
        _strategy(case["strategy0"]),
        _strategy(case["strategy1"]),
        case["score0"],
        case["score1"],
        dice=_dice(case["dice_cycle"]),
        goal=case["goal"],
    )
    assert list(result) == case["expected"]


def test_play_calls_each_strategy_once_per_turn_and_only_on_its_turn():
    calls = []

    def logger(who):
        def strategy(score, opponent):
            calls.append((who, score, opponent))
            return 1

        return strategy

    # dice 8, 2: P0 8-0; P1 2 (8 vs 2: no extra); P0 16 (min 1 < 2, max 6 > 2): extra ...
    final = play(logger(0), logger(1), dice=make_test_dice(8, 2), goal=20)
    assert calls[:3] == [(0, 0, 0), (1, 0, 8), (0, 8, 2)]
    assert calls[3:] == [(0, 16, 2), (0, 18, 2)]  # More Boar twice: the same player again
    assert final == (26, 2)


# -- the 100 fuzzed games, replayed turn by turn ------------------------------------------------
FUZZ = VECTORS["play_fuzz_traces"]["games"]


def _fuzz_replay(game):
    """A strategy per player answering each turn's num_rolls, checking who and the scores."""
    turns = game["turns"]
    position = {"turn": 0}
    seen = []

    def strategy_of(who):
        def strategy(score, opponent):
            turn = turns[position["turn"]]
            assert turn["who"] == who, f"turn {position['turn']}: player {who} moved, expected {turn['who']}"
            mine, theirs = turn["start"][who], turn["start"][1 - who]
            assert (score, opponent) == (mine, theirs)
            position["turn"] += 1
            return turn["num_rolls"]

        return strategy

    outcomes = [face for turn in turns for face in turn["outcomes"]]

    def say(score0, score1):
        seen.append([score0, score1])
        return say

    dice = make_test_dice(*outcomes) if outcomes else make_test_dice(6)
    final = play(strategy_of(0), strategy_of(1), game["score0"], game["score1"], dice, game["goal"], say)
    return final, seen, position["turn"]


@pytest.mark.parametrize("game", FUZZ, ids=[f"fuzz{g['test_number']}" for g in FUZZ])
def test_play_fuzzed_game_vectors(game):
    final, seen, turns_played = _fuzz_replay(game)
    assert turns_played == len(game["turns"])
    assert seen == [turn["end"] for turn in game["turns"]]
    assert list(final) == game["turns"][-1]["end"]


@pytest.mark.parametrize("game", FUZZ, ids=[f"engine{g['test_number']}" for g in FUZZ])
def test_engine_replays_fuzzed_games(game):
    """The arcade's engine, fed the same choices and faces, goes through the same turns."""
    rules = Hog(goal=game["goal"])
    state = rules.position(game["score0"], game["score1"], 0)
    for turn in game["turns"]:
        assert state.to_move == turn["who"]
        assert list(state.scores) == turn["start"]
        state = rules.play(state, turn["num_rolls"])
        if turn["num_rolls"]:
            assert state.to_move == CHANCE
            state = rules.play(state, tuple(turn["outcomes"]))
        assert list(state.scores) == turn["end"]
    assert state.over
    assert state.result.winner == (0 if state.scores[0] >= game["goal"] else 1)


# -- commentary ---------------------------------------------------------------------------------
COMMENTARY = _cases("commentary")


def _echo(score0, score1):
    print(score0, score1)
    return _echo


def _count(n):
    def say(score0, score1):
        print(n, score0)
        return _count(n + 1)

    return say


def _echo_total(score0, score1):
    print(score0, score1)
    return _total


def _total(score0, score1):
    print(score0 + score1)
    return _echo_total


def _echo_0(score0, score1):
    print("*", score0)
    return _echo_0


def _echo_1(score0, score1):
    print("**", score1)
    return _echo_1


SAYERS = {
    0: lambda: announce_lead_changes(),
    1: lambda: both(say_scores, announce_lead_changes()),
    2: lambda: announce_highest(1),
    3: lambda: announce_highest(1),
    4: lambda: both(announce_highest(0), announce_highest(1)),
    5: lambda: _echo,
    6: lambda: _count(1),
    7: lambda: _echo,
    8: lambda: _echo_total,
    9: lambda: _echo_total,
    10: lambda: both(_echo_0, _echo_1),
    11: lambda: both(say_scores, announce_lead_changes()),
}


def _printed(capsys) -> list[str]:
    out = capsys.readouterr().out
    return out.splitlines()


@pytest.mark.parametrize("index", range(len(COMMENTARY)), ids=[f"commentary{i}" for i in range(len(COMMENTARY))])
def test_commentary_vectors(index, capsys):
    case = COMMENTARY[index]
    say = SAYERS[index]()
    if "calls" in case:
        functions = [say]
        for call, expected in zip(case["calls"], case["printed_per_call"]):
            say = say(*call)
            functions.append(say)
            assert _printed(capsys) == expected, call
        if "then_call_f1_again" in case:
            again = case["then_call_f1_again"]
            functions[1](*again["args"])
            assert _printed(capsys) == again["printed"]
    else:
        spec = case["play"]
        play(_strategy(spec["strategy0"]), _strategy(spec["strategy1"]), dice=_dice(spec["dice_cycle"]), goal=spec["goal"], say=say)
        assert _printed(capsys) == case["printed"]


def test_capture_commentary_collects_instead_of_printing(capsys):
    with capture_commentary() as lines:
        say = both(say_scores, announce_lead_changes())
        say(10, 0)
    assert lines == ["Player 0 now has 10 and Player 1 now has 0", "Player 0 takes the lead by 10"]
    assert capsys.readouterr().out == ""


def test_silence_says_nothing(capsys):
    assert silence(3, 4) is silence
    assert capsys.readouterr().out == ""


# -- make_averaged and max_scoring_num_rolls ----------------------------------------------------
@pytest.mark.parametrize("case", _cases("make_averaged"), ids=_ids(_cases("make_averaged"), lambda i, c: f"{i}-{c['fn']}"))
def test_make_averaged_vectors(case):
    dice = _dice(case["dice_cycle"])
    function = dice if case["fn"] == "dice" else roll_dice
    args = case["args"] + ([dice] if case["fn"] == "roll_dice" else [])
    averaged = make_averaged(function, case["trials"])
    if "expected_two_calls" in case:
        assert [averaged(*args), averaged(*args)] == case["expected_two_calls"]
    else:
        assert averaged(*args) == case["expected"]


def test_make_averaged_default_is_1000_trials():
    calls = []
    make_averaged(lambda: calls.append(1) or 2)()
    assert len(calls) == 1000


@pytest.mark.parametrize("case", _cases("max_scoring_num_rolls"), ids=_ids(_cases("max_scoring_num_rolls"), lambda i, c: f"{i}"))
def test_max_scoring_num_rolls_vectors(case):
    assert max_scoring_num_rolls(_dice(case["dice_cycle"]), case["trials"]) == case["expected"]


# -- the course's strategies --------------------------------------------------------------------
@pytest.mark.parametrize("case", _cases("piggypoints_strategy"), ids=_ids(_cases("piggypoints_strategy"), lambda i, c: f"{i}"))
def test_piggypoints_strategy_vectors(case):
    assert piggypoints_strategy(**case["args"]) == case["expected"]


@pytest.mark.parametrize("case", _cases("more_boar_strategy"), ids=_ids(_cases("more_boar_strategy"), lambda i, c: f"{i}"))
def test_more_boar_strategy_vectors(case):
    assert more_boar_strategy(**case["args"]) == case["expected"]


def test_course_strategy_defaults():
    # cutoff 8, num_rolls 6: piggy_points(14) = 7 < 8 rolls 6; piggy_points(9) = 13 rolls 0
    assert piggypoints_strategy(0, 14) == 6
    assert piggypoints_strategy(0, 9) == 0
    assert more_boar_strategy(20, 36) == 0  # 20 + 7 = 27 against 36: min 2 < 3, max 7 > 6


def test_final_strategy_is_valid_everywhere():
    """hog/tests/12.py: for every score and opponent score below 100, an int from 0 to 10."""
    for score in range(GOAL_SCORE):
        for opponent in range(GOAL_SCORE):
            n = final_strategy(score, opponent)
            assert type(n) is int and 0 <= n <= 10


def test_always_roll():
    strategy = always_roll(5)
    assert strategy(0, 0) == 5 and strategy(99, 99) == 5


def test_winner_and_average_win_rate_with_fixed_dice(monkeypatch):
    # with dice always 6, always_roll(5) (30 a turn) beats always_roll(1) whoever starts
    monkeypatch.setattr(hog, "six_sided", make_test_dice(6))
    monkeypatch.setattr(hog, "play", lambda s0, s1: play(s0, s1, dice=make_test_dice(6)))
    assert hog.winner(always_roll(5), always_roll(1)) == 0
    assert hog.winner(always_roll(1), always_roll(5)) == 1
    assert hog.average_win_rate(always_roll(5), always_roll(1)) == 1.0


def test_run_experiments_from_the_command_line(monkeypatch, capsys):
    # python -m games.hog -r runs the experiments; with dice that always show 6 they are quick
    monkeypatch.setattr(hog, "average_win_rate", lambda strategy, baseline=None: 0.5)
    hog.run("-r")
    out = capsys.readouterr().out
    assert "Max scoring num rolls for six-sided dice:" in out and "final_strategy win rate: 0.5" in out
    monkeypatch.setattr("sys.argv", ["hog.py"])
    hog.run()
    assert capsys.readouterr().out == ""
