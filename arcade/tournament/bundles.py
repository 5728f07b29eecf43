"""A file bot's folder as it travels to a cluster's workers: its bundle.

A Dask cluster's workers share no folder with the coordinator, so each file bot's folder (its
file's folder: what its sandbox shows it at ``/bot``) is read on the coordinator, sent to the
workers and written there. Only the bot travels:

- **What a bot's folder is** has one owner, ``bots.external.sandbox_launch.walk_folder``: its folders and
  regular files, the very ones the sandbox copies as root. Here anything else is refused before
  any game, in one line naming it: a symbolic link (``notes.py -> ~/grades.xlsx``, ``->
  /proc/self/environ``, ``-> /proc/self/fd/3``), a FIFO, a device, a socket, a file that cannot
  be read. None is followed or opened (``O_NOFOLLOW``, the descriptor checked with ``fstat``),
  so nothing of the coordinator's but the bot's own files ever reaches a bot: not a file it may
  read, not one it holds open (the record, with its secret seed). The bot's file itself, as the
  tournament names it, must be a regular file too.
- **A cap.** A bundle holds at most ``cap`` bytes (``DEFAULT_CAP``, 16 MiB: ``arcade tournament
  --bundle-cap MIB``), its paths counted, and ``ENTRIES`` files and folders, ``DEPTH`` folders
  deep; the count runs while the folder is read, which stops as soon as it is over: a 60 MiB
  folder is refused after 16 MiB, never read whole first.
- **Content-addressed.** A bundle is one byte string in a canonical encoding (``encode``: every
  entry's kind, path and contents, in the walk's order, lengths first), named by its SHA-256.
  A worker checks the bytes it got against that name (``materialise``), then writes them into its
  cache under the name: a private folder of its own (``0700``, its user's, never through a link).
  Whenever a task runs a bot, the worker reads its cache entry again, the same way, and runs it only if
  it hashes to the name; an entry that does not (planted, changed, half written) is removed and
  written again from the checked bytes, into a fresh folder, checked again before it takes the
  name. A cache entry is never trusted for its name.

The bytes of each bot travel once (``arcade.tournament.runner.Runner``: a task of their own on the
cluster); each chunk of games gets its two bots' bundles only. Workers get each pair's seed
(``arcade.seeds.pair_seed``), never the tournament's.
"""

from __future__ import annotations

import hashlib
import os
import stat
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path

from arcade.records.schema import shown
from bots.external import safe_files
from bots.external.sandbox_launch import kind_of, walk_folder

DEFAULT_CAP = 16 << 20
"""Bytes a bot's bundle may hold (its files and paths), unless ``--bundle-cap`` says otherwise."""
ENTRIES = 4096
"""Files and folders a bot's folder may hold."""
DEPTH = 32
"""Folders deep a bot's folder may go."""
MAGIC = b"contest-arcade bundle 1\n"
"""The encoding's first bytes (its version: a change of encoding changes every name)."""
_HEAD = struct.Struct(">cI")
"""An entry's kind (``d`` a folder, ``f`` a file) and its path's length; a file's contents
follow its path, after their length (``_SIZE``)."""
_SIZE = struct.Struct(">Q")


class BundleError(ValueError):
    """A bot's folder that cannot travel, or a bundle that does not hold what its name says
    (one line for the user)."""


@dataclass(frozen=True)
class Bundle:
    """A file bot packed for a cluster: its ``name`` (as the tournament names it), its ``spec``
    inside the bundle (``folder/file.py:function``), the bundle's ``digest`` (SHA-256, hex) and
    its ``data`` (``encode``'s bytes)."""

    name: str
    spec: str
    digest: str
    data: bytes


