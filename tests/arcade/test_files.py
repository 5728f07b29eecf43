"""Files the arcade writes whole (``arcade.files.write_whole``): a reader that looks at any moment
finds the old text or the new, never an empty or partial file; a write that fails leaves the old
file and nothing beside it; and every writer of a file another process reads while it changes
uses it (a scan of the code for the other ways to write a file)."""

from __future__ import annotations

import os
import re
import threading

import pytest
from hypothesis import given, settings, strategies as st

from arcade.files import write_whole
from tests.paths import ROOT


def test_a_reader_never_sees_a_file_being_written(tmp_path):
    target = tmp_path / "closing.json"
    texts = [("x" * n + "\n") for n in (1, 4000, 70_000)]  # up to past one write's page
    write_whole(target, texts[0])
    seen, done = set(), threading.Event()

    def reader():
        while not done.is_set():
            seen.add(target.read_text())

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for i in range(600):
            write_whole(target, texts[i % 3])
    finally:
        done.set()
        thread.join()
    assert seen <= set(texts) and len(seen) >= 2
    assert [p.name for p in tmp_path.iterdir()] == ["closing.json"]


@settings(max_examples=40, deadline=None)
@given(st.one_of(st.binary(max_size=3000), st.text(max_size=500)))
def test_any_bytes_or_text_are_written_as_given(tmp_path_factory, data):
    target = tmp_path_factory.mktemp("w") / "deep" / "f"
    write_whole(target, data)
    assert target.read_bytes() == (data.encode("utf-8") if isinstance(data, str) else data)
    assert os.stat(target).st_mode & 0o777 == 0o644


def test_a_write_that_fails_leaves_the_old_file_and_nothing_beside_it(tmp_path, monkeypatch):
    target = tmp_path / "contest.toml"
    write_whole(target, "old")

    def full_disk(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError, match="No space"):
        write_whole(target, "new")
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["contest.toml"]


WRITERS = re.compile(r"\.write_text\(|\.write_bytes\(|open\([^)]*[\"'][wax]b?[\"']")
ALLOWED = {
    "arcade/cli.py",  # stdout to /dev/null after a broken pipe
    "arcade/tournament/runner.py",  # a worker's stdout to /dev/null
    "arcade/commands/tournament.py",  # --csv: the user's own file, written once at the end
    "arcade/web/serve.py",  # the served app's templates, in its own temporary folder before it starts
    "arcade/records/reader.py",  # a record opened to append (whole lines: records.log)
    "arcade/records/log.py",  # a damaged record's repair, written beside it and renamed over it
    "arcade/contest/config.py",  # the contest's secret, created (O_EXCL) before anything reads it
}


def test_the_arcade_writes_files_others_read_only_whole():
    """Every ``write_text``/``open(…, 'w')`` in the arcade is one of the few that no other process
    reads while it changes: a new writer of a shared file must use ``write_whole``."""
    found = {}
    for path in sorted((ROOT / "arcade").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if WRITERS.search(line.split("#")[0]):
                found.setdefault(name, []).append(number)
    assert set(found) - ALLOWED - {"arcade/files.py"} == set(), found
