"""A Robot Ludo entry that is an object, as the challenge's own tournament script plays it:
``TDPlayer(color=0).make_a_move``, a method of a player built with its arguments."""

from state import getmoves


class TDPlayer:
    def __init__(self, color, weights=(1.0, 0.5), name="td"):
        self.color = color
        self.weights = tuple(weights)
        self.name = name
        self.moves_made = 0

    def value(self, move):
        turn, position, steps = move
        if position < 0:
            return -1.0
        if (position, steps) == (0, 0):
            return 100.0  # a counter out of the pen
        return self.weights[0] * steps + self.weights[1] * position

    def make_a_move(self, board, turn, roll):
        self.moves_made += 1
        return max(getmoves(board, turn, roll), key=self.value)
