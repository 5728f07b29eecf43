raise RuntimeError("broken at import")

def strategy(left):
    return 1
