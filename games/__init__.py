"""The rules of the arcade's five games, one module each, behind one protocol (``games.base``).

``CATALOG`` lists the games without importing them, so that the menu starts fast; ``load``
imports a game's module when it is opened. Nothing here imports ``bots`` or ``arcade``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from games.base import Game


@dataclass(frozen=True)
class GameEntry:
    """A game in the catalog: its id, title, one-line description, and where its rules live."""

    id: str
    title: str
    blurb: str
    module: str
    cls: str
    available: bool = True

    def load(self) -> type[Game]:
        return getattr(importlib.import_module(self.module), self.cls)


CATALOG: dict[str, GameEntry] = {
    entry.id: entry
    for entry in (
        GameEntry(
            "dfootball",
            "D-Football",
            "One-dimensional football: step or jump past the other team (STATS 306).",
            "games.dfootball",
            "DFootball",
        ),
        GameEntry(
            "toothpicks",
            "Toothpick Takeaway",
            "10-1-2: take one or two toothpicks; whoever takes the last one wins.",
            "games.toothpicks",
            "Toothpicks",
        ),
        GameEntry(
            "othello",
            "Othello",
            "Trap and flip your opponent's discs on an 8×8 board (CS4341).",
            "games.othello",
            "Othello",
        ),
        GameEntry(
            "ludo",
            "Robot Ludo",
            "Race your counters round the ring, cut your rival's, reach home exactly.",
            "games.ludo",
            "Ludo",
        ),
        GameEntry(
            "hog",
            "Hog",
            "The CS 61A dice game: Sow Sad, Piggy Points and More Boar, first to 100.",
            "games.hog",
            "Hog",
        ),
    )
}


def load(game_id: str) -> type[Game]:
    """The ``Game`` class of ``game_id``; ``KeyError`` with the valid ids if unknown."""
    try:
        entry = CATALOG[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; valid games: {', '.join(CATALOG)}") from None
    return entry.load()