def encode(source: int, cap: int = DEFAULT_CAP, top: str = "", refuse=None, skip: frozenset = frozenset()) -> bytes:
    """The canonical encoding of the folder open as ``source``: ``walk_folder``'s entries, all
    under a folder named ``top`` when given. ``BundleError`` for anything that is not a regular
    file or a folder, and as soon as the bundle passes ``cap`` bytes, ``ENTRIES`` entries or
    ``DEPTH`` folders; ``refuse(path, why)`` words it (``path``: in the folder read; ``why``
    starts with a verb). The top folder's names in ``skip`` are left out (``walk_folder``)."""
    refuse = refuse or (lambda path, why: f"{path} {why}")
    out = bytearray(MAGIC)
    over = f"takes the bot's folder past {cap / (1 << 20):g} MiB, the most that travels (--bundle-cap)"

    def other(path: str, what: str) -> None:
        raise BundleError(refuse(path, f"is {what}: only a bot's regular files and folders travel"))

    def add(kind: bytes, path: str, size: int = 0) -> None:
        name = os.fsencode(f"{top}/{path}" if top and path else top or path)
        if len(out) + _HEAD.size + len(name) + size > cap:  # said before a byte of it is read
            raise BundleError(refuse(path, over))
        out.extend(_HEAD.pack(kind, len(name)))
        out.extend(name)

    if top:
        add(b"d", "")
    for count, (kind, path, fd) in enumerate(walk_folder(source, other, skip), start=2 if top else 1):
        if count > ENTRIES or path.count("/") + bool(top) >= DEPTH:
            raise BundleError(refuse(path, f"takes the bot's folder past {ENTRIES} files and folders or "
                                           f"{DEPTH} folders deep, the most that travels"))
        if kind == "dir":
            add(b"d", path)
            continue
        add(b"f", path, _SIZE.size + os.fstat(fd).st_size)
        at = len(out)
        out.extend(bytes(_SIZE.size))
        while chunk := os.read(fd, 1 << 20):  # counted as read: a file that grows stops at the cap
            out.extend(chunk)
            if len(out) > cap:
                raise BundleError(refuse(path, over))
        out[at:at + _SIZE.size] = _SIZE.pack(len(out) - at - _SIZE.size)
    return bytes(out)


def entries(data: bytes):
    """The entries of an encoded bundle, ``(kind, path, contents)``: ``b"d"`` (a folder, no
    contents) or ``b"f"`` (a file); ``BundleError`` for bytes that are no bundle, or a path that
    is not a plain relative one (no ``..``, ``.``, empty part, leading ``/`` or NUL)."""
    view = memoryview(data)
    if bytes(view[:len(MAGIC)]) != MAGIC:
        raise BundleError("not a bot bundle")
    at = len(MAGIC)
    while at < len(view):
        if at + _HEAD.size > len(view):
            raise BundleError("a bot bundle cut short")
        kind, length = _HEAD.unpack_from(view, at)
        at += _HEAD.size
        path = bytes(view[at:at + length])
        at += length
        parts = path.split(b"/")
        if len(path) != length or kind not in (b"d", b"f") or b"\0" in path or any(
                part in (b"", b".", b"..") for part in parts):
            raise BundleError("a bot bundle with a bad entry")
        if kind == b"d":
            yield kind, path, b""
            continue
        if at + _SIZE.size > len(view):
            raise BundleError("a bot bundle cut short")
        (size,) = _SIZE.unpack_from(view, at)
        at += _SIZE.size
        if at + size > len(view):
            raise BundleError("a bot bundle cut short")
        yield kind, path, view[at:at + size]
        at += size


def digest_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- the coordinator: packing a bot ---------------------------------------------------------------

def pack(name: str, path: Path, named: Path, function: str, cap: int = DEFAULT_CAP) -> Bundle:
    """File bot ``name`` (its file ``path``, resolved; ``named``: the file as the tournament
    names it; its ``function``) packed to travel: its folder's regular files and folders, under
    the folder's own name (a package keeps it). ``BundleError``, one line naming the file, for
    a file that cannot travel or a folder over ``cap``; nothing of it is followed or kept."""
    folder = path.parent
    who = f"bot {shown(name)!r}"
    try:
        mode = os.lstat(named).st_mode
    except OSError as exc:
        raise BundleError(f"{who}: cannot read {shown(named)}: {exc.strerror}") from None
    if not stat.S_ISREG(mode):
        raise BundleError(f"{who}: {shown(named)} is {kind_of(mode)}: name the bot's file itself")
    try:  # the folder reached by one descriptor walk: no link a student could flip on the way
        source = safe_files.open_folder(folder)
    except OSError as exc:
        raise BundleError(f"{who}: cannot read its folder {shown(folder)}: {exc.strerror}") from None
    top = folder.name or "bot"
    try:
        data = encode(source, cap, top, lambda at, why: f"{who}: {shown(folder / at)} {why} to a cluster")
    finally:
        os.close(source)
    return Bundle(name, f"{top}/{path.name}:{function}", digest_of(data), data)


# -- a worker: the cache ---------------------------------------------------------------------------

_ROOT: Path | None = None


def cache_root() -> Path:
    """This worker's bot cache: ``contest-arcade-bots-<uid>`` in the temporary folder, a folder
    of this user's that no one else may enter; when that name is taken by anything else (a link,
    a file, someone else's folder, one others may enter), a fresh private folder of this process."""
    global _ROOT
    if _ROOT is not None and _private(_ROOT):
        return _ROOT
    root = Path(tempfile.gettempdir()) / f"contest-arcade-bots-{os.geteuid()}"
    try:
        root.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError:
        root = Path(tempfile.mkdtemp(prefix="contest-arcade-bots-"))
    if not _private(root):
        root = Path(tempfile.mkdtemp(prefix="contest-arcade-bots-"))
    _ROOT = root
    return root


