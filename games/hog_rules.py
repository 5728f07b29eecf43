"""Hog's scoring rules as plain functions: Sow Sad, Piggy Points and More Boar.

The rules own them here, in a module that imports nothing: the game engine and course API
(``games.hog``, whose ``piggy_points`` and ``more_boar`` are the course's names for these) and
the exact solver (``games.hog_solver``) both import them, so the solver needs nothing of the
engine, and the engine uses the solver (``final_strategy``, exact point distributions) one way.
"""

from __future__ import annotations

from typing import Sequence

MAX_DICE = 10
"""The most dice a turn may roll."""
SIDES = 6
"""Faces of a die (the fair dice of the game and the solver)."""


def digits(score: int) -> list[int]:
    """The plain decimal digits of a score (no zero padding): ``digits(7) == [7]``."""
    return [int(c) for c in str(score)]


def piggy_points(score: int) -> int:
    """Points for rolling zero dice against an opponent with ``score``: 4 + |tens - ones|."""
    tens, ones = (score // 10) % 10, score % 10
    return 4 + abs(tens - ones)


def more_boar(player_score: int, opponent_score: int) -> bool:
    """Whether the player, after scoring, takes an extra turn (min digit lower, max digit higher)."""
    mine, theirs = digits(player_score), digits(opponent_score)
    return min(mine) < min(theirs) and max(mine) > max(theirs)


def turn_points(faces: Sequence[int], opponent_score: int) -> int:
    """Points of a turn: Piggy Points for no dice, 1 if any face is a 1 (Sow Sad), else the sum."""
    if not faces:
        return piggy_points(opponent_score)
    return 1 if 1 in faces else sum(faces)
