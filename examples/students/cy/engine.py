"""A Robot Ludo Challenge entry: cut when possible, then go home, then run the counter nearest
home, judged on copies of the board that are checked not to touch the original."""

import random

import numpy as np

from state import Board, makemove, getmoves, isvalidboard, isvalidmove
from match import halfshift


def progress(square, turn, length):
    """How far along its circuit a counter on SQUARE is."""
    return square if turn == 0 else halfshift(square, length)


def as_arrays(board):
    """The board with numpy arrays, as some entries keep it."""
    return Board(board.counters, board.length, np.array(board.safe), np.array(board.red),
                 np.array(board.blue), board.redpen, board.bluepen)


def score(board, move):
    turn, pos, steps = move
    arrays = as_arrays(board)
    before = arrays.red.copy(), arrays.blue.copy()
    after = makemove(arrays, move, copyboard=True)
    if not (np.array_equal(arrays.red, before[0]) and np.array_equal(arrays.blue, before[1])):
        raise AssertionError("makemove changed the board it copied")
    cut = (after.bluepen - board.bluepen) if turn == 0 else (after.redpen - board.redpen)
    mine_before = sum(board.red) if turn == 0 else sum(board.blue)
    mine_after = sum(after.red) if turn == 0 else sum(after.blue)
    home = (board.redpen if turn == 0 else board.bluepen) == (after.redpen if turn == 0 else after.bluepen) \
        and mine_after < mine_before
    if move == (turn, 0, 0):
        return 50
    if pos < 0:
        return -1
    return 100 * cut + 60 * home + progress(pos, turn, board.length)


def engine(board, turn, roll):
    assert isvalidboard(board)
    moves = getmoves(board, turn, roll)
    assert all(isvalidmove(board, move) for move in moves)
    best = max(score(board, move) for move in moves)
    return random.choice([move for move in moves if score(board, move) == best])
