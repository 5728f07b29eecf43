"""The README's commands run as shown: every ``arcade …`` line of its code blocks is run from the
repository's root (the example bots it names are in ``examples/``), each within a short budget: a
command that ends must end well, one still working at the budget's end must have said no error.
The Othello player and referee lines run together, as the README has them, in a folder of their
own. A line holding a placeholder (``…``, ``HOST``, ``DIR``) is a template, not a command
(``arcade bot install DIR`` would install from the network; ``tests/bots/external/test_deps.py`` runs it)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.paths import ROOT

CLI = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()"]
BUDGET = 10.0
"""Seconds a command runs before it is stopped (a 200-game match need not finish to show it runs)."""

PLACEHOLDERS = ("…", "HOST", " DIR")


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"^[ \t]*```[\w-]*\n(.*?)^[ \t]*```", text, re.M | re.S)
    lines = [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line.startswith("arcade ")]


COMMANDS = readme_commands()
REFEREED = [c for c in COMMANDS if c.startswith(("arcade othello-player", "arcade othello-referee"))]
ALONE = [c for c in COMMANDS if c not in REFEREED and not any(p in c for p in PLACEHOLDERS)]


def test_the_readme_has_commands_and_only_known_templates():
    assert len(ALONE) >= 8 and len(REFEREED) == 3
    templates = [c for c in COMMANDS if any(p in c for p in PLACEHOLDERS)]
    assert templates == ["arcade bot install DIR", "arcade bot install DIR", "arcade bot install DIR --no-index --find-links wheels/",
                         "arcade tournament othello … --games 2 --cluster tcp://HOST:8786 --record contest.jsonl"]


def run(argv: list[str], cwd: Path, env: dict) -> subprocess.Popen:
    return subprocess.Popen([*CLI, *argv], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, text=True, start_new_session=True)


def outcome(process: subprocess.Popen, until: float) -> tuple[int | None, str]:
    """The exit status (``None``: still working at ``until``, then stopped) and the error output."""
    try:
        process.wait(timeout=max(0.0, until - time.monotonic()))
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        return None, err
    _, err = process.communicate()
    return process.returncode, err


@pytest.fixture
def env(tmp_path, monkeypatch):
    import os

    return dict(os.environ, ARCADE_BOT_LOGS=str(tmp_path / "logs"), XDG_CONFIG_HOME=str(tmp_path / "config"))


@pytest.mark.parametrize("command", ALONE)
def test_a_readme_command_runs_as_shown(command, env):
    process = run(shlex.split(command)[1:], ROOT, env)
    status, err = outcome(process, time.monotonic() + BUDGET)
    assert status in (0, None) and "error" not in err.lower() and "Traceback" not in err, (command, status, err)


def test_the_readme_othello_player_and_referee_play_together(tmp_path, env):
    processes = [run(shlex.split(c)[1:], tmp_path, env) for c in REFEREED]
    until = time.monotonic() + BUDGET
    results = [outcome(p, until) for p in processes]
    for command, (status, err) in zip(REFEREED, results):
        assert status in (0, None) and "Traceback" not in err and "error" not in err.lower(), (command, status, err)
    assert (tmp_path / "move_file").exists()  # they did play
