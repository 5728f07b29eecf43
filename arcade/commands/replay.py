"""``arcade replay FILE [N]``: step through a recorded game on its board (``--record`` files of
``arcade match`` and ``arcade tournament``)."""

from __future__ import annotations

import argparse
import sys

from arcade.commands.common import UsageError


def register(subparsers) -> None:
    replay = subparsers.add_parser("replay")
    replay.add_argument("file", metavar="FILE", help="a record made with --record")
    replay.add_argument("number", metavar="N", type=int, nargs="?",
                        help="which game of the file (1 = the first line after the header); without it, "
                             "a file of several games is listed")
    replay.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """List the file's games, or open game N; a file that is no record, or has a malformed line
    (whatever its bytes), is one line naming the file and the line (``UsageError``)."""
    from arcade.records.reader import RecordReader, describe, namer
    from arcade.records.referee import make_game
    from arcade.records.schema import RecordError, shown

    try:
        with RecordReader(args.file) as reader:
            name = reader.name
            game = make_game(reader.header, name)
            player = namer(reader.header)
            listing: list[str] = []
            chosen = None
            for _number, line in reader.games():  # every line is checked, whichever is shown
                listing.append(describe(line, player))
                if len(listing) == (args.number or 1):
                    chosen = line
            cut_short = reader.cut_short
        if chosen is not None:
            game = game.match_variant(chosen["number"])
    except RecordError as exc:
        raise UsageError(str(exc)) from None
    if not listing:
        raise UsageError(f"{name} holds no finished game yet")
    if args.number is None and len(listing) > 1:
        for index, text in enumerate(listing, start=1):
            print(f"{index:>5}  {text}")
        print(f"{len(listing)} games: arcade replay {name} N opens game N")
        if cut_short:
            print(f"arcade: {name} line {cut_short} is cut short (no newline at its end): not listed", file=sys.stderr)
        return 0
    if chosen is None:
        raise UsageError(f"{name} holds games 1 to {len(listing)}, not {args.number}")
    a, b = (shown(player(bot), 200) for bot in chosen["pair"])
    players = (a, b) if chosen["first"] == 0 else (b, a)
    from arcade.app import ArcadeApp
    from arcade.catalog import entry
    from arcade.screens.replay import ReplayScreen

    title = f"Replay of {describe(chosen, player)}"
    ArcadeApp(replay=ReplayScreen(entry(game.id), game, players, list(chosen["moves"]), title,
                                           standalone=True)).run()  # q: back to the shell
    return 0
