"""``arcade contest new|submit|run|standings|board|status|rebuild DIR …``: a contest season
(``arcade.contest``), from its folder."""

from __future__ import annotations

import sys

from arcade.commands.common import UsageError, parse_options, plain_console, seconds


def register(subparsers) -> None:
    from arcade.contest.config import FORMATS, PRESETS
    from bots.limits import SANDBOXES

    parser = subparsers.add_parser("contest")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    new = sub.add_parser("new", help="make a contest folder (contest.toml and its secret seed)")
    new.add_argument("dir", metavar="DIR")
    new.add_argument("--game", help="the game (a preset names one)")
    new.add_argument("--preset", choices=PRESETS, help="a course's contest: " + ", ".join(PRESETS))
    new.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (repeatable)")
    new.add_argument("--games", type=int, help="games a pair (default: the preset's, else 100)")
    new.add_argument("--format", choices=FORMATS, dest="fmt", help="all-pairs (default) or ladder")
    new.add_argument("--closes", metavar="ISO-TIME", help="the closing time (2018-12-15T12:00:00-05:00)")
    new.add_argument("--time-limit", type=seconds, metavar="SECONDS", help="a move's time (default: the game's)")
    new.add_argument("--sandbox", choices=SANDBOXES, help="how submissions are contained (default auto: bwrap)")
    submit = sub.add_parser("submit", help="judge a team's submission: accepted or rejected, in one line")
    submit.add_argument("dir", metavar="DIR")
    submit.add_argument("team", metavar="TEAM", nargs="?",
                        help="the team (default: the one the hand-in names: a notebook's team-name cell, PLAYER_NAME)")
    submit.add_argument("path", metavar="PATH[:FUNCTION]",
                        help="the bot's file (.py, .R, .ipynb), its folder, or FOLDER:FILE[:FUNCTION]")
    run = sub.add_parser("run", help="play the missing games (--watch: as submissions arrive)")
    run.add_argument("dir", metavar="DIR")
    where = run.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=int, default=1, help="processes that play, this one included (default 1)")
    where.add_argument("--cluster", metavar="tcp://HOST:PORT", help="play on a Dask cluster")
    run.add_argument("--watch", action="store_true", help="keep going as submissions arrive (the inbox too), "
                                                           "until the contest closes")
    run.add_argument("--publish", metavar="OUT", help="keep the contest's site in folder OUT (arcade contest publish's) "
                                                      "up to date as games finish")
    standings = sub.add_parser("standings", help="the board")
    standings.add_argument("dir", metavar="DIR")
    form = standings.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="one JSON object")
    form.add_argument("--csv", action="store_true", help="CSV, safe to open in a spreadsheet")
    standings.add_argument("--crosstable", action="store_true",
                           help="the crosstable instead: each team's wins-draws-losses against each other "
                                "(as CSV with --csv; --json holds it always)")
    publish = sub.add_parser("publish", help="write the contest's site to OUT: the board, the teams, every game's replay")
    publish.add_argument("dir", metavar="DIR")
    publish.add_argument("out", metavar="OUT", help="the site's folder (made if missing; only what changed is written)")
    board = sub.add_parser("board", help="the live board in the app: standings, crosstable, teams, replays")
    board.add_argument("dir", metavar="DIR")
    for name, text in (("status", "submissions, games done and missing, the time left"),
                       ("rebuild", "make the database again from the records")):
        sub.add_parser(name, help=text).add_argument("dir", metavar="DIR")
    parser.set_defaults(run=main)


def main(args) -> int:
    from arcade.contest.config import ContestError

    try:
        return ACTIONS[args.action](args)
    except ContestError as exc:
        raise UsageError(str(exc)) from None


def new(args) -> int:
    from dataclasses import replace

    from arcade.contest.config import PRESETS, Config, create

    preset = dict(PRESETS.get(args.preset, {}))
    game = args.game or preset.pop("game", None)
    if game is None:
        raise UsageError("contest new needs --game GAME or --preset NAME")
    if args.preset and preset.get("game", game) != game:
        raise UsageError(f"preset {args.preset} is a contest of {PRESETS[args.preset]['game']}, not {game}")
    preset.pop("game", None)
    options = {**preset.pop("options", {}), **parse_options(args.option)}
    config = Config(game=game, options=options, **preset)
    given = {"games": args.games, "format": args.fmt, "closes": args.closes, "time": args.time_limit,
             "sandbox": args.sandbox}
    config = replace(config, **{k: v for k, v in given.items() if v is not None})
    config = create(args.dir, config)
    print(f"contest made in {args.dir}: {config.game}, {config.games} games a pair, {config.format}, "
          f"closes {config.closes or 'never'}; its secret seed is in {args.dir}/secret (keep it)")
    return 0


