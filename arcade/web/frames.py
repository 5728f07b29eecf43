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

A page holds its steps compactly (``Replay.as_json``, read back by ``expand`` and by the page's
script): each text once (``texts``), and each step as only what changed since the step before
(``changes``): a Robot Ludo game of 900 steps is some 50 kB rather than 270 kB.
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
        """The steps as the page holds them: ``texts``, every text once; ``frames``, a list a step,
        ``[changes, status, who, move, *say]``: ``changes`` (``changes``) made to the step
        before's board (the first step's: to an empty one), then indices into ``texts``."""
        texts: dict[str, int] = {}

        def text(value: str) -> int:
            return texts.setdefault(value, len(texts))

        frames: list = []
        before: dict = {}
        for frame in self.frames:
            frames.append([changes(before, frame["board"]), text(frame["status"]), text(frame.get("who", "")),
                           text(frame.get("move", "")), *(text(line) for line in frame.get("say", ()))])
            before = frame["board"]
        return {"game": self.game, "fixed": self.fixed, "texts": list(texts), "frames": frames, "problem": self.problem}


PATCHED = 9
"""A list at least this long, of the same length in two steps, changes item by item."""


def changes(before: dict, after: dict) -> dict:
    """What turns board ``before`` into board ``after``: a path (keys and list indices joined by
    ``.``) to each new value; a dict of the same keys is followed into, and so is a list of the
    same length of ``PATCHED`` or more items; anything else is given whole. Every step's board
    has the same keys; the first step's changes are made to an empty board (``{}``)."""
    out: dict[str, Any] = {}

    def walk(old, new, path: str) -> None:
        if type(old) is dict and type(new) is dict and old.keys() == new.keys():
            pairs = [(str(key), old[key], new[key]) for key in new]
        elif type(old) is list and type(new) is list and len(old) == len(new) >= PATCHED:
            pairs = [(str(index), a, b) for index, (a, b) in enumerate(zip(old, new))]
        else:
            out[path] = new
            return
        for key, a, b in pairs:
            if a != b or type(a) is not type(b):
                walk(a, b, f"{path}.{key}" if path else key)

    if before.keys() != after.keys():
        return dict(after)
    walk(before, after, "")
    return out


def apply(board: dict, patch: dict) -> dict:
    """``board`` changed in place by ``patch`` (``changes``'s), and returned."""
    for path, value in patch.items():
        *keys, last = path.split(".")
        node = board
        for key in keys:
            node = node[int(key)] if type(node) is list else node[key]
        if type(node) is list:
            node[int(last)] = value
        else:
            node[last] = value
    return board


def expand(data: dict) -> list[dict]:
    """The steps of a page's data (``Replay.as_json``) as ``Replay.frames`` holds them: what the
    page's script does, for the tests."""
    import copy

    texts, frames, board = data["texts"], [], {}  # type: list, list, dict
    for index, (patch, status, who, move, *say) in enumerate(data["frames"]):
        board = apply(copy.deepcopy(board), patch)
        frame = {"status": texts[status], "board": board}
        if index:
            frame.update(who=texts[who], move=texts[move])
        if say or index:
            frame["say"] = [texts[line] for line in say]
        frames.append(frame)
    return frames


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
            assert event is not None  # every state after the first has the move that made it
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
    """Short keys, as a Ludo game has hundreds of steps: ``r``, ``b`` Red's and Blue's counters
    on each square; ``p`` the pens, ``h`` the counters home; ``t`` whose turn; ``d`` the die:
    its roll, ``0`` while it is to be rolled, ``None`` when neither; ``l`` the last move:
    ``[side, from, to, cut, roll, kind]``, kind ``move``, ``enter``, ``home`` or ``pass``."""
    last = state.last_move
    drawn_last = None
    if last is not None:
        kind = "pass" if last.passed else "enter" if last.entered else "home" if last.home else "move"
        drawn_last = [last.side, last.source, last.target, last.cut, last.roll, kind]
    rolling = state.to_move == CHANCE and not state.over
    return {"r": list(state.red), "b": list(state.blue), "p": list(state.pens),
            "h": [state.home_count(0), state.home_count(1)], "t": state.turn,
            "d": state.roll if state.roll else 0 if rolling else None, "l": drawn_last}


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
