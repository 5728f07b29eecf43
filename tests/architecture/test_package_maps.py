"""A package's map reads true: each package whose docstring maps its modules (``- ``module``: what
it holds, ``names``…``) names modules that exist and, for each module, names that the module, its
package or the code elsewhere defines (a course's name, a bot's, Python's own), so that a renamed
or removed function cannot stay on the map; ``WORDS`` are the prose's, not the code's."""

from __future__ import annotations

import ast
import builtins
import os
import re
import resource
import signal

import pytest

from tests.paths import ROOT

MAPPED = ("arcade/contest", "arcade/web", "arcade/tournament", "arcade/records", "bots/external", "bots/othello")
ITEM = re.compile(r"^- ``([a-z_][a-z0-9_]*)``(?:, ``[a-z_][a-z0-9_]*``)*:(.*?)(?=^- ``|\Z)", re.M | re.S)
NAME = re.compile(r"``([A-Za-z_][A-Za-z0-9_]*)(?:\(\))?``")
WORDS = {"FILE", "FOLDER", "nobody", "Rscript", "external", "alphabeta", "exit"}
"""Words in double backticks that are not names of the code: placeholders of a grammar, a user,
a program, bots' names."""
ROOMS = ("arcade", "bots", "games")


def defined(path) -> set[str]:
    """The names a module defines at its top (functions, classes, assignments, imports) and the
    methods and attributes of its classes."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
            names.update(t.attr for t in targets if isinstance(t, ast.Attribute))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


def items(package: str) -> list[tuple[str, list[str]]]:
    doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8"))) or ""
    return [(match.group(1), NAME.findall(match.group(2))) for match in ITEM.finditer(doc)]


@pytest.mark.parametrize("package", MAPPED)
def test_a_packages_map_names_what_its_modules_define(package):
    folder = ROOT / package
    mapped = items(package)
    assert mapped, f"{package}/__init__.py maps no module"
    everything = set().union(*(defined(path) for path in folder.rglob("*.py")))
    elsewhere = set().union(*(defined(path) for room in ROOMS for path in (ROOT / room).rglob("*.py"))) \
        if (ROOT / ROOMS[0]).is_dir() else set()
    python = set(dir(builtins)) | set(dir(resource)) | set(dir(signal)) | set(dir(os))
    modules = {path.stem for path in folder.glob("*.py")} | {path.name for path in folder.iterdir() if path.is_dir()}
    wrong = []
    for module, names in mapped:
        if module not in modules:
            wrong.append(f"{module}: no such module")
            continue
        path = folder / f"{module}.py"
        own = defined(path) if path.is_file() else everything
        for name in names:
            if name in WORDS or name in own or name in modules or name in everything:
                continue
            if name in elsewhere or name in python:
                continue
            wrong.append(f"{module}: {name} is defined nowhere in {package}")
    assert not wrong, f"{package}/__init__.py: " + "; ".join(wrong)


def test_the_check_sees_a_name_that_is_gone(tmp_path, monkeypatch):
    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / "__init__.py").write_text('"""The map.\n\n- ``one``: ``here`` and ``gone``.\n- ``two``: x.\n"""\n')
    (folder / "one.py").write_text("def here():\n    pass\n")
    monkeypatch.setattr("tests.architecture.test_package_maps.ROOT", tmp_path)
    with pytest.raises(AssertionError, match=r"one: gone is defined nowhere in pkg; two: no such module"):
        test_a_packages_map_names_what_its_modules_define("pkg")
