"""What the arcade remembers (``arcade.memory``): a settings file that is not ours never crashes
the arcade, is never lost, and is said once."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arcade import memory
from arcade.catalog import CATALOG
from arcade.screens.setup import SetupScreen
from tests.conftest import make_app

HOSTILE = [
    b"{not json",
    b"[" * 100_000,  # nesting deeper than the parser's recursion
    b'{"games": ' * 50_000,
    b"\xff\xfe\x00garbage",
    b"[]",
    b'"a string"',
    b"1e999999",
    b'{"games": [], "theme": 7}',
    b'{"games": {"hog": {"players": [1, 2], "settings": [3]}}}',
    b'{"games": {"hog": "x", "othello": {"players": ["human"], "settings": {"1": {}}}}}',
]


def _write(raw: bytes) -> None:
    memory.config_dir().mkdir(parents=True, exist_ok=True)
    (memory.config_dir() / memory.FILE).write_bytes(raw)


# JSON values of any shape: what a hand-edited or foreign settings file may hold
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@pytest.mark.parametrize("raw", HOSTILE, ids=range(len(HOSTILE)))
def test_every_reader_survives_a_hostile_settings_file(raw):
    _write(raw)
    for game_id in CATALOG:
        players, options = memory.last_setup(game_id)
        assert players is None or (len(players) == 2 and all(isinstance(p, str) for p in players))
        assert options is None or isinstance(options, dict)
    assert memory.last_theme() is None or isinstance(memory.last_theme(), str)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200) | JSON.map(lambda value: json.dumps(value).encode()))
def test_random_settings_files_give_defaults_or_what_was_stored(data):
    _write(data)
    for game_id in CATALOG:
        memory.last_setup(game_id)
    memory.last_theme()
    memory.check()
    memory.remember_theme("nord")
    assert memory.last_theme() == "nord"


def test_a_bad_file_is_moved_aside_once_with_a_notice_and_kept_whole():
    raw = b"[" * 100_000
    _write(raw)
    notice = memory.check()
    assert notice is not None and "nested too deeply" in notice and memory.BAD in notice
    assert (memory.config_dir() / memory.BAD).read_bytes() == raw
    assert not (memory.config_dir() / memory.FILE).exists()
    assert memory.check() is None  # said once


def test_saving_over_a_bad_file_keeps_it_aside_first():
    _write(b"{not json")
    memory.remember_theme("nord")
    assert memory.last_theme() == "nord"
    assert (memory.config_dir() / memory.BAD).read_bytes() == b"{not json"


def test_a_good_file_is_left_where_it_is():
    _write(json.dumps({"theme": "nord"}).encode())
    assert memory.check() is None
    assert memory.last_theme() == "nord"
    assert not (memory.config_dir() / memory.BAD).exists()


def test_a_settings_path_that_is_not_a_regular_file_gives_defaults():
    (memory.config_dir() / memory.FILE).mkdir(parents=True)
    assert memory.last_theme() is None and memory.last_setup("hog") == (None, None)
    assert "not a regular file" in (memory.check() or "")


def test_a_huge_settings_file_is_not_read_whole():
    _write(b" " * (memory.MAX_BYTES + 10) + b"{}")
    assert memory.load() == {}
    assert "bytes" in (memory.check() or "")


async def test_the_app_starts_over_a_malformed_settings_file_and_says_so():
    _write(b'{"games": ' * 50_000)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert any("Settings file was unusable" in m for m in messages), messages
    assert (memory.config_dir() / memory.BAD).exists()


@pytest.mark.parametrize("game_id", list(CATALOG))
async def test_the_setup_screen_opens_over_stored_values_of_any_type(game_id):
    options = {option.key: {"not": ["a", "value"]} for option in CATALOG[game_id].load().options}
    _write(json.dumps({"games": {game_id: {"players": ["no such bot", "x[/]y"], "settings": options}}}).encode())
    app = make_app(start_game=game_id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
