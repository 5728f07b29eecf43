"""Labels for the learned Othello evaluation that fit the compute: many positions, each labelled
by a shallow search of the current weights on the compiled core, or solved exactly where that is
cheap; sharded over processes, niced, seeded, restartable, and bounded in time.

    python -m training.othello.labels generate --shards 16 --minutes 7 --work /tmp/labels --out DIR
    python -m training.othello.labels fit DIR/labels-s1-*.txt.gz [...] --out W.bin
    python -m training.othello.labels error DIR/labels-s1-*.txt.gz --weights W.bin OTHER.bin

``generate`` plays self-play games from randomised openings (a seeded number of random plies,
``--opening-min`` to ``--opening-max``) and labels every position where the mover has a move:
with more than ``--solve-empties`` empties by the ``--depth``-ply search of ``--weights`` (with its
Multi-ProbCut; the score in hundredths of a disc for the mover: the learned evaluation's own
units), which also picks the move played; from ``--solve-empties`` empties on by the exact solve
(the final disc margin, times a hundred). ``--noise`` of the moves are random instead (in the
endgame too: more distinct positions, each still solved). This is bootstrapping as the strong
engines did it: each round's weights label the next round's data with a search deeper than
their own evaluation, and the fit learns to predict that search.

Game ``g`` (0, 1, 2, ...) is seeded by ``--seed`` and ``g`` alone and played on a fresh engine (its
tables carry over from move to move within the game), so a game is the same whatever machine,
shard count or restart plays it. Shard ``k`` of ``--shards`` plays the games ``g = k (mod shards)``
in order in its own process (``os.nice(19)``), appending each finished game to
``WORK/s{seed}-shard{k}of{shards}.txt`` as one block that ends with an ``end`` line; a game cut off
by ``--minutes`` is dropped. Run again with the same arguments, a shard keeps its finished games
(a torn last block is cut away) and goes on with the next: more minutes, more games. At the end
the finished games of every shard are packed, in game order, into ``OUT/labels-s{seed}-{i}.txt.gz`` (``PACK_POSITIONS`` a file)
with ``OUT/labels-s{seed}.json`` (the arguments, the weights' checksum, counts and timings).

A label line is ``g mover opponent score exact`` (the bitboards in hex, the score in hundredths of
a disc for the mover, exact 1 for a solved position). ``fit`` reads packs and shard files and fits
the weights by stage with ridge regularisation (``training.othello.train.fit``: conjugate
gradients, a stage learning from its neighbours half-weighted, mirror images tied), holding out the
last tenth of the games; it prints the held-out error by stage, against the exact solves where
the stage has them. ``error`` measures a weights file against exact solves on fresh games.

Needs only the repository and the compiled core (``bots/othello/_core.c``): where the core does not
import, ``generate`` first builds it in place (``python setup.py build_ext --inplace``, else the C
compiler called directly) and refuses to run on the pure-Python engine, which is a hundred times
slower. ``fit`` needs numpy and scipy (``.[train]``).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import multiprocessing
import os
import random
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACK_POSITIONS = 400_000
"""Positions a pack file holds at most (about 5 MB gzipped: small enough to travel)."""
WIN = 10_000
"""A decided score: ``WIN + 100 * margin`` (``bots.othello.eval.WIN``)."""


# -- the compiled core ----------------------------------------------------------------------------

def core_importable() -> bool:
    """The compiled core imports in a fresh interpreter (this one may have cached a failure)."""
    probe = subprocess.run([sys.executable, "-c", "import bots.othello._core"], cwd=ROOT,
                           capture_output=True)
    return probe.returncode == 0


def build_core() -> None:
    """Build ``bots.othello._core`` in place: setuptools' ``build_ext --inplace``, else the C
    compiler called directly with the flags of ``setup.py``. Raises SystemExit if neither works."""
    if core_importable():
        return
    print("building the compiled core (bots/othello/_core.c) in place", flush=True)
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=ROOT,
                   capture_output=True)
    if core_importable():
        return
    target = ROOT / "bots" / "othello" / ("_core" + sysconfig.get_config_var("EXT_SUFFIX"))
    cc = os.environ.get("CC", "cc")
    command = [cc, "-O2", "-ffp-contract=off", "-shared", "-fPIC", f"-I{sysconfig.get_paths()['include']}",
               str(ROOT / "bots" / "othello" / "_core.c"), "-o", str(target)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0 or not core_importable():
        raise SystemExit(f"the compiled core could not be built ({' '.join(command)}):\n{done.stderr[-2000:]}")


# -- one game -------------------------------------------------------------------------------------

def margin_score(score: int) -> int:
    """A search or solve score as hundredths of a disc: a decided one as its final margin."""
    if score >= WIN:
        return score - WIN
    if score <= -WIN:
        return score + WIN
    return score


def game_rng(seed: int, game: int) -> random.Random:
    return random.Random(seed * 1_000_003 + game)


def play_game(game: int, settings: dict, evaluator, stop_at: float) -> list[tuple[int, int, int, int]] | None:
    """Game ``game``'s labelled positions ``(mover, opponent, score, exact)``, or None if the
    clock passed ``stop_at`` first."""
    from bots.othello.compiled import CompiledEngine
    from games.othello import INITIAL_BLUE, INITIAL_ORANGE, flip_bits, legal_bits

    rng = game_rng(settings["seed"], game)
    engine = CompiledEngine(evaluator, parallel=False)
    opening = rng.randint(settings["opening_min"], settings["opening_max"])
    p, o = INITIAL_BLUE, INITIAL_ORANGE
    ply = 0
    rows: list[tuple[int, int, int, int]] = []
    while True:
        moves = legal_bits(p, o)
        if not moves:
            if not legal_bits(o, p):
                return rows
            p, o = o, p
            continue
        squares = [s for s in range(64) if moves >> s & 1]
        if ply < opening:
            move = rng.choice(squares)
        else:
            if time.time() > stop_at:
                return None
            move, score, exact = label(engine, p, o, settings)
            rows.append((p, o, score, exact))
            if rng.random() < settings["noise"]:
                move = rng.choice(squares)
        f = flip_bits(p, o, move)
        p, o = o ^ f, p | f | (1 << move)
        ply += 1


def label(engine, p: int, o: int, settings: dict) -> tuple[int, int, int]:
    """(the best move, its score in hundredths of a disc, exact) for a position with moves."""
    empties = 64 - (p | o).bit_count()
    if empties <= settings["solve_empties"]:
        info = engine.solve(p, o)
        return info.move, margin_score(info.score), 1
    info = engine.search(p, o, float("inf"), max_depth=settings["depth"])
    return info.move, margin_score(info.score), int(bool(info.exact))


# -- a shard --------------------------------------------------------------------------------------

def shard_path(work: Path, seed: int, shard: int, shards: int) -> Path:
    return work / f"s{seed}-shard{shard}of{shards}.txt"


def finished_games(path: Path) -> dict[int, list[str]]:
    """The finished games of a shard file, ``{game: its label lines}`` (a torn block is left out)."""
    games: dict[int, list[str]] = {}
    if not path.is_file():
        return games
    block: list[str] = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "end" and parts[1].isdigit() and int(parts[2]) == len(block):
            games[int(parts[1])] = block
            block = []
        elif len(parts) == 5:
            block.append(line)
        else:
            block = []  # a torn line: the block it belongs to is incomplete
    return games


def resume(path: Path) -> dict[int, list[str]]:
    """Keep a shard file's finished games (rewritten without a torn tail) and return them."""
    games = finished_games(path)
    if path.is_file():
        text = "".join("\n".join(lines + [f"end {g} {len(lines)}"]) + "\n" for g, lines in games.items())
        if text != path.read_text():
            tmp = path.with_suffix(".tmp")
            tmp.write_text(text)
            tmp.replace(path)
    return games


