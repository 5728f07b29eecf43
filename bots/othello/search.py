"""The Othello engine: alpha-beta (negascout) with iterative deepening, and an exact endgame solver.

Positions are ``(p, o)`` bitboard pairs from the mover's point of view (``games.othello``).

Midgame (``Engine.search``): iterative deepening under a deadline. Each iteration is a principal
variation search (negamax alpha-beta with null windows) whose move ordering is, at every node:
the transposition-table move (the previous iteration's best), the two killer moves of that ply,
then the rest by "fastest first" (fewest replies for the opponent) at nodes far from the leaves
and by history scores plus a square-value prior near them. Leaves use the swappable evaluator
(``bots.othello.eval``), which equals the utility on finished boards.

Endgame (``Engine.solve``): once the remaining empties are few, an exact search of the final
disc difference finds the perfect move: MTD(f) null windows over a bounds table, the table's move
first and then fastest first (fewest replies, then fewest empties next to the mover), an enhanced
transposition cutoff (a child already known to refute the window), a stability cutoff (the
opponent's stable discs cap the margin: ``stable_discs``), and the last five empties by
module-level functions with quadrant parity and no move generation, the last two written out
(flips by per-square generated functions, ``FLIPS`` in ``bots.othello.bitboard``).
``solve(..., alpha=-1, beta=1)`` is the win/loss/draw solve (one or two null windows). From
``parallel_solve.PARALLEL_EMPTIES`` empties on, a machine with two cores solves with two helper
processes (``bots.othello.parallel_solve``); ``Engine(parallel=False)`` keeps to one.

Both check the deadline and a cancel callback every few hundred nodes and raise ``Timeout``; the
caller keeps the result of the last finished iteration.

This module is the reference of the compiled core (``bots/othello/_core.c``, behind
``bots.othello.compiled.CompiledEngine``), which overrides the inner searches (``_root``,
``_ordered``, ``principal_line``, ``_solve_root``, ``line_from`` and the two reset hooks) and
must search the same tree in the same order: a change here is a change there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from bots.othello import parallel_solve
from bots.othello.bitboard import FLIPS, Timeout, flips, table_line
from bots.othello.eval import HEURISTIC_MAX, WIN, HandEvaluator, utility
from games.othello import FULL, PASS, legal_bits, square_name

INF = 1 << 30
EVAL_CACHE_LIMIT = 300_000  # leaf values kept (transpositions reach the same leaves)
EXACT, LOWER, UPPER = 0, 1, 2

# Prior value of playing on each square (corners best, X- and C-squares worst), for ordering.
_PRIOR_ROWS = (
    (100, -20, 10, 5, 5, 10, -20, 100),
    (-20, -50, -2, -2, -2, -2, -50, -20),
    (10, -2, 1, 1, 1, 1, -2, 10),
    (5, -2, 1, 0, 0, 1, -2, 5),
    (5, -2, 1, 0, 0, 1, -2, 5),
    (10, -2, 1, 1, 1, 1, -2, 10),
    (-20, -50, -2, -2, -2, -2, -50, -20),
    (100, -20, 10, 5, 5, 10, -20, 100),
)
PRIOR = tuple(v for row in _PRIOR_ROWS for v in row)
PRIOR_KEY = tuple(-v for v in PRIOR).__getitem__

# The board's quadrants, for endgame parity ordering (play in odd regions first).
_QUADRANTS = (0x000000000F0F0F0F, 0x00000000F0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000)
QUADRANT_OF = tuple(next(q for q in _QUADRANTS if q >> s & 1) for s in range(64))
QUADRANT_ID = tuple(1 << next(i for i, q in enumerate(_QUADRANTS) if q >> s & 1) for s in range(64))


# -- stability (for the endgame's stability cutoff) ------------------------------------------------
# A disc is stable when no sequence of moves can ever flip it. The count of the opponent's stable
# discs bounds the mover's final margin from above: ``64 - 2 * stable``.

def _line_play(P: int, O: int, x: int) -> tuple[int, int]:
    """``P`` places a disc on cell ``x`` of an eight-cell line (flipping along the line only)."""
    P |= 1 << x
    f, y = 0, x - 1
    while y >= 0 and O >> y & 1:
        f |= 1 << y
        y -= 1
    if f and y >= 0 and P >> y & 1:
        P |= f
        O &= ~f
    f, y = 0, x + 1
    while y < 8 and O >> y & 1:
        f |= 1 << y
        y += 1
    if f and y < 8 and P >> y & 1:
        P |= f
        O &= ~f
    return P, O


def _edge_table() -> list[int]:
    """``EDGE_STABLE[P << 8 | O]``: the discs of ``P`` on an edge line that no sequence of moves
    on that line can flip (any empty cell may be played by either side: a move there may be legal
    through another direction). Edge discs can only ever flip along their edge."""
    memo: dict[int, int] = {}

    def stable(P: int, O: int) -> int:
        key = P << 8 | O
        got = memo.get(key)
        if got is not None:
            return got
        st = P
        for x in range(8):
            if st and not (P | O) >> x & 1:
                st &= stable(*_line_play(P, O, x))
                if st:
                    o2, p2 = _line_play(O, P, x)
                    st &= stable(p2, o2)
        memo[key] = st
        return st

    table = [0] * 65536
    for P in range(256):
        for O in range(256):
            if not P & O:
                table[P << 8 | O] = stable(P, O)
    return table


EDGE_STABLE = _edge_table()
_COL_A = 0x0101010101010101
_GATHER = 0x0102040810204080  # (x & column A) * _GATHER >> 56: column A as a byte (row 1 in bit 0)
UNPACK_A = tuple(sum(1 << 8 * r for r in range(8) if b >> r & 1) for b in range(256))
_CENTRAL = 0x007E7E7E7E7E7E00


def _lines() -> tuple[tuple[int, ...], ...]:
    """The board's full lines by direction: rows, columns, and the two diagonal families."""
    rows = tuple(0xFF << 8 * r for r in range(8))
    cols = tuple(_COL_A << c for c in range(8))
    d9, d7 = [], []
    for k in range(-7, 8):  # c - r == k
        d9.append(sum(1 << (r * 8 + r + k) for r in range(8) if 0 <= r + k < 8))
    for k in range(15):  # r + c == k
        d7.append(sum(1 << (r * 8 + k - r) for r in range(8) if 0 <= k - r < 8))
    return rows, cols, tuple(d7), tuple(d9)


