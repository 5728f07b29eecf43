"""D-Football bots: the course's two example strategies, and ``perfect``.

Each is importable as a course-style strategy, a function of a game dict in which Michigan is
to move returning a square, so it can be passed straight to ``games.dfootball.play_game``::

    from bots.dfootball import perfect, prefer_jumps
    from games.dfootball import play_repeatedly
    play_repeatedly(perfect, prefer_jumps, k=50, n=11)

``BOTS`` wraps them for the arcade's protocol (setup screen, ``arcade match``).

How ``perfect`` decides (all within the contest's 100 ms, the first move included)
--------------------------------------------------------------------------------------
1. The *book* (``bots/dfootball/book.bin``, built by ``python -m bots.dfootball.book``): for
   each n from 1 to 11 and either side it holds the winning move of every position that the bot
   can meet, against any opponent, while following this very procedure, and that its search
   could not settle within its node budget: 111,203 positions (the generator's docstring says
   how it is built); for n = 12, 13 and 14 (both sides) the same for the compiled search below.
   The file is ``Book``'s: 15.5 MB for its 15.78 million positions, each run of 32,768 unpacked
   when a game first reaches it.
2. Otherwise an exact win/loss search (``bots.dfootball.solver``) with a shared transposition
   table and a budget of ``WIN_BUDGET`` nodes: if the position is won it plays the first
   winning move in the search's order. Once a position is proven won, the proof stays in the
   table, so every later move of that game is answered from it at once.
3. In a lost position (or one the search cannot settle) it still plays to win against an
   imperfect opponent: it plays the move that leaves the opponent the smallest *fraction* of
   winning replies (so a random opponent is most likely to go wrong), computed exactly by a
   fresh search of at most ``LOSS_BUDGET`` nodes; when that is too deep to count, a cheap rule:
   jump if possible, else a step that cannot be jumped back at once, else the rearmost step.
   ``bench/dfootball.py`` measures how often each path is taken.

From n = 12 (``COMPILED_FROM``) the search is the compiled solver's (``bots/dfootball/_solve.c``,
``_decide_compiled``): ``C_WIN_BUDGET`` positions (150,000, about 7 ms) on a table kept for the
game (16 MiB a board size, entries never replaced, emptied at a game's start or at a move whose
position it does not know once it passes ``C_REFILL``), on until ``C_DEADLINE`` if the budget did
not settle it; in a lost position the count of winning replies on a fresh table (one compiled
call), else the rule. The book for those boards (n = 12, 13 and 14, both sides:
``COMPILED_BOOK``; n = 15's does not fit this project's compute) is built by ``python -m bots.dfootball.book --compiled N`` and follows that search: every won
position the bot can meet off it is one a fresh search of 5,000 positions settles (the
generator's docstring says why it is enough).

Who wins with perfect play is in ``FIRST_TEAM_WINS`` (checked by the tests and the generator).
"""

from __future__ import annotations

import lzma
import random
import struct
import sys
import threading
import time
import warnings
import zlib
from array import array
from bisect import bisect_left, bisect_right
from itertools import accumulate
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from bots.base import Bot, BotEntry, Context
from bots.dfootball.solver import Budget, Solver, child, from_board, moves, square_of, start_position
from games.base import Analysis
from games.dfootball import DFootball, FootballState, valid_moves

try:  # the compiled solver (bots/dfootball/_solve.c, built by ``pip install .``): n >= 12's search
    from bots.dfootball import _solve as _core
except ImportError:  # pragma: no cover - without a C compiler n >= 12 falls back to the Python search
    _core = None  # type: ignore[assignment]

__all__ = [
    "random_move",
    "prefer_jumps",
    "perfect",
    "Perfect",
    "decide",
    "first_team_wins",
    "FIRST_TEAM_WINS",
    "BOTS",
    "BOOK_PATH",
    "analyse",
]

WIN_BUDGET = 5000
"""Nodes the win/loss search may visit for one move before the bot relies on the book."""
LOSS_BUDGET = 3000
"""Nodes the exact count of winning replies may take in a lost position (a fresh search)."""
WIN_DEADLINE = 0.020
"""Seconds after which the win/loss search gives up even within its node budget (a slow machine)."""
EXTRA_SECONDS = 0.020
"""Wall-clock time up to which a position not settled by ``WIN_BUDGET`` is searched further."""
LOSS_DEADLINE = 0.015
"""After this much time in one move the lost-position count is skipped (the cheap rule)."""
HARD_DEADLINE = 0.025
"""The lost-position count gives up at this time (the cheap rule answers instead). No phase starts
after 25 ms of wall-clock time, so a busy 2-core machine has 75 ms of margin for what no deadline
controls: another process's time slice, the screen's thread holding the GIL (an unloaded machine
searches 5,000 nodes in about 11 ms, so the deadlines rarely change a choice there).
``bench/dfootball.py --load 2 --threads 1`` measures the p99.9 and the slowest move."""

