"""Untrusted text (a bot's name, a path, an exception's message, a forfeit's reason, a record's
field) is never markup and never a terminal control, and is capped, wherever the arcade shows it:
``arcade.untrusted`` carries it. These tests inject hostile text into every place that renders it
(the game screen's commentary, side panel, move list and notifications; the setup and tournament
screens; the commands' lines, tables and ``--json``), and a static check fails when a new widget
call is fed an f-string instead of the helper."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text

from arcade.untrusted import CAP, clean, markup, ours, plain
from bots.base import BotEntry, Forfeit, printable
from tests.conftest import make_app, settle, wait_until
from tests.paths import ROOT


HOSTILE = [
    "[bold]x[/]",
    "[/]",
    "[@click=app.screenshot('/tmp/p','x')]hi[/]",
    "[link=https://evil.example]x[/link]",
    "\x1b]0;title\x07",
    "\x1b]52;c;cm0gLXJmIH4=\x07",
    "\u202eexe.txt",
    "a\udc80b\ud800",
    "$name [$x] \\[b] \\",
    "{0} {task} %s",
]
BIG = "[b]" + "x" * (4 << 20)  # 4 MB
FORBIDDEN = [chr(c) for c in range(32) if chr(c) not in "\n\t"] + ["\x7f"] + [chr(c) for c in range(0x80, 0xA0)]
FORBIDDEN += ["\u202e", "\u202a", "\u2066", "\u200f", "\u061c"]


def is_clean(text: str) -> bool:
    """No control character, bidi override or lone surrogate."""
    return not any(ch in text for ch in FORBIDDEN) and not any("\ud800" <= ch <= "\udfff" for ch in text)


# -- the helper ---------------------------------------------------------------------------------

@given(st.text())
def test_clean_leaves_no_control_and_keeps_ordinary_text(text):
    out = clean(text)
    assert is_clean(out) and "\n" not in out
    assert is_clean(clean(text, multiline=True))
    ordinary = "".join(ch for ch in text if ch.isalnum() or ch in " []/@=")
    if len(ordinary.encode()) <= CAP:
        assert clean(ordinary) == ordinary


@given(st.text(min_size=1), st.integers(min_value=16, max_value=4096))
def test_a_long_text_is_cut_at_the_cap_and_says_so(text, cap):
    text = text * (cap // len(text) + 2)
    out = clean(text, cap=cap)
    head, _, note = out.rpartition("… (cut, ")
    assert note.endswith(" bytes)") and len(head.encode()) <= cap
    cut = int(note.removesuffix(" bytes)").replace(",", ""))
    assert cut == len(text.encode("utf-8", "surrogatepass")) - len(
        printable(text, cap=cap).rpartition("… (cut, ")[0].encode()) or cut > 0


def test_four_megabytes_are_cut_fast_to_a_kilobyte():
    out = clean(BIG)
    assert len(out.encode()) < CAP + 40 and out.endswith(f"(cut, {len(BIG) - CAP:,} bytes)")
    assert len(str(Forfeit("strategy raised an error", BIG)).encode()) < 3 * CAP  # capped where it is made


@given(st.sampled_from(HOSTILE) | st.text())
def test_plain_and_markup_never_read_a_value_as_markup(value):
    assert plain(value).spans == [] and plain(value).plain == clean(value)
    text = markup("[b]✗[/b] $why · [i]$who[/i]", why=value, who=value)
    assert text.plain == f"✗ {clean(value, multiline=True)} · {clean(value, multiline=True)}"
    assert {str(span.style) for span in text.spans} <= {"bold", "italic"}
    assert not any(span.style.link or span.style.meta for span in text.spans if not isinstance(span.style, str))


def test_ours_falls_back_to_plain_text_on_broken_markup():
    assert ours("[b]ok[/b]").plain == "ok"
    assert ours("a[/]b").plain == "a[/]b"


# -- the app ------------------------------------------------------------------------------------

def screen_segments(app):
    """Every segment the screen shows now, its toasts included."""
    for strip in app.screen._compositor.render_strips():
        yield from strip


def assert_shown_plainly(app, literal: str | None = None) -> None:
    """Nothing on the screen links, clicks or carries a control; ``literal`` (a part of the hostile
    text) appears as it is."""
    text = ""
    for segment in screen_segments(app):
        style = segment.style
        text += segment.text
        if style is not None:
            assert not style.link, style
            meta = style.meta or {}
            assert not any("screenshot" in str(value) or "evil" in str(value) for value in meta.values()), meta
    assert is_clean(text.replace("\n", ""))
    if literal is not None:
        assert literal in text, text[:4000]


class Hostile:
    """An in-process bot whose words are hostile: what it thinks (``ctx.report``) and the
    exception it raises are ``text``."""

    rewindable = True

    def __init__(self, text: str) -> None:
        self.text = text

    def choose(self, state, ctx):
        ctx.report(self.text)
        raise RuntimeError(self.text)

    def restart_at(self, state) -> None:
        pass

    def game_over(self, state, result) -> None:
        raise RuntimeError(self.text)


@pytest.mark.parametrize("text", HOSTILE + [BIG], ids=[f"hostile{i}" for i in range(len(HOSTILE))] + ["4MB"])
async def test_the_game_screen_shows_a_hostile_bot_plainly(text):
    """The bot's name (as a file bot's spec would be), its thoughts, its exception, the forfeit's
    reason and what failed at the end go to the commentary, the side panel and the move list."""
    from arcade.catalog import CATALOG
    from arcade.screens.game import GameScreen

    name = f"{text[:100]}/b[blink]ot.py:strategy"
    entry = BotEntry(name, "hostile", lambda game: Hostile(text))
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = GameScreen(CATALOG["toothpicks"], ("human", name), {}, entries={1: entry})
        await pilot.app.push_screen(screen)
        await settle(pilot)
        screen.push(screen.game.play(screen.state, 1))
        await settle(pilot)
        assert screen.result is not None and screen.result.winner == 0
        lines = [line.text for line in screen.commentary.lines]
        assert any("b[blink]ot.py" in line for line in lines)
        assert any("RuntimeError" in line for line in lines)
        assert all(len(line.encode()) < 4 * CAP for line in lines)
        assert_shown_plainly(app, "b[blink]ot.py" if len(text) < 100 else None)  # a long name wraps
        screen.notify(f"cannot save the game: {text}", title="Not saved")  # as a failed save says it
        await pilot.pause()
        assert_shown_plainly(app)


async def test_a_failed_save_is_a_notice_with_the_path_plain(tmp_path, monkeypatch):
    from tests.conftest import open_game

    folder = tmp_path / "x[/]y[link=https:" / "evil.example]z"
    folder.parent.mkdir(parents=True)
    folder.write_text("a file where the folder should be")
    monkeypatch.setenv("ARCADE_GAMES", str(folder))
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "human"))
        screen.action_save_game()
        await pilot.pause()
        notes = list(app._notifications)
        assert notes and notes[-1].title == "Not saved" and not notes[-1].markup
        assert "x[/]y[link=https:/evil.example]z" in notes[-1].message
        assert_shown_plainly(app)


async def test_the_setup_screen_shows_a_bot_file_that_fails_plainly(tmp_path, monkeypatch):
    from arcade.catalog import CATALOG
    from arcade.screens.setup import SetupScreen

    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))
    folder = tmp_path / "x[/]y"
    folder.mkdir(parents=True)
    bot = folder / "bot.py"
    bot.write_text(f"raise RuntimeError({HOSTILE[2] + HOSTILE[3] + HOSTILE[5] + HOSTILE[8]!r})\n")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = SetupScreen(CATALOG["toothpicks"], choices=("human", f"{bot}:strategy"), settings={})
        await pilot.app.push_screen(screen)
        await pilot.pause()
        screen.query_one("#sandbox").value = "none"
        screen.action_start()
        for _ in range(100):
            await settle(pilot)
            error = str(screen.query_one("#setup-error").render())
            if "RuntimeError" in error:
                break
        assert "[@click=app.screenshot('/tmp/p','x')]hi[/]" in error and "x[/]y" in error
        assert "$name [$x] \\[b] \\" in error  # Rich's escape() is no escape for Textual's markup
        assert_shown_plainly(app)


async def test_remembered_options_from_a_hostile_settings_file_are_plain(tmp_path):
    from arcade import memory

    memory.save({"games": {"hog": {"players": ["human", "human"], "settings": {"goal": "[/][@click=app.quit]x"}}}})
    app = make_app("hog")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "SetupScreen"
        assert_shown_plainly(app)


async def test_the_tournament_screen_shows_a_failing_file_bot_plainly(tmp_path, monkeypatch):
    from arcade.screens.tournament import TournamentScreen

    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))
    folder = tmp_path / "x[/]y"
    folder.mkdir(parents=True)
    bot = folder / "b[link=https:evil.example]ot.py"
    bot.write_text("def strategy(left):\n    return (\n")  # not valid Python: the plan says so
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = TournamentScreen("toothpicks")
        await pilot.app.push_screen(screen)
        await pilot.pause()
        screen.query_one("#t-files").value = f"{bot}:strategy"
        await pilot.pause()
        screen.action_start()
        for _ in range(200):
            await settle(pilot)
            status = str(screen.query_one("#t-status").render())
            if not screen.running:
                break
        assert "b[link=https:evil.example]ot.py" in status, status
        assert_shown_plainly(app)


# -- the commands ---------------------------------------------------------------------------------

def run_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", *args], capture_output=True, text=True,
                          errors="surrogateescape", timeout=300, cwd=ROOT,
                          env={**os.environ, "COLUMNS": "200", **(env or {})})


def hostile_bot(tmp_path: Path, message: str) -> Path:
    folder = tmp_path / "x[/]y{0}$a"
    folder.mkdir(parents=True)
    path = folder / "b[link=https:evil.example]ot.py"
    path.write_text(f"def strategy(left):\n    raise ValueError({message!r} + 'x' * (4 << 20))  # 4 MB\n")
    return path


@pytest.mark.parametrize("command", [["match", "--games", "2"], ["tournament", "--games", "1", "--sandbox", "none"]])
def test_the_commands_show_hostile_names_and_errors_plainly_and_capped(tmp_path, command):
    """A folder named with markup and format fields; a 4 MB exception full of markup, escape
    sequences and bidi overrides: one line per reason, the name as it is, nothing huge."""
    path = hostile_bot(tmp_path, "".join(HOSTILE))
    verb, *rest = command
    logs = {"ARCADE_BOT_LOGS": str(tmp_path / "logs")}
    done = run_cli(verb, "toothpicks", f"{path}:strategy", "perfect", *rest, "--seed", "1", env=logs)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "b[link=https:evil.example]ot.py:strategy" in done.stdout
    assert is_clean(done.stdout.replace("\n", "")) and is_clean(done.stderr.replace("\n", ""))
    assert len(done.stdout) < 20_000, len(done.stdout)
    assert "(cut, " in done.stdout
    done = run_cli(verb, "toothpicks", f"{path}:strategy", "perfect", *rest, "--seed", "1", "--json", env=logs)
    assert done.returncode == 0 and len(done.stdout) < 40_000
    assert "\x1b" not in done.stdout and done.stdout.isascii()
    json.loads(done.stdout)


def test_a_usage_error_quoting_a_hostile_path_is_plain(tmp_path):
    folder = tmp_path / "x[/]y\x1b]52;c;cm0gLXJmIH4=\x07"
    done = run_cli("replay", str(folder / "none.jsonl"))
    assert done.returncode == 2 and "x[/]y" in done.stderr and is_clean(done.stderr.replace("\n", ""))


# -- the static check -----------------------------------------------------------------------------

SINKS = {"Static", "Label", "update", "add_row", "add_column", "write", "from_markup", "Option", "add_option"}
"""Textual's and Rich's calls that read a ``str`` argument as markup. (The arcade's own ``say``,
``status``, ``show_error``, ``comment`` show a ``str`` plain, and the app's ``notify`` cleans.)"""


def _built_from_values(node: ast.AST) -> bool:
    """Whether ``node`` builds a string from values: an f-string with a value in it, a ``+`` of
    strings, ``.format`` or ``%``."""
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(part, ast.FormattedValue) for part in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return any(isinstance(side, (ast.JoinedStr, ast.Constant)) and
                   (not isinstance(side, ast.Constant) or isinstance(side.value, str))
                   for side in (node.left, node.right))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return True
    return False


def _name(func: ast.AST) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def test_no_widget_text_is_built_from_values_outside_the_helper():
    """Every text a widget shows as markup is a literal, or comes from ``arcade.untrusted``
    (``plain``, ``markup``): a new ``Static(f"… {name}")``, ``.update(a + b)`` or
    ``Text.from_markup(f"…")`` fails here. ``notify`` is safe by construction (the app's
    ``notify`` cleans and never reads markup), and ``rich.markup.escape`` is not Textual's
    escaping, so it is not used."""
    found = []
    for path in sorted((ROOT / "arcade").rglob("*.py")):
        if path.name == "untrusted.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "rich.markup":
                found.append(f"{path.name}:{node.lineno}: rich.markup (use arcade.untrusted)")
            if not isinstance(node, ast.Call):
                continue
            if _name(node.func) == "notify" and any(
                    k.arg == "markup" and not (isinstance(k.value, ast.Constant) and k.value.value is False)
                    for k in node.keywords):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: notify(markup=…)")
            if _name(node.func) not in SINKS or not node.args:
                continue
            if _built_from_values(node.args[0]):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {_name(node.func)}({ast.unparse(node.args[0])[:60]})")
            if _name(node.func) == "from_markup" and not isinstance(node.args[0], ast.Constant):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: from_markup of a value (use markup or ours)")
    assert not found, "\n".join(found)


def test_the_app_notify_cleans_and_never_reads_markup():
    from arcade.app import ArcadeApp

    source = ast.unparse(ast.parse(Path(sys.modules[ArcadeApp.__module__].__file__).read_text()))
    assert "def notify(" in source and "markup=False" in source


def test_plain_text_is_a_rich_text_with_no_style_from_the_value():
    value = HOSTILE[2]
    text = plain(value, style="bold")
    assert isinstance(text, Text) and text.plain == value and text.spans == []


@pytest.mark.parametrize("function", ["raises", "invalid"])
def test_the_hostile_text_bot_forfeits_with_a_capped_plain_reason(tmp_path, function):
    """``tests/hostile_bots/text/loud.py``: its 4 MB of markup and escapes, as an exception or a
    move, is one capped reason in ``--json`` and in the table, never a control."""
    bot = ROOT / "tests" / "hostile_bots" / "text" / "loud.py"
    logs = {"ARCADE_BOT_LOGS": str(tmp_path / "logs")}
    done = run_cli("match", "toothpicks", f"{bot}:{function}", "perfect", "--games", "2", "--seed", "1", "--json",
                   env=logs)
    assert done.returncode == 0, done.stderr[-2000:]
    reasons = json.loads(done.stdout)["forfeit_reasons"][0]
    assert reasons and all(len(reason.encode()) < 3 * CAP and is_clean(reason) for reason in reasons)
    record = tmp_path / "r.jsonl"
    done = run_cli("match", "toothpicks", f"{bot}:{function}", "perfect", "--games", "2", "--seed", "1",
                   "--record", str(record), env=logs)
    assert done.returncode == 0 and is_clean(done.stdout.replace("\n", ""))
    assert "[@click=app.screenshot('/tmp/p','x')]hi[/]" in done.stdout
    assert record.stat().st_size < 20_000  # the reason is capped where it is made, not in each line


async def test_the_tournament_screen_tables_show_a_marked_up_file_name_plainly(tmp_path, monkeypatch):
    """A file bot named ``[u]x.py`` plays: the standings and the head-to-head table show
    ``[u]x:play`` as it is (a table's string cell would be read as markup)."""
    from textual.widgets import DataTable, SelectionList

    from arcade.screens.tournament import TournamentScreen

    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))
    folder = tmp_path / "x[b]y"
    folder.mkdir()
    bot = folder / "[u]x.py"
    bot.write_text("def play(left):\n    return 1\n")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = TournamentScreen("toothpicks")
        await pilot.app.push_screen(screen)
        await pilot.pause()
        bots = screen.query_one("#t-bots", SelectionList)
        for name in list(bots.selected)[1:]:
            bots.deselect(name)
        screen.query_one("#t-files").value = f"{bot}:play"
        screen.query_one("#t-games").value = "2"
        await pilot.pause()
        screen.action_start()
        await wait_until(pilot, lambda: not screen.running, what="the tournament's end")
        for table_id in ("#t-standings", "#t-crosstable"):
            table = screen.query_one(table_id, DataTable)
            names = [table.get_row_at(i)[1] for i in range(table.row_count)]
            assert all(isinstance(name, Text) and not name.spans for name in names), (table_id, names)  # never markup
            assert "[u]x:play" in [name.plain for name in names], (table_id, names)
        assert_shown_plainly(app, "[u]x:play")
