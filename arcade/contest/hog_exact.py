"""Hog's exact scoring (``scoring = "exact"``, the ``cs61a-hog`` preset): a strategy is a function
of the two scores, so a pair's result can be computed instead of sampled, and each strategy has
the course's own score beside the board, its exact win rate against ``always_roll(6)``.

**Its table.** Each submission is asked for every position ``(score, opponent_score)`` below the
goal, in the sandbox its games would use, twice, each time in a fresh process given its own seed
(``arcade.seeds.hog_table_seeds``): the first asks the positions in order, then a sample of them
again in another order (the same sample for every submission, drawn from the contest's secret:
``arcade.seeds.hog_recheck_rng``, so that equal strategies are judged alike); the second asks them
all in the reverse order. Each process is asked in one turn (``FileBotSource.ask_many``: the
requests pipelined over the wire) within a budget for the whole table, ``table_seconds`` in
``contest.toml`` (60 s by default; the positions asked again are a turn of their own), not a
move's time: the course asked for the whole table with no clock a move, so a strategy may spend its
first call building a table of its own. The file's loading is outside the budget (its own limit,
``bots.external.host.LOAD_TIMEOUT``).

A submission is scored exactly only if both processes gave the same table and the positions asked
again their first answers. A strategy that draws random numbers when called or keeps state (its
answers change within a process), or draws them when its file loads (it answers alike within a
process and differently in the next, so that one process's table is one draw, not the strategy),
or that fails, or whose table does not fit the budget, is scored by sampled games instead; ``why``
says which, in one line, on the board. What the asking came to is kept in
``DIR/tables/DIGEST.json`` (the evidence: ``arcade contest rebuild`` reads it; a file of the first
format, asked in one process, is asked again) and in the database's ``tabled``.

**A pair.** Two tables give A's exact win chance with the arcade's solver
(``games.hog_solver.evaluate``), each first in half the games: A's expected wins are
``games_per_pair`` times it. The pair counts as computed, not played. A pair that has games
already (a strategy that was sampled before) is finished by games, never counted both ways.

**The course's score.** CS 61A scored a final strategy by its exact win rate against
``always_roll(6)``: ``calc.py`` sent the strategy's table to the course's calculator, whose
``score(strat_0, strat_1)`` is ``(1 + match(strat_0, strat_1) - match(strat_1, strat_0)) / 2``,
``match`` the first mover's exact win chance (Cal-CS-61A-Staff/cs61a-apps, ``hog-calc/runner.py``):
the mean of the strategy's chances moving first and moving second, what the project's
``average_win_rate`` samples ("averages the winrate when starting the game as player 0 and as player
1"). ``vs_always_roll_6`` is that figure, computed as a pair's is (``exact_chance``); a submission
scored by sampled games has none (one process's table is not the strategy's).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields as dataclass_fields
from pathlib import Path
from typing import Callable

from arcade.contest import store
from arcade.contest.config import Config, ContestError, load, secret_seed
from arcade.contest.db import Database, Submission
from arcade.files import write_whole

AGAIN = 200
"""Positions asked a second time in the first process, in another order, to tell a function of the scores."""

BASELINE = 6
"""The course's baseline: ``always_roll(6)``."""

FORMAT = 2
"""The kept file's format: 2, asked in two fresh processes within ``table_seconds``."""


@dataclass(frozen=True)
class Tabled:
    """What asking a submission for its table came to: the ``table`` (``table[s][o]``; ``None``:
    scored by sampled games, ``why`` says why in one line), its exact win rate against
    ``always_roll(6)`` and the seconds each process took."""

    table: list[list[int]] | None
    why: str = ""
    vs_always_roll_6: float | None = None
    seconds: tuple[float, ...] = ()


def ask_positions(game, spec: str, limits, batches: list[list[tuple[int, int]]], seconds: float,
                  seed: int) -> list[tuple[list[int], float]] | str:
    """``spec``'s answers at each batch of positions, asked in one fresh process under ``limits``,
    a turn of ``seconds`` a batch (``seed`` sent first), with the seconds each took; or why not,
    in one line."""
    from arcade.contest.probe import file_source
    from bots.base import Forfeit
    from bots.external.sandbox import SandboxUnavailable
    from bots.registry import UnknownBot, admit
    from games.base import Termination

    try:
        admitted = admit(game, [spec], limits, required=limits.sandbox != "none")
    except (UnknownBot, SandboxUnavailable) as exc:
        return str(exc)
    start = game.initial_state()
    fields = {spec.name: getattr(start, spec.name) for spec in dataclass_fields(start)}  # replace(), 3x as fast
    make = type(start)
    try:
        source = file_source(admitted.entries[0])
        return [source.ask_many(game, [make(**{**fields, "scores": (s, o)}) for s, o in batch], seconds,
                                seed if number == 0 else None) for number, batch in enumerate(batches)]
    except Forfeit as exc:
        return f"its table did not fit table_seconds: {exc}" if exc.kind == Termination.TIME else str(exc)
    finally:
        admitted.close()


