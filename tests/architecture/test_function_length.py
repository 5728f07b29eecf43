"""No function in the arcade (``games/``, ``bots/``, ``arcade/``) or its training pipelines
(``training/``) is over 80 lines: a longer one does several jobs, and its parts deserve names of
their own. Lengths are read from the source with ``ast``: a function's lines from its ``def`` to
its last line, nested functions counted in their parent and on their own.

A function may stay longer only on purpose: a hot loop that a split would make measurably slower.
It says so in a comment at the function, and ``LONG_ON_PURPOSE`` names it with the reason; an
entry whose function is gone or no longer over the limit fails too, so the list cannot go stale.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from tests.paths import ROOT

LONGEST = 80
CHECKED = ("games", "bots", "arcade", "training")
"""Where the limit holds: every module under these folders."""

LONG_ON_PURPOSE: dict[str, str] = {}
"""``"path/to/module.py:Qualified.name"`` → why it stays over ``LONGEST`` lines. None today: the
Othello engine's hot ``Engine._negamax`` and ``Engine._solve`` split at no measurable cost
(``_frontier`` and ``_solve_children``: one more call a node, 0.1-0.2 % of the time)."""


def sources() -> list[Path]:
    found: list[Path] = []
    for place in CHECKED:
        found.extend(sorted((ROOT / place).rglob("*.py")))
    return found


def long_functions(path: Path, longest: int = LONGEST) -> list[tuple[str, int]]:
    """(qualified name, lines) of every function in ``path`` longer than ``longest`` lines."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                if not isinstance(child, ast.ClassDef):
                    lines = child.end_lineno - child.lineno + 1
                    if lines > longest:
                        found.append((name, lines))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), "")
    return found


def judge(paths: list[Path], allowed: dict[str, str], root: Path = ROOT,
          longest: int = LONGEST) -> tuple[list[str], list[str]]:
    """(the functions over ``longest`` lines not in ``allowed``, as ``file:function:lines``;
    the entries of ``allowed`` that are not a function over ``longest`` lines of ``paths``)."""
    long = {f"{path.relative_to(root).as_posix()}:{name}": lines
            for path in paths for name, lines in long_functions(path, longest)}
    offenders = [f"{where}:{lines}" for where, lines in long.items() if where not in allowed]
    stale = [where for where in allowed if where not in long]
    return offenders, stale


def test_the_count_sees_methods_nested_functions_and_counts_from_def_to_the_last_line(tmp_path):
    source = tmp_path / "mod.py"
    body = "".join(f"    x = {k}\n" for k in range(3))
    source.write_text(
        "@decorated\n"
        f"def short():\n{body}"
        "class Board:\n"
        f"    async def method(self):\n{body.replace('    ', '        ')}"
        "        def inner():\n"
        f"{body.replace('    ', '            ')}"
    )
    assert long_functions(source, longest=3) == [("short", 4), ("Board.method", 8), ("Board.method.inner", 4)]
    assert long_functions(source, longest=4) == [("Board.method", 8)]
    assert long_functions(source, longest=8) == []


def test_a_function_long_on_purpose_passes_and_a_stale_entry_fails(tmp_path):
    source = tmp_path / "hot.py"
    source.write_text("def loop():\n" + "".join(f"    x = {k}\n" for k in range(5)) + "def short():\n    pass\n")
    reason = {"hot.py:loop": "a hot loop"}
    assert judge([source], {}, root=tmp_path, longest=4) == (["hot.py:loop:6"], [])
    assert judge([source], reason, root=tmp_path, longest=4) == ([], [])
    # no longer over the limit, or gone: the entry is stale
    assert judge([source], reason, root=tmp_path, longest=6) == ([], ["hot.py:loop"])
    assert judge([source], {"hot.py:gone": "renamed"}, root=tmp_path, longest=4) == (["hot.py:loop:6"], ["hot.py:gone"])


def test_no_function_is_over_80_lines():
    sources_ = sources()
    names = {path.relative_to(ROOT).as_posix() for path in sources_}
    # every room is there (the app's game screen, the rules, the engine, the training)
    assert {"arcade/screens/game.py", "games/othello.py", "bots/othello/search.py",
            "training/othello/train.py"} <= names
    offenders, stale = judge(sources_, LONG_ON_PURPOSE)
    assert not offenders, f"functions over {LONGEST} lines (file:function:lines):\n" + "\n".join(offenders)
    assert not stale, ("LONG_ON_PURPOSE names functions that are gone or no longer over "
                       f"{LONGEST} lines:\n" + "\n".join(stale))


# -- the compiled Othello core ----------------------------------------------------------------------

C_SOURCES = (ROOT / "bots" / "othello" / "_core.c",)
"""The C the limit holds for too (``setup.py``'s extension)."""


def c_functions(text: str) -> list[tuple[str, int]]:
    """(name, lines) of every function defined in C source ``text`` (the project's layout: a
    definition starts at column 0 with its name and parameters, its body ends at a ``}`` at column
    0, or on the same line for a one-line function), from the signature's first line to the
    closing brace. Declarations (``;``) and initialised tables (``=``) are not functions."""
    found: list[tuple[str, int]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        head = re.match(r"[A-Za-z_][\w \t\*]*?\b(\w+)\s*\(", line)
        if head and not line.startswith(("typedef", "return")) and "=" not in line.split("(")[0]:
            j = i
            while j < len(lines) and not lines[j].rstrip().endswith((")", "{", ";")) and "{" not in lines[j]:
                j += 1  # the parameters go on
            if j < len(lines) and not lines[j].rstrip().endswith(";"):
                if lines[j].rstrip().endswith("}") and "{" in lines[j]:
                    end = j  # one line
                else:
                    end = next(k for k in range(j + 1, len(lines)) if lines[k].startswith("}"))
                found.append((head.group(1), end - i + 1))
                i = end + 1
                continue
        i += 1
    return found


def test_the_c_count_sees_multi_line_signatures_one_liners_and_skips_declarations_and_tables():
    source = (
        "static int declared(int a);\n"
        "static const int TABLE[2] = {\n    1, 2,\n};\n"
        "static int short_one(void) { return 1; }\n"
        "static inline u64 longer(u64 p,\n                        u64 o)\n{\n    int x = 1;\n"
        "    if (x) {\n        x++;\n    }\n    return p ^ o;\n}\n"
        "PyMODINIT_FUNC PyInit__core(void)\n{\n    return NULL;\n}\n"
    )
    assert c_functions(source) == [("short_one", 1), ("longer", 9), ("PyInit__core", 4)]


def test_the_compiled_core_is_written_once():
    """No C function over 80 lines; a move made in one place (``after``) and the search's child
    step (the null window searched again when it falls inside) written once for the root, the
    midgame and the endgame."""
    for path in C_SOURCES:
        text = path.read_text(encoding="utf-8")
        functions = dict(c_functions(text))
        assert {"negamax", "solve", "child_step", "Core_init", "PyInit__core"} <= set(functions)
        long = {name: n for name, n in functions.items() if n > LONGEST}
        assert not long, f"{path.name}: C functions over {LONGEST} lines: {long}"
        assert len(re.findall(r"\|\s*\(1ULL\s*<<\s*\w+\)", text)) == 1, "a move is made in more than one place"
        assert len(re.findall(r"alpha\s*<\s*value\s*&&\s*value\s*<\s*beta", text)) == 1
