"""Robot Ludo benchmark: win rates of the bots with colours and first move alternated, and the
speed of the fast simulator (``bots/ludo_engine.py``, checked against the rules by the tests).

Run: ``python bench/ludo.py`` (defaults: 2,000 games a pair at 10 counters on length 20 and at
4 counters on length 20). ``--games N``, ``--pairs expectimax:random,...``, ``--settings 10/20``,
``--jobs 2`` (processes; the machine is shared, keep it short), ``--timing`` (time per move of
the real ``bots.ludo`` engines on the game's own states, at the presets ``contest`` (12/36, safe
9 and 27) and ``notebook`` (10/20), the default 4/20 and the largest 15/40: mean, median, 99th
percentile and max, wall and CPU, and how often a move passed the deadline and the 100 ms).

Game ``i`` of a pair gives bot A colour ``i % 2`` (0 Red, 1 Blue) and lets colour
``(i // 2) % 2`` move first, so each of the four combinations gets a quarter of the games.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bots.ludo import LEAF_CAP  # noqa: E402
from games.ludo import PRESETS  # noqa: E402
from bots.ludo_engine import (  # noqa: E402
    PASS,
    ExpectimaxPolicy,
    HeuristicPolicy,
    Pos,
    first_progress_policy,
    random_policy,
)


def policies() -> dict:
    return {
        "expectimax": ExpectimaxPolicy(depth=3, leaf_cap=LEAF_CAP),  # as bots.ludo's (no clock here)
        "expectimax2": ExpectimaxPolicy(),  # depth 2 only
        "expectimax3": ExpectimaxPolicy(depth=3),  # the full third level everywhere
        "heuristic": HeuristicPolicy(),
        "simple_player2": first_progress_policy,
        "random": random_policy,
    }


def play(counters: int, length: int, safe: tuple[int, ...], red, blue, first: int, rng: random.Random,
         max_plies: int = 20000) -> tuple[int | None, int]:
    """One game on the fast core; returns (winner colour or None, plies)."""
    flags = [0] * length
    for s in (0, length // 2, *safe):
        flags[s] = 1
    pos = Pos(length, counters, tuple(flags))
    players = (red, blue)
    side = first
    for ply in range(max_plies):
        roll = rng.randint(1, 6)
        move = players[side](pos, side, roll, rng)
        if move is not PASS:
            pos.apply(side, move, roll)
            if pos.home[side] == counters:
                return side, ply + 1
        side = 1 - side
    return None, max_plies


def run_pair(args: tuple) -> tuple[int, int, int, int]:
    """Games ``start .. start+n`` of A vs B; returns (A wins, B wins, unfinished, plies)."""
    a_name, b_name, counters, length, start, n, seed, *rest = args
    safe = tuple(rest[0]) if rest else ()
    table = policies()
    a, b = table[a_name], table[b_name]
    rng = random.Random(seed * 1_000_003 + start)
    wins = losses = unfinished = plies = 0
    for i in range(start, start + n):
        a_colour = i % 2
        first = (i // 2) % 2
        red, blue = (a, b) if a_colour == 0 else (b, a)
        winner, count = play(counters, length, safe, red, blue, first, rng)
        plies += count
        if winner is None:
            unfinished += 1
        elif winner == a_colour:
            wins += 1
        else:
            losses += 1
    return wins, losses, unfinished, plies


def interval(p: float, n: int) -> float:
    return 1.96 * math.sqrt(max(p * (1 - p), 1e-9) / max(n, 1))


def timing(counters: int, length: int, games: int, safe: tuple[int, ...] = (), limit: float = 0.1,
           label: str = "") -> None:
    """Time per move of the real engines (``bots.ludo``, through ``SearchBot.choose`` with the
    contests' 100 ms) on states from random games: mean, median, 99th percentile and max of the
    wall-clock time and of the thread's CPU time (the machine is shared: the CPU time is the
    search's own), and how often a move passed the search's deadline (80% of the limit: the
    depth-2 answer stood, or the one-ply one) and the limit itself."""
    from bots.base import Context
    from bots.ludo import BOTS
    from games.base import CHANCE
    from games.ludo import Ludo

    game = Ludo(counters=counters, length=length, safe=safe)
    rng = random.Random(7)
    states = []
    for _ in range(games):
        state = game.initial_state()
        while not state.over:
            if state.to_move == CHANCE:
                state = game.play(state, rng.randint(1, 6))
                continue
            if len(game.legal_moves(state)) > 1:
                states.append(state)
            state = game.play(state, rng.choice(game.legal_moves(state)))
    name = label or f"{counters}/{length}" + (f" safe {','.join(map(str, safe))}" if safe else "")
    for bot_name in ("heuristic", "expectimax"):
        bot = BOTS[bot_name].make(game)
        walls, cpus = [], []
        for state in states:
            ctx = Context(rng=random.Random(1), time_limit=limit)
            c = time.thread_time()
            bot.choose(state, ctx)
            cpus.append(time.thread_time() - c)
            walls.append(time.perf_counter() - ctx.started)
        n = len(walls)
        deadline = sum(1 for t in walls if t > 0.8 * limit)
        over = sum(1 for t in walls if t > limit)
        for kind, times in (("wall", walls), ("cpu", cpus)):
            times.sort()
            print(f"{bot_name:>10} at {name}: {kind:>4} mean {1000 * sum(times) / n:6.2f} ms, median "
                  f"{1000 * times[n // 2]:6.2f}, p99 {1000 * times[min(n - 1, n * 99 // 100)]:6.2f}, "
                  f"max {1000 * times[-1]:6.2f} ms" + (f"  ({n} positions with a choice; past the deadline "
                                                      f"{deadline} ({deadline / n:.2%}), over {1000 * limit:g} ms "
                                                      f"{over} ({over / n:.2%}))" if kind == "wall" else ""))


PRESET_SETTINGS = "contest,notebook,4/20,15/40"
"""``--timing``'s default settings: the presets by name (``games.ludo.PRESETS``), the arcade's
default game and the largest one."""


DEFAULT_SETTINGS = "10/20,4/20"


def parse_setting(text: str) -> tuple[int, int, tuple[int, ...]]:
    """``counters/length`` or a preset's name: (counters, length, extra safe squares)."""
    if text in PRESETS:
        return PRESETS[text]["counters"], PRESETS[text]["length"], tuple(PRESETS[text]["safe"])
    counters, length = map(int, text.split("/"))
    return counters, length, ()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--pairs", default="expectimax:random,expectimax:simple_player2,heuristic:random,"
                                           "heuristic:simple_player2,expectimax:heuristic")
    parser.add_argument("--settings", default=DEFAULT_SETTINGS,
                        help="counters/length or a preset's name (contest, notebook), comma-separated "
                             f"(--timing: {PRESET_SETTINGS})")
    parser.add_argument("--timing-games", type=int, default=20, help="random games whose positions --timing times")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--timing", action="store_true")
    args = parser.parse_args()

    if args.timing:
        for setting in (args.settings if args.settings != DEFAULT_SETTINGS else PRESET_SETTINGS).split(","):
            counters, length, safe = parse_setting(setting)
            label = f"{setting} ({counters}/{length})" if setting in PRESETS else setting
            timing(counters, length, args.timing_games, safe, label=label)
        return

    print(f"Robot Ludo: {args.games} games a pair, colours and first move alternated, seed {args.seed}")
    # speed of the simulator itself
    rng = random.Random(args.seed)
    t = time.perf_counter()
    plies = 0
    n = 300
    for i in range(n):
        plies += play(10, 20, (), random_policy, random_policy, i % 2, rng)[1]
    dt = time.perf_counter() - t
    print(f"simulator: random vs random at 10/20: {n / dt:.0f} games/s ({plies / dt:.0f} moves/s)")
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    for setting in args.settings.split(","):
        counters, length, safe = parse_setting(setting)
        for pair in args.pairs.split(","):
            a, b = pair.split(":")
            t = time.perf_counter()
            chunk = math.ceil(args.games / args.jobs / 4) * 4
            tasks = [(a, b, counters, length, s, min(chunk, args.games - s), args.seed, safe)
                     for s in range(0, args.games, chunk)]
            results = list(pool.map(run_pair, tasks)) if pool else [run_pair(task) for task in tasks]
            wins = sum(r[0] for r in results)
            losses = sum(r[1] for r in results)
            unfinished = sum(r[2] for r in results)
            plies = sum(r[3] for r in results)
            dt = time.perf_counter() - t
            done = wins + losses
            rate = wins / done if done else 0.0
            print(f"{setting:>8}: {a:>10} vs {b:<14} {rate:6.1%} ± {interval(rate, done):.1%} "
                  f"({wins}-{losses}, {unfinished} unfinished) {done / dt:6.1f} games/s, "
                  f"{plies / max(done, 1):.0f} plies/game")
    if pool:
        pool.shutdown()


if __name__ == "__main__":
    main()
