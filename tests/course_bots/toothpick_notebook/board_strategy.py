# A strategy written against the notebook's Board: the_board.state is what is left, and
# the_board.move_set the takes allowed. Also a player object of the student's own.


def strategy(the_board):
    for take in the_board.move_set:
        if (the_board.state - take) % 3 == 0:
            return take
    return the_board.move_set[0]


class SmartPlayer:
    def __init__(self, greedy=False):
        self.greedy = greedy
        self.moves = 0

    def move(self, the_board):
        self.moves += 1
        if self.greedy:
            return max(the_board.move_set)
        return strategy(the_board)
