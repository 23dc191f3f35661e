"""Connect's ``org.apache.kafka.connect.data.Values``: values as header text and back to numbers.

``convert_to_string`` is what ``SimpleHeaderConverter`` writes for a header value (the UTF-8 of
it), and what ``Cast`` makes of a date; the ``convert_to_*`` number functions are ``Values``'
lenient conversions (``MaskField`` replacements, ``Values.parseString``'s list alignment).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

from s3connect.connect.java_types import java_class
from s3connect.connect.logical import date_to_days, time_to_millis, timestamp_to_millis
from s3connect.connect.schema import DATE, TIME, TIMESTAMP, ConnectSchema, Type
from s3connect.transforms.base import DataError
from s3connect.transforms.date_format import DAY_MS, compile_pattern, format_millis
from s3connect.transforms.jvm import (
    decimal_text,
    double_text,
    long_value,
    narrow,
    parse_big_decimal,
    to_float32,
)

__all__ = [
    "ISO_DATE",
    "ISO_TIME",
    "ISO_TIMESTAMP",
    "as_double",
    "as_long",
    "convert_number",
    "convert_to_string",
    "date_format_for",
    "is_temporal",
    "temporal_millis",
]

ISO_DATE = "yyyy-MM-dd"
ISO_TIME = "HH:mm:ss.SSS'Z'"
ISO_TIMESTAMP = ISO_DATE + "'T'" + ISO_TIME
_TOKENS = {p: compile_pattern(p) for p in (ISO_DATE, ISO_TIME, ISO_TIMESTAMP)}


def is_temporal(value: Any) -> bool:
    """Whether a value is one Kafka holds as a ``java.util.Date``."""
    return isinstance(value, datetime | date | time)


def temporal_millis(value: datetime | date | time) -> int:
    """The ``java.util.Date.getTime()`` of a Timestamp, Date or Time value."""
    if isinstance(value, datetime):
        return timestamp_to_millis(value)
    if isinstance(value, date):
        return date_to_days(value) * DAY_MS
    return time_to_millis(value)


def date_format_for(millis: int) -> str:
    """``Values.dateFormatFor(date).format(date)``: a time, a date or a timestamp, in UTC."""
    if millis < DAY_MS:
        pattern = ISO_TIME
    elif millis % DAY_MS == 0:
        pattern = ISO_DATE
    else:
        pattern = ISO_TIMESTAMP
    return format_millis(millis, _TOKENS[pattern])


def convert_to_string(schema: ConnectSchema | None, value: Any) -> str | None:
    """``Values.convertToString``: null stays null; structs, maps and lists become JSON-like
    text with quoted strings, a top-level string stays as it is.

    Raises:
        DataError: a value Connect cannot serialize.
    """
    if value is None:
        return None
    out: list[str] = []
    _append(out, schema, value, embedded=False)
    return "".join(out)


def _append(out: list[str], schema: ConnectSchema | None, value: Any, embedded: bool) -> None:
    if value is None:
        out.append("null")
    elif isinstance(value, bool):
        out.append("true" if value else "false")
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, float):
        out.append(double_text(value, schema is not None and schema.type is Type.FLOAT32))
    elif isinstance(value, Decimal):
        out.append(decimal_text(value))
    elif isinstance(value, str):
        if embedded:
            escaped = value.replace("\\", "\\\\").replace('"', '\\"')
            out.append(f'"{escaped}"')
        else:
            out.append(value)
    elif isinstance(value, bytes | bytearray | memoryview):
        text = base64.b64encode(bytes(value)).decode("ascii")
        out.append(f'"{text}"' if embedded else text)
    elif isinstance(value, list | tuple):
        item_schema = schema.value_schema if schema is not None else None
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _append(out, item_schema, item, embedded=True)
        out.append("]")
    elif isinstance(value, Mapping):
        _append_mapping(out, schema, value)
    elif is_temporal(value):
        out.append(date_format_for(temporal_millis(value)))
    else:
        raise DataError(f"Failed to serialize unexpected value type {java_class(value)}: {value!r}")


def _append_mapping(out: list[str], schema: ConnectSchema | None, value: Mapping[Any, Any]) -> None:
    out.append("{")
    if schema is not None and schema.type is Type.STRUCT:
        for i, field in enumerate(schema.fields):
            if i:
                out.append(",")
            item = value.get(field.name)
            if item is None:
                item = field.schema.default  # Struct.get(field) falls back on the default
            _append(out, None, field.name, embedded=True)
            out.append(":")
            _append(out, field.schema, item, embedded=True)
    else:
        key_schema = schema.key_schema if schema is not None else None
        value_schema = schema.value_schema if schema is not None else None
        for i, (key, item) in enumerate(value.items()):
            if i:
                out.append(",")
            _append(out, key_schema, key, embedded=True)
            out.append(":")
            _append(out, value_schema, item, embedded=True)
    out.append("}")


def as_long(value: Any, schema: ConnectSchema | None = None) -> int:
    """``Values.asLong``: a number, a numeric string, or (with its schema) a date's number.

    Raises:
        DataError: Java's message when the value is not a number.
    """
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return long_value(value)
    if isinstance(value, str):
        try:
            return long_value(parse_big_decimal(value))
        except ValueError:
            pass
    if schema is not None and is_temporal(value):
        if schema.name == DATE:
            return temporal_millis(value) // DAY_MS
        if schema.name in (TIME, TIMESTAMP):
            return temporal_millis(value)
    target = f"{schema.type.name}" if schema is not None else "a number"
    raise DataError(f"Unable to convert {value} (class {java_class(value)}) to {target}")


def as_double(value: Any, schema: ConnectSchema | None = None) -> float:
    """``Values.asDouble``: like :func:`as_long` but keeping the fraction."""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            return float(parse_big_decimal(value))
        except ValueError:
            pass
    return float(as_long(value, schema))


def convert_number(value: Any, target: Type) -> int | float:
    """``Values.convertToByte`` ... ``convertToDouble`` (no schema): ``target`` an integer or
    floating-point type.

    Raises:
        DataError: the value is not a number.
    """
    if target is Type.FLOAT32:
        return to_float32(as_double(value))
    if target is Type.FLOAT64:
        return as_double(value)
    return narrow(as_long(value), target)
