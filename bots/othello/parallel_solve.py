"""The exact endgame solve on two cores: helper processes search the subtrees of each null window.

CPython runs one thread of Python at a time, so the second core of the project's machines is
reached by processes. From ``PARALLEL_EMPTIES`` empties ``Engine.solve`` runs its MTD(f) loop with
each null-window test at the root (``Pool.root_window``) split over two helper processes in the
"young brothers wait" manner (Feldmann's YBWC), by the kind of node expected:

- a node expected to hold the window (a *cut* node, the root first) searches its best known move
  first, alone; only if that move fails are the other moves searched, all at once;
- a node expected to fail (an *all* node: the reply to a cut node's first move) needs every move
  refuted, so its moves are searched all at once from the start, unless an earlier window saw
  it hold with a known move, which then goes first as at a cut node; one move that is not
  refuted ends the node and the others are aborted.

The coordinator (the calling thread, an ``asyncio`` loop on the helpers' pipes) splits the root
and its children, and any position whose last search as one job took more than ``SPLIT_NODES``
nodes; everything else is one job, searched by a helper's ``Engine._solve`` with its own bounds
table (kept for the whole solve). A position goes back to the helper that searched it before,
whose table knows it; a free helper takes new positions but never the other helper's (measured:
stealing them searched more nodes than waiting). The coordinator keeps the bounds the helpers
report, so a job already decided for the window needs no round trip.

Protocol, one line each way per job (numbers in decimal):
``J id p o alpha beta empties`` → ``id value nodes best``; ``A id`` aborts job ``id`` (its answer is
then ``id x nodes -1``); ``L p o`` → ``L sq sq …``, the line of best moves the helper's table holds;
``R`` clears the table. The helpers (``python -m bots.othello.solve_helper``, the engine's side of the
protocol) run in their own session (the terminal's Ctrl+C does not reach them) and end at the end
of their input, so a helper never outlives the program that started it.
A helper that dies or breaks the protocol raises ``HelperError``; ``Engine.solve`` then solves on
one core, and the helpers are not used again in this process.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable

from bots.othello.bitboard import FLIPS, Timeout, table_line
from games.othello import legal_bits

PARALLEL_EMPTIES = 14  # below this a solve takes a fraction of a second: one core is enough
POLL = 0.05  # seconds between deadline checks while waiting for helpers
SPLIT_NODES = 12_000  # a position whose job took more nodes is split from the next window on
SPLIT_PLIES = 2  # the root and its children are always split (measured: 3 searched more nodes)
SPLIT_EMPTIES = 9  # positions with fewer empties are always one job
MAX_SPLIT_DEPTH = 8  # plies from the root
LINE_LENGTH = 6  # moves after the root's
INF = 1 << 30


class HelperError(Exception):
    """A helper process died or broke the protocol."""


class _Helper:
    """One helper process and its line-buffered pipes."""

    COMMAND = ["-m", "bots.othello.solve_helper"]  # after the interpreter; tests swap in a faulty helper

    def __init__(self, index: int) -> None:
        root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ)
        env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
        self.index = index
        self.proc = subprocess.Popen(
            [sys.executable, *self.COMMAND],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=env, cwd=root, bufsize=0, start_new_session=True,
        )
        self.fd = self.proc.stdout.fileno()
        self.buffer = b""
        self.job: int | None = None  # the job running (or being aborted), if any
        self.aborting = False

    def send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line.encode() + b"\n")
        except OSError as exc:
            raise HelperError(f"helper {self.index} is gone: {exc}") from None

    def read_lines(self) -> list[str]:
        """The complete lines now available (call when ``fd`` is readable)."""
        data = os.read(self.fd, 65536)
        if not data:
            raise HelperError(f"helper {self.index} exited")
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        return [line.decode() for line in lines]

    def read_line(self) -> str:
        """Block until one complete line (used for the rare ``L`` query)."""
        while b"\n" not in self.buffer:
            data = os.read(self.fd, 65536)
            if not data:
                raise HelperError(f"helper {self.index} exited")
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()

    def close(self) -> None:
        """End the helper (its input closed, then killed if it lingers) and close both pipes."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()


