"""A recorded game as the steps of its replay page: every position, computed here by playing the
record's moves through the rules (``Game.parse_move``, ``Game.play``: the replay screen's way), each
drawn into a small JSON object that ``static/replay.js`` draws. The facts drawn are the ones the
terminal boards draw (``arcade/boards/<id>.py``), taken from the same states and events:

- D-Football: the squares' players, the squares of the last move, the ghost of a player jumped on
  the last move, the valid squares, the heading ("Michigan to move", "Ohio loses!");
- Othello: the discs, the last move, the discs it flipped, the legal squares, the counts;
- Robot Ludo: the counters on each square (stacks), the pens and homes, the die, the last move's
  squares and the counters it cut (their ghosts);
- Hog: both scores against the goal, the dice of the last turn (Sow Sad, Piggy Points, More Boar),
  each player's last turn;
- Toothpick Takeaway: the toothpicks left and the last take.

Each step also has the move list's row (``who``, ``move``), the commentary lines the game's
``Commentator`` says at that step, and ``status`` (``Game.describe``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from games.base import CHANCE, Game, GameError, State

MOVE_CAP = 120
"""How much of a move's text from a record a problem message quotes."""


@dataclass
class Replay:
    """A game's steps: ``frames`` (one a position, the start first), ``fixed`` (what every step
    shares: the board's size, safe squares, goal), ``problem`` (why the record stopped making
    sense, if it did) and ``rows`` of the move list (ply, who, move)."""

    game: str
    fixed: dict
    frames: list[dict] = field(default_factory=list)
    rows: list[tuple[int, str, str]] = field(default_factory=list)
    problem: str = ""

    def as_json(self) -> dict:
        return {"game": self.game, "fixed": self.fixed, "frames": self.frames, "problem": self.problem}


def states_of(game: Game, moves) -> tuple[list[State], str]:
    """Every position of a game whose moves (and dice) are ``moves`` (texts): the start first;
    and why they stop short, if a move is not legal where it stands (``""`` otherwise)."""
    states = [game.initial_state()]
    for number, text in enumerate(moves, start=1):
        try:
            states.append(game.play(states[-1], game.parse_move(states[-1], text)))
        except GameError as exc:
            return states, f"the record stops making sense at move {number} ({text[:MOVE_CAP]!r}: {exc})"
    return states, ""


def replay(game: Game, moves, ending: str = "") -> Replay:
    """The replay of ``moves`` on ``game`` (with its match variant already chosen); ``ending``
    (a forfeit's or a move cap's reason, which no state holds) is said at the last step."""
    states, problem = states_of(game, moves)
    draw = DRAWERS[game.id]
    out = Replay(game.id, FIXED[game.id](game), problem=problem)
    commentator = game.commentator()
    keep: dict[str, Any] = {}
    for index, state in enumerate(states):
        frame = {"status": game.describe(state), "board": draw(game, state, keep)}
        if index:
            before = states[index - 1]
            event = state.event
            who = "dice" if event.side == CHANCE else game.sides[event.side].name
            label = game.move_label(before, event.move)
            frame.update(who=who, move=label, say=commentator.see(state))
            out.rows.append((state.ply, who, label))
        out.frames.append(frame)
    last = out.frames[-1]
    if ending and not states[-1].over:
        last.setdefault("say", []).append(ending)
        last["status"] = ending
    if problem:
        last.setdefault("say", []).append(problem)
    return out


# -- what each board draws ----------------------------------------------------------------------

def _football_fixed(game) -> dict:
    return {"squares": game.squares, "sides": [s.name for s in game.sides]}


def _football(game, state, keep) -> dict:
    event = state.event
    result = state.result
    if result is not None and result.winner is None:
        heading, side = "Drawn", None
    else:
        side = 1 - result.winner if result is not None else state.to_move
        heading = game.sides[side].name + (" loses!" if result is not None else " to move")
    ghost = None
    if event is not None and getattr(event, "jumped", None) is not None:
        ghost = [event.jumped, event.jumped_side]
    return {"squares": list(state.board), "last": list(getattr(event, "squares", ()) or ()), "ghost": ghost,
            "valid": list(game.legal_moves(state)), "heading": heading, "side": side}


def _othello_fixed(game) -> dict:
    return {"sides": [s.name for s in game.sides]}


def _othello(game, state, keep) -> dict:
    from games.othello import PASS

    cells = "".join("B" if state.blue >> sq & 1 else "O" if state.orange >> sq & 1 else "." for sq in range(64))
    event = state.event
    legal = [] if state.over else [m for m in game.legal_moves(state) if m != PASS]
    return {"cells": cells, "last": getattr(event, "square", None), "flipped": list(getattr(event, "flipped", ())),
            "passed": bool(getattr(event, "passed", False)), "legal": legal, "counts": list(state.counts()),
            "to_move": state.to_move}


def _ludo_fixed(game) -> dict:
    return {"length": game.length, "safe": [square for square, safe in enumerate(game.safe) if safe], "counters": game.counters,
            "homes": [game.home_square(0), game.home_square(1)], "sides": [s.name for s in game.sides]}


def _ludo(game, state, keep) -> dict:
    def stacks(squares):
        return [[square, count] for square, count in enumerate(squares) if count]

    last = state.last_move
    drawn_last = None
    if last is not None:
        drawn_last = {"side": last.side, "from": last.source, "to": last.target, "cut": last.cut,
                      "entered": last.entered, "home": last.home, "passed": last.passed, "roll": last.roll}
    return {"red": stacks(state.red), "blue": stacks(state.blue), "pens": list(state.pens),
            "home": [state.home_count(0), state.home_count(1)], "turn": state.turn, "roll": state.roll,
            "rolling": state.to_move == CHANCE and not state.over, "last": drawn_last}


def _hog_fixed(game) -> dict:
    return {"goal": game.goal, "sides": [s.name for s in game.sides]}


def _hog(game, state, keep) -> dict:
    event = state.event
    turns = keep.setdefault("turns", [None, None])
    turn = None
    if event is not None:
        turn = {"player": event.player, "n": event.num_dice, "dice": list(event.dice), "points": event.points,
                "sad": event.sow_sad, "piggy": event.piggy, "boar": event.more_boar, "rolling": event.rolling}
        if not event.rolling:
            turns[event.player] = turn
    return {"scores": list(state.scores), "player": state.player, "turn": turn, "turns": [t for t in turns]}


def _toothpicks_fixed(game) -> dict:
    return {"start": game.count, "max_take": game.max_take, "sides": [s.name for s in game.sides]}


def _toothpicks(game, state, keep) -> dict:
    event = state.event
    return {"left": state.left, "taken": list(state.taken), "last": getattr(event, "taken", 0),
            "by": None if event is None else event.side, "to_move": state.to_move}


FIXED: dict[str, Callable[[Game], dict]] = {
    "dfootball": _football_fixed, "othello": _othello_fixed, "ludo": _ludo_fixed, "hog": _hog_fixed,
    "toothpicks": _toothpicks_fixed}
DRAWERS: dict[str, Callable[[Game, State, dict], dict]] = {
    "dfootball": _football, "othello": _othello, "ludo": _ludo, "hog": _hog, "toothpicks": _toothpicks}
"""Each game's drawing of one position (``keep``: what a board keeps from step to step, Hog's
last turn of each player); the catalog's every game has one (``tests/arcade/web``)."""