def run_shard(job: tuple[int, dict]) -> dict:
    """Play shard ``k``'s games until ``--minutes`` pass or ``--games`` are done; its counts."""
    shard, settings = job
    try:
        os.nice(settings["nice"])
    except OSError:
        pass
    from bots.othello.patterns import PatternEvaluator

    evaluator = PatternEvaluator(path=settings["weights"])
    path = shard_path(Path(settings["work"]), settings["seed"], shard, settings["shards"])
    done = resume(path)
    stop_at = settings["stop_at"]
    counts = {"shard": shard, "games": 0, "positions": 0, "cpu": 0.0}
    cpu = time.process_time()
    game = shard
    with path.open("a") as out:
        while game < settings["games"] and time.time() < stop_at:
            if game not in done:
                rows = play_game(game, settings, evaluator, stop_at)
                if rows is None:
                    break
                out.write("".join(f"{game} {p:x} {o:x} {s} {e}\n" for p, o, s, e in rows) + f"end {game} {len(rows)}\n")
                out.flush()
                counts["games"] += 1
                counts["positions"] += len(rows)
            game += settings["shards"]
    counts["cpu"] = round(time.process_time() - cpu, 1)
    return counts


# -- the run --------------------------------------------------------------------------------------

def settings_of(args) -> dict:
    weights = str(Path(args.weights).resolve())
    return {"seed": args.seed, "shards": args.shards, "games": args.games, "depth": args.depth,
            "solve_empties": args.solve_empties, "noise": args.noise, "opening_min": args.opening_min,
            "opening_max": args.opening_max, "weights": weights, "work": str(Path(args.work).resolve()),
            "nice": args.nice, "stop_at": time.time() + 60 * args.minutes}


