"""The end of a game as the game screen says it: the headline, and the banner above the board."""

from __future__ import annotations

from textual.widgets import Static

from arcade.untrusted import markup
from games.base import Game, Result

TAILS = (" · n rematch · x swap sides · q menu", " · n rematch · x swap", "")
"""What the banner offers after the headline, the longest that fits first."""


def headline(game: Game, result: Result) -> str:
    """"Draw!" or "<side> wins!"."""
    if result.winner is None:
        return "Draw!"
    return f"{game.sides[result.winner].name} wins!"


class ResultBanner(Static):
    """The line above the board at the end of a game: who won, and the keys for what next."""

    def show_result(self, game: Game, result: Result | None) -> None:
        """Say ``result``, or hide the banner while there is none."""
        if result is None:
            self.remove_class("shown")
            return
        title = headline(game, result)
        width = self.size.width or (self.parent.size.width if self.parent else 0) or 46
        tail = next((t for t in TAILS if len(title) + len(t) <= width), "")
        self.update(markup("[b]$title[/b]$tail", title=title, tail=tail))
        self.add_class("shown")
