"""The local pool's semaphores (``arcade.tournament.pool``): named in ``/dev/shm`` only until every
worker holds them, so that ``kill -9`` of a run leaves nothing behind and the resource tracker
nothing to warn about ("There appear to be 8 leaked semaphore objects")."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from arcade.tournament.runner import Runner
from arcade.tournament.worker import Setup
from tests.arcade.contest.helpers import CLI, arcade, bot, records
from tests.paths import ROOT

SHM = Path("/dev/shm")

pytestmark = pytest.mark.skipif(not SHM.is_dir(), reason="no /dev/shm: POSIX semaphores live elsewhere")


def shm_inodes() -> set[int]:
    """The inodes of the named semaphores in ``/dev/shm`` now."""
    found = set()
    for entry in os.scandir(SHM):
        try:
            if entry.name.startswith("sem."):
                found.add(entry.inode())
        except OSError:
            pass
    return found


def mapped_semaphores(pid: int) -> set[int]:
    """The inodes of the POSIX semaphores process ``pid`` maps (glibc maps a semaphore's file
    under a name of its own: its inode is the one its name in ``/dev/shm`` has)."""
    inodes = set()
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        fields = line.split()
        if len(fields) >= 6 and fields[5].startswith("/dev/shm/sem."):
            inodes.add(int(fields[4]))
    return inodes


def test_the_pools_semaphores_lose_their_names_once_its_workers_hold_them():
    with Runner(Setup("toothpicks", {}), 10, 0, 3, progress=lambda *a: None) as runner:
        made = [lock._semlock.name for lock in runner.seal.context.made]
        assert len(made) == 8  # the call queue's 3, the result queue's 2, the stream of games' 3
        deadline = time.monotonic() + 60
        while not runner.seal.sealed:
            assert time.monotonic() < deadline, "the pool's semaphores were never sealed"
            time.sleep(0.02)
        assert not [name for name in made if (SHM / f"sem.{name.lstrip('/')}").exists()]
        pooled = runner.play("round robin", [("perfect", "random"), ("always_1", "mirror")])
    with Runner(Setup("toothpicks", {}), 10, 0, 1) as alone:
        here = alone.play("round robin", [("perfect", "random"), ("always_1", "mirror")])
    def games(pairs) -> list:
        return [[(r.number, r.winner, r.reason, r.plies) for r in pair.records] for pair in pairs]

    assert games(pooled) == games(here) and len(games(here)[0]) == 10  # sealed, the queues work as before


def test_kill_9_of_a_contest_run_leaves_no_leaked_semaphores_and_no_warning(tmp_path):
    folder = tmp_path / "c"
    assert arcade("contest", "new", str(folder), "--preset", "stats306", "--games", "60", "--time-limit", "10",
                  "--sandbox", "none") == 0
    for team, name in (("alice", "far"), ("bob", "near"), ("carol", "middle")):
        assert arcade("contest", "submit", str(folder), team, bot(tmp_path, name)) == 0
    env = {**os.environ, "ARCADE_BOT_LOGS": str(tmp_path / "logs")}
    run = subprocess.Popen([*CLI, "contest", "run", str(folder), "--jobs", "2"], cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        mapped: set[int] = set()
        while not (records(folder, running=True) and (mapped := mapped_semaphores(run.pid)) and not mapped & shm_inodes()):
            kept = "its semaphores named in /dev/shm" if records(folder, running=True) else "no game played"
            assert run.poll() is None, f"the run ended with {kept}: {run.stderr.read()[-2000:]}"
            assert time.monotonic() < deadline, f"the run kept {kept} for 60 s"
            time.sleep(0.05)
        os.kill(run.pid, signal.SIGKILL)  # the run's process only, as kill -9 PID does
        _, err = run.communicate(timeout=30)  # what its tracker, forkserver and workers said as they ended
    finally:
        try:
            os.killpg(run.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert "leaked" not in err and "resource_tracker" not in err, err[-2000:]
    assert not mapped & shm_inodes()  # nothing of the run's left in /dev/shm
