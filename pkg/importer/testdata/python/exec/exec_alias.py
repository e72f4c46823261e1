from __future__ import annotations

from exec_types import DEFAULT_LIMIT, Color, Opaque, Options, Point, Span, Tags, UserId, UserIds

print("importing exec_alias")  # goes to stderr, never into the JSON


def lookup(ids: UserIds, owner: UserId, tags: Tags, limit: int = DEFAULT_LIMIT, color: Color = Color.RED) -> list[Point]:
    """Look users up.

    Args:
        ids: The users.
        owner: Who asks.
        tags: Filter.
        limit: At most this many.
        color: Their colour.

    Returns:
        Where they are.
    """
    return []


def shapes(p: Point, opts: Options, span: Span, blob: Opaque, missing: NoSuchType = None) -> None:
    """Draw shapes."""


class _Tool:
    """What a tool decorator (LangChain's @tool, FastMCP's) returns: an
    object holding the function."""

    def __init__(self, func):
        self.func = func


def _tool(func):
    return _Tool(func)


@_tool
def count(ids: UserIds) -> int:
    """Count users."""
    return len(ids)
