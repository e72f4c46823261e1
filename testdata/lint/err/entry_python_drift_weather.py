"""The module of the entry-python-drift fixture (entry_python_drift.yaml)."""
from typing import Optional


def forecast(city: str, days: int = 1, unit: Optional[str] = None, tags: list[str] = []) -> dict:
    """Forecast the weather of a city."""
    return {}
