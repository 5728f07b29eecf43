"""Build ``bots/dfootball/book.bin``, the book of the ``perfect`` D-Football bot.

Run ``python -m bots.dfootball.book`` (``--help`` for the options). It rewrites the book and
prints what it found (who wins each n, how many entries, how long it took).

What the book holds, and why it is enough
-----------------------------------------
``perfect`` (``bots.dfootball.decide``) answers from the book when it can, else searches with a
node budget, and in a lost position uses a *fresh* budgeted count of winning replies, else a
fixed rule. Every step is a deterministic function of the position, so this generator can
follow the bot exactly. For each n and each side the bot might play, it walks every position
the bot can meet: all the opponent's replies, and the bot's own move as ``decide`` would choose
it. At a position the bot wins it runs the bot's search from scratch (a fresh table: the bot's
real table can only hold more, so the real search is never slower):

- if the search settles it within ``WIN_BUDGET`` nodes, the bot will find the win by itself, and
  the proof it finds stays in its table, which answers every later move of that line: the walk
  stops there;
- otherwise the book gets the position's first winning move (the same move the search would
  pick), and the walk goes on through every reply to it.

At a lost position the walk follows the move ``decide`` makes and all the replies; where the
count of winning replies was made, every reply that hands the bot a win was solved by it (its
proof is copied into the bot's table), so those need no entry.

So, for every n that was built for a side, ``perfect`` never gives away a won position and never
needs more than its budget, against any opponent. The default builds both sides for every n up
to 11 (``--both-sides-up-to``, ``--sides`` and ``--from`` build parts; entries are added to the
book already there unless ``--fresh``).

The shipped book, both sides for n = 1..11, 111,203 entries (times on the shared 2-core
machine; the compiled part's figures are in the README): n <= 9 in under 2 minutes; n = 10 in 14 minutes (Michigan's side 4, Ohio's 10: 12,217
entries); n = 11 in 40 minutes (Michigan's side 25 minutes, 44,351 entries; Ohio's side, the
side that loses from the start, 15 minutes at a lighter load, 127,865 positions walked, 81,915
entries; 97,879 distinct). ``bench/dfootball.py --verify N`` walks every line again with the
real bot and checks each won position's move with the exact solver.

n = 12 to 15: the compiled search's book (``--compiled N``)
-------------------------------------------------------------
From n = 12 the bot searches with the compiled solver (``bots.dfootball._decide_compiled``):
``C_WIN_BUDGET`` positions on a table kept for the game. ``build_compiled`` walks as ``build``
does, with the compiled solver for the exact values and for the bot's search, and stops at a won
position that a fresh search settles within ``SETTLE_BUDGET`` positions (5,000, at most the bot's
150,000: a search that settles a position within a budget settles it within a larger one, the
same depth-first way). Two facts make "the fresh search settles it" enough for the real bot:

1. a search with exact values already in its table visits no more positions than the same search
   from an empty table (it tries the same moves at every position it expands, and expands only
   positions the fresh search expands; ``tests/bots/test_dfootball_large.py`` checks it over
   random tables), so the bot's real search settles every position where the walk stops, within
   the walk's budget: a few tenths of a millisecond, far inside its 40 ms deadline;
2. that search leaves every position of its proof in the kept table (entries are never replaced,
   and one that finds its probes full is dropped and counted, which the tests hold at 0), and the
   table is emptied only at a move whose position it does not know, so each later won position
   of the line is answered from the table, with no search.

In a lost position the bot's move is the count of winning replies on a fresh table, else the
rule: a function of the position alone, which the walk follows. The walk is split into parts
for ``--workers`` processes; the parts overlap (the tree is full of transpositions, and a part
does not see the others' positions: two processes walked 149,435 positions for n = 12's 78,076),
so two builds side by side use two cores better than one build with two workers.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
from array import array
from collections import Counter
from pathlib import Path
from typing import Any

import bots.dfootball as bot
from bots.dfootball import BOOK_PATH, Book
from bots.dfootball.solver import Budget, Solver, child, moves, square_of, start_position

__all__ = ["build", "build_compiled", "verify", "main", "first_winning_square", "SETTLE_BUDGET"]

SETTLE_BUDGET = 5_000
"""From n = 12 (``build_compiled``): the positions within which the walk's fresh search must
settle a won position for the walk to leave it to the bot; any other won position the bot can meet
gets a book entry. Any budget up to the bot's own (``C_WIN_BUDGET``, 150,000) is sound (a search
that settles a position within this many settles it within more, the same way); a smaller one
walks much faster and makes a bigger book, and leaves the bot's search less to do in play. Measured
for n = 12, Michigan's side, one process (the walked positions, the entries, CPU): 150,000: 78,076,
50,812, 481 s; 50,000: 173,458, 120,641, 280 s; 20,000: 261,970, 197,055, 152 s; 5,000: 420,303,
342,494, 46 s. At 5,000 the bot settles every won position it meets off the book within about 0.3
ms of search (its deadline is 40 ms), and n = 13's both sides walk in minutes where 150,000 needed
an estimated 40 hours."""


def first_winning_square(solver: Solver, m: int, o: int) -> int | None:
    bit = solver.first_winning_move(m, o)
    return None if bit is None else square_of(bit)


def build(n: int, sides: tuple[int, ...] = (0, 1), win_budget: int | None = None,
          loss_budget: int | None = None, progress=None) -> tuple[dict[int, int], dict]:
    """The book entries ``{m << 32 | o: square}`` for board ``n`` and the bot playing ``sides``
    (0 Michigan, 1 Ohio), with statistics. Budgets default to the bot's own."""
    win_budget = bot.WIN_BUDGET if win_budget is None else win_budget
    loss_budget = bot.LOSS_BUDGET if loss_budget is None else loss_budget
    size = 2 * n + 1
    exact = Solver(size)
    book: dict[int, int] = {}
    seen: set[int] = set()
    stats = {"bot_positions": 0, "won": 0, "lost": 0, "book": 0, "loss_count": 0, "rule": 0}
    start = start_position(n)
    stats["first_team_wins"] = exact.wins(*start)

    def bot_move_in_loss(m: int, o: int) -> tuple[int, bool]:
        saved = bot.LOSS_BUDGET
        bot.LOSS_BUDGET = loss_budget
        try:
            square, _nodes = bot.loss_choice(m, o, size)
        finally:
            bot.LOSS_BUDGET = saved
        if square is not None:
            return square, True
        return bot.rule_move(m, o, size), False

    # an explicit stack: (m, o) positions with the bot to move
    stack: list[tuple[int, int]] = []
    if 0 in sides:
        stack.append(start)
    if 1 in sides:
        for b, _nm, _no in moves(*start, size):
            stack.append(child(*start, b, size))
    began = time.perf_counter()
    while stack:
        m, o = stack.pop()
        key = m << 32 | o
        if key in seen:
            continue
        seen.add(key)
        stats["bot_positions"] += 1
        if progress and stats["bot_positions"] % 2000 == 0:
            progress(f"n={n}: {stats['bot_positions']} positions, {len(book)} in the book, "
                     f"{time.perf_counter() - began:.0f} s")
        square = first_winning_square(exact, m, o)
        if square is not None:
            stats["won"] += 1
            fresh = Solver(size)
            try:
                fresh.first_winning_move(m, o, budget=win_budget)
                continue  # the bot's own search settles it, and its proof covers the rest
            except Budget:
                pass
            book[key] = square
            skip_won_replies = False
        else:
            stats["lost"] += 1
            if not moves(m, o, size):
                continue
            square, counted = bot_move_in_loss(m, o)
            stats["loss_count" if counted else "rule"] += 1
            skip_won_replies = counted
        qm, qo = child(m, o, 1 << (square - 1), size)
        for b, _nm, _no in moves(qm, qo, size):
            gm, go = child(qm, qo, b, size)
            if skip_won_replies and exact.wins(gm, go):
                continue
            stack.append((gm, go))
    stats["book"] = len(book)
    stats["seconds"] = round(time.perf_counter() - began, 1)
    stats["exact_table"] = len(exact.table)
    return book, stats


