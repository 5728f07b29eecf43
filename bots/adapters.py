"""Each game's course signature for a student's bot, and the conversions on both sides of the pipe.

A file bot (``path/to/file.py:function``, see ``bots.external``) is written in the course's own
signature for its game. An ``Adapter`` turns one of our states into the course's arguments (plain
JSON values, so that they cross the pipe to the bot's process), builds the course's objects from
them inside that process, calls the function, checks the answer's type there, and turns the
answer back into our move in the arcade's process, saying what was wrong with an invalid one.

The signatures (``ADAPTERS[game_id].signature``), each named as its contest named the function:
the names a spec without ``:function`` looks for, first to last, are ``default_functions``.

``toothpicks``  ``strategy(toothpicks_left) -> take``
    ``toothpicks_left`` is an ``int``; the answer an ``int``, 1 to the largest take (2 unless the
    game's option says otherwise) and at most what is left. The argument is the notebook's
    ``Board`` too (``games.toothpicks.Board``: ``the_board.state`` the toothpicks left,
    ``the_board.move_set`` the takes allowed), and a file may be the notebook's ``Player`` class
    (``file.py`` alone finds ``Player`` when there is no ``strategy``; ``file.py:MyPlayer`` names
    another): its ``move(the_board)`` plays, on a ``Player()`` (or on the class, for the notebook's
    own ``def move(the_board)`` without ``self``).

``hog``  ``final_strategy(score, opponent_score) -> dice``
    The contest's ``final_strategy`` (a file with only ``strategy`` plays that). The two totals,
    the mover's first, as the course's ``play`` calls a strategy; the answer an ``int`` from 0
    to 10.

``dfootball``  ``my_strategy(game) -> square``
    The notebook's ``my_strategy`` (a file with only ``strategy`` plays that). ``game`` is the
    course's game dict ``{"board": [...], "turn": 1}`` (1 Michigan, -1 Ohio, 0 empty; with
    ``"last_move"`` after the first move) *normalised as the course's* ``play_game`` *does*:
    Michigan is always the one to move, so when Ohio moves the board is reversed and negated.
    The answer is a square number in that normalised board (a whole number: ``3`` and ``3.0``
    both do, as R's numbers did); a square that ``valid_moves(game)`` does not list is an
    invalid move.

``ludo``  ``engine(board, turn, roll) -> move``
    ``board`` is the notebook's ``Board`` dataclass (``games.ludo.Board``: ``counters``,
    ``length``, ``safe``, ``red``, ``blue``, ``redpen``, ``bluepen``), ``turn`` 0 (Red) or 1
    (Blue), ``roll`` 1..6; the answer the notebook's move tuple ``(turn, position, steps)``
    (a list does too): ``(turn, 0, 0)`` enters a counter on a 6, ``(turn, -1, -1)`` passes.
    The readme's ``engine`` (a file with only its template's ``your_engine`` plays that).

``othello``  ``strategy(board, player) -> move``
    The board form: ``board`` is a list of 8 rows, each a list of 8 one-letter strings with the
    course referee's letters: ``"B"`` a blue disc, ``"O"`` an orange disc, ``"*"`` empty.
    ``board[r][c]`` is the square in column ``"ABCDEFGH"[c]`` and row ``r + 1``, so the course's
    ``E3`` is ``board[2][4]`` (row 1 is the bottom row, printed last by the referee).
    ``player`` is the mover's letter, ``"B"`` (blue, moves first) or ``"O"``. The answer is the
    square's name as the course writes it, ``"E3"`` or ``"E 3"`` (any case), or ``"P"`` to pass
    when there is no move; a pair ``("E", 3)`` does too.

A spec's function may be an object's method built with literal arguments, as a course's own
script builds it (``path.py:TDPlayer(color=0).make_a_move``: ``bots.external.entry``).

The default time per move is the course's where it has one (100 ms in D-Football; Othello the
game's ``time_limit`` option, 10 s as in the course) and ``DEFAULT_TIME_LIMIT`` (1 s) otherwise.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, Sequence

DEFAULT_TIME_LIMIT = 1.0
"""Seconds a move for games whose course set no limit (Toothpick Takeaway, Hog, Robot Ludo)."""


class WrongAnswer(Exception):
    """The bot's answer is not a move of the right form or not legal; the message says why."""


def whole_number(value: Any, what: str = "a whole number") -> int:
    """``value`` as an ``int`` if it is a whole number (``int``, numpy integer, ``3.0``), not a bool."""
    if isinstance(value, bool):
        raise WrongAnswer(f"{value!r} is a bool, not {what}")
    try:
        return operator.index(value)
    except TypeError:
        pass
    if isinstance(value, float) and value.is_integer():
        return int(value)
    try:  # numpy floats and the like
        number = float(value)
    except (TypeError, ValueError):
        raise WrongAnswer(f"{value!r} (a {type(value).__name__}) is not {what}") from None
    if number.is_integer() and not isinstance(value, str):
        return int(number)
    raise WrongAnswer(f"{value!r} (a {type(value).__name__}) is not {what}")


