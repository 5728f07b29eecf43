"""``perfect`` from n = 12: the compiled solver's kept table (``bots.dfootball._solve.Table``), the
bot's path through it (``bots.dfootball._decide_compiled``) and the book built for it
(``python -m bots.dfootball.book --compiled``).

The book's guarantee rests on one lemma and one mechanism, both tested here:

- the lemma: a search given a table of exact values (any of them) visits no more positions than
  the same search from an empty table, so "the fresh search settles it within the budget" (what
  the generator checks) holds for the bot's real search, whatever its kept table holds;
- the mechanism: a settled position's proof stays in the kept table, so each later position of
  the line is answered from it, and the table is emptied only at a move whose position it does not
  know. A small board with a small budget and a small refill threshold plays whole games against
  random opponents: every won position is kept won, and after the bot's own search settles a
  game, it never searches again in that game's won positions.
"""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import bots.dfootball as dfb
from bots.dfootball.solver import Budget, Solver, child, moves, square_of, start_position
from tests.bots.test_dfootball_solve import compiled_or_skip, random_position



@pytest.fixture(scope="module")
def Table():
    return compiled_or_skip("Table")


positions = dict(n=st.integers(2, 8), plies=st.integers(0, 50), seed=st.integers(0, 2**32))


@settings(max_examples=60, deadline=None)
@given(**positions, budget=st.integers(1, 3000))
def test_the_kept_table_searches_as_the_reference_does_budget_included(Table, n, plies, seed, budget):
    size = 2 * n + 1
    m, o = random_position(n, plies, seed)
    reference = Solver(size)
    table = Table(size, 20)
    assert table.wins(m, o) == reference.wins(m, o)
    assert table.nodes == reference.nodes and table.stored == len(reference.table) and table.dropped == 0
    assert table.wins(m, o) == reference.wins(m, o) and table.nodes == 0  # all known now
    assert table.first_winning_move(m, o) == (Solver(size).first_winning_move(m, o) or 0)
    # a budget: the same positions counted, so it runs out exactly where the reference's does
    fresh, limited = Table(size, 20), Solver(size)
    try:
        expected = limited.first_winning_move(m, o, budget=budget) or 0
    except Budget:
        expected = -1
    assert fresh.first_winning_move(m, o, budget=budget) == expected
    try:
        expected_wins: bool | None = Solver(size).wins(m, o, budget=budget)
    except Budget:
        expected_wins = None
    fresh.clear()
    assert fresh.wins(m, o, budget=budget) is expected_wins


@settings(max_examples=120, deadline=None)
@given(**positions, others=st.lists(st.tuples(st.integers(0, 50), st.integers(0, 2**32)), max_size=6),
       budgets=st.lists(st.integers(1, 2000), min_size=6, max_size=6))
def test_a_search_with_exact_values_at_hand_never_visits_more_than_a_fresh_one(Table, n, plies, seed, others,
                                                                               budgets):
    """The lemma the book stands on, over random tables: whatever exact values a table holds
    (whole or budget-cut searches of other positions), a search visits at most the positions of
    the same search from an empty table, and answers the same."""
    size = 2 * n + 1
    m, o = random_position(n, plies, seed)
    fresh = Table(size, 20)
    answer = fresh.first_winning_move(m, o)
    alone = fresh.nodes
    kept = Table(size, 20)
    for (p, s), budget in zip(others, budgets):
        kept.wins(*random_position(n, p, s), budget=budget)  # stopped or not: only exact values stay
    assert kept.first_winning_move(m, o) == answer
    assert kept.nodes <= alone
    # and with a budget: one that lets the fresh search finish lets the kept one finish too
    kept2 = Table(size, 20)
    for (p, s), budget in zip(others, budgets):
        kept2.wins(*random_position(n, p, s), budget=budget)
    assert kept2.first_winning_move(m, o, budget=max(alone, 1)) == answer


