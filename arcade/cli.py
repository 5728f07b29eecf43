"""The ``arcade`` command: the app with no arguments, headless commands otherwise.

    arcade                              open the menu
    arcade play GAME                    open GAME's setup screen directly
    arcade bots GAME                    list GAME's bots
    arcade match GAME A B [options]     play a match between two bots
    arcade tournament GAME BOT...       a round robin (or groups) tournament between bots

A bot is a built-in name (``arcade bots GAME``) or a file, ``path/to/bot.py:function``, in the
course's signature for the game, run in a process of its own (``bots.external``).

Errors in what the user typed (an unknown game, bot or option) print one line naming the valid
choices and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from games import CATALOG

EXIT_USAGE = 2

# Game-specific subcommands: modules with ``register(subparsers)``, which adds its parsers and
# gives each ``set_defaults(run=function)``; ``function(args)`` returns the exit status and may
# raise ``UsageError`` for a mistake in the command line.
EXTRA_COMMANDS: tuple[str, ...] = ("arcade.cli_hog", "arcade.cli_othello", "arcade.tournament")


class UsageError(Exception):
    """A mistake in the command line; the message names the valid choices."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arcade",
        description="A terminal arcade of five course-contest games. With no command: open the menu.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="open a game's setup screen directly")
    play.add_argument("game", help="game id: " + ", ".join(CATALOG))

    bots = sub.add_parser("bots", help="list a game's bots")
    bots.add_argument("game", help="game id: " + ", ".join(CATALOG))

    match = sub.add_parser("match", help="play N games between two bots")
    match.add_argument("game", help="game id: " + ", ".join(CATALOG))
    match.add_argument("bot_a", metavar="BOT_A")
    match.add_argument("bot_b", metavar="BOT_B")
    match.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    match.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    match.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (repeatable)"
    )
    match.add_argument("--time-limit", type=float, default=None, metavar="SECONDS", help="per-move time for bots")
    add_memory_option(match)
    match.add_argument("--json", action="store_true", help="print one JSON object and nothing else")

    for module_name in EXTRA_COMMANDS:
        __import__(module_name, fromlist=["register"]).register(sub)
    return parser


def add_memory_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--memory", type=int, default=1024, metavar="MIB",
        help="memory cap of each file bot's process in MiB (default 1024; 0: no cap)",
    )


def resolve_bots(game, names: Sequence[str], memory_mib: int = 1024) -> list:
    """The bots' entries; a file bot is started and its file loaded now, so that a bot that cannot
    be loaded is a one-line error before any game is played."""
    from bots.external import BadSpec, close_entry, file_entry, is_file_spec
    from bots.registry import UnknownBot, get_bot

    if memory_mib < 0:
        raise UsageError("--memory must be 0 (no cap) or more MiB")
    entries = []
    try:
        for name in names:
            if is_file_spec(name):
                try:
                    entry = file_entry(game.id, name, memory=memory_mib << 20 or None)
                except BadSpec as exc:
                    raise UsageError(str(exc)) from None
                entries.append(entry)
                problem = entry.probe(game)
                if problem:
                    raise UsageError(f"{problem} (details in {entry.source.log_path})")
            else:
                try:
                    entries.append(get_bot(game.id, name))
                except UnknownBot as exc:
                    raise UsageError(str(exc)) from None
    except BaseException:
        for entry in entries:
            close_entry(entry)
        raise
    return entries


def bot_logs(entries) -> list[str]:
    """The log files of the file bots among ``entries``."""
    return sorted({str(e.source.log_path) for e in entries if getattr(e, "source", None) is not None})


def game_entry(game_id: str):
    if game_id not in CATALOG:
        raise UsageError(f"unknown game {game_id!r}; valid games: {', '.join(CATALOG)}")
    entry = CATALOG[game_id]
    if not entry.available:
        raise UsageError(f"{entry.title} is not playable yet; playable games: {', '.join(playable())}")
    return entry


def playable() -> list[str]:
    return [gid for gid, entry in CATALOG.items() if entry.available]


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"option {pair!r} must look like KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def make_game(game_id: str, options: dict[str, str]):
    from games.base import OptionError

    cls = game_entry(game_id).load()
    try:
        return cls(**options)
    except OptionError as exc:
        raise UsageError(str(exc)) from None


def progress_bar(title: str, quiet: bool):
    """A transient Rich progress bar on stderr (off with ``quiet`` or when stderr is no terminal)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    err = Console(stderr=True)
    return Progress(
        TextColumn(title),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=quiet or not err.is_terminal,
    )


def cmd_bots(args: argparse.Namespace) -> int:
    from bots.registry import bots_for

    game_entry(args.game)
    entries = bots_for(args.game)
    width = max(len(name) for name in entries)
    for name, entry in entries.items():
        print(f"{name:<{width}}  {entry.description}")
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from arcade.match import run_match

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.time_limit is not None and args.time_limit <= 0:
        raise UsageError("--time-limit must be a positive number of seconds")
    game = make_game(args.game, parse_options(args.option))
    entries = tuple(resolve_bots(game, (args.bot_a, args.bot_b), args.memory))

    with progress_bar(f"{game.title}: {args.bot_a} vs {args.bot_b}", quiet=args.json) as progress:
        task = progress.add_task("games", total=args.games)
        summary = run_match(
            game,
            entries,
            games=args.games,
            seed=args.seed,
            time_limit=args.time_limit,
            on_game=lambda record: progress.advance(task),
        )
    if args.json:
        print(json.dumps(summary.as_json()))
        return 0
    table = Table(title=f"{game.title} · {summary.games} games · seed {summary.seed}")
    from bots.external import short_name

    names = [short_name(player) for player in summary.players]
    for column in ("bot", "wins", "won moving first", "forfeits", "slowest move"):
        if column == "bot":
            table.add_column(column, min_width=min(24, max(map(len, names))), overflow="fold")
        else:
            table.add_column(column, justify="right")

    for p in (0, 1):
        table.add_row(
            short_name(summary.players[p]),
            str(summary.wins[p]),
            str(summary.first_player_wins[p]),
            str(summary.forfeits[p]),
            f"{summary.max_move_seconds[p] * 1000:.1f} ms",
        )
    console = Console()
    console.print(table)
    console.print(f"draws: {summary.draws}")
    if any(r.moved_first != r.first for r in summary.records):  # colour and first move vary apart (Ludo)
        side0 = game.sides[0].name
        console.print(f"won as {side0}: " + ", ".join(f"{summary.players[p]} {summary.side0_wins[p]}" for p in (0, 1)))
    for p in (0, 1):
        for reason, count in sorted(summary.forfeit_reasons[p].items()):
            console.print(f"{short_name(summary.players[p])} forfeited {count}×: {reason}", soft_wrap=True)
    for log in bot_logs(entries):
        console.print(f"file bot output: {log}", soft_wrap=True)
    return 0


def cmd_app(game_id: str | None = None) -> int:
    from arcade.app import ArcadeApp

    if game_id is not None:
        game_entry(game_id)
    ArcadeApp(start_game=game_id).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command is None:
            return cmd_app()
        if args.command == "play":
            return cmd_app(args.game)
        if args.command == "bots":
            return cmd_bots(args)
        if args.command == "match":
            return cmd_match(args)
        return args.run(args)
    except UsageError as exc:
        print(f"arcade: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("arcade: interrupted", file=sys.stderr)
        return 130


def entry_point() -> None:
    sys.exit(main())
