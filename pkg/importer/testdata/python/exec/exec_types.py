"""Types that exec_alias.py imports: the static reader of exec_alias.py
cannot see them, importing the module (--exec) resolves them."""
import dataclasses
import enum
from typing import Annotated, NamedTuple, NewType, Optional, TypedDict

UserIds = list[int]
Tags = Annotated[list[str], "Labels to attach."]
UserId = NewType("UserId", int)
DEFAULT_LIMIT = 20


class Color(enum.Enum):
    """A colour."""

    RED = "red"
    GREEN = "green"


@dataclasses.dataclass
class Point:
    """A point on the map."""

    x: float
    y: float = 0.0


class Options(TypedDict, total=False):
    verbose: bool
    depth: Optional[int]


class Span(NamedTuple):
    start: int
    end: int = -1


class Opaque:
    pass
