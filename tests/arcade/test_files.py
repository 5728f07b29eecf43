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


def test_an_exclusive_write_never_replaces_a_file_and_is_whole_when_it_lands(tmp_path):
    target = tmp_path / "secret"
    write_whole(target, "1234\n", mode=0o600, exclusive=True)
    assert target.read_text() == "1234\n" and os.stat(target).st_mode & 0o777 == 0o600
    for existing in (target, tmp_path / "link"):
        if existing.name == "link":
            existing.symlink_to(tmp_path / "elsewhere")  # a link, even a dangling one, is not written through
        with pytest.raises(FileExistsError):
            write_whole(existing, "5678\n", exclusive=True)
    assert target.read_text() == "1234\n" and not (tmp_path / "elsewhere").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "secret"]

    # writers racing for one name: exactly one lands, whole
    racers = [threading.Thread(target=lambda n=n: _try_exclusive(tmp_path / "raced", f"{n}" * 5000)) for n in range(8)]
    for thread in racers:
        thread.start()
    for thread in racers:
        thread.join()
    text = (tmp_path / "raced").read_text()
    assert len(text) == 5000 and len(set(text)) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "raced", "secret"]


def _try_exclusive(target, text):
    try:
        write_whole(target, text, exclusive=True)
    except FileExistsError:
        pass


WRITERS = re.compile(r"\.write_text\(|\.write_bytes\(|open\([^)]*[\"'][wax]b?[\"']")
ALLOWED = {
    "arcade/cli.py",  # stdout to /dev/null after a broken pipe
    "arcade/tournament/runner.py",  # a worker's stdout to /dev/null
    "arcade/commands/tournament.py",  # --csv: the user's own file, written once at the end
    "arcade/web/serve.py",  # the served app's templates, in its own temporary folder before it starts
    "arcade/records/reader.py",  # a record opened to append (whole lines: records.log)
    "arcade/records/log.py",  # a damaged record's repair, written beside it and renamed over it
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
