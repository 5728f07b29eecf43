"""Othello's opening book, built by the engine itself.

``python -m bots.othello.book`` walks the opening tree from the first position breadth first: each
position is searched by the shipped engine (``alphabeta``'s compiled core, its own evaluation) for
a fixed CPU time, far longer than a move's, and its best move, score and depth are written down;
the walk goes on through every move not proven worse than the best by more than ``--margin`` discs
at the depth reached (the tree of reasonable moves: either side may play any of them). Positions
are stored once per symmetry class (the board's eight symmetries map a position and its moves onto
each other), so the first move's four choices are one position.

The book is ``book.bin`` beside this file: a header line (with the seconds a position), then
fixed records of 28 bytes (the
canonical position's two bitboards, the best move, the depth, the score in hundredths of a disc,
and the bitboard of the reasonable moves), sorted. A build started again with the same file goes on
where it stopped: the positions already there are not searched again (their reasonable moves say
where the walk went from them), so a long build can run in pieces.

``AlphaBetaBot`` plays the book's move in a position the book holds when its own time for the
move is at most half the book's (``Book.serves``: a longer search would find better);
``book=False`` turns it off, and ``bench/othello.py versus --no-book`` measures its worth.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import struct
import sys
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from bots.othello.patterns import symmetry
from games.othello import FULL, Othello, flip_bits, legal_bits, square_name

BOOK_FILE = Path(__file__).with_name("book.bin")
MAGIC = b"othello-book 1 seconds="
"""The header: this, the CPU seconds each position was searched, a newline."""
REASONABLE_DEPTH = 14
"""The depth the other moves are tried at against the margin: the best move's search reaches
20-21 plies in 4 s, and a null window at that depth costs nearly as much for each move (13 s a
position in all); at 14 the walk's choice costs a fraction of a second."""
RECORD = struct.Struct("<QQbBhQ")
"""p, o (the mover's discs and the opponent's, canonical), move, depth, score, reasonable moves."""

_IMAGES = tuple(tuple(1 << symmetry(t, sq) for sq in range(64)) for t in range(8))
_INVERSE = tuple(next(u for u in range(8) if all(symmetry(u, symmetry(t, sq)) == sq for sq in range(64)))
                 for t in range(8))


def transformed(bits: int, t: int) -> int:
    """The bitboard ``bits`` under the board symmetry ``t`` (``bots.othello.patterns.symmetry``)."""
    image = _IMAGES[t]
    out = 0
    while bits:
        low = bits & -bits
        out |= image[low.bit_length() - 1]
        bits ^= low
    return out


def canonical(p: int, o: int) -> tuple[int, int, int]:
    """The least image of the position ``(p, o)`` under the eight symmetries, and the symmetry
    ``t`` that makes it: ``(p', o', t)``."""
    return min((transformed(p, t), transformed(o, t), t) for t in range(8))


@dataclass(frozen=True)
class Entry:
    move: int
    depth: int
    score: int
    reasonable: int
    """The canonical position's moves the search did not find worse than the best by more than
    the margin (a bitboard)."""


