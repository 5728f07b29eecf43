"""ARCHITECTURE.md reads true against the tree: every path it names exists (but a path it says a
file was, before a move), and its map of the tests names every test file, each once."""

from __future__ import annotations

import re

from tests.paths import ROOT, TESTS

DOC = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
ROOMS = ("arcade/", "bots/", "games/", "tests/", "bench/", "training/", "docs/", "examples/", ".ci/")
FORMER = re.compile(r"\(was `[^`]+`\)|before `[^`]+` and `[^`]+` became")
"""Where the document names a file as it was before a move."""


def named_paths(text: str) -> set[str]:
    """The repository paths written in backticks (``path`` or ``path:name``), but templates
    (``games/<id>.py``) and globs."""
    found = set()
    for token in re.findall(r"`([^`\s]+)`", FORMER.sub("", text)):
        path = token.split(":")[0].rstrip(",.")
        if path.startswith(ROOMS) and not set("<>*{}") & set(path):
            found.add(path)
    return found


def test_every_path_the_document_names_exists():
    missing = sorted(path for path in named_paths(DOC) if not (ROOT / path).exists())
    assert not missing, f"ARCHITECTURE.md names paths that are not in the tree: {missing}"


def test_the_map_of_the_tests_names_every_test_file_once():
    mapped = re.findall(r"^\| `(tests/[^`]+\.py)` \|", DOC, flags=re.M)
    on_disk = sorted(str(path.relative_to(ROOT)) for path in TESTS.rglob("test_*.py")
                     if "__snapshots__" not in path.parts and path.parent != TESTS / "course_bots")
    assert sorted(mapped) == on_disk
    assert len(set(mapped)) == len(mapped)


def test_the_check_sees_a_missing_path_and_skips_a_former_one():
    text = "`arcade/nowhere.py` and `bots/base.py:Bot`, `games/<id>.py`, (was `arcade/records.py`)"
    assert named_paths(text) == {"arcade/nowhere.py", "bots/base.py"}
