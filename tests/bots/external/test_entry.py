"""A file bot's entry (``bots.external.entry``): ``path.py:TDPlayer(color=0).make_a_move`` names
an object's method built with literal arguments; the arcade parses it and never evaluates it,
the bot's own process builds it; any other text is refused in one line."""

from __future__ import annotations

import ast
import builtins
import keyword
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st

from bots.external.entry import MAX_ENTRY, Entry, EntryError, parse_entry
from bots.external.specs import BadSpec, is_file_spec, named_file, parse_spec, short_name, split_spec


class TDPlayer:
    def __init__(self, color, weights=(1.0,), name="td"):
        self.color, self.weights, self.name = color, weights, name

    def make_a_move(self, board, turn, roll):
        return (self.color, self.weights, self.name, board, turn, roll)


def test_an_objects_method_is_built_with_its_literal_arguments():
    entry = parse_entry("TDPlayer(color=0, weights=[0.5, -1], name='a:b').make_a_move")
    assert entry.name == "TDPlayer" and not entry.plain
    move = entry.build(TDPlayer)
    assert move("board", 1, 6) == (0, [0.5, -1], "a:b", "board", 1, 6)
    assert parse_entry("strategy") == Entry("strategy", "strategy")
    module = SimpleNamespace(player=TDPlayer(1))
    assert parse_entry("player.make_a_move").build(module.player)(0, 0, 1)[0] == 1


@pytest.mark.parametrize("text, words", [
    ("TDPlayer(color=x).make_a_move", "arguments must be literals"),
    ("TDPlayer(**options).make_a_move", "no **"),
    ("TDPlayer(*[0]).make_a_move", "arguments must be literals"),
    ("__import__('os').system('touch PWNED')", "'__import__' is not a name"),
    ("TDPlayer(0).__class__", "'__class__' is not a name"),
    ("players[0].move", "is not a function name, nor a method"),
    ("TDPlayer(0 if True else 1).move", "arguments must be literals"),
    ("(lambda: 0)()", "is not a function name, nor a method"),
    ("TDPlayer(color=0).move\nimport os", "on one line"),
    ("TDPlayer(", "is not a function"),
    ("x" * (MAX_ENTRY + 1), f"at most {MAX_ENTRY}"),
    ("TDPlayer([1] + [2]).move", "arguments must be literals"),
])
def test_anything_else_is_refused_in_one_line(text, words):
    with pytest.raises(EntryError) as caught:
        parse_entry(text)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_the_arcade_evaluates_nothing(monkeypatch, tmp_path):
    """Parsing a spec in the arcade's process calls nothing: not ``eval``, not ``literal_eval``,
    not a constructor (the class is not even there)."""
    def refuse(*args, **kwargs):
        raise AssertionError("evaluated in the arcade's process")

    monkeypatch.setattr(builtins, "eval", refuse)
    monkeypatch.setattr(ast, "literal_eval", refuse)
    bot = tmp_path / "td.py"
    bot.write_text("raise SystemExit('the file ran')\n")
    spec = f"{bot}:TDPlayer(color=0, note='x:y').make_a_move"
    assert is_file_spec(spec) and parse_spec(spec, "ludo") == (bot, "TDPlayer(color=0, note='x:y').make_a_move")
    assert short_name(spec) == "td.py:TDPlayer(color=0, note='x:y').make_a_move"
    assert named_file(spec) == (bot, "TDPlayer(color=0, note='x:y').make_a_move")


def test_a_colon_inside_the_arguments_does_not_cut_the_spec():
    assert split_spec("a/b.py:P(name='x:y').m") == ("a/b.py", ":", "P(name='x:y').m")
    assert split_spec("a/b.py:strategy") == ("a/b.py", ":", "strategy")
    assert split_spec("P(name='x:y').m") == ("", "", "P(name='x:y').m")
    # a file's name with brackets and colons; arguments naming a file and an entry of their own
    assert split_spec("=HYPERLINK(1).py:good") == ("=HYPERLINK(1).py", ":", "good")
    assert split_spec('b.py:P(x="q.py:f(1)").m') == ("b.py", ":", 'P(x="q.py:f(1)").m')
    assert split_spec("a.py:b/bot.py:f") == ("a.py:b/bot.py", ":", "f")


LITERALS = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(args=st.lists(LITERALS, max_size=3), keywords=st.dictionaries(
    st.from_regex(r"[a-z]{1,6}", fullmatch=True).filter(lambda name: not keyword.iskeyword(name)), LITERALS, max_size=2))
def test_any_literal_arguments_come_to_the_constructor_as_written(args, keywords):
    text = "Player(" + ", ".join([*map(repr, args), *(f"{k}={v!r}" for k, v in keywords.items())]) + ").move"
    if len(text) > MAX_ENTRY:
        with pytest.raises(EntryError):
            parse_entry(text)
        return
    made = []

    class Player:
        def __init__(self, *a, **k):
            made.append((list(a), k))

        def move(self):
            return "moved"

    assert parse_entry(text).build(Player)() == "moved"
    assert made == [(args, keywords)]


@settings(max_examples=1000, deadline=None)
@given(text=st.text(max_size=300) | st.from_regex(r"[A-Za-z_][\w.]*\(.{0,40}\)(\.\w+)?", fullmatch=True))
def test_any_text_is_an_entry_of_literals_or_one_line_of_refusal(text):
    """Hostile function parts: whatever the text, parsing returns an entry whose every call
    argument is a literal (``literal_eval`` reads it), or refuses with one short line; nothing
    else escapes, and a spec with it is a ``BadSpec`` of one line."""
    try:
        entry = parse_entry(text)
    except EntryError as exc:
        message = str(exc)
        assert message and "\n" not in message and len(message) < 300
    else:
        for step in entry.steps:
            for node in (*step.args, *(value for _key, value in step.keywords)):
                ast.literal_eval(node)
            assert step.attribute is None or not step.attribute.startswith("__")
        assert not entry.name.startswith("__")


@settings(max_examples=300, deadline=None)
@given(text=st.text(min_size=1, max_size=200))
def test_any_spec_with_a_hostile_function_part_is_one_line(text):
    bot = Path(__file__)
    try:
        path, function = parse_spec(f"{bot}:{text}", "ludo")
    except BadSpec as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 600
    else:
        assert path == bot.resolve()
        parse_entry(function)
