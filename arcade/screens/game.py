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
from textual.actions import parse as parse_action
from textual.binding import Binding
from textual.containers import Container, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, HelpPanel, RichLog, Static
from textual.worker import get_current_worker

from arcade.boards.base import Board
from arcade.catalog import GameEntry
from arcade.screens.help import HelpScreen
from arcade.screens.palette import GameCommands
from arcade.seeds import screen_rngs
from arcade.session import HUMAN, Answer, CannotUndo, Session
from bots.base import BotEntry
from bots.limits import Limits
from bots.registry import analyser_for, resolve
from games.base import CHANCE, Analysis, GameError, Result, State


def recheck_size(widget) -> None:
    """When the notice or the game grid is resized without the screen (the keys panel docked or
    removed, Ctrl+P → Keys), the screen checks again whether the game fits."""
    screen = widget.screen
    if isinstance(screen, GameScreen):
        screen.call_after_refresh(screen.check_size)


class SizeNotice(Static):
    """The "enlarge the terminal" notice."""

    def on_resize(self) -> None:
        recheck_size(self)


class GameGrid(Container):
    """The board, the side panel, the commentary and the moves."""

    def on_resize(self) -> None:
        recheck_size(self)


class GameScreen(Screen):
    """A game in progress: board, side panel, commentary, move list."""

    _KEYS = [
        Binding("n", "new_game", "New", id="new-game", tooltip="Start a new game with the same players"),
        Binding("u", "undo", "Undo", id="undo", tooltip="Take back your last move (a step when bots play)"),
        Binding("a", "analysis", "Analysis", id="analysis", tooltip="Show or hide the analysis"),
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
    ]
    BINDINGS = [
        *_KEYS[:3],
        # shown instead of ``a`` while the board types letters (a human to move in Othello)
        Binding("A", "analysis('shift')", "Analysis", key_display="A", id="analysis-shift",
                tooltip="Show or hide the analysis"),
        *_KEYS[3:],
        Binding("escape", "back", "Menu", show=False),
        Binding("ctrl+s", "save_game", "Save", show=False, id="save",
                tooltip="Save the game (arcade replay FILE steps through it)"),
        # every key again, not in the Footer: it still works (and the keys panel names it) when
        # the Footer has no room to show it
        *(Binding(b.key, f"quiet({b.action!r})", b.description, show=False, tooltip=b.tooltip) for b in _KEYS),
    ]

    COMMANDS = Screen.COMMANDS | {GameCommands}
    """The command palette: the app's commands and the game's (``arcade/screens/palette.py``)."""

    FOOTER_PRIORITY = ("back", "help", "new_game", "swap", "pause", "resume", "analysis", "pace", "undo", "step")
    """The screen's keys in the order the Footer keeps them when it is short of room (the board's
    own keys, needed to play, come first)."""
    PALETTE_WIDTH = 14
    """Columns the Footer's command-palette key takes on the right."""

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
                 entries: dict[int, BotEntry] | None = None, limits: Limits | None = None) -> None:
        """``players``: ``"human"`` or a bot's name for each side; ``entries``: the bots' entries
        when the caller admitted them already (the setup screen, for file bots), under ``limits``
        (``bots.limits``: the session's)."""
        super().__init__()
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
        self.paused = False
        self.step_once = False
        self.thinking: int | None = None
        self.thought = ""
        self.analysis = False
        self.analyser = analyser_for(entry.id)
        """The game's engine analysis (``None``: the board works its analysis out alone)."""
        self.analysing: State | None = None
        """The position the analysis worker is looking at, if any."""
        self.analysis_generation = 0
        self.pace = self.PACES.index(1.0)
        self.footer_hidden: set[str] = set()
        """The screen's actions left out of the Footer for lack of room (their keys still work)."""
        self.commentator = self.game.commentator()
        self.board: Board = entry.board_class()(self.game, id="board")

    # -- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        yield SizeNotice("", id="too-small-notice")
        with GameGrid(id="game-grid"):
            with Vertical(id="board-area"):
                yield Static("", id="result-banner")
                yield self.board
            yield Static("", id="side-panel")
            yield RichLog(id="commentary", wrap=True, markup=True, min_width=20)
            yield DataTable(id="moves", cursor_type="none", zebra_stripes=True, show_cursor=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#commentary").border_title = "Commentary"
        self.query_one("#moves").border_title = "Moves"
        self.query_one("#side-panel").border_title = self.game.title
        table = self.query_one("#moves", DataTable)
        table.add_columns("#", "who", "move")
        self.check_size()
        self.new_game()

    def on_resize(self) -> None:
        self.check_size()

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
        self.session = Session(self.game, bots, chance_rng, (rng0, rng1), self.limits)
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
        self.add_move_row(previous, self.state)
        self.comment(self.state)
        self.advance()

    def advance(self) -> None:
        """Redraw, then start whatever comes next: the dice, a bot, or wait for a human."""
        self.thinking = None
        self.refresh_views()
        self.fit_footer()
        self.refresh_bindings()
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

    def action_pace(self, step: int) -> None:
        """Slower (-1) or faster (+1) when bots play each other; the side panel says the pace."""
        self.pace = max(0, min(len(self.PACES) - 1, self.pace + step))
        self.refresh_panel()
        self.refresh_bindings()

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
        self.refresh_panel()
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
            self.refresh_panel()

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
        self.refresh_panel()

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
        self.refresh_panel()

    # -- the panes -------------------------------------------------------------------------------
    def refresh_views(self) -> None:
        state = self.state
        human = self.result is None and state.to_move in self.humans
        self.board.show(state, human)
        self.request_analysis()
        self.refresh_panel()
        banner = self.query_one("#result-banner", Static)
        if self.result is not None:
            headline = self.result_headline()
            width = banner.size.width or self.query_one("#board-area").size.width or 46
            tail = next((t for t in (" · n rematch · x swap sides · q menu", " · n rematch · x swap", "")
                         if len(headline) + len(t) <= width), "")
            banner.update(Text.from_markup(f"[b]{headline}[/b]{tail}"))
            banner.add_class("shown")
        else:
            banner.remove_class("shown")

    def result_headline(self) -> str:
        result = self.result
        if result is None:
            return ""
        if result.winner is None:
            return "Draw!"
        return f"{self.game.sides[result.winner].name} wins!"

    def player_label(self, side: int) -> str:
        name = self.players[side]
        return "Human" if name == HUMAN else f"bot {name}"

    def refresh_panel(self) -> None:
        state = self.state
        lines = Text()
        for side, info in enumerate(self.game.sides):
            to_move = self.result is None and state.to_move == side
            lines.append("▶ " if to_move else "  ", style="bold")
            lines.append(f"{info.symbol} {info.name}", style=self.board.side_style(side))
            label = self.player_label(side)
            lines.append(f"\n    {label}")
            score = self.game.score_text(state, side)
            width = self.query_one("#side-panel").size.width or 26
            if score and 4 + len(label) + 3 + len(score) <= width:
                lines.append(f" · {score}")
            elif score:  # a long bot name: the score on a line of its own, not wrapped mid-way
                lines.append(f"\n    {score}")
            lines.append("\n")
        lines.append("\n")
        if self.result is not None:
            lines.append(self.result_headline() + "\n", style="bold reverse")
            lines.append(self.result.reason + "\n")
        else:
            lines.append(self.game.describe(state) + "\n", style="bold")
            if self.thinking is not None:
                lines.append(f"{self.game.sides[self.thinking].name} is thinking…\n", style="italic")
                if self.thought:
                    lines.append(self.thought + "\n", style="dim")
            elif self.paused and not self.humans:
                lines.append("paused · p resume · s step\n", style="italic")
            if not self.humans:
                seconds = GameScreen.WATCH_DELAY * self.PACES[self.pace]
                lines.append(f"pace: {seconds:g} s a move · - slower · + faster\n", style="dim")
        if self.analysis:
            lines.append("\n")
            for line in self.analysis_lines():
                lines.append_text(Text.from_markup(line))
                lines.append("\n")
        self.query_one("#side-panel", Static).update(Content.from_rich_text(lines))

    def analysis_lines(self) -> list[str]:
        """The side panel's analysis: the engine's lines, "analysing…" until they come, or the
        board's own (a game with no engine analysis)."""
        if self.analyser is None:
            return self.board.analysis_lines(self.state)
        analysed = self.board.current_analysis()
        return list(analysed.lines) if analysed is not None else ["[i]analysing…[/i]"]

    def rebuild_logs(self) -> None:
        self.query_one("#moves", DataTable).clear()
        self.query_one("#commentary", RichLog).clear()
        self.commentator = self.game.commentator()
        names = " vs ".join(f"{s.name} ({self.player_label(i)})" for i, s in enumerate(self.game.sides))
        self.write_commentary(f"[b]New game[/b]: {names}")
        for previous, state in zip(self.history, self.history[1:]):
            self.add_move_row(previous, state)
            self.comment(state)
        if self.session.forfeit is not None:
            self.write_commentary(self.session.forfeit.reason)

    def comment(self, state: State) -> None:
        for line in self.commentator.see(state):
            self.write_commentary(line)

    def write_commentary(self, line: str) -> None:
        self.query_one("#commentary", RichLog).write(Text.from_markup(line) if "[" in line and "]" in line else Text(line))

    def add_move_row(self, previous: State, state: State) -> None:
        event = state.event
        if event is None:
            return
        who = "dice" if event.side == CHANCE else self.game.sides[event.side].name
        table = self.query_one("#moves", DataTable)
        table.add_row(str(state.ply), who, self.fit_move(self.game.move_label(previous, event.move), who))
        table.scroll_end(animate=False)

    def fit_move(self, text: str, who: str) -> str:
        """The move's text within the moves pane (no sideways scrolling): Hog's ten dice lose
        their dashes (``5555544433``) before anything is cut, and a cut ends in ``…``."""
        names = max([4] + [len(side.name) for side in self.game.sides])
        width = self.query_one("#moves").outer_size.width or 30  # border 2, scrollbar 1, cell padding
        room = width - 2 - 1 - (len(str(len(self.history))) + 2) - (names + 2) - 2
        if len(text) > room:
            text = text.replace("-", "")
        if len(text) > room:
            text = text[: room - 1] + "…"
        return text

    # -- keys --------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "quiet":
            name, _, rest = parameters[0].partition("(")
            quiet_parameters = parse_action(parameters[0])[2]
            return self.available(name, quiet_parameters) and name in self.footer_hidden
        available = self.available(action, parameters)
        if available and action in self.footer_hidden:
            return False
        return available

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

    def action_quiet(self, action: str) -> None:
        """A key whose Footer entry was left out for lack of room: do what it does."""
        _, name, parameters = parse_action(action)
        getattr(self, f"action_{name}")(*parameters)

    def fit_footer(self) -> None:
        """Leave the least needed of the screen's keys out of the Footer when the terminal is too
        narrow for them all (``FOOTER_PRIORITY``); the board's keys always stay."""
        room = self.available_width() - self.PALETTE_WIDTH
        for binding in [] if self.has_class("too-small") else self.shown_board_bindings():
            room -= self.footer_width(binding)
        hidden = set()
        shown: dict[str, list[tuple[Binding, tuple]]] = {}
        seen = set()
        for _key, binding in self._bindings:
            if binding.show and binding.description and (binding.action, binding.description) not in seen:
                seen.add((binding.action, binding.description))  # "plus,equals_sign": one entry
                _, action, parameters = parse_action(binding.action)
                shown.setdefault(action, []).append((binding, parameters))
        for action in self.FOOTER_PRIORITY:
            entries = [(b, p) for b, p in shown.get(action, ()) if self.available(action, p)]
            if not entries:
                continue
            width = sum(self.footer_width(b) for b, _p in entries)
            if width <= room:
                room -= width
            else:
                hidden.add(action)
        if hidden != self.footer_hidden:
            self.footer_hidden = hidden
            self.refresh_bindings()

    def shown_board_bindings(self) -> list[Binding]:
        board = self.board
        shown, seen = [], set()
        for _key, binding in board._bindings:
            if not binding.show or binding.action in seen:  # "tab,right,down": one Footer entry
                continue
            _, action, parameters = parse_action(binding.action)
            if board.check_action(action, parameters) is False:
                continue
            seen.add(binding.action)
            shown.append(binding)
        return shown

    def footer_width(self, binding: Binding) -> int:
        """Columns a binding takes in the Footer: `` key description `` and a space."""
        return len(self.app.get_key_display(binding)) + len(binding.description) + 3

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
        self.refresh_panel()

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
