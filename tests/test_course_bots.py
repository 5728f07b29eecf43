"""Students' files in the courses' own shapes play unchanged: the function found by the contest's
name (``final_strategy`` in Hog, ``engine`` in Robot Ludo), and course-shaped sample submissions
(``tests/course_bots/``), each copied to a folder of its own, played through ``arcade match``
with and without the sandbox."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bots.adapters import ADAPTERS


def test_the_contests_names_come_first():
    assert ADAPTERS["hog"].default_functions == ("final_strategy", "strategy")
    assert ADAPTERS["ludo"].default_functions == ("engine", "your_engine")
    assert ADAPTERS["dfootball"].default_functions == ("my_strategy", "strategy")
    assert ADAPTERS["toothpicks"].default_functions == ADAPTERS["othello"].default_functions == ("strategy",)
    for adapter in ADAPTERS.values():
        assert adapter.default_function == adapter.default_functions[0]
        assert adapter.signature.startswith(adapter.default_function + "(")


def final(score, opponent_score):
    return 4


def plain(score, opponent_score):
    return 5


@pytest.mark.parametrize("module, name, found", [
    (SimpleNamespace(final_strategy=final, strategy=plain), "final_strategy", final),
    (SimpleNamespace(strategy=plain), "final_strategy", plain),  # the fallback
    (SimpleNamespace(strategy=plain), "mine", None),  # a name of the student's own: no fallback
    (SimpleNamespace(mine=final, strategy=plain), "mine", final),
    (SimpleNamespace(), "final_strategy", None),
])
def test_a_hog_file_without_final_strategy_plays_its_strategy(module, name, found):
    assert ADAPTERS["hog"].find_function(module, name) is found
