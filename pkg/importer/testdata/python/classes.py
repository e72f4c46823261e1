"""Enum, TypedDict and dataclass classes of the file."""
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import NotRequired, Required, TypedDict


class Color(Enum):
    """A color."""

    RED = "red"
    GREEN = "green"


class Level(IntEnum):
    LOW = 1
    HIGH = 2


class Address(TypedDict):
    """A postal address.

    Attributes:
        street: Street and number.
        zip: The postal code.
    """

    street: str
    zip: NotRequired[str]


class Filter(TypedDict, total=False):
    field: Required[str]
    value: str


@dataclass
class Box:
    """A box.

    Attributes:
        width: In cm.
    """

    width: float
    label: str = "box"
    tags: list[str] = field(default_factory=list)


def paint(color: Color, level: Level = Level.HIGH, address: Address | None = None, filters: list[Filter] = (), box: Box = None) -> Box:
    """Paint a box. Use when something needs a color."""


class Tools:
    @staticmethod
    def static_one(x: int) -> int:
        """A static method. Use when testing."""
        return x

    @classmethod
    def class_one(cls, y: str) -> str:
        """A class method. Use when testing."""
        return y

    def instance(self, z: int) -> int:
        """An instance method."""
        return z
