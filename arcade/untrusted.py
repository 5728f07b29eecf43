"""Text from outside the arcade's own code, shown as plain text: never markup, never a terminal
control, never more than about 1 KiB a piece.

Bot names and file paths (a folder named ``x[/]y``), a bot's exception messages and forfeit
reasons, protocol details, a record's fields, log paths and the messages of ``OSError``: any of
them may hold Rich or Textual markup (``[link=…]``, ``[@click=app.screenshot(…)]``), escape
sequences (a window title, the clipboard) or bidirectional overrides, and be megabytes long. Every
place that shows such text goes through this module:

- ``clean(value)``: the text as a ``str`` for a plain line of output (``print``, a file, JSON):
  escape sequences and control characters removed, cut at ``CAP`` bytes with the cut said
  (``bots.base.printable``, which the bots' side uses where the text is made);
- ``plain(value)``: a Rich ``Text`` of it, for a widget, a table cell or a console: a ``Text`` is
  never parsed as markup, by Textual or Rich;
- ``markup(template, name=value, …)``: markup written here in the arcade's code (a literal)
  with ``$name`` slots filled with ``plain`` values, styled as the slot is;
- ``ours(markup)``: markup the arcade's own code made (a built-in bot's analysis), checked;
- the app's ``ArcadeApp.notify``, which every widget's ``notify`` reaches, cleans a notification's
  text and never reads it as markup.

``tests/arcade/test_untrusted.py`` injects hostile text in every place that shows it, and fails when a
new call of a widget's text method is built from an f-string instead of this module.
"""

from __future__ import annotations

import re
from typing import Any

from rich.errors import MarkupError
from rich.text import Text

from bots.base import TEXT_CAP, printable

CAP = TEXT_CAP
"""The bytes (UTF-8) of one piece of text kept; the rest is cut, and the cut said."""

_SLOT = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


def clean(value: object, cap: int | None = CAP, multiline: bool = False) -> str:
    """``value`` as plain, printable text on one line (``multiline``: newlines and tabs kept),
    at most ``cap`` bytes (``None``: no cap) with the cut said."""
    return printable(value, multiline=multiline, cap=cap)


def plain(value: object, style: str = "", *, cap: int | None = CAP, multiline: bool = False, **kwargs: Any) -> Text:
    """``value`` as a Rich ``Text`` (``clean``), never read as markup; ``kwargs`` are ``Text``'s
    (``justify``, ``no_wrap``…)."""
    return Text(clean(value, cap, multiline), style=style, **kwargs)


def markup(template: str, **values: object) -> Text:
    """``template`` (Rich markup written in the arcade's code) with each ``$name`` in it replaced
    by ``plain(values[name])``, which takes the style of the slot: ``markup("[b]✗[/b] $why",
    why=message)``. The values are never read as markup."""
    rendered = Text.from_markup(template)
    out = rendered[0:0]
    start = 0
    for slot in _SLOT.finditer(rendered.plain):
        out.append_text(rendered[start:slot.start()])
        styled = rendered[slot.start():slot.end()]
        value = plain(values[slot[1]], multiline=True)
        for span in styled.spans:
            value.stylize(span.style)
        out.append_text(value)
        start = slot.end()
    out.append_text(rendered[start:])
    return out


def ours(text: str) -> Text:
    """Markup made by the arcade's own code but not written out here (a built-in bot's analysis
    lines, which name only sides and moves): parsed, and shown plain if it is no valid markup."""
    try:
        return Text.from_markup(printable(text, multiline=True))
    except MarkupError:
        return plain(text, multiline=True)

