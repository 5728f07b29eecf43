# 10-1-2 Toothpick Takeaway: the notebook's classes, filled in as a student filled them in.
# The notebook's skeleton writes Player.move without self: `def move(the_board)`.


class Player:
    def __init__(self):
        pass

    def move(the_board):
        left = the_board.state
        if left % 3 == 0:
            return 1  # a lost position: take one and hope
        return left % 3


class Board:
    def __init__(self):
        self.move_set = []
        self.state = None

    def update(self):
        pass


def is_legal(state, move):
    return move in (1, 2) and move <= state


def is_winning(state):
    return state == 0
