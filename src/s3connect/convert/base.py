"""The Converter protocol: raw Kafka key or value bytes to a Connect value and schema, and back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from s3connect.connect.schema import ConnectSchema

__all__ = ["Converter", "Serializer"]

Serializer = Callable[[str, ConnectSchema | None, Any], bytes | None]
"""A converter's ``fromConnectData``: (topic, schema, value) -> the Kafka bytes (None for null)."""


@runtime_checkable
class Converter(Protocol):
    """Turns the raw bytes of a Kafka key or value into a Connect value and schema."""

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        """Convert ``data``; raise ValueError naming the cause when it cannot be converted."""
        ...
