"""Othello as the CS4341 project (Prof. Ruiz, A-term 2021) plays it.

Rules, as the seed states them:

- An 8×8 board; columns ``A``–``H`` left to right, rows ``1``–``8`` bottom to top.
- Blue moves first. At the start D4 and E5 are blue, D5 and E4 orange (the course referee v6).
- A move places a disc of the mover's colour on an empty square so that it traps at least one
  run of opponent discs (horizontally, vertically or diagonally) between it and a disc of the
  mover's colour; every trapped run flips. A *pass* is legal only when no such move exists, and
  it is then the only legal move.
- The game ends when the board is full or neither side can move. More discs wins; equal discs
  is a draw.

Moves are ``int``s: a square number ``0..63`` (``square = (row - 1) * 8 + column``, ``A1 = 0``,
``H1 = 7``, ``A8 = 56``, ``H8 = 63``), or ``PASS`` (``64``). They print as ``E3`` and ``P``.
``legal_moves`` lists squares in ascending order (A1, B1, …, H1, A2, …, H8).

The position is two bitboards on Python integers (bit ``square`` set where a disc is), so that
bots can search fast with ``legal_bits``/``flip_bits`` on ``(mover, opponent)`` pairs.

Option: ``time_limit`` (seconds a move, default 10 as in the seed): a rule of the course's
tournament, used by the engine and the file-protocol referee; the rules themselves ignore it.

The course referee's own board print (``*`` empty, ``B`` blue, ``O`` orange, row 8 first) is
``referee_board_text``; its end-of-game texts are ``END_REASONS`` and ``end_message``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.base import Event, Game, IllegalMove, Option, Result, Side, State

__all__ = [
    "Othello",
    "OthelloState",
    "OthelloEvent",
    "PASS",
    "BLUE",
    "ORANGE",
    "FULL",
    "legal_bits",
    "legal_pair",
    "flip_bits",
    "square_name",
    "parse_square",
    "bits_to_squares",
    "perft",
    "referee_board_text",
    "END_REASONS",
    "end_message",
    "move_problem",
]

BLUE, ORANGE = 0, 1
PASS = 64
FULL = (1 << 64) - 1
COLUMNS = "ABCDEFGH"
TIME_LIMIT = 10.0
"""The ``time_limit`` option's default: seconds a move, the seed's (``Othello.time_limit``)."""

_NOT_A = 0xFEFEFEFEFEFEFEFE  # every square but column A
_NOT_H = 0x7F7F7F7F7F7F7F7F  # every square but column H
_INNER = 0x7E7E7E7E7E7E7E7E  # columns B..G
_INNER2 = _INNER | _INNER << 128


def square_name(square: int) -> str:
    """``E3`` for square 20; ``P`` for ``PASS``."""
    if square == PASS:
        return "P"
    return f"{COLUMNS[square & 7]}{(square >> 3) + 1}"


def parse_square(text: str) -> int | None:
    """The square named ``text`` (``e3``, ``E 3``), ``PASS`` for ``P``/``pass``, else ``None``."""
    t = "".join(text.split()).upper()
    if t in ("P", "PASS"):
        return PASS
    if len(t) == 2 and t[0] in COLUMNS and t[1] in "12345678":
        return (int(t[1]) - 1) * 8 + COLUMNS.index(t[0])
    return None


_BYTE_SQUARES = tuple(tuple(tuple(8 * row + i for i in range(8) if byte >> i & 1) for byte in range(256))
                      for row in range(8))
"""For each row of the board and each byte of its discs, the squares set (``bits_to_squares``)."""
_R0, _R1, _R2, _R3, _R4, _R5, _R6, _R7 = _BYTE_SQUARES


def bits_to_squares(bits: int) -> list[int]:
    """The squares of a bitboard, ascending (a row's byte at a time, from tables)."""
    return [*_R0[bits & 255], *_R1[bits >> 8 & 255], *_R2[bits >> 16 & 255], *_R3[bits >> 24 & 255],
            *_R4[bits >> 32 & 255], *_R5[bits >> 40 & 255], *_R6[bits >> 48 & 255], *_R7[bits >> 56 & 255]]


_REVERSED_BYTE = bytes(int(f"{byte:08b}"[::-1], 2) for byte in range(256))
_FROM_BYTES = int.from_bytes


def rotated(bits: int) -> int:
    """A bitboard turned half round (square ``s`` to ``63 - s``): its bytes in reverse order,
    each byte's bits reversed (a table)."""
    return _FROM_BYTES((bits & FULL).to_bytes(8, "little").translate(_REVERSED_BYTE), "big")


def legal_bits(p: int, o: int) -> int:
    """The squares where the side with discs ``p`` can move against discs ``o`` (a bitboard).

    Four directions' fills, each run once over two boards packed into one integer with a 64-bit
    gap: the position, and the position turned half round (``rotated``), on which west is east,
    south north, south-west north-east and south-east north-west. The rotated board's moves are
    turned back at the end. Half the operations of eight directions on one board."""
    pp = p | rotated(p) << 128
    oo = o | rotated(o) << 128
    oi = oo & _INNER2
    # east (<< 1), and west on the rotated board
    t = oi & (pp << 1)
    t |= oi & (t << 1)
    m = oi & (oi << 1)
    t |= m & (t << 2)
    m &= m << 2
    t |= m & (t << 4)
    moves = t << 1
    # north (<< 8), and south
    t = oo & (pp << 8)
    t |= oo & (t << 8)
    m = oo & (oo << 8)
    t |= m & (t << 16)
    m &= m << 16
    t |= m & (t << 32)
    moves |= t << 8
    # north-east (<< 9), and south-west
    t = oi & (pp << 9)
    t |= oi & (t << 9)
    m = oi & (oi << 9)
    t |= m & (t << 18)
    m &= m << 18
    t |= m & (t << 36)
    moves |= t << 9
    # north-west (<< 7), and south-east
    t = oi & (pp << 7)
    t |= oi & (t << 7)
    m = oi & (oi << 7)
    t |= m & (t << 14)
    m &= m << 14
    t |= m & (t << 28)
    moves |= t << 7
    return ((moves & FULL) | rotated(moves >> 128 & FULL)) & (FULL ^ (p | o))


def legal_pair(p: int, o: int) -> int:
    """Both sides' legal squares at once: ``p``'s in bits 0-63, ``o``'s in bits 128-191.

    The two boards are packed into one integer with a 64-bit gap, so that one pass of shifts
    serves both (the evaluation needs both mobilities).
    """
    e = FULL ^ (p | o)
    empty = e | e << 128
    p, o = p | o << 128, o | p << 128
    oi = o & _INNER2
    # east (<< 1)
    t = oi & (p << 1)
    t |= oi & (t << 1)
    m = oi & (oi << 1)
    t |= m & (t << 2)
    m &= m << 2
    t |= m & (t << 4)
    moves = t << 1
    # west (>> 1)
    t = oi & (p >> 1)
    t |= oi & (t >> 1)
    m = oi & (oi >> 1)
    t |= m & (t >> 2)
    m &= m >> 2
    t |= m & (t >> 4)
    moves |= t >> 1
    # north (<< 8)
    t = o & (p << 8)
    t |= o & (t << 8)
    m = o & (o << 8)
    t |= m & (t << 16)
    m &= m << 16
    t |= m & (t << 32)
    moves |= t << 8
    # south (>> 8)
    t = o & (p >> 8)
    t |= o & (t >> 8)
    m = o & (o >> 8)
    t |= m & (t >> 16)
    m &= m >> 16
    t |= m & (t >> 32)
    moves |= t >> 8
    # north-east (<< 9)
    t = oi & (p << 9)
    t |= oi & (t << 9)
    m = oi & (oi << 9)
    t |= m & (t << 18)
    m &= m << 18
    t |= m & (t << 36)
    moves |= t << 9
    # north-west (<< 7)
    t = oi & (p << 7)
    t |= oi & (t << 7)
    m = oi & (oi << 7)
    t |= m & (t << 14)
    m &= m << 14
    t |= m & (t << 28)
    moves |= t << 7
    # south-west (>> 9)
    t = oi & (p >> 9)
    t |= oi & (t >> 9)
    m = oi & (oi >> 9)
    t |= m & (t >> 18)
    m &= m >> 18
    t |= m & (t >> 36)
    moves |= t >> 9
    # south-east (>> 7)
    t = oi & (p >> 7)
    t |= oi & (t >> 7)
    m = oi & (oi >> 7)
    t |= m & (t >> 14)
    m &= m >> 14
    t |= m & (t >> 28)
    moves |= t >> 7
    return moves & empty


def _rays() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """For each square, its rays (bitboards) towards higher and towards lower squares.

    Only rays at least two squares long are kept: a shorter one can never trap a disc.
    """
    up_all, down_all = [], []
    for sq in range(64):
        r, c = divmod(sq, 8)
        up, down = [], []
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1), (0, -1), (-1, 1), (-1, 0), (-1, -1)):
            bits, length = 0, 0
            rr, cc = r + dr, c + dc
            while 0 <= rr < 8 and 0 <= cc < 8:
                bits |= 1 << (rr * 8 + cc)
                length += 1
                rr += dr
                cc += dc
            if length >= 2:
                (up if dr * 8 + dc > 0 else down).append(bits)
        up_all.append(tuple(up))
        down_all.append(tuple(down))
    return tuple(up_all), tuple(down_all)


