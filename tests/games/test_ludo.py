"""Robot Ludo rules: the notebook's vectors (../shared/reference/ludo.json), the protocol, and
hypothesis random play."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.ludo as ludo
from games.base import CHANCE, IllegalMove, OptionError, random_playout
from games.ludo import (
    Board,
    Ludo,
    LudoEvent,
    getmoves,
    halfshift,
    isvalidmove,
    judge,
    make_start_board,
    makemove,
    match,
    simple_player,
    simple_player2,
    simple_player3,
)
from tests.paths import TESTS

REFERENCE = TESTS / "reference" / "ludo.json"
VECTORS = json.loads(REFERENCE.read_text())["notebook_vectors"]


# -- the notebook's vectors ------------------------------------------------------------------

def readme_board() -> Board:
    initial = VECTORS["readme_example"]["initial"]
    counters, length, safe = initial["make_start_board"]
    board = make_start_board(counters, length, safesquares=tuple(safe))
    board.red = list(initial["red"])
    board.blue = list(initial["blue"])
    board.redpen, board.bluepen = initial["redpen"], initial["bluepen"]
    return board


def test_readme_example_chain_ends_in_the_seeds_repr():
    board = readme_board()
    before = repr(board)
    b = board
    for move in VECTORS["readme_example"]["moves"]:
        b = makemove(b, tuple(move), copy=True)
    assert repr(b) == VECTORS["readme_example"]["final_board_repr"]
    assert repr(board) == before  # copy=True left the original alone


def test_readme_example_steps():
    b = readme_board()
    # Blue rolls 3: the counter at 1 cuts both red counters at 4.
    assert (1, 1, 3) in getmoves(b, 1, 3)
    b2 = makemove(b, (1, 1, 3))
    assert b2.red[4] == 0 and b2.redpen == 5 and b2.blue[4] == 1
    # Red rolls 6: entering comes first; 3 -> 9 is legal and does not cut (9 is safe).
    assert getmoves(b2, 0, 6) == [(0, 0, 0), (0, 3, 6)]
    assert makemove(b2, (0, 3, 6)).blue[9] == 1
    b3 = makemove(b2, (0, 0, 0))
    # Blue rolls 2: 9 -> 11 or 4 goes home (Blue's home is 6).
    assert getmoves(b3, 1, 2) == [(1, 4, 2), (1, 9, 2)]
    b4 = makemove(b3, (1, 4, 2))
    assert sum(b4.blue) == 1 and b4.bluepen == 4


def test_getmoves_on_empty_board():
    vec = VECTORS["getmoves_empty_board"]
    args = vec["args"]
    board = make_start_board(args["counters"], args["length"], args["safesquares"])
    assert getmoves(board, args["turn"], args["roll"]) == [tuple(m) for m in vec["expected"]]


def test_38_ply_match_trace_replayed_with_its_rolls(monkeypatch, capsys):
    trace = VECTORS["match_trace"]
    rolls = iter(p["roll"] for p in trace["plies"])
    monkeypatch.setattr(ludo.random, "randint", lambda a, b: next(rolls))
    args = trace["args"]
    result = match(args["counters"], args["length"], args["safesquares"], simple_player, simple_player,
                   starting=args["starting"], verbose=True)
    assert result == trace["return"]
    expected = [f"{p['turn']} {p['roll']} {tuple(p['move'])}" for p in trace["plies"]] + [trace["final_line"]]
    assert capsys.readouterr().out.splitlines() == expected


def test_match_trace_through_the_game_protocol():
    """The same 38 plies, played as chance steps and moves, end with Blue's win."""
    trace = VECTORS["match_trace"]
    game = Ludo(counters=2, length=6)
    state = game.initial_state()
    for ply in trace["plies"]:
        assert state.to_move == CHANCE and state.turn == ply["turn"]
        state = game.play(state, ply["roll"])
        moves = game.legal_moves(state)
        assert moves[0] == tuple(ply["move"])
        state = game.play(state, moves[0])
    assert state.over and state.result.winner == trace["return"]
    assert state.ply == 2 * len(trace["plies"])


# -- the notebook's functions, edge cases ----------------------------------------------------

def test_make_start_board():
    b = make_start_board(10, 20, (5, 15))
    assert b.safe == [1 if i in (0, 5, 10, 15) else 0 for i in range(20)]
    assert b.red == [0] * 20 and b.blue == [0] * 20 and (b.redpen, b.bluepen) == (10, 10)
    assert make_start_board(3, 8).safe == [1, 0, 0, 0, 1, 0, 0, 0]


