"""Toothpick Takeaway faults: ``strategy(toothpicks_left) -> take``."""

from _faults import faults

globals().update(faults(pick=lambda left: 1, invalid=3, wrong="one"))
