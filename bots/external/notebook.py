"""Jupyter notebooks as bot files: what the courses collected (STATS 306 the whole nbgrader
notebook, ``instructions.ipynb``; Toothpick Takeaway and Robot Ludo taught in Python notebooks)
plays wherever a bot's file does.

A notebook is read here, in the arcade's process, with Jupyter's own ``nbformat`` (never run by a
kernel: nothing of it runs on the instructor's side); what it yields is the code that plays, as
``cells`` (a label and its source each) that the bot's process runs in its sandbox, the
notebook's language, and the team name it declares. The one reader is ``read_notebook``; every
way a notebook can be wrong is a ``NotebookError`` whose text is one line.

**An R notebook** (kernel ``ir``, language R: STATS 306) runs as the course scored it: "Only
that cell will get run when we score your code". Its nbgrader solution code cells alone (the
template's ``strategy-cell``), else the one code cell that defines the entry (``my_strategy <-
function(game) ...``); the course's rules in its words: the notebook at most 200 kB
(``R_NOTEBOOK_BYTES``), no ``install.packages()`` or ``library()`` (nor ``require()``) in the
code that runs.

**A Python notebook** runs its code cells in order as one module. IPython's own syntax is not
Python (``MAGICS``): a display-only magic is dropped (``%matplotlib inline``, ``%timeit …``, a
``%%html`` cell), ``%time STATEMENT`` and ``%%time``/``%%capture`` cells keep their Python, and
anything else (``!pip install …``, ``%pip``, ``%run``, ``%%bash``, ``%cd``…) refuses the
notebook naming its cell and line: a bot runs as plain Python in a sandbox, and its packages come
from ``requirements.txt`` (``arcade bot install``).

**The team name**: the markdown cell nbgrader calls ``team-name-cell`` (its text, one word), or a
module-level ``PLAYER_NAME = "…"`` or ``TEAM_NAME = "…"`` in the code (as CS 61A's contest files
name their team); ``None`` where the notebook names none (the template's ``YOUR ANSWER HERE``
is none).
"""

from __future__ import annotations

import ast
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

NOTEBOOK_SUFFIX = ".ipynb"
MAX_NOTEBOOK = 16 << 20
"""Bytes of a notebook at most (its outputs included: plots make notebooks large); read no further."""
MAX_CODE = 1 << 20
"""Characters of the code that plays at most (a notebook's code is a few thousand)."""
R_NOTEBOOK_BYTES = 200 * 1024
"""STATS 306: "The total size of this notebook may not exceed 200kb when uploaded"."""
MAX_DEPTH = 64
"""How deep a notebook's JSON may nest (a notebook's own structure is 5 deep; metadata a little more)."""
TEMPLATE_ANSWERS = ("YOUR ANSWER HERE", "YOUR CODE HERE")
"""nbgrader's placeholders: a team-name cell that still holds one names no team."""
TEAM_VARIABLES = ("PLAYER_NAME", "TEAM_NAME")
"""The module-level names a contest file names its team by (CS 61A's Hog contest)."""
R_FORBIDDEN = re.compile(r"(?<![\w.])(library|require|install\.packages|requireNamespace|loadNamespace)\s*\(")
"""Calls the STATS 306 rules forbid in the code that runs ("You may not use install.packages()
or library() to load other packages"), and their synonyms."""

DROPPED_LINE_MAGICS = frozenset({
    "matplotlib", "config", "load_ext", "reload_ext", "unload_ext", "autoreload", "aimport", "precision",
    "pprint", "xmode", "colors", "timeit", "who", "whos", "who_ls", "pdb", "doctest_mode", "autosave",
    "notebook", "lsmagic", "magic", "history", "pwd", "env_show",
})
"""Line magics that only display or set up the notebook's display: the line is dropped."""
KEPT_LINE_MAGICS = frozenset({"time", "prun", "capture"})
"""Line magics that run a Python statement and show something about it: the statement is kept."""
DROPPED_CELL_MAGICS = frozenset({"timeit", "html", "markdown", "latex", "javascript", "js", "svg", "prun"})
"""Cell magics whose cell only measures or displays: the cell is dropped."""
KEPT_CELL_MAGICS = frozenset({"time", "capture"})
"""Cell magics whose body is Python run once: the body is kept."""
MAGICS = (DROPPED_LINE_MAGICS, KEPT_LINE_MAGICS, DROPPED_CELL_MAGICS, KEPT_CELL_MAGICS)


class NotebookError(ValueError):
    """A notebook that cannot play: one line saying why (the cell, where one is to blame)."""