def test_red_goes_home_exactly_and_never_past():
    b = make_start_board(2, 12)
    b.red[9] = 1
    b.redpen = 1
    assert getmoves(b, 0, 3) == [(0, 9, 3)]
    assert getmoves(b, 0, 4) == [(0, -1, -1)]
    assert getmoves(b, 0, 6) == [(0, 0, 0)]
    home = makemove(b, (0, 9, 3))
    assert sum(home.red) == 0 and home.redpen == 1


def test_blue_wraps_and_goes_home_at_half():
    b = make_start_board(1, 12)
    b.blue[10] = 1
    b.bluepen = 0
    b2 = makemove(b, (1, 10, 4))
    assert b2.blue[2] == 1  # wrapped past 0
    assert getmoves(b2, 1, 5) == [(1, -1, -1)]  # 2 + 5 passes home (6)
    assert getmoves(b2, 1, 4) == [(1, 2, 4)]
    assert sum(makemove(b2, (1, 2, 4)).blue) == 0
    assert isvalidmove(b, (1, 10, 6)) and not isvalidmove(b, (1, 10, 6), maxroll=5)


def test_smallest_board_full_circuit_in_one_roll():
    b = make_start_board(1, 6)
    b.red[0] = b.blue[3] = 1
    b.redpen = b.bluepen = 0
    assert sum(makemove(b, (0, 0, 6)).red) == 0
    assert sum(makemove(b, (1, 3, 6)).blue) == 0


def test_cut_on_unsafe_not_on_safe():
    b = make_start_board(4, 20, (7,))
    b.red[7] = 2
    b.red[8] = 3
    b.blue[5] = 1
    b.redpen, b.bluepen = 0, 3
    assert makemove(b, (1, 5, 2)).red[7] == 2  # safe square: they coexist
    cut = makemove(b, (1, 5, 3))
    assert cut.red[8] == 0 and cut.redpen == 3 and cut.blue[8] == 1


def test_invalid_move_prints_and_returns_board(capsys):
    b = make_start_board(2, 10)
    assert makemove(b, (0, 3, 2)) is b
    assert capsys.readouterr().out == "Invalid move\n"
    assert not isvalidmove(b, (0, 12, 2))
    assert not isvalidmove(b, (2, 0, 0))
    assert isvalidmove(b, (0, -1, -1))


def test_makemove_in_place_and_copyboard_name():
    b = make_start_board(2, 10)
    same = makemove(b, (0, 0, 0), copy=False)
    assert same is b and b.red[0] == 1
    other = makemove(b, (0, 0, 0), copyboard=True)
    assert other is not b and other.red[0] == 2 and b.red[0] == 1


def test_simple_players_as_the_notebook_defines_them():
    b = make_start_board(3, 20)
    b.red[2] = b.red[15] = 1
    b.blue[12] = b.blue[1] = 1
    b.redpen = b.bluepen = 1
    assert simple_player(b, 0, 3) == (0, 2, 3)
    assert simple_player(b, 1, 3) == (1, 1, 3)
    assert simple_player2(b, 1, 3) == (1, 12, 3)  # halfshift: 12 -> 2, 1 -> 11
    assert simple_player2(b, 0, 6) == (0, 0, 0)
    assert halfshift(10, 20) == 0 and halfshift(9, 20) == 19
    random.seed(3)
    assert simple_player3(b, 0, 6) in getmoves(b, 0, 6)


def test_match_seed_is_reproducible_and_judge_counts():
    a = match(3, 12, None, simple_player3, simple_player2, seed=11)
    b = match(3, 12, None, simple_player3, simple_player2, seed=11)
    assert a == b and a in (0, 1)
    assert match(10, 40, None, simple_player, simple_player, maxiters=5) is None
    random.seed(5)
    red, blue = judge(2, 8, None, simple_player2, simple_player2, games=20)
    assert red + blue == pytest.approx(1.0) and 0 <= red <= 1


def test_judge_does_not_alternate_colours():
    """simple_player is not symmetric: as Blue it wins far more (the notebook's 0.935)."""
    random.seed(1)
    red, blue = judge(10, 20, None, simple_player, simple_player, games=60)
    assert blue > 0.7


# -- the game protocol -----------------------------------------------------------------------

