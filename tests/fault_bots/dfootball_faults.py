"""D-Football faults: ``strategy(game) -> square``, the game normalised: Michigan (1) to move."""

from _faults import faults

from games.dfootball import valid_moves


def _pick(game):
    assert game["turn"] == 1
    return valid_moves(game)[-1]


globals().update(faults(pick=_pick, invalid=1, wrong="3"))
