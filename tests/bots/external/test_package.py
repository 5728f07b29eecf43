"""``bots.external``'s names, imported when first asked for (``_EXPORTS``)."""

from __future__ import annotations

import ast
import importlib
import inspect

import bots.external as package


def test_every_name_of_the_package_resolves_from_the_module_that_defines_it():
    """Each name is found in the module the map names, and defined there, not merely imported
    there: a module that drops an unused import cannot break the package's name."""
    assert package.__all__ == sorted(package._EXPORTS)
    for name, module_name in package._EXPORTS.items():
        module = importlib.import_module(module_name)
        value = getattr(module, name)
        defined = getattr(value, "__module__", None)
        if inspect.isfunction(value) or inspect.isclass(value):
            assert defined == module_name, (name, module_name, defined)
        else:  # a constant: assigned at the module's top level
            tree = ast.parse(inspect.getsource(module))
            targets = {t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                       for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                       if isinstance(t, ast.Name)}
            assert name in targets, (name, module_name)
        assert getattr(package, name) is value
