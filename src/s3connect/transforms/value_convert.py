"""``Values.convertTo``: a value to a schema's type, text parsed with ``Values.parseString``
(``convertToBoolean``, ``convertToList``, ``convertToTime``, ... and the number conversions).

Kafka's messages are kept: ``Unable to convert [1, 2, 3,,,] (class java.lang.String) to
Schema{ARRAY}``. Dates, times and timestamps are Python's ``date``, ``time`` and ``datetime``
(Kafka's ``java.util.Date``); a value the ``from`` schema does not name is returned as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from s3connect.connect.java_types import java_class, schema_text
from s3connect.connect.logical import (
    DATE_SCHEMA,
    TIME_SCHEMA,
    TIMESTAMP_SCHEMA,
    bytes_to_decimal,
    decimal_scale,
    decimal_schema,
)
from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Type
from s3connect.transforms.base import DataError
from s3connect.transforms.date_format import DAY_MS
from s3connect.transforms.jvm import double_text, parse_big_decimal
from s3connect.transforms.value_parser import parse_string
from s3connect.transforms.values import (
    as_long,
    convert_number,
    convert_to_string,
    date_from_days,
    is_temporal,
    java_text,
    temporal_millis,
    time_from_millis,
    timestamp_from_millis,
)

__all__ = [
    "DATE_SCHEMA",
    "TIMESTAMP_SCHEMA",
    "TIME_SCHEMA",
    "convert_to",
    "convert_to_boolean",
    "convert_to_date",
    "convert_to_decimal",
    "convert_to_list",
    "convert_to_map",
    "convert_to_number",
    "convert_to_struct",
    "convert_to_time",
    "convert_to_timestamp",
]

_ARRAY = ConnectSchema(Type.ARRAY, value_schema=ConnectSchema(Type.STRING))
_MAP = ConnectSchema(Type.MAP, key_schema=ConnectSchema(Type.STRING))
_STRUCT = ConnectSchema(Type.STRUCT)
_NULL = "Unable to convert a null value to a schema that requires a value"
_NUMBERS = (Type.INT8, Type.INT16, Type.INT32, Type.INT64, Type.FLOAT32, Type.FLOAT64)


def _unable(value: Any, to: ConnectSchema, schema: ConnectSchema | None = None) -> DataError:
    """Kafka's ``Unable to convert <value> (<class>) to <schema>``."""
    text, kind = java_text(value), java_class(value, schema)
    return DataError(f"Unable to convert {text} (class {kind}) to {schema_text(to)}")


def _parsed(value: Any) -> Any:
    """A text's ``Values.parseString`` value (other values as they are)."""
    if not isinstance(value, str):
        return value
    parsed = parse_string(value)
    return None if parsed is None else parsed[1]


def convert_to(to: ConnectSchema, source: ConnectSchema | None, value: Any) -> Any:
    """``Values.convertTo(toSchema, fromSchema, value)``.

    Raises:
        DataError: the value does not convert, or is null for a required schema.
    """
    if value is None:
        if to.optional:
            return None
        raise DataError(_NULL)
    kind = to.type
    if kind is Type.BYTES:
        return _to_decimal(to, value) if to.name == DECIMAL else _to_bytes(to, value)
    if kind is Type.STRING:
        return convert_to_string(source, value)
    if kind is Type.BOOLEAN:
        return convert_to_boolean(source, value)
    if to.name in (DATE, TIME, TIMESTAMP) and kind in (Type.INT32, Type.INT64):
        return _TEMPORAL[to.name](to, source, value)
    if kind in _NUMBERS:
        return convert_number(value, kind, source)
    if kind is Type.ARRAY:
        return _to_list(to, value)
    if kind is Type.MAP:
        return _to_map(to, value)
    return _to_struct(to, value)


def convert_to_number(schema: ConnectSchema | None, value: Any, target: Type) -> int | float | None:
    """``Values.convertToByte`` ... ``convertToDouble`` (``target``): null stays null.

    Raises:
        DataError: the value is no number (nor, with its schema, a date, time or timestamp).
    """
    return None if value is None else convert_number(value, target, schema)


def convert_to_boolean(schema: ConnectSchema | None, value: Any) -> bool | None:
    """``Values.convertToBoolean``: a boolean, ``true``/``false`` text, else a number's non-zero.

    Raises:
        DataError: the value is no boolean nor number.
    """
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        parsed = _parsed(value)
        if isinstance(parsed, bool):
            return parsed
    return as_long(value, schema) != 0


def convert_to_list(schema: ConnectSchema | None, value: Any) -> list[Any]:
    """``Values.convertToList``: a list, or the list a text parses to.

    Raises:
        DataError: anything else (Kafka's message names ``Schema{ARRAY}``).
    """
    return _to_list(_ARRAY, value)


