"""The compiled Othello core against the pure-Python engine, its reference: the same moves, flips,
evaluation and stable discs; perft; the same score, move, line and node count at a fixed depth
on positions from every stage; the same exact solves; and the core's own contract (deadline,
cancel, the GIL released while it searches, the fallback when it is not built)."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import given, settings, strategies as st

from bots.othello import AlphaBetaBot, compiled
from bots.othello.bitboard import flips
from bots.othello.patterns import PatternEvaluator
from bots.othello.search import Engine, Timeout, stable_discs
from games.othello import FULL, Othello, legal_bits, perft
from tests.bots.othello.test_bots import brute_force, need_core, random_position, to_score
from tests.paths import ROOT

KNOWN_PERFT = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092, 8: 390216, 9: 3005288}
"""Leaves from the start, a pass counting as a move (as ``games.othello.perft`` counts)."""


@pytest.fixture(scope="module")
def core():
    need_core()
    from bots.othello import _core

    return _core


def stage_positions(per_stage: int, seed: int = 0) -> list[tuple[int, int]]:
    """``per_stage`` positions (mover to move, with a legal move) for each of the learned
    evaluation's 15 stages (4 discs each), from seeded random games."""
    rng = random.Random(seed)
    by_stage: dict[int, list] = {s: [] for s in range(15)}
    game_seed = 0
    while any(len(v) < per_stage for v in by_stage.values()):
        game_seed += 1
        game = Othello()
        state = game.initial_state()
        while not state.over:
            p, o = state.mover_bits()
            stage = min(14, ((p | o).bit_count() - 4) // 4)
            if legal_bits(p, o) and len(by_stage[stage]) < per_stage and rng.random() < 0.3:
                by_stage[stage].append((p, o))
            state = game.play(state, rng.choice(game.legal_moves(state)))
        assert game_seed < 10_000
    return [pos for s in range(15) for pos in by_stage[s]]


def board_positions():
    """Any position of a random game (some finished, some with a pass to make)."""
    return st.integers(0, 10_000).flatmap(
        lambda seed: st.integers(0, 64).map(lambda plies: random_position(seed, plies)[1].mover_bits()))


# -- the primitives -----------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(board_positions())
def test_moves_flips_stable_discs_and_evaluation_are_the_python_ones(pos):
    need_core()
    from bots.othello import _core

    p, o = pos
    assert _core.legal(p, o) == legal_bits(p, o)
    for sq in range(64):
        if not (p | o) >> sq & 1:
            assert _core.flips(p, o, sq) == flips(p, o, sq)
    assert _core.stable(p, o) == stable_discs(p, o)
    ev = PatternEvaluator()
    assert compiled.CompiledEngine(ev).evaluate(p, o) == ev.evaluate(p, o)


@pytest.mark.parametrize("depth", range(1, 10))
def test_perft_from_the_start_is_the_published_count(core, depth):
    s = Othello().initial_state()
    assert core.perft(s.blue, s.orange, depth) == KNOWN_PERFT[depth]


def test_perft_agrees_with_the_python_one_from_positions_with_passes_and_ends(core):
    checked = 0
    for seed in range(40):
        _, state = random_position(seed, 44 + seed % 14)
        p, o = state.mover_bits()
        depth = 4 if seed % 3 else 5
        assert core.perft(p, o, depth) == perft(p, o, depth)
        checked += not legal_bits(p, o)
    _, state = random_position(3, 30)
    assert core.perft(*state.mover_bits(), 6) == perft(*state.mover_bits(), 6)


def test_a_custom_pattern_evaluation_is_the_python_one(core):
    """Any weights of the layout, not just the shipped ones (here random ones, every stage)."""
    rng = random.Random(5)
    from bots.othello import patterns

    stages = [[rng.randrange(-300, 300) for _ in range(patterns.STAGE_SIZE)] for _ in range(patterns.STAGES)]
    ev = PatternEvaluator(stages=stages)
    engine = compiled.CompiledEngine(ev)
    for p, o in stage_positions(4, seed=3):
        assert engine.evaluate(p, o) == ev.evaluate(p, o)


# -- equivalence of the searches ------------------------------------------------------------------

def pair(probcut: bool = True, **options) -> tuple[Engine, Engine]:
    """A Python engine and a compiled one with the same evaluator and table size."""
    ev = PatternEvaluator(probcut=probcut)
    return Engine(ev, parallel=False, **options), compiled.CompiledEngine(ev, **options)


def same_search(python: Engine, core: Engine, p: int, o: int, depth: int) -> None:
    a = python.search(p, o, float("inf"), max_depth=depth)
    b = core.search(p, o, float("inf"), max_depth=depth)
    assert (b.score, b.move, b.depth) == (a.score, a.move, a.depth)
    assert b.line == a.line and b.nodes == a.nodes  # the same tree in the same order


def test_fixed_depth_searches_agree_on_210_positions_from_every_stage(core):
    """Depth 5 with Multi-ProbCut (the shipped calibration), fresh engines: same score, move,
    principal line and node count on 14 positions of each of the 15 stages."""
    positions = stage_positions(14)
    assert len(positions) == 210
    for p, o in positions:
        same_search(*pair(tt_limit=400_000), p, o, 5)


def test_searches_agree_when_the_table_fills_and_keeps_its_deepest_entries(core):
    """A table of 3,000 positions fills many times in a 6-ply search: both engines keep the same
    deepest entries (``_thinned``, ``tt_keep_from``) and search the same tree; after it, the table
    holds the root's children's entries (the upper tree) and no more than its limit."""
    from bots.othello.search import _thinned

    for p, o in stage_positions(1, seed=5)[5:11]:
        python, compiled_engine = pair(tt_limit=3_000)
        same_search(python, compiled_engine, p, o, 6)
        assert len(python.tt) <= 3_000 and compiled_engine.core.tt_size == len(python.tt)
        assert max(entry[0] for entry in python.tt.values()) >= 5  # the upper tree survived
    table = {i: (i % 10, 0, 0, 0) for i in range(100)}  # ten entries of each depth 0-9
    assert set(_thinned(table, 50)) == {i for i in range(100) if i % 10 >= 5}
    assert set(_thinned(table, 49)) == {i for i in range(100) if i % 10 >= 6}
    assert _thinned(table, 5) == {}


def test_a_search_looks_at_the_clock_at_the_node_after_its_table_is_thinned(core):
    """Thinning a full table is a pass over it that visits no node: the core looks
    at the clock at the node after it, not up to 4,096 nodes later (a 64 MB table's thinning near
    the deadline made moves of the 1 s bench run over their CPU budget). The clock here turns past
    the deadline once the table has been thinned: the search stops at the very next node."""
    for p, o in stage_positions(1, seed=5)[5:9]:
        engine = compiled.CompiledEngine(PatternEvaluator(), tt_limit=3_000)
        seen: list[tuple[int, int]] = []

        def clock() -> float:
            seen.append((engine.core.nodes, engine.core.rehashed_at))
            return 10.0 if engine.core.rehashed_at >= 0 else 0.0  # thinned

        engine.clock = clock
        info = engine.search(p, o, 1.0, max_depth=12)
        nodes, rehashed_at = seen[-1]
        assert info.depth < 12 and rehashed_at > 0  # the table filled and was thinned; the search was cut
        assert nodes - rehashed_at <= 1, seen[-3:]


@pytest.mark.parametrize("kind", ["compiled", "python"])
def test_a_table_that_fills_nearer_the_deadline_than_a_thinning_takes_stops_the_search(core, kind):
    """A thinning visits no node and reads no clock (36-43 ms for the 1 s level's table): one
    started nearer the deadline than the last one took would end past it (moves of 0.881-0.891 s
    of CPU against a 0.88 s budget in the 1 s match). The search stops instead of thinning; with
    time for it, it thins and goes on. Both engines, on the wall clock (the core's own)."""
    for p, o in stage_positions(1, seed=5)[5:7]:
        def engine(thin_seconds: float):
            made = (compiled.CompiledEngine(PatternEvaluator(), tt_limit=200) if kind == "compiled"
                    else Engine(PatternEvaluator(), tt_limit=200, parallel=False))
            if kind == "compiled":
                made.core.thin_seconds = thin_seconds
            else:
                made.thin_seconds = thin_seconds
            return made

        def thinned(made) -> bool:
            return made.core.rehashed_at >= 0 if kind == "compiled" else made.thin_seconds not in (0.0, 1e6)

        roomy = engine(0.0)  # a thinning is quick: the table thins and the search reaches its depth
        info = roomy.search(p, o, time.perf_counter() + 600, max_depth=9)
        assert info.depth == 9 and thinned(roomy)
        tight = engine(1e6)  # a thinning would end past any deadline: the first full table stops it
        info = tight.search(p, o, time.perf_counter() + 600, max_depth=9)
        assert info.depth < 9 and not thinned(tight)
        untimed = engine(1e6)  # no deadline: the table always thins (the parity tests' searches)
        assert untimed.search(p, o, float("inf"), max_depth=9).depth == 9 and thinned(untimed)
    with pytest.raises(ValueError, match="0 or more"):
        compiled.CompiledEngine(PatternEvaluator(), tt_limit=3_000).core.thin_seconds = -1


def test_deeper_searches_agree_with_and_without_probcut(core):
    for i, (p, o) in enumerate(stage_positions(2, seed=1)[4:26]):
        same_search(*pair(probcut=i % 2 == 0, tt_limit=400_000), p, o, 6 if i % 2 == 0 else 5)


def test_engines_kept_over_a_game_agree_move_after_move_even_when_their_tables_fill(core):
    """The tables, killers and history carry over from move to move (and a small table is
    thinned again and again): still the same tree."""
    python, fast = pair(tt_limit=3_000)
    game = Othello()
    state = game.initial_state()
    rng = random.Random(9)
    while not state.over and state.ply < 40:
        p, o = state.mover_bits()
        if legal_bits(p, o):
            same_search(python, fast, p, o, 5)
        state = game.play(state, rng.choice(game.legal_moves(state)))
    assert fast.core.tt_size <= 3_000


def test_tidying_between_moves_keeps_the_engines_in_step(core):
    """``tidy`` (a move's start: thin a table over 60 % of its limit) does the same on both
    engines: the same tree move after move, and the table at most half its limit after it; the
    core's spare table, made ahead of its first thinning, changes nothing."""
    python, fast = pair(tt_limit=1_000)
    fast.core.prepare_spare()  # the spare made ahead (as tidy does a third of the way): read as empty
    fast.core.prepare_spare()  # and made once
    game = Othello()
    state = game.initial_state()
    rng = random.Random(4)
    tidied = 0
    while not state.over and state.ply < 40:
        p, o = state.mover_bits()
        if legal_bits(p, o):
            full = len(python.tt)
            python.tidy()
            fast.tidy()
            assert fast.core.tt_size == len(python.tt)
            if full > 0.6 * 1_000:
                assert len(python.tt) <= 500
                tidied += 1
            else:
                assert len(python.tt) == full
            same_search(python, fast, p, o, 5)
        state = game.play(state, rng.choice(game.legal_moves(state)))
    assert tidied >= 3


def test_exact_solves_give_the_same_values(core):
    checked = 0
    for seed in range(60):
        _, state = random_position(300 + seed, 48 + seed % 4)  # 12-16 empties... and fewer
        p, o = state.mover_bits()
        if state.over or not legal_bits(p, o) or 64 - (p | o).bit_count() > 13:
            continue
        python, fast = pair()
        a = python.solve(p, o)
        b = fast.solve(p, o)
        assert b.score == a.score and b.exact
        f = flips(p, o, b.move)
        assert -Engine(parallel=False).solve(o ^ f, p | f | (1 << b.move)).score == a.score  # its move reaches it
        wld_a, wld_b = python.solve(p, o, alpha=-1, beta=1), fast.solve(p, o, alpha=-1, beta=1)
        assert (wld_b.score > 0) - (wld_b.score < 0) == (wld_a.score > 0) - (wld_a.score < 0)
        checked += 1
        if checked >= 20:
            break
    assert checked >= 20


def test_a_search_to_the_end_is_the_brute_force_value(core):
    for seed in range(6):
        _, state = random_position(60 + seed, 53)
        p, o = state.mover_bits()
        if state.over or not legal_bits(p, o):
            continue
        info = compiled.CompiledEngine(PatternEvaluator()).search(p, o, float("inf"), max_depth=64)
        assert info.exact and info.score == to_score(brute_force(p, o))


# -- the core's contract ---------------------------------------------------------------------------

def midgame() -> tuple[int, int]:
    _, state = random_position(12, 20)
    return state.mover_bits()


def test_a_passed_deadline_or_a_cancel_stops_the_core_and_it_serves_the_next_search(core):
    engine = compiled.CompiledEngine(PatternEvaluator())
    p, o = midgame()
    start = time.perf_counter()
    info = engine.search(p, o, time.perf_counter() + 0.2, max_depth=60, soft_fraction=1.0)
    assert time.perf_counter() - start < 1.5 and info.move in bits(legal_bits(p, o))  # (a loaded machine)
    with pytest.raises(Timeout):
        engine._root(p, o, 30, engine._ordered(p, o, legal_bits(p, o), 3, 0, -1))
    assert engine.search(p, o, float("inf"), cancelled=lambda: True, max_depth=20).depth < 20
    _, state = random_position(4, 40)
    with pytest.raises(Timeout):
        engine.solve(*state.mover_bits(), deadline=0.0)
    assert engine.search(p, o, float("inf"), max_depth=3).depth == 3  # not left busy


def test_any_clock_works_and_a_failing_callback_s_exception_comes_through(core):
    engine = compiled.CompiledEngine(PatternEvaluator())
    p, o = midgame()
    ticks = iter(range(10**9))
    engine.clock = lambda: next(ticks) * 0.01  # a clock the core cannot read natively
    info = engine.search(p, o, engine.clock() + 0.5, max_depth=60, soft_fraction=1.0)
    assert info.depth >= 1

    def broken() -> bool:
        raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        engine.search(p, o, float("inf"), cancelled=broken, max_depth=12)
    assert engine.search(p, o, float("inf"), max_depth=2).depth == 2


def test_the_core_lets_other_threads_run_while_it_searches(core):
    """The app's interface thread keeps answering keys: the search holds no GIL for long."""
    engine = compiled.CompiledEngine(PatternEvaluator())
    p, o = midgame()
    thread = threading.Thread(
        target=lambda: engine.search(p, o, time.perf_counter() + 0.6, max_depth=60, soft_fraction=1.0))
    thread.start()
    time.sleep(0.05)
    steps = 0
    stop = time.perf_counter() + 0.3
    while time.perf_counter() < stop:
        steps += 1
    thread.join()
    assert steps > 10_000


def test_another_build_of_the_core_loads_beside_this_one_and_searches_the_same(core):
    """``load_build`` (the bench's ``--against-core``: an equal-time match between two commits'
    cores) gives a module of its own whose engines search as this build's do."""
    other = compiled.load_build(compiled._core.__file__)
    assert other is not compiled._core
    p, o = stage_positions(1, seed=4)[6]
    a = compiled.CompiledEngine(PatternEvaluator()).search(p, o, float("inf"), max_depth=9)
    b = compiled.CompiledEngine(PatternEvaluator(), build=other).search(p, o, float("inf"), max_depth=9)
    assert (b.score, b.move, b.nodes, b.line) == (a.score, a.move, a.nodes, a.line)
    with pytest.raises(ImportError):
        compiled.load_build(__file__)


def test_the_fixed_depth_bench_times_another_build_beside_this_one(core):
    """``bench/othello.py fixed --against-core SO`` searches the same positions with both builds
    and prints the ratio of their times: here the same build twice, so the same moves and scores."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "othello.py"), "fixed", "--engines", "compiled",
         "--positions", "1", "--fixed-depth", "4", "--against-core", compiled._core.__file__],
        capture_output=True, text=True, timeout=300, check=True).stdout
    lines = [line for line in out.splitlines() if "moves and scores" in line]
    assert len(lines) == 2 and lines[1].startswith("the build at ")
    assert lines[0].split("moves and scores")[1] == lines[1].split("moves and scores")[1]
    assert "takes" in out.splitlines()[-1] and "% of the time of the build at" in out


def test_bad_arguments_are_errors_not_crashes(core):
    engine = compiled.CompiledEngine(PatternEvaluator())
    p, o = midgame()
    with pytest.raises(ValueError):
        core.legal(1, 1)  # overlapping boards
    with pytest.raises(OverflowError):
        core.legal(1 << 64, 0)
    with pytest.raises(ValueError):
        engine._root(p, o, 3, [bits(FULL ^ (p | o) ^ legal_bits(p, o))[0]])  # an illegal root move
    with pytest.raises(TypeError):
        compiled.CompiledEngine(object())


def bits(x: int) -> list[int]:
    return [s for s in range(64) if x >> s & 1]


# -- which engine, and the fallback ---------------------------------------------------------------

def test_the_environment_forces_the_python_engine_and_the_hand_evaluation_is_python(monkeypatch):
    monkeypatch.setenv(compiled.ENV, "python")
    game = Othello()
    assert type(AlphaBetaBot(game).engine) is Engine
    assert compiled.engine_name().startswith("Python")
    monkeypatch.delenv(compiled.ENV)
    from bots.othello.eval import HandEvaluator

    assert type(compiled.make_engine(HandEvaluator())) is Engine
    if compiled.available():
        assert isinstance(AlphaBetaBot(game).engine, compiled.CompiledEngine)
        assert compiled.engine_name() == "compiled C core"


def test_without_the_core_the_bot_plays_on_the_python_engine(monkeypatch):
    monkeypatch.setattr(compiled, "_core", None)
    monkeypatch.delenv(compiled.ENV, raising=False)
    assert "no compiled core" in compiled.engine_name()
    game = Othello()
    bot = AlphaBetaBot(game, 0.2)
    assert type(bot.engine) is Engine
    _, state = random_position(2, 10)
    from bots.base import Context

    assert bot.choose(state, Context(time_limit=0.2)) in game.legal_moves(state)


def test_the_build_succeeds_without_a_compiler(tmp_path):
    """``setup.py`` marks the extension optional: with no compiler the build warns and goes on
    (``pip install .`` then installs the pure-Python engine)."""
    # (a venv of Python 3.12+ has no setuptools; pip's build brings its own). Asked in a process
    # of its own: importing setuptools here, after another test loaded the standard library's
    # distutils in this worker, fails setuptools' own distutils check.
    if subprocess.run([sys.executable, "-c", "import setuptools"], capture_output=True).returncode:
        pytest.skip("no setuptools in this Python")
    for name in ("setup.py", "pyproject.toml", "README.md", "bots/othello/_core.c"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes((ROOT / name).read_bytes())
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tmp_path,
                          capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "CC": "/nonexistent"})
    assert done.returncode == 0, done.stderr
    assert "failed" in done.stderr and not list(tmp_path.rglob("*.so"))
