"""The compiled search core (``bots/othello/_core.c``) behind the engine's interface, and the
choice between it and the pure-Python engine.

``CompiledEngine`` is ``bots.othello.search.Engine`` with its inner searches in C: each iteration's
root search, the move ordering, the principal line, and each exact window of the endgame solve.
The Python ``Engine`` keeps the iterative deepening, the MTD(f) loop and the time policy, and
stays the reference the C code was translated from: at a fixed depth both search the same tree
in the same order and return the same score and move (``tests/bots/othello/test_compiled.py``).

The core only knows the learned pattern evaluation (``bots.othello.patterns``), whose weights and
Multi-ProbCut calibration are read by Python and handed to it; an engine with another evaluator
(``alphabeta-hand``) is the Python one. It solves endgames on one core: the two-core solve of
``bots.othello.parallel_solve`` coordinates Python helper processes, far slower than the core alone.

``make_engine`` picks the compiled engine when the extension was built (``pip install .`` with a
C compiler; ``setup.py``) and ``ARCADE_OTHELLO_ENGINE`` does not say ``python``; ``engine_name``
says which one a new engine would be.
"""

from __future__ import annotations

import os
from array import array
from dataclasses import dataclass

from bots.othello import patterns
from bots.othello.search import EDGE_STABLE, INF, TIDY_AT, Engine, Timeout

try:
    import bots.othello._core as _core  # (a submodule import: not the package's __init__)
except ImportError:  # built without a C compiler: the Python engine plays
    _core = None
else:
    _core.set_edge_table(bytes(EDGE_STABLE))
    _core.set_timeout(Timeout)

ENV = "ARCADE_OTHELLO_ENGINE"
"""``python`` forces the pure-Python engine (for tests and comparison); anything else, or unset,
means the compiled one where it was built."""

COMPILED_TT_LIMIT = 1_000_000
"""Positions the compiled engine's midgame table holds before it keeps only its deepest half
(``tt_rehash`` from ``tt_keep_from``; the Python engine's 400,000 fill in a fraction of a second at the core's speed): 48 MB
at most."""

_INSTANCES = [(patterns.OFFSETS[name], inst) for name, _cells, insts in patterns.PATTERNS for inst in insts]
_WEIGHTS: dict[int, tuple[list, bytes]] = {}
"""Per stages object (kept alive with it): the weights as int16 bytes for the core."""


