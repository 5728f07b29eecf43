"""``arcade tournament GAME BOT...``: a round robin or groups tournament (``arcade.tournament``
runs it: ``plan``, then ``runner``), printed as a table, with ``--json`` and ``--csv`` for the course's records."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
    seed_of,
    seed_text,
    seconds,
    interrupted,
    stopped,
    check_output,
)
from arcade.tournament.bundles import DEFAULT_CAP
from arcade.tournament.jobs import duration
from arcade.tournament.formats import FORMATS, TournamentError, TournamentResult
from arcade.tournament.plan import TournamentPlan, plan
from arcade.tournament.runner import run_tournament

if TYPE_CHECKING:  # pragma: no cover
    from bots.limits import Limits


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")
"""How a spreadsheet cell that it reads as a formula begins (the full-width forms too)."""


def cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: a text that would start a formula (a student's
    bot file named ``=HYPERLINK(…).py``) gets a leading ``'``, as OWASP advises; numbers stay."""
    if isinstance(value, str) and value.lstrip(" ").startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_rows(result: TournamentResult) -> list[list]:
    """The standings as CSV rows (a header first), every cell safe to open in a spreadsheet."""
    rows = [["rank", "bot", "wins", "draws", "losses", "games", "forfeits", "points", "stage"]]
    for s in result.standings:
        rows.append([cell(v) for v in (s.rank, s.bot, s.wins, s.draws, s.losses, s.games, s.forfeits, s.points,
                                       s.stage)])
    return rows


def register(subparsers) -> None:
    """``arcade tournament GAME BOT... [--games N] [--seed S] [--jobs J] [--format F] [--json] [--csv FILE]``."""
    parser = subparsers.add_parser("tournament")
    add_game_argument(parser)
    parser.add_argument("bots", nargs="+", metavar="BOT", help="built-in bot names or path/to/bot.py:function")
    parser.add_argument("--games", type=int, default=None,
                        help="games per pair (default 100 in a round robin, as STATS 306; 2 in groups)")
    add_seed_option(parser)
    parser.add_argument("--jobs", type=int, default=None, help="processes that play, this one included (default: this one, and workers once the games "
                             "played show they would save time; --plan shows the plan's estimate)")
    parser.add_argument("--format", choices=FORMATS, default="round-robin", dest="fmt",
                        help="round-robin (STATS 306) or groups (CS4341: groups, second round, semi-final, final)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option (repeatable; arcade options GAME lists them)")
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
    parser.add_argument("--bundle-cap", type=int, default=DEFAULT_CAP >> 20, metavar="MIB",
                        help=f"with --cluster: the MiB a file bot's folder may hold to travel "
                             f"(default {DEFAULT_CAP >> 20})")
    parser.add_argument("--plan", action="store_true",
                        help="print the number of games and a time estimate, and play nothing")
    parser.set_defaults(run=run)


def run(args) -> int:
    """Plan the tournament (its pre-flight), then print the plan (``--plan``) or admit the bots,
    play it and print the standings; a resumed ``--record`` says how many games came from it."""
    import json
    import sys

    game = make_game(args.game, parse_options(args.option))
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.bundle_cap < 1:
        raise UsageError("--bundle-cap must be at least 1 (MiB)")
    try:  # on a cluster, every file bot's folder is packed as it will travel, before any bot starts
        planned = plan(args.game, args.bots, args.fmt, args.games, read_files=args.plan,
                       bundle_cap=args.bundle_cap << 20 if args.cluster else None)
    except TournamentError as exc:
        raise UsageError(str(exc)) from None
    limits = limits_of(args)
    if args.plan:
        return print_plan(game, planned, limits, args.jobs)
    if args.csv:
        check_output(args.csv, "--csv")  # before any game: a directory, /dev/full, no right to write
    limits = contained(args.bots, limits, required=True)  # file bots run contained, or --sandbox none
    seed, secret = seed_of(args)  # resuming a record: the seed it was made with
    try:  # from here on, Ctrl+C says the seed (and the record, once it holds it)
        entries = admit_bots(game, args.bots, limits)  # every file bot loaded, in the sandbox the games use
        for entry in entries:
            entry.close()
        try:
            result = play(game, planned, limits, seed, args)
        except UsageError as exc:
            raise UsageError(stopped(exc, seed, secret, "tournament")) from None
    except KeyboardInterrupt:
        raise interrupted(seed, secret, "tournament", args.record) from None
    if result.from_record:
        print(f"arcade: {resumed_text(args.record, result.from_record, planned.total)}", file=sys.stderr)
    if args.json:
        print(json.dumps({**result.as_json(), "seed_was_secret": secret}))
    else:
        print_result(game, result, args, seed, secret, bot_logs(entries))
    if args.csv:
        write_csv(args.csv, result)  # after the standings: a disk full now loses only the CSV
    return 0


