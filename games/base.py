"""The one game protocol that all five games implement.

This module is the reference a new game's author reads. The app (``arcade/``), the match
runner, the property tests and every bot are written once against it.

The pieces
==========

``Game``
    The rules of one game, configured with its options (``Toothpicks(count=12)``). A ``Game`` is
    immutable and holds no position: it is a bundle of pure functions over ``State`` objects.
    Class attributes describe the game: ``id``, ``title``, ``blurb`` (one line for the menu),
    ``sides`` (exactly two ``Side`` objects) and ``options`` (``Option`` objects with defaults
    and bounds).

``State``
    An immutable position. Every state says whose turn it is (``to_move``: ``0`` or ``1`` for
    the two sides, ``CHANCE`` for a chance step), the ``result`` when the game is over, the
    ``event`` that led to it (``None`` for the start) and the ``ply`` (moves and chance steps
    played so far). A game subclasses ``State`` with its own fields (a board tuple, a score
    pair, ...). States are frozen dataclasses: hashable and safe to share with worker threads.

Moves
    Any hashable, immutable value the game chooses: an ``int`` for a toothpick take, a square
    number in D-Football, a square index or ``PASS`` in Othello, a ``(turn, position, steps)``
    tuple in Robot Ludo, a number of dice in Hog. ``legal_moves`` lists them in a fixed,
    documented order; ``move_text``/``parse_move`` give the one text form the UI, logs and the
    command line share (``E3`` and ``P`` in Othello).

Chance steps
    Randomness is never hidden inside ``play``. Where the rules roll a die, the state after the
    choice is a chance state (``to_move == CHANCE``) and the roll is a move of its own, an
    *outcome*: ``legal_moves`` of a chance state lists the outcomes and ``chance_outcomes``
    gives each with its probability (exact ``Fraction``s), so that expectimax and dynamic
    programming bots can use them. Where the outcomes are too many to list (Hog's ten dice have
    6**10 faces), ``chance_outcomes`` returns ``None`` and ``sample_chance(state, rng)`` draws
    one from the injected ``random.Random``; such a game documents the distribution its exact
    bots use instead. Either way a test or a snapshot fixes the dice by playing chosen outcomes.

    How each game uses it:

    - Robot Ludo: the die is rolled *before* the move: a chance state whose outcomes are 1..6,
      then the mover chooses among the moves that roll allows.
    - Hog: the mover chooses the number of dice, then a chance state rolls them (outcome: the
      tuple of faces); the same side may move again (More Boar's extra turn): ``to_move`` simply
      says so, nothing assumes that turns alternate.
    - Othello: no chance; a side with no legal move has exactly one legal move, ``PASS``.
    - D-Football and Toothpick Takeaway: no chance; a side with no legal move has lost, and the
      state already carries that result.

``Event``
    What a move did, recorded on the state it produced: the side that moved, the move, and a
    one-line ``text`` for commentary and logs. A game subclasses it with the facts its board
    highlights (squares passed, a jumped piece, flipped discs, cut counters, dice faces, points,
    an extra turn, a pass). Board widgets draw the last-move marker from ``state.event`` alone;
    commentary is a function of the stream of events (see ``Commentator``).

``Result``
    ``winner`` (``0``, ``1`` or ``None`` for a draw), a ``reason`` sentence, and how the game
    ended, a ``Termination`` (like python-chess's ``Outcome``): by the rules, by a forfeit of the
    loser (an error, the time, an invalid move, a crash, the memory cap), or drawn by a rule of
    play (a move cap).

``Analysis``
    An engine's look at one position for the game screen's analysis view: the recommended move,
    a value or a win/loss verdict, and lines of text. The game's bots make it
    (``analyse(game, state)``, found by ``bots.registry.analyser_for``) in a worker thread; the
    board draws it. It lives here so that boards, which import only ``games``, can name it.

The contract, checked for every game by the property tests
----------------------------------------------------------
- ``initial_state()`` is not over and ``legal_moves`` of a state that is not over is non-empty;
  of a finished state it is empty.
- ``play(state, move)`` returns a new state and leaves ``state`` untouched; a move that is not
  in ``legal_moves(state)`` raises ``IllegalMove`` with a message a player can read.
- ``play(state, m).ply == state.ply + 1`` and the new state's ``event`` describes ``m``.
- Every game ends: random play from the start reaches a result within ``max_game_length()``
  plies (moves and chance steps), the game's own longest game, as OpenSpiel's
  ``max_game_length``. A game without chance proves it from its rules; a game whose dice can
  prolong it without end (Robot Ludo) declares a safety cap that play never comes near.
- ``parse_move(state, move_text(state, m)) == m`` for every legal ``m``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any, ClassVar, Hashable, Mapping, Sequence

CHANCE = -1
"""``State.to_move`` of a chance step: the next move is an outcome of the dice."""

Move = Hashable


class GameError(Exception):
    """Base class of the errors a game raises; the message is written for a player."""


class IllegalMove(GameError, ValueError):
    """A move that is not legal in the state it was played in."""


class OptionError(GameError, ValueError):
    """An option name or value that the game does not accept."""


@dataclass(frozen=True)
class Side:
    """One of the two sides.

    ``name`` is what the screen and logs call it ("Blue", "Michigan", "Player 1"); ``symbol`` is
    a one-character marker that does not rely on colour. Colours are the boards' to choose
    (``arcade.boards.base.SIDE_COLOURS``), not the rules'.
    """

    name: str
    symbol: str


@dataclass(frozen=True)
class Option:
    """A game option: an integer within bounds, a choice, or a list of integers.

    ``kind`` is ``"int"``, ``"float"`` (e.g. a time limit in seconds), ``"choice"`` or ``"ints"``
    (a comma-separated list, e.g. Ludo's extra safe squares). ``minimum``/``maximum`` bound an int (and every item of ``ints``); ``even``
    asks for an even int; ``choices`` lists a choice's values.
    """

    key: str
    label: str
    default: Any
    kind: str = "int"
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: tuple[str, ...] = ()
    even: bool = False
    help: str = ""
    presets: tuple[tuple[str, Any], ...] = ()
    """Named values the setup screen offers as one choice each (``(label, value)``); the first
    is where a casual game starts, ``default`` stays the contest's (command line, matches)."""
    below: str = ""
    """The key of another option whose value bounds this one's from above (Ludo's extra safe
    squares are below the track's ``length``): ``bounds_text`` says so given the settings."""

    def bounds_text(self, settings: dict[str, Any] | None = None) -> str:
        """A short description of the accepted values, e.g. ``1–99`` or ``even, 6–40``; with
        ``settings``, an option bounded ``below`` another one says its current range."""
        if self.kind == "choice":
            return " / ".join(self.choices)
        span = ""
        maximum = self.maximum
        if self.below and settings is not None and isinstance(settings.get(self.below), int):
            maximum = min(maximum, settings[self.below] - 1) if maximum is not None else settings[self.below] - 1
        if self.minimum is not None and maximum is not None:
            span = f"{self.minimum}–{maximum}"
        if self.kind == "ints":
            return f"comma-separated, each {span}" if span else "comma-separated"
        return f"even, {span}" if self.even else span

    def parse(self, value: Any) -> Any:
        """Convert ``value`` (text from the CLI or a field, or a Python value) and check it.

        Raises ``OptionError`` naming the option and its bounds.
        """
        problem = f"option {self.key!r} must be {self.bounds_text() or self.kind}, not {value!r}"
        if self.kind == "choice":
            if str(value) not in self.choices:
                raise OptionError(problem)
            return str(value)
        if self.kind == "ints":
            if isinstance(value, str):
                parts = [p for p in value.replace(" ", "").split(",") if p]
            else:
                parts = list(value)
            try:
                items = tuple(sorted({int(p) for p in parts}))
            except (TypeError, ValueError):
                raise OptionError(problem) from None
            for item in items:
                self._check_number(item, problem)
            return items
        if self.kind == "float":
            try:
                number = float(value)
            except (TypeError, ValueError):
                raise OptionError(problem) from None
            if not -float("inf") < number < float("inf"):  # NaN and infinity are no value for an option
                raise OptionError(problem)
            self._check_number(number, problem)
            return number
        try:
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError
            number = int(value)
        except (TypeError, ValueError):
            raise OptionError(problem) from None
        self._check_number(number, problem)
        if self.even and number % 2:
            raise OptionError(problem)
        return number

    def _check_number(self, number: float, problem: str) -> None:
        if self.minimum is not None and number < self.minimum:
            raise OptionError(problem)
        if self.maximum is not None and number > self.maximum:
            raise OptionError(problem)


class Termination(str, Enum):
    """How a game ended. Games end ``NORMAL``ly; the others come from whoever runs the game (the
    session: a bot's fault, a move cap). A forfeit's loser is the side that did not win."""

    NORMAL = "normal"
    """By the rules of the game."""
    ERROR = "error"
    """Forfeit: the strategy raised an error (or called ``exit``, or could not be loaded)."""
    TIME = "time"
    """Forfeit: the strategy took longer than the time limit."""
    INVALID = "invalid"
    """Forfeit: the strategy returned a move that is not legal (or not of the move's type)."""
    CRASH = "crash"
    """Forfeit: the strategy's process died (a signal, a hard exit)."""
    MEMORY = "memory"
    """Forfeit: the strategy went over its memory cap."""
    DRAW_BY_RULE = "draw by rule"
    """A draw declared by a rule of play, not of the game (no result after the move cap)."""

    @property
    def is_forfeit(self) -> bool:
        return self in FORFEITS


FORFEITS = frozenset({Termination.ERROR, Termination.TIME, Termination.INVALID, Termination.CRASH,
                      Termination.MEMORY})


@dataclass(frozen=True)
class Result:
    """How a game ended: ``winner`` is 0 or 1, or ``None`` for a draw; ``reason`` says it in a
    sentence; ``termination`` says how (``NORMAL`` unless a forfeit or a rule of play ended it)."""

    winner: int | None
    reason: str
    termination: Termination = Termination.NORMAL

    @property
    def forfeited(self) -> int | None:
        """The side that forfeited the game, or ``None``."""
        if self.termination.is_forfeit and self.winner is not None:
            return 1 - self.winner
        return None


@dataclass(frozen=True)
class Event:
    """What one move or chance step did. Games subclass this with the facts their boards show.

    ``side`` is the side that moved (``CHANCE`` for a die roll), ``move`` the move or outcome,
    ``text`` one line of commentary ("Player 1 takes 2, leaving 8").
    """

    side: int
    move: Any
    text: str


@dataclass(frozen=True, kw_only=True)
class State:
    """An immutable position. Games subclass it (``@dataclass(frozen=True, kw_only=True)``)."""

    to_move: int
    ply: int = 0
    event: Event | None = None
    result: Result | None = None

    @property
    def over(self) -> bool:
        return self.result is not None


@dataclass(frozen=True)
class Analysis:
    """What an engine found in one position, for the game screen's analysis (``a``).

    A game's bots compute it (``analyse(game, state)`` in ``bots/<id>``) in the screen's worker
    thread; the board only draws it: the recommended move marked on the board and ``lines`` in
    the side panel. ``state`` ties it to the position it is about, so that an analysis that
    arrives after the position changed is not drawn over the new one.
    """

    state: State
    """The position analysed."""
    best: Move | None = None
    """The move recommended to the side to move; ``None`` where there is nothing to choose (a
    chance step, the end)."""
    value: float | None = None
    """How the position stands, in the game's own units (Othello: the final disc margin for the
    first side), or ``None``."""
    exact: bool = False
    """``value`` is proven by a search to the end, not estimated."""
    verdict: bool | None = None
    """Whether the side to move wins with perfect play; ``None`` when not known."""
    lines: tuple[str, ...] = ()
    """Lines for the side panel (Rich markup allowed)."""


class Game:
    """The rules of one game with its options fixed. Subclass and fill in the hooks below."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    blurb: ClassVar[str] = ""
    sides: ClassVar[tuple[Side, Side]]
    options: ClassVar[tuple[Option, ...]] = ()
    presets: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    """Named sets of options (Robot Ludo's ``contest``: the real tournament's settings), chosen
    with the pseudo-option ``preset`` (``Ludo(preset="contest")``, ``--option preset=contest``);
    options given beside it override the preset's."""
    PRESET = "preset"

    def __init__(self, **settings: Any) -> None:
        known = {option.key: option for option in self.options}
        if self.PRESET in settings:
            settings = {**self.preset_settings(settings.pop(self.PRESET)), **settings}
        unknown = sorted(set(settings) - set(known))
        if unknown:
            valid = ", ".join(known) or "none"
            raise OptionError(f"unknown option {unknown[0]!r} for {self.id}; valid options: {valid}")
        values = {key: option.default for key, option in known.items()}
        for key, value in settings.items():
            values[key] = known[key].parse(value)
        self.settings: Mapping[str, Any] = values
        self.check_settings()

    # -- configuration -------------------------------------------------------------------
    @classmethod
    def preset_settings(cls, name: Any) -> dict[str, Any]:
        """The options of the preset ``name``; ``OptionError`` naming the presets if none is."""
        preset = cls.presets.get(str(name).strip().lower()) if isinstance(name, str) else None
        if preset is None:
            valid = ", ".join(cls.presets) or "none"
            raise OptionError(f"unknown preset {name!r} for {cls.id}; presets: {valid}")
        return dict(preset)

    def check_settings(self) -> None:
        """Check combinations of options (each is already within its bounds); raise OptionError."""

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.settings.items())
        return f"{type(self).__name__}({args})"

    # -- the rules: every game implements these -----------------------------------------
    def initial_state(self) -> State:
        """The position at the start of a game with these settings."""
        raise NotImplementedError

    def legal_moves(self, state: State) -> Sequence[Move]:
        """The legal moves (or chance outcomes) in a fixed order; empty when the game is over."""
        raise NotImplementedError

    def play(self, state: State, move: Move) -> State:
        """The state after ``move``; raises ``IllegalMove`` for a move not in ``legal_moves``."""
        raise NotImplementedError

    def max_game_length(self) -> int:
        """The most plies (moves and chance steps) a game with these settings lasts.

        Whoever runs a game to the end (``Session.play_to_end``, ``random_playout``) stops there
        and, if the game has no result, declares a draw by rule. Each game derives its bound from
        its rules and says how in its docstring; where chance can prolong a game without end the
        bound is a safety cap, far above any game that play reaches.
        """
        raise NotImplementedError

    # -- chance steps --------------------------------------------------------------------
    def chance_outcomes(self, state: State) -> Sequence[tuple[Move, Fraction]] | None:
        """Outcomes of a chance state with their exact probabilities, or ``None`` if too many."""
        return None

    def sample_chance(self, state: State, rng: random.Random) -> Move:
        """Draw an outcome of a chance state with ``rng`` (the only source of randomness)."""
        outcomes = self.chance_outcomes(state)
        if outcomes is None:
            raise NotImplementedError(f"{self.id} must implement sample_chance")
        pick = rng.random()
        total = 0.0
        for outcome, probability in outcomes:
            total += float(probability)
            if pick < total:
                return outcome
        return outcomes[-1][0]

    # -- text ----------------------------------------------------------------------------
    def move_text(self, state: State, move: Move) -> str:
        """The move's text form, as the UI, logs and command line write it."""
        return str(move)

    def forced_pass(self, state: State) -> Move | None:
        """The pass a side must play when it is its only move and nothing is decided by playing
        it (Robot Ludo's roll with no move): the game screen plays it for a human, with a note.
        ``None`` by default: every move is the player's."""
        return None

    def move_label(self, state: State, move: Move) -> str:
        """The move as a player reads it in a move list (``move_text`` unless the game has a
        friendlier form, e.g. Robot Ludo's ``15→17`` for ``(1, 15, 2)``). Not parsed back."""
        return self.move_text(state, move)

    def parse_move(self, state: State, text: str) -> Move:
        """The legal move whose text is ``text`` (case-insensitive); ``IllegalMove`` otherwise."""
        wanted = text.strip().upper()
        for move in self.legal_moves(state):
            if self.move_text(state, move).upper() == wanted:
                return move
        raise IllegalMove(f"{text!r} is not a legal move here")

    def describe(self, state: State) -> str:
        """A short status line: whose turn, or the result."""
        if state.result is not None:
            return state.result.reason
        if state.to_move == CHANCE:
            return "Rolling…"
        return f"{self.sides[state.to_move].name} to move"

    def score_text(self, state: State, side: int) -> str:
        """A side's score or material for the side panel (discs, points, counters home)."""
        return ""

    # -- matches -------------------------------------------------------------------------
    @property
    def first_side(self) -> int:
        """The side that makes the first choice of a game (0 unless an option says otherwise)."""
        return 0

    def match_variant(self, number: int) -> "Game":
        """The game to play as game ``number`` (from 1) of a match between two bots.

        The match runner already swaps which bot plays side 0 every game; a game whose first
        mover is an option (Robot Ludo's ``starting``) returns a copy with that option varied,
        so that colour and first move alternate independently. The default is the game itself.
        """
        return self

    def commentator(self) -> "Commentator":
        """A fresh commentator for one game (Hog returns the course's commentary functions)."""
        return Commentator()

    # -- helpers for subclasses ------------------------------------------------------------
    def require_legal(self, state: State, move: Move) -> None:
        """Raise ``IllegalMove`` unless ``move`` is legal in ``state`` (a readable message)."""
        if state.result is not None:
            raise IllegalMove("the game is over")
        if move not in self.legal_moves(state):
            shown = self.move_text(state, move) if _hashable(move) else repr(move)
            raise IllegalMove(f"{shown} is not a legal move here")


class Commentator:
    """Turns the stream of states into commentary lines. One instance per game played.

    ``see(state)`` is called with every state after the initial one, in order, and returns
    the lines to add to the commentary pane. The default announces each event's text and the
    result. Subclasses may keep history (Hog's ``announce_highest`` does).
    """

    def see(self, state: State) -> list[str]:
        lines = [state.event.text] if state.event is not None and state.event.text else []
        if state.result is not None:
            lines.append(state.result.reason)
        return lines


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def random_playout(game: Game, state: State, rng: random.Random, max_plies: int | None = None) -> list[State]:
    """Play uniformly random moves (and sampled chance outcomes) to the end; return every state.

    Used by the property tests of every game and by simple bots. Raises ``RuntimeError`` if the
    game has not ended after ``max_plies`` more plies (by default the game's
    ``max_game_length()``).
    """
    if max_plies is None:
        max_plies = game.max_game_length()
    states = [state]
    while state.result is None:
        if len(states) > max_plies:
            raise RuntimeError(f"{game.id}: no result after {max_plies} plies")
        if state.to_move == CHANCE:
            move = game.sample_chance(state, rng)
        else:
            move = rng.choice(list(game.legal_moves(state)))
        state = game.play(state, move)
        states.append(state)
    return states
