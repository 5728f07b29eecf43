"""Othello figures: perft, engine speed, depth reached, endgame solve times, time limits kept, and
matches, for the compiled core and the Python engine side by side.

    .venv/bin/python bench/othello.py [perft] [speed] [depth] [endgame] [limits] [match] [options]

With no section named, runs perft, speed, depth, endgame and match (about 20-30 minutes with the
defaults). The perft, speed, depth, endgame and limits sections measure each engine of --engines
(default both, the compiled core when it is built) in turn, in one run.

- perft: leaf counts from the start (passes counted as moves) to --perft-depth (the Python engine
  to --python-perft-depth), with move generation speed; checked against the published counts.
- speed: engine nodes a second (interior nodes and evaluated leaves) in midgame positions, in
  CPU time (one core).
- depth: depth reached in 1 s and 10 s (the bot's own margin deducted) from the start and from
  midgame positions (ply 20 of seeded random openings); median and range.
- fixed: the time to a fixed depth (--fixed-depth, with ProbCut unless --no-probcut) on the same
  midgame positions (--positions at ply 20 and as many at ply 30), a fresh engine each, CPU time:
  the figure move ordering and pruning are judged by (not in the default run); with --against-core
  SO, another commit's build timed beside it, position by position, and the ratio of the two.
- endgame: exact solve times by number of empties (positions from seeded random, greedy and mixed
  play), wall clock and CPU time; the Python engine on one core and on two
  (``bots.othello.parallel_solve``'s helper processes, from its PARALLEL_EMPTIES) and only up to
  --python-max-empties; with --wld also the win/loss/draw solve (window -1..1).
- limits: the bot at each of --move-limits seconds (wall clock) on positions from the opening to
  the endgame, with --load busy processes added: the longest move and the moves over the limit
  (not in the default run).
- match: alphabeta at --match-limit seconds a move against greedy and random, each opening
  (--openings seeded random 4-ply openings) played with both colours.
- evalcost: the cost of one evaluation, learned patterns (``bots.othello.patterns``) against the
  hand-set one, and the engine's nodes a second with each (not in the default run).
- ledger: a versus match's ledger (--ledger FILE) read back, match by match, without playing.
- versus: the learned evaluation against the hand one, both the same engine at --match-limit
  seconds a move (or the hand one at a fixed --hand-depth); or, with --engine compiled
  --against-engine python, the compiled core against the Python engine, both with the learned
  evaluation; with --against-core SO, the opponent on another commit's build of the core; colour-balanced, the points with their standard error (not in the default run).

Wall-clock figures depend on the load: the script prints the CPU time beside the wall time where
they can differ (the machine is shared). With --cpu the bot's time limit is counted in CPU
seconds of its own process, which is what it would get from an unloaded core.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arcade.match import play_out  # noqa: E402
from bots.othello import BOTS, AlphaBetaBot, safety_margin  # noqa: E402
from bots.othello.book import shipped as opening_book  # noqa: E402
from bots.othello.eval import HandEvaluator  # noqa: E402
from bots.othello.patterns import PatternEvaluator  # noqa: E402
from bots.othello import parallel_solve  # noqa: E402
from bots.othello import compiled  # noqa: E402
from bots.othello.search import TIMINGS, Engine  # noqa: E402
from games.othello import PASS, Othello, OthelloState, flip_bits, perft  # noqa: E402

KNOWN_PERFT = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092, 8: 390216, 9: 3005288, 10: 24571284}


def random_state(seed: int, plies: int) -> OthelloState:
    game = Othello()
    rng = random.Random(seed)
    state = game.initial_state()
    while state.ply < plies and not state.over:
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return state


def midgame_positions(count: int, plies: int = 20) -> list[OthelloState]:
    out, seed = [], 0
    while len(out) < count:
        state = random_state(seed, plies)
        seed += 1
        p, o = state.mover_bits()
        if not state.over and len(Othello().legal_moves(state)) > 1:
            out.append(state)
    return out


def section(title: str) -> None:
    print(f"\n## {title}", flush=True)


MATCH_ENGINE: str | None = None  # --engine: the match section's alphabeta on this engine
ENGINES: list[str] = []
"""--engines: the engines the perft, speed, depth, endgame and limits sections measure side by side."""


def engines_text(kind: str) -> str:
    return "compiled core" if kind == "compiled" else "Python engine"


def bench_perft(depth: int, python_depth: int) -> None:
    section("perft from the start (passes count as moves)")
    s = Othello().initial_state()
    counters = {"compiled": lambda p, o, d: core_perft(p, o, d), "python": perft}
    for kind in ENGINES:
        last = depth if kind == "compiled" else min(depth, python_depth)
        for d in range(1, last + 1):
            start = time.process_time()
            n = counters[kind](s.blue, s.orange, d)
            seconds = time.process_time() - start
            known = KNOWN_PERFT.get(d)
            check = "ok" if known == n else f"MISMATCH (published {known})" if known else ""
            rate = f"{n / seconds:,.0f} leaves/s CPU" if seconds > 0.005 else ""
            print(f"{engines_text(kind):14} depth {d:2}: {n:>12,}  {seconds:7.3f} s CPU  {rate}  {check}", flush=True)


def core_perft(p: int, o: int, depth: int) -> int:
    from bots.othello import _core

    return _core.perft(p, o, depth)


def bench_speed(count: int, seconds: float) -> None:
    section(f"engine speed: {count} midgame positions (ply 20), {seconds:g} s CPU each, one core")
    positions = midgame_positions(count)
    for kind in ENGINES:
        rates, wall_rates = [], []
        for state in positions:
            p, o = state.mover_bits()
            engine = engine_for(kind, evaluator() or PatternEvaluator(), parallel=False)
            engine.clock = time.process_time
            wall, cpu = time.perf_counter(), time.process_time()
            info = engine.search(p, o, cpu + seconds, soft_fraction=1.0)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            rates.append(info.nodes / max(cpu, 1e-9))
            wall_rates.append(info.nodes / wall)
        rates.sort()
        print(f"{engines_text(kind):14} nodes/s (CPU): median {statistics.median(rates):>11,.0f}  "
              f"range {rates[0]:,.0f}–{rates[-1]:,.0f}  (wall: median {statistics.median(wall_rates):,.0f})", flush=True)


CLOCK = time.perf_counter  # --cpu: time.process_time, the time limit counted in CPU seconds
EVALUATION = "default"  # --evaluation: the bot's own, "hand" or "learned" (speed, depth, match)
PROBCUT = True  # --no-probcut: the learned evaluation without its Multi-ProbCut calibration
PROBCUT_T = None  # --probcut-t: versus: another ProbCut confidence than the engine's
AGAINST_CORE = None  # --against-core: versus: the opponent's compiled core, another commit's build
TIMING = (None, None)  # --timing, --against-timing: versus: each side's time manager (None: the engine's own)
BOOK = True  # --no-book: versus: the learned side without the opening book (the opponent never has one)
OPENINGS_FROM_BOOK = 0  # --openings-from-book R: versus: games from the first position, the opponent's first
# R moves drawn from the book's reasonable moves (seeded by the opening's number)


def evaluator(kind: str | None = None):
    """A fresh evaluator of the kind asked (None: the ``alphabeta`` bot's own)."""
    kind = kind or EVALUATION
    if kind == "hand":
        return HandEvaluator()
    if kind == "learned":
        return PatternEvaluator(probcut=PROBCUT)
    return None


def depth_reached(state: OthelloState, limit: float, kind: str | None = None) -> tuple[int, float, float]:
    game = Othello()
    bot = AlphaBetaBot(game, limit, evaluator=evaluator(), book=False)
    on_engine(bot, kind)
    bot.clock = CLOCK
    from bots.base import Context

    wall, cpu = time.perf_counter(), time.process_time()
    bot.choose(state, Context(time_limit=limit))
    return bot.last.depth, time.perf_counter() - wall, time.process_time() - cpu


def bench_depth(count: int, limits: list[float]) -> None:
    positions = midgame_positions(count)
    for limit in limits:
        section(f"depth reached at {limit:g} s a move (margin {safety_margin(limit):.2f} s kept back)")
        for kind in ENGINES:
            d, wall, cpu = depth_reached(Othello().initial_state(), limit, kind)
            print(f"{engines_text(kind)}: start position: depth {d}  ({wall:.2f} s wall, {cpu:.2f} s CPU)", flush=True)
            depths, walls = [], []
            for state in positions:
                d, wall, cpu = depth_reached(state, limit, kind)
                depths.append(d)
                walls.append(wall)
                print(f"  midgame position: depth {d}  ({wall:.2f} s wall, {cpu:.2f} s CPU)", flush=True)
            print(f"{engines_text(kind)}: midgame: median depth {statistics.median(depths)}  "
                  f"range {min(depths)}–{max(depths)}  longest move {max(walls):.2f} s wall (limit {limit:g} s)",
                  flush=True)


def bench_timing(count: int, limits: list[float]) -> None:
    """The time manager against the engine before it (``Engine.timing``): on held-out midgame
    positions (``midgame_positions``, after 20 to 44 random plies), each move's CPU time against
    the bot's budget (the limit less ``safety_margin``) and the depth it reached, the limit counted
    in CPU time."""
    from bots.base import Context

    states = [random_state(700 + i, 20 + (i * 24) // max(1, count - 1)) for i in range(count)]
    states = [s for s in states if not s.over and len(Othello().legal_moves(s)) > 1]
    for limit in limits:
        budget = limit - safety_margin(limit)
        section(f"time used at {limit:g} s a move (CPU time; the budget {budget:.2f} s): "
                f"{len(states)} held-out positions, plies 20-44")
        for timing in TIMINGS:
            used, depths = [], []
            for state in states:
                bot = AlphaBetaBot(Othello(), limit, book=False)
                bot.clock = time.process_time
                bot.engine.timing = timing
                cpu = time.process_time()
                bot.choose(state, Context(time_limit=limit))
                used.append(time.process_time() - cpu)
                depths.append(bot.last.depth if bot.last else 0)
            print(f"{timing:9}: CPU a move {min(used):.2f}-{max(used):.2f} s (mean {statistics.mean(used):.2f}, "
                  f"{100 * statistics.mean(used) / budget:.0f} % of the budget; {sum(u > budget for u in used)} "
                  f"over it); depth {min(depths)}-{max(depths)} (mean {statistics.mean(depths):.1f})", flush=True)


def bench_ingame(moves: int, limits: list[float], seed: int = 11) -> None:
    """Each move's CPU time in a game (``ingame``): one bot plays both sides from a position after
    16 random plies (seeded), its tables kept from move to move as in a match, so that they fill
    and are thinned inside searches, which the held-out positions of ``timing`` (a fresh engine
    each) seldom show; the limit counted in CPU time."""
    from bots.base import Context
    from bots.othello import search_reserve

    for limit in limits:
        budget = limit - safety_margin(limit)
        game, rng = Othello(), random.Random(seed)
        state = game.initial_state()
        for _ in range(16):
            state = game.play(state, rng.choice(game.legal_moves(state)))
        bot = AlphaBetaBot(game, limit, book=False)
        bot.clock = time.process_time
        section(f"a game's moves at {limit:g} s (CPU time; the budget {budget:.2f} s, the search's reserve "
                f"{search_reserve(budget) * 1000:.0f} ms): {moves} moves from ply 16, seed {seed}, one bot, its tables kept")
        used = []

        def table_size() -> int:  # the compiled core's midgame table (the Python engine's: not shown)
            core = getattr(bot.engine, "core", None)
            return core.tt_size if core is not None else 0

        for _ in range(moves):
            if state.over:
                break
            before, cpu = table_size(), time.process_time()
            move = bot.choose(state, Context(time_limit=limit))
            used.append(time.process_time() - cpu)
            after = table_size()
            print(f"ply {state.ply:2}: {used[-1]:.3f} s{'  OVER' if used[-1] > budget else ''} · depth "
                  f"{bot.last.depth if bot.last else 0} · table {before:,} → {after:,}", flush=True)
            state = game.play(state, move)
        print(f"slowest {max(used):.3f} s of {budget:.2f}; {sum(u > budget for u in used)} of {len(used)} over it",
              flush=True)


def bench_fixed(count: int, depth: int) -> None:
    """CPU seconds and nodes to search each midgame position to ``depth`` with a fresh engine; with
    ``--against-core``, that build too, position by position beside this one (interleaved, so that
    a change in the machine's load falls on both alike)."""
    positions = midgame_positions(count) + midgame_positions(count, plies=30)
    section(f"time to depth {depth}: {len(positions)} midgame positions (plies 20 and 30), a fresh engine each, CPU")
    runs = [(engines_text(kind), kind, None) for kind in ENGINES]
    if AGAINST_CORE is not None:
        runs.append((f"the build at {AGAINST_CORE.__file__}", "compiled", AGAINST_CORE))
    times = {name: [] for name, _, _ in runs}
    nodes = {name: 0 for name, _, _ in runs}
    outcome = {name: [] for name, _, _ in runs}
    for state in positions:
        p, o = state.mover_bits()
        for name, kind, build in runs:
            evaluator = PatternEvaluator(probcut=PROBCUT)
            engine = (compiled.CompiledEngine(evaluator, build=build, parallel=False) if build is not None
                      else engine_for(kind, evaluator, parallel=False))
            cpu = time.process_time()
            info = engine.search(p, o, float("inf"), max_depth=depth)
            times[name].append(time.process_time() - cpu)
            nodes[name] += info.nodes
            outcome[name].append(f"{info.move}:{info.score}")
    for name, _, _ in runs:
        cpu_total = sum(times[name])
        print(f"{name}: {cpu_total:.2f} CPU s in all (median {statistics.median(times[name]):.3f} s, "
              f"longest {max(times[name]):.2f} s), {nodes[name]:,} nodes "
              f"({nodes[name] / max(cpu_total, 1e-9):,.0f} a CPU second); moves and scores {' '.join(outcome[name])}",
              flush=True)
    if AGAINST_CORE is not None:
        this, other = runs[0][0], runs[-1][0]
        ratio = sum(times[this]) / max(sum(times[other]), 1e-9)
        print(f"{this} takes {ratio:.0%} of the time of {other} "
              f"({sum(times[this]):.2f} against {sum(times[other]):.2f} CPU s)", flush=True)


def endgame_position(empties: int, seed: int) -> tuple[int, int] | None:
    """A position with ``empties`` empty squares from seeded play: random, greedy (most flips)
    or a mix of the two by ``seed % 3``; ``None`` if the game ended first or the mover has
    fewer than two moves."""
    game = Othello()
    rng = random.Random(1000 + seed)
    style = seed % 3
    state = game.initial_state()
    while 64 - (state.blue | state.orange).bit_count() > empties and not state.over:
        moves = game.legal_moves(state)
        if style == 0 or (style == 2 and rng.random() < 0.5) or moves == [PASS]:
            move = rng.choice(moves)
        else:
            p, o = state.mover_bits()
            counts = [flip_bits(p, o, m).bit_count() for m in moves]
            move = rng.choice([m for m, c in zip(moves, counts) if c == max(counts)])
        state = game.play(state, move)
    if state.over or len(game.legal_moves(state)) < 2:
        return None
    if 64 - (state.blue | state.orange).bit_count() != empties:
        return None
    return state.mover_bits()


def bench_endgame(empties_list: list[int], count: int, wld: bool, cores: list[int], python_max: int) -> None:
    section(f"endgame solve: {count} positions per number of empties (random, greedy and mixed play)")
    kinds = [("exact", -64, 64)] + ([("win/loss/draw", -1, 1)] if wld else [])
    if 2 in cores and "python" in ENGINES:
        wall = time.perf_counter()
        helpers = parallel_solve.pool()
        if helpers is None:
            print("two cores: no helper processes here (one core?); skipped")
            cores = [c for c in cores if c != 2]
        else:
            helpers.ping()
            print(f"two cores: helper processes answer after {time.perf_counter() - wall:.2f} s "
                  f"(once per program); the Python engine's solves from {parallel_solve.PARALLEL_EMPTIES} "
                  "empties use them")
    for empties in empties_list:
        positions, seed = [], 0
        while len(positions) < count:
            seed += 1
            got = endgame_position(empties, seed)
            if got is not None:
                positions.append(got)
        for kind, alpha, beta in kinds:
            for engine_kind in ENGINES:
                if engine_kind == "python" and empties > python_max:
                    print(f"{empties:2} empties, {kind}, Python engine: skipped (over --python-max-empties {python_max})")
                    continue
                for n in cores if engine_kind == "python" else [1]:
                    walls, cpus, nodes = [], [], []
                    for p, o in positions:
                        engine = engine_for(engine_kind, PatternEvaluator(), parallel=n == 2)
                        wall, cpu = time.perf_counter(), time.process_time()
                        info = engine.solve(p, o, alpha=alpha, beta=beta)
                        walls.append(time.perf_counter() - wall)
                        cpus.append(time.process_time() - cpu)
                        nodes.append(info.nodes)
                    cpu_text = (f"{statistics.median(cpus):6.2f} s CPU" if n == 1 or empties < parallel_solve.PARALLEL_EMPTIES
                                else "   helpers")
                    slowest = max(range(len(walls)), key=walls.__getitem__)
                    print(f"{empties:2} empties, {kind}, {engines_text(engine_kind)}, {n} core{'s' if n > 1 else ''}: "
                          f"median {statistics.median(walls):6.2f} s wall ({cpu_text}); max {max(walls):6.2f} s wall "
                          f"(position {slowest + 1}); median {statistics.median(nodes):,.0f} nodes", flush=True)


def bench_limits(limits: list[float], count: int, load: int) -> None:
    """Every move within its limit, in wall-clock time, on a loaded machine: the bot plays
    positions from the opening to the exact endgame (those where the solves start are the
    riskiest) with ``load`` busy processes beside it."""
    section(f"time limits kept: {count} positions a limit (plies 8-48), wall clock, "
            f"{load} busy process{'es' if load != 1 else ''} added to the machine's load")
    from bots.base import Context

    game = Othello()
    plies = [8 + round(i * 40 / max(1, count - 1)) for i in range(count)]
    positions = [random_state(500 + i, n) for i, n in enumerate(plies)]
    positions = [s for s in positions if not s.over]
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(load)]
    try:
        for limit in limits:
            for kind in ENGINES:
                worst, over = 0.0, 0
                bot = AlphaBetaBot(game, limit, evaluator=evaluator(), book=False)
                on_engine(bot, kind)
                for state in positions:
                    ctx = Context(time_limit=limit)
                    start = time.perf_counter()
                    bot.choose(state, ctx)
                    took = time.perf_counter() - start
                    worst = max(worst, took)
                    over += took > limit
                print(f"{limit:5g} s, {engines_text(kind)}: longest move {worst:.3f} s, {over} of {len(positions)} over "
                      f"the limit (margin {safety_margin(limit):.2f} s); load average "
                      f"{os.getloadavg()[0]:.1f}", flush=True)
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()


def opening(seed: int, plies: int = 4) -> OthelloState:
    return random_state(10_000 + seed, plies)


def bench_match(openings: int, limit: float, opponents: list[str]) -> None:
    game = Othello()
    for opponent in opponents:
        section(f"alphabeta at {limit:g} s a move vs {opponent}: {openings} openings × both colours")
        wins = draws = losses = 0
        slowest = 0.0
        discs = []
        for n in range(openings):
            start = opening(n)
            for ab_side in (0, 1):
                ab = AlphaBetaBot(game, limit, evaluator=evaluator())
                on_engine(ab, MATCH_ENGINE)
                ab.clock = CLOCK
                other = BOTS[opponent].make(game)
                bots = (ab, other) if ab_side == 0 else (other, ab)
                rngs = (random.Random(n * 2 + ab_side), random.Random(n * 2 + ab_side + 99))
                outcome = play_out(game, bots, random.Random(0), rngs, None, state=start)
                slowest = max(slowest, outcome.move_seconds[ab_side])
                winner = outcome.result.winner
                nb, no = outcome.state.counts()
                discs.append(nb - no if ab_side == 0 else no - nb)
                if winner is None:
                    draws += 1
                elif winner == ab_side:
                    wins += 1
                else:
                    losses += 1
                print(f"  opening {n} alphabeta {'blue' if ab_side == 0 else 'orange'}: {outcome.result.reason}", flush=True)
        games = wins + draws + losses
        print(f"alphabeta {wins} wins, {draws} draws, {losses} losses of {games} ({100 * wins / games:.0f}% won); "
              f"mean disc margin {statistics.mean(discs):+.1f}; slowest move {slowest:.2f} s (limit {limit:g} s)")


def bench_evalcost(count: int, seconds: float) -> None:
    section(f"evaluation cost: {count * 4} positions (plies 10-40), and engine speed ({count} positions, {seconds:g} s each)")
    positions = [s.mover_bits() for plies in (10, 20, 30, 40) for s in midgame_positions(count, plies)]
    wall = time.perf_counter()
    learned = PatternEvaluator()
    print(f"weights loaded in {time.perf_counter() - wall:.3f} s")
    rows = {}
    evaluators = (("hand", HandEvaluator()), ("patterns", learned))
    # the fastest of 10 interleaved rounds: what the code costs, not what the machine's load adds
    best = {name: float("inf") for name, _ in evaluators}
    for _ in range(10):
        for name, ev in evaluators:
            f = ev.evaluate
            cpu = time.process_time()
            for _ in range(40):
                for p, o in positions:
                    f(p, o)
            best[name] = min(best[name], (time.process_time() - cpu) / (40 * len(positions)))
    for name, ev in evaluators:
        per = best[name]
        rates = []
        for state in midgame_positions(count):
            p, o = state.mover_bits()
            engine = Engine(ev)
            cpu = time.process_time()
            info = engine.search(p, o, time.perf_counter() + seconds, soft_fraction=1.0)
            rates.append(info.nodes / max(time.process_time() - cpu, 1e-9))
        rows[name] = per
        print(f"{name:8}: {per * 1e6:6.1f} µs CPU an evaluation (fastest of 10 rounds); engine "
              f"{statistics.median(rates):,.0f} nodes/s CPU (median)", flush=True)
    print(f"patterns cost {rows['patterns'] / rows['hand']:.1f}× the hand evaluation")


PATTERNS_FILE = str(Path(__file__).resolve().parents[1] / "bots" / "othello" / "patterns.bin")


def fingerprint(name: str) -> str:
    """A file named by the first 12 hex digits of its SHA-256 (and its ProbCut file's, for weights);
    a word that is not a file stays as it is."""
    path = Path(name)
    if not path.is_file():
        return name
    parts = [path, path.with_suffix(".probcut.json")] if path.suffix == ".bin" else [path]
    return path.name + ":" + "+".join(hashlib.sha256(part.read_bytes()).hexdigest()[:12]
                                      for part in parts if part.is_file())


class Tally:
    """A versus match's games: wins, draws, losses and disc margins, from the learned side's view.

    With a ledger (``--ledger FILE``) every finished game is appended to FILE as one JSON line
    carrying the match's description, and a game already there for the same description is not
    played again but counted: a long match (64 games at 10 s a move are about 10 CPU-hours) can be
    stopped and taken up again, and split over processes that share the file."""

    def __init__(self, description: str, ledger: str | None) -> None:
        self.description = description
        self.ledger = Path(ledger) if ledger else None
        self.games: dict[tuple[int, int], dict] = {}
        if self.ledger and self.ledger.exists():
            self._read()

    def _read(self) -> None:
        for number, line in enumerate(self.ledger.read_text().splitlines(), 1):
            try:
                game = json.loads(line)
            except ValueError:
                print(f"  {self.ledger}:{number}: not a finished game's line, left out", flush=True)
                continue
            if isinstance(game, dict) and game.get("match") == self.description:
                self.games[(game["opening"], game["side"])] = game

    def played(self, n: int, side: int) -> bool:
        return (n, side) in self.games

    def add(self, n: int, side: int, discs: int, seconds: float, cpu_seconds: float,
            slowest_empties: int | None = None) -> None:
        """A finished game: the learned side's margin and its longest move, by the wall clock and
        in CPU time (and the empties of that move's position)."""
        game = {"match": self.description, "opening": n, "side": side, "discs": discs,
                "slowest": round(seconds, 3), "slowest_cpu": round(cpu_seconds, 3),
                "finished": time.strftime("%Y-%m-%d %H:%M:%S")}
        if slowest_empties is not None:
            game["slowest_cpu_empties"] = slowest_empties
        self.games[(n, side)] = game
        if self.ledger:
            # one write of one line in append mode: processes sharing the ledger do not interleave
            with open(self.ledger, "a") as handle:
                handle.write(json.dumps(game) + "\n")

    def counts(self, openings) -> tuple[int, int, int, list[int], str]:
        """Wins, draws, losses, the margins, and the longest move (wall clock, and CPU time where
        the ledger has it)."""
        mine = [self.games[(n, side)] for n in openings for side in (0, 1) if (n, side) in self.games]
        discs = [game["discs"] for game in mine]
        wins = sum(d > 0 for d in discs)
        draws = sum(d == 0 for d in discs)
        slowest = f"{max((game['slowest'] for game in mine), default=0.0):.2f} s wall clock"
        cpu = [game["slowest_cpu"] for game in mine if "slowest_cpu" in game]
        if cpu:
            slowest += f", {max(cpu):.2f} s CPU" + (f" (of {len(cpu)} games)" if len(cpu) < len(mine) else "")
        return wins, draws, len(discs) - wins - draws, discs, slowest

    def report(self, openings, limit: float) -> None:
        wins, draws, losses, discs, slowest = self.counts(openings)
        games = wins + draws + losses
        if not games:
            print("no games played")
            return
        share = (wins + draws / 2) / games
        # the spread: the standard error of the mean points a game (wins 1, draws 1/2, losses 0)
        per_game = [1.0] * wins + [0.5] * draws + [0.0] * losses
        error = statistics.stdev(per_game) / games ** 0.5 if games > 1 else 0.0
        margin_error = statistics.stdev(discs) / games ** 0.5 if games > 1 else 0.0
        missing = 2 * len(openings) - games
        print(f"learned {wins} wins, {draws} draws, {losses} losses of {games}: {100 * share:.1f}% of points "
              f"(± {100 * error:.1f} % standard error); mean disc margin {statistics.mean(discs):+.1f} "
              f"(± {margin_error:.1f}); slowest move {slowest} (limit {limit:g} s)"
              + (f"; {missing} games of these openings not played yet" if missing else ""))


def bench_ledger(ledger: str | None) -> None:
    """What a ledger (``versus --ledger FILE``) holds, match by match, without playing a game:
    the tally so far of a match still being played, or taken up another day."""
    if not ledger or not Path(ledger).is_file():
        raise SystemExit("ledger: name the file with --ledger FILE")
    keys = []
    for line in Path(ledger).read_text().splitlines():
        try:
            key = json.loads(line).get("match")
        except (ValueError, AttributeError):
            continue
        if key not in keys:
            keys.append(key)
    for key in keys:
        tally = Tally(key, ledger)
        numbers = sorted({n for n, _side in tally.games})
        section(f"{key}: {len(tally.games)} games from {len(numbers)} openings ({min(numbers)}-{max(numbers)})")
        limit = float(key.split(" s a move")[0]) if " s a move" in key else float("nan")
        tally.report(numbers, limit)


def cpu_timed(bot: AlphaBetaBot) -> AlphaBetaBot:
    """``bot`` keeping its longest move in CPU time (``cpu_slowest``): under load the wall clock's
    figure says little of a limit counted in CPU time."""
    choose = bot.choose
    bot.cpu_slowest = 0.0
    bot.cpu_slowest_at = None  # the empties of the position it was in

    def measured(state, ctx):
        start = time.process_time()
        try:
            return choose(state, ctx)
        finally:
            took = time.process_time() - start
            if took > bot.cpu_slowest:
                bot.cpu_slowest, bot.cpu_slowest_at = took, 64 - sum(state.counts())

    bot.choose = measured
    return bot


def bench_versus(openings: range, limit: float, hand_depth: int | None, learned_depth: int | None = None,
                 weights: str | None = None, against_weights: str | None = None,
                 engine: str | None = None, against_engine: str | None = None,
                 ledger: str | None = None) -> None:
    """The learned evaluation (on ``engine``: compiled or python, default the bot's own) against
    the hand one, another weights file, or (``against_engine``) the same learned evaluation on
    another engine; with ``ledger``, restartable (``Tally``)."""
    game = Othello()

    def opponent_evaluator():
        """The hand evaluation, or with ``--against-weights`` (or ``--against-engine``) a learned one
        (with its ProbCut unless ``--no-probcut``)."""
        if against_weights or against_engine:
            return PatternEvaluator(path=against_weights, probcut=PROBCUT)
        return HandEvaluator()

    def side_bot(depth, make_evaluator, kind, build=None, timing=None, book=False):
        if depth:
            bot = FixedDepthBot(game, depth, make_evaluator())
        else:
            bot = AlphaBetaBot(game, limit, evaluator=make_evaluator(), book=book)
            bot.clock = CLOCK
        on_engine(bot, kind, build)
        if timing:
            bot.engine.timing = timing
        return cpu_timed(bot)

    other = f"learned ({against_weights or 'patterns.bin'})" if against_weights or against_engine else "hand evaluation"
    if against_engine:
        other += f" on the {against_engine} engine"
    if AGAINST_CORE is not None:
        other += f" built from {AGAINST_CORE.__file__}"
    mine_timing, their_timing = TIMING
    if their_timing:
        other += f" timed by {their_timing}"
    against = f"{other} at depth {hand_depth} (any time)" if hand_depth else f"{other} at {limit:g} s"
    mine = f"depth {learned_depth} (any time)" if learned_depth else f"{limit:g} s a move"
    if engine:
        mine += f" on the {engine} engine"
    if mine_timing:
        mine += f" timed by {mine_timing}"
    title = f"learned ({weights or 'patterns.bin'}) at {mine} vs {against}"
    section(f"{title}: openings {openings.start}-{openings.stop - 1} × both colours")
    clock = "CPU" if CLOCK is time.process_time else "wall"
    # the ledger's key: what decides the games, the files by their contents (paths may move)
    files = [weights or PATTERNS_FILE, compiled._core.__file__ if compiled.available() else "python",
             against_weights or (PATTERNS_FILE if against_engine else "hand"),
             AGAINST_CORE.__file__ if AGAINST_CORE is not None else against_engine or "-"]
    key = (f"{mine} vs {against_engine or 'own engine'} {'depth ' + str(hand_depth) if hand_depth else ''}; "
           f"{clock} clock; probcut {PROBCUT} {PROBCUT_T}; " + " ".join(fingerprint(f) for f in files)
           + (f"; against timed by {their_timing}" if their_timing else ""))
    shipped_book = opening_book()
    if BOOK and shipped_book.serves(limit):
        key += f"; book {shipped_book.digest()} ({len(shipped_book)} positions, {shipped_book.seconds:g} s)"
    if OPENINGS_FROM_BOOK:
        key += f"; openings: the opponent's first {OPENINGS_FROM_BOOK} moves from the book {shipped_book.digest()}"
    tally = Tally(key, ledger)
    for n in openings:
        start = game.initial_state() if OPENINGS_FROM_BOOK else opening(n, 6)
        for side in (0, 1):
            if tally.played(n, side):
                continue
            learned = side_bot(learned_depth, lambda: PatternEvaluator(path=weights, probcut=PROBCUT), engine,
                               book=BOOK)
            if PROBCUT_T is not None:
                learned.engine.probcut_t = PROBCUT_T
            if mine_timing:
                learned.engine.timing = mine_timing
            hand = side_bot(hand_depth, opponent_evaluator, against_engine, AGAINST_CORE, their_timing)
            if OPENINGS_FROM_BOOK:
                book_openings(hand, shipped_book, OPENINGS_FROM_BOOK, random.Random(f"{n}-{side}"))
            bots = (learned, hand) if side == 0 else (hand, learned)
            rngs = (random.Random(n * 2 + side), random.Random(n * 2 + side + 99))
            outcome = play_out(game, bots, random.Random(0), rngs, None, state=start)
            nb, no = outcome.state.counts()
            margin = nb - no if side == 0 else no - nb
            tally.add(n, side, margin, outcome.move_seconds[side], learned.cpu_slowest, learned.cpu_slowest_at)
            wins, draws, losses, _, _ = tally.counts(openings)
            print(f"  opening {n} learned {'blue' if side == 0 else 'orange'}: {margin:+d} discs "
                  f"({wins}-{draws}-{losses} so far)", flush=True)
    tally.report(openings, limit)


def book_openings(bot: AlphaBetaBot, book, moves: int, rng: random.Random) -> None:
    """``bot``'s first ``moves`` moves drawn at random (``rng``) from the book's reasonable moves
    where the book holds the position (its own choice elsewhere): games from the first position
    that differ, along the lines the book was built for."""
    choose = bot.choose
    left = [moves]

    def opening_move(state, ctx):
        if left[0] > 0:
            left[0] -= 1
            reasonable = book.reasonable(*state.mover_bits())
            if reasonable:
                return rng.choice(reasonable)
        return choose(state, ctx)

    bot.choose = opening_move


def engine_for(kind: str, evaluator, **options):
    """An engine of the kind asked (``compiled`` or ``python``) for ``evaluator``."""
    if kind == "compiled":
        if not compiled.available():
            raise SystemExit("the compiled core is not built")
        return compiled.CompiledEngine(evaluator, **options)
    return Engine(evaluator, **options)


def on_engine(bot: AlphaBetaBot, kind: str | None, build=None) -> None:
    """Put ``bot`` on the engine of ``kind`` (None: leave the bot's own); ``build``: the compiled
    core of another commit (``--against-core``)."""
    if build is not None:
        bot.engine = compiled.CompiledEngine(bot.engine.evaluator, build=build)
    elif kind:
        bot.engine = engine_for(kind, bot.engine.evaluator)


class FixedDepthBot(AlphaBetaBot):
    """The engine (the hand evaluation unless another is given) searching to a fixed depth
    whatever the time (the exact endgame as the bot's own)."""

    def __init__(self, game: Othello, depth: int, evaluator=None) -> None:
        # explicit: AlphaBetaBot's own default is the learned evaluation
        super().__init__(game, 1000.0, evaluator=evaluator or HandEvaluator(), book=False)
        self.depth = depth

    def _choose(self, state, ctx):
        moves = self.game.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        p, o = state.mover_bits()
        if 64 - (p | o).bit_count() <= 12:
            return self.engine.solve(p, o).move
        return self.engine.search(p, o, float("inf"), max_depth=self.depth).move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", default=[],
                        help="perft speed depth endgame match (default all); limits timing ingame (--positions moves) evalcost versus ledger fixed")
    parser.add_argument("--engines", default=None,
                        help="perft, speed, depth, endgame, limits: compiled,python (default: both where the core is built)")
    parser.add_argument("--perft-depth", type=int, default=9)
    parser.add_argument("--python-perft-depth", type=int, default=8)
    parser.add_argument("--python-max-empties", type=int, default=16,
                        help="endgame: the Python engine solves only up to this many empties")
    parser.add_argument("--move-limits", default="0.1,1,10", help="limits: the time limits tried")
    parser.add_argument("--limit-positions", type=int, default=8, help="limits: positions a limit")
    parser.add_argument("--load", type=int, default=2, help="limits: busy processes added to the machine's load")
    parser.add_argument("--positions", type=int, default=7, help="midgame positions for speed and depth")
    parser.add_argument("--limits", default="1,10", help="time limits for the depth section")
    parser.add_argument("--fixed-depth", type=int, default=13, help="fixed: the depth searched to")
    parser.add_argument("--empties", default="10,12,14,16,18,20", help="empties for the endgame section")
    parser.add_argument("--endgame-positions", type=int, default=5)
    parser.add_argument("--wld", action="store_true", help="also time the win/loss/draw solve (window -1..1)")
    parser.add_argument("--cores", default="1,2", help="endgame solves on one core, on two (helper processes), or both")
    parser.add_argument("--openings", type=int, default=10)
    parser.add_argument("--match-limit", type=float, default=1.0)
    parser.add_argument("--opponents", default="greedy,random")
    parser.add_argument("--hand-depth", type=int, default=0,
                        help="versus: the opponent searches to this fixed depth instead of the time limit")
    parser.add_argument("--learned-depth", type=int, default=0,
                        help="versus: the learned evaluation searches to this fixed depth instead of the time limit")
    parser.add_argument("--weights", default=None, help="versus: a weights file instead of the shipped patterns.bin")
    parser.add_argument("--against-weights", default=None,
                        help="versus: the opponent plays the learned evaluation with this weights file "
                             "(and its ProbCut calibration) instead of the hand evaluation")
    parser.add_argument("--engine", choices=("compiled", "python"), default=None,
                        help="versus and match: the learned side's engine (default: the bot's own)")
    parser.add_argument("--against-engine", choices=("compiled", "python"), default=None,
                        help="versus: the opponent is the learned evaluation (or --against-weights) on this engine")
    parser.add_argument("--against-core", default=None, metavar="SO",
                        help="versus: the opponent's compiled core is this build of _core.c (a _core*.so built "
                             "from another commit, e.g. in a git worktree), with --against-engine compiled; "
                             "fixed: this build is timed too, beside the engines of --engines")
    parser.add_argument("--timing", choices=TIMINGS, default=None,
                        help="versus: the learned side's time manager (default: the engine's own, predicted)")
    parser.add_argument("--against-timing", choices=TIMINGS, default=None,
                        help="versus: the opponent's time manager (fraction: the engine before the time manager)")
    parser.add_argument("--no-book", action="store_true",
                        help="versus: the learned side without its opening book")
    parser.add_argument("--openings-from-book", type=int, default=0, metavar="R",
                        help="versus: games from the first position, the opponent's first R moves drawn "
                             "from the book's reasonable moves (instead of 6 random plies)")
    parser.add_argument("--first-opening", type=int, default=0,
                        help="versus: start at this opening (to split a match over processes)")
    parser.add_argument("--ledger", default=None, metavar="FILE",
                        help="versus: append each finished game to FILE (JSON lines) and skip the games "
                             "already there for the same match: a long match stopped and taken up again")
    parser.add_argument("--evaluation", choices=("default", "hand", "learned"), default="default",
                        help="speed, depth, match: the engine's evaluation (default: the alphabeta bot's own)")
    parser.add_argument("--no-probcut", action="store_true",
                        help="the learned evaluation without Multi-ProbCut (speed, depth, match, versus)")
    parser.add_argument("--probcut-t", type=float, default=None,
                        help="versus: the learned engine's ProbCut confidence (deviations; the engine's default otherwise)")
    parser.add_argument("--cpu", action="store_true",
                        help="count the bot's time limit in CPU seconds (what an unloaded core gives)")
    args = parser.parse_args()
    global CLOCK, EVALUATION, PROBCUT, PROBCUT_T, ENGINES, MATCH_ENGINE, AGAINST_CORE, TIMING
    TIMING = (args.timing, args.against_timing)
    global BOOK, OPENINGS_FROM_BOOK
    BOOK, OPENINGS_FROM_BOOK = not args.no_book, args.openings_from_book
    if args.against_core:
        AGAINST_CORE = compiled.load_build(args.against_core)
    ENGINES = (args.engines.split(",") if args.engines
               else ["compiled", "python"] if compiled.available() else ["python"])
    MATCH_ENGINE = args.engine
    EVALUATION = args.evaluation
    PROBCUT_T = args.probcut_t
    PROBCUT = not args.no_probcut
    if args.cpu:
        CLOCK = time.process_time
        parallel_solve.disable()  # helpers' time is not this process's CPU time
    chosen = set(args.sections) or {"perft", "speed", "depth", "endgame", "match"}
    always_cpu = {"timing", "ingame", "fixed"}  # these sections count CPU time whatever --cpu says
    if args.cpu:
        clock = "CPU seconds (--cpu)"
    elif chosen <= always_cpu:
        clock = "CPU seconds (these sections always count CPU time)"
    elif chosen & always_cpu:
        clock = f"wall-clock seconds ({', '.join(sorted(chosen & always_cpu))}: CPU seconds)"
    else:
        clock = "wall-clock seconds"
    print(f"Othello bench · {time.strftime('%Y-%m-%d %H:%M')} · Python {sys.version.split()[0]} · "
          f"time limits in {clock} · load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores · engines: {', '.join(engines_text(k) for k in ENGINES)} · "
          f"the bot's own: {compiled.engine_name()}")
    if "perft" in chosen:
        bench_perft(args.perft_depth, args.python_perft_depth)
    if "speed" in chosen:
        bench_speed(args.positions, 2.0)
    if "depth" in chosen:
        bench_depth(args.positions, [float(x) for x in args.limits.split(",")])
    if "timing" in chosen:
        bench_timing(args.positions, [float(x) for x in args.limits.split(",")])
    if "ingame" in chosen:
        bench_ingame(args.positions, [float(x) for x in args.limits.split(",")])
    if "fixed" in chosen:
        bench_fixed(args.positions, args.fixed_depth)
    if "endgame" in chosen:
        bench_endgame([int(x) for x in args.empties.split(",")], args.endgame_positions, args.wld,
                      [int(x) for x in args.cores.split(",")], args.python_max_empties)
    if "limits" in chosen:
        bench_limits([float(x) for x in args.move_limits.split(",")], args.limit_positions, args.load)
    if "match" in chosen:
        bench_match(args.openings, args.match_limit, args.opponents.split(","))
    if "evalcost" in chosen:
        bench_evalcost(args.positions, 2.0)
    if "ledger" in chosen:
        bench_ledger(args.ledger)
    if "versus" in chosen:
        bench_versus(range(args.first_opening, args.first_opening + args.openings), args.match_limit,
                     args.hand_depth or None, args.learned_depth or None, args.weights, args.against_weights,
                     args.engine, args.against_engine, args.ledger)


if __name__ == "__main__":
    main()
