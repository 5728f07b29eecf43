ballast = bytes(1536 << 20)  # 1.5 GiB at import: over the 1 GiB cap


def strategy(left):
    return 1
