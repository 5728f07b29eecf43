"""A student's path swapped for a link while the arcade reads it (trust round four): a thread
flips the student's folder between their real folder and a symbolic link to the instructor's
(its ``bot.py`` and ``solutions.txt``) as fast as it can, while each entry point that takes a
student's path reads it again and again: ``arcade contest submit``, the contest's inbox, ``arcade
bot install`` and a tournament's file bots packed for a cluster. Whatever each one reads, accepts
or writes is the student's or nothing: never a byte of the instructor's folder, and nothing
written into it. Every student path goes through one descriptor walk
(``bots.external.safe_files.open_path``), so the class cannot occur where a new entry point uses it.

The student's folder is theirs (owned by another user when the tests run as root; else open to
others' writes), as it is on a course's machine: a link there is one they could have made."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from arcade.contest.db import Database
from tests.arcade.contest.helpers import arcade

SECRET = "INSTRUCTOR SOLUTIONS 4f1c"
STUDENT_BOT = "from games.toothpicks import *\n\ndef strategy(left):\n    return 1\n"
INSTRUCTOR_BOT = f"# {SECRET}\nfrom games.toothpicks import *\n\ndef strategy(left):\n    return 2\n"


def students_own(folder: Path) -> None:
    """``folder`` as a student's: another user's (as root), else writable by others."""
    for top, dirs, files in os.walk(folder):
        for name in [top, *(os.path.join(top, d) for d in dirs), *(os.path.join(top, f) for f in files)]:
            if os.geteuid() == 0:
                os.lchown(name, 65534, 65534)
    if os.geteuid() != 0:
        folder.chmod(0o777)


class Flipper:
    """Swaps ``where`` between the real folder ``real`` and ``link``, a symbolic link to the
    instructor's folder owned by the student (made once, beside it), until stopped: by renames
    alone, so each name is always the student's."""

    def __init__(self, where: Path, real: Path, link: Path) -> None:
        self.where, self.real, self.link = where, real, link
        self.stop = threading.Event()
        self.flips = 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                os.rename(self.real, self.where)
                os.rename(self.where, self.real)
                os.rename(self.link, self.where)
                os.rename(self.where, self.link)
                self.flips += 1
            except OSError:
                pass

    def __enter__(self) -> "Flipper":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(timeout=10)
        if os.path.islink(self.where) and not os.path.lexists(self.link):
            os.rename(self.where, self.link)
        if os.path.isdir(self.where) and not os.path.islink(self.where) and not self.real.exists():
            os.rename(self.where, self.real)


def student_link(link: Path, target: Path) -> Path:
    link.symlink_to(target)
    if os.geteuid() == 0:
        os.lchown(link, 65534, 65534)
    return link


@pytest.fixture
def scene(tmp_path):
    instructor = tmp_path / "instructor"
    instructor.mkdir(mode=0o700)
    (instructor / "bot.py").write_text(INSTRUCTOR_BOT)
    (instructor / "solutions.txt").write_text(SECRET)
    (instructor / "requirements.txt").write_text("# none\n")
    home = tmp_path / "home" / "alice"
    (home / "handin.real").mkdir(parents=True)
    (home / "handin.real" / "bot.py").write_text(STUDENT_BOT)
    (home / "handin.real" / "requirements.txt").write_text("# none\n")
    students_own(tmp_path / "home")
    before = {p.name: p.read_bytes() for p in instructor.iterdir()}
    student_link(home / "handin.link", instructor)
    yield instructor, home / "handin", home / "handin.real"
    after = {p.name: p.read_bytes() for p in instructor.iterdir()}
    assert after == before, "the instructor's folder changed"


def test_the_walk_refuses_a_students_link_and_follows_the_instructors_own(scene, tmp_path):
    from bots.external.safe_files import UnsafePath, open_path

    instructor, handin, real = scene
    os.rename(handin.parent / "handin.link", handin)
    with pytest.raises(UnsafePath, match="symbolic link"):
        open_path(handin / "bot.py")
    own = tmp_path / "mine"
    own.symlink_to(real)  # a link in a folder of this user's that no one else may write: followed
    fd = open_path(own / "bot.py")
    try:
        assert os.read(fd, 100).decode() == STUDENT_BOT
    finally:
        os.close(fd)