class Book:
    """Positions (canonical) and what the engine found in them."""

    def __init__(self, entries: dict[tuple[int, int], Entry] | None = None, seconds: float = 0.0) -> None:
        self.entries: dict[tuple[int, int], Entry] = entries or {}
        self.seconds = seconds
        """The CPU seconds the engine searched each position: the book serves moves of at most
        half of that (``serves``); a shorter search of its own would be worse than that."""

    def serves(self, budget: float) -> bool:
        """Whether its moves are better than a search of ``budget`` seconds would find."""
        return bool(self.entries) and 2 * budget <= self.seconds

    def __len__(self) -> int:
        return len(self.entries)

    @classmethod
    def load(cls, path: Path | str = BOOK_FILE) -> "Book":
        """The book in ``path``; an empty book when there is no file. A file that is not a book,
        or is cut short, is refused with ``ValueError``."""
        path = Path(path)
        if not path.exists():
            return cls()
        data = path.read_bytes()
        head, _, body = data.partition(b"\n")
        try:
            seconds = float(head[len(MAGIC):].decode("ascii")) if head.startswith(MAGIC) else -1.0
        except ValueError:
            seconds = -1.0
        if not seconds >= 0 or len(body) % RECORD.size:
            raise ValueError(f"{path}: not an Othello book ({len(data)} bytes)")
        entries = {}
        for p, o, move, depth, score, reasonable in RECORD.iter_unpack(body):
            if p & o or not 0 <= move < 64 or not legal_bits(p, o) >> move & 1 or reasonable & ~legal_bits(p, o):
                raise ValueError(f"{path}: a record whose move is not legal in its position")
            entries[(p, o)] = Entry(move, depth, score, reasonable)
        return cls(entries, seconds)

    def dump(self, path: Path | str = BOOK_FILE) -> None:
        """Write the book (sorted, so a rebuild that finds the same gives the same bytes), through
        a temporary file so that a reader never sees half of it."""
        path = Path(path)
        body = b"".join(RECORD.pack(p, o, e.move, e.depth, e.score, e.reasonable)
                        for (p, o), e in sorted(self.entries.items()))
        temporary = path.with_suffix(".tmp")
        temporary.write_bytes(MAGIC + f"{self.seconds:g}\n".encode() + body)
        temporary.replace(path)

    def get(self, p: int, o: int) -> tuple[int, Entry] | None:
        """The book's move for the mover of ``(p, o)`` (mapped back from the canonical position)
        and its entry, or ``None`` when the book does not hold the position."""
        cp, co, t = canonical(p, o)
        entry = self.entries.get((cp, co))
        if entry is None:
            return None
        return symmetry(_INVERSE[t], entry.move), entry

    def reasonable(self, p: int, o: int) -> list[int]:
        """The position's reasonable moves (mapped back), or [] when the book does not hold it."""
        cp, co, t = canonical(p, o)
        entry = self.entries.get((cp, co))
        if entry is None:
            return []
        return sorted(symmetry(_INVERSE[t], sq) for sq in range(64) if entry.reasonable >> sq & 1)

    def digest(self) -> str:
        """The first 12 hex digits of the SHA-256 of its records (a match's ledger names it)."""
        body = b"".join(RECORD.pack(p, o, e.move, e.depth, e.score, e.reasonable)
                        for (p, o), e in sorted(self.entries.items()))
        return hashlib.sha256(body).hexdigest()[:12]


_SHIPPED: Book | None = None


def shipped() -> Book:
    """The shipped book (``book.bin``), read once."""
    global _SHIPPED
    if _SHIPPED is None:
        _SHIPPED = Book.load(BOOK_FILE)
    return _SHIPPED


def children(p: int, o: int, moves: int) -> list[tuple[int, int, bool]]:
    """The positions after each move in ``moves`` (a bitboard), the opponent to move, and
    ``False``; where the opponent would have to pass, the position after the pass (the mover to
    move again) and ``True``. A move that ends the game has no child."""
    out = []
    while moves:
        low = moves & -moves
        moves ^= low
        sq = low.bit_length() - 1
        f = flip_bits(p, o, sq)
        np_, no = o ^ f, p | f | low
        passed = not legal_bits(np_, no)
        if passed:
            np_, no = no, np_
        if legal_bits(np_, no):
            out.append((np_, no, passed))
    return out


