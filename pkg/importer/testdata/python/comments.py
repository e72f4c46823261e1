"""PEP 484 type comments, as older code bases write them."""


def legacy(name, count=1, flags=None):
    # type: (str, int, Optional[List[str]]) -> Dict[str, int]
    """Count a name. Use when counting."""


def per_arg(
    a,  # type: int
    b="x",  # type: str
):
    """Per-argument comments. Use when testing."""


async def fetch(url: str) -> bytes:
    """Fetch a page (async). Use when reading a page."""
