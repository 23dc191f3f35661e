"""Java's integer arithmetic where it differs from Python's."""

from __future__ import annotations

__all__ = ["java_div"]


def java_div(a: int, b: int) -> int:
    """Java's ``long`` division: truncates toward zero (Python's ``//`` floors)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q
