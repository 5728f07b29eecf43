"""Text from a program (a file bot's error, its load failure, a line on the wire) reaches no terminal
with its control or escape sequences: ``bots.base.printable`` strips them wherever a ``Forfeit``
is made, so every view prints the same clean reason."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bots.base import Forfeit, printable
from bots.external import file_entry
from games.toothpicks import Toothpicks

HOSTILE = "\x1b[2J\x1b[H\x1b]0;owned\x07\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\\x9b31m\x90dcs\x9c\x07\x08\r\x7fboom"
CONTROL = [chr(c) for c in range(32) if chr(c) not in "\n\t"] + ["\x7f"] + [chr(c) for c in range(0x80, 0xA0)]


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "logs"
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(folder))
    return folder


def clean(text: str) -> bool:
    return not any(ch in text for ch in CONTROL)


def test_printable_strips_escape_sequences_and_controls():
    assert printable(HOSTILE) == "linkboom"
    assert printable("red \x1b[1;31mbold\x1b[0m, \x1bcreset") == "red bold, reset"
    assert printable("cut \x1b]0;title never ended") == "cut "  # a string without its end runs to the end
    assert printable("one\ntwo\tthree\r\n") == "one two three "
    assert printable("one\r\ntwo\tthree\n", multiline=True) == "one\ntwo\tthree\n"
    assert printable("a lone surrogate \udcff") == "a lone surrogate \ufffd"  # printable to any terminal
    assert printable("é 中 ✓ «ok»") == "é 中 ✓ «ok»"
    assert printable(None) == "None"
    assert clean(printable("".join(CONTROL))) and printable("".join(CONTROL)) == ""


def test_a_forfeit_keeps_its_texts_printable():
    fault = Forfeit("strategy produced an error\x1b[5m", f"ValueError: {HOSTILE}")
    assert str(fault) == "strategy produced an error (ValueError: linkboom)"
    assert fault.detail == "ValueError: linkboom" and clean(fault.wording)


def write_bot(folder: Path, body: str) -> Path:
    path = folder / "hostile_bot.py"
    path.write_text(body)
    return path


def test_a_file_bots_error_reaches_the_forfeit_without_its_escape_sequences(tmp_path):
    path = write_bot(tmp_path, f"def strategy(left):\n    raise ValueError({HOSTILE!r})\n")
    entry = file_entry("toothpicks", f"{path}:strategy")
    try:
        game = Toothpicks()
        from bots.base import Context

        with pytest.raises(Forfeit) as caught:
            entry.make(game).choose(game.initial_state(), Context(time_limit=2.0))
    finally:
        entry.close()
    assert str(caught.value) == "strategy produced an error (ValueError: linkboom)"


def test_a_file_bot_that_cannot_load_is_named_without_its_escape_sequences(tmp_path):
    path = write_bot(tmp_path, f"raise RuntimeError({HOSTILE!r})\n")
    entry = file_entry("toothpicks", f"{path}:strategy")
    try:
        problem = entry.probe(Toothpicks())
    finally:
        entry.close()
    assert problem is not None and "RuntimeError: linkboom" in problem and clean(problem)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", *args],
        capture_output=True, text=True, timeout=120, env=os.environ.copy(),
    )


def test_a_match_prints_no_escape_sequence_from_a_file_bot(tmp_path):
    path = write_bot(tmp_path, f"def strategy(left):\n    raise ValueError({HOSTILE!r})\n")
    done = run_cli("match", "toothpicks", f"{path}:strategy", "perfect", "--games", "2", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert "strategy produced an error (ValueError: linkboom)" in done.stdout
    assert clean(done.stdout.replace("\n", "")) and clean(done.stderr.replace("\n", ""))
    done = run_cli("match", "toothpicks", f"{path}:strategy", "perfect", "--games", "2", "--seed", "1", "--json")
    reasons = json.loads(done.stdout)["forfeit_reasons"][0]
    assert all("linkboom" in reason and clean(reason) for reason in reasons) and reasons
    load_fails = write_bot(tmp_path, f"raise RuntimeError({HOSTILE!r})\n")
    done = run_cli("match", "toothpicks", f"{load_fails}:strategy", "perfect")
    assert done.returncode == 2 and "RuntimeError: linkboom" in done.stderr
    assert clean(done.stderr.replace("\n", ""))


MARKUP = "[link=https://evil.example]click[/link] [blink red]x[/] [/] :smile: [@click=app.quit]q[/]"


@pytest.mark.parametrize("command", [["match", "--games", "2"], ["tournament", "--games", "1", "--sandbox", "auto"]])
def test_bot_text_is_never_markup_in_the_commands_output(tmp_path, command):
    """A folder named with markup and an exception message full of it: the command neither
    crashes (MarkupError) nor styles or links anything; the text comes out as it was."""
    folder = tmp_path / "x[bold]y"
    folder.mkdir()
    path = folder / "b[blink red]ot.py"
    path.write_text(f"def strategy(left):\n    raise ValueError({MARKUP!r})\n")
    verb, *rest = command
    done = run_cli(verb, "toothpicks", f"{path}:strategy", "perfect", *rest, "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert f"ValueError: {MARKUP}" in done.stdout.replace("\n", ""), done.stdout
    assert "b[blink red]ot.py:strategy" in done.stdout and "\x1b" not in done.stdout
