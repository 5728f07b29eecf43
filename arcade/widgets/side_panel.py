"""The game screen's side panel: the sides with their players and scores, whose turn it is,
that a new game's bots are still being made, what a bot is thinking, the pace of bots playing
each other, and the analysis.

Every fact it shows is a reactive the screen sets (``paused``, ``thinking``, ``thought`` and
``preparing`` are bound to the screen's own with ``data_bind``); the panel draws itself again
when one changes, as Textual's ``five_by_five`` header does, so nobody has to remember to redraw
it.
"""

from __future__ import annotations

from typing import Callable

from rich.text import Text
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from arcade.untrusted import clean, ours
from arcade.widgets.result import headline
from games.base import Game, Result, State


class SidePanel(Widget):
    """The side panel of one game (see the module docstring)."""

    state: reactive[State | None] = reactive(None)
    result: reactive[Result | None] = reactive(None)
    """The game's result (a forfeit's too, which the state does not carry)."""
    labels: reactive[tuple[str, str]] = reactive(("", ""))
    """Who plays each side: "Human" or "bot <name>" (a file bot's spec: shown plain)."""
    watching: reactive[bool] = reactive(False)
    """Bots play each other: the panel says the pace, and "paused"."""
    thinking: reactive[int | None] = reactive(None)
    """The side whose bot is thinking, if any."""
    thought: reactive[str] = reactive("")
    """The thinking bot's last line (depth, best line; a file bot's words: shown plain)."""
    preparing: reactive[bool] = reactive(False)
    """A new game's bots are being made: nobody is to move yet."""
    paused: reactive[bool] = reactive(False)
    seconds: reactive[float] = reactive(0.0)
    """The bots' pace: seconds between their moves."""
    analysis: reactive[tuple[str, ...] | None] = reactive(None)
    """The analysis's lines (Rich markup allowed), or ``None`` while it is off."""
    where: reactive[str] = reactive("")
    """A line under the sides, before whose turn or the result (a replay's "move 7 of 12")."""

    def __init__(self, game: Game, side_style: Callable[[int], str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.side_style = side_style
        self.border_title = game.title

    def render(self) -> Content:
        text = Text()
        for side in (0, 1):
            self.draw_side(text, side)
        text.append("\n")
        if self.where:
            text.append(self.where + "\n", style="bold")
        if self.result is not None:
            text.append(headline(self.game, self.result) + "\n", style="bold reverse")
            text.append(clean(self.result.reason) + "\n")
        elif self.state is not None:
            self.draw_turn(text, self.state)
        if self.analysis is not None:
            text.append("\n")
            for line in self.analysis:
                text.append_text(ours(line))
                text.append("\n")
        return Content.from_rich_text(self.fitted(text))

    def fitted(self, text: Text) -> Text:
        """``text`` as it is if its lines, wrapped, fit the panel's height; else without its blank
        lines, so that the last lines (the analysis's best move) are not the ones lost."""
        width, height = self.size.width, self.size.height
        if not width or not height:
            return text
        lines = text.split("\n", allow_blank=True)
        if sum(max(1, -(-line.cell_len // width)) for line in lines) <= height:
            return text
        return Text("\n").join(line for line in lines if line.plain.strip())

    def draw_side(self, text: Text, side: int) -> None:
        """A side's symbol and name (▶ if it is to move), then its player and score."""
        info = self.game.sides[side]
        state = self.state
        to_move = self.result is None and state is not None and state.to_move == side
        text.append("▶ " if to_move else "  ", style="bold")
        text.append(f"{info.symbol} {info.name}", style=self.side_style(side))
        width = self.size.width or 26
        label = clean(self.labels[side])
        if 4 + len(label) > width:  # one line, never "bot" and the name on two: cut on the left
            label = label[:4] + "…" + label[-(width - 9):] if width > 10 else label[: max(1, width - 4)]
        text.append(f"\n    {label}")
        score = self.game.score_text(state, side) if state is not None else ""
        if score and 4 + len(label) + 3 + len(score) <= width:
            text.append(f" · {score}")
        elif score:  # a long bot name: the score on a line of its own, not wrapped mid-way
            text.append(f"\n    {score}")
        text.append("\n")

    def draw_turn(self, text: Text, state: State) -> None:
        """Whose turn and what is going on: a bot thinking, the bots paused, their pace."""
        text.append(self.game.describe(state) + "\n", style="bold")
        if self.preparing:
            text.append("preparing bots…\n", style="italic")
        elif self.thinking is not None:
            text.append(f"{self.game.sides[self.thinking].name} is thinking…\n", style="italic")
            if self.thought:
                text.append(clean(self.thought) + "\n", style="dim")
        elif self.paused and self.watching:
            text.append("paused · p resume · s step\n", style="italic")
        if self.watching:
            text.append(f"pace: {self.seconds:g} s a move · - slower · + faster\n", style="dim")