@dataclass(frozen=True)
class Notebook:
    """A notebook read: its ``language`` (``"R"`` or ``"python"``), the ``cells`` that run, in
    order (``(label, source)``, the label naming the notebook's cell: ``"cell 12"``, or nbgrader's
    ``strategy-cell``), and the ``team`` it names (``None``: none)."""

    language: str
    cells: tuple[tuple[str, str], ...]
    team: str | None = None
    team_source: str = ""
    """Where ``team`` was found: ``"the team-name cell"``, ``"PLAYER_NAME"``…"""


def is_notebook(path: str | os.PathLike) -> bool:
    """Whether ``path`` names a notebook (``.ipynb``)."""
    return str(path).endswith(NOTEBOOK_SUFFIX)


def read_file(path: str | os.PathLike) -> bytes:
    """A notebook's bytes, read without following a link or blocking on a FIFO, at most
    ``MAX_NOTEBOOK`` (``NotebookError`` beyond, or when it cannot be read)."""
    from bots.external.safe_files import UnsafePath, read_regular

    name = Path(path).name
    try:
        data = read_regular(path, MAX_NOTEBOOK)
    except UnsafePath:
        raise NotebookError(f"{_shown(name)} is no regular file") from None
    except OSError as exc:
        raise NotebookError(f"cannot read {_shown(name)}: {exc.strerror or exc}") from None
    if len(data) > MAX_NOTEBOOK:
        raise NotebookError(f"{_shown(name)} is over {MAX_NOTEBOOK >> 20} MiB: no notebook a bot plays from is")
    return data


def read_notebook(data: bytes, name: str = "notebook.ipynb", entry: str = "") -> Notebook:
    """The notebook of ``data`` (named ``name`` in messages): its language, the cells that play
    and its team. ``entry`` is the function the bot is played by (an R notebook without nbgrader's
    metadata runs the one cell defining it). ``NotebookError`` for anything that cannot play."""
    shown = _shown(name)
    node = _parse(data, shown)
    language = _language(node, shown)
    cells = node.get("cells")
    if language == "R":
        if len(data) > R_NOTEBOOK_BYTES:
            raise NotebookError(f"{shown} is {len(data):,} bytes: the total size of this notebook may not exceed "
                                f"200kb (STATS 306's rule)")
        chosen = _r_cells(cells, shown, entry or "my_strategy")
    else:
        chosen = _python_cells(cells, shown)
    size = sum(len(source) for _, source in chosen)
    if size > MAX_CODE:
        raise NotebookError(f"{shown}'s code is {size:,} characters: at most {MAX_CODE:,}")
    team, where = _team(cells, chosen, language)
    return Notebook(language, tuple(chosen), team, where)


def load(path: str | os.PathLike, entry: str = "") -> Notebook:
    """``read_notebook`` of the file at ``path``."""
    return read_notebook(read_file(path), Path(path).name, entry)


# -- reading --------------------------------------------------------------------------------------

def _parse(data: bytes, shown: str):
    """The notebook node of ``data`` (nbformat 4, upgraded from 3 as Jupyter does), its
    structure checked where the arcade relies on it (cells with a type and text)."""
    import nbformat

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotebookError(f"{shown} is not a notebook: not UTF-8 text") from None
    try:
        raw = json.loads(text)
    except RecursionError:
        raise NotebookError(f"{shown} is not a notebook: its JSON nests too deep") from None
    except (ValueError, MemoryError) as exc:
        raise NotebookError(f"{shown} is not a notebook: not JSON ({str(exc)[:80]})") from None
    if not _shallow(raw):
        raise NotebookError(f"{shown} is not a notebook: its JSON nests deeper than {MAX_DEPTH} levels")
    if not isinstance(raw, dict) or "nbformat" not in raw:
        raise NotebookError(f"{shown} is not a notebook: no nbformat version in it")
    major = raw.get("nbformat")
    if type(major) is not int or not 3 <= major <= 4:
        raise NotebookError(f"{shown} is a notebook of format {_shown(repr(major))}: only formats 3 and 4 "
                            "(Jupyter's) are read")
    if major == 4:
        _check_cells(raw.get("cells"), shown)  # what nbformat would stumble on, said plainly
    try:
        node = nbformat.reads(text, as_version=4, capture_validation_error={})
    except RecursionError:
        raise NotebookError(f"{shown} is not a notebook: its JSON nests too deep") from None
    except Exception as exc:  # noqa: BLE001 - nbformat raises many kinds on a damaged notebook
        raise NotebookError(f"{shown} is a damaged notebook ({type(exc).__name__}: {_shown(str(exc))[:100]})") from None
    cells = node.get("cells") if isinstance(node, dict) else None
    _check_cells(cells, shown)
    for cell in cells:
        if isinstance(cell.get("source", ""), list):
            cell["source"] = "".join(cell["source"])
        cell.setdefault("source", "")
    return node


