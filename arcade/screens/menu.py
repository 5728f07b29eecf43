"""The menu of the five games."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from games import CATALOG, GameEntry


def menu_prompt(entry: GameEntry) -> Text:
    text = Text()
    text.append(entry.title, style="bold")
    if entry.available:
        text.append("\n" + entry.blurb)
    else:
        text.append(" · not playable yet: coming with its own issue", style="italic")
    return text


class MenuScreen(Screen):
    """Pick a game: Enter or a click opens its setup screen."""

    BINDINGS = [
        Binding("q", "app.quit", "Quit"),
        Binding("question_mark", "help", "Help"),
        Binding("t", "tournament", "Tournament"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="menu"):
            yield Static("Choose a game", id="menu-title")
            yield OptionList(
                *(Option(menu_prompt(e), id=e.id, disabled=not e.available) for e in CATALOG.values()),
                id="games",
            )
            yield Static("↑↓ choose · Enter set up a game · ? rules · t tournament · q quit", id="menu-hint")
        yield Footer()

    def on_mount(self) -> None:
        games = self.query_one("#games", OptionList)
        games.focus()
        for index, entry in enumerate(CATALOG.values()):
            if entry.available:
                games.highlighted = index
                break

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        from arcade.screens.setup import SetupScreen

        self.app.push_screen(SetupScreen(CATALOG[event.option.id]))

    def action_tournament(self) -> None:
        from arcade.screens.tournament import TournamentScreen

        games = self.query_one("#games", OptionList)
        highlighted = None if games.highlighted is None else list(CATALOG)[games.highlighted]
        self.app.push_screen(TournamentScreen(highlighted))

    def action_help(self) -> None:
        from arcade.screens.help import HelpScreen

        games = self.query_one("#games", OptionList)
        if games.highlighted is None:
            return
        entry = list(CATALOG.values())[games.highlighted]
        self.app.push_screen(HelpScreen(entry.id))
