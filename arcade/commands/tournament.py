"""``arcade tournament GAME BOT...``: a round robin or groups tournament (``arcade.tournament``
runs it), printed as a table, with ``--json`` and ``--csv`` for the course's records."""

from __future__ import annotations

from arcade.commands.common import (
    UsageError,
    add_game_argument,
    add_memory_option,
    add_sandbox_option,
    add_seed_option,
    bot_logs,
    make_game,
    parse_options,
    progress_bar,
    replay_text,
    resolve_bots,
    sandbox_for,
    seed_of,
    seed_text,
    seconds,
)
from arcade.tournament import (
    FORMATS,
    TournamentError,
    TournamentResult,
    check,
    default_jobs,
    planned_pairs,
    run_tournament,
)


def csv_rows(result: TournamentResult) -> list[list]:
    rows = [["rank", "bot", "wins", "draws", "losses", "games", "forfeits", "points", "stage"]]
    for s in result.standings:
        rows.append([s.rank, s.bot, s.wins, s.draws, s.losses, s.games, s.forfeits, s.points, s.stage])
    return rows


def register(subparsers) -> None:
    """``arcade tournament GAME BOT... [--games N] [--seed S] [--jobs J] [--format F] [--json] [--csv FILE]``."""
    parser = subparsers.add_parser("tournament", help="a tournament between bots (round robin or groups)")
    add_game_argument(parser)
    parser.add_argument("bots", nargs="+", metavar="BOT", help="built-in bot names or path/to/bot.py:function")
    parser.add_argument("--games", type=int, default=None,
                        help="games per pair (default 100 in a round robin, as STATS 306; 2 in groups)")
    add_seed_option(parser)
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: the CPU count)")
    parser.add_argument("--format", choices=FORMATS, default="round-robin", dest="fmt",
                        help="round-robin (STATS 306) or groups (CS4341: groups, second round, semi-final, final)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option (repeatable)")
    parser.add_argument("--time-limit", type=seconds, default=None, metavar="SECONDS",
                        help="per-move time for bots (file bots forfeit past it)")
    add_memory_option(parser)
    add_sandbox_option(parser, "auto", "bwrap for file bots: a tournament refuses to run file bots uncontained "
                                       "unless --sandbox none is given")
    parser.add_argument("--json", action="store_true", help="print one JSON object and nothing else")
    parser.add_argument("--csv", metavar="FILE", help="also write the standings to FILE as CSV")
    parser.add_argument("--record", metavar="FILE",
                        help="append every finished game to FILE (JSON lines); run again with the same FILE "
                             "and arguments to resume: recorded games are not played again")
    parser.add_argument("--repair", action="store_true",
                        help="resuming --record FILE: move damaged lines aside into FILE.damaged "
                             "(else they stop the run)")
    parser.add_argument("--cluster", metavar="tcp://HOST:PORT",
                        help="play the games on a Dask cluster (started with 'dask scheduler' and 'dask worker')")
    parser.add_argument("--plan", action="store_true",
                        help="print the number of games and a time estimate, and play nothing")
    parser.set_defaults(run=run)


def run(args) -> int:
    import csv
    import json

    from rich.console import Console
    from rich.table import Table

    from bots.external import short_name

    game = make_game(args.game, parse_options(args.option))
    try:
        check(args.game, args.bots, args.fmt, args.games)
    except TournamentError as exc:
        raise UsageError(str(exc)) from None
    refuse_attended(args.game, args.bots)
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.plan:
        return print_plan(game, args)
    sandbox = sandbox_for(args.bots, args.sandbox, required=True)
    seed, secret = seed_of(args)  # resuming a record: the seed it was made with
    entries = resolve_bots(game, args.bots, args.memory, sandbox=sandbox)  # checks every name, loads every file bot
    for entry in entries:
        entry.close()
    with progress_bar(f"{game.title} tournament · {len(args.bots)} bots", quiet=args.json) as bar:
        n = len(args.bots)
        pairs = n * (n - 1) // 2 if args.fmt == "round-robin" else planned_pairs(n)
        task = bar.add_task("games", total=pairs * check(args.game, args.bots, args.fmt, args.games))

        def progress(done: int, total: int, _pairs) -> None:
            bar.update(task, completed=done, total=total)

        from concurrent.futures.process import BrokenProcessPool

        try:
            result = run_tournament(
                args.game,
                args.bots,
                settings=dict(game.settings),
                games=args.games,
                seed=seed,
                jobs=args.jobs or default_jobs(),
                fmt=args.fmt,
                time_limit=args.time_limit,
                memory=args.memory << 20,
                sandbox=sandbox,
                progress=progress,
                record=args.record,
                repair=args.repair,
                cluster=args.cluster,
            )
        except BrokenProcessPool as exc:
            resume = f"; run it again with --record {args.record} to go on" if args.record else ""
            raise UsageError(f"the tournament stopped: a worker process died ({exc}){resume}") from None
        except TournamentError as exc:
            raise UsageError(str(exc)) from None
    if args.csv:
        try:
            with open(args.csv, "w", newline="", encoding="utf-8") as handle:
                csv.writer(handle).writerows(csv_rows(result))
        except OSError as exc:
            raise UsageError(f"cannot write {args.csv}: {exc.strerror or exc}") from None
    if args.json:
        print(json.dumps({**result.as_json(), "seed_was_secret": secret}))
        return 0
    console = Console()
    how = "round robin" if args.fmt == "round-robin" else "groups"
    table = Table(title=f"{game.title} · {how} · {result.games_per_pair} games a pair · {seed_text(seed, secret)}")
    if args.fmt == "groups":
        columns = ["#", "bot", "points", "wins", "forfeits", "reached"]
    else:
        columns = ["#", "bot", "wins", "draws", "losses", "forfeits", "games"]
    width = min(24, max(len(short_name(bot)) for bot in args.bots))
    for column in columns:
        if column == "bot":
            table.add_column(column, min_width=width, overflow="fold")
        else:
            table.add_column(column, justify="left" if column == "reached" else "right", no_wrap=True)
    for s in result.standings:
        values = {"#": s.rank, "bot": short_name(s.bot), "wins": s.wins, "draws": s.draws, "losses": s.losses,
                  "forfeits": s.forfeits, "games": s.games, "points": s.points, "reached": s.stage}
        table.add_row(*(str(values[c]) for c in columns))
    console.print(table)
    if secret:
        console.print(replay_text(seed).replace("match", "tournament"), soft_wrap=True)
    reasons = sorted({f"{short_name((p.a, p.b)[r.forfeit])}: {r.reason}" for p in result.pairs for r in p.records
                      if r.forfeit is not None})
    for reason in reasons[:10]:
        console.print(f"forfeit: {reason}", soft_wrap=True)
    if len(reasons) > 10:
        console.print(f"… and {len(reasons) - 10} other forfeit reasons")
    for log in bot_logs(entries):
        console.print(f"file bot output: {log}", soft_wrap=True)
    return 0