# -- n >= 12: the compiled search's book ------------------------------------------------------------

def exact_bits(n: int) -> int:
    """The generator's exact table for board ``n``: about four times the positions the opening's
    solve stores (``proved.json``), so that no entry is dropped."""
    return min(31, max(20, 2 * n + 1))


class _Walker:
    """One process's part of the walk for board ``n`` (``build_compiled``): an exact table, a
    scratch table for the bot's fresh search, the positions already walked."""

    def __init__(self, n: int, win_budget: int) -> None:
        from bots.dfootball._solve import Table

        self.n, self.size, self.win_budget = n, 2 * n + 1, win_budget
        self.exact = Table(self.size, exact_bits(n))
        self.scratch = Table(self.size, bot.C_SCRATCH_BITS + 2)
        self.seen: set[int] = set()
        self.stats = {"bot_positions": 0, "won": 0, "lost": 0, "settled": 0, "loss_count": 0, "rule": 0}

    def step(self, m: int, o: int) -> tuple[int | None, list[tuple[int, int]]]:
        """The book entry this bot position needs (or ``None``) and the bot positions after it."""
        size, stats = self.size, self.stats
        stats["bot_positions"] += 1
        bit = self.exact.first_winning_move(m, o)
        entry = None
        if bit > 0:
            stats["won"] += 1
            self.scratch.clear()
            if self.scratch.first_winning_move(m, o, budget=self.win_budget) > 0:
                stats["settled"] += 1
                return None, []  # the bot's own search settles it; its proof answers the rest
            entry = square_of(bit)
            play = bit
        else:
            stats["lost"] += 1
            if not moves(m, o, size):
                return None, []
            square, _nodes = bot.compiled_loss_choice(m, o, size, timed=False)
            stats["loss_count" if square is not None else "rule"] += 1
            if square is None:
                square = bot.rule_move(m, o, size)
            play = 1 << (square - 1)
        qm, qo = child(m, o, play, size)
        return entry, [child(qm, qo, b, size) for b, _nm, _no in moves(qm, qo, size)]

    def walk(self, roots: list[tuple[int, int]], progress=None, book: dict[int, int] | None = None,
             checkpoint=None, every: float = 600.0) -> dict[int, int]:
        """Every bot position reachable from ``roots`` (a stack: its last position is walked
        first): the book entries they need, added to ``book``. ``checkpoint(stack, book)`` is
        called every ``every`` seconds, between two positions."""
        book = {} if book is None else book
        stack = list(roots)
        began = time.perf_counter()
        saved = began
        while stack:
            if checkpoint is not None and time.perf_counter() - saved > every:
                checkpoint(stack, book)
                saved = time.perf_counter()
            m, o = stack.pop()
            key = m << 32 | o
            if key in self.seen:
                continue
            self.seen.add(key)
            entry, after = self.step(m, o)
            if entry is not None:
                book[key] = entry
            stack.extend(after)
            if progress and self.stats["bot_positions"] % 5000 == 0:
                progress(f"n={self.n} pid {os.getpid()}: {self.stats['bot_positions']} positions, "
                         f"{len(book)} new entries this part, {time.perf_counter() - began:.0f} s")
        return book


