"""Training of the pattern evaluation (``bots.othello.patterns``): self-play, exact labels, a fit.

Reproducible with fixed seeds (every step is deterministic); numpy and scipy are needed here only
(``pip install -e .[train]``). The shipped ``bots/othello/patterns.bin`` and its Multi-ProbCut
calibration ``patterns.probcut.json`` were made by the commands in ``training/othello/train_patterns.sh``
(run from the repository root; about three hours of the shared 2-core machine, niced).

``generate`` plays self-play games from varied openings (a seeded random number of random plies,
4 to 13, then the hand evaluation's 2-ply search with 8% random moves), solves each game exactly
once ``--solve-empties`` squares are left (``Engine.solve``, one core; the compiled core's where
it is built, ``bots.othello.compiled``, as for every search with a learned evaluation here:
the same values as the Python engine's, far sooner) and plays the solver's
perfect line to the end. Every position is written as ``mover opponent target exact`` (the
bitboards in hex; the target in discs, the mover's side): from the solve point on, the exact
final margin (perfect play keeps it); before it, the game's final margin (self-play then perfect
play: a Monte-Carlo label, noisy).

``search-labels`` and ``blend`` bootstrap from a previous generation: its search a few plies
deep is the label of a position (generation 0 is the hand evaluation, whose scores ``blend``
calibrates to disc margins by least squares against the results; ``--weights`` makes a learned
generation the teacher). ``relabel`` is the cheaper alternative tried first: TD(lambda) returns
along every game with the previous generation's evaluation (``td_labels``), the exact labels
kept; six generations of it from the Monte-Carlo labels stayed weaker than the hand evaluation at
equal depth (5-7 of 16 points at 3 plies, where the 4-ply teacher's fit scores 12 of 16).

``fit`` fits every stage (four discs each; a stage also learns from its two neighbours'
positions, half-weighted) by ridge least squares (conjugate gradients on the normal equations):
a configuration's weight is the sum of per-cell weights plus its own residual, pulled to zero
``--residual-penalty`` times harder (little data generalise through the cells), folded into one
table; ``--symmetric`` ties the weights of configurations that are images of each other by a
board symmetry mapping the pattern onto itself (``stabilizer_maps``). It holds out
the last tenth of the file and prints the mean absolute disc error by stage.

``probcut-sample`` and ``probcut-fit`` calibrate Multi-ProbCut for a weights file: sampled
positions searched to ``--max-depth`` with it (every depth's score from one iterative deepening),
then ``deep = a * shallow + b`` by least squares for each depth and its shallow depth
(``probcut_shallow``: a quarter of it, of the same parity, as Edax chooses), with the residual's
deviation by group of disc counts; written beside the weights with their checksum. Searches to
14 plies without ProbCut take about 3 s a position on the core; deeper ones are sampled as the
engine searches, with ProbCut to the depths already calibrated (``probcut-sample --probcut``), and
fitted onto that calibration (``probcut-fit --extend``), so the residual is that of the search
the engine runs.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from pathlib import Path

from bots.othello.compiled import make_engine
from bots.othello.eval import HandEvaluator
from bots.othello.patterns import PatternEvaluator
from games.othello import FULL, INITIAL_BLUE, INITIAL_ORANGE, flip_bits, legal_bits


def _play(p: int, o: int, sq: int) -> tuple[int, int]:
    f = flip_bits(p, o, sq)
    return o ^ f, p | f | (1 << sq)


def _moves(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        bits ^= low
        out.append(low.bit_length() - 1)
    return out


def self_play_game(seed: int, solve_empties: int, evaluator=None, depth: int = 2,
                   noise: float = 0.08) -> list[tuple[int, int, int, int]]:
    """One game's positions ``(mover, opponent, target, exact)`` (target: final margin of the
    mover in discs; exact: 1 where the position is on the solver's perfect line)."""
    rng = random.Random(seed)
    engine = make_engine(evaluator or HandEvaluator(), parallel=False)
    # the compiled core's solver where it is built: the same values, and below 18 empties (where
    # the evaluation starts to order the solver's moves) the same moves as the Python one's
    solver = make_engine(PatternEvaluator(), parallel=False)
    p, o = INITIAL_BLUE, INITIAL_ORANGE
    opening = rng.randint(4, 13)
    ply = 0
    record: list[tuple[int, int, int]] = []  # (mover, opponent, sign relative to the first player)
    sign = 1
    exact_from = None
    passed = False
    while True:
        moves = legal_bits(p, o)
        if not moves:
            if passed or not legal_bits(o, p):
                break
            p, o, sign, passed = o, p, -sign, True
            continue
        passed = False
        empties = (FULL ^ (p | o)).bit_count()
        record.append((p, o, sign))
        if empties <= solve_empties:
            if exact_from is None:
                exact_from = len(record) - 1
            sq = solver.solve(p, o).move
        elif ply < opening or rng.random() < noise:
            sq = rng.choice(_moves(moves))
        else:
            sq = engine.search(p, o, float("inf"), max_depth=depth).move
        p, o = _play(p, o, sq)
        sign = -sign
        ply += 1
    final = p.bit_count() - o.bit_count()  # for the side "sign" is relative to
    first = final * sign  # the margin of the first player
    out = []
    for i, (mp, mo, s) in enumerate(record):
        out.append((mp, mo, first * s, int(exact_from is not None and i >= exact_from)))
    return out


