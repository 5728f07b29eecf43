"""Exact D-Football search on bitboards (used by the ``perfect`` bot, its book and the tests).

A position is always seen from the side to move, as the course's strategies see it: ``m`` is the
bitmask of the mover's pieces and ``o`` of the opponent's, bit ``i`` being square ``i + 1``, and
the mover moves towards higher bits. After a move the board is mirrored (``flip``) so that the
other side is again "Michigan to move". ``size`` is the number of squares, ``2n + 1``.

``Solver.wins(m, o)`` answers whether the side to move wins with perfect play, by depth-first
negamax over win/loss with a transposition table, trying jumps first and then steps from the
back (the order ``moves`` lists). Two facts cut the search:

- the *race*: once no opponent piece is ahead of any of the mover's pieces the teams never meet
  again, each side simply has a fixed number of steps left (every piece can walk up to the far
  end, packed behind its team-mates), and the side to move wins iff it has more steps left;
- a position with no move is lost.

``Solver`` can be given a node budget; ``wins`` raises ``Budget`` when it is spent (the bot then
consults its book). Values are exact, so one table may be shared by many searches.
"""

from __future__ import annotations

import time
from typing import Iterator

__all__ = [
    "Budget",
    "Solver",
    "flip",
    "moves",
    "child",
    "start_position",
    "from_board",
    "to_board",
    "race_value",
    "square_of",
]


class Budget(Exception):
    """The node budget of a search ran out before the answer was known."""


_BYTE_REV = [int(f"{b:08b}"[::-1], 2) for b in range(256)]


def flip(x: int, size: int) -> int:
    """Mirror a bitmask of ``size`` squares (square i <-> square size-1-i)."""
    r = (
        _BYTE_REV[x & 0xFF] << 24
        | _BYTE_REV[(x >> 8) & 0xFF] << 16
        | _BYTE_REV[(x >> 16) & 0xFF] << 8
        | _BYTE_REV[(x >> 24) & 0xFF]
    )
    return r >> (32 - size)


def start_position(n: int) -> tuple[int, int]:
    """The opening position, Michigan to move: ``(m, o)``."""
    return (1 << n) - 1, ((1 << n) - 1) << (n + 1)


def from_board(board, team: int = 1) -> tuple[int, int]:
    """``(m, o)`` of a course board seen from ``team`` (1 Michigan, -1 Ohio) as the mover."""
    cells = list(board) if team == 1 else [-x for x in reversed(board)]
    m = o = 0
    for i, piece in enumerate(cells):
        if piece == 1:
            m |= 1 << i
        elif piece == -1:
            o |= 1 << i
    return m, o


def to_board(m: int, o: int, size: int) -> list[int]:
    """The course board of a position (the mover as Michigan, 1)."""
    return [1 if m >> i & 1 else -1 if o >> i & 1 else 0 for i in range(size)]


def square_of(bit: int) -> int:
    """The 1-based square of a one-bit mask."""
    return bit.bit_length()


def moves(m: int, o: int, size: int) -> list[tuple[int, int, int]]:
    """The mover's moves as ``(from_bit, m_after, o_after)`` (not yet mirrored), jumps first
    (from the front), then steps from the back."""
    full = (1 << size) - 1
    empty = full & ~(m | o)
    out = []
    jumps = m & (o >> 1) & (empty >> 2)
    while jumps:
        b = 1 << (jumps.bit_length() - 1)
        jumps ^= b
        out.append((b, m ^ b ^ (b << 2), o ^ (b << 1)))
    steps = m & (empty >> 1)
    while steps:
        b = steps & -steps
        steps ^= b
        out.append((b, m ^ b ^ (b << 1), o))
    return out


def child(m: int, o: int, bit: int, size: int) -> tuple[int, int]:
    """The position after the mover's piece on ``bit`` moves, mirrored: the opponent to move."""
    full = (1 << size) - 1
    empty = full & ~(m | o)
    if (bit << 1) & empty:
        nm, no = m ^ bit ^ (bit << 1), o
    else:
        nm, no = m ^ bit ^ (bit << 2), o ^ (bit << 1)
    return flip(no, size), flip(nm, size)


def race_value(m: int, o: int, size: int) -> bool | None:
    """If the teams can no longer meet, whether the mover wins; ``None`` while they can."""
    if m and o and (o.bit_length() - 1) > (m & -m).bit_length() - 1:
        return None
    # steps left: each piece walks to the far end, packed behind the ones ahead of it
    a = 0
    k = 0
    x = m
    while x:
        top = x.bit_length() - 1
        x ^= 1 << top
        a += (size - 1 - k) - top
        k += 1
    b = 0
    k = 0
    x = o
    while x:
        low = (x & -x).bit_length() - 1
        x ^= 1 << low
        b += low - k
        k += 1
    return a > b


