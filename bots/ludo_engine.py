"""A fast Robot Ludo core for the bots and the bench: positions in *progress* coordinates.

Each side's counters are counted by progress ``0 .. L-1`` (steps from its own home square), so
Red and Blue are handled by the same code: side ``s`` at progress ``p`` stands on the absolute
square ``(p + s * L/2) % L``, and the other side's progress of that square is ``(p + L/2) % L``.
A counter goes home by landing exactly on progress ``L``.

``Pos`` is mutable with ``apply``/``undo`` so that a search allocates little. A move here is
the progress of the counter to move, ``ENTER`` (``-1``) to enter from the pen, or ``PASS``
(``None``); ``Pos.from_state`` reads a ``LudoState`` or a notebook ``Board`` and
``notebook_move`` gives the game's ``(turn, square, steps)`` of a move.

The evaluation (``Evaluator``), documented because the ``heuristic`` and ``expectimax`` bots
are only as good as it is. It is the difference of two sides' values; a side's value is

- **progress**: each counter on the track is worth its progress ``p`` plus ``entered`` (what
  getting out of the pen is worth: the 6 it took and the turns spent waiting for one);
- **home**: a counter home is worth ``L + entered + home_bonus`` (it can no longer be cut);
- **the pen**: a counter in the pen is worth ``0`` (so entering gains ``entered``);
- **safety**: a counter on a square that is not safe, with ``k`` of the six rolls letting an
  opposing counter land on it, loses ``danger * k/6`` of its worth (``p + entered``) for every
  counter on that square (a cut takes the whole stack); this is the expected loss from the
  opponent's legal replies to each of its six rolls, assuming it cuts when it can;
- **cutting**: the same count from the other side is our threat: the opponent's exposed
  counters lose the same share of their worth to our rolls;
- **mobility**: ``mobility`` times the pips of the next roll that no counter could use (a
  counter near home needs an exact roll; with everything in the pen only a 6 moves).

``danger`` weighs the expected loss of the side whose counters face the very next roll and
``later`` that of the side that rolls after it; the side to roll gets ``tempo`` (half a roll's
worth). ``precise`` (count, per roll, only the opponent's best cut) and ``squash`` (a logistic
win-probability estimate instead of the difference) are kept for measurement: neither won.

What the measurements said (the one-ply ``heuristic`` over 1,000 games a setting, then
``expectimax`` over 2,000–3,000, all against ``random`` with colours and first move alternated):
a pen counter's worth (``entered``) matters most: 4 gives 67% at 10 counters on length 20, 8
gives 90%, 16 to 20 gives 95–96%; ``home_bonus`` 0 drops to 80%; ``danger`` 0.5–1.5 and
``later`` 0–1 made no difference beyond the noise (about ±1% at 10 on 20, ±1.5% at 4 on 20);
``mobility`` 3 with ``entered`` 20 gave the best figures (96.0% and 77.7%), within the noise of
the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import exp
from time import perf_counter

ENTER = -1
PASS = None


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights (see the module docstring)."""

    entered: float = 20.0
    home_bonus: float = 4.0
    danger: float = 1.0
    later: float = 0.5
    mobility: float = 3.0
    tempo: float = 3.5
    squash: float = 0.0
    precise: bool = False


