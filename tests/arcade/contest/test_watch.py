"""``arcade contest run --watch``: submissions arriving while it writes (by ``submit`` and through
the inbox, ``DIR/inbox/TEAM/``) are judged and played; the closing time ends it and its closing
stage runs; the same season on a Dask cluster."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from arcade.contest.db import Database
from arcade.contest.run import run
from arcade.contest.submit import submit
from tests.arcade.contest.helpers import BOTS, CLI, arcade, bot
from tests.arcade.contest.helpers import records
from tests.paths import ROOT


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


def wait_for(condition, what: str, process: subprocess.Popen, deadline: float = 180) -> None:
    start = time.monotonic()
    while not condition():
        assert process.poll() is None, f"run --watch ended early: {process.communicate()[1][-2000:]}"
        assert time.monotonic() - start < deadline, f"{what} did not happen in {deadline:.0f} s"
        time.sleep(0.05)


def current(folder: Path) -> dict[str, str]:
    with Database(folder) as db:
        return {s.team: s.digest for s in db.current()}


def test_submissions_arriving_while_run_watches_are_played_and_nothing_twice(tmp_path):
    folder = tmp_path / "c"
    assert arcade("contest", "new", str(folder), "--preset", "stats306", "--games", "6", "--time-limit", "10") == 0
    for team, name in (("alice", "slow"), ("bob", "far")):
        assert submit(folder, team, bot(tmp_path, name)).accepted
    env = {**os.environ, "ARCADE_BOT_LOGS": str(tmp_path / "logs")}
    process = subprocess.Popen([*CLI, "contest", "run", str(folder), "--jobs", "2", "--watch", "--publish",
                                str(tmp_path / "site")], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        wait_for(lambda: len(records(folder)) >= 1, "the first game", process)
        done = subprocess.run([*CLI, "contest", "submit", str(folder), "carol", bot(tmp_path, "lucky")], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=180)  # while run writes
        assert done.returncode == 0 and done.stdout.startswith("accepted"), done.stdout + done.stderr
        drop = folder / "inbox" / "dave"
        drop.mkdir()
        (drop / "mine.py").write_text(BOTS["middle"])
        evil = folder / "inbox" / "Eve"
        evil.mkdir()
        (evil / "mine.py").write_text(BOTS["far"])
        wait_for(lambda: len(records(folder)) == 36, "the four teams' 36 games", process)
        wait_for(lambda: len(os.listdir(folder / "inbox" / ".done")) == 2, "both drops judged", process)
        published = tmp_path / "site" / "standings.json"
        wait_for(lambda: published.exists() and sum(r["games"] for r in json.loads(published.read_text())["standings"])
                 == 72, "the published board", process)
        board = json.loads(published.read_text())
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        _, err = process.communicate()
    assert sorted(current(folder)) == ["alice", "bob", "carol", "dave"]
    done = sorted(os.listdir(folder / "inbox" / ".done"))
    assert done[0].endswith("-accepted-dave") or done[1].endswith("-accepted-dave")
    assert any(name.endswith("-rejected-Eve") for name in done) and board["game"] == "dfootball"
    pages = sorted(p.name for p in (tmp_path / "site" / "games").iterdir())
    assert len([p for p in pages if p.endswith(".html")]) == 36  # every game's replay page
    assert [p.removesuffix(".jsonl") for p in pages if p.endswith(".jsonl")] == \
        [p.removesuffix(".html") for p in pages if p.endswith(".html")]  # and its record to download
    with Database(folder) as db:
        assert sorted(db.counts().values()) == [6] * 6


def test_the_closing_time_ends_a_watch_and_runs_the_closing_stage(tmp_path):
    folder = tmp_path / "c"
    assert arcade("contest", "new", str(folder), "--game", "toothpicks", "--games", "2", "--sandbox", "none") == 0
    path = folder / "contest.toml"
    path.write_text(path.read_text().replace('closing_stage = ""', 'closing_stage = "groups"'))
    for team, answer in (("alice", "1"), ("bob", "min(2, left)"), ("carol", "2 if left % 3 == 2 else 1")):
        where = tmp_path / f"{team}.py"
        where.write_text(f"def strategy(left):\n    return {answer}\n")
        assert submit(folder, team, str(where)).accepted
    process = subprocess.Popen([*CLI, "contest", "run", str(folder), "--watch"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ,
                                                                       "ARCADE_BOT_LOGS": str(tmp_path / "logs")})
    import threading

    lines: list[str] = []  # what it says, read as it says it
    reader = threading.Thread(target=lambda: lines.extend(iter(process.stdout.readline, "")), daemon=True)
    reader.start()
    try:
        wait_for(lambda: len(records(folder)) == 6, "the season's 6 games", process)
        wait_for(lambda: any("waiting for submissions" in line for line in lines), "the waiting line", process)
        assert process.poll() is None  # watching: no closing time yet
        path.write_text(path.read_text().replace('closes = ""', 'closes = "2020-01-01T00:00:00Z"'))
        process.wait(timeout=180)
        reader.join(timeout=30)
        err = process.stderr.read()
        out = "".join(lines)
    finally:
        process.kill()
    assert process.returncode == 0, err
    closing = json.loads((folder / "closing.json").read_text())
    assert closing["stage"] == "groups" and sorted(r["team"] for r in closing["standings"]) == ["alice", "bob", "carol"]
    assert "closing stage (groups) played" in out
    assert "waiting for submissions" in out and "until Ctrl+C (the contest never closes)" in out
    assert "rejected: the contest closed" in subprocess.run(
        [*CLI, "contest", "submit", str(folder), "dave", str(tmp_path / "alice.py")], cwd=ROOT, capture_output=True,
        text=True, timeout=60).stdout


def test_a_season_on_a_dask_cluster_plays_the_same_games(tmp_path):
    import shutil

    distributed = pytest.importorskip("distributed")
    folder = tmp_path / "c"
    assert arcade("contest", "new", str(folder), "--preset", "stats306", "--games", "4", "--sandbox", "none",
                  "--time-limit", "10") == 0  # no time forfeit a busy machine makes in one run only
    for team, name in (("alice", "lucky"), ("bob", "middle"), ("carol", "far")):
        assert submit(folder, team, bot(tmp_path, name)).accepted
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    run(copy, say=lambda line: None)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as cluster:
        assert run(folder, cluster=cluster.scheduler_address, say=lambda line: None) == 12
    assert records(folder) == records(copy)
