"""The Footer of every screen: ``SteadyFooter`` redraws its keys only when they change, and
``FittedFooter`` fits a screen's keys when the terminal is too narrow for them all.

Textual's Footer rebuilds all its keys (a widget each) whenever the screen's bindings may have
changed (a screen pushed, the focus moved), which at start-up is three times for the same keys:
``SteadyFooter`` compares what it would show with what it shows and rebuilds only on a change
(every screen: the game screen's ``FittedFooter`` is one too, and rebuilds when its fitting
changes). A game screen rebuilt it five times a move before: 2.6 ms each, and with Textual's
watchers of the old keys kept for good (``forget_gone_keys``), more each move.

``FittedFooter`` is Textual's Footer that leaves out the entries of the actions in
``left_out``. Their keys are still bound and still work (and the keys panel, Ctrl+P → Keys,
still lists them): only the Footer has no room for them. ``fit`` sets them: ``leave_out`` chooses
which, in the screen's order of need; ``shown_bindings`` and ``key_width`` say what the Footer
would show and how wide it is.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from textual.actions import parse as parse_action
from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

PALETTE_WIDTH = 14
"""Columns the Footer's command-palette key takes on the right."""


def action_name(action: str) -> str:
    """``pace`` of ``pace(-1)``."""
    return parse_action(action)[1]


def forget_gone_keys(footer: Footer) -> None:
    """Drop from ``footer``'s watchers those of its keys that are gone. Each key (a widget)
    watches the Footer's ``compact``; Textual forgets a closed key's watcher only when
    ``compact`` changes, which it never does here, so every rebuild added a watcher a key for
    good, and each new key's registration scans them all: 12 more a move on a Ludo screen, 6,000
    after 500 moves, the screen slowing as a game goes on. Called at each rebuild (``compose``),
    when the old keys have been removed."""
    for watchers in getattr(footer, "__watchers", {}).values():
        watchers[:] = [(node, callback) for node, callback in watchers if not (node._closing or node._closed)]


class SteadyFooter(Footer):
    """The Footer, rebuilt only when the keys it shows change."""

    _shown: tuple | None = None

    def shown(self) -> tuple:
        """What the Footer would show now: each shown binding's key, label, action, state and
        tooltip, and the command palette's."""
        active = self.screen.active_bindings
        return tuple((key, binding.description, binding.action, enabled, tooltip, binding.group)
                     for key, (_node, binding, enabled, tooltip) in active.items()
                     if binding.show or key == self.app.COMMAND_PALETTE_BINDING)

    def compose(self):
        forget_gone_keys(self)
        self._shown = self.shown() if self._bindings_ready else None
        yield from super().compose()

    def bindings_changed(self, screen: Screen) -> None:
        if self._bindings_ready and self.is_attached and screen is self.screen and self._shown == self.shown():
            return
        super().bindings_changed(screen)


class FittedFooter(SteadyFooter):
    """The Footer, without the entries of the actions in ``left_out`` (rebuilt when they change,
    and, as ``SteadyFooter``, when the keys it shows change)."""

    left_out: reactive[frozenset[str]] = reactive(frozenset(), recompose=True)
    """Actions (names, without parameters) the Footer has no room for."""

    def compose(self):
        for widget in super().compose():
            if isinstance(widget, FooterKey) and action_name(widget.action) in self.left_out:
                continue
            yield widget

    def fit(self, width: int, keys: DOMNode, need: Sequence[str], kept: Iterable[Binding] = ()) -> None:
        """Leave out the least needed of ``keys``'s actions (``need``: the most needed first; the
        others always stay) that do not fit in ``width`` columns beside ``kept``, entries that
        always stay (a board's keys, needed to play)."""
        room = width - PALETTE_WIDTH - sum(key_width(self.app, binding) for binding in kept)
        widths: dict[str, int] = {}
        for binding in shown_bindings(keys):
            action = action_name(binding.action)
            widths[action] = widths.get(action, 0) + key_width(self.app, binding)
        self.left_out = leave_out([(action, widths[action]) for action in need if action in widths], room)


def key_width(app: App, binding: Binding) -> int:
    """Columns a binding takes in the Footer: `` key description `` and a space."""
    return len(app.get_key_display(binding)) + len(binding.description) + 3


def shown_bindings(node: DOMNode) -> list[Binding]:
    """``node``'s bindings that the Footer shows now: shown, described, not refused by its
    ``check_action``, one for each action (``tab,right,down`` is one entry)."""
    shown, seen = [], set()
    for _key, binding in node._bindings:
        if not binding.show or not binding.description or (binding.action, binding.description) in seen:
            continue
        _, action, parameters = parse_action(binding.action)
        if node.check_action(action, parameters) is False:
            continue
        seen.add((binding.action, binding.description))
        shown.append(binding)
    return shown


def leave_out(entries: Iterable[tuple[str, int]], room: int) -> frozenset[str]:
    """The actions to leave out of the Footer: ``entries`` are each action with the columns its
    keys take, the most needed first; each is kept while it fits in what ``room`` has left."""
    left_out = set()
    for action, width in entries:
        if width <= room:
            room -= width
        else:
            left_out.add(action)
    return frozenset(left_out)
