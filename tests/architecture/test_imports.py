"""Import hygiene: the three rooms import one way (games ← bots ← arcade; the offline training
pipelines, ``training/``, import games and bots, and no room imports them), nothing imports in a
circle, and the parts that must run without a screen import no Textual.

Every ``import`` statement counts, the ones inside functions too (a cycle hidden in a function is
a cycle all the same), and so does ``__import__("a.b")`` or ``importlib.import_module("a.b")`` of a
name written out (a name built at run time, as the catalog's, cannot be followed). Imports under ``if TYPE_CHECKING:`` count for cycles (two modules that
need each other's names, even only for types, are one module in two files) but not for what runs:
the rooms' directions and the headless parts are checked on run-time imports. Edges are drawn from
the source with ``ast``, so nothing is imported to check them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from tests.paths import ROOT

PACKAGES = ("games", "bots", "arcade", "training")

ALLOWED = {"games": {"games"}, "bots": {"games", "bots"}, "arcade": {"games", "bots", "arcade"},
           "training": {"games", "bots", "training"}}
"""The rooms each room may import: games imports nothing of ours, bots only games; the training
only games and bots (the runtime never imports it: it is not installed)."""

HEADLESS = ("arcade.session", "arcade.match", "arcade.tournament", "arcade.records", "arcade.catalog",
            "arcade.cs4341_referee",
            "arcade.commands.common", "arcade.commands.match", "arcade.commands.tournament",
            "arcade.commands.hog", "arcade.commands.othello")
"""What runs with no screen (matches, tournaments' workers, the referee, the headless commands):
no Textual, and none of the app's screens, boards or app (``arcade.commands.play`` opens it).
A name stands for its package's modules too (``arcade.tournament``: ``arcade.tournament.runner``…)."""

SCREEN_SIDE = ("arcade.app", "arcade.screens", "arcade.boards", "arcade.widgets")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _dynamic_import(node: ast.AST) -> str | None:
    """The module of ``__import__("a.b", …)`` or ``import_module("a.b")`` written out, else ``None``."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    first = node.args[0]
    if name in ("__import__", "import_module") and isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def imported_names(path: Path, module: str, known: frozenset[str] | dict = frozenset(),
                   type_checking: bool = False) -> list[tuple[str, int]]:
    """Every module name ``path`` imports, with its line. ``from a import b`` gives ``a.b`` when
    that is one of the ``known`` modules (a submodule), else ``a`` (a name defined in ``a``).
    Imports under ``if TYPE_CHECKING:`` count only with ``type_checking``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    names: list[tuple[str, int]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child) and not type_checking:
                for other in child.orelse:
                    visit_one(other)
                continue
            visit_one(child)

    def visit_one(node: ast.AST) -> None:
        dynamic = _dynamic_import(node)
        if dynamic is not None:
            names.append((dynamic, node.lineno))
        if isinstance(node, ast.Import):
            names.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join(package + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                names.append((full if full in known or not known else base, node.lineno))
                if not known:
                    names.append((base, node.lineno))
        visit(node)

    visit(tree)
    return names


def graph(type_checking: bool = False) -> dict[str, dict[str, int]]:
    """Module → the modules of ours it imports (with a line of the import, for the message);
    with ``type_checking``, the imports for type checkers only too."""
    known = modules()
    edges: dict[str, dict[str, int]] = {name: {} for name in known}
    for name, path in known.items():
        for target, line in imported_names(path, name, known, type_checking):
            if target in known and target != name:
                edges[name].setdefault(target, line)
    return edges


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def connect(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in edges[node]:
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in edges:
        if node not in index:
            connect(node)
    return found


def test_the_walk_sees_function_level_imports_and_relative_ones(tmp_path):
    source = tmp_path / "mod.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "import games.base\n"
        "if TYPE_CHECKING:\n"
        "    from arcade.app import ArcadeApp\n"
        "def f():\n"
        "    from bots import registry\n"
        "    from .sibling import thing\n"
        "    return lambda: __import__('bots.hidden', fromlist=['x']), importlib.import_module('bots.other')\n"
        "def g(name):\n"
        "    return importlib.import_module(f'bots.{name}')\n"
    )
    names = {name for name, _ in imported_names(source, "bots.mod")}
    assert {"games.base", "bots", "bots.registry", "bots.sibling", "bots.sibling.thing", "bots.hidden",
            "bots.other"} <= names
    assert "arcade.app" not in names  # a type-only import is no import at run time
    typed = {name for name, _ in imported_names(source, "bots.mod", type_checking=True)}
    assert typed - names == {"arcade.app", "arcade.app.ArcadeApp"}  # but a dependency all the same


def test_cycles_are_found_and_a_tree_has_none():
    assert cycles({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b": 1}, "b": {}, "c": {"a": 1, "b": 1}}) == []


def test_no_import_cycles_not_even_through_imports_for_type_checkers():
    found = cycles(graph(type_checking=True))
    assert not found, "import cycles: " + "; ".join(" ↔ ".join(c) for c in found)


def test_every_arrow_points_the_right_way():
    wrong = []
    for module, targets in graph().items():
        room = module.split(".")[0]
        for target, line in targets.items():
            if target.split(".")[0] not in ALLOWED[room]:
                wrong.append(f"{module}:{line} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_boards_import_nothing_from_bots():
    """A board only draws: the analysis it shows is made by the game's bots in the game screen's
    worker (``bots.registry.analyser_for``) and handed to it, never run by the board itself."""
    wrong = [f"{module}:{line} imports {target}"
             for module, targets in graph().items() if module.startswith("arcade.boards")
             for target, line in targets.items() if target.split(".")[0] == "bots"]
    assert not wrong, "\n".join(wrong)


def test_headless_parts_import_no_screen():
    wrong = []
    known = modules()
    for module, targets in graph().items():
        if not module.startswith(HEADLESS):
            continue
        for target, line in targets.items():
            if target.startswith(SCREEN_SIDE):
                wrong.append(f"{module}:{line} imports {target}")
        for name, line in imported_names(known[module], module):
            if name == "textual" or name.startswith("textual."):
                wrong.append(f"{module}:{line} imports {name}")
    assert not wrong, "\n".join(wrong)


def test_the_menu_imports_no_game():
    """Opening ``arcade`` imports the menu, not any game's rules, bots or board (each is imported
    when its game is opened)."""
    from arcade.catalog import CATALOG

    code = (
        "import sys\n"
        "import arcade.app, arcade.cli\n"
        "from arcade.screens.menu import MenuScreen\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    loaded = set(done.stdout.split())
    assert "arcade.screens.menu" in loaded
    for game_id in CATALOG:
        parts = {f"games.{game_id}", f"bots.{game_id}", f"arcade.boards.{game_id}"}
        assert not parts & loaded, f"the menu imports {sorted(parts & loaded)}"


def test_the_tournaments_formats_and_plan_import_no_process_pool():
    """``arcade.tournament`` re-exports nothing: its formats and plan (the screen's pre-flight)
    come without the runner, multiprocessing or the worker's modules."""
    code = (
        "import sys\n"
        "import arcade.tournament.formats, arcade.tournament.plan\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    loaded = set(done.stdout.split())
    assert not {"multiprocessing", "concurrent.futures", "arcade.tournament.runner", "arcade.tournament.worker",
                "arcade.tournament.cluster", "arcade.records"} & loaded


ABOVE = {
    "arcade.contest": ("arcade.web", "arcade.commands", "arcade.cli", "arcade.app", "arcade.screens", "arcade.widgets",
                       "arcade.boards"),
    "arcade.web": ("arcade.commands", "arcade.cli", "arcade.app", "arcade.screens", "arcade.widgets", "arcade.boards"),
}
"""What a contest season's packages may not import: what sits above them. The commands and the
app use the contest and its site; the site (``arcade.web``) reads the contest; the contest reads
neither (``arcade contest run --publish`` is handed its site's keeper by the command:
``arcade.contest.run.Publisher``). ``arcade.web.served`` is no part of the site: it is the program
``arcade serve`` starts for each browser, the app itself (``SERVED``)."""
SERVED = "arcade.web.served"


def test_the_contest_and_its_site_import_nothing_above_them():
    wrong = [f"{module}:{line} imports {target}"
             for module, targets in graph(type_checking=True).items()
             for package, above in ABOVE.items()
             if (module == package or module.startswith(package + ".")) and module != SERVED
             for target, line in targets.items() if target.startswith(above)]
    assert not wrong, "\n".join(wrong)
