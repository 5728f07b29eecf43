"""Hostile bot folders, generated (issue 30, item 3): what a student may hand in as a bot's folder,
for the property tests that drive every entry point taking one.

A folder (``World.folder``) holds the bot's own file and entries of every kind a student can make:
symbolic links out of the folder (to the instructor's private file ``World.canary``, to another
student's folder), into it, up (``..``), dangling and looping; hard links to the canary; FIFOs,
sockets, a device (as root); files and folders no one may read; deep and wide trees; long and odd
names (``.deps`` and the install's staging names, ``requirements.txt``, ``__init__.py``, new lines,
a leading dash, 255 bytes). ``World.outside`` is everything beside it: ``snapshot`` before and
after a run tells whether anything there was read (the canary's access time: it is set older
than its modification time, so under ``relatime`` any read moves it), written, chmodded or
removed. ``SECRET`` is the canary's text: a bot that prints it, or says ``LEAK``, read it.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

SECRET = "CANARY" + "-4c1f9e-grades"
"""The canary's text (written split here so that no copy of this file holds it whole)."""

KINDS = ("file", "folder", "link_out_file", "link_out_folder", "link_in", "link_up", "link_dangling",
         "link_loop", "hard_link_out", "fifo", "socket", "device", "unreadable_file", "unreadable_folder",
         "deep", "wide", "empty_file")
"""What an entry of a hostile folder may be."""

ODD_NAMES = (".deps", ".deps.installing", ".deps.old", "requirements.txt", "__init__.py", "sitecustomize.py",
             "-rf", " space ", "new\nline", "tab\there", "é文字", "...", "x" * 251 + ".py", ".hidden",
             "__pycache__", "b.py", "lib.py", "notes.txt", "\x1b[31mred")
NAMES = st.one_of(st.sampled_from(ODD_NAMES),
                  st.text(st.characters(codec="utf-8", exclude_characters="/\x00"), min_size=1, max_size=20)
                  .filter(lambda name: name not in (".", "..") and len(name.encode()) <= 255))


@st.composite
def entries(draw, depth: int = 2) -> list[tuple[str, str, list]]:
    """A folder's entries: ``(name, kind, children)``, ``children`` only for a ``folder``."""
    found = draw(st.lists(st.tuples(NAMES, st.sampled_from(KINDS)), max_size=6, unique_by=lambda e: e[0]))
    out = []
    for name, kind in found:
        if kind == "folder" and depth > 0:
            out.append((name, kind, draw(entries(depth - 1))))
        else:
            out.append((name, "file" if kind == "folder" else kind, []))
    return out


@dataclass
class World:
    """A hostile folder and what lies outside it."""

    base: Path
    folder: Path
    outside: Path
    canary: Path


def make_world(base: Path, bot: tuple[str, str], shape: list, owner: int | None = None,
               extra: dict[str, bytes] | None = None) -> World:
    """``base/student``: the bot's file ``bot`` (name, text), the files ``extra`` (name: bytes,
    unless ``shape`` takes the name) and ``shape``'s entries; ``base/outside``: the canary (the
    instructor's 0600 file) and another student's folder. ``owner``: the user both belong to
    (a user's test: the instructor is that user)."""
    outside = base / "outside"
    (outside / "other_student").mkdir(parents=True)
    (outside / "other_student" / "bot.py").write_text(f"# {SECRET}\ndef strategy(left):\n    return 1\n")
    canary = outside / "grades.txt"
    canary.write_text(SECRET + "\n")
    canary.chmod(0o600)
    folder = base / "student"
    folder.mkdir()
    world = World(base, folder, outside, canary)
    taken = {name for name, _kind, _children in shape}
    for name, data in (extra or {}).items():
        if name not in taken and name != bot[0]:
            (folder / name).write_bytes(data)
    _fill(world, folder, [entry for entry in shape if entry[0] != bot[0]])
    (folder / bot[0]).write_text(bot[1])
    if owner is not None:
        for path in [base, *base.rglob("*")]:
            os.chown(path, owner, owner, follow_symlinks=False)
    _fill_later(folder)
    return world


_LATER: list[tuple[Path, int]] = []


