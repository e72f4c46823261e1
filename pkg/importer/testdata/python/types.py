"""Every type construct of the translation table."""
import datetime
import uuid
from pathlib import Path
from typing import Any, Dict, FrozenSet, List, Literal, Mapping, Optional, Sequence, Set, Tuple, Union


def scalars(s: str, i: int, f: float, b: bool, n: None, a: Any) -> None:
    """Scalars. Use when testing."""


def containers(
    l1: list[int],
    l2: List[str],
    seq: Sequence[float],
    t1: tuple[int, str],
    t2: Tuple[int, ...],
    s1: set[str],
    s2: FrozenSet[int],
    d1: dict[str, int],
    d2: Dict[str, List[int]],
    m: Mapping[str, Any],
    bare: list,
) -> dict:
    """Containers. Use when testing."""


def optionals(
    o1: Optional[str],
    o2: int | None = None,
    u: Union[int, str] = 1,
    u2: Union[int, List[str], None] = None,
    lit: Literal["a", "b"] = "a",
    lit2: Literal[1, 2, None] = None,
    implicit: int = None,
) -> Optional[str]:
    """Optionals. Use when testing."""


def formats(when: datetime.datetime, day: datetime.date, id: uuid.UUID, where: Path, span: datetime.timedelta) -> None:
    """Formats. Use when testing."""


Vector = list[float]


def aliases(v: Vector, fwd: "dict[str, Vector]") -> "Vector":
    """Aliases and forward references. Use when testing."""