_WALKER: _Walker | None = None


def _walk_part(args: tuple[int, int, list[tuple[int, int]]]) -> tuple[dict[int, int], dict]:
    n, win_budget, roots = args
    global _WALKER
    if _WALKER is None or (_WALKER.n, _WALKER.win_budget) != (n, win_budget):
        _WALKER = _Walker(n, win_budget)
    before = dict(_WALKER.stats)
    book = _WALKER.walk(roots, progress=lambda text: print(text, file=sys.stderr, flush=True))
    return book, {k: v - before[k] for k, v in _WALKER.stats.items()}


def build_compiled(n: int, sides: tuple[int, ...] = (0, 1), workers: int = 1, win_budget: int | None = None,
                   split: int = 256, progress=None, resume: Path | None = None,
                   every: float = 600.0) -> tuple[dict[int, int], dict]:
    """The book entries for board ``n`` >= 12, where ``perfect`` searches with the compiled solver
    (``bots.dfootball._decide_compiled``), and statistics. The walk is the one of ``build``: at a
    won position the bot's fresh search of ``C_WIN_BUDGET`` positions either settles it (the walk
    stops: its proof stays in the bot's kept table, which answers the line's later moves) or the
    book gets the first winning move and the walk goes on through every reply; at a lost position
    it follows the bot's move (the count of winning replies on a fresh table, else the rule) and
    every reply. The tree is split into ``split`` parts or more, walked by ``workers`` processes.

    ``resume``: a file where the walk (one process) saves where it is every ``every`` seconds and
    after each part, and from which a build stopped on the way goes on (the same n, sides and
    budget; the walk is deterministic, so the book comes out the same)."""
    import multiprocessing

    global _WALKER
    _WALKER = None  # each build walks afresh (the parts of one build share their process's walker)
    win_budget = SETTLE_BUDGET if win_budget is None else win_budget
    if not 0 < win_budget <= bot.C_WIN_BUDGET:
        raise ValueError(f"the walk's budget must be 1..{bot.C_WIN_BUDGET} (the bot's own), not {win_budget}")
    size = 2 * n + 1
    began = time.perf_counter()
    top = _Walker(n, win_budget)
    start = start_position(n)
    frontier: list[tuple[int, int]] = []
    if 0 in sides:
        frontier.append(start)
    if 1 in sides:
        frontier.extend(child(*start, b, size) for b, _nm, _no in moves(*start, size))
    book: dict[int, int] = {}
    # the first levels in this process, breadth first, until the tree has enough parts
    while frontier and len(frontier) < split:
        nxt: list[tuple[int, int]] = []
        for m, o in frontier:
            key = m << 32 | o
            if key in top.seen:
                continue
            top.seen.add(key)
            entry, after = top.step(m, o)
            if entry is not None:
                book[key] = entry
            nxt.extend(after)
        frontier = nxt
    stats = dict(top.stats)
    stats["first_team_wins"] = top.exact.first_winning_move(*start) > 0
    del top
    parts = [(n, win_budget, frontier[i::split]) for i in range(min(split, len(frontier)))]
    if resume is not None:
        if workers > 1:
            raise ValueError("a resumable build walks in one process (workers=1)")
        _walk_resumably(n, sides, win_budget, parts, book, stats, resume, progress, began, every)
        results: Any = ()
    elif workers <= 1:
        results = map(_walk_part, parts)
    else:
        pool = multiprocessing.get_context("fork").Pool(workers)
        results = pool.imap_unordered(_walk_part, parts)
    try:
        for part_book, part_stats in results:
            book.update(part_book)
            for k, v in part_stats.items():
                stats[k] += v
            if progress:
                progress(f"n={n}: a part done, {len(book)} entries, {time.perf_counter() - began:.0f} s")
    finally:
        if workers > 1:
            pool.close()
            pool.join()
    stats["book"] = len(book)
    stats["seconds"] = round(time.perf_counter() - began, 1)
    return book, stats


