"""Shared fixtures: a pinned environment for snapshots, and helpers to open a game screen."""

from __future__ import annotations

import pytest
from textual.binding import Binding
from textual.widgets import Input, TextArea
from textual.worker import WorkerCancelled

from arcade.app import ArcadeApp
from arcade.screens.game import GameScreen
from arcade.catalog import CATALOG
from arcade.screens.pacing import Pacing
from arcade.widgets.footer import PALETTE_WIDTH, FittedFooter, action_name, key_width

from tests.paths import TESTS

THEME = "textual-dark"

ONE_AT_A_TIME = frozenset({
    "bots/external/test_file_bots.py",  # file bots in processes: time limits of 0.1–2 s, memory caps of 1–2 GiB
    "bots/external/test_sandbox.py",  # bubblewrap, memory caps, killed process trees
    "arcade/test_cs4341_referee.py",  # the referee's time limits (0.1 s and up) and player processes
    "bots/othello/test_parallel_solve.py",  # the solver's process pool, a deadline
    "arcade/records/test_records.py",  # command-line tournaments in processes, a Dask cluster
    "arcade/contest/test_submit.py",  # submissions probed in the sandbox against their 100 ms limit
    "arcade/contest/test_run.py",  # contest runs in processes, killed, and their file bots' 100 ms limit
    "arcade/contest/test_watch.py",  # run --watch in a process while submissions arrive
    "arcade/web/test_browser.py",  # headless Chromium, and arcade serve's app processes behind its page
    "arcade/web/test_serve_sessions.py",  # arcade serve's app processes, idle ones closed after 6 s, hung ones killed
    "arcade/contest/test_hog_exact.py",  # strategies asked for every position in the sandbox, against a clock
    "arcade/contest/test_presets.py",  # a season of each preset: file bots in the sandbox, 100 ms to 10 s a move
    "arcade/contest/test_ladder.py",  # ladder runs in processes, killed, and their file bots' 100 ms limit
    "arcade/contest/test_full_disk.py",  # contest runs in a small tmpfs (bubblewrap), their bots' 100 ms limit
    "arcade/test_hostile_folders.py",  # hostile folders through match, tournament, install, R, submit: processes
    "bots/external/test_programs.py",  # CS4341 programs in the sandbox, their referee's 1 s limit
    "arcade/contest/test_cs4341.py",  # a season of CS4341 programs in the sandbox, its closing stage
})
"""Test files (their paths under tests/) whose tests start processes against a clock or a memory
cap (not the README's commands, tests/architecture/test_readme.py: each runs for its budget and
passes slow or fast, so they share the workers). The suite runs in parallel (pytest-xdist, ``-n auto --dist loadgroup`` in pyproject.toml);
these files' tests go to one worker, one at a time, so that two of them never compete for the
machine."""


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items) -> None:
    for item in items:
        if item.path.relative_to(TESTS).as_posix() in ONE_AT_A_TIME:
            item.add_marker(pytest.mark.xdist_group("processes"))


@pytest.fixture(autouse=True)
def pinned_environment(monkeypatch, tmp_path):
    """Snapshots must not depend on the user's environment or on timing."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TEXTUAL_THEME", raising=False)
    # what the arcade remembers (last setups, the theme) goes to a temporary directory, never
    # the real home, and starts empty in every test
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
    monkeypatch.setattr(Pacing, "BOT_DELAY", 0)
    monkeypatch.setattr(Pacing, "WATCH_DELAY", 0)
    monkeypatch.setattr(Pacing, "CHANCE_DELAY", 0)
    monkeypatch.setattr(Pacing, "DICE_LOOK", 0)
    monkeypatch.setattr(Pacing, "FORCED_DELAY", 0)
    # A text cursor blinks every half second: a picture taken later than that on a busy machine
    # would catch it hidden. In tests it stays shown (the blink is Textual's, not the arcade's).
    monkeypatch.setattr(Input, "_toggle_cursor", _cursor_shown)
    monkeypatch.setattr(TextArea, "_toggle_cursor_blink_visible", _cursor_shown)


def _cursor_shown(widget) -> None:
    widget._cursor_visible = True


def make_app(start_game: str | None = None, seed: int = 0) -> ArcadeApp:
    """The arcade with a fixed theme and seed (use for snapshots and Pilot tests)."""
    app = ArcadeApp(start_game=start_game, seed=seed)
    app.theme = THEME
    return app


async def open_game(pilot, game_id: str, players: tuple[str, str], wait: bool = True, **settings) -> GameScreen:
    """Push a game screen straight away (skipping menu and setup) and, if ``wait``, let it settle."""
    entry = CATALOG[game_id]
    defaults = {option.key: option.default for option in entry.load().options}
    defaults.update(settings)
    screen = GameScreen(entry, players, defaults)
    await pilot.app.push_screen(screen)
    if wait:
        await settle(pilot)
    else:
        await pilot.pause()
    return screen


async def settle(pilot) -> None:
    """Wait until bots have answered and the screen has redrawn.

    A bot's worker is exclusive in its group: when its answer is played and the next bot starts
    thinking before the finished thread has been marked done, Textual cancels the old worker.
    That worker had nothing left to do, so a cancelled worker is not a failure here; a worker
    that raised still is (``WorkerFailed``).
    """
    for _ in range(3):
        await pilot.pause()
        for worker in list(pilot.app.workers):
            try:
                await worker.wait()
            except WorkerCancelled:
                pass
    await pilot.pause()


async def wait_until(pilot, condition, deadline: float = 60.0, what: str = "the condition") -> float:
    """Let the app run until ``condition()`` holds; the seconds it took. The deadline is generous
    (a busy machine is slow, never wrong): a test waits for the event, not for a fixed time."""
    import time

    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < deadline, f"{what} did not happen in {deadline:.0f} s"
        await pilot.pause(0.05)
    return time.monotonic() - start


HUMANS = ("human", "human")
SIZE = (80, 24)


def play_moves(screen: GameScreen, moves) -> None:
    """Play ``moves`` (moves and chance outcomes) on the screen as if chosen, rolled and shown."""
    for move in moves:
        screen.push(screen.game.play(screen.state, move))


def random_step(screen: GameScreen, rng) -> None:
    """Play one random step on the screen: a legal move, or a chance state's outcome drawn (not
    listed: Hog's ten dice have 6^10 outcomes)."""
    from games.base import CHANCE

    state, game = screen.state, screen.game
    play_moves(screen, [game.sample_chance(state, rng) if state.to_move == CHANCE
                        else rng.choice(list(game.legal_moves(state)))])


