"""One game in progress, with no screen: the ``Session`` under the game screen and every runner.

A session owns a game's history of states, the bots of the sides they play, the generators of the
dice and of the bots, whose turn it is, and the rules of play that are not rules of the game:

- a chance step is drawn from the session's own generator (``roll``);
- a bot is asked for a move (``ask``, safe to call from a worker thread: it changes nothing) and
  its answer is applied (``apply``): the next state, or a forfeit when the bot raised, returned a
  move that is not legal, or its process failed (``bots.base.Forfeit``). A forfeit is a ``Result``
  with the loser's fault as its ``termination`` and the courses' words as its reason, one wording
  everywhere: ``"<side> strategy returned an invalid move (…)"``;
- undo goes back (``undo``) and tells every bot where the game now stands (``Bot.restart_at``);
  a bot that cannot follow (``Bot.rewindable`` false) makes the undo refused (``CannotUndo``),
  and so does a roll of the dice on the way back: a roll stands, so undo can neither turn a
  roll into a fresh one (undoing until the dice are kind) nor show dice that were not rolled;
- every bot hears the end once per ending (``Bot.game_over``), again if an undo reopened the game.

The game screen (``arcade.screens.game``) draws a session and asks its bots in workers; the match
runner (``arcade.match``) and tournaments drive sessions to the end with ``play_to_end``, and the
CS4341 referee (``arcade.cs4341_referee``) asks and applies in its own loop.
"""

from __future__ import annotations

import random
import time
import traceback
from dataclasses import dataclass
from typing import Callable, Mapping

from bots.base import ERROR, INVALID, TEXT_CAP, Bot, Context, Forfeit, printable
from bots.limits import Limits
from games.base import CHANCE, Game, GameError, Move, Result, State, Termination

HUMAN = "human"
"""The player name of a human side (the setup screen's choice, the CLI's ``play``)."""

class CannotUndo(Exception):
    """An undo the session refuses; the message says why (for the player)."""


@dataclass(frozen=True)
class Answer:
    """A bot's answer to ``ask``: a move, or the ``Forfeit`` its fault earns; the seconds it took
    on the session's clock."""

    side: int
    ply: int
    move: Move | None
    forfeit: Forfeit | None
    seconds: float


