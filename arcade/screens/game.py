"""The one game screen used by all five games: a view over an ``arcade.session.Session``.

The session owns the game: its history, the bots, the dice, undo, forfeits, telling the bots the
end. This screen draws it (the game's board widget, a side panel with the players, whose turn,
"thinking…" and the analysis, the commentary from the game's ``Commentator``, the move list, the
Footer) and paces it: a human's move comes from the board (``Board.MovePicked``), the dice are
rolled after a short pause, and a bot thinks in a thread worker that posts ``BotThought`` lines
and its ``BotMoved`` answer back as messages. Every request carries the ``generation`` it was
made in; an answer for a position that is no longer current (after undo, new game, leaving) is
dropped. The analysis (``a``) runs the same way: the game's engine (``analyse`` in its bots,
``bots.registry.analyser_for``) looks at each position in a worker of its own, the side panel
says "analysing…" meanwhile, and its ``Analysed`` answer is drawn only if the position is still
the one analysed. Boards only draw states, and analyses they are given, and propose moves
(``arcade/boards/base.py``).
"""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Header, HelpPanel, Static
from textual.worker import get_current_worker

from arcade.boards.base import Board
from arcade.catalog import GameEntry
from arcade.screens.help import HelpScreen
from arcade.screens.palette import GameCommands
from arcade.widgets.footer import PALETTE_WIDTH, FittedFooter, action_name, key_width, leave_out, shown_bindings
from arcade.widgets.game_log import Commentary, MoveList
from arcade.widgets.layout import GameGrid, Refit, SizeNotice
from arcade.widgets.side_panel import SidePanel, headline
from arcade.session import HUMAN, Answer, CannotUndo, Session, screen_rngs
from bots.base import BotEntry
from bots.registry import analyser_for, resolve
from games.base import CHANCE, Analysis, GameError, Result, State