def _check_cells(cells, shown: str) -> None:
    """``NotebookError`` unless ``cells`` is a list of cells, each with a type and text for its source."""
    if not isinstance(cells, list):
        raise NotebookError(f"{shown} is a damaged notebook: it has no list of cells")
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or not isinstance(cell.get("cell_type"), str):
            raise NotebookError(f"{shown} is a damaged notebook: cell {number} has no type")
        source = cell.get("source", "")
        if not (isinstance(source, str) or (isinstance(source, list) and all(isinstance(p, str) for p in source))):
            raise NotebookError(f"{shown} is a damaged notebook: cell {number}'s source is not text")


def _shallow(value) -> bool:
    """Whether ``value`` (parsed JSON) nests at most ``MAX_DEPTH`` deep; iterative."""
    todo = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if depth > MAX_DEPTH:
            return False
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        todo.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return True


def _language(node, shown: str) -> str:
    """``"R"`` or ``"python"``, from the kernel's spec (or the language's info)."""
    metadata = node.get("metadata") if isinstance(node.get("metadata"), dict) else {}
    names = []
    for key in ("kernelspec", "language_info"):
        part = metadata.get(key)
        if isinstance(part, dict):
            names += [part.get("language"), part.get("name")]
    names = [n.strip().lower() for n in names if isinstance(n, str) and n.strip()]
    if any(n in ("r", "ir") for n in names):
        return "R"
    if not names or any(n.startswith("python") or n == "ipython" for n in names):
        return "python"  # a notebook without a kernel named is Jupyter's default, Python
    raise NotebookError(f"{shown} is a notebook in {_shown(names[0])}: bots play in Python (or, D-Football, R)")


def _nbgrader(cell) -> dict:
    metadata = cell.get("metadata")
    info = metadata.get("nbgrader") if isinstance(metadata, dict) else None
    return info if isinstance(info, dict) else {}


def _label(cell, number: int) -> str:
    grade_id = _nbgrader(cell).get("grade_id")
    return f"cell {number} ({grade_id})" if isinstance(grade_id, str) and grade_id.isprintable() and grade_id \
        else f"cell {number}"


def _r_cells(cells: list, shown: str, entry: str) -> list[tuple[str, str]]:
    """An R notebook's cells that run: its nbgrader solution code cells (the strategy cell), else
    the one code cell that defines ``entry``; checked against the course's rules."""
    code = [(number, cell) for number, cell in enumerate(cells, start=1) if cell["cell_type"] == "code"]
    strategy = [(n, c) for n, c in code if _nbgrader(c).get("grade_id") == "strategy-cell"]
    if len(strategy) > 1:
        raise NotebookError(f"{shown} has {len(strategy)} strategy cells (cells "
                            f"{', '.join(str(n) for n, _ in strategy)}): the course's notebook has one")
    chosen = [(n, c) for n, c in code if _nbgrader(c).get("solution") is True]
    if not chosen:
        defining = re.compile(rf"(?m)^\s*`?{re.escape(entry)}`?\s*(<-|<<-|=)\s*function\b")
        chosen = [(n, c) for n, c in code if defining.search(_r_code(c["source"]))]
        if len(chosen) > 1:
            raise NotebookError(f"{shown} defines {entry} in {len(chosen)} cells (cells "
                                f"{', '.join(str(n) for n, _ in chosen)}): only one cell runs; mark it as "
                                "nbgrader's strategy-cell or keep one")
    if not chosen:
        raise NotebookError(f"{shown} has no strategy cell: no nbgrader solution cell, and no cell defines "
                            f"{entry} <- function(game) …")
    for number, cell in chosen:
        found = R_FORBIDDEN.search(_r_code(cell["source"]))
        if found:
            raise NotebookError(f"{shown}, {_label(cell, number)}: calls {found.group(1)}(): you may not use "
                                "install.packages() or library() to load other packages (STATS 306's rule: "
                                "tidyverse, base R and d_football.R are there)")
    return [(_label(cell, number), cell["source"]) for number, cell in chosen]


def _r_code(source: str) -> str:
    """R ``source`` with its comments and the insides of its strings blanked out (so that a rule
    reads only code); backquoted names keep their name."""
    out = []
    index, length = 0, len(source)
    while index < length:
        char = source[index]
        if char == "#":
            end = source.find("\n", index)
            index = length if end < 0 else end
            continue
        raw = re.match(r"[rR]([\"'])(-*)([\[({])", source[index:index + 64])
        if raw and (index == 0 or not (source[index - 1].isalnum() or source[index - 1] in "._")):
            closer = {"[": "]", "(": ")", "{": "}"}[raw.group(3)] + raw.group(2) + raw.group(1)
            end = source.find(closer, index + raw.end())
            index = length if end < 0 else end + len(closer)
            out.append('""')
            continue
        if char in "\"'`":
            end = index + 1
            while end < length and source[end] != char:
                end += 2 if source[end] == "\\" else 1
            if char == "`":
                out.append(source[index + 1:end])
            else:
                out.append('""')
            index = end + 1
            continue
        out.append(char)
        index += 1
    return "".join(out)


