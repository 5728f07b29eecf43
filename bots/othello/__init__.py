"""Othello bots: ``random``, ``greedy`` (most flips) and ``alphabeta`` (the engine) at levels.

The package
===========
- here: the bots (``BOTS``), ``AlphaBetaBot`` (its time policy: when to solve, when to search)
  and ``analyse``, the game screen's analysis;
- ``search``: the engine in Python, ``Engine``: iterative-deepening negascout under the time
  manager (``worth_another``) and the exact endgame solve. The reference that the compiled core translates line by line (the same tree,
  the same node counts): a change there is a change in ``_core.c``;
- ``_core.c``: the compiled core (C, built as ``bots.othello._core`` by ``setup.py`` where a
  compiler exists, optional); ``compiled``: its wrapper, ``CompiledEngine`` (``Engine`` with the
  inner searches in C), and ``make_engine``, which picks it or the Python engine;
- ``bitboard``: what ``search`` and ``parallel_solve`` share: a move's flips (``flips``,
  ``FLIPS``), ``table_line`` (the line a table's best moves make) and ``Timeout``;
- ``parallel_solve``: the Python engine's two-core exact solve, the coordinator that hands
  null-window jobs to two ``solve_helper`` processes (``python -m bots.othello.solve_helper``);
- ``eval``: the hand-set evaluation (``HandEvaluator``, ``alphabeta-hand``'s); ``patterns``: the
  learned pattern evaluation (``PatternEvaluator``) with its weights ``patterns.bin`` and their
  Multi-ProbCut calibration ``patterns.probcut.json`` (both made by ``training/othello/``,
  outside the package);
- ``book``: the opening book (``Book``, ``shipped``), built by the engine itself (``build``:
  ``python -m bots.othello.book``) into ``book.bin``, played where it is deeper than the move's
  own search (``Book.serves``);
- ``cs4341_program``: the bridge to a CS4341 program over the course referee's files (the
  ``external`` bot, and the file handling of ``arcade.cs4341_referee``'s player and referee).

``alphabeta`` and its levels evaluate positions with the learned pattern evaluation
(``bots.othello.patterns``, weights in ``patterns.bin``) and prune with its Multi-ProbCut
calibration (``patterns.probcut.json``); ``alphabeta-hand`` is the same engine with the hand-set
evaluation (``bots.othello.eval.HandEvaluator``) and no ProbCut, the engine before the learned
one, kept for comparison (it wins 28 % of the points against it at 1 s a move: the README).

``alphabeta`` searches with iterative deepening until its time limit (``ctx.time_limit``, or the
game's ``time_limit`` option, 10 s by default as in the seed) less a safety margin, then solves
the endgame exactly once few squares are empty (see ``bots.othello.search``); a few empties
earlier it first tries a win/loss/draw solve and plays a proven win or draw at once. The ``alphabeta
1s``/``5s`` entries are the same engine with a shorter limit. While thinking it reports the
depth reached, the score and the best line through ``ctx.report``. It never ponders: no work
happens on the opponent's turn.

The engine is the compiled search core (``bots.othello.compiled``, built from
``bots/othello/_core.c`` at ``pip install .``) where it was built, else the pure-Python engine
(``bots.othello.search``) with the same moves at a fraction of the speed; ``ENGINE_NAME`` says
which, and so do ``arcade bots othello`` and the bot's thinking lines. ``ARCADE_OTHELLO_ENGINE=python``
forces the Python one. The compiled one searches deeper and solves the endgame exactly from
further out (``solve_empties``); the Python one solves from 14 empties on both cores
(``bots.othello.parallel_solve``'s two helper processes, which sleep between solves), the compiled
one on one. ``alphabeta-hand`` always plays on the Python engine (the core knows only the learned
evaluation).
"""

from __future__ import annotations

import gc
import threading
import time
from typing import Callable

