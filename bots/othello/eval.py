"""Static evaluation of Othello positions for the alpha-beta engine: a separate, swappable piece.

An evaluator is any object with ``evaluate(p, o) -> int``: the value of the position for the
side to move, whose discs are the bitboard ``p`` against ``o`` (``games.othello`` squares), in
hundredths of a disc. On a finished board (neither side can move) it must return
``utility(p, o)``; elsewhere it stays within ``±HEURISTIC_MAX``, below every decided result.

``HandEvaluator`` weighs, with weights that slide from the midgame to the endgame by the number of
discs on the board:

- mobility: moves for the mover minus moves for the opponent;
- frontier: discs next to an empty square (fewer is better: they give the opponent moves);
- corners, and edges through a table of every pattern of an edge line: corners, edge discs made
  stable by a corner (they can never flip again), C-squares next to an empty corner;
- X-squares (diagonally next to an empty corner);
- parity: who is due to play the last empty square;
- late in the game, the disc difference itself.

Learned weights replace the hand-set ones by passing another ``Weights`` (or another evaluator
object) to the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from games.othello import FULL, legal_pair

WIN = 10_000
"""A won finished board scores ``WIN + 100 * disc difference``; a lost one the negative."""

HEURISTIC_MAX = WIN - 1_000


def utility(p: int, o: int) -> int:
    """The value of a finished board for the side with discs ``p``: win/loss, then disc margin."""
    diff = p.bit_count() - o.bit_count()
    if diff > 0:
        return WIN + 100 * diff
    if diff < 0:
        return -WIN + 100 * diff
    return 0


@dataclass(frozen=True)
class Weights:
    """Hand-set weights: ``(midgame, endgame)`` pairs, in hundredths of a disc."""

    mobility: tuple[int, int] = (80, 30)
    frontier: tuple[int, int] = (-30, -10)
    corner: tuple[int, int] = (400, 300)
    stable: tuple[int, int] = (60, 60)
    c_square: tuple[int, int] = (-120, -40)
    x_square: tuple[int, int] = (-300, -100)
    edge: tuple[int, int] = (10, 10)
    parity: tuple[int, int] = (0, 150)
    discs: tuple[int, int] = (-5, 40)


_CORNERS = ((0, 9), (7, 14), (56, 49), (63, 54))  # (corner, its X-square): A1/B2, H1/G2, A8/B7, H8/G7
_NOT_A = 0xFEFEFEFEFEFEFEFE
_NOT_H = 0x7F7F7F7F7F7F7F7F
_COL_A = 0x0101010101010101
_MAGIC = 0x0102040810204080  # gathers column A's eight bits into one byte (row 1 in bit 0)


def _line_value(mine: int, theirs: int, w: dict) -> tuple[int, int]:
    """Midgame and endgame value of one edge line (cells 0..7, corners at 0 and 7) for ``mine``."""
    def cell(i: int) -> int:
        return 1 if mine >> i & 1 else -1 if theirs >> i & 1 else 0

    cells = [cell(i) for i in range(8)]
    stable = [False] * 8
    if all(cells):
        stable = [True] * 8
    else:
        for rng in (range(8), range(7, -1, -1)):
            first = None
            for i in rng:
                if cells[i] == 0 or (first is not None and cells[i] != first):
                    break
                first = cells[i]
                stable[i] = True
    out = []
    for phase in (0, 1):
        v = 0
        for i, c in enumerate(cells):
            if not c:
                continue
            if i in (0, 7):
                v += c * w["corner"][phase]
            elif stable[i]:
                v += c * w["stable"][phase]
            elif i in (1, 6) and cells[0 if i == 1 else 7] == 0:
                v += c * w["c_square"][phase]
            else:
                v += c * w["edge"][phase]
            if stable[i] and i in (0, 7):
                v += c * w["stable"][phase]
        out.append(v)
    return out[0], out[1]


_TABLES: dict = {}


def _edge_tables(weights: Weights) -> tuple[list[int], list[int]]:
    """Midgame and endgame values of every edge-line pattern, indexed ``mine << 8 | theirs``."""
    if weights in _TABLES:
        return _TABLES[weights]
    w = {f.name: getattr(weights, f.name) for f in fields(weights)}
    mid_table = [0] * 65536
    end_table = [0] * 65536
    for mine in range(256):
        for theirs in range(256):
            if mine & theirs:
                continue
            mid, end = _line_value(mine, theirs, w)
            mid_table[mine << 8 | theirs] = mid
            end_table[mine << 8 | theirs] = end
    _TABLES[weights] = (mid_table, end_table)
    return mid_table, end_table


class HandEvaluator:
    """The hand-weighted evaluation described in the module docstring."""

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()
        w = {f.name: getattr(self.weights, f.name) for f in fields(self.weights)}
        self._mid_edges, self._end_edges = _edge_tables(self.weights)
        self._w = w

        self.evaluate = self._make_evaluate()

    def evaluate(self, p: int, o: int) -> int:  # replaced per instance by a fast closure
        raise NotImplementedError

    def _make_evaluate(self):
        w = self._w
        mid_t, end_t = self._mid_edges, self._end_edges
        # weights of (mobility, frontier, x-squares, discs, parity) at each disc count, x60
        per_n = []
        for n in range(65):
            a, b = max(0, 64 - n), max(0, n - 4)
            per_n.append(tuple(w[k][0] * a + w[k][1] * b for k in ("mobility", "frontier", "x_square", "discs", "parity")))
        per_n = tuple(per_n)
        pair = legal_pair
        full = FULL
        col_a, magic, not_a, not_h = _COL_A, _MAGIC, _NOT_A, _NOT_H
        hmax = HEURISTIC_MAX
        util = utility

        def evaluate(p: int, o: int) -> int:
            both = pair(p, o)
            mp = (both & full).bit_count()
            mo = (both >> 128).bit_count()
            if not mp and not mo:
                return util(p, o)
            occupied = p | o
            e = full ^ occupied
            n = occupied.bit_count()
            pa = ((p & col_a) * magic) >> 56 & 255
            oa = ((o & col_a) * magic) >> 56 & 255
            ph = (((p >> 7) & col_a) * magic) >> 56 & 255
            oh = (((o >> 7) & col_a) * magic) >> 56 & 255
            k0 = (p & 255) << 8 | (o & 255)
            k1 = (p >> 56) << 8 | (o >> 56)
            k2 = pa << 8 | oa
            k3 = ph << 8 | oh
            edges = (mid_t[k0] + mid_t[k1] + mid_t[k2] + mid_t[k3]) * (64 - n) + (
                end_t[k0] + end_t[k1] + end_t[k2] + end_t[k3]) * (n - 4)
            # X-squares next to empty corners: A1-B2, H1-G2, A8-B7, H8-G7
            xm = ((e & 1) << 9) | ((e & 128) << 7) | ((e >> 7) & 0x0002000000000000) | ((e >> 9) & 0x0040000000000000)
            near = (
                (e << 8) | (e >> 8)
                | ((e & not_h) << 1) | ((e & not_a) >> 1)
                | ((e & not_h) << 9) | ((e & not_a) << 7)
                | ((e & not_h) >> 7) | ((e & not_a) >> 9)
            )
            wm, wf, wx, wd, wp = per_n[n]
            value = (
                wm * (mp - mo)
                + wf * ((p & near).bit_count() - (o & near).bit_count())
                + wx * ((p & xm).bit_count() - (o & xm).bit_count())
                + wd * (p.bit_count() - o.bit_count())
                + (wp if n & 1 else -wp)
                + edges
            ) // 60
            if value > hmax:
                return hmax
            if value < -hmax:
                return -hmax
            return value

        return evaluate


def column_byte(bits: int, column: int) -> int:
    """The eight bits of ``column`` (0 = A) as a byte, row 1 in bit 0 (used by the edge table)."""
    return (((bits >> column) & _COL_A) * _MAGIC) >> 56 & 255
