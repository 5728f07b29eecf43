"""What ``arcade contest run`` says as it goes (``arcade.commands.contest.RunReport``): what it
found before it plays anything, each batch's pairs, the games as they end (plain lines for a log,
a Rich progress bar on a terminal), what it played, and with ``--watch`` that it waits and until
when."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from arcade.commands.contest import RunReport
from arcade.contest.run import run
from tests.arcade.contest.helpers import CLI, arcade, bot, records
from tests.paths import ROOT


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


def season(tmp_path: Path, games: int = 20) -> Path:
    """A STATS 306 season of three teams, nothing played yet."""
    folder = tmp_path / "c"
    assert arcade("contest", "new", str(folder), "--preset", "stats306", "--games", str(games), "--time-limit", "10",
                  "--sandbox", "none") == 0
    for team, name in (("alice", "far"), ("bob", "near"), ("carol", "middle")):
        assert arcade("contest", "submit", str(folder), team, bot(tmp_path, name)) == 0
    return folder


def test_a_piped_run_says_what_it_found_before_it_plays_then_its_progress_in_plain_lines(tmp_path):
    folder = season(tmp_path)
    process = subprocess.Popen([*CLI, "contest", "run", str(folder)], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "ARCADE_BOT_LOGS": str(tmp_path)})
    first = process.stdout.readline()
    assert not records(folder)  # said before any game was played
    rest, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert first == ("contest c: dfootball, 20 games a pair, all-pairs; 3 current submissions (carol, bob, alice); "
                     "3 pairs miss 60 games\n")
    lines = rest.splitlines()
    assert re.fullmatch(r"playing 60 games of 3 pairs: \w+–\w+, \w+–\w+, \w+–\w+", lines[0])
    ticks = [int(m[1]) for m in (re.fullmatch(r" {2}(\d+)/60 games \((\d+) %\)", line) for line in lines[1:-2]) if m]
    assert len(ticks) == len(lines) - 3 and ticks == sorted(ticks) and 5 <= len(ticks) <= 9  # a tenth at a time
    assert lines[-2:] == ["played 60 games of 3 pairs", "60 games played; nothing missing"]
    assert "\x1b" not in rest + err  # no terminal: no bar, no control


def test_on_a_terminal_the_games_show_in_a_progress_bar(tmp_path):
    folder = season(tmp_path, games=40)
    leader, follower = pty.openpty()
    process = subprocess.Popen([*CLI, "contest", "run", str(folder)], cwd=ROOT, stdin=follower, stdout=follower,
                               stderr=subprocess.DEVNULL, env={**os.environ, "ARCADE_BOT_LOGS": str(tmp_path), "TERM": "xterm",
                                                     "COLUMNS": "120"})
    os.close(follower)
    shown = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if select.select([leader], [], [], 0.5)[0]:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the run ended: the terminal is closed
                break
            if not chunk:
                break
            shown += chunk
        elif process.poll() is not None:
            break
    process.wait(timeout=30)
    os.close(leader)
    text = shown.decode("utf-8", "replace")
    assert process.returncode == 0, text[-2000:]
    assert "playing 120 games of 3 pairs" in text and "games/min" in text  # the bar, below the lines
    assert not re.search(r"\d+/120 games \(\d+ %\)", text)  # no plain progress lines on a terminal
    assert "120 games played; nothing missing" in text


def test_a_watch_says_it_waits_and_until_the_closing_time(tmp_path):
    folder = tmp_path / "c"
    closes = (datetime.now(timezone.utc) + timedelta(seconds=2)).replace(microsecond=0).isoformat()
    assert arcade("contest", "new", str(folder), "--game", "toothpicks", "--games", "2", "--sandbox", "none",
                  "--closes", closes) == 0
    said: list[str] = []
    assert run(folder, watch=True, say=said.append, poll=0.1) == 0
    waits = [line for line in said if line.startswith("waiting")]
    assert waits == [f"waiting for submissions (arcade contest submit, or a folder in {folder / 'inbox'}/TEAM/) "
                     f"until the contest closes at {closes}"]
    assert said[0] == "contest c: toothpicks, 2 games a pair, all-pairs; 0 current submissions; nothing missing"


def test_plain_progress_lines_come_a_tenth_at_a_time_or_every_half_minute(monkeypatch, capsys):
    clock = [0.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    with RunReport("c") as report:
        report.say("playing 1,000 games of 10 pairs")
        report.tally(0, 1000)
        for done in range(1, 1001):
            clock[0] += 0.01 if done < 500 else 1.0  # slower from the middle on
            report.tally(done, 1000)
    lines = capsys.readouterr().out.splitlines()
    counts = [int(line.split("/")[0]) for line in lines[1:]]
    assert lines[0] == "playing 1,000 games of 10 pairs"
    assert counts[:4] == [100, 200, 300, 400]  # a tenth at a time while games come fast
    assert all(b - a <= 31 for a, b in zip(counts[4:], counts[5:]))  # at least every 30 s once they are slow
    assert max(counts) < 1000  # the end is the run's own line
