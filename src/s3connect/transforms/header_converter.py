"""Kafka Connect's default header converter, ``SimpleHeaderConverter``: a header value is the
UTF-8 of ``Values.convertToString``, read back with ``Values.parseString``."""

from __future__ import annotations

from typing import Any

from s3connect.connect.schema import ConnectSchema, Type
from s3connect.transforms.base import DataError
from s3connect.transforms.value_parser import SchemaAndValue, parse_string
from s3connect.transforms.values import convert_to_string

__all__ = ["from_connect_header", "to_connect_header"]

_BYTES = ConnectSchema(Type.BYTES)
_STRING = ConnectSchema(Type.STRING)


def from_connect_header(schema: ConnectSchema | None, value: Any) -> bytes | None:
    """``fromConnectHeader``: None for a null value.

    Raises:
        DataError: a value Connect cannot serialize.
    """
    text = convert_to_string(schema, value)
    return None if text is None else text.encode("utf-8", errors="replace")


def to_connect_header(data: bytes | None) -> SchemaAndValue | None:
    """``toConnectHeader``: (None, None) for a null header, None for the text ``null``, else
    the parsed text (UTF-8, malformed bytes replaced); bytes that do not parse stay bytes."""
    if data is None:
        return (None, None)
    text = bytes(data).decode("utf-8", "replace")
    try:
        return parse_string(text)
    except (DataError, ValueError):
        return (_BYTES, bytes(data))
    except RecursionError:  # nested deeper than Python parses: Kafka keeps such a text
        return (_STRING, text)
