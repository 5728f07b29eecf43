"""Contest seasons (``arcade contest``): figures.

``term``: a simulated term of the STATS 306 contest (D-Football, n = 11, the ``stats306``
preset, in the sandbox): ``--teams`` teams each submitting ``--submissions`` times at random
moments (seeded) within ``--term`` seconds, a mix of Python strategies and the course's R ones
(``tests/course_bots/stats306_*``: each file made a team's own by a comment), while
``run --watch`` plays, once with ``--jobs 2`` and once on a 2-worker loopback Dask cluster, and a
reader polls the board every second as the live board does. Prints, each way: the games, the time
from each accepted submission to its place on the board (every pair with the field's current
submissions played), the time the run spent writing the database (each game a transaction: its
total, mean and longest, against the run's time), the run's own CPU time a game (the coordinator's:
what caps how many workers one run can feed), and the board's reads. The course's own sizes
(``--teams 60 --games 100``) are days on this machine: the defaults are a scaled-down term.

    python bench/contest.py term [--teams 6] [--submissions 3] [--games 4] [--term 60] [--seed 1] [--ways jobs2,cluster]

``ladder``: how well a ladder (``format = "ladder"``, ``arcade.contest.ladder``) orders a field
against all pairs, for the games each plays. A field of 40 entries with true strengths drawn from
a normal distribution (spread ``--spread``, on OpenSkill's scale: β = 25/6), each game's winner
drawn from the model's own win chance; all pairs (2 games a pair, 1,560 games), the ladder at
``ladder_games`` 40 and 60 (2 games a meeting), and the same budgets with the pairs drawn at random
instead of chosen (each round a random matching). Prints the games played and the Spearman
correlation of the final order with the true one, averaged over ``--seeds`` fields.

    python bench/contest.py ladder [--seeds 10] [--spread 4,1.5]

``cost``: a game's cost in a season against a match (issue #45): the same two sandboxed Python
toothpicks bots, ``--games`` games, played by ``arcade match`` and by ``arcade contest run --jobs
1`` (a season of those two teams: one pair, its games in chunks), each command a process of its
own, ``--repeats`` times. Prints each way's wall-clock seconds and CPU seconds a game, the CPU read
from a cgroup made around the command (cgroup v1's ``cpuacct``, or v2's ``cpu.stat``; as root),
else the command's and its waited children's ``rusage``. ``--root`` runs another checkout's code
(a before-and-after: ``git archive HEAD | tar -x -C /tmp/before``).

    python bench/contest.py cost [--games 40] [--repeats 3] [--root DIR]

``exact``: Hog's exact scoring against sampled games (issue #45): two Hog strategies (each a
function of the scores, as the course's final strategies are) in a ``cs61a-hog`` season, its
pair computed from the two tables (each asked in two fresh sandboxed processes), against a
season of the same two played as ``--games`` sampled games (1,000 by default), each ``contest
run --jobs 1`` a process of its own, ``--repeats`` times. Prints each way's wall-clock and CPU
seconds (CPU as ``cost`` reads it) and exact's share of sampled's, and the two figures each way
gives the pair.

    python bench/contest.py exact [--games 1000] [--repeats 3] [--root DIR]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arcade.contest import ladder as lad  # noqa: E402
from arcade.contest.config import Config  # noqa: E402

FIELD = 40


def _winner(rng: random.Random, truth: dict, a: str, b: str) -> int:
    chance = 1 / (1 + math.exp((truth[b] - truth[a]) / (math.sqrt(2) * lad.BETA)))
    return 0 if rng.random() < chance else 1


def spearman(score: dict, truth: dict) -> float:
    order = sorted(score, key=lambda d: -score[d])
    place = {d: i for i, d in enumerate(sorted(truth, key=lambda d: -truth[d]))}
    n = len(truth)
    return 1 - 6 * sum((i - place[d]) ** 2 for i, d in enumerate(order)) / (n * (n * n - 1))


def all_pairs(truth: dict, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    wins = dict.fromkeys(truth, 0.0)
    names = sorted(truth)
    games = 0
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for _ in range(2):
                games += 1
                wins[a if _winner(rng, truth, a, b) == 0 else b] += 1
    return games, spearman({d: w + rng.random() * 0.01 for d, w in wins.items()}, truth)  # ties: at random


def a_ladder(truth: dict, budget: int, seed: int, chosen: bool = True) -> tuple[int, float]:
    """A ladder's games and order's correlation; ``chosen=False``: a random matching each round
    until every entry has played ``budget`` games."""
    config = Config(game="othello", format="ladder", games=2, ladder_games=budget)
    rng = random.Random(seed)
    rounds: list = []
    results: dict = {}
    while True:
        rated = lad.ratings(rounds, results)
        if chosen:
            planned = lad.plan(config, rounds, list(truth), rated, seed)
        else:
            names = sorted(truth)
            rng.shuffle(names)
            done = min(rated.get(d, lad.Rating()).games for d in names) >= budget
            planned = None if done else lad.Round(len(rounds) + 1, tuple(
                lad.Meeting(*sorted(names[i:i + 2]), 1 + 2 * len(rounds), 2) for i in range(0, len(names) - 1, 2)))
        if planned is None:
            break
        rounds.append(planned)
        for m in planned.meetings:
            for number in m.numbers:
                results[(m.a, m.b, number)] = _winner(rng, truth, m.a, m.b)
    rated = lad.ratings(rounds, results)
    return len(results), spearman({d: r.mu for d, r in rated.items()}, truth)


def ladder_figures(seeds: int, spreads: list[float]) -> None:
    ways = {"all pairs": lambda t, s: all_pairs(t, s)}
    for budget in (40, 60):
        ways[f"ladder, {budget} games each"] = lambda t, s, b=budget: a_ladder(t, b, s)
        ways[f"random pairs, {budget} games each"] = lambda t, s, b=budget: a_ladder(t, b, s, chosen=False)
    for spread in spreads:
        print(f"{FIELD} entries, strengths' spread {spread:g} (beta {lad.BETA:.2f}), {seeds} fields:")
        for name, way in ways.items():
            figures = []
            for seed in range(seeds):
                rng = random.Random(1000 + seed)
                truth = {f"e{i:02d}": rng.gauss(25, spread) for i in range(FIELD)}
                figures.append(way(truth, seed))
            games = sum(g for g, _ in figures) / seeds
            print(f"  {name:28} {games:7.0f} games   Spearman {sum(r for _, r in figures) / seeds:.3f}")


PYTHON_STRATEGIES = {
    "far": "def strategy(game):\n    return valid_moves(game)[-1]\n",
    "near": "def strategy(game):\n    return valid_moves(game)[0]\n",
    "middle": "def strategy(game):\n    moves = valid_moves(game)\n    return moves[len(moves) // 2]\n",
    "lucky": "import random\n\ndef strategy(game):\n    return random.choice(valid_moves(game))\n",
}
R_STRATEGIES = {
    "random_move": ("stats306_course/course_strategies.R", "random_move"),
    "prefer_jumps": ("stats306_course/course_strategies.R", "prefer_jumps"),
    "my_strategy": ("stats306_student/my_strategy.R", "my_strategy"),
}


def strategy_file(where: Path, team: str, k: int, name: str) -> str:
    """Team ``team``'s ``k``-th submission, strategy ``name``, in a folder of its own (its
    bytes its own: a comment names the team)."""
    import shutil

    folder = where / f"{team}-{k}"
    folder.mkdir(parents=True)
    if name in PYTHON_STRATEGIES:
        text = "from games.dfootball import valid_moves\n" + PYTHON_STRATEGIES[name]
        (folder / "strategy.py").write_text(text + f"\n# {team}, submission {k}\n")
        return str(folder / "strategy.py")
    source, function = R_STRATEGIES[name]
    for path in (ROOT / "tests" / "course_bots" / source).parent.iterdir():
        if path.is_file():
            shutil.copy(path, folder / path.name)
    target = folder / Path(source).name
    target.write_text(target.read_text() + f"\n# {team}, submission {k}\n")
    return f"{target}:{function}"


class Timings:
    """Seconds spent in the database's writes and the board's reads, each kept."""

    def __init__(self) -> None:
        import threading

        self.writes: list[float] = []
        self.reads: list[float] = []
        self.busy: list[float] = []
        self.lock = threading.Lock()

    def wrap_writes(self):
        import time as clock

        from arcade.contest.db import Database

        real = Database.add_games
        timings = self

        def add_games(self, a, b, games):
            started = clock.perf_counter()
            try:
                return real(self, a, b, games)
            finally:
                with timings.lock:
                    timings.writes.append(clock.perf_counter() - started)

        Database.add_games = add_games
        from arcade.contest import run

        real_play = run.play_pairs

        def play_pairs(*args, **kwargs):
            started = clock.perf_counter()
            try:
                return real_play(*args, **kwargs)
            finally:
                timings.busy.append(clock.perf_counter() - started)

        run.play_pairs = play_pairs

        def unwrap() -> None:
            Database.add_games = real
            run.play_pairs = real_play

        return unwrap


def placed(folder: Path, games: int, pending: dict, done: dict, now: float) -> None:
    """Each pending submission (``digest -> (team, when)``) whose pairs with every current
    submission hold their games: its place is on the board (``done[digest] = seconds``); one
    replaced before that leaves ``pending``."""
    from arcade.contest.db import Database
    from arcade.contest.evidence import pair_of

    with Database(folder) as db:
        current = {s.digest for s in db.current()}
        counts = db.counts()
    for digest, (team, when) in list(pending.items()):
        if digest not in current:
            del pending[digest]
            continue
        if all(counts.get(pair_of(digest, other), 0) >= games for other in current - {digest}):
            done[digest] = now - when
            del pending[digest]


def term_way(way: str, where: Path, args, schedule: list, cluster: str | None) -> dict:
    """One simulated term (``schedule``: ``(seconds, team, k, strategy)``) with ``run --watch``
    on ``--jobs 2`` or the ``cluster``; its figures."""
    import threading
    import time as clock
    from datetime import datetime, timedelta, timezone

    from arcade.contest.config import load
    from arcade.contest.db import Database
    from arcade.contest.run import run
    from arcade.contest.boardmodel import build
    from arcade.contest.submit import submit
    from arcade.cli import main as arcade

    folder = where / way / "c"
    import contextlib
    import io

    closes = datetime.now(timezone.utc) + timedelta(seconds=args.term + 10)
    with contextlib.redirect_stdout(io.StringIO()):
        assert arcade(["contest", "new", str(folder), "--preset", "stats306", "--games", str(args.games),
                       "--closes", closes.isoformat(timespec="seconds")]) == 0
    config = load(folder)
    timings = Timings()
    unwrap = timings.wrap_writes()
    result: dict = {}
    stop = threading.Event()

    def play() -> None:
        started, cpu = clock.perf_counter(), clock.process_time()
        result["games"] = run(folder, jobs=2 if cluster is None else 1, watch=True, cluster=cluster,
                              say=lambda line: None, poll=0.2)
        result["run seconds"], result["run cpu"] = clock.perf_counter() - started, clock.process_time() - cpu

    def read_board() -> None:
        while not stop.is_set():
            started = clock.perf_counter()
            with Database(folder) as db:
                build(folder, db, config)
            timings.reads.append(clock.perf_counter() - started)
            stop.wait(1.0)

    runner = threading.Thread(target=play)
    reader = threading.Thread(target=read_board, daemon=True)
    begun = clock.perf_counter()
    runner.start()
    reader.start()
    pending: dict = {}
    done: dict = {}
    verdicts = {"accepted": 0, "rejected": 0}
    for moment, team, k, name in schedule:
        while clock.perf_counter() - begun < moment:
            placed(folder, args.games, pending, done, clock.perf_counter())
            clock.sleep(0.2)
        spec = strategy_file(where / way / "submissions", team, k, name)
        at = clock.perf_counter()
        verdict = submit(folder, team, spec)
        verdicts["accepted" if verdict.accepted else "rejected"] += 1
        if verdict.accepted:
            pending[verdict.digest] = (team, at)
    while runner.is_alive():
        placed(folder, args.games, pending, done, clock.perf_counter())
        runner.join(0.2)
    placed(folder, args.games, pending, done, clock.perf_counter())
    stop.set()
    unwrap()
    return {**result, "verdicts": verdicts, "placed": sorted(done.values()), "writes": timings.writes,
            "reads": timings.reads, "busy": sum(timings.busy)}


def show_term(way: str, figures: dict) -> None:
    import statistics

    games, seconds, busy = figures["games"], figures["run seconds"], figures["busy"]
    writes, reads, waits = figures["writes"], figures["reads"], figures["placed"]
    print(f"{way}: {figures['verdicts']['accepted']} submissions accepted, {figures['verdicts']['rejected']} rejected; "
          f"{games} games, played in {busy:.0f} s ({games / max(busy, 1e-9):.2f} games/s; the run lasted {seconds:.0f} s "
          f"to the close)")
    if waits:
        print(f"  submission -> its place on the board: median {statistics.median(waits):.1f} s, "
              f"longest {max(waits):.1f} s ({len(waits)} placed)")
    if writes:
        print(f"  database writes: {len(writes)}, {sum(writes):.2f} s in all ({100 * sum(writes) / max(busy, 1e-9):.2f} % "
              f"of the time games were played), mean {1000 * statistics.mean(writes):.2f} ms, longest {1000 * max(writes):.1f} ms")
    print(f"  this process's CPU (the run's coordinator, the submits' and reads' side): {figures['run cpu']:.1f} s, "
          f"{1000 * figures['run cpu'] / max(games, 1):.1f} ms a game")
    if reads:
        print(f"  board reads: {len(reads)}, mean {1000 * statistics.mean(reads):.1f} ms, longest {1000 * max(reads):.1f} ms")


def term(args) -> None:
    import tempfile

    rng = random.Random(args.seed)
    names = list(PYTHON_STRATEGIES) + list(R_STRATEGIES)
    teams = [f"team_{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(args.teams)]
    schedule = sorted((rng.uniform(0, args.term), team, k, rng.choice(names))
                      for team in teams for k in range(1, args.submissions + 1))
    print(f"a term of {args.teams} teams x {args.submissions} submissions within {args.term:g} s, "
          f"{args.games} games a pair (STATS 306's D-Football, n = 11, in the sandbox)")
    with tempfile.TemporaryDirectory(prefix="arcade-term-") as where:
        for way in args.ways.split(","):
            if way == "cluster":
                import distributed

                with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                              dashboard_address=":0") as cluster:
                    figures = term_way(way, Path(where), args, schedule, cluster.scheduler_address)
            else:
                figures = term_way(way, Path(where), args, schedule, None)
            show_term("--jobs 2" if way == "jobs2" else "2-worker Dask cluster", figures)


COST_BOTS = {
    "near": "def strategy(left):\n    return 1\n",
    "far": "import random\n\ndef strategy(left):\n    return min(left, random.choice((1, 2)))\n",
}


EXACT_BOTS = {
    "careful": (
        "def piggy(score):\n"
        "    digits = [int(d) for d in str(score)]\n"
        "    return max(digits) - min(digits) + 1 if score >= 10 else score + 1\n\n"
        "def final_strategy(score, opponent_score):\n"
        "    free = piggy(opponent_score)\n"
        "    if score + free >= 100 or free >= 8:\n"
        "        return 0\n"
        "    return 4 if score - opponent_score > 20 else 6\n"),
    "steady": "def final_strategy(score, opponent_score):\n    return 5 if score < 90 else 3\n",
}
"""``exact``'s two strategies: the shape of a course's final strategy (a free-points rule, then a
number of dice by the margin), and a plain one."""


class CpuCgroup:
    """A cgroup that counts the CPU of a command and everything it starts: v1's ``cpuacct``
    (bots' own cgroups leave it alone), else v2's ``cpu.stat``; ``None`` where none can be made."""

    def __init__(self) -> None:
        import os

        self.path: Path | None = None
        for base, name in ((Path("/sys/fs/cgroup/cpuacct"), "cpuacct.usage"), (Path("/sys/fs/cgroup/cpu,cpuacct"),
                                                                                 "cpuacct.usage"),
                           (Path("/sys/fs/cgroup"), "cpu.stat")):
            try:
                path = base / f"bench-{os.getpid()}"
                path.mkdir()
            except OSError:
                continue
            if (path / name).exists():
                self.path, self.name = path, name
                break
            path.rmdir()

    def join(self) -> None:
        if self.path is not None:
            (self.path / "cgroup.procs").write_text(str(__import__("os").getpid()))

    def seconds(self) -> float | None:
        if self.path is None:
            return None
        text = (self.path / self.name).read_text()
        if self.name == "cpu.stat":
            return int(text.split()[1]) / 1e6
        return int(text) / 1e9

    def remove(self) -> None:
        if self.path is not None:
            try:
                self.path.rmdir()
            except OSError:
                pass


def timed(argv: list[str], root: Path, env: dict) -> tuple[float, float, str]:
    """Run ``argv`` in ``root``; its wall-clock seconds, CPU seconds (its cgroup's, else rusage)
    and how the CPU was read."""
    import os
    import subprocess
    import time as clock

    group = CpuCgroup()
    try:
        before = group.seconds()
        started = clock.perf_counter()
        proc = subprocess.Popen(argv, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                preexec_fn=group.join if group.path is not None else None)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = clock.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(argv[3:])} failed: {proc.stderr.read().decode()[-2000:]}")
        after = group.seconds()
        if after is not None:
            return wall, after - before, "cgroup"
        return wall, usage.ru_utime + usage.ru_stime, "rusage"
    finally:
        group.remove()


ARCADE = [sys.executable, "-c", "import sys; sys.path.insert(0, '.'); from arcade.cli import entry_point; "
                                "entry_point()"]
"""The ``arcade`` command of the checkout the process runs in (``cwd``), as a user runs it."""


class Bench:
    """A bench's scratch folder (removed at the end), the environment its commands run in (the
    checkout ``root``'s code, bot logs in the folder) and its bots written there."""

    def __init__(self, root: str, bots: dict[str, str], file_name: str) -> None:
        import os
        import tempfile

        self.root = Path(root).resolve()
        self.scratch = tempfile.TemporaryDirectory()
        self.where = Path(self.scratch.name)
        self.env = {**os.environ, "ARCADE_BOT_LOGS": str(self.where / "logs"), "PYTHONPATH": str(self.root)}
        self.specs = {}
        for name, text in bots.items():
            (self.where / name).mkdir()
            (self.where / name / file_name).write_text(text)
            self.specs[name] = str(self.where / name / file_name)

    def season(self, name: str, made: list[str]) -> Path:
        """A season made with ``contest new … made`` (in the sandbox), every bot submitted as its team."""
        import subprocess

        folder = self.where / name
        subprocess.run([*ARCADE, "contest", "new", str(folder), *made, "--sandbox", "bwrap"], cwd=self.root,
                       env=self.env, check=True, stdout=subprocess.DEVNULL)
        for team, spec in self.specs.items():
            subprocess.run([*ARCADE, "contest", "submit", str(folder), team, spec], cwd=self.root, env=self.env,
                           check=True, stdout=subprocess.DEVNULL)
        return folder

    def timed(self, argv: list[str]) -> tuple[float, float, str]:
        return timed([*ARCADE, *argv], self.root, self.env)

    def __enter__(self) -> "Bench":
        return self

    def __exit__(self, *exc) -> None:
        self.scratch.cleanup()


def cost(args) -> None:
    import statistics

    root = Path(args.root).resolve()
    with Bench(args.root, COST_BOTS, "strategy.py") as bench:
        ways: dict[str, list] = {"arcade match": [], "contest run --jobs 1": []}
        for repeat in range(args.repeats):
            ways["arcade match"].append(bench.timed(["match", "toothpicks", *bench.specs.values(), "--games",
                                                     str(args.games), "--sandbox", "bwrap", "--seed", str(repeat)]))
            folder = bench.season(f"season-{repeat}", ["--preset", "toothpicks", "--games", str(args.games)])
            ways["contest run --jobs 1"].append(bench.timed(["contest", "run", str(folder), "--jobs", "1"]))
    print(f"{args.games} games of toothpicks between two sandboxed Python bots, {args.repeats} runs each "
          f"(median; code: {root}); CPU read by {ways['arcade match'][0][2]}:")
    match_wall = statistics.median(w for w, _, _ in ways["arcade match"]) / args.games
    match_cpu = statistics.median(c for _, c, _ in ways["arcade match"]) / args.games
    for way, runs in ways.items():
        wall = statistics.median(w for w, _, _ in runs) / args.games
        cpu = statistics.median(c for _, c, _ in runs) / args.games
        print(f"  {way:22} {wall * 1000:7.1f} ms wall a game ({wall / match_wall:.2f}x)   "
              f"{cpu * 1000:7.1f} ms CPU a game ({cpu / match_cpu:.2f}x)")


def exact(args) -> None:
    import statistics

    root = Path(args.root).resolve()
    ways: dict[str, list] = {f"{args.games:,} sampled games": [], "exact": []}
    figures: dict[str, float | None] = {}
    with Bench(args.root, EXACT_BOTS, "hog_contest.py") as bench:
        for repeat in range(args.repeats):
            for way, made in ((f"{args.games:,} sampled games", ["--game", "hog", "--option", "goal=100", "--games",
                                                                 str(args.games)]),
                              ("exact", ["--preset", "cs61a-hog"])):
                folder = bench.season(f"{way.split()[-1]}-{repeat}", made)
                ways[way].append(bench.timed(["contest", "run", str(folder), "--jobs", "1"]))
                figures[way] = _careful_share(folder)
    sampled = ways[f"{args.games:,} sampled games"]
    print(f"Hog (goal 100), {' against '.join(EXACT_BOTS)}, {args.repeats} runs each (median; code: {root}); "
          f"CPU read by {sampled[0][2]}:")
    base_wall = statistics.median(w for w, _, _ in sampled)
    base_cpu = statistics.median(c for _, c, _ in sampled)
    for way, runs in ways.items():
        wall = statistics.median(w for w, _, _ in runs)
        cpu = statistics.median(c for _, c, _ in runs)
        share = f"   {next(iter(EXACT_BOTS))}'s share {figures[way]:.4f}" if figures.get(way) is not None else ""
        print(f"  {way:22} {wall:7.2f} s wall ({wall / base_wall:.3f}x)   {cpu:7.2f} s CPU ({cpu / base_cpu:.3f}x)"
              f"{share}")


def _careful_share(folder: Path) -> float | None:
    """The first strategy's score on the board over the pair's games (its expected wins where
    the pair was computed)."""
    from arcade.contest.boardmodel import build

    board = build(folder)
    for row in board.rows:
        if row.team == next(iter(EXACT_BOTS)):
            return row.score / board.config.games
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    ladder = sub.add_parser("ladder", help="a ladder's order against all pairs'")
    ladder.add_argument("--seeds", type=int, default=10)
    ladder.add_argument("--spread", default="4,1.5")
    season = sub.add_parser("term", help="a simulated STATS 306 term")
    season.add_argument("--teams", type=int, default=6)
    season.add_argument("--submissions", type=int, default=3)
    season.add_argument("--games", type=int, default=4)
    season.add_argument("--term", type=float, default=60.0, help="seconds within which the submissions arrive")
    season.add_argument("--seed", type=int, default=1)
    season.add_argument("--ways", default="jobs2,cluster")
    costs = sub.add_parser("cost", help="a season's game against a match's")
    costs.add_argument("--games", type=int, default=40)
    costs.add_argument("--repeats", type=int, default=3)
    costs.add_argument("--root", default=str(ROOT), help="the checkout whose code runs the commands")
    exacts = sub.add_parser("exact", help="Hog's exact scoring against sampled games")
    exacts.add_argument("--games", type=int, default=1000)
    exacts.add_argument("--repeats", type=int, default=3)
    exacts.add_argument("--root", default=str(ROOT), help="the checkout whose code runs the commands")
    args = parser.parse_args(argv)
    if args.what == "exact":
        exact(args)
    elif args.what == "cost":
        cost(args)
    elif args.what == "term":
        term(args)
    elif args.what == "ladder":
        ladder_figures(args.seeds, [float(s) for s in args.spread.split(",")])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
