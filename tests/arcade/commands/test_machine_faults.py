"""Faults of the machine, not of a bot: an output path that cannot be written (a read-only
folder, ``/dev/full``, a FIFO, a directory) is one line before any game; a disk that fills up
mid-run stops it with one line, the record whole and resumable, and the secret seed said; a bots'
log folder that cannot be written stops no bot; the app's failed writes are notices."""

from __future__ import annotations

import errno
import json
import os
import subprocess
from pathlib import Path

import pytest

from arcade import cli
from arcade.records.log import RecordLog

BOTS = ("perfect", "random", "always_1")


def run(*args: str) -> int:
    return cli.main(list(args))


@pytest.fixture
def mounted(tmp_path):
    """``mount(options)``: a small tmpfs of its own (root only; skipped where it cannot be made)."""
    points = []

    def mount(options: str) -> Path:
        point = tmp_path / f"mnt{len(points)}"
        point.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)], capture_output=True)
        if done.returncode:
            pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
        points.append(point)
        return point

    yield mount
    for point in reversed(points):
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


def special_paths(tmp_path: Path, mounted) -> dict[str, Path]:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    paths = {"/dev/full": Path("/dev/full"), "a FIFO": fifo, "a directory": folder,
             "no folder": tmp_path / "missing" / "out"}
    if os.geteuid() == 0:
        paths["read-only"] = mounted("ro,size=64k") / "out"
    else:
        readonly = tmp_path / "readonly"
        readonly.mkdir(mode=0o555)
        paths["read-only"] = readonly / "out"
    return paths


@pytest.mark.parametrize("option", ["--record", "--csv"])
def test_an_output_that_cannot_be_written_is_one_line_before_any_game(tmp_path, mounted, capsys, option):
    for what, path in special_paths(tmp_path, mounted).items():
        status = run("tournament", "toothpicks", *BOTS, "--games", "2", "--jobs", "1", option, str(path))
        out, err = capsys.readouterr()
        assert status == 2, (what, out, err)
        assert err.startswith("arcade: error: ") and err.count("\n") == 1, (what, err)
        assert str(path) in err and out == "", (what, out)
        assert not (path.parent.exists() and path.name == "out" and path.exists()), what  # nothing left behind


def test_the_match_refuses_a_special_record_before_any_game(tmp_path, capsys):
    for path in ("/dev/full", str(tmp_path)):
        assert run("match", "toothpicks", "perfect", "random", "--games", "2", "--record", path) == 2
        out, err = capsys.readouterr()
        assert err.count("\n") == 1 and "not a regular file" in err and out == ""


def _full_after(monkeypatch, lines: int) -> list[int]:
    """Make the record's writes fail with ENOSPC after ``lines`` lines (the header counts)."""
    written = [0]
    real = RecordLog._write

    class Filling:
        """The file as a disk that has room for 10 more bytes."""

        def __init__(self, handle) -> None:
            self.handle, self.room = handle, 10

        def fileno(self) -> int:
            return self.handle.fileno()

        def write(self, data) -> int:
            if not self.room:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            done = self.handle.write(bytes(data[:self.room]))
            self.room -= done
            return done

    def write(handle, value):
        if written[0] >= lines:
            real(Filling(handle), value)  # a part of the line reaches the disk, then the disk is full
        written[0] += 1
        real(handle, value)

    monkeypatch.setattr(RecordLog, "_write", staticmethod(write))
    return written


def standings(path: Path) -> list:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_a_disk_filling_mid_tournament_stops_it_and_the_record_resumes(tmp_path, monkeypatch, capsys):
    """The writes fail after 5 games: one line (the file, the cause, how to resume, the secret
    seed), exit 2, the record holding those 5 games whole; the same command then finishes the
    tournament with the standings of an uninterrupted run of that seed."""
    record = tmp_path / "r.jsonl"
    args = ("tournament", "toothpicks", *BOTS, "--games", "4", "--jobs", "1", "--record", str(record), "--json")
    with monkeypatch.context() as patch:
        _full_after(patch, 6)
        assert run(*args) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    assert "No space left on device" in err and "run the same command again" in err and "secret seed" in err
    seed = int(err.split("secret seed ")[1].split(":")[0])
    assert json.loads(record.read_text().splitlines()[0])["seed"] == seed
    assert len(standings(record)) == 5 and record.read_bytes().endswith(b"\n")  # whole lines only
    assert run(*args) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert run("tournament", "toothpicks", *BOTS, "--games", "4", "--jobs", "1", "--seed", str(seed), "--json") == 0
    fresh = json.loads(capsys.readouterr().out)
    assert resumed["standings"] == fresh["standings"] and resumed["seed_was_secret"]
    assert len(standings(record)) == 12


