"""The Robot Ludo challenge's ``match.py``: for entries that do ``from match import match, judge``.

The course's names and behaviour (metterklume/robot-ludo), the very objects of ``games.ludo``:

- ``make_start_board(counters, length, safesquares=None)``: both pens full, squares 0 and
  ``length // 2`` safe plus ``safesquares``;
- ``match(counters, length, safesquares, player1, player2, maxiters=1000, starting=0, seed=None,
  verbose=False)``: one game, ``player1`` always Red (turn 0), ``player2`` Blue, ``starting`` the
  turn that moves first; 0 (Red won), 1 (Blue won) or ``None`` (no winner within ``maxiters``);
  ``verbose`` prints ``turn roll move`` per ply and ``Cuts C Moves M``. The dice are
  ``random.randint(1, 6)`` from the global ``random``, as the course's;
- ``judge(counters, length, safesquares, player1, player2, games=100, starting=0)``: the
  fractions of games each won, colours not alternated, unfinished games left out;
- ``halfshift(x, L)`` and the notebook's engines ``simple_player`` (the first legal move),
  ``simple_player2`` (symmetric) and ``simple_player3`` (a random legal move).

``Board``, ``getmoves``, ``makemove`` and ``random`` are here because the course's module
imported them, so ``from match import *`` hands them on as the course's did. (The course's
``judge`` divides by zero when no game finishes; this one says so in a ``ValueError``.) A
``match.py`` in the bot's own folder comes first on the import path and replaces this one.
"""

import random

from games.ludo import (
    Board,
    getmoves,
    halfshift,
    judge,
    make_start_board,
    makemove,
    match,
    simple_player,
    simple_player2,
    simple_player3,
)

__all__ = [
    "Board",
    "getmoves",
    "halfshift",
    "judge",
    "make_start_board",
    "makemove",
    "match",
    "random",
    "simple_player",
    "simple_player2",
    "simple_player3",
]