class Solver:
    """Exact win/loss of positions for one board size, with a shared transposition table."""

    def __init__(self, size: int, table: dict[int, bool] | None = None) -> None:
        self.size = size
        self.full = (1 << size) - 1
        self.table: dict[int, bool] = {} if table is None else table
        self.nodes = 0
        self.deadline: float | None = None
        self.clock = time.perf_counter
        self._limit: int | None = None
        self.cap = 1 << 62

    @property
    def limit(self) -> int | None:
        """The node count at which the search gives up (``None``: no limit)."""
        return self._limit

    @limit.setter
    def limit(self, value: int | None) -> None:
        self._limit = value
        self._update_cap()

    def set_deadline(self, deadline: float | None, clock=None) -> None:
        """Also give up (``Budget``) once ``clock()`` passes ``deadline`` (checked every 64 nodes:
        well under a millisecond of search, even on a loaded machine)."""
        self.deadline = deadline
        if clock is not None:
            self.clock = clock
        self._update_cap()

    def _update_cap(self) -> None:
        caps = []
        if self._limit is not None:
            caps.append(self._limit)
        if self.deadline is not None:
            caps.append(self.nodes + 64)
        self.cap = min(caps) if caps else 1 << 62

    def _check_clock(self) -> None:
        if self.deadline is not None:
            if self.clock() > self.deadline:
                raise Budget
        self._update_cap()

    def wins(self, m: int, o: int, budget: int | None = None) -> bool:
        """Whether the side to move wins; ``Budget`` if more than ``budget`` new nodes are needed."""
        self.limit = None if budget is None else self.nodes + budget
        return self._wins(m, o)

    def _wins(self, m: int, o: int) -> bool:
        key = m << 32 | o
        table = self.table
        hit = table.get(key)
        if hit is not None:
            return hit
        size = self.size
        nodes = self.nodes = self.nodes + 1
        if nodes > self.cap:
            if self.limit is not None and nodes > self.limit:
                raise Budget
            self._check_clock()
        if not o or o < (m & -m) or not m:
            race = race_value(m, o, size)
            table[key] = race
            return race
        empty = self.full & ~(m | o)
        shift = 32 - size
        rev = _BYTE_REV
        result = False
        jumps = m & (o >> 1) & (empty >> 2)
        while jumps:
            b = 1 << (jumps.bit_length() - 1)
            jumps ^= b
            nm = m ^ b ^ (b << 2)
            no = o ^ (b << 1)
            fo = (rev[nm & 0xFF] << 24 | rev[(nm >> 8) & 0xFF] << 16 | rev[(nm >> 16) & 0xFF] << 8 | rev[nm >> 24]) >> shift
            fm = (rev[no & 0xFF] << 24 | rev[(no >> 8) & 0xFF] << 16 | rev[(no >> 16) & 0xFF] << 8 | rev[no >> 24]) >> shift
            if not self._wins(fm, fo):
                result = True
                break
        if not result:
            steps = m & (empty >> 1)
            if steps:
                fm = (rev[o & 0xFF] << 24 | rev[(o >> 8) & 0xFF] << 16 | rev[(o >> 16) & 0xFF] << 8 | rev[o >> 24]) >> shift
                while steps:
                    b = steps & -steps
                    steps ^= b
                    nm = m ^ b ^ (b << 1)
                    fo = (rev[nm & 0xFF] << 24 | rev[(nm >> 8) & 0xFF] << 16 | rev[(nm >> 16) & 0xFF] << 8 | rev[nm >> 24]) >> shift
                    if not self._wins(fm, fo):
                        result = True
                        break
        table[key] = result
        return result

    def winning_moves(self, m: int, o: int, budget: int | None = None) -> list[int]:
        """The from-bits of every winning move (solving each child)."""
        self.limit = None if budget is None else self.nodes + budget
        return [b for b, _nm, _no in moves(m, o, self.size) if not self._wins(*child(m, o, b, self.size))]

    def first_winning_move(self, m: int, o: int, budget: int | None = None) -> int | None:
        """The first winning move in ``moves`` order, or ``None`` if the position is lost."""
        self.limit = None if budget is None else self.nodes + budget
        for b, _nm, _no in moves(m, o, self.size):
            if not self._wins(*child(m, o, b, self.size)):
                return b
        return None


def iter_children(m: int, o: int, size: int) -> Iterator[tuple[int, int, int]]:
    """``(from_bit, child_m, child_o)`` for each move, the child mirrored (opponent to move)."""
    for b, nm, no in moves(m, o, size):
        yield b, flip(no, size), flip(nm, size)
