"""Hog's exact scoring (``scoring = "exact"``, the ``cs61a-hog`` preset): a strategy is a function
of the two scores, so a pair's result can be computed instead of sampled.

Each submission is asked, once, in the sandbox its games would use, for every position
``(score, opponent_score)`` below the goal (its table, kept in ``DIR/tables/DIGEST.json``); a
sample of positions is asked again afterwards, in another order: a strategy whose answers change
(it draws random numbers, or keeps state) is no function of the scores, and its pairs are played
as sampled games instead, as is a strategy that fails or is too slow while being asked (its
games then show the forfeit). Two tables give the pair's exact win chance with the arcade's solver
(``games.hog_solver.evaluate``), both orders alike: A's expected wins are ``games_per_pair`` times it.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Callable

from arcade.contest import store
from arcade.contest.config import Config
from arcade.contest.db import Database, Submission
from arcade.files import write_whole

AGAIN = 200
"""Positions asked a second time, in another order, to tell a function of the scores."""


def ask_all(game, spec: str, limits, seed: int) -> list[list[int]] | str:
    """The strategy's table (``table[s][o]``), or why it has none (one line)."""
    from bots.base import Context, Forfeit
    from bots.registry import UnknownBot, admit

    try:
        admitted = admit(game, [spec], limits, required=limits.sandbox != "none")
    except UnknownBot as exc:
        return str(exc)
    goal = game.settings["goal"]
    start = game.initial_state()
    limit = admitted.limits.move_time(game)
    try:
        bot = admitted.entries[0].make(game)

        def ask(s: int, o: int) -> int:
            return bot.choose(replace(start, scores=(s, o)), Context(rng=random.Random(s * goal + o), time_limit=limit))

        table = [[ask(s, o) for o in range(goal)] for s in range(goal)]
        positions = [(s, o) for s in range(goal) for o in range(goal)]
        for s, o in random.Random(seed).sample(positions, min(AGAIN, len(positions)))[::-1]:
            if ask(s, o) != table[s][o]:
                return f"not a function of the scores: ({s}, {o}) gave {table[s][o]}, then another answer"
    except Forfeit as exc:
        return str(exc)
    finally:
        admitted.close()
    return table


def table_of(folder: Path, config: Config, limits, sub: Submission, say: Callable[[str], None]):
    """The submission's table, asked once and kept (``None``: no function of the scores)."""
    path = Path(folder) / "tables" / f"{sub.digest}.json"
    try:
        kept = json.loads(path.read_text())
        return kept.get("table")
    except (OSError, ValueError, AttributeError):
        pass
    game = config.make_game()
    got = ask_all(game, store.spec_of(folder, sub.digest, sub.entry), limits, int(sub.digest[:15], 16))
    if isinstance(got, str):
        say(f"{sub.team}: scored by sampled games ({got})")
    write_whole(path, json.dumps({"team": sub.team, "table": None if isinstance(got, str) else got,
                                  "why": got if isinstance(got, str) else ""}))
    return None if isinstance(got, str) else got


def exact_chance(table_a: list[list[int]], table_b: list[list[int]], goal: int) -> float:
    """A's chance to beat B, each first in half the games (``games.hog_solver.evaluate``)."""
    from games.hog_solver import evaluate

    def a(s: int, o: int) -> int:
        return table_a[s][o]

    def b(s: int, o: int) -> int:
        return table_b[s][o]

    return (evaluate(a, b, goal) + 1 - evaluate(b, a, goal)) / 2


def score_exactly(folder: Path, config: Config, db: Database, current: list[Submission],
                  pairs: list[tuple[str, str]], say: Callable[[str], None], limits) -> list[tuple[str, str]]:
    """Compute the ``pairs`` whose two strategies have tables (into the database's ``exact``),
    each strategy asked under ``limits`` (the run's, the sandbox settled); the pairs left to be
    played as sampled games."""
    by_digest = {s.digest: s for s in current}
    tables = {d: table_of(folder, config, limits, by_digest[d], say) for d in {x for p in pairs for x in p}}
    sampled = []
    for a, b in pairs:
        if tables[a] is None or tables[b] is None:
            sampled.append((a, b))
            continue
        db.set_exact(a, b, exact_chance(tables[a], tables[b], config.options["goal"]))
    return sampled
