"""A season's coordinator, and a class-sized field on many workers (issue 45): figures.

``coordinator``: what ``arcade contest run`` itself spends a game (the coordinator's cost: what
caps how many workers one run can feed): a real contest folder (STATS 306's preset, ``--teams``
teams), its pairs' games handed to the run as the workers would hand them (each a real D-Football
record of 79 moves, played once), through the run's own code: the streamed tasks, each game into
its pair's record file and the database, the records opened and closed. Prints the coordinator's
wall and CPU time a game.

``field``: a 200-team field of 100 games a pair (1.99 M games) on ``--workers`` workers, its games
``--game-ms`` each in chunks of 10, simulated in virtual time with the coordinator's measured cost
a game (``--coordinator-ms``, default: measured now as above) as one serial server: the run's two
ways of handing out chunks, batch by batch (``BATCH`` pairs, the next batch only once one ends:
the run before streaming) and streamed (``STREAM_AHEAD`` chunks a worker in hand, the next pairs
asked as they run short). Prints each way's time and the workers' busy fraction.

``estimate``: ``arcade contest status``'s estimate of a new team's games (from the season's own
pace, each pair at its bots' own: ``arcade.contest.pace``) against what the run then takes, for
each kind of newcomer: one that plays at random (as quick a move as the field's, its games
longer), and one that thinks 15 ms a move (the field: well under 1 ms).

    python bench/season_field.py [coordinator|field|estimate|all] [--teams 12] [--workers 100] [--game-ms 20]
"""

from __future__ import annotations

import argparse
import heapq
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def coordinator(teams: int = 12, games: int = 20) -> float:
    """The run's own milliseconds a game, handing it real records (and says its figures)."""
    os.environ.setdefault("ARCADE_BOT_LOGS", tempfile.mkdtemp(prefix="bench-logs-"))
    from arcade import cli
    from arcade.contest import run as running
    from arcade.contest.submit import submit
    from arcade.match import run_match
    from arcade.tournament.runner import Runner
    from arcade.catalog import load
    from bots.registry import resolve

    game = load("dfootball")(n=11)
    played = run_match(game, (resolve("dfootball", "random_move"), resolve("dfootball", "random_move")), games=1, seed=1)
    sample = played.records[0] if hasattr(played, "records") else played[0]
    folder = Path(tempfile.mkdtemp(prefix="bench-field-")) / "c"
    cli.main(["contest", "new", str(folder), "--preset", "stats306", "--games", str(games), "--sandbox", "none"])
    bots = Path(tempfile.mkdtemp(prefix="bench-bots-"))
    for i in range(teams):
        path = bots / f"t{i}" / "bot.py"
        path.parent.mkdir()
        path.write_text(f"# team {i}\nfrom games.dfootball import valid_moves\n\ndef strategy(game):\n"
                        "    return valid_moves(game)[0]\n")
        submit(folder, f"team_{chr(97 + i // 26)}{chr(97 + i % 26)}", str(path))

    def handed(self, tasks, take, more=None):  # the workers' results, at once
        from dataclasses import replace

        while tasks:
            for task in tasks:
                for number in range(task.first, task.first + task.games):
                    take(task.pair, replace(sample, number=number))
            tasks = list(more()) if more is not None else []

    Runner.play_tasks = handed
    wall, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
    played = running.run(folder, say=lambda line: None)
    after = resource.getrusage(resource.RUSAGE_SELF)
    wall = time.perf_counter() - wall
    cpu_s = (after.ru_utime - cpu.ru_utime) + (after.ru_stime - cpu.ru_stime)
    print(f"coordinator: {played:,} games of {teams * (teams - 1) // 2} pairs handed to the run: "
          f"{wall / played * 1000:.2f} ms a game of wall time, {cpu_s / played * 1000:.2f} ms of CPU "
          f"(records, database, the stream's bookkeeping)")
    return wall / played * 1000


NEWCOMERS = {"random": "random.choice(valid_moves(game))",
             "thinks 15 ms": "(time.sleep(0.015), valid_moves(game)[-1])[1]"}
"""``estimate``'s newcomers: the move each returns."""


