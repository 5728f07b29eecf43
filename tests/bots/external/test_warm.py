"""Warm bots, each game from the same state (``bots.external.child``: the loaded process forks
each game's; ``arcade.tournament.worker.lend``: a worker keeps a file bot's loaded process from
one task to the next): a bot's globals and ``random`` start every game as its file's loading left
them, in the sandbox or not; a bot with a thread of its own plays its games itself as before; a
worker's second task of the same bot starts no process; the CPU of a turn is read from the bot's
cgroup where it has one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arcade.catalog import load
from arcade.match import run_match
from arcade.tournament import worker
from arcade.tournament.worker import Setup, Task, run_task
from bots.base import BotEntry, random_move
from bots.external import file_entry
from bots.external.sandbox import choose
from bots.limits import Limits

RANDOM = BotEntry.function("random", "a random legal move", random_move)

COUNTER = '''import os
import random

COUNT = 0
DRAW = random.random()


def strategy(left):
    global COUNT
    COUNT += 1
    print(f"pid={os.getpid()} count={COUNT}")
    return 1
'''

THREADED = '''import os
import threading

COUNT = 0
threading.Thread(target=threading.Event().wait, daemon=True).start()  # a thread of its own, from the load


def strategy(left):
    global COUNT
    COUNT += 1
    print(f"pid={os.getpid()} count={COUNT}")
    return 1
'''


def sandboxes() -> list[str]:
    try:
        return ["none", choose("bwrap").mode]
    except Exception:  # noqa: BLE001 - no bwrap here
        return ["none"]


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


def write(tmp_path: Path, text: str, name: str = "counter") -> str:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "strategy.py").write_text(text)
    return str(folder / "strategy.py")


def counts(log: Path) -> list[tuple[int, int]]:
    return [(int(pid), int(count)) for pid, count in re.findall(r"pid=(\d+) count=(\d+)", log.read_text())]


@pytest.mark.parametrize("sandbox", sandboxes())
def test_a_global_counter_starts_every_game_where_the_load_left_it(tmp_path, sandbox):
    game = load("toothpicks")()
    entry = file_entry("toothpicks", write(tmp_path, COUNTER), Limits(sandbox=sandbox))
    summary = run_match(game, (entry, RANDOM), games=4, seed=3)
    assert summary.forfeits == [0, 0]
    seen = counts(entry.source.log_path)
    games: dict[int, list[int]] = {}
    for pid, count in seen:
        games.setdefault(pid, []).append(count)
    assert len(games) == 4  # a process a game, forked from the one loaded process
    assert all(values == list(range(1, len(values) + 1)) for values in games.values())  # each from 0


def test_a_bot_with_a_thread_of_its_own_plays_its_games_itself_as_before(tmp_path):
    game = load("toothpicks")()
    entry = file_entry("toothpicks", write(tmp_path, THREADED), Limits(sandbox="none"))
    run_match(game, (entry, RANDOM), games=3, seed=3)
    seen = counts(entry.source.log_path)
    assert len({pid for pid, _ in seen}) == 1  # no fork: one process played every game
    assert [count for _, count in seen] == list(range(1, len(seen) + 1))  # its state went on


@pytest.mark.parametrize("sandbox", sandboxes())
def test_a_worker_keeps_a_bots_loaded_process_from_one_task_to_the_next(tmp_path, sandbox):
    spec = write(tmp_path, COUNTER)
    limits = Limits(sandbox=sandbox)
    setup = Setup("toothpicks", {}, limits, files=(("counter", spec),))
    try:
        first = run_task(setup, Task(0, "counter", "random", 5, 1, 3))
        kept = [source for idle in worker._KEPT.values() for source in idle]
        assert len(kept) == 1 and kept[0].host is not None and kept[0].host.alive
        loaded = kept[0].host.transport.proc.pid
        second = run_task(setup, Task(0, "counter", "random", 5, 4, 3))
        again = [source for idle in worker._KEPT.values() for source in idle]
        assert again == kept and again[0].host.transport.proc.pid == loaded  # no new process
        assert [r.number for r in first + second] == list(range(1, 7))
        # the same games as fresh processes a chunk would play: the loaded state each time
        fresh = run_task(Setup("toothpicks", {}, limits, files=(("counter", spec),)), Task(0, "counter", "random",
                                                                                              5, 4, 3))
        assert [r.moves for r in fresh] == [r.moves for r in second]
    finally:
        worker.release()
    assert not worker._KEPT and kept[0].host is None


def test_a_kept_source_past_the_bound_is_closed(tmp_path, monkeypatch):
    monkeypatch.setattr(worker, "KEEP", 1)
    limits = Limits(sandbox="none")
    specs = [write(tmp_path, COUNTER, f"bot{i}") for i in range(2)]
    try:
        for i, spec in enumerate(specs):
            run_task(Setup("toothpicks", {}, limits, files=((f"b{i}", spec),)), Task(0, f"b{i}", "random", 1, 1, 1))
        kept = [source for idle in worker._KEPT.values() for source in idle]
        assert len(kept) == 1 and str(kept[0].path) == specs[1]
    finally:
        worker.release()


def test_a_kept_source_idle_past_its_time_is_closed_by_the_reaper(tmp_path, monkeypatch):
    """A cluster's worker outlives its runs: a loaded bot no task asked for within ``IDLE`` is
    closed (its process killed) by the worker's reaper, with no call from the run; one still in
    use is never reaped."""
    import time

    monkeypatch.setattr(worker, "IDLE", 0.4)
    limits = Limits(sandbox="none")
    spec = write(tmp_path, COUNTER)
    try:
        run_task(Setup("toothpicks", {}, limits, files=(("counter", spec),)), Task(0, "counter", "random", 1, 1, 1))
        kept = [source for idle in worker._KEPT.values() for source in idle]
        assert len(kept) == 1 and kept[0].host is not None
        process = kept[0].host.transport.proc
        deadline = time.monotonic() + 30  # a busy machine: the reaper wakes 0.4 s after the give-back
        while (worker._KEPT or kept[0].host is not None) and time.monotonic() < deadline:  # closed after it left
            time.sleep(0.05)
        assert not worker._KEPT and kept[0].host is None and process.poll() is not None
        lent = worker.lend("toothpicks", spec, limits)  # in use: not kept, so never reaped
        assert worker.reap(time.monotonic() + 3600) == 0
        lent.close()
        assert worker.reap(time.monotonic() + 3600) == 1 and not worker._KEPT
    finally:
        worker.release()


def test_a_turns_cpu_is_read_from_the_bots_cgroup_where_it_has_one(tmp_path):
    game = load("toothpicks")()
    entry = file_entry("toothpicks", write(tmp_path, COUNTER), Limits(sandbox="none"))
    try:
        assert entry.source.probe(game) is None
        transport = entry.source.host.transport
        if transport.cgroup is None or transport.cgroup.cpu is None:
            pytest.skip("no cgroup counts a bot's CPU here")
        assert transport.cpu_seconds() == pytest.approx(transport.cgroup.cpu_seconds(), abs=1e-3)
        assert transport.cpu_seconds() > 0.0  # its start and its load
    finally:
        entry.close()
