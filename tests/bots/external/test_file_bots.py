"""File bots (``path.py:function``) in their own process: every fault forfeits cleanly, in every
game's course signature, nothing reaches the terminal, and no process outlives the match."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arcade.match import run_match
from bots.adapters import ADAPTERS
from bots.base import BotEntry, Context, random_move
from bots.external import ExternalBot, Forfeit, file_entry, is_file_spec, limit_text, parse_spec
from bots.limits import Limits
from bots.registry import UnknownBot, resolve
from arcade.catalog import load
from tests.paths import TESTS

FAULTS = TESTS / "fault_bots"
GAMES = ["toothpicks", "hog", "dfootball", "ludo", "othello"]
RANDOM = BotEntry.function("random", "a random legal move", random_move)

# fault -> (time limit for the match, the words its forfeit must contain)
EXPECTED = {
    "raises": (2.0, "strategy produced an error (ValueError: deliberate bug)"),
    "slow": (0.2, "strategy took >200ms to return a move"),
    "hangs": (0.2, "strategy took >200ms to return a move"),
    "invalid_move": (2.0, "strategy returned an invalid move"),
    "wrong_type": (2.0, "strategy returned an invalid move"),
    "exits": (2.0, "strategy produced an error (it called exit(3))"),
    "hard_exit": (2.0, "strategy produced an error (its process exited with status 7)"),
    "crashes": (2.0, "strategy produced an error (its process crashed (SIGSEGV))"),
    "memory": (2.0, "strategy exceeded the memory cap (1 GiB)"),
    "spawns": (0.2, "strategy took >200ms to return a move"),
}


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "logs"
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(folder))
    return folder


def spec(game_id: str, function: str) -> str:
    return f"{FAULTS / f'{game_id}_faults.py'}:{function}"


def gone(pid: int) -> bool:
    """Whether process ``pid`` no longer runs (a zombie waiting for init to reap it counts)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def pids_in(log: Path) -> list[int]:
    return [int(n) for n in re.findall(r"(?:pid|grandchild)=(\d+)", log.read_text())]