def build(plies: int, seconds: float, margin: int, most: int, out: Path, progress=print, engine=None,
          max_depth: int = 60) -> Book:
    """Walk the book's tree to ``plies`` plies breadth first, searching each new position for
    ``seconds`` of CPU time, until ``most`` positions are in the book; write it to ``out`` after
    each position (so that a stopped build keeps what it found, and goes on from it).
    ``engine`` and ``max_depth``: another engine, a depth to stop at (the tests' small books).

    The tree is the bot's, for either colour: where the bot is to move it plays the book's move,
    so only that move is walked; where its opponent is, every reasonable move is. A position is
    walked once in each role it is reached in."""
    from bots.othello import parallel_solve
    from bots.othello.compiled import make_engine
    from bots.othello.patterns import PatternEvaluator

    parallel_solve.disable()  # one process: the CPU clock counts all of the search
    book = Book.load(out) if out.exists() else Book(seconds=seconds)
    if book.seconds != seconds:
        raise SystemExit(f"{out} was searched at {book.seconds:g} s a position, not {seconds:g}: another file")
    if engine is None:
        engine = make_engine(PatternEvaluator())
    engine.clock = time.process_time
    p0, o0, _ = canonical(*Othello().initial_state().mover_bits())
    todo: deque[tuple[int, int, int, bool]] = deque([(p0, o0, 0, True), (p0, o0, 0, False)])
    seen = {(p0, o0, True), (p0, o0, False)}
    searched = 0
    began = time.time()
    gc.disable()  # the tables make no cycles; the collector's walks would cost seconds
    while todo and len(book) < most:
        p, o, ply, bots_turn = todo.popleft()
        entry = book.entries.get((p, o))
        if entry is None:
            entry = search_position(engine, p, o, seconds, margin, max_depth)
            book.entries[(p, o)] = entry
            book.dump(out)
            searched += 1
            progress(f"{len(book)} positions (ply {ply}): {square_name(entry.move)} {entry.score / 100:+.2f} "
                     f"depth {entry.depth}, {bin(entry.reasonable).count('1')} reasonable · "
                     f"{searched} searched in {time.time() - began:.0f} s")
        if ply + 1 >= plies:
            continue
        walked = 1 << entry.move if bots_turn else entry.reasonable
        for cp, co, passed in children(p, o, walked):
            cp, co, _ = canonical(cp, co)
            role = bots_turn if passed else not bots_turn  # after a pass the same side moves again
            if (cp, co, role) not in seen:
                seen.add((cp, co, role))
                todo.append((cp, co, ply + 1, role))
    return book


def search_position(engine, p: int, o: int, seconds: float, margin: int, max_depth: int = 60) -> Entry:
    """The engine's best move in ``(p, o)`` after ``seconds`` of CPU time (every iteration it can
    start), and its reasonable moves: each other move searched alone (at the depth reached, or
    ``REASONABLE_DEPTH`` if less) with a null window at ``margin`` hundredths of a disc under the
    best score, kept when it does not fail low (a root pass would raise its window to the best move's score after the first move,
    and prove only that the others are no better)."""
    info = engine.search(p, o, engine.clock() + seconds, max_depth=max_depth, soft_fraction=1.0)
    floor = info.score - margin - 1
    engine.deadline = float("inf")  # the depth reached is known to fit
    reasonable = 1 << info.move
    for sq in range(64):
        if legal_bits(p, o) >> sq & 1 and sq != info.move:
            value = engine._root(p, o, max(min(info.depth, REASONABLE_DEPTH), 1), [sq], floor, floor + 1)[0]
            if value > floor:
                reasonable |= 1 << sq
    return Entry(info.move, info.depth, max(-32768, min(32767, info.score)), reasonable & FULL)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=12, help="how deep the tree goes (default 12)")
    parser.add_argument("--seconds", type=float, default=4.0, help="CPU seconds a position (default 4)")
    parser.add_argument("--margin", type=float, default=2.0,
                        help="discs: moves no worse than the best by this are walked (default 2)")
    parser.add_argument("--most", type=int, default=600, help="stop at this many positions (default 600)")
    parser.add_argument("--out", type=Path, default=BOOK_FILE, help="the book to add to (default: the shipped one)")
    args = parser.parse_args(argv)
    book = build(args.plies, args.seconds, round(args.margin * 100), args.most, args.out,
                 progress=lambda line: print(line, file=sys.stderr, flush=True))
    print(f"{len(book)} positions in {args.out} ({book.digest()})")


if __name__ == "__main__":
    main()
