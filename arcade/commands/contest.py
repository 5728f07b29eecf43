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
    from arcade.contest.run import run as play
    from arcade.web.contest import site_keeper

    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    try:
        played = play(args.dir, jobs=args.jobs, watch=args.watch, cluster=args.cluster,
                      publish=site_keeper(args.publish) if args.publish else None)
    except KeyboardInterrupt:
        raise KeyboardInterrupt("interrupted: run it again to go on (nothing played is lost)") from None
    print(f"{played} game{'s' * (played != 1)} played; nothing missing")
    return 0


def board(folder: str):
    from arcade.contest.config import load
    from arcade.contest.db import Database
    from arcade.contest.standings import standings as rank

    config = load(folder)
    with Database(folder) as db:
        return config, rank(db, config)


def standings(args) -> int:
    import json

    from arcade.contest.closing import closing_result
    from arcade.contest.standings import as_dicts, columns

    config, rows = board(args.dir)
    if args.json:
        print(json.dumps({"game": config.game, "games_per_pair": config.games, "points": config.points,
                          "scoring": config.scoring, "standings": as_dicts(rows),
                          "closing": closing_result(args.dir)}))
        return 0
    if args.csv:
        import csv
        import sys

        from arcade.commands.tournament import cell

        writer = csv.writer(sys.stdout)
        writer.writerow(columns(config))
        for row in as_dicts(rows):
            writer.writerow([cell(row[c]) for c in columns(config)])
        return 0
    print_board(config, rows, closing_result(args.dir))
    return 0


def print_board(config, rows, closing) -> None:
    from rich.table import Table

    from arcade.contest.standings import columns as columns_of

    console = plain_console()
    per = "a meeting" if config.format == "ladder" else "a pair"
    table = Table(title=f"{config.game} contest · {config.format} · {config.games} games {per} · points: {config.points}",
                  box=None, pad_edge=False, padding=(0, 1), header_style="bold")
    columns = columns_of(config)
    if config.format == "ladder":  # the score is the rating: shown once, as rating ± uncertainty
        columns = tuple(c for c in columns if c not in ("score", "uncertainty"))
    short = {}
    if config.scoring == "exact":  # Hog has no draws; how each team is scored is said below the table, whole
        columns = tuple(c for c in columns if c not in ("draws", "scored", "why"))
        short = {"vs_always_roll_6": "vs ar6", "computed": "calc"}
    for column in columns:
        heading = short.get(column, column)
        table.add_column(heading, justify="left" if column in ("team", "submitted") else "right", no_wrap=True,
                         min_width=len(heading) if column != "team" else 4)
    for row in rows:
        shown = {**row.as_json(), "submitted": row.submitted[5:16].replace("T", " ")}  # MM-DD HH:MM
        if row.rating is not None:
            shown["rating"] = f"{row.rating:.2f} ± {row.uncertainty:.2f}"
        if row.scored is not None:
            shown["vs_always_roll_6"] = "—" if row.vs_always_roll_6 is None else f"{row.vs_always_roll_6:.4f}"
        table.add_row(*(f"{shown[c]:g}" if c in ("score", "points") else str(shown[c]) for c in columns))
    console.print(table)
    if config.scoring == "exact":
        from arcade.contest.standings import legend

        console.print(legend(config.games, "calc", "vs ar6"), soft_wrap=True)
        for row in rows:
            if row.why:
                console.print(f"{row.team}: scored by sampled games: {row.why}", soft_wrap=True)
    if closing:
        for line in closing_lines(closing):
            console.print(line, soft_wrap=True)


def closing_lines(closing: dict) -> list[str]:
    """The closing stage below the board: its order, each team's CS4341 extra credit where the
    contest's points are the course's (``points = "cs4341"``), and each team's match of its new
    player against its original one (``arcade.contest.closing``)."""
    credit = closing.get("points") == "cs4341"
    lines = [f"closing stage ({closing['stage']}): " + ", ".join(
        f"{r['rank']}. {r['team']}" + (f" ({r.get('extra_credit')} extra credit)" if credit else "")
        for r in closing["standings"])]
    for match in closing.get("challenges", ()) if credit else ():
        lines.append(f"original vs new: {match['team']}'s new player {match['new']}, its original {match['original']}, "
                     f"{match['draws']} drawn; the {match['played']} played the groups"
                     + (" (+5 extra credit)" if match["new"] > match["original"] else ""))
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
