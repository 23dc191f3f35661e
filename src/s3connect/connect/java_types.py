"""The Java classes Kafka Connect holds values in, as its error messages name them.

Our values do not say which Java class Kafka would hold them in; the schema does (an ``int8``
value is a ``Byte``), and a schemaless value is what Kafka's ``JsonConverter`` makes of JSON: an
integer is a ``Long``, a decimal number a ``Double`` (a :class:`~s3connect.util.jackson.Float32`,
Cast's float32, a ``Float``), an object a ``HashMap``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Type
from s3connect.util.jackson import Float32

__all__ = ["LONG_MAX", "LONG_MIN", "LinkedHashMap", "java_class", "schema_text", "schemaless_type"]

LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1


class LinkedHashMap(dict[Any, Any]):
    """A map Kafka holds in a ``java.util.LinkedHashMap`` (``Values.parseString``'s maps), as
    its error messages name it."""


_CLASS_BY_TYPE = {
    Type.INT8: "java.lang.Byte",
    Type.INT16: "java.lang.Short",
    Type.INT32: "java.lang.Integer",
    Type.INT64: "java.lang.Long",
    Type.FLOAT32: "java.lang.Float",
    Type.FLOAT64: "java.lang.Double",
    Type.BOOLEAN: "java.lang.Boolean",
    Type.STRING: "java.lang.String",
    Type.BYTES: "[B",
    Type.ARRAY: "java.util.ArrayList",
    Type.MAP: "java.util.HashMap",
    Type.STRUCT: "org.apache.kafka.connect.data.Struct",
}


def schemaless_type(value: Any) -> Type | None:
    """``ConnectSchema.schemaType`` of a schemaless value's Java class (None: not a Connect
    type, such as a ``BigDecimal`` or a ``java.util.Date``)."""
    if isinstance(value, bool):
        return Type.BOOLEAN
    if isinstance(value, int):
        return Type.INT64 if LONG_MIN <= value <= LONG_MAX else None
    if isinstance(value, Float32):  # a Java float (Cast to float32)
        return Type.FLOAT32
    if isinstance(value, float):
        return Type.FLOAT64
    if isinstance(value, str):
        return Type.STRING
    if isinstance(value, bytes | bytearray | memoryview):
        return Type.BYTES
    if isinstance(value, list | tuple):
        return Type.ARRAY
    if isinstance(value, Mapping):
        return Type.MAP
    return None


def java_class(value: Any, schema: ConnectSchema | None = None) -> str:
    """The Java class name Kafka would report for a value (``Class.getName``)."""
    if value is None:
        return "null"
    if isinstance(value, LinkedHashMap):
        return "java.util.LinkedHashMap"
    if schema is not None:
        if schema.name in (DATE, TIME, TIMESTAMP):
            return "java.util.Date"
        if schema.name == DECIMAL:
            return "java.math.BigDecimal"
        return _CLASS_BY_TYPE[schema.type]
    if isinstance(value, Decimal):
        return "java.math.BigDecimal"
    if isinstance(value, datetime | date | time):
        return "java.util.Date"
    kind = schemaless_type(value)
    if kind is None:
        return type(value).__name__
    return _CLASS_BY_TYPE[kind]


def schema_text(schema: ConnectSchema) -> str:
    """``ConnectSchema.toString()``: ``Schema{name:TYPE}``, or ``Schema{TYPE}`` unnamed."""
    kind = schema.type.name  # Schema.Type's Java name (FLOAT32, FLOAT64, ...)
    return f"Schema{{{kind}}}" if schema.name is None else f"Schema{{{schema.name}:{kind}}}"