from bots.base import Bot, BotEntry, Context, random_move
from bots.limits import move_time
from bots.othello.compiled import CompiledEngine, engine_name, make_engine
from bots.othello.eval import WIN, HandEvaluator
from bots.othello.patterns import PatternEvaluator
from bots.othello.search import Engine, SearchInfo, Timeout, line_text, score_text, signed_discs
from games.base import Analysis
from games.othello import ORANGE, PASS, TIME_LIMIT, Othello, OthelloState, flip_bits, legal_bits, square_name


def greedy(game: Othello, state: OthelloState, ctx: Context) -> int:
    """The move that flips the most discs (ties broken at random)."""
    moves = game.legal_moves(state)
    if moves == [PASS]:
        return PASS
    p, o = state.mover_bits()
    counts = [flip_bits(p, o, m).bit_count() for m in moves]
    most = max(counts)
    return ctx.rng.choice([m for m, c in zip(moves, counts) if c == most])


def safety_margin(limit: float) -> float:
    """Seconds kept back from a move's time limit: for the move's write and a slow scheduler."""
    return min(0.6, max(0.12, 0.06 * limit), 0.3 * limit)


def search_reserve(budget: float) -> float:
    """Seconds the time-managed search (``timing="predicted"``) stops before the move's budget:
    2 % of it, at most 0.1 s. It covers the move's work after the search (the principal line,
    the report) and a thinning of the full midgame table inside the search, a pass over the
    table that visits no node (the clock is read at the node after it): 36–43 ms measured on a
    table of 0.33–0.78 million positions. Without it 1 s moves ended up to 15 ms past their CPU
    budget in the bench's games; with 20 ms, 10 s moves up to 40 ms past theirs (9.44 s of 9.40),
    where a table fills and is thinned inside a search."""
    return min(0.1, 0.02 * budget)


ENGINE_NAME = engine_name()
"""The engine ``alphabeta`` plays with in this process: the compiled core or the Python engine."""
BOTS_NOTE = f"engine: {ENGINE_NAME} (alphabeta-hand: Python, the core has only the learned evaluation)"
"""The line ``arcade bots othello`` prints under the list."""


def solve_empties(budget: float, compiled: bool = False) -> int:
    """Most empties at which the exact endgame solve is tried within ``budget`` seconds (by the
    compiled core when ``compiled``, measured in ``bench/othello.py``'s endgame section)."""
    if compiled:
        if budget < 0.5:
            return 14
        if budget < 2:
            return 18
        if budget < 6:
            return 19
        return 20
    if budget < 0.5:
        return 10
    if budget < 2:
        return 14
    if budget < 6:
        return 15
    return 16


def wld_empties(budget: float, compiled: bool = False) -> int:
    """Most empties at which a win/loss/draw solve (a null window at 0, then at 1 for a draw) is
    tried before the midgame search when the exact solve would not fit ``budget`` seconds."""
    if compiled:
        if budget < 0.5:
            return 16
        if budget < 2:
            return 20
        if budget < 6:
            return 21
        return 22
    if budget < 0.5:
        return 11
    if budget < 2:
        return 15
    if budget < 6:
        return 17
    return 18


