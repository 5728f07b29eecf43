"""``arcade contest submit``: one line, accepted or rejected with the reason, as an autograder
says it; the probe in the sandbox; content-addressed copies; the history kept; the closing time;
hostile files; two submits at once."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from arcade.contest.db import Database
from arcade.contest.submit import submit
from tests.arcade.contest.helpers import CLI, arcade, bot
from tests.paths import ROOT


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


@pytest.fixture
def contest(tmp_path, capsys):
    folder = tmp_path / "c"
    assert arcade("contest", "new", str(folder), "--preset", "stats306", "--games", "2") == 0
    capsys.readouterr()
    return folder


def test_accepted_and_rejected_in_one_line_each_with_the_reason(contest, tmp_path, capsys):
    assert arcade("contest", "submit", str(contest), "alice", bot(tmp_path, "far")) == 0
    assert capsys.readouterr().out.startswith("accepted: alice's submission ")
    assert arcade("contest", "submit", str(contest), "bob", bot(tmp_path, "broken")) == 1
    out = capsys.readouterr().out
    assert out == "rejected: position 1: strategy produced an error (ValueError: nope)\n"
    assert arcade("contest", "submit", str(contest), "Bob", bot(tmp_path, "near")) == 1
    assert "does not match the contest's rule ^[a-z_]+$" in capsys.readouterr().out
    with Database(contest) as db:
        rows = db.submissions()
    assert [(s.team, s.verdict) for s in rows] == [("alice", "accepted"), ("bob", "rejected")]  # Bob: nowhere


def test_the_probe_runs_in_the_sandbox_and_holds_the_time_limit(contest, tmp_path):
    spy = tmp_path / "bots" / "spy"
    spy.mkdir(parents=True)
    (spy / "spy.py").write_text("import os\nfrom games.dfootball import valid_moves\n\ndef strategy(game):\n"
                                f"    assert not os.path.exists({str(contest / 'secret')!r}), 'saw the secret'\n"
                                "    return valid_moves(game)[-1]\n")
    assert submit(contest, "spy", str(spy / "spy.py")).accepted  # the contest's folder is not in its sandbox
    slow = tmp_path / "bots" / "slow"
    slow.mkdir()
    (slow / "slow.py").write_text("import time\n\ndef strategy(game):\n    time.sleep(0.3)\n    return 2\n")
    verdict = submit(contest, "slow", str(slow / "slow.py"))
    assert not verdict.accepted and "took >100ms to return a move" in verdict.reason
    wrong = tmp_path / "bots" / "wrong"
    wrong.mkdir()
    (wrong / "wrong.py").write_text("def strategy(game):\n    return 99\n")
    verdict = submit(contest, "wrong", str(wrong / "wrong.py"))
    assert not verdict.accepted and "invalid move" in verdict.reason
    header = json.loads((contest / "submissions.jsonl").read_text().splitlines()[0])
    assert header["team"] == "spy" and header["verdict"] == "accepted"


def test_the_same_bytes_are_one_submission_and_a_newer_one_takes_the_place(contest, tmp_path):
    far, near = bot(tmp_path, "far"), bot(tmp_path, "near")
    first = submit(contest, "alice", far)
    again = submit(contest, "alice", far)
    assert first.digest == again.digest and again.reason == "already the team's current submission"
    newer = submit(contest, "alice", near)
    assert newer.accepted and newer.digest != first.digest
    back = submit(contest, "alice", far)
    assert back.accepted and back.reason == "the same files as before"
    copied = submit(contest, "bob", far)
    assert not copied.accepted and copied.reason == "the same files as another team's submission"
    with Database(contest) as db:
        assert [s.digest for s in db.current()] == [first.digest]
        assert [s.digest for s in db.submissions() if s.team == "alice"] == [first.digest, newer.digest, first.digest]
    assert sorted(os.listdir(contest / "submissions")) == sorted({first.digest, newer.digest})
    kept = contest / "submissions" / first.digest / "bot" / "far.py"
    assert kept.read_text() == (tmp_path / "bots" / "far" / "far.py").read_text()


def test_after_the_closing_time_nothing_is_accepted(tmp_path, capsys):
    folder = tmp_path / "c"
    arcade("contest", "new", str(folder), "--preset", "stats306", "--closes", "2018-12-15T12:00:00-05:00")
    capsys.readouterr()
    assert arcade("contest", "submit", str(folder), "alice", bot(tmp_path, "far")) == 1
    assert capsys.readouterr().out == "rejected: the contest closed at 2018-12-15T12:00:00-05:00\n"


def test_hostile_files_are_refused_in_one_line(contest, tmp_path):
    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / "bot.py").write_text("from games.dfootball import valid_moves\n\n\ndef strategy(game):\n"
                                   "    return valid_moves(game)[0]\n")
    (folder / "grades.py").symlink_to("/etc/passwd")
    verdict = submit(contest, "eve", str(folder))
    assert not verdict.accepted and "symbolic link" in verdict.reason
    (folder / "grades.py").unlink()
    (folder / "big.bin").write_bytes(b"x" * (2 << 20))
    verdict = submit(contest, "eve", str(folder))
    assert not verdict.accepted and "the most a submission may hold" in verdict.reason
    (folder / "big.bin").unlink()
    os.mkfifo(tmp_path / "fifo.py")
    assert "no regular file" in submit(contest, "eve", str(tmp_path / "fifo.py")).reason
    (folder / "other.py").write_text("def strategy(game):\n    return 1\n")  # two files that could play
    reason = submit(contest, "eve", str(folder)).reason
    assert "2 bot files at its top (bot.py, other.py)" in reason and "FOLDER:FILE[:FUNCTION]" in reason
    (folder / "other.py").unlink()
    assert submit(contest, "eve", str(folder)).accepted  # the folder with one bot file
    lines = (contest / "submissions.jsonl").read_text().splitlines()
    assert all("\n" not in line for line in lines) and len(lines) == 5


def test_two_submits_at_once_are_both_recorded(contest, tmp_path):
    commands = [[*CLI, "contest", "submit", str(contest), team, bot(tmp_path, name)]
                for team, name in (("alice", "far"), ("bob", "near"), ("carol", "middle"))]
    processes = [subprocess.Popen(c, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env={**os.environ, "ARCADE_BOT_LOGS": str(tmp_path / "logs")}) for c in commands]
    outs = [p.communicate(timeout=180) for p in processes]
    assert all(p.returncode == 0 for p in processes), outs
    with Database(contest) as db:
        assert sorted(s.team for s in db.current()) == ["alice", "bob", "carol"]
    assert sorted(json.loads(line)["team"] for line in (contest / "submissions.jsonl").read_text().splitlines()) == \
        ["alice", "bob", "carol"]


@pytest.mark.parametrize("entry", ["TDPlayer(name='a:b').make_a_move", "strategy", ""])
def test_a_spec_is_cut_where_a_file_bots_is_even_with_a_colon_in_an_objects_arguments(tmp_path, entry):
    """``store.split_spec`` cuts as ``bots.external.specs.split_spec`` does: the ``:`` before the
    entry, not one inside an object's arguments (``rpartition`` took ``…p.py:TDPlayer(name='a``
    for the file)."""
    from arcade.contest import store

    (tmp_path / "p.py").write_text("def strategy(board):\n    return 1\n")
    spec = f"{tmp_path / 'p.py'}:{entry}" if entry else str(tmp_path / "p.py")
    assert store.split_spec(spec) == (tmp_path / "p.py", entry)
    assert store.read(spec, 1 << 20).entry == f"bot/p.py:{entry}"


# -- every verdict decided inside the lock that writes it (trust round four) ----------------------

@pytest.mark.parametrize("trial", range(4))
def test_teams_sending_the_same_bytes_at_once_one_keeps_them(contest, tmp_path, monkeypatch, trial):
    """Four teams submit the same file at the same moment; each probe is held until all four have
    passed the first owner check (the window a slow probe opens), then released in a random order.
    Exactly one team is accepted, whichever wrote first; the others are refused for the same files."""
    import random
    import threading

    from arcade.contest import submit as submitting

    teams = ["alice", "bob", "carol", "dave"]
    path = bot(tmp_path, "far")
    gate = threading.Barrier(len(teams))
    order = random.Random(trial)

    def held_probe(*args):
        gate.wait(timeout=60)
        threading.Event().wait(order.random() / 20)
        return None

    monkeypatch.setattr(submitting, "judge", held_probe)
    verdicts = {}

    def send(team):
        try:
            verdicts[team] = submit(contest, team, path)
        except BaseException as exc:  # noqa: BLE001 - shown by the assertion below
            verdicts[team] = exc

    threads = [threading.Thread(target=send, args=(t,)) for t in teams]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(verdicts) == 4 and not any(isinstance(v, BaseException) for v in verdicts.values()), verdicts
    accepted = [t for t, v in verdicts.items() if v.accepted]
    assert len(accepted) == 1, verdicts
    assert all(v.reason == "the same files as another team's submission" for t, v in verdicts.items() if t not in accepted)
    with Database(contest) as db:
        assert [s.team for s in db.current()] == accepted
    logged = [json.loads(line) for line in (contest / "submissions.jsonl").read_text().splitlines()]
    assert [line["team"] for line in logged if line["verdict"] == "accepted"] == accepted


def test_a_probe_that_runs_past_the_closing_time_is_not_accepted(contest, tmp_path, monkeypatch):
    from arcade.contest import submit as submitting

    def slow_probe(folder, *args):  # the contest closes while the probe runs
        text = (folder / "contest.toml").read_text()
        (folder / "contest.toml").write_text(text.replace('closes = ""', 'closes = "2020-01-01T00:00:00+00:00"'))
        return None

    monkeypatch.setattr(submitting, "judge", slow_probe)
    verdict = submit(contest, "alice", bot(tmp_path, "far"))
    assert not verdict.accepted and "the contest closed at 2020-01-01T00:00:00+00:00, before the verdict" in verdict.reason
    with Database(contest) as db:
        assert db.current() == [] and [s.verdict for s in db.submissions()] == ["rejected"]


def test_the_probes_positions_cannot_be_computed_from_the_submission(contest, tmp_path, monkeypatch):
    """The probe's seed is keyed by the contest's secret and drawn fresh at each admission: the
    same bytes sent again (after a rejection) meet other positions, and nothing of the digest
    alone gives them."""
    from arcade.contest import probe as probing
    from arcade.seeds import probe_seed

    seeds = []

    def refusing(game, spec, limits, count, seed, table_seconds=None, timing=None):
        seeds.append(seed)
        return "answered no position"

    monkeypatch.setattr(probing, "probe", refusing)
    path = bot(tmp_path, "far")
    for _ in range(3):
        assert not submit(contest, "alice", path).accepted
    with Database(contest) as db:
        digest = db.submissions()[0].digest
    assert len(set(seeds)) == 3 and int(digest[:15], 16) not in seeds
    assert probe_seed(7, digest, b"x") == probe_seed(7, digest, b"x") != probe_seed(8, digest, b"x")
    assert probe_seed(7, digest, b"x") != probe_seed(7, digest, b"y") and 0 <= probe_seed(7, digest) < 1 << 63