RAYS_UP, RAYS_DOWN = _rays()


def flip_bits(p: int, o: int, square: int) -> int:
    """The discs of ``o`` that a disc of ``p`` placed on ``square`` flips (0: not a legal move)."""
    flips = 0
    notp = ~o
    for ray in RAYS_UP[square]:
        blockers = ray & notp
        if blockers:
            low = blockers & -blockers
            if low & p:
                flips |= ray & (low - 1)
    for ray in RAYS_DOWN[square]:
        blockers = ray & notp
        if blockers:
            high = 1 << (blockers.bit_length() - 1)
            if high & p:
                flips |= ray & ~((high << 1) - 1)
    return flips


py_legal_bits, py_flip_bits = legal_bits, flip_bits
"""The pure-Python primitives: the reference, and what plays where the C ones were not built."""
try:  # the same two functions in C (games/_othello_bits.c, built by setup.py where a compiler is)
    from games._othello_bits import flips as flip_bits, legal as legal_bits  # noqa: F811
    BITS_IN_C = True
except ImportError:  # no compiler at install: the pure-Python ones, the same results, slower
    BITS_IN_C = False


def perft(p: int, o: int, depth: int, passed: bool = False) -> int:
    """Leaf count of the move tree ``depth`` plies deep, a pass counting as a move.

    A finished game (neither side can move, or a full board) is a leaf however deep it is.
    """
    if depth == 0:
        return 1
    moves = legal_bits(p, o)
    if not moves:
        if passed or not (FULL ^ (p | o)):
            return 1
        return perft(o, p, depth - 1, True)
    if depth == 1:
        return moves.bit_count()
    total = 0
    while moves:
        low = moves & -moves
        moves ^= low
        f = flip_bits(p, o, low.bit_length() - 1)
        total += perft(o ^ f, p | f | low, depth - 1, False)
    return total


