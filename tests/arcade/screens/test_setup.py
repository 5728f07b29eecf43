"""The setup screen: the focused field shows in every theme, option errors name the option, each
game's defaults, and the last choices (and the theme) remembered per game."""

from __future__ import annotations

import asyncio

import pytest
from textual.color import Color
from textual.widgets import Input, Label, Select

from arcade.screens.setup import SetupScreen
from tests.conftest import SIZE, make_app, settle, wait_until


def _distance(a: Color, b: Color) -> float:
    return sum((x - y) ** 2 for x, y in zip(a.rgb, b.rgb)) ** 0.5


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light", "nord", "gruvbox", "solarized-light"])
async def test_the_focused_setup_field_stands_out_in_every_theme(theme):
    app = make_app(start_game="othello")
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        await pilot.press("tab")  # Player 2's choice
        await pilot.pause()
        focused = screen.focused
        assert isinstance(focused, Select) and focused.id == "side-1"
        labels = list(screen.query(".setup-label").results(Label))
        marked = [label for label in labels if str(label.content).startswith("▸")]
        assert [str(label.content).strip("▸ ") for label in marked] == [app.screen.game_cls.sides[1].name]
        # the marked label's background is the accent, far from the screen's own
        background = screen.styles.background
        label_bg = marked[0].styles.background
        assert _distance(label_bg, background) > 100
        unmarked = [label for label in labels if label not in marked]
        assert all(label.styles.background.a == 0 or label.styles.background == background for label in unmarked)


async def test_an_option_error_names_the_options_label_not_its_key():
    app = make_app(start_game="dfootball")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        field = app.screen.query_one("#option-n", Input)
        field.value = "40"
        await pilot.press("ctrl+s")
        await pilot.pause()
        error = str(app.screen.query_one("#setup-error").render())
        assert "Players a side must be 1–15, not '40'" in error
        assert "'n'" not in error
        assert app.screen.focused is field


async def test_othello_setup_starts_quick_and_offers_the_contests_time_limit():
    from arcade.screens.game import GameScreen
    from games.othello import TIME_LIMIT, Othello

    assert Othello().time_limit == TIME_LIMIT == 10.0  # the command line and matches keep the contest's
    app = make_app(start_game="othello")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        field = app.screen.query_one("#option-time_limit", Select)
        assert field.value == "1.0"
        assert ("10 s · the contest's", "10.0") in [(str(label), value) for label, value in field._options]
        field.value = "10.0"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.screen.game.time_limit == 10.0


async def test_setup_remembers_the_last_players_and_options_per_game_and_the_theme(tmp_path, monkeypatch):
    import json

    from arcade import memory
    from arcade.screens.game import GameScreen

    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # nothing may go to the real home
    assert memory.config_dir() == tmp_path / "config" / "contest-arcade"
    app = make_app(start_game="toothpicks")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.query_one("#side-1", Select).value = "random"
        app.screen.query_one("#option-count", Input).value = "21"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        app.theme = "nord"
        await pilot.pause()
    saved = json.loads((memory.config_dir() / "settings.json").read_text())
    assert saved["games"]["toothpicks"] == {"players": ["human", "random"], "settings": {"count": 21, "max_take": 2}}
    assert saved["theme"] == "nord"
    assert not (tmp_path / "home").exists()
    app = make_app(start_game="toothpicks")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "nord"
        assert app.screen.query_one("#side-1", Select).value == "random"
        assert app.screen.query_one("#option-count", Input).value == "21"
    app = make_app(start_game="hog")  # another game: its own defaults
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#side-0", Select).value == "human"


def test_a_broken_settings_file_is_ignored():
    from arcade import memory

    memory.config_dir().mkdir(parents=True)
    (memory.config_dir() / "settings.json").write_text("{not json")
    assert memory.last_setup("hog") == (None, None) and memory.last_theme() is None
    memory.remember_theme("nord")
    assert memory.last_theme() == "nord"


