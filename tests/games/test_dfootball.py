"""D-Football: the course's rules, API, forfeits and every reference vector; random play."""

from __future__ import annotations

import io
import json
import random
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import IllegalMove, OptionError
from games.dfootball import (
    DFootball,
    FootballEvent,
    cell_classes,
    game_text,
    heading,
    make_move,
    new_game,
    normalize,
    play_game,
    play_repeatedly,
    print_game,
    valid_moves,
    whose_turn,
)
from tests.paths import TESTS

REFERENCE = json.loads((TESTS / "reference" / "dfootball.json").read_text())
VECTORS = REFERENCE["vectors"]


def first_valid(game):
    return valid_moves(game)[0]


# -- the course's vectors -------------------------------------------------------------------------

def test_new_game_2():
    vector = VECTORS["new_game_2"]
    assert new_game(2) == {"board": vector["board"], "turn": vector["turn"]}


@pytest.mark.parametrize("case", VECTORS["whose_turn_and_valid"], ids=lambda c: c["origin"])
def test_whose_turn_and_valid_moves(case):
    game = {"board": case["board"], "turn": case["turn"]}
    assert whose_turn(game) == case["whose_turn"]
    assert valid_moves(game) == case["valid_moves"]


def test_the_notebooks_example_game_state_by_state():
    states = VECTORS["example_game_n2"]["states"]
    game = new_game(2)
    for expected in states:
        if expected["move_made"] is not None:
            game = make_move(game, expected["move_made"])
        assert game["board"] == expected["board"]
        assert game["turn"] == expected["turn"]
        assert valid_moves(game) == expected["valid_moves"]
        assert heading(game) == expected["heading"]
        assert cell_classes(game) == expected["cell_classes"]
    assert valid_moves(game) == VECTORS["example_game_n2"]["final_valid_moves"]


def test_the_example_game_through_the_protocol_records_ghost_and_last_move():
    """The same game played on ``DFootball``: events carry the squares the course marks."""
    states = VECTORS["example_game_n2"]["states"]
    rules = DFootball(n=2)
    state = rules.initial_state()
    for expected in states[1:]:
        state = rules.play(state, expected["move_made"])
        assert list(state.board) == expected["board"]
        event = state.event
        assert isinstance(event, FootballEvent)
        last = {i + 1 for i, cls in enumerate(expected["cell_classes"]) if "last" in cls.split()}
        assert set(event.squares) == last
        faint = [i + 1 for i, cls in enumerate(expected["cell_classes"]) if "faint" in cls]
        assert ([event.jumped] if event.is_jump else []) == faint
        if event.is_jump:
            ghost_team = expected["cell_classes"][event.jumped - 1].split()[-1]
            assert ghost_team == ("michigan-faint" if event.jumped_side == 0 else "ohio-faint")
    assert state.result is not None and state.result.winner == 0
    assert "Ohio" in state.result.reason


@pytest.mark.parametrize("case", VECTORS["losing_positions"], ids=lambda c: c["origin"])
def test_losing_positions(case):
    game = {"board": case["board"], "turn": case["turn"]}
    assert valid_moves(game) == case["valid_moves"] == []
    assert heading(game) == case["heading"]
    rules = DFootball(n=2)
    state = rules.state_from_board(case["board"], 0 if case["turn"] == 1 else 1)
    assert state.over and rules.legal_moves(state) == []
    assert state.result.winner == (1 if case["turn"] == 1 else 0)


def test_the_disp_n3_game_replays_and_every_position_matches():
    """Cell 32's random game: each next position follows from one valid move of the previous."""
    vector = VECTORS["play_game_disp_n3"]
    states = vector["states"]
    game = {"board": states[0]["board"], "turn": states[0]["turn"]}
    assert game == new_game(3)
    for before, after in zip(states, states[1:]):
        assert valid_moves(game) == before["valid_moves"]
        assert heading(game) == before["heading"]
        candidates = [make_move(game, s) for s in valid_moves(game)]
        matches = [g for g in candidates if g["board"] == after["board"]]
        assert len(matches) == 1, "each displayed position follows by exactly one move"
        game = matches[0]
        assert game["turn"] == after["turn"]
        assert cell_classes(game) == after["cell_classes"]
    assert heading(game) == states[-1]["heading"] == "Michigan loses!"
    assert valid_moves(game) == []
    assert whose_turn(game) == "michigan"  # so the winner is Ohio, as play_game returned
    assert vector["return"] == "ohio"


