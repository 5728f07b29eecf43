"""Othello faults: ``strategy(board, player) -> move``; ``board[r][c]`` is column "ABCDEFGH"[c],
row r + 1, holding "B", "O" or "*"; the answer is a square like "E3", or "P" to pass."""

from _faults import faults

from games.othello import bits_to_squares, legal_bits, square_name


def _pick(board, player):
    mine = theirs = 0
    for r, row in enumerate(board):
        for c, cell in enumerate(row):
            if cell == player:
                mine |= 1 << (r * 8 + c)
            elif cell != "*":
                theirs |= 1 << (r * 8 + c)
    moves = bits_to_squares(legal_bits(mine, theirs))
    return square_name(moves[0]) if moves else "P"


# D4 holds a disc at the start: "space occupied"
globals().update(faults(pick=_pick, invalid="D4", wrong=42))
