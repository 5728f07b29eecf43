def strategy(left)
    return 1