def wait_gone(pids: list[int], seconds: float = 3.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if all(gone(pid) for pid in pids):
            return True
        time.sleep(0.02)
    return all(gone(pid) for pid in pids)


@pytest.mark.parametrize("fault", sorted(EXPECTED))
@pytest.mark.parametrize("game_id", GAMES)
def test_each_fault_forfeits_cleanly_in_every_signature(game_id, fault, capfd):
    game = load(game_id)()
    limit, words = EXPECTED[fault]
    entry = file_entry(game_id, spec(game_id, fault))
    summary = run_match(game, (entry, RANDOM), games=1, seed=5, limits=Limits(time=limit))
    record = summary.records[0]
    assert record.forfeit == 0 and record.winner == 1
    name = game.sides[0].name
    assert record.reason.startswith(f"{name} {words}"), record.reason
    assert summary.forfeits == [1, 0]
    # nothing the bot did reached the terminal, and no process outlived the match
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert entry.source.host is None
    pids = pids_in(entry.source.log_path)
    assert pids and wait_gone(pids)
    if fault == "spawns":
        assert len(pids) == 2  # the bot and the process it started: both killed
    if fault in ("raises", "memory"):
        assert "Traceback" in entry.source.log_path.read_text()  # the student sees why, in the log


@pytest.mark.parametrize("game_id", GAMES)
def test_a_good_file_bot_plays_whole_games_and_its_output_goes_to_the_log(game_id, capfd):
    game = load(game_id)()
    entry = file_entry(game_id, spec(game_id, "good"))
    summary = run_match(game, (entry, RANDOM), games=2, seed=1, limits=Limits(time=2.0))
    assert summary.forfeits == [0, 0]
    assert all(not r.reason.startswith(tuple(s.name for s in game.sides)) or "strategy" not in r.reason
               for r in summary.records)
    assert all(r.plies > 2 for r in summary.records)
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    log = entry.source.log_path.read_text()
    assert "printing is not a fault" in log and "a line on stderr" in log and "file descriptor 1" in log
    # one loaded process served both games, each in a process forked from it; all gone after the match
    pids = set(pids_in(entry.source.log_path))
    assert len(pids) == 2 and wait_gone(list(pids))


def test_the_course_limit_is_the_default_100ms_in_dfootball():
    game = load("dfootball")()
    entry = file_entry("dfootball", spec("dfootball", "slow"))
    summary = run_match(game, (entry, RANDOM), games=1)
    assert summary.records[0].reason == "Michigan strategy took >100ms to return a move (450 ms)" or (
        summary.records[0].reason.startswith("Michigan strategy took >100ms to return a move")
    )


def test_othello_uses_the_games_time_limit_option_and_the_cli_override_wins():
    adapter = ADAPTERS["othello"]
    assert adapter.time_limit(load("othello")()) == 10.0
    assert adapter.time_limit(load("othello")(time_limit=0.3)) == 0.3
    game = load("othello")(time_limit=0.3)
    entry = file_entry("othello", spec("othello", "slow"))
    summary = run_match(game, (entry, RANDOM), games=1)
    assert "strategy took >300ms to return a move" in summary.records[0].reason
    # --time-limit (the context's limit) overrides the game's default
    entry = file_entry("othello", spec("othello", "slow"))
    summary = run_match(load("othello")(), (entry, RANDOM), games=1, limits=Limits(time=0.2))
    assert "strategy took >200ms to return a move" in summary.records[0].reason


def test_the_memory_cap_is_adjustable():
    game = load("toothpicks")()
    entry = file_entry("toothpicks", spec("toothpicks", "memory"), Limits(memory=2 << 30, sandbox="none"))
    summary = run_match(game, (entry, RANDOM), games=1, limits=Limits(time=2.0))
    assert summary.forfeits == [0, 0]
    entry = file_entry("toothpicks", spec("toothpicks", "good"), Limits(memory=256 << 20, sandbox="none"))
    summary = run_match(game, (entry, RANDOM), games=1, limits=Limits(time=2.0))
    assert summary.forfeits == [0, 0]  # a small bot fits in 256 MiB


@pytest.mark.parametrize(
    "name, words",
    [
        ("syntax_error.py:strategy", "SyntaxError"),
        ("import_error.py:strategy", "RuntimeError: broken at import"),
        ("chatty.py:missing", "chatty.py has no function 'missing'; its functions: strategy"),
        ("chatty.py:not_a_function", "'not_a_function' in chatty.py is not a function"),
        ("memory_at_import.py:strategy", "strategy exceeded the memory cap (1 GiB, reached while loading "
                                         "memory_at_import.py: MemoryError"),
    ],
)
def test_a_file_that_cannot_be_loaded_forfeits_every_game_and_probe_says_why(name, words, capfd):
    game = load("toothpicks")()
    entry = file_entry("toothpicks", str(FAULTS / name))
    problem = entry.probe(game)
    assert problem is not None and words in problem
    summary = run_match(game, (entry, RANDOM), games=2, limits=Limits(time=2.0))
    assert summary.forfeits == [2, 0]
    assert all(words in r.reason for r in summary.records)
    if "memory" not in name:
        assert all("strategy produced an error (could not load" in r.reason for r in summary.records)
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_printing_at_import_is_not_a_fault():
    game = load("toothpicks")()
    entry = file_entry("toothpicks", str(FAULTS / "chatty.py"))  # the default name: strategy
    assert entry.probe(game) is None
    summary = run_match(game, (entry, RANDOM), games=2)
    assert summary.forfeits == [0, 0]
    assert "printing at import is not a fault" in entry.source.log_path.read_text()


def test_specs_and_the_registry():
    assert is_file_spec("bots/mine.py:strategy") and is_file_spec("mine.py") and not is_file_spec("perfect")
    assert parse_spec(str(FAULTS / "ludo_faults.py"), "ludo")[1] == "engine"
    entry = resolve("toothpicks", f"{FAULTS / 'toothpicks_faults.py'}:good")
    assert entry.name.endswith("toothpicks_faults.py:good") and "strategy(toothpicks_left)" in entry.description
    with pytest.raises(UnknownBot, match="no such file"):
        resolve("toothpicks", "no/such/bot.py:strategy")
    with pytest.raises(UnknownBot, match="is not a function name"):
        resolve("toothpicks", f"{FAULTS / 'chatty.py'}:not-a-name")
    assert [limit_text(s) for s in (0.1, 0.25, 1.0, 10.0, 2.5)] == ["100ms", "250ms", "1s", "10s", "2.5s"]


def test_a_cancelled_request_kills_the_process_and_returns_at_once():
    game = load("toothpicks")()
    entry = file_entry("toothpicks", spec("toothpicks", "hangs"))
    bot = entry.make(game)
    assert isinstance(bot, ExternalBot)
    started = time.monotonic()
    ctx = Context(time_limit=30.0, cancelled=lambda: time.monotonic() - started > 0.3)
    move = bot.choose(game.initial_state(), ctx)
    assert move in game.legal_moves(game.initial_state())
    assert time.monotonic() - started < 5
    assert entry.source.host is None
    assert wait_gone(pids_in(entry.source.log_path))


def test_the_bots_process_gets_a_seeded_global_random(tmp_path):
    bot_file = tmp_path / "lucky.py"
    bot_file.write_text("import random\n\ndef strategy(left):\n    return random.choice([1, 2][:left])\n")
    game = load("toothpicks")()
    results = []
    for _ in range(2):
        entry = file_entry("toothpicks", str(bot_file))
        summary = run_match(game, (entry, entry), games=6, seed=9)
        results.append([(r.winner, r.plies) for r in summary.records])
    assert results[0] == results[1]


def test_a_forfeit_is_a_forfeit_exception_with_the_course_wording():
    game = load("hog")()
    entry = file_entry("hog", spec("hog", "invalid_move"))
    with pytest.raises(Forfeit, match=r"^strategy returned an invalid move \(rolling 11 dice"):
        entry.make(game).choose(game.initial_state(), Context())
    entry.close()


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", *args],
        capture_output=True, text=True, timeout=120, env=os.environ.copy(),
    )


