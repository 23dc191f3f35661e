"""Kafka's StringConverter."""

from __future__ import annotations

from typing import Any

from s3connect.connect.schema import ConnectSchema, Type

__all__ = [
    "StringConverter",
]


class StringConverter:
    """Kafka's StringConverter: bytes decoded as text, schema optional STRING."""

    SCHEMA = ConnectSchema(Type.STRING, optional=True)

    def __init__(self, *, encoding: str = "utf-8", is_key: bool = False) -> None:
        self.encoding = encoding
        self.is_key = is_key

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        """Decode ``data``; malformed bytes become U+FFFD, as Java's ``new String`` does."""
        value = None if data is None else bytes(data).decode(self.encoding, errors="replace")
        return value, self.SCHEMA

    def from_connect(self, topic: str, schema: ConnectSchema | None, value: Any) -> bytes | None:
        """Encode a string value (bytes pass through); None stays None."""
        if value is None:
            return None
        if isinstance(value, str):
            return value.encode(self.encoding)
        if isinstance(value, bytes | bytearray | memoryview):
            return bytes(value)
        raise ValueError(
            f"StringConverter needs string values, got {type(value).__name__} (use JsonConverter)"
        )
