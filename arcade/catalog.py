"""The arcade's games, registered once each: the rules, the bots, the board, the help, the
course signature of a student's bot, all by game id.

``CATALOG`` names every part as an import path and imports none of them, so that the menu starts
fast; a part is imported when the game is opened (``GameEntry.load``, ``board_class``). The
title and one-line blurb are written here for the same reason, and ``tests/architecture/test_registration.py``
checks them against the game class, and checks that every part exists for every id and that no
registry (``bots.adapters.ADAPTERS``, ``bots/<id>``, ``arcade/boards``, ``arcade/help``) holds
an id the catalog lacks.

Adding a game (``ARCHITECTURE.md`` has the whole checklist): its ``Game`` class in
``games/<id>.py``, its bots' ``BOTS`` in ``bots/<id>.py`` (or a package), its course signature
in ``bots/adapters.py``, its board in ``arcade/boards/<id>.py``, its rules in
``arcade/help/<id>.md``, and one ``GameEntry`` below.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - types only: the catalog imports no game
    from arcade.boards.base import Board
    from games.base import Game


def _attribute(path: str):
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class GameEntry:
    """A game: its id, title and blurb (the class's own, checked by a test) and where its parts
    live: ``rules`` and ``board`` are ``module:Class`` paths; the bots are ``bots.<id>``'s
    ``BOTS``, the board's styles ``arcade/boards/<id>.tcss``, the help ``arcade/help/<id>.md``,
    the course signature ``ADAPTERS[id]``."""

    id: str
    title: str
    blurb: str
    rules: str
    board: str

    @property
    def bots(self) -> str:
        """The module whose ``BOTS`` lists the game's bots."""
        return f"bots.{self.id}"

    @property
    def board_css(self) -> str:
        """The board's styles, relative to ``arcade/``."""
        return f"boards/{self.id}.tcss"

    @property
    def board_css_file(self) -> Path:
        """The board's styles as a path (the game and replay screens add it to their ``css_path``)."""
        return Path(__file__).resolve().parent / self.board_css

    @property
    def help(self) -> str:
        """The file of the game's rules in ``arcade/help``."""
        return f"{self.id}.md"

    def load(self) -> type[Game]:
        """The game's ``Game`` class (imports its rules)."""
        return _attribute(self.rules)

    def board_class(self) -> type[Board]:
        """The game's board widget class (imports it)."""
        return _attribute(self.board)

    def help_markdown(self) -> str:
        """The game's rules as Markdown."""
        from importlib import resources  # here, not at import: the menu needs no resources

        return resources.files("arcade.help").joinpath(self.help).read_text(encoding="utf-8")


CATALOG: dict[str, GameEntry] = {
    entry.id: entry
    for entry in (
        GameEntry(
            "dfootball",
            "D-Football",
            "One-dimensional football: step or jump past the other team (STATS 306).",
            rules="games.dfootball:DFootball",
            board="arcade.boards.dfootball:FootballBoard",
        ),
        GameEntry(
            "toothpicks",
            "Toothpick Takeaway",
            "10-1-2: take one or two toothpicks; whoever takes the last one wins.",
            rules="games.toothpicks:Toothpicks",
            board="arcade.boards.toothpicks:ToothpickBoard",
        ),
        GameEntry(
            "othello",
            "Othello",
            "Trap and flip your opponent's discs on an 8×8 board (CS4341).",
            rules="games.othello:Othello",
            board="arcade.boards.othello:OthelloBoard",
        ),
        GameEntry(
            "ludo",
            "Robot Ludo",
            "Race your counters round the ring, cut your rival's, reach home exactly.",
            rules="games.ludo:Ludo",
            board="arcade.boards.ludo:LudoBoard",
        ),
        GameEntry(
            "hog",
            "Hog",
            "The CS 61A dice game: Sow Sad, Piggy Points and More Boar, first to 100.",
            rules="games.hog:Hog",
            board="arcade.boards.hog:HogBoard",
        ),
    )
}


class UnknownGame(KeyError):
    """A game id that is not in the catalog; the message lists the valid ids."""

    def __str__(self) -> str:
        return str(self.args[0])


def entry(game_id: str) -> GameEntry:
    """The catalog entry of ``game_id``; ``UnknownGame`` naming the valid ids otherwise."""
    try:
        return CATALOG[game_id]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r}; valid games: {', '.join(CATALOG)}") from None


def load(game_id: str) -> type[Game]:
    """The ``Game`` class of ``game_id``; ``UnknownGame`` with the valid ids if unknown."""
    return entry(game_id).load()
