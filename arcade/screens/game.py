"""The one game screen used by all five games.

It owns the game's history of states, the two players (humans or bots), the bots' thread
workers, and the panes around the game's board widget: a side panel (players, whose turn,
status, "thinking…", the analysis), the commentary (the game's ``Commentator``), the move list,
and the Footer. Boards only draw states and propose moves (``arcade/boards/base.py``).

Bots think in a thread worker; each answer carries the ``generation`` it was asked in, and an
answer for a position that is no longer current (after undo, new game, leaving) is dropped.
Chance steps (dice) are rolled here with the screen's seeded generator.
"""

from __future__ import annotations

import random
import traceback

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, RichLog, Static
from textual.worker import get_current_worker

from arcade.boards import board_class
from arcade.boards.base import Board
from bots.base import Bot, Context
from bots.external import Forfeit
from bots.registry import get_bot
from games import GameEntry
from games.base import CHANCE, GameError, Result, State

HUMAN = "human"


class GameScreen(Screen):
    """A game in progress: board, side panel, commentary, move list."""

    BINDINGS = [
        Binding("n", "new_game", "New"),
        Binding("u", "undo", "Undo"),
        Binding("a", "analysis", "Analysis"),
        Binding("A", "analysis('shift')", "Analysis", key_display="A"),  # when the board types letters
        Binding("p", "pause", "Pause"),
        Binding("s", "step", "Step"),
        Binding("question_mark", "help", "Rules"),
        Binding("q", "back", "Menu"),
        Binding("escape", "back", "Menu", show=False),
    ]

    BOT_DELAY = 0.35
    """Seconds before a bot moves when a human plays (so the human sees the position)."""
    WATCH_DELAY = 0.8
    """Seconds between moves when bots play each other: a watchable pace."""
    CHANCE_DELAY = 0.25
    """Seconds before the dice are rolled."""

    def __init__(self, entry: GameEntry, players: tuple[str, str], settings: dict) -> None:
        super().__init__()
        self.entry = entry
        self.game = entry.load()(**settings)
        self.players = players
        self.bot_entries = {side: get_bot(entry.id, name) for side, name in enumerate(players) if name != HUMAN}
        self.humans = {side for side, name in enumerate(players) if name == HUMAN}
        self.history: list[State] = [self.game.initial_state()]
        self.forfeit: Result | None = None
        self.generation = 0
        self.games_started = 0
        self.paused = False
        self.step_once = False
        self.thinking: int | None = None
        self.thought = ""
        self.analysis = False
        self.bots: dict[int, Bot] = {}
        self.bots_told = False  # ``Bot.game_over`` called for the game's end
        self.chance_rng = random.Random()
        self.bot_rngs = (random.Random(), random.Random())
        self.commentator = self.game.commentator()
        self.board: Board = board_class(entry.id)(self.game, id="board")

    # -- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="too-small-notice")
        with Container(id="game-grid"):
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

    def check_size(self) -> None:
        need_w, need_h = self.board.min_size()
        width, height = self.app.size
        small = width < need_w or height < need_h
        self.set_class(small, "too-small")
        if small:
            self.query_one("#too-small-notice", Static).update(
                f"[b]Enlarge the terminal[/b]\n\n{self.game.title} needs at least {need_w}×{need_h}; "
                f"this one is {width}×{height}.\n\nq goes back to the menu."
            )

    # -- the game's flow -----------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.history[-1]

    @property
    def result(self) -> Result | None:
        return self.forfeit or self.state.result

    def new_game(self) -> None:
        self.cancel_bot()
        self.games_started += 1
        seed = getattr(self.app, "seed", None)
        if seed is None:
            self.chance_rng = random.Random()
            self.bot_rngs = (random.Random(), random.Random())
        else:
            base = f"{seed}:{self.entry.id}:{self.games_started}"
            self.chance_rng = random.Random(base + ":chance")
            self.bot_rngs = (random.Random(base + ":0"), random.Random(base + ":1"))
        self.bots = {side: entry.make(self.game) for side, entry in self.bot_entries.items()}
        self.history = [self.game.initial_state()]
        self.forfeit = None
        self.paused = False
        self.step_once = False
        self.rebuild_logs()
        self.advance()

    def push(self, state: State) -> None:
        """Make ``state`` current: log it, comment on it, and let the next player move."""
        previous = self.state
        self.history.append(state)
        self.generation += 1
        self.add_move_row(previous, state)
        self.comment(state)
        self.advance()

    def advance(self) -> None:
        """Redraw, then start whatever comes next: the dice, a bot, or wait for a human."""
        self.thinking = None
        self.refresh_views()
        if self.result is not None:
            self.tell_bots_the_end()
            return
        self.bots_told = False  # an undo after the end reopens the game
        state = self.state
        generation = self.generation
        if state.to_move == CHANCE:
            if self.paused and not self.humans and not self.step_once:
                return
            self.later(0 if self.step_once else self.CHANCE_DELAY, lambda: self.roll(generation))
            return
        if state.to_move in self.humans:
            self.board.focus()
            return
        if self.paused and not self.step_once:
            return
        delay = 0 if self.step_once else self.WATCH_DELAY if not self.humans else self.BOT_DELAY
        self.later(delay, lambda: self.start_bot(generation))

    def tell_bots_the_end(self) -> None:
        """``Bot.game_over`` for each bot, once per ending (an external program is told here)."""
        if self.bots_told:
            return
        self.bots_told = True
        for bot in self.bots.values():
            try:
                bot.game_over(self.state, self.result)
            except Exception as exc:  # telling a program failed: the game is over all the same
                self.write_commentary(f"({type(exc).__name__} while ending the game for a bot: {exc})")

    def later(self, delay: float, callback) -> None:
        if delay <= 0:
            self.call_later(callback)
        else:
            self.set_timer(delay, callback)

    def roll(self, generation: int) -> None:
        if generation != self.generation or self.result is not None or self.state.to_move != CHANCE:
            return
        self.step_once = False
        outcome = self.game.sample_chance(self.state, self.chance_rng)
        self.push(self.game.play(self.state, outcome))

    def start_bot(self, generation: int) -> None:
        if generation != self.generation or self.result is not None:
            return
        side = self.state.to_move
        if side not in self.bots:
            return
        self.step_once = False
        self.thinking = side
        self.thought = ""
        self.refresh_panel()
        self.think(generation, self.state, self.bots[side], self.bot_rngs[side])

    @work(thread=True, exclusive=True, group="bot")
    def think(self, generation: int, state: State, bot: Bot, rng: random.Random) -> None:
        """Ask ``bot`` for a move in a thread; the answer comes back through ``bot_answered``."""
        worker = get_current_worker()

        def stale() -> bool:
            return worker.is_cancelled or generation != self.generation

        def report(text: str) -> None:
            if not stale():
                self.send(self.show_thought, generation, text)

        ctx = Context(rng=rng, report=report, cancelled=stale)
        try:
            move, error = bot.choose(state, ctx), None
        except Forfeit as exc:  # a file bot's fault, in the course's wording
            move, error = None, exc
        except Exception as exc:  # a bot's bug forfeits the game; the app keeps running
            move, error = None, "".join(traceback.format_exception_only(type(exc), exc)).strip()
        if not stale():
            self.send(self.bot_answered, generation, move, error)

    def send(self, callback, *args) -> None:
        try:
            self.app.call_from_thread(callback, *args)
        except RuntimeError:  # the app is closing
            pass

    def show_thought(self, generation: int, text: str) -> None:
        if generation == self.generation:
            self.thought = text
            self.refresh_panel()

    def bot_answered(self, generation: int, move, error: str | Forfeit | None) -> None:
        if generation != self.generation or self.result is not None:
            return
        side = self.state.to_move
        name = self.game.sides[side].name
        if isinstance(error, Forfeit):
            self.end_by_forfeit(side, f"{name} ({self.players[side]}) {error}")
            return
        if error is not None:
            self.end_by_forfeit(side, f"{name} ({self.players[side]}) strategy produced an error: {error}")
            return
        try:
            state = self.game.play(self.state, move)
        except (GameError, TypeError, ValueError) as exc:
            self.end_by_forfeit(side, f"{name} ({self.players[side]}) strategy returned an invalid move: {exc}")
            return
        self.push(state)

    def end_by_forfeit(self, side: int, reason: str) -> None:
        self.forfeit = Result(1 - side, f"{reason}; {self.game.sides[1 - side].name} wins by forfeit")
        self.generation += 1
        self.write_commentary(self.forfeit.reason)
        self.advance()

    def cancel_bot(self) -> None:
        self.generation += 1
        self.thinking = None
        self.workers.cancel_group(self, "bot")

    # -- human moves -----------------------------------------------------------------------------
    def on_board_move_picked(self, message: Board.MovePicked) -> None:
        message.stop()
        state = self.state
        if self.result is not None or state.to_move not in self.humans:
            self.app.bell()
            return
        try:
            new_state = self.game.play(state, message.move)
        except GameError as exc:
            self.notify(str(exc), title="Not a legal move", severity="warning")
            return
        self.push(new_state)

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
        self.refresh_panel()
        banner = self.query_one("#result-banner", Static)
        if self.result is not None:
            banner.update(Text.from_markup(f"[b]{self.result_headline()}[/b] · n play again · q menu"))
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
            lines.append(f"\n    {self.player_label(side)}")
            score = self.game.score_text(state, side)
            if score:
                lines.append(f" · {score}")
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
        if self.analysis:
            lines.append("\n")
            for line in self.board.analysis_lines(state):
                lines.append_text(Text.from_markup(line))
                lines.append("\n")
        self.query_one("#side-panel", Static).update(Content.from_rich_text(lines))

    def rebuild_logs(self) -> None:
        self.query_one("#moves", DataTable).clear()
        self.query_one("#commentary", RichLog).clear()
        self.commentator = self.game.commentator()
        names = " vs ".join(f"{s.name} ({self.player_label(i)})" for i, s in enumerate(self.game.sides))
        self.write_commentary(f"[b]New game[/b]: {names}")
        for previous, state in zip(self.history, self.history[1:]):
            self.add_move_row(previous, state)
            self.comment(state)
        if self.forfeit is not None:
            self.write_commentary(self.forfeit.reason)

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
        table.add_row(str(state.ply), who, self.game.move_text(previous, event.move))
        table.scroll_end(animate=False)

    # -- keys --------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("pause", "step"):
            return not self.humans  # a human's game needs neither; keeps the Footer short
        if action == "analysis" and parameters:
            # shift+a, shown while the board takes ``a`` as a letter (a human to move in Othello)
            return self.board_types_letters()
        return True

    def board_types_letters(self) -> bool:
        return self.board.TYPES_LETTERS and self.result is None and self.state.to_move in self.humans

    def action_new_game(self) -> None:
        self.new_game()

    def action_undo(self) -> None:
        if len(self.history) == 1:
            self.app.bell()
            return
        self.cancel_bot()
        self.forfeit = None
        if not self.humans:
            self.history.pop()
            self.paused = True
        else:
            while len(self.history) > 1:
                popped = self.history.pop()
                side = popped.event.side if popped.event is not None else None
                if side in self.humans and self.state.to_move == side:
                    break
        self.rebuild_logs()
        self.write_commentary("[i]↶ undone[/i]")
        self.advance()

    def action_analysis(self, key: str = "a") -> None:
        self.analysis = not self.analysis
        self.board.analysis = self.analysis
        self.refresh_panel()

    def action_pause(self) -> None:
        self.paused = not self.paused
        if self.paused:
            self.cancel_bot()
        self.advance()

    def action_step(self) -> None:
        if not self.paused:
            self.paused = True
            self.cancel_bot()
        self.step_once = True
        self.advance()

    def action_help(self) -> None:
        from arcade.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.entry.id))

    def action_back(self) -> None:
        self.cancel_bot()
        self.app.pop_screen()
        from arcade.screens.setup import SetupScreen

        if isinstance(self.app.screen, SetupScreen):
            self.app.pop_screen()