class AlphaBetaBot(Bot):
    """Iterative-deepening alpha-beta with an exact endgame solver; see ``bots.othello.search``."""

    def __init__(self, game: Othello, time_limit: float | None = None, evaluator=None, book: bool = True) -> None:
        super().__init__(game)
        self.time_limit = time_limit
        self.engine = make_engine(evaluator or PatternEvaluator())
        from bots.othello import book as opening_book  # here: ``python -m bots.othello.book`` runs it

        self.book: opening_book.Book | None = opening_book.shipped() if book else None
        """The opening book it plays from (``bots.othello.book``), or ``None``."""
        self.last: SearchInfo | None = None
        self.clock = time.perf_counter  # the bench may measure in CPU time instead

    def limit(self, ctx: Context) -> float:
        """This move's time limit: the bot's own level (or the game's time, ``move_time``: the
        ``time_limit`` option), never more than the caller's hard limit ``ctx.time_limit``."""
        own = self.time_limit if self.time_limit is not None else move_time(self.game)
        if ctx.time_limit is not None:
            return min(own, ctx.time_limit)
        return own

    def move_seconds(self) -> float:
        """Its level, or the game's time: a move takes all of it (bar the endgame's)."""
        return self.limit(Context())

    def choose(self, state: OthelloState, ctx: Context) -> int:
        # the cyclic garbage collector would walk the whole transposition table now and then: a
        # pause of tens of milliseconds at a random moment; the search makes no cycles
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._choose(state, ctx)
        finally:
            if collecting:
                gc.enable()

    def _choose(self, state: OthelloState, ctx: Context) -> int:
        moves = self.game.legal_moves(state)
        if len(moves) == 1:
            ctx.report(f"only move: {self.game.move_text(state, moves[0])}")
            return moves[0]
        p, o = state.mover_bits()
        limit = self.limit(ctx)
        if self.book is not None and self.book.serves(limit):
            found = self.book.get(p, o)
            if found is not None and found[0] in moves:
                move, entry = found
                ctx.report(f"book · depth {entry.depth} · score {score_text(entry.score)}\n"
                           f"{len(self.book):,} positions searched deep by this engine (bots.othello.book)")
                return move
        engine = self.engine
        budget = max(0.02, limit - safety_margin(limit) - ctx.elapsed())
        start = self.clock()
        engine.clock = self.clock
        if engine.timing == "predicted":
            engine.tidy()  # within the move's time: its table seldom fills inside the search then
        deadline = start + budget
        empties = 64 - (p | o).bit_count()
        compiled = isinstance(engine, CompiledEngine)
        engine_text = "C core" if compiled else "Python engine"

        def report(info: SearchInfo) -> None:
            kind = "exact to the end" if info.exact else f"depth {info.depth}"
            line = line_text(info.line[:8]) + (" …" if len(info.line) > 8 else "")
            ctx.report(f"{kind} · score {score_text(info.score)}\nline {line}\n"
                       f"{info.nodes:,} nodes · {info.seconds:.1f} s · {engine_text}")

        if empties <= solve_empties(budget, compiled):
            try:
                guess = 1  # a win (at least +1) is the cheapest first window
                last = self.last
                if last is not None and last.exact and abs(last.score) >= WIN:
                    # our previous solve (same side to move) is the best first guess
                    guess = (last.score - WIN) // 100 if last.score > 0 else (last.score + WIN) // 100
                info = engine.solve(p, o, start + budget * 0.6, ctx.cancelled, guess=guess)
                report(info)
                self.last = info
                return info.move
            except Timeout:
                if ctx.cancelled():
                    return moves[0]
        elif empties <= wld_empties(budget, compiled):
            # too many empties for the exact margin: is there a move that wins (or draws)?
            try:
                info = engine.solve(p, o, start + budget * 0.5, ctx.cancelled, alpha=-1, beta=1)
                if info.score >= 0:
                    info.exact = False
                    result = "win" if info.score > 0 else "draw"
                    ctx.report(f"win/loss/draw solve · {result}\nline {line_text(info.line[:8])}\n"
                               f"{info.nodes:,} nodes · {info.seconds:.1f} s · {engine_text}")
                    self.last = info
                    return info.move
                # a proven loss: the midgame search picks the move that makes the most of it
            except Timeout:
                if ctx.cancelled():
                    return moves[0]
        if engine.timing == "predicted":
            deadline -= search_reserve(budget)
        info = engine.search(p, o, deadline, report, cancelled=ctx.cancelled)
        self.last = info
        if info.move not in moves:  # cannot happen; never play an illegal move
            return moves[0]
        return info.move


def _external(game: Othello) -> Bot:
    from bots.othello.cs4341_program import ExternalProgramBot

    return ExternalProgramBot(game)


