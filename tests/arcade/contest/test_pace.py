"""A season's pace (``arcade.contest.pace``): what its games cost, each bot's answering apart from
the rest, and ``status``'s estimate of a newcomer's games at the newcomer's own pace."""

from __future__ import annotations

import json
import re
import time

import pytest
from hypothesis import given, settings, strategies as st

from arcade.contest import pace
from arcade.contest.run import run
from arcade.contest.submit import submit
from tests.arcade.contest.helpers import arcade, bot


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


def test_a_bots_share_comes_from_its_games_else_its_probe_else_the_field(tmp_path):
    thinking = pace.Thinking()
    for _ in range(10):
        thinking.add("slow", "fast", [0.05, 0.001] * 10)  # slow thinks 50 ms a move, fast 1 ms
    for _ in range(10):
        thinking.add("fast", "other", [0.001] * 20)
    pace.record(tmp_path, 20, 20 * 0.4, 1, thinking=thinking)
    (tmp_path / "probes").mkdir()
    (tmp_path / "probes" / "newcomer.json").write_text(json.dumps({"move_seconds": 0.1, "moves": 6}))
    measured = pace.measured(tmp_path)
    assert measured is not None and measured.games == 20 and measured.game == pytest.approx(0.4)
    assert measured.think == pytest.approx((10 * 0.51 + 10 * 0.02) / 20) and measured.answers == 20
    assert measured.rest == pytest.approx(0.4 - measured.think - 3 * pace.LOAD / 20)  # three bots loaded once
    half = measured.think / 2
    assert measured.side(tmp_path, "slow") == pytest.approx(0.51 - half)
    assert measured.side(tmp_path, "newcomer") == pytest.approx(0.1 * 20 / 2)  # its probe's 100 ms a move, 10 moves
    assert measured.side(tmp_path, "unknown") == pytest.approx(half)
    assert measured.pair(tmp_path, "newcomer", "slow") > measured.pair(tmp_path, "fast", "other")
    both = measured.left(tmp_path, [(("newcomer", "slow"), 4), (("newcomer", "fast"), 2)])
    assert both == pytest.approx(4 * measured.pair(tmp_path, "newcomer", "slow")
                                 + 2 * measured.pair(tmp_path, "newcomer", "fast") + 3 * pace.LOAD)


def test_a_pace_adds_up_over_batches_and_keeps_the_last_ones(tmp_path):
    for k in range(pace.KEPT + 5):
        thinking = pace.Thinking()
        thinking.add("a", "b", [0.01, 0.02])
        pace.record(tmp_path, 1, 0.1, 2, thinking=thinking)
    assert len(pace.batches(tmp_path)) == pace.KEPT
    assert pace.bots(tmp_path) == {"a": (pace.KEPT + 5, pytest.approx(0.03 * (pace.KEPT + 5))),
                                   "b": (pace.KEPT + 5, pytest.approx(0.03 * (pace.KEPT + 5)))}
    pace.record(tmp_path, 0, 0.0, 1, start=1.25)  # a run's start: the batches stay
    assert pace.run_start(tmp_path) == 1.25 and len(pace.batches(tmp_path)) == pace.KEPT
    assert pace.measured(tmp_path).game == pytest.approx(0.2)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=25)


@settings(max_examples=150, deadline=None)
@given(data=st.dictionaries(st.sampled_from(["batches", "start", "bots", "x"]), JSON, max_size=4))
def test_a_pace_file_of_any_shape_is_read_without_a_fault(tmp_path_factory, data):
    """``pace.json`` is an estimate's input: whatever it holds (a hand edit, an old format), it
    is read as what it validly says, never a traceback, and a new batch is added to it."""
    folder = tmp_path_factory.mktemp("p")
    (folder / pace.PACE).write_text(json.dumps(data))
    found = pace.measured(folder)
    assert found is None or (found.game >= 0 and found.think >= 0 and found.rest >= 0)
    assert pace.run_start(folder) >= 0
    pace.record(folder, 3, 0.3, 1)
    assert pace.measured(folder).games >= 3


def seconds_of(line: str) -> float:
    value, unit = re.search(r"about ([\d.]+) (s|min|h|days) on one process", line).groups()
    return float(value) * {"s": 1, "min": 60, "h": 3600, "days": 86400}[unit]


def test_status_estimates_a_slow_newcomer_at_its_own_pace(tmp_path):
    """A field of quick bots plays; a newcomer that thinks 15 ms a move is submitted: its probe's
    pace says so, and ``status`` estimates its games from it, not from the quick field's games
    (which would say a fraction of what the run then takes)."""
    from arcade.contest.status import status_lines

    folder = tmp_path / "c"
    arcade("contest", "new", str(folder), "--preset", "stats306", "--games", "6", "--sandbox", "none")
    for name in ("far", "near", "middle"):
        submit(folder, name, bot(tmp_path, name))
    run(folder, say=lambda line: None)
    field = pace.measured(folder)
    slow = tmp_path / "slowest.py"
    slow.write_text("import time\nfrom games.dfootball import valid_moves\n\ndef strategy(game):\n"
                    "    time.sleep(0.015)\n    return valid_moves(game)[-1]\n")
    assert submit(folder, "slowest", str(slow)).accepted
    said = seconds_of(status_lines(folder)[-1])
    started = time.monotonic()
    run(folder, say=lambda line: None)
    took = time.monotonic() - started
    assert said > 18 * field.game * 1.5  # its 18 games at well over the field's pace
    assert took / 3 < said < took * 3, (said, took)  # the bench holds it to 1.5x on a quiet machine
