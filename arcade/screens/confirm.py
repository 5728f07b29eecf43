"""A yes/no question in a modal: "Leave this game?" before a game in progress is thrown away."""

from __future__ import annotations

from typing import Callable

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmScreen(ModalScreen[bool]):
    """``question`` with Yes (y) and No (n, Escape; Enter on the focused No); dismissed with the answer."""

    CSS_PATH = "confirm.tcss"
    """Its styles (``arcade/screens/confirm.tcss``), read when it first opens."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm-yes", tooltip="Yes, do it"),
        Binding("n,escape", "answer(False)", "No", id="confirm-no", tooltip="No, back to the game"),
    ]

    def __init__(self, question: str, yes: str = "Yes") -> None:
        super().__init__()
        self.question = question
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(self.question, id="confirm-question")
            with Horizontal(id="confirm-buttons"):
                yield Button(f"{self.yes} (y)", id="confirm-yes", variant="warning", compact=True)
                yield Button("No (n)", id="confirm-no", compact=True)

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm-yes")


def confirm_first(app: App, ask: bool, question: str, yes: str, then: Callable[[], object]) -> None:
    """``then()`` at once unless ``ask``; if ``ask``, after a Yes to ``question`` (``yes``: the
    Yes button's word)."""
    if not ask:
        then()
        return
    app.push_screen(ConfirmScreen(question, yes), lambda answer: then() if answer else None)