@dataclass(frozen=True, kw_only=True)
class OthelloState(State):
    """A position: the ``blue`` and ``orange`` discs as bitboards (bit ``square``).

    ``legal`` is the side to move's legal squares as a bitboard when ``Othello.play`` has worked
    them out already (it must, to know whether the game is over), else ``-1``: a cache, not part
    of the position (not compared, not shown)."""

    blue: int
    orange: int
    legal: int = field(default=-1, compare=False, repr=False)

    def discs(self, side: int) -> int:
        return self.blue if side == BLUE else self.orange

    def counts(self) -> tuple[int, int]:
        return self.blue.bit_count(), self.orange.bit_count()

    def mover_bits(self) -> tuple[int, int]:
        """``(mover's discs, opponent's discs)`` for the side to move (blue when over)."""
        if self.to_move == ORANGE:
            return self.orange, self.blue
        return self.blue, self.orange

    def at(self, square: int) -> int | None:
        """``BLUE``, ``ORANGE`` or ``None`` for the disc on ``square``."""
        bit = 1 << square
        if self.blue & bit:
            return BLUE
        if self.orange & bit:
            return ORANGE
        return None


@dataclass(frozen=True)
class OthelloEvent(Event):
    """A move: the ``square`` played (``None`` for a pass), the ``flipped`` squares, ``passed``."""

    square: int | None = None
    flipped: tuple[int, ...] = ()
    passed: bool = False


_new = object.__new__

INITIAL_BLUE = (1 << 27) | (1 << 36)  # D4, E5
INITIAL_ORANGE = (1 << 28) | (1 << 35)  # E4, D5


