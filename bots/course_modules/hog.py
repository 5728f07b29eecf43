"""CS 61A Hog's ``hog.py`` as the project's solution: for contest files that do ``from hog import *``.

A contest entry in the course's shape imports the project's own functions from ``hog`` and
defines its ``final_strategy(score, opponent_score)``. This module offers the course's API
(Summer 2021, the seed's), the very functions of ``games.hog``, which follow the course's own
tests (``tests/reference/hog.json``):

- phase 1: ``roll_dice``, ``piggy_points``, ``take_turn``, ``more_boar``, ``next_player``,
  ``silence``, ``play`` and ``GOAL_SCORE``;
- phase 2, commentary: ``say_scores``, ``announce_lead_changes``, ``both``, ``announce_highest``
  (they print, as the course's do: in a bot the output goes to its log);
- phase 3, strategies: ``always_roll``, ``make_averaged``, ``max_scoring_num_rolls``,
  ``winner``, ``average_win_rate``, ``run_experiments``, ``piggypoints_strategy``,
  ``more_boar_strategy``;
- what the course's ``hog.py`` itself imports, so ``from hog import *`` hands it on:
  ``four_sided``, ``six_sided``, ``make_test_dice`` (``dice``) and ``main``, ``trace``,
  ``interact`` (``ucb``, the arcade's harmless versions).

``final_strategy`` is left out on purpose: in the course it is the student's own work, and a
contest file that forgot to define one must not play the arcade's exactly optimal policy
(``games.hog.final_strategy``) in its name. A ``hog.py`` in the bot's own folder (the student's
project) comes first on the import path and replaces this one.
"""

from games.hog import (
    GOAL_SCORE,
    always_roll,
    announce_highest,
    announce_lead_changes,
    average_win_rate,
    both,
    four_sided,
    make_averaged,
    make_test_dice,
    max_scoring_num_rolls,
    more_boar,
    more_boar_strategy,
    next_player,
    piggy_points,
    piggypoints_strategy,
    play,
    roll_dice,
    run_experiments,
    say_scores,
    silence,
    six_sided,
    take_turn,
    winner,
)
from ucb import interact, main, trace

__all__ = [
    "GOAL_SCORE",
    "always_roll",
    "announce_highest",
    "announce_lead_changes",
    "average_win_rate",
    "both",
    "four_sided",
    "interact",
    "main",
    "make_averaged",
    "make_test_dice",
    "max_scoring_num_rolls",
    "more_boar",
    "more_boar_strategy",
    "next_player",
    "piggy_points",
    "piggypoints_strategy",
    "play",
    "roll_dice",
    "run_experiments",
    "say_scores",
    "silence",
    "six_sided",
    "take_turn",
    "trace",
    "winner",
]
