"""D-Football, one-dimensional football (STATS 306 extra-credit contest, ``d_football.R``).

Rules, as the contest notebook states them:

- Each team starts with ``n`` players; the board has ``2n + 1`` squares with a blank square in
  the middle. Michigan starts on the left and moves first; Ohio starts on the right.
- The teams alternate turns; on its turn a team must move one of its players.
- A Michigan player moves one square to the right into a vacant square, or *jumps* an Ohio
  player immediately to her right when the square beyond is vacant, landing two squares to the
  right and removing the Ohio player. Ohio moves the same way from right to left. Pieces cannot
  move beyond the edge of the board.
- The first team that cannot move loses.

Option: ``n``, players a side, 1 to 15 (default 11, the contest's). A move is the number of the
square (1 to ``2n + 1``, numbered from the left as on the course's board) of the piece that
moves; ``legal_moves`` lists them ascending, as the course's ``valid_moves`` does.

The course's API, translated to Python, is here too (thin facades over the same rules): a game
is a dict ``{"board": [...], "turn": 1}`` with 1 for Michigan, -1 for Ohio and 0 for an empty
square; ``new_game``, ``whose_turn``, ``valid_moves``, ``make_move``, ``print_game``,
``play_game`` and ``play_repeatedly`` behave as the course's R functions (see each docstring).
A strategy written for the course, a function of a game in which Michigan is to move returning
a square, runs unchanged.
"""

from __future__ import annotations

import random
import sys
import time
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from games.base import Commentator, Event, Game, IllegalMove, Option, Result, Side, State

__all__ = [
    "DFootball",
    "FootballState",
    "FootballEvent",
    "MICHIGAN",
    "OHIO",
    "EMPTY",
    "TEAMS",
    "board_moves",
    "apply_move",
    "new_game",
    "whose_turn",
    "valid_moves",
    "make_move",
    "heading",
    "cell_classes",
    "game_text",
    "print_game",
    "normalize",
    "play_game",
    "play_repeatedly",
    "TIME_LIMIT_NS",
]

MICHIGAN = 1
OHIO = -1
EMPTY = 0
TEAMS = ("michigan", "ohio")
"""The course's team names, as ``whose_turn`` and ``play_game`` return them."""

TIME_LIMIT_NS = 100_000_000
"""The contest's limit per move: a strategy taking longer than 100 ms forfeits."""


# -- the rules on a plain board ------------------------------------------------------------------
# A board is a sequence of 1 / 0 / -1, index 0 being square 1. ``team`` is 1 or -1.

def board_moves(board: Sequence[int], team: int) -> list[int]:
    """The squares (1-based, ascending) whose ``team`` piece can step or jump."""
    size = len(board)
    moves = []
    for i, piece in enumerate(board):
        if piece != team:
            continue
        ahead = i + team
        if not 0 <= ahead < size:
            continue
        if board[ahead] == EMPTY:
            moves.append(i + 1)
        elif board[ahead] == -team:
            beyond = ahead + team
            if 0 <= beyond < size and board[beyond] == EMPTY:
                moves.append(i + 1)
    return moves


