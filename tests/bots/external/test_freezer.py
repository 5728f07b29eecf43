"""A bot gets no CPU outside its own turn (``bots.external.freezer``): a hostile bot's spinners,
each in a session of its own, and its pondering thread are frozen between its turns, in the
sandbox and without it, by the cgroup freezer (as root) and by signals; an honest rival that
thinks does not forfeit on time against it; a frozen bot is still killed with all it started.

The sandboxed cases skip without a working ``bwrap`` (they fail if ``ARCADE_REQUIRE_SANDBOX`` is
set); the cgroup cases skip where the arcade cannot make a freezer cgroup (not root)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arcade.catalog import load
from bots.external import cgroups, sandbox
from bots.base import Context
from bots.external import file_entry
from bots.external.freezer import Freezer, tree
from bots.external.host import FileBotSource
from bots.external.wire import Load, Loaded, Move, Moved, Seed
from bots.external.transport import MemoryTransport
from bots.limits import Limits
from tests.paths import ROOT, TESTS

HOSTILE = TESTS / "hostile_bots"
BURNER = f"{HOSTILE / 'burner' / 'burner.py'}:burn"
THINKER = f"{HOSTILE / 'victim' / 'thinker.py'}:strategy"
TICKS = os.sysconf("SC_CLK_TCK")

PROBLEM = sandbox.bwrap_problem()
REQUIRED = bool(os.environ.get("ARCADE_REQUIRE_SANDBOX"))


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "logs"
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(folder))
    return folder


def need(mode: str, method: str, monkeypatch) -> None:
    if mode == "bwrap" and PROBLEM is not None:
        if REQUIRED:
            raise RuntimeError(f"ARCADE_REQUIRE_SANDBOX is set and the sandbox cannot run: {PROBLEM}")
        pytest.skip(f"the bwrap sandbox cannot run here: {PROBLEM}")
    if method == "signals":
        monkeypatch.setattr(cgroups, "_freezer_root", lambda: None)
    elif cgroups._freezer_root() is None:
        pytest.skip("no freezer cgroup can be made here (the arcade is not root, or no cgroup freezer)")


def cpu_ticks(pids: list[int]) -> dict[int, int]:
    """utime + stime of each process still there, in clock ticks."""
    found = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields[0] not in "ZX":
            found[pid] = int(fields[11]) + int(fields[12])
    return found


def stopping(pid: int) -> bool:
    """Whether ``pid`` is stopped, or has a ``SIGSTOP`` pending (it runs none of its code again
    before it stops: a loaded machine may not have scheduled it yet)."""
    from bots.external.freezer import stopped_or_stopping

    return stopped_or_stopping(pid)


def wait_stopped(pids: list[int], wait: float = 20.0) -> None:
    """Wait until each of ``pids`` has really stopped (a loaded machine may take its time to
    run a process that has a ``SIGSTOP`` pending into its stop)."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        states = [Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] for pid in cpu_ticks(pids)]
        if all(state in "Tt" for state in states):
            return
        time.sleep(0.02)


def gone(pids: list[int], wait: float = 5.0) -> bool:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if not cpu_ticks(pids):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("method", ["cgroup", "signals"])
@pytest.mark.parametrize("mode", ["bwrap", "none"])
def test_a_bot_gets_no_cpu_between_its_turns(mode, method, monkeypatch):
    """Between its turns none of the burner's processes (its spinners in sessions of their own,
    its pondering thread) uses any CPU; in its turn they run again; closing it kills them all."""
    need(mode, method, monkeypatch)
    game = load("toothpicks")()
    entry = file_entry("toothpicks", BURNER, Limits(sandbox=mode))
    try:
        bot = entry.make(game)
        state = game.initial_state()
        bot.choose(state, Context(time_limit=10))  # starts 8 spinners and a thread
        transport = entry.source.host.transport
        assert transport.freezer.method == method
        pids = tree(transport.proc.pid)
        assert len(pids) >= 9  # the bot's process and its spinners (and bwrap's two, sandboxed)
        for _ in range(2):  # between turns, twice: after the first move and after the second
            if method == "signals":  # a SIGSTOP pending is as good, but the test counts ticks of stopped ones
                wait_stopped(pids)
            before = cpu_ticks(pids)
            time.sleep(0.3)
            after = cpu_ticks(pids)
            burned = {pid: after[pid] - before[pid] for pid in after if pid in before and after[pid] > before[pid]}
            assert burned == {}, f"CPU ticks used between turns: {burned}"
            assert len(after) == len(pids)  # all still there, only frozen
            bot.choose(state, Context(time_limit=10))  # its turn: thawed, answers, frozen again
    finally:
        entry.close()
    assert gone(pids), "a frozen bot's processes outlived its close"


