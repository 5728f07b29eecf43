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


MAX_LINKS = 40
"""Links followed at most on one path (the kernel's own limit)."""


def open_path(path: Path | str, folder: bool = False) -> int:
    """A descriptor of what ``path`` names, reached one name at a time from ``/`` (or the current
    folder) by descriptors, never reopened by name: each name is looked at (``lstat`` in its
    folder's descriptor) and opened with ``O_NOFOLLOW`` (a name swapped for a link in between
    fails to open), and a symbolic link on the way is followed only where no one else could have
    put it there (``trusted_link``: a folder of root's or of this user's that others cannot
    write, or a sticky one and the link this user's or root's); a link in a folder a student may
    change (their hand-in, their home, a shared drop) is refused. The last name is opened without
    blocking (a FIFO) and without a terminal; with ``folder``, it must be a folder. The caller
    ``fstat``s the descriptor for what it is. ``UnsafePath`` for a link refused, ``OSError``
    (``ENOENT``, ``ENOTDIR``, ``EACCES``) for the rest."""
    text = os.fspath(path)
    if not text or "\0" in text:
        raise UnsafePath(errno.EINVAL, f"{text!r} is no path")
    names = [name for name in text.split("/") if name not in ("", ".")]
    here = os.open("/" if text.startswith("/") else ".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    links = 0
    try:
        while names:
            name = names.pop(0)
            info = os.stat(name, dir_fd=here, follow_symlinks=False)
            if stat.S_ISLNK(info.st_mode):
                links += 1
                if links > MAX_LINKS or not trusted_link(here, info):
                    raise UnsafePath(errno.ELOOP, f"{text} goes through a symbolic link ({name}) in a folder others "
                                                  "may change: give the path of the real folder or file")
                target = os.readlink(name, dir_fd=here)
                if target.startswith("/"):
                    os.close(here)
                    here = os.open("/", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
                names[:0] = [part for part in target.split("/") if part not in ("", ".")]
                continue
            last = not names
            flags = DIR_FLAGS if folder or not last else FILE_FLAGS
            try:
                inner = os.open(name, flags, dir_fd=here)
            except OSError as exc:
                if exc.errno == errno.ELOOP:  # a link now, where the look saw none: swapped meanwhile
                    raise UnsafePath(errno.ELOOP, f"{text}: {name} changed into a symbolic link as it was "
                                                  "opened: refused") from None
                raise
            os.close(here)
            here = inner
        if folder and not stat.S_ISDIR(os.fstat(here).st_mode):
            raise OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
        opened, here = here, -1
        return opened
    finally:
        if here >= 0:
            os.close(here)


def trusted_link(folder: int, link: os.stat_result) -> bool:
    """Whether a symbolic link (``link``, its ``lstat``) in the folder open as ``folder`` is one
    that no one but root and this user could have made or changed: the folder is root's or this
    user's, and others cannot write in it, or it is sticky (``/tmp``) and the link is root's or
    this user's (the kernel's ``protected_symlinks`` rule)."""
    mine = (0, os.geteuid())
    info = os.fstat(folder)
    if info.st_uid not in mine:
        return False
    if not info.st_mode & 0o022:
        return True
    return bool(info.st_mode & stat.S_ISVTX) and link.st_uid in mine


def name_of(fd: int, fallback: str) -> str:
    """The last name of the folder or file open as ``fd`` as the kernel knows it now (a link
    followed to it: the real name), ``fallback`` where ``/proc`` cannot say."""
    try:
        where = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return fallback
    return os.path.basename(where.rstrip("/")) or fallback


def read_regular(path: Path | str, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of the regular file at ``path`` (one more than ``limit``: the
    caller sees a file over it), reached by ``open_path`` (never through a link a student could
    have made), without blocking on a FIFO, checked on its descriptor; ``UnsafePath`` when it is
    no regular file, ``OSError`` when it cannot be opened. The one reader of a student's file
    named by a path (a hand-in, a notebook)."""
    fd = open_path(path)
    try:
        return read_regular_fd(fd, limit, str(path))
    finally:
        os.close(fd)


def read_regular_fd(fd: int, limit: int, shown: str) -> bytes:
    """``read_regular`` of the file open as ``fd`` (the caller closes it)."""
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        raise UnsafePath(errno.EINVAL, f"{shown} is no regular file")
    os.set_blocking(fd, True)
    chunks, size = [], 0
    while size <= limit:
        chunk = os.read(fd, min(1 << 20, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def open_folder(path: Path | str) -> int:
    """A descriptor of the folder ``path`` (``open_path``: a link on the way only where no one
    else could have made it); ``UnsafePath`` when it is no folder or goes through such a link."""
    try:
        return open_path(path, folder=True)
    except UnsafePath:
        raise
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


def _pour(source: int, out: int, room: int | None = None) -> int:
    """Copy what is left of ``source`` to ``out``; the bytes copied (past ``room`` of them,
    ``OSError`` ``ENOSPC``)."""
    size = 0
    while chunk := os.read(source, 1 << 20):
        if room is not None and size + len(chunk) > room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = memoryview(chunk)
        while view:
            view = view[os.write(out, view):]
        size += len(chunk)
    return size


def copy_tree(source: int, folder: int, name: str, skip: str | None = None, limit: int | None = None,
              read_only: bool = False, heads: tuple[bytes, ...] = ()) -> int:
    """Copy the folders and regular files under the folder open as ``source`` (``walk_folder``:
    no link followed, nothing else copied) into a new folder ``name`` made in the folder open as
    ``folder`` (``mkdir`` fails when the name exists, whatever it is), each made here and its mode
    set on its descriptor: folders ``0755``, files ``0644`` (``0755`` when executable), whatever
    the ``umask``; with ``read_only`` (a sandbox's copy of a bot's folder) folders ``0555`` and
    files ``0444``, each file's times kept. The top folder's ``skip`` (``.deps``, bound on its own)
    is left out, an empty folder in its place; past ``limit`` bytes, ``OSError`` ``ENOSPC``. A file
    that begins with one of ``heads`` is made executable too (a CS4341 program's copy, from a
    folder whose modes were not kept: ``bots.external.specs.EXECUTABLE_HEADS``). The bytes copied."""
    folder_mode, file_mode = (0o555, 0o444) if read_only else (0o755, 0o644)
    os.mkdir(name, 0o700, dir_fd=folder)
    made = {"": os.open(name, DIR_FLAGS, dir_fd=folder)}
    if skip is not None:
        made[skip] = make_folder_at(made[""], skip, 0o700)
    size = 0
    try:
        for kind, path, fd in walk_folder(source):
            if skip is not None and (path == skip or path.startswith(skip + "/")):
                continue
            parent, _, leaf = path.rpartition("/")
            where = made[parent]
            if kind == "dir":
                made[path] = make_folder_at(where, leaf, 0o700)
                continue
            info = os.fstat(fd)
            runs = info.st_mode & 0o100 or (heads and os.pread(fd, 4, 0).startswith(heads))
            mode = file_mode | (0o111 if runs and not read_only else 0)
            out = os.open(leaf, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                          dir_fd=where)
            try:
                size += _pour(fd, out, None if limit is None else limit - size)
                os.fchmod(out, mode)
                if read_only:
                    os.utime(out, ns=(info.st_atime_ns, info.st_mtime_ns))
            except OSError as exc:
                raise OSError(exc.errno, f"copying {path}: {exc.strerror}") from None
            finally:
                os.close(out)
    finally:
        for fd in made.values():
            os.fchmod(fd, folder_mode)
            os.close(fd)
    return size


# -- names in a folder: made, listed, renamed, removed ---------------------------------------------

def _plain_name(name: str) -> str:
    """``name`` itself when it is one name in a folder (no ``/``, not ``.``, ``..`` or empty);
    else ``UnsafePath``."""
    if not name or "/" in name or "\0" in name or name in (".", ".."):
        raise UnsafePath(errno.EINVAL, f"{name!r} is not a plain name in a folder")
    return name


def make_folders(path: Path | str, mode: int = 0o755) -> int:
    """A descriptor of the arcade's own folder ``path`` (its log folder, its saved games': the
    path is the arcade's, its names the bots'), made with its parents where missing; its last name
    is never followed (``UnsafePath`` when it is a link or no folder)."""
    os.makedirs(path, mode, exist_ok=True)
    try:
        return os.open(path, DIR_FLAGS)
    except OSError as exc:
        raise UnsafePath(exc.errno, f"{path} is not a folder ({_why(exc)})") from None


def open_folder_at(folder: int, name: str) -> int:
    """A descriptor of the folder ``name`` in the folder open as ``folder``, never through a link
    (``OSError``: ``ELOOP`` for a link, ``ENOTDIR`` for anything else, ``ENOENT``)."""
    return os.open(_plain_name(name), DIR_FLAGS, dir_fd=folder)


def make_folder_at(folder: int, name: str, mode: int = 0o755) -> int:
    """A new folder ``name`` in the folder open as ``folder`` (``FileExistsError`` when the name
    is taken, whatever by), its mode set on its descriptor (whatever the ``umask``); the
    descriptor."""
    os.mkdir(_plain_name(name), 0o700, dir_fd=folder)
    fd = os.open(name, DIR_FLAGS, dir_fd=folder)
    os.fchmod(fd, mode)
    return fd


def make_temporary_folder(folder: int, prefix: str = "", suffix: str = "", mode: int = 0o700) -> tuple[str, int]:
    """A new folder of a fresh random name (``prefix…suffix``) in the folder open as ``folder``:
    its name and descriptor."""
    for _ in range(100):
        name = f"{prefix}{os.urandom(6).hex()}{suffix}"
        try:
            return name, make_folder_at(folder, name, mode)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no fresh name for a temporary folder")


def create_file_at(folder: int, name: str, data: bytes | memoryview, mode: int = 0o644) -> None:
    """A new file ``name`` in the folder open as ``folder`` holding ``data`` (``FileExistsError``
    when the name is taken, whatever by: nothing is written through a link or over a file), its
    mode set on its descriptor once written."""
    fd = os.open(_plain_name(name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                 dir_fd=folder)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def open_regular_at(folder: int, name: str, flags: int, mode: int = 0o644) -> int:
    """``name`` in the folder open as ``folder`` opened with ``flags`` (``O_WRONLY | O_APPEND |
    O_CREAT``, ...) but never through a link (``O_NOFOLLOW``), never blocked by a FIFO nor taking a
    terminal, and checked on its descriptor to be a regular file (``UnsafePath`` otherwise;
    ``OSError`` when it cannot be opened: ``ELOOP`` for a link). A file it creates gets ``mode``
    (less the ``umask``). The descriptor, blocking."""
    fd = os.open(_plain_name(name), flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC, mode,
                 dir_fd=folder)
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise UnsafePath(errno.EINVAL, f"{name} is {kind_of(info.st_mode)}, not a regular file")
    os.set_blocking(fd, True)
    return fd


def list_at(folder: int) -> list[str]:
    """The names in the folder open as ``folder``, sorted."""
    return sorted(os.listdir(folder))


def stat_at(folder: int, name: str) -> os.stat_result | None:
    """``name`` in the folder open as ``folder``, looked at without following a link; ``None``
    when there is nothing of that name."""
    try:
        return os.stat(_plain_name(name), dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return None


def rename_at(folder: int, old: str, new: str, into: int | None = None) -> None:
    """Rename ``old`` in the folder open as ``folder`` to ``new`` in the folder open as ``into``
    (the same by default): names, never what a link points to; an existing ``new`` is replaced
    as ``rename(2)`` does (a folder only by a folder, and only when empty: ``OSError``)."""
    os.rename(_plain_name(old), _plain_name(new), src_dir_fd=folder, dst_dir_fd=folder if into is None else into)


def remove_at(folder: int, name: str) -> bool:
    """Remove ``name`` (anything but a folder: a link itself, never its target) from the folder
    open as ``folder``; ``False`` when there was nothing of that name."""
    try:
        os.unlink(_plain_name(name), dir_fd=folder)
    except FileNotFoundError:
        return False
    return True


def remove_tree(folder: int, name: str) -> None:
    """Remove ``name`` from the folder open as ``folder`` whatever it holds (nothing there is
    fine), never following a link: a non-folder is unlinked; a folder is emptied from its own
    descriptor, each folder in it opened with ``O_NOFOLLOW`` and made writable on its descriptor
    only where it is this user's (the arcade's own copies, made read-only), then removed."""
    info = stat_at(folder, name)
    if info is None:
        return
    if not stat.S_ISDIR(info.st_mode):
        remove_at(folder, name)
        return
    try:
        inner = open_folder_at(folder, name)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):  # swapped for a link or a file since the look
            remove_at(folder, name)
            return
        raise
    try:
        _empty(inner)
    finally:
        os.close(inner)
    os.rmdir(name, dir_fd=folder)


def _empty(top: int) -> None:
    """Remove everything in the folder open as ``top`` (``remove_tree``'s walk, depth first, a
    descriptor a level)."""
    stack = [(top, iter(_opened_up(top)), "")]
    try:
        while stack:
            here, names, own = stack[-1]
            name = next(names, None)
            if name is None:
                stack.pop()
                if stack:
                    os.close(here)
                    os.rmdir(own, dir_fd=stack[-1][0])
                continue
            info = os.stat(name, dir_fd=here, follow_symlinks=False)
            if not stat.S_ISDIR(info.st_mode):
                os.unlink(name, dir_fd=here)
                continue
            try:
                inner = os.open(name, DIR_FLAGS, dir_fd=here)
            except OSError as exc:
                if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                    raise
                os.unlink(name, dir_fd=here)  # swapped for a link or a file since the look
                continue
            stack.append((inner, iter(_opened_up(inner)), name))
    finally:
        for here, _names, _own in stack[1:]:
            os.close(here)


def _opened_up(folder: int) -> list[str]:
    """The names in the folder open as ``folder``, made writable and searchable first (on its
    descriptor, only where it is this user's: a read-only copy the arcade made)."""
    info = os.fstat(folder)
    if info.st_uid == os.geteuid() and info.st_mode & 0o700 != 0o700:
        os.fchmod(folder, 0o700)
    return list_at(folder)


def plain_folder_at(folder: int, name: str) -> int | None:
    """A descriptor of the folder ``name`` in the folder open as ``folder`` when it holds only
    folders and regular files of one name each (as ``arcade bot install`` makes ``.deps``), looked
    at from its own descriptor, never through a link; ``None`` for anything else (a link, a FIFO,
    a device, a hard link, perhaps to the instructor's file, anywhere in it; no such folder; a
    folder that cannot be read). What is bound is this descriptor, never the name again."""
    try:
        top = open_folder_at(folder, name)
    except OSError:
        return None
    stack = [top]
    try:
        while stack:
            here = stack.pop()
            try:
                for entry in list_at(here):
                    info = os.stat(entry, dir_fd=here, follow_symlinks=False)
                    if stat.S_ISDIR(info.st_mode):
                        stack.append(os.open(entry, DIR_FLAGS, dir_fd=here))
                    elif not (stat.S_ISREG(info.st_mode) and info.st_nlink == 1):
                        raise _NotPlain
            finally:
                if here != top:
                    os.close(here)
    except (OSError, _NotPlain):
        for fd in stack:
            if fd != top:
                os.close(fd)
        os.close(top)
        return None
    return top


class _NotPlain(Exception):
    """``plain_folder_at``'s walk met something that is not a folder or a regular file of one name."""
