"""The game screen's frame: the grid of its panes and the "enlarge the terminal" notice (the
tournament screen's too)."""

from __future__ import annotations

from textual.containers import Container
from textual.message import Message
from textual.widgets import Static


class Refit(Message):
    """A pane was resized without the screen (the keys panel docked or removed, Ctrl+P → Keys):
    the screen checks again whether the game fits."""


class SizeNotice(Static):
    """The "enlarge the terminal" notice."""

    def say(self, title: str, need: tuple[int, int], have: tuple[int, int], beside_keys: bool,
            back: str = "q") -> None:
        """``title`` needs ``need`` (width, height); the terminal has ``have``, less the keys
        panel's width if it is ``beside_keys``; ``back`` is the key back to the menu."""
        self.update(
            f"[b]Enlarge the terminal[/b]\n\n{title} needs at least {need[0]}×{need[1]}; "
            f"this one is {have[0]}×{have[1]}"
            + (" beside the keys panel (Ctrl+P hides it)" if beside_keys else "")
            + f".\n\n{back} goes back to the menu."
        )

    def on_resize(self) -> None:
        self.post_message(Refit())


class GameGrid(Container):
    """The board, the side panel, the commentary and the moves."""

    def on_resize(self) -> None:
        self.post_message(Refit())
