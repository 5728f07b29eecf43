"""The learned pattern evaluation: its patterns, its arithmetic, its weights file and its training."""

from __future__ import annotations

import random
import time

import pytest

from bots.othello import patterns
from bots.othello.eval import HEURISTIC_MAX, utility
from games.othello import INITIAL_BLUE, INITIAL_ORANGE, flip_bits, legal_bits


def positions(count: int, seed: int = 0):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        p, o = INITIAL_BLUE, INITIAL_ORANGE
        for _ in range(rng.randint(0, 60)):
            moves = legal_bits(p, o)
            if not moves:
                if not legal_bits(o, p):
                    break
                p, o = o, p
                continue
            squares = [s for s in range(64) if moves >> s & 1]
            sq = rng.choice(squares)
            f = flip_bits(p, o, sq)
            p, o = o ^ f, p | f | 1 << sq
        out.append((p, o))
    return out


def _symmetries():
    def make(t):
        def f(sq):
            r, c = divmod(sq, 8)
            if t & 1:
                c = 7 - c
            if t & 2:
                r = 7 - r
            if t & 4:
                r, c = c, r
            return r * 8 + c
        return f
    return [make(t) for t in range(8)]


def _cells_in_order(expr: str, cells: int) -> list[int]:
    """The squares an instance's expression reads, by digit (from single-disc boards)."""
    order = [None] * cells
    for sq in range(64):
        x = 1 << sq
        env = {"X": x, "R8": patterns.REV[8], "R7": patterns.REV[7], "R6": patterns.REV[6],
               "R5": patterns.REV[5], "R4": patterns.REV[4]}
        for r in range(8):
            env[f"Xr{r}"] = x >> 8 * r & 255
        for c in range(8):
            env[f"Xc{c}"] = ((x >> c) & 0x0101010101010101) * 0x0102040810204080 >> 56 & 255
        for name in ("r0", "r1", "r2", "r5", "r6", "r7", "c0", "c1", "c6", "c7"):
            env["XR" + name] = patterns.REV[8][env["X" + name]]
        v = eval(expr, env)
        if v:
            assert v & (v - 1) == 0, (expr, sq)
            k = v.bit_length() - 1
            assert k < cells and order[k] is None, (expr, sq)
            order[k] = sq
    assert None not in order, expr
    return order


def test_every_instance_is_an_image_of_the_first_by_a_board_symmetry():
    syms = _symmetries()
    assert sum(len(i) for _, _, i in patterns.PATTERNS) == 46
    for name, cells, instances in patterns.PATTERNS:
        orders = [_cells_in_order(e, cells) for e in instances]
        assert len({tuple(sorted(o)) for o in orders}) == len(orders), name  # distinct squares
        for order in orders[1:]:
            assert any([f(s) for s in orders[0]] == order for f in syms), (name, order)


def test_evaluation_is_the_sum_of_the_stage_weights_of_its_features(tmp_path):
    stages = [[(i * 7919 + s * 104729) % 601 - 300 for i in range(patterns.STAGE_SIZE)] for s in range(patterns.STAGES)]
    path = tmp_path / "w.bin"
    patterns.save(stages, path)
    ev = patterns.PatternEvaluator(path=path)
    assert [list(s) for s in ev.stages] == stages  # the file round-trips
    for p, o in positions(60):
        finished = not legal_bits(p, o) and not legal_bits(o, p)
        value = ev.evaluate(p, o)
        if finished:
            assert value == utility(p, o)
            continue
        stage = stages[patterns.stage_of((p | o).bit_count())]
        total = sum(stage[i] for i in ev.features(p, o))
        assert value == max(-HEURISTIC_MAX, min(HEURISTIC_MAX, total))
        # the base-3 digits read the right discs: each instance's index is below its table's end
        idx = patterns.features(p, o)
        assert len(idx) == patterns.FEATURES and max(idx) < patterns.STAGE_SIZE


def test_the_shipped_weights_load_fast_and_evaluate_within_bounds():
    patterns._CACHE.clear()
    start = time.perf_counter()
    ev = patterns.PatternEvaluator()
    assert time.perf_counter() - start < 1.0
    assert len(ev.stages) == patterns.STAGES
    for p, o in positions(40, seed=5):
        v = ev.evaluate(p, o)
        assert -HEURISTIC_MAX <= v <= HEURISTIC_MAX or abs(v) >= 10_000


def test_a_file_of_another_layout_is_refused(tmp_path):
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"not weights")
    with pytest.raises(ValueError):
        patterns.load(bad)


def test_the_training_pipeline_end_to_end(tmp_path):
    import numpy  # noqa: F401 - part of .[test]: the pipeline needs it
    from bots.othello import train

    data = []
    for g in range(6):
        data += train.self_play_game(g, solve_empties=8, depth=1)
    assert all(-64 <= t <= 64 for _, _, t, _ in data)
    assert any(e for _, _, _, e in data)
    # each position's label is the final margin from its mover's side: the two sides' labels are opposite
    weights, report = train.fit(data, epochs=8, holdout=0.2)
    assert report["loss"][-1] < report["loss"][0] / 2  # the loss falls
    path = tmp_path / "w.bin"
    patterns.save(weights, path)
    ev = patterns.PatternEvaluator(path=path)
    assert [list(s) for s in ev.stages] == weights
    p, o = data[10][0], data[10][1]
    assert ev.evaluate(p, o) == max(-HEURISTIC_MAX, min(HEURISTIC_MAX, sum(
        weights[patterns.stage_of((p | o).bit_count())][i] for i in patterns.features(p, o))))


def test_alphabeta_plays_with_the_hand_evaluation_and_alphabeta_learned_with_the_patterns():
    from bots.othello import BOTS
    from bots.othello.eval import HandEvaluator
    from games.othello import Othello

    game = Othello()
    assert isinstance(BOTS["alphabeta"].make(game).engine.evaluator, HandEvaluator)
    assert isinstance(BOTS["alphabeta-1s"].make(game).engine.evaluator, HandEvaluator)
    learned = BOTS["alphabeta-learned"].make(game)
    assert isinstance(learned.engine.evaluator, patterns.PatternEvaluator) and learned.time_limit is None