LINES = _lines()
_full_cache: dict[int, tuple[int, int, int, int]] = {}


def full_lines(filled: int) -> tuple[int, int, int, int]:
    """The squares whose row, column, and each diagonal are full (cached by occupancy)."""
    got = _full_cache.get(filled)
    if got is None:
        out = []
        for family in LINES:
            full = 0
            for line in family:
                if filled & line == line:
                    full |= line
            out.append(full)
        got = tuple(out)
        if len(_full_cache) > 200_000:
            _full_cache.clear()
        _full_cache[filled] = got
    return got


def stable_discs(p: int, o: int) -> int:
    """A subset of the discs of ``p`` that can never flip (edges exactly along the edge; inner
    discs whose every line is full or which touch a stable own disc along each line)."""
    fh, fv, fd7, fd9 = full_lines(p | o)
    g = _GATHER
    st = (EDGE_STABLE[(p & 0xFF) << 8 | (o & 0xFF)]
          | EDGE_STABLE[(p >> 56) << 8 | (o >> 56)] << 56
          | UNPACK_A[EDGE_STABLE[((p & _COL_A) * g >> 56 & 0xFF) << 8 | ((o & _COL_A) * g >> 56 & 0xFF)]]
          | UNPACK_A[EDGE_STABLE[((p >> 7 & _COL_A) * g >> 56 & 0xFF) << 8
                                 | ((o >> 7 & _COL_A) * g >> 56 & 0xFF)]] << 7)
    inner = p & _CENTRAL
    st |= inner & fh & fv & fd7 & fd9
    inner &= ~st
    while inner:
        new = (inner & (fh | st >> 1 | st << 1) & (fv | st >> 8 | st << 8)
               & (fd7 | st >> 7 | st << 7) & (fd9 | st >> 9 | st << 9))
        if not new:
            break
        st |= new
        inner ^= new
    return st


