"""A submission's files, copied into the contest (``DIR/submissions/DIGEST/``), and the
submissions log (``DIR/submissions.jsonl``), the evidence of every verdict.

A submission is a file (``mine.py``, ``strategy.R``) or a folder (a package, or a folder with one
bot file at its top). Only regular files and folders are copied, never through a link (the
folder is read as a cluster's bundle is: ``arcade.tournament.bundles.encode``), at most the
contest's ``max_bytes``; anything else is refused in one line. The copy is content-addressed: its
name is the SHA-256 of its files (paths and bytes, in a canonical order) and of its entry (the
file and function that play), so the same bytes sent twice are one submission.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from arcade.contest.config import ContestError
from bots.external.specs import SUFFIXES

LOG = "submissions.jsonl"
LOCK = ".submit.lock"


@dataclass(frozen=True)
class Files:
    """A submission read in: its ``entries`` (``(path, bytes or None for a folder)``, paths under
    one top folder), its ``entry`` (``top/file.py:function``) and its ``digest``."""

    entries: tuple[tuple[str, bytes | None], ...]
    entry: str

    @property
    def digest(self) -> str:
        hasher = hashlib.sha256(b"contest-arcade submission 1\n")
        for path, data in sorted(self.entries):
            name = path.encode("utf-8", "surrogateescape")
            hasher.update(b"d" if data is None else b"f")
            hasher.update(len(name).to_bytes(8, "big") + name)
            if data is not None:
                hasher.update(len(data).to_bytes(8, "big") + data)
        hasher.update(self.entry.encode("utf-8", "surrogateescape"))
        return hasher.hexdigest()


def split_spec(spec: str) -> tuple[Path, str]:
    """``PATH[:FUNCTION]`` as a path and a function (``""``: the game's default), cut where a
    file bot's spec is cut (``bots.external.specs.split_spec``: an object's arguments may hold a
    ``:``, ``p.py:TDPlayer(name="a:b").move``)."""
    from bots.external.specs import split_spec as cut

    path, sep, function = cut(spec)
    if sep and path and os.path.lexists(path) and "/" not in function.partition("(")[0]:
        return Path(path), function
    return Path(spec), ""


def read(spec: str, cap: int) -> Files:
    """The submission ``spec`` names, read into memory (``ContestError`` for what cannot be)."""
    from arcade.untrusted import clean

    path, function = split_spec(spec)
    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:
        raise ContestError(f"cannot read {clean(path)}: {exc.strerror}") from None
    if stat.S_ISREG(mode):
        return _read_file(path, function, cap)
    if stat.S_ISDIR(mode):
        return _read_folder(path, function, cap)
    raise ContestError(f"{clean(path)} is no regular file or folder (a link, a device…): submit the bot's file itself")


def _read_file(path: Path, function: str, cap: int) -> Files:
    from arcade.untrusted import clean

    if not path.name.endswith(SUFFIXES):
        raise ContestError(f"{clean(path.name)} is no bot file (its name must end in {', '.join(SUFFIXES)})")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise ContestError(f"cannot read {clean(path)}: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ContestError(f"{clean(path)} is no regular file")
        data = handle.read(cap + 1)
    if len(data) > cap:
        raise ContestError(f"{clean(path.name)} is over {cap:,} bytes, the most a submission may hold")
    return Files((("bot", None), (f"bot/{path.name}", data)), f"bot/{path.name}:{function}")


def _read_folder(path: Path, function: str, cap: int) -> Files:
    from arcade.tournament.bundles import BundleError, encode, entries
    from arcade.untrusted import clean

    top = path.resolve().name if path.resolve().name.isidentifier() else "bot"
    try:
        source = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise ContestError(f"cannot read {clean(path)}: {exc.strerror}") from None
    try:
        data = encode(source, cap + 4096, top, lambda at, why: f"{clean(path / at)} {why}".replace(
            " to travel", "").replace("the most that travels", "the most a submission may hold"))
        found = tuple((p.decode("utf-8", "surrogateescape"), None if k == b"d" else bytes(c))
                      for k, p, c in entries(data))
    except BundleError as exc:
        raise ContestError(str(exc).replace("--bundle-cap", "max_bytes")) from None
    finally:
        os.close(source)
    if sum(len(c or b"") for _, c in found) > cap:
        raise ContestError(f"{clean(path)} holds over {cap:,} bytes, the most a submission may hold")
    names = {p for p, _ in found}
    if f"{top}/__init__.py" in names:
        return Files(found, f"{top}/__init__.py:{function}")
    bots = sorted(p for p in names if p.count("/") == 1 and p.endswith(SUFFIXES))
    if len(bots) != 1:
        raise ContestError(f"{clean(path)} holds {len(bots)} bot files at its top: submit the folder of a package, "
                           "or a folder with one bot file, or the file itself")
    return Files(found, f"{bots[0]}:{function}")


def keep(folder: Path, files: Files) -> Path:
    """The submission's copy in the contest: ``DIR/submissions/DIGEST`` (written once, atomically:
    a fresh folder renamed into place; one already there is kept). Its folders and files (named
    by the student) are made from descriptors (``bots.external.safe_files``), never through a
    name that leads elsewhere."""
    from bots.external import safe_files

    root = Path(folder) / "submissions"
    try:
        held = safe_files.make_folders(root)
    except OSError as exc:
        raise ContestError(f"cannot keep the submission in {root}: {exc.strerror or exc}") from None
    try:
        if safe_files.kind_at(held, files.digest) != "folder":
            _write_kept(held, files)
    except OSError as exc:
        raise ContestError(f"cannot keep the submission in {root}: {exc.strerror or exc}") from None
    finally:
        os.close(held)
    return root / files.digest


def _write_kept(root: int, files: Files) -> None:
    """``keep``'s copy: written into a fresh ``.part-…`` folder of the folder open as ``root``,
    renamed to its digest (another submit of the same bytes may have won: then it is kept)."""
    from bots.external import safe_files

    part, top = safe_files.make_temporary_folder(root, ".part-", mode=0o755)
    made = {"": top}
    try:
        for path, data in files.entries:
            parent, _, leaf = path.rpartition("/")
            if data is None:
                made[path] = safe_files.make_folder_at(made[parent], leaf, 0o755)
            else:
                safe_files.create_file_at(made[parent], leaf, data)
        try:
            safe_files.rename_at(root, part, files.digest)
        except OSError:  # another submit wrote the same bytes meanwhile
            if safe_files.kind_at(root, files.digest) != "folder":
                raise
    finally:
        for fd in made.values():
            os.close(fd)
        safe_files.remove_tree(root, part)


def spec_of(folder: Path, digest: str, entry: str) -> str:
    """The file-bot spec of a kept submission (its absolute path and function)."""
    path, _, function = entry.rpartition(":")
    spec = str((Path(folder) / "submissions" / digest / path).resolve())
    return f"{spec}:{function}" if function else spec


class Lock:
    """The contest's submit lock (``flock`` on ``DIR/.submit.lock``): one verdict written at a
    time, in the log and the database in the same order."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / LOCK

    def __enter__(self) -> "Lock":
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def log(folder: Path, line: dict) -> None:
    """Append one verdict to the submissions log (under ``Lock``), flushed to the disk: after a
    line cut short by a kill, on a line of its own."""
    path = Path(folder) / LOG
    data = json.dumps(line).encode("utf-8") + b"\n"
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                data = b"\n" + data
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise ContestError(f"cannot write {path}: {exc.strerror or exc}; the submission was not taken") from None


def logged(folder: Path) -> list[dict]:
    """The submissions log's whole, well-formed lines (a damaged one is skipped)."""
    path = Path(folder) / LOG
    keys = {"team", "digest", "entry", "submitted", "verdict", "reason"}
    out = []
    try:
        with open(path, "rb") as handle:
            for raw in handle:
                try:
                    line = json.loads(raw)
                except ValueError:
                    continue
                if type(line) is dict and set(line) == keys and all(type(v) is str for v in line.values()):
                    out.append(line)
    except FileNotFoundError:
        pass
    return out