def estimate(teams: int = 6, games: int = 10, jobs: int = 1, newcomer: str = "random") -> None:
    """``arcade contest status``'s estimate for a new team's games against what the run then
    takes: a STATS 306 season (in the sandbox where bwrap runs) of ``teams`` teams played, one more
    team submitted, the estimate read, the run timed."""
    os.environ.setdefault("ARCADE_BOT_LOGS", tempfile.mkdtemp(prefix="bench-logs-"))
    import re

    from arcade import cli
    from arcade.contest import run as running
    from arcade.contest.status import status_lines
    from arcade.contest.submit import submit

    folder = Path(tempfile.mkdtemp(prefix="bench-estimate-")) / "c"
    cli.main(["contest", "new", str(folder), "--preset", "stats306", "--games", str(games)])
    bots = Path(tempfile.mkdtemp(prefix="bench-bots-"))
    picks = ["valid_moves(game)[0]", "valid_moves(game)[-1]", "random.choice(valid_moves(game))",
             "valid_moves(game)[len(valid_moves(game)) // 2]"]
    for i in range(teams + 1):
        path = bots / f"t{i}" / "bot.py"
        path.parent.mkdir()
        pick = NEWCOMERS[newcomer] if i == teams else picks[i % len(picks)]
        path.write_text(f"# team {i}\nimport random\nimport time\nfrom games.dfootball import valid_moves\n\n"
                        f"def strategy(game):\n    return {pick}\n")
        if i == teams:
            running.run(folder, jobs=jobs, say=lambda line: None)
        submit(folder, f"team_{chr(97 + i)}", str(path))
    line = status_lines(folder)[-1]
    value, unit = re.search(r"about ([\d.]+) (s|min|h|days) on one process", line).groups()
    said = float(value) * {"s": 1, "min": 60, "h": 3600, "days": 86400}[unit] / jobs
    started = time.perf_counter()
    running.run(folder, jobs=jobs, say=lambda line: None)
    took = time.perf_counter() - started
    print(f"estimate, a newcomer that {'plays at ' if newcomer == 'random' else ''}{newcomer}: "
          f"{teams} teams played, one more submitted: status said {said:.1f} s on {jobs} process(es), "
          f"the run took {took:.1f} s ({said / took:.2f}x)")


def simulate(way: str, teams: int, per_pair: int, workers: int, game_ms: float, coordinator_ms: float,
             batch: int = 32, ahead: int = 2, chunk: int = 10) -> tuple[float, float]:
    """The field's time (s) and the workers' busy fraction, handing out chunks ``way``
    (``batch`` or ``stream``); the coordinator takes ``coordinator_ms`` a game, one at a time."""
    pairs = teams * (teams - 1) // 2
    chunks_a_pair = -(-per_pair // chunk)
    task_s = chunk * game_ms / 1000
    per_result = chunk * coordinator_ms / 1000
    idle = list(range(workers))
    events: list[tuple[float, int]] = []  # (when a worker's chunk ends, worker)
    clock = coordinator_free = 0.0
    busy = 0.0
    next_pair = 0
    queued: list[int] = []  # chunks handed out, not yet taken by a worker
    in_batch = 0  # chunks of the current batch not yet done

    def refill() -> None:
        nonlocal next_pair, in_batch
        if way == "batch":
            if in_batch == 0 and next_pair < pairs:
                count = min(batch, pairs - next_pair)
                next_pair += count
                queued.extend([0] * (count * chunks_a_pair))
                in_batch = count * chunks_a_pair
        else:
            while len(queued) + (workers - len(idle)) < ahead * workers and next_pair < pairs:
                next_pair += 1
                queued.extend([0] * chunks_a_pair)

    def dispatch(now: float) -> None:
        nonlocal busy
        while idle and queued:
            queued.pop()
            worker = idle.pop()
            heapq.heappush(events, (now + task_s, worker))
            busy += task_s

    refill()
    dispatch(0.0)
    while events:
        clock, worker = heapq.heappop(events)
        if queued:  # the executor's queue: a free worker takes the next chunk at once
            queued.pop()
            heapq.heappush(events, (clock + task_s, worker))
            busy += task_s
        else:
            idle.append(worker)
        coordinator_free = max(coordinator_free, clock) + per_result  # its games into the records
        in_batch -= 1
        refill()  # what the coordinator hands out once it has taken the result
        dispatch(coordinator_free)
    end = max(clock, coordinator_free)
    return end, busy / (workers * end)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="?", default="all", choices=["coordinator", "field", "estimate", "all"])
    parser.add_argument("--teams", type=int, default=12, help="the measured contest's teams")
    parser.add_argument("--workers", type=int, default=100)
    parser.add_argument("--game-ms", type=float, default=20.0)
    parser.add_argument("--coordinator-ms", type=float, default=None)
    args = parser.parse_args(argv)
    cost = args.coordinator_ms
    if args.what in ("coordinator", "all"):
        cost = coordinator(args.teams)
    if args.what in ("estimate", "all"):
        for newcomer in NEWCOMERS:
            estimate(newcomer=newcomer)
    if args.what in ("field", "all"):
        cost = 3.0 if cost is None else cost
        for way in ("batch", "stream"):
            end, fraction = simulate(way, 200, 100, args.workers, args.game_ms, cost)
            print(f"field, {way}: 200 teams x 100 games a pair on {args.workers} workers, {args.game_ms:g} ms a "
                  f"game, the coordinator {cost:.2f} ms a game: {end / 3600:.2f} h, workers {fraction:.0%} busy")
        ceiling = args.game_ms / cost
        print(f"one coordinator feeds at most {ceiling:.0f} workers busy at {args.game_ms:g} ms a game")


if __name__ == "__main__":
    main()
