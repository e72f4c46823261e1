"""Annotated and Field constraints."""
from typing import Annotated

from annotated_types import Ge, MaxLen
from pydantic import Field


def annotated(
    name: Annotated[str, "The user's name."],
    age: Annotated[int, Field(ge=0, le=150, description="Age in years.")],
    code: Annotated[str, Field(min_length=2, max_length=3, pattern="^[A-Z]+$")] = "EU",
    items: Annotated[list[int], MaxLen(5)] = [],
    score: Annotated[float, Ge(0), "A score."] = 0.5,
    size: int = Field(10, gt=0, lt=100, description="The size."),
    other: Annotated[int, object()] = 1,
) -> Annotated[str, "The greeting."]:
    """Greet a user. Use when a user signs in."""
