"""Robot Ludo bots: the fast core agrees with the rules, the engines pick sensible moves, run as
course-style engines, and beat the weaker bots in seeded matches; the match runner alternates
colour and first move."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade.match import run_match
from bots.base import Context
from bots.ludo import BOTS, expectimax, heuristic
from bots.ludo_engine import ENTER, PASS, Evaluator, Pos, notebook_move
from games.base import CHANCE
from games.ludo import Ludo, getmoves, make_start_board, match, simple_player2


@settings(max_examples=25, deadline=None)
@given(counters=st.integers(1, 10), half=st.integers(3, 20), seed=st.integers(0, 2**32 - 1),
       safe=st.lists(st.integers(1, 39), max_size=3))
def test_fast_core_agrees_with_the_rules(counters, half, seed, safe):
    length = 2 * half
    game = Ludo(counters=counters, length=length, safe=[s for s in safe if s < length])
    rng = random.Random(seed)
    state = game.initial_state()
    while not state.over:
        if state.to_move == CHANCE:
            state = game.play(state, rng.randint(1, 6))
            continue
        pos = Pos.from_state(state, game.safe)
        side, roll = state.turn, state.roll
        fast = [notebook_move(side, m, roll, length) for m in pos.moves(side, roll)] or [(side, -1, -1)]
        assert sorted(fast) == sorted(game.legal_moves(state))
        move = rng.choice(game.legal_moves(state))
        fast_move = next(m for m in (pos.moves(side, roll) or [PASS]) if notebook_move(side, m, roll, length) == move)
        before = pos.copy()
        cut = 0
        if fast_move is not PASS:
            cut = pos.apply(side, fast_move, roll)
        state = game.play(state, move)
        after = Pos.from_state(state, game.safe)
        assert (pos.pos, pos.pen, pos.home) == (after.pos, after.pen, after.home)
        assert cut == state.event.cut
        if fast_move is not PASS:
            pos.undo(side, fast_move, roll, cut)
            assert (pos.pos, pos.pen, pos.home) == (before.pos, before.pen, before.home)


def choose(name: str, game: Ludo, board, turn: int, roll: int):
    state = game.state_from_board(board, turn, roll)
    return BOTS[name].make(game).choose(state, Context(rng=random.Random(0)))


@pytest.mark.parametrize("name", ["expectimax", "heuristic"])
def test_takes_a_cut_and_enters(name):
    game = Ludo(counters=4, length=20)
    board = make_start_board(4, 20)
    board.red[3] = 1
    board.red[12] = 1
    board.blue[7] = 1
    board.redpen, board.bluepen = 2, 3
    # Red rolls 4: 3 -> 7 cuts the blue counter (worth far more than 12 -> 16)
    assert choose(name, game, board, 0, 4) == (0, 3, 4)
    # Red rolls 6 with nothing to cut: bring a counter out
    assert choose(name, game, board, 0, 6) == (0, 0, 0)


@pytest.mark.parametrize("name", ["expectimax", "heuristic"])
def test_runs_from_danger(name):
    game = Ludo(counters=2, length=20)
    board = make_start_board(2, 20)
    board.red[5] = 1  # a blue counter two behind threatens it
    board.red[1] = 1
    board.blue[3] = 1
    board.redpen, board.bluepen = 0, 1
    # moving 5 -> 6 stays in reach (3 behind), 1 -> 2 stays behind blue: flee with 5 -> 10 on a 5
    assert choose(name, game, board, 0, 5) == (0, 5, 5)


def test_course_style_engines_run_in_the_notebooks_match():
    random.seed(4)
    assert match(3, 12, None, expectimax, simple_player2) in (0, 1, None)
    board = make_start_board(2, 10)
    assert expectimax(board, 1, 6) == (1, 0, 0)
    assert heuristic(board, 0, 3) == (0, -1, -1)
    assert expectimax.__name__ == "expectimax"


def test_evaluation_prefers_home_and_safety():
    ev = Evaluator()
    pos = Pos(20, 2, tuple([1] + [0] * 9 + [1] + [0] * 9))
    pos.pen = [1, 2]
    pos.pos[0][15] = 1
    base = ev.evaluate(pos, 0, 1)
    pos.pos[0][15], pos.home[0] = 0, 1
    assert ev.evaluate(pos, 0, 1) > base
    pos.home[0] = 0
    pos.pos[0][15] = 1
    pos.pen[1], pos.pos[1][1] = 1, 1  # a blue counter 4 behind red's (15 + 10 = 25 = 5; 1 + 4 = 5)
    assert ev.evaluate(pos, 0, 1) < base


@pytest.mark.parametrize("strong,weak", [("expectimax", "random"), ("heuristic", "simple_player2"),
                                         ("expectimax", "simple_player2")])
def test_strong_bots_win_seeded_matches(strong, weak):
    game = Ludo(counters=4, length=12)
    summary = run_match(game, (BOTS[strong], BOTS[weak]), games=24, seed=3)
    assert summary.wins[0] > 16


def test_match_alternates_colour_and_first_move():
    game = Ludo(counters=1, length=6)
    summary = run_match(game, (BOTS["simple_player2"], BOTS["random"]), games=8, seed=1)
    combos = {(r.first, r.moved_first) for r in summary.records}
    assert combos == {(0, 0), (1, 1), (0, 1), (1, 0)}  # each player each colour, first and second
    assert summary.as_json()["side0_wins"] == summary.side0_wins
    assert [game.match_variant(n).first_side for n in (1, 2, 3, 4, 5)] == [0, 0, 1, 1, 0]


def test_bots_answer_within_the_time_limit_with_legal_moves():
    game = Ludo(counters=10, length=40)
    rng = random.Random(2)
    state = game.initial_state()
    bot = BOTS["expectimax"].make(game)
    checked = 0
    while not state.over and checked < 60:
        if state.to_move == CHANCE:
            state = game.play(state, rng.randint(1, 6))
            continue
        move = bot.choose(state, Context(rng=rng, time_limit=5.0))
        assert move in game.legal_moves(state)
        checked += 1
        state = game.play(state, move)
    assert getmoves(game.board(state), state.turn, 6)  # the board converts back
    assert ENTER == -1


def test_expectimax_falls_back_when_time_runs_out():
    """Past the deadline (or once cancelled) the search stops with a legal move."""
    from bots.ludo_engine import ExpectimaxPolicy

    game = Ludo(counters=10, length=40)
    board = make_start_board(10, 40)
    for square in (0, 3, 9, 14, 22, 30):
        board.red[square] = 1
    for square in (20, 25, 27, 33, 38, 1):
        board.blue[square] = 1
    board.redpen, board.bluepen = 4, 4
    state = game.state_from_board(board, 0, 6)
    policy = ExpectimaxPolicy(depth=3)
    pos = Pos.from_state(state, game.safe)
    full = policy(pos, 0, 6)
    hurried = policy(pos, 0, 6, deadline=0.0)
    stopped = policy(pos, 0, 6, cancelled=lambda: True)
    legal = game.legal_moves(state)
    for move in (full, hurried, stopped):
        assert notebook_move(0, move, 6, 40) in legal
    assert (pos.pos, pos.pen, pos.home) == (Pos.from_state(state, game.safe).pos, [4, 4], [0, 0])
    bot = BOTS["expectimax"].make(game)
    assert bot.choose(state, Context(rng=random.Random(0), time_limit=1e-9)) in legal
