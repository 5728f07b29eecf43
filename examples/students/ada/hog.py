"""CS 61A Presents The Game of Hog."""

from dice import six_sided, four_sided, make_test_dice
from ucb import main, trace, interact

GOAL_SCORE = 100  # The goal of Hog is to score 100 points.

######################
# Phase 1: Simulator #
######################


def roll_dice(num_rolls, dice=six_sided):
    """Simulate rolling the DICE exactly NUM_ROLLS > 0 times. Return the sum of
    the outcomes unless any of the outcomes is 1. In that case, return 1.
    """
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    outcomes = [dice() for _ in range(num_rolls)]
    if 1 in outcomes:
        return 1
    return sum(outcomes)


def piggy_points(score):
    """Return the points scored from rolling 0 dice."""
    last_two = score % 100
    return 4 + abs(last_two // 10 - last_two % 10)


def take_turn(num_rolls, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 in the case
    of a player using Piggy Points."""
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < goal, 'The game should be over.'
    if num_rolls == 0:
        return piggy_points(opponent_score)
    return roll_dice(num_rolls, dice)


def digits(n):
    return [int(d) for d in str(n)]


@trace
def more_boar(player_score, opponent_score):
    """Return whether the player gets an extra turn."""
    mine, theirs = digits(player_score), digits(opponent_score)
    return min(mine) < min(theirs) and max(mine) > max(theirs)


#######################
# Phase 3: Strategies #
#######################


def always_roll(n):
    def strategy(score, opponent_score):
        return n
    return strategy


def piggypoints_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy rolls 0 dice if that gives at least CUTOFF points, and
    rolls NUM_ROLLS otherwise.
    """
    if piggy_points(opponent_score) >= cutoff:
        return 0
    return num_rolls


def more_boar_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy rolls 0 dice when it triggers an extra turn."""
    if more_boar(score + piggy_points(opponent_score), opponent_score):
        return 0
    return piggypoints_strategy(score, opponent_score, cutoff, num_rolls)


def final_strategy(score, opponent_score):
    """Win at once with Piggy Points when we can; otherwise More Boar, taking fewer risks when
    ahead.
    """
    if score + piggy_points(opponent_score) >= GOAL_SCORE:
        return 0
    if score > opponent_score + 20:
        return more_boar_strategy(score, opponent_score, cutoff=6, num_rolls=4)
    return more_boar_strategy(score, opponent_score)


##########################
# Command Line Interface #
##########################

# NOTE: Functions in this section do not need to be changed. They use features
# of Python not yet covered in the course.


@main
def run(*args):
    """Read in the command-line argument and calls corresponding functions."""
    import argparse
    parser = argparse.ArgumentParser(description="Play Hog")
    parser.add_argument('--run_experiments', '-r', action='store_true',
                        help='Runs strategy experiments')

    args = parser.parse_args()

    if args.run_experiments:
        run_experiments()
    interact("run() must never run inside the arcade")
