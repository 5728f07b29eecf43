"""``arcade contest run``: exactly the games that are missing, played and streamed into the pairs'
records and the database as they finish.

The pairs are every two teams' current submissions; each plays ``games_per_pair`` games, A (the
smaller digest) first in odd games, each game dealt from the contest's secret, its number and the
sides' roles, never the pair (``arcade.contest.evidence``), so that equal strategies get equal
scores. The newest submissions' pairs come first, a batch of pairs at a time (``arcade.contest.formats.BATCH``: a record
file open a pair), so that a new submission waits for one batch at most.
A game is in its record before it is in the database; a pair with games missing has its record
read first (what a killed run wrote is taken from it), and only the games neither holds are
played: ``kill -9`` at any moment loses only the games in play, and nothing is played twice. A
pair's missing games are played in the tournament's chunks (``arcade.tournament.worker``), each
game from its own seed, so they are the games an uninterrupted run plays (a bot that keeps state
from one game to the next in its process excepted: its process starts again after a kill).

The games run over local processes or a Dask cluster with the tournament's runner
(``arcade.tournament.runner.Runner``); ``watch`` keeps going as submissions arrive (the inbox,
``arcade.contest.inbox``, or ``arcade contest submit``) until the closing time, then runs the
format's closing stage (``arcade.contest.closing``).
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

from arcade.contest import pace, store
from arcade.contest.config import Config, ContestError, load, load_again, secret_seed
from arcade.contest.db import Database, Submission
from arcade.contest.evidence import STAGE, PairLogs
from arcade.contest.formats import format_of, plural
from arcade.tournament.runner import Runner
from arcade.tournament.worker import Setup, Task, chunk_size



def settle(config: Config):
    """The contest's limits with the sandbox settled as a tournament's (``auto`` is bwrap,
    required: ``sandbox = "none"`` in ``contest.toml`` runs them uncontained)."""
    from bots.external.sandbox import SandboxUnavailable
    from bots.registry import contain

    try:
        return contain(["submission.py"], config.limits, required=True).limits
    except SandboxUnavailable as exc:
        raise ContestError(f"submissions need the sandbox: {exc}; sandbox = \"none\" in contest.toml runs them "
                           "NOT contained") from None


def missing_pairs(db: Database, config: Config, current: list[Submission]) -> list[tuple[str, str]] | None:
    """The pairs of current submissions with games missing, the newest submission's first;
    ``None`` where the format chooses its games as it goes (a ladder)."""
    return format_of(config).missing(db, current)


def chunks(index: int, a: str, b: str, seed: int, missing: set[int], games: int, per_pair: int | None = None) -> list[Task]:
    """The tasks that play exactly the ``missing`` games (numbered up to ``games``) of a pair:
    within each of the tournament's chunks (of ``per_pair`` games a pair, by default ``games``),
    each run of consecutive missing numbers."""
    tasks = []
    size = chunk_size(per_pair or games)
    for start in range(1, games + 1, size):
        run: list[int] = []
        for number in range(start, min(start + size, games + 1)):
            if number in missing:
                run.append(number)
            if run and (number not in missing or number == min(start + size, games + 1) - 1):
                tasks.append(Task(index, a, b, seed, run[0], len(run)))
                run = []
    return tasks


BUNDLE_CAP = 1 << 30
"""The most a submission's folder may weigh on its way to a cluster's workers: its own files are
capped by ``max_bytes`` at ``submit``, but the packages installed for it (``.deps``,
``arcade.contest.packages``) travel with it."""


class ContestRunner(Runner):
    """The tournament's runner (``arcade.tournament.runner.Runner``), given the tasks to play
    (``Runner.play_tasks``) rather than whole pairs, and the field's files as submissions arrive
    (``use``: ``Runner.add_bots``)."""

    def use(self, folder: Path, current: list[Submission]) -> None:
        from arcade.tournament.formats import TournamentError

        try:
            self.add_bots({s.digest: store.spec_of(folder, s.digest, s.entry) for s in current}, BUNDLE_CAP)
        except TournamentError as exc:
            raise ContestError(str(exc)) from None


Tally = Callable[[int, int], None]
"""``tally(done, total)``: a batch's games played so far of the games it plays, called with
``(0, total)`` as it starts and again as each game ends (the command's progress display)."""


def play_batch(folder: Path, config: Config, db: Database, runner: ContestRunner, logs: PairLogs,
               say: Callable[[str], None], tally: Tally | None = None, helpers: dict | None = None) -> tuple[int, bool]:
    """Play the format's next games (all pairs: the missing games of the newest ``BATCH`` pairs,
    then the next pairs streamed in as the workers run short, so that none waits for a batch to
    end; a ladder: its next round, ``arcade.contest.ladder``): the games played, and whether
    anything was done (games, pairs computed exactly, records read)."""
    rules = format_of(config)
    current = db.current()
    logs.teams.update({s.digest: s.team for s in current})
    wanted, done = rules.next_games(folder, db, current, logs.secret, say, logs.limits, helpers)
    if not wanted:
        return 0, done
    runner.use(folder, current)
    scheduled = {pair for pair, _numbers in wanted}

    def more() -> list[tuple[tuple[str, str], set[int]]]:
        now = db.current()  # submissions that arrived meanwhile come first
        fresh = rules.more_games(db, now, scheduled, STREAMED)
        if fresh:
            logs.teams.update({s.digest: s.team for s in now})
            runner.use(folder, now)
            scheduled.update(pair for pair, _numbers in fresh)
        return fresh

    started = time.monotonic()
    thinking = pace.Thinking()
    played = play_pairs(config, runner, logs, wanted, say, tally, more, thinking)
    if played:
        pace.record(folder, played, time.monotonic() - started, runner.jobs, thinking=thinking)
    return played, True


STREAMED = 4
"""Pairs added at a time as the workers run short (their records opened then, closed once their
games are in)."""


def play_pairs(config: Config, runner: ContestRunner, logs: PairLogs, wanted: list[tuple[tuple[str, str], set[int]]],
               say: Callable[[str], None], tally: Tally | None = None,
               more: Callable[[], list[tuple[tuple[str, str], set[int]]]] | None = None,
               thinking: pace.Thinking | None = None) -> int:
    """Play the games of ``wanted`` (pairs and their games' numbers) that the pairs' records do
    not hold, each into its record, then the database, as it ends, and those of the pairs ``more``
    adds as the workers run short: the games played. Says which pairs it plays as they start,
    and ``tally`` counts the games as they end; a pair's record is closed once its games are in.
    ``thinking`` gets what the bots spent answering in each game played (``arcade.contest.pace``)."""
    pairs: list[tuple[str, str]] = []
    left: dict[int, int] = {}
    got: set[tuple[int, int]] = set()
    total = 0

    def tasks_of(items: list[tuple[tuple[str, str], set[int]]]) -> list[Task]:
        nonlocal total
        tasks: list[Task] = []
        for (a, b), numbers in items:
            index = len(pairs)
            pairs.append((a, b))
            log = logs.open(a, b)
            have = {key[3] for key in log.games}
            mine = chunks(index, a, b, logs.season, numbers - have, max(numbers, default=0), config.games)
            left[index] = sum(task.games for task in mine)
            if not mine:
                logs.close_pair(a, b)
            tasks += mine
        games = sum(task.games for task in tasks)
        total += games
        if games:
            playing = sorted({t.pair for t in tasks})
            say(f"playing {plural(games, 'game')} of {plural(len(playing), 'pair')}: "
                f"{pairs_text([pairs[i] for i in playing], logs.teams)}")
        if tally is not None:
            tally(len(got), total)
        return tasks

    def take(index: int, record) -> None:
        if (index, record.number) in got:
            return
        got.add((index, record.number))
        a, b = pairs[index]
        logs.append(STAGE, a, b, logs.season, record)
        if thinking is not None:
            thinking.add(a, b, record.times)
        left[index] -= 1
        if not left[index]:
            logs.close_pair(a, b)
        if tally is not None:
            tally(len(got), total)

    def next_tasks() -> list[Task]:
        while more is not None:
            items = more()
            if not items:
                return []
            tasks = tasks_of(items)
            if tasks:
                return tasks
        return []

    first = tasks_of(wanted)
    try:
        runner.play_tasks(first, take, next_tasks if more is not None else None)
    finally:
        logs.close()
    if got:
        say(f"played {plural(len(got), 'game')} of {plural(len({i for i, _ in got}), 'pair')}")
    return len(got)


def pairs_text(pairs: list[tuple[str, str]], teams: dict[str, str], shown: int = 4) -> str:
    """``alice–bob, alice–carol and 4 more pairs``: the pairs by their teams' names."""
    named = [f"{teams.get(a, a[:12])}–{teams.get(b, b[:12])}" for a, b in pairs[:shown]]
    more = len(pairs) - shown
    return ", ".join(named) + (f" and {plural(more, 'more pair')}" if more > 0 else "")


def field_text(folder: Path, config: Config, db: Database) -> str:
    """What ``run`` finds as it starts: the contest, its current submissions (the newest first)
    and what is missing (all pairs: the pairs and their games the database lacks; a ladder: its
    rounds are chosen as they are played)."""
    current = db.current()
    teams = [s.team for s in current]
    field = (f"{plural(len(current), 'current submission')}" +
             (f" ({', '.join(teams[:8])}{f' and {len(teams) - 8} more' if len(teams) > 8 else ''})" if teams else ""))
    rules = format_of(config)
    head = f"contest {folder.name}: {config.game}, {plural(config.games, 'game')} {rules.per}, {config.format}; {field}"
    return f"{head}; {rules.start_text(db, current)}"


def waiting_text(folder: Path, config: Config) -> str:
    """What ``--watch`` says when nothing is left to play: it waits, for what, and until when."""
    until = f"until the contest closes at {config.closes}" if config.closes else "until Ctrl+C (the contest never closes)"
    return (f"waiting for submissions (arcade contest submit, or a folder in {folder / 'inbox'}/TEAM/) {until}")


Publisher = Callable[[Path, Config, Database, Callable[[str], None]], None]
"""What keeps a contest's site up to date as ``run`` plays (``arcade.web.contest.site_keeper``:
the layer above gives it, so that the contest imports nothing of the site's): called with the
contest's folder, its config, the run's database and ``say``; ``ContestError`` if it cannot."""


def run(folder: str | Path, jobs: int = 1, watch: bool = False, cluster: str | None = None,
        say: Callable[[str], None] = print, poll: float = 1.0, quiet: float = 2.0,
        publish: Publisher | None = None, tally: Tally | None = None) -> int:
    """Play what is missing (``watch``: and keep going as submissions arrive, the inbox read,
    until the contest closes; then its closing stage), the contest's site kept by ``publish``
    (``Publisher``: at the start, after each batch of games, at the end). The games played.
    ``say`` is told what it does as it goes (what it found, each batch's pairs, what it played,
    that it waits and until when), ``tally`` each batch's games as they end."""
    folder = Path(folder)
    begun = time.monotonic()
    config = load(folder)
    with Database(folder) as db:
        say(field_text(folder, config, db))
    limits = settle(config)
    setup = Setup(config.game, dict(config.options), limits, season=True)
    played = 0
    waiting = False
    helpers: dict = {"workers": max(2, jobs)}  # what the format keeps for the run (exact scoring's tables)
    with Database(folder) as db, ContestRunner(setup, config.games, secret_seed(folder), jobs, progress=lambda *a: None,
                                               cluster=cluster) as runner:
        logs = PairLogs(folder, config, limits, db, {})
        pace.record(folder, 0, 0.0, 1, start=time.monotonic() - begun)  # what a run takes to begin
        if publish:
            publish(folder, config, db, say)
        while True:
            if watch:
                from arcade.contest.inbox import read_inbox

                read_inbox(folder, say, quiet)
            try:
                games, progressed = play_batch(folder, config, db, runner, logs, say, tally, helpers)
            except BaseException:
                format_of(config).close(helpers)
                raise
            played += games
            if progressed:
                waiting = False
                if publish:
                    publish(folder, config, db, say)
                continue
            closes = config.closes
            config = replace(config, closes=load_again(folder, config).closes)  # the instructor may move it
            if not watch or config.closed():
                format_of(config).close(helpers)
                break
            if not waiting or config.closes != closes:
                say(waiting_text(folder, config))
                waiting = True
            time.sleep(poll)
        if config.closed() and config.closing:
            from arcade.contest.closing import run_closing

            run_closing(folder, config, limits, jobs, say)
            if publish:
                publish(folder, config, db, say)
    return played
