"""The menu of the five games."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from arcade.widgets.footer import SteadyFooter
from arcade.catalog import CATALOG, GameEntry


def menu_prompt(entry: GameEntry) -> Text:
    text = Text()
    text.append(entry.title, style="bold")
    text.append("\n" + entry.blurb)
    return text


class GameList(OptionList):
    """The games. Survives any terminal size: PageUp/PageDown before the list has been laid out
    (a terminal 4 lines high or less) move one game instead of failing."""

    def _move_page(self, direction) -> None:
        if (self.highlighted or 0) not in self._index_to_line or not self._lines:
            if direction < 0:
                self.action_cursor_up()
            else:
                self.action_cursor_down()
            return
        super()._move_page(direction)


class MenuScreen(Screen):
    """Pick a game: Enter or a click opens its setup screen."""

    BINDINGS = [
        Binding("q", "app.quit", "Quit", id="quit", tooltip="Leave the arcade"),
        Binding("question_mark", "help", "Help", id="help", tooltip="The rules of the highlighted game"),
        Binding("t", "tournament", "Tournament", id="tournament", tooltip="A tournament between bots"),
        Binding("c", "contest", "Contest", id="contest", tooltip="A contest's live board (its folder)"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Choose a game", id="menu-title")
        yield GameList(*(Option(menu_prompt(e), id=e.id) for e in CATALOG.values()), id="games")
        yield Static("↑↓ choose · Enter set up a game", id="menu-hint")
        yield SteadyFooter()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """No tournament, and no contest's folder, where the app allows no bots from files
        (``arcade serve``: a browser's user neither runs nor reads anything of the server's)."""
        return action not in ("tournament", "contest") or getattr(self.app, "allow_file_bots", True)

    def on_mount(self) -> None:
        games = self.query_one("#games", OptionList)
        games.focus()
        games.highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        from arcade.screens.setup import SetupScreen

        self.app.push_screen(SetupScreen(CATALOG[event.option.id]))

    def action_tournament(self) -> None:
        from arcade.screens.tournament import TournamentScreen

        games = self.query_one("#games", OptionList)
        highlighted = None if games.highlighted is None else list(CATALOG)[games.highlighted]
        self.app.push_screen(TournamentScreen(highlighted))

    def action_contest(self) -> None:
        from arcade.screens.contest import ContestScreen, OpenContest

        def opened(folder: str | None) -> None:
            if folder:
                self.app.push_screen(ContestScreen(folder))

        self.app.push_screen(OpenContest(), opened)

    def action_help(self) -> None:
        from arcade.screens.help import HelpScreen

        games = self.query_one("#games", OptionList)
        if games.highlighted is None:
            return
        entry = list(CATALOG.values())[games.highlighted]
        self.app.push_screen(HelpScreen(entry.id))