@pytest.mark.parametrize("named", ["folder", "file"])
def test_submit_while_the_handin_flips_reads_the_students_files_or_nothing(scene, tmp_path, monkeypatch, capsys, named):
    """The hand-in named as its folder (the link is the last name) or as its file (the link is a
    folder on the way: ``O_NOFOLLOW`` alone would follow it)."""
    from arcade.contest import submit as submitting

    instructor, handin, real = scene
    contest = tmp_path / "c"
    assert arcade("contest", "new", str(contest), "--game", "toothpicks", "--games", "2") == 0
    monkeypatch.setattr(submitting, "judge", lambda *args: None)  # the probe is not what is tried here
    verdicts = []
    with Flipper(handin, real, handin.parent / "handin.link") as flipper:
        while len(verdicts) < 60 or flipper.flips < 30:
            verdicts.append(submitting.submit(contest, "alice", str(handin if named == "folder" else handin / "bot.py")))
    capsys.readouterr()
    with Database(contest) as db:
        accepted = {s.digest for s in db.submissions() if s.verdict == "accepted"}
    for digest in accepted:
        kept = contest / "submissions" / digest
        texts = [p.read_text() for p in kept.rglob("*") if p.is_file() and ".deps" not in p.parts]
        assert not any(SECRET in text for text in texts), "the instructor's files were accepted as alice's"
    assert all(v.accepted or "symbolic link" in v.reason or "cannot read" in v.reason or "no regular" in v.reason
               for v in verdicts), [v.reason for v in verdicts if not v.accepted][:3]


def test_the_inbox_while_a_drop_flips_takes_the_students_files_or_nothing(scene, tmp_path, monkeypatch, capsys):
    from arcade.contest import submit as submitting
    from arcade.contest.inbox import read_inbox

    instructor, handin, real = scene
    contest = tmp_path / "c"
    assert arcade("contest", "new", str(contest), "--game", "toothpicks", "--games", "2") == 0
    monkeypatch.setattr(submitting, "judge", lambda *args: None)
    inbox = contest / "inbox"
    inbox.mkdir(exist_ok=True)
    inbox.chmod(0o1777)  # a shared drop, as an LMS export's folder may be
    drop, staged, link = inbox / "alice", inbox / ".real", inbox / ".link"
    os.rename(real, staged)
    student_link(link, instructor)
    said: list[str] = []
    for _ in range(40):
        with Flipper(drop, staged, link):
            for _look in range(500):  # until a drop was judged
                if read_inbox(contest, said.append, quiet=0):
                    break
        done = inbox / ".done"
        for name in sorted(os.listdir(done)) if done.exists() else []:  # the judged drop back for the next try
            if (done / name).is_symlink() and not os.path.lexists(link):
                os.rename(done / name, link)
            elif (done / name).is_dir() and not staged.exists():
                os.rename(done / name, staged)
        if not (staged.exists() and os.path.lexists(link)):
            break
    capsys.readouterr()
    with Database(contest) as db:
        for s in db.submissions():
            if s.verdict == "accepted":
                kept = contest / "submissions" / s.digest
                assert not any(SECRET in p.read_text() for p in kept.rglob("*") if p.is_file())


def test_bot_install_while_the_folder_flips_writes_nothing_into_the_instructors(scene, tmp_path):
    from bots.external import deps

    instructor, handin, real = scene
    results = []
    with Flipper(handin, real, handin.parent / "handin.link") as flipper:
        while len(results) < 30 or flipper.flips < 20:
            try:
                results.append(deps.install(handin, no_index=True).folder)
            except deps.InstallError as exc:
                results.append(str(exc))
    assert not (instructor / ".deps").exists()  # and the fixture checks nothing else changed


def test_a_tournaments_file_bot_packed_while_its_folder_flips_holds_no_instructors_byte(scene, tmp_path):
    from arcade.tournament.bundles import BundleError, pack

    instructor, handin, real = scene
    packed = refused = 0
    with Flipper(handin, real, handin.parent / "handin.link") as flipper:
        while packed + refused < 60 or flipper.flips < 30:
            try:
                bundle = pack("alice", handin / "bot.py", handin / "bot.py", "strategy")
            except BundleError:
                refused += 1
                continue
            assert SECRET.encode() not in bundle.data
            packed += 1
