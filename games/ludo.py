"""Robot Ludo (the "Robot Ludo Challenge" readme and its notebook, metterklume/robot-ludo).

The rules, as the readme states them
====================================

Two players, Red and Blue, start on opposite ends of a circular track of ``length`` squares
(even, 6 to 40). Red's home square is 0, Blue's is ``length // 2``.

1. Both sides start with all their counters (1 to 15) in the *pen*. A counter leaves the pen
   for its home square only on a roll of 6 (the die's maximum).
2. Turns alternate. Each turn the die is rolled (1 to 6) and the side must either move one of
   its counters forward ("counter-clockwise") by the roll, or bring a counter out of the pen if
   the roll is 6, or pass if and only if it has no valid move.
3. Cutting: a counter that lands on a square that is not safe, holding one or more opposing
   counters, sends *all* of them back to their pen.
4. Safe squares: cutting never happens there; both homes are always safe, and the game may
   name extra safe squares (the ``safe`` option), fixed for the whole game.
5. Reaching home: after a whole circuit a counter must land *exactly* on its home square; it
   is then removed from the board. A move past home is not allowed (no bouncing).
6. The first side to send all of its counters home wins.

Positions are absolute squares, as in the original ``state.py``: Red moves up from 0 and goes
home by landing on ``length``; Blue moves ``(square + steps) % length`` from ``length // 2`` and
goes home by landing on ``length // 2`` again after a full circuit. A Blue counter *on* its home
square has therefore always just entered.

Moves
=====

A move is the notebook's tuple ``(turn, position, steps)``: turn 0 (Red) or 1 (Blue), the
square of the counter to move, and the steps (the roll). ``(turn, 0, 0)`` brings a counter out
of the pen (only on a 6), ``(turn, -1, -1)`` passes (only when nothing else is legal).

In the ``Game`` protocol the die is a chance step *before* each move: a chance state
(``to_move == CHANCE``) whose outcomes are the rolls 1..6, each with probability 1/6; then the
side to move chooses among the moves that roll allows, in ``getmoves``'s order (entering first,
then by ascending square). Options: ``counters`` (1–15), ``length`` (even, 6–40), ``safe``
(extra safe squares) and ``starting`` (which colour moves first). Two presets name the
challenge's own settings (``PRESETS``): ``contest``, the real tournament's (12 counters on 36
squares, safe squares 9 and 27), and ``notebook``, the notebook's ``judge(10, 20, None, ...)``.

The notebook's API
==================

``Board`` (the dataclass, with the same fields and repr), ``make_start_board``, ``getmoves``,
``makemove(board, move, copy=True)``, ``isvalidmove``, ``match(...)`` with its verbose trace,
``judge(...)``, ``halfshift`` and the example engines ``simple_player``, ``simple_player2`` and
``simple_player3`` (the random player, also called ``random_player``) behave as the course's
code, so a student's engine ``engine(board, turn, roll) -> move`` runs unchanged. ``match`` and
``judge`` draw their dice from the global ``random`` module exactly as the original did (so a
``seed`` reproduces the original's games); everything else here is pure.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Sequence

from games.base import CHANCE, Commentator, Event, Game, IllegalMove, Option, OptionError, Result, Side, State

__all__ = [
    "Ludo",
    "LudoState",
    "LudoEvent",
    "Board",
    "make_start_board",
    "getmoves",
    "makemove",
    "isvalidmove",
    "isvalidboard",
    "match",
    "judge",
    "halfshift",
    "simple_player",
    "simple_player2",
    "simple_player3",
    "random_player",
    "MAXROLL",
]

MAXROLL = 6
"""The die's largest face: entering needs it."""

COLOURS = ("Red", "Blue")

Move = tuple[int, int, int]


# =============================================================================================
# The notebook's API
# =============================================================================================


