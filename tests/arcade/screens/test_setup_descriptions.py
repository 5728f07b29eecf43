"""The setup screen's descriptions (a bot's, "bot from a file…"'s course signature, a preset's)
wrap at word and identifier boundaries at 80×24, never mid-name (``strategy(toothpicks_le`` /
``ft)``): ``arcade.widgets.wrapped``, checked over every game's every choice."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from textual.geometry import Region
from textual.widgets import Select

from arcade.catalog import CATALOG
from arcade.widgets.wrapped import WrappedLabel, wrap_at_boundaries
from tests.conftest import make_app

NAME = re.compile(r"[A-Za-z0-9_]+")


def shown_lines(label: WrappedLabel) -> list[str]:
    """The label's lines as drawn (its padding stripped)."""
    width, height = label.outer_size
    return [strip.text.strip() for strip in label.render_lines(Region(0, 0, width, height))]


def broken_names(text: str, lines: list[str], width: int) -> list[str]:
    """Names (identifiers, words) of ``text`` no longer than a line that no drawn line holds whole."""
    return [name for name in NAME.findall(text)
            if len(name) <= width and not any(re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", line) for line in lines)]


@pytest.mark.parametrize("game_id", list(CATALOG))
async def test_every_description_on_the_setup_screen_breaks_only_between_names(game_id):
    app = make_app(start_game=game_id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        select = screen.query_one("#side-0", Select)
        label = screen.query_one("#about-0", WrappedLabel)
        checked = 0
        for _prompt, value in list(select._options):
            select.value = value
            await pilot.pause()
            await pilot.pause()
            text = screen.describe(str(value))
            assert label.text == text
            lines = shown_lines(label)
            width = label.content_region.width
            assert all(cell_len(line) <= width for line in lines), lines
            assert broken_names(text, lines, width) == [], (value, lines)
            assert "".join(text.split()) == "".join("".join(lines).split())  # nothing lost
            checked += 1
        assert checked >= 3  # human, the bots, a bot from a file
        if screen.game_cls.presets:
            preset = screen.query_one("#preset-about", WrappedLabel)
            for name in list(screen.game_cls.presets) + [screen.CUSTOM]:
                screen.query_one("#preset", Select).value = name
                await pilot.pause()
                await pilot.pause()
                lines = shown_lines(preset)
                assert broken_names(preset.text, lines, preset.content_region.width) == [], lines


def test_toothpicks_signature_breaks_after_its_bracket():
    assert wrap_at_boundaries("your strategy(toothpicks_left) -> take, run in a process of its own", 20) == [
        "your strategy(", "toothpicks_left) ->", "take, run in a", "process of its own"]


@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from(" (_,/"), max_size=80),
       st.integers(1, 40))
def test_wrapped_lines_fit_keep_every_character_and_break_no_word_that_fits(text, width):
    text = text.replace("\n", " ")
    lines = wrap_at_boundaries(text, width)
    assert all(cell_len(line) <= max(width, 2) for line in lines)
    assert "".join("".join(lines).split()) == "".join(text.split())
    for word in text.split():
        if cell_len(word) <= width:
            assert word in lines or any(re.search(rf"(^| ){re.escape(word)}( |$)", line) for line in lines)