def snapshot_after(snap_compare, game_id: str, moves=(), keys=(), players=HUMANS, size=SIZE, **settings):
    """Snapshot ``game_id`` after ``moves`` were played and ``keys`` pressed."""

    async def run_before(pilot):
        await pilot.pause()
        screen = await open_game(pilot, game_id, players, **settings)
        play_moves(screen, moves)
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
        await settle(pilot)

    return snap_compare(make_app(), terminal_size=size, run_before=run_before)


async def choose_in_menu(pilot, game_id: str) -> None:
    """On the menu, move the highlight to ``game_id`` and open its setup screen."""
    games = pilot.app.screen.query_one("#games")
    for _ in range(len(CATALOG)):
        if games.get_option_at_index(games.highlighted).id == game_id:
            break
        await pilot.press("down")
    await pilot.press("enter")
    await pilot.pause()


def footer_keys(screen) -> dict[str, str]:
    """The keys the Footer shows: key → description (less the ones it has no room for)."""
    return {key: binding.description for key, binding in _footer_entries(screen).values()}


def _footer_entries(screen) -> dict[str, tuple[str, Binding]]:
    """The Footer's entries: action → (key, binding)."""
    left_out = screen.query_one(FittedFooter).left_out
    shown = {}
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if binding.show and binding.description and action_name(binding.action) not in left_out:
            shown.setdefault(binding.action, (key, binding))
    return shown


def footer_columns(screen) -> int:
    """Columns the Footer's entries take, its command-palette key included."""
    return sum(key_width(screen.app, binding) for _key, binding in _footer_entries(screen).values()) + PALETTE_WIDTH


async def texts_cut(pilot, screen) -> list[str]:
    """The texts on ``screen`` that do not fit their widget: each shown widget that draws text
    itself (a label, a summary, the notes, a board, a panel: a widget without children that does
    not scroll) whose text, wrapped at its width, needs more rows than it has. A widget that
    scrolls (a table, a log, a scrolling box) shows everything by scrolling and is not asked.

    Asked once the app has laid out what it was last told to show (``pilot.pause()``: a text
    just updated, say by a board's read, is laid out when the app's queues are empty, not at
    once): a text is cut only if the layout leaves it cut, never because it was asked between
    an update and its layout (the race a busy machine loses; hence ``async``, taking the pilot)."""
    await pilot.pause()
    from rich.text import Text
    from textual.scroll_view import ScrollView
    from textual.widget import Widget

    from arcade.boards.base import Board

    cut = []
    for widget in screen.query(Widget):
        if widget.children or isinstance(widget, ScrollView) or widget.styles.overflow_y in ("auto", "scroll"):
            continue
        if not widget.display or not widget.visible or widget.region.area == 0:
            continue
        if not all(node.display for node in widget.ancestors if isinstance(node, Widget)):
            continue
        width, rows = widget.content_size.width, widget.content_size.height
        if width <= 0:
            continue
        needed = widget.get_content_height(widget.parent.size, screen.size, width)
        if needed > rows:
            text = str(widget.render())[:60].replace("\n", " ")
            cut.append(f"{widget!r} needs {needed} rows, has {rows}: {text!r}")
        if isinstance(widget, Board):  # a drawing: a line wider than the board is wrapped or cut
            rendered = widget.render()
            lines = rendered.split() if isinstance(rendered, Text) else []
            for line in lines:
                if line.cell_len > width:
                    cut.append(f"{widget!r} has a line of {line.cell_len} columns in {width}: {line.plain!r}")
    return cut
