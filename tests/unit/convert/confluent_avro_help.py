"""Helpers of the AvroDataTest ports: Connect schemas as Kafka's builders make them, and
AvroData's two directions as the Java tests call them (``fromConnectSchema``,
``fromConnectData``, ``toConnectData``), on our value model."""

from __future__ import annotations

import io
import json
from typing import Any

import fastavro

from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.convert.avro_data import (
    AvroDataOptions,
    avro_schema,
    avro_schema_json,
    compile_to_avro,
    connect_reader,
    to_avro_value,
)

NS = "io.confluent.connect.avro"
PRECISION = "connect.decimal.precision"
FIXED_SIZE = "connect.fixed.size"
DEFAULTS = AvroDataOptions()
ENHANCED = AvroDataOptions(enhanced_schema_support=True)

INT8, INT16, INT32, INT64 = (
    ConnectSchema(t) for t in (Type.INT8, Type.INT16, Type.INT32, Type.INT64)
)
FLOAT32, FLOAT64 = ConnectSchema(Type.FLOAT32), ConnectSchema(Type.FLOAT64)
STRING, BYTES, BOOLEAN = (ConnectSchema(t) for t in (Type.STRING, Type.BYTES, Type.BOOLEAN))
OPT_INT32 = ConnectSchema(Type.INT32, optional=True)
OPT_INT64 = ConnectSchema(Type.INT64, optional=True)
OPT_STRING = ConnectSchema(Type.STRING, optional=True)
OPT_BOOLEAN = ConnectSchema(Type.BOOLEAN, optional=True)
# Kafka's Date.SCHEMA, Time.SCHEMA, Timestamp.SCHEMA, Decimal.schema(scale): version 1.
DATE_SCHEMA = ConnectSchema(Type.INT32, name=DATE, version=1)
TIME_SCHEMA = ConnectSchema(Type.INT32, name=TIME, version=1)
TIMESTAMP_SCHEMA = ConnectSchema(Type.INT64, name=TIMESTAMP, version=1)


def decimal_schema(scale: int, **kw: Any) -> ConnectSchema:
    """``Decimal.builder(scale)``, its parameters then ``params`` (``parameters=``)."""
    params = {"scale": str(scale), **kw.pop("params", {})}
    return ConnectSchema(Type.BYTES, name=DECIMAL, version=1, parameters=params, **kw)


def struct(*fields: tuple[str, ConnectSchema], **kw: Any) -> ConnectSchema:
    return ConnectSchema(Type.STRUCT, fields=tuple(Field(n, s) for n, s in fields), **kw)


def array(item: ConnectSchema, **kw: Any) -> ConnectSchema:
    return ConnectSchema(Type.ARRAY, value_schema=item, **kw)


def map_of(key: ConnectSchema, value: ConnectSchema, **kw: Any) -> ConnectSchema:
    return ConnectSchema(Type.MAP, key_schema=key, value_schema=value, **kw)


def from_connect_schema(schema: ConnectSchema, options: AvroDataOptions = DEFAULTS) -> Any:
    """``fromConnectSchema``, as the JSON tree of Avro Java's ``Schema.toString()`` (key order
    aside, which Avro's schema equality ignores too)."""
    return json.loads(avro_schema_json(schema, options))


def from_connect_data(
    schema: ConnectSchema, value: Any, options: AvroDataOptions = DEFAULTS
) -> Any:
    """``fromConnectData``: the datum (the compiled converter gives the same one), checked to be
    writable with the schema."""
    datum = to_avro_value(schema, value, options)
    assert compile_to_avro(schema, options)(value) == datum
    encode(avro_schema(schema, options), datum)
    return datum


def encode(avro: Any, datum: Any) -> bytes:
    out = io.BytesIO()
    fastavro.schemaless_writer(out, fastavro.parse_schema(avro), datum)
    return out.getvalue()


def to_connect_data(avro: Any, datum: Any) -> tuple[ConnectSchema | None, Any]:
    """``toConnectData(avroSchema, datum)``: the datum written with the schema, read back."""
    reader = connect_reader(avro)
    return reader.schema, reader.read(io.BytesIO(encode(avro, datum)))


def convert_to_connect(
    expected_avro: Any, expected_datum: Any, schema: ConnectSchema, value: Any
) -> tuple[ConnectSchema | None, Any]:
    """AvroDataTest.convertToConnect: Connect -> Avro (schema and datum as expected) -> Connect
    (the same schema and value)."""
    avro = from_connect_schema(schema)
    assert avro == expected_avro
    datum = from_connect_data(schema, value)
    assert datum == expected_datum
    back_schema, back_value = to_connect_data(avro, datum)
    assert back_schema == schema
    assert back_value == value
    return back_schema, back_value