def test_cli_match_with_faulty_and_chatty_file_bots_prints_only_its_json():
    done = run_cli("match", "toothpicks", spec("toothpicks", "raises"), spec("toothpicks", "good"),
                   "--games", "4", "--json")
    assert done.returncode == 0 and done.stderr == ""
    result = json.loads(done.stdout)
    assert result["forfeits"] == [4, 0] and result["wins"] == [0, 4]
    assert sum(result["forfeit_reasons"][0].values()) == 4


def test_cli_match_time_limit_applies_to_file_bots_and_the_summary_counts_forfeits():
    done = run_cli("match", "toothpicks", spec("toothpicks", "slow"), "perfect", "--games", "2",
                   "--time-limit", "0.1")
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr
    assert "file bot output:" in done.stdout
    assert "toothpicks_faults.py:slow forfeited 1×: Player 1 strategy took >100ms to return a move" in done.stdout
    assert "toothpicks_faults.py:slow forfeited 1×: Player 2 strategy took >100ms to return a move" in done.stdout
    table = [line for line in done.stdout.splitlines() if "│ toothpicks_faults.py:sl" in line]
    assert table and table[0].split("│")[4].strip() == "2"  # its forfeits column


def test_cli_a_file_bot_that_cannot_load_is_a_one_line_error():
    done = run_cli("match", "toothpicks", str(FAULTS / "syntax_error.py"), "perfect")
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arcade: error: cannot load bot") and "SyntaxError" in lines[0]
    done = run_cli("match", "toothpicks", "nowhere/bot.py:strategy", "perfect")
    assert done.returncode == 2 and "no such file" in done.stderr


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_a_library_too_big_for_the_memory_cap_says_the_cap_was_reached_and_how_to_raise_it(tmp_path, mode):
    """Issue 33, item 4: numpy under a 48 MiB cap dies while loading, in its own words (the
    loader's "failed to map segment from shared object" in an ``ImportError``, or OpenBLAS's
    "Memory allocation still failed" and an exit): one line says that the memory cap was
    reached, the cap, and how to raise it. (At 100 MiB numpy loads at times since a bot's
    process no longer starts with a thread's malloc arena in its address space.)"""
    from bots.external import sandbox

    if mode == "bwrap" and sandbox.bwrap_problem() is not None:
        assert not os.environ.get("ARCADE_REQUIRE_SANDBOX"), sandbox.bwrap_problem()
        pytest.skip(f"the bwrap sandbox cannot run here: {sandbox.bwrap_problem()}")
    bot = tmp_path / "heavy.py"
    bot.write_text("import numpy\n\n\ndef strategy(left):\n    return 1\n")
    done = run_cli("match", "toothpicks", str(bot), "perfect", "--memory", "48", "--sandbox", mode)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    line, = done.stderr.strip().splitlines()
    assert line.startswith("arcade: error: cannot load bot") and "strategy exceeded the memory cap (48 MiB, " \
        "reached while loading heavy.py: " in line and "; raise the cap with --memory MIB (0: no cap))" in line