@settings(max_examples=40, deadline=None)
@given(**positions)
def test_the_count_of_winning_replies_is_the_references(Table, n, plies, seed):
    size = 2 * n + 1
    m, o = random_position(n, plies, seed)
    if not moves(m, o, size):
        assert Table(size, 16).fewest_winning_replies(m, o) == 0
        return
    saved = dfb.LOSS_BUDGET
    dfb.LOSS_BUDGET = 10**9
    try:
        expected, _nodes = dfb.loss_choice(m, o, size)
    finally:
        dfb.LOSS_BUDGET = saved
    table = Table(size, 20)
    assert square_of(table.fewest_winning_replies(m, o)) == expected
    if table.nodes > 1:
        table.clear()
        assert table.fewest_winning_replies(m, o, budget=table.nodes // 2 or 1) == -1


def test_clearing_forgets_everything_both_ways_and_a_full_table_drops_rather_than_replaces(Table):
    small = Table(13, 10)  # 1,024 slots: the log of filled slots holds 256
    m, o = start_position(6)
    assert small.wins(m, o) is Solver(13).wins(m, o)
    assert small.stored > 256 and small.get(m, o) is not None
    small.clear()  # too many logged: the whole table is zeroed
    assert small.stored == 0 and small.get(m, o) is None and small.dropped == 0
    assert small.wins(m, o) is Solver(13).wins(m, o) and small.nodes > 0  # searched again
    few = Table(13, 16)
    few.wins(*random_position(6, 30, 1))
    assert 0 < few.stored <= few.slots // 4
    few.clear()  # from the log
    assert few.stored == 0 and few.get(*random_position(6, 30, 1)) is None
    # a board far bigger than the table: entries are dropped and counted, the answer stays exact
    # (a full table forgets what it cannot store: n = 7 takes 8.3 M positions here, 15,787 with
    # room, which is why the bot empties its kept table long before it fills)
    tiny = Table(15, 10)
    m, o = start_position(7)
    assert tiny.wins(m, o) is True and tiny.dropped > 0 and tiny.stored == tiny.slots


def test_bad_arguments_are_refused(Table):
    for args in ((2,), (32,), (13, 9), (13, 33)):
        with pytest.raises(ValueError):
            Table(*args)
    table = Table(13, 12)
    for m, o in ((3, 1), (1 << 13, 1)):
        for call in (table.wins, table.first_winning_move, table.fewest_winning_replies, table.get):
            with pytest.raises(ValueError):
                call(m, o)
    with pytest.raises(ValueError):
        table.wins(1, 2, seconds=-1.0)


def test_a_deadline_stops_a_search_that_cannot_finish(Table):
    table = Table(31, 16)
    assert table.wins(*start_position(15), seconds=0.005) is None
    assert 0 < table.nodes < 691_723_604
    assert table.first_winning_move(*start_position(15), budget=1000) == -1 and table.nodes == 1001


# -- the bot on a small board, as it plays n >= 12 ----------------------------------------------------

SMALL_N = 7
SMALL_BUDGET = 300


@pytest.fixture(scope="module")
def small_book(Table):
    """A book built by the compiled generator for n = 7 with a budget of 300 positions (the search
    alone settles n = 7's opening in about 15,800)."""
    from bots.dfootball.book import build_compiled

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dfb, "C_LOSS_BUDGET", 2000)
        book, stats = build_compiled(SMALL_N, (0, 1), workers=1, win_budget=SMALL_BUDGET, split=4)
    assert stats["first_team_wins"] is True and 0 < len(book) < stats["won"]
    assert stats["settled"] > 0 and stats["lost"] > 0
    return book


@pytest.fixture
def small_bot(small_book, monkeypatch, request):
    size = 2 * SMALL_N + 1
    book = dfb.Book.of({size: small_book})
    monkeypatch.setattr(dfb, "BOOK", book)
    monkeypatch.setattr(dfb, "COMPILED_FROM", size)
    monkeypatch.setattr(dfb, "C_WIN_BUDGET", SMALL_BUDGET)
    monkeypatch.setattr(dfb, "C_LOSS_BUDGET", 2000)
    monkeypatch.setattr(dfb, "C_REFILL", getattr(request, "param", dfb.C_REFILL))
    monkeypatch.setattr(dfb, "_COMPILED", {})
    return size


