"""``arcade match GAME A B``: play N games between two bots and print the tally."""

from __future__ import annotations

import argparse
import json

from arcade.commands.common import (
    plain_console,
    UsageError,
    add_game_argument,
    add_memory_option,
    add_sandbox_option,
    add_seed_option,
    admit_bots,
    bot_logs,
    contained,
    limits_of,
    make_game,
    parse_options,
    progress_bar,
    replay_text,
    seconds,
    seed_of,
    seed_text,
    interrupted,
    stopped,
)


BOT_HELP = ("a bot: a built-in name (arcade bots GAME lists them) or a file of your own, "
            "path/to/bot.py[:function], in the course's signature")


def register(subparsers) -> None:
    match = subparsers.add_parser("match")
    add_game_argument(match)
    match.add_argument("bot_a", metavar="BOT_A", help=BOT_HELP)
    match.add_argument("bot_b", metavar="BOT_B", help=BOT_HELP)
    match.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    add_seed_option(match)
    match.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE",
        help="a game option (repeatable; arcade options GAME lists them)"
    )
    match.add_argument("--time-limit", type=seconds, default=None, metavar="SECONDS", help="per-move time for bots")
    add_memory_option(match)
    add_sandbox_option(match, "auto", "auto")
    match.add_argument("--json", action="store_true", help="print one JSON object and nothing else")
    match.add_argument("--record", metavar="FILE",
                       help="append every finished game to FILE (JSON lines); the same command again resumes")
    match.add_argument("--repair", action="store_true",
                       help="resuming --record FILE: move damaged lines aside into FILE.damaged "
                            "(else they stop the run)")
    match.set_defaults(run=run)


def play(game, entries, seed: int, secret: bool, limits, log, args):
    """Play the match with a progress bar; a record that cannot be written any more (a full
    disk) stops it with one line, the record resumable and a secret seed said."""
    from arcade.match import run_match
    from arcade.records.schema import RecordError

    try:
        with progress_bar(f"{game.title}: {args.bot_a} vs {args.bot_b}", quiet=args.json) as progress:
            task = progress.add_task("games", total=args.games)
            return run_match(game, entries, games=args.games, seed=seed, limits=limits,
                             on_game=lambda record: progress.advance(task), log=log)
    except RecordError as exc:
        raise UsageError(stopped(f"the match stopped: {exc}", seed, secret)) from None
    finally:
        if log is not None:
            log.close()


def open_record(args, game, seed: int, limits):
    """The match's ``--record`` log (its header holds the seed), or ``None`` without one."""
    if not args.record:
        return None
    from arcade.records.log import RecordLog
    from arcade.records.schema import RecordError

    header = {"kind": "match", "game": game.id, "options": dict(game.settings), "bots": [args.bot_a, args.bot_b],
              "games": args.games, "seed": seed, "limits": limits.as_json()}
    try:
        return RecordLog(args.record, header, repair=args.repair)
    except RecordError as exc:
        raise UsageError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    from rich.table import Table

    from arcade.match import forfeit_lines
    from bots.external import short_names

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    game = make_game(args.game, parse_options(args.option))
    players = (args.bot_a, args.bot_b)
    limits = contained(players, limits_of(args))  # built once, the sandbox settled
    seed, secret = seed_of(args)  # resuming a record: the seed it was made with
    try:  # from here on, Ctrl+C says the seed (and the record, once it holds it)
        log = open_record(args, game, seed, limits)
        try:
            entries = tuple(admit_bots(game, players, limits))  # run_match closes them
        except BaseException:
            if log is not None:
                log.close()
            raise
        summary = play(game, entries, seed, secret, limits, log, args)
    except KeyboardInterrupt:
        raise interrupted(seed, secret, "match", args.record) from None
    if args.json:
        print(json.dumps({**summary.as_json(), "seed_was_secret": secret}))
        return 0
    table = Table(title=f"{game.title} · {summary.games} games · {seed_text(seed, secret)}")
    shown = short_names(summary.players)  # alice/bot.py against bob/bot.py, not bot.py against bot.py
    names = [shown[player] for player in summary.players]
    for column in ("bot", "wins", "won moving first", "forfeits", "slowest move"):
        if column == "bot":
            table.add_column(column, min_width=min(24, max(map(len, names))), overflow="fold")
        else:
            table.add_column(column, justify="right")

    for p in (0, 1):
        table.add_row(
            names[p],
            str(summary.wins[p]),
            str(summary.first_player_wins[p]),
            str(summary.forfeits[p]),
            # a bot that only forfeited (stopped, crashed) has no answer to call its slowest
            f"{summary.max_move_seconds[p] * 1000:.1f} ms" if summary.max_move_seconds[p] or not summary.forfeits[p]
            else "no answer",
        )
    console = plain_console()
    console.print(table)
    console.print(f"draws: {summary.draws}")
    if secret:
        console.print(replay_text(seed), soft_wrap=True)
    if any(r.moved_first != r.first for r in summary.records):  # colour and first move vary apart (Ludo)
        side0 = game.sides[0].name
        console.print(f"won as {side0}: " + ", ".join(f"{names[p]} {summary.side0_wins[p]}" for p in (0, 1)))
    for line in forfeit_lines((names[r.forfeit], r.reason) for r in summary.records if r.forfeit is not None):
        console.print(line, soft_wrap=True)
    for log in bot_logs(entries):
        console.print(f"file bot output: {log}", soft_wrap=True)
    return 0


