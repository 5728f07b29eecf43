"""A game's rules, from ``arcade/help/<game id>.md``, in a scrollable modal."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from arcade.catalog import CATALOG


def help_markdown(game_id: str) -> str:
    """The rules of ``game_id`` as Markdown (``arcade/help/<id>.md``; a test checks each exists)."""
    return CATALOG[game_id].help_markdown()


class HelpScreen(ModalScreen[None]):
    """The rules of one game. Escape, q or ? closes it."""

    CSS_PATH = "help.tcss"
    """Its styles (``arcade/screens/help.tcss``), read when it first opens."""

    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="close", tooltip="Close the rules"),
        Binding("q", "dismiss", "Close", show=False),
        Binding("question_mark", "dismiss", "Close", show=False),
    ]

    def __init__(self, game_id: str) -> None:
        super().__init__()
        self.game_id = game_id

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Markdown(help_markdown(self.game_id))
        yield Static("↑↓ PgUp PgDn scroll · Escape close", id="help-hint")

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def action_dismiss(self) -> None:
        self.dismiss(None)
