import sys

while True:
    sys.stdout.write("x" * 65536)


def f(x: int) -> int:
    """F."""
    return x