def test_disp_prints_each_position_and_refuses_above_five(capsys):
    random.seed(5)
    result = play_game(first_valid, first_valid, n=3, disp=True)
    out = capsys.readouterr().out
    assert out.count("to move") + out.count("loses!") >= 2
    assert out.startswith("Michigan to move\n")
    assert ("Michigan loses!" in out) == (result == "ohio")
    with pytest.warns(UserWarning, match="Refusing to display output for n > 5"):
        play_game(first_valid, first_valid, n=6, disp=True)
    assert capsys.readouterr().out == ""


# -- forfeits --------------------------------------------------------------------------------------

def test_invalid_move_forfeits_with_the_course_warning():
    with pytest.warns(UserWarning, match="^michigan strategy returned an invalid move$"):
        assert play_game(lambda g: -1, first_valid, n=5) == "ohio"
    with pytest.warns(UserWarning, match="^ohio strategy returned an invalid move$"):
        assert play_game(first_valid, lambda g: "two", n=5) == "michigan"


def test_slow_strategy_forfeits_with_the_course_warning():
    ticks = iter(range(0, 10**12, 60_000_000))  # a fake clock: each reading 60 ms later

    def clock():
        return next(ticks)

    calls = []

    def slow(game):
        calls.append(1)
        clock()  # the strategy "spends" another reading: 120 ms in all
        return valid_moves(game)[0]

    with pytest.warns(UserWarning, match="^ohio strategy took >100ms to return a move$"):
        assert play_game(first_valid, slow, n=5, clock=clock) == "michigan"
    assert calls == [1]


def test_real_sleep_over_100ms_forfeits():
    import time

    def sleepy(game):
        time.sleep(0.12)
        return valid_moves(game)[0]

    with pytest.warns(UserWarning, match="michigan strategy took >100ms"):
        assert play_game(sleepy, first_valid, n=2) == "ohio"


def test_error_forfeits_with_the_course_warning():
    def broken(game):
        raise NameError("aoeu")

    with pytest.warns(UserWarning, match="^ohio strategy produced an error$"):
        assert play_game(first_valid, broken, n=5) == "michigan"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert play_repeatedly(broken, first_valid, k=3, n=5) == {"strategy1": 0, "strategy2": 6}
    # the course's cell 47: each game warns about the broken side, Michigan or Ohio
    assert sorted(str(w.message) for w in caught) == (
        ["michigan strategy produced an error"] * 3 + ["ohio strategy produced an error"] * 3
    )


def test_ohio_sees_the_normalised_game_and_its_answer_maps_back():
    seen = []

    def ohio(game):
        seen.append(game)
        assert game["turn"] == 1
        return valid_moves(game)[-1]

    play_game(first_valid, ohio, n=2)
    # after Michigan's 2->3 the real board is [1,0,1,-1,-1]; Ohio sees it mirrored and negated
    assert seen[0]["board"] == [1, 1, -1, 0, -1]
    assert valid_moves(seen[0]) == [2]  # the Ohio piece on real square 4 = 2*2+2-2
    assert normalize({"board": [1, 0, 1, -1, -1], "turn": -1})["board"] == [1, 1, -1, 0, -1]


def test_a_course_strategy_that_keeps_the_game_runs_unchanged():
    history = []

    def remembering(game):
        history.append(list(game["board"]))
        game["board"][0] = 99  # mutating what it was given cannot corrupt the real game
        return max(valid_moves({"board": history[-1], "turn": 1}))

    assert play_game(remembering, first_valid, n=4) in ("michigan", "ohio")


def test_play_repeatedly_counts_2k_games_and_is_seeded():
    def rnd(game):
        v = valid_moves(game)
        return v[random.randrange(len(v))]

    a = play_repeatedly(rnd, rnd, k=10, n=5)
    b = play_repeatedly(rnd, rnd, k=10, n=5)
    assert a == b and sum(a.values()) == 20
    # the same deterministic strategy on both sides: each wins exactly its Michigan or Ohio games
    det = play_repeatedly(first_valid, first_valid, k=4, n=5)
    assert det == {"strategy1": 4, "strategy2": 4}


# -- the API's errors ------------------------------------------------------------------------------

def test_make_move_rejects_an_invalid_square_clearly():
    game = new_game(2)
    with pytest.raises(IllegalMove, match="1 is not a valid move for michigan; valid moves: 2"):
        make_move(game, 1)
    with pytest.raises(ValueError, match="off the board"):
        make_move(game, 9)
    with pytest.raises(ValueError):
        make_move({"board": [1, 0], "turn": 2}, 1)
    assert make_move(game, 2.0)["board"] == [1, 0, 1, -1, -1]
    assert game == new_game(2), "make_move returns a new game"


def test_new_game_checks_n():
    for bad in (0, -1, 1.5, "3", True):
        with pytest.raises(ValueError):
            new_game(bad)