class Pos:
    """A mutable position: counts by progress for both sides, pens, and homes."""

    __slots__ = ("L", "h", "c", "pos", "pen", "home", "safe")

    def __init__(self, L: int, counters: int, safe: tuple[int, ...]) -> None:
        self.L = L
        self.h = L // 2
        self.c = counters
        self.pos = [[0] * L, [0] * L]
        self.pen = [counters, counters]
        self.home = [0, 0]
        # safe[s][p]: whether side s's progress p is a safe square
        self.safe = (tuple(safe[p % L] for p in range(L)), tuple(safe[(p + self.h) % L] for p in range(L)))

    def copy(self) -> "Pos":
        other = Pos.__new__(Pos)
        other.L, other.h, other.c, other.safe = self.L, self.h, self.c, self.safe
        other.pos = [self.pos[0][:], self.pos[1][:]]
        other.pen = self.pen[:]
        other.home = self.home[:]
        return other

    @classmethod
    def from_state(cls, state, safe=None) -> "Pos":
        """From a ``LudoState`` (with the game's ``safe`` flags) or a notebook ``Board``."""
        red, blue = state.red, state.blue
        L = len(red)
        if safe is None:
            safe = state.safe
        pens = state.pens if hasattr(state, "pens") else (state.redpen, state.bluepen)
        counters = state.counters
        pos = cls(L, counters, tuple(safe))
        h = L // 2
        pos.pos[0] = list(red)
        pos.pos[1] = [blue[(p + h) % L] for p in range(L)]
        pos.pen = [pens[0], pens[1]]
        pos.home = [counters - pens[0] - sum(red), counters - pens[1] - sum(blue)]
        return pos

    # -- rules --------------------------------------------------------------------------
    def moves(self, side: int, roll: int) -> list:
        """Legal moves: ``ENTER`` first (on a 6 with a counter in the pen), then the counters'
        progresses, ascending; an empty list means the side must pass."""
        out = []
        if roll == 6 and self.pen[side]:
            out.append(ENTER)
        own = self.pos[side]
        limit = self.L - roll
        for p in range(limit + 1):
            if own[p]:
                out.append(p)
        return out

    def apply(self, side: int, move, roll: int) -> int:
        """Play ``move``; returns the number of opposing counters cut (for ``undo``)."""
        own = self.pos[side]
        if move == ENTER:
            own[0] += 1
            self.pen[side] -= 1
            return 0
        own[move] -= 1
        new = move + roll
        if new == self.L:
            self.home[side] += 1
            return 0
        own[new] += 1
        if self.safe[side][new]:
            return 0
        q = (new + self.h) % self.L
        other = self.pos[1 - side]
        cut = other[q]
        if cut:
            other[q] = 0
            self.pen[1 - side] += cut
        return cut

    def undo(self, side: int, move, roll: int, cut: int) -> None:
        own = self.pos[side]
        if move == ENTER:
            own[0] -= 1
            self.pen[side] += 1
            return
        own[move] += 1
        new = move + roll
        if new == self.L:
            self.home[side] -= 1
            return
        own[new] -= 1
        if cut:
            q = (new + self.h) % self.L
            self.pos[1 - side][q] += cut
            self.pen[1 - side] -= cut

    def won(self, side: int) -> bool:
        return self.home[side] == self.c


