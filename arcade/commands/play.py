"""``arcade`` (the menu), ``arcade play GAME`` (its setup screen) and ``arcade bots GAME``."""

from __future__ import annotations

import argparse
import importlib

from arcade.commands.common import add_game_argument, game_entry


def register(subparsers) -> None:
    play = subparsers.add_parser("play", help="open a game's setup screen directly")
    add_game_argument(play)
    play.set_defaults(run=lambda args: run_app(args.game))

    bots = subparsers.add_parser("bots", help="list a game's bots")
    add_game_argument(bots)
    bots.set_defaults(run=run_bots)


def run_app(game_id: str | None = None) -> int:
    from arcade.app import ArcadeApp

    if game_id is not None:
        game_entry(game_id)
    ArcadeApp(start_game=game_id).run()
    return 0


def run_bots(args: argparse.Namespace) -> int:
    """The game's built-in bots, a line each (name, then description), then a line on a bot of
    your own: the course's signature and the function names a file is looked up by."""
    from bots.adapters import adapter_for
    from bots.external.rlang import r_usage
    from bots.registry import bots_for

    game_entry(args.game)
    entries = bots_for(args.game)
    width = max(len(name) for name in entries)
    for name, entry in entries.items():
        print(f"{name:<{width}}  {entry.description}")
    print(adapter_for(args.game).usage())
    in_r = r_usage(args.game)
    if in_r:  # D-Football's course was in R
        print(in_r)
    note = getattr(importlib.import_module(f"bots.{args.game}"), "BOTS_NOTE", None)
    if note:  # e.g. which Othello engine the bots play with
        print(f"\n{note}")
    return 0