def _alphabeta(limit: float | None):
    return lambda game: AlphaBetaBot(game, limit, PatternEvaluator())


def _alphabeta_hand(game: Othello) -> Bot:
    return AlphaBetaBot(game, None, HandEvaluator(), book=False)  # the book is the learned engine's


ANALYSIS_EMPTIES = 10
"""From this many empty squares the analysis solves the position exactly instead of searching."""
ANALYSIS_DEPTH = 3
"""The depth of the analysis's first answer, a few milliseconds after the position appears."""

_ANALYSIS_ENGINE: Engine | None = None
_ANALYSIS_LOCK = threading.Lock()
"""One engine for every analysis, one search at a time (an analysis the screen gave up on may
still be finishing in its thread when the next one starts)."""


def analysis_seconds(game: Othello) -> float:
    """How long the analysis keeps deepening on one position: the game's time a move, what the
    default ``alphabeta`` thinks (the same engine for as long: a hint at least as strong)."""
    return move_time(game)


def analyse(game: Othello, state: OthelloState, cancelled: Callable[[], bool] = lambda: False,
            report: Callable[[Analysis], None] | None = None) -> Analysis:
    """The game screen's analysis: both sides' mobility, the learned evaluation as the expected
    final disc margin for blue and the best move found with the depth it was found at, each line
    short enough for the side panel.

    The first answer comes from a ``ANALYSIS_DEPTH``-ply search (solved exactly from
    ``ANALYSIS_EMPTIES`` empties), in milliseconds. Without ``report`` that is the answer. With
    it (the screen gives one while a human thinks), the first answer is reported and the engine
    keeps going while ``cancelled()`` is false: the exact solve first where ``alphabeta`` would
    solve, then deeper and deeper searches, each finished depth reported
    (``best move: d3 · depth 9…``), for ``analysis_seconds`` at most; the answer returned is the
    deepest (``best move: d3 · depth 12``)."""
    blue_moves = legal_bits(state.blue, state.orange).bit_count()
    orange_moves = legal_bits(state.orange, state.blue).bit_count()
    head = f"moves: blue {blue_moves} · orange {orange_moves}"
    if state.over:
        return Analysis(state, lines=(head,))
    value, move, exact = _search_for_analysis(state)
    quick = _analysis(state, head, value, move, exact, ANALYSIS_DEPTH)
    if report is None or exact or move == PASS:
        return quick
    report(quick)
    return _deepen(game, state, head, quick, cancelled, report)


def _analysis(state: OthelloState, head: str, value: int, move: int, exact: bool, depth: int,
              going: bool = False) -> Analysis:
    """An ``Analysis`` of ``value`` for the mover (hundredths of a disc, or the exact margin) and
    ``move``, found at ``depth`` (``going``: a deeper search is under way)."""
    if state.to_move == ORANGE:
        value = -value
    lines = [head]
    if exact:
        margin = "a draw" if value == 0 else f"blue {'wins' if value > 0 else 'loses'} by {abs(value)}"
        lines.append(f"solved: {margin}")
        lines.append(f"best move: {square_name(move)}")
        return Analysis(state, best=move, value=float(value), exact=True, lines=tuple(lines))
    # each line fits the side panel's 26 columns: "best move: d3 · depth 12…"
    lines.append(f"expected: blue {signed_discs(value, 1)} discs")
    lines.append(f"best move: {square_name(move)} · depth {depth}{'…' if going else ''}")
    return Analysis(state, best=move, value=value / 100, exact=False, lines=tuple(lines))


def _analysis_engine() -> Engine:
    global _ANALYSIS_ENGINE
    if _ANALYSIS_ENGINE is None:
        _ANALYSIS_ENGINE = make_engine(PatternEvaluator(), parallel=False)  # the C core where built
    return _ANALYSIS_ENGINE


