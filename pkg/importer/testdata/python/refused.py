"""Functions that cannot be tools, and types that cannot be translated."""
import numpy as np


def varargs(*values: int) -> int:
    """Sum values."""


def kwargs(**options: str) -> None:
    """Take options."""


def positional(a: int, /, b: int) -> int:
    """Positional-only."""


def untranslatable(arr: np.ndarray, cb: callable, raw: bytes, when=now(), dk: dict[int, str] = {}) -> None:
    """Mixed. Use when testing.

    Args:
        arr: An array.
    """


def _private(x: int) -> int:
    """Not imported unless named."""