class Othello(Game):
    """Othello on an 8×8 board with the CS4341 project's rules."""

    id = "othello"
    title = "Othello"
    blurb = "Trap and flip your opponent's discs on an 8×8 board (CS4341)."
    sides = (Side("Blue", "●"), Side("Orange", "○"))
    options = (
        Option(
            "time_limit",
            "Time limit",
            TIME_LIMIT,
            kind="float",
            minimum=0.1,
            maximum=600.0,
            help="seconds a program may take for a move (the seed's time-limit; bots use it)",
            presets=(("1 s · quick", 1.0), ("3 s", 3.0), (f"{TIME_LIMIT:g} s · the contest's", TIME_LIMIT), ("30 s", 30.0)),
        ),
    )

    @property
    def time_limit(self) -> float:
        return self.settings["time_limit"]

    def initial_state(self) -> OthelloState:
        return OthelloState(to_move=BLUE, blue=INITIAL_BLUE, orange=INITIAL_ORANGE)

    def max_game_length(self) -> int:
        """120: at most 60 discs are placed (64 squares, 4 taken at the start), and a pass is
        played only when the opponent has a move (else the game is over), so each placement
        follows at most one pass."""
        return 2 * (64 - 4)

    def state_from(self, blue: int, orange: int, to_move: int = BLUE, ply: int = 0) -> OthelloState:
        """A position with the given discs and side to move (result filled in if it is over)."""
        if blue & orange:
            raise ValueError("a square cannot hold both colours")
        return self._settle(OthelloState(to_move=to_move, blue=blue & FULL, orange=orange & FULL, ply=ply))

    def legal_moves(self, state: OthelloState) -> list[int]:
        """Squares that flip, ascending; ``[PASS]`` when there is none; ``[]`` when over."""
        if state.result is not None:
            return []
        moves = state.legal
        if moves < 0:
            p, o = state.mover_bits()
            moves = legal_bits(p, o)
        return bits_to_squares(moves) if moves else [PASS]

    def play(self, state: OthelloState, move: int) -> OthelloState:
        if state.result is not None:
            raise IllegalMove("the game is over")
        mover = state.to_move
        p, o = (state.orange, state.blue) if mover == ORANGE else (state.blue, state.orange)
        legal = state.legal if state.legal >= 0 else legal_bits(p, o)
        if type(move) is int and 0 <= move < 64 and legal >> move & 1:  # a legal square: the fast way
            return self._place(state, mover, p, o, move)
        return self._play_checked(state, mover, p, o, move)

    def _place(self, state: OthelloState, mover: int, p: int, o: int, move: int) -> OthelloState:
        """``state`` after the legal square ``move`` of ``mover`` (discs ``p``, against ``o``); the
        next side's legal squares worked out once, for the end and for ``legal``."""
        flips = flip_bits(p, o, move)
        p |= flips | (1 << move)
        o ^= flips
        n = flips.bit_count()
        # the event and the state made as their dataclasses' __init__ would make them (every
        # field set, the same values), without its per-field object.__setattr__: a third of the cost
        event = _new(OthelloEvent)
        event.__dict__.update(side=mover, move=move, square=move, flipped=tuple(bits_to_squares(flips)), passed=False,
                              text=f"{self.sides[mover].name} plays {COLUMNS[move & 7]}{(move >> 3) + 1}, "
                                   f"flipping {n} disc{'s' if n != 1 else ''}")
        blue, orange = (p, o) if mover == BLUE else (o, p)
        following = legal_bits(o, p)
        if following or legal_bits(p, o):  # the next side moves, or passes: not over
            nxt = _new(OthelloState)
            nxt.__dict__.update(to_move=1 - mover, ply=state.ply + 1, event=event, result=None, blue=blue,
                                orange=orange, legal=following)
            return nxt
        return self._settle(OthelloState(to_move=1 - mover, blue=blue, orange=orange, ply=state.ply + 1, event=event))

    def _play_checked(self, state: OthelloState, mover: int, p: int, o: int, move: int) -> OthelloState:
        """``play`` for anything but a legal square: a pass (legal only without a square), or the
        illegal move's reason in the seed's words."""
        name = self.sides[mover].name
        if move == PASS and not isinstance(move, bool):
            if legal_bits(p, o):
                raise IllegalMove(f"{name} cannot pass: a move that flips exists")
            event = OthelloEvent(mover, PASS, f"{name} has no move and passes", passed=True)
            nxt = OthelloState(
                to_move=1 - mover, blue=state.blue, orange=state.orange, ply=state.ply + 1, event=event
            )
            return self._settle(nxt)
        problem = move_problem(p, o, move)
        if problem:
            shown = square_name(move) if isinstance(move, int) and 0 <= move < 64 else repr(move)
            raise IllegalMove(f"{shown} is not a legal move: {problem}")
        return self._place(state, mover, p, o, int(move))  # an int subclass naming a legal square

    def _settle(self, state: OthelloState) -> OthelloState:
        """Fill in the result if the board is full or neither side can move."""
        blue, orange = state.blue, state.orange
        if (blue | orange) != FULL and (legal_bits(blue, orange) or legal_bits(orange, blue)):
            return state
        nb, no = blue.bit_count(), orange.bit_count()
        why = "the board is full" if (blue | orange) == FULL else "neither side can move"
        if nb == no:
            result = Result(None, f"Draw {nb}–{no}: {why}")
        else:
            winner = BLUE if nb > no else ORANGE
            result = Result(winner, f"{self.sides[winner].name} wins {max(nb, no)}–{min(nb, no)}: {why}")
        return OthelloState(
            to_move=state.to_move, blue=blue, orange=orange, ply=state.ply, event=state.event, result=result
        )

    def move_text(self, state: OthelloState, move: int) -> str:
        return square_name(move)

    def move_label(self, state: OthelloState, move: int) -> str:
        """``E3``, and ``pass`` for a pass (the course's ``P`` is for files, not for reading)."""
        return "pass" if move == PASS else square_name(move)

    def parse_move(self, state: OthelloState, text: str) -> int:
        """``e3``, ``E3``, ``E 3``, or ``P``/``pass``; ``IllegalMove`` saying why otherwise."""
        if state.result is not None:
            raise IllegalMove("the game is over")
        move = parse_square(text)
        if move is None:
            raise IllegalMove(f"{text.strip()!r} is not a square: write a column A–H and a row 1–8, like E3, or P to pass")
        if move not in self.legal_moves(state):
            p, o = state.mover_bits()
            why = "a move that flips exists" if move == PASS else move_problem(p, o, move)
            raise IllegalMove(f"{square_name(move)} is not a legal move: {why}")
        return move

    def describe(self, state: OthelloState) -> str:
        if state.result is not None:
            return state.result.reason
        name = self.sides[state.to_move].name
        if self.legal_moves(state) == [PASS]:
            return f"{name} has no move and must pass"
        return f"{name} to move"

    def score_text(self, state: OthelloState, side: int) -> str:
        n = state.discs(side).bit_count()
        return f"{n} disc{'s' if n != 1 else ''}"


