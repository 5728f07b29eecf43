"""Logs are evidence (``bots.external.logs``): each bot identity (folder, file, function) has a log
of its own under a safe name; only the arcade writes at the start of a line, so a bot cannot
forge a header, a note or another bot's traceback; a rollover never deletes a live match's lines
and a match's output is capped with a line saying so."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade.catalog import load
from bots.external import sandbox
from bots.external import file_entry
from bots.external.logs import PREFIX, BotLog, LogPump, clean, log_name, roll_over
from bots.limits import Limits
from tests.paths import ROOT, TESTS

HOSTILE = TESTS / "hostile_bots"
VICTIM = f"{HOSTILE / 'victim' / 'victim.py'}:strategy"
FORGER = f"{HOSTILE / 'forger' / 'victim.py'}:strategy"
ARCADE_LINE = re.compile(r"=== \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC · .* ===|\[… .* …\]")


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "logs"
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(folder))
    return folder


def arcade_lines(text: str) -> list[str]:
    """The log's lines that are the arcade's own; every other line must be the bot's (``| …``)."""
    lines = text.splitlines()
    for line in lines:
        assert line.startswith(PREFIX) or ARCADE_LINE.fullmatch(line), f"neither the bot's nor the arcade's: {line!r}"
    return [line for line in lines if not line.startswith(PREFIX)]


def test_two_students_bot_py_in_two_folders_have_two_logs(tmp_path, logs):
    """Same file name, same function, two folders: two logs, each with its own bot's output only."""
    for student in ("alice", "bob"):
        (tmp_path / student).mkdir()
        (tmp_path / student / "bot.py").write_text(f"def strategy(left):\n    print('I am {student}')\n"
                                                   "    return left % 3 or 1\n")
    game = load("toothpicks")()
    paths = []
    for student in ("alice", "bob"):
        entry = file_entry("toothpicks", f"{tmp_path / student / 'bot.py'}:strategy")
        from bots.base import Context

        entry.make(game).choose(game.initial_state(), Context(time_limit=10))
        entry.close()
        paths.append(entry.source.log_path)
    assert paths[0] != paths[1] and paths[0].parent == paths[1].parent == logs
    assert [p.name.split(".")[:2] for p in paths] == [["bot", "strategy"]] * 2
    assert paths[0].name.split(".")[2].startswith("alice-") and paths[1].name.split(".")[2].startswith("bob-")
    alice, bob = (p.read_text() for p in paths)
    assert "I am alice" in alice and "I am bob" not in alice
    assert "I am bob" in bob and "I am alice" not in bob


@settings(max_examples=200, deadline=None)
@given(folder=st.text(min_size=1, max_size=80).filter(lambda t: "\0" not in t and t not in (".", "..")),
       file=st.text(min_size=1, max_size=60).filter(lambda t: "\0" not in t and "/" not in t and t not in (".", "..")),
       function=st.text(min_size=1, max_size=60))