class Adapter:
    """One game's course signature. Subclasses fill in the four conversions.

    ``default_functions``: the names a file bot's function is looked up by when its spec names
    none, first to last, as the contest called it (``final_strategy``, else ``strategy``, in
    Hog); ``default_function`` is the first, the name a spec stands for without ``:function``.
    """

    game_id = ""
    signature = ""
    default_functions: tuple[str, ...] = ("strategy",)
    player_method: str | None = None
    """The method by which the course's own player class plays (the notebook's ``Player.move``),
    when it has one: a class named as the bot is made and plays by it (``from_class``)."""

    @property
    def default_function(self) -> str:
        """The contest's name for the function: what ``file.py`` alone means."""
        return self.default_functions[0]

    def find_function(self, module: Any, name: str) -> Any:
        """In the bot's process: the attribute ``name`` of the loaded ``module``, or, when
        ``name`` is the default one and the file has none, the first of the other default names
        that it has (a Hog file with only ``strategy``); ``None`` if there is none."""
        found = getattr(module, name, None)
        if found is None and name == self.default_function:
            for other in self.default_functions[1:]:
                found = getattr(module, other, None)
                if found is not None:
                    break
        return found

    def from_class(self, cls: type) -> Callable:
        """In the bot's process: the function that plays for the player class ``cls``, its
        ``player_method``: on the class itself when that method takes one argument and no
        ``self`` (the notebook's ``def move(the_board)``), else on ``cls()``. ``TypeError`` (one
        line) when it has no such method or cannot be made without arguments."""
        import inspect

        name = self.player_method or ""
        method = inspect.getattr_static(cls, name, None)
        if method is None:
            raise TypeError(f"class {cls.__name__} has no method {name!r} to play with")
        if isinstance(method, (staticmethod, classmethod)) or _takes_one(method):
            return getattr(cls, name)
        try:
            player = cls()
        except TypeError as exc:
            raise TypeError(f"{cls.__name__}() cannot be made without arguments ({exc}): name it with them, "
                            f"file.py:{cls.__name__}(...).{name}") from None
        return getattr(player, name)

    def usage(self) -> str:
        """A line on a file bot for this game: the spec, the signature and the default names."""
        default = ", else ".join(self.default_functions)
        return (f"your own: path/to/file.py[:function] (or a notebook, .ipynb), {self.signature} "
                f"(without :function: {default})")

    def time_limit(self, game) -> float:
        """The default seconds per move for this game (with its options): the one owner of each
        game's default; ``bots.limits.move_time`` falls back on it when a run sets no time."""
        return DEFAULT_TIME_LIMIT

    # -- in the arcade's process -----------------------------------------------------------
    def request(self, game, state) -> list:
        """The course's arguments for ``state`` as JSON values."""
        raise NotImplementedError

    def to_move(self, game, state, answer: Any) -> Any:
        """Our move for the (JSON) ``answer``; ``WrongAnswer`` if it is not a legal move."""
        raise NotImplementedError

    # -- in the bot's process ---------------------------------------------------------------
    def call(self, fn: Callable, args: list) -> Any:
        """Build the course's objects from ``args`` and call the student's function."""
        return fn(*args)

    def answer(self, value: Any) -> Any:
        """The function's return value as a JSON value; ``WrongAnswer`` for a wrong type."""
        return whole_number(value)


def _takes_one(function: Any) -> bool:
    """Whether ``function`` (a class's plain function) takes exactly one positional argument:
    then it has no ``self`` and is called on the class (the notebook's ``def move(the_board)``)."""
    import inspect

    if not inspect.isfunction(function):
        return False
    kinds = [p.kind for p in inspect.signature(function).parameters.values() if p.default is p.empty]
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(kind in positional for kind in kinds) == 1 and inspect.Parameter.VAR_POSITIONAL not in kinds


def _check_in(move: Any, legal: Sequence, shown: str, legal_text: str) -> Any:
    if move not in legal:
        raise WrongAnswer(f"{shown} is not a legal move here; legal: {legal_text}")
    return move


class ToothpicksAdapter(Adapter):
    game_id = "toothpicks"
    signature = "strategy(toothpicks_left) -> take"
    default_functions = ("strategy", "Player")  # the function; else the notebook's Player class
    player_method = "move"  # the notebook's Player.move(the_board)

    def request(self, game, state) -> list:
        return [state.left, game.max_take]

    def call(self, fn: Callable, args: list) -> Any:
        from games.toothpicks import Board

        return fn(Board(*args))  # the count itself, and the notebook's Board (.state, .move_set)

    def to_move(self, game, state, answer: Any) -> int:
        legal = game.legal_moves(state)
        return _check_in(answer, legal, f"taking {answer!r}", ", ".join(map(str, legal)))


