"""The admission probe: a submission is accepted only if, in the sandbox its games will use, it
loads and answers positions from real games legally within its time limit, as an autograder
checks a submission before it goes on the board."""

from __future__ import annotations

import random

from bots.limits import Limits


def positions(game, count: int, seed: int) -> list:
    """``count`` positions where a side is to move, from games of random moves (from ``seed``):
    spread over whole games, the first move of each side included."""
    from games.base import CHANCE

    rng = random.Random(seed)
    found: list = []
    for _ in range(50):
        state = game.initial_state()
        states = []
        while not state.over and state.ply < game.max_game_length():
            if state.to_move == CHANCE:
                state = game.play(state, game.sample_chance(state, rng))
                continue
            states.append(state)
            state = game.play(state, rng.choice(list(game.legal_moves(state))))
        step = max(1, len(states) // max(1, count - len(found)))
        found.extend(states[::step][: count - len(found)])
        if len(found) >= count:
            break
    return found


def probe(game, spec: str, limits: Limits, count: int, seed: int) -> str | None:
    """``None`` if file bot ``spec`` loads under ``limits`` (the sandbox required: it is settled
    as a run's) and answers each of ``count`` positions legally in time; else why not, in one line."""
    from bots.base import Context, Forfeit
    from bots.external.sandbox import SandboxUnavailable
    from bots.registry import UnknownBot, admit

    try:
        admitted = admit(game, [spec], limits, required=limits.sandbox != "none")
    except (UnknownBot, SandboxUnavailable) as exc:
        return str(exc)
    entry = admitted.entries[0]
    try:
        limit = admitted.limits.move_time(game)
        bot = entry.make(game)
        for number, state in enumerate(positions(game, count, seed), start=1):
            try:
                move = bot.choose(state, Context(rng=random.Random(number), time_limit=limit))
            except Forfeit as exc:
                return f"position {number}: {exc}"
            if move not in game.legal_moves(state):
                return f"position {number}: an illegal move"
    finally:
        admitted.close()
    return None
