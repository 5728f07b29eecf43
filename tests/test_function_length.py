"""No function in the app (``arcade/``) or the file bots' wire (``bots/external``) is over 80
lines: a longer one does several jobs, and its parts deserve names of their own. Lengths are read
from the source with ``ast``: a function's lines from its ``def`` to its last line, nested
functions counted in their parent and on their own."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LONGEST = 80
CHECKED = ("arcade", "bots/external", "bots/external.py")
"""Where the limit holds (the file bots' wire is a module now and a package once it is split)."""


def sources() -> list[Path]:
    found: list[Path] = []
    for place in CHECKED:
        path = ROOT / place
        if path.is_dir():
            found.extend(sorted(path.rglob("*.py")))
        elif path.is_file():
            found.append(path)
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


def test_no_function_is_over_80_lines():
    sources_ = sources()
    assert any(path.name == "game.py" for path in sources_)  # the app is there
    offenders = [f"{path.relative_to(ROOT)}:{name}:{lines}" for path in sources_
                 for name, lines in long_functions(path)]
    assert not offenders, f"functions over {LONGEST} lines (file:function:lines):\n" + "\n".join(offenders)