def tabulate(game, spec: str, limits, seconds: float, secret: int) -> Tabled:
    """``spec``'s table asked in two fresh processes within ``seconds`` each, compared (the
    module's docstring), with its win rate against ``always_roll(6)``; ``secret``: the contest's
    secret seed."""
    from arcade.seeds import hog_recheck_rng, hog_table_seeds

    goal = game.settings["goal"]
    positions = [(s, o) for s in range(goal) for o in range(goal)]
    again = hog_recheck_rng(secret).sample(positions, min(AGAIN, len(positions)))[::-1]
    seeds = hog_table_seeds(secret)
    first = ask_positions(game, spec, limits, [positions, again], seconds, seeds[0])
    if isinstance(first, str):
        return Tabled(None, first)
    (answers, took), (answers_again, _) = first
    table = [answers[s * goal:(s + 1) * goal] for s in range(goal)]
    for (s, o), answer in zip(again, answers_again):
        if answer != table[s][o]:
            return Tabled(None, f"its answers change when asked again: ({s}, {o}) gave {table[s][o]}, then {answer}")
    second = ask_positions(game, spec, limits, [positions[::-1]], seconds, seeds[1])
    if isinstance(second, str):
        return Tabled(None, f"{second} (in a second process)")
    for (s, o), answer in zip(positions[::-1], second[0][0]):
        if answer != table[s][o]:
            return Tabled(None, f"its table differs between two fresh processes: ({s}, {o}) gave {table[s][o]} "
                                f"in one, {answer} in the other")
    return Tabled(table, "", against_always_roll(table, goal), (round(took, 3), round(second[0][1], 3)))


def against_always_roll(table: list[list[int]], goal: int) -> float:
    """The table's exact win rate against ``always_roll(6)``, first in half the games (the
    course's score)."""
    return exact_chance(table, [[BASELINE] * goal for _ in range(goal)], goal)


def kept(folder: Path, digest: str) -> Tabled | None:
    """The submission's kept asking (``DIR/tables/DIGEST.json``), ``None`` if there is none of
    this format (a file of the first format, asked in one process, is asked again)."""
    try:
        data = json.loads((Path(folder) / "tables" / f"{digest}.json").read_text())
        if data.get("format") != FORMAT:
            return None
        table, vs = data["table"], data["vs_always_roll_6"]
        return Tabled(table, str(data["why"]), vs, tuple(data.get("seconds", ())))
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return None


def table_of(folder: Path, config: Config, limits, sub: Submission, say: Callable[[str], None]) -> Tabled:
    """The submission's table, kept, or asked now (in the run's ``limits``) and kept."""
    got = kept(folder, sub.digest)
    if got is not None:
        return got
    game = config.make_game()
    spec = store.spec_of(folder, sub.digest, sub.entry)
    got = tabulate(game, spec, limits, config.table_seconds, secret_seed(folder))
    if got.table is None:
        say(f"{sub.team}: scored by sampled games ({got.why})")
    else:
        say(f"{sub.team}: table asked in two processes ({got.seconds[0]:g} s, {got.seconds[1]:g} s); "
            f"{got.vs_always_roll_6:.4f} against always_roll({BASELINE})")
    path = Path(folder) / "tables" / f"{sub.digest}.json"
    try:
        write_whole(path, json.dumps({"format": FORMAT, "team": sub.team, "table": got.table, "why": got.why,
                                      "vs_always_roll_6": got.vs_always_roll_6, "seconds": list(got.seconds),
                                      "table_seconds": config.table_seconds}))
    except OSError as exc:
        raise ContestError(f"cannot keep {sub.team}'s table in {path}: {exc.strerror or exc}") from None
    return got


