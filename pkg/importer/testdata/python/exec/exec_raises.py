import exec_no_such_module  # noqa: F401


def f(x: int) -> int:
    """F."""
    return x
