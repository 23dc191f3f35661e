"""Kafka Connect's ``ConnectSchema.validateValue`` (and ``Struct.validate``) in our value model.

Kafka checks a value's Java class against the schema's; ours carry no class, so each type's
Python values stand for it: an integer of the type's range (``Byte`` ... ``Long``), a float
(a :class:`~s3connect.util.jackson.Float32`, Java's ``Float``, only for FLOAT32), a ``bool``,
a ``str``, bytes, a list, a mapping (a map or a struct, whose dict has no other keys than the
schema's fields: Kafka's ``Struct schemas do not match.``), a ``decimal.Decimal`` for a Decimal
and a ``date``, ``time`` or ``datetime`` (Java's ``java.util.Date``) for a Date, Time or
Timestamp.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, time
from decimal import Decimal
from typing import Any

from s3connect.connect.java_types import java_class
from s3connect.connect.schema import DATE, DECIMAL, INT_RANGES, TIME, TIMESTAMP, ConnectSchema, Type
from s3connect.util.jackson import Float32

__all__ = ["validate_struct", "validate_value"]


def validate_value(schema: ConnectSchema, value: Any, field: str | None = None) -> None:
    """``ConnectSchema.validateValue(field, schema, value)``: ``value`` can be used with
    ``schema`` (``field`` names the struct field it is put in, for the message).

    Raises:
        ValueError: Kafka's ``DataException`` message, e.g. ``Invalid value: null used for
            required field: "f", schema type: STRING``.
    """
    _validate(schema, value, "value" if field is None else f'field: "{field}"')


def validate_struct(schema: ConnectSchema, struct: Mapping[str, Any]) -> None:
    """``Struct.validate``: every field's value (a null one only where the field is optional
    or has a default).

    Raises:
        ValueError: as :func:`validate_value`.
    """
    for f in schema.fields:
        value = struct.get(f.name)
        if value is None and (f.schema.optional or f.schema.default is not None):
            continue
        _validate(f.schema, value, f'field: "{f.name}"')


def _validate(schema: ConnectSchema, value: Any, location: str) -> None:
    if value is None:
        if not schema.optional:
            raise ValueError(
                f"Invalid value: null used for required {location}, schema type: {schema.type.name}"
            )
        return
    if not _is_instance(schema, value):
        named = "" if schema.name is None else f' "{schema.name}"'
        raise ValueError(
            f"Invalid Java object for schema{named} with type {schema.type.name}: "
            f"class {java_class(value)} for {location}"
        )
    t = schema.type
    if t is Type.STRUCT:
        if any(schema.field(name) is None for name in value):
            raise ValueError("Struct schemas do not match.")
        validate_struct(schema, value)
    elif t is Type.ARRAY:
        entry = f"element of array {location}"
        items = _schema_of(schema.value_schema, entry)
        for item in value:
            _validate(items, item, entry)
    elif t is Type.MAP:
        key_location, value_location = f"key of map {location}", f"value of map {location}"
        keys = _schema_of(schema.key_schema, key_location)
        values = _schema_of(schema.value_schema, value_location)
        for k, v in value.items():
            _validate(keys, k, key_location)
            _validate(values, v, value_location)


def _schema_of(schema: ConnectSchema | None, location: str) -> ConnectSchema:
    if schema is None:
        raise ValueError(f"No schema defined for {location}")
    return schema


def _is_instance(schema: ConnectSchema, value: Any) -> bool:
    """Whether ``value`` is of a Java class ``schema`` takes (``expectedClassesFor``)."""
    name = schema.name
    if name == DECIMAL:
        return isinstance(value, Decimal)
    if name in (DATE, TIME, TIMESTAMP):
        return isinstance(value, date | time)
    t = schema.type
    if t in INT_RANGES:
        low, high = INT_RANGES[t]
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    if t is Type.FLOAT32:
        return isinstance(value, float)
    if t is Type.FLOAT64:
        return isinstance(value, float) and not isinstance(value, Float32)
    expected = _CLASSES[t]
    return isinstance(value, expected)


_CLASSES: dict[Type, Any] = {
    Type.BOOLEAN: bool,
    Type.STRING: str,
    Type.BYTES: bytes | bytearray | memoryview,
    Type.ARRAY: list | tuple,
    Type.MAP: Mapping,
    Type.STRUCT: Mapping,
}
"""The Python values of each remaining type (Kafka's ``SCHEMA_TYPE_CLASSES``)."""