def _fill(world: World, where: Path, shape: list) -> None:
    for name, kind, children in shape:
        path = where / name
        if kind == "folder":
            path.mkdir()
            _fill(world, path, children)
        else:
            _make(world, path, kind)


def _make(world: World, path: Path, kind: str) -> None:
    if kind == "file":
        path.write_text("x = 1\n")
    elif kind == "empty_file":
        path.write_bytes(b"")
    elif kind == "link_out_file":
        path.symlink_to(world.canary)
    elif kind == "link_out_folder":
        path.symlink_to(world.outside)
    elif kind == "link_in":
        path.symlink_to(".")
    elif kind == "link_up":
        path.symlink_to("..")
    elif kind == "link_dangling":
        path.symlink_to(world.base / "nowhere")
    elif kind == "link_loop":
        path.symlink_to(path.name)
    elif kind == "hard_link_out":
        os.link(world.canary, path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        os.mknod(path, stat.S_IFSOCK | 0o600)
    elif kind == "device":
        if os.geteuid() == 0:
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 5))  # /dev/zero: a read never ends
        else:
            path.write_text("no device as a user\n")
    elif kind == "unreadable_file":
        path.write_text("y = 2\n")
        _LATER.append((path, 0o000))
    elif kind == "unreadable_folder":
        path.mkdir()
        (path / "inside.py").write_text("z = 3\n")
        _LATER.append((path, 0o000))
    elif kind == "deep":
        deep = path.joinpath(*["d"] * 40)
        deep.mkdir(parents=True)
        (deep / "bottom.py").write_text("w = 4\n")
    elif kind == "wide":
        path.mkdir()
        for number in range(300):
            (path / f"f{number}.txt").write_text(str(number))


def _fill_later(folder: Path) -> None:
    """Modes that would stop the folder being made (or chowned): set last."""
    while _LATER:
        path, mode = _LATER.pop()
        os.chmod(path, mode)


def snapshot(top: Path, times: bool = True) -> dict[str, tuple]:
    """Every entry under ``top`` (never through a link): its kind and mode, owner, size,
    modification time, inode (and with ``times`` a regular file's access time), a folder's change
    time and links, a link's target. A regular file's links and change time are left out: a hard
    link to it in the student's folder may be removed (the student's name, not the file). Its
    contents: ``contents``, read only after comparing (reading moves access times)."""
    found = {}
    for root, dirs, files in os.walk(top):
        for name in [*dirs, *files, ""] if root == str(top) else [*dirs, *files]:
            path = os.path.join(root, name) if name else root
            info = os.lstat(path)
            regular = stat.S_ISREG(info.st_mode)  # its links and change time move when a name of it goes
            found[os.path.relpath(path, top)] = (
                info.st_mode, info.st_uid, info.st_gid, info.st_size, info.st_mtime_ns,
                None if regular else info.st_ctime_ns, info.st_ino, None if regular else info.st_nlink,
                info.st_atime_ns if times and regular else None, os.readlink(path) if stat.S_ISLNK(info.st_mode) else None)
    return found


def contents(top: Path) -> dict[str, str]:
    """The digest of each regular file under ``top`` that root can read (never through a link)."""
    found = {}
    for root, _dirs, files in os.walk(top):
        for name in files:
            path = os.path.join(root, name)
            if stat.S_ISREG(os.lstat(path).st_mode):
                with open(path, "rb") as handle:
                    found[os.path.relpath(path, top)] = hashlib.sha256(handle.read()).hexdigest()
    return found


def age_access_times(top: Path) -> None:
    """Every regular file under ``top`` (and the canary, hard linked or not) given an access time
    older than its modification time, so that the next read of it moves it (``relatime``)."""
    for root, _dirs, files in os.walk(top):
        for name in files:
            path = os.path.join(root, name)
            info = os.lstat(path)
            if stat.S_ISREG(info.st_mode):
                os.utime(path, ns=(info.st_mtime_ns - 10**12, info.st_mtime_ns), follow_symlinks=False)


def one_line(stderr: str) -> bool:
    """Whether an error is said in one line: no traceback, the last line ``arcade: error: …`` or
    a verdict, nothing but progress before it."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    return bool(lines) and "Traceback" not in stderr and lines[-1].startswith(("arcade: error: ", "rejected: "))
