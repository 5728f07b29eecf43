"""Board widgets, one per game, registered by game id and imported only when a game opens."""

from __future__ import annotations

import importlib

BOARDS: dict[str, str] = {
    "toothpicks": "arcade.boards.toothpicks:ToothpickBoard",
    "hog": "arcade.boards.hog:HogBoard",
    "othello": "arcade.boards.othello:OthelloBoard",
    "ludo": "arcade.boards.ludo:LudoBoard",
    "dfootball": "arcade.boards.dfootball:FootballBoard",
}


def board_class(game_id: str):
    """The board widget class of ``game_id``."""
    module, _, name = BOARDS[game_id].partition(":")
    return getattr(importlib.import_module(module), name)