def move_problem(p: int, o: int, move: object) -> str:
    """Why placing a disc of ``p`` on ``move`` is illegal, in the seed's words; ``""`` if legal.

    ``"off the board"``, ``"space occupied"``, ``"no trap"``, or for ``PASS``
    ``"pass while a move exists"``.
    """
    if move == PASS and not isinstance(move, bool):
        return "pass while a move exists" if legal_bits(p, o) else ""
    if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < 64:
        return "off the board"
    if (p | o) >> move & 1:
        return "space occupied"
    if not flip_bits(p, o, move):
        return "no trap"
    return ""


# -- the course referee's texts -----------------------------------------------------------------

END_REASONS = {
    "INVALID": "Invalid move!",
    "OOO": "Out-of-order move!",
    "TIME_OUT": "Time out!",
    "VALID": "The winning player has more discs on the board!",
    "TIE": "Match TIED!",
}
"""The course referee's ``EndCondition`` texts."""


def end_message(reason: str, winner: str | None = None, loser: str | None = None) -> str:
    """What the course referee writes to ``end_game``: ``"W WINS! L LOSES! reason"`` or a tie."""
    if reason == "TIE" or winner is None:
        return END_REASONS["TIE"]
    return f"{winner} WINS! {loser} LOSES! {END_REASONS[reason]}"


def referee_board_text(blue: int, orange: int) -> str:
    """The board as the course referee prints it (``--no_color``): row 8 first, ``*``/``B``/``O``."""
    lines = []
    for row in range(8, 0, -1):
        cells = []
        for col in range(8):
            bit = 1 << ((row - 1) * 8 + col)
            cells.append("B" if blue & bit else "O" if orange & bit else "*")
        lines.append(f"{row}  " + "".join(c + "  " for c in cells))
    lines.append("   A  B  C  D  E  F  G  H")
    return "\n".join(lines)
