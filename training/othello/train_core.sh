#!/bin/sh
# Round 5 of the learned Othello evaluation, with the compiled core (bots/othello/_core.c): the
# relabelling issue #22 asks for -- 2 million positions or more, every position before the exact
# part labelled by a 10-ply search of the shipped weights (A4, with its Multi-ProbCut), the late
# stages by exact solves from 20 empties, then a refit, and Multi-ProbCut recalibrated to the
# 14 plies the core reaches at 1 s a move. Every step is seeded and deterministic, restartable
# (a finished file is not made again), and niced. Run from the repository root with the
# training extra and the core built (pip install -e '.[train]' with a C compiler); data go to $D.
#
# Cost on the shared 2-core machine (measured at the start, one core a process): a game of
# self-play solved from 20 empties about 3 s of CPU; a 10-ply label about 0.05 s. The whole
# round is a day or more of both cores. It was started on 2026-11-25 and NOT finished: the
# shipped patterns.bin is still round 4's (train_patterns.sh); this script copies its result
# there only at its very end, after the checks.
# Usage, from the repository root: D=/tmp/othello-train sh training/othello/train_core.sh
set -eu
D=${D:-/tmp/othello-train}
T="nice -n 19 python -m training.othello.train"
mkdir -p "$D"

# 1. Self-play: 16 x 2000 games (seeds 11-26, two at a time), each solved exactly from 20
#    empties and played out perfectly from there: about 1.9 million positions.
for pair in "11 12" "13 14" "15 16" "17 18" "19 20" "21 22" "23 24" "25 26"; do
    set -- $pair
    [ -f "$D/c20-s$1.done" ] || { $T generate --games 2000 --seed "$1" --solve-empties 20 --out "$D/c20-s$1.txt" && touch "$D/c20-s$1.done"; } &
    [ -f "$D/c20-s$2.done" ] || { $T generate --games 2000 --seed "$2" --solve-empties 20 --out "$D/c20-s$2.txt" && touch "$D/c20-s$2.done"; }
    wait
done

# 2. Labels: A4's 10-ply search (with its ProbCut, on the core) of every position before the
#    exact part; the exact positions keep their solved margins.
for s in 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26; do
    [ -f "$D/a4d10-s$s.txt" ] || $T search-labels "$D/c20-s$s.txt" --depth 10 --every 1 \
        --weights bots/othello/patterns.bin --out "$D/a4d10-s$s.txt" &
    [ $((s % 2)) -eq 1 ] || wait
done
wait
$T blend "$D"/a4d10-s*.txt --mix 1.0 --out "$D/a4d10-mix.txt"

# 3. The fit (round 4's settings), its error against exact solves beside A4's.
$T fit "$D/a4d10-mix.txt" --epochs 200 --l2 0.001 --residual-penalty 3 --symmetric --out "$D/A5.bin"
$T error --weights bots/othello/patterns.bin --games 40 --seed 99 --solve-empties 20 > "$D/A4.error.txt"
$T error --weights "$D/A5.bin" --games 40 --seed 99 --solve-empties 20 > "$D/A5.error.txt"

# 4. A5's Multi-ProbCut to 14 plies: 240 positions (2 shards).
$T probcut-sample "$D/c20-s11.txt" --weights "$D/A5.bin" --positions 240 --max-depth 14 --shard 0/2 --out "$D/pc5-0.txt" &
$T probcut-sample "$D/c20-s11.txt" --weights "$D/A5.bin" --positions 240 --max-depth 14 --shard 1/2 --out "$D/pc5-1.txt"
wait
$T probcut-fit "$D/pc5-0.txt" "$D/pc5-1.txt" --weights "$D/A5.bin" --out "$D/A5.probcut.json"

# 5. Ship only after the match: python bench/othello.py versus --weights "$D/A5.bin"
#    --against-weights bots/othello/patterns.bin --engine compiled --against-engine compiled
#    --match-limit 1 --openings 32, then copy A5.bin and A5.probcut.json over patterns.bin and
#    patterns.probcut.json and record the figures in docs/engines.md.
