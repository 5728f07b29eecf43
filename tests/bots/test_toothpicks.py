"""Toothpick Takeaway bots: each does what it says; `perfect` never loses a won position."""

from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest

from arcade.cli import main
from arcade.match import run_match
from bots.base import Context
from bots.registry import bots_for, resolve
from games.toothpicks import Toothpicks, is_winning


@lru_cache(maxsize=None)
def solved_win(left: int, max_take: int) -> bool:
    """Independent brute force: the side to move wins iff some take leaves a lost position."""
    return any(not solved_win(left - t, max_take) for t in range(1, min(max_take, left) + 1))


def choose(name: str, game: Toothpicks, state) -> int:
    return resolve("toothpicks", name).make(game).choose(state, Context(rng=random.Random(0)))


def state_with(game: Toothpicks, left: int):
    return game.initial_state().__class__(to_move=0, left=left, start=game.count)


@pytest.mark.parametrize("max_take", [2, 3])
def test_perfect_never_loses_a_won_position_exhaustively(max_take):
    game = Toothpicks(count=60, max_take=max_take)

    @lru_cache(maxsize=None)
    def perfect_wins(left: int) -> bool:
        """Perfect moves from `left`; does it win against every possible reply?"""
        take = choose("perfect", game, state_with(game, left))
        assert take in game.legal_moves(state_with(game, left))
        rest = left - take
        if rest == 0:
            return True
        return all(perfect_wins(rest - reply) for reply in range(1, min(max_take, rest) + 1) if rest - reply > 0)

    for left in range(1, 61):
        assert is_winning(left, max_take) == solved_win(left, max_take)
        if solved_win(left, max_take):
            assert perfect_wins(left), f"perfect lost from {left} with takes up to {max_take}"
        else:
            assert choose("perfect", game, state_with(game, left)) == 1


def test_simple_bots_do_what_they_say():
    game = Toothpicks()
    state = game.initial_state()
    assert choose("always_1", game, state) == 1
    assert choose("always_2", game, state) == 2
    assert choose("always_2", game, state_with(game, 1)) == 1
    assert choose("mirror", game, state) == 1
    after_two = game.play(state, 2)
    assert choose("mirror", game, after_two) == 2
    one_left = game.play(game.play(game.play(game.play(after_two, 2), 2), 2), 1)
    assert one_left.left == 1 and choose("mirror", game, one_left) == 1
    picks = {choose_random(game, state, seed) for seed in range(30)}
    assert picks == {1, 2}


def choose_random(game, state, seed):
    return resolve("toothpicks", "random").make(game).choose(state, Context(rng=random.Random(seed)))


def test_the_bots_are_listed_in_order():
    assert list(bots_for("toothpicks")) == ["perfect", "random", "always_1", "always_2", "mirror"]


def test_perfect_beats_random_in_a_200_game_match(capsys):
    assert main(["match", "toothpicks", "perfect", "random", "--games", "200", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 200 and result["players"] == ["perfect", "random"]
    assert result["wins"][0] >= 180
    assert result["wins"][0] + result["wins"][1] + result["draws"] == 200
    assert result["forfeits"] == [0, 0]


def test_perfect_against_itself_the_first_mover_always_wins_from_ten():
    game = Toothpicks()
    perfect = resolve("toothpicks", "perfect")
    summary = run_match(game, (perfect, perfect), games=20, seed=3)
    assert all(record.winner == record.first for record in summary.records)
    assert summary.first_player_wins == [10, 10]


def test_mirror_as_second_player_loses_to_perfect_and_always_1_loses_from_a_multiple_of_three():
    game = Toothpicks(count=9)
    summary = run_match(game, (resolve("toothpicks", "always_1"), resolve("toothpicks", "perfect")), games=2)
    assert summary.wins == [0, 2]
    summary = run_match(Toothpicks(), (resolve("toothpicks", "perfect"), resolve("toothpicks", "mirror")), games=2)
    assert summary.wins == [2, 0]
