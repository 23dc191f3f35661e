"""Java's number, text and class semantics where Kafka's transforms rely on them.

Our values do not say which Java class Kafka would hold them in; the schema does (an ``int8``
value is a ``Byte``), and a schemaless value is what Kafka's ``JsonConverter`` makes of JSON: an
integer is a ``Long``, a decimal number a ``Double``, an object a ``HashMap``.
"""

from __future__ import annotations

import math
import re
import struct
from decimal import Decimal, InvalidOperation

from s3connect.connect.schema import Type
from s3connect.util.jackson import Float32, dump
from s3connect.util.javamath import java_narrow

__all__ = [
    "decimal_text",
    "double_text",
    "java_split",
    "java_trim",
    "long_value",
    "narrow",
    "parse_big_decimal",
    "parse_boolean",
    "parse_double",
    "parse_integer",
    "to_float32",
]

_BITS = {Type.INT8: 8, Type.INT16: 16, Type.INT32: 32, Type.INT64: 64}
_F32_MAX = struct.unpack(">f", b"\x7f\x7f\xff\xff")[0]


def java_trim(text: str) -> str:
    """``String.trim``: strips every character up to U+0020 at both ends."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


def java_split(text: str, separator: str) -> list[str]:
    """``String.split`` on a literal separator: trailing empty strings are dropped."""
    parts = text.split(separator)
    while len(parts) > 1 and parts[-1] == "":
        parts.pop()
    if parts == [""] and text != "":
        return []
    return parts


def _double_to_integer(value: float, bits: int) -> int:
    """Java's ``(int)`` / ``(long)`` of a double: NaN is 0, out of range saturates."""
    if math.isnan(value):
        return 0
    high: int = 2 ** (bits - 1) - 1
    low = -high - 1
    if math.isinf(value):
        return high if value > 0 else low
    return max(low, min(high, int(value)))


def long_value(value: int | float | Decimal) -> int:
    """``Number.longValue()`` of an integer, a double or a ``BigDecimal``."""
    if isinstance(value, float):
        return _double_to_integer(value, 64)
    if isinstance(value, Decimal) and value.is_finite():
        exponent = value.as_tuple().exponent
        if isinstance(exponent, int) and exponent >= 64:
            return 0  # a multiple of 10**64 is one of 2**64: no low bits (and no huge int)
    return java_narrow(int(value), 64)


def narrow(value: int | float | Decimal, target: Type) -> int:
    """``Number.byteValue()`` / ``shortValue()`` / ``intValue()`` / ``longValue()``."""
    bits = _BITS[target]
    if isinstance(value, float):
        # Double.byteValue() and shortValue() are (byte) / (short) of (int) value.
        return java_narrow(_double_to_integer(value, max(bits, 32)), bits)
    return java_narrow(int(value), bits)


def to_float32(value: float) -> Float32:
    """The nearest Java ``float`` (infinite when out of its range), as a :class:`Float32` (a
    Python float that JSON writers print as Java's ``Float.toString``)."""
    if math.isnan(value) or math.isinf(value):
        return Float32(value)
    try:
        return Float32(struct.unpack("f", struct.pack("f", value))[0])
    except OverflowError:
        # Beyond float's range: Java rounds to infinity unless it rounds down to MAX_VALUE.
        return Float32(math.copysign(math.inf, value) if abs(value) > _F32_MAX else _F32_MAX)


def double_text(value: float, single: bool = False) -> str:
    """``Double.toString`` (or ``Float.toString`` when ``single``)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    out: list[str] = []
    dump(Float32(value) if single else float(value), out)
    return out[0]


def decimal_text(value: Decimal) -> str:
    """``BigDecimal.toString`` (the same scientific-notation rule as Python's ``str``)."""
    text = str(value)
    return text[1:] if text.startswith("-") and value.is_zero() else text


_INTEGER = re.compile(r"[+-]?\d+")
_DOUBLE = re.compile(
    r"[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?"
    r"|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+[fFdD]?)"
)
_BIG_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def parse_integer(text: str, target: Type) -> int:
    """``Byte.parseByte`` / ``Short.parseShort`` / ``Integer.parseInt`` / ``Long.parseLong``.

    Raises:
        ValueError: not an integer of that type (Java's ``NumberFormatException``).
    """
    if not _INTEGER.fullmatch(text):
        raise ValueError(f'For input string: "{text}"')
    value = int(text)
    bits = _BITS[target]
    if not -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
        raise ValueError(f'Value out of range. Value:"{text}" Radix:10')
    return value


def parse_double(text: str) -> float:
    """``Double.parseDouble`` (Java's syntax: ``NaN``, ``Infinity``, a type suffix, hex).

    Raises:
        ValueError: not a Java floating-point literal.
    """
    trimmed = java_trim(text)
    if not _DOUBLE.fullmatch(trimmed):
        raise ValueError(f'For input string: "{text}"')
    body = trimmed.rstrip("fFdD")  # the grammar puts digits before any suffix
    if body.lstrip("+-") in ("NaN", "Infinity"):
        sign = -1.0 if body.startswith("-") else 1.0
        return math.nan if body.lstrip("+-") == "NaN" else sign * math.inf
    if "x" in body.lower():
        return float.fromhex(body)
    return float(body)


def parse_big_decimal(text: str) -> Decimal:
    """``new BigDecimal(text)``.

    Raises:
        ValueError: not a Java ``BigDecimal`` literal.
    """
    if not _BIG_DECIMAL.fullmatch(text):
        raise ValueError(f"Character array is not a valid decimal number: {text!r}")
    try:
        return Decimal(text)
    except InvalidOperation:
        raise ValueError(f"Character array is not a valid decimal number: {text!r}") from None


def parse_boolean(text: str) -> bool:
    """``Boolean.parseBoolean``: true only for ``true`` in any case."""
    return text.lower() == "true"