FIRST_TEAM_WINS: dict[int, bool] = {
    1: False, 2: True, 3: False, 4: True, 5: True, 6: True,
    7: True, 8: True, 9: True, 10: True, 11: True, 12: True, 13: True, 14: True, 15: True,
}
"""Whether Michigan (the first team) wins with perfect play, for every n the arcade offers, 1..15
(solved exactly: ``tests/bots/test_dfootball.py`` re-solves n <= 9, the book generator n <= 11,
and ``python -m bots.dfootball.prove`` every n with the compiled solver, its results in
``proved.json``, which ``tests/bots/test_dfootball_solve.py`` holds this table to)."""

BOOK_PATH = Path(__file__).with_name("book.bin")
BOOK_MAGIC = b"DFBOOK2\n"
"""The book file's first bytes (``Book``: the format)."""
BOOK_RUN = 1 << 15
"""Entries a run of the book file holds (``Book``): unpacked in a few milliseconds."""
FULL_BOOK_MAX_N = 11
"""The book covers both sides for n up to this."""


def first_team_wins(n: int) -> bool | None:
    """Whether the first team (Michigan) wins with perfect play, or ``None`` if not solved (a
    board larger than the arcade offers)."""
    return FIRST_TEAM_WINS.get(n)


# -- the course's strategies ---------------------------------------------------------------------

def random_move(game: Mapping[str, Any]) -> int:
    """The course's ``random_move``: one of the valid moves, uniformly (global ``random``)."""
    v = valid_moves(game)
    return v[random.randrange(len(v))]


def prefer_jumps(game: Mapping[str, Any]) -> int:
    """The course's ``prefer_jumps``: the first (lowest) square whose Michigan piece can jump an
    Ohio piece, else the first valid move."""
    b = list(game["board"])
    m = [i + 1 for i in range(len(b) - 2) if b[i] == 1 and b[i + 1] == -1 and b[i + 2] == 0]
    if not m:
        return valid_moves(game)[0]
    return m[0]


# -- the book --------------------------------------------------------------------------------------

class _Entries:
    """A run of the book's entries for one board size, sorted by key (``m << 32 | o``), by column:
    ``heads`` the distinct m, ``starts`` where each head's entries begin (one more: the last is
    the count), ``tails`` each entry's o, ``squares`` each entry's square."""

    __slots__ = ("heads", "starts", "tails", "squares")

    def __init__(self, heads: array, starts: array, tails: array, squares: bytes) -> None:
        self.heads, self.starts, self.tails, self.squares = heads, starts, tails, squares

    @classmethod
    def of(cls, items: Sequence[tuple[int, int]]) -> "_Entries":
        """From ``(key, square)`` pairs sorted by key."""
        heads, starts, tails = array("I"), array("I", [0]), array("I")
        for key, _ in items:
            m = key >> 32
            if not heads or heads[-1] != m:
                heads.append(m)
                starts.append(starts[-1])
            starts[-1] += 1
            tails.append(key & 0xFFFFFFFF)
        return cls(heads, starts, tails, bytes(s for _, s in items))

    def get(self, m: int, o: int) -> int | None:
        heads = self.heads
        i = bisect_left(heads, m)
        if i == len(heads) or heads[i] != m:
            return None
        lo, hi = self.starts[i], self.starts[i + 1]
        j = bisect_left(self.tails, o, lo, hi)
        if j < hi and self.tails[j] == o:
            return self.squares[j]
        return None

    def items(self) -> Iterator[tuple[int, int]]:
        tails, squares = self.tails, self.squares
        for i, m in enumerate(self.heads):
            for j in range(self.starts[i], self.starts[i + 1]):
                yield m << 32 | tails[j], squares[j]

    def pack(self) -> bytes:
        """One lzma stream of the four columns (the run lengths in place of ``starts``)."""
        runs = array("I", (self.starts[i + 1] - self.starts[i] for i in range(len(self.heads))))
        return lzma.compress(_little(self.heads) + _little(runs) + _little(self.tails) + self.squares)

    @classmethod
    def unpack(cls, blob: bytes, count: int, heads_count: int) -> "_Entries":
        try:
            raw = lzma.decompress(blob)
        except lzma.LZMAError as exc:
            raise BookError(f"a compressed run is corrupt: {exc}") from None
        if len(raw) != 8 * heads_count + 5 * count:
            raise BookError(f"a run holds {len(raw)} bytes, not the {8 * heads_count + 5 * count} its header says")
        heads, runs, tails = (_column(raw, at, n) for at, n in
                              ((0, heads_count), (4 * heads_count, heads_count), (8 * heads_count, count)))
        if sum(runs) != count or list(heads) != sorted(set(heads)):
            raise BookError("a run's columns disagree")
        return cls(heads, array("I", accumulate(runs, initial=0)), tails, raw[8 * heads_count + 4 * count:])


class BookError(ValueError):
    """The book file is not one ``Book.dump`` wrote (truncated, corrupt or another format)."""