def test_options_bounds():
    assert DFootball().n == 11 and DFootball().squares == 23
    assert DFootball(n="15").squares == 31
    for bad in (0, 16, "x"):
        with pytest.raises(OptionError, match="1–15"):
            DFootball(n=bad)


def test_protocol_moves_text_and_errors():
    rules = DFootball(n=3)
    state = rules.initial_state()
    assert rules.legal_moves(state) == [3]
    assert rules.parse_move(state, " 3 ") == 3
    with pytest.raises(IllegalMove, match="not a square number"):
        rules.parse_move(state, "x")
    with pytest.raises(IllegalMove, match="valid moves: 3"):
        rules.parse_move(state, "2")
    with pytest.raises(IllegalMove):
        rules.play(state, 2)
    nxt = rules.play(state, 3)
    assert nxt.event.forced and nxt.event.text == "Michigan moves 3→4 (forced)"
    assert rules.describe(nxt) == "Ohio to move"
    assert rules.score_text(nxt, 1) == "3 players"


def test_game_text_marks_last_move_ghost_and_valid_squares():
    game = make_move(make_move(new_game(2), 2), 4)
    text = game_text(game)
    lines = text.splitlines()
    assert lines[0] == "Michigan to move"
    assert "[O]" in lines[1] and "[m]" in lines[1]
    assert "1*" in lines[2] and "2*" not in lines[2]
    buf = io.StringIO()
    print_game(game, file=buf)
    assert buf.getvalue().startswith(text)


# -- random play (hypothesis) ------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 15), seed=st.integers(0, 2**32 - 1))
def test_random_play_pieces_move_forward_jumps_take_one_and_games_end(n, seed):
    rules = DFootball(n=n)
    rng = random.Random(seed)
    state = rules.initial_state()
    limit = 2 * (n * (n + 1)) + 2  # each piece advances at most 2n squares in all
    for _ in range(limit + 1):
        if state.over:
            break
        moves = rules.legal_moves(state)
        assert moves == sorted(moves) and moves
        team = state.team
        move = rng.choice(moves)
        after = rules.play(state, move)
        before_board, after_board = state.board, after.board
        event = after.event
        # the piece left its square and landed ahead (towards the other end)
        assert before_board[move - 1] == team and after_board[move - 1] == 0
        landing = event.squares[-1]
        assert (landing - move) * team in (1, 2)
        assert after_board[landing - 1] == team
        mine_before, mine_after = before_board.count(team), after_board.count(team)
        theirs_before, theirs_after = before_board.count(-team), after_board.count(-team)
        assert mine_after == mine_before
        if event.is_jump:
            assert theirs_after == theirs_before - 1
            assert before_board[event.jumped - 1] == -team and after_board[event.jumped - 1] == 0
        else:
            assert theirs_after == theirs_before
        # nothing else changed
        changed = {i + 1 for i in range(len(before_board)) if before_board[i] != after_board[i]}
        assert changed == set(event.squares)
        # the course facade agrees with the protocol
        game = {"board": list(before_board), "turn": team}
        assert valid_moves(game) == moves
        assert make_move(game, move)["board"] == list(after_board)
        state = after
    assert state.over, "every game ends"
    loser = state.to_move
    assert state.result.winner == 1 - loser
    assert valid_moves({"board": list(state.board), "turn": state.team}) == []
    assert heading({"board": list(state.board), "turn": state.team}).endswith("loses!")


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_no_game_outlasts_the_declared_longest_game(n):
    """Every line of play, searched exhaustively: the longest game is within ``n(3n + 1)``."""
    from functools import lru_cache

    game = DFootball(n=n)

    @lru_cache(maxsize=None)
    def longest(board: tuple[int, ...], to_move: int) -> int:
        state = game.state_from_board(board, to_move)
        return max((1 + longest(game.play(state, m).board, 1 - to_move) for m in game.legal_moves(state)), default=0)

    start = game.initial_state()
    assert 0 < longest(start.board, 0) <= game.max_game_length() == n * (3 * n + 1)

@given(st.integers(1, 11), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_the_move_list_reads_each_move_as_its_squares(n, seed):
    """The move list's label of a move says where the player went (``14→13``, ``14→12 jump``), as
    the commentary does; the course's move (the player's square) stays the move's text."""
    game = DFootball(n=n)
    from games.base import random_playout

    states = random_playout(game, game.initial_state(), random.Random(seed))
    for before, after in zip(states, states[1:]):
        label = game.move_label(before, after.event.move)
        squares = after.event.squares
        assert label == f"{squares[0]}→{squares[-1]}" + (" jump" if len(squares) == 3 else "")
        assert f"{squares[0]}→{squares[-1]}" in after.event.text
        assert game.move_text(before, after.event.move) == str(after.event.move)