@pytest.mark.parametrize("small_bot", [300_000, 150], indirect=True, ids=["kept", "refilled-often"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), bot_side=st.sampled_from([0, 1]), blunders=st.floats(0.0, 1.0))
def test_perfect_never_gives_a_won_game_away_and_a_settled_game_is_answered_from_its_table(
        small_bot, seed, bot_side, blunders):
    """Whole games on n = 7 with the n >= 12 machinery, against an opponent that plays the bot's
    own move or, with probability ``blunders``, a random one; the refill threshold at 150 entries
    empties the kept table all the time (only ever at a position it does not know)."""
    size = small_bot
    rng = random.Random(seed)
    exact = Solver(size)
    m, o = start_position(SMALL_N)
    mover = 0
    settled = False
    while moves(m, o, size):
        if mover == bot_side:
            won = exact.wins(m, o)
            d = dfb.decide(m, o, size, timed=False)
            if won:
                assert not exact.wins(*child(m, o, 1 << (d.square - 1), size)), "a won position given away"
                if settled and d.path != "book":
                    assert d.path == "win" and d.nodes == 0, "a settled game searched again"
                settled = settled or d.path == "win"
            else:
                settled = False
            square = d.square
        else:
            found = moves(m, o, size)
            if rng.random() < blunders:
                square = square_of(rng.choice(found)[0])
            else:
                square = dfb.decide(m, o, size, timed=False).square
        m, o = child(m, o, 1 << (square - 1), size)
        mover = 1 - mover
    assert dfb._COMPILED[size].table.dropped == 0


def test_a_book_walked_with_a_smaller_budget_than_the_bots_gives_nothing_away(Table, monkeypatch):
    """The generator's walk may leave a won position to the bot when a search of ``settle``
    positions, at most the bot's budget, settles it: every line the bot can meet, either side, is
    then won by the bot (``verify``, the check of ``bench/dfootball.py --verify``); the
    smaller the budget, the more entries."""
    from bots.dfootball.book import build_compiled, verify

    size = 2 * SMALL_N + 1
    monkeypatch.setattr(dfb, "C_LOSS_BUDGET", 2000)
    monkeypatch.setattr(dfb, "COMPILED_FROM", size)
    monkeypatch.setattr(dfb, "C_WIN_BUDGET", SMALL_BUDGET)
    entries = {}
    for settle in (1, 60, SMALL_BUDGET):
        book, stats = build_compiled(SMALL_N, (0, 1), workers=1, win_budget=settle, split=4)
        assert stats["settled"] > 0 or settle == 1
        monkeypatch.setattr(dfb, "BOOK", dfb.Book.of({size: book}))
        monkeypatch.setattr(dfb, "_COMPILED", {})
        found = verify(SMALL_N, "both")
        assert found["won"] > 100 and found["given_away"] == 0, settle
        assert found["paths"].get("win", 0) > 0 or settle == 1
        entries[settle] = len(book)
    assert entries[1] > entries[60] > entries[SMALL_BUDGET]
    with pytest.raises(ValueError, match="budget"):
        build_compiled(SMALL_N, (0,), win_budget=SMALL_BUDGET + 1)


@pytest.mark.parametrize("small_bot", [150], indirect=True, ids=["refill-150"])
def test_the_analysis_searches_a_fresh_table_once_the_kept_one_is_past_refill(small_bot):
    """``_compiled_verdict`` where the kept table is past ``C_REFILL`` (filled by another
    position's search) and knows nothing of the position: it no longer says "too deep" but
    searches a fresh table, so the analysis says "wins"/"loses" for the won positions off the book
    the bot can meet (a fresh search settles each); the kept table, kept for the game's proofs, is
    not touched. Every answer is the exact solver's."""
    size = small_bot
    exact = Solver(size)
    kept = dfb.compiled(size).table
    answered = {True: 0, False: 0}
    for seed in range(120):
        m, o = random_position(SMALL_N, random.Random(seed).randrange(1, 25), seed)
        if not moves(m, o, size):
            continue
        kept.clear()
        kept.wins(*random_position(SMALL_N, 3, seed + 1000))  # another line fills it past 150
        if kept.get(m, o) is not None or kept.stored <= dfb.C_REFILL:
            continue
        before = (kept.stored, kept.nodes)
        verdict = dfb._compiled_verdict(m, o, size)
        assert (kept.stored, kept.nodes) == before
        assert verdict == exact.wins(m, o), (seed, m, o)
        answered[verdict] += 1
    assert answered[True] > 20 and answered[False] > 10, answered


