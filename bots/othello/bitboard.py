"""The bitboard work that the engine (``bots.othello.search``) and its two-core coordinator
(``bots.othello.parallel_solve``) share: the flips of a move (``flips``, and ``FLIPS``, written out
per square for the endgame's inner loops) and ``table_line``, the line a table's best moves make
(the engine's principal line, the endgame's and the coordinator's).

``Timeout``, the exception every search raises at its deadline, is here too, for the same reason:
the coordinator raises it and the engine imports the coordinator, so neither can own it without an
import cycle. Everything else takes it from ``bots.othello.search``.
"""

from __future__ import annotations

from games.othello import PASS, RAYS_DOWN, RAYS_UP, legal_bits


class Timeout(Exception):
    """The deadline passed or the search was cancelled."""


def _with_first(rays: tuple[int, ...], up: bool) -> tuple[tuple[int, int], ...]:
    """Each ray with its first square (the neighbour of the square the ray starts from)."""
    return tuple((ray, ray & -ray if up else 1 << (ray.bit_length() - 1)) for ray in rays)


_RAYS_UP_FIRST = tuple(_with_first(rays, True) for rays in RAYS_UP)
_RAYS_DOWN_FIRST = tuple(_with_first(rays, False) for rays in RAYS_DOWN)


def flips(p: int, o: int, square: int) -> int:
    """The discs of ``o`` flipped by ``p`` playing ``square`` (a local copy for speed: a ray is
    only walked when its first square holds an opponent disc)."""
    f = 0
    notp = ~o
    for ray, first in _RAYS_UP_FIRST[square]:
        if first & o:
            b = ray & notp
            if b:
                low = b & -b
                if low & p:
                    f |= ray & (low - 1)
    for ray, first in _RAYS_DOWN_FIRST[square]:
        if first & o:
            b = ray & notp
            if b:
                high = 1 << (b.bit_length() - 1)
                if high & p:
                    f |= ray & ~((high << 1) - 1)
    return f


def _flip_functions() -> tuple:
    """``FLIPS[square](p, o)``: ``flips`` written out for each square (no loop, no tuple unpacking,
    the rays as constants), for the endgame's inner loops."""
    funcs = []
    for sq in range(64):
        lines = [f"def _flips_{sq}(p, o):", "    f = 0"]
        for ray, first in _RAYS_UP_FIRST[sq]:
            if ray == first:
                continue  # a one-square ray flips nothing
            lines += [f"    if o & {first}:",
                      f"        b = {ray} & ~o",
                      "        low = b & -b",
                      "        if low & p:",
                      f"            f |= {ray} & (low - 1)"]
        for ray, first in _RAYS_DOWN_FIRST[sq]:
            if ray == first:
                continue
            lines += [f"    if o & {first}:",
                      f"        b = {ray} & ~o",
                      "        if b:",
                      "            high = 1 << (b.bit_length() - 1)",
                      "            if high & p:",
                      f"                f |= {ray} & ~((high << 1) - 1)"]
        lines.append("    return f")
        namespace: dict = {}
        exec("\n".join(lines), namespace)
        funcs.append(namespace[f"_flips_{sq}"])
    return tuple(funcs)


FLIPS = _flip_functions()


def table_line(table: dict[int, tuple], p: int, o: int, length: int) -> tuple[list[int], int, int]:
    """Up to ``length`` moves from ``(p, o)`` following a table's best moves (passes included), and
    the position where the line stops. A table maps ``p << 64 | o`` to an entry whose last item is
    the best move (-1: none): the midgame's ``(depth, flag, value, move)``, the endgame's bounds
    ``(lower, upper, move)``. A line never meets a position twice (every move adds discs, and a
    pass is followed by a move or ends the line), so it needs no guard against a cycle."""
    line: list[int] = []
    while len(line) < length:
        moves = legal_bits(p, o)
        if not moves:
            if not legal_bits(o, p):
                break
            line.append(PASS)
            p, o = o, p
            continue
        entry = table.get(p << 64 | o)
        if entry is None or entry[-1] < 0 or not moves >> entry[-1] & 1:
            break
        sq = entry[-1]
        line.append(sq)
        f = FLIPS[sq](p, o)
        p, o = o ^ f, p | f | (1 << sq)
    return line, p, o
