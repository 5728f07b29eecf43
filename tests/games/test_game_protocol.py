"""The game protocol's contract, checked for every playable game by random play."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from arcade.catalog import CATALOG
from games.base import CHANCE, IllegalMove, Option, OptionError, random_playout

PLAYABLE = list(CATALOG)


@pytest.mark.parametrize("game_id", PLAYABLE)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_the_contract(game_id, seed):
    game = CATALOG[game_id].load()()
    rng = random.Random(seed)
    state = game.initial_state()
    assert state.result is None and state.ply == 0 and state.event is None
    for _ in range(game.max_game_length() + 1):
        moves = game.legal_moves(state)  # not listed: Hog's ten dice have 6**10 outcomes
        if state.result is not None:
            assert list(moves) == []
            break
        assert len(moves) > 0, "a state that is not over has a legal move"
        if state.to_move == CHANCE:
            move = game.sample_chance(state, rng)
            assert move in moves
        else:
            moves = list(moves)
            move = rng.choice(moves)
            assert game.parse_move(state, game.move_text(state, move)) == move
        before = state
        snapshot = repr(before)
        state = game.play(before, move)
        assert repr(before) == snapshot, "play must not change the state it was given"
        assert state.ply == before.ply + 1
        assert state.event is not None and state.event.move == move
        assert state.event.side == before.to_move
    else:
        pytest.fail(f"{game_id}: no result after {game.max_game_length()} plies, its longest game")
    if state.result.winner is not None:
        assert state.result.winner in (0, 1)
    with pytest.raises(IllegalMove):
        game.play(state, moves[0] if moves else 1)


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_unknown_option_names_the_valid_ones(game_id):
    cls = CATALOG[game_id].load()
    with pytest.raises(OptionError, match="valid options"):
        cls(no_such_option=1)


def test_option_parsing_checks_bounds_and_kinds():
    count = Option("count", "Count", 10, minimum=1, maximum=99)
    assert count.parse("12") == 12
    for bad in ("0", "100", "x", "1.5", True):
        with pytest.raises(OptionError, match="1–99"):
            count.parse(bad)
    length = Option("length", "Length", 20, minimum=6, maximum=40, even=True)
    assert length.parse("40") == 40
    with pytest.raises(OptionError, match="even"):
        length.parse("21")
    safe = Option("safe", "Safe squares", (), kind="ints", minimum=0, maximum=39)
    assert safe.parse("7, 3,3") == (3, 7)
    assert safe.parse("") == ()
    with pytest.raises(OptionError):
        safe.parse("3,x")
    with pytest.raises(OptionError):
        safe.parse("40")
    level = Option("level", "Level", "easy", kind="choice", choices=("easy", "hard"))
    assert level.parse("hard") == "hard"
    with pytest.raises(OptionError, match="easy / hard"):
        level.parse("medium")
    seconds = Option("time", "Time", 10.0, kind="float", minimum=0.1, maximum=60)
    assert seconds.parse("2.5") == 2.5
    with pytest.raises(OptionError):
        seconds.parse("0")


def option_values(option: Option):
    """Any value ``option`` accepts (a float option, a time limit, stays at its default: the
    rules ignore it)."""
    if option.kind == "choice":
        return st.sampled_from(option.choices)
    if option.kind == "ints":
        return st.lists(st.integers(option.minimum, option.maximum), max_size=4).map(tuple)
    if option.kind == "float":
        return st.just(option.default)
    numbers = st.integers(option.minimum, option.maximum)
    return numbers.filter(lambda n: n % 2 == 0) if option.even else numbers


@st.composite
def games_with_any_settings(draw, game_id: str):
    """A game of ``game_id`` with any settings its options accept."""
    cls = CATALOG[game_id].load()
    chosen = {option.key: draw(option_values(option)) for option in cls.options}
    try:
        return cls(**chosen)
    except OptionError:  # a combination the game refuses (Ludo's safe square off the track)
        reject()


@pytest.mark.parametrize("game_id", PLAYABLE)
@settings(max_examples=30, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_play_with_any_settings_ends_within_the_games_longest_game(game_id, data, seed):
    game = data.draw(games_with_any_settings(game_id))
    longest = game.max_game_length()
    assert isinstance(longest, int) and longest > 0
    states = random_playout(game, game.initial_state(), random.Random(seed))  # raises past ``longest``
    assert states[-1].result is not None and states[-1].ply == len(states) - 1 <= longest
