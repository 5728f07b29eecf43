"""File operations on paths a student controls, done from a trusted folder's descriptor.

A bot's folder is the student's: any name in it may be a symbolic link (to the instructor's
files), a hard link (a second name of someone else's file), a FIFO (an open that blocks), a
device or a socket. The arcade (often root) must never read, write, change the mode of or remove
anything through such a name. So every operation here starts from a descriptor of a folder the
caller trusts (the folder it was given, or one it made), goes one name at a time, opens nothing
through a link (``O_NOFOLLOW``), looks at what it opened on the descriptor (``fstat``), and
changes modes only on descriptors of what it created itself (``fchmod``).

``sandbox_launch.walk_folder`` (run by root's launcher, which imports nothing of the arcade's)
says what a folder holds; this module builds on it for the arcade's own process.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from bots.external.sandbox_launch import HARD_LINK, kind_of, walk_folder

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY


class UnsafePath(OSError):
    """A name under a student's folder that is not what it must be (a link, a FIFO, a hard
    link, missing); the message is one line for the user."""


def open_folder(path: Path | str) -> int:
    """A descriptor of the folder ``path`` (the one the user named: its own path is trusted,
    a link there included); ``UnsafePath`` when it is no folder."""
    try:
        return os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise UnsafePath(exc.errno, f"{path} is not a folder ({exc.strerror})") from None


def kind_at(folder: int, name: str) -> str | None:
    """What ``name`` in the folder open as ``folder`` is, never following a link: ``"folder"``,
    ``"file"`` (a regular file of one name), else in words (``"a symbolic link"``...); ``None``
    when there is nothing of that name."""
    try:
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if stat.S_ISDIR(info.st_mode):
        return "folder"
    if stat.S_ISREG(info.st_mode):
        return "file" if info.st_nlink == 1 else HARD_LINK
    return kind_of(info.st_mode)


def open_file_under(folder: int, relative: str, shown: str) -> int:
    """A descriptor, for reading, of the regular file ``relative`` (``/``-separated, no ``..``)
    under the folder open as ``folder``, reached one name at a time without following any link;
    the file has one name only (a hard link may be someone else's file). ``UnsafePath`` (its
    message names the file as ``shown``) otherwise."""
    parts = relative.split("/")
    if not relative or any(part in ("", ".", "..") for part in parts) or relative.startswith("/"):
        raise UnsafePath(errno.EINVAL, f"{shown} is not a plain path inside the folder")
    here = os.dup(folder)
    try:
        for part in parts[:-1]:
            try:
                inner = os.open(part, DIR_FLAGS, dir_fd=here)
            except OSError as exc:
                raise UnsafePath(exc.errno, f"{shown}: {part} is not a folder ({_why(exc)})") from None
            os.close(here)
            here = inner
        try:
            fd = os.open(parts[-1], FILE_FLAGS, dir_fd=here)
        except OSError as exc:
            raise UnsafePath(exc.errno, f"{shown} cannot be opened ({_why(exc)})") from None
    finally:
        os.close(here)
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
        os.close(fd)
        what = kind_of(info.st_mode) if not stat.S_ISREG(info.st_mode) else HARD_LINK
        raise UnsafePath(errno.EINVAL, f"{shown} is {what}, not a regular file")
    os.set_blocking(fd, True)
    return fd


def _why(exc: OSError) -> str:
    return "a symbolic link" if exc.errno == errno.ELOOP else exc.strerror or str(exc)


def read_file_under(folder: int, relative: str, shown: str, limit: int) -> bytes:
    """The bytes of ``open_file_under(folder, relative, shown)``, at most ``limit`` of them
    (``UnsafePath`` when it holds more)."""
    fd = open_file_under(folder, relative, shown)
    try:
        data = os.read(fd, limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise UnsafePath(errno.EFBIG, f"{shown} is over {limit} bytes")
    return data


def copy_out(source: int, target: str) -> None:
    """Copy the regular file open as ``source`` to the new file ``target`` (made here, never
    one that exists)."""
    out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        _pour(source, out)
    finally:
        os.close(out)


def _pour(source: int, out: int) -> int:
    """Copy what is left of ``source`` to ``out``; the bytes copied."""
    size = 0
    while chunk := os.read(source, 1 << 20):
        view = memoryview(chunk)
        while view:
            view = view[os.write(out, view):]
        size += len(chunk)
    return size


def copy_tree(source: int, folder: int, name: str) -> int:
    """Copy the folders and regular files under the folder open as ``source`` (``walk_folder``:
    no link followed, nothing else copied) into a new folder ``name`` made in the folder open as
    ``folder`` (``mkdir`` fails when the name exists, whatever it is), each made here and its mode
    set on its descriptor: folders ``0755``, files ``0644`` (``0755`` when executable), whatever
    the ``umask``. The bytes copied."""
    os.mkdir(name, 0o700, dir_fd=folder)
    made = {"": os.open(name, DIR_FLAGS, dir_fd=folder)}
    size = 0
    try:
        for kind, path, fd in walk_folder(source):
            parent, _, leaf = path.rpartition("/")
            where = made[parent]
            if kind == "dir":
                os.mkdir(leaf, 0o700, dir_fd=where)
                made[path] = os.open(leaf, DIR_FLAGS, dir_fd=where)
                continue
            mode = 0o755 if os.fstat(fd).st_mode & 0o100 else 0o644
            out = os.open(leaf, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                          dir_fd=where)
            try:
                size += _pour(fd, out)
                os.fchmod(out, mode)
            finally:
                os.close(out)
    finally:
        for fd in made.values():
            os.fchmod(fd, 0o755)
            os.close(fd)
    return size