def generate(args) -> None:
    start = time.time()
    build_core()
    settings = settings_of(args)
    Path(settings["work"]).mkdir(parents=True, exist_ok=True)
    print(f"{args.shards} shards for {args.minutes:g} minutes: depth {args.depth} labels by {args.weights}, "
          f"exact from {args.solve_empties} empties (build {time.time() - start:.0f} s)", flush=True)
    jobs = [(k, settings) for k in range(args.shards)]
    if args.shards == 1:
        counts = [run_shard(jobs[0])]
    else:
        with multiprocessing.get_context("spawn").Pool(args.shards) as pool:
            counts = pool.map(run_shard, jobs, chunksize=1)
    games = sum(c["games"] for c in counts)
    positions = sum(c["positions"] for c in counts)
    cpu = sum(c["cpu"] for c in counts)
    print(f"this run: {games} games, {positions} positions, {cpu:.0f} CPU s "
          f"({positions / max(cpu, 1e-9):.1f} positions a CPU second)", flush=True)
    if args.out:
        pack(settings, Path(args.out), {"run_games": games, "run_positions": positions, "run_cpu_s": cpu,
                                        "run_wall_s": round(time.time() - start, 1)})


def pack(settings: dict, out: Path, run: dict) -> None:
    """Every finished game of this seed's shard files, in game order, into one gzip file, with a
    JSON note of how they were made."""
    out.mkdir(parents=True, exist_ok=True)
    games: dict[int, list[str]] = {}
    for path in sorted(Path(settings["work"]).glob(f"s{settings['seed']}-shard*of*.txt")):
        games.update(finished_games(path))
    for old in out.glob(f"labels-s{settings['seed']}-*.txt.gz"):
        old.unlink()  # an earlier pack of this seed: replaced whole
    parts: list[list[int]] = [[]]
    size = 0
    for g in sorted(games):
        if size >= PACK_POSITIONS:
            parts.append([])
            size = 0
        parts[-1].append(g)
        size += len(games[g])
    for i, part in enumerate(parts):
        with gzip.open(out / f"labels-s{settings['seed']}-{i}.txt.gz", "wt", compresslevel=9) as f:
            f.write("".join(line + "\n" for g in part for line in games[g]))
    positions = sum(len(v) for v in games.values())
    note = {key: settings[key] for key in ("seed", "depth", "solve_empties", "noise", "opening_min", "opening_max")}
    note.update(run, games=len(games), positions=positions, exact=sum(
        line.endswith(" 1") for v in games.values() for line in v),
        weights=Path(settings["weights"]).name,
        weights_sha256=hashlib.sha256(Path(settings["weights"]).read_bytes()).hexdigest(),
        python=sys.version.split()[0], machine_cores=os.cpu_count())
    (out / f"labels-s{settings['seed']}.json").write_text(json.dumps(note, indent=1) + "\n")
    print(f"packed {len(games)} games, {positions} positions into {len(parts)} file(s) "
          f"{out}/labels-s{settings['seed']}-*.txt.gz", flush=True)


def read_labels(path: str | Path) -> list[tuple[int, int, int, int, int]]:
    """``(game, mover, opponent, score, exact)`` rows of a pack (``.gz``) or a shard file (its
    finished games only)."""
    path = Path(path)
    if path.suffix == ".gz":
        with gzip.open(path, "rt") as f:
            lines = f.read().splitlines()
    else:
        lines = [line for block in finished_games(path).values() for line in block]
    rows = []
    for line in lines:
        g, p, o, s, e = line.split()
        rows.append((int(g), int(p, 16), int(o, 16), int(s), int(e)))
    return rows


def training_positions(paths: list[str], holdout_every: int = 10) -> list[tuple[int, int, float, int]]:
    """The files' positions as ``train.fit`` takes them (the target in discs), every
    ``holdout_every``-th game of each file last: ``fit`` holds out the last tenth."""
    kept, held = [], []
    for path in paths:
        for g, p, o, s, e in read_labels(path):
            (held if g % holdout_every == holdout_every - 1 else kept).append((p, o, s / 100, e))
    return kept + held


