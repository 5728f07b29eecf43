"""``arcade replay FILE [N]``: step through a recorded game on its board (``--record`` files of
``arcade match`` and ``arcade tournament``)."""

from __future__ import annotations

import argparse

from arcade.commands.common import UsageError


def register(subparsers) -> None:
    replay = subparsers.add_parser("replay", help="step through a recorded game (a --record file) on its board")
    replay.add_argument("file", metavar="FILE", help="a record made with --record")
    replay.add_argument("number", metavar="N", type=int, nargs="?",
                        help="which game of the file (1 = the first line after the header); without it, "
                             "a file of several games is listed")
    replay.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from arcade.catalog import UnknownGame, entry
    from arcade.records import RecordError, describe, read_games
    from bots.external import short_name
    from games.base import OptionError

    try:
        header, games = read_games(args.file)
    except RecordError as exc:
        raise UsageError(str(exc)) from None
    if not games:
        raise UsageError(f"{args.file} holds no finished game yet")
    if args.number is None and len(games) > 1:
        for index, line in enumerate(games, start=1):
            print(f"{index:>5}  {describe(line)}")
        print(f"{len(games)} games: arcade replay {args.file} N opens game N")
        return 0
    number = args.number or 1
    if not 1 <= number <= len(games):
        raise UsageError(f"{args.file} holds games 1 to {len(games)}, not {number}")
    line = games[number - 1]
    try:
        game_entry = entry(header.get("game", ""))
        game = game_entry.load()(**header.get("options", {})).match_variant(line["number"])
    except (UnknownGame, OptionError) as exc:
        raise UsageError(f"{args.file}: {exc}") from None
    a, b = (short_name(name) for name in line["pair"])
    players = (a, b) if line.get("first", 0) == 0 else (b, a)
    from arcade.app import ArcadeApp
    from arcade.screens.replay import ReplayScreen

    title = f"Replay of {describe(line)}"
    ArcadeApp(replay=ReplayScreen(game_entry, game, players, list(line["moves"]), title)).run()
    return 0
