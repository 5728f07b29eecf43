"""The D-Football book's file (``bots.dfootball.Book``): what ``dump`` writes, ``load`` reads back
exactly, any board size lazily; a file that is not one it wrote is refused with a clear message."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bots.dfootball as dfb
from bots.dfootball import BOOK_MAGIC, Book, BookError

masks = st.integers(min_value=0, max_value=(1 << 31) - 1)
entries = st.dictionaries(
    st.sampled_from([3, 5, 17, 25, 27, 31]),
    st.dictionaries(st.tuples(masks, masks).map(lambda mo: mo[0] << 32 | mo[1]),
                    st.integers(min_value=1, max_value=31), max_size=60),
    max_size=4,
)


@settings(max_examples=60, deadline=None)
@given(entries, st.lists(st.tuples(st.sampled_from([3, 5, 17, 25, 27, 31]), masks, masks), max_size=20),
       st.sampled_from([1, 2, 3, 7, 1 << 15]))
def test_a_dumped_book_loads_back_entry_for_entry(tmp_path_factory, table, probes, run):
    path = tmp_path_factory.mktemp("book") / "book.bin"
    Book.dump(table, path, run=run)
    book = Book.load(path)
    table = {size: held for size, held in table.items() if held}
    assert book.sizes() == sorted(table)
    assert len(book) == sum(len(t) for t in table.values())
    for size, held in table.items():
        assert book.count(size) == len(held)
        assert dict(book.items(size)) == held
        for key, square in held.items():
            assert book.get(size, key >> 32, key & 0xFFFFFFFF) == square
            assert book.get(size, key >> 32, (key & 0xFFFFFFFF) ^ 1) == held.get(key ^ 1)
    for size, m, o in probes:
        assert book.get(size, m, o) == table.get(size, {}).get(m << 32 | o)


def test_a_run_is_unpacked_at_the_first_look_up_that_falls_in_it_only(tmp_path):
    path = tmp_path / "book.bin"
    table = {25: {5 << 32 | 9: 3}, 27: {i << 32 | 1: i % 9 + 1 for i in range(1, 101)}}
    Book.dump(table, path, run=10)
    book = Book.load(path)
    assert book.count(27) == 100 and book.unpacked(27) == 0 and book.unpacked(25) == 0
    assert book.get(25, 5, 9) == 3 and book.unpacked(27) == 0  # a board not played costs nothing
    assert book.get(27, 55, 1) == 55 % 9 + 1
    assert book.unpacked(27) == 1  # one run of ten, the one holding it
    assert book.get(27, 55, 2) is None and book.get(27, 56, 1) == 56 % 9 + 1
    assert book.unpacked(27) == 1
    assert book.get(27, 0, 1) is None and book.unpacked(27) == 1  # before the first run: none unpacked
    assert dict(book.items(27)) == table[27] and book.unpacked(27) == 10
    assert book.run_count(27) == 10 and book.run_count(3) == 0
    assert dict(book.items(27, [2, 0])) == {k: v for k, v in table[27].items() if k >> 32 in range(21, 31)} | {
        k: v for k, v in table[27].items() if k >> 32 <= 10}


def _damaged(data: bytes, cut: int | None, flip: int | None) -> bytes:
    if cut is not None:
        data = data[:cut]
    if flip is not None and flip < len(data):
        data = data[:flip] + bytes([data[flip] ^ 0x55]) + data[flip + 1:]
    return data


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_a_damaged_book_is_refused_with_a_message_never_misread(tmp_path_factory, data):
    """Truncated or with a byte changed anywhere (a header's size, a count, a compressed column, the
    checksum itself), a book is refused with ``BookError`` naming the file: never another
    exception, never a silently different book."""
    table = {25: {i << 32 | (i * 7 + 1): i % 25 + 1 for i in range(1, 300)}, 27: {3 << 32 | 5: 2}}
    path = tmp_path_factory.mktemp("book") / "book.bin"
    Book.dump(table, path)
    whole = path.read_bytes()
    cut = data.draw(st.one_of(st.none(), st.integers(0, len(whole) - 1)))
    flip = data.draw(st.one_of(st.none(), st.integers(0, len(whole) - 1)))
    if cut is None and flip is None:
        cut = len(whole) - 1
    path.write_bytes(_damaged(whole, cut, flip))
    with pytest.raises(BookError, match=str(path)):
        Book.load(path)


@pytest.mark.parametrize("where", ["size", "count", "first", "entries", "distinct"])
def test_a_header_changed_with_its_checksum_mended_is_still_refused(tmp_path, where):
    """A header that lies about its board or its runs (the checksum recomputed, as a hand edit
    would) is caught when the book is loaded or the run unpacked: never a different book."""
    import zlib

    table = {25: {1 << 32 | 2: 3, 1 << 32 | 5: 4, 9 << 32 | 1: 5}, 27: {3 << 32 | 5: 2}}
    path = tmp_path / "book.bin"
    Book.dump(table, path)
    data = bytearray(path.read_bytes()[:-4])
    at = len(BOOK_MAGIC)  # the first board: <BII size, entries, runs; then its run: <QIII
    if where == "size":
        data[at] = 27  # the first board claims the second's size
    elif where == "count":
        struct.pack_into("<I", data, at + 1, 4)
    elif where == "first":
        struct.pack_into("<Q", data, at + 9, 1 << 32 | 3)
    elif where == "entries":
        struct.pack_into("<I", data, at + 17, 2)
    else:
        struct.pack_into("<I", data, at + 21, 1)
    path.write_bytes(bytes(data) + struct.pack("<I", zlib.crc32(data)))
    with pytest.raises(BookError, match=str(path)):
        book = Book.load(path)
        for size in book.sizes():
            list(book.items(size))


def test_a_book_in_another_format_names_the_command_that_rebuilds_it(tmp_path):
    path = tmp_path / "book.bin"
    path.write_bytes(struct.pack("<BI", 25, 1) + struct.pack("<Q", 5) + b"\x01")  # the old records
    with pytest.raises(BookError, match="python -m bots.dfootball.book"):
        Book.load(path)


def test_the_shipped_book_is_this_format_and_unpacks_every_size():
    assert dfb.BOOK_PATH.read_bytes().startswith(BOOK_MAGIC)
    book = Book.load()
    for size in book.sizes():
        firsts = [next(book.items(size, [i])) for i in range(book.run_count(size))]  # each run unpacked
        assert book.unpacked(size) == book.run_count(size) > 0
        assert [k for k, _ in firsts] == sorted({k for k, _ in firsts})
        assert all(book.get(size, k >> 32, k & 0xFFFFFFFF) == square for k, square in firsts)
        assert book.count(size) > 0


def test_a_damaged_shipped_book_costs_the_bot_its_book_with_a_warning_not_the_program(tmp_path):
    path = tmp_path / "book.bin"
    Book.dump({25: {5 << 32 | 9: 3}}, path)
    path.write_bytes(path.read_bytes()[:-1])
    with pytest.warns(RuntimeWarning, match="python -m bots.dfootball.book"):
        book = dfb.load_book(path)
    assert len(book) == 0 and book.get(25, 5, 9) is None
    Book.dump({25: {5 << 32 | 9: 3}}, path)
    assert dfb.load_book(path).get(25, 5, 9) == 3


def test_a_dump_that_fails_mid_write_leaves_the_old_book(tmp_path, monkeypatch):
    """The builder writes the book through a temporary file: killed or failing in the middle of
    the write, the book there before is intact."""
    path = tmp_path / "book.bin"
    Book.dump({25: {5 << 32 | 9: 3}}, path)
    before = path.read_bytes()
    real = type(path).write_bytes

    def half(self, data):
        real(self, data[:len(data) // 2])
        raise OSError("disk full")

    monkeypatch.setattr(type(path), "write_bytes", half)
    with pytest.raises(OSError):
        Book.dump({25: {7 << 32 | 1: 4}}, path)
    monkeypatch.undo()
    assert path.read_bytes() == before and Book.load(path).get(25, 5, 9) == 3
