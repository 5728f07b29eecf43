"""The two-core endgame solve (``bots.othello.parallel_solve``): same answers as one core, deadlines,
cancelling, a helper that dies, and helpers that end with their program."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time

import pytest

from bots.othello import parallel_solve as othello_parallel
from bots.othello.search import Engine, Timeout, to_score
from games.othello import PASS, flip_bits, legal_bits
from tests.bots.othello.test_bots import unfinished_positions
from tests.paths import ROOT



def positions(empties: int, count: int, first_seed: int = 0) -> list[tuple[int, int]]:
    """Positions with ``empties`` empty squares and at least two moves, from seeded random play."""
    found = (
        (p, o) for p, o in unfinished_positions(itertools.count(first_seed + 1), 60 - empties)
        if 64 - (p | o).bit_count() == empties and legal_bits(p, o).bit_count() >= 2
    )
    return list(itertools.islice(found, count))


@pytest.fixture
def fresh_pool(monkeypatch):
    """A pool of its own for the test (small solves use it too), closed afterwards."""
    monkeypatch.setattr(othello_parallel, "_pool", None)
    monkeypatch.setattr(othello_parallel, "_broken", False)
    monkeypatch.setattr(othello_parallel, "PARALLEL_EMPTIES", 10)
    pool = othello_parallel.pool()
    if pool is None:
        pytest.skip("no second core: the solve never uses helpers here")
    yield pool
    othello_parallel.discard()


def value_after(p: int, o: int, move: int) -> int:
    """The exact score (mover's view) after the mover plays ``move``, by the one-core solver."""
    f = flip_bits(p, o, move)
    np_, no = p | f | (1 << move), o ^ f
    if legal_bits(no, np_):
        return -Engine(parallel=False).solve(no, np_).score
    if legal_bits(np_, no):
        return Engine(parallel=False).solve(np_, no).score  # the opponent passes
    return to_score(np_.bit_count() - no.bit_count())


def line_is_legal(p: int, o: int, line: list[int]) -> bool:
    for sq in line:
        if sq == PASS:
            if legal_bits(p, o):
                return False
            p, o = o, p
            continue
        if not legal_bits(p, o) >> sq & 1:
            return False
        f = flip_bits(p, o, sq)
        p, o = o ^ f, p | f | (1 << sq)
    return True


def test_two_cores_find_the_same_value_and_a_move_that_reaches_it(fresh_pool):
    for p, o in positions(12, 8):
        one = Engine(parallel=False).solve(p, o)
        jobs = fresh_pool.next_id
        two = Engine().solve(p, o)
        assert fresh_pool.next_id > jobs  # the helpers searched it
        assert two.score == one.score
        assert two.nodes > 0
        assert value_after(p, o, two.move) == two.score
        assert two.line[0] == two.move and line_is_legal(p, o, two.line)
    assert othello_parallel._pool is fresh_pool  # no helper failed on the way


def test_two_cores_win_loss_draw_window(fresh_pool):
    for p, o in positions(12, 6, first_seed=50):
        one = Engine(parallel=False).solve(p, o, alpha=-1, beta=1)
        two = Engine().solve(p, o, alpha=-1, beta=1)
        assert (two.score > 0) - (two.score < 0) == (one.score > 0) - (one.score < 0)


def test_a_passed_deadline_or_a_cancel_stops_the_helpers_and_they_serve_the_next_solve(fresh_pool):
    (p, o), = positions(16, 1, first_seed=7)
    start = time.perf_counter()
    with pytest.raises(Timeout):
        Engine().solve(p, o, deadline=time.perf_counter() + 0.2)
    assert time.perf_counter() - start < 1.5
    with pytest.raises(Timeout):
        Engine().solve(p, o, cancelled=lambda: True)
    q, r = positions(12, 1, first_seed=90)[0]
    assert Engine().solve(q, r).score == Engine(parallel=False).solve(q, r).score
    assert othello_parallel._pool is fresh_pool


def test_a_dead_helper_means_one_core_and_the_right_answer(fresh_pool):
    fresh_pool.helpers[1].proc.kill()
    fresh_pool.helpers[1].proc.wait()
    for p, o in positions(12, 3, first_seed=30):
        assert Engine().solve(p, o).score == Engine(parallel=False).solve(p, o).score
    assert othello_parallel._pool is None and othello_parallel.pool() is None


@pytest.mark.parametrize("helper_code", [
    "import sys\nfor line in sys.stdin:\n    print('nonsense', flush=True)\n",  # breaks the protocol
    "import sys\nsys.stdin.readline()\n",  # exits after its first line
])
def test_a_faulty_helper_means_one_core_and_the_right_answer(monkeypatch, helper_code):
    monkeypatch.setattr(othello_parallel._Helper, "COMMAND", ["-c", helper_code])
    monkeypatch.setattr(othello_parallel, "_pool", None)
    monkeypatch.setattr(othello_parallel, "_broken", False)
    monkeypatch.setattr(othello_parallel, "PARALLEL_EMPTIES", 10)
    if othello_parallel.pool() is None:
        pytest.skip("no second core: the solve never uses helpers here")
    for p, o in positions(12, 2, first_seed=40):
        assert Engine().solve(p, o).score == Engine(parallel=False).solve(p, o).score
    assert othello_parallel._pool is None and othello_parallel.pool() is None


def test_helpers_end_when_their_program_dies():
    """Killed without a chance to clean up, the program's helpers see their input end and exit."""
    code = (
        "import os, sys\n"
        "from bots.othello import parallel_solve as othello_parallel\n"
        "pool = othello_parallel.pool()\n"
        "if pool is None:\n"
        "    print('none', flush=True); sys.exit(0)\n"
        "pool.ping()\n"
        "print(' '.join(str(h.proc.pid) for h in pool.helpers), flush=True)\n"
        "os._exit(0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    if out.stdout.strip() == "none":
        pytest.skip("no second core: no helpers")
    pids = [int(x) for x in out.stdout.split()]
    assert len(pids) == 2
    deadline = time.time() + 10
    while time.time() < deadline and any(_alive(pid) for pid in pids):
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in pids)


def test_a_program_that_used_the_helpers_exits_with_them_ended_and_no_pipe_left_open():
    """The pool closes itself at exit: both helpers reaped and all four pipes closed (Python's
    development mode reports any file left to the garbage collector, as CI's workers did)."""
    code = (
        "from bots.othello import parallel_solve as othello_parallel\n"
        "pool = othello_parallel.pool()\n"
        "if pool is None:\n"
        "    print('none'); raise SystemExit\n"
        "pool.ping()\n"
        "helpers = list(pool.helpers)\n"
        "pool.close()\n"
        "print(all(h.proc.returncode is not None and h.proc.stdin.closed and h.proc.stdout.closed\n"
        "          for h in helpers))\n"
        "othello_parallel._pool = None\n"
        "othello_parallel._broken = False\n"
        "othello_parallel.pool().ping()  # a second pool, left to the exit's own close\n"
    )
    out = subprocess.run([sys.executable, "-X", "dev", "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    if out.stdout.strip() == "none":
        pytest.skip("no second core: no helpers")
    assert out.stdout.split() == ["True"]
    assert "ResourceWarning" not in out.stderr, out.stderr


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return True


def test_no_helpers_inside_a_running_event_loop():
    """A thread running its own asyncio loop (a Textual app's) solves on one core."""
    import asyncio

    async def inside() -> object:
        return othello_parallel.pool()

    assert asyncio.run(inside()) is None


def test_a_forked_child_starts_helpers_of_its_own(fresh_pool):
    """Helpers answer the process that started them: a pool inherited through ``fork`` is left to
    the parent and the child starts its own."""
    fresh_pool.pid = -1  # as a forked child sees its parent's pool
    try:
        own = othello_parallel.pool()
        assert own is not None and own is not fresh_pool and own.pid == os.getpid()
        (p, o), = positions(12, 1, first_seed=60)
        assert Engine().solve(p, o).score == Engine(parallel=False).solve(p, o).score
    finally:
        fresh_pool.close()
