"""``arcade othello-player`` and ``arcade othello-referee``: the CS4341 file protocol.

    arcade othello-player NAME [--bot BOT] [--time-limit S] [--dir DIR]
    arcade othello-referee NAME1 NAME2 [--time-limit S] [--dir DIR] [--seed N]

Run the two players (or any two course programs) and the referee in the same directory; see
``arcade.cs4341_referee`` for the files and their rules.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from arcade.commands.common import UsageError, seconds


def _delay(text: str) -> float:
    """The hidden ``--read-delay``: a finite number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 <= value < float("inf"):
        raise UsageError(f"a delay must be a finite number of seconds, 0 or more, not {text!r}")
    return value


def _poll(text: str) -> float:
    """The hidden ``--poll``: a positive, finite number of seconds."""
    if _delay(text) == 0:
        raise UsageError("--poll must be more than 0 seconds")
    return float(text)


def register(subparsers) -> None:
    player = subparsers.add_parser(
        "othello-player",
        description="Wait for NAME.go, read move_file, answer in move_file; stop when end_game appears.",
    )
    player.add_argument("name", metavar="NAME", help="the program's one-word name")
    player.add_argument("--bot", default="alphabeta", help="which bot plays (default alphabeta; see 'arcade bots othello')")
    player.add_argument("--time-limit", type=seconds, default=None, metavar="S", help="seconds a move (default: the game's, 10 as in the course)")
    player.add_argument("--dir", default=".", help="the directory of the game's files (default: here)")
    player.add_argument("--seed", type=int, default=None, help="seed of the bot's random choices")
    player.add_argument("--poll", type=_poll, default=0.01, help=argparse.SUPPRESS)
    player.set_defaults(run=run_player)

    referee = subparsers.add_parser(
        "othello-referee",
        description="Pick colours at random, hand out turns with NAME.go files, check each move, write end_game.",
    )
    referee.add_argument("name1", metavar="NAME1")
    referee.add_argument("name2", metavar="NAME2")
    referee.add_argument("--time-limit", type=seconds, default=None, metavar="S", help="seconds a move (default: the game's, 10 as in the course)")
    referee.add_argument("--dir", default=".", help="the directory of the game's files (default: here)")
    referee.add_argument("--seed", type=int, default=None, help="seed of the colour draw")
    referee.add_argument("--poll", type=_poll, default=0.05, help=argparse.SUPPRESS)
    referee.add_argument("--read-delay", type=_delay, default=0.1, help=argparse.SUPPRESS)
    referee.set_defaults(run=run_referee)


def _check_common(args) -> None:
    if args.time_limit is None:
        from games.othello import TIME_LIMIT

        args.time_limit = TIME_LIMIT
    if not 0 < args.time_limit <= 3600:
        raise UsageError("--time-limit must be a number of seconds between 0 and 3600")
    if not Path(args.dir).is_dir():
        raise UsageError(f"--dir {args.dir!r} is not a directory")


def _check_name(name: str) -> None:
    from bots.base import printable

    if (not name or any(ch.isspace() for ch in name) or "/" in name or name in ("move_file", "end_game")
            or printable(name) != name):
        raise UsageError(f"a program name is one printable word without '/', not {name!r}")


def run_player(args) -> int:
    from arcade.cs4341_referee import run_player as play
    from arcade.untrusted import clean
    from bots.limits import Limits
    from bots.registry import UnknownBot, admit
    from games.othello import Othello

    _check_common(args)
    _check_name(args.name)
    try:  # a file bot that cannot load: one line
        bot = admit(Othello(time_limit=args.time_limit), [args.bot], Limits(time=args.time_limit)).entries[0]
    except UnknownBot as exc:
        raise UsageError(str(exc)) from None
    try:
        print(clean(f"{args.name}: waiting for {args.name}.go in {Path(args.dir).resolve()} ({args.bot}, "
                    f"{args.time_limit:g} s a move)"), flush=True)
        return play(args.name, bot, args.time_limit, args.dir, poll=args.poll,
                    out=lambda text: print(text, flush=True), seed=args.seed)
    finally:
        bot.close()


def run_referee(args) -> int:
    """Referee one game: exit status 0 when it was played out or ended by a program's move, its
    time or its order (``end_game`` says which), 1 when the files failed (the reason is printed,
    and ``end_game`` written when it still can be) or the game could not start."""
    import sys

    from arcade.cs4341_referee import ProtocolError
    from arcade.cs4341_referee import run_referee as referee
    from arcade.untrusted import clean

    _check_common(args)
    _check_name(args.name1)
    _check_name(args.name2)
    if args.name1 == args.name2:
        raise UsageError("the two programs need different names")
    rng = random.Random(args.seed)
    try:
        outcome = referee(args.name1, args.name2, args.time_limit, args.dir, rng,
                          out=lambda text: print(text, flush=True), poll=args.poll, read_delay=args.read_delay)
    except ProtocolError as exc:
        print(f"arcade: othello-referee: {clean(exc)}", file=sys.stderr)
        return 1
    if outcome.broken is not None:
        print(f"arcade: othello-referee: the game's files failed: {clean(outcome.broken)}", file=sys.stderr)
        return 1
    return 0
