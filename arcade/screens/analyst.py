"""The game screen's analysis (``a``): the game's engine looks at each position in a worker.

The engine is the game's ``analyse`` (in its bots, found by ``bots.registry.analyser_for``); a
game without one has a board that works its analysis out alone. Each run of the engine has a
number, and its answer (``Analysed``) is taken only if it is of the latest run and of the
position on the board: an answer for a position left behind (a move, an undo, the analysis turned
off) is dropped. The board draws the analysis it is given; the side panel shows its lines, or
"analysing…" until they come.

While a human is to move, an engine that can keep going (its ``analyse`` takes ``report``:
Othello's) reports each better answer as it finds it (an ``Analysed`` that is not ``final``) and
goes on until the position changes, the analysis is turned off or its own time is up: the hint
deepens while the player thinks. On a bot's turn it gives its first answer only, and leaves the
processors to the bot.
"""

from __future__ import annotations

import inspect
from functools import partial
from typing import Callable

from textual.dom import DOMNode
from textual.message import Message
from textual.worker import get_current_worker

from arcade.boards.base import Board
from games.base import Analysis, Game, State


class Analysed(Message):
    """The engine's analysis of a position, from the worker of run number ``run``."""

    def __init__(self, run: int, analysis: Analysis, final: bool = True) -> None:
        super().__init__()
        self.run = run
        self.analysis = analysis
        self.final = final
        """The run's last answer (not ``final``: a better one may follow)."""


class Analyst:
    """Whether the analysis is on, and the engine's runs on the positions of one game screen
    (``node``: its workers run them, its message queue gets the answers)."""

    GROUP = "analysis"
    """The worker group of the engine's runs (one at a time: a new one cancels the last)."""

    def __init__(self, node: DOMNode, game: Game, engine: Callable[..., Analysis] | None) -> None:
        self.node = node
        self.game = game
        self.engine = engine
        """The game's engine (``None``: the board works its analysis out alone)."""
        self.on = False
        self.run = 0
        """The number of the latest run; an answer of any other is dropped."""
        self.analysing: State | None = None
        """The position the latest run is looking at, until its final answer is taken."""
        self.finished: State | None = None
        """The position of the last final answer taken (a run stopped half-way is started again)."""
        self.deepens = engine is not None and "report" in inspect.signature(engine).parameters
        """The engine keeps improving its answer while it is let (``report``)."""

    def toggle(self, board: Board) -> None:
        """Turn the analysis on (and look at the board's position) or off (and drop the run)."""
        self.on = not self.on
        board.analysis = self.on
        if self.on:
            self.request(board)
        else:
            self.cancel()

    def request(self, board: Board) -> None:
        """With the analysis on, have the engine look at the board's position in a worker, unless
        the board has its analysis already or a run is on it."""
        state = board.state
        if not self.on or self.engine is None or self.analysing == state:
            return
        given = board.analysed
        if given is not None and given.state == state and self.finished == state:
            return
        self.run += 1
        self.analysing = state
        deepen = self.deepens and board.human  # a human thinks: the engine may keep going
        self.node.run_worker(partial(self.analyse, state, self.run, deepen), thread=True, exclusive=True,
                             group=self.GROUP)

    def analyse(self, state: State, run: int, deepen: bool = False) -> None:
        """Run the engine on ``state`` (in the worker's thread); its answers come as messages
        (with ``deepen``, each better one as it is found, then the last)."""
        worker = get_current_worker()

        def stale() -> bool:
            return worker.is_cancelled or run != self.run

        def report(analysis: Analysis) -> None:
            if not stale():
                self.node.post_message(Analysed(run, analysis, final=False))

        extra = {"report": report} if deepen else {}
        analysis = self.engine(self.game, state, cancelled=stale, **extra)
        if not stale():
            self.node.post_message(Analysed(run, analysis))

    def take(self, message: Analysed, state: State) -> bool:
        """Whether ``message`` is an answer awaited: of the latest run, and of ``state`` (the
        position on the board). The run is over with its final answer."""
        if message.run != self.run or message.analysis.state != state:
            return False
        if message.final:
            self.analysing = None
            self.finished = state
        return True

    def cancel(self) -> None:
        """Drop the run under way, if any (its answer will not be taken)."""
        self.run += 1
        self.analysing = None
        self.node.workers.cancel_group(self.node, self.GROUP)

    def lines(self, board: Board) -> tuple[str, ...] | None:
        """The side panel's analysis (Rich markup allowed): the engine's lines, "analysing…" until
        they come, or the board's own (a game with no engine); ``None`` while it is off."""
        if not self.on:
            return None
        if self.engine is None:
            return tuple(board.analysis_lines(board.state))
        analysed = board.current_analysis()
        return tuple(analysed.lines) if analysed is not None else ("[i]analysing…[/i]",)
