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