def test_setup_focus_shows_in_a_light_theme(snap_compare):
    """Defect 1: the focused field's row is marked (▸, reversed label, tinted field)."""

    async def run_before(pilot):
        pilot.app.theme = "textual-light"
        await pilot.pause()
        await pilot.press("tab", "tab")  # Player 1, Player 2, then the first option
        await pilot.pause()
        await asyncio.sleep(0.7)  # as a busy machine would: past a cursor blink, the same picture

    assert snap_compare(make_app(start_game="toothpicks"), terminal_size=SIZE, run_before=run_before)


async def test_ludo_setup_offers_the_contest_and_notebook_presets():
    """The preset fills in Robot Ludo's options (the game starts with them); editing an option
    away from the preset makes the choice custom; a remembered setup shows its preset."""
    from arcade.screens.game import GameScreen

    app = make_app(start_game="ludo")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        preset = app.screen.query_one("#preset", Select)
        assert preset.value == "custom"  # the default 4 on 20 is neither
        assert [str(label) for label, _ in preset._options] == ["contest", "notebook", "custom"]
        about = app.screen.query_one("#preset-about", Label)
        assert str(about.content) == "the options below"
        preset.value = "notebook"
        await settle(pilot)
        assert str(about.content) == "counters 10 · length 20 · safe none"
        assert [app.screen.query_one(f"#option-{key}", Input).value for key in ("counters", "length", "safe")] == [
            "10", "20", ""]
        app.screen.query_one("#option-counters", Input).value = "9"
        await settle(pilot)
        assert preset.value == "custom"
        preset.value = "contest"
        await settle(pilot)
        assert preset.value == "contest" and str(about.content) == "counters 12 · length 36 · safe 9,27"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert dict(app.screen.game.settings) == {"counters": 12, "length": 36, "safe": (9, 27), "starting": "red"}
    app = make_app(start_game="ludo")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#preset", Select).value == "contest"


async def test_setup_says_what_each_option_accepts_as_the_other_fields_stand():
    """Othello's time limit offers choices (not '0.1–600.0'); Ludo's safe squares follow the
    track's length (not '0–39' on a 20-square track)."""
    app = make_app(start_game="othello")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert str(app.screen.query_one("#bounds-time_limit", Label).render()) == "one of these"
    app = make_app(start_game="ludo")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bounds = app.screen.query_one("#bounds-safe", Label)
        assert str(bounds.render()).endswith("0–19")
        app.screen.query_one("#option-length", Input).value = "30"
        await pilot.pause()
        assert str(bounds.render()).endswith("0–29")


async def test_the_sandbox_row_sits_under_the_first_side_playing_a_bot_from_a_file():
    app = make_app(start_game="dfootball")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.query_one("#side-0", Select).value = "file"
        await pilot.pause()
        row = screen.query_one("#sandbox-row")
        siblings = list(row.parent.children)
        assert row.display and siblings.index(row) == siblings.index(screen.query_one("#file-row-0")) + 1


async def test_a_bot_file_that_cannot_load_is_said_in_sight_with_a_hint(tmp_path):
    bot = tmp_path / "broken.py"
    bot.write_text("def strategy(state:\n")  # a syntax error: it cannot load
    app = make_app(start_game="dfootball")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.query_one("#side-0", Select).value = "file"
        await pilot.pause()
        screen.query_one("#file-0", Input).value = f"{bot}:strategy"
        screen.query_one("#sandbox", Select).value = "none"
        await pilot.press("ctrl+s")
        error = screen.query_one("#setup-error")
        # "Loading the bot's file…" shows first, while the bot's process tries: wait for its verdict
        await wait_until(pilot, lambda: "could not load" in str(error.render()), what="the load's verdict")
        await pilot.pause()
        text = str(error.render())
        assert "could not load" in text and "Start again" in text
        visible = screen.query_one("#setup").region
        assert error.region.y >= visible.y and error.region.y < visible.bottom
