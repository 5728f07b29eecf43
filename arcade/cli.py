"""The ``arcade`` command: the app with no arguments, headless commands otherwise.

    arcade                              open the menu
    arcade play GAME                    open GAME's setup screen directly
    arcade bots GAME                    list GAME's bots
    arcade options GAME                 list GAME's options (for --option KEY=VALUE)
    arcade match GAME A B [options]     play a match between two bots
    arcade tournament GAME BOT...       a round robin (or groups) tournament between bots
    arcade replay FILE [N]              step through a recorded game (--record) on its board
    arcade bot install DIR              install a bot folder's requirements.txt into DIR/.deps
    arcade hog analyze                  exact win probabilities of Hog strategies
    arcade othello-player NAME          play Othello as a CS4341 program (file protocol)
    arcade othello-referee N1 N2        referee two CS4341 programs

Each command lives in its own module of ``arcade.commands`` with ``register(subparsers)``, which
adds its parser and gives it ``set_defaults(run=function)``; ``function(args)`` returns the exit
status and may raise ``UsageError``. A bot is a built-in name (``arcade bots GAME``) or a file,
``path/to/bot.py:function``, in the course's signature for the game, run in a process of its own.

Errors in what the user typed (an unknown game, bot or option) print one line naming the valid
choices and exit with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from arcade.commands import bot, hog, match, othello, play, replay, tournament
from arcade.commands.common import EXIT_USAGE, UsageError

COMMANDS = (play, match, tournament, replay, bot, hog, othello)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arcade",
        description="A terminal arcade of five course-contest games. With no command: open the menu.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return parser


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``parser.parse_args(argv)``, except that arguments no parser knows are reported by the
    command they were given to, with its usage (argparse reports them with the top level's)."""
    args, extras = parser.parse_known_args(argv)
    if extras:
        command = parser
        for action in parser._subparsers._group_actions if parser._subparsers else ():
            command = action.choices.get(getattr(args, "command", None), parser)
        command.error(f"unrecognized arguments: {' '.join(extras)}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parse(parser, argv)  # a type that checks more than argparse raises UsageError
        if args.command is None:
            return play.run_app()
        return args.run(args)
    except UsageError as exc:  # it may quote a path, a bot's name or error: shown plain, capped
        from arcade.untrusted import clean

        print(f"arcade: error: {clean(exc, cap=4 * 1024, multiline=True)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as exc:  # a run's own words (its secret seed: commands.common.interrupted)
        print(f"arcade: {exc or 'interrupted'}", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (arcade bots hog | head): nothing more to say
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0


def entry_point() -> None:
    sys.exit(main())
