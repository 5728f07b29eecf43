"""A file bot's entry: what its spec names after the file, ``path.py:ENTRY``.

Either a function's name (``strategy``), or an object's method built the way a course's own
script builds it: Robot Ludo's tournament script plays ``TDPlayer(color=0).make_a_move``, so
``path.py:TDPlayer(color=0).make_a_move`` is a spec too. The grammar::

    entry    = NAME { "." NAME | "(" [ argument { "," argument } ] ")" }
    argument = literal | NAME "=" literal

A literal is what ``ast.literal_eval`` reads: numbers, strings, bytes, ``True``/``False``/
``None``, and tuples, lists, sets and dicts of literals (``-1`` and ``1+2j`` too).

The text is parsed with ``ast`` (never ``eval``), at most ``MAX_ENTRY`` characters of it. In the
arcade's process ``parse_entry`` only checks it: its arguments are looked at node by node, not
evaluated. The bot's own process (``bots.external.child``) parses it again and ``Entry.build``
makes the object there: it looks the first name up in the bot's module, then takes each
attribute and makes each call (the arguments ``literal_eval``'d), so whatever the class's code
does runs in the bot's process, in its sandbox, under its caps.

This module imports nothing of ours: the bot's process imports it before the bot's file runs.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

MAX_ENTRY = 200
"""Characters of an entry at most (a name and a constructor's few arguments need far fewer)."""


class EntryError(ValueError):
    """An entry that is not a name, attributes and calls with literal arguments; one line says why."""


@dataclass(frozen=True)
class Step:
    """One step after the first name: an attribute (``attribute``), or a call (``attribute`` is
    ``None``) with ``args`` and ``keywords`` (``(name, node)``), literal nodes."""

    attribute: str | None = None
    args: tuple[ast.expr, ...] = ()
    keywords: tuple[tuple[str, ast.expr], ...] = ()


@dataclass(frozen=True)
class Entry:
    """A parsed entry: the name looked up in the bot's module, and the steps after it."""

    text: str
    name: str
    steps: tuple[Step, ...] = ()

    @property
    def plain(self) -> bool:
        """Whether the entry is a bare name (a function, or a class the adapter knows)."""
        return not self.steps

    def build(self, found: Any) -> Any:
        """In the bot's process: ``found`` (the module's ``name``) with each step applied, the
        calls' arguments made from their literals. Whatever the bot's code raises goes up."""
        value = found
        for step in self.steps:
            if step.attribute is not None:
                value = getattr(value, step.attribute)
            else:
                value = value(*(ast.literal_eval(node) for node in step.args),
                              **{key: ast.literal_eval(node) for key, node in step.keywords})
        return value


def parse_entry(text: str) -> Entry:
    """``text`` as an ``Entry``; ``EntryError`` (one line) if it is anything else. Parses, never
    evaluates."""
    if not isinstance(text, str) or not text:
        raise EntryError("no function named")
    if len(text) > MAX_ENTRY:
        raise EntryError(f"the function part is {len(text)} characters long: at most {MAX_ENTRY}")
    if text.isidentifier():
        return Entry(text, _name(text))
    if text != text.strip() or "\n" in text or "\r" in text:
        raise EntryError(f"{text[:60]!r} is not a function: a name, or Class(arguments).method, on one line")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        raise EntryError(f"{text[:60]!r} is not a function: write a name, or Class(arguments).method") from None
    steps: list[Step] = []
    node = tree.body
    while not isinstance(node, ast.Name):
        if isinstance(node, ast.Attribute):
            steps.append(Step(attribute=_name(node.attr)))
            node = node.value
        elif isinstance(node, ast.Call):
            steps.append(_call(node))
            node = node.func
        else:
            raise EntryError(f"{text[:60]!r} is not a function name, nor a method of an object built with "
                             "literal arguments, like TDPlayer(color=0).make_a_move")
    return Entry(text, _name(node.id), tuple(reversed(steps)))


def _name(name: str) -> str:
    if not name.isidentifier() or name.startswith("__"):
        raise EntryError(f"{name[:40]!r} is not a name a bot may be found by")
    return name


def _call(node: ast.Call) -> Step:
    for argument in node.args:
        _literal(argument)
    keywords = []
    for keyword in node.keywords:
        if keyword.arg is None:
            raise EntryError("a call's arguments are literals, one by one (no **)")
        keywords.append((keyword.arg, _literal(keyword.value)))
    return Step(args=tuple(node.args), keywords=tuple(keywords))


def _literal(node: ast.expr) -> ast.expr:
    """``node`` if it is a literal (checked node by node, iteratively; nothing is evaluated),
    else ``EntryError``."""
    todo = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, ast.Constant) and not isinstance(item.value, type(Ellipsis)):
            continue
        if isinstance(item, (ast.Tuple, ast.List, ast.Set)):
            todo.extend(item.elts)
        elif isinstance(item, ast.Dict) and None not in item.keys:
            todo.extend(item.keys)
            todo.extend(item.values)
        elif _number(item):
            continue
        elif (isinstance(item, ast.BinOp) and isinstance(item.op, (ast.Add, ast.Sub)) and _number(item.left)
              and isinstance(item.right, ast.Constant) and isinstance(item.right.value, complex)):
            continue  # a complex number, 1+2j, as literal_eval reads it
        else:
            raise EntryError("a call's arguments must be literals (numbers, strings, True/False/None, "
                             "and lists, tuples, sets or dicts of them)")
    return node


def _number(node: ast.expr) -> bool:
    """Whether ``node`` is a number, signed or not (``-1``, ``+2.5``)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return (isinstance(node, ast.Constant) and isinstance(node.value, (int, float, complex))
            and not isinstance(node.value, bool))
