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
        from arcade.untrusted import markup

        keys = " beside the keys panel (Ctrl+P hides it)" if beside_keys else ""
        self.update(markup(
            "[b]Enlarge the terminal[/b]\n\n$title needs at least $need; this one is $have$keys.\n\n"
            "$back goes back to the menu.",
            title=title, need=f"{need[0]}×{need[1]}", have=f"{have[0]}×{have[1]}", keys=keys, back=back,
        ))

    def on_resize(self) -> None:
        self.post_message(Refit())


class GameGrid(Container):
    """The board, the side panel, the commentary and the moves."""

    def on_resize(self) -> None:
        self.post_message(Refit())