def _walk_resumably(n: int, sides: tuple[int, ...], win_budget: int, parts: list, book: dict[int, int],
                    stats: dict, resume: Path, progress, began: float, every: float = 600.0) -> None:
    """``build_compiled``'s walk in this process, saved to ``resume`` as it goes (a pickle of the
    parts done, the entries found, the positions walked and the part in progress's stack)."""
    global _WALKER
    walker = _WALKER = _Walker(n, win_budget)
    ident = {"n": n, "sides": list(sides), "win_budget": win_budget, "parts": len(parts)}
    done = 0
    stack: list[tuple[int, int]] | None = None
    if resume.exists():
        with resume.open("rb") as f:
            saved = pickle.load(f)
        if saved["ident"] != ident:
            raise SystemExit(f"{resume} is another build's ({saved['ident']}), not this one's ({ident})")
        done, stack = saved["done"], saved["stack"]
        book.update(saved["book"])
        walker.seen = set(saved["seen"])
        walker.stats = saved["walker_stats"]
        if progress:
            progress(f"n={n}: resumed at part {done} of {len(parts)}, {len(book)} entries, "
                     f"{len(walker.seen)} positions walked")

    def save(stack_now: list[tuple[int, int]] | None, index: int) -> None:
        tmp = resume.with_name(resume.name + ".tmp")
        with tmp.open("wb") as f:
            pickle.dump({"ident": ident, "done": index, "stack": stack_now, "book": book,
                         "seen": array("Q", walker.seen), "walker_stats": walker.stats}, f,
                        protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, resume)

    top_stats = dict(stats)
    for index in range(done, len(parts)):
        roots = stack if (index == done and stack is not None) else parts[index][2]
        walker.walk(roots, progress=progress, book=book, every=every,
                    checkpoint=lambda stack_now, _book, index=index: save(stack_now, index))
        save(None, index + 1)
        if progress:
            progress(f"n={n}: part {index + 1} of {len(parts)} done, {len(book)} entries, "
                     f"{time.perf_counter() - began:.0f} s")
    for k, v in walker.stats.items():
        stats[k] = top_stats[k] + v