def exact_chance(table_a: list[list[int]], table_b: list[list[int]], goal: int) -> float:
    """A's chance to beat B, each first in half the games: the mean of A's win chance moving
    first and moving second, both read at 0-0 from one solve (``games.hog_solver.evaluate_tables``:
    A's chance with A to move, and with B to move)."""
    from games.hog_solver import evaluate_tables

    def a(s: int, o: int) -> int:
        return table_a[s][o]

    def b(s: int, o: int) -> int:
        return table_b[s][o]

    a_moves, b_moves = evaluate_tables(a, b, goal)
    return (a_moves[0][0] + b_moves[0][0]) / 2


def score_exactly(folder: Path, config: Config, db: Database, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Compute the ``pairs`` (both sides' tables asked already: ``Asker``) whose two strategies
    have tables, from their kept files (into the database's ``exact``); the pairs left to be
    played as sampled games (a side with no table, or games already among them)."""
    counts = db.counts()
    digests = {x for pair in pairs for x in pair}
    tables = {d: (got.table if (got := kept(folder, d)) is not None else None) for d in digests}
    sampled = []
    for a, b in pairs:
        table_a, table_b = tables[a], tables[b]
        if table_a is None or table_b is None or counts.get((a, b), 0):
            sampled.append((a, b))
            continue
        db.set_exact(a, b, exact_chance(table_a, table_b, config.options["goal"]))
    return sampled


def exact_again(folder: Path, db: Database) -> None:
    """Hog's exact scoring made again from the current submissions' kept tables (``kept``; a
    season that never asked for one has no ``tables`` folder and nothing is done): each one's
    ``tabled`` row, and every pair of two tables that has no games (a pair with games is finished
    by games). A submission with no kept table of the current format is asked again by the next
    run. ``arcade.contest.evidence.rebuild`` calls it."""
    if not (Path(folder) / "tables").is_dir():
        return
    config = load(folder)
    tables = {}
    for sub in db.current():
        got = kept(folder, sub.digest)
        if got is None:
            continue
        db.set_tabled(sub.digest, got.vs_always_roll_6, got.why)
        if got.table:
            tables[sub.digest] = got.table
    counts = db.counts()
    digests = sorted(tables)
    for i, a in enumerate(digests):
        for b in digests[i + 1:]:
            if not counts.get((a, b), 0):
                db.set_exact(a, b, exact_chance(tables[a], tables[b], config.options["goal"]))


class Asker:
    """Tables asked off the run's thread: each submission's ``table_of`` (two fresh sandboxed
    processes within ``table_seconds`` together, its table file written whole) runs in a thread of
    its own, at most ``workers`` at once, while the run plays the pairs that need no table; what
    they found is put in the database by the run's own thread (``collect``: a SQLite connection
    belongs to one thread). ``close`` waits for the tables in progress (each bounded by its
    budget) and starts no other."""

    def __init__(self, folder: Path, config: Config, limits, say: Callable[[str], None], workers: int = 2) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.folder, self.config, self.limits, self.say = folder, config, limits, say
        self.pool = ThreadPoolExecutor(max(1, workers), thread_name_prefix="hog-table")
        self.asked: dict = {}
        """The tables asked and not yet put in the database, in progress or finished (a table
        that finished after ``collect`` looked is still here: the run waits on this, never on
        whether a table is in progress)."""

    def ask(self, subs: list[Submission], known) -> None:
        """Ask each of ``subs`` not ``known`` (the database's ``tabled``) nor asked already."""
        for sub in subs:
            if sub.digest not in known and sub.digest not in self.asked:
                self.asked[sub.digest] = self.pool.submit(table_of, self.folder, self.config, self.limits, sub, self.say)

    def collect(self, db: Database, wait: float = 0.0) -> int:
        """Put every finished table in ``db`` (waiting up to ``wait`` seconds for one when none has
        finished): the number put there. A table that failed to be kept stops the run."""
        from concurrent.futures import FIRST_COMPLETED
        from concurrent.futures import wait as until

        if wait and self.asked and not any(f.done() for f in self.asked.values()):
            until(list(self.asked.values()), timeout=wait, return_when=FIRST_COMPLETED)
        done = 0
        for digest, future in list(self.asked.items()):
            if not future.done():
                continue
            del self.asked[digest]
            got = future.result()  # a ContestError (the table could not be kept) goes to the run
            if got.table is None:
                db.forget_exact(digest)
            db.set_tabled(digest, got.vs_always_roll_6, got.why)
            done += 1
        return done

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
