"""CS4341 programs written as the course's students wrote them, for the tests: each speaks the
referee's files (``move_file``, ``NAME.go``, ``end_game``) in its own folder, reads the opponent's
move, writes its own, and prints the end it reads. ``program(folder, name, kind)`` writes one."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

GREEDY = '''\
#!/usr/bin/env python3
"""A CS4341 program: the legal move that flips the most discs, through the referee's files."""
import os
import sys
import time

NAME = sys.argv[1] if len(sys.argv) > 1 else os.path.basename(sys.argv[0])
COLUMNS = "ABCDEFGH"
DIRECTIONS = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr]
board = {(3, 4): "O", (4, 4): "B", (3, 3): "B", (4, 3): "O"}  # (column, row) from 0
TIRED = int(os.environ.get("TIRED", "0")) or None  # "tired": garbage from this move on (set below)


def flips(me, col, row):
    other = "O" if me == "B" else "B"
    found = []
    for dc, dr in DIRECTIONS:
        line, c, r = [], col + dc, row + dr
        while 0 <= c < 8 and 0 <= r < 8 and board.get((c, r)) == other:
            line.append((c, r))
            c, r = c + dc, r + dr
        if line and 0 <= c < 8 and 0 <= r < 8 and board.get((c, r)) == me:
            found += line
    return found


def play(me, col, row):
    for square in flips(me, col, row):
        board[square] = me
    board[(col, row)] = me


def choose(me):
    moves = [(len(flips(me, c, r)), -r, -c) for c in range(8) for r in range(8)
             if (c, r) not in board and flips(me, c, r)]
    if not moves:
        return None
    _, r, c = max(moves)
    return -c, -r


def main():
    with open("runs.txt", "a") as runs:  # its own folder: a fresh copy each game
        runs.write("run\\n")
    with open("runs.txt") as runs:
        print(NAME, "run", len(runs.readlines()), flush=True)
    me, written, moves = None, None, 0
    while True:
        if not os.path.exists(NAME + ".go"):
            time.sleep(0.01)
            continue
        if os.path.exists("end_game"):
            with open("end_game") as f:
                print(NAME, "read:", f.read().strip(), flush=True)
            return
        text = open("move_file").read().strip() if os.path.exists("move_file") else ""
        if text == written:  # our own move, not yet taken by the referee
            time.sleep(0.01)
            continue
        if me is None:
            me = "O" if text else "B"
        if text:
            _, col, row = text.split()
            if col != "P":
                play("O" if me == "B" else "B", COLUMNS.index(col), int(row) - 1)
        move = choose(me)
        moves += 1
        if TIRED and moves >= TIRED:
            written = NAME + " Z 9"
        elif move is None:
            written = NAME + " P 1"
        else:
            play(me, *move)
            written = f"{NAME} {COLUMNS[move[0]]} {move[1] + 1}"
        with open("move_file", "w") as f:
            f.write(written)


main()
'''

TIRED = GREEDY.replace('int(os.environ.get("TIRED", "0")) or None', "4")
"""Greedy for three moves a game (enough for the admission probe's), then garbage."""

SHELL = '#!/bin/sh\n# the course\'s "executable (or script) named groupname", running the code beside it\n' \
        'cd "$(dirname "$0")" || exit 1\nexec python3 engine.py "$(basename "$0")"\n'

FAULTS = {
    "garbage": 'while [ ! -e "$NAME.go" ]; do sleep 0.02; done\nprintf \'%s Z 9\\n\' "$NAME" > move_file\nsleep 60\n',
    "binary": 'while [ ! -e "$NAME.go" ]; do sleep 0.02; done\nprintf \'\\377\\376\\375\\n\' > move_file\nsleep 60\n',
    "silent": 'sleep 60\n',
    "impostor": 'while [ ! -e "$NAME.go" ]; do sleep 0.02; done\nprintf \'delta E 3\\n\' > move_file\nsleep 60\n',
    "quitter": 'while [ ! -e "$NAME.go" ]; do sleep 0.02; done\nexit 3\n',
    "killer": 'while [ ! -e "$NAME.go" ]; do sleep 0.02; done\nkill -9 $PPID\nsleep 60\n',  # its referee
    "linker": 'while [ ! -e "$NAME.go" ]; do sleep 0.02; done\nrm -f move_file\nln -s /etc/passwd move_file\n'
              'sleep 60\n',
}
"""Shell programs that break the referee's rules on their first turn, by name."""


def program(folder: Path, name: str, kind: str = "python") -> Path:
    """Program ``name`` written into ``folder/name/`` (its folder, as a team hands it in): the
    greedy Python script (``python``), a shell script running ``engine.py`` beside it (``shell``),
    the tired one (``tired``) or a fault of ``FAULTS``; its executable's path."""
    where = folder / name
    where.mkdir(parents=True, exist_ok=True)
    executable = where / name
    if kind == "shell":
        (where / "engine.py").write_text(GREEDY)
        executable.write_text(SHELL)
    elif kind in FAULTS:
        executable.write_text("#!/bin/sh\nNAME=$(basename \"$0\")\n" + textwrap.dedent(FAULTS[kind]))
    else:
        executable.write_text(TIRED if kind == "tired" else GREEDY)
    os.chmod(executable, 0o755)
    return executable