def verify(n: int, side: str, progress=None) -> dict[str, Any]:
    """What ``bench/dfootball.py --verify N`` checks: every line ``perfect`` can meet as ``side``
    ("michigan", "ohio" or "both"), walked with the real ``decide`` on node budgets alone (no
    deadlines), each won position's move checked with the exact solver. Returns the positions
    walked, the won ones, the won ones given away (0 is the book's promise) and how the moves were
    decided.

    Up to n = 11 the walk plays every line out, on one table shared by all (the frozen clock
    gives every search its full budget). From n = 12, where ``perfect`` searches with the compiled
    solver and a table kept for the game, the bot's kept table is emptied at each won position
    first, the worst case (a search finds its answer within no more positions with more exact
    values at hand), and a won position the bot settles by its own search ends the line: the
    search leaves every position of its proof in the kept table, so each later position of that
    line is known to the bot and answered from the table (the table is emptied only at a move
    whose position it does not know; ``tests/bots/test_dfootball_large.py`` plays such lines out
    on small boards). At a lost position the walk follows the bot's move and every reply."""
    size = 2 * n + 1
    compiled = size >= bot.COMPILED_FROM and bot._core is not None
    if compiled:
        from bots.dfootball._solve import Table

        exact: Any = Table(size, exact_bits(n))
        kept = bot.compiled(size).table
    else:
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
        exact = Solver(size)
        table: dict[int, bool] = {}
    start = start_position(n)
    stack = []
    if side in ("michigan", "both"):
        stack.append(start)
    if side in ("ohio", "both"):
        stack.extend(child(*start, b, size) for b, _, _ in moves(*start, size))
    seen = set()
    won = given_away = 0
    paths: Counter = Counter()
    began = time.perf_counter()
    while stack:
        m, o = stack.pop()
        if (m, o) in seen or not moves(m, o, size):
            continue
        seen.add((m, o))
        winning = exact.wins(m, o)
        if compiled:
            if winning:
                kept.clear()
            d = bot.decide(m, o, size, timed=False)
        else:
            d = bot.decide(m, o, size, table=table, clock=lambda: 0.0)
        paths[d.path] += 1
        bit = 1 << (d.square - 1)
        if winning:
            won += 1
            if exact.wins(*child(m, o, bit, size)):
                given_away += 1
            if compiled and d.path == "win":
                continue
        qm, qo = child(m, o, bit, size)
        stack.extend(child(qm, qo, b, size) for b, _, _ in moves(qm, qo, size))
        if progress and len(seen) % 20_000 == 0:
            progress(f"  {len(seen)} positions, {time.perf_counter() - began:.0f} s")
    return {"positions": len(seen), "won": won, "given_away": given_away, "paths": dict(paths)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--both-sides-up-to", type=int, default=11,
                        help="build both sides for n up to this (default 11)")
    parser.add_argument("--winner-up-to", type=int, default=11,
                        help="build the winning side for n up to this (default 11)")
    parser.add_argument("--from", dest="start", type=int, default=1,
                        help="build only n from this one up")
    parser.add_argument("--sides", choices=("auto", "winner", "loser", "both"), default="auto",
                        help="which side(s) to build for each n (auto: both up to --both-sides-up-to, "
                             "else the winner)")
    parser.add_argument("--fresh", action="store_true",
                        help="start from an empty book (default: add to the entries already there); "
                             "with --compiled, replace those n's entries only")
    parser.add_argument("--out", type=Path, default=None, help="where to write (default: the bot's book)")
    parser.add_argument("--compiled", type=int, nargs="+", default=None, metavar="N",
                        help="instead: build these n (12..15) for the compiled search, both sides unless --sides")
    parser.add_argument("--resume", type=Path, default=None, metavar="FILE",
                        help="for --compiled: save the walk here every 10 minutes and go on from it "
                             "if it is there (one n at a time, one process)")
    parser.add_argument("--settle-budget", type=int, default=SETTLE_BUDGET, metavar="POSITIONS",
                        help=f"for --compiled: the fresh search's budget within which a won position is "
                             f"left to the bot (default {SETTLE_BUDGET:,}; at most the bot's {bot.C_WIN_BUDGET:,})")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes for --compiled (default 1: the parts overlap, see above)")
    args = parser.parse_args(argv)
    if args.compiled:
        return _main_compiled(args)
    sys.setrecursionlimit(20_000)
    out = args.out or BOOK_PATH
    entries: dict[int, dict[int, int]] = {}
    if not args.fresh:
        old = Book.load(out)
        entries = {size: dict(old.items(size)) for size in old.sizes()}
    for n in range(args.start, args.winner_up_to + 1):
        size = 2 * n + 1
        first_wins = Solver(size).wins(*start_position(n))
        winner = 0 if first_wins else 1
        if args.sides == "both" or (args.sides == "auto" and n <= args.both_sides_up_to):
            sides: tuple[int, ...] = (0, 1)
        elif args.sides == "loser":
            sides = (1 - winner,)
        else:
            sides = (winner,)
        book, stats = build(n, sides, progress=lambda text: print(text, file=sys.stderr, flush=True))
        if book:
            entries.setdefault(size, {}).update(book)
        print(f"n={n} sides={sides} first team {'wins' if stats['first_team_wins'] else 'loses'}: {stats}",
              flush=True)
    Book.dump(entries, out)
    return 0


def _main_compiled(args) -> int:
    out = args.out or BOOK_PATH
    if args.resume is not None and (len(args.compiled) > 1 or args.workers > 1):
        raise SystemExit("--resume builds one n in one process (--workers 1)")
    for n in args.compiled:
        if not bot.COMPILED_FROM <= 2 * n + 1 <= 31:
            raise SystemExit(f"--compiled takes n from {bot.FULL_BOOK_MAX_N + 1} to 15, not {n}")
        size = 2 * n + 1
        winner = 0 if bot.FIRST_TEAM_WINS[n] else 1
        sides = {"both": (0, 1), "auto": (0, 1), "winner": (winner,), "loser": (1 - winner,)}[args.sides]
        book, stats = build_compiled(n, sides, workers=args.workers, resume=args.resume,
                                     win_budget=args.settle_budget,
                                     progress=lambda text: print(text, file=sys.stderr, flush=True))
        old = Book.load(out)
        entries = {s: dict(old.items(s)) for s in old.sizes()}
        if args.fresh:
            entries.pop(size, None)
        entries.setdefault(size, {}).update(book)
        Book.dump(entries, out)
        print(f"n={n} sides={sides}: {stats}; the book's n={n} part now {len(entries[size])} entries", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