async def test_the_setup_screen_plays_a_file_bot_and_says_why_one_cannot_load():
    from textual.widgets import Input, Select, Static

    from arcade.screens.game import GameScreen
    from arcade.screens.setup import FILE, SetupScreen
    from arcade.catalog import CATALOG
    from tests.conftest import make_app, settle

    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        setup = SetupScreen(CATALOG["toothpicks"])
        await app.push_screen(setup)
        await pilot.pause()
        row = setup.query_one("#file-row-1")
        assert not row.display
        setup.query_one("#side-1", Select).value = FILE
        await pilot.pause()
        assert row.display and "strategy(toothpicks_left) -> take" in str(setup.query_one("#about-1").render())
        error = setup.query_one("#setup-error", Static)
        for typed, words in [
            ("", "type the bot's file as path/to/bot.py:function"),
            ("no/such/bot.py:strategy", "no such file"),
            (str(FAULTS / "syntax_error.py"), "SyntaxError: expected ':' (syntax_error.py, line 1)"),
        ]:
            setup.query_one("#file-1", Input).value = typed
            await pilot.press("ctrl+s")
            await settle(pilot)
            assert app.screen is setup and words in str(error.render())
        good = spec("toothpicks", "good")
        setup.query_one("#file-1", Input).value = good
        await pilot.press("ctrl+s")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen) and game.players == ("human", good)
        await pilot.press("1")
        for _ in range(50):  # the file bot answers from its own process
            await settle(pilot)
            if len(game.history) >= 3:
                break
        assert len(game.history) == 3 and game.history[2].event.side == 1 and game.result is None
        log = next((Path(os.environ["ARCADE_BOT_LOGS"])).glob("toothpicks_faults.good.fault_bots-*.log")).read_text()
        assert "printing is not a fault" in log


def test_a_big_log_rolls_over_when_a_match_starts_and_never_during_one(logs, monkeypatch):
    """Past its size a log moves to ``.1`` (and ``.1`` to ``.2``…) when a match's first process
    starts; a process started later in the same match (after a fault) writes on in the same log,
    however big, so the match's lines all stay in one file."""
    import bots.external.logs

    monkeypatch.setattr(bots.external.logs, "LOG_ROLLOVER", 100)
    game = load("toothpicks")()
    entry = file_entry("toothpicks", spec("toothpicks", "good"))
    path = entry.source.log_path
    path.parent.mkdir(parents=True)
    path.write_text("old lines\n" * 20)
    path.with_name(path.name + ".1").write_text("older lines\n")
    assert entry.probe(game) is None
    entry.source.discard()  # a fault: the next move starts a fresh process
    assert entry.probe(game) is None
    entry.close()
    assert "old lines" in path.with_name(path.name + ".1").read_text()
    assert "older lines" in path.with_name(path.name + ".2").read_text()
    text = path.read_text()
    assert "old lines" not in text and text.count("=== ") == 2  # both processes' headers, one file
    assert not path.with_name(path.name + ".3").exists()


