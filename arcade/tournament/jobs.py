"""How many processes play a tournament (``--jobs``) when it is not given.

A worker is not free: it starts a process, imports the arcade and builds its bots' tables again
(Hog's ``optimal`` table, D-Football's book) before its first game, and on a busy machine it
shares the processors with everything else. A small tournament of quick bots is over before two
workers have started (400 games of Toothpick Takeaway take 0.1 s in one process, 0.3 s over two),
so the number of processes is chosen from the plan, before anything is played:

1. ``probe``: each built-in bot is built once (timed: what every worker pays again) and, if it
   keeps no clock, plays a few of its own moves (timed, within a small budget); a bot that
   searches to a clock is taken to use it, and a file bot its limit's ``FILE_BOT_SHARE`` plus a
   process start each chunk. No file bot's code runs here.
2. ``estimate``: the games' expected time on one process (``serial``) from the pairs' costs and
   the games' typical length.
3. ``choose``: the processes that minimise the expected time, given the processors, the
   machine's load (a process gets ``min(1, cpus / (load + running))`` of a processor) and the
   number of chunks; more than one only when that saves at least ``GAIN`` of the time. The
   tournament's own process is one of them (``Runner``'s ``steal``, ``arcade.tournament.runner``:
   it plays the chunks no worker has taken while the workers start), so ``jobs`` processes cost
   ``jobs - 1`` workers' starts, and an estimate that is off costs little: a small tournament is
   over before its workers matter.

``arcade tournament --plan`` prints the choice and its figures.

A run without ``--jobs`` does not probe (the probe cost 0.27 s of a 0.87 s tournament, and its
estimates ran 2–6× long): it starts in its own process and measures the games themselves
(``Pace``). After each chunk played, ``Pace.fan_out`` asks ``choose`` again with what the chunks
took (their bots' first-chunk set-up told apart from their games) and the games left; once more
processes would save ``GAIN`` of the time left, a pool of workers takes the chunks left
(``arcade.tournament.runner.Runner``). A small tournament is over before that; a large one fans
out after its first chunks. ``bench/tournament.py`` measures it against one process and two,
interleaved, with the machine loaded or not.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass
from typing import Sequence

from bots.base import QUICK, Context

WORKER_START = 0.15
"""Seconds of a processor a worker takes before it plays (a forkserver's child importing the
arcade, the pool's set-up and its queue), besides its bots' tables: 0.13–0.17 s on the 2-core
machine, 2026-11-26 (10-game Toothpick Takeaway round robins, two processes against one)."""

FILE_BOT_START = 0.15
"""Seconds a file bot's process takes to start, once a chunk (its sandbox, Python, its file)."""

FILE_BOT_SHARE = 0.1
"""The share of its time limit a file bot's move is taken to need (students' bots answer in
milliseconds; a search to the limit makes the tournament long, and workers pay then anyway)."""

GAIN = 0.1
"""More than one process only when the expected time drops by at least this share."""

SPARE = 0.85
"""The share of a processor a tournament's own process must get for workers to be worth
starting on a run without ``--jobs`` (``Pace.fan_out``): below it the machine is busy, and on a
2-core machine shared with other sessions a second process was 1.3–2× slower, not faster."""

PROBE_BUDGET = 0.05
"""Seconds of moves the probe plays a bot (its set-up and first move timed apart), and of random
games it plays to time the runner's own work."""

PROBE_CLOCK = 0.01
"""The time limit a bot that keeps a clock is probed with: one that answers well within it is
quick whatever its limit (Ludo's expectimax: milliseconds, under a 1 s clock); one that uses it
is taken to use its whole limit in the games (a search to the time)."""


@dataclass(frozen=True)
class BotCost:
    """What one bot costs: ``setup`` seconds to build (again in each worker), ``move`` seconds a
    move, and ``start`` seconds a chunk (a file bot's process)."""

    setup: float
    move: float
    start: float = 0.0


@dataclass(frozen=True)
class JobsChoice:
    """The workers chosen (``jobs``) and why: the expected seconds on one process (``serial``)
    and with ``jobs`` workers (``expected``), a worker's cost, the processors and the load."""

    jobs: int
    serial: float
    expected: float
    worker: float
    cpus: int
    load: float


def share(jobs: int, cpus: int, load: float) -> float:
    """Processors ``jobs`` busy processes get on ``cpus`` processors already running ``load``
    others (the scheduler shares them out evenly)."""
    return min(float(jobs), cpus * jobs / (load + jobs)) if load + jobs > cpus else float(jobs)


def choose(serial: float, worker: float, cpus: int, load: float, tasks: int, longest: float = 0.0) -> tuple[int, float]:
    """The number of processes that play (this one and ``jobs - 1`` workers) and the expected
    seconds, for games that take ``serial`` seconds on one process, ``worker`` seconds of a
    processor to start each worker, on ``cpus`` processors with ``load`` other runnable
    processes, in ``tasks`` chunks the longest of which takes ``longest`` seconds on one process.
    One process unless more save ``GAIN`` of the time."""
    alone = serial / share(1, cpus, load)
    best, best_time = 1, alone
    for jobs in range(2, max(1, min(cpus, tasks)) + 1):
        got = share(jobs, cpus, load)
        expected = (worker * (jobs - 1) + serial) / got
        expected = max(expected, longest / share(1, cpus, load + jobs - 1))
        if expected < best_time:
            best, best_time = jobs, expected
    if best > 1 and best_time > (1 - GAIN) * alone:
        return 1, alone
    return best, best_time


def processors() -> int:
    """The processors this process may run on (its affinity: a container's share), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@dataclass
class Pace:
    """What the chunks played in the tournament's own process took, for ``fan_out``: the first
    chunk apart (its bots' tables built, what each worker would pay again), then the games of the
    chunks after it."""

    cpus: int = 1
    load: float = 0.0
    first: tuple[int, float] | None = None
    """(games, seconds) of the first chunk."""
    games: int = 0
    seconds: float = 0.0
    """Games and seconds of the chunks after the first."""
    cpu: float = 0.0
    """Seconds of a processor this process got while it played them."""

    @classmethod
    def of_this_machine(cls) -> "Pace":
        return cls(processors(), machine_load())

    def played(self, games: int, seconds: float, cpu: float | None = None) -> None:
        """A chunk of ``games`` took ``seconds`` (and ``cpu`` seconds of a processor)."""
        if self.first is None:
            self.first = (games, seconds)
        else:
            self.games += games
            self.seconds += seconds
            self.cpu += seconds if cpu is None else cpu

    def fan_out(self, games_left: int, chunks_left: int, biggest_chunk: int) -> int:
        """The processes for the games left (1: stay in this one): ``choose`` with a game's
        seconds as measured and a worker's start plus the first chunk's set-up. Nothing is
        decided before a chunk after the first has been timed, and nothing but one process while
        this one gets less than ``SPARE`` of a processor: the machine has none to spare (a
        worker would share this one's; on Linux a session's processes share its CPU time
        when others are busy, the autogroup), whatever the load average says."""
        if self.first is None or not self.games or self.cpu < SPARE * self.seconds:
            return 1
        rate = self.seconds / self.games
        setup = max(0.0, self.first[1] - self.first[0] * rate)
        jobs, _expected = choose(rate * games_left, WORKER_START + setup, self.cpus, 0.0, chunks_left,
                                 rate * biggest_chunk)
        return jobs


def probe(game, bots: Sequence[str], limits) -> dict[str, BotCost]:
    """Each bot's ``BotCost``: built-in bots built and, if they keep no clock, timed on a few
    moves of their own game; file bots from their limit (their code does not run here)."""
    from bots.external import is_file_spec
    from bots.registry import resolve

    costs = {}
    for name in bots:
        if is_file_spec(name):
            costs[name] = BotCost(0.0, FILE_BOT_SHARE * limits.move_time(game), FILE_BOT_START)
            continue
        started = time.perf_counter()
        bot = resolve(game.id, name, limits).make(game)
        setup = time.perf_counter() - started
        clock = bot.move_seconds() if limits.time is None else limits.time
        if clock <= QUICK:
            first, move = timed_moves(game, bot, limits.time)
        else:
            first, move = timed_moves(game, bot, PROBE_CLOCK)
            if move > PROBE_CLOCK / 2:  # it searches to its clock
                move = clock
        costs[name] = BotCost(setup + first, move)
    return costs


def timed_moves(game, bot, clock: float | None) -> tuple[float, float]:
    """``(first, move)``: seconds of ``bot``'s first move (where a bot builds its tables on first
    use) and the mean of its moves after it, each with ``clock`` seconds to think, in games against
    a random mover (the positions a bot meets in its games: a book's, say), each side in turn,
    until ``PROBE_BUDGET`` is spent (chance steps drawn at random)."""
    from games.base import CHANCE

    rng = random.Random(0)
    first, spent, moves = None, 0.0, 0
    for number in range(8):
        state = game.initial_state()
        while state.result is None and spent < PROBE_BUDGET:
            if state.to_move == CHANCE:
                move = game.sample_chance(state, rng)
            elif state.to_move != number % 2:
                move = rng.choice(list(game.legal_moves(state)))
            else:
                started = time.perf_counter()
                try:
                    move = bot.choose(state, Context(rng=random.Random(moves), time_limit=clock))
                except Exception:  # noqa: BLE001 - a bot that fails here fails in its games, soon
                    return first or 0.0, first or QUICK
                took = time.perf_counter() - started
                if first is None:
                    first = took
                else:
                    spent, moves = spent + took, moves + 1
                if move not in game.legal_moves(state):
                    return first, first
            state = game.play(state, move)
        if spent >= PROBE_BUDGET:
            break
    return first or 0.0, spent / moves if moves else (first or QUICK)


def game_overhead(game, limits) -> float:
    """Seconds the runner itself spends on a game (its states, chance steps, records), besides
    the bots' moves: random against random, games played until ``PROBE_BUDGET`` is spent."""
    from arcade.match import run_match
    from bots.base import BotEntry, random_move

    entry = BotEntry.function("random", "uniformly random", random_move)
    started = time.perf_counter()
    run_match(game, (entry, entry), games=1, seed=0, limits=limits)  # its imports, once
    one = time.perf_counter() - started
    games = max(1, min(50, int(PROBE_BUDGET / max(one, 1e-4))))
    started = time.perf_counter()
    run_match(game, (entry, entry), games=games, seed=1, limits=limits)
    return (time.perf_counter() - started) / games


def estimate(costs: dict[str, BotCost], pairs: Sequence[tuple[str, str]], games: int, moves: float,
             chunks: int, overhead: float = 0.0) -> tuple[float, float, float]:
    """``(serial, longest, worker)``: the expected seconds of every pair's ``games`` games (of
    ``moves`` moves, half each side's, and ``overhead`` seconds of the runner's own) on one
    process, of the longest chunk, and a worker's start (its bots' tables included)."""
    serial = longest = 0.0
    for a, b in pairs:
        game_time = overhead + moves / 2 * (costs[a].move + costs[b].move)
        pair = games * game_time + chunks * (costs[a].start + costs[b].start)
        serial += pair
        longest = max(longest, pair / chunks)
    worker = WORKER_START + sum(cost.setup for cost in costs.values())
    return serial, longest, worker


def machine_load() -> float:
    """Runnable processes on the machine besides this one (the last minute's load average)."""
    try:
        return max(0.0, os.getloadavg()[0] - 1.0)
    except OSError:
        return 0.0


def plan_jobs(game, planned, limits, moves: float | None = None, cpus: int | None = None,
              load: float | None = None) -> JobsChoice:
    """The processes for ``planned`` (a ``TournamentPlan``) under ``limits``: ``probe``,
    ``estimate`` and ``choose`` with this machine's processors and load unless given."""
    from itertools import combinations

    from arcade.tournament.worker import chunk_size

    cpus = cpus or os.cpu_count() or 1
    load = machine_load() if load is None else load
    moves = typical_moves(game) if moves is None else moves
    costs = probe(game, planned.bots, limits)
    pairs = list(combinations(planned.bots, 2))
    chunks = -(-planned.games // chunk_size(planned.games))
    serial, longest, worker = estimate(costs, pairs, planned.games, moves, chunks, game_overhead(game, limits))
    if planned.total != len(pairs) * planned.games and pairs:  # groups: fewer pairs than all of them
        serial *= planned.total / (len(pairs) * planned.games)
    tasks = max(1, planned.total // max(1, chunk_size(planned.games)))
    jobs, expected = choose(serial, worker, cpus, load, tasks, longest)
    return JobsChoice(jobs, serial / share(1, cpus, load), expected, worker, cpus, load)


def typical_moves(game, games: int = 40) -> float:
    """Moves in a game of ``game`` (not chance steps), the mean of ``games`` random games."""
    from games.base import CHANCE, random_playout

    rng = random.Random(0)
    lengths = [sum(s.to_move != CHANCE for s in random_playout(game, game.initial_state(), rng)[:-1])
               for _ in range(games)]
    return sum(lengths) / len(lengths)


def duration(seconds: float) -> str:
    """An estimate's time in words a person plans by: ``4.2 s``, ``35 s``, ``12 min``, ``3.5 h``,
    ``2.1 days`` (the tournament's plan and the contest's status say it so)."""
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"