def play(game, planned: TournamentPlan, limits: Limits, seed: int, args) -> TournamentResult:
    """Run the planned tournament with a progress bar; a worker that died or a tournament that
    cannot go on is a ``UsageError``."""
    from concurrent.futures.process import BrokenProcessPool

    from arcade.records.schema import RecordError

    with progress_bar(f"{game.title} tournament · {len(planned.bots)} bots", quiet=args.json) as bar:
        task = bar.add_task("games", total=planned.total)

        def progress(done: int, total: int, _pairs) -> None:
            bar.update(task, completed=done, total=total)

        try:
            return run_tournament(args.game, planned.bots, settings=dict(game.settings), games=planned.games,
                                  seed=seed, jobs=1 if args.cluster else args.jobs, fmt=planned.fmt, limits=limits,
                                  progress=progress, record=args.record, repair=args.repair,
                                  cluster=args.cluster, bundle_cap=args.bundle_cap << 20)
        except BrokenProcessPool as exc:
            resume = f"; run it again with --record {args.record} to go on" if args.record else ""
            raise UsageError(f"the tournament stopped: a worker process died ({exc}){resume}") from None
        except TournamentError as exc:
            raise UsageError(str(exc)) from None
        except RecordError as exc:  # a record that cannot be written any more (a full disk)
            raise UsageError(f"the tournament stopped: {exc}") from None


def resumed_text(record: str, taken: int, total: int) -> str:
    """What resuming ``record`` did: ``t.jsonl: 37 of the 100 games came from the record, 63 were
    played now``."""
    from arcade.records.schema import shown

    played = total - taken
    now = "none was played now" if played == 0 else f"{played} {'was' if played == 1 else 'were'} played now"
    return f"{shown(record)}: {taken} of the {plural(total, 'game')} came from the record, {now}"


