"""A Hog strategy that needs the dice.py beside it (only the student's has WHOSE)."""

from dice import six_sided, four_sided, make_test_dice, WHOSE
from ucb import main, trace, interact

assert WHOSE == "the student's own"

loaded = make_test_dice(3, 4, 5)


def strategy(score, opponent_score):
    """Roll as many dice as the loaded test die says: 3, 4, 5, 3, ..."""
    return loaded()
