"""Hog's engine behind the game protocol: moves, chance steps, events, options, and hypothesis
random play (every game ends, points follow the rules, the engine agrees with the course's play)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import CHANCE, IllegalMove, OptionError, random_playout
from games.hog import DiceOutcomes, Hog, HogCommentator, HogEvent, make_test_dice, more_boar, piggy_points, play


def test_initial_state_and_options():
    game = Hog()
    state = game.initial_state()
    assert game.goal == 100 and state.scores == (0, 0) and state.to_move == 0 and not state.over
    assert list(game.legal_moves(state)) == list(range(11))
    assert Hog(goal=50).goal == 50
    with pytest.raises(OptionError, match="goal"):
        Hog(goal=0)
    with pytest.raises(OptionError, match="goal"):
        Hog(goal="lots")


def test_rolling_goes_through_a_chance_step_with_the_faces():
    game = Hog()
    state = game.play(game.initial_state(), 3)
    assert state.to_move == CHANCE and state.player == 0 and state.num_dice == 3
    assert state.event.rolling and state.event.move == 3
    assert game.chance_outcomes(state) is None
    outcomes = game.legal_moves(state)
    assert len(outcomes) == 216 and (4, 5, 6) in outcomes and (4, 5) not in outcomes and (0, 1, 2) not in outcomes
    after = game.play(state, (4, 5, 6))
    event = after.event
    assert isinstance(event, HogEvent) and event.turn_over
    assert (event.dice, event.points, event.sow_sad, event.piggy, event.player) == ((4, 5, 6), 15, False, False, 0)
    assert after.scores == (15, 0) and after.to_move == 1 and after.ply == 2


def test_sow_sad_scores_one():
    game = Hog()
    state = game.play(game.play(game.initial_state(), 4), (6, 1, 6, 6))
    assert state.event.sow_sad and state.event.points == 1 and state.scores == (1, 0)
    assert "Sow Sad" in state.event.text


def test_piggy_points_needs_no_chance_step():
    game = Hog()
    state = game.position(30, 14, 0)
    after = game.play(state, 0)
    assert after.event.piggy and after.event.points == 7 and after.scores == (37, 14)
    assert after.ply == 1 and after.event.dice == ()


def test_more_boar_gives_the_same_side_another_turn():
    # 25 against 43 (seed example 1): rolling 0 against 43 gives 4 + 1 = 5: 20 -> 25
    game = Hog()
    state = game.position(20, 43, 0)
    after = game.play(state, 0)
    assert after.scores == (25, 43) and after.event.more_boar and after.to_move == 0
    assert "extra turn" in after.event.text
    # then a Sow Sad 1 makes 26 against 43: More Boar again (seed example 4)
    again = game.play(game.play(after, 1), (1,))
    assert again.scores == (26, 43) and again.event.more_boar and again.to_move == 0


def test_reaching_the_goal_ends_the_game_without_an_extra_turn():
    game = Hog(goal=30)
    state = game.play(game.play(game.position(25, 43 % 30, 0), 2), (3, 3))
    assert state.over and state.result.winner == 0 and state.scores == (31, 13)
    assert not state.event.more_boar
    assert list(game.legal_moves(state)) == []
    with pytest.raises(IllegalMove, match="over"):
        game.play(state, 1)


def test_illegal_moves_have_readable_messages():
    game = Hog()
    state = game.initial_state()
    for bad in (11, -1, "3", 2.0, True, (1, 2)):
        with pytest.raises(IllegalMove, match="0 to 10"):
            game.play(state, bad)
    rolling = game.play(state, 2)
    for bad in ((1,), (1, 7), (0, 3), 5, "1-2"):
        with pytest.raises(IllegalMove, match="2 dice"):
            game.play(rolling, bad)


def test_move_text_round_trips():
    game = Hog()
    state = game.initial_state()
    for n in range(11):
        assert game.parse_move(state, game.move_text(state, n)) == n
    rolling = game.play(state, 3)
    assert game.move_text(rolling, (3, 1, 6)) == "3-1-6"
    assert game.parse_move(rolling, "3-1-6") == (3, 1, 6)
    assert game.parse_move(rolling, " 3 1 6 ") == (3, 1, 6)
    for bad in ("3-1", "x", "3-1-7"):
        with pytest.raises(IllegalMove):
            game.parse_move(rolling, bad)
    with pytest.raises(IllegalMove):
        game.parse_move(state, "11")


def test_dice_outcomes_sequence():
    outcomes = DiceOutcomes(2)
    listed = list(outcomes)
    assert len(listed) == len(outcomes) == 36
    assert [outcomes[i] for i in range(36)] == listed
    assert outcomes[-1] == (6, 6) and outcomes[0] == (1, 1)


def test_describe_and_score_text():
    game = Hog(goal=50)
    state = game.initial_state()
    assert game.describe(state) == "Player 0 to choose dice"
    assert game.describe(game.play(state, 2)) == "Player 0 rolls 2 dice…"
    assert game.score_text(game.position(12, 7), 1) == "7/50"


def test_commentator_runs_the_course_functions_after_each_turn():
    game = Hog()
    commentator = game.commentator()
    assert isinstance(commentator, HogCommentator)
    state = game.play(game.initial_state(), 2)
    assert commentator.see(state) == []  # the choice alone says nothing
    state = game.play(state, (5, 6))
    lines = commentator.see(state)
    assert lines[1:] == [
        "Player 0 now has 11 and Player 1 now has 0",
        "Player 0 has reached a new maximum point gain. 11 point(s)!",
        "Player 0 takes the lead by 11",
    ]
    state = game.play(state, 0)  # Piggy Points against 11: 4 points
    assert commentator.see(state)[1:] == [
        "Player 0 now has 11 and Player 1 now has 4",
        "Player 1 has reached a new maximum point gain. 4 point(s)!",
    ]


# -- hypothesis: random play ------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), goal=st.integers(1, 120))
def test_random_play_follows_the_rules(seed, goal):
    game = Hog(goal=goal)
    rng = random.Random(seed)
    states = random_playout(game, game.initial_state(), rng)
    assert states[-1].over
    for before, after in zip(states, states[1:]):
        assert after.ply == before.ply + 1
        event = after.event
        if before.to_move == CHANCE:
            assert event.dice == after.event.move and len(event.dice) == before.num_dice
            assert all(1 <= f <= 6 for f in event.dice)
        mover = before.player
        assert event.player == mover
        if event.rolling:
            assert after.to_move == CHANCE and after.scores == before.scores
            continue
        other = 1 - mover
        expected = piggy_points(before.scores[other]) if not event.dice else (1 if 1 in event.dice else sum(event.dice))
        assert event.points == expected
        assert after.scores[mover] == before.scores[mover] + expected
        assert after.scores[other] == before.scores[other]
        if after.scores[mover] >= goal:
            assert after.over and after.result.winner == mover
        else:
            assert not after.over
            assert event.more_boar == more_boar(after.scores[mover], after.scores[other])
            assert after.to_move == (mover if event.more_boar else other)
        for move in list(game.legal_moves(after))[:11] if after.to_move != CHANCE else []:
            assert game.parse_move(after, game.move_text(after, move)) == move
    assert states[0].scores == (0, 0)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    goal=st.integers(5, 100),
    start=st.tuples(st.integers(0, 60), st.integers(0, 60)),
)
def test_engine_agrees_with_the_course_play(seed, goal, start):
    """Random strategies and dice: the engine and the course's play end with the same scores."""
    rng = random.Random(seed)
    table = {}

    def strategy(score, opponent):
        key = (score, opponent)
        if key not in table:
            table[key] = rng.randint(0, 10)
        return table[key]

    faces = [rng.randint(1, 6) for _ in range(3000)]
    expected = play(strategy, strategy, start[0], start[1], make_test_dice(*faces), goal)
    game = Hog(goal=goal)
    state = game.position(*start, 0)
    used = 0
    while not state.over:
        mover = state.to_move
        n = strategy(state.scores[mover], state.scores[1 - mover])
        state = game.play(state, n)
        if n:
            state = game.play(state, tuple(faces[used : used + n]))
            used += n
    assert state.scores == expected


@settings(max_examples=40, deadline=None)
@given(score=st.integers(0, 999), opponent=st.integers(0, 999))
def test_more_boar_and_piggy_points_match_their_definitions(score, opponent):
    mine, theirs = [int(c) for c in str(score)], [int(c) for c in str(opponent)]
    assert more_boar(score, opponent) == (min(mine) < min(theirs) and max(mine) > max(theirs))
    assert piggy_points(opponent) == 4 + abs((opponent // 10) % 10 - opponent % 10)


@pytest.mark.parametrize("goal", [1, 2, 5, 9, 100, 200])
def test_the_longest_game_scores_one_point_a_turn(goal):
    """Every turn a 1 (Sow Sad): the bound ``4 goal - 2`` holds, and below 10, where More Boar
    cannot fire on one-digit scores, the game lasts exactly that long."""
    game = Hog(goal=goal)
    state = game.initial_state()
    while not state.over:
        state = game.play(state, (1,) if state.to_move == CHANCE else 1)
    assert state.ply <= game.max_game_length() == 4 * goal - 2
    if goal < 10:
        assert state.ply == game.max_game_length()