def convert_to_map(schema: ConnectSchema | None, value: Any) -> dict[Any, Any]:
    """``Values.convertToMap``: a map, or the map a text parses to.

    Raises:
        DataError: anything else (Kafka's message names ``Schema{MAP}``).
    """
    return _to_map(_MAP, value)


def convert_to_struct(schema: ConnectSchema | None, value: Any) -> dict[str, Any]:
    """``Values.convertToStruct``: a struct only, which here is a dict with a struct schema.

    Raises:
        DataError: anything else.
    """
    if isinstance(value, Mapping) and (schema is None or schema.type is not Type.STRUCT):
        raise _unable(value, _STRUCT)
    return _to_struct(_STRUCT, value)


def convert_to_time(schema: ConnectSchema | None, value: Any) -> Any:
    """``Values.convertToTime``: a Time value (``schema`` is the value's own).

    Raises:
        DataError: a null or a value that is no time.
    """
    return _required(_to_time, TIME_SCHEMA, schema, value)


def convert_to_date(schema: ConnectSchema | None, value: Any) -> Any:
    """``Values.convertToDate``: a Date value (``schema`` is the value's own).

    Raises:
        DataError: a null or a value that is no date.
    """
    return _required(_to_date, DATE_SCHEMA, schema, value)


def convert_to_timestamp(schema: ConnectSchema | None, value: Any) -> Any:
    """``Values.convertToTimestamp``: a Timestamp value (``schema`` is the value's own).

    Raises:
        DataError: a null or a value that is no timestamp.
    """
    return _required(_to_timestamp, TIMESTAMP_SCHEMA, schema, value)


def convert_to_decimal(schema: ConnectSchema | None, value: Any, scale: int) -> Decimal:
    """``Values.convertToDecimal``: bytes (unscaled, at ``scale``), a number, or its text.

    Raises:
        DataError: a null or a value that is no number.
    """
    if value is None:
        raise DataError(_NULL)
    return _to_decimal(decimal_schema(scale), value)


def _required(convert: Any, to: ConnectSchema, source: ConnectSchema | None, value: Any) -> Any:
    if value is None:
        raise DataError(_NULL)
    return convert(to, source, value)


def _to_decimal(to: ConnectSchema, value: Any) -> Decimal:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes_to_decimal(bytes(value), decimal_scale(to))
    if isinstance(value, Decimal):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return Decimal(double_text(float(value)))  # BigDecimal.valueOf(doubleValue())
    if isinstance(value, str):
        try:
            return parse_big_decimal(value)
        except ValueError as exc:
            raise DataError(str(exc)) from None
    raise _unable(value, to)


def _to_bytes(to: ConnectSchema, value: Any) -> bytes:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    raise _unable(value, to)


def _to_list(to: ConnectSchema, value: Any) -> list[Any]:
    if value is None:
        raise DataError(_NULL)
    parsed = parse_string(value) if isinstance(value, str) else (None, value)
    if parsed is not None and isinstance(parsed[1], list):
        return parsed[1]
    raise _unable(None if parsed is None else parsed[1], to, None if parsed is None else parsed[0])


def _to_map(to: ConnectSchema, value: Any) -> dict[Any, Any]:
    if value is None:
        raise DataError(_NULL)
    parsed = parse_string(value) if isinstance(value, str) else (None, value)
    if parsed is not None and isinstance(parsed[1], dict):
        return parsed[1]
    raise _unable(None if parsed is None else parsed[1], to, None if parsed is None else parsed[0])


def _to_struct(to: ConnectSchema, value: Any) -> dict[str, Any]:
    if value is None:
        raise DataError(_NULL)
    if isinstance(value, dict):
        return value
    raise _unable(value, to)


def _to_date(to: ConnectSchema, source: ConnectSchema | None, value: Any) -> Any:
    value = _parsed(value)
    if is_temporal(value):
        if source is None or source.name == DATE:
            return value
        if source.name == TIMESTAMP:
            millis = temporal_millis(value)  # Java's division truncates toward zero
            return date_from_days(millis // DAY_MS if millis >= 0 else -(-millis // DAY_MS))
    return date_from_days(as_long(value, source))


def _to_time(to: ConnectSchema, source: ConnectSchema | None, value: Any) -> Any:
    value = _parsed(value)
    if is_temporal(value):
        if source is None or source.name == TIME:
            return value
        if source.name == TIMESTAMP:
            return time_from_millis(temporal_millis(value) % DAY_MS)
    return time_from_millis(as_long(value, source))


def _to_timestamp(to: ConnectSchema, source: ConnectSchema | None, value: Any) -> Any:
    value = _parsed(value)
    if is_temporal(value):
        if source is None or source.name == TIMESTAMP:
            return value
        if source.name == DATE:
            return timestamp_from_millis(temporal_millis(value))
        if source.name == TIME:
            return timestamp_from_millis(as_long(value, source))
    return timestamp_from_millis(as_long(value, source))


_TEMPORAL = {DATE: _to_date, TIME: _to_time, TIMESTAMP: _to_timestamp}