def test_the_lost_positions_move_is_a_function_of_the_position_alone(small_bot):
    """The generator follows the bot's move in a lost position: whatever the kept table holds."""
    size = small_bot
    rng = random.Random(5)
    exact = Solver(size)
    checked = 0
    for seed in range(200):
        m, o = random_position(SMALL_N, rng.randrange(2, 30), seed)
        if not moves(m, o, size) or exact.wins(m, o):
            continue
        first = dfb.decide(m, o, size, timed=False).square
        dfb.compiled(size).table.clear()
        assert dfb.decide(m, o, size, timed=False).square == first
        dfb.compiled(size).table.wins(*random_position(SMALL_N, 5, seed))
        assert dfb.decide(m, o, size, timed=False).square == first
        checked += 1
    assert checked > 20


# -- the real boards ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [12, 15])
def test_perfect_answers_every_large_board_within_its_deadlines(Table, n):
    """From the opening and a few random positions: a legal move, however deep the board (the
    deadlines are wall-clock; their timing is measured by ``bench/dfootball.py``, not here)."""
    size = 2 * n + 1
    for seed in range(4):
        m, o = random_position(n, 3 * seed, seed)
        if not moves(m, o, size):
            continue
        d = dfb.decide(m, o, size)
        assert 1 << (d.square - 1) in {b for b, _nm, _no in moves(m, o, size)}
        assert d.path in {"book", "win", "win-extra", "loss-count", "rule"}


def test_two_threads_share_a_boards_kept_table_one_search_at_a_time(Table):
    size = 2 * 12 + 1
    results: list[int] = []
    errors: list[BaseException] = []

    def play(seed: int) -> None:
        try:
            for k in range(6):
                m, o = random_position(12, 20 + k, seed + k)
                if moves(m, o, size):
                    results.append(dfb.decide(m, o, size).square)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(s,)) for s in (1, 100)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) >= 10


def test_the_shipped_books_large_boards_hold_winning_moves(Table):
    """A sample of the book's entries for each board it covers from n = 12 (built by ``python -m
    bots.dfootball.book --compiled``, which takes each from the exact solver): every one is a
    legal move that leaves the opponent lost."""
    rng = random.Random(47)
    assert dfb.COMPILED_BOOK, "no large board in the book"
    for n, sides in dfb.COMPILED_BOOK.items():
        size = 2 * n + 1
        assert dfb.BOOK.count(size) > 1000 and set(sides) <= {"michigan", "ohio"}
        exact = Table(size, 23)  # values stay exact when it fills (then only slower)
        # a uniform sample of 2,000 entries (reservoir) of eight runs drawn at random, then its 150
        # with the fewest pieces left (the opening's take seconds)
        runs = rng.sample(range(dfb.BOOK.run_count(size)), min(8, dfb.BOOK.run_count(size)))
        sample: list[tuple[int, int]] = []
        for i, entry in enumerate(dfb.BOOK.items(size, runs)):
            if len(sample) < 2000:
                sample.append(entry)
            elif (j := rng.randrange(i + 1)) < 2000:
                sample[j] = entry
        for key, square in sorted(sample, key=lambda e: bin(e[0]).count("1"))[:150]:
            m, o = key >> 32, key & 0xFFFFFFFF
            bit = 1 << (square - 1)
            assert bit in {b for b, _nm, _no in moves(m, o, size)}
            assert exact.wins(*child(m, o, bit, size)) is False, (n, key, square)


