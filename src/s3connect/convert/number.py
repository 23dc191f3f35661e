"""Kafka's number converters (``ShortConverter``, ``IntegerConverter``, ``LongConverter``,
``FloatConverter``, ``DoubleConverter``: ``NumberConverter``) and ``BooleanConverter``: the
value as Kafka's serializers write it (big-endian), under an optional primitive schema.

Our values do not carry their Java class: the schema tells it (an ``int32`` value is an
``Integer``), a schemaless integer is a ``Long`` and a float a ``Double``
(:func:`s3connect.connect.java_types.java_class`); a converter takes only its own class, as
Kafka's serializers' casts do (LongConverter refuses an ``Integer``).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from typing import Any

from s3connect.connect.java_types import java_class
from s3connect.connect.schema import INT_RANGES, ConnectSchema, Type

__all__ = ["NUMBER_TYPES", "BooleanConverter", "NumberConverter", "NumberType"]


@dataclass(frozen=True, slots=True)
class NumberType:
    """One of Kafka's number converters: its ``typeName``, schema type, Java class, the
    ``struct`` format of its serializer and its deserializer's class in size messages."""

    name: str
    type: Type
    java: str
    fmt: str
    deserializer: str

    @property
    def size(self) -> int:
        """The serialized size in bytes."""
        return struct.calcsize(self.fmt)


NUMBER_TYPES: dict[str, NumberType] = {
    t.name: t
    for t in (
        NumberType("short", Type.INT16, "java.lang.Short", ">h", "ShortDeserializer"),
        NumberType("integer", Type.INT32, "java.lang.Integer", ">i", "IntegerDeserializer"),
        NumberType("long", Type.INT64, "java.lang.Long", ">q", "LongDeserializer"),
        # FloatDeserializer's and DoubleDeserializer's byte[] messages say "Deserializer"
        NumberType("float", Type.FLOAT32, "java.lang.Float", ">f", "Deserializer"),
        NumberType("double", Type.FLOAT64, "java.lang.Double", ">d", "Deserializer"),
    )
}
"""Kafka's number converters by ``typeName`` (also our short converter names)."""

_CANONICAL_NAN = struct.pack(">Q", 0x7FF8000000000000)  # Double.doubleToLongBits(NaN)


def value_class(value: Any, schema: ConnectSchema | None) -> str:
    """The Java class of ``value``: the schema's when the value is of its kind (an ``int32``
    integer is an ``Integer``), else the value's own (a string is a ``String`` whatever the
    schema says)."""
    if schema is not None and _of_kind(value, schema.type):
        return java_class(value, schema)
    return java_class(value)


def _of_kind(value: Any, kind: Type) -> bool:
    if isinstance(value, bool):
        return kind is Type.BOOLEAN
    if isinstance(value, int):
        return kind in INT_RANGES
    return isinstance(value, float) and kind in (Type.FLOAT32, Type.FLOAT64)


class _HeaderConverter:
    """Kafka's number and Boolean converters are HeaderConverters too: a header's bytes are read
    and written as a key's or value's."""

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        raise NotImplementedError

    def from_connect(self, topic: str, schema: ConnectSchema | None, value: Any) -> bytes | None:
        raise NotImplementedError

    def to_connect_header(
        self, topic: str, header_key: str, data: bytes | None
    ) -> tuple[Any, ConnectSchema | None]:
        """``toConnectHeader``: as :meth:`to_connect`."""
        return self.to_connect(topic, data)

    def from_connect_header(
        self, topic: str, header_key: str, schema: ConnectSchema | None, value: Any
    ) -> bytes | None:
        """``fromConnectHeader``: as :meth:`from_connect`."""
        return self.from_connect(topic, schema, value)


class NumberConverter(_HeaderConverter):
    """Kafka's ``NumberConverter`` of one :class:`NumberType` (Converter and HeaderConverter)."""

    def __init__(self, number: NumberType | str, *, is_key: bool = False) -> None:
        self.number = NUMBER_TYPES[number] if isinstance(number, str) else number
        self.schema = ConnectSchema(self.number.type, optional=True)
        self.is_key = is_key

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        """``toConnectData``: the deserialized number (None for null) and the optional schema.

        Raises:
            ValueError: Kafka's ``Failed to deserialize long: `` and the deserializer's cause.
        """
        if data is None:
            return None, self.schema
        number = self.number
        if len(data) != number.size:
            cause = f"Size of data received by {number.deserializer} is not {number.size}"
            raise ValueError(f"Failed to deserialize {number.name}: {cause}")
        return struct.unpack(number.fmt, bytes(data))[0], self.schema

    def from_connect(self, topic: str, schema: ConnectSchema | None, value: Any) -> bytes | None:
        """``fromConnectData``: the value's big-endian bytes (None for null); the schema is
        only read to tell the value's Java class.

        Raises:
            ValueError: the value is not of the converter's class (``Failed to serialize to
                long (was class java.lang.String): ``).
        """
        if value is None:
            return None
        number = self.number
        found = value_class(value, schema)
        if found != number.java:
            raise ValueError(f"Failed to serialize to {number.name} (was class {found}): ")
        if number.type in INT_RANGES:
            low, high = INT_RANGES[number.type]
            if not low <= value <= high:
                raise ValueError(f"Failed to serialize to {number.name}: {value} is out of range")
        elif number.type is Type.FLOAT64 and math.isnan(value):
            return _CANONICAL_NAN
        try:
            return struct.pack(number.fmt, value)
        except OverflowError:  # a double beyond a float: Java's (float) cast makes an infinity
            return struct.pack(number.fmt, math.copysign(math.inf, value))


class BooleanConverter(_HeaderConverter):
    """Kafka's ``BooleanConverter``: one byte, 1 or 0, under an optional BOOLEAN schema
    (Converter and HeaderConverter)."""

    SCHEMA = ConnectSchema(Type.BOOLEAN, optional=True)

    def __init__(self, *, is_key: bool = False) -> None:
        self.is_key = is_key

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        """``toConnectData``: True for 1, False for 0, None for null.

        Raises:
            ValueError: Kafka's ``Failed to deserialize boolean: `` and BooleanDeserializer's
                cause (a size other than 1, or another byte).
        """
        if data is None:
            return None, self.SCHEMA
        if len(data) != 1:
            cause = "Size of data received by BooleanDeserializer is not 1"
        elif data[0] in (0, 1):
            return data[0] == 1, self.SCHEMA
        else:  # Java prints the signed byte
            signed = data[0] - 256 if data[0] > 127 else data[0]
            cause = f"Unexpected byte received by BooleanDeserializer: {signed}"
        raise ValueError(f"Failed to deserialize boolean: {cause}")

    def from_connect(self, topic: str, schema: ConnectSchema | None, value: Any) -> bytes | None:
        """``fromConnectData``: ``b"\\x01"`` or ``b"\\x00"`` (None for null).

        Raises:
            ValueError: a schema other than BOOLEAN (``Invalid schema type for
                BooleanConverter: INT32``) or a value that is not a boolean.
        """
        if schema is not None and schema.type is not Type.BOOLEAN:
            raise ValueError(f"Invalid schema type for BooleanConverter: {schema.type.name}")
        if value is None:
            return None
        if not isinstance(value, bool):
            raise ValueError(
                "BooleanConverter is not compatible with objects of type class "
                + value_class(value, schema)
            )
        return b"\x01" if value else b"\x00"
