"""10-1-2 Toothpick Takeaway (the "10-1-2 Toothpick Takeaway" notebook).

Rules, as the notebook states them:

1. There are 10 toothpicks on a table.
2. The two players alternate taking toothpicks off the table.
3. At each turn, the player may take either 1 or 2 toothpicks.
4. If a player can not make a legal move, that player loses. This includes the situation where
   the table is left empty by the previous player's move (so whoever takes the last one wins).

Options: ``count``, the toothpicks at the start (1 to 99, default 10), and ``max_take``, the
largest take (1 to 9, default 2). A move is the number of toothpicks taken, an ``int``.

The notebook's analysis, generalised: the player to move loses with perfect play exactly when
the count is a multiple of ``max_take + 1``; otherwise the winning move takes
``count % (max_take + 1)``.

The notebook's own function is here too: ``display_turn_tree(cards_left, player, cards_taken,
turn)`` prints the tree of every continuation exactly as the notebook prints it; and its
``Board`` as a strategy is handed it (``Board``: ``state``, ``move_set``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from typing import Iterator

from games.base import Event, Game, IllegalMove, Option, Result, Side, State

__all__ = [
    "Board",
    "Toothpicks",
    "TakeState",
    "TakeEvent",
    "display_turn_tree",
    "turn_tree_lines",
    "winning_take",
    "is_winning",
    "position_tree",
]


@dataclass(frozen=True, kw_only=True)
class TakeState(State):
    """A position: ``left`` toothpicks on the table, ``start`` at the beginning, and how many
    each side has ``taken`` so far."""

    left: int
    start: int
    taken: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class TakeEvent(Event):
    """A take: ``taken`` toothpicks went, leaving ``left`` (the board shows them faint)."""

    taken: int = 0
    left: int = 0


class Toothpicks(Game):
    """10-1-2 Toothpick Takeaway with a configurable count and largest take."""

    id = "toothpicks"
    title = "Toothpick Takeaway"
    blurb = "10-1-2: take one or two toothpicks; whoever takes the last one wins."
    sides = (Side("Player 1", "1"), Side("Player 2", "2"))
    options = (
        Option("count", "Toothpicks", 10, minimum=1, maximum=99, help="toothpicks on the table at the start"),
        Option("max_take", "Largest take", 2, minimum=1, maximum=9, help="most toothpicks a turn may take"),
    )

    @property
    def count(self) -> int:
        return self.settings["count"]

    @property
    def max_take(self) -> int:
        return self.settings["max_take"]

    def initial_state(self) -> TakeState:
        return TakeState(to_move=0, left=self.count, start=self.count)

    def max_game_length(self) -> int:
        """``count``: every take removes at least one toothpick (reached when ``max_take`` is 1)."""
        return self.count

    def legal_moves(self, state: TakeState) -> list[int]:
        """Takes from 1 up to the largest take, or what is left if fewer; ascending."""
        if state.result is not None:
            return []
        return list(range(1, min(self.max_take, state.left) + 1))

    def play(self, state: TakeState, move: int) -> TakeState:
        if state.result is not None:
            raise IllegalMove("the game is over")
        if not isinstance(move, int) or isinstance(move, bool) or not 1 <= move <= min(self.max_take, state.left):
            most = min(self.max_take, state.left)
            choices = "1" if most == 1 else f"1 to {most}"
            raise IllegalMove(f"cannot take {move!r}: take {choices} (there {'is' if state.left == 1 else 'are'} {state.left} left)")
        mover = state.to_move
        left = state.left - move
        name = self.sides[mover].name
        noun = "toothpick" if move == 1 else "toothpicks"
        text = f"{name} takes {move} {noun}, leaving {left}"
        result = None
        if left == 0:
            loser = self.sides[1 - mover].name
            result = Result(mover, f"{name} took the last toothpick and wins: {loser} cannot move")
        taken = list(state.taken)
        taken[mover] += move
        return TakeState(
            to_move=1 - mover,
            taken=(taken[0], taken[1]),
            ply=state.ply + 1,
            event=TakeEvent(mover, move, text, taken=move, left=left),
            result=result,
            left=left,
            start=state.start,
        )

    def move_text(self, state: TakeState, move: int) -> str:
        return str(move)

    def describe(self, state: TakeState) -> str:
        if state.result is not None:
            return state.result.reason
        return f"{self.sides[state.to_move].name} to take · {state.left} left"

    def score_text(self, state: TakeState, side: int) -> str:
        return f"took {state.taken[side]}"


# -- the notebook's classes, as a strategy sees them ----------------------------------------------

class Board(int):
    """The notebook's ``Board`` as a strategy is handed it: ``state``, the toothpicks left (the
    notebook's ``self.state``), and ``move_set``, the takes allowed now (``[1, 2]``; ``[1]`` with
    one left). It is also the count itself, an ``int``, so a strategy written as
    ``strategy(toothpicks_left)`` and one written against the notebook's classes
    (``the_board.state``) read the same argument."""

    move_set: list[int]

    def __new__(cls, left: int, max_take: int = 2) -> "Board":
        board = super().__new__(cls, left)
        board.move_set = list(range(1, min(max_take, left) + 1))
        return board

    @property
    def state(self) -> int:
        """The toothpicks on the table."""
        return int(self)

    def __str__(self) -> str:  # printed, it is the count (as the int it stands for)
        return str(int(self))

    def __repr__(self) -> str:
        return f"Board(state={int(self)}, move_set={self.move_set})"


# -- the notebook's analysis -------------------------------------------------------------------

def winning_take(left: int, max_take: int = 2) -> int | None:
    """The take that wins with perfect play from ``left``, or ``None`` if every take loses."""
    take = left % (max_take + 1)
    return take or None


def is_winning(left: int, max_take: int = 2) -> bool:
    """Whether the player to move with ``left`` toothpicks wins with perfect play."""
    return left % (max_take + 1) != 0


# -- the notebook's turn tree ------------------------------------------------------------------

def turn_tree_lines(cards_left: int, player: int, cards_taken: int, turn: int, max_take: int = 2) -> Iterator[str]:
    """The lines ``display_turn_tree`` prints, lazily (the tree grows exponentially).

    With ``max_take`` other than 2 the same pre-order walk takes 1, 2, ... up to ``max_take``.
    """
    stack = [(cards_left, player, cards_taken, turn)]
    while stack:
        left, who, taken, depth = stack.pop()
        yield "    " * depth + f"P{who}-{taken}: ({left})"
        if left == 0:
            continue
        nxt = (who % 2) + 1
        for take in range(min(max_take, left), 0, -1):
            stack.append((left - take, nxt, take, depth + 1))


def display_turn_tree(cards_left: int, player: int, cards_taken: int, turn: int) -> None:
    """Display a tree of all possible turns for Toothpick Takeaway (the notebook's function).

    Args:
        cards_left: the number of cards left on the table AFTER the turn
        player: the player who just picked up cards
        cards_taken: how many cards the player picked up
        turn: which turn of the match it is
    """
    for line in turn_tree_lines(cards_left, player, cards_taken, turn):
        print(line)


def position_tree(left: int, player_to_move: int, max_take: int = 2, limit: int = 2000) -> tuple[list[str], bool]:
    """The turn trees of every take from the current position, at most ``limit`` lines.

    ``player_to_move`` is 1 or 2 as the notebook numbers players. Returns the lines and whether
    the tree was cut short.
    """
    def walk() -> Iterator[str]:
        for take in range(1, min(max_take, left) + 1):
            yield from turn_tree_lines(left - take, player_to_move, take, 0, max_take)

    lines = list(islice(walk(), limit + 1))
    return lines[:limit], len(lines) > limit
