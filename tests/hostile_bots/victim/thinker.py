"""An honest toothpick strategy that thinks: each move costs it a fixed amount of CPU work (about
20 ms on one free core) before the course's perfect move. A rival that steals CPU on its time
would make it late."""


def strategy(left):
    total = 0
    for number in range(400_000):
        total += number * number % 7
    return left % 3 or 1
