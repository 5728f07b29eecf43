"""The learned pattern evaluation: its patterns, its arithmetic, its weights file and its training."""

from __future__ import annotations

import random

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


def _squares_read(instance_at: int) -> list[int]:
    """The squares the generated code reads for one instance, by digit (from single-disc boards:
    a disc of the mover's on ``sq`` shows up as a digit 1 in the instance's index)."""
    name, cells = None, 0
    at = 3
    for pname, pcells, insts in patterns.PATTERNS:
        if at <= instance_at < at + len(insts):
            name, cells = pname, pcells
        at += len(insts)
    order = [None] * cells
    for sq in range(64):
        index = patterns.features(1 << sq, 0)[instance_at] - patterns.OFFSETS[name]
        digits = [index // 3 ** k % 3 for k in range(cells)]
        assert digits.count(2) == 0 and digits.count(1) <= 1, (name, sq)
        if 1 in digits:
            assert order[digits.index(1)] is None
            order[digits.index(1)] = sq
        # the opponent's disc: the same digit, 2
        index = patterns.features(0, 1 << sq)[instance_at] - patterns.OFFSETS[name]
        assert [index // 3 ** k % 3 for k in range(cells)] == [2 * d for d in digits]
    assert None not in order, name
    return order


def test_the_generated_code_reads_each_instance_s_squares_and_instances_are_symmetric_images():
    assert [name for name, _, _ in patterns.PATTERNS] == list(patterns.USED)
    assert sum(len(i) for _, _, i in patterns.PATTERNS) == 30
    at = 3
    for name, cells, instances in patterns.PATTERNS:
        assert instances[0] == patterns.ALL_PATTERNS[name] and cells == len(instances[0])
        assert len({frozenset(i) for i in instances}) == len(instances), name  # distinct squares
        for k, instance in enumerate(instances):
            assert _squares_read(at + k) == instance
            assert any([patterns.symmetry(t, sq) for sq in instances[0]] == instance for t in range(8)), (name, k)
        # every image of the first instance is one of them (as a set of squares)
        images = {frozenset(patterns.symmetry(t, sq) for sq in instances[0]) for t in range(8)}
        assert images == {frozenset(i) for i in instances}
        at += len(instances)
    expected = {"edge+2X": 4, "corner2x5": 8, "corner3x3": 4, "line2": 4, "line3": 4, "diag8": 2, "diag7": 4}
    assert {name: len(i) for name, _, i in patterns.PATTERNS} == expected


def test_every_pattern_of_the_classic_set_decomposes_into_lines_that_cover_it_once():
    for name, first in patterns.ALL_PATTERNS.items():
        for instance in patterns.instances(first):
            parts = patterns.decompose(instance)
            digits = sorted(d for _, mapping in parts for _, d in mapping)
            assert digits == list(range(len(first))), name
            assert len(parts) <= 3


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


def test_the_shipped_weights_load_and_evaluate_within_bounds():
    # how fast they load is bench/othello.py evalcost's figure, not a test's
    patterns._CACHE.clear()
    ev = patterns.PatternEvaluator()
    assert len(ev.stages) == patterns.STAGES
    for p, o in positions(40, seed=5):
        v = ev.evaluate(p, o)
        assert -HEURISTIC_MAX <= v <= HEURISTIC_MAX or abs(v) >= 10_000


def test_the_shipped_weights_value_every_position_like_its_mirror_images():
    # fitted with --symmetric (training/othello/train_patterns.sh, round 4)
    ev = patterns.PatternEvaluator()
    assert _asymmetric_positions(ev.evaluate, positions(60, seed=11)) == 0


def test_a_file_of_another_layout_is_refused(tmp_path):
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"not weights")
    with pytest.raises(ValueError):
        patterns.load(bad)


def test_the_training_pipeline_end_to_end(tmp_path):
    import numpy  # noqa: F401 - part of .[test]: the pipeline needs it
    from training.othello import train

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


def _image(bits: int, t: int) -> int:
    return sum(1 << patterns.symmetry(t, sq) for sq in range(64) if bits >> sq & 1)


def _asymmetric_positions(evaluate, boards) -> int:
    """How many of ``boards`` the evaluation values differently from one of their 8 images."""
    return sum(len({evaluate(_image(p, t), _image(o, t)) for t in range(8)}) > 1 for p, o in boards)


def test_a_symmetric_fit_values_every_position_like_its_mirror_images():
    import numpy as np

    from training.othello import train

    maps = train.stabilizer_maps(np)
    # the edge and the lines are mirrored onto themselves, the diagonals reversed, the corner
    # block transposed: their configurations pair up; the 2x5 block has no such symmetry
    assert len(set(maps["edge+2X"].tolist())) == (3 ** 10 + 3 ** 5) // 2
    assert len(set(maps["corner3x3"].tolist())) == (3 ** 9 + 3 ** 6) // 2
    assert len(set(maps["diag8"].tolist())) == (3 ** 8 + 3 ** 4) // 2
    assert len(set(maps["corner2x5"].tolist())) == 3 ** 10
    data = []
    for g in range(6):
        data += train.self_play_game(g, solve_empties=8, depth=1)
    boards = positions(40, seed=7)
    tied, _ = train.fit(data, epochs=8, symmetric=True)
    assert _asymmetric_positions(patterns.PatternEvaluator(stages=tied).evaluate, boards) == 0
    free, _ = train.fit(data, epochs=8)
    assert _asymmetric_positions(patterns.PatternEvaluator(stages=free).evaluate, boards) > 0


def test_alphabeta_plays_with_the_learned_evaluation_and_its_probcut_and_alphabeta_hand_with_the_hand_one():
    from bots.othello import BOTS
    from bots.othello.eval import HandEvaluator
    from games.othello import Othello

    game = Othello()
    for name in ("alphabeta", "alphabeta-5s", "alphabeta-1s", "alphabeta-0.1s"):
        engine = BOTS[name].make(game).engine
        assert isinstance(engine.evaluator, patterns.PatternEvaluator), name
        assert engine.probcut is not None and engine.probcut == patterns.load_probcut(patterns.WEIGHTS_FILE)
    hand = BOTS["alphabeta-hand"].make(game)
    assert isinstance(hand.engine.evaluator, HandEvaluator) and hand.engine.probcut is None
    assert hand.time_limit is None and BOTS["alphabeta"].make(game).time_limit is None


def test_the_shipped_probcut_calibration_is_for_the_shipped_weights_and_covers_the_depths_searched():
    table = patterns.load_probcut(patterns.WEIGHTS_FILE)
    assert table is not None  # made for these weights (its checksum matches)
    from training.othello.train import probcut_shallow

    assert set(table) == set(range(3, 15))  # calibrated to 14 plies (the depths 1 s reaches and 10 s passes through)
    for depth, (shallow, a, b, sigmas) in table.items():
        assert shallow == probcut_shallow(depth) < depth
        assert 0.8 < a < 1.3 and all(s > 0 for s in sigmas)


def _midgame(seed: int):
    from bench.othello import midgame_positions

    return [s.mover_bits() for s in midgame_positions(3, 20 + seed)]


@pytest.mark.parametrize("kind", ["compiled", "python"])
def test_probcut_that_never_trusts_the_shallow_search_changes_no_score_and_a_confident_one_prunes(kind):
    from bots.othello.compiled import CompiledEngine
    from bots.othello.search import Engine
    from tests.bots.othello.test_bots import need_core

    if kind == "compiled":
        need_core()
        Engine = CompiledEngine  # noqa: N806 - the same calls on the compiled core
    plain = patterns.PatternEvaluator()
    plain.probcut = None
    never = patterns.PatternEvaluator()
    never.probcut = {d: (1, 1.0, 0.0, (5000,) * 65) for d in range(3, 9)}  # 75 discs: never
    sure = patterns.PatternEvaluator()
    sure.probcut = {d: (d - 2, 1.0, 0.0, (0,) * 65) for d in range(3, 9)}
    for p, o in _midgame(0):
        base = Engine(plain, parallel=False).search(p, o, float("inf"), max_depth=5)
        same = Engine(never, parallel=False).search(p, o, float("inf"), max_depth=5)
        cut = Engine(sure, parallel=False).search(p, o, float("inf"), max_depth=5)
        assert same.score == base.score and same.nodes > base.nodes  # its shallow searches ran, and never cut
        assert cut.nodes < base.nodes  # trusting them prunes


def test_probcut_calibration_belongs_to_its_weights(tmp_path):
    import json
    import shutil

    weights = tmp_path / "w.bin"
    shutil.copy(patterns.WEIGHTS_FILE, weights)
    from training.othello import train

    samples = tmp_path / "s.txt"
    rows = [f"{20 + i % 30} " + " ".join(str((i * 37 + d * 11) % 400 - 200 + d * i) for d in range(1, 6)) for i in range(60)]
    samples.write_text("\n".join(rows) + "\n")
    out = patterns.probcut_path(weights)
    train.main(["probcut-fit", str(samples), "--weights", str(weights), "--out", str(out)])
    table = patterns.load_probcut(weights)
    assert set(table) == {3, 4, 5} and table[5][0] == train.probcut_shallow(5) == 3
    assert all(len(entry[3]) == 65 and min(entry[3]) > 0 for entry in table.values())
    assert patterns.PatternEvaluator(path=weights).probcut == table
    assert patterns.PatternEvaluator(path=weights, probcut=False).probcut is None
    data = json.loads(out.read_text())
    data["weights_sha256"] = "0" * 64  # made for other weights: not used
    out.write_text(json.dumps(data))
    assert patterns.load_probcut(weights) is None


def test_a_calibration_extended_deeper_keeps_its_depths_and_refuses_other_weights(tmp_path):
    """``probcut-fit --extend``: the depths already calibrated stay as they were, the samples fit
    only the deeper ones; a calibration of other weights, or sampling ``--probcut`` with weights
    that have none, is refused."""
    import json
    import shutil

    from training.othello import train

    weights = tmp_path / "w.bin"
    shutil.copy(patterns.WEIGHTS_FILE, weights)
    out = patterns.probcut_path(weights)

    def samples(name: str, depths: int, scale: int) -> str:
        rows = [f"{20 + i % 30} " + " ".join(str((i * 37 + d * 11) % 400 - 200 + scale * d * i) for d in range(1, depths + 1))
                for i in range(60)]
        (tmp_path / name).write_text("\n".join(rows) + "\n")
        return str(tmp_path / name)

    train.main(["probcut-fit", samples("a.txt", 5, 1), "--weights", str(weights), "--out", str(out)])
    base = json.loads(out.read_text())
    deeper = tmp_path / "deeper.json"
    train.main(["probcut-fit", samples("b.txt", 7, 3), "--weights", str(weights), "--out", str(deeper),
                "--extend", str(out)])
    extended = json.loads(deeper.read_text())
    assert list(extended["depths"]) == ["3", "4", "5", "6", "7"]
    assert all(extended["depths"][d] == base["depths"][d] for d in ("3", "4", "5"))
    refit = tmp_path / "refit.json"  # the same samples without --extend fit every depth anew
    train.main(["probcut-fit", str(tmp_path / "b.txt"), "--weights", str(weights), "--out", str(refit)])
    assert json.loads(refit.read_text())["depths"]["5"] != base["depths"]["5"]
    assert json.loads(refit.read_text())["depths"]["7"] == extended["depths"]["7"]

    other = tmp_path / "other.bin"
    stages = patterns.load(weights)
    stages[0][0] += 1
    patterns.save(stages, other)  # other weights, without a calibration of their own
    with pytest.raises(SystemExit, match="not a calibration of"):
        train.main(["probcut-fit", str(tmp_path / "b.txt"), "--weights", str(other), "--out", str(tmp_path / "x.json"),
                    "--extend", str(out)])
    positions = tmp_path / "positions.txt"
    positions.write_text("810000000 1008000000 0 False\n")
    with pytest.raises(SystemExit, match="no calibration"):
        train.main(["probcut-sample", str(positions), "--weights", str(other), "--probcut", "--out",
                    str(tmp_path / "s.txt")])


def test_a_damaged_probcut_calibration_is_ignored_and_the_engine_still_plays(tmp_path):
    import shutil

    from bots.othello.search import Engine

    weights = tmp_path / "w.bin"
    shutil.copy(patterns.WEIGHTS_FILE, weights)
    for text in ("{not json", '{"weights_sha256": 5}', "[]", '{"weights_sha256": "%s", "groups": [24], "depths": {"3": {}}}'):
        if "%s" in text:
            import hashlib

            text = text % hashlib.sha256(weights.read_bytes()).hexdigest()
        patterns.probcut_path(weights).write_text(text)
        assert patterns.load_probcut(weights) is None, text
    patterns._CACHE.pop(str(weights), None)
    ev = patterns.PatternEvaluator(path=weights)
    assert ev.probcut is None
    p, o = _midgame(1)[0]
    assert Engine(ev, parallel=False).search(p, o, float("inf"), max_depth=4).move >= 0
