"""Annotations that misbehave at run time: each is contained to its
parameter, the others are resolved."""
import dataclasses
from typing import Annotated, Optional, TypedDict


class Unprintable:
    def __repr__(self):
        raise RuntimeError("no repr")


class Node(TypedDict):
    name: str
    children: list["Node"]


@dataclasses.dataclass
class Tree:
    left: Optional["Tree"] = None


class Trap:
    def __getattr__(self, name):
        raise RuntimeError("trap " + name)


def walk(a: Annotated[int, Unprintable()], n: Node, t: Tree, trap: Trap(), ok: list[int]) -> int:
    """Walk a tree."""
    return 0
