"""The Othello engine's time manager (``bots.othello.search``: ``predicted_seconds``,
``worth_another``, ``unsettled``, ``Engine.search`` with ``timing``), on a scripted clock: each
iteration costs what the test says, so every decision is exact."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from bots.othello.search import (GROWTH_DEFAULT, GROWTH_RANGE, GROWTH_TO_THE_END, PARTIAL_SETTLED,
                                 PARTIAL_UNSETTLED, Engine, Timeout, predicted_seconds, unsettled,
                                 worth_another)
from games.othello import Othello


def test_the_next_iteration_is_predicted_from_this_positions_own_growth():
    assert predicted_seconds([0.01, 0.03, 0.09]) == pytest.approx(0.27)
    # odd and even depths alternate: the geometric mean of the last two ratios (2 and 8)
    assert predicted_seconds([0.01, 0.02, 0.16]) == pytest.approx(0.16 * 4)
    # too short to measure by: the default growth
    assert predicted_seconds([0.0001, 0.0005]) == pytest.approx(0.002 * GROWTH_DEFAULT)
    assert predicted_seconds([0.5]) == pytest.approx(0.5 * GROWTH_DEFAULT)
    # kept within the range
    assert predicted_seconds([0.01, 0.5]) == pytest.approx(0.5 * GROWTH_RANGE[1])
    assert predicted_seconds([0.5, 0.4]) == pytest.approx(0.4 * GROWTH_RANGE[0])
    # the iteration that reaches the end of the game
    assert predicted_seconds([0.01, 0.03], to_the_end=True) == pytest.approx(0.03 * GROWTH_TO_THE_END)


def test_another_iteration_is_worth_it_when_it_or_its_first_move_fits():
    durations = [0.01, 0.03, 0.09]  # the next: 0.27
    assert worth_another(durations, 0.27, unsettled=False)
    assert worth_another(durations, 0.27 * PARTIAL_SETTLED, unsettled=False)
    assert not worth_another(durations, 0.27 * PARTIAL_SETTLED * 0.99, unsettled=False)
    assert worth_another(durations, 0.27 * PARTIAL_SETTLED * 0.99, unsettled=True)
    assert worth_another(durations, 0.27 * PARTIAL_UNSETTLED, unsettled=True)
    assert not worth_another(durations, 0.27 * PARTIAL_UNSETTLED * 0.99, unsettled=True)
    assert worth_another([], 0.0, unsettled=False)  # the first iteration always
    assert not worth_another(durations, 1.0, unsettled=True, to_the_end=True)  # 9 s to the end


@given(st.lists(st.floats(0, 100), min_size=1, max_size=8), st.floats(0, 1000), st.booleans(), st.booleans())
def test_the_manager_is_monotone_in_the_time_left(durations, remaining, critical, to_the_end):
    """More time never turns a yes into a no, and a critical position never gets a no where a
    settled one gets a yes."""
    yes = worth_another(durations, remaining, critical, to_the_end)
    if yes:
        assert worth_another(durations, remaining * 2 + 1, critical, to_the_end)
    if worth_another(durations, remaining, False, to_the_end):
        assert worth_another(durations, remaining, True, to_the_end)


def test_a_position_is_unsettled_while_its_best_move_changes_or_its_score_falls():
    assert unsettled([(19, 10), (19, 12)])  # too few iterations to tell
    assert not unsettled([(19, 10), (19, 12), (19, 15)])
    assert unsettled([(20, 10), (19, 12), (19, 15)])
    assert unsettled([(19, 10), (20, 12), (19, 15)])
    assert unsettled([(19, 10), (19, 150), (19, 50)])  # fell a disc
    assert not unsettled([(19, 10), (19, 150), (19, 51)])


class Scripted(Engine):
    """An engine whose iteration ``d`` costs ``costs[d]`` seconds of a scripted clock, raising
    ``Timeout`` when that would pass the deadline (as the searches do), with best moves
    ``moves[d]`` (default the first)."""

    def __init__(self, costs: dict[int, float], moves: dict[int, int] | None = None, **options) -> None:
        super().__init__(parallel=False, **options)
        self.costs, self.moves, self.now, self.started = costs, moves or {}, 0.0, []
        self.clock = lambda: self.now

    def _root(self, p, o, depth, order, alpha=-(1 << 30), beta=1 << 30):
        self.started.append(depth)
        if self.now + self.costs[depth] > self.deadline:
            self.now = self.deadline
            raise Timeout
        self.now += self.costs[depth]
        move = self.moves.get(depth, order[0])
        return 0, move, {sq: (1 if sq == move else 0) for sq in order}

    def principal_line(self, p, o, first, length):
        return [first]


OPENING = Othello().initial_state().mover_bits()  # 60 empties, 4 moves


def test_the_managed_search_goes_on_past_45_percent_when_the_next_iteration_fits():
    costs = {d: 0.001 * 2 ** d for d in range(1, 20)}  # cumulative after 8: 0.51 of 1.0; the 9th 0.512
    managed = Scripted(costs)
    info = managed.search(*OPENING, deadline=1.0)
    fixed = Scripted(costs, timing="fraction")
    assert fixed.search(*OPENING, deadline=1.0).depth == 8  # the engine before it: past 45 %, stop
    assert info.depth == 8 and managed.started == list(range(1, 10))  # 0.49 left: the 9th's first move fits
    assert managed.now == 1.0  # the whole budget used


def test_the_managed_search_stops_where_the_next_iteration_would_settle_nothing():
    costs = {d: 0.0001 * 4 ** d for d in range(1, 20)}  # after 7: 2.1844 s; the 8th would take 6.5536 s
    deadline = 2.1844 + PARTIAL_SETTLED * 6.5536 - 0.01
    engine = Scripted(costs)
    info = engine.search(*OPENING, deadline=deadline)
    assert info.depth == 7 and engine.started == list(range(1, 8))  # not started: too little time for it
    assert engine.now == pytest.approx(2.1844)  # it answered at once
    unsettled_engine = Scripted(costs, moves={5: 37, 6: 19, 7: 37})  # its best move keeps changing
    unsettled_engine.search(*OPENING, deadline=deadline)
    assert unsettled_engine.started == list(range(1, 9))  # critical: the 8th started with the time left


def test_the_iteration_to_the_end_starts_only_with_time_for_it():
    """Near the end the depth reaches the empties: that iteration searches exact values and costs
    about a hundred times the one before, so it is started only with time for it."""
    game = Othello()
    state = game.initial_state()
    # a position with 9 empties, reached by playing the first legal move
    while 64 - sum(state.counts()) > 9:
        state = game.play(state, game.legal_moves(state)[0])
    p, o = state.mover_bits()
    costs = {d: 0.01 for d in range(1, 10)}
    engine = Scripted(costs)
    engine.search(p, o, deadline=0.08 + PARTIAL_SETTLED * 0.01 * GROWTH_TO_THE_END - 0.01)
    assert engine.started == list(range(1, 9))  # depth 9 (the end) would take about 1 s
    engine = Scripted(costs)
    engine.search(p, o, deadline=2.0)
    assert engine.started == list(range(1, 10))


@pytest.mark.parametrize("limit", [0.5, 1, 2, 5, 10, 30])
def test_the_search_keeps_back_time_for_a_thinning_and_the_moves_work_after_it(limit):
    """The search's reserve (``search_reserve``) wastes little (under 3 % of the budget), keeps
    the 1 s moves' 20 ms at most (their matches measured it), and where a search fills the table
    (5 s and more) covers a thinning of it (36–43 ms measured) and the move's 20 ms after it."""
    from bots.othello import safety_margin, search_reserve

    budget = limit - safety_margin(limit)
    reserve = search_reserve(budget)
    assert 0 < reserve < 0.03 * budget
    if limit <= 1:
        assert reserve <= 0.02
    if budget >= 5:
        assert reserve >= 0.045 + 0.02
