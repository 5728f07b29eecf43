"""An example Othello bot in the course's signature: ``strategy(board, player)``, ``board[r][c]``
holding ``"B"``, ``"O"`` or ``"*"``, answers a square like ``"E3"`` (``"P"`` to pass). It plays
the move that flips the most discs. ``arcade tournament othello greedy examples/ours.py:strategy``."""

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, player, row, col):
    """How many discs a disc of ``player`` at (row, col) would flip."""
    if board[row][col] != "*":
        return 0
    other = "O" if player == "B" else "B"
    total = 0
    for dr, dc in DIRECTIONS:
        r, c, run = row + dr, col + dc, 0
        while 0 <= r < 8 and 0 <= c < 8 and board[r][c] == other:
            r, c, run = r + dr, c + dc, run + 1
        if run and 0 <= r < 8 and 0 <= c < 8 and board[r][c] == player:
            total += run
    return total


def strategy(board, player):
    best = max(((flips(board, player, r, c), r, c) for r in range(8) for c in range(8)), default=(0, 0, 0))
    count, row, col = best
    if count == 0:
        return "P"
    return f"{'ABCDEFGH'[col]}{row + 1}"