def notebook_move(side: int, move, roll: int, L: int) -> tuple[int, int, int]:
    """A fast-core move as the game's ``(turn, square, steps)``."""
    if move is PASS:
        return (side, -1, -1)
    if move == ENTER:
        return (side, 0, 0)
    return (side, (move + side * (L // 2)) % L, roll)


class Evaluator:
    """The static evaluation (module docstring) for one board geometry."""

    def __init__(self, weights: Weights = Weights()) -> None:
        self.w = weights

    def side_value(self, pos: Pos, side: int, hazard: float) -> float:
        """Side's worth, less ``hazard`` times the expected loss to the other side's next roll."""
        w = self.w
        L = pos.L
        h = pos.h
        entered = w.entered
        own = pos.pos[side]
        other = pos.pos[1 - side]
        safe = pos.safe[side]
        total = pos.home[side] * (L + entered + w.home_bonus)
        loss = 0.0
        lowest = L
        precise = w.precise
        if precise:
            best = [0.0] * 7
        for p in range(L):
            c = own[p]
            if not c:
                continue
            if p < lowest:
                lowest = p
            worth = c * (p + entered)
            total += worth
            if safe[p]:
                continue
            # opposing counters r = 1..6 behind, each able to land here (their progress qt - r >= 0)
            qt = p + h if p < h else p - h
            if precise:
                # per roll, the opponent takes the most valuable cut that roll allows
                for r in range(1, 7 if qt >= 6 else qt + 1):
                    if other[qt - r] and worth > best[r]:
                        best[r] = worth
                continue
            k = 0
            for r in range(1, 7 if qt >= 6 else qt + 1):
                if other[qt - r]:
                    k += 1
            if k:
                loss += worth * k
        if w.mobility and pos.home[side] < pos.c:
            # pips of the next roll that no counter could use: rolls above L - lowest progress
            # (a 6 is usable while the pen is not empty)
            usable = L - lowest
            if usable < 6:
                waste = sum(range(max(usable, 0) + 1, 6 if pos.pen[side] else 7))
                total -= w.mobility * waste / 6.0
        if precise:
            loss = best[1] + best[2] + best[3] + best[4] + best[5] + best[6]
        return total - hazard * loss / 6.0

    def evaluate(self, pos: Pos, me: int, to_move: int) -> float:
        """``me``'s advantage with ``to_move`` rolling next: the difference of the sides'
        values, or with ``squash`` an estimate of ``me``'s chance to win (0 to 1)."""
        w = self.w
        squash = w.squash
        if pos.home[me] == pos.c:
            return 1.0 if squash else 1e6
        if pos.home[1 - me] == pos.c:
            return 0.0 if squash else -1e6
        if to_move == me:
            # I roll next: my exposed counters face a roll after mine; theirs face mine now
            mine = self.side_value(pos, me, w.later) + w.tempo
            theirs = self.side_value(pos, 1 - me, w.danger)
        else:
            mine = self.side_value(pos, me, w.danger)
            theirs = self.side_value(pos, 1 - me, w.later) + w.tempo
        if not squash:
            return mine - theirs
        full = pos.c * (pos.L + w.entered + w.home_bonus)
        remaining = 2 * full - mine - theirs
        scale = squash * (remaining if remaining > 1.0 else 1.0) ** 0.5
        return 1.0 / (1.0 + exp((theirs - mine) / scale))


# -- policies on the fast core: (pos, side, roll, rng) -> move (ENTER, a progress, or PASS) --

def first_progress_policy(pos: Pos, side: int, roll: int, rng) -> object:
    """``simple_player2`` in progress coordinates: enter if possible, else the counter that has
    come the shortest way (Red's lowest square; Blue's lowest ``halfshift``)."""
    moves = pos.moves(side, roll)
    if not moves:
        return PASS
    return moves[0]


def random_policy(pos: Pos, side: int, roll: int, rng) -> object:
    """A uniformly random legal move (the notebook's ``simple_player3``)."""
    moves = pos.moves(side, roll)
    if not moves:
        return PASS
    return rng.choice(moves)


class HeuristicPolicy:
    """One ply: the move whose resulting position evaluates best (opponent to roll next)."""

    def __init__(self, weights: Weights = Weights()) -> None:
        self.ev = Evaluator(weights)

    def __call__(self, pos: Pos, side: int, roll: int, rng=None) -> object:
        moves = pos.moves(side, roll)
        if not moves:
            return PASS
        if len(moves) == 1:
            return moves[0]
        best, best_value = moves[0], None
        evaluate = self.ev.evaluate
        for move in moves:
            cut = pos.apply(side, move, roll)
            value = evaluate(pos, side, 1 - side)
            pos.undo(side, move, roll, cut)
            if best_value is None or value > best_value:
                best, best_value = move, value
        return best


class _Timeout(Exception):
    pass


class ExpectimaxPolicy:
    """Expectimax over the die's chance steps.

    Depth 2 (always): each own move, then each of the opponent's six rolls (weight 1/6) and its
    best reply by the same evaluation (the minimum of ours), leaves evaluated with us to roll.
    With ``depth=3``, a third level: our next roll and best move, when the estimated number of
    leaves is at most ``leaf_cap`` (``None``: always; the cap depends only on the position, so
    results do not depend on the machine's speed). The depth-2 answer stands if the deadline
    (a ``time.perf_counter`` value) comes first or ``cancelled()`` turns true, so a move is
    always ready in time. The clock is read before each of the die's rolls, so that on a loaded
    machine (a move's few milliseconds of CPU spread over many more of the wall clock) the answer
    still comes soon after the deadline (``bench/ludo.py --timing`` counts the moves past it).
    """

    deadline_aware = True

    def __init__(self, weights: Weights = Weights(), depth: int = 2, leaf_cap: int | None = None) -> None:
        self.ev = Evaluator(weights)
        self.depth = depth
        self.leaf_cap = leaf_cap

    def __call__(self, pos: Pos, side: int, roll: int, rng=None, deadline: float | None = None,
                 cancelled=None) -> object:
        moves = pos.moves(side, roll)
        if not moves:
            return PASS
        if len(moves) == 1:
            return moves[0]
        evaluate = self.ev.evaluate
        opp = 1 - side
        # one-ply order first: the tie-break, and a fallback if time runs out at once
        scored = []
        for move in moves:
            cut = pos.apply(side, move, roll)
            if pos.home[side] == pos.c:
                pos.undo(side, move, roll, cut)
                return move
            scored.append((evaluate(pos, side, opp), move))
            pos.undo(side, move, roll, cut)
        scored.sort(key=lambda item: -item[0])
        best, best_value = scored[0][1], None
        clock = perf_counter if deadline is not None else None
        ranked = []
        for _, move in scored:
            if cancelled is not None and cancelled():
                return best
            cut = pos.apply(side, move, roll)
            total = 0.0
            for r2 in range(1, 7):
                if clock is not None and clock() > deadline:  # each roll: a loaded machine's slices
                    pos.undo(side, move, roll, cut)
                    return best
                replies = pos.moves(opp, r2)
                if not replies:
                    total += evaluate(pos, side, side)
                    continue
                worst = None
                for reply in replies:
                    c2 = pos.apply(opp, reply, r2)
                    value = evaluate(pos, side, side)
                    pos.undo(opp, reply, r2, c2)
                    if worst is None or value < worst:
                        worst = value
                total += worst
            pos.undo(side, move, roll, cut)
            ranked.append((total, move))
            if best_value is None or total > best_value:
                best, best_value = move, total
        if self.depth < 3:
            return best
        if self.leaf_cap is not None:
            mine = sum(1 for c in pos.pos[side] if c) + (1 if pos.pen[side] else 0)
            theirs = sum(1 for c in pos.pos[opp] if c) + (1 if pos.pen[opp] else 0)
            if len(moves) * 36 * max(mine, 1) * max(theirs, 1) > self.leaf_cap:
                return best
        ranked.sort(key=lambda item: -item[0])
        best3, best3_value = best, None
        try:
            for _, move in ranked:
                cut = pos.apply(side, move, roll)
                try:
                    value = self._chance(pos, side, opp, 2, deadline, cancelled)
                finally:
                    pos.undo(side, move, roll, cut)
                if best3_value is None or value > best3_value:
                    best3, best3_value = move, value
        except _Timeout:
            return best
        return best3

    def _chance(self, pos: Pos, me: int, mover: int, depth: int, deadline, cancelled) -> float:
        """The expected value, for ``me``, of ``mover`` rolling with ``depth`` moves to go."""
        if depth == 0 or pos.home[0] == pos.c or pos.home[1] == pos.c:
            return self.ev.evaluate(pos, me, mover)
        if deadline is not None and perf_counter() > deadline:
            raise _Timeout
        if cancelled is not None and cancelled():
            raise _Timeout
        total = 0.0
        nxt = 1 - mover
        for r in range(1, 7):
            if deadline is not None and r > 1 and perf_counter() > deadline:
                raise _Timeout
            moves = pos.moves(mover, r)
            if not moves:
                total += self._chance(pos, me, nxt, depth - 1, deadline, cancelled)
                continue
            best = None
            for m in moves:
                cut = pos.apply(mover, m, r)
                v = self._chance(pos, me, nxt, depth - 1, deadline, cancelled)
                pos.undo(mover, m, r, cut)
                if best is None or (v > best if mover == me else v < best):
                    best = v
            total += best
        return total / 6.0
