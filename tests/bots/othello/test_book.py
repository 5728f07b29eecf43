"""The Othello opening book (``bots.othello.book``): symmetries, the file, the walk, the bot's use."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from bots.base import Context
from bots.othello import AlphaBetaBot
from bots.othello.book import (BOOK_FILE, MAGIC, RECORD, Book, Entry, build, canonical, children,
                               search_position, shipped, transformed)
from bots.othello.eval import HandEvaluator
from bots.othello.patterns import symmetry
from bots.othello.search import Engine
from games.othello import Othello, legal_bits
from tests.bots.othello.test_bots import random_position

positions = st.builds(lambda seed, plies: random_position(seed, plies)[1], st.integers(0, 10**6), st.integers(0, 50))


@given(positions)
def test_every_image_of_a_position_has_the_same_canonical_form(state):
    p, o = state.mover_bits()
    cp, co, t = canonical(p, o)
    assert (transformed(p, t), transformed(o, t)) == (cp, co)
    for u in range(8):
        image = transformed(p, u), transformed(o, u)
        assert image[0].bit_count() == p.bit_count() and image[0] & image[1] == 0
        assert canonical(*image)[:2] == (cp, co)
        # moves are images of moves
        assert legal_bits(*image) == transformed(legal_bits(p, o), u)


@given(positions, st.data())
def test_the_books_move_is_mapped_back_to_the_position_asked(state, data):
    """An entry stored for the canonical position answers in any of its images with the image of
    its move, always a legal one there."""
    p, o = state.mover_bits()
    moves = legal_bits(p, o)
    if not moves:
        return
    cp, co, t = canonical(p, o)
    canonical_moves = [sq for sq in range(64) if legal_bits(cp, co) >> sq & 1]
    move = data.draw(st.sampled_from(canonical_moves))
    book = Book({(cp, co): Entry(move, 20, 150, 1 << move)}, seconds=4)
    for u in range(8):
        image = transformed(p, u), transformed(o, u)
        found, entry = book.get(*image)
        assert legal_bits(*image) >> found & 1
        assert entry.score == 150
        # the same square as the canonical move, seen from this image
        _, _, t_image = canonical(*image)
        assert symmetry(t_image, found) == move
        assert book.reasonable(*image) == [found]
    assert book.get(o, p) is None or canonical(o, p)[:2] == (cp, co)


def test_a_book_file_round_trips_and_a_bad_one_is_refused(tmp_path):
    game = Othello()
    p, o = game.initial_state().mover_bits()
    cp, co, _ = canonical(p, o)
    move = next(sq for sq in range(64) if legal_bits(cp, co) >> sq & 1)
    book = Book({(cp, co): Entry(move, 21, -37, legal_bits(cp, co))}, seconds=4)
    path = tmp_path / "book.bin"
    book.dump(path)
    again = Book.load(path)
    assert again.entries == book.entries and again.seconds == 4 and again.digest() == book.digest()
    assert Book.load(tmp_path / "none.bin").entries == {}
    data = path.read_bytes()
    for bad in (data[:-1], b"not a book\n" + data.partition(b"\n")[2], MAGIC + b"x\n" + data.partition(b"\n")[2],
                MAGIC + b"nan\n", data.partition(b"\n")[0] + b"\n" + RECORD.pack(cp, co, 0, 1, 0, 0),  # A1: not legal
                data.partition(b"\n")[0] + b"\n" + RECORD.pack(cp, cp, move, 1, 0, 0)):  # overlapping discs
        path.write_bytes(bad)
        with pytest.raises(ValueError, match="book"):
            Book.load(path)


def test_children_follow_passes_and_stop_at_the_end():
    # the mover (p) at A1 and A3 takes A2 by playing... a corner line: after the move the opponent
    # has no disc left, so the game ends: no child
    p, o = 1 << 0, 1 << 8
    assert children(p, o, 1 << 16) == []
    _, state = random_position(3, 20)
    p, o = state.mover_bits()
    kids = children(p, o, legal_bits(p, o))
    assert len(kids) == legal_bits(p, o).bit_count()
    for np_, no, passed in kids:
        assert legal_bits(np_, no) and (np_ | no).bit_count() == (p | o).bit_count() + 1


def test_the_reasonable_moves_are_those_within_the_margin_at_the_depth_reached():
    """``search_position``'s reasonable moves, checked move by move with fresh engines searching
    each move alone to the same depth: a move left out is worse than the best by more than the
    margin, one kept is not. The engines keep one table entry (``tt_limit=1``) and evaluate by
    hand (no ProbCut): a value at a depth is then the depth's minimax value, whatever was searched
    before (a full table answers from deeper searches of earlier iterations)."""
    for seed in range(6):
        _, state = random_position(seed, 12 + seed)
        p, o = state.mover_bits()
        engine = Engine(HandEvaluator(), parallel=False, tt_limit=1)
        entry = search_position(engine, p, o, 60.0, 150, max_depth=3)
        values = {}
        for sq in range(64):
            if legal_bits(p, o) >> sq & 1:
                alone = Engine(HandEvaluator(), parallel=False, tt_limit=1)
                values[sq] = alone._root(p, o, 3, [sq])[0]
        best = max(values.values())
        assert values[entry.move] == best and entry.score == best and entry.depth == 3
        for sq, value in values.items():
            assert (entry.reasonable >> sq & 1) == (value >= best - 150), (sq, value, best)


def test_a_build_walks_the_bots_tree_and_goes_on_where_it_stopped(tmp_path):
    """Where the bot moves only its book move is walked; where its opponent does, every reasonable
    move. A build stopped early and started again ends with the book of one unstopped build."""
    def small(out, most):
        return build(5, 60.0, 150, most, out, progress=lambda line: None,
                     engine=Engine(HandEvaluator(), parallel=False), max_depth=3)

    whole = small(tmp_path / "whole.bin", 1000)
    assert len(whole) >= 10
    small(tmp_path / "part.bin", 5)
    assert len(Book.load(tmp_path / "part.bin")) == 5
    resumed = small(tmp_path / "part.bin", 1000)
    assert resumed.entries == whole.entries == Book.load(tmp_path / "whole.bin").entries
    # every walked position's walked children are in the book, to ply 3
    start = canonical(*Othello().initial_state().mover_bits())[:2]
    level = {(start, True), (start, False)}
    for _ply in range(4):
        after = set()
        for (p, o), bots_turn in level:
            entry = whole.entries[(p, o)]
            walked = 1 << entry.move if bots_turn else entry.reasonable
            for cp, co, passed in children(p, o, walked):
                after.add((canonical(cp, co)[:2], bots_turn if passed else not bots_turn))
        level = after
        assert all(position in whole.entries for position, _ in level)
    assert len(whole) == len({position for position in whole.entries})


def test_the_bot_plays_the_books_move_only_where_the_book_is_deeper_than_its_own_search():
    game = Othello()
    state = game.initial_state()
    p, o = state.mover_bits()
    cp, co, t = canonical(p, o)
    # the book's move: the canonical position's last legal square (a choice the search would not
    # make for the same reason: all four first moves are equal)
    move = max(sq for sq in range(64) if legal_bits(cp, co) >> sq & 1)
    book = Book({(cp, co): Entry(move, 30, 0, 1 << move)}, seconds=4.0)
    expected = book.get(p, o)[0]
    said = []
    bot = AlphaBetaBot(game, 1.0, book=False)
    bot.book = book
    assert bot.choose(state, Context(rng=random.Random(1), report=said.append)) == expected
    assert said and said[-1].startswith("book")
    slow = AlphaBetaBot(game, 3.0, book=False)  # 3 s a move: more than half of the book's 4 s
    slow.book = book
    said.clear()
    slow.choose(state, Context(rng=random.Random(1), report=said.append, time_limit=0.3))  # 0.3 s: served
    assert said[-1].startswith("book")
    assert book.serves(2.0) and not book.serves(2.01) and not Book(seconds=100).serves(0.1)
    assert AlphaBetaBot(game, 1.0, book=False).book is None
@settings(max_examples=1)
@given(st.just(None))
def test_the_shipped_book_is_sound(_):
    """Every shipped entry's move is legal in its position (``Book.load`` checks), the positions
    are canonical, the reasonable moves hold the book's move, and the first position is there."""
    book = shipped()
    assert BOOK_FILE.exists() and len(book) >= 100 and book.seconds >= 2
    for (p, o), entry in book.entries.items():
        assert canonical(p, o)[:2] == (p, o)
        assert entry.reasonable >> entry.move & 1
    assert book.get(*Othello().initial_state().mover_bits()) is not None