def generate(args) -> None:
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    start = time.time()
    positions = 0
    with out.open("w") as f:
        for g in range(args.games):
            game = self_play_game(args.seed * 1_000_003 + g, args.solve_empties)
            for mp, mo, target, exact in game:
                f.write(f"{mp:x} {mo:x} {target} {exact}\n")
            positions += len(game)
            if g % 50 == 49:
                f.flush()
                print(f"{g + 1} games, {positions} positions, {time.time() - start:.0f} s", flush=True)
    print(f"done: {args.games} games, {positions} positions, {time.time() - start:.0f} s", flush=True)


def games_of(positions: list[tuple[int, int, int, int]]) -> list[list[tuple[int, int, int, int]]]:
    """The positions split into games (each game starts from the initial position)."""
    start = INITIAL_BLUE | INITIAL_ORANGE
    games: list[list] = []
    for pos in positions:
        if (pos[0] | pos[1]) == start or not games:
            games.append([])
        games[-1].append(pos)
    return games


def td_labels(positions: list[tuple[int, int, int, int]], evaluate, lam: float = 0.7) -> list[tuple[int, int, int, int]]:
    """Bootstrapped labels, back from the end of every game: TD(lambda) returns along the game,
    ``G_t = (1 - lam) V(s_t+1) + lam G_t+1`` (from the mover's side; ``V`` the previous
    generation's evaluation in discs, or the exact value where the position is solved), so that
    a label leans on the next positions' values rather than on the one noisy result."""
    out = []
    for game in games_of(positions):
        labels = [0.0] * len(game)
        for t in range(len(game) - 1, -1, -1):
            p, o, target, exact = game[t]
            if exact or t == len(game) - 1:
                labels[t] = float(target)
                continue
            np_, no, ntarget, nexact = game[t + 1]
            v = float(ntarget) if nexact else max(-64.0, min(64.0, evaluate(np_, no) / 100))
            g = (1 - lam) * v + lam * labels[t + 1]
            labels[t] = -g if (p & ~no) == 0 else g  # the opponent moves next: their value, negated
        out += [(p, o, int(round(labels[t])), exact) for t, (p, o, _, exact) in enumerate(game)]
    return out


def relabel_command(args) -> None:
    from bots.othello.patterns import PatternEvaluator

    start = time.time()
    positions = []
    for path in args.data:
        positions += read_positions(path)
    evaluate = PatternEvaluator(path=args.weights).evaluate
    labelled = td_labels(positions, evaluate, args.lam)
    with open(args.out, "w") as f:
        for p, o, target, exact in labelled:
            f.write(f"{p:x} {o:x} {target} {exact}\n")
    print(f"{len(labelled)} positions relabelled with {args.weights} (lambda {args.lam}) in {time.time() - start:.0f} s")


