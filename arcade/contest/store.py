"""A submission's files, copied into the contest (``DIR/submissions/DIGEST/``), and the
submissions log (``DIR/submissions.jsonl``), the evidence of every verdict.

A submission is what a course collected, as handed in. Its grammar (``read``)::

    FILE[:ENTRY]             a bot's file alone: mine.py, strategy.R, instructions.ipynb
    FOLDER[:ENTRY]           a folder: a package (its __init__.py plays ENTRY), or the folder of
                             the one bot file that plays (``found_entry``)
    FOLDER:FILE[:ENTRY]      the folder, and the file in it that plays (a relative path:
                             hog_contest.py beside its own hog.py; players/td.py in a package)
    FOLDER:program           a CS4341 program: the folder of its code and the executable named
                             the team at its top (``program_in``; FOLDER/TEAM:program too)

ENTRY is a function, or an object's method (``TDPlayer(color=0).make_a_move``:
``bots.external.entry``); without it, the game's default. In Othello, a folder whose top holds an
executable named the team (a script with its ``#!`` line, or a compiled program) is a program
without ``:program`` being written. In a folder, the file that plays is
the one bot file at its top; else the one that is not a course's helper module (``hog.py``,
``dice.py``, ``ucb.py``, ``state.py``, ``match.py``, ``d_football.R``: a student's own copies of
them sit beside their contest file); else the one of those that defines the game's function;
anything else is refused, naming the files and the grammar.

Only regular files and folders are copied, never through a link (the folder is read as a
cluster's bundle is: ``arcade.tournament.bundles.encode``; a ``.deps`` folder that ``arcade bot
install`` made is no part of it), at most the contest's ``max_bytes``; anything else is refused
in one line. The copy is content-addressed: its name is the SHA-256 of its files (paths and
bytes, in a canonical order) and of its entry (the file and function that play), so the same
bytes sent twice are one submission.
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
from bots.external.specs import PROGRAM, SUFFIXES

INSTALLED = frozenset({".deps", ".deps.installing", ".deps.old"})
"""What ``arcade bot install`` makes in a bot's folder: packages, no part of the student's hand-in
(the contest installs a submission's own: ``arcade.contest.packages``)."""
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
    ``:``, ``p.py:TDPlayer(name="a:b").move``). ``FOLDER:FILE[:FUNCTION]`` is ``split_submission``'s."""
    path, _inner, function = split_submission(spec)
    return path, function


def split_submission(spec: str) -> tuple[Path, str, str]:
    """``spec`` in the submission's grammar (the module's docstring) as ``(path, file, entry)``:
    the path handed in, the file in it that plays (``""``: found, or ``path`` is that file) and
    the entry (``""``: the game's default)."""
    from bots.external.specs import split_spec as cut

    path, sep, function = cut(spec)
    if sep and path:
        if os.path.lexists(path):
            if function.endswith(SUFFIXES) and os.path.isdir(path):  # FOLDER:FILE
                return Path(path), function, ""
            if "/" not in function.partition("(")[0]:
                return Path(path), "", function
        folder, colon, inner = path.rpartition(":")
        if colon and folder and inner.endswith(SUFFIXES) and os.path.isdir(folder):  # FOLDER:FILE:ENTRY
            return Path(folder), inner, function
    return Path(spec), "", ""


