"""Java's integer arithmetic where it differs from Python's."""

from __future__ import annotations

__all__ = ["java_div", "java_narrow"]


def java_div(a: int, b: int) -> int:
    """Java's ``long`` division: truncates toward zero (Python's ``//`` floors)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def java_narrow(value: int, bits: int) -> int:
    """Java's narrowing of an integer to ``bits`` bits, two's complement (``(byte)``,
    ``(short)``, ``(int)``; ``byteValue()`` / ``shortValue()`` of an Integer)."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value
