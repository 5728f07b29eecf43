"""Golden records: today's tournaments and matches give, byte for byte, what the code gave when the
files in ``tests/golden/`` were made (``tests/golden/README.txt``: the commands and the commit).

Three things are checked against them:

1. the same commands, run now, print the same standings and write the same record (a round robin
   and a groups tournament on one process and on two, a match; and both tournaments through the
   pool with every chunk played by a worker, ``steal=False``, the app's way);
2. the same command run again on a copy of each golden record resumes from it: left whole, nothing
   is played or written and the standings are the same; cut inside a game line (as a kill leaves
   it), the cut line is moved aside, the missing games are played and the file ends as the golden
   one, the standings the same;
3. each golden record reads back with the record reader (``read_games``), every game line played
   again by the ``Referee`` without a problem, and ``arcade replay FILE`` lists the same games.

What varies from run to run, and is left out of the comparison (everything else is compared
exactly, bytes and order):

- a game line's ``times`` (each bot move's seconds) and ``max_move_seconds`` (each player's
  slowest move): wall-clock measurements. Their count is kept (one time per bot move), their values
  are not compared;
- the match table's ``slowest move`` column (the same measurement, in milliseconds);
- with more than one process, the order of the game lines: each game is appended when it ends,
  and which process ends which chunk first is the machine's business (the standings are not: the
  lines are compared as a sorted list, the header first, and the standings exactly).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arcade.records.reader import read_games
from arcade.records.referee import Referee
from arcade.records.schema import game_record
from arcade.seeds import pair_seed
from arcade.tournament.runner import run_tournament
from tests.paths import ROOT

GOLDEN = ROOT / "tests" / "golden"
CLI = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()"]

ROUND_ROBIN = ["tournament", "toothpicks", "perfect", "random", "always_1", "always_2", "mirror",
               "--games", "12", "--seed", "7"]
GROUPS = ["tournament", "hog", "always_roll_1", "always_roll_2", "always_roll_3", "always_roll_4", "always_roll_5",
          "always_roll_6", "piggypoints", "more_boar", "--format", "groups", "--games", "2", "--seed", "11"]
MATCH = ["match", "hog", "piggypoints", "always_roll_5", "--games", "12", "--seed", "3"]

CASES = {
    "rr_jobs1": [*ROUND_ROBIN, "--jobs", "1"],
    "rr_jobs2": [*ROUND_ROBIN, "--jobs", "2"],
    "groups_jobs1": [*GROUPS, "--jobs", "1"],
    "groups_jobs2": [*GROUPS, "--jobs", "2"],
    "match": MATCH,
}
"""Each golden record's name and the command that made it (``--record FILE`` added)."""

POOL = {
    "rr_pool": (("toothpicks", ["perfect", "random", "always_1", "always_2", "mirror"]), {"games": 12, "seed": 7},
                "rr_jobs1"),
    "groups_pool": (("hog", GROUPS[2:10]), {"games": 2, "seed": 11, "fmt": "groups"}, "groups_jobs1"),
}
"""``arcade.tournament.runner.run_tournament(*args, jobs=2, steal=False, **kwargs)``: its ``as_json()`` in ``NAME.json``,
and its record the same games as the named golden record's."""

ORDERED = ("rr_jobs1", "groups_jobs1", "match")
"""The records whose lines come in a fixed order (one process)."""

TIMES = re.compile(rb'"(times|max_move_seconds)": \[([^\]]*)\]')
NUMBER = re.compile(rb"[^,\s]+")
SLOWEST = re.compile(r" +\d+\.\d ms │")


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


def unclocked(line: bytes) -> bytes:
    """A record line with each measured time replaced by ``0`` (their count kept)."""
    return TIMES.sub(lambda m: b'"%s": [%s]' % (m.group(1), NUMBER.sub(b"0", m.group(2))), line)


def record_lines(path: Path, ordered: bool) -> list[bytes]:
    """The record's lines, unclocked; past the header sorted unless ``ordered``."""
    data = path.read_bytes()
    assert data.endswith(b"\n"), f"{path} does not end with a whole line"
    header, *games = [unclocked(line) for line in data.split(b"\n")[:-1]]
    return [header, *(games if ordered else sorted(games))]