def load_build(path: str):
    """The compiled core built at ``path`` (a ``_core*.so`` of another commit), loaded beside this
    one and set up as this one is, for ``CompiledEngine(build=...)``."""
    import importlib.machinery
    import importlib.util

    if not str(path).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
        raise ImportError(f"{path} is not an extension module of this Python")
    loader = importlib.machinery.ExtensionFileLoader("_core", str(path))  # its init function's name
    spec = importlib.util.spec_from_file_location("_core", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.set_edge_table(bytes(EDGE_STABLE))
    module.set_timeout(Timeout)
    return module


def available() -> bool:
    """The extension was built and imports."""
    return _core is not None


def forced_python() -> bool:
    return os.environ.get(ENV, "").strip().lower() == "python"


def engine_name() -> str:
    """Which engine ``make_engine`` gives the learned evaluation now, and why if not the compiled one."""
    if _core is None:
        return "Python (no compiled core: built without a C compiler)"
    if forced_python():
        return f"Python ({ENV}=python)"
    return "compiled C core"


def _weights_blob(stages: list) -> bytes | None:
    """The stages as one int16 array's bytes, or None if they do not fit the core."""
    got = _WEIGHTS.get(id(stages))
    if got is not None and got[0] is stages:
        return got[1]
    if len(stages) != patterns.STAGES or any(len(s) != patterns.STAGE_SIZE for s in stages):
        return None
    raw = array("h")
    try:
        for stage in stages:
            raw.extend(array("h", stage))
    except (OverflowError, TypeError):
        return None
    if raw.itemsize != 2:
        return None
    blob = raw.tobytes()
    _WEIGHTS[id(stages)] = (stages, blob)
    return blob


def supports(evaluator) -> bool:
    """The core can evaluate like ``evaluator``: a pattern evaluation of the shipped layout."""
    return (_core is not None and isinstance(evaluator, patterns.PatternEvaluator)
            and _weights_blob(evaluator.stages) is not None)


@dataclass
class CompiledEngine(Engine):
    """``Engine`` with the compiled core's searches; the evaluator must be a ``PatternEvaluator``."""

    tt_limit: int = COMPILED_TT_LIMIT
    parallel: bool = False
    endgame_table_bits: int = 21
    """The endgame bounds table: 2 ** bits entries of 24 bytes (48 MB at 21), filled as used."""
    build: object = None
    """The extension module to search with (``load_build``: another commit's core, for the
    bench's equal-time matches between builds); ``None``: this one."""

    def __post_init__(self) -> None:
        module = self.build or _core
        if module is None:
            raise RuntimeError("the compiled Othello core is not built")
        if not isinstance(self.evaluator, patterns.PatternEvaluator):
            raise TypeError("the compiled core evaluates only with a PatternEvaluator's weights")
        blob = _weights_blob(self.evaluator.stages)
        if blob is None:
            raise TypeError("these pattern weights do not fit the compiled core (int16, the shipped layout)")
        super().__post_init__()
        self.parallel = False  # the helpers are Python processes: slower than the core alone
        self.core = module.Core(blob, patterns.STAGES, patterns.STAGE_SIZE, _INSTANCES,
                               patterns.OFFSETS["mobility"], patterns.OFFSETS["opponent mobility"],
                               patterns.OFFSETS["parity"], self.probcut, self.tt_limit, self.endgame_table_bits)
        self.evaluate = self.core.evaluate

    # -- the midgame ----------------------------------------------------------------------------
    def tidy(self) -> None:
        """``Engine.tidy``; and once the table is a third full, the spare table that thinning
        moves into is made, its pages touched (the first thinning's fresh 64 MB cost 80 ms of
        page faults inside a search)."""
        if self.core.tt_size > self.tt_limit // 3:
            self.core.prepare_spare()
        if self.core.tt_size > TIDY_AT * self.tt_limit:
            self.core.thin()

    def _age_history(self) -> None:
        self.core.age_history()

    def _ordered(self, p: int, o: int, moves: int, depth: int, ply: int, tt_move: int) -> list[int]:
        return self.core.ordered(p, o, moves, depth, ply, tt_move)

    def _root(self, p: int, o: int, depth: int, order: list[int], alpha: int = -INF, beta: int = INF):
        core = self.core
        core.nodes = self.nodes
        core.probcut_t = self.probcut_t
        try:
            return core.root(p, o, depth, order, alpha, beta, self.deadline, self.clock, self.cancelled)
        finally:
            self.nodes = core.nodes
            self.partial = core.partial

    def principal_line(self, p: int, o: int, first: int, length: int) -> list[int]:
        return self.core.principal_line(p, o, first, length)

    # -- the endgame ----------------------------------------------------------------------------
    def _new_solve(self) -> None:
        self.core.new_solve()

    def _solve_root(self, p: int, o: int, order: list[int], alpha: int, beta: int, empties: int) -> tuple[int, int]:
        core = self.core
        core.nodes = self.nodes
        try:
            return core.solve_root(p, o, order, alpha, beta, empties, self.deadline, self.clock, self.cancelled)
        finally:
            self.nodes = core.nodes

    def line_from(self, p: int, o: int, length: int = 6) -> list[int]:
        return self.core.table_line(p, o, length)


def make_engine(evaluator=None, **options) -> Engine:
    """An engine for ``evaluator`` (the hand evaluation by default, as ``Engine``'s): the compiled
    one when it is built, not forced off, and the evaluator is a pattern evaluation; else the
    Python one. ``options`` are ``Engine``'s fields."""
    if evaluator is not None and supports(evaluator) and not forced_python():
        return CompiledEngine(evaluator, **options)
    if evaluator is None:
        return Engine(**options)
    return Engine(evaluator, **options)