def test_options_and_errors():
    game = Ludo(counters="6", length="12", safe="3,9", starting="blue")
    assert game.safe == (1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0)
    assert game.initial_state().turn == 1
    with pytest.raises(OptionError, match="length"):
        Ludo(length=7)
    with pytest.raises(OptionError, match="length"):
        Ludo(length=42)
    with pytest.raises(OptionError, match="counters"):
        Ludo(counters=16)
    assert Ludo(counters=15, length=40).initial_state().pens == (15, 15)
    with pytest.raises(OptionError, match="off the track"):
        Ludo(length=10, safe="12")
    with pytest.raises(OptionError):
        Ludo(starting="green")


def test_the_presets_are_the_challenges_own_settings():
    """``contest``: the real tournament's 12 counters on 36 squares, safe 9 and 27 (and the homes
    0 and 18); ``notebook``: the notebook's ``judge(10, 20, None, ...)``. Options beside a preset
    override it; an unknown preset is one clear error naming the presets."""
    contest = Ludo(preset="contest")
    assert (contest.counters, contest.length, contest.extra_safe) == (12, 36, (9, 27))
    assert [s for s, flag in enumerate(contest.safe) if flag] == [0, 9, 18, 27]
    assert "preset" not in contest.settings  # a record keeps the options themselves
    notebook = Ludo(preset="notebook")
    assert (notebook.counters, notebook.length, notebook.extra_safe) == (10, 20, ())
    assert Ludo(preset=" Contest ", starting="blue", counters=15).settings == {
        "counters": 15, "length": 36, "safe": (9, 27), "starting": "blue"}
    for bad in ("tournament", "", 12, None):
        with pytest.raises(OptionError, match=r"unknown preset .* presets: contest, notebook"):
            Ludo(preset=bad)
    with pytest.raises(OptionError, match="off the track"):  # the preset's safe 27 on 20 squares
        Ludo(preset="contest", length=20)


def test_chance_step_before_every_move():
    game = Ludo(counters=2, length=10)
    state = game.initial_state()
    assert state.to_move == CHANCE and game.legal_moves(state) == [1, 2, 3, 4, 5, 6]
    outcomes = game.chance_outcomes(state)
    assert [o for o, _ in outcomes] == [1, 2, 3, 4, 5, 6]
    assert all(p == Fraction(1, 6) for _, p in outcomes) and sum(p for _, p in outcomes) == 1
    rolled = game.play(state, 4)
    assert rolled.to_move == 0 and rolled.roll == 4 and rolled.event.side == CHANCE
    assert game.legal_moves(rolled) == [(0, -1, -1)]
    with pytest.raises(IllegalMove, match="only on a 6"):
        game.play(rolled, (0, 0, 0))
    with pytest.raises(IllegalMove):
        game.play(state, 7)
    six = game.play(state, 6)
    assert game.legal_moves(six) == [(0, 0, 0)]
    with pytest.raises(IllegalMove, match="only when no other move"):
        game.play(six, (0, -1, -1))
    entered = game.play(six, (0, 0, 0))
    assert entered.red[0] == 1 and entered.pens == (1, 2) and entered.to_move == CHANCE and entered.turn == 1
    assert entered.event.entered and entered.event.target == 0


def test_events_cut_home_and_last_move():
    game = Ludo(counters=3, length=12, safe="3,9")
    board = readme_board()
    state = game.state_from_board(board, turn=1, roll=3)
    after = game.play(state, (1, 1, 3))
    ev = after.event
    assert isinstance(ev, LudoEvent) and ev.cut == 2 and (ev.source, ev.target) == (1, 4)
    assert "cutting 2 Red" in ev.text
    lines = game.commentator().see(after)
    assert any("Cut!" in line for line in lines)
    rolled = game.play(after, 6)
    assert rolled.last_move == ev  # the ghost survives the next roll
    state = game.play(game.play(rolled, (0, 0, 0)), 2)
    home = game.play(state, (1, 4, 2))
    assert home.event.home and home.event.target is None and home.home_count(1) == 1
    assert any("is home" in line for line in game.commentator().see(home))


def test_move_text_and_parse():
    game = Ludo(counters=2, length=10)
    state = game.play(game.initial_state(), 6)
    for move in game.legal_moves(state):
        assert game.parse_move(state, game.move_text(state, move)) == move
    assert game.parse_move(state, "e") == (0, 0, 0)
    assert game.move_text(state, (0, 0, 0)) == "(0, 0, 0)"
    with pytest.raises(IllegalMove):
        game.parse_move(state, "p")
    with pytest.raises(IllegalMove, match="not a move"):
        game.parse_move(state, "banana")
    with pytest.raises(IllegalMove, match="no counter on square 3"):
        game.parse_move(state, "3")
    state = game.play(game.play(state, (0, 0, 0)), 6)  # Blue rolls 6
    state = game.play(game.play(state, (1, 0, 0)), 2)  # Red rolls 2
    assert game.parse_move(state, "0") == (0, 0, 2)
    assert game.parse_move(state, "0,0,2") == (0, 0, 2)


