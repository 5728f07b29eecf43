"""A run's bots by their shortest distinguishing paths (``bots.external.specs.short_names``):
three ``bot.py`` of three folders are ``alice/bot.py``, ``bob/bot.py`` and ``carol/bot.py``; the
names are distinct for distinct specs, and none keeps a folder it could do without."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bots.external.specs import short_name, short_names

FOLDERS = st.sampled_from(["alice", "bob", "x", "src", "random", "bot.py"])
FILES = st.sampled_from(["bot.py", "main.py", "strategy.R", "random.py"])
FUNCTIONS = st.sampled_from(["", "strategy", "final_strategy"])
BUILTINS = st.sampled_from(["random", "perfect", "always_1"])


@st.composite
def file_spec(draw) -> tuple[str, tuple[str, ...], str]:
    """A file bot's spec, its path's parts and what follows the path (``:function``)."""
    parts = (*draw(st.lists(FOLDERS, max_size=3)), draw(FILES))
    rooted = draw(st.booleans())
    function = draw(FUNCTIONS)
    tail = f":{function}" if function else ""
    return ("/" if rooted else "") + "/".join(parts) + tail, (("/",) if rooted else ()) + parts, tail


def named(parts: tuple[str, ...], tail: str, depth: int) -> str:
    """A spec's name of its last ``depth`` parts, as a user reads it."""
    kept = parts[-depth:]
    return (kept[0] + "/".join(kept[1:]) if kept[0] == "/" else "/".join(kept)) + tail


def test_three_bot_py_of_three_folders_are_told_apart_by_their_folders():
    names = short_names(["students/alice/bot.py", "students/bob/bot.py", "students/carol/bot.py:strategy",
                         "random", "examples/mine.py"])
    assert names == {"students/alice/bot.py": "alice/bot.py", "students/bob/bot.py": "bob/bot.py",
                     "students/carol/bot.py:strategy": "bot.py:strategy", "random": "random",
                     "examples/mine.py": "mine.py"}
    deeper = short_names(["a/x/bot.py", "b/x/bot.py", "c/bot.py"])
    assert deeper == {"a/x/bot.py": "a/x/bot.py", "b/x/bot.py": "b/x/bot.py", "c/bot.py": "c/bot.py"}
    assert short_names(["bot.py", "./bot.py"]) == {"bot.py": "bot.py", "./bot.py": "./bot.py"}  # one path, written twice
    assert short_names(["t/gamma/gamma:program", "u/gamma/gamma:program"]) == {
        "t/gamma/gamma:program": "t/gamma/gamma:program", "u/gamma/gamma:program": "u/gamma/gamma:program"}


@settings(max_examples=300, deadline=None)
@given(st.lists(file_spec(), max_size=7, unique_by=lambda spec: spec[0]), st.lists(BUILTINS, max_size=2, unique=True))
def test_names_are_distinct_and_as_short_as_possible(files, builtins):
    specs = [spec for spec, _parts, _tail in files] + builtins
    names = short_names(specs)
    assert list(names) == specs and len(set(names.values())) == len(specs)
    assert all(names[name] == name for name in builtins)
    shapes = {spec: (parts, tail) for spec, parts, tail in files}
    for spec, (parts, tail) in shapes.items():
        shown = names[spec]
        assert shown.endswith(short_name(spec))  # the file's name and function are always there
        depth = next((d for d in range(1, len(parts) + 1) if named(parts, tail, d) == shown), None)
        if depth is None:  # its whole path is another's name too: the spec as written
            assert shown == spec and any(named(p, t, len(parts)) == named(parts, tail, len(parts))
                                         for other, (p, t) in shapes.items() if other != spec)
            continue
        if depth > 1:  # one folder fewer would meet another bot's name of as many folders, or a built-in's
            shorter = named(parts, tail, depth - 1)
            assert shorter in builtins or any(named(p, t, depth - 1) == shorter
                                              for other, (p, t) in shapes.items() if other != spec)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.builds(lambda folder, name, end: f"{folder}/{name}{end}", st.text(max_size=6), st.text(max_size=6),
                          st.sampled_from([".py", ".py:strategy", ".R", ".ipynb"])), max_size=6))
def test_any_specs_get_distinct_names(specs):
    """Whatever the folders and files are called (controls that ``printable`` takes out, slashes,
    dots, colons), distinct specs get distinct names."""
    names = short_names(specs)
    assert set(names) == set(specs) and len(set(names.values())) == len(set(specs))