class Book:
    """The book: for each board size, the positions it holds (``key = m << 32 | o``) and the
    square to play in each.

    On disk (``dump``): ``BOOK_MAGIC``; per board size a header ``<BII`` (the size, the entries,
    the runs) and each run's header ``<QIII`` (its first key, entries, distinct m, compressed
    bytes); then every run's lzma stream (``_Entries.pack``: the distinct m, the length of each
    one's run, every o and every square); last, the CRC-32 of all before it. A run holds
    ``BOOK_RUN`` entries (the last of a size fewer), about a byte an entry packed, and is unpacked
    at the first look-up that falls in it (a few milliseconds: 2.7 ms a run on average, 10 ms at
    most on the busy 2-core machine; inside the move's deadlines, which count from its start),
    so a board of millions of entries costs a move no more than its runs that the game reaches."""

    def __init__(self) -> None:
        self._firsts: dict[int, array] = {}  # per size: each run's first key
        self._runs: dict[int, list[Any]] = {}  # per size: each run, packed (count, heads, blob) or _Entries
        self._lock = threading.Lock()
        self._path: Path | None = None

    @classmethod
    def load(cls, path: Path = BOOK_PATH) -> "Book":
        book = cls()
        book._path = path
        if not path.exists():
            return book
        data = path.read_bytes()
        if not data.startswith(BOOK_MAGIC):
            raise BookError(f"{path}: not a D-Football book (rebuild it: python -m bots.dfootball.book)")
        body, tail = data[:-4], data[-4:]
        if len(data) < len(BOOK_MAGIC) + 4 or struct.unpack("<I", tail)[0] != zlib.crc32(body):
            raise BookError(f"{path}: damaged (its checksum does not match; rebuild it: "
                            "python -m bots.dfootball.book)")
        try:
            book._parse(body, len(BOOK_MAGIC))
        except (struct.error, BookError) as exc:
            raise BookError(f"{path}: {exc}") from None
        return book

    def _parse(self, data: bytes, pos: int) -> None:
        while pos < len(data):
            size, count, runs = struct.unpack_from("<BII", data, pos)
            pos += 9
            if size in self._runs:
                raise BookError(f"board size {size} repeated")
            heads = [struct.unpack_from("<QIII", data, pos + 20 * i) for i in range(runs)]
            pos += 20 * runs
            firsts, packed, total = array("Q"), [], 0
            for first, entries, distinct, length in heads:
                if pos + length > len(data) or (firsts and first <= firsts[-1]) or not entries:
                    raise BookError(f"board size {size}: a run's header is wrong")
                firsts.append(first)
                packed.append((entries, distinct, data[pos:pos + length]))
                pos += length
                total += entries
            if total != count:
                raise BookError(f"board size {size}: {total} entries in its runs, not {count}")
            self._firsts[size], self._runs[size] = firsts, packed

    def _run(self, size: int, i: int) -> _Entries:
        run = self._runs[size][i]
        if isinstance(run, _Entries):
            return run
        with self._lock:
            run = self._runs[size][i]
            if not isinstance(run, _Entries):
                try:
                    run = _Entries.unpack(run[2], run[0], run[1])
                except BookError as exc:
                    raise BookError(f"{self._path}: board size {size}: {exc}") from None
                if run.heads and (run.heads[0] << 32 | run.tails[0]) != self._firsts[size][i]:
                    raise BookError(f"{self._path}: board size {size}: a run does not start where its header says")
                self._runs[size][i] = run
            return run

    def get(self, size: int, m: int, o: int) -> int | None:
        """The book's square (1-based) for this position, or ``None``."""
        firsts = self._firsts.get(size)
        if firsts is None:
            return None
        i = bisect_right(firsts, m << 32 | o) - 1
        return None if i < 0 else self._run(size, i).get(m, o)

    def sizes(self) -> list[int]:
        """The board sizes (squares) the book holds, ascending."""
        return sorted(self._runs)

    def count(self, size: int) -> int:
        """The entries for ``size`` squares (0 if none)."""
        return sum(len(r.tails) if isinstance(r, _Entries) else r[0] for r in self._runs.get(size, ()))

    def items(self, size: int, runs: Iterable[int] | None = None) -> Iterator[tuple[int, int]]:
        """``(key, square)`` for ``size`` squares, by key (unpacking every run, or only the runs
        numbered in ``runs``: 0 to ``run_count(size)`` - 1)."""
        for i in range(len(self._runs.get(size, ()))) if runs is None else runs:
            yield from self._run(size, i).items()

    def run_count(self, size: int) -> int:
        """How many runs ``size``'s entries are stored in."""
        return len(self._runs.get(size, ()))

    def unpacked(self, size: int) -> int:
        """How many of ``size``'s runs are unpacked."""
        return sum(isinstance(r, _Entries) for r in self._runs.get(size, ()))

    def __len__(self) -> int:
        return sum(self.count(size) for size in self._runs)

    @classmethod
    def of(cls, entries: Mapping[int, Mapping[int, int]], run: int | None = None) -> "Book":
        """A book holding ``{size: {key: square}}`` (unpacked; runs of ``run`` entries)."""
        run = BOOK_RUN if run is None else run
        book = cls()
        for size, table in entries.items():
            items = sorted(table.items())
            if not items:
                continue
            book._firsts[size] = array("Q", (k for k, _ in items[::run]))
            book._runs[size] = [_Entries.of(items[i:i + run]) for i in range(0, len(items), run)]
        return book

    @staticmethod
    def dump(entries: Mapping[int, Mapping[int, int]], path: Path = BOOK_PATH, run: int | None = None) -> None:
        """Write ``{size: {key: square}}`` (see the class for the format), through a temporary
        file, so that a reader never sees half of it."""
        book = Book.of(entries, run)
        out = bytearray(BOOK_MAGIC)
        for size in book.sizes():
            runs = book._runs[size]
            blobs = [r.pack() for r in runs]
            out += struct.pack("<BII", size, sum(len(r.tails) for r in runs), len(runs))
            for first, r, blob in zip(book._firsts[size], runs, blobs):
                out += struct.pack("<QIII", first, len(r.tails), len(r.heads), len(blob))
            for blob in blobs:
                out += blob
        out += struct.pack("<I", zlib.crc32(out))
        temporary = path.with_name(path.name + ".tmp")  # a build killed mid-write leaves the old book
        temporary.write_bytes(bytes(out))
        temporary.replace(path)


