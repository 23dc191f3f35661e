"""Kafka's ByteArrayConverter."""

from __future__ import annotations

from typing import Any

from s3connect.connect.schema import ConnectSchema, Type

__all__ = [
    "ByteArrayConverter",
]


class ByteArrayConverter:
    """Kafka's ByteArrayConverter: bytes passed through, schema optional BYTES."""

    SCHEMA = ConnectSchema(Type.BYTES, optional=True)

    def __init__(self, *, is_key: bool = False) -> None:
        self.is_key = is_key

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        """Return ``data`` unchanged."""
        return (None if data is None else bytes(data)), self.SCHEMA

    def from_connect(self, topic: str, schema: ConnectSchema | None, value: Any) -> bytes | None:
        """Return bytes unchanged; None stays None."""
        if value is None:
            return None
        if isinstance(value, bytes | bytearray | memoryview):
            return bytes(value)
        raise ValueError(
            f"ByteArrayConverter is not compatible with objects of type {type(value).__name__}"
        )
