"""The Othello engine has no side: a position and its colour-swapped twins get the same
evaluation and the same fixed-depth search score, on the Python engine and on the compiled core,
and every search score is its best child's negated (no sign slips from ply to ply).

Swapping the colours of the course's start (D4, E5 blue; D5, E4 orange) gives its mirror image,
so a game played with the colours swapped reaches the board's images under the symmetries of the
square: a twin of a position is its image by any of the 8 symmetries, the mover keeping the move
(the engine sees only ``(mover, opponent)``; a game state with blue and orange swapped and the
other side to move gives the same pair, which the first test checks too). Issue #34's asymmetry
(our engine scoring worse as the side to move after the opening) is looked for here.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from bots.othello import compiled
from bots.othello.eval import utility
from bots.othello.patterns import PatternEvaluator, symmetry
from bots.othello.search import Engine
from games.othello import BLUE, ORANGE, Othello, flip_bits, legal_bits
from tests.bots.othello.test_bots import need_core, random_position


def image(bits: int, t: int) -> int:
    return sum(1 << symmetry(t, sq) for sq in range(64) if bits >> sq & 1)


def positions(min_plies: int = 0, max_plies: int = 60):
    """A position of a seeded random game, as the game state."""
    return st.tuples(st.integers(0, 100_000), st.integers(min_plies, max_plies)).map(
        lambda args: random_position(*args)[1])


def engines() -> list:
    """A fresh Python engine and, where built, a fresh compiled one (the shipped weights, no
    Multi-ProbCut)."""
    ev = PatternEvaluator(probcut=False)
    out = [Engine(ev, parallel=False)]
    if compiled.available():
        out.append(compiled.CompiledEngine(ev))
    return out


@settings(max_examples=120, deadline=None)
@given(positions())
def test_a_position_and_its_colour_swapped_twins_evaluate_alike_on_both_engines(state):
    need_core()
    game = Othello()
    twin = game.state_from(state.orange, state.blue, ORANGE if state.to_move == BLUE else BLUE, state.ply)
    assert twin.mover_bits() == state.mover_bits()
    p, o = state.mover_bits()
    python, core = engines()
    value = python.evaluate(p, o)
    for t in range(8):
        assert python.evaluate(image(p, t), image(o, t)) == value, t
        assert core.evaluate(image(p, t), image(o, t)) == value, t


@settings(max_examples=25, deadline=None)
@given(positions(4, 56), st.integers(1, 7))
def test_fixed_depth_scores_of_a_position_and_its_twin_are_the_same(state, t):
    """Without Multi-ProbCut a fixed-depth search is the exact minimax value whatever the move
    order (the images order their moves differently: ties go to the lowest square)."""
    need_core()
    p, o = state.mover_bits()
    if not legal_bits(p, o):
        return
    for engine, depth in zip(engines(), (3, 6)):
        twin_engine = type(engine)(engine.evaluator, parallel=False)
        a = engine.search(p, o, float("inf"), max_depth=depth)
        b = twin_engine.search(image(p, t), image(o, t), float("inf"), max_depth=depth)
        assert (b.score, b.depth) == (a.score, a.depth)
        # the twin's best move scores the same as the image of ours (a tie may pick another)
        assert image(1 << a.move, t) & legal_bits(image(p, t), image(o, t))


def child_value(engine_type, evaluator, p: int, o: int, depth: int) -> int:
    """The value for the mover of ``(p, o)`` at ``depth`` plies by a fresh engine's root search
    (a pass uses no depth, as in the search; a finished board is its utility)."""
    if not legal_bits(p, o):
        if not legal_bits(o, p):
            return utility(p, o)
        return -child_value(engine_type, evaluator, o, p, depth)
    if depth == 0:
        return evaluator.evaluate(p, o)
    engine = engine_type(evaluator, parallel=False)
    moves = [sq for sq in range(64) if legal_bits(p, o) >> sq & 1]
    return engine._root(p, o, depth, moves)[0]


@pytest.mark.parametrize("kind", ["python", "compiled"])
@settings(max_examples=20, deadline=None)
@given(state=positions(4, 56))
def test_every_root_score_is_its_child_s_value_negated(kind, state):
    """At the root, a move's score is minus the child's value one ply shallower, searched on its
    own: the side to move flips sign at every ply and nowhere else (without Multi-ProbCut, whose
    cuts depend on the window)."""
    need_core()
    p, o = state.mover_bits()
    if not legal_bits(p, o):
        return
    ev = PatternEvaluator(probcut=False)
    engine_type = Engine if kind == "python" else compiled.CompiledEngine
    depth = 3 if kind == "python" else 5
    moves = [sq for sq in range(64) if legal_bits(p, o) >> sq & 1]
    engine = engine_type(ev, parallel=False)
    # a full window for every move: each score exact (PVS's null windows give bounds only)
    for sq in moves:
        best, move, scores = engine._root(p, o, depth, [sq])
        f = flip_bits(p, o, sq)
        assert best == scores[sq] == -child_value(engine_type, ev, o ^ f, p | f | 1 << sq, depth - 1)
