"""Text wrapped at word and identifier boundaries: ``WrappedLabel``, the setup screen's
descriptions (a course signature such as ``strategy(toothpicks_left) -> take`` in a column of 20).

Textual wraps at spaces and folds a longer word wherever the line ends
(``strategy(toothpicks_le`` / ``ft) -> take``). Here a word too long for a line breaks after
its ``(``, ``,``, ``[`` or ``/`` first (``strategy(`` / ``toothpicks_left)``), then after an
underscore, and is folded mid-name only when one name is longer than the whole line.
The text is shown plain: never read as markup.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.segment import Segment
from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widgets import Label

_AFTER_PUNCTUATION = re.compile(r"(?<=[(,\[/])(?=.)")
_AFTER_UNDERSCORE = re.compile(r"(?<=_)(?=.)")


def word_pieces(word: str, width: int) -> list[str]:
    """``word`` cut where it may break on a line of ``width``: after its punctuation, then (a
    piece still too long) after underscores, then (a name longer than the line) folded."""
    pieces = []
    for part in _AFTER_PUNCTUATION.split(word):
        for piece in (_AFTER_UNDERSCORE.split(part) if cell_len(part) > width else [part]):
            pieces.extend(fold(piece, width))
    return pieces


def fold(text: str, width: int) -> list[str]:
    """``text`` cut into lines of at most ``width`` cells (at least one character a line)."""
    out, line = [], ""
    for char in text:
        if line and cell_len(line + char) > width:
            out.append(line)
            line = ""
        line += char
    return out + [line] if line or not out else out


def wrap_at_boundaries(text: str, width: int) -> list[str]:
    """``text``'s lines of at most ``width`` cells, broken at spaces, and a word longer than a
    line at its identifier boundaries (``word_pieces``): a piece joins the line before it
    when it fits, as a word does."""
    width = max(1, width)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            joined = f"{line} {word}" if line else word
            if cell_len(joined) <= width:
                line = joined
                continue
            if cell_len(word) <= width:
                lines.append(line)
                line = word
                continue
            for index, piece in enumerate(word_pieces(word, width)):
                joined = (f"{line} " if line and index == 0 else line) + piece
                if cell_len(joined) <= width:
                    line = joined
                else:
                    if line:
                        lines.append(line)
                    line = piece
        lines.append(line)
    return lines


class Wrapped(Visual):
    """A plain text as ``wrap_at_boundaries`` lays it out at the width it is given."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text

    def lines(self, width: int) -> Content:
        return Content("\n".join(wrap_at_boundaries(self.text, width)))

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        if not width:
            return []
        strips = self.lines(width).render_strips(width, height, style, options)
        return strips or [Strip([Segment(" " * width)], width)]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return max((cell_len(line) for line in self.text.split("\n")), default=0)

    def get_minimal_width(self, rules: RulesMap) -> int:
        return max((cell_len(piece) for word in self.text.split() for piece in _AFTER_PUNCTUATION.split(word)),
                   default=0)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return len(wrap_at_boundaries(self.text, width))


class WrappedLabel(Label):
    """A label whose plain text (never markup) wraps at word and identifier boundaries
    (``Wrapped``); ``update`` and ``content`` are ``Label``'s."""

    @property
    def text(self) -> str:
        return str(self.content)

    def render(self) -> Wrapped:
        return Wrapped(self.text)
