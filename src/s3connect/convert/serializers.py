"""Serializing Connect values back to Kafka bytes: Kafka Connect's ``Converter.fromConnectData``.

The S3 source reads each record as a Connect value (and schema) from its object, then the
configured ``value.converter`` / ``key.converter`` turns it into the bytes published to Kafka:
JsonConverter (``schemas.enable`` true: the ``{"schema", "payload"}`` envelope; false: the bare
value), StringConverter (text as UTF-8) or ByteArrayConverter (bytes as they are).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from s3connect.connect.schema import ConnectSchema
from s3connect.convert.json import JsonConverter

__all__ = ["Serializer", "make_serializer"]

Serializer = Callable[[str, ConnectSchema | None, Any], bytes | None]
"""(topic, schema, value) -> the Kafka bytes (None for null)."""


def _string(topic: str, schema: ConnectSchema | None, value: Any) -> bytes | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    raise ValueError(
        f"StringConverter needs string values, got {type(value).__name__} (use JsonConverter)"
    )


def _bytearray(topic: str, schema: ConnectSchema | None, value: Any) -> bytes | None:
    if value is None:
        return None
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    raise ValueError(
        f"ByteArrayConverter is not compatible with objects of type {type(value).__name__}"
    )


def make_serializer(
    name: str, *, schemas_enable: bool = True, decimal_format: str = "BASE64", is_key: bool = False
) -> Serializer:
    """The serializer of converter ``name`` (``json``, ``string``, ``bytearray``).

    Raises:
        ValueError: an unknown converter name.
    """
    if name == "json":
        converter = JsonConverter(
            schemas_enable=schemas_enable, decimal_format=decimal_format, is_key=is_key
        )
        return converter.from_connect
    if name == "string":
        return _string
    if name == "bytearray":
        return _bytearray
    raise ValueError(f"Unknown converter {name!r}; known: bytearray, json, string")