def _search_for_analysis(state: OthelloState) -> tuple[int, int, bool]:
    """(value for the mover: hundredths of a disc, or the exact margin in discs; the best move;
    exact): the analysis's first answer."""
    with _ANALYSIS_LOCK:
        engine = _analysis_engine()
        p, o = state.mover_bits()
        if not legal_bits(p, o):
            return -engine.evaluate(o, p), PASS, False
        if 64 - (p | o).bit_count() <= ANALYSIS_EMPTIES:
            info = engine.solve(p, o)
            return _margin(info.score), info.move, True
        info = engine.search(p, o, float("inf"), max_depth=ANALYSIS_DEPTH)
        if abs(info.score) >= WIN:  # the search reached the end
            return _margin(info.score), info.move, True
        return info.score, info.move, False


def _deepen(game: Othello, state: OthelloState, head: str, quick: Analysis, cancelled: Callable[[], bool],
            report: Callable[[Analysis], None]) -> Analysis:
    """``analyse``'s search beyond its first answer, as ``AlphaBetaBot`` spends its time: an
    exact solve where it would solve (within 60 % of the time), else (or if that does not finish)
    iterative deepening to the end of ``analysis_seconds``; each deeper answer reported."""
    seconds = analysis_seconds(game)
    best = quick

    def deeper(info: SearchInfo) -> None:
        nonlocal best
        if info.depth > ANALYSIS_DEPTH or info.exact:
            best = _from_search(state, head, info, going=True)
            report(best)

    with _ANALYSIS_LOCK:
        engine = _analysis_engine()
        p, o = state.mover_bits()
        start = engine.clock()
        if 64 - (p | o).bit_count() <= solve_empties(seconds, isinstance(engine, CompiledEngine)):
            try:
                info = engine.solve(p, o, start + 0.6 * seconds, cancelled)
                return _analysis(state, head, _margin(info.score), info.move, True, 0)
            except Timeout:
                if cancelled():
                    return best
        info = engine.search(p, o, start + seconds, deeper, cancelled=cancelled, soft_fraction=1.0)
    if info.depth <= ANALYSIS_DEPTH and not info.exact:
        return quick  # stopped before it went deeper
    return _from_search(state, head, info, going=False)


def _from_search(state: OthelloState, head: str, info: SearchInfo, going: bool) -> Analysis:
    """The ``Analysis`` of a search's ``info`` (exact when it reached the end)."""
    if info.exact or abs(info.score) >= WIN:
        return _analysis(state, head, _margin(info.score), info.move, True, info.depth)
    return _analysis(state, head, info.score, info.move, False, info.depth, going)


def _margin(score: int) -> int:
    """The final disc margin of an exact score (``WIN`` plus a hundred a disc, or its negative)."""
    return (score - WIN) // 100 if score > 0 else (score + WIN) // 100 if score < 0 else 0


BOTS: dict[str, BotEntry] = {
    entry.name: entry
    for entry in (
        BotEntry("alphabeta", f"alpha-beta search with the learned evaluation to the time limit (default {TIME_LIMIT:g} s), exact endgame",
                 _alphabeta(None)),
        BotEntry("alphabeta-5s", "the same engine at 5 s a move", _alphabeta(5.0)),
        BotEntry("alphabeta-1s", "the same engine at 1 s a move", _alphabeta(1.0)),
        BotEntry("alphabeta-0.1s", "the same engine at 0.1 s a move (a quick opponent)", _alphabeta(0.1)),
        BotEntry("alphabeta-hand", "the same engine with the hand-set evaluation instead of the learned one",
                 _alphabeta_hand),
        BotEntry.function("greedy", "plays the move that flips the most discs", greedy),
        BotEntry.function("random", "plays a random legal move", random_move),
        BotEntry(
            "external",
            "a CS4341 program you start, via move_file/NAME.go (NAME: $ARCADE_OTHELLO_PROGRAM, default opponent)",
            _external,
            unattended=False,
        ),
    )
}
