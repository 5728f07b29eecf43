"""What a worker process runs: a chunk of a pair's games (``Task``), with what every chunk needs
(``Setup``), wherever it is played (this process, a local worker, a Dask worker).

Determinism: every game has its own generators derived from the tournament seed, the pair and
the game's number (``arcade.seeds``: ``pair_seed``, ``match_rngs``; the global ``random`` too),
and a pair's games are cut into chunks (``chunk_size``: a quarter of them, at least 10) whatever
the number of jobs, and every game of a Python file bot is played by a process forked from its
loaded process at the game's start (``bots.external.child``: the same state whichever games it
played before; its global ``random`` seeded per game). The same seed therefore gives the same
standings with any ``jobs``: the chunks run in parallel over ``jobs`` worker processes and are put
back in order. A worker keeps a file bot's loaded process from one chunk to the next (``lend``:
its start, the sandbox's and the file's loading, paid once a worker, not once a chunk).
A contest season's tasks (``Setup.season``) carry the season's seed instead of the pair's, and
each game is dealt from it by its number and the sides' roles (``arcade.seeds.season_rngs``).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Callable

from arcade.match import GameRecord, run_match
from bots.limits import Limits

CHUNK = 10
"""The fewest games of a pair one task plays (one worker, one process per file bot)."""


def chunk_size(games: int) -> int:
    """Games a task plays: a quarter of a pair's games, at least ``CHUNK`` — never the job count's
    business, so that a file bot's process sees the same games whatever ``jobs`` is."""
    return max(CHUNK, -(-games // 4))


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
    (``arcade.tournament.bundles.Bundle``); the bundles' bytes travel apart
    (``arcade.tournament.cluster.run_cluster_task``)."""
    season: bool = False
    """A contest season's games: each task's seed is the season's and each game is dealt by its
    number and the sides' roles, whichever pair plays it (``arcade.match.run_match``'s ``season``)."""


def run_task(setup: Setup, task: Task, on_game: Callable[[GameRecord], None] | None = None,
             files: dict[str, str] | None = None) -> list[GameRecord]:
    """Play one chunk of games (in whatever process runs it: here, a local worker, a Dask worker).
    File bots come as the paths in ``setup.files`` or, on a cluster, in ``files`` (their bundles
    written to this machine: ``arcade.tournament.cluster.run_cluster_task``)."""
    from arcade.catalog import load

    game = load(setup.game_id)(**setup.settings)
    from bots.registry import resolve

    files = dict(setup.files) if files is None else files
    entries = tuple(lend(setup.game_id, files.get(name, name), setup.limits, resolve) for name in (task.a, task.b))
    summary = run_match(game, entries, games=task.games, seed=task.seed, limits=setup.limits,
                        first_game=task.first, on_game=on_game, season=setup.season)
    return summary.records


KEEP = 8
"""File bots' loaded processes a worker keeps between its tasks at most (frozen, each with its
cgroups and memory): the least recently used goes past it."""

_KEPT: "OrderedDict[tuple, list]" = OrderedDict()
"""The file bots' sources (``FileBotSource``) not in use, by game, spec and limits, the least
recently used first."""
_KEPT_LOCK = threading.Lock()

IDLE = 120.0
"""Seconds a kept source waits for a task before it is closed (``reap``): a cluster's worker
outlives its runs, and no bot's processes stay loaded in it for hours after its season ended."""

_SINCE: dict[int, float] = {}
"""When each kept source (by ``id``) was given back."""

_REAPER: tuple[int, threading.Thread] | None = None
"""The process's reaper thread (``_reap_idle``) and the process it runs in, while sources are kept."""

_WAKE = threading.Condition(_KEPT_LOCK)
"""Tells the reaper a source was given back (or all released): it works out its next wait again."""


def lend(game_id: str, spec: str, limits: Limits, resolve=None):
    """Bot ``spec``'s entry for one task. A Python file bot's comes with the source (its loaded
    process) this worker kept from an earlier task under the same spec and limits, if any; its
    ``close`` (``run_match``'s end) gives the source back to be kept (``KEEP``) instead of
    killing it. Each game still starts from the loaded state (``NewGame``: a fork). An R strategy
    and a CS4341 program, and a built-in bot, are resolved afresh, as before."""
    if resolve is None:
        from bots.registry import resolve
    entry = resolve(game_id, spec, limits)
    source = getattr(entry, "source", None)
    if source is None or type(source).__name__ != "FileBotSource" or source.notebook is not None and \
            source.notebook.language != "python" or source.path.suffix.lower() == ".r":
        return entry
    key = (game_id, spec, source.limits)
    with _KEPT_LOCK:
        idle = _KEPT.get(key)
        kept = idle.pop() if idle else None
        if idle == []:
            del _KEPT[key]
        if kept is not None:
            _SINCE.pop(id(kept), None)
    if kept is None:
        kept = source
    else:
        source.close()  # nothing started yet: its log released
    return replace(entry, source=kept, factory=_factory(kept), keep=lambda: _give_back(key, kept))


