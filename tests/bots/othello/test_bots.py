"""Othello bots: legality, the evaluator's contract, exact endgame solving, and seeded matches.

The engine's tests run on both engines (the ``engine_kind`` fixture): the compiled core
(``bots.othello.compiled``) and the pure-Python reference (``bots.othello.search``).
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arcade.match import run_match
from bots.base import Context
from bots.othello import BOTS, AlphaBetaBot, greedy, safety_margin, solve_empties
from bots.othello import compiled
from bots.othello.eval import HEURISTIC_MAX, HandEvaluator, utility
from bots.othello.patterns import PatternEvaluator
from bots.othello.search import Engine, Timeout, signed_discs, to_score
from bots.registry import bots_for
from games.othello import PASS, Othello, bits_to_squares, flip_bits, legal_bits


def random_position(seed: int, plies: int):
    game = Othello()
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if state.over:
            break
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return game, state


def unfinished_positions(seeds, plies: int):
    """``(p, o)``, the mover's view, after ``plies`` random moves from each seed, when the game
    is not over by then."""
    for seed in seeds:
        _, state = random_position(seed, plies)
        if not state.over:
            yield state.mover_bits()


REQUIRE_CORE = "ARCADE_REQUIRE_OTHELLO_CORE"
"""Set (CI sets it): a missing compiled core fails the compiled engine's tests instead of
skipping them (the extension is optional, so a broken build would otherwise go unseen)."""


def need_core() -> None:
    """Skip (or, under ``ARCADE_REQUIRE_OTHELLO_CORE``, fail) when the core was not built."""
    if not compiled.available():
        if os.environ.get(REQUIRE_CORE):
            pytest.fail("the compiled Othello core was not built (no C compiler?)")
        pytest.skip("the compiled Othello core was not built")


@pytest.fixture(params=["compiled", "python"])
def engine_kind(request, monkeypatch) -> str:
    """Each engine in turn, for the bots too (``ARCADE_OTHELLO_ENGINE``)."""
    if request.param == "compiled":
        need_core()
    monkeypatch.setenv(compiled.ENV, request.param)
    return request.param


def new_engine(kind: str) -> Engine:
    """A fresh engine of the kind: the Python one with its default (hand) evaluation and helpers,
    the compiled one with the learned evaluation (the only one it has)."""
    return compiled.CompiledEngine(PatternEvaluator()) if kind == "compiled" else Engine()


def brute_force(p: int, o: int, passed: bool = False) -> int:
    """Final disc difference with perfect play, by plain minimax (no pruning)."""
    moves = legal_bits(p, o)
    if not moves:
        if passed:
            return p.bit_count() - o.bit_count()
        return -brute_force(o, p, True)
    best = -65
    for sq in bits_to_squares(moves):
        f = flip_bits(p, o, sq)
        best = max(best, -brute_force(o ^ f, p | f | (1 << sq)))
    return best


def test_registry_lists_the_bots_in_order():
    names = list(bots_for("othello"))
    assert names[0] == "alphabeta" and "greedy" in names and "random" in names
    assert names == list(BOTS)


def test_greedy_flips_the_most():
    for seed in range(20):
        game, state = random_position(seed, 12)
        if state.over:
            continue
        move = greedy(game, state, Context(rng=random.Random(seed)))
        p, o = state.mover_bits()
        counts = {m: flip_bits(p, o, m).bit_count() for m in game.legal_moves(state) if m != PASS}
        if counts:
            assert counts[move] == max(counts.values())


def test_evaluation_equals_utility_on_finished_boards_and_is_bounded():
    ev = HandEvaluator()
    game = Othello()
    rng = random.Random(5)
    for _ in range(30):
        state = game.initial_state()
        while not state.over:
            p, o = state.mover_bits()
            assert abs(ev.evaluate(p, o)) <= HEURISTIC_MAX
            state = game.play(state, rng.choice(game.legal_moves(state)))
        p, o = state.mover_bits()
        assert ev.evaluate(p, o) == utility(p, o)
        diff = p.bit_count() - o.bit_count()
        assert (utility(p, o) > HEURISTIC_MAX) == (diff > 0)
        assert (utility(p, o) < -HEURISTIC_MAX) == (diff < 0)


def test_evaluation_is_symmetric_in_colour():
    ev = HandEvaluator()
    for seed in range(20):
        _, state = random_position(seed, 25)
        if state.over:
            continue
        p, o = state.mover_bits()
        # mirror the board left-right: the value must not change
        def mirror(b: int) -> int:
            return sum(1 << (sq ^ 7) for sq in bits_to_squares(b))
        assert ev.evaluate(p, o) == ev.evaluate(mirror(p), mirror(o))


def test_endgame_solver_matches_brute_force(engine_kind):
    checked = 0
    for p, o in unfinished_positions(range(30), 53):
        if not legal_bits(p, o):
            continue
        info = new_engine(engine_kind).solve(p, o)
        exact = brute_force(p, o)
        assert info.score == to_score(exact)
        f = flip_bits(p, o, info.move)
        assert -brute_force(o ^ f, p | f | (1 << info.move)) == exact
        checked += 1
    assert checked >= 15


def test_deep_search_reaching_the_end_is_exact(engine_kind):
    _, state = random_position(7, 54)
    p, o = state.mover_bits()
    import time

    info = new_engine(engine_kind).search(p, o, time.perf_counter() + 60, max_depth=64)
    assert info.exact
    assert info.score == to_score(brute_force(p, o))


def test_alphabeta_reports_and_plays_legal_moves(engine_kind):
    game, state = random_position(3, 20)
    lines: list[str] = []
    bot = AlphaBetaBot(game)
    move = bot.choose(state, Context(time_limit=0.3, report=lines.append))
    assert move in game.legal_moves(state)
    assert lines and lines[-1].startswith("depth ") and "score" in lines[-1]
    assert lines[-1].endswith("C core" if engine_kind == "compiled" else "Python engine")  # which engine thought
    assert bot.last is not None and bot.last.depth >= 2


def test_alphabeta_stops_when_cancelled(engine_kind):
    game, state = random_position(4, 20)
    bot = AlphaBetaBot(game)
    move = bot.choose(state, Context(time_limit=600, cancelled=lambda: True))
    assert move in game.legal_moves(state)


def test_search_raises_timeout_inside_and_keeps_a_move(engine_kind):
    game, state = random_position(8, 22)
    p, o = state.mover_bits()
    engine = new_engine(engine_kind)
    try:
        engine.solve(p, o, deadline=0.0)
    except Timeout:
        pass
    else:
        raise AssertionError("a passed deadline must stop the solver")
    info = engine.search(p, o, deadline=0.0)
    assert info.move in game.legal_moves(state)


def test_pass_and_single_move_are_immediate(engine_kind):
    game = Othello()
    state = game.state_from(1 << 0, 1 << 1, to_move=1)  # orange must pass
    bot = AlphaBetaBot(game)
    assert bot.choose(state, Context(time_limit=0.1)) == PASS


def test_solve_of_a_position_without_moves_passes_or_counts(engine_kind):
    """``solve`` on a mover without moves: a pass and the opponent's value negated, or, with
    nobody to move, the final count."""
    checked = 0
    for p, o in unfinished_positions(range(400), 50):
        if legal_bits(p, o):
            continue
        info = new_engine(engine_kind).solve(p, o)
        assert info.move == PASS and info.line[0] == PASS
        assert info.score == to_score(brute_force(p, o))
        checked += 1
    ended = new_engine(engine_kind).solve(0b11, 1 << 63)  # A1 B1 against H8: nobody can trap anything
    assert ended.move == PASS and ended.score == to_score(2 - 1)
    assert checked >= 1


def test_time_limit_comes_from_context_then_entry_then_game():
    game = Othello(time_limit=3)
    assert AlphaBetaBot(game).limit(Context()) == 3
    assert AlphaBetaBot(game, 1.0).limit(Context()) == 1.0
    assert AlphaBetaBot(game, 1.0).limit(Context(time_limit=0.5)) == 0.5
    assert AlphaBetaBot(game, 1.0).limit(Context(time_limit=10)) == 1.0
    assert AlphaBetaBot(game).limit(Context(time_limit=2)) == 2
    assert 0 < safety_margin(10) < 1 and safety_margin(1) < 0.2


def test_alphabeta_beats_random_and_greedy_in_seeded_matches(engine_kind):
    game = Othello()
    quick = BOTS["alphabeta-0.1s"]
    vs_random = run_match(game, (quick, BOTS["random"]), games=2, seed=1)
    assert vs_random.wins[0] == 2
    vs_greedy = run_match(game, (quick, BOTS["greedy"]), games=2, seed=2)
    assert vs_greedy.wins[0] == 2


def test_stable_discs_never_flip():
    """The discs ``stable_discs`` names keep their colour in every random continuation."""
    from bots.othello.search import stable_discs

    game = Othello()
    rng = random.Random(11)
    checked = 0
    for _ in range(40):
        state = game.initial_state()
        history = []
        while not state.over:
            history.append(state)
            state = game.play(state, rng.choice(game.legal_moves(state)))
        for earlier in history[30::3]:
            p, o = earlier.mover_bits()
            sp, so = stable_discs(p, o), stable_discs(o, p)
            assert not sp & ~p and not so & ~o
            checked += (sp | so).bit_count()
            mover_is_blue = p == earlier.blue
            for _ in range(5):
                s = earlier
                while not s.over:
                    s = game.play(s, rng.choice(game.legal_moves(s)))
                    mine, theirs = (s.blue, s.orange) if mover_is_blue else (s.orange, s.blue)
                    assert sp & mine == sp and so & theirs == so
    assert checked > 500


def test_endgame_solver_matches_brute_force_with_decided_margins(engine_kind):
    """Deeper positions (8 empties) from lopsided greedy-against-random play, where the
    stability cutoff and the transposition cutoffs fire, still solve exactly."""
    game = Othello()
    checked = 0
    for seed in range(40):
        rng = random.Random(500 + seed)
        state = game.initial_state()
        while 64 - (state.blue | state.orange).bit_count() > 8 and not state.over:
            moves = game.legal_moves(state)
            if state.to_move == seed % 2 and moves != [PASS]:
                p, o = state.mover_bits()
                move = max(moves, key=lambda m: flip_bits(p, o, m).bit_count())
            else:
                move = rng.choice(moves)
            state = game.play(state, move)
        if state.over:
            continue
        p, o = state.mover_bits()
        if not legal_bits(p, o):
            continue
        exact = brute_force(p, o)
        info = new_engine(engine_kind).solve(p, o)
        assert info.score == to_score(exact)
        f = flip_bits(p, o, info.move)
        assert -brute_force(o ^ f, p | f | (1 << info.move)) == exact
        checked += 1
        if checked >= 12:
            break
    assert checked >= 12


def test_win_loss_draw_solve_agrees_with_brute_force(engine_kind):
    """``solve`` with the window -1..1 finds the sign of the exact result and, unless lost, a move
    that keeps it."""
    checked = 0
    for p, o in unfinished_positions(range(100, 140), 52):
        if not legal_bits(p, o):
            continue
        exact = brute_force(p, o)
        info = new_engine(engine_kind).solve(p, o, alpha=-1, beta=1)
        sign = (info.score > 0) - (info.score < 0)
        assert sign == (exact > 0) - (exact < 0)
        if exact >= 0:
            f = flip_bits(p, o, info.move)
            after = -brute_force(o ^ f, p | f | (1 << info.move))
            assert (after > 0) - (after < 0) == sign
        checked += 1
    assert checked >= 15


def test_alphabeta_plays_a_proven_win_by_the_win_loss_draw_solve(engine_kind):
    """Past the exact solve's reach (one empty more than ``solve_empties`` at a 0.4 s limit: 11
    for the Python engine, 15 for the compiled one) the bot tries the win/loss/draw solve and
    plays a move that keeps a won or drawn game."""
    game = Othello()
    played = 0
    empties = solve_empties(0.4 - safety_margin(0.4), engine_kind == "compiled") + 1
    for seed in range(60):
        _, state = random_position(200 + seed, 60 - empties)
        if state.over or 64 - (state.blue | state.orange).bit_count() != empties:
            continue
        p, o = state.mover_bits()
        if legal_bits(p, o).bit_count() < 2:
            continue
        exact = new_engine(engine_kind).solve(p, o).score
        if exact < 0:
            continue
        lines: list[str] = []
        bot = AlphaBetaBot(game, 0.4)
        bot.clock = lambda: 0.0  # a frozen clock: the solve never times out
        move = bot.choose(state, Context(time_limit=0.4, report=lines.append))
        assert any("win/loss/draw" in line for line in lines)
        f = flip_bits(p, o, move)
        after = -new_engine(engine_kind).solve(o ^ f, p | f | (1 << move)).score
        assert (after > 0) == (exact > 0) and (after >= 0)
        played += 1
        if played >= 4:
            break
    assert played >= 4


@given(st.integers(min_value=-10_000, max_value=10_000), st.sampled_from([1, 2]))
def test_signed_discs_never_reads_minus_zero(hundredths, places):
    text = signed_discs(hundredths, places)
    assert not text.startswith("-") or float(text) < 0
    assert text[0] in "+-"
    assert float(text) == pytest.approx(round(hundredths / 100, places))


def test_analysis_of_a_near_even_position_reads_plus_zero(monkeypatch):
    """An evaluation of a few hundredths against blue rounds to ``+0.0``, not ``-0.0``."""
    import bots.othello as othello_bots
    game = Othello()
    state = game.initial_state()
    monkeypatch.setattr(othello_bots, "_search_for_analysis", lambda state: (-3, 19, False))
    lines = othello_bots.analyse(game, state).lines
    assert "expected: blue +0.0 discs" in lines


def midgame(plies: int = 20, seed: int = 3):
    game = Othello()
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return game, state


def test_the_analysis_without_report_is_its_first_answer_and_says_its_depth():
    import bots.othello as othello_bots

    game, state = midgame()
    analysis = othello_bots.analyse(game, state)
    assert analysis.lines[-1].endswith(f"· depth {othello_bots.ANALYSIS_DEPTH}")
    assert analysis.best in game.legal_moves(state)


def test_the_analysis_keeps_deepening_until_cancelled_and_says_each_depth(monkeypatch):
    """Issue 33: the hint came from a 3-ply search while the bot it advised against searched
    seconds deep. Given ``report``, it reports ever deeper answers (``depth N…``) while it is let
    go on, and stops within moments of ``cancelled``."""
    import time

    import bots.othello as othello_bots

    monkeypatch.setattr(othello_bots, "analysis_seconds", lambda game: 600.0)  # only the cancel stops it
    game, state = midgame()
    seen = []
    stop_at = {}

    def cancelled() -> bool:
        if len(seen) >= 6 and "at" not in stop_at:
            stop_at["at"] = time.monotonic()
        return "at" in stop_at

    analysis = othello_bots.analyse(game, state, cancelled=cancelled, report=seen.append)
    stopped = time.monotonic() - stop_at["at"]
    depths = [int(a.lines[-1].split("depth ")[1].rstrip("…")) for a in seen]
    assert depths[0] == othello_bots.ANALYSIS_DEPTH and depths == sorted(set(depths)) and depths[-1] >= 8
    assert all(a.lines[-1].endswith("…") for a in seen[1:]) and all(a.best in game.legal_moves(state) for a in seen)
    assert analysis.best in game.legal_moves(state) and not analysis.lines[-1].endswith("…")
    assert stopped < 5.0  # the engine looks at the cancel every few milliseconds; a loaded machine is slow


def test_the_analysis_thinks_as_long_as_the_default_bot_and_stops_by_itself(monkeypatch):
    import time

    import bots.othello as othello_bots

    assert othello_bots.analysis_seconds(Othello()) == AlphaBetaBot(Othello()).move_seconds()
    assert othello_bots.analysis_seconds(Othello(time_limit=2.5)) == 2.5
    game, state = midgame()
    game = Othello(time_limit=0.3)
    started = time.monotonic()
    seen = []
    analysis = othello_bots.analyse(game, state, report=seen.append)
    assert time.monotonic() - started < 30  # its own time is up, nobody cancelled it
    depth = int(analysis.lines[-1].split("depth ")[1])
    assert depth > othello_bots.ANALYSIS_DEPTH and analysis.best == seen[-1].best


def test_the_analysis_solves_where_the_bot_would_and_reports_the_exact_margin(monkeypatch):
    import bots.othello as othello_bots

    game, state = midgame(plies=44, seed=5)
    empties = 64 - (state.blue | state.orange).bit_count()
    assert othello_bots.ANALYSIS_EMPTIES < empties <= 16 and not state.over
    seen = []
    analysis = othello_bots.analyse(game, state, report=seen.append)
    assert analysis.exact and analysis.lines[1].startswith("solved: ")
    p, o = state.mover_bits()
    from bots.othello import _margin

    margin = _margin(Engine(PatternEvaluator(), parallel=False).solve(p, o).score)
    assert seen and not seen[0].exact  # the quick answer came first
    assert analysis.value == (margin if state.to_move == 0 else -margin)