def test_a_disk_filling_mid_match_stops_it_with_the_seed(tmp_path, monkeypatch, capsys):
    record = tmp_path / "m.jsonl"
    args = ("match", "toothpicks", "perfect", "random", "--games", "6", "--record", str(record))
    with monkeypatch.context() as patch:
        _full_after(patch, 3)
        assert run(*args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the match stopped" in err and "secret seed" in err
    assert len(standings(record)) == 2
    assert run(*args, "--json") == 0
    assert json.loads(capsys.readouterr().out)["games"] == 6 and len(standings(record)) == 6


def test_a_real_full_disk_stops_the_tournament_cleanly(tmp_path, mounted, capsys):
    """A tmpfs of 16 KiB fills up with the record's lines (Othello's are long): the run stops,
    the record resumes once there is room."""
    folder = mounted("size=16k")
    record = folder / "r.jsonl"
    args = ("tournament", "toothpicks", *BOTS, "--games", "40", "--jobs", "1", "--record", str(record), "--json")
    assert run(*args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No space left on device" in err and "secret seed" in err
    kept = record.read_bytes()
    assert kept.endswith(b"\n") and all(json.loads(line) for line in kept.splitlines())
    subprocess.run(["mount", "-o", "remount,size=4m", str(folder)], check=True)
    assert run(*args) == 0
    assert json.loads(capsys.readouterr().out)["games_per_pair"] == 40


def test_a_bots_log_folder_that_cannot_be_written_is_one_line_before_any_game(tmp_path, monkeypatch, capsys):
    bot = tmp_path / "bot.py"
    bot.write_text("def strategy(left):\n    return 1\n")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    for folder in (blocker / "logs", Path("/dev/full"), Path("/proc/arcade-logs")):
        monkeypatch.setenv("ARCADE_BOT_LOGS", str(folder))
        assert run("match", "toothpicks", f"{bot}:strategy", "random", "--games", "2", "--sandbox", "none") == 2
        out, err = capsys.readouterr()
        assert err.count("\n") == 1 and "cannot write the file bots' logs" in err and str(folder) in err, err


def test_a_log_that_cannot_be_opened_drops_the_output_and_the_bot_plays(tmp_path):
    """Past the pre-flight (the folder went away, a disk filled): the bot's output is read and
    dropped, never blocking it, and its game goes on."""
    from bots.external import file_entry
    from bots.limits import Limits
    from games.toothpicks import Toothpicks

    bot = tmp_path / "bot.py"
    bot.write_text("def strategy(left):\n    print('x' * 100000)\n    return 1\n")
    logs = tmp_path / "file-not-folder"
    logs.write_text("")
    entry = file_entry("toothpicks", f"{bot}:strategy", Limits(sandbox="none"), logs=logs)
    try:
        from arcade.match import run_match
        from bots.registry import resolve

        summary = run_match(Toothpicks(), (entry, resolve("toothpicks", "random")), games=2, seed=1)
    finally:
        entry.close()
    assert summary.forfeits == [0, 0] or summary.forfeits == (0, 0)


async def test_the_app_says_a_screenshot_that_cannot_be_saved(tmp_path):
    from tests.conftest import make_app, wait_until

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.deliver_screenshot(path=str(tmp_path / "a-file" / "no"), filename="x.svg")
        await wait_until(pilot, lambda: bool(app._notifications), what="the notice")
        notes = list(app._notifications)
        assert notes and notes[-1].severity == "error"


async def test_the_app_says_a_setup_it_cannot_remember_and_plays(tmp_path, monkeypatch):
    from tests.conftest import make_app, settle

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocker / "config"))
    app = make_app("toothpicks")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.screen.action_start()
        await settle(pilot)
        assert type(app.screen).__name__ == "GameScreen"
        notes = [n for n in app._notifications if n.title == "Settings"]
        assert notes and "cannot write" in notes[-1].message and "not remembered" in notes[-1].message
