"""A file bot's spec, ``path/to/file.py:function`` (or an R strategy's ``path/to/file.R:function``):
telling one from a built-in's name, showing it short, and finding its file and function."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path, PurePosixPath
from typing import Iterable

from bots import deps_folder
from bots.base import printable
from bots.external.entry import EntryError, parse_entry
from bots.external.notebook import NOTEBOOK_SUFFIX, NotebookError, is_notebook
from bots.external.rlang import R_SUFFIXES, is_r_file, r_problem

SUFFIXES = (".py", *R_SUFFIXES, NOTEBOOK_SUFFIX)
"""The endings of a bot's file: Python's, R's (``bots.external.rlang``) and a Jupyter notebook's
(``bots.external.notebook``: its language is the notebook's own)."""


PROGRAM = "program"
"""The entry that makes a spec a CS4341 program, ``path/to/team/team:program``: the executable (a
script or a compiled program) named the team, which plays Othello through the referee's files
(``bots.external.program``); it is a file bot too (``is_file_spec``), run in the same sandbox."""
PROGRAM_GAMES = ("othello",)
"""The games whose course collected programs (CS4341's Othello)."""
PROGRAM_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,39}")
"""A program's name, the course's "one-word name" (it names ``NAME.go`` and opens each move line)."""
EXECUTABLE_HEADS = (b"#!", b"\x7fELF")
"""How a file that runs begins: a script's ``#!`` line, or a compiled program's ELF header. A
submission keeps bytes, not modes: such a file is the one made executable in a program's copy."""


class BadSpec(ValueError):
    """A file bot spec that names no loadable function; the message says why."""


def split_spec(name: str) -> tuple[str, str, str]:
    """``name`` cut at the ``:`` before its entry, as ``str.rpartition`` cuts it: ``(path, ":",
    entry)``, or ``("", "", name)`` without one. A file's name may hold brackets and colons
    (``=HYPERLINK(1).py:good``), and an entry's arguments a ``:`` and a file's suffix of their own
    (``bot.py:Player(name="a.py:b").move``): the cut is the first ``:`` after a file's suffix
    whose entry begins with a (dotted) name, else the last ``:`` before the entry's first ``(``."""
    for cut in range(len(name)):
        if name[cut] == ":" and name[:cut].endswith(SUFFIXES) and _ENTRY_HEAD.match(name, cut + 1):
            return name[:cut], ":", name[cut + 1:]
    bracket = name.find("(")
    if bracket < 0:
        return name.rpartition(":")
    path, sep, head = name[:bracket].rpartition(":")
    return (path, sep, head + name[bracket:]) if sep else ("", "", name)


_ENTRY_HEAD = re.compile(r"[A-Za-z_][\w.]*(\(|$)")
"""How an entry begins: a name, dotted or not, then its arguments or nothing."""


def is_file_spec(name: str) -> bool:
    """Whether ``name`` names a file bot (``x.py`` or ``x.py:function``, ``x.R`` or
    ``x.R:function``, or a package's folder ``path/to/pkg`` or ``pkg:function``) rather than a
    built-in."""
    path, sep, _function = split_spec(name)
    return (name.endswith(SUFFIXES) or bool(sep and path.endswith(SUFFIXES)) or _package_spec(name) is not None
            or is_program_spec(name))


def is_program_spec(name: str) -> bool:
    """Whether ``name`` names a CS4341 program: ``path/to/team/team:program`` (``PROGRAM``), the
    path no bot file's (``bot.py:program`` is a Python function of that name). Cut at the last
    ``:``, whatever the name holds (brackets, colons: a file's name may)."""
    path, sep, entry = name.rpartition(":")
    return bool(sep and path) and entry == PROGRAM and not path.endswith(SUFFIXES)


def _package_spec(name: str) -> tuple[str, str] | None:
    """``(folder, function)`` when ``name`` is a package's folder (one holding ``__init__.py``)
    written with a ``/`` or a ``:function``, so that no built-in bot's name is ever taken for one."""
    path, sep, function = split_spec(name)
    if not sep or "/" in function.partition("(")[0]:
        path, function = name, ""
    if not (sep or "/" in path):
        return None
    try:
        found = kept_file(Path(path).expanduser() / "__init__.py")
    except (OSError, ValueError, RuntimeError):  # a name too long, a NUL, no home for ~: a name from a record
        return None
    return (path, function) if found else None


def package_of(path: Path) -> str | None:
    """The package a bot's file belongs to: its folder's name when the folder holds
    ``__init__.py`` (and the name is a Python name), else ``None``. The folder alone is the
    package (no climbing above it: the bot's folder is all the sandbox shows it)."""
    folder = path.parent
    if folder.name.isidentifier() and kept_file(folder / "__init__.py"):
        return folder.name
    return None