def read(spec: str, cap: int, game: str = "", team: str = "") -> Files:
    """The submission ``spec`` names, read into memory (``ContestError`` for what cannot be);
    ``game``'s default functions choose the file that plays in a folder of several; ``team`` (if
    given) names a program's executable (``program_in``)."""
    from arcade.untrusted import clean

    from bots.external.safe_files import UnsafePath, open_path

    path, inner, function = split_submission(spec)
    try:
        fd = open_path(path)  # one descriptor walk: what is read is what was looked at
    except UnsafePath as exc:
        raise ContestError(clean(exc.strerror or str(exc), cap=300)) from None
    except OSError as exc:
        raise ContestError(f"cannot read {clean(path)}: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISREG(mode) and function == PROGRAM:  # FOLDER/TEAM:program, the executable named
            os.close(fd)
            fd = -1
            try:
                fd = open_path(path.parent, folder=True)
            except UnsafePath as exc:
                raise ContestError(clean(exc.strerror or str(exc), cap=300)) from None
            except OSError as exc:
                raise ContestError(f"cannot read {clean(path.parent)}: {exc.strerror}") from None
            return _read_folder(fd, path.parent, "", PROGRAM, cap, game, team or path.name)
        if stat.S_ISREG(mode):
            return _read_file(fd, path, function, cap)
        if stat.S_ISDIR(mode):
            return _read_folder(fd, path, inner, function, cap, game, team)
    finally:
        if fd >= 0:
            os.close(fd)
    raise ContestError(f"{clean(path)} is no regular file or folder (a FIFO, a device…): submit the bot's file itself")


def _read_file(fd: int, path: Path, function: str, cap: int) -> Files:
    """The bot's file open as ``fd`` (the caller closes it), named ``path``."""
    from arcade.untrusted import clean
    from bots.external.safe_files import UnsafePath, read_regular_fd

    if not path.name.endswith(SUFFIXES):
        raise ContestError(f"{clean(path.name)} is no bot file (its name must end in {', '.join(SUFFIXES)})")
    try:
        data = read_regular_fd(fd, cap, str(path))
    except UnsafePath:
        raise ContestError(f"{clean(path)} is no regular file") from None
    except OSError as exc:
        raise ContestError(f"cannot read {clean(path)}: {exc.strerror}") from None
    if len(data) > cap:
        raise ContestError(f"{clean(path.name)} is over {cap:,} bytes, the most a submission may hold")
    return Files((("bot", None), (f"bot/{path.name}", data)), f"bot/{path.name}:{function}")


def _read_folder(source: int, path: Path, inner: str, function: str, cap: int, game: str = "", team: str = "") -> Files:
    """The folder open as ``source`` (closed by the caller), named ``path``."""
    from arcade.tournament.bundles import BundleError, encode, entries
    from arcade.untrusted import clean

    from bots.external.safe_files import name_of

    real = name_of(source, os.path.basename(os.path.abspath(path)))
    top = real if real.isidentifier() else "bot"
    try:
        data = encode(source, cap + 4096, top, lambda at, why: f"{clean(path / at)} {why}".replace(
            " to travel", "").replace("the most that travels", "the most a submission may hold"), skip=INSTALLED)
        found = tuple((p.decode("utf-8", "surrogateescape"), None if k == b"d" else bytes(c))
                      for k, p, c in entries(data))
    except BundleError as exc:
        raise ContestError(str(exc).replace("--bundle-cap", "max_bytes")) from None
    if sum(len(c or b"") for _, c in found) > cap:
        raise ContestError(f"{clean(path)} holds over {cap:,} bytes, the most a submission may hold")
    files = dict(found)
    if inner:
        named = os.path.normpath(inner)
        if named.startswith(("/", "..")) or files.get(f"{top}/{named}", None) is None:
            raise ContestError(f"{clean(path)} holds no file {clean(inner)} to play (write FOLDER:FILE[:FUNCTION], "
                               "FILE a path inside FOLDER)")
        return Files(found, f"{top}/{named}:{function}")
    program = program_in(path, top, files, function, game, team)
    if program is not None:
        return Files(found, f"{program}:{PROGRAM}")
    return Files(found, f"{found_entry(path, top, files, game)}:{function}")


def program_in(path: Path, top: str, files: dict, function: str, game: str, team: str) -> str | None:
    """The program a folder handed in is (``top/NAME``, its executable), or ``None`` for a bot's
    file: CS4341 collected "the code of their program and an executable (or script) named
    groupname". ``FOLDER:program`` says it is one: the executable named ``team`` at the folder's
    top (without a team, the one executable there, whose name is the team's:
    ``declared_team``); without an entry, in a game of programs, a folder whose top holds an
    executable named ``team`` is one. An executable is a file that begins as one that runs
    (``EXECUTABLE_HEADS``: modes are not kept). ``ContestError`` when ``:program`` finds none, or
    when the folder's top holds programs but none named ``team``."""
    from arcade.untrusted import clean
    from bots.external.specs import EXECUTABLE_HEADS, PROGRAM_GAMES

    if function not in ("", PROGRAM) or (game not in PROGRAM_GAMES and function != PROGRAM):
        return None
    if game and game not in PROGRAM_GAMES:
        raise ContestError(f"programs play {', '.join(PROGRAM_GAMES)} only (CS4341's), not {game}")
    runs = sorted(p for p, data in files.items() if data is not None and p.count("/") == 1
                  and not p.endswith(SUFFIXES) and data.startswith(EXECUTABLE_HEADS))
    if team:
        named = f"{top}/{team}"
        if named in runs:
            return named
        if function == PROGRAM or runs:  # a program handed in under another team's name
            found = f" (it holds {', '.join(clean(p.split('/', 1)[1], cap=40) for p in runs[:6])})" if runs else ""
            raise ContestError(f"{clean(path)} holds no program named {clean(team)} at its top{found}: a program is "
                               "the team's executable (a script beginning with its #! line, or a compiled program), "
                               "named as the course's groupname")
        return None
    if function == PROGRAM and len(runs) != 1:
        shown = ", ".join(clean(p.split("/", 1)[1], cap=40) for p in runs[:6])
        raise ContestError(f"{clean(path)} holds {len(runs)} programs at its top{f' ({shown})' if runs else ''}: "
                           "give the team, whose name is its executable's: arcade contest submit DIR TEAM FOLDER")
    return runs[0] if function == PROGRAM else None


def course_helpers() -> frozenset[str]:
    """The names of the courses' helper modules (``bots/course_modules/``, and STATS 306's
    ``d_football.R``): a student's own copy of one sits beside the file that plays, and is not it."""
    from bots import course_modules_path

    names = {name for name in os.listdir(course_modules_path()) if name.endswith(".py") and not name.startswith("_")}
    return frozenset(names | {"d_football.R"})


def found_entry(path: Path, top: str, files: dict, game: str = "") -> str:
    """The file that plays in a folder handed in without one named (the module's docstring):
    ``top/__init__.py`` for a package; the one bot file at its top; else the one that is no
    course helper module; else the one of those that defines the game's function.
    ``ContestError`` naming the candidates when none or several remain."""
    from arcade.untrusted import clean

    if f"{top}/__init__.py" in files:
        return f"{top}/__init__.py"
    bots = sorted(p for p, data in files.items() if data is not None and p.count("/") == 1 and p.endswith(SUFFIXES))
    candidates = bots if len(bots) <= 1 else [p for p in bots if p.split("/", 1)[1] not in course_helpers()]
    if len(candidates) > 1 and game:
        candidates = [p for p in candidates if _defines(p, files[p], game)] or candidates
    if len(candidates) == 1:
        return candidates[0]
    shown = ", ".join(clean(p.split("/", 1)[1], cap=40) for p in (candidates or bots)[:6])
    raise ContestError(f"{clean(path)} holds {len(bots)} bot files at its top{f' ({shown})' if bots else ''}: "
                       "name the one that plays, FOLDER:FILE[:FUNCTION], or submit a package, or the file itself")


def _defines(path: str, data: bytes, game: str) -> bool:
    """Whether the bot file ``path`` (its bytes ``data``) defines one of ``game``'s default
    functions: read from its syntax (a notebook: its text), never run."""
    import ast
    import re

    from bots.adapters import ADAPTERS

    adapter = ADAPTERS.get(game)
    names = adapter.default_functions if adapter is not None else ()
    text = data.decode("utf-8", "replace")
    if path.endswith(".py"):
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
        return any(isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) and node.name in names
                   for node in tree.body)
    return any(re.search(rf"(?<![\w.]){re.escape(name)}\s*(<-|=)\s*function\b", text) for name in names) or \
        (path.endswith(".ipynb") and any(f"def {name}(" in text or f"class {name}" in text for name in names))


def declared_team(files: Files) -> tuple[str | None, str]:
    """The team the file that plays names itself (a notebook's team-name cell, a Python file's
    ``PLAYER_NAME`` or ``TEAM_NAME``), and where; ``(None, "")`` if it names none.
    ``ContestError`` for a notebook that cannot be read (its one line)."""
    from bots.external import notebook
    from bots.external.specs import split_spec as cut

    path, _, function = cut(files.entry)
    if function == PROGRAM:  # CS4341: the executable is named the team
        return path.rsplit("/", 1)[-1], "program (its executable's name)"
    data = dict(files.entries).get(path)
    if data is None:
        return None, ""
    if notebook.is_notebook(path):
        try:
            read = notebook.read_notebook(data, path.rsplit("/", 1)[-1], function.partition("(")[0])
        except notebook.NotebookError as exc:
            raise ContestError(str(exc)) from None
        return read.team, read.team_source
    if path.endswith(".py"):
        return notebook.declared_team(data.decode("utf-8", "replace"))
    return None, ""


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
