"""A recorded game stepped through on its own board: ``arcade replay FILE [N]``.

The record (``arcade.records``: a match's or a tournament's) gives the game, its options, the two
players and every move and dice outcome; the screen plays them on the rules again and shows any
position with the same board, commentary and move list as a game in progress. Keys: ← → a move
back or on, Home and End the start and the end, q back: to the shell the command was typed in
when the replay is the app's only screen (``standalone``: ``arcade replay FILE N``), else to the
screen under it. Texts that come from the record (the
title, the players' names, a move that makes no sense) are shown plain (``arcade.records.schema.shown``):
never markup, never a terminal control.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Header, RichLog, Static

from arcade.widgets.footer import SteadyFooter
from arcade.widgets.side_panel import SidePanel
from arcade.boards.base import Board
from arcade.catalog import GameEntry
from arcade.screens.help import HelpScreen
from games.base import CHANCE, Game, GameError, State


class ReplayScreen(Screen):
    """One recorded game: its positions, one after another."""

    CSS_PATH = "game.tcss"
    """Its styles (``arcade/screens/game.tcss``), read when it first opens."""

    BINDINGS = [
        Binding("left", "step(-1)", "Back", id="back-a-move", tooltip="A move back", priority=True),
        Binding("right", "step(1)", "On", id="on-a-move", tooltip="A move on", priority=True),
        Binding("home", "jump(0)", "Start", id="start", tooltip="The starting position", priority=True),
        Binding("end", "jump(-1)", "End", id="end", tooltip="The final position", priority=True),
        Binding("question_mark", "help", "Rules", id="help", tooltip="The rules of the game"),
        Binding("q", "back('menu')", "Menu", id="leave", tooltip="Leave the replay for the menu"),
        Binding("q", "back('shell')", "Quit", id="leave-to-shell", tooltip="Leave the replay (back to the shell)"),
        Binding("escape", "back", "Back", show=False),
    ]

    def __init__(self, entry: GameEntry, game: Game, players: tuple[str, str], moves: list[str],
                 title: str, standalone: bool = False) -> None:
        from arcade.records.schema import shown

        super().__init__()
        self.standalone = standalone
        """The app was started for this replay alone (``arcade replay FILE N``): leaving it ends the
        app, back to the shell, and q says Quit instead of Menu."""
        self.css_path = [*self.css_path, entry.board_css_file]  # loaded when the screen opens
        self.entry = entry
        self.game = game
        self.players = (shown(players[0], 200), shown(players[1], 200))
        self.title_text = shown(title)
        self.states: list[State] = [game.initial_state()]
        self.problem = ""
        for number, text in enumerate(moves, start=1):
            try:
                self.states.append(game.play(self.states[-1], game.parse_move(self.states[-1], text)))
            except GameError as exc:
                self.problem = shown(f"the record stops making sense at move {number} ({shown(repr(text), 80)}: {exc})")
                break
        self.position = 0
        self.board: Board = entry.board_class()(game, id="board")
        self.board.replaying = True
        self.board.can_focus = False  # a replay takes no moves: the board's keys are not offered

    def compose(self) -> ComposeResult:
        yield Header()
        with Container(id="game-grid"):
            with Vertical(id="board-area"):
                yield Static("", id="result-banner")
                yield self.board
            yield SidePanel(self.game, self.board.side_style, id="side-panel")
            yield RichLog(id="commentary", wrap=True, markup=True, min_width=20)
            yield DataTable(id="moves", cursor_type="row", zebra_stripes=True)
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one("#commentary").border_title = "Commentary"
        self.query_one("#moves").border_title = "Moves"
        self.query_one("#side-panel").border_title = f"Replay · {self.game.title}"
        table = self.query_one("#moves", DataTable)
        table.add_columns("#", "who", "move")
        self.fill_moves(table)
        table.focus()
        self.show(0)

    def fill_moves(self, table: DataTable) -> None:
        """The moves as the live move list writes them, a long one (Hog's ten dice) broken after
        its dashes onto a second and third line within the pane (``break_move``), never cut."""
        from arcade.widgets.game_log import break_move, move_room

        room = move_room(self.game, table.outer_size.width, len(self.states))
        for before, after in zip(self.states, self.states[1:]):
            event = after.event
            who = "dice" if event.side == CHANCE else self.game.sides[event.side].name
            lines = break_move(self.game.move_label(before, event.move), room)
            table.add_row(str(after.ply), who, Text("\n".join(lines)), height=len(lines))

    # -- drawing -------------------------------------------------------------------------------
    def show(self, position: int) -> None:
        self.position = max(0, min(position, len(self.states) - 1))
        state = self.states[self.position]
        for seen in self.states[:self.position + 1]:  # in order: what a board keeps of the game so
            self.board.show(seen, False)                # far (Hog's last turns) is as it was live
        log = self.query_one("#commentary", RichLog)
        log.clear()
        log.write(Text(self.title_text, style="bold"))
        commentator = self.game.commentator()
        for seen in self.states[1:self.position + 1]:
            for line in commentator.see(seen):
                log.write(Text(line))
        if self.problem and self.position == len(self.states) - 1:
            log.write(Text(self.problem, style="bold"))
        table = self.query_one("#moves", DataTable)
        if self.position:
            table.move_cursor(row=self.position - 1, animate=False)
        banner = self.query_one("#result-banner", Static)
        if state.result is not None:
            winner = "Draw!" if state.result.winner is None else f"{self.game.sides[state.result.winner].name} wins!"
            banner.update(Text(f"{winner} · ← back · Home start", style="bold"))
        banner.set_class(state.result is not None, "shown")
        self.refresh_panel(state)

    def refresh_panel(self, state: State) -> None:
        """The game screen's side panel (``SidePanel``: a long name cut to its line, the panel fitted
        to its height), with the players' names, the move shown and the result at the end."""
        panel = self.query_one(SidePanel)
        panel.labels = (self.players[0], self.players[1])
        panel.where = f"move {self.position} of {len(self.states) - 1}"
        panel.result = state.result
        panel.state = state

    # -- keys ----------------------------------------------------------------------------------
    def on_board_move_picked(self, message: Board.MovePicked) -> None:
        message.stop()  # a replay takes no moves

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.show(event.cursor_row + 1)

    def action_step(self, delta: int) -> None:
        if not 0 <= self.position + delta < len(self.states):
            self.app.bell()
            return
        self.show(self.position + delta)

    def action_jump(self, position: int) -> None:
        self.show(position if position >= 0 else len(self.states) - 1)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.entry.id))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Of q's two bindings, the one that says where q goes (Menu, or Quit to the shell)."""
        if action == "back" and parameters:
            return (parameters[0] == "shell") == self.standalone
        return True

    def action_back(self, to: str = "") -> None:
        """Leave the replay: the app ends when it was opened for the replay alone."""
        if self.standalone:
            self.app.exit()
        else:
            self.dismiss()
