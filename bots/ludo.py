"""Robot Ludo bots: the notebook's example engines, a documented heuristic and expectimax.

Every bot here is also a course-style engine ``engine(board, turn, roll) -> move`` on the
notebook's ``Board``, importable from this module, so that it can play in the notebook's
``match``/``judge`` (``from bots.ludo import expectimax``)::

    from games.ludo import judge, simple_player2
    from bots.ludo import expectimax
    judge(10, 20, None, expectimax, simple_player2, games=100)

- ``expectimax``: searches the die's chance steps: each of its moves, then each of the
  opponent's six rolls and the opponent's best reply to it, and a third level (its own next
  roll and best move) when the position is small enough (``LEAF_CAP`` estimated leaves), with
  the evaluation of ``bots.ludo_engine`` (progress, safety, cutting, entering, wasted rolls).
  Under 100 ms a move: past 80% of the time limit the depth-2 answer stands. The third level
  is worth about a point at 4 counters on length 20 (77.0% against 75.8% over the same 8,000
  games against ``random``).
- ``heuristic``: one ply with the same evaluation: the move that leaves the best position.
- ``simple_player2``, ``simple_player`` and ``random``: the notebook's engines.
"""

from __future__ import annotations

import random
import time
from typing import Callable

from bots.base import Bot, BotEntry, Context, random_move
from bots.ludo_engine import ExpectimaxPolicy, HeuristicPolicy, Pos, Weights, notebook_move
from games.base import CHANCE, Analysis, State
from games.ludo import Board, Ludo, LudoState, getmoves, simple_player, simple_player2, simple_player3

__all__ = ["BOTS", "expectimax", "heuristic", "simple_player", "simple_player2", "random_player", "EngineBot",
           "SearchBot", "analyse"]

LEAF_CAP = 4000
"""``expectimax`` searches a third level when its estimated leaves are at most this many."""

_EXPECTIMAX = ExpectimaxPolicy(depth=3, leaf_cap=LEAF_CAP)
_HEURISTIC = HeuristicPolicy()


def _engine(policy) -> Callable[[Board, int, int], tuple[int, int, int]]:
    def engine(board: Board, turn: int, roll: int) -> tuple[int, int, int]:
        pos = Pos.from_state(board)
        if hasattr(policy, "deadline_aware"):
            move = policy(pos, turn, roll, None, deadline=time.perf_counter() + SearchBot.seconds * 0.8)
        else:
            move = policy(pos, turn, roll, None)
        chosen = notebook_move(turn, move, roll, board.length)
        legal = getmoves(board, turn, roll)
        return chosen if chosen in legal else legal[0]

    return engine


expectimax = _engine(_EXPECTIMAX)
expectimax.__name__ = "expectimax"
expectimax.__doc__ = "Course-style engine: expectimax over the die's chance steps (see the module docstring)."
heuristic = _engine(_HEURISTIC)
heuristic.__name__ = "heuristic"
heuristic.__doc__ = "Course-style engine: the move that leaves the best-evaluated position (one ply)."
random_player = simple_player3


class EngineBot(Bot):
    """Any course-style engine ``(board, turn, roll) -> move`` as an arcade bot.

    The engine gets a fresh notebook ``Board`` of the state; an answer that is not legal is
    replaced by the first legal move (the notebook's ``match`` would have ignored it).
    """

    def __init__(self, game: Ludo, engine: Callable) -> None:
        super().__init__(game)
        self.engine = engine

    def choose(self, state: LudoState, ctx: Context):
        move = self.engine(self.game.board(state), state.turn, state.roll)
        legal = self.game.legal_moves(state)
        try:
            move = tuple(move)
        except TypeError:
            return legal[0]
        return move if move in legal else legal[0]


class SearchBot(Bot):
    """``heuristic`` or ``expectimax`` on the fast core, with the context's time limit."""

    seconds = 0.1
    """Its own time a move where the run sets none (``Context.time_limit``): the course contests'
    100 ms. A level of the bot, as Othello's ``alphabeta-0.1s`` is; a file bot's default time is
    the game's (``bots.limits.move_time``)."""

    def __init__(self, game: Ludo, policy, weights: Weights | None = None) -> None:
        super().__init__(game)
        self.policy = policy

    def choose(self, state: LudoState, ctx: Context):
        legal = self.game.legal_moves(state)
        if len(legal) == 1:
            return legal[0]
        pos = Pos.from_state(state, self.game.safe)
        limit = ctx.time_limit if ctx.time_limit is not None else self.seconds
        deadline = ctx.started + 0.8 * limit
        if hasattr(self.policy, "deadline_aware"):
            move = self.policy(pos, state.turn, state.roll, ctx.rng, deadline=deadline, cancelled=ctx.cancelled)
        else:
            move = self.policy(pos, state.turn, state.roll, ctx.rng)
        chosen = notebook_move(state.turn, move, state.roll, self.game.length)
        return chosen if chosen in legal else legal[0]

    def move_seconds(self) -> float:
        return self.seconds


def _random(game: Ludo, state: State, ctx: Context):
    return random_move(game, state, ctx)


BOTS: dict[str, BotEntry] = {
    entry.name: entry
    for entry in (
        BotEntry("expectimax", "searches every roll: its move, the opponent's six rolls and best replies",
                 lambda game: SearchBot(game, _EXPECTIMAX)),
        BotEntry("heuristic", "one ply: progress, safety, cutting and entering weighed",
                 lambda game: SearchBot(game, _HEURISTIC)),
        BotEntry("simple_player2", "the notebook's symmetric engine: enter, else the counter furthest back",
                 lambda game: EngineBot(game, simple_player2)),
        BotEntry("simple_player", "the notebook's first engine: the first valid move (favours Blue)",
                 lambda game: EngineBot(game, simple_player)),
        BotEntry.function("random", "a random valid move (the notebook's simple_player3)", _random),
    )
}

ANALYSIS_SECONDS = 0.5
"""The time limit of ``expectimax``'s search for the analysis (it answers at 80% of it)."""


def analyse(game: Ludo, state: LudoState, cancelled: Callable[[], bool] = lambda: False) -> Analysis:
    """The game screen's analysis: ``expectimax``'s move for the side to move (none at a roll or
    the end) and each side's steps still to go. The search stops early once ``cancelled()``
    (the screen no longer wants it: the position changed)."""
    lines = []
    best = None
    if not state.over and state.to_move != CHANCE:
        bot = BOTS["expectimax"].make(game)
        best = bot.choose(state, Context(rng=random.Random(0), time_limit=ANALYSIS_SECONDS,
                                          cancelled=cancelled))
        lines.append(f"★ expectimax plays {game.move_label(state, best)}")
    length = game.length
    for side, letter in enumerate("RB"):
        home = game.home_square(side)
        togo = sum(c * (length - ((s - home) % length)) for s, c in enumerate(state.squares(side)))
        lines.append(f"{letter}: {togo + state.pens[side] * length} steps to go")
    return Analysis(state, best=best, lines=tuple(lines))