def _little(a: array) -> bytes:
    if sys.byteorder == "big":
        a = array(a.typecode, a)
        a.byteswap()
    return a.tobytes()


def _column(raw: bytes, at: int, count: int) -> array:
    a = array("I")
    a.frombytes(raw[at:at + 4 * count])
    if sys.byteorder == "big":
        a.byteswap()
    return a


def load_book(path: Path = BOOK_PATH) -> Book:
    """The book at ``path``; a damaged one is set aside with a warning naming the rebuild command
    (``perfect`` then plays by its search alone: strong, but no longer sure never to give a won
    position away), so that a damaged install costs the bot its book, never the program."""
    try:
        return Book.load(path)
    except BookError as exc:
        warnings.warn(f"D-Football's perfect plays without its book: {exc}", RuntimeWarning, stacklevel=2)
        return Book()


BOOK = load_book()

# -- the shared transposition tables ----------------------------------------------------------------

_TABLES: dict[int, dict[int, bool]] = {}
_TABLES_LOCK = threading.Lock()
TABLE_SOFT_CAP = 20_000
"""A table bigger than this is retired when a new game starts (never in the middle of one: the
book counts on a game's proofs staying in the table). Small, because a dict grows by copying
itself whole: at 175,000 entries that took 8 ms, at 350,000 20 ms, and 50-90 ms under load, in
one move. One game adds a median 5,000 entries (at most 58,500 in 200 games at n = 11), so the
table stays under 87,381 entries, where the copies cost 1-4 ms; the book needs no more, as it
assumes every search starts from an empty table."""
TABLE_HARD_CAP = 3_000_000
MID_GAME_CAP = 120_000
"""Past the book's two-sided sizes (n > ``FULL_BOOK_MAX_N``, where no book relies on a game's
proofs staying) a table bigger than this is retired at the start of any move, in the middle of
a game too. A dict grows by copying itself whole, inside whichever move crosses its next size:
at n = 15 a game's table reached 373,000 entries, and the copies at 87,382, 174,763 and 349,526
entries made moves of 94, 144 and 61 ms (over the course's 100 ms at load 11: 128 ms; the copy
of 349,525 entries alone took 60 ms at load 10). Below this cap a move adds at most
``MOVE_GROWTH`` entries, so the largest copy a move makes is of 87,381 entries (4 ms unloaded,
12 ms at load 10), and a game keeps its proofs for as long as that allows."""
MOVE_GROWTH = 40_000
"""Entries one move adds to a table at most, measured at n = 15 (``tests/bots/test_dfootball.py``
checks it): the search's ``WIN_BUDGET``, what the ``EXTRA_SECONDS`` find, the count's table."""
_RETIRED: list[dict[int, bool]] = []
"""Tables taken out of use, emptied a little at a time by ``release_retired``. Emptying a big
table at once is not free (600,000 entries: 36 ms on the 2-core machine, 60-70 ms under load;
3 million: a third of a second), and a move that did it once took 121 ms and forfeited."""
RELEASE_ITEMS = 20_000
"""Entries of a retired table one move may free at most, after its answer is known."""
RELEASE_IF_UNDER = 0.002
"""A move frees retired entries only if its answer took less than this (a book move, a proof
from the table): the freeing stops ``RELEASE_FOR`` seconds after the move began."""
RELEASE_FOR = 0.004


def shared_table(size: int, m: int = 0, o: int = 0) -> dict[int, bool]:
    """The exact-value table for ``size`` squares; at a game's start a big one is retired (a new,
    empty table takes its place at once; ``release_retired`` frees the old one in small steps)."""
    with _TABLES_LOCK:
        table = _TABLES.setdefault(size, {})
        if (len(table) > TABLE_HARD_CAP or (len(table) > TABLE_SOFT_CAP and _near_start(m, o, size))
                or (len(table) > MID_GAME_CAP and size > 2 * FULL_BOOK_MAX_N + 1)):
            _RETIRED.append(table)
            table = _TABLES[size] = {}
        return table