def one_regular_file(path: Path) -> bool:
    """Whether ``path`` is a regular file of one name: not a symbolic link (to anything) nor a
    hard link (``bots.external.sandbox`` leaves both out of a bot's copy of its folder)."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(st.st_mode) and st.st_nlink == 1


def kept_file(path: Path) -> bool:
    """Whether ``path`` is a file the bot's copy of its folder keeps, asked as the copy asks
    (``sandbox_launch.walk_folder``, by whoever makes the copy: root, or the user running the
    arcade): a regular file of one name (``one_regular_file``) that opens for reading without
    following a link, and is still one regular file once open. An ``__init__.py`` that is a link,
    or that its user may not read (left out of the user's copy), does not make a package of the
    folder the bot is given."""
    from bots.external.sandbox_launch import READ_FLAGS

    if not one_regular_file(path):
        return False
    try:
        fd = os.open(path, READ_FLAGS)
    except (OSError, ValueError):
        return False
    try:
        st = os.fstat(fd)
    finally:
        os.close(fd)
    return stat.S_ISREG(st.st_mode) and st.st_nlink == 1


def deps_elsewhere(path: Path) -> Path | None:
    """A ``.deps`` that the bot whose file is ``path`` does not see because it is not in the bot's
    folder but in a folder above it (``arcade bot install PARENT`` for a bot in ``PARENT/pkg``),
    when the bot's own folder has none; ``None`` otherwise."""
    if deps_folder(path).is_dir():
        return None
    for folder in list(path.parent.parents)[:2]:
        candidate = deps_folder(folder / path.name)
        try:
            if candidate.is_dir():
                return candidate
        except OSError:
            return None
    return None


def short_name(name: str) -> str:
    """A bot's name for a table: a file bot's file name and function, a built-in's name as is
    (``short_names`` tells apart file bots of the same file name)."""
    shape = _shape(name)
    return name if shape is None else _named(shape, 1)


def short_names(names: Iterable[str]) -> dict[str, str]:
    """Each of ``names`` (a run's bots) by its shortest distinguishing path: a file bot's file
    name and function (``short_name``) while no other bot of the run has that name, else as many
    of its folders before it as tell it from each other bot's name of as many folders
    (``alice/bot.py``, ``bob/bot.py``; ``a/x/bot.py``, ``b/x/bot.py`` and ``c/bot.py`` beside
    them); a built-in's name as is. Distinct names for distinct bots, whatever their specs: where
    whole paths meet (``./bot.py`` and ``bot.py``) a spec is shown as written, and where even
    that does not tell them apart (a name whose controls ``printable`` took out), numbered."""
    from collections import Counter

    unique = list(dict.fromkeys(names))
    shapes = {name: shape for name in unique if (shape := _shape(name)) is not None}
    builtins = {name for name in unique if name not in shapes}
    deepest = max((len(parts) for parts, _tail in shapes.values()), default=1)
    at_depth = [Counter(_named(shape, depth) for shape in shapes.values()) for depth in range(deepest + 1)]

    def taken(shown: str, depth: int) -> bool:  # a built-in's name, or another file bot's of as many parts
        return shown in builtins or at_depth[depth][shown] > 1

    named = {name: name for name in builtins}
    for name, shape in shapes.items():
        depth = 1
        while depth < len(shape[0]) and taken(_named(shape, depth), depth):
            depth += 1
        shown = _named(shape, depth)
        named[name] = printable(name) if taken(shown, depth) else shown
    return _apart(named, unique)


def _shape(name: str) -> tuple[tuple[str, ...], str] | None:
    """A file bot's path cut into its parts and what follows the path (``:function``, or
    nothing); ``None`` for a built-in's name."""
    if not is_file_spec(name):
        return None
    path, sep, function = split_spec(name)
    package = _package_spec(name)
    if package is not None and not name.endswith(SUFFIXES):
        path, function = package
        tail = f":{function}" if function else ""
    elif not sep or not path.endswith(SUFFIXES):
        path, tail = name, ""
    else:
        tail = f":{function}"
    return PurePosixPath(path).parts, tail


def _named(shape: tuple[tuple[str, ...], str], depth: int) -> str:
    """The name of ``shape`` with its last ``depth`` parts (a file's name may hold escape
    sequences: made printable)."""
    parts, tail = shape
    return printable((str(PurePosixPath(*parts[-depth:])) if parts else "") + tail)


def _apart(named: dict[str, str], order: list[str]) -> dict[str, str]:
    """``named`` with a name that two bots share numbered (`` #2``) in all but the first."""
    seen = set()
    out = {}
    for name in order:
        shown = named[name]
        number = 1
        while shown in seen:
            number += 1
            shown = f"{named[name]} #{number}"
        seen.add(shown)
        out[name] = shown
    return out


def named_file(spec: str) -> tuple[Path, str]:
    """The file ``spec`` names, as written (not resolved: it may be a link), and its function
    (``""``: the game's default). A package's folder stands for its ``__init__.py``; a program's
    executable for itself (``PROGRAM``)."""
    if is_program_spec(spec):
        return Path(spec.rpartition(":")[0]).expanduser(), PROGRAM
    path_text, sep, function = split_spec(spec)
    if not sep or not path_text.endswith(SUFFIXES):
        path_text, function = spec, ""
    package = _package_spec(spec)
    if package is not None and not path_text.endswith(SUFFIXES):
        path_text, function = package[0] + "/__init__.py", package[1]
    return Path(path_text).expanduser(), function


def parse_spec(spec: str, game_id: str) -> tuple[Path, str]:
    """The file (resolved) and function of ``spec`` (``named_file``); ``BadSpec`` if the file is
    missing or the name is bad."""
    from bots.adapters import adapter_for

    if is_program_spec(spec):
        return program_file(spec, game_id)
    path, function = named_file(spec)
    adapter = adapter_for(game_id)
    function = function or adapter.default_function
    if is_notebook(path) and path.is_file():
        language = notebook_language(path, function, spec)
    else:
        language = "R" if is_r_file(str(path)) else "python"
    if language == "R":
        problem = r_problem(game_id, function)
        if problem:
            raise BadSpec(f"bot {spec!r}: {problem}")
    else:
        try:
            parse_entry(function)  # parsed, not evaluated: the bot's own process builds it
        except EntryError as exc:
            raise BadSpec(f"bot {printable(spec[:80])!r}: {exc} (write path/to/file.py:function)") from None
    if not path.is_file():
        raise BadSpec(f"bot {spec!r}: no such file {str(path)!r} (write path/to/file.py:function)")
    return path.resolve(), function


def notebook_language(path: Path, function: str, spec: str = "") -> str:
    """The language of the notebook at ``path`` (``"R"`` or ``"python"``), read whole and checked
    as it will play (``read_notebook``)."""
    return read_notebook(path, function, spec).language


def read_notebook(path: Path, function: str, spec: str = ""):
    """The notebook at ``path`` as it will play (``bots.external.notebook.Notebook``), ``None``
    when ``path`` is no notebook; ``BadSpec`` saying in one line why it cannot play."""
    from bots.external.notebook import load

    if not is_notebook(path):
        return None
    try:
        return load(path, function)
    except NotebookError as exc:
        raise BadSpec(f"bot {printable((spec or str(path))[:80])!r}: {exc}") from None


def program_file(spec: str, game_id: str) -> tuple[Path, str]:
    """The executable of program ``spec`` (resolved) and ``PROGRAM``; ``BadSpec`` for a game whose
    course had no programs, a name that is not one word, or no program there: a regular file of
    one name (a link is never followed into the sandbox) beginning as one that runs does
    (``EXECUTABLE_HEADS``)."""
    path = named_file(spec)[0]
    shown = printable(spec[:120])
    if game_id not in PROGRAM_GAMES:
        raise BadSpec(f"bot {shown!r}: programs play {', '.join(PROGRAM_GAMES)} only (CS4341's), not {game_id}")
    if not PROGRAM_NAME.fullmatch(path.name):
        raise BadSpec(f"bot {shown!r}: a program's name is one word of letters, digits, _ or - "
                      f"(at most 40), the team's: not {printable(path.name[:60])!r}")
    if not one_regular_file(path):  # (one its user may not read is said so below)
        raise BadSpec(f"bot {shown!r}: no program {printable(str(path)[:200])!r} (a regular file, not a link; "
                      "write path/to/team/team:program)")
    try:
        with open(path, "rb", opener=lambda name, flags: os.open(name, flags | os.O_NOFOLLOW | os.O_NONBLOCK)) as handle:
            head = handle.read(4)
    except OSError as exc:
        raise BadSpec(f"bot {shown!r}: cannot read {printable(path.name)}: {exc.strerror or exc}") from None
    if not head.startswith(EXECUTABLE_HEADS):
        raise BadSpec(f"bot {shown!r}: {printable(path.name)} is no program: a script begins with its #! line "
                      "(#!/bin/sh, #!/usr/bin/env python3), a compiled program is an ELF file")
    return path.resolve(), PROGRAM
