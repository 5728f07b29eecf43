"""Hog's built-in bots: each builds what it reads (the exact tables) when it is made, so that no
move of it does that work on the clock a move is held to (1 s, as a file bot is)."""

from __future__ import annotations

import random

import pytest

from bots.base import Context
from bots.hog import BOTS
from games import hog_solver
from games.hog import Hog


def clear_tables() -> None:
    hog_solver.solve.cache_clear()
    hog_solver._best_response_cached.cache_clear()


def tables_built() -> int:
    return hog_solver.solve.cache_info().misses + hog_solver._best_response_cached.cache_info().misses


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("goal", [100, 50])
def test_no_built_in_builds_a_table_in_a_move(name, goal):
    """From cold caches (a fresh process: a tournament's worker, the app's first game), a bot is
    made, then asked for moves: no table is built during a move. (``final`` built the 100-goal
    table in its first move: 1,958 ms of a move under load.)"""
    game = Hog(goal=goal)
    clear_tables()
    bot = BOTS[name].make(game)
    built = tables_built()
    state = game.initial_state()
    rng = random.Random(1)
    for _ in range(6):
        while not state.over and state.to_move not in (0, 1):
            state = game.play(state, game.sample_chance(state, rng))
        if state.over:
            break
        state = game.play(state, bot.choose(state, Context(rng=rng)))
    assert tables_built() == built