def test_the_host_thaws_before_every_request_and_freezes_after_every_answer():
    """Loaded: frozen; each move's seed and request reach a thawed process; frozen again after the
    answer, a fault's included."""
    answers = iter([Moved(1), Moved(2), b"not json\n"])

    def script(request):
        if isinstance(request, Load):
            return [Loaded()]
        if isinstance(request, Seed):
            return []
        return [next(answers)]

    transports: list[MemoryTransport] = []

    def connect(launch):
        transports.append(MemoryTransport(script))
        return transports[-1]

    source = FileBotSource("toothpicks", f"{BURNER.rpartition(':')[0]}:burn", connect=connect,
                           clock=lambda: transports[-1].now if transports else 0.0)
    game = load("toothpicks")()
    assert source.probe(game) is None
    (transport,) = transports
    assert transport.frozen
    import random

    for number in range(3):
        ctx = Context(time_limit=1, rng=random.Random(number))
        try:
            source.ask(game, game.initial_state(), ctx, seed=number)
        except Exception:  # noqa: BLE001 - the garbled third answer is the bot's forfeit
            assert number == 2
        assert transport.frozen
    assert [type(m) for m in transport.sent] == [Load, Seed, Move, Seed, Move, Seed, Move]
    assert transport.sent_frozen == []


def test_stopping_by_signals_reaches_a_new_session_and_resumes_only_what_it_stopped():
    """Without the sandbox the signals reach a process in a session of its own (a child of the
    bot) and one of the bot's session that left its parent; ``thaw`` resumes them; ``kill`` ends
    them, stopped or not."""
    code = ("import os, time\n"
            "if os.fork() == 0:\n"
            "    os.setsid()\n"
            "    while True: pass\n"
            "if os.fork() == 0:\n"
            "    if os.fork() == 0:\n"
            "        while True: pass\n"
            "    os._exit(0)\n"
            "while True: pass\n")
    proc = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    try:
        freezer = Freezer(proc.pid, None, whole_session=True)
        deadline = time.monotonic() + 30  # a loaded machine starts Python slowly
        while (len(freezer.members()) < 4 or len(cpu_ticks(freezer.members())) < 3) and time.monotonic() < deadline:
            time.sleep(0.02)  # three spinners and the zombie between: the double fork is done
        members = list(cpu_ticks(freezer.members()))  # the three spinners (not the zombie between)
        assert len(members) == 3 and proc.pid in members
        freezer.freeze()
        assert all(stopping(pid) for pid in members)
        before = cpu_ticks(members)
        time.sleep(0.2)
        assert cpu_ticks(members) == before
        freezer.thaw()
        time.sleep(0.2)
        assert not any(stopping(pid) for pid in members)
        freezer.freeze()
        freezer.kill()
        assert gone(members)
    finally:
        proc.kill()
        proc.wait()


def test_an_honest_rival_does_not_lose_on_time_to_a_burner(monkeypatch):
    """``arcade match`` of the burner with 40 spinners and a rival that thinks 20 ms a move, under
    400 ms a move: the spinners are frozen on the rival's time, so it does not forfeit (were they
    not, it would take 40 times as long on one core). The burner may lose on its own time."""
    need("bwrap", "cgroup" if cgroups._freezer_root() is not None else "signals", monkeypatch)
    monkeypatch.undo()
    done = subprocess.run(
        [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", "match", "toothpicks",
         BURNER.replace(":burn", ":burn_many"), THINKER, "--games", "4", "--seed", "3", "--sandbox", "bwrap",
         "--time-limit", "0.4", "--json"],
        capture_output=True, text=True, timeout=180, cwd=ROOT, env=os.environ.copy(),
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["forfeits"][1] == 0, result["forfeit_reasons"][1]  # the burner may lose its own time


def test_the_cgroups_of_dead_arcades_are_swept(tmp_path):
    """An arcade killed with SIGKILL leaves its bots' empty cgroups; the next one removes those of
    arcades gone (a minute old), never a live arcade's or a fresh one's, nor one still in use."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    old = time.time() - 3600
    for name in (f"bot-{dead.pid}-old", f"bot-{os.getpid()}-mine", f"bot-{dead.pid}-new", f"bot-{dead.pid}-busy"):
        (tmp_path / name).mkdir()
        if not name.endswith("new"):
            os.utime(tmp_path / name, (old, old))
    (tmp_path / f"bot-{dead.pid}-busy" / "cgroup.procs").write_text("")  # not empty: rmdir fails
    cgroups._sweep(tmp_path)
    assert {p.name for p in tmp_path.iterdir()} == {f"bot-{dead.pid}-busy", f"bot-{dead.pid}-new",
                                                     f"bot-{os.getpid()}-mine"}