class HogAdapter(Adapter):
    game_id = "hog"
    signature = "final_strategy(score, opponent_score) -> dice"
    default_functions = ("final_strategy", "strategy")  # the contest's name; the simpler one

    def request(self, game, state) -> list:
        me = state.to_move
        return [state.scores[me], state.scores[1 - me]]

    def to_move(self, game, state, answer: Any) -> int:
        if not 0 <= answer <= 10:
            raise WrongAnswer(f"rolling {answer} dice is not a legal move: choose 0 to 10")
        return answer


class DFootballAdapter(Adapter):
    game_id = "dfootball"
    signature = "my_strategy(game) -> square"
    default_functions = ("my_strategy", "strategy")  # the notebook's function to fill in; its word

    def time_limit(self, game) -> float:
        return 0.1  # the contest's: "took >100ms to return a move"

    def request(self, game, state) -> list:
        from games.dfootball import normalize

        course = {"board": list(state.board), "turn": state.team}
        squares = getattr(state.event, "squares", None)
        if squares:
            course["last_move"] = list(squares)
        return [normalize(course)]

    def to_move(self, game, state, answer: Any) -> int:
        from games.dfootball import OHIO, normalize, valid_moves

        seen = normalize({"board": list(state.board), "turn": state.team})
        legal = valid_moves(seen)
        if answer not in legal:
            shown = ", ".join(map(str, legal))
            raise WrongAnswer(f"square {answer} is not a valid move; valid moves: {shown}")
        return len(state.board) + 1 - answer if state.team == OHIO else answer


class LudoAdapter(Adapter):
    game_id = "ludo"
    signature = "engine(board, turn, roll) -> move"
    default_functions = ("engine", "your_engine")  # the readme's word; its template's name

    def request(self, game, state) -> list:
        from dataclasses import asdict

        return [asdict(game.board(state)), state.turn, state.roll]

    def call(self, fn: Callable, args: list) -> Any:
        from games.ludo import Board

        board, turn, roll = args
        return fn(Board(**board), turn, roll)

    def answer(self, value: Any) -> list[int]:
        if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or len(value) != 3:
            raise WrongAnswer(f"{value!r} is not a move: a move is a tuple (turn, position, steps)")
        return [whole_number(x, "a whole number in a move (turn, position, steps)") for x in value]

    def to_move(self, game, state, answer: Any) -> tuple[int, int, int]:
        move = tuple(answer)
        legal = game.legal_moves(state)
        return _check_in(move, legal, repr(move), ", ".join(map(repr, legal)))


OTHELLO_LETTERS = ("B", "O")


class OthelloAdapter(Adapter):
    game_id = "othello"
    signature = "strategy(board, player) -> move"

    def time_limit(self, game) -> float:
        return float(game.time_limit)

    def request(self, game, state) -> list:
        board = []
        for row in range(8):
            cells = []
            for col in range(8):
                disc = state.at(row * 8 + col)
                cells.append("*" if disc is None else OTHELLO_LETTERS[disc])
            board.append(cells)
        return [board, OTHELLO_LETTERS[state.to_move]]

    def answer(self, value: Any) -> str:
        if isinstance(value, (tuple, list)) and len(value) == 2:
            column, row = value
            if not isinstance(column, str):
                raise WrongAnswer(f"{value!r} is not a move: write a square like 'E3', or ('E', 3)")
            return f"{column}{whole_number(row, 'a row number')}"
        if not isinstance(value, str):
            raise WrongAnswer(f"{value!r} (a {type(value).__name__}) is not a move: write a square like 'E3', or 'P'")
        return value

    def to_move(self, game, state, answer: Any) -> int:
        from games.othello import move_problem, parse_square, square_name

        move = parse_square(str(answer))
        if move is None:
            raise WrongAnswer(f"{answer!r} is not a square: a column A–H and a row 1–8, like E3, or P to pass")
        if move not in game.legal_moves(state):
            p, o = state.mover_bits()
            raise WrongAnswer(f"{square_name(move)}: {move_problem(p, o, move)}")
        return move


ADAPTERS: dict[str, Adapter] = {
    adapter.game_id: adapter
    for adapter in (DFootballAdapter(), ToothpicksAdapter(), OthelloAdapter(), LudoAdapter(), HogAdapter())
}


def adapter_for(game_id: str) -> Adapter:
    try:
        return ADAPTERS[game_id]
    except KeyError:
        raise KeyError(f"no course signature for {game_id!r}; games with one: {', '.join(ADAPTERS)}") from None
