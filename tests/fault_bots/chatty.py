print("loading: printing at import is not a fault")

not_a_function = 3


def strategy(left):
    return 1