class Session:
    """One game: ``game`` with the bots of the sides in ``bots`` (the other sides are humans),
    under the run's ``limits`` (``bots.limits``: each bot's ``Context`` gets their time)."""

    def __init__(
        self,
        game: Game,
        bots: Mapping[int, Bot],
        chance_rng: random.Random | None = None,
        bot_rngs: tuple[random.Random, random.Random] | None = None,
        limits: Limits | None = None,
        state: State | None = None,
    ) -> None:
        self.game = game
        self.bots = dict(bots)
        self.chance_rng = chance_rng or random.Random()
        self.bot_rngs = bot_rngs or (random.Random(), random.Random())
        self.limits = limits or Limits()
        self.history: list[State] = [state or game.initial_state()]
        self.forfeit: Result | None = None
        self.slowest = [0.0, 0.0]
        """Each side's slowest answer so far, in seconds on the session's clock."""
        self.times: list[float] = []
        """Every bot answer's seconds, in the order of the moves (a game record's per-move times)."""
        self._told = False

    # -- where the game stands ------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.history[-1]

    @property
    def result(self) -> Result | None:
        """The game's result, a forfeit's included; ``None`` while it goes on."""
        return self.forfeit or self.state.result

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def humans(self) -> set[int]:
        return {0, 1} - set(self.bots)

    def next_step(self) -> str | None:
        """What comes next: ``"chance"`` (the dice), ``"human"``, ``"bot"``, or ``None`` (over)."""
        if self.over:
            return None
        side = self.state.to_move
        if side == CHANCE:
            return "chance"
        return "bot" if side in self.bots else "human"

    # -- moves ----------------------------------------------------------------------------------
    def push(self, state: State) -> State:
        """Make ``state`` (already played from the current one) the current state."""
        self.history.append(state)
        self._reopen()
        return state

    def roll(self) -> State:
        """Draw the chance step's outcome with the session's generator and play it."""
        outcome = self.game.sample_chance(self.state, self.chance_rng)
        return self.push(self.game.play(self.state, outcome))

    def play(self, move: Move) -> State:
        """A human's move; ``IllegalMove`` (a message for the player) and nothing changes if it
        is not legal."""
        return self.push(self.game.play(self.state, move))

    def context(self, side: int, report: Callable[[str], None] = lambda text: None,
                cancelled: Callable[[], bool] = lambda: False) -> Context:
        """The ``Context`` of ``side``'s bot for its next move."""
        return Context(rng=self.bot_rngs[side], time_limit=self.limits.time, report=report, cancelled=cancelled)

    def ask(self, ctx: Context | None = None) -> Answer:
        """Ask the side to move's bot for its move, timed on the session's clock (or the bot's own
        round trip, ``Context.took``, for a bot that times itself: a file bot). Changes nothing
        in the session, so a worker thread may call it; ``apply`` the answer afterwards."""
        state = self.state
        side = state.to_move
        bot = self.bots[side]
        ctx = ctx or self.context(side)
        start = time.perf_counter()
        ctx.started = start
        try:
            move, forfeit = bot.choose(state, ctx), None
        except Forfeit as exc:  # a fault in the course's words (a file bot's process)
            move, forfeit = None, exc
        except Exception as exc:  # a bot's bug forfeits its game; the arcade goes on
            detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            move, forfeit = None, Forfeit(ERROR, detail, Termination.ERROR)
        seconds = ctx.took if ctx.took is not None else time.perf_counter() - start
        return Answer(side, state.ply, move, forfeit, seconds)

    def apply(self, answer: Answer) -> State | Result:
        """The bot's answer made real: the next state, or the forfeit ``Result`` that ends the
        game. An answer for another position (an undo came in between) is a ``ValueError``."""
        if answer.ply != self.state.ply or answer.side != self.state.to_move or self.over:
            raise ValueError("the answer is for a position that is no longer current")
        if answer.forfeit is None:  # a move stopped or failed is no answer: never the "slowest move"
            self.slowest[answer.side] = max(self.slowest[answer.side], answer.seconds)
        self.times.append(answer.seconds)
        if answer.forfeit is not None:
            return self.forfeit_by(answer.side, answer.forfeit)
        try:
            return self.push(self.game.play(self.state, answer.move))
        except (GameError, TypeError, ValueError) as exc:
            return self.forfeit_by(answer.side, Forfeit(INVALID, str(exc), Termination.INVALID))

    def forfeit_by(self, side: int, fault: Forfeit) -> Result:
        """End the game: ``side`` forfeits for ``fault`` (the courses' words), the other side wins."""
        name = self.game.sides[side].name
        self.forfeit = Result(1 - side, f"{name} {fault}", fault.kind)
        return self.forfeit

    def step(self) -> State | Result:
        """The next step with no human: the dice, or the bot to move asked and its answer applied."""
        if self.state.to_move == CHANCE:
            return self.roll()
        return self.apply(self.ask())

    def play_to_end(self, max_plies: int | None = None) -> Result:
        """Play the bots (and the dice) to the end, tell the bots, and return the result. A game
        with no result after ``max_plies`` more plies (by default the game's
        ``max_game_length()``) is drawn by rule."""
        if self.humans and not self.over:
            raise ValueError("play_to_end needs a bot on both sides")
        if max_plies is None:
            max_plies = self.game.max_game_length()
        for _ in range(max_plies):
            if self.over:
                break
            self.step()
        else:
            if not self.over:
                self.forfeit = Result(None, f"no result after {max_plies} plies", Termination.DRAW_BY_RULE)
        self.tell_the_end()
        return self.result  # type: ignore[return-value]

    def move_texts(self) -> list[str]:
        """The game so far as text, every move and chance outcome in order (``Game.move_text``)."""
        return [self.game.move_text(before, after.event.move)
                for before, after in zip(self.history, self.history[1:]) if after.event is not None]

    # -- undo and the end -------------------------------------------------------------------------
    def undo(self) -> State:
        """Go back: to the last position where a human was to move before their last move (so a
        human takes back their own move and the bots' answers to it), or one step when bots play
        each other. Every bot is told where the game now stands. ``CannotUndo`` says why not: a
        bot that cannot rewind, or a chance step (the dice) on the way back, since a roll stands."""
        if len(self.history) == 1:
            raise CannotUndo("nothing to undo")
        stuck = [side for side, bot in self.bots.items() if not bot.rewindable]
        if stuck:
            name = self.game.sides[stuck[0]].name
            raise CannotUndo(f"{name}'s bot cannot take moves back (it keeps its own board); n starts a new game")
        history = list(self.history)
        humans = self.humans
        if not humans:
            history.pop()
        else:
            while len(history) > 1:
                popped = history.pop()
                side = popped.event.side if popped.event is not None else None
                if side in humans and history[-1].to_move == side:
                    break
        if any(state.event is not None and state.event.side == CHANCE for state in self.history[len(history):]):
            raise CannotUndo("the dice were rolled after that, and a roll stands: undo never rolls again")
        self.history = history
        self.forfeit = None
        self._reopen()
        for bot in self.bots.values():
            bot.restart_at(self.state)
        return self.state

    def _reopen(self) -> None:
        if not self.over:
            self._told = False  # an undo after the end reopens the game: its next end is told

    def abandon(self) -> list[str]:
        """The game is left unfinished (the screen closed, a new game, the app quitting): every
        bot hears it once (``Bot.left``), so a program waiting on files stops; the problems met,
        as lines for a log. Nothing for a game that is over (``tell_the_end`` told it)."""
        if self.over or self._told:
            return []
        self._told = True
        problems = []
        for bot in self.bots.values():
            try:
                bot.left(self.state)
            except Exception as exc:  # noqa: BLE001 - leaving goes on whatever a bot does
                problems.append(f"({type(exc).__name__} while leaving the game for a bot: {exc})")
        return problems

    def tell_the_end(self) -> list[str]:
        """``Bot.game_over`` for every bot, once per ending; the problems met telling them (a
        program that could not be told), as lines for a log. The result stands either way."""
        if not self.over or self._told:
            return []
        self._told = True
        problems = []
        for bot in self.bots.values():
            try:
                bot.game_over(self.state, self.result)  # type: ignore[arg-type]
            except Exception as exc:  # noqa: BLE001 - telling a program failed: the game is over all the same
                problems.append(f"({type(exc).__name__} while ending the game for a bot: "
                                f"{printable(exc, cap=TEXT_CAP)})")
        return problems