def submit(args) -> int:
    from arcade.contest.submit import submit as judge

    verdict = judge(args.dir, args.team, args.path)
    print(verdict.line)
    return 0 if verdict.accepted else 1


def run(args) -> int:
    """``arcade contest run DIR``: the missing games played, saying what it does as it goes
    (``RunReport``), then how many it played."""
    from arcade.contest.run import run as play
    from arcade.web.contest import site_keeper

    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    try:
        with RunReport(args.dir) as report:
            played = play(args.dir, jobs=args.jobs, watch=args.watch, cluster=args.cluster,
                          publish=site_keeper(args.publish) if args.publish else None,
                          say=report.say, tally=report.tally)
    except KeyboardInterrupt:
        raise KeyboardInterrupt("interrupted: run it again to go on (nothing played is lost)") from None
    print(f"{played} game{'s' * (played != 1)} played; nothing missing")
    return 0


class RunReport:
    """What ``arcade contest run`` shows as it plays, on standard output: each line the run
    says, as it is said, and each batch's games as they end: where standard output is a terminal,
    a Rich progress bar below the lines (``common.progress_bar``: games done of the batch's, games
    a minute, the time left); otherwise (a log, a pipe) a plain line at each tenth of a batch, and
    at least every ``EVERY`` seconds while games end."""

    EVERY = 30.0

    def __init__(self, folder: str) -> None:
        from pathlib import Path

        from arcade.commands.common import progress_bar

        self.bar = progress_bar(f"contest {Path(folder).name}", quiet=False, stderr=False)
        self.task = None
        self.said = (0, 0.0, -1)  # the plain lines': games, when, tenth of the batch

    def __enter__(self) -> "RunReport":
        if not self.bar.disable:
            self.bar.start()
            self.task = self.bar.add_task("games", total=None, visible=False)
        return self

    def __exit__(self, *exc) -> None:
        if not self.bar.disable:
            self.bar.stop()

    def say(self, line: str) -> None:
        from arcade.untrusted import clean

        if self.task is not None:
            self.bar.console.print(line, markup=False, highlight=False)  # above the bar, wrapped at words
        else:
            print(clean(line, cap=None), flush=True)

    def tally(self, done: int, total: int) -> None:
        import time

        if self.task is not None:
            if done == 0:
                self.bar.reset(self.task, total=total, visible=bool(total))
            else:
                self.bar.update(self.task, completed=done, visible=done < total)
            return
        now = time.monotonic()
        if done == 0:
            self.said = (0, now, 0)
            return
        tenth = done * 10 // max(1, total)
        games, when, last = self.said
        if done < total and (tenth > last or (now - when >= self.EVERY and done > games)):
            print(f"  {done:,}/{total:,} games ({done * 100 // total} %)", flush=True)
            self.said = (done, now, tenth)


def standings(args) -> int:
    """``arcade contest standings DIR``: the board (``arcade.contest.boardmodel``, built once)
    as a table with its notes and the closing stage, its crosstable (``--crosstable``), CSV rows
    (``--csv``, the crosstable's with both) or the model's JSON (``--json``). JSON and CSV are
    for publishing: their texts are what a student may see (``arcade.contest.public``); the table
    is the instructor's, whole."""
    import json

    from arcade.contest.boardmodel import build
    from arcade.contest.public import Public

    board = build(args.dir)
    if args.json:
        print(json.dumps(Public.of(args.dir).json(board.as_json())))
    elif args.csv:
        write_csv(Public.of(args.dir).board(board), args.crosstable)
    elif args.crosstable:
        print_crosstable(board)
    else:
        print_board(board)
    return 0


def write_csv(board, crosstable: bool) -> None:
    """The board's rows (``as_json``'s fields), or its crosstable (a team a row, its cell against
    each team a column, in the board's order), every cell safe to open in a spreadsheet."""
    import csv

    from arcade.commands.tournament import cell

    writer = csv.writer(sys.stdout)
    if crosstable:
        teams = [row.team for row in board.rows]
        writer.writerow(["team", *(cell(team) for team in teams)])
        for team in teams:
            writer.writerow([cell(team), *(board.cross_text(team, other) for other in teams)])
        return
    writer.writerow(board.data_columns())
    for row in board.rows:
        data = row.as_json()
        writer.writerow([cell(data[c]) for c in board.data_columns()])


