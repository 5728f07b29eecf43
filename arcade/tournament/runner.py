"""The runner: a tournament's games played in this process, over local worker processes, or on a
Dask cluster (``arcade.tournament.cluster``), each finished game appended to its record as it
comes; ``run_tournament`` puts the plan, the runner and the format together."""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
import warnings
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import replace
from itertools import combinations
from typing import Callable, Mapping, Self, Sequence

from arcade.match import GameRecord
from arcade.seeds import pair_seed
from arcade.tournament.bundles import DEFAULT_CAP
from arcade.tournament.cluster import bundle_data, connect, pack_bots, run_cluster_task
from arcade.tournament.formats import (
    CHALLENGE,
    PairResult,
    TournamentError,
    TournamentResult,
    representative,
    round_robin_standings,
    run_groups,
)
from arcade.tournament.jobs import Pace
from arcade.tournament.plan import pairs_in, plan
from arcade.tournament.pool import Seal, sealing_context
from arcade.tournament.worker import Setup, Task, chunk_size, release, run_task, run_task_streaming, worker_init
from bots.limits import Limits


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


STREAM_AHEAD = 2
"""Chunks a worker has in hand when a run streams its tasks (``Runner.play_tasks`` with ``more``):
one it plays, one waiting, so that it never idles between two."""


