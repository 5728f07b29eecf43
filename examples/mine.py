"""An example D-Football bot in the course's signature: ``strategy(game)`` returns a square of
the normalised game (Michigan always to move). ``arcade match dfootball examples/mine.py:strategy perfect``."""

from games.dfootball import valid_moves


def strategy(game):
    return valid_moves(game)[-1]  # the furthest square it can reach
