"""The formats' readers, which the S3 source uses: Avro and Parquet objects give the Connect
schema ``AvroData.toConnectSchema`` makes of their Avro schema (the mapping the Schema Registry's
AvroConverter uses, :mod:`s3connect.convert.avro_data`) and the values the sink wrote."""

from __future__ import annotations

import io
import json
import random
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import fastavro
import pytest

from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import DECIMAL, ConnectSchema, Field, Type
from s3connect.convert.avro_data import (
    AVRO_ENUM,
    AVRO_UNION,
    avro_schema_json,
    connect_reader,
    to_connect_schema,
)
from s3connect.formats.factory import make_format, read_file
from tests.unit.convert.random_connect import Names, random_struct, random_value


def sink_object(fmt: str, schema: ConnectSchema, values: list[Any]) -> tuple[bytes, str]:
    records = [SinkRecord("t", 0, i, None, None, v, None, schema) for i, v in enumerate(values)]
    out = io.BytesIO()
    format_ = make_format(fmt)
    format_.write(records, out)
    return out.getvalue(), format_.extension


def has_empty_struct(schema: ConnectSchema) -> bool:
    """Parquet cannot hold a struct without fields."""
    if schema.type is Type.STRUCT and not schema.fields:
        return True
    children = [f.schema for f in schema.fields] + [schema.key_schema, schema.value_schema]
    return any(has_empty_struct(c) for c in children if c is not None)


@pytest.mark.parametrize("seed", range(3))
def test_sink_objects_read_back_through_avro_data(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        schema = random_struct(rng, Names(), 0)
        values = [random_value(rng, schema) for _ in range(3)]
        # The schema AvroData makes of the sink's Avro schema: the one written, for these.
        assert to_connect_schema(json.loads(avro_schema_json(schema))) == schema
        for fmt in ("avro", "parquet"):
            if fmt == "parquet" and has_empty_struct(schema):
                continue
            file = read_file(fmt, *sink_object(fmt, schema, values))
            assert (file.schema, file.values) == (schema, values), fmt


def test_other_avro_objects_read_as_avro_data_makes_them() -> None:
    """An Avro object not written by this sink (Confluent's, or any Avro writer's): the same
    Connect schema and values as the AvroConverter gives for that Avro schema and datum."""
    point = {"type": "record", "name": "Point", "fields": [{"name": "x", "type": "int"}]}
    avro = {
        "type": "record",
        "name": "Shape",
        "namespace": "geo",
        "fields": [
            {"name": "v", "type": ["null", "int", "string", point]},
            {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B"]}},
            {"name": "md5", "type": {"type": "fixed", "name": "MD5", "size": 2}},
            {"name": "us", "type": {"type": "long", "logicalType": "timestamp-micros"}},
            {"name": "ms", "type": {"type": "long", "logicalType": "timestamp-millis"}},
            {"name": "one", "type": ["string"]},
            {"name": "price", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9}},
        ],
    }
    datums = [
        {"v": ("geo.Point", {"x": 3}), "kind": "A", "md5": b"\x00\x01", "us": 5, "ms": 1000,
         "one": "s", "price": Decimal("12")},
        {"v": 7, "kind": "B", "md5": b"\xff\xff", "us": 6, "ms": 0, "one": "t",
         "price": Decimal("-1")},
    ]  # fmt: skip
    out = io.BytesIO()
    fastavro.writer(out, fastavro.parse_schema(avro), datums, codec="deflate")
    file = read_file("avro", out.getvalue(), ".avro")
    optional = {"optional": True}
    assert file.schema == connect_reader(avro).schema
    assert file.schema == ConnectSchema(
        Type.STRUCT,
        name="geo.Shape",
        fields=(
            Field("v", ConnectSchema(Type.STRUCT, name=AVRO_UNION, **optional, fields=(
                Field("int", ConnectSchema(Type.INT32, **optional)),
                Field("string", ConnectSchema(Type.STRING, **optional)),
                Field("Point", ConnectSchema(Type.STRUCT, name="geo.Point", **optional,
                                             fields=(Field("x", ConnectSchema(Type.INT32)),))),
            ))),
            Field("kind", ConnectSchema(Type.STRING, name="geo.Kind", parameters={
                AVRO_ENUM: "geo.Kind", f"{AVRO_ENUM}.A": "A", f"{AVRO_ENUM}.B": "B"})),
            Field("md5", ConnectSchema(Type.BYTES, name="geo.MD5",
                                       parameters={"connect.fixed.size": "2"})),
            Field("us", ConnectSchema(Type.INT64)),
            Field("ms", ConnectSchema(Type.INT64, name="org.apache.kafka.connect.data.Timestamp",
                                      version=1)),
            Field("one", ConnectSchema(Type.STRING)),
            Field("price", ConnectSchema(Type.BYTES, name=DECIMAL, version=1,
                                         parameters={"scale": "0",
                                                     "connect.decimal.precision": "9"})),
        ),
    )  # fmt: skip
    assert file.values == [
        {"v": {"int": None, "string": None, "Point": {"x": 3}}, "kind": "A", "md5": b"\x00\x01",
         "us": 5, "ms": datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC), "one": "s",
         "price": Decimal("12")},
        {"v": {"int": 7, "string": None, "Point": None}, "kind": "B", "md5": b"\xff\xff",
         "us": 6, "ms": datetime(1970, 1, 1, tzinfo=UTC), "one": "t", "price": Decimal("-1")},
    ]  # fmt: skip


def test_unknown_avro_codec_is_an_error() -> None:
    out = io.BytesIO()
    fastavro.writer(out, fastavro.parse_schema("int"), [1], codec="null")
    data = out.getvalue().replace(b"\x08null", b"\x08xnul")
    with pytest.raises(ValueError, match="Avro codec 'xnul' is not supported"):
        read_file("avro", data, ".avro")


def test_defaults_with_quotes_and_backslashes_read_back() -> None:
    # The Avro schema text is JSON whatever the bytes of a default (as the sink imports it).
    raw = ConnectSchema(Type.BYTES, default=b'a"b\\c\n')
    schema = ConnectSchema(Type.STRUCT, fields=(Field("b", raw),))
    for fmt in ("avro", "parquet"):
        assert read_file(fmt, *sink_object(fmt, schema, [{"b": b"x"}])).schema == schema