def test_a_log_name_is_safe_whatever_the_folder_file_and_function(folder, file, function):
    """No folder, file or function name leads the log out of the logs' folder, hides it, or makes
    it too long; the digest tells identities apart."""
    path = Path("/srv/class") / folder.replace("/", "_") / file
    name = log_name(path, function)
    assert re.fullmatch(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*-[0-9a-f]{12}\.log", name), name
    assert len(name.encode()) < 200 and not name.startswith(".")
    assert name != log_name(path.with_name(file + "x"), function)
    assert name != log_name(path, function + "x")
    assert name != log_name(Path("/srv/other") / path.parent.name / file, function)


def test_a_forged_header_is_the_forgers_own_line_in_its_own_log(logs):
    """The forger (``hostile_bots/forger/victim.py:strategy``: the victim's file name and function)
    prints a header in the victim's name, a traceback, a note, carriage returns, an escape
    sequence and a right-to-left override. In a match against the victim its log is its own;
    every arcade line in it is genuine and names the forger; every forged line is after ``| ``
    with its controls escaped; the victim's log holds nothing of it."""
    done = subprocess.run(
        [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", "match", "toothpicks",
         FORGER, VICTIM, "--games", "2", "--seed", "1", "--sandbox", "none", "--json"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=os.environ.copy(),
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["forfeits"] == [0, 0]
    (forger,) = logs.glob("victim.strategy.forger-*.log")
    (victim,) = logs.glob("victim.strategy.victim-*.log")
    text = forger.read_text()
    assert "FORGED-7c2e" in text and "\x1b" not in text and "\r" not in text and "\u202e" not in text
    headers = arcade_lines(text)
    assert headers and all(f"{HOSTILE / 'forger' / 'victim.py'}:strategy" in line for line in headers)
    assert f"{PREFIX}\\r\\x1b[2K=== " in text and f"{PREFIX}\\r[… forged note …]" in text
    assert f"{PREFIX}\\u202e reversed \\xff\\xfe" in text
    victim_text = victim.read_text()
    assert "FORGED" not in victim_text and "Traceback" not in victim_text
    assert all(f"{HOSTILE / 'victim' / 'victim.py'}:strategy" in line for line in arcade_lines(victim_text))


def test_the_log_cleans_what_a_process_writes_in_pieces(tmp_path):
    """Output cut anywhere (inside a UTF-8 character, between a line's start and its end) is
    logged as written: each line after ``| ``, the controls escaped; the arcade's notes on lines
    of their own."""
    log = BotLog(tmp_path / "b.log")
    pump = LogPump(log, "=== 2026-01-01 00:00:00 UTC · x:y · g · z ===")
    data = "héllo\r\x1b[31mred\nsecond ☃ line\n=== fake ===\nno end".encode()
    for at in range(len(data)):
        pump._take(data[at:at + 1])
    log.note("[… a note …]")
    log.close()
    text = (tmp_path / "b.log").read_text()
    assert text == ("=== 2026-01-01 00:00:00 UTC · x:y · g · z ===\n| héllo\\r\\x1b[31mred\n| second ☃ line\n"
                    "| === fake ===\n| no end\n[… a note …]\n")
    assert clean("a\tb\u2028c\x9bd") == "a\tb\\u2028c\\x9bd"


def test_a_rollover_never_deletes_a_live_matchs_log(tmp_path, monkeypatch):
    """Generations shift ``.1`` → ``.2`` …; the oldest is deleted only when no match writes in it:
    a match that still holds it (it was its current log when it started) keeps every line."""
    import bots.external.logs as logs_module

    monkeypatch.setattr(logs_module, "LOG_ROLLOVER", 10)
    path = tmp_path / "b.log"
    live = BotLog(path)
    live.note("=== the live match's header ===")
    live.output("its first line\n" * 3)
    for generation in range(logs_module.LOG_GENERATIONS):  # later matches roll it to the oldest place
        roll_over(path)
        later = BotLog(path)
        later.note(f"=== match {generation} ===")
        later.close()
    oldest = path.with_name(f"b.log.{logs_module.LOG_GENERATIONS}")
    assert "the live match's header" in oldest.read_text()
    live.output("its last line\n")  # the live match writes on, into the file it holds
    roll_over(path)  # would delete the oldest: it is held, so nothing moves
    assert "its last line" in oldest.read_text()
    live.close()
    roll_over(path)  # the match is over: now the oldest goes
    assert "the live match's header" not in oldest.read_text()


def test_a_match_caps_its_output_with_a_line_saying_so(tmp_path, monkeypatch):
    import bots.external.logs as logs_module

    monkeypatch.setattr(logs_module, "LOG_MATCH_MAX", 1000)
    log = BotLog(tmp_path / "b.log")
    for _ in range(5):
        log.note("=== a process ===")
        log.output("x" * 399 + "\n")
    log.close()
    text = (tmp_path / "b.log").read_text()
    assert text.count("x" * 399) == 2 and text.count("=== a process ===") == 5
    assert text.count("log cut: this match's output passed") == 1
    assert len(text) < 2000


def test_the_sandboxed_forger_cannot_forge_either(logs):
    if sandbox.bwrap_problem() is not None:
        if os.environ.get("ARCADE_REQUIRE_SANDBOX"):
            raise RuntimeError(f"ARCADE_REQUIRE_SANDBOX is set and the sandbox cannot run: {sandbox.bwrap_problem()}")
        pytest.skip("the bwrap sandbox cannot run here")
    game = load("toothpicks")()
    from bots.base import Context

    entry = file_entry("toothpicks", FORGER, Limits(sandbox="bwrap"))
    entry.make(game).choose(game.initial_state(), Context(time_limit=10))
    entry.close()
    text = entry.source.log_path.read_text()
    assert "FORGED-7c2e" in text and "in the bwrap sandbox" in text
    assert all(str(HOSTILE / "forger" / "victim.py") in line for line in arcade_lines(text))
