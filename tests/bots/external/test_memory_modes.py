"""A bot's memory cap as a plain user runs the arcade (issue 30, item 1; root's way:
``test_sandbox.test_all_of_a_bots_processes_share_one_memory_budget``).

As root, these tests run the arcade as a real user (``nobody``, in a private mount namespace
where the root-only folder holding the Python runtime is reachable, ``as_user``): once with no
cgroup of its own, where the sandbox splits the cap over ``cgroups.SPLIT`` processes, and once
in a cgroup delegated to it (as systemd delegates ``user@UID.service``: folders and
``cgroup.procs`` chowned to the user, on cgroup v2 with ``memory`` and ``pids`` given to the
children), where one memory and one pids cgroup hold all of a bot's processes. Run as a user,
they check the mode the machine gives. The hostile bots: ``tests/hostile_bots/hog/hog.py``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from bots.external import cgroups, sandbox
from tests.paths import ROOT, TESTS

HOG = TESTS / "hostile_bots" / "hog" / "hog.py"
VICTIM = f"{TESTS / 'hostile_bots' / 'victim' / 'victim.py'}:strategy"
USER = sandbox.UNPRIVILEGED
CAP = 160 << 20

PROBLEM = sandbox.bwrap_problem()
if PROBLEM is not None:
    if os.environ.get("ARCADE_REQUIRE_SANDBOX"):
        raise RuntimeError(f"ARCADE_REQUIRE_SANDBOX is set and the sandbox cannot run: {PROBLEM}")
    pytestmark = pytest.mark.skip(reason=f"the bwrap sandbox cannot run here: {PROBLEM}")

ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="made as root: a user for the test, a delegated cgroup")


def as_user(argv: list[str], cgroups: list[Path] = ()) -> list[str]:
    """``argv`` run as ``USER`` (root's test): in a mount namespace of its own where ``/root``
    is an empty folder but for the Python runtime's (``/root`` is 0700 here: a user could not
    run the environment's Python), in ``cgroups`` first (joined while still root)."""
    runtime = [p for p in sandbox._runtime_paths() if str(p).startswith("/root/")]
    binds = "".join(f'mkdir -p "/tmp/.arcade-rt{i}" && mount --bind "{p}" "/tmp/.arcade-rt{i}" && '
                    for i, p in enumerate(runtime))
    binds += "mount -t tmpfs -o mode=755 tmpfs /root && "
    binds += "".join(f'mkdir -p "{p}" && mount --bind "/tmp/.arcade-rt{i}" "{p}" && ' for i, p in enumerate(runtime))
    join = "".join(f'echo $$ > "{c}/cgroup.procs" && ' for c in cgroups)
    inner = f'{binds}exec setpriv --reuid={USER} --regid={USER} --clear-groups "$@"'
    return ["sh", "-c", f'{join}exec unshare -m sh -c \'{inner}\' sh "$@"', "sh", *argv]


def delegate(name: str) -> tuple[list[Path], list[Path]]:
    """A cgroup delegated to ``USER`` as systemd delegates one, on every hierarchy that has
    ``memory`` or ``pids``: (its folders, the ``session`` cgroups inside where the user's
    arcade runs)."""
    v2 = Path("/sys/fs/cgroup")
    if "memory" in (v2 / "cgroup.controllers").read_text().split() if (v2 / "cgroup.controllers").exists() else False:
        bases = [v2]
    else:
        bases = [Path("/sys/fs/cgroup/memory"), Path("/sys/fs/cgroup/pids")]
    tops, sessions = [], []
    for base in bases:
        top = base / name
        top.mkdir()
        if base == v2:
            (top / "cgroup.subtree_control").write_text("+memory +pids")
        session = top / "session"
        session.mkdir()
        for path in (top, session):
            for entry in [path, *path.iterdir()]:
                if entry.is_dir() or entry.name in ("cgroup.procs", "cgroup.subtree_control", "cgroup.threads", "tasks"):
                    os.chown(entry, USER, USER)
        tops.append(top)
        sessions.append(session)
    return tops, sessions


def undelegate(tops: list[Path]) -> None:
    for top in tops:
        for path in sorted(live_folders(top), key=lambda p: -len(p.parts)):
            for _ in range(200):
                try:
                    path.rmdir()
                    break
                except OSError:
                    time.sleep(0.02)


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def held_by_bots(arcade: int) -> int:
    """Bytes the arcade's bots hold now, read on the host (both bots together, an upper bound
    on either): their processes' own memory (``Pss_Anon``) and the ``memfd`` and shared memory
    files they keep open, each file once."""
    total, files = 0, {}
    for pid in _descendants(arcade):
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
            total += sum(int(line.split()[1]) << 10 for line in rollup.splitlines() if line.startswith("Pss_Anon:"))
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                if os.readlink(fd).startswith(("/memfd:", "/dev/shm/")):
                    info = fd.stat()
                    files[(info.st_dev, info.st_ino)] = info.st_size
        except OSError:
            continue
    return total + sum(files.values())


def live_folders(top: Path) -> list[Path]:
    """The folders under ``top`` (itself included), read while the arcade makes and removes its
    bots' cgroups: a folder that goes between being listed and being read is skipped, not an
    error (``Path.rglob`` raises ``FileNotFoundError`` there)."""
    found, todo = [], [top]
    while todo:
        folder = todo.pop()
        try:
            with os.scandir(folder) as entries:
                subfolders = [Path(entry.path) for entry in entries if entry.is_dir(follow_symlinks=False)]
        except OSError:
            continue
        found.append(folder)
        todo.extend(subfolders)
    return found


def cgroups_held(tops: list[Path]) -> int:
    """Bytes the bots' memory cgroups under ``tops`` hold now, the most held by one."""
    most = 0
    for top in tops:
        for folder in live_folders(top):
            if not folder.name.startswith("bot-"):
                continue
            for name in ("memory.current", "memory.usage_in_bytes"):
                try:
                    most = max(most, int((folder / name).read_text()))
                except (OSError, ValueError):
                    pass
    return most


def arcade(*args: str, cgroups: list[Path] = ()) -> list[str]:
    argv = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", *args]
    return as_user(argv, cgroups) if os.geteuid() == 0 else argv


def run_hog(name: str, tmp: Path, cgroups: list[Path] = (), tops: list[Path] = ()) -> tuple[dict, int, str]:
    """``arcade match toothpicks HOG:name VICTIM --memory 160`` in the sandbox as the user: its
    JSON, the most memory the bots held meanwhile (their cgroups' count where ``tops`` has
    them, else ``held_by_bots``) and the hog's log."""
    logs = tmp / "logs"
    logs.mkdir()
    if os.geteuid() == 0:
        os.chown(logs, USER, USER)
    env = {**os.environ, "ARCADE_BOT_LOGS": str(logs), "HOME": str(tmp)}
    proc = subprocess.Popen(
        arcade("match", "toothpicks", f"{HOG}:{name}", VICTIM, "--games", "1", "--seed", "5", "--sandbox", "bwrap",
               "--json", "--memory", "160", "--time-limit", "20", cgroups=cgroups),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, cgroups_held(tops) if tops else held_by_bots(proc.pid))
        time.sleep(0.02)
    out, err = proc.communicate()
    log = "".join(path.read_text(errors="replace") for path in logs.glob("hog*.log"))
    assert proc.returncode == 0, f"{err}\nthe hog's log:\n{log[-3000:]}"
    return json.loads(out), peak, log


@pytest.fixture
def tmp():
    """A folder the user may reach and write (its logs): pytest's are root's only."""
    folder = Path(tempfile.mkdtemp(prefix="arcade-user-"))
    if os.geteuid() == 0:
        os.chown(folder, USER, USER)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@ROOT_ONLY
def test_a_split_cap_leaves_a_bot_most_of_its_share(tmp):
    """Where the cap is split (53 MiB of address space a process), a bot's process starts its
    student's code well under its share: one malloc arena (``MALLOC_ARENA_MAX``: a thread's own
    arena is 64 MiB of address space), a small stack for the process's watchdog thread, the
    arcade's code for the game loaded before the caps. A bot holding 24 MiB plays on (it once
    forfeited at its first allocation: its process held over 90 MiB of address space before the
    bot's first line ran)."""
    result, _peak, log = run_hog("share", tmp)
    assert result["forfeits"][0] == 0 and sum(result["wins"]) == 1, (result, log)
    size = int(re.search(r"VmSize (\d+) kB", log).group(1)) << 10
    assert size <= CAP // 3, (size >> 20, log)


@ROOT_ONLY
@pytest.mark.parametrize("name", ["forks", "memfds"])
def test_a_users_bot_with_no_cgroup_gets_a_share_of_the_cap_a_process(tmp, name):
    """No cgroup of the user's: 3 processes (``RLIMIT_NPROC`` 4, bwrap's first one counted) of
    53 MiB each (``RLIMIT_AS``) and 64 open files a process; the 20 forks stop at the second,
    the memfd files at the 64th; the hog plays on with what it holds (nothing counts its
    processes as one) or forfeits where one of them ran out of its share. The bots held at most
    1.25x the cap (measured: the README's table); memory outside address spaces is not
    guaranteed, and the log says the mode."""
    result, peak, log = run_hog(name, tmp)
    assert result["forfeits"][1] == 0 and sum(result["wins"]) == 1, result  # played to the end
    assert set(result["forfeit_reasons"][0]) <= {
        "Player 1 strategy exceeded the memory cap (53 MiB a process, 160 MiB over 3)"}, result
    assert "memory: split: 3 processes × 1/3 of the cap (no memory cgroup)" in log
    assert 0 < peak <= 1.25 * CAP, peak / (1 << 20)
    print(f"{name}, a user with no cgroup: peak {peak / (1 << 20):.1f} MiB under --memory 160; "
          f"{result['forfeit_reasons'][0]}")


@ROOT_ONLY
@pytest.mark.parametrize("name", ["forks", "memfds"])
def test_a_users_bot_in_a_delegated_cgroup_shares_one_budget(tmp, name):
    """In a cgroup delegated to the user the arcade makes each bot a memory cgroup and a pids
    cgroup (``pids.max`` 64, processes and threads) under it: the fork and memfd hogs forfeit
    for the cap, all of their processes together, held at most 1.25x the cap; the log, the
    plan and the mode say so; the bots' cgroups are removed with them."""
    tops, sessions = delegate(f"arcade-test-{os.getpid()}-{name}")
    try:
        plan = subprocess.run(arcade("tournament", "toothpicks", VICTIM, "random", "--plan", "--memory", "160",
                                     cgroups=sessions),
                              capture_output=True, text=True, cwd=ROOT, env={**os.environ, "HOME": str(tmp)})
        assert plan.returncode == 0, plan.stderr
        version = "v2" if tops[0].parent == Path("/sys/fs/cgroup") else "v1"
        said = f"file bots: in the bwrap sandbox; memory: 160 MiB, one budget (delegated cgroup {version})"
        assert plan.stdout.splitlines()[-1] == said
        watch = subprocess.Popen(["sh", "-c", "while :; do cat " + " ".join(
            f"{top}/session/contest-arcade/bot-*/pids.max" for top in tops) + " 2>/dev/null; sleep 0.05; done"],
            stdout=subprocess.PIPE, text=True)
        try:
            result, peak, log = run_hog(name, tmp, sessions, tops)
        finally:
            watch.kill()
        seen = set(watch.communicate()[0].split())
        assert seen == {str(cgroups.PROCESSES)}, seen  # the bots' pids cgroups, while they ran
        assert result["forfeits"] == [1, 0], result
        assert result["forfeit_reasons"][0] == {
            "Player 1 strategy exceeded the memory cap (160 MiB, all of its processes together)": 1}
        assert f"memory: one budget (delegated cgroup {version})" in log
        assert 0 < peak <= 1.25 * CAP, peak / (1 << 20)
        assert [p for top in tops for p in top.rglob("bot-*")] == []  # removed with the bots
        print(f"{name}, a user in a delegated cgroup: peak {peak / (1 << 20):.1f} MiB under --memory 160")
    finally:
        undelegate(tops)


def test_a_users_mode_is_the_machines():
    """Run as a user (CI's runner), the mode is the one this machine gives: a delegated cgroup
    where systemd (or whoever) gave one, else the split cap; as root, root's cgroups."""
    mode = cgroups.memory_mode("bwrap")
    if os.geteuid() == 0:
        assert mode.startswith("one budget (cgroup v") or mode.startswith("split:")
        return
    found = cgroups.memory_root()
    assert mode == (f"one budget (delegated cgroup v{2 if found[1] else 1})" if found else
                    "split: 3 processes × 1/3 of the cap (no memory cgroup)")
    assert cgroups.memory_mode("none").startswith("one budget" if found else "per process")



def test_the_cgroup_watch_reads_a_tree_that_changes_under_it(tmp_path):
    """``live_folders`` (the watch's walk of the bots' cgroups) while another thread makes and
    removes nested folders as fast as it can, as the arcade does its bots' cgroups: it never
    raises, and every folder that stayed is found."""
    import threading

    kept = [tmp_path / "session" / "contest-arcade" / "bot-kept"]
    kept[0].mkdir(parents=True)
    stop = threading.Event()

    def churn() -> None:
        n = 0
        while not stop.is_set():
            path = tmp_path / "session" / "contest-arcade" / f"bot-{n}" / "deep"
            path.mkdir(parents=True)
            path.rmdir()
            path.parent.rmdir()
            n += 1

    worker = threading.Thread(target=churn)
    worker.start()
    try:
        for _ in range(2000):
            found = set(live_folders(tmp_path))
            assert set(kept) <= found and tmp_path in found
    finally:
        stop.set()
        worker.join()
