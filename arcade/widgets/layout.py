"""The game screen's frame: the grid of its panes and the "enlarge the terminal" notice."""

from __future__ import annotations

from textual.containers import Container
from textual.message import Message
from textual.widgets import Static


class Refit(Message):
    """A pane was resized without the screen (the keys panel docked or removed, Ctrl+P → Keys):
    the screen checks again whether the game fits."""


class SizeNotice(Static):
    """The "enlarge the terminal" notice."""

    def on_resize(self) -> None:
        self.post_message(Refit())


class GameGrid(Container):
    """The board, the side panel, the commentary and the moves."""

    def on_resize(self) -> None:
        self.post_message(Refit())
