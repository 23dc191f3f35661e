"""Connect's ``org.apache.kafka.connect.data.Values``: values as header text and back to numbers.

``convert_to_string`` is what ``SimpleHeaderConverter`` writes for a header value (the UTF-8 of
it), and what ``Cast`` makes of a date; :func:`convert_number` is ``Values``' lenient number
conversion (``MaskField`` replacements, ``Values.parseString``'s list alignment);
:func:`infer_schema` is ``Values.inferSchema``. The conversions that parse text are in
:mod:`s3connect.transforms.value_convert`.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from s3connect.connect.java_types import java_class, schema_text, schemaless_type
from s3connect.connect.logical import (
    EPOCH,
    EPOCH_DAY,
    date_to_days,
    millis_to_time,
    time_to_millis,
    timestamp_to_millis,
)
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
from s3connect.util.jackson import Float32
from s3connect.util.javamath import java_narrow

__all__ = [
    "ISO_DATE",
    "ISO_TIME",
    "ISO_TIMESTAMP",
    "as_double",
    "as_long",
    "convert_number",
    "convert_to_string",
    "date_format_for",
    "date_from_days",
    "escape",
    "infer_schema",
    "is_temporal",
    "java_text",
    "temporal_millis",
    "time_from_millis",
    "timestamp_from_millis",
]

ISO_DATE = "yyyy-MM-dd"
ISO_TIME = "HH:mm:ss.SSS'Z'"
ISO_TIMESTAMP = ISO_DATE + "'T'" + ISO_TIME
_TOKENS = {p: compile_pattern(p) for p in (ISO_DATE, ISO_TIME, ISO_TIMESTAMP)}
_DATE_TO_STRING = compile_pattern("EEE MMM dd HH:mm:ss zzz yyyy")


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


def date_from_days(days: int) -> date:
    """``Date.toLogical`` of ``(int) days``.

    Raises:
        DataError: a day out of Python's years 1 to 9999.
    """
    try:
        return EPOCH_DAY + timedelta(days=java_narrow(days, 32))
    except OverflowError:
        raise DataError(f"{days} is out of the range of a {DATE}") from None


def timestamp_from_millis(millis: int) -> datetime:
    """``Timestamp.toLogical``: the UTC datetime of epoch milliseconds.

    Raises:
        DataError: a moment out of Python's years 1 to 9999.
    """
    try:
        return EPOCH + timedelta(milliseconds=millis)
    except OverflowError:
        raise DataError(f"{millis} is out of the range of a {TIMESTAMP}") from None


def time_from_millis(millis: int) -> time | datetime:
    """``Time.toLogical`` of ``(int) millis`` (:func:`~s3connect.connect.logical.millis_to_time`).

    Raises:
        DataError: Kafka's message for milliseconds out of 0 to 86400000.
    """
    try:
        return millis_to_time(java_narrow(millis, 32))
    except ValueError as e:
        raise DataError(str(e)) from None


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


def escape(value: str) -> str:
    """``Values.escape``: backslashes doubled, then double quotes escaped."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def java_text(value: Any) -> str:
    """A value's ``toString()`` in Kafka's error messages (``1.0E-5``, ``[1, 2]``, ``{a=1}``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return double_text(value, isinstance(value, Float32))
    if isinstance(value, Decimal):
        return decimal_text(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(java_text(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{java_text(k)}={java_text(v)}" for k, v in value.items()) + "}"
    if is_temporal(value):
        return format_millis(temporal_millis(value), _DATE_TO_STRING)  # java.util.Date's
    return str(value)


def _append(out: list[str], schema: ConnectSchema | None, value: Any, embedded: bool) -> None:
    if value is None:
        out.append("null")
    elif isinstance(value, bool):
        out.append("true" if value else "false")
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, float):
        single = isinstance(value, Float32) or (schema is not None and schema.type is Type.FLOAT32)
        out.append(double_text(value, single))
    elif isinstance(value, Decimal):
        out.append(decimal_text(value))
    elif isinstance(value, str):
        if embedded:
            out.append(f'"{escape(value)}"')
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
    target = schema_text(schema) if schema is not None else "a number"
    raise DataError(f"Unable to convert {java_text(value)} (class {java_class(value)}) to {target}")


def as_double(value: Any, schema: ConnectSchema | None = None) -> float:
    """``Values.asDouble``: like :func:`as_long` but keeping the fraction."""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            number = parse_big_decimal(value)
        except ValueError:
            pass
        else:  # a BigDecimal zero has no sign
            return 0.0 if number.is_zero() else float(number)
    return float(as_long(value, schema))


def convert_number(value: Any, target: Type, schema: ConnectSchema | None = None) -> int | float:
    """``Values.convertToByte`` ... ``convertToDouble``: ``target`` an integer or floating-point
    type; ``schema``, the value's own, lets a date, time or timestamp convert.

    Raises:
        DataError: the value is not a number.
    """
    if target is Type.FLOAT32:
        return to_float32(as_double(value, schema))
    if target is Type.FLOAT64:
        return as_double(value, schema)
    return narrow(as_long(value, schema), target)


def infer_schema(value: Any) -> ConnectSchema | None:
    """``Values.inferSchema``: a value's schema as Kafka infers it from its Java class (a Python
    int is a ``Long``, a float a ``Double`` unless it is a :class:`Float32`); None for null, an
    empty or mixed list or map, and other values. A struct's dict is read as a map."""
    if isinstance(value, Float32):
        return ConnectSchema(Type.FLOAT32)
    if isinstance(value, list | tuple | Mapping):
        return _infer_container(value)
    kind = schemaless_type(value)
    return None if kind is None else ConnectSchema(kind)


def _infer_container(value: Any) -> ConnectSchema | None:
    if not value:
        return None
    if not isinstance(value, Mapping):
        items = _detect(value)
        return None if items is None else ConnectSchema(Type.ARRAY, value_schema=items)
    keys, items = _detect(value.keys()), _detect(value.values())
    if keys is None or items is None:
        return None
    return ConnectSchema(Type.MAP, key_schema=keys, value_schema=items)


def _detect(values: Any) -> ConnectSchema | None:
    """``Values.SchemaDetector``: the one type of the values (optional if one is null)."""
    known: Type | None = None
    optional = False
    for item in values:
        if item is None:
            optional = True
            continue
        schema = infer_schema(item)
        if schema is None or (known is not None and schema.type is not known):
            return None
        known = schema.type
    return None if known is None else ConnectSchema(known, optional=optional)
