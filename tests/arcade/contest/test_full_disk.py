"""A full disk under ``arcade contest run`` and ``submit``: the contest's folder on a tmpfs of a
few hundred KiB (bubblewrap's ``--size``), filled until a write fails. Each command says so in one
line; once there is room again, the season ends as an uninterrupted one does: nothing lost,
nothing counted twice."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arcade.contest.db import Database
from arcade.contest.run import run
from arcade.contest.submit import submit
from tests.arcade.contest.helpers import arcade, bot
from tests.arcade.contest.helpers import records
from tests.paths import ROOT

INSIDE = r"""
import json, os, shutil, subprocess, sys
full, source, logs, late = sys.argv[1:5]
folder = os.path.join(full, "c")
shutil.copytree(source, folder)
cli = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()"]
env = {**os.environ, "ARCADE_BOT_LOGS": logs}

def arcade(*args):
    done = subprocess.run([*cli, *args], capture_output=True, text=True, env=env, timeout=600)
    return {"rc": done.returncode, "out": done.stdout, "err": done.stderr}

def fill(keep):
    # fill the disk, then free `keep` bytes of it
    with open(os.path.join(full, "filler"), "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"x" * 4096)
        except OSError:
            pass
    size = os.path.getsize(os.path.join(full, "filler"))
    os.truncate(os.path.join(full, "filler"), max(0, size - keep))

said = {}
fill(24 * 1024)
said["run full"] = arcade("contest", "run", folder)
fill(0)
said["submit full"] = arcade("contest", "submit", folder, "dave", late)
os.remove(os.path.join(full, "filler"))
said["submit again"] = arcade("contest", "submit", folder, "dave", late)
said["run again"] = arcade("contest", "run", folder)
shutil.copytree(folder, os.path.join(source + "-after"))
print(json.dumps(said))
"""


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


def test_a_full_disk_stops_run_and_submit_in_one_line_and_nothing_is_lost_or_counted_twice(tmp_path, capsys):
    if shutil.which("bwrap") is None:
        assert not os.environ.get("ARCADE_REQUIRE_SANDBOX"), "bubblewrap is required (ARCADE_REQUIRE_SANDBOX)"
        pytest.skip("bubblewrap (for a small tmpfs) is not installed")
    folder = tmp_path / "c"
    assert arcade("contest", "new", str(folder), "--preset", "stats306", "--games", "6", "--sandbox", "none",
                  "--time-limit", "10") == 0  # no time forfeit a busy machine makes in one run only
    for team, name in (("alice", "far"), ("bob", "lucky"), ("carol", "middle")):
        assert submit(folder, team, bot(tmp_path, name)).accepted
    late = bot(tmp_path, "near")
    whole = tmp_path / "whole"
    shutil.copytree(folder, whole)
    assert run(whole, say=lambda line: None) == 18
    assert submit(whole, "dave", late).accepted
    assert run(whole, say=lambda line: None) == 18
    (tmp_path / "full").mkdir()
    done = subprocess.run(
        ["bwrap", "--dev-bind", "/", "/", "--size", str(512 * 1024), "--tmpfs", str(tmp_path / "full"), "--",
         sys.executable, "-c", INSIDE, str(tmp_path / "full"), str(folder), str(tmp_path / "logs"), late],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    said = json.loads(done.stdout)
    for step in ("run full", "submit full"):  # each: one line, no traceback, a failure's status
        assert said[step]["rc"] != 0 and "Traceback" not in said[step]["err"], said[step]
        assert (said[step]["out"] + said[step]["err"]).strip().count("\n") == 0, said[step]
    for step in ("run full", "submit full"):
        assert "the disk is full (" in said[step]["err"] and "nothing played or submitted is lost" in said[step]["err"] \
            or "No space left" in said[step]["err"], said[step]
    assert said["submit again"]["rc"] == 0 and said["submit again"]["out"].startswith("accepted: dave's submission")
    assert said["run again"]["rc"] == 0, said["run again"]
    after = Path(str(folder) + "-after")
    assert records(after) == records(whole) and len(records(after)) == 36  # nothing lost, nothing twice
    with Database(after) as db:
        assert sum(db.counts().values()) == 36
        verdicts = [(s.team, s.verdict) for s in db.submissions()]
    lines = [json.loads(line) for line in (after / "submissions.jsonl").read_text().splitlines()]
    assert [(line["team"], line["verdict"]) for line in lines] == verdicts  # every line whole, the same as the database
    assert verdicts.count(("dave", "accepted")) == 1
    capsys.readouterr()
    for where in (after, whole):
        assert arcade("contest", "standings", str(where), "--json") == 0
    out = capsys.readouterr().out.splitlines()
    strip = [[{k: v for k, v in row.items() if k != "submitted"} for row in json.loads(line)["standings"]] for line in out]
    assert strip[0] == strip[1]