def _factory(source):
    from bots.external.host import ExternalBot

    return lambda game: ExternalBot(game, source)


def _give_back(key: tuple, source) -> None:
    """A task is done with ``source``: kept for the next (its process frozen), the least recently
    used past ``KEEP`` closed, and any kept past ``IDLE`` closed by the reaper."""
    global _REAPER
    gone = []
    with _KEPT_LOCK:
        _KEPT.setdefault(key, []).append(source)
        _KEPT.move_to_end(key)
        _SINCE[id(source)] = time.monotonic()
        while sum(map(len, _KEPT.values())) > KEEP:
            oldest = next(iter(_KEPT))
            gone.append(_KEPT[oldest].pop(0))
            _SINCE.pop(id(gone[-1]), None)
            if not _KEPT[oldest]:
                del _KEPT[oldest]
        if _REAPER is None or _REAPER[0] != os.getpid() or not _REAPER[1].is_alive():  # a fork has none
            _REAPER = (os.getpid(), threading.Thread(target=_reap_idle, name="kept-bots-reaper", daemon=True))
            _REAPER[1].start()
        _WAKE.notify_all()
    for old in gone:
        old.close()


def reap(now: float | None = None) -> int:
    """Close the kept sources given back ``IDLE`` seconds ago or more: how many."""
    now = time.monotonic() if now is None else now
    gone = []
    with _KEPT_LOCK:
        for key in list(_KEPT):
            stale = [source for source in _KEPT[key] if now - _SINCE.get(id(source), now) >= IDLE]
            for source in stale:
                _KEPT[key].remove(source)
                _SINCE.pop(id(source), None)
            if not _KEPT[key]:
                del _KEPT[key]
            gone += stale
    for source in gone:
        source.close()
    return len(gone)


def _reap_idle() -> None:
    """The reaper: it waits until the longest-kept source has been idle ``IDLE`` seconds (or a
    give-back wakes it to work that out again), closes what is due, and ends once none is kept
    (the next give-back starts another)."""
    global _REAPER
    while True:
        with _KEPT_LOCK:
            if not _KEPT:
                if _REAPER is not None and _REAPER[1] is threading.current_thread():
                    _REAPER = None
                return
            now = time.monotonic()
            due = min(_SINCE.values(), default=now) + IDLE
            if due > now:
                _WAKE.wait(due - now)
                continue
        reap()


def release() -> None:
    """Close every kept source (their processes killed, their cgroups removed, their logs
    released): at the end of a run in its own process, and at a worker's exit."""
    with _KEPT_LOCK:
        sources = [source for idle in _KEPT.values() for source in idle]
        _KEPT.clear()
        _SINCE.clear()
        _WAKE.notify_all()  # the reaper ends
    for source in sources:
        source.close()


_STREAM = None
"""A local worker's queue to the coordinator: each game's record as soon as it is played."""


def worker_init(stream, coordinator: int | None = None, ready=None) -> None:
    """A local worker's start (the pool's initializer): its ``stream`` to the coordinator, no
    terminal, and its end tied to the coordinator's (``die_with``). A byte on ``ready`` (a pipe's
    end) tells the coordinator this worker holds the pool's semaphores (it unpickled them to get
    here), so that their names can go (``arcade.tournament.pool.Seal``)."""
    global _STREAM
    _STREAM = stream
    if ready is not None:
        try:
            ready.send_bytes(b"1")
            ready.close()
        except OSError:  # the coordinator is gone: die_with ends this worker
            pass
    _quiet_worker()
    from multiprocessing import util

    util.Finalize(None, release, exitpriority=10)  # a pool's worker ends without atexit: kept bots closed
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
    with ``key`` (the stage's number and the task's index in it:
    ``arcade.tournament.runner.Runner._play_on_pool``)."""
    stream = _STREAM
    return run_task(setup, task, None if stream is None else (lambda record: stream.put((key, record))))


def _quiet_worker() -> None:
    """Workers never write to the terminal (the app's screen or the CLI's --json)."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