# the squares around each square: a move needs an opponent disc among them
NEIGHBOURS = tuple(sum(1 << (r2 * 8 + c2) for r2 in range(max(0, s // 8 - 1), min(8, s // 8 + 2))
                       for c2 in range(max(0, s % 8 - 1), min(8, s % 8 + 2)) if r2 * 8 + c2 != s)
                   for s in range(64))


@dataclass
class SearchInfo:
    """What one finished iteration (or the endgame solve) found."""

    depth: int
    score: int
    move: int
    line: list[int]
    nodes: int
    seconds: float
    exact: bool = False

    def score_text(self) -> str:
        return score_text(self.score)


def score_text(score: int) -> str:
    """``+1.25`` (discs, heuristic), ``win +6`` / ``loss -4`` / ``draw`` for a decided result."""
    if score >= WIN:
        return f"win +{(score - WIN) // 100}"
    if score <= -WIN:
        return f"loss {(score + WIN) // 100}"
    return signed_discs(score, 2)


def signed_discs(hundredths: int, places: int) -> str:
    """Hundredths of a disc as signed discs to ``places`` decimals, never ``-0.0``: a value that
    rounds to zero reads ``+0.0`` (rounding first, then adding 0.0, which turns -0.0 into 0.0)."""
    return f"{round(hundredths / 100, places) + 0.0:+.{places}f}"


# -- the time manager: whether another iteration is worth starting -------------------------------
# A move's time is its own (the contest's limit is per move): time left unused is lost, so the
# manager never stops to save it for later. It stops only where the next iteration would settle
# nothing: one that cannot even finish its first move (the previous best, searched first; a move
# proven better than it is the one thing an unfinished iteration gives), or the iteration that
# would reach the end of the game with the exact solve already judged too slow for the budget.

TIMINGS = ("predicted", "fraction")
"""``Engine.timing``'s choices."""

GROWTH_DEFAULT = 3.0
"""The next iteration's cost over the last's before this position has measured its own."""
GROWTH_RANGE = (1.2, 8.0)
"""The measured growth is kept within these (a cut-off iteration or a table hit can make one
iteration look free or huge)."""
GROWTH_TO_THE_END = 100.0
"""The iteration that reaches the last empty square searches exact values, without the midgame's
cuts: it cost 100× the iteration before it on the 22-empties positions of ``bench/othello.py``
(0.034 s then 3.8 s; on five others of 22 and 24 empties it did not finish in 6 s)."""
MEASURED_FROM = 0.002
"""Iterations shorter than this (seconds) are too short to measure growth by."""
PARTIAL_SETTLED, PARTIAL_UNSETTLED = 0.3, 0.15
"""An iteration predicted not to finish is still started when the time left is at least this
share of its predicted cost. The first move's deeper search (the previous best, with the full
window) took a median 16 % of the whole iteration on ten held-out positions (7 of 10 under 25 %,
two over 90 %: there the others' refutations were cheap), so a third of the iteration in hand
mostly finishes it and tries some of the others. Where the best move changed in the last two
iterations (or its score fell by a disc) the position is critical and the manager takes the
chance with less in hand."""


def predicted_seconds(durations: list[float], to_the_end: bool = False) -> float:
    """The next iteration's seconds from the last ones' (``durations``, oldest first): the last
    times the growth measured on this position (the geometric mean of the last two ratios, since
    odd and even depths alternate), ``GROWTH_TO_THE_END`` for an iteration that reaches the end."""
    last = durations[-1]
    ratios = [b / a for a, b in list(zip(durations, durations[1:]))[-2:] if a >= MEASURED_FROM]
    if ratios:
        growth = 1.0
        for ratio in ratios:
            growth *= ratio
        growth = growth ** (1 / len(ratios))
    else:
        growth = GROWTH_DEFAULT
    low, high = GROWTH_RANGE
    growth = min(high, max(low, growth))
    if to_the_end:
        growth = GROWTH_TO_THE_END
    return max(last, MEASURED_FROM) * growth


def worth_another(durations: list[float], remaining: float, unsettled: bool, to_the_end: bool = False) -> bool:
    """Whether to start another iteration with ``remaining`` seconds: when it is predicted to
    finish, or (``PARTIAL_*``) to finish at least its first move."""
    if not durations:
        return True
    predicted = predicted_seconds(durations, to_the_end)
    if predicted <= remaining:
        return True
    return remaining >= (PARTIAL_UNSETTLED if unsettled else PARTIAL_SETTLED) * predicted


def unsettled(found: list[tuple[int, int]]) -> bool:
    """Whether the search's best move (``found``: each iteration's move and score) changed in the
    last two iterations, or its score fell by a disc (100) or more since the one before."""
    if len(found) < 3:
        return True
    (m1, _), (m2, s2), (m3, s3) = found[-3:]
    return m1 != m2 or m2 != m3 or s3 <= s2 - 100


TIDY_AT = 0.6
"""``Engine.tidy`` thins a table fuller than this share of its limit. A 1 s move of the compiled
core stores about 150,000-250,000 positions of its 1,000,000."""


def _thinned(table: dict, most: int) -> dict:
    """A full midgame table's deepest entries (``entry[0]`` is the depth): those from the lowest
    depth that keeps at most ``most`` of them. The compiled core's ``tt_keep_from`` chooses the same."""
    count = [0] * 128
    for entry in table.values():
        count[max(entry[0], 0)] += 1
    keep_from, kept = 128, 0
    while keep_from > 0 and kept + count[keep_from - 1] <= most:
        keep_from -= 1
        kept += count[keep_from]
    return {key: entry for key, entry in table.items() if entry[0] >= keep_from}


@dataclass
class Engine:
    """One game's search state: transposition table, killers, history, counters."""

    evaluator: object = field(default_factory=HandEvaluator)
    tt_limit: int = 400_000
    clock: Callable[[], float] = time.perf_counter
    """The clock of deadlines: wall time; ``bench/othello.py --cpu`` passes ``time.process_time``."""
    parallel: bool = True
    """Exact solves from ``PARALLEL_EMPTIES`` empties use the helper processes (``bots.othello.parallel_solve``)."""

    timing: str = "predicted"
    """How ``search`` decides to start another iteration: ``predicted`` (the time manager,
    ``worth_another``) or ``fraction`` (while under 45 % of the time is used: the engine before it,
    kept for the bench's matches against it)."""

    probcut_t: float = 1.5
    """Multi-ProbCut's confidence: cut when the shallow search is this many residual deviations
    past the window (only with an evaluator that carries a ``probcut`` calibration)."""

    def __post_init__(self) -> None:
        self.evaluate = self.evaluator.evaluate
        self.probcut: dict | None = getattr(self.evaluator, "probcut", None)
        self.fastest_depth = 4
        self.tt: dict[int, tuple] = {}
        self.eval_cache: dict[int, int] = {}
        self.killers = [[-1, -1] for _ in range(80)]
        self.history = [0] * 65
        self.nodes = 0
        self.last_scores: dict[int, int] = {}
        """The root moves' values (fail-soft: the best's exact, the others' bounds) in the last
        iteration ``search`` finished (the opening book's builder reads them)."""
        self.deadline = float("inf")
        self.cancelled: Callable[[], bool] = lambda: False
        self._check_at = 0
        self.thin_seconds = 0.0
        """The last thinning's time on ``clock``: a table that fills nearer the deadline than
        that stops the search instead of thinning (as the compiled core does)."""

    # -- time ------------------------------------------------------------------------------
    def tidy(self) -> None:
        """Thin the midgame table now if it is over ``TIDY_AT`` of its limit: a move starts with
        it (its clock running), so that the table seldom fills inside a search, where thinning
        is a pass over the table that no deadline interrupts (tens of milliseconds on the
        compiled core's 64 MB)."""
        if len(self.tt) > TIDY_AT * self.tt_limit:
            self.tt = _thinned(self.tt, self.tt_limit // 2)

    def _check(self) -> None:
        self._check_at = self.nodes + 256
        if self.clock() > self.deadline or self.cancelled():
            raise Timeout

    # -- midgame ---------------------------------------------------------------------------
    def _age_history(self) -> None:
        """At the start of a search: old history scores count for an eighth."""
        self.history = [h // 8 for h in self.history]

    def _ordered(self, p: int, o: int, moves: int, depth: int, ply: int, tt_move: int) -> list[int]:
        squares = []
        m = moves
        while m:
            low = m & -m
            m ^= low
            squares.append(low.bit_length() - 1)
        if len(squares) == 1:
            return squares
        killers = self.killers[ply]
        if depth >= self.fastest_depth:
            # fastest first: fewest opponent replies, corners and history as tie-breaks
            keyed = []
            for sq in squares:
                if sq == tt_move:
                    key = -10**9
                else:
                    f = flips(p, o, sq)
                    np_ = p | f | (1 << sq)
                    key = legal_bits(o ^ f, np_).bit_count() * 100 - PRIOR[sq] - (50 if sq in killers else 0)
                keyed.append((key, sq))
            keyed.sort()
            return [sq for _, sq in keyed]
        hist = self.history
        squares.sort(key=lambda s: -(hist[s] + PRIOR[s] * 8 + (1 << 20 if s == tt_move else 0)
                                     + (1 << 16 if s in killers else 0)))
        return squares

    def _negamax(self, p: int, o: int, depth: int, alpha: int, beta: int, ply: int, passed: bool) -> int:
        self.nodes += 1
        if self.nodes >= self._check_at:
            self._check()
        if depth <= 0:
            return self.evaluate(p, o)
        moves = legal_bits(p, o)
        if not moves:
            if passed or not legal_bits(o, p):
                return utility(p, o)
            # a pass uses no depth: a search as deep as the empties then reaches every end
            return -self._negamax(o, p, depth, -beta, -alpha, ply + 1, True)
        if depth == 1:
            return self._frontier(p, o, moves, beta, ply)
        key = p << 64 | o
        entry = self.tt.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_flag, e_value, tt_move = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER:
                    if e_value >= beta:
                        return e_value
                    if e_value > alpha:
                        alpha = e_value
                elif e_value <= alpha:
                    return e_value
                elif e_value < beta:
                    beta = e_value
        probcut = self.probcut
        if probcut is not None and beta - alpha == 1 and -HEURISTIC_MAX < alpha and beta < HEURISTIC_MAX:
            cut = probcut.get(depth)
            if cut is not None:
                # Multi-ProbCut: a shallow null-window search predicts this deeper one
                # (deep ~ a * shallow + b, residual sigma by stage); cut when it is confident
                shallow, a, b, sigmas = cut
                margin = self.probcut_t * sigmas[(p | o).bit_count()]
                bound = int(-(-(beta + margin - b) // a))  # ceil: the shallow value that predicts >= beta
                if bound < HEURISTIC_MAX and self._negamax(p, o, shallow, bound - 1, bound, ply, passed) >= bound:
                    return beta
                bound = int((alpha - margin - b) // a)  # floor: the shallow value that predicts <= alpha
                if bound > -HEURISTIC_MAX and self._negamax(p, o, shallow, bound, bound + 1, ply, passed) <= bound:
                    return alpha
        alpha0 = alpha
        best = -INF
        best_move = -1
        first = True
        for sq in self._ordered(p, o, moves, depth, ply, tt_move):
            f = flips(p, o, sq)
            np_ = p | f | (1 << sq)
            no = o ^ f
            if first:
                value = -self._negamax(no, np_, depth - 1, -beta, -alpha, ply + 1, False)
                first = False
            else:
                value = -self._negamax(no, np_, depth - 1, -alpha - 1, -alpha, ply + 1, False)
                if alpha < value < beta:
                    value = -self._negamax(no, np_, depth - 1, -beta, -value, ply + 1, False)
            if value > best:
                best = value
                best_move = sq
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        k = self.killers[ply]
                        if k[0] != sq:
                            k[1] = k[0]
                            k[0] = sq
                        self.history[sq] += depth * depth
                        break
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        self._store(key, (depth, flag, best, best_move))
        return best

    def _store(self, key: int, entry: tuple) -> None:
        """``entry`` into the table; a full table keeps its deepest entries (``_thinned``), unless
        the deadline is nearer than the last thinning took: then the search stops instead."""
        if len(self.tt) >= self.tt_limit:
            began = self.clock()
            if began + self.thin_seconds > self.deadline:
                raise Timeout  # a thinning now would end past the deadline: the search was about to stop
            self.tt = _thinned(self.tt, self.tt_limit // 2)
            self.eval_cache.clear()
            self.thin_seconds = self.clock() - began
        self.tt[key] = entry

    def _frontier(self, p: int, o: int, moves: int, beta: int, ply: int) -> int:
        """A node one ply from the leaves (``moves``: its legal moves): its children are evaluated
        here, best squares first (the killer first), their values cached, until one reaches
        ``beta`` (fail-soft; the children count as nodes). Inline in ``_core.c``'s ``negamax``."""
        evaluate = self.evaluate
        squares = []
        while moves:
            low = moves & -moves
            moves ^= low
            squares.append(low.bit_length() - 1)
        if len(squares) > 1:
            squares.sort(key=PRIOR_KEY)
            k0 = self.killers[ply][0]
            if k0 in squares and squares[0] != k0:
                squares.remove(k0)
                squares.insert(0, k0)
        best = -INF
        count = 0
        cache = self.eval_cache
        if len(cache) > EVAL_CACHE_LIMIT:
            cache.clear()
        for sq in squares:
            f = flips(p, o, sq)
            cp, co = o ^ f, p | f | (1 << sq)
            ck = cp << 64 | co
            value = cache.get(ck)
            if value is None:
                value = evaluate(cp, co)
                cache[ck] = value
            value = -value
            count += 1
            if value > best:
                best = value
                if value >= beta:
                    k = self.killers[ply]
                    if k[0] != sq:
                        k[1] = k[0]
                        k[0] = sq
                    self.history[sq] += 1
                    break
        self.nodes += count
        return best

    def _root(self, p: int, o: int, depth: int, order: list[int], alpha: int = -INF, beta: int = INF):
        """Search every root move; return (best score, best move, scores by move)."""
        best, best_move = -INF, order[0]
        scores: dict[int, int] = {}
        for i, sq in enumerate(order):
            f = flips(p, o, sq)
            np_, no = p | f | (1 << sq), o ^ f
            if i == 0:
                value = -self._negamax(no, np_, depth - 1, -beta, -alpha, 1, False)
            else:
                value = -self._negamax(no, np_, depth - 1, -alpha - 1, -alpha, 1, False)
                if alpha < value < beta:
                    value = -self._negamax(no, np_, depth - 1, -beta, -value, 1, False)
            scores[sq] = value
            if value > best:
                best, best_move = value, sq
                if value > alpha:
                    alpha = value
            self.partial = (best, best_move)
        return best, best_move, scores

    def principal_line(self, p: int, o: int, first: int, length: int) -> list[int]:
        """The best line from the transposition table, starting with ``first``."""
        f = flips(p, o, first)
        return [first] + table_line(self.tt, o ^ f, p | f | (1 << first), length - 1)[0]

    def search(
        self,
        p: int,
        o: int,
        deadline: float,
        report: Callable[[SearchInfo], None] = lambda info: None,
        max_depth: int = 60,
        cancelled: Callable[[], bool] = lambda: False,
        soft_fraction: float | None = None,
    ) -> SearchInfo:
        """Iterative deepening until ``deadline`` (on ``self.clock``); the best move found.

        A new iteration starts while the time manager finds it worth it (``worth_another``), or
        with ``soft_fraction`` (or ``timing="fraction"``: 0.45) while less than that share of the
        time is used (1.0: to the deadline, as the analysis searches).
        """
        if soft_fraction is None and self.timing == "fraction":
            soft_fraction = 0.45
        start = self.clock()
        self.deadline = deadline
        self.cancelled = cancelled
        self.nodes = 0
        self._check_at = 256
        moves = legal_bits(p, o)
        order = self._ordered(p, o, moves, 3, 0, -1)
        empties = (FULL ^ (p | o)).bit_count()
        info = SearchInfo(0, 0, order[0], [order[0]], 0, 0.0)
        if len(order) == 1:
            info.line = [order[0]]
        self._age_history()
        durations: list[float] = []
        moves_found: list[tuple[int, int]] = []  # (best move, score) of each finished iteration
        for depth in range(1, max_depth + 1):
            self.partial = None
            began = self.clock()
            try:
                best, best_move, scores = self._root(p, o, depth, order)
            except Timeout:
                part = self.partial
                # a move proven better than the last best move in the unfinished (deeper)
                # iteration is still worth playing: the last best was searched first there
                if part is not None and part[1] != info.move and depth > 1:
                    info = SearchInfo(info.depth, part[0], part[1], [part[1]], self.nodes,
                                      self.clock() - start)
                break
            order.sort(key=lambda s: -scores[s])
            self.last_scores = scores
            info = SearchInfo(depth, best, best_move, self.principal_line(p, o, best_move, depth),
                              self.nodes, self.clock() - start, exact=depth >= empties)
            report(info)
            if depth >= empties or len(order) == 1:
                break
            now = self.clock()
            durations.append(now - began)
            moves_found.append((best_move, best))
            if soft_fraction is not None:
                if now - start > soft_fraction * (deadline - start):
                    break
            elif not worth_another(durations, deadline - now, unsettled(moves_found), depth + 1 >= empties):
                break
        info.nodes = self.nodes
        info.seconds = self.clock() - start
        return info

    # -- endgame -------------------------------------------------------------------------------
    def solve(
        self,
        p: int,
        o: int,
        deadline: float = float("inf"),
        cancelled: Callable[[], bool] = lambda: False,
        alpha: int = -64,
        beta: int = 64,
        guess: int = 1,
    ) -> SearchInfo:
        """The exact final disc difference with perfect play, and a move that achieves it.

        MTD(f): null-window searches from ``guess`` that share the bounds table, each moving the
        bounds towards the value (a narrow window prunes far more than a wide one; fail-soft
        values make the steps larger than one). The default first window tests a win (at least
        +1), which searched fewer nodes than testing at least a draw first.
        """
        start = self.clock()
        self.deadline = deadline
        self.cancelled = cancelled
        self.nodes = 0
        self._check_at = 256
        self._new_solve()
        moves = legal_bits(p, o)
        empties = (FULL ^ (p | o)).bit_count()
        if not moves:
            # the mover passes: the opponent's solve, seen from this side (or the game is over)
            if legal_bits(o, p):
                after = self.solve(o, p, deadline, cancelled, -beta, -alpha, -guess)
                return SearchInfo(empties, -after.score, PASS, [PASS] + after.line[:6], after.nodes,
                                  self.clock() - start, exact=True)
            return SearchInfo(empties, to_score(p.bit_count() - o.bit_count()), PASS, [PASS], 1,
                              self.clock() - start, exact=True)
        order = self._ordered(p, o, moves, 3, 0, -1)
        lo, hi = alpha, beta
        g = max(lo, min(hi, guess))

        def stop() -> bool:
            return self.clock() > deadline or cancelled()

        def after(move: int) -> tuple[int, int]:
            f = FLIPS[move](p, o)
            return o ^ f, p | f | (1 << move)

        solved = None  # (value, move, the line after the move)
        helpers = None
        if self.parallel and empties >= parallel_solve.PARALLEL_EMPTIES and len(order) > 1:
            helpers = parallel_solve.pool()
        if helpers is not None and helpers.lock.acquire(blocking=False):
            try:
                helpers.begin()
                value, move = self._mtdf(
                    lo, hi, g, order, lambda b: helpers.root_window(p, o, order, b - 1, b, empties, stop))
                self.nodes += helpers.nodes
                solved = value, move, helpers.line(*after(move))
            except parallel_solve.HelperError:
                parallel_solve.discard()  # one core from here on, from the start
            finally:
                helpers.lock.release()
        if solved is None:
            value, move = self._mtdf(lo, hi, g, order, lambda b: self._solve_root(p, o, order, b - 1, b, empties))
            solved = value, move, self.line_from(*after(move))
        value, move, rest = solved
        return SearchInfo(empties, to_score(value), move, [move] + rest, self.nodes,
                          self.clock() - start, exact=True)

    @staticmethod
    def _mtdf(lo: int, hi: int, g: int, order: list[int], window: Callable[[int], tuple[int, int]]) -> tuple[int, int]:
        """MTD(f) from the guess ``g`` within ``(lo, hi)``: ``window(b)`` tests "at least ``b``" and
        answers (fail-soft value, move reaching it); a move that holds goes to the front of
        ``order``. The value and a move reaching it (``order[0]`` if no test held)."""
        best_move = order[0]
        while lo < hi:
            b = g + 1 if g == lo else g
            value, move = window(b)
            if value >= b:
                lo = value
                best_move = move
                order.remove(move)
                order.insert(0, move)
            else:
                hi = value
            g = value
        return lo, best_move

    def _solve_root(self, p: int, o: int, order: list[int], alpha: int, beta: int, empties: int) -> tuple[int, int]:
        """One window over the root moves: (fail-soft value, the move that reached it)."""
        best, best_move = -INF, order[0]
        for sq in order:
            f = FLIPS[sq](p, o)
            value = -self._solve(o ^ f, p | f | (1 << sq), -beta, -alpha, empties - 1, False)
            if value > best:
                best, best_move = value, sq
                if value >= beta:
                    break
        return best, best_move

    def _new_solve(self) -> None:
        """At the start of a solve: an empty bounds table."""
        self.etable: dict[int, tuple[int, int, int]] = {}

    def line_from(self, p: int, o: int, length: int = 6) -> list[int]:
        """Up to ``length`` moves from ``(p, o)`` by the bounds table's best moves (passes included)."""
        return table_line(self.etable, p, o, length)[0]

    def _solve(self, p: int, o: int, alpha: int, beta: int, empties: int, passed: bool, moves: int = -1) -> int:
        """Negamax of the final disc difference (mover minus opponent), fail-soft.

        ``moves`` is the mover's legal bitboard when the caller already knows it.
        """
        self.nodes += 1
        if empties <= SHALLOW:
            return _shallow_entry(p, o, alpha, beta, passed)
        if self.nodes >= self._check_at:
            self._check()
        if moves < 0:
            moves = legal_bits(p, o)
        if not moves:
            if passed:
                return p.bit_count() - o.bit_count()
            return -self._solve(o, p, -beta, -alpha, empties, True)
        if alpha >= STABILITY_ALPHA[empties]:
            # stability cutoff: the opponent's stable discs cap the mover's margin
            if 64 - 2 * o.bit_count() <= alpha:  # else it cannot cut even if every disc is stable
                bound = 64 - 2 * stable_discs(o, p).bit_count()
                if bound <= alpha:
                    return bound
                if bound < beta:
                    beta = bound
        key = p << 64 | o
        etable = self.etable
        entry = etable.get(key)
        tt_move = -1
        if entry is not None:
            lo, hi, tt_move = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            if alpha >= beta:
                return alpha
        a0, b0 = alpha, beta
        children = []
        m = moves
        etc = empties >= ETC_EMPTIES
        first = None
        while m:
            low = m & -m
            m ^= low
            sq = low.bit_length() - 1
            f = FLIPS[sq](p, o)
            np_ = p | f | low
            no = o ^ f
            if etc:
                # enhanced transposition cutoff: a child already known to refute the window
                child = etable.get(no << 64 | np_)
                if child is not None and -child[1] >= beta:
                    value = -child[1]
                    lo, hi = (entry[0], entry[1]) if entry is not None else (-64, 64)
                    etable[key] = (max(lo, value), hi, sq)
                    return value
            if sq == tt_move:
                first = (sq, np_, no)
            else:
                children.append((sq, np_, no))
        best, best_move = self._solve_children(p, o, alpha, beta, empties, first, children)
        lo, hi = -64, 64
        if entry is not None:
            lo, hi = entry[0], entry[1]
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.etable[key] = (lo, hi, best_move)
        return best

    def _solve_children(self, p: int, o: int, alpha: int, beta: int, empties: int,
                        first: tuple[int, int, int] | None, children: list[tuple[int, int, int]]) -> tuple[int, int]:
        """The moves of ``_solve``'s node, searched (fail-soft): ``first``, the table's move, before
        the others are ordered (it often cuts at once), then ``children`` fastest first, each
        ``(square, mover's discs, opponent's discs)`` after the move. The best value and its move.
        Inline in ``_core.c``'s ``solve``."""
        e1 = empties - 1
        solve = self._solve
        best = -INF
        best_move = -1
        if first is not None:
            sq, np_, no = first
            best = -solve(no, np_, -beta, -alpha, e1, False)
            best_move = sq
            if best > alpha:
                alpha = best
        if alpha < beta and children:
            # fastest first: the child's move list is kept for the child
            keyed = []
            if empties >= EVAL_ORDER_EMPTIES:
                # far from the end: the evaluation (mobility, corners, edges) orders best
                evaluate = self.evaluate
                for sq, np_, no in children:
                    replies = legal_bits(no, np_)
                    keyed.append((replies.bit_count() * 200 + evaluate(no, np_), sq, np_, no, replies))
            elif empties > SHALLOW + 1:
                for sq, np_, no in children:
                    replies = legal_bits(no, np_)
                    # and potential mobility: the empties next to the mover's discs (future replies)
                    near = ((((np_ << 1 | np_ << 9 | np_ >> 7) & 0xFEFEFEFEFEFEFEFE)
                             | ((np_ >> 1 | np_ >> 9 | np_ << 7) & 0x7F7F7F7F7F7F7F7F)
                             | np_ << 8 | np_ >> 8) & ~(np_ | no) & FULL)
                    keyed.append((replies.bit_count() * 16 + near.bit_count() * 8 - PRIOR[sq] // 10,
                                  sq, np_, no, replies))
            else:
                # the children are solved without move lists: order by the squares' value
                empty = FULL ^ (p | o)
                for sq, np_, no in children:
                    odd = (QUADRANT_OF[sq] & empty).bit_count() & 1
                    keyed.append((-PRIOR[sq] - 1000 * odd, sq, np_, no, -1))
            keyed.sort()
            for _, sq, np_, no, replies in keyed:
                if best == -INF:
                    value = -solve(no, np_, -beta, -alpha, e1, False, replies)
                else:
                    value = -solve(no, np_, -alpha - 1, -alpha, e1, False, replies)
                    if alpha < value < beta:
                        value = -solve(no, np_, -beta, -value, e1, False, replies)
                if value > best:
                    best = value
                    best_move = sq
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
        return best, best_move


def _shallow_entry(p: int, o: int, alpha: int, beta: int, passed: bool) -> int:
    """The last ``SHALLOW`` or fewer empties: lists the empty squares (best squares first) and
    the quadrants' parity, then solves without move generation or table."""
    empty = FULL ^ (p | o)
    ems = []
    parity = 0
    m = empty
    while m:
        low = m & -m
        m ^= low
        sq = low.bit_length() - 1
        ems.append(sq)
        parity ^= QUADRANT_ID[sq]
    n = len(ems)
    if n == 0:
        return p.bit_count() - o.bit_count()
    if n == 1:
        return _last_one(p, o, ems[0])
    if n == 2:
        return _last_two(p, o, alpha, beta, ems[0], ems[1], passed)
    ems.sort(key=PRIOR_KEY)
    return _shallow(p, o, alpha, beta, ems, parity, passed)


def _shallow(p: int, o: int, alpha: int, beta: int, ems: list[int], parity: int, passed: bool) -> int:
    """Three or more empties ``ems`` (in square-value order): squares in odd quadrants first
    (``parity``: one bit a quadrant, set when its count of empties is odd), no table."""
    n = len(ems)
    if n >= 4 and alpha >= STABILITY_ALPHA[n] and 64 - 2 * o.bit_count() <= alpha:
        bound = 64 - 2 * stable_discs(o, p).bit_count()
        if bound <= alpha:
            return bound
    best = -INF
    if n == 3:
        e0, e1, e2 = ems
        tries = ((e0, e1, e2), (e1, e0, e2), (e2, e0, e1))
        if parity != QUADRANT_ID[e0] | QUADRANT_ID[e1] | QUADRANT_ID[e2]:
            tries = ([t for t in tries if QUADRANT_ID[t[0]] & parity]
                     + [t for t in tries if not QUADRANT_ID[t[0]] & parity])
        for sq, a, b in tries:
            if not NEIGHBOURS[sq] & o:
                continue
            f = FLIPS[sq](p, o)
            if not f:
                continue
            value = -_last_two(o ^ f, p | f | (1 << sq), -beta, -alpha, a, b, False)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        return best
    else:
        idx = [i for i in range(n) if QUADRANT_ID[ems[i]] & parity]
        if len(idx) < n:
            idx += [i for i in range(n) if not QUADRANT_ID[ems[i]] & parity]
        for i in idx:
            sq = ems[i]
            if not NEIGHBOURS[sq] & o:
                continue
            f = FLIPS[sq](p, o)
            if not f:
                continue
            value = -_shallow(o ^ f, p | f | (1 << sq), -beta, -alpha, ems[:i] + ems[i + 1:],
                              parity ^ QUADRANT_ID[sq], False)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        return best
    if best == -INF:
        if passed:
            return p.bit_count() - o.bit_count()
        return -_shallow(o, p, -beta, -alpha, ems, parity, True)
    return best


def _last_one(p: int, o: int, sq: int) -> int:
    """One empty square: the mover plays it if they can, else the opponent, else nobody."""
    f = FLIPS[sq](p, o)
    if f:
        return 2 * (p.bit_count() + f.bit_count()) - 62
    f = FLIPS[sq](o, p)
    if f:
        return 62 - 2 * (o.bit_count() + f.bit_count())
    return p.bit_count() - o.bit_count()


def _last_two(p: int, o: int, alpha: int, beta: int, a: int, b: int, passed: bool) -> int:
    """Two empties, written out: no recursion for the last square."""
    best = -INF
    if NEIGHBOURS[a] & o:
        f = FLIPS[a](p, o)
        if f:
            np_ = p | f | (1 << a)
            no = o ^ f
            g = FLIPS[b](no, np_) if NEIGHBOURS[b] & np_ else 0
            if g:
                best = 62 - 2 * (no.bit_count() + g.bit_count())
            else:
                h = FLIPS[b](np_, no) if NEIGHBOURS[b] & no else 0
                if h:
                    best = 2 * (np_.bit_count() + h.bit_count()) - 62
                else:
                    best = np_.bit_count() - no.bit_count()
            if best >= beta:
                return best
    if NEIGHBOURS[b] & o:
        f = FLIPS[b](p, o)
        if f:
            np_ = p | f | (1 << b)
            no = o ^ f
            g = FLIPS[a](no, np_) if NEIGHBOURS[a] & np_ else 0
            if g:
                value = 62 - 2 * (no.bit_count() + g.bit_count())
            else:
                h = FLIPS[a](np_, no) if NEIGHBOURS[a] & no else 0
                if h:
                    value = 2 * (np_.bit_count() + h.bit_count()) - 62
                else:
                    value = np_.bit_count() - no.bit_count()
            if value > best:
                best = value
    if best == -INF:
        if passed:
            return p.bit_count() - o.bit_count()
        return -_last_two(o, p, -beta, -alpha, a, b, True)
    return best


SHALLOW = 5
EVAL_ORDER_EMPTIES = 18  # measured: at 14 and 16 empties the mobility order alone searches fewer nodes
ETC_EMPTIES = 8
# the stability cutoff is tried once alpha reaches these margins (by empties; Edax's thresholds)
STABILITY_ALPHA = (99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42,
                   44, 46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62) + (64,) * 25


def to_score(diff: int) -> int:
    """A final disc difference in the evaluator's units (``utility``)."""
    if diff > 0:
        return WIN + 100 * diff
    if diff < 0:
        return -WIN + 100 * diff
    return 0


def line_text(line: list[int]) -> str:
    return " ".join(square_name(s) for s in line)


__all__ = ["Engine", "SearchInfo", "Timeout", "score_text", "line_text", "to_score", "HEURISTIC_MAX"]
