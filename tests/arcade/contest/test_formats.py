"""A season's format is one strategy object (``arcade.contest.formats``): the runner, the board
model, ``status`` and the views ask it, and nothing else branches on the format's or the scoring's
name (a scan of the contest's code, its site, its command and its screen)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from arcade.contest import config as config_module, formats
from arcade.contest.boardmodel import tally
from arcade.contest.config import Config
from arcade.contest.db import Submission

ROOT = Path(__file__).resolve().parents[3]
SCANNED = [*sorted((ROOT / "arcade" / "contest").glob("*.py")), *sorted((ROOT / "arcade" / "web").glob("*.py")),
           ROOT / "arcade" / "commands" / "contest.py", ROOT / "arcade" / "screens" / "contest.py"]
OWNER = ROOT / "arcade" / "contest" / "formats.py"


def test_the_config_names_exactly_the_formats_there_are():
    assert config_module.FORMATS == tuple(formats.FORMATS)
    for name in (*config_module.FORMATS, *config_module.SCORINGS):
        assert name in config_module.FIELDS, name


def branches(path: Path) -> list[str]:
    """Each comparison of a ``.format`` or ``.scoring`` attribute with a string in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        named = [s for s in sides if isinstance(s, ast.Attribute) and s.attr in ("format", "scoring")]
        strings = [s for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
        if named and strings:
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_the_scan_finds_a_branch_on_a_formats_name(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('if config.format == "ladder":\n    pass\nif "exact" != snap.config.scoring:\n    pass\n')
    assert len(branches(sample)) == 2


def test_nothing_but_the_formats_branches_on_a_formats_name():
    assert OWNER in SCANNED
    found = [where for path in SCANNED if path != OWNER for where in branches(path)]
    assert not found, "ask arcade.contest.formats.format_of(config) instead: " + ", ".join(found)


@pytest.mark.parametrize("format_, scoring", [("all-pairs", "wins"), ("all-pairs", "exact"), ("ladder", "wins")])
def test_each_format_owns_its_columns_its_score_and_its_counting(format_, scoring):
    config = Config(game="hog", games=4, format=format_, scoring=scoring)
    rules = formats.format_of(config)
    keys = [column.key for column in rules.columns()]
    assert keys[:2] == ["rank", "team"]
    assert keys[2] == ("rating" if format_ == "ladder" else "score")
    assert ("draws" in keys) == (scoring == "wins")
    assert ("vs_always_roll_6" in keys and "computed" in keys) == (scoring == "exact")
    assert set(rules.data_columns()) >= {"rank", "team", "score", "wins", "games"}
    # three teams; a and b met twice (a won both), c met nobody on the board but a replaced digest
    subs = [Submission(1, "a", "d" * 64, "x.py", "01-01", "accepted", ""),
            Submission(2, "b", "e" * 64, "x.py", "01-01", "accepted", ""),
            Submission(3, "c", "f" * 64, "x.py", "01-01", "accepted", "")]
    games = [("d" * 64, "e" * 64, 1, 0, None, ""), ("d" * 64, "e" * 64, 2, 0, None, ""),
             ("f" * 64, "0" * 64, 1, 0, None, "")]
    board = tally(config, subs, games, exact={("e" * 64, "f" * 64): 0.75},
                  tabled={"d" * 64: (0.5, ""), "e" * 64: (0.6, ""), "f" * 64: (0.4, "too slow")},
                  ratings={"d" * 64: (30.0, 2.0)})
    rows = {row.team: row for row in board.rows}
    # a ladder counts a row's every game (its rating does); all pairs only those on the board
    assert rows["c"].games == (1 if format_ == "ladder" else 0)
    if format_ == "ladder":
        assert rows["a"].score == 30.0 and rows["a"].uncertainty == 2.0 and rows["b"].rating == 25.0
    elif scoring == "exact":
        assert rows["b"].score == 0 + 3.0 and rows["c"].score == 1.0 and rows["b"].computed == 1
        assert rows["c"].scored == "sampled" and any("c: scored by sampled games: too slow" in line
                                                     for line in board.notes("calc", "vs ar6"))
        assert "computed from the two strategies' tables" in board.cross_note()
        assert board.teams["c"].scoring == "scored by sampled games: too slow"
    else:
        assert (rows["a"].score, rows["b"].score) == (2, 0) and board.notes("calc", "vs ar6") == []
        assert board.teams["a"].scoring == ""
