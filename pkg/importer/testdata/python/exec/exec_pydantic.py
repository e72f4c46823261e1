from typing import Annotated, Optional

from pydantic import BaseModel, Field


class Address(BaseModel):
    """A postal address."""

    street: str
    city: str = Field(description="The city.")


class Customer(BaseModel):
    """Who buys."""

    name: Annotated[str, Field(min_length=1)]
    age: Optional[int] = Field(default=None, ge=0)
    address: Address


def register(customer: Customer, note: Annotated[str, Field(description="Why.", max_length=200)] = "") -> Customer:
    """Register a customer."""
    return customer
