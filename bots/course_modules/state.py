"""The Robot Ludo challenge's ``state.py``: for entries that do ``from state import Board, makemove, ...``.

The course's names and behaviour (metterklume/robot-ludo), the very objects of ``games.ludo``:

- ``Board``: the dataclass ``Board(counters, length, safe, red, blue, redpen, bluepen)``; its
  ``copy.copy`` copies ``safe``, ``red`` and ``blue`` into new lists with ``list(...)``, as the
  course's ``__copy__`` does, so a copy never aliases the original's lists or numpy arrays;
- ``makemove(board, move, copyboard=True)``: the board after ``move``, on a copy unless
  ``copyboard`` is false (the notebook's older keyword ``copy`` works too); an invalid move
  prints ``Invalid move`` and returns the board unchanged;
- ``isvalidmove(board, move, maxroll=6)``, ``isvalidboard(board)``;
- ``getmoves(board, turn, roll, maxroll=6)``: ``(turn, 0, 0)`` first on a 6 with a counter in the
  pen, then moves by ascending square, ``[(turn, -1, -1)]`` only when nothing else is legal.

``dataclass``, ``copy``, ``deepcopy`` and ``np`` (numpy, where installed; loaded only when
asked for) are here because the course's module imported them (``deepcopy`` in its first
version, ``copy`` later), so ``from state import *`` hands them on as the course's did.
``halfshift`` (Blue's progress of a square) is the course's ``match.py``'s and the notebook's;
it can be imported from here too, but ``from state import *`` leaves it out, as the course's
did. A ``state.py`` in the bot's own folder comes first on the import path and replaces this
one.
"""

import copy
from copy import deepcopy
from dataclasses import dataclass
from importlib.util import find_spec

from games.ludo import Board, getmoves, halfshift, isvalidboard, isvalidmove, makemove  # noqa: F401 (halfshift: importable, not in __all__)

__all__ = ["Board", "copy", "dataclass", "deepcopy", "getmoves", "isvalidboard", "isvalidmove", "makemove"]
if find_spec("numpy") is not None:
    __all__.append("np")


def __getattr__(name):
    """``np``, imported when first asked for (``from state import *`` or ``import np``): an
    entry that never uses numpy does not pay for loading it."""
    if name == "np":
        import numpy

        return numpy
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
