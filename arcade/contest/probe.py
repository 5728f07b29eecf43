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


def probe(game, spec: str, limits: Limits, count: int, seed: int, table_seconds: float | None = None,
          timing: list[float] | None = None) -> str | None:
    """``None`` if file bot ``spec`` loads under ``limits`` (the sandbox required: it is settled
    as a run's) and answers each of ``count`` positions legally in time; else why not, in one line.
    With ``table_seconds`` (Hog's exact scoring, ``arcade.contest.hog_exact``) the positions are
    asked in one turn of that many seconds, as its table is, rather than each in a move's time: a
    strategy may spend its first call building a table of its own. ``timing``, if given, gets the
    seconds of each answer (a table's: its turn's share), for ``arcade contest status``'s estimate
    of a newcomer's games."""
    from bots.base import Context, Forfeit
    from bots.external.sandbox import SandboxUnavailable
    from bots.external.specs import is_program_spec
    from bots.registry import UnknownBot, admit

    try:
        admitted = admit(game, [spec], limits, required=limits.sandbox != "none")
    except (UnknownBot, SandboxUnavailable) as exc:
        return str(exc)
    entry = admitted.entries[0]
    try:
        if is_program_spec(spec):  # a program keeps its own board: it plays from the start
            return from_the_start(game, entry, admitted.limits.move_time(game), count, seed, timing)
        states = positions(game, count, seed)
        if table_seconds is not None:
            try:
                moves, took = file_source(entry).ask_many(game, states, table_seconds)
            except Forfeit as exc:
                return str(exc)
            if timing is not None and states:
                timing.extend([took / len(states)] * len(states))
            for number, (state, move) in enumerate(zip(states, moves), start=1):
                if move not in game.legal_moves(state):
                    return f"position {number}: an illegal move"
            return None
        limit = admitted.limits.move_time(game)
        bot = entry.make(game)
        for number, state in enumerate(states, start=1):
            ctx = Context(rng=random.Random(number), time_limit=limit)
            try:
                move = bot.choose(state, ctx)
            except Forfeit as exc:
                return f"position {number}: {exc}"
            if timing is not None and ctx.took is not None:
                timing.append(ctx.took)
            if move not in game.legal_moves(state):
                return f"position {number}: an illegal move"
    finally:
        admitted.close()
    return None


def from_the_start(game, entry, limit: float, count: int, seed: int, timing: list[float] | None = None) -> str | None:
    """A CS4341 program's probe: it keeps its own board (the referee's files never tell it a
    position), so it plays games from the start against random moves (from ``seed``), first on
    the side that opens, then on the other, until it has answered ``count`` moves in all (half
    on each side), each legal and in time; ``None``, or why not in one line. Each game ends as
    any game of it does: the program told, then killed with everything it started."""
    from bots.base import Context, Forfeit

    rng = random.Random(seed)
    for side, need in ((0, (count + 1) // 2), (1, count // 2)):
        if need == 0:
            continue
        bot, state, answered = entry.make(game), game.initial_state(), 0
        try:
            while not state.over and answered < need:
                legal = list(game.legal_moves(state))
                if state.to_move != side:
                    state = game.play(state, rng.choice(legal))
                    continue
                where = f"as {game.sides[side].name}, move {answered + 1}"
                ctx = Context(rng=random.Random(answered), time_limit=limit)
                try:
                    move = bot.choose(state, ctx)
                except Forfeit as exc:
                    return f"{where}: {exc}"
                if timing is not None and ctx.took is not None:
                    timing.append(ctx.took)
                if move not in legal:
                    return f"{where}: an illegal move"
                state, answered = game.play(state, move), answered + 1
        finally:
            if state.over:
                bot.game_over(state, state.result)
            else:
                bot.left(state)
    return None


def file_source(entry):
    """The file bot's source behind an admitted entry (``bots.external.host.FileBotSource``):
    what a contest asks many positions of at once (``ask_many``). A submission is always a file
    bot; anything else is a ``TypeError``."""
    from bots.external.host import ExternalEntry, FileBotSource

    source = entry.source if isinstance(entry, ExternalEntry) else None
    if not isinstance(source, FileBotSource):
        raise TypeError(f"{entry.name} is no file bot")
    return source