def search_labels_command(args) -> None:
    """A teacher: the ``--depth``-ply search score, with the hand evaluation (generation 0) or
    the ``--weights`` of a previous generation, of every
    ``--every``-th position that is not exactly labelled (one engine a game: its tables carry
    over from move to move, deterministically), calibrated to disc margins per stage by least
    squares against the positions' results; exact positions keep their labels."""

    start = time.time()
    evaluator = HandEvaluator()
    if args.weights:
        from bots.othello.patterns import PatternEvaluator

        evaluator = PatternEvaluator(path=args.weights)
    positions = read_positions(args.data)
    games = games_of(positions)
    shard, shards = (int(x) for x in args.shard.split("/"))
    rows = []
    count = 0
    for gi, game in enumerate(games):
        if gi % shards != shard:
            continue
        engine = make_engine(evaluator, parallel=False)  # the compiled core for a learned teacher
        for i, (p, o, target, exact) in enumerate(game):
            if exact:
                rows.append((p, o, target, exact, None))
            elif i % args.every == 0:
                info = engine.search(p, o, float("inf"), max_depth=args.depth)
                rows.append((p, o, target, exact, info.score))
                count += 1
        if gi % 100 == shard:
            print(f"game {gi}: {count} searches, {time.time() - start:.0f} s", flush=True)
    with open(args.out, "w") as f:
        for p, o, target, exact, score in rows:
            f.write(f"{p:x} {o:x} {target} {exact} {'' if score is None else score}\n")
    print(f"{count} positions searched to depth {args.depth} in {time.time() - start:.0f} s", flush=True)


def blend_command(args) -> None:
    """Calibrate the search scores (``search-labels`` files) to disc margins, stage by stage (the
    least-squares slope of the results on the scores), and write positions files for ``fit``."""
    from bots.othello import patterns

    rows = []
    for path in args.data:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 4:
                    rows.append((int(parts[0], 16), int(parts[1], 16), int(parts[2]), int(parts[3]),
                                 int(parts[4]) if len(parts) == 5 else None))
    sums: dict[int, list[float]] = {}
    for p, o, target, exact, score in rows:
        if score is not None and abs(score) < 9000:
            s = sums.setdefault(patterns.stage_of((p | o).bit_count()), [0.0, 0.0])
            s[0] += target * score / 100
            s[1] += (score / 100) ** 2
    slope = {s: v[0] / v[1] for s, v in sums.items() if v[1] > 0}
    print("disc margin per 100 of the search's score, by stage:",
          " ".join(f"{s}:{slope[s]:.2f}" for s in sorted(slope)))
    with open(args.out, "w") as f:
        for p, o, target, exact, score in rows:
            if score is None:
                label = target
            elif abs(score) >= 10_000:  # the search saw the end
                label = (score - 10_000) // 100 if score > 0 else (score + 10_000) // 100
            else:
                label = round(args.mix * slope.get(patterns.stage_of((p | o).bit_count()), 0) * score / 100
                              + (1 - args.mix) * target)
            f.write(f"{p:x} {o:x} {max(-64, min(64, label))} {exact}\n")
    print(f"{len(rows)} positions written to {args.out}")


def error_command(args) -> None:
    """The evaluation's mean absolute disc error against exact solves, by stage, on fresh
    self-play games (another seed than the training set's), each game solved from
    ``--solve-empties`` on."""
    from bots.othello import patterns

    evaluate = patterns.PatternEvaluator(path=args.weights).evaluate
    errors: dict[int, list[float]] = {}
    for g in range(args.games):
        for p, o, target, exact in self_play_game(args.seed * 1_000_003 + g, args.solve_empties):
            if exact and (legal_bits(p, o) or legal_bits(o, p)):
                v = max(-64.0, min(64.0, evaluate(p, o) / 100))
                errors.setdefault(patterns.stage_of((p | o).bit_count()), []).append(abs(v - target))
    for s in sorted(errors):
        e = errors[s]
        print(f"stage {s:2} ({4 + 4 * s:2}-{7 + 4 * s:2} discs): {sum(e) / len(e):5.2f} discs ({len(e)} positions)")


def read_positions(path: str | Path) -> list[tuple[int, int, int, int]]:
    out = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 4:
                out.append((int(parts[0], 16), int(parts[1], 16), int(parts[2]), int(parts[3])))
    return out