def _python_cells(cells: list, shown: str) -> list[tuple[str, str]]:
    """A Python notebook's code cells in order, IPython's syntax handled by ``MAGICS``' rule."""
    chosen = []
    for number, cell in enumerate(cells, start=1):
        if cell["cell_type"] != "code":
            continue
        source = _plain_python(cell["source"], f"{shown}, cell {number}")
        if source.strip():
            chosen.append((f"cell {number}", source))
    if not chosen:
        raise NotebookError(f"{shown} has no code cells: nothing in it can play")
    return chosen


def _plain_python(source: str, where: str) -> str:
    """A cell's source as Python: as it is when it parses; else its magics handled (dropped,
    kept, or ``NotebookError`` naming the line)."""
    if _parses(source):
        return source
    lines = source.split("\n")
    head = lines[0].strip()
    if head.startswith("%%"):
        name = head[2:].split(None, 1)[0] if head[2:].strip() else ""
        if name in DROPPED_CELL_MAGICS:
            return ""
        if name not in KEPT_CELL_MAGICS:
            raise NotebookError(f"{where}: the cell magic %%{_shown(name)} is not Python: a bot runs as plain "
                                "Python (display-only magics are dropped; see the README)")
        lines = [""] + lines[1:]  # the line numbers stay the cell's
    out = []
    for number, line in enumerate(lines, start=1):
        stripped = line.lstrip()
        indent = line[:len(line) - len(stripped)]
        if stripped.startswith("!") or stripped.startswith("%"):
            magic = stripped.lstrip("%").split(None, 1)
            name = magic[0] if magic and stripped.startswith("%") else ""
            if name in DROPPED_LINE_MAGICS:
                out.append(indent + "pass" if indent else "")
                continue
            if name in KEPT_LINE_MAGICS and len(magic) > 1:
                out.append(indent + magic[1])
                continue
            what = "a shell command" if stripped.startswith("!") else f"the magic %{_shown(name)}"
            raise NotebookError(f"{where}, line {number}: {what} is not Python ({_shown(stripped[:40])}): a bot runs "
                                "as plain Python in a sandbox; its packages come from requirements.txt "
                                "(arcade bot install)")
        out.append(line)
    text = "\n".join(out)
    problem = _syntax(text)
    if problem:
        raise NotebookError(f"{where}: {problem}")
    return text


def _parses(source: str) -> bool:
    return _syntax(source) is None


def _syntax(source: str) -> str | None:
    """Why ``source`` is no Python (parsed, never run), ``None`` if it is."""
    try:
        ast.parse(source)
    except SyntaxError as exc:
        return f"{exc.msg} (line {exc.lineno})"
    except (ValueError, RecursionError, MemoryError) as exc:  # a NUL, nesting too deep
        return f"not Python ({type(exc).__name__})"
    return None


# -- the team name --------------------------------------------------------------------------------

def _team(cells: list, chosen: list[tuple[str, str]], language: str) -> tuple[str | None, str]:
    """The team the notebook names, and where: the team-name cell, else ``PLAYER_NAME`` /
    ``TEAM_NAME`` in its (Python) code."""
    for cell in cells:
        if _nbgrader(cell).get("grade_id") == "team-name-cell":
            text = _markdown_word(cell["source"])
            if text and text not in TEMPLATE_ANSWERS:
                return text, "the team-name cell"
    if language == "python":
        for _, source in chosen:
            found = declared_team(source)
            if found[0] is not None:
                return found
    return None, ""


def _markdown_word(text: str) -> str:
    """A markdown cell's answer as text: its lines joined, emphasis and code marks taken off."""
    words = " ".join(line.strip() for line in text.strip().splitlines() if line.strip())
    return words.strip().strip("*`\"'").strip()


def declared_team(source: str) -> tuple[str | None, str]:
    """The team a Python file names at its top level (``PLAYER_NAME = 'HOG 9000'``, or
    ``TEAM_NAME``), read from its syntax tree, never run; ``(None, "")`` if none."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None, ""
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        value = getattr(node, "value", None)
        for target in targets:
            if (isinstance(target, ast.Name) and target.id in TEAM_VARIABLES and isinstance(value, ast.Constant)
                    and isinstance(value.value, str) and value.value.strip()):
                return value.value.strip(), target.id
    return None, ""


def _shown(text: str) -> str:
    """Text from a notebook, for a message: printable, one line, cut short."""
    text = "".join(c if c.isprintable() else "?" for c in str(text))
    return text if len(text) <= 80 else text[:79] + "…"