def test_perfect_claims_perfection_exactly_up_to_the_largest_n_both_teams_are_covered(monkeypatch):
    """The bot's description names ``perfect_up_to()``: every n up to it is covered for both
    teams (the two-sided book to n = 11, then ``COMPILED_BOOK``), and the next n is not; a gap or a
    one-sided size stops it."""
    limit = dfb.perfect_up_to()
    assert f"n ≤ {limit}" in dfb.BOTS["perfect"].description
    for n in range(dfb.FULL_BOOK_MAX_N + 1, limit + 1):
        assert set(dfb.COMPILED_BOOK[n]) == {"michigan", "ohio"}, n
    assert set(dfb.COMPILED_BOOK.get(limit + 1, ())) != {"michigan", "ohio"}
    both = ("michigan", "ohio")
    for book, expected in (({}, 11), ({12: both, 14: both}, 12), ({12: ("ohio",), 13: both}, 11),
                           ({12: both, 13: both, 14: both, 15: ("michigan",)}, 14)):
        monkeypatch.setattr(dfb, "COMPILED_BOOK", book)
        assert dfb.perfect_up_to() == expected, book


def test_a_build_stopped_on_the_way_goes_on_from_its_file_to_the_same_book(Table, tmp_path, monkeypatch):
    """``--resume``: a build killed in the middle of a part (here: after 60 positions, its walk
    saved at every position) goes on from the file and ends with the book a build in one go makes."""
    from bots.dfootball import book as generator

    monkeypatch.setattr(dfb, "C_LOSS_BUDGET", 2000)
    whole, whole_stats = generator.build_compiled(6, (0, 1), win_budget=100, split=4)
    real_step = generator._Walker.step
    calls = {"n": 0}

    def dying_step(self, m, o):
        calls["n"] += 1
        if calls["n"] == 60:
            raise KeyboardInterrupt
        return real_step(self, m, o)

    saved = tmp_path / "walk.pickle"
    monkeypatch.setattr(generator._Walker, "step", dying_step)
    with pytest.raises(KeyboardInterrupt):
        generator.build_compiled(6, (0, 1), win_budget=100, split=4, resume=saved, every=0.0)
    assert saved.exists()
    monkeypatch.setattr(generator._Walker, "step", real_step)
    resumed, resumed_stats = generator.build_compiled(6, (0, 1), win_budget=100, split=4, resume=saved, every=0.0)
    assert resumed == whole and len(whole) > 0
    assert resumed_stats["won"] >= whole_stats["won"]  # positions walked again after the kill count again
    with pytest.raises(SystemExit, match="another build"):
        generator.build_compiled(6, (0,), win_budget=100, split=4, resume=saved)


def test_the_kept_table_stays_a_third_full_at_most():
    """``C_REFILL`` plus what one move may add keeps the kept table a third full, where a run of
    32 full probes (a dropped entry) practically never happens."""
    assert dfb.C_REFILL + dfb.C_WIN_BUDGET + dfb.C_EXTRA_BUDGET <= (1 << dfb.C_TABLE_BITS) // 3
    assert dfb.C_REFILL + dfb.C_VERDICT_BUDGET <= (1 << dfb.C_TABLE_BITS) // 3
    assert max(dfb.C_DEADLINE, dfb.C_LOSS_DEADLINE, dfb.C_HARD_DEADLINE) <= 0.050


def test_a_table_searching_in_one_thread_refuses_another_threads_call(Table):
    """The search releases the GIL; a second thread's call on the same table while it runs is
    refused (RuntimeError), never a race on its memory (the bot's lock keeps its own calls apart)."""
    table = Table(31, 16)
    done = threading.Event()

    def search() -> None:
        table.wins(*start_position(15), seconds=0.5)  # cannot finish: runs its half second
        done.set()

    worker = threading.Thread(target=search)
    worker.start()
    refused = 0
    while not done.is_set():
        try:
            table.get(*start_position(15))
        except RuntimeError:
            refused += 1
            with pytest.raises(RuntimeError):
                table.clear()
            break
    worker.join()
    assert refused == 1
    assert table.get(*start_position(15)) is None and table.nodes > 0  # usable again
