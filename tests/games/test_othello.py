"""Othello rules: the seed's examples, the course referee's vectors, perft, random play."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from games.base import IllegalMove, OptionError, random_playout
from games.othello import (
    BLUE,
    END_REASONS,
    FULL,
    ORANGE,
    PASS,
    Othello,
    OthelloEvent,
    end_message,
    flip_bits,
    legal_bits,
    move_problem,
    parse_square,
    perft,
    referee_board_text,
    square_name,
)
from tests.paths import TESTS

REFERENCE = TESTS / "reference" / "othello.json"  # a copy of ../shared/reference


def sq(name: str) -> int:
    square = parse_square(name)
    assert square is not None
    return square


def board(rows: list[str], to_move: int = BLUE):
    """A state from 8 strings, row 8 first: ``B`` blue, ``O`` orange, anything else empty."""
    blue = orange = 0
    for i, line in enumerate(rows):
        row = 8 - i
        for col, ch in enumerate(line.replace(" ", "")):
            bit = 1 << ((row - 1) * 8 + col)
            if ch == "B":
                blue |= bit
            elif ch == "O":
                orange |= bit
    return Othello().state_from(blue, orange, to_move)


def naive_flips(p: int, o: int, square: int) -> int:
    """Flips computed square by square, for comparison with the bitboard version."""
    if (p | o) >> square & 1:
        return 0
    r, c = divmod(square, 8)
    total = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if not dr and not dc:
                continue
            run = 0
            rr, cc = r + dr, c + dc
            while 0 <= rr < 8 and 0 <= cc < 8 and o >> (rr * 8 + cc) & 1:
                run |= 1 << (rr * 8 + cc)
                rr += dr
                cc += dc
            if run and 0 <= rr < 8 and 0 <= cc < 8 and p >> (rr * 8 + cc) & 1:
                total |= run
    return total


# -- the seed's text ---------------------------------------------------------------------------

def test_start_position_and_blue_first():
    game = Othello()
    s = game.initial_state()
    assert s.to_move == BLUE
    assert s.at(sq("D4")) == BLUE and s.at(sq("E5")) == BLUE
    assert s.at(sq("D5")) == ORANGE and s.at(sq("E4")) == ORANGE
    assert s.counts() == (2, 2)
    assert [square_name(m) for m in game.legal_moves(s)] == ["E3", "F4", "C5", "D6"]


def test_seed_example_e3_then_f3():
    game = Othello()
    s = game.play(game.initial_state(), sq("E3"))
    assert s.at(sq("E3")) == BLUE and s.at(sq("E4")) == BLUE
    assert s.event.flipped == (sq("E4"),) and s.event.square == sq("E3")
    assert s.to_move == ORANGE
    s = game.play(s, sq("F3"))
    assert s.at(sq("F3")) == ORANGE and s.at(sq("E4")) == ORANGE
    assert s.counts() == (3, 3)
    assert s.event.text == "Orange plays F3, flipping 1 disc"


def test_illegal_moves_are_named_with_reason():
    game = Othello()
    s = game.initial_state()
    with pytest.raises(IllegalMove, match="space occupied"):
        game.play(s, sq("D4"))
    with pytest.raises(IllegalMove, match="no trap"):
        game.play(s, sq("A1"))
    with pytest.raises(IllegalMove, match="pass while a move exists|cannot pass"):
        game.play(s, PASS)
    with pytest.raises(IllegalMove, match="off the board"):
        game.play(s, 99)
    with pytest.raises(IllegalMove, match="not a square"):
        game.parse_move(s, "Z9")
    with pytest.raises(IllegalMove, match="no trap"):
        game.parse_move(s, "a1")
    p, o = s.mover_bits()
    assert move_problem(p, o, PASS) == "pass while a move exists"
    assert move_problem(p, o, sq("E3")) == ""


def test_move_text_round_trip_and_parse_forms():
    game = Othello()
    s = game.initial_state()
    for m in game.legal_moves(s):
        assert game.parse_move(s, game.move_text(s, m)) == m
    assert game.parse_move(s, "e3") == sq("E3")
    assert game.parse_move(s, " E 3 ") == sq("E3")
    assert square_name(0) == "A1" and square_name(63) == "H8" and square_name(PASS) == "P"
    # the move list reads a pass as a word; the files and the parser keep the course's P
    assert game.move_label(s, PASS) == "pass" and game.move_label(s, sq("E3")) == "E3"


def test_pass_is_the_only_move_when_no_move_exists():
    # Blue's only disc is in the A1 corner, where nothing can trap it; blue can still take B1.
    s = board(["........"] * 7 + ["BO......"], to_move=ORANGE)
    game = Othello()
    assert not s.over
    p, o = s.mover_bits()
    assert legal_bits(p, o) == 0
    assert game.legal_moves(s) == [PASS]
    assert game.describe(s) == "Orange has no move and must pass"
    after = game.play(s, PASS)
    assert isinstance(after.event, OthelloEvent) and after.event.passed
    assert after.to_move == BLUE and (after.blue, after.orange) == (s.blue, s.orange)
    assert after.event.text == "Orange has no move and passes"
    assert game.parse_move(s, "p") == PASS


def test_game_ends_when_neither_can_move_and_counts_decide():
    # Only blue discs on the board: neither side can move.
    s = board(["B.......", "........", "........", "........", "........", "........", "........", "...O...."])
    assert s.over and s.result.winner is None
    assert s.result.reason == "Draw 1–1: neither side can move"
    s = board(["BB......", "........", "........", "........", "........", "........", "........", "...O...."])
    assert s.result.winner == BLUE and s.result.reason == "Blue wins 2–1: neither side can move"
    assert Othello().legal_moves(s) == []
    with pytest.raises(IllegalMove, match="over"):
        Othello().play(s, PASS)


def test_full_board_ends_the_game_with_a_draw_when_equal():
    blue = 0x00000000FFFFFFFF
    s = Othello().state_from(blue, FULL ^ blue)
    assert s.over and s.result.winner is None and "board is full" in s.result.reason


def test_time_limit_option():
    assert Othello().time_limit == 10.0
    assert Othello(time_limit="2.5").time_limit == 2.5
    with pytest.raises(OptionError):
        Othello(time_limit=0)
    with pytest.raises(OptionError):
        Othello(size=6)


# -- perft: known node counts of Othello from the start position, passes counted as moves -------

@pytest.mark.parametrize(
    "depth,nodes",
    [(1, 4), (2, 12), (3, 56), (4, 244), (5, 1396), (6, 8200), (7, 55092), (8, 390216)],
)
def test_perft_from_start(depth, nodes):
    s = Othello().initial_state()
    assert perft(s.blue, s.orange, depth) == nodes


def test_perft_counts_a_pass_as_a_move():
    s = board(["........"] * 6 + ["...OO...", "BO.B...."], to_move=ORANGE)
    # Orange must pass; blue then has its moves (C1 and, over D2, D3).
    p, o = s.mover_bits()
    assert legal_bits(p, o) == 0
    assert perft(p, o, 1) == 1
    assert perft(p, o, 2) == legal_bits(o, p).bit_count() > 1


# -- random play -------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_rules(seed):
    game = Othello()
    states = random_playout(game, game.initial_state(), random.Random(seed))
    for before, after in zip(states, states[1:]):
        assert not before.blue & before.orange
        moves = game.legal_moves(before)
        move = after.event.move
        assert move in moves
        assert after.ply == before.ply + 1
        nb0, no0 = before.counts()
        nb1, no1 = after.counts()
        if move == PASS:
            assert moves == [PASS]
            assert (nb1, no1) == (nb0, no0)
        else:
            assert PASS not in moves
            flipped = len(after.event.flipped)
            assert flipped >= 1
            gain = (nb1 - nb0, no1 - no0) if before.to_move == BLUE else (no1 - no0, nb1 - nb0)
            assert gain == (flipped + 1, -flipped)
            p, o = before.mover_bits()
            assert flip_bits(p, o, move) == naive_flips(p, o, move)
        # every square's legality agrees with the naive rule
        p, o = before.mover_bits()
        naive = sum(1 << s for s in range(64) if naive_flips(p, o, s))
        assert legal_bits(p, o) == naive
    end = states[-1]
    assert end.over
    nb, no = end.counts()
    full = (end.blue | end.orange) == FULL
    p, o = end.mover_bits()
    assert full or (not legal_bits(p, o) and not legal_bits(o, p))
    assert end.result.winner == (None if nb == no else BLUE if nb > no else ORANGE)


# -- the course referee (reference/othello.json) ----------------------------------------------

@pytest.fixture(scope="module")
def reference():
    return json.loads(REFERENCE.read_text())


def test_reference_initial_board_v6(reference):
    s = Othello().initial_state()
    symbols = {BLUE: reference["board"]["symbols"]["blue"], ORANGE: reference["board"]["symbols"]["orange"]}
    for name, symbol in reference["board"]["initial_v6"].items():
        assert symbols[s.at(sq(name))] == symbol
    assert s.counts() == (2, 2)


def test_reference_board_print_format(reference):
    s = Othello().initial_state()
    text = referee_board_text(s.blue, s.orange)
    lines = text.split("\n")
    # row 8 first, "r  " then each symbol followed by two spaces; last line the column letters
    assert lines[0] == "8  " + "*  " * 8
    assert lines[3] == "5  " + "*  " * 3 + "O  B  " + "*  " * 3
    assert lines[4] == "4  " + "*  " * 3 + "B  O  " + "*  " * 3
    assert lines[-1] == "   A  B  C  D  E  F  G  H"
    assert not text.endswith("\n")
    # the referee's internal index = (8 - row) * 8 + column
    flat = "".join(line[3:].replace("  ", "") for line in lines[:8])
    for name, symbol in reference["board"]["initial_v6"].items():
        row, col = int(name[1]), ord(name[0]) - 65
        assert flat[(8 - row) * 8 + col] == symbol


def test_reference_end_messages(reference):
    reasons = reference["end_messages"]["reasons"]
    assert END_REASONS == reasons
    for observed in reference["end_messages"]["observed_end_game_files"]["values"]:
        winner, rest = observed.split(" WINS! ")
        loser, reason_text = rest.split(" LOSES! ")
        key = next(k for k, v in reasons.items() if v == reason_text)
        assert end_message(key, winner, loser) == observed
    assert end_message("TIE") == "Match TIED!"


def test_reference_observed_move_file_parses(reference):
    # The observed move_file was written against the v1-v5 start (D5/E4 blue), where D3 flips D4.
    group, col, row = reference["end_messages"]["observed_move_file"]["value"].split()
    assert group == "test.py"
    blue = orange = 0
    for name, symbol in reference["board"]["initial_v1_to_v5"].items():
        if symbol == "B":
            blue |= 1 << sq(name)
        else:
            orange |= 1 << sq(name)
    game = Othello()
    old_start = game.state_from(blue, orange)
    move = game.parse_move(old_start, col + row)
    assert game.play(old_start, move).event.flipped == (sq("D4"),)
    with pytest.raises(IllegalMove, match="no trap"):
        game.parse_move(game.initial_state(), col + row)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_each_placement_follows_at_most_one_pass_so_no_game_outlasts_120_plies(seed):
    game = Othello()
    states = random_playout(game, game.initial_state(), random.Random(seed))
    moves = [s.event.move for s in states[1:]]
    placed = [m for m in moves if m != PASS]
    assert len(placed) <= 60 and moves[-1] != PASS and moves[0] != PASS
    assert all(not (a == PASS and b == PASS) for a, b in zip(moves, moves[1:]))
    assert len(moves) <= game.max_game_length() == 120


# -- the game API's fast path (issue 33: random playouts at OpenSpiel's speed) ------------------

disjoint_boards = st.tuples(st.integers(0, FULL), st.integers(0, FULL)).map(lambda po: (po[0], po[1] & ~po[0]))


def need_bits_in_c() -> None:
    """The C primitives (games/_othello_bits.c) where they were built; CI insists
    (``ARCADE_REQUIRE_OTHELLO_CORE=1``: not built is a failure there, as for the bots' core)."""
    import os

    from games.othello import BITS_IN_C

    if not BITS_IN_C:
        assert os.environ.get("ARCADE_REQUIRE_OTHELLO_CORE") != "1", "games._othello_bits was not built"
        pytest.skip("games._othello_bits not built (no C compiler at install)")


@settings(max_examples=300, deadline=None)
@given(disjoint_boards)
def test_legal_bits_is_the_naive_rule_on_any_board(boards):
    """The pure-Python packed, half-turned fill and the game API's (C where built) against the
    square-by-square rule, on any two disjoint bitboards (reachable or not)."""
    from games.othello import py_legal_bits

    p, o = boards
    naive = sum(1 << s for s in range(64) if naive_flips(p, o, s))
    assert py_legal_bits(p, o) == naive and legal_bits(p, o) == naive


@settings(max_examples=300, deadline=None)
@given(st.integers(0, FULL), st.integers(0, FULL), st.integers(0, 63))
def test_the_c_primitives_are_the_python_ones_on_any_ints(p, o, square):
    """Any two ints (overlapping discs too, and beyond 64 bits: read modulo 2**64, as Python masks
    them) give the C legal squares and flips the pure-Python ones give."""
    from games.othello import py_flip_bits, py_legal_bits

    need_bits_in_c()
    assert legal_bits(p, o & ~p) == py_legal_bits(p, o & ~p)
    assert flip_bits(p, o, square) == py_flip_bits(p, o, square)
    assert legal_bits(p | 1 << 70, o & ~p) == py_legal_bits(p, o & ~p)


def test_the_game_plays_on_the_python_primitives_without_the_c_ones():
    """An install without a compiler: games.othello falls back, and a game plays to its end."""
    import subprocess
    import sys

    from tests.paths import ROOT

    code = ("import sys; sys.modules['games._othello_bits'] = None\n"
            "import random, games.othello as o\n"
            "assert not o.BITS_IN_C and o.legal_bits is o.py_legal_bits\n"
            "g = o.Othello(); s = g.initial_state(); r = random.Random(1)\n"
            "while not s.over: s = g.play(s, r.choice(g.legal_moves(s)))\n"
            "print(s.result.reason)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "wins" in done.stdout or "Draw" in done.stdout


@given(st.integers(0, FULL))
def test_rotated_turns_the_board_half_round(bits):
    from games.othello import rotated

    assert rotated(bits) == sum(1 << (63 - s) for s in range(64) if bits >> s & 1)
    assert rotated(rotated(bits)) == bits


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_play_makes_what_the_dataclasses_make_and_caches_the_next_sides_moves(seed):
    """The fast path of ``play`` (fields set straight, the next side's moves kept in
    ``state.legal``) gives states and events equal to ones built by their constructors, and the
    cache is the next side's legal squares; a state built without it works them out."""
    from games.othello import OthelloState

    game = Othello()
    rng = random.Random(seed)
    state = game.initial_state()
    while not state.over:
        move = rng.choice(game.legal_moves(state))
        after = game.play(state, move)
        event = after.event
        again = OthelloEvent(event.side, event.move, event.text, square=event.square, flipped=event.flipped,
                             passed=event.passed)
        assert event == again and hash(event) == hash(again) and repr(event) == repr(again)
        built = game.state_from(after.blue, after.orange, after.to_move, after.ply)
        built = OthelloState(to_move=built.to_move, ply=built.ply, event=event, result=built.result,
                             blue=built.blue, orange=built.orange)
        assert after == built and hash(after) == hash(built) and repr(after) == repr(built)
        assert built.legal == -1 and game.legal_moves(built) == game.legal_moves(after)
        if not after.over and after.legal >= 0:
            p, o = after.mover_bits()
            assert after.legal == legal_bits(p, o)
        if move != PASS:
            assert event.text == f"{game.sides[state.to_move].name} plays {square_name(move)}, flipping " \
                                 f"{len(event.flipped)} disc{'s' if len(event.flipped) != 1 else ''}"
        state = after


def test_a_square_given_as_an_int_subclass_or_a_bool_is_judged_as_before():
    import enum

    game = Othello()
    state = game.initial_state()
    first = game.legal_moves(state)[0]
    Square = enum.IntEnum("Square", {"FIRST": first})
    assert game.play(state, Square.FIRST) == game.play(state, first)
    with pytest.raises(IllegalMove):
        game.play(state, True)
    with pytest.raises(IllegalMove, match="no trap"):
        game.play(state, 0)
