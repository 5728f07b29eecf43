"""D-Football's compiled solver (``bots/dfootball/_solve.c``) against its reference, the pure-Python
``bots.dfootball.solver``: the same answers everywhere (random positions of every board, any table
size), the same positions searched where the table holds them all, and the proofs shipped in
``bots/dfootball/proved.json`` agreeing with the reference where it can check them."""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import given, settings, strategies as st

from bots.dfootball import FIRST_TEAM_WINS
from bots.dfootball.solver import Solver, child, moves, start_position

REQUIRE = "ARCADE_REQUIRE_DFOOTBALL_CORE"
"""Set (CI sets it): the compiled solver not built fails these tests instead of skipping them."""


def compiled_or_skip(name: str):
    """``bots.dfootball._solve``'s ``name``; the test skipped where it was not built (failed where
    ``REQUIRE`` is set)."""
    try:
        from bots.dfootball import _solve
    except ImportError:
        if os.environ.get(REQUIRE):
            pytest.fail("the compiled D-Football solver was not built (no C compiler?)")
        pytest.skip("the compiled D-Football solver was not built")
    return getattr(_solve, name)


@pytest.fixture(scope="module")
def solve():
    return compiled_or_skip("solve")


@pytest.mark.parametrize("n", range(1, 10))
def test_the_opening_is_solved_as_the_reference_solves_it_position_for_position(solve, n):
    size = 2 * n + 1
    reference = Solver(size)
    expected = reference.wins(*start_position(n))
    won, nodes, stored = solve(*start_position(n), size, 22)
    assert won == expected and nodes == reference.nodes and stored == len(reference.table)


def random_position(n: int, plies: int, seed: int) -> tuple[int, int]:
    """A position after ``plies`` random moves from board ``n``'s opening (fewer if it ends)."""
    rng = random.Random(seed)
    size = 2 * n + 1
    m, o = start_position(n)
    for _ in range(plies):
        found = moves(m, o, size)
        if not found:
            break
        m, o = child(m, o, rng.choice(found)[0], size)
    return m, o


@settings(max_examples=150, deadline=None)
@given(n=st.integers(1, 9), plies=st.integers(0, 60), seed=st.integers(0, 2**32), small=st.booleans())
def test_any_position_gets_the_references_answer_whatever_the_tables_size(solve, n, plies, seed, small):
    """A table of 1,024 slots (boards up to n = 6: on larger ones the search it forces, without
    its transpositions, is far longer) replaces entries all the time: only the time changes, never
    the answer."""
    bits = 10 if small and n <= 6 else 20
    size = 2 * n + 1
    m, o = random_position(n, plies, seed)
    assert solve(m, o, size, bits)[0] == Solver(size).wins(m, o)


def test_bad_arguments_are_refused(solve):
    for args in ((1, 2, 2), (1, 2, 32), (3, 1, 5), (1 << 6, 1, 5), (1, 2, 5, 9), (1, 2, 5, 35)):
        with pytest.raises(ValueError):
            solve(*args)


def test_the_shipped_proofs_agree_with_the_reference_and_cover_every_board():
    """``proved.json`` (``python -m bots.dfootball.prove``) has every n the arcade offers, and its
    winners for n <= 10 are the pure-Python solver's."""
    from bots.dfootball.prove import PROVED_PATH

    boards = {row["n"]: row for row in json.loads(PROVED_PATH.read_text())["boards"]}
    assert sorted(boards) == list(range(1, 16))
    for n in range(1, 11):
        michigan = Solver(2 * n + 1).wins(*start_position(n))
        assert boards[n]["winner"] == ("Michigan" if michigan else "Ohio")
    assert all(row["positions"] >= row["stored"] > 0 for row in boards.values())
    assert {n: row["winner"] == "Michigan" for n, row in boards.items()} == FIRST_TEAM_WINS  # what the screen says
