import os

print("leaving now")
os._exit(4)


def f(x: int) -> int:
    """F."""
    return x