async def test_a_file_bot_that_hangs_in_the_app_forfeits_in_the_courses_words():
    from arcade.screens.game import GameScreen
    from tests.conftest import make_app, open_game, settle

    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        game = await open_game(pilot, "toothpicks", ("human", spec("toothpicks", "hangs")))
        assert isinstance(game, GameScreen)
        await pilot.press("1")
        for _ in range(60):
            await settle(pilot)
            if game.result is not None:
                break
        assert game.result is not None and game.result.winner == 0
        assert "strategy took >1s to return a move" in game.result.reason
        assert "produced an error" not in game.result.reason


async def test_a_busy_app_does_not_charge_a_file_bot_for_its_own_delays():
    """A thread holding the GIL in long C calls (as a busy screen can) delays the arcade's reading
    of every answer by up to a fifth of a second: a D-Football file bot that answers at once still
    plays within the course's 100 ms, its time the round trip of its own process."""
    import threading

    from tests.conftest import make_app, open_game, settle

    stop = threading.Event()

    def hog() -> None:
        while not stop.wait(0.1):
            sum(range(3_000_000))  # one C call of 0.05 s or more: no other thread runs Python meanwhile

    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        game = await open_game(pilot, "dfootball", ("random_move", spec("dfootball", "good")), wait=False)
        hogs = threading.Thread(target=hog, daemon=True)
        hogs.start()
        try:
            for _ in range(400):
                await settle(pilot)
                if game.result is not None or len(game.session.times) >= 8:
                    break
        finally:
            stop.set()
            hogs.join()
        assert game.result is None or game.result.termination.name not in ("TIME", "ERROR", "CRASH"), game.result
        moves = [state for state in game.history if state.event is not None and state.event.side == 1]
        assert len(moves) >= 4 and game.session.slowest[1] < 0.1


async def test_the_setup_screen_remembers_a_bot_from_a_file_and_its_time_and_says_when_the_file_is_gone(tmp_path):
    """A file bot typed without ``:function``, with a time a move, is restored as it was (by its
    absolute path, from any folder); once its file is gone, the screen says so and falls back."""
    import shutil

    from textual.widgets import Input, Select, Static

    from arcade import memory
    from arcade.screens.game import GameScreen
    from arcade.screens.setup import FILE
    from tests.conftest import make_app, settle

    bot = tmp_path / "mybot.py"
    shutil.copy(FAULTS / "chatty.py", bot)  # strategy(toothpicks_left), the default name
    app = make_app(start_game="toothpicks")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        setup = app.screen
        assert not setup.query_one("#file-time-row").display
        setup.query_one("#side-1", Select).value = FILE
        await pilot.pause()
        assert setup.query_one("#file-time-row").display
        for typed in ("soon", "0", "-1", "inf"):
            setup.query_one("#file-1", Input).value = str(bot)
            setup.query_one("#file-time", Input).value = typed
            await pilot.press("ctrl+s")
            await settle(pilot)
            assert app.screen is setup and "Time a move must be a number of seconds" in str(
                setup.query_one("#setup-error", Static).render())
        setup.query_one("#file-time", Input).value = "0.75"
        await pilot.press("ctrl+s")
        for _ in range(40):
            await settle(pilot)
            if isinstance(app.screen, GameScreen):
                break
        game = app.screen
        assert isinstance(game, GameScreen)
        assert game.bot_entries[1].source.limits.time == 0.75  # the file bot's time
        assert game.session.limits.time is None  # the other bots keep their own
    assert memory.last_setup("toothpicks")[0] == ("human", f"{bot.resolve()}:strategy")
    app = make_app(start_game="toothpicks")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        setup = app.screen
        assert setup.query_one("#side-1", Select).value == FILE
        assert setup.query_one("#file-1", Input).value == f"{bot.resolve()}:strategy"
        assert setup.query_one("#file-time", Input).value == "0.75" and setup.query_one("#file-time-row").display
        assert str(setup.query_one("#setup-error", Static).render()) == ""
    bot.unlink()
    app = make_app(start_game="toothpicks")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        setup = app.screen
        assert setup.query_one("#side-1", Select).value == "perfect"
        assert not setup.query_one("#file-row-1").display
        error = str(setup.query_one("#setup-error", Static).render())
        assert "Player 1's bot from a file is gone" in error or "bot from a file is gone" in error
        assert "mybot.py" in error and "back to the default player" in error
