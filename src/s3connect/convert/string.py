"""Kafka's StringConverter."""

from __future__ import annotations

import codecs
from decimal import Decimal
from typing import Any

from s3connect.connect.schema import ConnectSchema, Type
from s3connect.util.jackson import Float32, dump

__all__ = [
    "StringConverter",
]

_BOM = b"\xfe\xff"


class StringConverter:
    """Kafka's StringConverter: bytes decoded as text, schema optional STRING."""

    SCHEMA = ConnectSchema(Type.STRING, optional=True)

    def __init__(self, *, encoding: str = "utf-8", is_key: bool = False) -> None:
        self.encoding = encoding
        self.is_key = is_key
        self._utf16 = codecs.lookup(encoding).name == "utf-16"

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        """Decode ``data``; malformed bytes become U+FFFD, as Java's ``new String`` does (Java's
        UTF-16 reads big-endian unless a byte-order mark says otherwise)."""
        if data is None:
            return None, self.SCHEMA
        raw = bytes(data)
        encoding = self.encoding
        if self._utf16 and raw[:2] not in (_BOM, _BOM[::-1]):
            encoding = "utf-16-be"
        return raw.decode(encoding, errors="replace"), self.SCHEMA

    def from_connect(self, topic: str, schema: ConnectSchema | None, value: Any) -> bytes | None:
        """Encode the value's ``toString()`` whatever the schema (a string, a boolean, a
        number; bytes pass through); None stays None. Java's UTF-16 is big-endian with a
        byte-order mark."""
        if value is None:
            return None
        if isinstance(value, bytes | bytearray | memoryview):
            return bytes(value)
        text = _java_text(value)
        if self._utf16:
            return _BOM + text.encode("utf-16-be")
        return text.encode(self.encoding)


def _java_text(value: Any) -> str:
    """``Object.toString()`` of a string, boolean or number.

    Raises:
        ValueError: another value (whose Java text the converter does not know).
    """
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        out: list[str] = []
        dump(value if isinstance(value, Float32) else float(value), out)
        return out[0]
    if isinstance(value, Decimal):
        text = str(value)
        return text[1:] if text.startswith("-") and value.is_zero() else text
    raise ValueError(
        f"StringConverter needs string values, got {type(value).__name__} (use JsonConverter)"
    )