class Pool:
    """The helpers, the jobs handed to them, and what they reported in this solve."""

    def __init__(self, size: int) -> None:
        self.pid = os.getpid()
        self.helpers = [_Helper(i) for i in range(size)]
        self.loop = asyncio.new_event_loop()
        # a helper's failure is raised to ``Engine.solve``; the loop's own report would go to stderr
        self.loop.set_exception_handler(lambda loop, context: None)
        for helper in self.helpers:
            self.loop.add_reader(helper.fd, self._on_readable, helper)
        self.lock = threading.Lock()
        self.next_id = 0
        self.queue: list[_Job] = []  # jobs waiting for a free helper, oldest first
        self.running: dict[int, _Job] = {}  # job id -> job on a helper
        self.failure: HelperError | None = None
        self.bounds: dict[int, tuple[int, int, int]] = {}  # key -> (lower, upper, best move)
        self.owner: dict[int, int] = {}  # key -> helper that searched it last
        self.cost: dict[int, int] = {}  # key -> nodes of its last search as one job
        self.nodes = 0

    # -- life ----------------------------------------------------------------------------------
    def begin(self) -> None:
        """A new solve: every helper's table is cleared (after any aborted job's reply)."""
        for helper in self.helpers:
            helper.send("R")
        self.bounds.clear()
        self.owner.clear()
        self.cost.clear()
        self.nodes = 0

    def close(self) -> None:
        for helper in self.helpers:
            helper.close()
        try:
            self.loop.close()
        except RuntimeError:
            pass

    # -- the search ----------------------------------------------------------------------------
    def root_window(self, p: int, o: int, order: list[int], alpha: int, beta: int, empties: int,
                    stop: Callable[[], bool]) -> tuple[int, int]:
        """One window ``(alpha, beta)`` over the root moves ``order`` (best first), as
        ``Engine._solve_root``: (fail-soft value, the move that reached it). ``stop()`` true
        aborts the helpers' jobs and raises ``Timeout``."""
        async def main() -> tuple[int, int]:
            task = asyncio.ensure_future(self._node(p, o, alpha, beta, empties, 0, order))
            while not task.done():
                await asyncio.wait([task], timeout=POLL)
                if self.failure is not None or (not task.done() and stop()):
                    task.cancel()
                    try:
                        await task
                    except asyncio.CancelledError:
                        pass
                    if self.failure is not None:
                        raise self.failure
                    raise Timeout
            return task.result()

        return self.loop.run_until_complete(main())

    def line(self, p: int, o: int) -> list[int]:
        """A best line from ``(p, o)`` (after the root's best move): the moves the coordinator
        recorded, then the longest continuation the helpers' tables hold."""
        line, p, o = table_line(self.bounds, p, o, LINE_LENGTH)
        best: list[int] = []
        for helper in self.helpers if len(line) < LINE_LENGTH else ():
            self.loop.run_until_complete(self._idle(helper))
            helper.send(f"L {p} {o}")
            reply = helper.read_line().split()
            if not reply or reply[0] != "L":
                raise HelperError(f"helper {helper.index} sent {' '.join(reply)!r} for a line")
            more = [int(x) for x in reply[1:]]
            if len(more) > len(best):
                best = more
        return (line + best)[:LINE_LENGTH]

    def ping(self) -> None:
        """Wait until every helper answers (its imports done)."""
        for helper in self.helpers:
            self.loop.run_until_complete(self._idle(helper))
            helper.send("L 0 0")
            if helper.read_line() != "L ":
                raise HelperError(f"helper {helper.index} does not answer")

    async def _idle(self, helper: _Helper) -> None:
        while helper.job is not None:
            if self.failure is not None:
                raise self.failure
            await asyncio.sleep(0.005)

    async def _node(self, p: int, o: int, alpha: int, beta: int, empties: int, depth: int,
                    order: list[int] | None = None, cut: bool = True) -> tuple[int, int]:
        """Fail-soft value of ``(p, o)`` in ``(alpha, beta)`` and its best move (-1 if unknown):
        one helper job, or, for the root and for positions whose last job was long, young
        brothers wait over its moves (the best known first, then the rest in parallel)."""
        key = p << 64 | o
        lo, hi, known_move = self.bounds.get(key, (-64, 64, -1))
        if lo >= beta:
            return lo, known_move
        if hi <= alpha:
            return hi, known_move
        if order is None:
            moves = legal_bits(p, o) if empties >= SPLIT_EMPTIES and depth <= MAX_SPLIT_DEPTH else 0
            if not (moves & (moves - 1)) or (depth >= SPLIT_PLIES and self.cost.get(key, 0) < SPLIT_NODES):
                value, move = await self._job(p, o, alpha, beta, empties)
                return value, move
            order = _ordered(p, o, moves, known_move)
        self.cost[key] = max(self.cost.get(key, 0), SPLIT_NODES)  # split once, split from now on
        children = []
        for sq in order:
            f = FLIPS[sq](p, o)
            children.append((sq, o ^ f, p | f | (1 << sq)))
        best, best_move = -INF, order[0]
        rest = children
        if cut or (known_move >= 0 and lo > -64):
            # expected to hold the window, or it held one before (``lo``): the best known move
            # first, alone (measured: a few per cent fewer nodes than all at once for the latter)
            sq, co, cp = children[0]
            value, _ = await self._node(co, cp, -beta, -alpha, empties - 1, depth + 1, cut=False)
            best, best_move = -value, sq
            rest = children[1:]
        if best < beta and rest:
            # expected to fail (or the first move did not hold): every move is searched, in parallel
            tasks = [asyncio.ensure_future(self._node(co, cp, -beta, -alpha, empties - 1, depth + 1, cut=True))
                     for _, co, cp in rest]
            index = {task: i for i, task in enumerate(tasks)}
            waiting = set(tasks)
            try:
                while waiting:
                    done, waiting = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                    for task in done:
                        v = -task.result()[0]
                        if v > best:
                            best, best_move = v, rest[index[task]][0]
                    if best >= beta:
                        break
            finally:
                for task in waiting:
                    task.cancel()
                if waiting:
                    await asyncio.wait(waiting)
        self._record(key, best, alpha, beta, best_move)
        return best, best_move

    def _record(self, key: int, value: int, alpha: int, beta: int, move: int) -> None:
        lo, hi, old = self.bounds.get(key, (-64, 64, -1))
        if value <= alpha:
            hi = min(hi, value)
        elif value >= beta:
            lo = max(lo, value)
        else:
            lo = hi = value
        self.bounds[key] = (lo, hi, move if move >= 0 else old)

    async def _job(self, p: int, o: int, alpha: int, beta: int, empties: int) -> tuple[int, int]:
        """Search ``(p, o)`` on a helper: (fail-soft value, best move)."""
        job = _Job(self.next_id, p, o, alpha, beta, empties, self.loop.create_future())
        self.next_id += 1
        self.queue.append(job)
        self._dispatch()
        try:
            value, move, nodes = await job.future
        except asyncio.CancelledError:
            if job in self.queue:
                self.queue.remove(job)
            elif job.helper is not None and job.helper.job == job.id and not job.helper.aborting:
                job.helper.send(f"A {job.id}")
                job.helper.aborting = True
            raise
        key = p << 64 | o
        self.cost[key] = nodes
        self._record(key, value, alpha, beta, move)
        return value, move

    def _dispatch(self) -> None:
        """Hand queued jobs to free helpers: a helper's own positions first (its table knows
        them), then positions nobody searched yet, oldest first."""
        for helper in self.helpers:
            if helper.job is not None or not self.queue:
                continue
            pick = None
            for job in self.queue:
                owner = self.owner.get(job.key)
                if owner == helper.index:
                    pick = job
                    break
                if owner is None and pick is None:
                    pick = job
            if pick is None:
                continue  # only the other helper's positions wait: they go back to it
            self.queue.remove(pick)
            pick.helper = helper
            helper.job = pick.id
            self.owner[pick.key] = helper.index
            self.running[pick.id] = pick
            try:
                helper.send(f"J {pick.id} {pick.p} {pick.o} {pick.alpha} {pick.beta} {pick.empties}")
            except HelperError as exc:
                self._fail(exc)
                return

    def _on_readable(self, helper: _Helper) -> None:
        try:
            lines = helper.read_lines()
            for line in lines:
                parts = line.split()
                if len(parts) != 4 or parts[0] != str(helper.job):
                    raise HelperError(f"helper {helper.index} sent {line!r}")
                job = self.running.pop(helper.job)
                helper.job = None
                helper.aborting = False
                self.nodes += int(parts[2])
                if parts[1] != "x" and not job.future.done():
                    job.future.set_result((int(parts[1]), int(parts[3]), int(parts[2])))
        except (HelperError, ValueError, KeyError) as exc:
            self._fail(exc if isinstance(exc, HelperError) else HelperError(f"helper {helper.index}: {exc}"))
            return
        self._dispatch()

    def _fail(self, exc: HelperError) -> None:
        self.failure = exc
        for job in list(self.running.values()) + self.queue:
            if not job.future.done():
                job.future.set_exception(exc)


