"""The package's engine: the counter furthest along, from a helper module of the package."""

from state import getmoves

from .weights import progress


def engine(board, turn, roll):
    moves = getmoves(board, turn, roll)
    return max(moves, key=lambda move: progress(move, board.length))