def apply_move(board: Sequence[int], team: int, square: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Move ``team``'s piece on ``square`` (assumed valid). Returns the new board and the squares
    the piece passed: ``(from, to)`` for a step, ``(from, jumped, to)`` for a jump (1-based)."""
    new = list(board)
    i = square - 1
    ahead = i + team
    new[i] = EMPTY
    if board[ahead] == EMPTY:
        new[ahead] = team
        return tuple(new), (square, square + team)
    new[ahead] = EMPTY
    new[ahead + team] = team
    return tuple(new), (square, square + team, square + 2 * team)


def _team_of(side: int) -> int:
    return MICHIGAN if side == 0 else OHIO


def _side_of(team: int) -> int:
    return 0 if team == MICHIGAN else 1


# -- the protocol ---------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class FootballState(State):
    """A position: ``board`` holds 1 (Michigan), 0 (empty) or -1 (Ohio) for squares 1..2n+1."""

    board: tuple[int, ...]

    @property
    def team(self) -> int:
        """The course's ``turn`` of the side to move: 1 for Michigan, -1 for Ohio."""
        return _team_of(self.to_move)

    def pieces(self, side: int) -> int:
        """How many players ``side`` still has on the board."""
        return self.board.count(_team_of(side))


@dataclass(frozen=True)
class FootballEvent(Event):
    """A move: ``squares`` the piece passed (from, [jumped,] to; 1-based), the ``jumped`` square
    and ``jumped_side`` when it took a piece (the board draws that piece's ghost for one turn),
    and ``choices``, how many moves the mover had (1 means the move was forced)."""

    squares: tuple[int, ...] = ()
    jumped: int | None = None
    jumped_side: int | None = None
    choices: int = 0

    @property
    def is_jump(self) -> bool:
        return self.jumped is not None

    @property
    def forced(self) -> bool:
        return self.choices == 1


class DFootball(Game):
    """One-dimensional football with ``n`` players a side."""

    id = "dfootball"
    title = "D-Football"
    blurb = "One-dimensional football: step or jump past the other team (STATS 306)."
    sides = (Side("Michigan", "M"), Side("Ohio", "O"))
    options = (
        Option("n", "Players a side", 11, minimum=1, maximum=15,
               help="players per team; the board has 2n+1 squares (the contest used 11)"),
    )

    @property
    def n(self) -> int:
        return self.settings["n"]

    @property
    def squares(self) -> int:
        return 2 * self.n + 1

    def initial_state(self) -> FootballState:
        return self.state_from_board(tuple([MICHIGAN] * self.n + [EMPTY] + [OHIO] * self.n), 0)

    def max_game_length(self) -> int:
        """``n(3n + 1)``: pieces never move back. Count every piece's squares left to the far
        edge: a Michigan player on square ``i`` has ``2n + 1 - i``, an Ohio player on ``i`` has
        ``i - 1``, so the start has ``n(3n + 1)/2`` a side. A step takes one square off the
        count, a jump two (and the jumped piece's own squares with it), and the count never goes
        below 0."""
        return self.n * (3 * self.n + 1)

    def state_from_board(self, board: Sequence[int], to_move: int, ply: int = 0) -> FootballState:
        """A state with this board and side to move (its result filled in if that side is stuck)."""
        board = tuple(int(x) for x in board)
        if len(board) != self.squares or any(x not in (MICHIGAN, EMPTY, OHIO) for x in board):
            raise ValueError(f"a board for n={self.n} has {self.squares} squares of 1, 0 or -1")
        result = None
        if not board_moves(board, _team_of(to_move)):
            result = self._result(to_move)
        return FootballState(to_move=to_move, board=board, ply=ply, result=result)

    def _result(self, loser: int) -> Result:
        name = self.sides[loser].name
        other = self.sides[1 - loser].name
        return Result(1 - loser, f"{name} cannot move: {name} loses, {other} wins!")

    def move_label(self, state: FootballState, move: int) -> str:
        """``14→13`` for the player on 14 stepping to 13, ``14→12 jump`` for a jump (the course's
        move is the square of the player moved: the files and the parser keep it)."""
        if move not in self.legal_moves(state):  # not a move of this position: as it was given
            return str(move)
        _board, passed = apply_move(state.board, state.team, move)
        return f"{passed[0]}→{passed[-1]}" + (" jump" if len(passed) == 3 else "")

    def legal_moves(self, state: FootballState) -> list[int]:
        if state.result is not None:
            return []
        return board_moves(state.board, state.team)

    def play(self, state: FootballState, move: int) -> FootballState:
        if state.result is not None:
            raise IllegalMove("the game is over")
        legal = board_moves(state.board, state.team)
        if isinstance(move, bool) or not isinstance(move, int) or move not in legal:
            raise IllegalMove(_invalid_text(move, _side_of(state.team), legal, state.board))
        mover = state.to_move
        team = state.team
        board, passed = apply_move(state.board, team, move)
        name = self.sides[mover].name
        jumped = jumped_side = None
        if len(passed) == 3:
            jumped, jumped_side = passed[1], 1 - mover
            text = f"{name} jumps {passed[0]}→{passed[2]}, taking the {self.sides[1 - mover].name} player on {jumped}"
        else:
            text = f"{name} moves {passed[0]}→{passed[1]}"
        if len(legal) == 1:
            text += " (forced)"
        nxt = 1 - mover
        result = None if board_moves(board, -team) else self._result(nxt)
        return FootballState(
            to_move=nxt,
            board=board,
            ply=state.ply + 1,
            event=FootballEvent(mover, move, text, squares=passed, jumped=jumped,
                                jumped_side=jumped_side, choices=len(legal)),
            result=result,
        )

    def parse_move(self, state: FootballState, text: str) -> int:
        try:
            square = int(text.strip())
        except ValueError:
            raise IllegalMove(f"{text!r} is not a square number (1 to {self.squares})") from None
        legal = self.legal_moves(state)
        if square not in legal:
            raise IllegalMove(_invalid_text(square, state.to_move, legal, state.board))
        return square

    def describe(self, state: FootballState) -> str:
        if state.result is not None:
            return state.result.reason
        return f"{self.sides[state.to_move].name} to move"

    def score_text(self, state: FootballState, side: int) -> str:
        left = state.pieces(side)
        return f"{left} player{'s' if left != 1 else ''}"

    def commentator(self) -> Commentator:
        return FootballCommentator()


class FootballCommentator(Commentator):
    """Announces each move, calling out jumps and forced moves, then the result."""

    def see(self, state: State) -> list[str]:
        lines: list[str] = []
        event = state.event
        if isinstance(event, FootballEvent):
            lines.append(event.text)
        elif event is not None and event.text:
            lines.append(event.text)
        if state.result is not None:
            lines.append(state.result.reason)
        return lines


def _invalid_text(move: Any, side: int, legal: Sequence[int], board: Sequence[int]) -> str:
    team = TEAMS[side]
    valid = ", ".join(map(str, legal)) or "none"
    if isinstance(move, int) and not isinstance(move, bool) and not 1 <= move <= len(board):
        return f"square {move} is off the board (squares 1 to {len(board)}); valid moves for {team}: {valid}"
    return f"{move!r} is not a valid move for {team}; valid moves: {valid}"


# -- the course's API ---------------------------------------------------------------------------

def _check_game(game: Mapping[str, Any]) -> tuple[list[int], int]:
    try:
        board = [int(x) for x in game["board"]]
        turn = int(game["turn"])
    except (KeyError, TypeError, ValueError):
        raise ValueError("a game is a dict with a 'board' list of 1/0/-1 and a 'turn' of 1 or -1") from None
    if turn not in (MICHIGAN, OHIO) or any(x not in (MICHIGAN, EMPTY, OHIO) for x in board):
        raise ValueError("a game's board holds 1 (Michigan), 0 or -1 (Ohio) and its turn is 1 or -1")
    return board, turn


def new_game(n: int = 11) -> dict[str, Any]:
    """``n`` Michigan players, an empty square, ``n`` Ohio players; Michigan to move."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive whole number of players, not {n!r}")
    return {"board": [MICHIGAN] * n + [EMPTY] + [OHIO] * n, "turn": MICHIGAN}


def whose_turn(game: Mapping[str, Any]) -> str:
    """``"michigan"`` or ``"ohio"``."""
    _board, turn = _check_game(game)
    return TEAMS[_side_of(turn)]


def valid_moves(game: Mapping[str, Any]) -> list[int]:
    """The squares (1-based, ascending) whose piece of the team to move can move; ``[]`` if none."""
    board, turn = _check_game(game)
    return board_moves(board, turn)


def make_move(game: Mapping[str, Any], square: int) -> dict[str, Any]:
    """A new game after the piece on ``square`` moves: turn flipped, and ``last_move`` the squares
    it passed (``[from, to]`` for a step, ``[from, jumped, to]`` for a jump). Raises
    ``IllegalMove`` (a ``ValueError``) naming the valid squares if ``square`` is not one."""
    board, turn = _check_game(game)
    legal = board_moves(board, turn)
    if not _is_square(square) or int(square) not in legal:
        raise IllegalMove(_invalid_text(square, _side_of(turn), legal, board))
    new_board, passed = apply_move(board, turn, int(square))
    return {"board": list(new_board), "turn": -turn, "last_move": list(passed)}


def _is_square(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    try:
        return float(value).is_integer()
    except (TypeError, ValueError):
        return False


def heading(game: Mapping[str, Any]) -> str:
    """``print_game``'s heading: ``"Michigan to move"``, or ``"Ohio loses!"`` when stuck."""
    board, turn = _check_game(game)
    name = TEAMS[_side_of(turn)].capitalize()
    return f"{name} to move" if board_moves(board, turn) else f"{name} loses!"


def cell_classes(game: Mapping[str, Any]) -> list[str]:
    """The CSS classes ``print_game`` gives each square: the piece (``michigan``/``empty``/
    ``ohio``), ``last`` on the squares of the last move, and ``<team>-faint`` on the square of a
    piece jumped on the last move (its ghost)."""
    board, turn = _check_game(game)
    last = list(game.get("last_move") or [])
    classes = []
    for square, piece in enumerate(board, start=1):
        cls = {MICHIGAN: "michigan", EMPTY: "empty", OHIO: "ohio"}[piece]
        if square in last:
            cls += " last"
        if len(last) == 3 and square == last[1]:
            cls += f" {TEAMS[_side_of(turn)]}-faint"
        classes.append(cls)
    return classes


def game_text(game: Mapping[str, Any]) -> str:
    """The game as ``print_game`` shows it, in text: the heading, a row of squares (``M``/``O``,
    ``·`` empty, ``m``/``o`` the faint ghost of a jumped piece, last-move squares in ``[ ]``),
    and the square numbers beneath, valid ones marked with ``*``."""
    board, turn = _check_game(game)
    valid = set(board_moves(board, turn))
    classes = cell_classes(game)
    width = max(3, len(str(len(board))) + 2)
    top, numbers = [], []
    for square, cls in enumerate(classes, start=1):
        parts = cls.split()
        glyph = {"michigan": "M", "ohio": "O", "empty": "·"}[parts[0]]
        if "michigan-faint" in parts:
            glyph = "m"
        elif "ohio-faint" in parts:
            glyph = "o"
        cell = f"[{glyph}]" if "last" in parts else f" {glyph} "
        top.append(cell.center(width))
        num = f"{square}*" if square in valid else str(square)
        numbers.append(num.center(width))
    return "\n".join([heading(game), "".join(top).rstrip(), "".join(numbers).rstrip()])


def print_game(game: Mapping[str, Any], file=None) -> None:
    """Print ``game_text(game)`` (the course's ``print_game`` draws HTML in a notebook)."""
    print(game_text(game), file=file if file is not None else sys.stdout)
    print(file=file if file is not None else sys.stdout)


def normalize(game: Mapping[str, Any]) -> dict[str, Any]:
    """The game as the side to move sees it in ``play_game``: unchanged for Michigan; for Ohio the
    board reversed and negated with turn 1 (a square ``m`` there is ``2n + 2 - m`` on the board)."""
    board, turn = _check_game(game)
    out: dict[str, Any] = {"board": list(board), "turn": MICHIGAN}
    last = game.get("last_move")
    if turn == OHIO:
        size = len(board)
        out["board"] = [-x for x in reversed(board)]
        if last:
            out["last_move"] = [size + 1 - s for s in last]
    elif last:
        out["last_move"] = list(last)
    return out


Strategy = Callable[[dict], Any]


def play_game(mi_strategy: Strategy, oh_strategy: Strategy, n: int = 5, disp: bool = False,
              clock: Callable[[], int] = time.perf_counter_ns) -> str:
    """Play one game and return the winner, ``"michigan"`` or ``"ohio"``, as the course does.

    Each strategy gets the game from Michigan's side (``normalize``) and returns a square there.
    The side to move with no valid move loses. A strategy that raises, takes more than 100 ms, or
    returns a square that is not valid forfeits the game, with the course's warnings
    ``"<team> strategy produced an error"``, ``"<team> strategy took >100ms to return a move"``
    and ``"<team> strategy returned an invalid move"``. With ``disp`` each position is printed
    (as text); like the course, it refuses for ``n > 5`` with a warning.
    """
    game = new_game(n)
    size = 2 * n + 1
    if disp and n > 5:
        warnings.warn("Refusing to display output for n > 5", stacklevel=2)
        disp = False
    if disp:
        print_game(game)
    strategies = {MICHIGAN: mi_strategy, OHIO: oh_strategy}
    while True:
        turn = game["turn"]
        team = TEAMS[_side_of(turn)]
        if not valid_moves(game):
            return TEAMS[_side_of(-turn)]
        seen = normalize(game)
        legal = valid_moves(seen)
        start = clock()
        try:
            move = strategies[turn](seen)
        except Exception:  # noqa: BLE001 - the course forfeits on any error
            warnings.warn(f"{team} strategy produced an error", stacklevel=2)
            return TEAMS[_side_of(-turn)]
        if clock() - start > TIME_LIMIT_NS:
            warnings.warn(f"{team} strategy took >100ms to return a move", stacklevel=2)
            return TEAMS[_side_of(-turn)]
        if not _is_square(move) or int(move) not in legal:
            warnings.warn(f"{team} strategy returned an invalid move", stacklevel=2)
            return TEAMS[_side_of(-turn)]
        square = int(move) if turn == MICHIGAN else size + 1 - int(move)
        game = make_move(game, square)
        if disp:
            print_game(game)


def play_repeatedly(strategy1: Strategy, strategy2: Strategy, k: int = 100, n: int = 5,
                    seed: int | None = 1) -> dict[str, int]:
    """Play ``2k`` games, each strategy Michigan ``k`` times; return ``{"strategy1": wins,
    "strategy2": wins}``. Like the course's final version it seeds the global random generator
    first (``seed=1``; pass ``None`` not to), which the course-style ``random_move`` draws from."""
    if seed is not None:
        random.seed(seed)
    wins = {"strategy1": 0, "strategy2": 0}
    for _ in range(k):
        if play_game(strategy1, strategy2, n) == "michigan":
            wins["strategy1"] += 1
        else:
            wins["strategy2"] += 1
        if play_game(strategy2, strategy1, n) == "michigan":
            wins["strategy2"] += 1
        else:
            wins["strategy1"] += 1
    return wins