def standings_text(name: str, text: str) -> str:
    return SLOWEST.sub(" <time> │", text) if name == "match" else text


def cli(args: list[str], cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "100"}
    done = subprocess.run([*CLI, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def golden_text(name: str) -> str:
    return (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")


def test_the_golden_files_are_what_the_readme_says():
    """Small, and the records of one process and of two hold the same games."""
    for path in GOLDEN.iterdir():
        assert path.stat().st_size < 100_000, path
    for one, two in (("rr_jobs1", "rr_jobs2"), ("groups_jobs1", "groups_jobs2")):
        assert record_lines(GOLDEN / f"{one}.jsonl", False) == record_lines(GOLDEN / f"{two}.jsonl", False)
    readme = (GOLDEN / "README.txt").read_text(encoding="utf-8")
    for args in CASES.values():
        assert " ".join(args) in readme


@pytest.mark.parametrize("name", list(CASES))
def test_the_same_command_prints_the_same_standings_and_writes_the_same_record(tmp_path, name):
    record = tmp_path / f"{name}.jsonl"
    done = cli([*CASES[name], "--record", str(record)])
    assert standings_text(name, done.stdout) == standings_text(name, golden_text(name))
    ordered = name in ORDERED
    assert record_lines(record, ordered) == record_lines(GOLDEN / f"{name}.jsonl", ordered)


@pytest.mark.parametrize("name", list(POOL))
def test_the_pool_with_every_chunk_played_by_a_worker_gives_the_same_tournament(tmp_path, name):
    args, kwargs, same_as = POOL[name]
    record = tmp_path / f"{name}.jsonl"
    result = run_tournament(*args, jobs=2, steal=False, record=record, **kwargs)
    assert result.as_json() == json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    assert record_lines(record, False) == record_lines(GOLDEN / f"{same_as}.jsonl", False)


@pytest.mark.parametrize("name", list(CASES))
def test_resuming_a_whole_golden_record_plays_nothing_and_prints_the_same_standings(tmp_path, name):
    record = tmp_path / f"{name}.jsonl"
    shutil.copyfile(GOLDEN / f"{name}.jsonl", record)
    done = cli([*CASES[name], "--record", str(record)])
    assert standings_text(name, done.stdout) == standings_text(name, golden_text(name))
    assert record.read_bytes() == (GOLDEN / f"{name}.jsonl").read_bytes()  # not a byte written
    assert not Path(f"{record}.damaged").exists()


@pytest.mark.parametrize("name", list(CASES))
def test_resuming_a_golden_record_cut_inside_a_game_plays_the_rest_to_the_same_end(tmp_path, name):
    golden = GOLDEN / f"{name}.jsonl"
    whole = golden.read_bytes().split(b"\n")[:-1]
    kept = len(whole) // 2  # the header and some games, then half of the next game's line
    cut = whole[kept][: len(whole[kept]) // 2]
    record = tmp_path / f"{name}.jsonl"
    record.write_bytes(b"".join(line + b"\n" for line in whole[:kept]) + cut)
    done = cli([*CASES[name], "--record", str(record)])
    assert "cut short" in done.stderr
    assert standings_text(name, done.stdout) == standings_text(name, golden_text(name))
    ordered = name in ORDERED
    assert record_lines(record, ordered) == record_lines(golden, ordered)
    assert Path(f"{record}.damaged").read_bytes().endswith(cut + b"\n")


@pytest.mark.parametrize("name", list(CASES))
def test_every_golden_record_reads_back_and_every_game_is_the_rules(tmp_path, name):
    path = tmp_path / f"{name}.jsonl"
    shutil.copyfile(GOLDEN / f"{name}.jsonl", path)
    header, games = read_games(path)
    assert header["kind"] == ("match" if name == "match" else "tournament")
    seeds = None if name == "match" else (lambda stage, a, b: pair_seed(header["seed"], stage, a, b))
    referee = Referee(header, path.name, seeds)
    for data in games:
        assert referee.problem(data) is None, data
        assert game_record(data).number == data["number"]
    listing = cli(["replay", path.name], cwd=tmp_path).stdout
    assert listing == (GOLDEN / f"{name}.replay.txt").read_text(encoding="utf-8")
    assert listing.splitlines()[-1] == f"{len(games)} games: arcade replay {path.name} N opens game N"