class GameScreen(Screen):
    """A game in progress: board, side panel, commentary, move list."""

    BINDINGS = [
        Binding("n", "new_game", "New", id="new-game", tooltip="Start a new game with the same players"),
        Binding("u", "undo", "Undo", id="undo", tooltip="Take back your last move (a step when bots play)"),
        Binding("a", "analysis", "Analysis", id="analysis", tooltip="Show or hide the analysis"),
        # shown instead of ``a`` while the board types letters (a human to move in Othello)
        Binding("A", "analysis('shift')", "Analysis", key_display="A", id="analysis-shift",
                tooltip="Show or hide the analysis"),
        # one key, two names: the Footer says what ``p`` does now
        Binding("p", "pause", "Pause", id="pause", tooltip="Pause the bots"),
        Binding("p", "resume", "Resume", id="resume", tooltip="Let the bots play on"),
        Binding("s", "step", "Step", id="step", tooltip="Pause, and play one move"),
        Binding("minus", "pace(-1)", "Slow", key_display="-", id="slower", tooltip="Bots play each other more slowly"),
        Binding("plus,equals_sign", "pace(1)", "Fast", key_display="+", id="faster",
                tooltip="Bots play each other faster"),
        Binding("x", "swap", "Swap sides", id="swap", tooltip="A new game with the players' sides swapped"),
        Binding("question_mark", "help", "Rules", id="help", tooltip="The rules of the game"),
        Binding("q", "back", "Menu", id="back", tooltip="Leave the game for the menu"),
        Binding("escape", "back", "Menu", show=False),
        Binding("ctrl+s", "save_game", "Save", show=False, id="save",
                tooltip="Save the game (arcade replay FILE steps through it)"),
    ]

    COMMANDS = Screen.COMMANDS | {GameCommands}
    """The command palette: the app's commands and the game's (``arcade/screens/palette.py``)."""

    FOOTER_PRIORITY = ("back", "help", "new_game", "swap", "pause", "resume", "analysis", "pace", "undo", "step")
    """The screen's keys in the order the Footer keeps them when it is short of room (the board's
    own keys, needed to play, come first); the others' keys still work (``FittedFooter``)."""

    BOT_DELAY = 0.35
    """Seconds before a bot moves when a human plays (so the human sees the position)."""
    WATCH_DELAY = 0.8
    """Seconds between moves when bots play each other at the normal pace (``-``/``+`` change it)."""
    PACES = (8.0, 4.0, 2.0, 1.0, 0.5, 0.25, 0.0)
    """The bot-vs-bot paces, as multiples of ``WATCH_DELAY``: 6.4 s to no wait; 1.0 at the start."""
    CHANCE_DELAY = 0.25
    """Seconds before the dice are rolled."""
    FORCED_DELAY = 0.8
    """Seconds a human's forced pass (Robot Ludo: no move with this roll) stays on the board."""
    DICE_LOOK = 1.2
    """Seconds a human gets to look at the dice just rolled before a bot moves (Hog, Ludo)."""

    paused: reactive[bool] = reactive(False, bindings=True)
    """Bots playing each other wait (``p``); the Footer's ``p`` says Resume then."""
    pace: reactive[int] = reactive(PACES.index(1.0), bindings=True)
    """An index into ``PACES``: ``-``/``+`` are offered while there is a slower/faster one."""
    thinking: reactive[int | None] = reactive(None)
    """The side whose bot is thinking, if any (the side panel says so)."""
    thought: reactive[str] = reactive("")
    """The thinking bot's last line."""

    class BotThought(Message):
        """A line of a bot's thinking (depth, best line), from its worker; a newer one replaces
        an older one still in the queue."""

        def __init__(self, generation: int, text: str) -> None:
            super().__init__()
            self.generation = generation
            self.text = text

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, GameScreen.BotThought)

    class BotMoved(Message):
        """A bot's answer (a move or a fault), from its worker."""

        def __init__(self, generation: int, answer: Answer) -> None:
            super().__init__()
            self.generation = generation
            self.answer = answer

    class Analysed(Message):
        """The analysis of a position, from the analysis worker."""

        def __init__(self, generation: int, analysis: Analysis) -> None:
            super().__init__()
            self.generation = generation
            self.analysis = analysis

    def __init__(self, entry: GameEntry, players: tuple[str, str], settings: dict,
                 entries: dict[int, BotEntry] | None = None) -> None:
        """``players``: ``"human"`` or a bot's name for each side; ``entries``: the bots' entries
        when the caller resolved them already (the setup screen, for file bots)."""
        super().__init__()
        self.entry = entry
        self.game = entry.load()(**settings)
        self.players = players
        self.bot_entries: dict[int, BotEntry] = dict(entries or {})
        for side, name in enumerate(players):
            if name != HUMAN and side not in self.bot_entries:
                self.bot_entries[side] = resolve(entry.id, name)
        self.humans = {side for side, name in enumerate(players) if name == HUMAN}
        self.session = Session(self.game, {})
        self.generation = 0
        self.games_started = 0
        self.step_once = False
        self.analysis = False
        self.analyser = analyser_for(entry.id)
        """The game's engine analysis (``None``: the board works its analysis out alone)."""
        self.analysing: State | None = None
        """The position the analysis worker is looking at, if any."""
        self.analysis_generation = 0
        self.commentator = self.game.commentator()
        self.board: Board = entry.board_class()(self.game, id="board")
        self.panel = SidePanel(self.game, self.board.side_style, id="side-panel")
        self.commentary = Commentary(id="commentary")
        self.moves = MoveList(self.game, id="moves")

    # -- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        yield SizeNotice("", id="too-small-notice")
        with GameGrid(id="game-grid"):
            with Vertical(id="board-area"):
                yield Static("", id="result-banner")
                yield self.board
            yield self.panel.data_bind(GameScreen.paused, GameScreen.thinking, GameScreen.thought)
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
        elif was_small and not small and self.session.next_step() == "human":
            self.board.focus()
        self.fit_footer()
        if small:
            self.query_one("#too-small-notice", Static).update(
                f"[b]Enlarge the terminal[/b]\n\n{self.game.title} needs at least {need_w}×{need_h}; "
                f"this one is {width}×{height}"
                + (" beside the keys panel (Ctrl+P hides it)" if self.query(HelpPanel) else "")
                + ".\n\nq goes back to the menu."
            )

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

    def new_game(self) -> None:
        self.cancel_bot()
        for entry in self.bot_entries.values():
            entry.close()  # a file bot's process of the last game: a fresh one for this game
        self.games_started += 1
        chance_rng, rng0, rng1 = screen_rngs(getattr(self.app, "seed", None), self.entry.id, self.games_started)
        bots = {side: entry.make(self.game) for side, entry in self.bot_entries.items()}
        self.session = Session(self.game, bots, chance_rng, (rng0, rng1))
        self.paused = False
        self.step_once = False
        self.rebuild_logs()
        self.advance()

    def push(self, state: State) -> None:
        """Make ``state`` current: log it, comment on it, and let the next player move."""
        previous = self.state
        self.session.push(state)
        self.pushed(previous)

    def pushed(self, previous: State) -> None:
        """The session moved on from ``previous``: log the move, comment, and go on."""
        self.generation += 1
        self.moves.add_move(previous, self.state, len(self.history))
        self.comment(self.state)
        self.advance()

    def advance(self) -> None:
        """Redraw, then start whatever comes next: the dice, a bot, or wait for a human."""
        self.thinking = None
        self.refresh_views()
        self.fit_footer()
        self.refresh_bindings()  # what the keys do depends on the position (Othello's a)
        step = self.session.next_step()
        if step is None:
            for problem in self.session.tell_the_end():
                self.write_commentary(problem)
            return
        generation = self.generation
        if step == "chance":
            if self.paused and not self.humans and not self.step_once:
                return
            self.later(0 if self.step_once else self.CHANCE_DELAY, lambda: self.roll(generation))
            return
        if step == "human":
            forced = self.game.forced_pass(self.state)
            if forced is not None:  # nothing to choose: played for the human, said in the commentary
                side = self.game.sides[self.state.to_move].name
                self.write_commentary(f"[i]{side} has no move: passed for you[/i]")
                self.later(0 if self.step_once else self.FORCED_DELAY, lambda: self.play_forced(generation, forced))
                return
            if not self.has_class("too-small"):
                self.board.focus()
            return
        if self.paused and not self.step_once:
            return
        delay = 0 if self.step_once else self.watch_delay() if not self.humans else self.BOT_DELAY
        if self.humans and not self.step_once and self.state.event is not None and self.state.event.side == CHANCE:
            delay = max(delay, self.DICE_LOOK)
        self.later(delay, lambda: self.start_bot(generation))

    def later(self, delay: float, callback) -> None:
        if delay <= 0:
            self.call_later(callback)
        else:
            self.set_timer(delay, callback)

    def watch_delay(self) -> float:
        return self.WATCH_DELAY * self.PACES[self.pace]

    def watch_pace(self) -> None:
        self.panel.seconds = self.watch_delay()

    def action_pace(self, step: int) -> None:
        """Slower (-1) or faster (+1) when bots play each other; the side panel says the pace."""
        self.pace = max(0, min(len(self.PACES) - 1, self.pace + step))

    def play_forced(self, generation: int, move) -> None:
        if generation != self.generation or self.session.next_step() != "human":
            return
        previous = self.state
        self.session.play(move)
        self.pushed(previous)

    def roll(self, generation: int) -> None:
        if generation != self.generation or self.session.next_step() != "chance":
            return
        self.step_once = False
        previous = self.state
        self.session.roll()
        self.pushed(previous)

    def start_bot(self, generation: int) -> None:
        if generation != self.generation or self.session.next_step() != "bot":
            return
        self.step_once = False
        self.thinking = self.state.to_move
        self.thought = ""
        self.think(self.session, generation)

    @work(thread=True, exclusive=True, group="bot")
    def think(self, session: Session, generation: int) -> None:
        """Ask the side to move's bot in a thread; its thoughts and answer come back as messages."""
        worker = get_current_worker()

        def stale() -> bool:
            return worker.is_cancelled or generation != self.generation

        def report(text: str) -> None:
            if not stale():
                self.post_message(self.BotThought(generation, text))

        answer = session.ask(session.context(session.state.to_move, report, stale))
        if not stale():
            self.post_message(self.BotMoved(generation, answer))

    @on(BotThought)
    def show_thought(self, message: BotThought) -> None:
        if message.generation == self.generation:
            self.thought = message.text

    @on(BotMoved)
    def bot_moved(self, message: BotMoved) -> None:
        if message.generation != self.generation or self.session.next_step() != "bot":
            return
        previous = self.state
        outcome = self.session.apply(message.answer)
        if isinstance(outcome, Result):  # a forfeit
            self.generation += 1
            self.write_commentary(outcome.reason)
            self.advance()
        else:
            self.pushed(previous)

    def request_analysis(self) -> None:
        """With the analysis on, have the game's engine look at the position in a worker, unless
        the board has its analysis already or the worker is on it."""
        state = self.state
        if not self.analysis or self.analyser is None or self.analysing == state:
            return
        given = self.board.analysed
        if given is not None and given.state == state:
            return
        self.analysis_generation += 1
        self.analysing = state
        self.analyse(state, self.analysis_generation)

    @work(thread=True, exclusive=True, group="analysis")
    def analyse(self, state: State, generation: int) -> None:
        """Run the game's engine on ``state`` in a thread; its answer comes back as a message."""
        worker = get_current_worker()

        def stale() -> bool:
            return worker.is_cancelled or generation != self.analysis_generation

        analysis = self.analyser(self.game, state, cancelled=stale)
        if not stale():
            self.post_message(self.Analysed(generation, analysis))

    @on(Analysed)
    def show_analysis(self, message: Analysed) -> None:
        """Draw an analysis if it is of the position on the board (an older one is dropped)."""
        if message.generation != self.analysis_generation or message.analysis.state != self.state:
            return
        self.analysing = None
        self.board.show_analysis(message.analysis)
        self.show_analysis_lines()

    def cancel_analysis(self) -> None:
        self.analysis_generation += 1
        self.analysing = None
        self.workers.cancel_group(self, "analysis")

    def cancel_bot(self) -> None:
        self.generation += 1
        self.thinking = None
        self.workers.cancel_group(self, "bot")

    # -- human moves -----------------------------------------------------------------------------
    def on_board_move_picked(self, message: Board.MovePicked) -> None:
        message.stop()
        if self.session.next_step() != "human":
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
        human = self.result is None and state.to_move in self.humans
        self.board.show(state, human)
        self.request_analysis()
        self.panel.state, self.panel.result = state, self.result
        self.show_analysis_lines()
        banner = self.query_one("#result-banner", Static)
        if self.result is not None:
            headline_ = headline(self.game, self.result)
            width = banner.size.width or self.query_one("#board-area").size.width or 46
            tail = next((t for t in (" · n rematch · x swap sides · q menu", " · n rematch · x swap", "")
                         if len(headline_) + len(t) <= width), "")
            banner.update(Text.from_markup(f"[b]{headline_}[/b]{tail}"))
            banner.add_class("shown")
        else:
            banner.remove_class("shown")

    def player_label(self, side: int) -> str:
        name = self.players[side]
        return "Human" if name == HUMAN else f"bot {name}"

    def show_analysis_lines(self) -> None:
        """The side panel's analysis: its lines while it is on, nothing while it is off."""
        self.panel.analysis = tuple(self.analysis_lines()) if self.analysis else None

    def analysis_lines(self) -> list[str]:
        """The side panel's analysis: the engine's lines, "analysing…" until they come, or the
        board's own (a game with no engine analysis)."""
        if self.analyser is None:
            return self.board.analysis_lines(self.state)
        analysed = self.board.current_analysis()
        return list(analysed.lines) if analysed is not None else ["[i]analysing…[/i]"]

    def rebuild_logs(self) -> None:
        """The move list and the commentary of the game so far (a new game, an undo); the side
        panel's players too (a swap)."""
        self.panel.labels = (self.player_label(0), self.player_label(1))
        self.panel.watching = not self.humans
        self.panel.seconds = self.watch_delay()
        self.moves.clear()
        self.commentary.clear()
        self.commentator = self.game.commentator()
        names = " vs ".join(f"{s.name} ({self.player_label(i)})" for i, s in enumerate(self.game.sides))
        self.write_commentary(f"[b]New game[/b]: {names}")
        for previous, state in zip(self.history, self.history[1:]):
            self.moves.add_move(previous, state, len(self.history))
            self.comment(state)
        if self.session.forfeit is not None:
            self.write_commentary(self.session.forfeit.reason)

    def comment(self, state: State) -> None:
        for line in self.commentator.see(state):
            self.write_commentary(line)

    def write_commentary(self, line: str) -> None:
        self.commentary.say(line)

    # -- keys --------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        return self.available(action, parameters)

    def available(self, action: str, parameters: tuple) -> bool:
        """Whether the screen's ``action`` makes sense now (the Footer shows it if it has room)."""
        watching = not self.humans and self.result is None  # bots play each other
        if action == "pause":
            return watching and not self.paused
        if action == "resume":
            return watching and self.paused
        if action == "step":
            return watching
        if action == "swap":
            return self.result is not None
        if action == "pace":
            if not watching:
                return False
            if not parameters:
                return True
            return 0 <= self.pace + parameters[0] < len(self.PACES)
        if action == "analysis":
            # shift+a instead of a while the board takes ``a`` as a letter (a human to move in
            # Othello): one of the two, never both (the too-small notice showed both)
            return self.board_types_letters() == bool(parameters)
        return True

    def fit_footer(self) -> None:
        """Leave the least needed of the screen's keys out of the Footer when the terminal is too
        narrow for them all (``FOOTER_PRIORITY``); the board's keys always stay."""
        room = self.available_width() - PALETTE_WIDTH
        if not self.has_class("too-small"):
            room -= sum(key_width(self.app, binding) for binding in shown_bindings(self.board))
        widths: dict[str, int] = {}
        for binding in shown_bindings(self):
            action = action_name(binding.action)
            widths[action] = widths.get(action, 0) + key_width(self.app, binding)
        entries = [(action, widths[action]) for action in self.FOOTER_PRIORITY if action in widths]
        self.query_one(FittedFooter).left_out = leave_out(entries, room)

    def board_types_letters(self) -> bool:
        return self.board.TYPES_LETTERS and self.result is None and self.state.to_move in self.humans

    def in_progress(self) -> bool:
        """A game someone has moved in and that is not over: leaving it throws it away."""
        return self.result is None and len(self.history) > 1

    def confirmed(self, question: str, yes: str, then) -> None:
        """``then()`` at once if no game is in progress, else after a Yes to ``question``."""
        if not self.in_progress():
            then()
            return
        from arcade.screens.confirm import ConfirmScreen

        self.app.push_screen(ConfirmScreen(question, yes), lambda answer: then() if answer else None)

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
                self.notify("Nothing of yours to take back yet: the bot's opening move stands.",
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
        self.write_commentary("[i]↶ undone[/i]")
        self.advance()

    def action_analysis(self, key: str = "a") -> None:
        self.analysis = not self.analysis
        self.board.analysis = self.analysis
        if self.analysis:
            self.request_analysis()
        else:
            self.cancel_analysis()
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
        from arcade.records import RecordError, save_game
        from bots.external import short_name

        players = tuple(short_name(p) if p != HUMAN else "Human" for p in self.players)
        try:
            path = save_game(self.game, players, self.session)  # type: ignore[arg-type]
        except (OSError, RecordError) as exc:
            self.notify(f"cannot save the game: {exc}", title="Not saved", severity="error")
            return
        self.notify(f"{path}\narcade replay {path} steps through it", title="Game saved", timeout=8)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.entry.id))

    def action_back(self) -> None:
        self.confirmed("Leave this game for the menu? It is not over.", "Leave", self.leave)

    def leave(self) -> None:
        self.cancel_bot()
        self.dismiss()

    def on_unmount(self) -> None:
        self.cancel_analysis()
        for entry in self.bot_entries.values():
            entry.close()
