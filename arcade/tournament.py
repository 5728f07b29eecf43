"""Tournaments between bots (built-in and file bots), as the courses ran their contests.

Round robin (``round-robin``), as the STATS 306 contest scored it: every pair of bots plays
``games`` games (the contest's 100), each bot moving first in half of them (A first in odd
games), and a bot's score is its wins. Standings are ordered by wins, then fewer forfeits, then
the order the bots were given; bots with equal wins share a rank.

Groups (``groups``), the CS4341 structure: the bots are drawn at random (from the seed) into
groups, each bot plays every other bot of its group, and the best two of each group go on;
groups rounds repeat while more than four bots remain (at least 2 groups, at most 4, of five
bots at most while four groups do: 16 bots make 4 groups of 4, then 8 make 2 groups of 4; 11
make groups of 4, 4 and 3). The last four (or three) play
a semi-final round robin; the top two play the final, the other two the match for third place.
A group's ranking is the course's points (2 a win, 1 a draw), then wins, then fewer forfeits,
then a lot drawn from the seed. A final that ends level goes to the better semi-finalist.

Determinism: every game has its own generators derived from the tournament seed, the pair and
the game's number (``arcade.seeds``: ``pair_seed``, ``match_rngs``; the global ``random`` too),
and a pair's games are cut into chunks (``chunk_size``: a quarter of them, at least 10) whatever
the number of jobs, each chunk with fresh processes for file bots (whose global ``random`` is
seeded per game). The same seed therefore gives the same standings with any
``jobs``: the chunks run in parallel over ``jobs`` worker processes and are put back in order.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import warnings
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from itertools import combinations
from typing import Callable, Sequence

from arcade.bundles import DEFAULT_CAP
from arcade.match import GameRecord, Tally, run_match
from arcade.seeds import groups_rng, pair_seed
from bots.limits import Limits

CHUNK = 10
"""The fewest games of a pair one task plays (one worker, one process per file bot)."""


def chunk_size(games: int) -> int:
    """Games a task plays: a quarter of a pair's games, at least ``CHUNK`` — never the job count's
    business, so that a file bot's process sees the same games whatever ``jobs`` is."""
    return max(CHUNK, -(-games // 4))

FORMATS = ("round-robin", "groups")
DEFAULT_GAMES = {"round-robin": 100, "groups": 2}
"""Games per pair when not given: the STATS 306 contest's 100; 2 in groups (each side first once)."""


class TournamentError(ValueError):
    """A tournament that cannot be run as asked (a message for the user)."""


# -- results -----------------------------------------------------------------------------------

@dataclass
class PairResult(Tally):
    """The games between two bots, ``a`` first in odd-numbered games."""

    stage: str
    a: str
    b: str
    records: list[GameRecord] = field(default_factory=list)

    def forfeit_reasons(self, player: int) -> list[str]:
        return sorted({r.reason for r in self.records if r.forfeit == player})

    def as_json(self) -> dict:
        return {
            "stage": self.stage,
            "bots": [self.a, self.b],
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "forfeits": self.forfeits,
        }


@dataclass
class Standing:
    bot: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: int = 0
    forfeits: int = 0
    stage: str = ""
    rank: int = 0

    @property
    def points(self) -> int:
        """The CS4341 tournament's points: 2 a win, 1 a draw."""
        return 2 * self.wins + self.draws

    def as_json(self) -> dict:
        data = {
            "rank": self.rank,
            "bot": self.bot,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "games": self.games,
            "forfeits": self.forfeits,
            "points": self.points,
        }
        if self.stage:
            data["stage"] = self.stage
        return data


def tally(bots: Sequence[str], pairs: Sequence[PairResult]) -> dict[str, Standing]:
    """Each bot's wins, draws, losses, games and forfeits over ``pairs``."""
    table = {bot: Standing(bot) for bot in bots}
    for pair in pairs:
        for p, bot in enumerate((pair.a, pair.b)):
            row = table.setdefault(bot, Standing(bot))
            row.wins += pair.wins[p]
            row.draws += pair.draws
            row.losses += pair.wins[1 - p]
            row.games += pair.games
            row.forfeits += pair.forfeits[p]
    return table


def round_robin_standings(bots: Sequence[str], pairs: Sequence[PairResult]) -> list[Standing]:
    """STATS 306 order: wins, then fewer forfeits, then the given order; equal wins share a rank."""
    order = {bot: i for i, bot in enumerate(bots)}
    rows = sorted(tally(bots, pairs).values(), key=lambda s: (-s.wins, s.forfeits, order.get(s.bot, 0)))
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and rows[i - 1].wins == row.wins else i + 1
    return rows


@dataclass
class Group:
    name: str
    bots: list[str]
    standings: list[Standing] = field(default_factory=list)

    def as_json(self) -> dict:
        return {"name": self.name, "bots": self.bots, "standings": [s.as_json() for s in self.standings]}


@dataclass
class Round:
    name: str
    groups: list[Group]

    def as_json(self) -> dict:
        return {"name": self.name, "groups": [g.as_json() for g in self.groups]}


@dataclass
class TournamentResult:
    game: str
    settings: dict
    format: str
    games_per_pair: int
    seed: int
    bots: list[str]
    pairs: list[PairResult] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)

    def as_json(self) -> dict:
        data = {
            "game": self.game,
            "options": self.settings,
            "format": self.format,
            "games_per_pair": self.games_per_pair,
            "seed": self.seed,
            "standings": [s.as_json() for s in self.standings],
            "pairs": [p.as_json() for p in self.pairs],
        }
        if self.rounds:
            data["rounds"] = [r.as_json() for r in self.rounds]
        return data


# -- running games ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Task:
    """A chunk of a pair's games: numbers ``first .. first + games - 1``."""

    pair: int
    a: str
    b: str
    seed: int
    first: int
    games: int


@dataclass(frozen=True)
class Setup:
    """What every task needs besides its pair: picklable, sent to the workers."""

    game_id: str
    settings: dict
    limits: Limits = Limits()
    """The run's limits (``bots.limits``), the sandbox of file bots included, in every worker."""
    files: tuple[tuple[str, str], ...] = ()
    """File bots' names as given, with their absolute specs (a machine that shares our folders)."""
    bundles: tuple[tuple[str, str, str], ...] = ()
    """On a cluster: each file bot's name, its spec inside its bundle and the bundle's digest
    (``arcade.bundles.Bundle``); the bundles' bytes travel apart (``run_cluster_task``)."""


def run_task(setup: Setup, task: Task, on_game: Callable[[GameRecord], None] | None = None,
             files: dict[str, str] | None = None) -> list[GameRecord]:
    """Play one chunk of games (in whatever process runs it: here, a local worker, a Dask worker).
    File bots come as the paths in ``setup.files`` or, on a cluster, in ``files`` (their bundles
    written to this machine: ``run_cluster_task``)."""
    from arcade.catalog import load

    game = load(setup.game_id)(**setup.settings)
    from bots.registry import resolve

    files = dict(setup.files) if files is None else files
    entries = tuple(resolve(setup.game_id, files.get(name, name), setup.limits) for name in (task.a, task.b))
    summary = run_match(game, entries, games=task.games, seed=task.seed, limits=setup.limits,
                        first_game=task.first, on_game=on_game)
    return summary.records


_STREAM = None
"""A local worker's queue to the coordinator: each game's record as soon as it is played."""


def _worker_init(stream, coordinator: int | None = None) -> None:
    global _STREAM
    _STREAM = stream
    _quiet_worker()
    if coordinator is not None:
        die_with(coordinator)


def die_with(coordinator: int) -> None:
    """End this worker the moment the tournament's process (``coordinator``) ends, however it
    ends (SIGKILL included): the kernel kills it with its parent (``PR_SET_PDEATHSIG``; a worker's
    parent is the forkserver, which ends with the tournament), and a watchdog thread waits on the
    coordinator itself (a pidfd, else polling) and kills this process. The bots a worker started
    end with it (bwrap's ``--die-with-parent``; a bot outside the sandbox watches its parent)."""
    import ctypes
    import select
    import threading

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    try:
        handle = os.pidfd_open(coordinator)
    except (AttributeError, OSError):  # no pidfds (an old kernel), or the coordinator is gone
        handle = None

    def alive() -> bool:
        try:
            os.kill(coordinator, 0)
            return True
        except ProcessLookupError:
            return False
        except PermissionError:
            return True

    def watch() -> None:
        if handle is not None:
            select.select([handle], [], [])  # readable once the coordinator has ended
        else:
            while alive():
                time.sleep(0.2)
        os.kill(os.getpid(), signal.SIGKILL)

    if handle is None and not alive():
        os.kill(os.getpid(), signal.SIGKILL)
    threading.Thread(target=watch, name="coordinator-watch", daemon=True).start()


def run_task_streaming(setup: Setup, task: Task, key: tuple[int, int]) -> list[GameRecord]:
    """``run_task`` in a local worker, sending each game's record to the coordinator at once,
    with ``key`` (the stage's number and the task's index in it: ``Runner._play_on_pool``)."""
    stream = _STREAM
    return run_task(setup, task, None if stream is None else (lambda record: stream.put((key, record))))


# -- bot files that travel with the games (a cluster's workers share no folder with us) ----------

def pack_bots(game_id: str, bots: Sequence[str], cap: int) -> list:
    """Each file bot among ``bots`` packed to travel to a cluster (``arcade.bundles.pack``: its
    folder's regular files, at most ``cap`` bytes); ``TournamentError`` names the first file
    that cannot travel, before anything runs."""
    from arcade.bundles import BundleError, pack
    from bots.external import is_file_spec, parse_spec
    from bots.external.specs import named_file

    packed = []
    for bot in bots:
        if is_file_spec(bot):
            path, function = parse_spec(bot, game_id)
            try:
                packed.append(pack(bot, path, named_file(bot)[0], function, cap))
            except BundleError as exc:
                raise TournamentError(str(exc)) from None
    return packed


def bundle_data(data: bytes) -> bytes:
    """A bot's bundle as a task of its own on a cluster: sent once, kept by the cluster (made
    again from the task if the worker holding it dies), fetched by each chunk that needs it."""
    return data


def run_cluster_task(setup: Setup, task: Task, *data: bytes | None) -> list[GameRecord]:
    """``run_task`` on a cluster's worker: ``data`` holds the bundles of the task's bots ``a``
    and ``b`` (``None`` for a built-in), each checked against its digest (``setup.bundles``) and
    written to this machine's cache, read again and checked there, before it runs
    (``arcade.bundles.materialise``)."""
    from arcade.bundles import BundleError, materialise
    from bots.external import is_file_spec

    packed = {name: (spec, digest) for name, spec, digest in setup.bundles}
    files = {}
    for name, blob in zip((task.a, task.b), data):
        if is_file_spec(name) and (name not in packed or blob is None):  # never a file of this machine's
            raise BundleError(f"bot {name!r}: its files did not come with the task: not run")
        if name in packed:
            spec, digest = packed[name]
            files[name] = str(materialise(digest, blob) / spec)
    return run_task(setup, task, files=files)


def _quiet_worker() -> None:
    """Workers never write to the terminal (the app's screen or the CLI's --json)."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)


def mp_context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def start_helpers(context) -> None:
    """Start multiprocessing's helper processes with a real standard error.

    Inside the Textual app ``sys.stderr`` is a capture whose ``fileno()`` is -1, which the
    resource tracker would pass on to its process ("bad value(s) in fds_to_keep"); give the
    helpers ``/dev/null`` instead (they have nothing to say on the app's screen).
    """
    from multiprocessing import resource_tracker

    try:
        usable = sys.stderr is not None and sys.stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    saved = sys.stderr
    quiet = None
    if not usable:
        quiet = open(os.devnull, "w")
        sys.stderr = quiet
    try:
        resource_tracker.ensure_running()
        if context.get_start_method() == "forkserver":
            from multiprocessing import forkserver

            forkserver.ensure_running()
    finally:
        if quiet is not None:
            sys.stderr = saved
            quiet.close()


Progress = Callable[[int, int, list[PairResult]], None]
"""``progress(games_done, games_total, pairs_so_far)`` after each chunk."""


class Runner:
    """Runs pairs' games: in this process (``jobs == 1``), over ``jobs`` local processes, or on a
    Dask cluster (``cluster``: the scheduler's address; ``packed``: the file bots' bundles,
    ``pack_bots``, sent there once). With a ``log`` (a ``RecordLog``) every
    finished game is appended to it as it comes, and games the log holds already are not played.

    With ``steal``, this process is one of the ``jobs`` processes that play (``jobs - 1`` workers
    besides it) rather than waiting idle on its workers: it takes the last chunk no worker has
    started yet (a pending future it can still cancel) and plays it itself, again and again. While
    the workers start (a process, the arcade's imports, their bots' tables) the games go on here,
    so a small tournament is over before the workers matter and more jobs are never much slower
    than one; which process plays a chunk changes none of its games. Without it (the app, whose
    screen this process draws) ``jobs`` workers play."""

    def __init__(self, setup: Setup, games: int, seed: int, jobs: int, progress: Progress | None = None,
                 cancelled: Callable[[], bool] = lambda: False, log=None, cluster: str | None = None,
                 packed: Sequence = (), steal: bool = True) -> None:
        self.setup = setup
        self.games = games
        self.seed = seed
        self.jobs = max(1, jobs)
        self.progress = progress
        self.cancelled = cancelled
        self.log = log
        self.cluster = cluster
        self.packed = list(packed)
        self.steal = steal
        self.stages = 0
        """Stages played over the pool so far (groups play several: their streamed records are told apart)."""
        self.data: dict[str, object] = {}
        """On a cluster: each file bot's bundle, a future of the cluster (``bundle_data``)."""
        self.pool: ProcessPoolExecutor | None = None
        self.stream = None
        self.client = None
        self.done = 0
        self.total = 0
        self.all_pairs: list[PairResult] = []

    def __enter__(self) -> "Runner":
        if self.cluster is not None:
            self.client = connect(self.cluster)
            self.setup = replace(self.setup, files=(), bundles=tuple((b.name, b.spec, b.digest) for b in self.packed))
            with warnings.catch_warnings():  # a bot's files are data in a task on purpose (see bundle_data)
                warnings.filterwarnings("ignore", "Sending large graph", UserWarning)
                for packed in self.packed:  # each bot's bytes once; the chunks fetch them on the cluster
                    self.data[packed.name] = self.client.submit(bundle_data, packed.data,
                                                                key=f"arcade-bot-{packed.digest}")
            self.packed = []
        elif self.jobs > 1:
            context = mp_context()
            start_helpers(context)
            # with a record or someone watching, each game is sent back as it ends (a kill loses only
            # the games in play; the standings move game by game); else a chunk's games come back
            # together (cheaper for many small games)
            watched = self.log is not None or self.progress is not None
            self.stream = context.Queue() if watched else None
            workers = self.jobs - 1 if self.steal else self.jobs  # stealing, this process is one of them
            self.pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_init,
                                            initargs=(self.stream, os.getpid()))
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if self.client is not None:
            self.client.close()
        if self.pool is None:
            return
        if kind is None:
            self.pool.shutdown(wait=True)
            return
        # interrupted (Ctrl+C, the screen left) or failed: stop at once. A killed worker's file
        # bots die with it (their sandbox, or PR_SET_PDEATHSIG).
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()
        for process in processes:
            process.join(timeout=5)

    def play(self, stage: str, pairs: Sequence[tuple[str, str]]) -> list[PairResult]:
        """Play every pair's games; the results in the order of ``pairs``."""
        results = [PairResult(stage, a, b) for a, b in pairs]
        seeds = [pair_seed(self.seed, stage, a, b) for a, b in pairs]
        tasks = []
        for index, (a, b) in enumerate(pairs):
            size = chunk_size(self.games)
            for first in range(1, self.games + 1, size):
                tasks.append(Task(index, a, b, seeds[index], first, min(size, self.games + 1 - first)))
        self.all_pairs.extend(results)
        got: set[tuple[int, int]] = set()

        def take(index: int, record: GameRecord) -> None:
            """A finished game (played now or read from the log), once."""
            if (index, record.number) in got:
                return
            got.add((index, record.number))
            pair = results[index]
            pair.records.append(record)  # put in order of their numbers at the end
            if self.log is not None:
                self.log.append(stage, pair.a, pair.b, seeds[index], record)
            self.done += 1

        def report() -> None:
            if self.progress is not None:
                self.progress(self.done, self.total, self.all_pairs)

        to_play = []
        for i, task in enumerate(tasks):
            logged = [self.log.get(stage, task.a, task.b, k) for k in range(task.first, task.first + task.games)] \
                if self.log is not None else [None]
            for record in logged:
                if record is not None:
                    take(task.pair, record)
            if not all(logged):  # a chunk is played whole (a file bot's process sees the same games)
                to_play.append(i)
        report()
        if self.client is not None:
            self._play_on_cluster(tasks, to_play, take, report)
        elif self.pool is not None:
            self._play_on_pool(tasks, to_play, take, report)
        else:
            for i in to_play:
                if self.cancelled():
                    raise KeyboardInterrupt
                index = tasks[i].pair
                run_task(self.setup, tasks[i], lambda record: (take(index, record), report()))
        for pair in results:
            pair.records.sort(key=lambda r: r.number)
        return results

    def _play_on_pool(self, tasks, to_play, take, report) -> None:
        import queue

        self.stages += 1  # a record still in the stream from an earlier stage (its chunk's result
        stage = self.stages  # brought it already) must not count in this one's pairs
        futures: dict[Future, int] = {self.pool.submit(run_task_streaming, self.setup, tasks[i], (stage, i)): i
                                      for i in to_play}
        pending = set(futures)

        def drain() -> None:
            while self.stream is not None:
                try:
                    (sent_in, i), record = self.stream.get_nowait()
                except queue.Empty:
                    return
                if sent_in != stage:
                    continue
                take(tasks[i].pair, record)
                report()

        while pending:
            if self.cancelled():
                for future in pending:
                    future.cancel()
                raise KeyboardInterrupt
            stolen = self.steal and next((f for f in sorted(pending, key=futures.__getitem__, reverse=True)
                                          if f.cancel()), None)
            if stolen:  # no worker took it: played here (its games are the same wherever they are played)
                pending.discard(stolen)
                task = tasks[futures[stolen]]
                run_task(self.setup, task, lambda record: (take(task.pair, record), report()))
                drain()
                continue
            done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            drain()
            for future in sorted(done, key=futures.__getitem__):
                for record in chunk_result(future):  # any the stream has not brought yet
                    take(tasks[futures[future]].pair, record)
                report()
        drain()

    def _play_on_cluster(self, tasks, to_play, take, report) -> None:
        from distributed import as_completed

        futures = {self.client.submit(run_cluster_task, self.setup, tasks[i], self.data.get(tasks[i].a),
                                      self.data.get(tasks[i].b), retries=1, pure=False): i for i in to_play}
        remaining = as_completed(list(futures))
        for future in remaining:
            if self.cancelled():
                self.client.cancel(list(futures))
                raise KeyboardInterrupt
            for record in chunk_result(future):  # a game rerun after a worker died is taken once
                take(tasks[futures[future]].pair, record)
            report()


def chunk_result(future) -> list[GameRecord]:
    """A chunk's records; a chunk that failed in its worker (not a bot's fault: those are
    forfeits) stops the tournament with a ``TournamentError`` that says what happened."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return future.result()
    except (BrokenProcessPool, KeyboardInterrupt):
        raise
    except Exception as exc:  # noqa: BLE001 - one line for the user, whatever the worker met
        raise TournamentError(f"the tournament stopped: a chunk of games failed in its worker "
                              f"({type(exc).__name__}: {exc})") from None


def connect(address: str):
    """A Dask client of the scheduler at ``address`` (``tcp://HOST:PORT``, started with Dask's own
    ``dask scheduler``; workers with ``dask worker tcp://HOST:PORT``)."""
    try:
        from distributed import Client
    except ImportError:
        raise TournamentError("--cluster needs Dask's distributed: pip install 'contest-arcade[cluster]' "
                              "(or pip install distributed)") from None
    try:
        return Client(address, timeout=10)
    except (OSError, TimeoutError) as exc:
        raise TournamentError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


# -- the plan: what a tournament will play, checked before anything runs ------------------------

def check(game_id: str, bots: Sequence[str], fmt: str, games: int | None) -> int:
    """The games a pair plays (``games``, or the format's default); ``TournamentError`` for an
    unknown format, fewer than two bots, a bot named twice, or fewer than one game a pair."""
    if fmt not in FORMATS:
        raise TournamentError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
    if len(bots) < 2:
        raise TournamentError("a tournament needs at least two bots")
    seen = set()
    for bot in bots:
        if bot in seen:
            raise TournamentError(f"bot {bot!r} is named twice; name each bot once")
        seen.add(bot)
    games = DEFAULT_GAMES[fmt] if games is None else games
    if games < 1:
        raise TournamentError("--games must be at least 1")
    return games


def pairs_in(fmt: str, bots: int) -> int:
    """The pairs a tournament of ``bots`` bots plays in all, every round's (the groups format's
    ``planned_pairs``)."""
    if bots < 2:
        return 0
    return bots * (bots - 1) // 2 if fmt == "round-robin" else planned_pairs(bots)


def planned_games(fmt: str, bots: int, games: int) -> int:
    """The games a tournament of ``bots`` bots and ``games`` a pair plays in all (what the
    progress bars count); 0 while that is no tournament (fewer than two bots or games)."""
    return pairs_in(fmt, bots) * games if games >= 1 else 0


@dataclass(frozen=True)
class TournamentPlan:
    """A tournament as it will be played: its ``bots``, ``fmt``, ``games`` a pair, and the
    ``pairs`` that play in all (every round's, in groups); ``total`` games."""

    game_id: str
    bots: tuple[str, ...]
    fmt: str
    games: int
    pairs: int

    @property
    def total(self) -> int:
        return self.pairs * self.games

    def clocks(self, game, limits: Limits = Limits()) -> dict[str, float]:
        """Seconds a move of each bot may take: the run's time (``limits.time``) where it sets
        one; else a file bot's is the game's (``bots.limits.move_time``) and a built-in bot's its
        own (``Bot.move_seconds``: ``alphabeta-1s`` 1 s, a bot that keeps no clock 10 ms)."""
        from bots.external import is_file_spec
        from bots.registry import resolve

        if limits.time is not None:
            return {bot: limits.time for bot in self.bots}
        return {bot: limits.move_time(game) if is_file_spec(bot) else resolve(game.id, bot).make(game).move_seconds()
                for bot in self.bots}


def plan(game_id: str, bots: Sequence[str], fmt: str = "round-robin", games: int | None = None,
         read_files: bool = False, bundle_cap: int | None = None) -> TournamentPlan:
    """The tournament's plan, after its pre-flight: ``check``; no bot that cannot play unattended
    (``BotEntry.unattended``: Othello's ``external``, a program someone starts); every name a bot
    of the game (``bots.registry.check``: a file bot's file exists, its function is a name); with
    ``read_files``, each file bot's file read and compiled too (a plan that runs nothing checks
    what loading it would; ``check_files``); with ``bundle_cap`` (a cluster's run), each file bot's
    folder packed as it would travel (``pack_bots``) and let go. ``TournamentError`` names the first
    problem; nothing runs, no bot's code included."""
    from bots.registry import UnknownBot, bots_for
    from bots.registry import check as check_name

    games = check(game_id, bots, fmt, games)
    built_in = bots_for(game_id)
    for bot in bots:
        if bot in built_in and not built_in[bot].unattended:
            raise TournamentError(f"bot {bot!r} cannot play unattended (it needs a program you start); "
                                  "a tournament cannot use it")
        try:
            check_name(game_id, bot)
        except UnknownBot as exc:
            raise TournamentError(str(exc)) from None
    if read_files:
        check_files(game_id, bots)
    if bundle_cap is not None:
        pack_bots(game_id, bots, bundle_cap)
    return TournamentPlan(game_id, tuple(bots), fmt, games, pairs_in(fmt, len(bots)))


def check_files(game_id: str, bots: Sequence[str]) -> None:
    """Check each file bot without running any of its code: the file is valid Python (in its
    declared encoding, UTF-8 by default). (A real run also starts each bot and loads its file, in
    its sandbox.) ``TournamentError`` names the first bad one."""
    from bots.external import is_file_spec, parse_spec, short_name

    for bot in bots:
        if not is_file_spec(bot):
            continue
        path, _function = parse_spec(bot, game_id)
        try:
            compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:  # ValueError: a NUL byte in the source
            where = f" (line {exc.lineno})" if getattr(exc, "lineno", None) else ""
            raise TournamentError(f"bot {short_name(bot)!r}: not valid Python{where}: "
                                  f"{getattr(exc, 'msg', None) or exc}") from None
        except OSError as exc:
            raise TournamentError(f"bot {short_name(bot)!r}: cannot read it: {exc.strerror or exc}") from None


def run_tournament(
    game_id: str,
    bots: Sequence[str],
    settings: dict | None = None,
    games: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    fmt: str = "round-robin",
    limits: Limits = Limits(),
    progress: Progress | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    record: str | os.PathLike | None = None,
    cluster: str | None = None,
    repair: bool = False,
    bundle_cap: int = DEFAULT_CAP,
    steal: bool = True,
) -> TournamentResult:
    """Run a tournament as ``plan`` plans it (its pre-flight first); bots are built-in names or
    file specs, every game under ``limits`` (the sandbox of file bots included).
    ``record``: the record file (``arcade.records.RecordLog``; ``repair``: its damaged lines moved
    aside rather than refused). ``cluster``: a Dask scheduler's address, each file bot's folder
    packed to travel first (``pack_bots``, at most ``bundle_cap`` bytes). ``steal``: with
    workers, this process plays the chunks no worker has taken yet too (``Runner``); the app, whose
    screen this process draws, leaves them to the workers."""
    from arcade.catalog import load
    from bots.external import is_file_spec, parse_spec

    planned = plan(game_id, bots, fmt, games)
    packed = pack_bots(game_id, bots, bundle_cap) if cluster is not None else []
    settings = dict(load(game_id)(**(settings or {})).settings)
    bots = list(bots)
    result = TournamentResult(game_id, settings, fmt, planned.games, seed, bots)
    files = tuple((bot, ":".join(map(str, parse_spec(bot, game_id)))) for bot in bots if is_file_spec(bot))
    setup = Setup(game_id, settings, limits, files)
    log = None
    if record is not None:
        from arcade.records import RecordError, RecordLog

        header = {"kind": "tournament", "game": game_id, "options": settings, "bots": bots, "format": fmt,
                  "games_per_pair": planned.games, "seed": seed, "limits": limits.as_json()}
        try:
            log = RecordLog(record, header, repair=repair,
                            pair_seed=lambda stage, a, b: pair_seed(seed, stage, a, b))
        except RecordError as exc:
            raise TournamentError(str(exc)) from None
    try:
        with Runner(setup, planned.games, seed, jobs, progress, cancelled, log, cluster, packed, steal) as runner:
            del packed  # the runner sent them
            runner.total = planned.total
            if fmt == "round-robin":
                result.pairs = runner.play("round robin", list(combinations(bots, 2)))
                result.standings = round_robin_standings(bots, result.pairs)
            else:
                run_groups(result, runner)
    finally:
        if log is not None:
            log.close()
    return result


def group_sizes(n: int) -> int:
    """How many groups a groups round of ``n`` bots has (CS4341: 4 groups of about 4 or 5):
    groups of five at most while four groups do, at least two groups."""
    return min(4, max(2, -(-n // 5)))


def planned_pairs(n: int) -> int:
    """Pairs a groups tournament of ``n`` bots plays in all (for the progress bar)."""
    total = 0
    while n > 4:
        k = group_sizes(n)
        sizes = [len(range(i, n, k)) for i in range(k)]
        total += sum(s * (s - 1) // 2 for s in sizes)
        n = sum(min(2, s) for s in sizes)
    if n >= 3:
        total += n * (n - 1) // 2
    return total + (2 if n == 4 else 1)


def run_groups(result: TournamentResult, runner: Runner) -> None:
    rng = groups_rng(result.seed)
    lots = {bot: rng.random() for bot in result.bots}
    out: list[tuple[str, list[Standing]]] = []  # bots knocked out, by round, best first

    def ranked(bots: Sequence[str], pairs: Sequence[PairResult], stage: str) -> list[Standing]:
        rows = sorted(tally(bots, pairs).values(), key=lambda s: (-s.points, -s.wins, s.forfeits, lots[s.bot]))
        for i, row in enumerate(rows):
            row.rank, row.stage = i + 1, stage
        return rows

    current = list(result.bots)
    number = 0
    while len(current) > 4:
        number += 1
        stage = "first round" if number == 1 else "second round" if number == 2 else f"round {number}"
        shuffled = current[:]
        rng.shuffle(shuffled)
        k = group_sizes(len(shuffled))
        groups = [Group(f"{stage} · group {'ABCD'[i]}", shuffled[i::k]) for i in range(k)]
        pairs = [pair for g in groups for pair in combinations(g.bots, 2)]
        played = runner.play(stage, pairs)
        result.pairs.extend(played)
        advancing, knocked = [], []
        for g in groups:
            mine = [p for p in played if p.a in g.bots and p.b in g.bots]
            g.standings = ranked(g.bots, mine, stage)
            advancing += [s.bot for s in g.standings[:2]]
            knocked += g.standings[2:]
        result.rounds.append(Round(stage, groups))
        knocked.sort(key=lambda s: (-s.points, -s.wins, s.forfeits, lots[s.bot]))
        out.append((stage, knocked))
        current = advancing

    final_order: list[Standing]
    if len(current) >= 3:
        semi = Group("semi-final", current)
        played = runner.play("semi-final", list(combinations(current, 2)))
        result.pairs.extend(played)
        semi.standings = ranked(current, played, "semi-final")
        result.rounds.append(Round("semi-final", [semi]))
        seeded = [s.bot for s in semi.standings]
    else:
        seeded = list(current)
    final_pairs = [(seeded[0], seeded[1])]
    if len(seeded) == 4:
        final_pairs.append((seeded[2], seeded[3]))
    played = runner.play("final", final_pairs)
    result.pairs.extend(played)
    final_order = []
    names = ["final", "third place"]
    for index, pair in enumerate(played):
        top, bottom = (pair.a, pair.b) if pair.wins[0] >= pair.wins[1] else (pair.b, pair.a)
        for bot in (top, bottom):
            row = tally([bot], [pair])[bot]
            row.stage = names[index]
            final_order.append(row)
    if len(seeded) == 3:
        third = tally([seeded[2]], [])[seeded[2]]
        third.stage = "semi-final"
        final_order.append(third)
    result.rounds.append(Round("final", [Group(names[i], [p.a, p.b], final_order[2 * i:2 * i + 2])
                                         for i, p in enumerate(played)]))
    for _stage, knocked in reversed(out):
        final_order.extend(knocked)
    totals = tally(result.bots, result.pairs)
    standings = []
    for rank, row in enumerate(final_order, start=1):
        total = totals[row.bot]
        total.rank, total.stage = rank, row.stage
        standings.append(total)
    result.standings = standings