class Runner:
    """Runs pairs' games: in this process (``jobs == 1``), over ``jobs`` local processes, in this
    one until workers pay for themselves (``jobs`` ``None``: ``_play_here``), or on a
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

    def __init__(self, setup: Setup, games: int, seed: int, jobs: int | None, progress: Progress | None = None,
                 cancelled: Callable[[], bool] = lambda: False, log=None, cluster: str | None = None,
                 packed: Sequence = (), steal: bool = True) -> None:
        self.setup = setup
        self.games = games
        self.seed = seed
        self.auto = jobs is None
        """``jobs`` not given: start in this process, fan out when the games show it pays
        (``arcade.tournament.jobs.Pace``)."""
        self.jobs = 1 if jobs is None else max(1, jobs)
        self.pace = Pace.of_this_machine() if self.auto else None
        self.abandoned = False
        """A worker's chunk was played here as well: its worker is stopped at the end, not awaited."""
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
        self.seal: Seal | None = None
        """The pool's semaphores unlinked once its workers hold them (``arcade.tournament.pool``)."""
        self.stream = None
        self.client = None
        self.done = 0
        self.resumed = 0
        """Games taken from the record (``log``) rather than played."""
        self.total = 0
        self.all_pairs: list[PairResult] = []

    def __enter__(self) -> Self:
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
            self.start_pool(self.jobs)
        return self

    def start_pool(self, jobs: int) -> None:
        """The local worker processes for ``jobs`` processes in all (this one among them with
        ``steal``), all started now; their queues' semaphores are unlinked once every worker holds
        them (``arcade.tournament.pool``: a killed run leaves none behind, and no tracker's warning)."""
        context = sealing_context(mp_context())
        start_helpers(context)
        # with a record or someone watching, each game is sent back as it ends (a kill loses only
        # the games in play; the standings move game by game); else a chunk's games come back
        # together (cheaper for many small games)
        watched = self.log is not None or self.progress is not None
        self.stream = context.Queue() if watched else None
        workers = jobs - 1 if self.steal else jobs  # stealing, this process is one of them
        self.jobs = jobs
        ready, told = context.Pipe(duplex=False)  # each worker says it holds the semaphores
        self.pool = ProcessPoolExecutor(workers, mp_context=context, initializer=worker_init,
                                        initargs=(self.stream, os.getpid(), told))
        launch = getattr(self.pool, "_launch_processes", None)  # every worker now: none opens a name later
        if launch is not None:
            launch()
            # the executor's manager thread starts at its first submit, and only it tells the
            # workers to end: started now, a run that plays nothing (a whole record resumed) ends
            manage = getattr(self.pool, "_start_executor_manager_thread", None)
            if manage is not None:
                manage()
            told.close()
            self.seal = Seal(context, ready, workers)

    def __exit__(self, kind, value, traceback) -> None:
        release()  # the file bots' processes this process kept between its chunks
        if self.client is not None:
            self.client.close()
        if self.pool is None:
            return
        if self.seal is not None:
            self.seal.close()
        if kind is None and not self.abandoned and getattr(self.pool, "_executor_manager_thread", True) is not None:
            self._shutdown_reading_the_stream()
            return
        # interrupted (Ctrl+C, the screen left), failed, or done with a worker's chunk played here
        # too (``_share_with_pool``): stop at once. A killed worker's file bots die with it (their
        # sandbox, or PR_SET_PDEATHSIG).
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()
        for process in processes:
            process.join(timeout=5)

    def _shutdown_reading_the_stream(self) -> None:
        """Waits for the workers to end, reading (and dropping) what they still stream meanwhile.

        A worker's ``stream.put`` hands a record to the queue's feeder thread, and a worker ends
        only once its feeder has written everything into the pipe. Every chunk's result (which
        holds its records) is in, so the records still in the stream are copies; but once a
        pipe's worth of them is waiting, a coordinator that only waited would wait forever on a
        worker that waits for it to read (seen: a stealing run, the coordinator busy with a chunk
        of its own while its worker streamed, hung at its end)."""
        pool, stream = self.pool, self.stream  # __exit__ calls this only with a pool
        if stream is None:
            pool.shutdown(wait=True)
            return
        import queue
        import threading

        ended = threading.Event()

        def shut() -> None:
            try:
                pool.shutdown(wait=True)
            finally:
                ended.set()

        closer = threading.Thread(target=shut, name="pool-shutdown", daemon=True)
        closer.start()
        while not ended.is_set():
            try:
                stream.get(timeout=0.05)
            except queue.Empty:
                pass
            except (EOFError, OSError):  # the workers are gone and the pipe with them
                break
        closer.join()

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
                    self.resumed += 1
            if not all(logged):  # a chunk is played whole (a file bot's process sees the same games)
                to_play.append(i)
        report()
        if self.client is not None:
            self._play_on_cluster(tasks, to_play, take, report)
        elif self.pool is not None:
            self._play_on_pool(tasks, to_play, take, report)
        else:
            self._play_here(tasks, to_play, take, report)
        for pair in results:
            pair.records.sort(key=lambda r: r.number)
        return results

    def add_bots(self, files: dict[str, str], cap: int = DEFAULT_CAP) -> None:
        """Bots that join a run under way (a contest's new submissions), ``files`` mapping the
        name the tasks use to its file bot's spec: on a cluster each new one's folder packed
        (``arcade.tournament.bundles.pack``, at most ``cap`` bytes) and sent once; here, the spec
        each process loads. ``TournamentError`` names a folder that cannot travel."""
        if self.client is None:
            self.setup = replace(self.setup, files=tuple(sorted({**dict(self.setup.files), **files}.items())))
            return
        from arcade.tournament.bundles import BundleError, pack
        from bots.external import parse_spec

        bundles = {name: (spec, digest) for name, spec, digest in self.setup.bundles}
        for name, spec in files.items():
            if name in bundles:
                continue
            path, function = parse_spec(spec, self.setup.game_id)
            try:
                packed = pack(name, path, path, function, cap)
            except BundleError as exc:
                raise TournamentError(str(exc)) from None
            bundles[name] = (packed.spec, packed.digest)
            self.data[name] = self.client.submit(bundle_data, packed.data, key=f"arcade-bot-{packed.digest}")
        self.setup = replace(self.setup, bundles=tuple((n, s, d) for n, (s, d) in sorted(bundles.items())))

    def play_tasks(self, tasks: Sequence[Task], take: Callable[[int, GameRecord], None],
                   more: Callable[[], Sequence[Task]] | None = None) -> None:
        """Play ``tasks``, chunks of pairs' games the caller chose (a contest's missing games),
        where ``play`` would (the cluster, the pool, or this process), each game handed to
        ``take(task.pair, record)`` as it ends. ``more``: the caller's next tasks, asked whenever
        the workers run short (the pool: fewer than two chunks a worker in hand; here: none left),
        until it gives none: the workers never wait for a batch to end (``STREAM_AHEAD``)."""
        tasks = list(tasks)
        everything = list(range(len(tasks)))
        if self.client is not None:
            self._play_on_cluster(tasks, everything, take, lambda: None)
        elif self.pool is not None and more is not None and not self.auto:
            self._stream_on_pool(tasks, take, more)
            return
        elif self.pool is not None:
            self._play_on_pool(tasks, everything, take, lambda: None)
        else:
            while True:
                for task in tasks:
                    if self.cancelled():
                        raise KeyboardInterrupt
                    run_task(self.setup, task, lambda record, index=task.pair: take(index, record))
                tasks = list(more()) if more is not None else []
                if not tasks:
                    return
        while more is not None:  # a cluster, or a pool of a run without --jobs: what comes next after
            tasks = list(more())
            if not tasks:
                return
            everything = list(range(len(tasks)))
            if self.client is not None:
                self._play_on_cluster(tasks, everything, take, lambda: None)
            else:
                self._play_on_pool(tasks, everything, take, lambda: None)

    def _stream_on_pool(self, tasks: list[Task], take, more) -> None:
        """``play_tasks`` over the pool with ``more``: the chunks submitted as workers free up,
        ``STREAM_AHEAD`` a worker in hand, ``more`` asked for the next ones as they run short."""
        stage, drain = self._drainer(tasks, take, lambda: None)
        workers = max(1, self.jobs - 1 if self.steal else self.jobs)
        futures: dict[Future, int] = {}
        queued = list(range(len(tasks)))
        exhausted = False
        while queued or futures or not exhausted:
            if self.cancelled():
                for future in futures:
                    future.cancel()
                raise KeyboardInterrupt
            if not exhausted and len(queued) + len(futures) < STREAM_AHEAD * workers:
                extra = list(more())
                exhausted = not extra
                queued += range(len(tasks), len(tasks) + len(extra))
                tasks += extra  # the same list the drainer reads
            while queued and len(futures) < STREAM_AHEAD * workers:
                i = queued.pop(0)
                futures[self.pool.submit(run_task_streaming, self.setup, tasks[i], (stage, i))] = i
            if not futures:
                continue
            done, _ = wait(list(futures), timeout=0.2, return_when=FIRST_COMPLETED)
            drain()
            for future in sorted(done, key=futures.__getitem__):
                for record in chunk_result(future):  # any the stream has not brought yet
                    take(tasks[futures[future]].pair, record)
                del futures[future]
        drain()

    def _play_here(self, tasks, to_play, take, report) -> None:
        """Play the chunks in this process, each timed. Without ``jobs`` (``auto``), after each
        chunk ``Pace.fan_out`` says whether workers would now pay for themselves on the chunks
        left; if so a pool takes them (this process playing beside it, with ``steal``)."""
        for n, i in enumerate(to_play):
            if self.cancelled():
                raise KeyboardInterrupt
            if self.auto and n:
                left = [tasks[j].games for j in to_play[n:]]
                jobs = self.pace.fan_out(sum(left), len(left), max(left))
                if jobs > 1:
                    self.start_pool(jobs)
                    self._play_on_pool(tasks, to_play[n:], take, report)
                    return
            index = tasks[i].pair
            started, cpu = time.perf_counter(), time.process_time()
            run_task(self.setup, tasks[i], lambda record: (take(index, record), report()))
            if self.pace is not None:
                self.pace.played(tasks[i].games, time.perf_counter() - started, time.process_time() - cpu)

    def _drainer(self, tasks, take, report) -> tuple[int, Callable[[], None]]:
        """A new stage's number, and what takes the games its workers streamed so far."""
        import queue

        self.stages += 1  # a record still in the stream from an earlier stage (its chunk's result
        stage = self.stages  # brought it already) must not count in this one's pairs

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

        return stage, drain

    def _play_on_pool(self, tasks, to_play, take, report) -> None:
        if self.auto:
            self._share_with_pool(tasks, to_play, take, report)
            return
        stage, drain = self._drainer(tasks, take, report)
        futures: dict[Future, int] = {self.pool.submit(run_task_streaming, self.setup, tasks[i], (stage, i)): i
                                      for i in to_play}
        pending = set(futures)

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

    def _share_with_pool(self, tasks, to_play, take, report) -> None:
        """The pool of a run without ``jobs``: each worker is handed one chunk at a time (none
        queued behind a worker that is still starting), this process plays the others from the
        end, and once none is left it plays the chunks still in a worker's hands as well, rather
        than wait on a worker a busy machine starts slowly (a game counts once, whoever ends it
        first: ``take``). The workers still busy are stopped at the end (``abandoned``)."""
        stage, drain = self._drainer(tasks, take, report)
        left = list(to_play)
        out: dict[Future, int] = {}
        workers = self.jobs - 1 if self.steal else self.jobs
        while left or out:
            if self.cancelled():
                raise KeyboardInterrupt
            while left and len(out) < workers:
                i = left.pop(0)
                out[self.pool.submit(run_task_streaming, self.setup, tasks[i], (stage, i))] = i
            for future in [f for f in out if f.done()]:
                for record in chunk_result(future):
                    take(tasks[out[future]].pair, record)
                del out[future]
                report()
            drain()
            if not self.steal:
                if out:
                    wait(list(out), timeout=0.2, return_when=FIRST_COMPLETED)
                continue
            if left:
                i = left.pop()
            elif out:
                future, i = next(iter(out.items()))  # a worker's chunk, played here too
                del out[future]
                self.abandoned = True
            else:
                break
            run_task(self.setup, tasks[i], lambda record, pair=tasks[i].pair: (take(pair, record), report()))
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