def write_csv(path: str, result: TournamentResult) -> None:
    import csv

    try:
        with open(path, "w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows(csv_rows(result))
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def print_result(game, result: TournamentResult, args, seed: int, secret: bool, logs: list[str]) -> None:
    """The standings as a table, the replay line of a secret seed, the forfeits grouped as
    ``arcade match`` groups them (``arcade.match.forfeit_lines``: ten kinds at most) and where the
    file bots' output went; each bot by its shortest distinguishing path (``short_names``: three
    ``bot.py`` of three folders are ``alice/bot.py``, ``bob/bot.py``…)."""
    from rich.table import Table

    from arcade.match import forfeit_lines
    from bots.external import short_names

    console = plain_console()
    how = "round robin" if args.fmt == "round-robin" else "groups"
    title = f"{game.title} · {how} · {result.games_per_pair} games a pair · {seed_text(seed, secret)}"
    # as wide as its title where the terminal has room: the title is not wrapped mid-way
    table = Table(title=title, min_width=min(len(title), console.width))
    if args.fmt == "groups":
        columns = ["#", "bot", "points", "wins", "forfeits", "reached"]
    else:
        columns = ["#", "bot", "wins", "draws", "losses", "forfeits", "games"]
    names = short_names([*(s.bot for s in result.standings), *(bot for p in result.pairs for bot in (p.a, p.b))])
    rows = [{"#": s.rank, "bot": names[s.bot], "wins": s.wins, "draws": s.draws, "losses": s.losses,
             "forfeits": s.forfeits, "games": s.games, "points": s.points, "reached": s.stage}
            for s in result.standings]
    cells = {c: [c] + [str(row[c]) for row in rows] for c in columns}
    others = sum(max(map(len, cells[c])) + 3 for c in columns if c != "bot") + 1  # padding, rules
    room = max(8, console.width - others - 3)  # the bot column: what the numbers leave
    for column in columns:
        table.add_column(column, justify="left" if column in ("bot", "reached") else "right", no_wrap=True)
    for row in rows:
        row["bot"] = cut_middle(str(row["bot"]), room)
        table.add_row(*(str(row[c]) for c in columns))
    console.print(table)
    if secret:
        console.print(replay_text(seed).replace("match", "tournament"), soft_wrap=True)
    lines = forfeit_lines((names[(p.a, p.b)[r.forfeit]], r.reason) for p in result.pairs for r in p.records
                          if r.forfeit is not None)
    for line in lines[:10]:
        console.print(line, soft_wrap=True)
    if len(lines) > 10:
        console.print(f"… and {len(lines) - 10} other kinds of forfeit")
    for log in logs:
        console.print(f"file bot output: {log}", soft_wrap=True)


def cut_middle(name: str, width: int) -> str:
    """``name`` in at most ``width`` characters: its start and end kept, ``…`` in between (a
    long file bot's name keeps its function), so that it never runs into the next column."""
    if len(name) <= width:
        return name
    if width <= 1:
        return "…"[:width]
    tail = (width - 1) // 2
    return name[: width - 1 - tail] + "…" + (name[-tail:] if tail else "")


def print_plan(game, planned: TournamentPlan, limits: Limits, jobs: int | None) -> int:
    """``--plan``: how many games the tournament plays, how long it may take (each bot's time a
    move, ``TournamentPlan.clocks``, over the game's typical length: random play's, 40 games) and
    the worker processes it would use (``--jobs``, or chosen: ``arcade.tournament.jobs``), playing nothing."""
    from arcade.tournament.jobs import plan_jobs, typical_moves
    from arcade.commands.common import containment_text

    n = len(planned.bots)
    moves = typical_moves(game)
    clocks = planned.clocks(game, limits)
    per_pair = sum(clocks.values()) * (n - 1) / max(1, n * (n - 1) // 2) if n > 1 else 0.0
    worst = planned.total * moves / 2 * per_pair  # each side makes half the moves
    how = "round robin" if planned.fmt == "round-robin" else "groups tournament"
    print(f"{game.title} {how} of {n} bots: {plural(planned.pairs, 'pair')} × {plural(planned.games, 'game')} = "
          f"{plural(planned.total, 'game')}")
    print(f"a game: about {moves:.0f} moves (random play, 40 games)")
    print(f"at most {duration(worst)} if every move takes its time limit; on a cluster of W workers, "
          f"that divided by W")
    if jobs is not None:
        print(f"processes playing: {jobs} (--jobs)")
    else:
        choice = plan_jobs(game, planned, limits, moves=moves)
        serial, expected = min(choice.serial, worst), min(choice.expected, worst / choice.jobs)  # a bound is a bound
        machine = f"{choice.cpus} CPUs, {choice.load:.1f} other processes running"
        if choice.jobs == 1:
            print(f"processes playing: this one, by the plan's estimate (expected {duration(serial)}; a worker "
                  f"would cost {choice.worker:.2f} s to start; {machine}); the run itself adds workers if its "
                  f"games show they would save time; --jobs J to choose")
        else:
            print(f"processes playing: about {choice.jobs}, this one and {plural(choice.jobs - 1, 'worker')} by the "
                  f"plan's estimate (expected {duration(expected)}, on one process {duration(serial)}; {machine}); "
                  f"the run starts in this one and adds them once its first games confirm it; --jobs J to choose")
    print("(a bot that answers faster than its limit makes it shorter; the progress bar shows the real pace)")
    held = containment_text(planned.bots, limits.sandbox, limits.memory)
    if held is not None:
        print(held)
    return 0



def plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


