"""Toothpick Takeaway: the notebook's rules, examples, turn tree and analysis."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.base import IllegalMove, OptionError
from games.toothpicks import (
    Toothpicks,
    display_turn_tree,
    is_winning,
    position_tree,
    turn_tree_lines,
    winning_take,
)
from tests.paths import TESTS

REFERENCE = json.loads((TESTS / "reference" / "toothpick.json").read_text())


def play_takes(game: Toothpicks, takes: list[int]):
    state = game.initial_state()
    for take in takes:
        state = game.play(state, take)
    return state


@pytest.mark.parametrize("case", REFERENCE["display_turn_tree"]["cases"])
def test_display_turn_tree_prints_exactly_what_the_notebook_prints(case, capsys):
    display_turn_tree(*case["args"])
    assert capsys.readouterr().out == case["stdout"]


def test_turn_tree_from_ten_has_the_notebooks_shape():
    lines = list(turn_tree_lines(9, 1, 1, 0))
    assert lines[0] == "P1-1: (9)"
    assert lines[1] == "    P2-1: (8)"
    # every leaf ends the game with nothing left, and each leaf is a distinct game
    leaves = [line for line in lines if line.endswith("(0)")]
    assert len(leaves) == 55  # compositions of 9 into parts 1 and 2: Fibonacci(10)


def test_the_example_games_from_the_notebook():
    game = Toothpicks()
    examples = REFERENCE["example_games_tables"]["games"]
    # "No apparent strategy" and "Player 1 always takes 1" are consistent games
    for example in (examples[0], examples[2]):
        state = game.initial_state()
        for (player, take), total in zip(example["takes"], example["totals"]):
            assert state.to_move == player - 1
            state = game.play(state, take)
            assert state.left == total
        winner = int(example["result"].split()[1]) - 1
        assert state.result is not None and state.result.winner == winner


def test_the_always_takes_2_example_as_the_seed_prints_it():
    # The seed's table "Player 1 always takes 2" reads 2, 1, 2, 2, 2, 1 (Player 2 takes 2 on
    # turn 3); the reference's transcription has 1 there and totals 8 7 5 4 2 2, which do not
    # add up. The seed's takes end the game with Player 2 taking the last toothpick.
    game = Toothpicks()
    state = play_takes(game, [2, 1, 2, 2, 2])
    assert state.left == 1 and state.to_move == 1
    final = game.play(state, 1)
    assert final.result.winner == 1
    assert REFERENCE["example_games_tables"]["games"][1]["result"] == "Player 2 wins"


def consistent(row) -> bool:
    _, d_takes, a_takes, totals, _, _ = row
    return [sum(d_takes), sum(a_takes)] == totals and sum(totals) == 10


def test_one_manually_collected_row_does_not_add_up():
    # Game 5 of the notebook's CSV: D takes 1+1+2+1 = 5 but its total says 6; 9 were taken.
    bad = [row[0] for row in REFERENCE["manual_data_csv"]["rows"] if not consistent(row)]
    assert bad == [5]


@pytest.mark.parametrize("row", [r for r in REFERENCE["manual_data_csv"]["rows"] if consistent(r)])
def test_the_manually_collected_games(row):
    _, d_takes, a_takes, totals, start, winner = row
    takes = {"D": [t for t in d_takes if t], "A": [t for t in a_takes if t]}
    order = ["D", "A"] if start == "D" else ["A", "D"]
    game = Toothpicks()
    state = game.initial_state()
    sequence = []
    for turn in range(len(takes["D"]) + len(takes["A"])):
        who = order[turn % 2]
        sequence.append(who)
        state = game.play(state, takes[who][turn // 2])
    assert [sum(takes["D"]), sum(takes["A"])] == totals
    assert state.result is not None
    assert sequence[-1] == winner  # whoever took the last toothpick won


def test_the_notebooks_analysis_table():
    table = REFERENCE["analysis_claims"]["conjecture_table_N_to_winning_take"]
    for n, take in table.items():
        assert winning_take(int(n)) == take
        assert is_winning(int(n)) == (take is not None)


def test_legal_moves_and_illegal_takes():
    game = Toothpicks()
    state = game.initial_state()
    assert game.legal_moves(state) == [1, 2]
    for bad in (0, 3, -1, "2", 1.0, True):
        with pytest.raises(IllegalMove):
            game.play(state, bad)
    state = play_takes(game, [2, 2, 2, 2, 1])
    assert state.left == 1 and game.legal_moves(state) == [1]
    with pytest.raises(IllegalMove, match="1 left"):
        game.play(state, 2)
    end = game.play(state, 1)
    assert end.result.winner == 1 and "Player 2" in end.result.reason
    assert game.legal_moves(end) == []
    with pytest.raises(IllegalMove, match="over"):
        game.play(end, 1)


def test_options_and_their_bounds():
    game = Toothpicks(count=7, max_take=3)
    assert game.initial_state().left == 7
    assert game.legal_moves(game.initial_state()) == [1, 2, 3]
    for bad in ({"count": 0}, {"count": 100}, {"max_take": 0}, {"count": "many"}):
        with pytest.raises(OptionError):
            Toothpicks(**bad)


def test_events_record_the_take_and_the_totals():
    game = Toothpicks()
    state = play_takes(game, [2, 1])
    assert state.event.side == 1 and state.event.taken == 1 and state.event.left == 7
    assert state.taken == (2, 1)
    assert state.event.text == "Player 2 takes 1 toothpick, leaving 7"


def test_position_tree_is_cut_at_the_limit():
    lines, cut = position_tree(60, 1, limit=100)
    assert cut and len(lines) == 100
    lines, cut = position_tree(3, 2)
    assert not cut and lines[0] == "P2-1: (2)"


@given(count=st.integers(1, 99), max_take=st.integers(1, 9), seed=st.integers(0, 10**9))
def test_random_games_end_and_the_loser_could_not_move(count, max_take, seed):
    game = Toothpicks(count=count, max_take=max_take)
    rng = random.Random(seed)
    state = game.initial_state()
    taken = 0
    while state.result is None:
        moves = game.legal_moves(state)
        assert moves == list(range(1, min(max_take, state.left) + 1))
        take = rng.choice(moves)
        taken += take
        state = game.play(state, take)
        assert state.left == count - taken
        assert sum(state.taken) == taken
    loser = 1 - state.result.winner
    assert state.left == 0 and state.to_move == loser
    assert game.legal_moves(state) == []
    assert state.ply <= count


@given(count=st.integers(1, 99), max_take=st.integers(1, 9))
def test_the_longest_game_takes_one_toothpick_a_turn(count, max_take):
    game = Toothpicks(count=count, max_take=max_take)
    state = play_takes(game, [1] * count)
    assert state.over and state.ply == game.max_game_length() == count
