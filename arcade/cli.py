"""The ``arcade`` command: the app with no arguments, headless commands otherwise.

    arcade                              open the menu
    arcade play GAME                    open GAME's setup screen directly
    arcade bots GAME                    list GAME's bots
    arcade options GAME                 list GAME's options (for --option KEY=VALUE)
    arcade match GAME A B [options]     play a match between two bots
    arcade tournament GAME BOT...       a round robin (or groups) tournament between bots
    arcade replay FILE [N]              step through a recorded game (--record) on its board
    arcade bot install DIR              install a bot folder's requirements.txt into DIR/.deps
    arcade contest ACTION DIR …         a contest season: new, submit, run, standings, board, status, rebuild
    arcade hog analyze                  exact win probabilities of Hog strategies
    arcade othello-player NAME          play Othello as a CS4341 program (file protocol)
    arcade othello-referee N1 N2        referee two CS4341 programs

Each command lives in its own module of ``arcade.commands`` with ``register(subparsers)``, which
adds its parser and gives it ``set_defaults(run=function)``; ``function(args)`` returns the exit
status and may raise ``UsageError``. A bot is a built-in name (``arcade bots GAME``) or a file,
``path/to/bot.py:function``, in the course's signature for the game, run in a process of its own.

Only the module of the command typed is imported (``COMMANDS`` says which module registers each
command, and holds its one-line help for ``arcade --help``): ``arcade`` alone imports no command
at all and opens the menu, and ``arcade replay`` never loads the tournament's process pool.

Errors in what the user typed (an unknown game, bot or option) print one line naming the valid
choices and exit with status 2.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover
    import argparse

COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("play", "open a game's setup screen directly"),
    "bots": ("play", "list a game's bots"),
    "options": ("play", "list a game's options (--option KEY=VALUE)"),
    "match": ("match", "play N games between two bots"),
    "tournament": ("tournament", "a tournament between bots (round robin or groups)"),
    "replay": ("replay", "step through a recorded game (a --record file) on its board"),
    "bot": ("bot", "prepare a bot's folder (install its requirements.txt)"),
    "contest": ("contest", "a contest season: new, submit, run, standings, board, status, rebuild, publish"),
    "serve": ("serve", "the arcade in browsers (textual-serve): one app a browser, on loopback by default"),
    "hog": ("hog", "Hog's own commands (analyze)"),
    "othello-player": ("othello", "play one Othello game as a CS4341 program (file protocol)"),
    "othello-referee": ("othello", "referee one Othello game between two CS4341 programs (file protocol)"),
}
"""Each command: the module of ``arcade.commands`` that registers it, and its one-line help (the
one place it is written: ``Commands.add_parser`` gives it to the parser the module adds)."""

class Commands:
    """The subparsers a command module's ``register`` adds its parsers to: each gets its help
    from ``COMMANDS``."""

    def __init__(self, subparsers) -> None:
        self.subparsers = subparsers

    def add_parser(self, name: str, **kwargs) -> argparse.ArgumentParser:
        kwargs.setdefault("help", COMMANDS[name][1])
        return self.subparsers.add_parser(name, **kwargs)


def command_named(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names (its first word that is not an option), or None."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``arcade``: the module that registers ``command`` adds its parsers (all
    of them, when ``command`` is None: ``arcade --help`` needs only the table, but tests and
    tools see every parser whole); the other commands stand as their names and help alone."""
    import argparse
    import importlib

    parser = argparse.ArgumentParser(
        prog="arcade",
        description="A terminal arcade of five course-contest games. With no command: open the menu.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    if command is None:
        modules = {module for module, _ in COMMANDS.values()}
    else:
        modules = {COMMANDS[command][0]} if command in COMMANDS else set()
    for name, (module, text) in COMMANDS.items():
        if name in sub.choices:
            continue
        if module in modules:
            importlib.import_module(f"arcade.commands.{module}").register(Commands(sub))
        else:
            sub.add_parser(name, help=text)
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
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:  # the menu: the app, and nothing of the commands, is imported
        from arcade.app import ArcadeApp

        ArcadeApp().run()
        return 0
    from arcade.commands.common import EXIT_USAGE, UsageError

    try:
        parser = build_parser(command_named(argv) or "")
        args = parse(parser, argv)  # a type that checks more than argparse raises UsageError
        if args.command is None:
            from arcade.commands.play import run_app

            return run_app()
        return args.run(args)
    except UsageError as exc:  # it may quote a path, a bot's name or error: shown plain, capped
        from arcade.untrusted import clean

        print(f"arcade: error: {clean(exc, cap=4 * 1024, multiline=True)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as exc:  # a run's own words (its secret seed: commands.common.interrupted)
        print(f"arcade: {str(exc) or 'interrupted'}", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (arcade bots hog | head): nothing more to say
        import os

        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0


def entry_point() -> None:
    sys.exit(main())
