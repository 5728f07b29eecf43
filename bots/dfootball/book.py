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

The shipped book, both sides for n = 1..11, 111,203 entries, 1.0 MB (times on the shared 2-core
machine): n <= 9 in under 2 minutes; n = 10 in 14 minutes (Michigan's side 4, Ohio's 10: 12,217
entries); n = 11 in 40 minutes (Michigan's side 25 minutes, 44,351 entries; Ohio's side, the
side that loses from the start, 15 minutes at a lighter load, 127,865 positions walked, 81,915
entries; 97,879 distinct). ``bench/dfootball.py --verify N`` walks every line again with the
real bot and checks each won position's move with the exact solver.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import bots.dfootball as bot
from bots.dfootball import BOOK_PATH, Book
from bots.dfootball.solver import Budget, Solver, child, moves, square_of, start_position

__all__ = ["build", "main", "first_winning_square"]


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
                        help="start from an empty book (default: add to the entries already there)")
    parser.add_argument("--out", type=Path, default=None, help="where to write (default: the bot's book)")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(20_000)
    out = args.out or BOOK_PATH
    entries: dict[int, dict[int, int]] = {}
    if not args.fresh:
        old = Book.load(out)
        entries = {size: dict(zip(keys, old.squares[size])) for size, keys in old.keys.items()}
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


if __name__ == "__main__":
    raise SystemExit(main())