def fit_command(args) -> None:
    from bots.othello import patterns
    from training.othello.train import fit

    start = time.time()
    positions = training_positions(args.data)
    print(f"{len(positions)} positions read", flush=True)
    prior = [list(stage) for stage in patterns.load(args.prior)] if args.prior else None
    weights, report = fit(positions, epochs=args.epochs, l2=args.l2, residual_penalty=args.residual_penalty,
                          holdout=0.1, symmetric=True, prior=prior)
    patterns.save(weights, args.out)
    print(f"trained on {report['train_positions']}, held out {report['valid_positions']} (whole games)")
    print("held-out mean absolute error by stage, discs (all labels; exactly solved positions):")
    for s in sorted(report["mae"]):
        ex = report["mae_exact"].get(s)
        print(f"  stage {s:2} ({4 + 4 * s:2}-{7 + 4 * s:2} discs): {report['mae'][s]:5.2f}"
              + (f"   exact {ex:5.2f}" if ex is not None else ""))
    print(f"wrote {args.out} in {time.time() - start:.0f} s", flush=True)


def error_command(args) -> None:
    """Mean absolute error by stage of each weights file on the held-out games' positions (every
    tenth game, never fitted), against the search labels and against the exact solves."""
    from bots.othello.patterns import PatternEvaluator, stage_of

    rows = [r for path in args.data for r in read_labels(path) if r[0] % 10 == 9]
    print(f"{len(rows)} held-out positions")
    for weights in args.weights:
        evaluate = PatternEvaluator(path=weights, probcut=False).evaluate
        errors: dict[tuple[int, int], list[float]] = {}
        for _, p, o, s, e in rows:
            v = max(-6400, min(6400, evaluate(p, o)))
            errors.setdefault((stage_of((p | o).bit_count()), e), []).append(abs(v - s) / 100)
        print(f"{weights}: mean absolute error by stage, discs (search labels; exact solves)")
        for stage in range(15):
            cells = [errors.get((stage, e)) for e in (0, 1)]
            text = "   ".join(f"{sum(c) / len(c):5.2f} ({len(c)})" if c else "  -  " for c in cells)
            print(f"  stage {stage:2} ({4 + 4 * stage:2}-{7 + 4 * stage:2} discs): {text}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.othello.labels", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="label self-play positions, sharded over processes, for a time")
    g.add_argument("--shards", type=int, default=max(1, (os.cpu_count() or 1)))
    g.add_argument("--minutes", type=float, default=7.0, help="stop starting games after this long")
    g.add_argument("--games", type=int, default=10**9, help="stop after the games 0..N-1")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--depth", type=int, default=8, help="the labelling search's depth")
    g.add_argument("--solve-empties", type=int, default=18, help="solve exactly from this many empties")
    g.add_argument("--noise", type=float, default=0.05, help="the share of random moves after the opening")
    g.add_argument("--opening-min", type=int, default=2)
    g.add_argument("--opening-max", type=int, default=12)
    g.add_argument("--weights", default=str(ROOT / "bots" / "othello" / "patterns.bin"))
    g.add_argument("--work", default="/tmp/othello-labels", help="the shard files (kept between runs)")
    g.add_argument("--out", default=None, help="pack every finished game here at the end")
    g.add_argument("--nice", type=int, default=19)
    f = sub.add_parser("fit", help="fit weights by stage to label packs or shard files")
    f.add_argument("data", nargs="+")
    f.add_argument("--epochs", type=int, default=200)
    f.add_argument("--l2", type=float, default=1e-3)
    f.add_argument("--residual-penalty", type=float, default=3.0)
    f.add_argument("--prior", default=None,
                   help="a previous round's weights: fit the change from them (regularised towards them)")
    f.add_argument("--out", required=True)
    e = sub.add_parser("error", help="error by stage of weights files on the held-out games")
    e.add_argument("data", nargs="+")
    e.add_argument("--weights", nargs="+", required=True)
    args = parser.parse_args(argv)
    if args.command == "generate":
        if args.shards < 1 or args.minutes <= 0:
            parser.error("--shards must be at least 1 and --minutes positive")
        generate(args)
    elif args.command == "fit":
        fit_command(args)
    else:
        error_command(args)


if __name__ == "__main__":
    sys.exit(main())