def release_retired(items: int | None = RELEASE_ITEMS, until: float | None = None,
                    clock=time.perf_counter) -> int:
    """Free up to ``items`` entries of the retired tables (``None``: all of them), stopping once
    ``clock()`` passes ``until``; a Python-level loop in small steps, so that other threads keep
    their turns. Returns the number freed."""
    freed = 0
    while _RETIRED and (items is None or freed < items):
        if until is not None and clock() > until:
            break
        with _TABLES_LOCK:
            if not _RETIRED:
                break
            table = _RETIRED[-1]
        step = 256 if items is None else min(256, items - freed)
        try:
            for _ in range(step):
                table.popitem()
                freed += 1
        except KeyError:  # empty: the table goes (its memory is one free)
            with _TABLES_LOCK:
                if _RETIRED and _RETIRED[-1] is table:
                    _RETIRED.pop()
    return freed


_NEAR_START: dict[int, frozenset[tuple[int, int]]] = {}


def _near_start(m: int, o: int, size: int) -> bool:
    """Whether ``(m, o)`` is the start or a position one move from it (a new game)."""
    near = _NEAR_START.get(size)
    if near is None:
        start = start_position(size // 2)
        near = frozenset([start, *(child(*start, b, size) for b, _nm, _no in moves(*start, size))])
        _NEAR_START[size] = near
    return (m, o) in near


# -- perfect -----------------------------------------------------------------------------------------

class Decision:
    """How ``decide`` chose: ``path`` is "book", "win", "win-extra", "loss-count" or "rule"."""

    __slots__ = ("square", "path", "nodes", "seconds", "winning")

    def __init__(self, square: int, path: str, nodes: int, seconds: float, winning: bool | None) -> None:
        self.square = square
        self.path = path
        self.nodes = nodes
        self.seconds = seconds
        self.winning = winning

    def __repr__(self) -> str:
        return f"Decision(square={self.square}, path={self.path!r}, nodes={self.nodes}, winning={self.winning})"


def decide(m: int, o: int, size: int, clock=time.perf_counter, extra_seconds: float = EXTRA_SECONDS,
           table: dict[int, bool] | None = None, timed: bool = True) -> Decision:
    """``perfect``'s choice for the mover in ``(m, o)`` (see the module docstring).

    Node budgets make the choice a function of the position alone (the book's generator relies
    on it); wall-clock deadlines (``WIN_DEADLINE``, ``extra_seconds``, ``LOSS_DEADLINE``,
    ``HARD_DEADLINE``) keep every answer inside the contest's 100 ms on a loaded machine. A
    quick answer (under ``RELEASE_IF_UNDER``) then frees a slice of a retired table.

    From n = 12 (``COMPILED_FROM``) the compiled solver searches (``_decide_compiled``); there
    ``timed=False`` drops its wall-clock deadlines, so that only the node budgets decide, as the
    book's generator and ``bench/dfootball.py --verify`` assume (for smaller n a frozen ``clock``
    does that)."""
    start = clock()
    if size >= COMPILED_FROM and _core is not None:
        return _decide_compiled(m, o, size, clock, start, timed)
    decision = _decide(m, o, size, clock, extra_seconds, table, start)
    if _RETIRED and clock() - start < RELEASE_IF_UNDER:
        release_retired(RELEASE_ITEMS, until=start + RELEASE_FOR, clock=clock)
    return decision


def _decide(m: int, o: int, size: int, clock, extra_seconds: float, table: dict[int, bool] | None,
            start: float) -> Decision:
    if table is None:
        table = shared_table(size, m, o)
    hit = BOOK.get(size, m, o)
    if hit is not None:
        return Decision(hit, "book", 0, clock() - start, True)
    solver = Solver(size, table)
    solver.set_deadline(start + WIN_DEADLINE, clock)
    winning: bool | None
    path = "win"
    try:
        bit = solver.first_winning_move(m, o, budget=WIN_BUDGET)
        winning = bit is not None
    except Budget:
        bit, winning, path = None, None, "win-extra"
        solver.set_deadline(start + max(extra_seconds, 0.0), clock)
        if clock() < start + extra_seconds:
            try:
                bit = solver.first_winning_move(m, o)
                winning = bit is not None
            except Budget:
                pass
    if bit is not None:
        return Decision(square_of(bit), path, solver.nodes, clock() - start, True)
    square = None
    nodes = solver.nodes
    one_sided = size > 2 * FULL_BOOK_MAX_N + 1
    # Where the book is one-sided an unsettled position skips the count (it would not fit
    # either): the time is better kept. Where it covers both sides the count is tried, as the
    # book's generator expects.
    if clock() - start < LOSS_DEADLINE and not (one_sided and winning is None):
        square, used = loss_choice(m, o, size, table, deadline=start + HARD_DEADLINE, clock=clock)
        nodes += used
    if square is not None:
        return Decision(square, "loss-count", nodes, clock() - start, winning)
    # Where the book covers both sides (n <= FULL_BOOK_MAX_N) the rule must not depend on what the
    # table happens to hold (the book's generator follows the bot's choices); elsewhere it skips
    # the moves the search has already proven to lose.
    avoid = known_losing_moves(m, o, size, table) if one_sided else frozenset()
    return Decision(rule_move(m, o, size, avoid), "rule", nodes, clock() - start, winning)


# -- n >= 12: the compiled search, its table kept between moves -------------------------------------

COMPILED_FROM = 2 * FULL_BOOK_MAX_N + 3
"""Boards of this many squares and more (n >= 12) are searched by the compiled solver."""
C_WIN_BUDGET = 150_000
"""Positions the compiled search may visit for one move before the bot relies on the book (about
7 ms on the 2-core machine, 24 M positions a second once its table is warm; the Python search's
``WIN_BUDGET`` is 30 times fewer)."""
C_LOSS_BUDGET = 150_000
"""Positions the count of winning replies may visit in a lost position (a fresh table)."""
C_DEADLINE = 0.040
"""Wall-clock seconds after which the compiled search stops (even within its budget; a won
position not settled by the budget is searched on until then). The search holds no GIL, so only
other processes slow it: 150,000 positions take about 7 ms alone, 40 ms is almost six times that
(at 30 ms, one move in 5,099 missed its budget beside three busy processes on the 2 cores)."""
C_LOSS_DEADLINE = 0.042
"""The lost-position count starts only before this, and stops at ``C_HARD_DEADLINE``."""
C_HARD_DEADLINE = 0.050
"""So a move's answer takes at most 50 ms plus what no deadline controls (the GIL taken back
after a search, the Python around it): 50 ms of margin under the course's 100 ms."""
C_TABLE_BITS = 21
"""The kept table: 2**21 slots of 8 bytes (16 MiB) a board size, at most 32 probes an entry, never
an entry replaced, so a proof once found stays for the rest of the game. Made with its scratch
table at the board's first move (every page mapped then: 10 ms alone, more under load; that
first move is a book move where the book covers the board)."""
C_REFILL = 300_000
"""At the start of a move, a kept table holding more entries than this is emptied, unless it
knows the position (a known position is part of a proof the game is following, which adds no
entry). One move adds at most ``C_WIN_BUDGET`` + ``C_EXTRA_BUDGET`` entries (the analysis's
verdict searches only below ``C_REFILL``), so the table stays a third full at most and an entry is
practically never dropped (``dropped`` counts them; the tests check it stays 0)."""
C_EXTRA_BUDGET = 240_000
"""Positions the search past ``C_WIN_BUDGET`` may add before ``C_DEADLINE`` (a position the book
does not cover: n = 15, or a lost one)."""
COMPILED_BOOK: dict[int, tuple[str, ...]] = {n: ("michigan", "ohio") for n in (12, 13, 14)}
"""The boards from n = 12 the book covers, and for which sides (``bench/dfootball.py --verify N``
walks them); elsewhere a won position is played perfectly when the search settles it in time."""


def perfect_up_to() -> int:
    """The largest n up to which ``perfect`` never lets a won game go, as either team: the book's
    two-sided sizes, then ``COMPILED_BOOK``'s sizes that cover both teams, without a gap."""
    n = FULL_BOOK_MAX_N
    while set(COMPILED_BOOK.get(n + 1, ())) >= {"michigan", "ohio"}:
        n += 1
    return n


C_SCRATCH_BITS = 20
"""The scratch table of the lost-position count (8 MiB). The count's node figures, hence its
choice, depend on it only if entries are dropped; the book's generator uses this same table."""
C_VERDICT_BUDGET = 150_000
"""Positions the analysis's verdict may search at n >= 12 (on the kept table)."""


class Compiled:
    """The compiled search's state for one board size: the table kept between moves, a scratch
    table for the fresh searches (the lost-position count), and the lock that lets one thread at a
    time search them (the search releases the GIL)."""

    def __init__(self, size: int) -> None:
        assert _core is not None
        self.size = size
        self.table = _core.Table(size, C_TABLE_BITS)
        self.scratch = _core.Table(size, C_SCRATCH_BITS)
        self.lock = threading.Lock()

    def prepare(self, m: int, o: int) -> None:
        """At a move's start: empty the kept table at a game's start, or when it is past
        ``C_REFILL`` and does not know this position."""
        table = self.table
        if table.stored and (_near_start(m, o, self.size)
                             or (table.stored > C_REFILL and table.get(m, o) is None)):
            table.clear()


_COMPILED: dict[int, Compiled] = {}


def compiled(size: int) -> Compiled:
    """The compiled search's state for ``size`` squares (made at its first use: 9 ms)."""
    with _TABLES_LOCK:
        state = _COMPILED.get(size)
        if state is None:
            state = _COMPILED[size] = Compiled(size)
        return state


def _left(clock, start: float, until: float, timed: bool) -> float:
    """Seconds to give a compiled search stopping at ``start + until`` (0: no deadline, untimed;
    a tiny positive amount once the time is up, so that the search stops at once)."""
    if not timed:
        return 0.0
    return max(until - (clock() - start), 1e-6)


def _decide_compiled(m: int, o: int, size: int, clock, start: float, timed: bool) -> Decision:
    """``decide`` from n = 12: the book; else the compiled search with ``C_WIN_BUDGET`` positions
    on the kept table (what it proves stays for the game's later moves), on until ``C_DEADLINE``
    if that did not settle it; in a lost position the count of winning replies on a fresh table
    (``compiled_loss_choice``), else the rule. The move in a lost position is a function of the
    position alone, as the generator (``python -m bots.dfootball.book --compiled``) needs."""
    state = compiled(size)  # made at the first move (a book move where the book covers the board)
    with state.lock:
        state.prepare(m, o)
        hit = BOOK.get(size, m, o)
        if hit is not None:
            return Decision(hit, "book", 0, clock() - start, True)
        table = state.table
        bit = table.first_winning_move(m, o, budget=C_WIN_BUDGET, seconds=_left(clock, start, C_DEADLINE, timed))
        nodes = table.nodes
        path = "win"
        if bit < 0 and timed and clock() - start < C_DEADLINE:
            path = "win-extra"
            bit = table.first_winning_move(m, o, budget=C_EXTRA_BUDGET,
                                           seconds=_left(clock, start, C_DEADLINE, timed))
            nodes += table.nodes
    if bit > 0:
        return Decision(square_of(bit), path, nodes, clock() - start, True)
    winning = False if bit == 0 else None
    square = None
    if not timed or clock() - start < C_LOSS_DEADLINE:
        square, used = compiled_loss_choice(m, o, size, clock, start, timed)
        nodes += used
    if square is not None:
        return Decision(square, "loss-count", nodes, clock() - start, winning)
    return Decision(rule_move(m, o, size), "rule", nodes, clock() - start, winning)


def compiled_loss_choice(m: int, o: int, size: int, clock=time.perf_counter, start: float | None = None,
                         timed: bool = True) -> tuple[int | None, int]:
    """``loss_choice`` in one compiled call: the move leaving the opponent the smallest fraction of
    winning replies (first on ties), by a fresh search of at most ``C_LOSS_BUDGET`` positions,
    stopping at ``C_HARD_DEADLINE`` when ``timed``; ``(None, positions)`` if that is not enough.
    (One call, not one a reply: each call gives the GIL back and takes it again, which a busy
    screen thread can delay by its 5 ms switch interval.)"""
    state = compiled(size)
    start = clock() if start is None else start
    with state.lock:
        scratch = state.scratch
        scratch.clear()
        bit = scratch.fewest_winning_replies(m, o, budget=C_LOSS_BUDGET,
                                             seconds=_left(clock, start, C_HARD_DEADLINE, timed))
        nodes = scratch.nodes
    return (square_of(bit) if bit > 0 else None), nodes


def loss_choice(m: int, o: int, size: int, table: dict[int, bool] | None = None,
                deadline: float | None = None, clock=time.perf_counter) -> tuple[int | None, int]:
    """The move leaving the opponent the smallest fraction of winning replies (first on ties),
    by a fresh search of at most ``LOSS_BUDGET`` nodes; ``(None, nodes)`` if that is not enough.
    The values found are copied into ``table`` (they are exact)."""
    fresh = Solver(size)
    fresh.limit = LOSS_BUDGET
    fresh.set_deadline(deadline, clock)
    best = None
    best_score = 2.0
    try:
        for bit, _nm, _no in moves(m, o, size):
            qm, qo = child(m, o, bit, size)
            replies = moves(qm, qo, size)
            if not replies:
                score = 0.0
            else:
                good = 0
                for b2, _a, _b in replies:
                    if not fresh._wins(*child(qm, qo, b2, size)):
                        good += 1
                score = good / len(replies)
            if score < best_score:
                best, best_score = bit, score
    except Budget:
        return None, fresh.nodes
    if table is not None:
        table.update(fresh.table)
    return square_of(best), fresh.nodes


def rule_move(m: int, o: int, size: int, avoid: frozenset[int] = frozenset()) -> int:
    """The cheap rule: a jump (the frontmost), else a step that cannot be jumped at once (the
    rearmost such), else the rearmost step; moves in ``avoid`` (from-bits) only if nothing else
    is left."""
    options = [mv for mv in moves(m, o, size) if mv[0] not in avoid] or moves(m, o, size)
    for bit, _nm, no in options:
        if no != o:
            return square_of(bit)
    for bit, _nm, _no in options:
        # after the step the piece on ``bit << 1`` can be jumped at once if an opponent piece is
        # right ahead of it (the square it came from is empty: it just left it)
        if not (o & (bit << 2)):
            return square_of(bit)
    return square_of(options[0][0])


def known_losing_moves(m: int, o: int, size: int, table: Mapping[int, bool]) -> frozenset[int]:
    """From-bits of the moves whose result the table already knows is won by the opponent."""
    out = set()
    for bit, _nm, _no in moves(m, o, size):
        cm, co = child(m, o, bit, size)
        if table.get(cm << 32 | co) is True:
            out.add(bit)
    return frozenset(out)


def perfect(game: Mapping[str, Any]) -> int:
    """The course-style perfect strategy: ``game`` has Michigan to move; returns a square."""
    board = list(game["board"])
    m, o = from_board(board, 1)
    return decide(m, o, len(board)).square


class Perfect(Bot):
    """``perfect`` for the arcade's protocol (reports which way it decided)."""

    def __init__(self, game: DFootball) -> None:
        super().__init__(game)
        size = 2 * game.n + 1
        if size >= COMPILED_FROM and _core is not None:
            compiled(size)  # its tables made now, before any move's clock runs

    def choose(self, state: FootballState, ctx: Context) -> int:
        size = len(state.board)
        m, o = from_board(state.board, state.team)
        d = decide(m, o, size)
        verdict = {True: "winning", False: "losing", None: "unknown"}[d.winning]
        ctx.report(f"{d.path}: {verdict}, {d.nodes} nodes, {d.seconds * 1000:.0f} ms")
        return d.square if state.team == 1 else size + 1 - d.square

    def game_over(self, state: FootballState, result) -> None:
        """Between games (no clock running): free what is left of the retired tables."""
        release_retired(None)


def _course_bot(fn):
    """A course-style strategy as a protocol bot (the state normalised, the square mapped back)."""

    def play(game: DFootball, state: FootballState, ctx: Context) -> int:
        course = {"board": list(state.board) if state.team == 1 else [-x for x in reversed(state.board)], "turn": 1}
        square = fn(course)
        return square if state.team == 1 else len(state.board) + 1 - square

    return play


def _random_protocol(game: DFootball, state: FootballState, ctx: Context) -> int:
    """``random_move`` drawing from the bot's own seeded generator instead of the global one."""
    return ctx.rng.choice(game.legal_moves(state))


VERDICT_BUDGET = 4000
"""Nodes the analysis's search may spend on whether the side to move wins (past it: not known)."""


def analyse(game: DFootball, state: FootballState, cancelled: Callable[[], bool] = lambda: False) -> Analysis:
    """The game screen's analysis: whether the side to move wins with perfect play, the move
    ``perfect`` plays (in a lost position the move that leaves the fewest winning replies), and
    who wins from the start for this n (said at the start only: later the panel has no room).
    Node budgets and ``perfect``'s deadlines keep it short: it does not look at ``cancelled``."""
    n = game.n
    first = first_team_wins(n)
    if first is None:
        start = f"n={n}: not solved (too big for the solver)"
    else:
        start = f"n={n}: {'Michigan (first)' if first else 'Ohio (second)'} wins with perfect play"
    if state.over:
        return Analysis(state, lines=(start,))
    size = len(state.board)
    m, o = from_board(state.board, state.team)
    verdict = _verdict(game, state, m, o)
    square = decide(m, o, size).square
    best = square if state.team == 1 else size + 1 - square
    name = game.sides[state.to_move].name
    if verdict is None:
        now = f"{name} to move: too deep to tell at a glance"
    else:
        now = f"[b]{name}[/b] to move [b]{'wins' if verdict else 'loses'}[/b] with perfect play"
    advice = f"★ perfect moves {best}" + ("" if verdict else " (best try)")
    lines = (now, advice, start) if state.ply == 0 else (now, advice)
    return Analysis(state, best=best, verdict=verdict, lines=lines)


def _verdict(game: DFootball, state: FootballState, m: int, o: int) -> bool | None:
    """Whether the mover in ``(m, o)`` wins with perfect play: the known answer at the start, the
    book, else a search of ``VERDICT_BUDGET`` nodes (``None``: too deep for a quick look)."""
    size = len(state.board)
    if state.board == game.initial_state().board and state.to_move == 0:
        return first_team_wins(game.n)
    if BOOK.get(size, m, o) is not None:
        return True
    if size >= COMPILED_FROM and _core is not None:
        return _compiled_verdict(m, o, size)
    try:
        return Solver(size, shared_table(size)).wins(m, o, budget=VERDICT_BUDGET)
    except Budget:
        return None


def _compiled_verdict(m: int, o: int, size: int) -> bool | None:
    """``_verdict`` from n = 12: what the kept table knows; else lost if every move leads to a
    position the book or the table knows the opponent wins (the replies to the book's moves), won
    if one leads to a position known lost; else a search of ``C_VERDICT_BUDGET`` positions (on the
    kept table, or a fresh one once the kept table is past ``C_REFILL``)."""
    state = compiled(size)
    with state.lock:
        table = state.table
        known = table.get(m, o)
        if known is not None:
            return known
        after = [child(m, o, b, size) for b, _nm, _no in moves(m, o, size)]
        values = [True if BOOK.get(size, *c) is not None else table.get(*c) for c in after]
        if after and all(values):
            return False
        if any(v is False for v in values):
            return True
        if table.stored <= C_REFILL:
            return table.wins(m, o, budget=C_VERDICT_BUDGET, seconds=C_DEADLINE)
        # the kept table is kept for the game's proofs: no search fills it further; a fresh one
        # (the lost-position count's scratch table, emptied before each of its uses) settles every
        # won position off the book that the bot can meet (the book leaves it no other)
        scratch = state.scratch
        scratch.clear()
        return scratch.wins(m, o, budget=C_VERDICT_BUDGET, seconds=C_DEADLINE)


BOTS: dict[str, BotEntry] = {
    entry.name: entry
    for entry in (
        BotEntry("perfect", f"exact search + a book: never lets a won game go (n ≤ {perfect_up_to()})",
                 Perfect),
        BotEntry.function("prefer_jumps", "the course's: jumps when it can, else its first valid move",
                          _course_bot(prefer_jumps)),
        BotEntry.function("random_move", "the course's: a random valid move", _random_protocol),
    )
}