def _private(path: Path) -> bool:
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o077


def _open_root(root: Path) -> int:
    """The cache open, never through a link, and checked on its descriptor to be this user's
    private folder (``BundleError`` otherwise): every name in it is reached from this descriptor."""
    try:
        fd = os.open(root, safe_files.DIR_FLAGS)
    except OSError as exc:
        raise BundleError(f"the bot cache {shown(root)} cannot be opened ({exc.strerror}): not run") from None
    info = os.fstat(fd)
    if info.st_uid != os.geteuid() or info.st_mode & 0o077:
        os.close(fd)
        raise BundleError(f"the bot cache {shown(root)} is not this user's private folder: not run")
    return fd


def _holds(root: int, name: str, data: bytes) -> bool:
    """Whether the folder ``name`` in the cache open as ``root`` holds exactly bundle ``data``
    now: read as the coordinator read the bot's folder (``encode``, never through a link, capped
    at the bundle's size), hashed."""
    try:
        source = safe_files.open_folder_at(root, name)
    except OSError:
        return False
    try:
        return digest_of(encode(source, len(data))) == digest_of(data)
    except (BundleError, OSError):
        return False
    finally:
        os.close(source)


def _remove(root: int, name: str) -> None:
    """Remove ``name`` from the cache open as ``root``, whatever it is, never following a link:
    moved out of the name's way at once, then removed from descriptors."""
    if safe_files.stat_at(root, name) is None:
        return
    aside = f"{name}.{os.getpid()}.{os.urandom(4).hex()}.gone"
    try:
        safe_files.rename_at(root, name, aside)
        safe_files.remove_tree(root, aside)
    except OSError:
        pass


def _write(data: bytes, target: int) -> None:
    """Bundle ``data`` written into the empty private folder open as ``target`` (its files
    ``0644``, its folders ``0755``), each entry made in its folder's descriptor; ``BundleError``
    when it cannot be (an entry twice, a file in a folder it does not hold)."""
    made = {b"": target}
    try:
        for kind, path, contents in entries(data):
            parent, _, leaf = path.rpartition(b"/")
            try:
                where = made[parent]
                if kind == b"d":
                    made[path] = safe_files.make_folder_at(where, os.fsdecode(leaf), 0o755)
                    continue
                safe_files.create_file_at(where, os.fsdecode(leaf), contents)
            except (OSError, KeyError) as exc:
                why = exc.strerror if isinstance(exc, OSError) else "its folder is not in the bundle"
                raise BundleError(f"a bot's files cannot be written here ({shown(path.decode(errors='replace'))}: "
                                  f"{why})") from None
    finally:
        for name, fd in made.items():
            if name:
                os.close(fd)


def materialise(digest: str, data: bytes) -> Path:
    """Bundle ``data`` as a folder of this machine: the cache's entry named ``digest``, once the
    bytes are checked against that name and the entry found to hold them (read again now, every
    time); an entry that does not is removed and written again, into a fresh folder first,
    checked, then renamed. Every name is reached from the cache's descriptor. ``BundleError``
    when the bytes are not what ``digest`` names."""
    if digest_of(data) != digest:
        raise BundleError(f"a bot's files do not hash to their name ({digest[:16]}…): not run")
    root = cache_root()
    held = _open_root(root)
    try:
        if not _holds(held, digest, data):
            _replace(held, digest, data)
        if not _holds(held, digest, data):
            raise BundleError(f"a bot's files ({digest[:16]}…) could not be kept in {shown(root)}: not run")
    finally:
        os.close(held)
    return root / digest


def _replace(root: int, digest: str, data: bytes) -> None:
    """The cache's entry ``digest`` (in the cache open as ``root``) written again: the old one
    removed, ``data`` written into a fresh folder, checked, then renamed to the name."""
    _remove(root, digest)
    part, fd = safe_files.make_temporary_folder(root, f"{digest[:16]}.", ".part", 0o700)
    try:
        try:
            _write(data, fd)
        finally:
            os.close(fd)
        if not _holds(root, part, data):
            raise BundleError(f"a bot's files ({digest[:16]}…) read back other than written: not run")
        try:
            safe_files.rename_at(root, part, digest)
        except OSError:  # another process of this worker wrote it meanwhile
            pass
    finally:
        _remove(root, part)