@dataclass
class Board:
    """The notebook's board: ``safe``, ``red`` and ``blue`` are lists of ``length`` numbers
    (1 marks a safe square; counts of counters per square); ``redpen``/``bluepen`` count the
    counters waiting in each pen. Counters that went home are on neither.
    """

    counters: int  # total counters for each side to start
    length: int  # length of the track
    safe: list
    red: list
    blue: list
    redpen: int  # counters in the 'pen', waiting to come into play
    bluepen: int

    def __copy__(self) -> "Board":
        """A board of its own, as the course's final code makes it: ``safe``, ``red`` and ``blue``
        copied into new lists with ``list(...)``, so a copy that an engine plays on never changes
        the board it came from (``copy.copy(board)``; ``makemove(copy=True)`` uses it: a fraction
        of ``deepcopy``'s time). A board holding numpy arrays, as some entries build, gets lists
        too: slicing an array (``red[:]``) would give a view of the same numbers."""
        return Board(counters=self.counters, length=self.length, safe=list(self.safe), red=list(self.red),
                     blue=list(self.blue), redpen=self.redpen, bluepen=self.bluepen)


def make_start_board(counters: int, length: int, safesquares: Sequence[int] | None = None) -> Board:
    """The start: both pens full; squares 0 and ``length // 2`` safe, plus ``safesquares``."""
    safe = [0] * length
    safe[0], safe[length // 2] = 1, 1
    if safesquares:
        for s in safesquares:
            safe[s] = 1
    return Board(counters=counters, length=length, safe=safe, red=[0] * length, blue=[0] * length,
                 redpen=counters, bluepen=counters)


def isvalidmove(board: Board, move: Sequence[int], maxroll: int = MAXROLL) -> bool:
    """Whether ``move`` may be played on ``board`` (the roll is not checked, as in the original:
    ``(turn, 0, 0)`` is valid whenever the pen is not empty)."""
    try:
        turn, pos, steps = move
    except (TypeError, ValueError):
        return False
    L, newpos = board.length, pos + steps
    if (pos, steps) == (-1, -1):
        return True
    if turn not in (0, 1):
        return False
    if (pos, steps) == (0, 0):
        if turn == 0 and board.redpen:
            return True
        if turn == 1 and board.bluepen:
            return True
    if pos < 0 or pos >= L or steps <= 0 or steps > maxroll:
        return False
    if turn == 0:
        if not board.red[pos] or newpos > L:
            return False
    if turn == 1:
        if not board.blue[pos] or (pos < L // 2 and newpos > L // 2) or (pos > L // 2 and newpos > L + L // 2):
            return False
    return True


def makemove(board: Board, move: Sequence[int], copy: bool = True, *, copyboard: bool | None = None) -> Board:
    """Play ``move``: a new board (``copy=True``) or ``board`` changed in place.

    An invalid move prints ``Invalid move`` and returns the board unchanged, as the original
    does. ``copyboard`` is the later name of ``copy`` in the course's code; both are accepted.
    """
    if copyboard is not None:
        copy = copyboard
    if not isvalidmove(board, move):
        print("Invalid move")
        return board
    newboard = board.__copy__() if copy else board
    turn, pos, steps = move
    L = board.length
    if (pos, steps) == (-1, -1):
        return newboard
    if (pos, steps) == (0, 0):
        if turn == 0:
            newboard.red[0] += 1
            newboard.redpen -= 1
        else:
            newboard.blue[L // 2] += 1
            newboard.bluepen -= 1
    elif turn == 0:
        newpos = pos + steps
        newboard.red[pos] -= 1
        if newpos != L:
            newboard.red[newpos] += 1
            if not newboard.safe[newpos]:
                newboard.bluepen += newboard.blue[newpos]
                newboard.blue[newpos] = 0
    else:
        newpos = (pos + steps) % L
        newboard.blue[pos] -= 1
        if newpos != L // 2:
            newboard.blue[newpos] += 1
            if not newboard.safe[newpos]:
                newboard.redpen += newboard.red[newpos]
                newboard.red[newpos] = 0
    return newboard


def isvalidboard(board: Board) -> bool:
    """The original's sanity check: list lengths, and no more counters out than the pens allow."""
    L = board.length
    if (len(board.red), len(board.blue), len(board.safe)) != (L, L, L):
        return False
    if sum(board.red) > board.counters - board.redpen or sum(board.blue) > board.counters - board.bluepen:
        return False
    return True


def getmoves(board: Board, turn: int, roll: int, maxroll: int = MAXROLL) -> list[Move]:
    """The valid moves for ``turn`` with ``roll``: ``(turn, 0, 0)`` first when the roll is the
    maximum and the pen is not empty, then moves by ascending square; ``[(turn, -1, -1)]`` only
    when there is nothing else."""
    moves: list[Move] = []
    if roll == maxroll and ((turn == 0 and board.redpen) or (turn == 1 and board.bluepen)):
        moves.append((turn, 0, 0))
    squares = board.red if turn == 0 else board.blue
    for pos, ctrs in enumerate(squares):
        if ctrs and isvalidmove(board, (turn, pos, roll), maxroll):
            moves.append((turn, pos, roll))
    if not moves:
        moves = [(turn, -1, -1)]
    return moves


def match(counters: int, length: int, safesquares: Sequence[int] | None, player1: Callable, player2: Callable,
          maxiters: int = 1000, starting: int = 0, seed: int | None = None, verbose: bool = False) -> int | None:
    """One game: ``player1`` always plays Red (turn 0), ``player2`` Blue; ``starting`` is the
    turn that moves first. Returns 0 (Red won), 1 (Blue won) or ``None`` (no winner within
    ``maxiters`` plies). ``verbose`` prints ``turn roll move`` per ply, then ``Cuts C Moves M``.

    The dice come from the global ``random`` module (``random.seed(seed)`` if a seed is given),
    exactly as in the original, so the original's seeds give the same games.
    """
    if seed is not None:
        random.seed(seed)
    b = make_start_board(counters, length, safesquares)
    result = None
    cuts = 0
    i = -1
    for i in range(maxiters):
        turn = (i + starting) % 2
        roll = random.randint(1, 6)
        player = (player1, player2)[turn]
        move = player(b, turn, roll)
        rp, bp = b.redpen, b.bluepen
        b = makemove(b, move, copy=False)
        if verbose:
            print(turn, roll, move)
        if b.redpen > rp or b.bluepen > bp:
            cuts += 1
        if b.redpen == 0 and sum(b.red) == 0:
            result = 0
            break
        if b.bluepen == 0 and sum(b.blue) == 0:
            result = 1
            break
    if verbose:
        print("Cuts", cuts, "Moves", i + 1)
    return result


def judge(counters: int, length: int, safesquares: Sequence[int] | None, player1: Callable, player2: Callable,
          games: int = 100, starting: int = 0) -> tuple[float, float]:
    """The fractions of games won by ``player1`` and ``player2`` over ``games`` matches.

    As in the notebook, ``player1`` is always Red and the same side starts every game (colours
    are *not* alternated); games without a winner within 1000 plies are left out.
    """
    results = [match(counters, length, safesquares, player1, player2, maxiters=1000, starting=starting)
               for _ in range(games)]
    results = [r for r in results if r is not None]
    if not results:
        raise ValueError("judge: no game finished within 1000 plies, so there is no fraction to report")
    avg2 = sum(results) / len(results)
    return 1 - avg2, avg2


def simple_player(board: Board, turn: int, roll: int) -> Move:
    """The notebook's simplest engine: the first valid move ``getmoves`` lists."""
    moves = getmoves(board, turn, roll)
    return moves[0]


def halfshift(x: int, L: int) -> int:
    """Count counter-clockwise from L/2-->0 to L/2-1-->L-1 (Blue's progress of square ``x``)."""
    if x >= L // 2:
        return x - L // 2
    return x + L // 2


def simple_player2(board: Board, turn: int, roll: int) -> Move:
    """The notebook's symmetric strategy: enter if possible; else the counter nearest home."""
    moves = getmoves(board, turn, roll)
    if (turn, 0, 0) in moves:
        return (turn, 0, 0)
    if turn == 0:
        return moves[0]
    return min(moves, key=lambda triple: halfshift(triple[1], board.length))


def simple_player3(board: Board, turn: int, roll: int) -> Move:
    """The notebook's random engine: ``random.choice`` of the valid moves."""
    moves = getmoves(board, turn, roll)
    return random.choice(moves)


random_player = simple_player3


# =============================================================================================
# The game protocol
# =============================================================================================


@dataclass(frozen=True)
class LudoEvent(Event):
    """A roll (``side == CHANCE``, ``move`` the roll) or a move.

    For a move: ``roll`` it used; ``source`` the square it left (``None`` for entering or a
    pass); ``target`` the square it landed on (``None`` when it went home or passed);
    ``entered`` (from the pen), ``home`` (reached home), ``passed``; ``cut`` how many opposing
    counters were sent back to their pen from ``target`` (the board draws their ghosts).
    """

    roll: int = 0
    source: int | None = None
    target: int | None = None
    entered: bool = False
    home: bool = False
    passed: bool = False
    cut: int = 0


@dataclass(frozen=True, kw_only=True)
class LudoState(State):
    """A position. ``turn`` is the side whose turn it is (to roll, or to move with ``roll``);
    ``red``/``blue`` count counters per square; ``pens`` the counters in each pen.
    ``last_move`` is the most recent move's event (kept through the next roll, so that the last
    move and cut counters' ghosts stay visible for one turn)."""

    turn: int
    red: tuple[int, ...]
    blue: tuple[int, ...]
    pens: tuple[int, int]
    counters: int
    roll: int | None = None
    last_move: LudoEvent | None = None

    def squares(self, side: int) -> tuple[int, ...]:
        return self.red if side == 0 else self.blue

    def home_count(self, side: int) -> int:
        """Counters of ``side`` that have gone home."""
        return self.counters - self.pens[side] - sum(self.squares(side))


class LudoCommentator(Commentator):
    """Announces moves (each with its roll), and makes cuts and counters reaching home stand out."""

    def see(self, state: LudoState) -> list[str]:
        event = state.event
        lines: list[str] = []
        if isinstance(event, LudoEvent) and event.side != CHANCE:
            lines.append(event.text)
            if event.cut:
                lines.append(f"✂ Cut! {event.cut} {COLOURS[1 - event.side]} counter"
                             f"{'s' if event.cut > 1 else ''} back to the pen")
            if event.home:
                lines.append(f"⌂ A {COLOURS[event.side]} counter is home "
                             f"({state.home_count(event.side)} of {state.counters})")
        if state.result is not None:
            lines.append(state.result.reason)
        return lines


_ROLL_OUTCOMES = tuple((r, Fraction(1, 6)) for r in range(1, 7))

MAX_COUNTERS = 15
"""Counters a side may have: the tournament's 12 and more (the ring draws 15 on 40 squares)."""

PRESETS: dict[str, dict[str, Any]] = {
    "contest": {"counters": 12, "length": 36, "safe": (9, 27)},
    "notebook": {"counters": 10, "length": 20, "safe": ()},
}
"""The challenge's own settings: ``contest``, the real tournament's (12 counters, 36 squares,
safe squares 9 and 27 besides the homes 0 and 18); ``notebook``, the notebook's examples
(``judge(10, 20, None, ...)``: 10 counters on 20 squares, no extra safe square)."""


class Ludo(Game):
    """Robot Ludo with configurable counters, track length, extra safe squares and first side."""

    id = "ludo"
    title = "Robot Ludo"
    blurb = "Race your counters round the ring, cut your rival's, reach home exactly."
    sides = (Side("Red", "R"), Side("Blue", "B"))
    options = (
        Option("counters", "Counters", 4, minimum=1, maximum=MAX_COUNTERS, help="counters per side"),
        Option("length", "Track length", 20, minimum=6, maximum=40, even=True,
               help="squares round the ring (Red's home 0, Blue's length/2)"),
        Option("safe", "Extra safe squares", (), kind="ints", minimum=0, maximum=39, below="length",
               help="squares where no cutting happens, besides both homes (below the track length)"),
        Option("starting", "Moves first", "red", kind="choice", choices=("red", "blue"),
               help="the colour that rolls first"),
    )
    presets = PRESETS

    def check_settings(self) -> None:
        bad = [s for s in self.settings["safe"] if s >= self.length]
        if bad:
            raise OptionError(f"option 'safe': square {bad[0]} is off the track (squares are 0–{self.length - 1})")
        safe = [0] * self.length
        for s in (0, self.length // 2, *self.settings["safe"]):
            safe[s] = 1
        self.safe: tuple[int, ...] = tuple(safe)

    # -- settings ---------------------------------------------------------------------------
    @property
    def counters(self) -> int:
        return self.settings["counters"]

    @property
    def length(self) -> int:
        return self.settings["length"]

    @property
    def extra_safe(self) -> tuple[int, ...]:
        return tuple(self.settings["safe"])

    @property
    def first(self) -> int:
        return 0 if self.settings["starting"] == "red" else 1

    @property
    def first_side(self) -> int:
        """The side that moves first (the match runner reports wins moving first by it)."""
        return self.first

    def match_variant(self, number: int) -> "Ludo":
        """The game to play as game ``number`` (from 1) of a match: the first mover flips every
        two games, so that with the runner's colour swap each player gets both colours, each
        both moving first and second (games 1–4: A Red first, A Blue second, A Red second, A
        Blue first). The notebook's ``judge`` does not do this."""
        starting = ("red", "blue")[((number - 1) // 2) % 2]
        return type(self)(**{**self.settings, "starting": starting})

    def max_game_length(self) -> int:
        """A safety cap, not a bound: ``100 counters (length + 12)`` plies. The dice can prolong
        a game without end (no six to leave the pen, cut after cut), so no finite bound holds.
        A counter needs about six turns to roll its six, ``length / 3.5`` to go round and a few
        more to land home exactly; random play's longest games stay below a tenth of the cap
        (10 counters on 40 squares: 52,000 plies against about 1,100 in 150 games)."""
        return 100 * self.counters * (self.length + 12)

    def home_square(self, side: int) -> int:
        return 0 if side == 0 else self.length // 2

    # -- conversions to and from the notebook's Board ---------------------------------------
    def board(self, state: LudoState) -> Board:
        """The notebook's ``Board`` of ``state`` (fresh lists)."""
        return Board(counters=state.counters, length=self.length, safe=list(self.safe), red=list(state.red),
                     blue=list(state.blue), redpen=state.pens[0], bluepen=state.pens[1])

    def state_from_board(self, board: Board, turn: int, roll: int | None = None) -> LudoState:
        """A state with ``board``'s counters, ``turn`` to roll (or to move with ``roll``)."""
        if board.length != self.length:
            raise OptionError(f"the board's length {board.length} is not this game's {self.length}")
        state = LudoState(to_move=CHANCE if roll is None else turn, turn=turn, red=tuple(board.red),
                          blue=tuple(board.blue), pens=(board.redpen, board.bluepen), counters=board.counters,
                          roll=roll)
        return state

    # -- rules -------------------------------------------------------------------------------
    def initial_state(self) -> LudoState:
        zeros = (0,) * self.length
        return LudoState(to_move=CHANCE, turn=self.first, red=zeros, blue=zeros,
                         pens=(self.counters, self.counters), counters=self.counters)

    def chance_outcomes(self, state: LudoState) -> Sequence[tuple[int, Fraction]] | None:
        if state.result is not None or state.to_move != CHANCE:
            return None
        return _ROLL_OUTCOMES

    def moves_for(self, state: LudoState, roll: int) -> list[Move]:
        """The moves ``state.turn`` may play with ``roll``, in ``getmoves``'s order."""
        turn = state.turn
        L = self.length
        moves: list[Move] = []
        if roll == MAXROLL and state.pens[turn]:
            moves.append((turn, 0, 0))
        squares = state.squares(turn)
        h = L // 2
        for pos, ctrs in enumerate(squares):
            if not ctrs:
                continue
            new = pos + roll
            if turn == 0:
                ok = new <= L
            else:
                ok = not ((pos < h and new > h) or (pos > h and new > L + h))
            if ok:
                moves.append((turn, pos, roll))
        if not moves:
            moves.append((turn, -1, -1))
        return moves

    def legal_moves(self, state: LudoState) -> list:
        if state.result is not None:
            return []
        if state.to_move == CHANCE:
            return [r for r in range(1, 7)]
        return self.moves_for(state, state.roll)

    def play(self, state: LudoState, move: Any) -> LudoState:
        if state.result is not None:
            raise IllegalMove("the game is over")
        name = COLOURS[state.turn]
        if state.to_move == CHANCE:
            if not isinstance(move, int) or isinstance(move, bool) or not 1 <= move <= 6:
                raise IllegalMove(f"a roll of the die is 1 to 6, not {move!r}")
            event = LudoEvent(CHANCE, move, f"{name} rolls {move}", roll=move)
            return LudoState(to_move=state.turn, turn=state.turn, red=state.red, blue=state.blue, pens=state.pens,
                             counters=state.counters, roll=move, ply=state.ply + 1, event=event,
                             last_move=state.last_move)
        if not (isinstance(move, tuple) and len(move) == 3
                and all(isinstance(x, int) and not isinstance(x, bool) for x in move)):
            # the declared type only: a list that equals a legal tuple is not a move
            raise IllegalMove(f"{move!r} is not a move: a move is a tuple (turn, square, steps)")
        legal = self.moves_for(state, state.roll)
        if move not in legal:
            raise IllegalMove(self._why_illegal(state, move, legal))
        turn, pos, steps = move
        roll = state.roll
        L = self.length
        h = L // 2
        own = list(state.squares(turn))
        other = list(state.squares(1 - turn))
        pens = list(state.pens)
        source = target = None
        entered = home = passed = False
        cut = 0
        if (pos, steps) == (-1, -1):
            passed = True
            text = f"{name} rolls {roll} and cannot move: pass"
        elif (pos, steps) == (0, 0):
            entered = True
            target = self.home_square(turn)
            own[target] += 1
            pens[turn] -= 1
            text = f"{name} rolls 6 and brings a counter out onto square {target}"
        else:
            source = pos
            own[pos] -= 1
            if turn == 0:
                new = pos + steps
                home = new == L
            else:
                new = (pos + steps) % L
                home = new == h
            if home:
                text = f"{name} rolls {roll}: {pos} → home"
            else:
                target = new
                own[new] += 1
                text = f"{name} rolls {roll}: {pos} → {new}"
                if not self.safe[new] and other[new]:
                    cut = other[new]
                    pens[1 - turn] += cut
                    other[new] = 0
                    text += f", cutting {cut} {COLOURS[1 - turn]}"
        red, blue = (own, other) if turn == 0 else (other, own)
        event = LudoEvent(turn, move, text, roll=roll, source=source, target=target, entered=entered, home=home,
                          passed=passed, cut=cut)
        result = None
        if pens[turn] == 0 and not any(own):
            what = f"all {state.counters} counters are" if state.counters > 1 else "its counter is"
            result = Result(turn, f"{name} wins: {what} home")
        return LudoState(to_move=CHANCE, turn=1 - turn, red=tuple(red), blue=tuple(blue), pens=(pens[0], pens[1]),
                         counters=state.counters, roll=None, ply=state.ply + 1, event=event, result=result,
                         last_move=event)

    def _why_illegal(self, state: LudoState, move: tuple, legal: list[Move]) -> str:
        turn, pos, steps = move if len(move) == 3 else (None, None, None)
        name = COLOURS[state.turn]
        if turn != state.turn:
            return f"it is {name}'s move: a move starts with {state.turn}"
        if (pos, steps) == (-1, -1):
            return "you may pass only when no other move is possible"
        if (pos, steps) == (0, 0):
            if state.roll != MAXROLL:
                return f"a counter leaves the pen only on a 6 (the roll is {state.roll})"
            return f"{name}'s pen is empty"
        if steps != state.roll:
            return f"the roll is {state.roll}: a move must go {state.roll} steps"
        if not (0 <= pos < self.length) or not state.squares(turn)[pos]:
            return f"{name} has no counter on square {pos}"
        return f"the counter on square {pos} would go past home with a {state.roll}"

    # -- text --------------------------------------------------------------------------------
    def move_text(self, state: LudoState, move: Any) -> str:
        if state.to_move == CHANCE:
            return str(move)
        return str(tuple(move))

    def forced_pass(self, state: LudoState) -> Any:
        """``(turn, -1, -1)`` when the roll leaves no other move."""
        if state.result is not None or state.to_move == CHANCE:
            return None
        legal = self.legal_moves(state)
        return legal[0] if legal == [(state.turn, -1, -1)] else None

    def move_label(self, state: LudoState, move: Any) -> str:
        """``pass``, ``enter →10``, ``15→17``, ``15→home``: the squares, not the tuple."""
        if state.to_move == CHANCE:
            return str(move)
        turn, pos, steps = move
        if (pos, steps) == (-1, -1):
            return "pass"
        if (pos, steps) == (0, 0):
            return f"enter →{self.home_square(turn)}"
        new = pos + steps if turn == 0 else (pos + steps) % self.length
        home = new == self.length if turn == 0 else new == self.length // 2
        return f"{pos}→{'home' if home else new}"

    def parse_move(self, state: LudoState, text: str) -> Any:
        """Accepts ``(0, 3, 4)``, ``0,3,4``, ``e``/``enter``, ``p``/``pass``, or the square of the
        counter to move (``3``); a roll ``1``..``6`` at a chance step."""
        if state.result is not None:
            raise IllegalMove("the game is over")
        raw = text.strip().lower()
        legal = self.legal_moves(state)
        if state.to_move == CHANCE:
            if raw.isdigit() and int(raw) in legal:
                return int(raw)
            raise IllegalMove(f"{text!r} is not a roll: type 1 to 6")
        turn = state.turn
        if raw in ("e", "enter"):
            if (turn, 0, 0) in legal:
                return (turn, 0, 0)
            raise IllegalMove(self._why_illegal(state, (turn, 0, 0), legal))
        if raw in ("p", "pass"):
            if (turn, -1, -1) in legal:
                return (turn, -1, -1)
            raise IllegalMove(self._why_illegal(state, (turn, -1, -1), legal))
        numbers = re.findall(r"-?\d+", raw)
        if not numbers or re.sub(r"[\d\s,()\-]", "", raw):
            raise IllegalMove(f"{text!r} is not a move: type a square, (turn, square, steps), e or p")
        values = tuple(int(n) for n in numbers)
        if len(values) == 1:
            values = (turn, values[0], state.roll)
        if len(values) != 3:
            raise IllegalMove(f"{text!r} is not a move: a move is (turn, square, steps)")
        if values not in legal:
            raise IllegalMove(self._why_illegal(state, values, legal))
        return values

    def describe(self, state: LudoState) -> str:
        if state.result is not None:
            return state.result.reason
        name = COLOURS[state.turn]
        if state.to_move == CHANCE:
            return f"{name} to roll"
        return f"{name} rolled {state.roll}"

    def score_text(self, state: LudoState, side: int) -> str:
        return f"⌂ {state.home_count(side)}/{state.counters}"

    def commentator(self) -> LudoCommentator:
        return LudoCommentator()