def _linear_columns(np, feats):
    """Per-cell features of every pattern instance: ``(pattern, cell, state)`` columns after the
    stage's own ``STAGE_SIZE`` (a configuration's weight is fitted as the sum of its cells' weights
    plus its own residual, which a stronger pull to zero keeps small where data are few; the two
    are folded into one table by ``_fold``). Returns the columns and their count."""
    from bots.othello import patterns

    cols = []
    at = 3  # the mobilities and parity come first in ``features``
    base = patterns.STAGE_SIZE
    for name, cells, instances in patterns.PATTERNS:
        local = feats[:, at:at + len(instances)] - patterns.OFFSETS[name]
        for k in range(cells):
            cols.append(base + 3 * k + (local // 3 ** k) % 3)
        base += 3 * cells
        at += len(instances)
    return np.concatenate(cols, axis=1), base - patterns.STAGE_SIZE


def _fold(np, w):
    """The stage's flat table: residuals plus the per-cell weights of each configuration."""
    from bots.othello import patterns

    table = w[:patterns.STAGE_SIZE].copy()
    base = patterns.STAGE_SIZE
    for name, cells, _ in patterns.PATTERNS:
        configs = np.arange(3 ** cells)
        off = patterns.OFFSETS[name]
        for k in range(cells):
            table[off:off + 3 ** cells] += w[base + 3 * k + (configs // 3 ** k) % 3]
        base += 3 * cells
    return table


@functools.lru_cache(maxsize=1)
def stabilizer_maps(np) -> dict:
    """Per pattern, its configurations' canonical ones: a pattern whose first instance some board
    symmetries map onto itself (an edge by the mirror, a diagonal reversed, a corner block by the
    transpose) reads a position and its image in other digit orders, and the two are worth the
    same. ``canon[c]`` is the least configuration of ``c``'s orbit under those symmetries."""
    from bots.othello import patterns

    maps = {}
    for name, cells, _ in patterns.PATTERNS:
        first = patterns.ALL_PATTERNS[name]
        configs = np.arange(3 ** cells)
        digits = [(configs // 3 ** k) % 3 for k in range(cells)]
        canon = configs.copy()
        for t in range(8):
            image = [patterns.symmetry(t, sq) for sq in first]
            if set(image) != set(first):
                continue
            moved = sum(digits[k] * 3 ** first.index(image[k]) for k in range(cells))
            canon = np.minimum(canon, moved)
        maps[name] = canon
    return maps


def _canonical_features(np, feats):
    """``feats`` (rows of ``patterns.features``) with every instance's configuration canonical."""
    from bots.othello import patterns

    feats = feats.copy()
    maps = stabilizer_maps(np)
    at = 3
    for name, _cells, instances in patterns.PATTERNS:
        off = patterns.OFFSETS[name]
        block = feats[:, at:at + len(instances)]
        feats[:, at:at + len(instances)] = off + maps[name][block - off]
        at += len(instances)
    return feats


def _spread_canonical(np, table):
    """Every configuration's weight set to its canonical one's (``stabilizer_maps``)."""
    from bots.othello import patterns

    for name, cells, _ in patterns.PATTERNS:
        off = patterns.OFFSETS[name]
        table[off:off + 3 ** cells] = table[off + stabilizer_maps(np)[name]]
    return table


def _ridge(np, x, y, sw, lam, epochs: int, losses):
    """``w`` minimising ``sum sw (Xw - y)^2 + sum lam w^2`` by conjugate gradients on the normal
    equations, ``epochs`` steps (``X``: a 1 per feature of a row, ``x`` its column indices, held
    as a sparse matrix and its transpose: a step is two sparse products, five times faster than
    gathering and ``bincount``); each step's weighted squared error is added to ``losses``."""
    from scipy import sparse

    size = len(lam)
    n, k = x.shape
    X = sparse.csr_matrix((np.ones(n * k), x.ravel(), np.arange(0, n * k + 1, k)), shape=(n, size))
    XT = X.T.tocsr()
    w = np.zeros(size)

    def normal(vec):
        return XT @ (sw * (X @ vec)) + lam * vec

    r = XT @ (sw * y)
    d = r.copy()
    rr = float(r @ r)
    for epoch in range(epochs):
        err = X @ w - y
        losses[epoch] += float((sw * err * err).sum())
        if rr < 1e-12:
            continue
        ad = normal(d)
        step = rr / float(d @ ad)
        w += step * d
        r -= step * ad
        rr_new = float(r @ r)
        d = r + (rr_new / rr) * d
        rr = rr_new
    return w


def fit(positions: list[tuple[int, int, int, int]], epochs: int = 30, l2: float = 1e-3,
        residual_penalty: float = 10.0, holdout: float = 0.1,
        symmetric: bool = False, prior: list | None = None) -> tuple[list, dict]:
    """Weights (``STAGES`` lists of ints, hundredths of a disc) fitted to ``positions``, and a
    report: the loss (mean squared disc error, training) by iteration, and the held-out mean
    absolute error by stage (all positions, and the exactly labelled ones).

    Ridge least squares by conjugate gradients on the normal equations, stage by stage (a stage
    also learns from its two neighbours' positions, half-weighted). ``symmetric`` ties the weights
    of configurations that are images of each other (``stabilizer_maps``): the fitted evaluation
    then values a position and its mirror images alike, and such a pattern's data count twice.
    ``prior`` (stages of weights in hundredths, a previous round's) makes the fit one of the change
    from them: the regularisation pulls towards the prior instead of towards zero."""
    import numpy as np

    from bots.othello import patterns

    n = len(positions)
    feats = np.array([patterns.features(p, o) for p, o, _, _ in positions], dtype=np.int64).reshape(n, patterns.FEATURES)
    if symmetric:
        feats = _canonical_features(np, feats)
    targets = np.array([t for _, _, t, _ in positions], dtype=np.float64)
    exact = np.array([e for _, _, _, e in positions], dtype=bool)
    stages = np.array([patterns.stage_of((p | o).bit_count()) for p, o, _, _ in positions], dtype=np.int64)
    # hold out whole games' worth: the last fraction of the file (positions of a game are neighbours)
    valid = np.zeros(n, dtype=bool)
    valid[int(n * (1 - holdout)):] = True
    weights = []
    report = {"loss": [], "mae": {}, "mae_exact": {}, "train_positions": int((~valid).sum()),
              "valid_positions": int(valid.sum())}
    losses = np.zeros(epochs)
    total_weight = 0.0
    for s in range(patterns.STAGES):
        near = (~valid) & (np.abs(stages - s) <= 1)
        base = np.zeros(patterns.STAGE_SIZE) if prior is None else np.asarray(prior[s], dtype=np.float64) / 100
        y = targets[near] - base[feats[near]].sum(axis=1)
        sw = np.where(stages[near] == s, 1.0, 0.5)
        total_weight += float(sw.sum())
        lin, lin_size = _linear_columns(np, feats[near])
        x = np.concatenate([feats[near], lin], axis=1)
        size = patterns.STAGE_SIZE + lin_size
        pen = np.ones(size)
        pen[:patterns.OFFSETS["mobility"]] = residual_penalty
        w = _ridge(np, x, y, sw, l2 * sw.sum() * pen, epochs, losses) if len(y) else np.zeros(size)
        table = _fold(np, w) + base
        if symmetric:
            table = _spread_canonical(np, table)
        weights.append(np.clip(np.rint(100 * table), -32767, 32767).astype(np.int64).tolist())
        here = valid & (stages == s)
        if here.any():
            err = np.abs(np.clip(table[feats[here]].sum(axis=1), -64, 64) - targets[here])
            report["mae"][s] = float(err.mean())
            ex = exact[here]
            if ex.any():
                report["mae_exact"][s] = float(err[ex].mean())
    report["loss"] = [float(v / max(total_weight, 1)) for v in losses]
    return weights, report


def fit_command(args) -> None:
    from bots.othello import patterns

    start = time.time()
    positions = []
    for path in args.data:
        positions += read_positions(path)
    print(f"{len(positions)} positions read", flush=True)
    weights, report = fit(positions, epochs=args.epochs, l2=args.l2, residual_penalty=args.residual_penalty,
                          symmetric=args.symmetric)
    patterns.save(weights, args.out)
    loss = report["loss"]
    print(f"loss (mean squared disc error, training): first epoch {loss[0]:.1f}, last {loss[-1]:.1f}")
    print(f"trained on {report['train_positions']} positions, held out {report['valid_positions']}")
    print("held-out mean absolute disc error by stage (discs on the board; exact-labelled positions):")
    for s in sorted(report["mae"]):
        ex = report["mae_exact"].get(s)
        print(f"  stage {s:2} ({4 + 4 * s:2}-{7 + 4 * s:2} discs): {report['mae'][s]:5.1f}"
              + (f"   exact {ex:5.1f}" if ex is not None else ""))
    print(f"wrote {args.out} ({Path(args.out).stat().st_size:,} bytes) in {time.time() - start:.0f} s")


def probcut_shallow(depth: int) -> int:
    """The shallow search that predicts a ``depth``-ply one (Edax's choice: a quarter, same parity)."""
    return 2 * (depth // 4) + (depth & 1)


def probcut_sample_command(args) -> None:
    """Search sampled positions (more than 14 empties, not finished) to ``--max-depth`` with the
    ``--weights`` evaluation, and write each position's disc count and its score at every depth
    (one iterative-deepening search gives them all); with ``--probcut``, pruned by the weights'
    calibration as the engine prunes (an error when they have none)."""
    from bots.othello.patterns import PatternEvaluator

    start = time.time()
    evaluator = PatternEvaluator(path=args.weights, probcut=args.probcut)
    if args.probcut and evaluator.probcut is None:
        raise SystemExit(f"--probcut: {args.weights} has no calibration of its own to search with")
    rng = random.Random(args.seed)
    pool = [(p, o) for p, o, _, exact in read_positions(args.data)
            if not exact and (FULL ^ (p | o)).bit_count() > 14 and legal_bits(p, o)]
    chosen = rng.sample(pool, min(args.positions, len(pool)))
    shard, shards = (int(x) for x in args.shard.split("/"))
    with open(args.out, "w") as f:
        for i, (p, o) in enumerate(chosen):
            if i % shards != shard:
                continue
            scores = {}
            engine = make_engine(evaluator, parallel=False)
            engine.search(p, o, float("inf"), max_depth=args.max_depth, soft_fraction=1.0,
                          report=lambda info: scores.__setitem__(info.depth, info.score))
            if len(scores) == args.max_depth:
                f.write(f"{(p | o).bit_count()} " + " ".join(str(scores[d]) for d in range(1, args.max_depth + 1)) + "\n")
                f.flush()
            if i % 10 == shard:
                print(f"{i + 1} positions, {time.time() - start:.0f} s", flush=True)
    print(f"done in {time.time() - start:.0f} s", flush=True)


PROBCUT_GROUPS = (24, 36, 48)
"""Disc counts where the residual deviation's groups start anew (four groups)."""


def probcut_fit_command(args) -> None:
    """Fit ``deep = a * shallow + b`` for every depth (least squares over the samples), and the
    residual's deviation by group of disc counts; write the calibration beside the weights. With
    ``--extend``, an existing calibration of the same weights keeps its depths and only the
    deeper ones are fitted."""
    import hashlib
    import json
    import statistics

    digest = hashlib.sha256(Path(args.weights).read_bytes()).hexdigest()
    kept: dict = {}
    if args.extend:
        base = json.loads(Path(args.extend).read_text())
        if base.get("weights_sha256") != digest or base.get("groups") != list(PROBCUT_GROUPS):
            raise SystemExit(f"--extend: {args.extend} is not a calibration of {args.weights}")
        kept = {int(d): c for d, c in base["depths"].items()}

    rows = []
    for path in args.samples:
        with open(path) as f:
            rows += [[int(x) for x in line.split()] for line in f if line.strip()]
    max_depth = min(len(r) - 1 for r in rows)
    depths = dict(sorted(kept.items()))
    for d in range(max(kept, default=2) + 1, max_depth + 1):
        s = probcut_shallow(d)
        pairs = [(r[0], r[s], r[d]) for r in rows if abs(r[s]) < 9000 and abs(r[d]) < 9000]
        xs = [x for _, x, _ in pairs]
        ys = [y for _, _, y in pairs]
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        a = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        b = my - a * mx
        sigmas: list = []
        for lo, hi in zip((0,) + PROBCUT_GROUPS, PROBCUT_GROUPS + (65,)):
            res = [y - (a * x + b) for n, x, y in pairs if lo <= n < hi]
            sigmas.append(round(statistics.pstdev(res), 1) if len(res) >= 8 else None)
        # a group with too few samples takes its nearest neighbour's deviation (the largest if two)
        known = [(i, v) for i, v in enumerate(sigmas) if v is not None]
        if not known:
            continue
        for i, v in enumerate(sigmas):
            if v is None:
                near = min(abs(i - j) for j, _ in known)
                sigmas[i] = max(v2 for j, v2 in known if abs(i - j) == near)
        depths[d] = {"shallow": s, "a": round(a, 4), "b": round(b, 1), "sigma": sigmas, "samples": len(pairs)}
        print(f"depth {d} from {s}: deep = {a:.3f} shallow {b:+.0f}, residual sigma by group {sigmas} "
              f"(hundredths of a disc; {len(pairs)} positions)")
    out = {"weights_sha256": digest, "groups": list(PROBCUT_GROUPS), "depths": depths}
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {args.out}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.othello.train", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="self-play positions with exact endgame labels")
    g.add_argument("--games", type=int, default=1000)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--solve-empties", type=int, default=12)
    g.add_argument("--out", default="/tmp/othello-train/gen0.txt")
    f = sub.add_parser("fit", help="fit the weights to positions files and write the weights file")
    f.add_argument("data", nargs="+")
    f.add_argument("--epochs", type=int, default=30)
    f.add_argument("--l2", type=float, default=1e-3)
    f.add_argument("--residual-penalty", type=float, default=10.0,
                   help="how much harder a configuration's own weight is pulled to zero than a cell's")
    f.add_argument("--symmetric", action="store_true",
                   help="tie the weights of configurations that are mirror images of each other")
    f.add_argument("--out", default="/tmp/othello-train/patterns.bin")
    r = sub.add_parser("relabel", help="bootstrapped TD(lambda) labels from a previous generation's weights")
    r.add_argument("data", nargs="+")
    r.add_argument("--weights", required=True)
    r.add_argument("--lam", type=float, default=0.7)
    r.add_argument("--out", required=True)
    sl = sub.add_parser("search-labels", help="the hand evaluation's search scores of positions (a teacher)")
    sl.add_argument("data")
    sl.add_argument("--depth", type=int, default=3)
    sl.add_argument("--every", type=int, default=2)
    sl.add_argument("--weights", help="a previous generation's weights file (default: the hand evaluation)")
    sl.add_argument("--shard", default="0/1", help="i/n: the games i, i+n, i+2n...")
    sl.add_argument("--out", required=True)
    bl = sub.add_parser("blend", help="search scores calibrated to disc margins, mixed with the results")
    bl.add_argument("data", nargs="+")
    bl.add_argument("--mix", type=float, default=0.7, help="weight of the calibrated search score")
    bl.add_argument("--out", required=True)
    er = sub.add_parser("error", help="mean absolute disc error against exact solves, on fresh games")
    er.add_argument("--weights", default=None)
    er.add_argument("--games", type=int, default=40)
    er.add_argument("--seed", type=int, default=99)
    er.add_argument("--solve-empties", type=int, default=14)
    ps = sub.add_parser("probcut-sample", help="search scores at every depth of sampled positions (ProbCut's data)")
    ps.add_argument("data")
    ps.add_argument("--weights", required=True)
    ps.add_argument("--positions", type=int, default=200)
    ps.add_argument("--max-depth", type=int, default=9)
    ps.add_argument("--seed", type=int, default=5)
    ps.add_argument("--shard", default="0/1", help="i/n: the sampled positions i, i+n, i+2n...")
    ps.add_argument("--probcut", action="store_true",
                    help="search with the weights' own ProbCut calibration, as the engine does")
    ps.add_argument("--out", required=True)
    pf = sub.add_parser("probcut-fit", help="fit Multi-ProbCut's calibration and write it beside the weights")
    pf.add_argument("samples", nargs="+")
    pf.add_argument("--weights", required=True)
    pf.add_argument("--out", required=True)
    pf.add_argument("--extend", help="a calibration of the same weights whose depths are kept; "
                                     "the samples fit only the deeper ones")
    args = parser.parse_args(argv)
    if args.command == "probcut-sample":
        probcut_sample_command(args)
    elif args.command == "probcut-fit":
        probcut_fit_command(args)
    elif args.command == "generate":
        generate(args)
    elif args.command == "fit":
        fit_command(args)
    elif args.command == "relabel":
        relabel_command(args)
    elif args.command == "search-labels":
        search_labels_command(args)
    elif args.command == "blend":
        blend_command(args)
    elif args.command == "error":
        error_command(args)


if __name__ == "__main__":
    sys.exit(main())
