"""The line path from Confluent's AvroConverter into AvroFormat: a batch's datums of one schema
copied into the file's blocks as they are, not decoded and encoded again.

AvroFormat writes a value of AvroConverter's Connect schema as ``AvroData.fromConnectSchema`` of
it; where that schema encodes like the registered one (the same types, fields in the same order,
unions, enum symbols and fixed sizes alike: :func:`same_encoding`), a datum the writer would
write unchanged is the value's bytes after the 5-byte wire prefix. The JVM says which datums are
(:mod:`s3connect.spark.jvm_lines`, ``s3connect.jvm.RegistryAvroDatum``, one column
``avro_datum_<id>`` per latest value schema of the query's topics: true, or null): read exactly,
canonical, no NaN, dates and times Python holds, maps in AvroData's order. The datums of a
batch's first such record's schema are its lines; every other record (another schema, a null,
a schema with a Connect Decimal, int8 or int16, or an optional field with a default) goes
through the per-record path, which decides its file, rotation and errors.
"""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa

from s3connect.connect.schema import ConnectSchema, Type
from s3connect.convert.avro_data import AvroDataOptions, avro_schema
from s3connect.convert.registry.base import RegistryConverter
from s3connect.sink.envelopes import SchemaLines
from s3connect.sink.registry_columns import first_framed
from s3connect.util.arrow import keep_where

__all__ = ["AVRO_DATUM_PREFIX", "registry_avro_datums", "same_encoding"]

AVRO_DATUM_PREFIX = "avro_datum_"
"""The JVM's columns of checked datums: ``avro_datum_<schema id>``."""


def registry_avro_datums(converter: RegistryConverter, options: AvroDataOptions) -> SchemaLines:
    """The datums of AvroConverter's values (``converter``) that AvroFormat (AvroData's
    ``options``) writes unchanged."""
    import pyarrow.compute as pc  # imports pandas: not at import time (the CLI's status)

    copies: dict[tuple[str, int], bool] = {}

    def datums(rows: pa.RecordBatch, topic: str) -> tuple[pa.Array, ConnectSchema] | None:
        found = first_framed(rows, AVRO_DATUM_PREFIX)
        if found is None:
            return None
        name, first = found
        schema_id = int(name.removeprefix(AVRO_DATUM_PREFIX))
        try:
            value, schema = converter.to_connect(topic, rows.column("value")[first].as_py())
            if value is None or schema is None:
                return None
            if (topic, schema_id) not in copies:
                registered = converter.registry.schema(schema_id, topic)
                copies[(topic, schema_id)] = _copied(registered.schema_str, schema, options)
        except Exception:  # the per-record path raises it again and decides
            return None
        if not copies[(topic, schema_id)]:
            return None
        # pyarrow 22 fails ("Negative buffer resize") on some arrays without the stop given
        datums = pc.binary_slice(rows.column("value"), 5, _MOST_BYTES)
        return keep_where(rows.column(name).is_valid(), datums), schema

    return datums


_MOST_BYTES = 2**31 - 1
"""The longest a Kafka value is (Arrow's ``binary`` offsets are 32-bit)."""


def _copied(registered: str, schema: ConnectSchema, options: AvroDataOptions) -> bool:
    """Whether AvroFormat (AvroData's ``options``) writes a checked datum of the ``registered``
    schema (JSON) as it is."""
    written = avro_schema(schema, options)
    return _plain(schema) and same_encoding(json.loads(registered), written)


def _plain(schema: ConnectSchema) -> bool:
    """No value AvroData writes otherwise than it read it: no Decimal (its bytes shortened),
    int8 or int16 (refused out of range), optional with a default (a null written as it)."""
    if (
        schema.type in (Type.INT8, Type.INT16)
        or schema.name == "org.apache.kafka.connect.data.Decimal"
    ):
        return False
    if schema.optional and schema.default is not None:
        return False
    children = [f.schema for f in schema.fields] + [schema.key_schema, schema.value_schema]
    return all(_plain(child) for child in children if child is not None)


def same_encoding(one: Any, other: Any) -> bool:
    """Whether two Avro schemas (parsed JSON) encode every value alike: the same types, record
    fields in the same order, union members, enum symbols and fixed sizes (names, docs,
    defaults and logical types aside)."""
    from fastavro.schema import expand_schema

    try:
        return bool(_encoding(expand_schema(one)) == _encoding(expand_schema(other)))
    except Exception:  # a schema fastavro does not expand (recursive): not compared
        return False


def _encoding(schema: Any) -> Any:
    """What decides a datum's bytes in an expanded schema."""
    if isinstance(schema, list):
        return ("union", tuple(_encoding(s) for s in schema))
    if not isinstance(schema, dict):
        return schema
    kind = schema["type"]
    if isinstance(kind, dict | list):
        return _encoding(kind)
    if kind in ("record", "error"):
        return ("record", tuple(_encoding(f["type"]) for f in schema["fields"]))
    if kind == "enum":
        return (kind, tuple(schema["symbols"]))
    if kind == "fixed":
        return (kind, schema["size"])
    if kind == "array":
        return (kind, _encoding(schema["items"]))
    if kind == "map":
        return (kind, _encoding(schema["values"]))
    return kind
