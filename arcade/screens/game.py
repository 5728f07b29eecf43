"""The one game screen used by all five games: a view over an ``arcade.session.Session``.

The session owns the game: its history, the bots, the dice, undo, forfeits, telling the bots the
end. This screen draws it in the widgets of ``arcade/widgets/`` (the game's board widget, the
``SidePanel`` with the players, whose turn, "thinking…" and the analysis, the ``Commentary`` from
the game's ``Commentator``, the ``MoveList``, the ``FittedFooter``) and paces it: a human's move
comes from the board (``Board.MovePicked``), the dice are rolled and bots move after the waits of
``arcade/screens/pacing.py``, and a bot thinks in a thread worker that posts its thoughts and its
answer back as messages (``arcade/screens/bot_turn.py``). A new game's bots are made in a worker
too (``make_bots``: Hog's best bots build their tables when made): until they are, the side panel
says "preparing bots…" and the board takes no move, while the keys work. Every request carries the
``generation`` it was made in; an answer for a position that is no longer current (after undo,
new game, leaving) is dropped. The analysis (``a``) runs the same way, in a worker of its own
(``arcade/screens/analyst.py``). Boards only draw states, and analyses they are given, and
propose moves (``arcade/boards/base.py``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Header, HelpPanel

from arcade.boards.base import Board
from arcade.catalog import GameEntry
from arcade.screens.analyst import Analysed, Analyst
from arcade.screens.bot_turn import (
    BotMoved,
    BotsMade,
    BotThought,
    cancel_making,
    cancel_turn,
    make_bots,
    start_turn,
)
from arcade.screens.confirm import confirm_first
from arcade.screens.game_keys import FOOTER_PRIORITY, KEYS, offered
from arcade.screens.help import HelpScreen
from arcade.screens.pacing import NORMAL_PACE, PACES, Pacing, Step
from arcade.screens.palette import GameCommands
from arcade.seeds import screen_rngs
from arcade.untrusted import markup
from arcade.session import HUMAN, CannotUndo, Session
from arcade.widgets.footer import FittedFooter, shown_bindings
from arcade.widgets.game_log import Commentary, GameLog, MoveList
from arcade.widgets.layout import GameGrid, Refit, SizeNotice
from arcade.widgets.result import ResultBanner
from arcade.widgets.side_panel import SidePanel
from bots.base import BotEntry
from bots.limits import Limits
from bots.registry import analyser_for, resolve
from games.base import CHANCE, GameError, Result, State


class GameScreen(Screen):
    """A game in progress: board, side panel, commentary, move list."""

    CSS_PATH = "game.tcss"
    """Its styles (``arcade/screens/game.tcss``), read when it first opens."""

    BINDINGS = KEYS
    """The screen's keys (``arcade/screens/game_keys.py``), offered when they make sense (``available``)."""

    COMMANDS = Screen.COMMANDS | {GameCommands}
    """The command palette: the app's commands and the game's (``arcade/screens/palette.py``)."""

    paused: reactive[bool] = reactive(False, bindings=True)
    """Bots playing each other wait (``p``); the Footer's ``p`` says Resume then."""
    pace: reactive[int] = reactive(NORMAL_PACE, bindings=True)
    """An index into ``PACES``: ``-``/``+`` are offered while there is a slower/faster one."""
    thinking: reactive[int | None] = reactive(None)
    """The side whose bot is thinking, if any (the side panel says so)."""
    thought: reactive[str] = reactive("")
    """The thinking bot's last line."""
    preparing: reactive[bool] = reactive(False, bindings=True)
    """A new game's bots are being made (in a worker): nobody moves until they are."""

    def __init__(self, entry: GameEntry, players: tuple[str, str], settings: dict,
                 entries: dict[int, BotEntry] | None = None, limits: Limits | None = None) -> None:
        """``players``: ``"human"`` or a bot's name for each side; ``entries``: the bots' entries
        when the caller admitted them already (the setup screen, for file bots), under ``limits``
        (``bots.limits``: the session's)."""
        super().__init__()
        self.css_path = [*self.css_path, entry.board_css_file]  # loaded when the screen opens
        self.entry = entry
        self.game = entry.load()(**settings)
        self.players = players
        self.limits = limits or Limits()
        self.bot_entries: dict[int, BotEntry] = dict(entries or {})
        for side, name in enumerate(players):
            if name != HUMAN and side not in self.bot_entries:
                self.bot_entries[side] = resolve(entry.id, name, self.limits)
        self.humans = {side for side, name in enumerate(players) if name == HUMAN}
        self.session = Session(self.game, {})
        self.generation = 0
        self.games_started = 0
        self.step_once = False
        self.gone = False
        """The screen was left: bots still being made are closed by their worker."""
        self.board: Board = entry.board_class()(self.game, id="board")
        self.analyst = Analyst(self, self.game, analyser_for(entry.id))
        self.panel = SidePanel(self.game, self.board.side_style, id="side-panel")
        self.commentary = Commentary(id="commentary")
        self.moves = MoveList(self.game, id="moves")
        self.logs = GameLog(self.game, self.commentary, self.moves)

    # -- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        yield SizeNotice("", id="too-small-notice")
        with GameGrid(id="game-grid"):
            with Vertical(id="board-area"):
                yield ResultBanner("", id="result-banner")
                yield self.board
            yield self.panel.data_bind(GameScreen.paused, GameScreen.thinking, GameScreen.thought,
                                       GameScreen.preparing)
            yield self.commentary
            yield self.moves
        yield FittedFooter()

    def on_mount(self) -> None:
        self.check_size()
        self.new_game()

    def on_resize(self) -> None:
        self.check_size()

    def on_refit(self, message: Refit) -> None:
        message.stop()
        self.call_after_refresh(self.check_size)

    def available_width(self) -> int:
        """The terminal's width less the keys panel's (Ctrl+P → Keys docks it on the right)."""
        return self.app.size.width - sum(panel.outer_size.width or 30 for panel in self.query(HelpPanel))

    def check_size(self) -> None:
        need_w, need_h = self.board.min_size()
        width, height = self.available_width(), self.app.size.height
        small = width < need_w or height < need_h
        was_small = self.has_class("too-small")
        self.set_class(small, "too-small")
        self.set_class(height >= 34, "tall")  # the commentary grows (CSS)
        self.set_class(width >= 110, "wide")  # the side panel and the moves widen
        if small and self.board.has_focus:
            self.set_focus(None)  # a hidden board's keys would crowd the Footer's Rules and Menu
        elif was_small and not small and self.next_step() == "human":
            self.board.focus()
        self.fit_footer()
        if small:
            self.query_one(SizeNotice).say(self.game.title, (need_w, need_h), (width, height),
                                           beside_keys=bool(self.query(HelpPanel)))

    def fit_footer(self) -> None:
        """Leave the least needed of the screen's keys out of the Footer when the terminal is too
        narrow for them all (``FOOTER_PRIORITY``); the board's keys always stay, and the others'
        keys still work."""
        board_keys = [] if self.has_class("too-small") else shown_bindings(self.board)
        self.query_one(FittedFooter).fit(self.available_width(), self, FOOTER_PRIORITY, board_keys)

    # -- the game's flow -----------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.session.state

    @property
    def history(self) -> list[State]:
        return self.session.history

    @property
    def result(self) -> Result | None:
        return self.session.result

    def next_step(self) -> str | None:
        """The session's next step (``Session.next_step``), or ``"preparing"`` while the game's
        bots are being made: no side is a human's to move then."""
        return "preparing" if self.preparing else self.session.next_step()

    def new_game(self) -> None:
        """A new game with the same players: the session starts at once, with no bots, and the
        bots are made in a worker (``make_bots``); ``bots_made`` gives them to the session."""
        self.cancel_bot()
        self.session.abandon()  # the last game, if unfinished: its programs are told
        for entry in self.bot_entries.values():
            entry.close()  # a file bot's process of the last game: a fresh one for this game
        self.games_started += 1
        chance_rng, rng0, rng1 = screen_rngs(getattr(self.app, "seed", None), self.entry.id, self.games_started)
        self.session = Session(self.game, {}, chance_rng, (rng0, rng1), self.limits)
        self.paused = False
        self.step_once = False
        self.preparing = bool(self.bot_entries)
        self.rebuild_logs()
        if self.preparing:
            make_bots(self, self.game, self.bot_entries, self.games_started, lambda: self.games_started,
                      lambda: self.gone)
        else:
            cancel_making(self)
        self.advance()

    @on(BotsMade)
    def bots_made(self, message: BotsMade) -> None:
        """The bots of the game now are made: the game goes on (a bot that could not be made
        forfeits it). Bots of an older game are dropped."""
        if message.number != self.games_started or not self.preparing:
            return
        self.preparing = False
        waited = self.session  # the same dice and generators, the same position: nobody moved
        self.session = Session(self.game, message.bots, waited.chance_rng, waited.bot_rngs, self.limits, waited.state)
        if message.failed is not None:
            side, fault = message.failed
            self.write_commentary(self.session.forfeit_by(side, fault).reason)
            self.say_log_of(side)
        self.generation += 1
        self.advance()

    def push(self, state: State) -> None:
        """Make ``state`` current: log it, comment on it, and let the next player move."""
        previous = self.state
        self.session.push(state)
        self.pushed(previous)

    def pushed(self, previous: State) -> None:
        """The session moved on from ``previous``: log the move, comment, and go on."""
        self.generation += 1
        self.logs.add(previous, self.state, len(self.history))
        self.advance()

    def advance(self) -> None:
        """Redraw, then start whatever comes next: the dice, a bot, or wait for a human."""
        self.thinking = None
        self.refresh_views()
        self.fit_footer()
        self.refresh_bindings()  # what the keys do depends on the position (Othello's a)
        step = self.next_step()
        if step == "preparing":
            return  # ``bots_made`` goes on
        if step is None:
            for problem in self.session.tell_the_end():
                self.write_commentary(problem)
            return
        generation = self.generation
        if step == "human":
            forced = self.game.forced_pass(self.state)
            if forced is None:
                if not self.has_class("too-small"):
                    self.board.focus()
                return
            # nothing to choose: played for the human, said in the commentary
            self.write_commentary(markup("[i]$side has no move: passed for you[/i]",
                                         side=self.game.sides[self.state.to_move].name))
            self.later("forced", lambda: self.play_step(generation, "human", lambda: self.session.play(forced)))
        elif step == "chance":
            self.later("chance", lambda: self.play_step(generation, "chance", lambda: self.session.roll()))
        else:
            self.later("bot", lambda: self.start_bot(generation))

    def later(self, step: Step, callback: Callable[[], object]) -> None:
        """``callback()`` after the wait before ``step`` (``pacing``), unless the bots are paused."""
        event = self.state.event
        delay = Pacing.wait(step, watching=not self.humans, paused=self.paused, step_once=self.step_once,
                            pace=self.pace, dice_just_rolled=event is not None and event.side == CHANCE)
        if delay is None:
            return
        if delay <= 0:
            self.call_later(callback)
        else:
            self.set_timer(delay, callback)

    def watch_delay(self) -> float:
        """Seconds between the moves of bots playing each other, at the pace now."""
        return Pacing.watch_delay(self.pace)

    def watch_pace(self) -> None:
        self.panel.seconds = self.watch_delay()

    def action_pace(self, step: int) -> None:
        """Slower (-1) or faster (+1) when bots play each other; the side panel says the pace."""
        self.pace = max(0, min(len(PACES) - 1, self.pace + step))

    def play_step(self, generation: int, step: str, play: Callable[[], object]) -> None:
        """``play()`` (the dice, a human's forced pass) if the position is still the one of
        ``generation`` and ``step`` is what comes next."""
        if generation != self.generation or self.next_step() != step:
            return
        self.step_once = False
        previous = self.state
        play()
        self.pushed(previous)

    def start_bot(self, generation: int) -> None:
        if generation != self.generation or self.next_step() != "bot":
            return
        self.step_once = False
        self.thinking = self.state.to_move
        self.thought = ""
        start_turn(self, self.session, generation, lambda: self.generation)

    @on(BotThought)
    def show_thought(self, message: BotThought) -> None:
        if message.generation == self.generation:
            self.thought = message.text

    @on(BotMoved)
    def bot_moved(self, message: BotMoved) -> None:
        if message.generation != self.generation or self.next_step() != "bot":
            return
        previous = self.state
        outcome = self.session.apply(message.answer)
        if isinstance(outcome, Result):  # a forfeit
            self.generation += 1
            self.write_commentary(outcome.reason)
            self.say_log_of(message.answer.side)
            self.advance()
        else:
            self.pushed(previous)

    def say_log_of(self, side: int) -> None:
        """A file bot that forfeited: where its output went (its traceback, its prints), in the
        commentary, as ``arcade match`` prints it."""
        from bots.base import printable

        source = getattr(self.bot_entries.get(side), "source", None)
        if source is not None:
            self.commentary.say_text(Text(f"its output: {printable(source.log_path)}", style="dim"))

    def cancel_bot(self) -> None:
        self.generation += 1
        self.thinking = None
        cancel_turn(self)

    @on(Analysed)
    def show_analysis(self, message: Analysed) -> None:
        """Draw an analysis if it is of the position on the board (an older one is dropped)."""
        if self.analyst.take(message, self.state):
            self.board.show_analysis(message.analysis)
            self.show_analysis_lines()

    # -- human moves -----------------------------------------------------------------------------
    def on_board_move_picked(self, message: Board.MovePicked) -> None:
        message.stop()
        if self.next_step() != "human":
            self.app.bell()
            return
        previous = self.state
        try:
            self.session.play(message.move)
        except GameError as exc:
            self.notify(str(exc), title="Not a legal move", severity="warning")
            return
        self.pushed(previous)

    def on_board_comment(self, message: Board.Comment) -> None:
        message.stop()
        self.write_commentary(message.text)

    def on_board_panel_changed(self, message: Board.PanelChanged) -> None:
        message.stop()
        self.show_analysis_lines()

    # -- the panes -------------------------------------------------------------------------------
    def refresh_views(self) -> None:
        state = self.state
        human = self.result is None and state.to_move in self.humans and not self.preparing
        self.board.show(state, human, self.result)
        self.analyst.request(self.board)
        self.panel.state, self.panel.result = state, self.result
        self.show_analysis_lines()
        self.query_one(ResultBanner).show_result(self.game, self.result)

    def player_label(self, side: int) -> str:
        """"Human", or "bot" and the bot's name (a file bot's file name and function: its folder
        is in the commentary's first line; shown plain wherever it goes)."""
        from bots.external import short_names

        name = self.players[side]  # two file bots named alike by their folders: alice/bot.py, bob/bot.py
        return "Human" if name == HUMAN else f"bot {short_names(self.players)[name]}"

    def show_analysis_lines(self) -> None:
        """The side panel's analysis: its lines while it is on, nothing while it is off."""
        self.panel.analysis = self.analyst.lines(self.board)

    def rebuild_logs(self) -> None:
        """The move list and the commentary of the game so far (a new game, an undo); the side
        panel's players too (a swap)."""
        self.panel.labels = (self.player_label(0), self.player_label(1))
        self.panel.watching = not self.humans
        self.panel.seconds = self.watch_delay()
        names = " vs ".join(f"{s.name} ({self.player_label(i)})" for i, s in enumerate(self.game.sides))
        self.logs.restart(markup("[b]New game[/b]: $names", names=names), self.history)
        if self.session.forfeit is not None:
            self.write_commentary(self.session.forfeit.reason)

    def write_commentary(self, line: str | Text) -> None:
        """Add ``line`` to the commentary: a ``str`` (a forfeit's reason) as plain text."""
        self.commentary.say(line)

    # -- keys --------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        return self.available(action, parameters)

    def available(self, action: str, parameters: tuple) -> bool:
        """Whether the screen's ``action`` makes sense now (the Footer shows it if it has room)."""
        return offered(action, parameters, watching=not self.humans and self.result is None, paused=self.paused,
                       over=self.result is not None, pace=self.pace, types_letters=self.board_types_letters())

    def board_types_letters(self) -> bool:
        return (self.board.TYPES_LETTERS and self.result is None and self.state.to_move in self.humans
                and not self.preparing)

    def confirmed(self, question: str, yes: str, then) -> None:
        """``then()`` at once if no game is in progress (moved in and not over: leaving it throws
        it away), else after a Yes to ``question``."""
        confirm_first(self.app, self.result is None and len(self.history) > 1, question, yes, then)

    def request_swap(self) -> None:
        """Swap sides from the palette: asks first if a game is in progress."""
        self.confirmed("Throw this game away and play again with the sides swapped?", "Swap", self.action_swap)

    def switch_game(self, entry: GameEntry) -> None:
        """Leave this game (asking first if it is in progress) for ``entry``'s setup screen."""

        def go() -> None:
            self.cancel_bot()
            self.dismiss(entry)  # the setup screen under this one opens ``entry``'s in its place

        self.confirmed(f"Leave this game for {entry.title}? It is not over.", "Leave", go)

    def action_swap(self) -> None:
        """A rematch with the sides swapped: each player (human or bot) takes the other side."""
        self.players = (self.players[1], self.players[0])
        self.bot_entries = {1 - side: entry for side, entry in self.bot_entries.items()}
        self.humans = {1 - side for side in self.humans}
        self.new_game()

    def action_new_game(self) -> None:
        self.confirmed("Throw this game away and start a new one?", "New game", self.new_game)

    def action_undo(self) -> None:
        if self.humans and not any(s.event is not None and s.event.side in self.humans for s in self.history):
            # the bot moved first and the human has not: undoing would only replay the bot's move
            self.app.bell()
            if len(self.history) > 1:
                self.notify(f"Nothing of yours to take back yet: {self.what_stands()}.",
                            title="Cannot undo", severity="warning")
            return
        try:
            self.session.undo()
        except CannotUndo as exc:
            self.app.bell()
            if len(self.history) > 1:
                self.notify(str(exc), title="Cannot undo", severity="warning")
            return
        self.cancel_bot()
        if not self.humans:
            self.paused = True
        self.rebuild_logs()
        self.write_commentary(markup("[i]↶ undone[/i]"))
        self.advance()

    def what_stands(self) -> str:
        """What is in the history before the human's first move: a bot's move, or only the dice."""
        if any(s.event is not None and s.event.side not in (CHANCE, *self.humans) for s in self.history):
            return "the bot's opening move stands"
        return "the dice's roll stands" if len(self.history) == 2 else "the dice's rolls stand"

    def action_analysis(self, key: str = "a") -> None:
        self.analyst.toggle(self.board)
        self.show_analysis_lines()

    def action_pause(self) -> None:
        self.paused = True
        self.cancel_bot()
        self.advance()

    def action_resume(self) -> None:
        self.paused = False
        self.advance()

    def action_step(self) -> None:
        if not self.paused:
            self.paused = True
            self.cancel_bot()
        self.step_once = True
        self.advance()

    def action_save_game(self) -> None:
        """Save the game so far (finished or not) as a record; say where, and how to replay it."""
        from arcade.records.saved import save_game
        from arcade.records.schema import RecordError
        from bots.external import short_names

        names = short_names(self.players)
        players = tuple(names[p] if p != HUMAN else "Human" for p in self.players)
        try:
            path = save_game(self.game, players, self.session)  # type: ignore[arg-type]
        except (OSError, RecordError) as exc:
            self.notify(f"cannot save the game: {exc}", title="Not saved", severity="error")
            return
        room = min(60, self.app.size.width // 2) - 3  # a toast: 60 wide at most, half the screen, padding
        self.notify(f"{fold_path(path, room)}\nreplay it: arcade replay PATH", title="Game saved", timeout=8)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.entry.id))

    def action_back(self) -> None:
        self.confirmed("Leave this game for the menu? It is not over.", "Leave", self.leave)

    def leave(self) -> None:
        self.cancel_bot()
        self.dismiss()

    def on_unmount(self) -> None:
        self.gone = True  # before the entries are closed: bots still being made are closed after
        cancel_making(self)
        self.cancel_bot()
        self.session.abandon()  # left unfinished (dismissed, the app quitting): programs are told
        self.analyst.cancel()
        for entry in self.bot_entries.values():
            entry.close()


def fold_path(path: Path, width: int) -> str:
    """``path`` (the home folder as ``~``) in lines of at most ``width``, broken after a ``/``
    (inside a name only when the name alone is longer than ``width``): a notification wraps
    text at spaces, and a path has none, so it would be split mid-word."""
    text = str(path)
    home = str(Path.home())
    if home not in ("", "/") and text.startswith(home + "/"):
        text = "~" + text[len(home):]
    width = max(8, width)
    lines = [""]
    for part in re.findall(r"[^/]*/|[^/]+$", text):
        while len(part) > width:  # a name longer than a line: cut where it must be
            if lines[-1]:
                lines.append("")
            lines[-1], part = part[:width], part[width:]
            lines.append("")
        if len(lines[-1]) + len(part) > width and lines[-1]:
            lines.append("")
        lines[-1] += part
    return "\n".join(line for line in lines if line)
