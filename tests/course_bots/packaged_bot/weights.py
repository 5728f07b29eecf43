"""How far along its circuit a move's counter is (entering first)."""

from match import halfshift


def progress(move, length):
    turn, pos, steps = move
    if (pos, steps) == (0, 0):
        return length
    return pos if turn == 0 else halfshift(pos, length)