def run_tournament(
    game_id: str,
    bots: Sequence[str],
    settings: dict | None = None,
    games: int | None = None,
    seed: int = 0,
    jobs: int | None = 1,
    fmt: str = "round-robin",
    limits: Limits = Limits(),
    progress: Progress | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    record: str | os.PathLike | None = None,
    cluster: str | None = None,
    repair: bool = False,
    bundle_cap: int = DEFAULT_CAP,
    steal: bool = True,
    challenges: Sequence[tuple[str, str]] = (),
    specs: Mapping[str, str] | None = None,
) -> TournamentResult:
    """Run a tournament as ``plan`` plans it (its pre-flight first); bots are built-in names or
    file specs, every game under ``limits`` (the sandbox of file bots included). ``jobs``: the
    processes that play, or ``None`` to start in this one and add workers when the games played
    show they would pay (``Runner``, ``arcade.tournament.jobs.Pace``).
    ``record``: the record file (``arcade.records.log.RecordLog``; ``repair``: its damaged lines moved
    aside rather than refused). ``cluster``: a Dask scheduler's address, each file bot's folder
    packed to travel first (``pack_bots``, at most ``bundle_cap`` bytes). ``steal``: with
    workers, this process plays the chunks no worker has taken yet too (``Runner``); the app, whose
    screen this process draws, leaves them to the workers. ``challenges``: pairs ``(new,
    original)`` played first, ``games`` each, as the stage ``CHALLENGE`` (CS4341's), each new
    player of ``bots`` replaced by its original where the original won (``representative``);
    their results are ``result.challenges``, out of the standings. ``specs``: file bots named
    apart from their files (a contest's submissions, by their digests), each name's file spec: the
    record, the pairs' seeds and the standings know the names alone."""
    from arcade.catalog import load
    from bots.external import is_file_spec, parse_spec

    named = dict(specs or {})
    originals = [original for _new, original in challenges]
    everyone = [*bots, *originals]
    planned = plan(game_id, [named.get(bot, bot) for bot in everyone], fmt, games)
    packed = pack_bots(game_id, everyone, bundle_cap, named) if cluster is not None else []
    settings = dict(load(game_id)(**(settings or {})).settings)
    bots = list(bots)
    result = TournamentResult(game_id, settings, fmt, planned.games, seed, bots)
    files = tuple((bot, ":".join(map(str, parse_spec(named.get(bot, bot), game_id)))) for bot in everyone
                  if is_file_spec(named.get(bot, bot)))
    setup = Setup(game_id, settings, limits, files)
    log = None
    if record is not None:
        from arcade.records.log import RecordLog
        from arcade.records.schema import RecordError

        header = {"kind": "tournament", "game": game_id, "options": settings, "bots": everyone, "format": fmt,
                  "games_per_pair": planned.games, "seed": seed, "limits": limits.as_json()}
        if challenges:
            header["challenges"] = [list(pair) for pair in challenges]
        try:
            log = RecordLog(record, header, repair=repair,
                            pair_seed=lambda stage, a, b: pair_seed(seed, stage, a, b))
        except RecordError as exc:
            raise TournamentError(str(exc)) from None
    try:
        with Runner(setup, planned.games, seed, jobs, progress, cancelled, log, cluster, packed, steal) as runner:
            del packed  # the runner sent them
            runner.total = pairs_in(fmt, len(bots)) * planned.games + len(originals) * planned.games
            if challenges:
                result.challenges = runner.play(CHALLENGE, [tuple(pair) for pair in challenges])
                chosen = {challenge.a: representative(challenge) for challenge in result.challenges}
                result.bots = bots = [chosen.get(bot, bot) for bot in bots]
            if fmt == "round-robin":
                result.pairs = runner.play("round robin", list(combinations(bots, 2)))
                result.standings = round_robin_standings(bots, result.pairs)
            else:
                run_groups(result, runner)
            result.from_record = runner.resumed
    finally:
        if log is not None:
            log.close()
    return result
