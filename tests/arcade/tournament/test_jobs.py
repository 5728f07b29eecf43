"""How many processes a tournament plays on (``arcade.tournament.jobs``), and the tournament's own process
playing the chunks no worker has taken (``Runner``'s ``steal``)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arcade.tournament.runner as runner
from arcade.catalog import load
from arcade.tournament.jobs import GAIN, BotCost, choose, estimate, plan_jobs, probe, share
from arcade.tournament.plan import plan
from arcade.tournament.runner import run_tournament
from bots.limits import Limits
from tests.paths import ROOT

CLI = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()"]


@settings(max_examples=300, deadline=None)
@given(serial=st.floats(0, 1e5), worker=st.floats(0, 5), cpus=st.integers(1, 64), load=st.floats(0, 100),
       tasks=st.integers(1, 10_000), longest_share=st.floats(0, 1))
def test_the_choice_is_never_expected_slower_than_one_process(serial, worker, cpus, load, tasks, longest_share):
    jobs, expected = choose(serial, worker, cpus, load, tasks, serial * longest_share)
    alone = serial / share(1, cpus, load)
    assert 1 <= jobs <= max(1, min(cpus, tasks))
    assert expected <= alone + 1e-9
    if jobs > 1:  # more processes only for a clear gain
        assert expected <= (1 - GAIN) * alone + 1e-9


def test_small_work_stays_in_one_process_and_long_work_uses_every_processor():
    assert choose(0.1, 0.15, 8, 0.0, 400)[0] == 1  # a tenth of a second: over before a worker starts
    assert choose(600.0, 0.15, 8, 0.0, 400)[0] == 8  # ten minutes of games on an idle machine
    assert choose(600.0, 0.15, 8, 0.0, 3)[0] == 3  # no more processes than chunks
    assert choose(600.0, 0.15, 1, 0.0, 400)[0] == 1  # one processor


def test_a_loaded_machine_gives_each_process_its_share():
    assert share(1, 2, 0.0) == 1.0 and share(2, 2, 0.0) == 2.0
    assert share(2, 2, 2.0) == pytest.approx(1.0)  # two busy others: two processes get half of each
    assert share(1, 2, 2.0) == pytest.approx(2 / 3)
    # a small tournament on a busy machine: workers cost more than the share they win
    assert choose(0.5, 0.3, 2, 3.0, 40)[0] == 1


def test_the_estimate_counts_moves_the_runner_and_file_bots_starts():
    costs = {"a": BotCost(0.2, 0.001), "b": BotCost(0.0, 0.003), "f.py": BotCost(0.0, 0.01, 0.15)}
    serial, longest, worker = estimate(costs, [("a", "b"), ("a", "f.py")], games=100, moves=40, chunks=4,
                                       overhead=0.002)
    ab = 100 * (0.002 + 20 * 0.004)
    af = 100 * (0.002 + 20 * 0.011) + 4 * 0.15
    assert serial == pytest.approx(ab + af)
    assert longest == pytest.approx(af / 4)
    assert worker == pytest.approx(0.15 + 0.2)  # a worker builds every bot's tables again


def test_the_probe_times_quick_bots_and_takes_a_searcher_at_its_clock():
    """The real bots: a searcher to its clock is taken at its clock (it spends at least the probe's
    clock, whatever the machine's load), a quick bot at what it took, far below any clock."""
    game = load("othello")()
    costs = probe(game, ["greedy", "alphabeta-1s"], Limits())
    assert costs["greedy"].move < 0.1
    assert costs["alphabeta-1s"].move == 1.0  # it searches to its clock: one probe move says so


class FakeClock:
    """``time`` for ``arcade.tournament.jobs``: seconds pass only when a bot's move says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


@pytest.mark.parametrize("own, takes, costed", [
    (0.0, 0.0007, 0.0007),  # no clock of its own: timed
    (0.1, 0.002, 0.002),  # a clock of its own, but it answers at once (Ludo's expectimax): timed
    (1.0, None, 1.0),  # it searches to the clock it is given: taken at its own clock
    (1.0, 0.004, 0.004),  # just under half the probe's clock: timed
])
def test_the_probe_rule_on_a_clock_that_load_cannot_move(monkeypatch, own, takes, costed):
    """The probe's rule on a clock of its own (a busy machine moves a wall clock, not this one):
    a bot with a clock of its own is given the probe's short clock, and one that spends more than
    half of it is a searcher, costed at its own clock."""
    import arcade.tournament.jobs as jobs
    import bots.registry

    clock = FakeClock()
    monkeypatch.setattr(jobs, "time", clock)

    class Bot:
        def move_seconds(self) -> float:
            return own

        def choose(self, state, ctx):
            clock.now += ctx.time_limit if takes is None else takes
            return next(iter(game.legal_moves(state)))

    class Entry:
        def make(self, game):
            return Bot()

    monkeypatch.setattr(bots.registry, "resolve", lambda game_id, name, limits: Entry())
    game = load("othello")()
    assert probe(game, ["fake"], Limits())["fake"].move == pytest.approx(costed)


def test_plan_jobs_chooses_one_process_for_a_tiny_round_and_more_for_a_long_one():
    game = load("othello")()
    tiny = plan_jobs(load("toothpicks")(), plan("toothpicks", ["perfect", "random"], games=10), Limits(),
                     cpus=2, load=0.0)
    long = plan_jobs(game, plan("othello", ["greedy", "random", "alphabeta-1s"], games=10), Limits(), cpus=2, load=0.0)
    assert tiny.jobs == 1 and tiny.expected == tiny.serial < 1
    assert long.jobs == 2 and long.expected < long.serial


def counting_run_task(monkeypatch, pause: float = 0.0) -> list:
    """Chunks played in this process (workers are processes of their own: not counted), each
    taking ``pause`` seconds more here (so that a worker slow to start on a busy machine still
    finds chunks left to take)."""
    import time

    played = []
    real = runner.run_task

    def run_task(setup, task, *args, **kwargs):
        played.append(task)
        time.sleep(pause)
        return real(setup, task, *args, **kwargs)

    monkeypatch.setattr(runner, "run_task", run_task)
    return played


@pytest.mark.parametrize("steal", [True, False])
def test_the_tournaments_own_process_plays_the_chunks_no_worker_took(monkeypatch, steal):
    bots = ["optimal", "always_roll_4", "always_roll_6", "piggypoints"]
    alone = run_tournament("hog", bots, games=40, seed=3, jobs=1).as_json()
    played = counting_run_task(monkeypatch, pause=0.3)
    shared = run_tournament("hog", bots, games=40, seed=3, jobs=2, steal=steal, progress=lambda *a: None)
    assert shared.as_json() == alone  # the same games whichever process played a chunk
    total = 6 * 4  # six pairs, four chunks of 10 games each
    if steal:
        assert 0 < len(played) < total  # some here, some in the worker
    else:
        assert played == []


def test_the_plan_prints_the_processes_it_would_use():
    def plan_text(*more: str) -> str:
        done = subprocess.run([*CLI, "tournament", *more, "--plan"], cwd=ROOT, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "processes playing: this one, by the plan's estimate" in plan_text("toothpicks", "perfect", "random",
                                                                              "--games", "10")
    assert "processes playing: 3 (--jobs)" in plan_text("toothpicks", "perfect", "random", "--jobs", "3")
    text = plan_text("othello", "greedy", "alphabeta-1s", "random", "--games", "10")
    cpus = __import__("os").cpu_count()
    assert (f"processes playing: about {min(cpus, 3)}, this one and" in text) if cpus > 1 else "this one, by" in text


def test_a_record_left_in_the_stream_by_an_earlier_stage_never_counts_in_the_next():
    """Groups play stage after stage over one pool; a worker's record of a finished stage may
    still be in the stream (its chunk's result brought it already). It must not be taken as a game
    of the next stage's pairs (it stopped the app's groups tournament with "list index out of
    range", or took a game's place)."""
    from arcade.match import GameRecord
    from arcade.tournament.runner import Runner
    from arcade.tournament.worker import Setup

    def stages(jobs: int, stale: bool) -> list:
        setup = Setup("toothpicks", {"count": 10, "max_take": 2})
        with Runner(setup, 10, 1, jobs, progress=lambda *a: None, steal=False) as runner:
            runner.total = 20
            first = runner.play("groups", [("perfect", "random")])
            if stale:  # as if a worker's record of that stage came late
                late = GameRecord(number=1, first=0, winner=1, reason="late", plies=1)
                runner.stream.put(((runner.stages, 0), late))
            second = runner.play("final", [("always_1", "always_2")])
        return [(p.a, p.b, [(r.number, r.winner, r.reason) for r in p.records]) for p in first + second]

    assert stages(2, stale=True) == stages(1, stale=False)


FLOOD = """
import sys
from arcade.tournament.runner import Runner
from arcade.tournament.worker import Setup

STREAM = "from arcade.tournament import worker\\nfor _ in range({count}): worker._STREAM.put(((0, 0), 'x' * 1000))"
with Runner(Setup("toothpicks", {{}}), 10, 1, {jobs}, progress=lambda *a: None, steal=False) as runner:
    for future in [runner.pool.submit(exec, STREAM) for _ in range({jobs})]:
        future.result()  # each worker has streamed {count} KB that nobody read: the pipe holds 64 KiB
print("ended")
"""


@pytest.mark.parametrize("jobs", [2, 3])
def test_a_run_ends_though_its_workers_streamed_more_than_a_pipe_holds_and_nobody_read_it(jobs):
    """A worker ends only once its stream's feeder has written every record into the pipe. The
    full suite once hung for good at the end of a stealing tournament (the coordinator had played
    a chunk itself while its worker streamed): the coordinator waited on the worker, the worker on
    the coordinator reading. The run must end, reading and dropping what is left (copies of what
    the chunks' results brought). In a process of its own: the old code hung forever."""
    script = FLOOD.format(jobs=jobs, count=400)
    try:
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("the run never ended: its workers waited for the coordinator to read their stream")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ended"


# -- without --jobs: start here, fan out when the games played say so (issue 33, item 15) ----------

def test_pace_decides_nothing_before_a_second_chunk_and_keeps_a_tiny_tournament_here():
    from arcade.tournament.jobs import Pace

    pace = Pace(cpus=2, load=0.0)
    assert pace.fan_out(1000, 40, 25) == 1  # nothing timed yet
    pace.played(25, 0.2)
    assert pace.fan_out(1000, 40, 25) == 1  # the first chunk alone: its set-up and its games mixed
    pace.played(25, 0.005)  # 0.2 ms a game: 1,000 games left are 0.2 s, less than a worker's start
    assert pace.fan_out(1000, 40, 25) == 1


def test_pace_fans_out_when_the_games_left_outweigh_a_workers_start_and_set_up():
    from arcade.tournament.jobs import WORKER_START, Pace

    pace = Pace(cpus=2, load=0.0)
    pace.played(10, 0.1)
    pace.played(10, 0.1)  # 10 ms a game, no set-up
    assert pace.fan_out(1000, 40, 10) == 2  # 10 s left: a worker (0.15 s) halves it
    assert Pace(cpus=1, load=0.0, first=(10, 0.1), games=10, seconds=0.1, cpu=0.1).fan_out(1000, 40, 10) == 1  # one CPU
    heavy = Pace(cpus=2, load=0.0, first=(10, 5.1), games=10, seconds=0.1, cpu=0.1)  # 5 s of tables first
    assert heavy.fan_out(400, 40, 10) == 1  # 4 s left: a worker would spend longer building them
    assert heavy.fan_out(4000, 40, 10) == 2
    assert WORKER_START < 1


def test_pace_keeps_one_process_while_it_gets_less_than_its_share_of_a_processor():
    """A busy machine (this process got half a processor while it played): a worker would share
    what this one gets (issue 33: ``--jobs 2`` 1.3–2× slower than one at load 3–11)."""
    from arcade.tournament.jobs import SPARE, Pace

    busy = Pace(cpus=2, load=0.0, first=(10, 0.1), games=100, seconds=1.0, cpu=0.5)
    assert busy.fan_out(10_000, 40, 10) == 1
    quiet = Pace(cpus=2, load=0.0, first=(10, 0.1), games=100, seconds=1.0, cpu=SPARE + 0.01)
    assert quiet.fan_out(10_000, 40, 10) == 2


def test_a_tournament_without_jobs_probes_nothing_and_a_small_one_stays_in_its_process(monkeypatch):
    import arcade.tournament.jobs as jobs

    monkeypatch.setattr(jobs, "probe", lambda *a, **k: pytest.fail("the default run probed the bots"))
    bots = ["perfect", "random", "always_1", "always_2"]
    alone = run_tournament("toothpicks", bots, games=20, seed=3, jobs=1).as_json()
    played = counting_run_task(monkeypatch)
    started = []
    monkeypatch.setattr(runner.Runner, "start_pool", lambda self, n: started.append(n))
    auto = run_tournament("toothpicks", bots, games=20, seed=3, jobs=None)
    assert auto.as_json() == alone and started == [] and len(played) == 6 * 2  # six pairs, two chunks each


@pytest.mark.parametrize("steal", [True, False])
def test_a_tournament_without_jobs_fans_out_mid_way_to_the_same_games(monkeypatch, steal):
    """Once ``Pace`` says workers pay, the chunks left go to a pool (this process among its
    players with ``steal``); the games are those of one process."""
    from arcade.tournament.jobs import Pace

    bots = ["optimal", "always_roll_4", "always_roll_6", "piggypoints"]
    alone = run_tournament("hog", bots, games=40, seed=3, jobs=1).as_json()
    asked = []

    def fan_out(self, games_left, chunks_left, biggest):
        asked.append(chunks_left)
        return 2 if len(asked) >= 3 else 1  # workers from the fourth chunk on

    monkeypatch.setattr(Pace, "fan_out", fan_out)
    played = counting_run_task(monkeypatch)
    pools = []
    real = runner.Runner.start_pool
    monkeypatch.setattr(runner.Runner, "start_pool", lambda self, n: (pools.append(n), real(self, n)))
    auto = run_tournament("hog", bots, games=40, seed=3, jobs=None, steal=steal, progress=lambda *a: None)
    assert auto.as_json() == alone
    assert pools == [2] and asked == [23, 22, 21]  # 24 chunks: asked before the second, third and fourth
    if steal:  # here too, a worker's chunk even, once none is left to hand out
        assert len(played) >= 3
    else:
        assert len(played) == 3  # three here before the pool, the rest in the worker