def test_board_round_trip():
    game = Ludo(counters=6, length=12, safe="3,9")
    board = readme_board()
    state = game.state_from_board(board, turn=0)
    assert game.board(state) == board


# -- hypothesis random play ------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(counters=st.integers(1, 15), half=st.integers(3, 20), seed=st.integers(0, 2**32 - 1),
       safe=st.lists(st.integers(0, 39), max_size=4), starting=st.sampled_from(["red", "blue"]))
def test_random_play_conserves_counters_and_ends(counters, half, seed, safe, starting):
    length = 2 * half
    game = Ludo(counters=counters, length=length, safe=[s for s in safe if s < length], starting=starting)
    rng = random.Random(seed)
    states = random_playout(game, game.initial_state(), rng)
    final = states[-1]
    assert final.over and game.legal_moves(final) == []
    winner = final.result.winner
    assert final.home_count(winner) == counters and final.pens[winner] == 0
    previous = None
    for state in states:
        for side in (0, 1):
            squares = state.squares(side)
            assert min(squares) >= 0 and 0 <= state.pens[side] <= counters
            home = state.home_count(side)
            assert 0 <= home <= counters  # board + pen + home == counters
            if previous is not None:
                assert home >= previous.home_count(side)  # nobody leaves home
        if not state.over:
            assert game.legal_moves(state)
        if previous is not None and previous.to_move != CHANCE:
            # the move matches the notebook's makemove on the notebook's board
            board = makemove(game.board(previous), state.event.move, copy=True)
            assert game.board(state) == board
            assert list(game.legal_moves(previous)) == getmoves(game.board(previous), previous.turn, previous.roll)
        previous = state


def test_a_copied_ludo_board_is_a_board_of_its_own():
    import copy
    import timeit

    from games.ludo import make_start_board, makemove

    board = make_start_board(4, 20, [5])
    board.red[3] = 1
    twin = copy.copy(board)
    assert twin == board and twin is not board
    assert twin.red is not board.red and twin.blue is not board.blue and twin.safe is not board.safe
    twin.red[3] = 0
    twin.blue[7] = 2
    twin.redpen = 0
    assert board.red[3] == 1 and board.blue[7] == 0 and board.redpen == 4  # the live board is untouched
    moved = makemove(board, (0, 3, 2))
    assert moved is not board and board.red[3] == 1 and moved.red[5] == 1 and moved.red[3] == 0
    assert makemove(board, (0, 3, 2), copy=False) is board and board.red[5] == 1
    fast = min(timeit.repeat(lambda: makemove(moved, (0, 5, 1)), number=2000, repeat=3))
    slow = min(timeit.repeat(lambda: copy.deepcopy(moved), number=2000, repeat=3))
    assert fast * 3 < slow  # a shallow copy of three lists, not deepcopy


def test_ludo_takes_moves_of_the_declared_type_only():
    from games.base import IllegalMove
    from games.ludo import Ludo, make_start_board

    game = Ludo()
    state = game.state_from_board(make_start_board(4, 20), 0, 6)
    assert (0, 0, 0) in game.legal_moves(state)
    for wrong in ([0, 0, 0], (0.0, 0, 0), (False, 0, 0), "000", (0, 0)):
        with pytest.raises(IllegalMove):
            game.play(state, wrong)
    assert game.play(state, (0, 0, 0)).pens == (3, 4)


@pytest.mark.parametrize("counters, length", [(1, 6), (4, 20), (10, 6), (10, 40), (12, 36), (15, 40)])
def test_random_play_stays_far_below_the_safety_cap(counters, length):
    """The cap is no bound (the dice can prolong a game without end) but play never nears it:
    random games stay below a tenth of it."""
    game = Ludo(counters=counters, length=length)
    cap = game.max_game_length()
    assert cap == 100 * counters * (length + 12)
    rng = random.Random(counters * 100 + length)
    for _ in range(20):
        assert len(random_playout(game, game.initial_state(), rng, max_plies=cap // 10)) - 1 < cap // 10
