"""CS 61A Hog's ``dice.py``, for a student's ``hog.py`` that begins ``from dice import ...``.

A die is a function of no arguments that returns a number from 1 to its sides:

- ``make_fair_dice(sides)``: a fair die; each roll is ``random.randint(1, sides)`` from Python's
  global ``random``, as the course's (the arcade seeds it before each game, so a seeded match
  replays the same rolls);
- ``four_sided``, ``six_sided``: ``make_fair_dice(4)`` and ``make_fair_dice(6)``;
- ``make_test_dice(*outcomes)``: a die that returns ``outcomes`` in order, cycling forever
  (``make_test_dice(1, 2)`` rolls 1, 2, 1, 2, ...); the outcomes must be positive integers.

The very functions of ``games.hog`` (one implementation, checked against the course's tests
there). ``randint`` is here too because the course's module imports it, so ``from dice import *``
hands it on as the course's did. A ``dice.py`` in the bot's own folder comes first on the import
path and replaces this one.
"""

from random import randint

from games.hog import four_sided, make_fair_dice, make_test_dice, six_sided

__all__ = ["four_sided", "make_fair_dice", "make_test_dice", "randint", "six_sided"]