def print_board(board) -> None:
    """The standings as a table, each cell as the model writes it (``Row.text``) under the
    terminal's headings, then what its numbers are (exact scoring) and the closing stage."""
    from rich.table import Table

    config = board.config
    console = plain_console()
    table = Table(title=f"{config.game} contest · {config.format} · {config.games} games {board.format.per} · "
                        f"points: {config.points}",
                  box=None, pad_edge=False, padding=(0, 1), header_style="bold")
    for column in board.columns():
        table.add_column(column.short, justify="right" if column.numeric else "left", no_wrap=True,
                         min_width=len(column.short) if column.key != "team" else 4)
    for row in board.rows:
        table.add_row(*(row.text(column.key) for column in board.columns()))
    console.print(table)
    for line in board.notes("calc", "vs ar6"):
        console.print(line, soft_wrap=True)
    if board.closing:
        for line in closing_lines(board.closing):
            console.print(line, soft_wrap=True)


def print_crosstable(board) -> None:
    """The crosstable: the teams in the board's order, numbered, each cell as the model writes it
    (``Board.cross_text``), then what a cell is."""
    from rich.table import Table

    console = plain_console()
    table = Table(title=f"{board.config.game} contest · head to head", box=None, pad_edge=False, padding=(0, 1),
                  header_style="bold")
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("team", no_wrap=True, min_width=4)
    teams = [row.team for row in board.rows]
    for index in range(1, len(teams) + 1):
        table.add_column(str(index), justify="right", no_wrap=True)
    for index, team in enumerate(teams, start=1):
        table.add_row(str(index), team, *(board.cross_text(team, other) for other in teams))
    console.print(table)
    console.print(board.cross_note(), soft_wrap=True)


def closing_lines(closing) -> list[str]:
    """The closing stage below the board (``arcade.contest.boardmodel.ClosingStage``): its order,
    each team's CS4341 extra credit where the contest's points are the course's
    (``points = "cs4341"``), and each team's match of its new player against its original one
    (``arcade.contest.closing``)."""
    lines = [f"closing stage ({closing.stage}): " + ", ".join(
        f"{r.rank}. {r.team}" + (f" ({r.extra_credit} extra credit)" if closing.credit else "")
        for r in closing.rows)]
    for match in closing.challenges if closing.credit else ():
        lines.append(f"original vs new: {match.team}'s new player {match.new}, its original {match.original}, "
                     f"{match.draws} drawn; the {match.played} played the groups"
                     + (" (+5 extra credit)" if match.new > match.original else ""))
    return lines


def live_board(args) -> int:
    """The board in the app (``arcade.screens.contest``), refreshing as games finish; q ends it."""
    from arcade.contest.config import load

    load(args.dir)  # a folder that holds no contest is one line, before the app starts
    from arcade.app import ArcadeApp
    from arcade.screens.contest import ContestScreen

    ArcadeApp(screen=ContestScreen(args.dir, standalone=True)).run()
    return 0


def status(args) -> int:
    from arcade.contest.status import status_lines

    for line in status_lines(args.dir):
        print(line)
    return 0


def rebuild(args) -> int:
    from arcade.contest.evidence import rebuild as make_again

    submissions, games, damaged = make_again(args.dir)
    print(f"database made again: {submissions} submissions, {games} games"
          + (f"; {damaged} damaged record line(s) left out" if damaged else ""))
    return 0


def publish(args) -> int:
    """``arcade contest publish DIR OUT``: the site written, one line saying what was done; a
    problem in one line (``UsageError``), never a traceback."""
    from arcade.untrusted import clean
    from arcade.web.contest import publish_contest
    from arcade.web.publish import PublishError

    try:
        report = publish_contest(args.dir, args.out, say=lambda line: print(clean(line), file=sys.stderr))
    except PublishError as exc:
        raise UsageError(str(exc)) from None
    print(report.line(clean(args.out)))
    return 0


ACTIONS = {"board": live_board, "publish": publish, "new": new, "submit": submit, "run": run, "standings": standings, "status": status, "rebuild": rebuild}
