"""``arcade`` (the menu), ``arcade play GAME`` (its setup screen), ``arcade bots GAME`` and
``arcade options GAME`` (the game's options: what ``--option KEY=VALUE`` accepts)."""

from __future__ import annotations

import argparse
import importlib

from arcade.commands.common import add_game_argument, game_entry


def register(subparsers) -> None:
    play = subparsers.add_parser("play")
    add_game_argument(play)
    play.set_defaults(run=lambda args: run_app(args.game))

    bots = subparsers.add_parser("bots")
    add_game_argument(bots)
    bots.set_defaults(run=run_bots)

    options = subparsers.add_parser("options")
    add_game_argument(options)
    options.set_defaults(run=run_options)


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
    from bots.external.specs import PROGRAM_GAMES
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
    if args.game in PROGRAM_GAMES:  # CS4341 collected programs, in any language
        print("a CS4341 program: path/to/team/team:program, the executable named the team, started by the arcade "
              "for each game in the sandbox and refereed through move_file/team.go/end_game")
    note = getattr(importlib.import_module(f"bots.{args.game}"), "BOTS_NOTE", None)
    if note:  # e.g. which Othello engine the bots play with
        print(f"\n{note}")
    return 0


def run_options(args: argparse.Namespace) -> int:
    """The game's options, a line each: the key, what it accepts, its default and what it does;
    then how to give one to a match or a tournament."""
    game_cls = game_entry(args.game).load()
    rows = [(o.key, o.bounds_text() or o.kind, value_text(o.default), o.help or o.label) for o in game_cls.options]
    if not rows:
        print(f"{args.game} has no options")
        return 0
    widths = [max(len(row[i]) for row in rows + [("key", "accepts", "default", "")]) for i in range(3)]
    print(f"{'key':<{widths[0]}}  {'accepts':<{widths[1]}}  {'default':<{widths[2]}}  what it is")
    for key, accepts, default, what in rows:
        print(f"{key:<{widths[0]}}  {accepts:<{widths[1]}}  {default:<{widths[2]}}  {what}")
    print(f"give one to a match or a tournament: --option {rows[0][0]}={rows[0][2]} (repeatable)")
    return 0


def value_text(value) -> str:
    """An option's value as it is typed after ``KEY=``: a list comma-separated, ``none`` empty."""
    if isinstance(value, (tuple, list)):
        return ",".join(map(str, value)) or "none"
    return str(value)