def refuse_attended(game_id: str, bots: list[str]) -> None:
    """A built-in bot that needs someone at the keyboard (``BotEntry.unattended`` false: Othello's
    ``external``, a program you start) plays no tournament: one line, before anything runs."""
    from bots.registry import bots_for

    entries = bots_for(game_id)
    for bot in bots:
        if bot in entries and not entries[bot].unattended:
            raise UsageError(f"bot {bot!r} cannot play unattended (it needs a program you start); "
                             "a tournament cannot use it")


def print_plan(game, args) -> int:
    """``--plan``: how many games the tournament plays and how long it may take, from each bot's
    time limit and the game's typical length (random play's, over 40 games), playing nothing."""
    import random

    from bots.adapters import adapter_for
    from bots.external import is_file_spec
    from bots.registry import bots_for
    from games.base import CHANCE, random_playout

    games = check(args.game, args.bots, args.fmt, args.games)
    check_files(game.id, args.bots)
    n = len(args.bots)
    pairs = n * (n - 1) // 2 if args.fmt == "round-robin" else planned_pairs(n)
    total = pairs * games
    rng = random.Random(0)
    lengths = [sum(s.to_move != CHANCE for s in random_playout(game, game.initial_state(), rng)[:-1])
               for _ in range(40)]
    moves = sum(lengths) / len(lengths)
    game_limit = getattr(game, "time_limit", None)

    builtin = bots_for(game.id)

    def limit(bot: str) -> float:
        """Seconds a move of ``bot`` may take: the time limit file bots are held to; a built-in
        bot's own clock (``BotEntry.seconds``: ``alphabeta-1s``), else the game's time limit
        where it has one (a clock-bound search), else a guess of 10 ms."""
        if args.time_limit is not None:
            return args.time_limit
        if is_file_spec(bot):
            return adapter_for(game.id).time_limit(game)
        entry = builtin.get(bot)
        if entry is not None and entry.seconds is not None:
            return entry.seconds
        return float(game_limit) if game_limit is not None else 0.01

    per_pair = sum(limit(bot) for bot in args.bots) * (n - 1) / max(1, n * (n - 1) // 2) if n > 1 else 0.0
    worst = total * moves / 2 * per_pair  # each side makes half the moves
    jobs = args.jobs or default_jobs()
    how = "round robin" if args.fmt == "round-robin" else "groups tournament"
    print(f"{game.title} {how} of {n} bots: {plural(pairs, 'pair')} × {plural(games, 'game')} = "
          f"{plural(total, 'game')}")
    print(f"a game: about {moves:.0f} moves (random play, 40 games)")
    print(f"at most {duration(worst)} if every move takes its time limit; with --jobs {jobs}: "
          f"{duration(worst / jobs)}; on a cluster of W workers, that divided by W")
    print("(a bot that answers faster than its limit makes it shorter; the progress bar shows the real pace)")
    return 0


def check_files(game_id: str, bots: list[str]) -> None:
    """The plan's check of the file bots, without running any of their code: each file exists,
    it is valid Python (in its declared encoding, UTF-8 by default), and the function's name is
    a name. (A real run also starts each bot and loads its file, in its sandbox.) ``UsageError``
    names the first bad one."""
    from bots.external import BadSpec, is_file_spec, parse_spec, short_name

    for bot in bots:
        if not is_file_spec(bot):
            continue
        try:
            path, _function = parse_spec(bot, game_id)
            compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
        except BadSpec as exc:
            raise UsageError(str(exc)) from None
        except (SyntaxError, ValueError) as exc:  # ValueError: a NUL byte in the source
            where = f" (line {exc.lineno})" if getattr(exc, "lineno", None) else ""
            raise UsageError(f"bot {short_name(bot)!r}: not valid Python{where}: "
                             f"{getattr(exc, 'msg', None) or exc}") from None
        except OSError as exc:
            raise UsageError(f"bot {short_name(bot)!r}: cannot read it: {exc.strerror or exc}") from None


def plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"
