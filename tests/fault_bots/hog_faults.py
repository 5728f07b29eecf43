"""Hog faults: ``strategy(score, opponent_score) -> dice``."""

from _faults import faults


def _pick(score, opponent_score):
    assert isinstance(score, int) and isinstance(opponent_score, int)
    return 4


globals().update(faults(pick=_pick, invalid=11, wrong=2.5))
