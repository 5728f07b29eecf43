"""One registration per game: the catalog entry agrees with the game class, and every registry
(rules, bots, course signature, board, help) holds exactly the catalog's ids."""

from __future__ import annotations

import importlib

import pytest

from arcade.boards.base import Board
from arcade.catalog import CATALOG, UnknownGame, entry
from bots.adapters import ADAPTERS
from bots.base import BotEntry
from bots.registry import bots_for
from games.base import Game
from tests.paths import ROOT

IDS = list(CATALOG)


@pytest.mark.parametrize("game_id", IDS)
def test_the_catalog_entry_agrees_with_the_game_class(game_id):
    game_entry = CATALOG[game_id]
    cls = game_entry.load()
    assert issubclass(cls, Game) and cls.id == game_id
    assert (game_entry.title, game_entry.blurb) == (cls.title, cls.blurb)
    assert len(cls.sides) == 2
    cls()  # the defaults make a game


@pytest.mark.parametrize("game_id", IDS)
def test_every_part_of_a_game_is_there(game_id):
    game_entry = CATALOG[game_id]
    board = game_entry.board_class()
    assert issubclass(board, Board)
    assert (ROOT / "arcade" / game_entry.board_css).is_file()
    from arcade.app import ArcadeApp

    assert ArcadeApp.CSS_PATH == "arcade.tcss"  # the menu's: a board's styles come with its screens
    assert game_entry.board_css_file == ROOT / "arcade" / game_entry.board_css
    bots = bots_for(game_id)
    assert bots and all(isinstance(bot, BotEntry) for bot in bots.values())
    assert all(name == bot.name for name, bot in bots.items())
    assert ADAPTERS[game_id].default_function
    rules = game_entry.help_markdown()
    assert rules.startswith("# ") and len(rules) > 500


def test_no_registry_holds_a_game_the_catalog_lacks():
    ids = set(IDS)
    game_modules = {p.stem for p in (ROOT / "games").glob("*.py")} - {"__init__", "base"}
    rules_modules = {CATALOG[g].rules.partition(":")[0].removeprefix("games.") for g in ids}
    # every module of games/ is a game's rules or a helper of one named after it (hog_solver)
    assert all(any(m == r or m.startswith(r + "_") for r in rules_modules) for m in game_modules), game_modules
    bot_modules = {p.stem for p in (ROOT / "bots").glob("*.py")} | {
        p.name for p in (ROOT / "bots").iterdir() if (p / "__init__.py").is_file()
    }
    shared = {"__init__", "base", "registry", "external", "adapters", "limits"}
    # a game's bots: bots/<id>.py or the package bots/<id>/, with helpers named bots/<id>_*.py
    assert {m for m in bot_modules - shared if "_" not in m} == ids
    assert all(m.split("_")[0] in ids for m in bot_modules - shared), bot_modules
    assert set(ADAPTERS) == ids
    boards = {p.stem for p in (ROOT / "arcade" / "boards").glob("*.py")} - {"__init__", "base"}
    assert boards == {CATALOG[g].board.partition(":")[0].removeprefix("arcade.boards.") for g in ids}
    assert {p.stem for p in (ROOT / "arcade" / "boards").glob("*.tcss")} == ids
    helps = {p.stem for p in (ROOT / "arcade" / "help").glob("*.md")}
    assert helps == ids


def test_an_unknown_game_names_the_valid_ones():
    with pytest.raises(UnknownGame, match="unknown game 'chess'; valid games: dfootball, toothpicks"):
        entry("chess")


def test_the_catalog_imports_no_game():
    """The catalog names its parts by path: reading it imports no game (the menu starts fast)."""
    import subprocess
    import sys

    code = "import sys, arcade.catalog; print(' '.join(m for m in sys.modules if m.startswith(('games.', 'bots'))))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.split() == []
    assert importlib.import_module("arcade.catalog").CATALOG  # and it is not empty
