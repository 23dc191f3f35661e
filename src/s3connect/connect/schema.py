"""Kafka Connect's data schema model (org.apache.kafka.connect.data.Schema), as plain dataclasses.

Converters produce values together with a :class:`ConnectSchema`; formats map it to Avro, Parquet
(Arrow) or JSON exactly as Confluent's ``AvroData`` does. A struct value is a ``dict`` whose keys
follow the schema's field order; an array is a ``list``; a map is a ``dict``; bytes are ``bytes``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["INT_RANGES", "ConnectSchema", "Field", "Type", "schema_identity"]

# Logical type names, as Kafka Connect spells them.
TIMESTAMP = "org.apache.kafka.connect.data.Timestamp"
DATE = "org.apache.kafka.connect.data.Date"
TIME = "org.apache.kafka.connect.data.Time"
DECIMAL = "org.apache.kafka.connect.data.Decimal"


class Type(StrEnum):
    """Kafka Connect schema types (lower case, as in JSON schema envelopes)."""

    INT8 = "int8"
    INT16 = "int16"
    INT32 = "int32"
    INT64 = "int64"
    FLOAT32 = "float"
    FLOAT64 = "double"
    BOOLEAN = "boolean"
    STRING = "string"
    BYTES = "bytes"
    ARRAY = "array"
    MAP = "map"
    STRUCT = "struct"


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a struct schema."""

    name: str
    schema: ConnectSchema


@dataclass(frozen=True, slots=True)
class ConnectSchema:
    """A Kafka Connect schema: primitive, array (``value_schema``), map (``key_schema`` and
    ``value_schema``) or struct (``fields``). ``name`` carries logical types (module constants)."""

    type: Type
    optional: bool = False
    default: Any = None
    name: str | None = None
    version: int | None = None
    doc: str | None = None
    parameters: Mapping[str, str] = field(default_factory=dict)
    fields: tuple[Field, ...] = ()
    key_schema: ConnectSchema | None = None
    value_schema: ConnectSchema | None = None

    def field(self, name: str) -> Field | None:
        """The struct field called ``name``, or None."""
        for f in self.fields:
            if f.name == name:
                return f
        return None


def schema_identity(schema: ConnectSchema) -> str:
    """A text that two schemas share exactly when Kafka's ``ConnectSchema.equals`` holds: their
    repr with every schema's parameters in key order (Java compares them as maps)."""
    return repr(_parameters_sorted(schema))


def _parameters_sorted(schema: ConnectSchema) -> ConnectSchema:
    """``schema`` with every schema's parameters in key order (itself when they already are)."""
    params = schema.parameters
    ordered = params if list(params) == sorted(params) else dict(sorted(params.items()))
    fields = tuple(Field(f.name, _parameters_sorted(f.schema)) for f in schema.fields)
    key = None if schema.key_schema is None else _parameters_sorted(schema.key_schema)
    value = None if schema.value_schema is None else _parameters_sorted(schema.value_schema)
    same = [ordered is params, key is schema.key_schema, value is schema.value_schema]
    same += [a.schema is b.schema for a, b in zip(fields, schema.fields, strict=True)]
    if all(same):
        return schema
    return dataclasses.replace(
        schema, parameters=ordered, fields=fields, key_schema=key, value_schema=value
    )


INT_RANGES = {
    Type.INT8: (-(2**7), 2**7 - 1),
    Type.INT16: (-(2**15), 2**15 - 1),
    Type.INT32: (-(2**31), 2**31 - 1),
    Type.INT64: (-(2**63), 2**63 - 1),
}
"""The value range of each Connect integer type (Java's byte, short, int, long)."""
