"""Robot Ludo faults: ``engine(board, turn, roll) -> move`` with the notebook's ``Board``."""

from _faults import faults

from games.ludo import Board, getmoves


def _pick(board, turn, roll):
    assert isinstance(board, Board)
    return getmoves(board, turn, roll)[-1]


globals().update(faults(pick=_pick, invalid=(0, 3, 1), wrong="forward"))