class _Job:
    __slots__ = ("id", "p", "o", "alpha", "beta", "empties", "future", "helper", "key")

    def __init__(self, job_id: int, p: int, o: int, alpha: int, beta: int, empties: int, future) -> None:
        self.id, self.p, self.o, self.alpha, self.beta, self.empties = job_id, p, o, alpha, beta, empties
        self.future = future
        self.helper: _Helper | None = None
        self.key = p << 64 | o


def _ordered(p: int, o: int, moves: int, first: int) -> list[int]:
    """The moves of ``p``: ``first`` (the best known), then fewest replies for ``o`` first. Not
    ``Engine._ordered``, whose square values break ties: measured, the split searched up to 40%
    more nodes on the slowest 16-empty positions with it."""
    keyed = []
    m = moves
    while m:
        low = m & -m
        m ^= low
        sq = low.bit_length() - 1
        if sq == first:
            keyed.append((-1, sq))
            continue
        f = FLIPS[sq](p, o)
        keyed.append((legal_bits(o ^ f, p | f | low).bit_count(), sq))
    keyed.sort()
    return [sq for _, sq in keyed]


_pool: Pool | None = None
_broken = False


def pool() -> Pool | None:
    """The process's helpers (started on first use), or ``None`` on a single core, after a
    helper failed, or in a thread whose own ``asyncio`` loop is running (the pool runs one)."""
    global _pool, _broken
    if _broken:
        return None
    try:
        asyncio.get_running_loop()
        return None
    except RuntimeError:
        pass
    if _pool is not None and _pool.pid != os.getpid():
        _pool = None  # a forked child: those helpers answer the parent; start this process's own
    if _pool is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        if cores < 2:
            _broken = True
            return None
        try:
            _pool = Pool(2)
        except OSError:
            _broken = True
            return None
        atexit.register(_pool.close)
    return _pool


def disable() -> None:
    """Solve on one core from now on (``bench/othello.py --cpu``, which counts this process's CPU)."""
    discard()


def discard() -> None:
    """Stop using the helpers (one failed); later solves use one core."""
    global _pool, _broken
    _broken = True
    if _pool is not None:
        try:
            _pool.close()
        except Exception:  # the helpers may be half gone: closing is best effort
            pass
        _pool = None
