"""The sink with Confluent's Schema Registry converters, against the real stack: schemas
registered in the stack's registry, records framed by confluent-kafka's AvroSerializer /
JSONSerializer / ProtobufSerializer, objects read back with fastavro / pyarrow / json.

The expected Avro writer schemas are written out literally: what Confluent's S3 sink writes for
that input, derived from AvroData's rules (``toConnectSchema`` then ``fromConnectSchema`` with
``connect.meta.data=true``): records keep name, namespace and doc, gain ``connect.version`` (the
registry version), ``connect.name`` and the docs as ``connect.parameters``; logical types gain
``connect.version: 1`` and ``connect.name``; enums stay enums (``enhanced.avro.schema.support``,
true by default as Confluent's connector) with their symbols also as parameters; an Avro field
default stays a field default (no ``connect.default``).
"""

from __future__ import annotations

import base64
import contextlib
import json
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from confluent_kafka import Producer
from confluent_kafka.schema_registry import Schema, SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroSerializer
from confluent_kafka.schema_registry.error import SchemaRegistryError
from confluent_kafka.schema_registry.json_schema import JSONSerializer
from confluent_kafka.schema_registry.protobuf import ProtobufSerializer
from confluent_kafka.serialization import MessageField, SerializationContext
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from tests.integration.sinkhelp import (
    objects,
    produce,
    read_avro,
    read_json_lines,
    read_parquet,
    run,
    sink_keys,
)

pytestmark = pytest.mark.integration

AVRO_FORMAT = "io.confluent.connect.s3.format.avro.AvroFormat"
PARQUET_FORMAT = "io.confluent.connect.s3.format.parquet.ParquetFormat"
JSON_FORMAT = "io.confluent.connect.s3.format.json.JsonFormat"
AVRO_CONVERTER = "io.confluent.connect.avro.AvroConverter"

USER: dict[str, Any] = {
    "type": "record",
    "name": "User",
    "namespace": "s3connect.test",
    "doc": "A user",
    "fields": [
        {"name": "id", "type": "int", "doc": "the id"},
        {"name": "name", "type": "string"},
        {"name": "email", "type": ["null", "string"], "default": None},
        {"name": "age", "type": "int", "default": 18},
        {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "color", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN"]}},
        {
            "name": "price",
            "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2},
        },
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "attrs", "type": {"type": "map", "values": "long"}},
        {
            "name": "address",
            "type": [
                "null",
                {
                    "type": "record",
                    "name": "Address",
                    "fields": [{"name": "city", "type": "string"}],
                },
            ],
            "default": None,
        },
    ],
}


def user_writer_schema(version: int) -> dict[str, Any]:
    """What Confluent's S3 sink writes for USER registered as ``version``."""
    enum_params = {
        "io.confluent.connect.avro.Enum": "s3connect.test.Color",
        "io.confluent.connect.avro.Enum.RED": "RED",
        "io.confluent.connect.avro.Enum.GREEN": "GREEN",
    }
    return {
        "type": "record",
        "name": "User",
        "namespace": "s3connect.test",
        "doc": "A user",
        "fields": [
            {"name": "id", "type": "int", "doc": "the id"},
            {"name": "name", "type": "string"},
            {"name": "email", "type": ["null", "string"], "default": None},
            {"name": "age", "type": "int", "default": 18},
            {
                "name": "ts",
                "type": {
                    "type": "long",
                    "connect.version": 1,
                    "connect.name": "org.apache.kafka.connect.data.Timestamp",
                    "logicalType": "timestamp-millis",
                },
            },
            {
                "name": "day",
                "type": {
                    "type": "int",
                    "connect.version": 1,
                    "connect.name": "org.apache.kafka.connect.data.Date",
                    "logicalType": "date",
                },
            },
            {
                "name": "color",
                "type": {
                    # enhanced.avro.schema.support=true, Confluent's connector default: an enum
                    "type": "enum",
                    "name": "Color",
                    "symbols": ["RED", "GREEN"],
                    "connect.parameters": enum_params,
                    "connect.name": "s3connect.test.Color",
                },
            },
            {
                "name": "price",
                "type": {
                    "type": "bytes",
                    "scale": 2,
                    "precision": 10,
                    "connect.version": 1,
                    "connect.parameters": {"scale": "2", "connect.decimal.precision": "10"},
                    "connect.name": "org.apache.kafka.connect.data.Decimal",
                    "logicalType": "decimal",
                },
            },
            {"name": "tags", "type": {"type": "array", "items": "string"}},
            {"name": "attrs", "type": {"type": "map", "values": "long"}},
            {
                "name": "address",
                "type": [
                    "null",
                    {
                        "type": "record",
                        "name": "Address",
                        "fields": [{"name": "city", "type": "string"}],
                        "connect.name": "s3connect.test.Address",
                    },
                ],
                "default": None,
            },
        ],
        "connect.version": version,
        "connect.parameters": {
            "io.confluent.connect.avro.record.doc": "A user",
            "io.confluent.connect.avro.field.doc.id": "the id",
        },
        "connect.name": "s3connect.test.User",
    }


def user_record(i: int) -> dict[str, Any]:
    return {
        "id": i,
        "name": f"user-{i}",
        "email": None if i % 2 else f"u{i}@example.com",
        "age": 20 + i,
        "ts": datetime(2024, 3, 10, 12, 0, i, tzinfo=UTC),
        "day": date(2024, 3, 10 + i),
        "color": "GREEN" if i % 2 else "RED",
        "price": Decimal(f"{i}.25"),
        "tags": [f"t{i}"] * i,
        "attrs": {"n": i},
        "address": None if i % 2 else {"city": f"c{i}"},
    }


@pytest.fixture
def subjects(schema_registry: SchemaRegistryClient) -> Iterator[Callable[[str], str]]:
    """Subjects passed through here are deleted (soft, then hard) after the test."""
    tracked: list[str] = []

    def track(subject: str) -> str:
        tracked.append(subject)
        return subject

    yield track
    for subject in tracked:
        with contextlib.suppress(SchemaRegistryError):
            schema_registry.delete_subject(subject)
            schema_registry.delete_subject(subject, permanent=True)


def _registry_keys(
    url: str, tmp: Path, name: str, *, side: str = "value", converter: str = AVRO_CONVERTER
) -> dict[str, str]:
    return {
        f"{side}.converter": converter,
        f"{side}.converter.schema.registry.url": url,
        "checkpoint.location": str(tmp / name),
    }


def test_avro_input_to_avro_parquet_and_json(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer,
    schema_registry: SchemaRegistryClient, schema_registry_url: str,
    subjects: Callable[[str], str], tmp_path: Path,
) -> None:  # fmt: skip
    t = make_topic("sr-avro")
    subjects(f"{t}-value")
    serialize = AvroSerializer(schema_registry, json.dumps(USER))
    ctx = SerializationContext(t, MessageField.VALUE)
    records = [user_record(i) for i in range(4)]
    produce(producer, t, [serialize(r, ctx) for r in records])
    assert schema_registry.get_latest_version(f"{t}-value").version == 1

    # Avro: files use the writer schema AvroData derives from the registered one.
    keys = sink_keys(t, bucket, tmp_path, **{
        "format.class": AVRO_FORMAT, "flush.size": "2", "topics.dir": "avro",
        **_registry_keys(schema_registry_url, tmp_path, "ck-avro"),
    })  # fmt: skip
    run(spark, keys)
    got = objects(s3, bucket, "avro/")
    names = [f"avro/{t}/partition=0/{t}+0+{start:010d}.avro" for start in (0, 2)]
    assert list(got) == names
    for index, key in enumerate(names):
        schema, codec, rows = read_avro(got[key])
        assert schema == user_writer_schema(1)
        assert codec == "null"
        assert rows == records[index * 2 : index * 2 + 2]

    # Parquet: the same Avro schema in the footer, the columns parquet-avro makes of it.
    keys.update({
        "format.class": PARQUET_FORMAT, "topics.dir": "parquet",
        "checkpoint.location": str(tmp_path / "ck-parquet"),
    })  # fmt: skip
    run(spark, keys)
    got = objects(s3, bucket, "parquet/")
    names = [f"parquet/{t}/partition=0/{t}+0+{start:010d}.snappy.parquet" for start in (0, 2)]
    assert list(got) == names
    table, meta = read_parquet(got[names[0]])
    footer = {k.decode(): v.decode() for k, v in (meta.metadata or {}).items()}
    assert json.loads(footer["parquet.avro.schema"]) == user_writer_schema(1)
    assert table.schema.field("ts").type == pa.timestamp("ms", tz="UTC")
    assert table.schema.field("day").type == pa.date32()
    assert table.schema.field("price").type == pa.decimal128(10, 2)
    assert not table.schema.field("id").nullable and table.schema.field("email").nullable
    rows = table.to_pylist()
    for row in rows:
        row["attrs"] = dict(row["attrs"])
    assert rows == records[:2]

    # JSON: JsonConverter's schemaless rendering of the Connect values.
    keys.update({
        "format.class": JSON_FORMAT, "topics.dir": "json",
        "checkpoint.location": str(tmp_path / "ck-json"),
    })  # fmt: skip
    run(spark, keys)
    got = objects(s3, bucket, "json/")
    names = [f"json/{t}/partition=0/{t}+0+{start:010d}.json" for start in (0, 2)]
    assert list(got) == names
    assert read_json_lines(got[names[0]]) == [
        {
            "id": 0, "name": "user-0", "email": "u0@example.com", "age": 20,
            "ts": 1710072000000, "day": 19792, "color": "RED",
            "price": base64.b64encode(b"\x19").decode(), "tags": [], "attrs": {"n": 0},
            "address": {"city": "c0"},
        },
        {
            "id": 1, "name": "user-1", "email": None, "age": 21, "ts": 1710072001000,
            "day": 19793, "color": "GREEN", "price": base64.b64encode(b"\x7d").decode(),
            "tags": ["t1"], "attrs": {"n": 1}, "address": None,
        },
    ]  # fmt: skip


def test_a_new_registry_version_rotates_and_carries_its_version(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer,
    schema_registry: SchemaRegistryClient, schema_registry_url: str,
    subjects: Callable[[str], str], tmp_path: Path,
) -> None:  # fmt: skip
    t = make_topic("sr-versions")
    subject = subjects(f"{t}-value")
    v1 = {"type": "record", "name": "Event", "fields": [{"name": "id", "type": "int"}]}
    v2 = {**v1, "fields": [*v1["fields"], {"name": "tag", "type": "string", "default": "x"}]}
    ctx = SerializationContext(t, MessageField.VALUE)
    first = AvroSerializer(schema_registry, json.dumps(v1))
    values = [first({"id": i}, ctx) for i in range(2)]
    schema_registry.register_schema(subject, Schema(json.dumps(v2), "AVRO"))
    second = AvroSerializer(schema_registry, json.dumps(v2), conf={"auto.register.schemas": False})
    values += [second({"id": i, "tag": f"t{i}"}, ctx) for i in range(2, 4)]
    # A v1 writer again: its records share v1's (cached) Connect schema.
    values.append(first({"id": 4}, ctx))
    produce(producer, t, values)
    assert schema_registry.get_versions(subject) == [1, 2]

    run(spark, sink_keys(t, bucket, tmp_path, **{
        "format.class": AVRO_FORMAT, "flush.size": "10",
        **_registry_keys(schema_registry_url, tmp_path, "ck"),
    }))  # fmt: skip
    got = objects(s3, bucket)
    # schema.compatibility=NONE: each change of schema closes the open file.
    names = [f"topics/{t}/partition=0/{t}+0+{start:010d}.avro" for start in (0, 2)]
    assert list(got) == names  # offset 4 stays open (flush.size=10)
    schema1, _, rows1 = read_avro(got[names[0]])
    schema2, _, rows2 = read_avro(got[names[1]])
    assert schema1 == {**v1, "connect.version": 1, "connect.name": "Event"}
    assert schema2 == {
        "type": "record",
        "name": "Event",
        "fields": [
            {"name": "id", "type": "int"},
            {"name": "tag", "type": "string", "default": "x"},
        ],
        "connect.version": 2,
        "connect.name": "Event",
    }
    assert rows1 == [{"id": 0}, {"id": 1}]
    assert rows2 == [{"id": 2, "tag": "t2"}, {"id": 3, "tag": "t3"}]


def test_avro_general_union_and_key_converter(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer,
    schema_registry: SchemaRegistryClient, schema_registry_url: str,
    subjects: Callable[[str], str], tmp_path: Path,
) -> None:  # fmt: skip
    t = make_topic("sr-union")
    subjects(f"{t}-value")
    subjects(f"{t}-key")
    point = {"type": "record", "name": "Point", "fields": [{"name": "x", "type": "int"}]}
    schema = {
        "type": "record",
        "name": "Shape",
        "namespace": "geo",
        "fields": [{"name": "v", "type": ["null", "int", "string", point], "default": None}],
    }
    ctx = SerializationContext(t, MessageField.VALUE)
    key_ctx = SerializationContext(t, MessageField.KEY)
    value_ser = AvroSerializer(schema_registry, json.dumps(schema))
    key_ser = AvroSerializer(schema_registry, json.dumps("string"))
    data = [None, 7, "seven", ("geo.Point", {"x": 3})]
    produce(
        producer,
        t,
        [value_ser({"v": v}, ctx) for v in data],
        keys=[key_ser(f"k{i}", key_ctx) for i in range(4)],
    )
    keys = sink_keys(t, bucket, tmp_path, **{
        "format.class": AVRO_FORMAT, "flush.size": "4", "store.kafka.keys": "true",
        **_registry_keys(schema_registry_url, tmp_path, "ck"),
        **_registry_keys(schema_registry_url, tmp_path, "ck", side="key"),
    })  # fmt: skip
    run(spark, keys)
    got = objects(s3, bucket)
    base = f"topics/{t}/partition=0/{t}+0+0000000000"
    assert list(got) == [f"{base}.avro", f"{base}.keys.avro"]
    written, _, rows = read_avro(got[f"{base}.avro"])
    # AvroData: the union becomes a struct io.confluent.connect.avro.Union and back a union.
    assert written == {
        "type": "record",
        "name": "Shape",
        "namespace": "geo",
        "fields": [
            {
                "name": "v",
                "type": [
                    "null",
                    "int",
                    "string",
                    {
                        "type": "record",
                        "name": "Point",
                        "fields": [{"name": "x", "type": "int"}],
                        "connect.name": "geo.Point",
                    },
                ],
                "default": None,
            }
        ],
        "connect.version": 1,
        "connect.name": "geo.Shape",
    }
    assert rows == [{"v": None}, {"v": 7}, {"v": "seven"}, {"v": {"x": 3}}]
    # Keys: the key converter's Connect schema is the registered string at version 1.
    key_schema, _, key_rows = read_avro(got[f"{base}.keys.avro"])
    assert key_schema == {"type": "string", "connect.version": 1}
    assert key_rows == ["k0", "k1", "k2", "k3"]


def _user_message_class() -> Any:
    """``s3connect.test.User`` compiled at run time (no protoc), with an enum, a repeated
    field, a map, a nested message and a proto3 optional field."""
    proto = descriptor_pb2.FileDescriptorProto(
        name="s3connect/test/user.proto", package="s3connect.test", syntax="proto3"
    )
    fd = descriptor_pb2.FieldDescriptorProto
    opt, rep = fd.LABEL_OPTIONAL, fd.LABEL_REPEATED
    message = proto.message_type.add(name="User")
    message.field.add(name="id", number=1, type=fd.TYPE_INT32, label=opt)
    message.field.add(name="name", number=2, type=fd.TYPE_STRING, label=opt)
    message.field.add(name="tags", number=3, type=fd.TYPE_STRING, label=rep)
    message.field.add(
        name="color", number=4, type=fd.TYPE_ENUM, label=opt, type_name=".s3connect.test.Color"
    )
    message.field.add(
        name="attrs", number=5, type=fd.TYPE_MESSAGE, label=rep,
        type_name=".s3connect.test.User.AttrsEntry",
    )  # fmt: skip
    message.field.add(
        name="home", number=6, type=fd.TYPE_MESSAGE, label=opt,
        type_name=".s3connect.test.Address",
    )  # fmt: skip
    nick = message.field.add(
        name="nick", number=7, type=fd.TYPE_STRING, label=opt, proto3_optional=True
    )
    message.oneof_decl.add(name="_nick")
    nick.oneof_index = 0
    entry = message.nested_type.add(name="AttrsEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, type=fd.TYPE_STRING, label=opt)
    entry.field.add(name="value", number=2, type=fd.TYPE_INT64, label=opt)
    address = proto.message_type.add(name="Address")
    address.field.add(name="city", number=1, type=fd.TYPE_STRING, label=opt)
    color = proto.enum_type.add(name="Color")
    color.value.add(name="RED", number=0)
    color.value.add(name="GREEN", number=1)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("s3connect.test.User"))


def _tagged(tag: int, avro: str | dict[str, Any], **params: str) -> dict[str, Any]:
    """A ProtobufData field's type as AvroData writes it: its tag in connect.parameters."""
    base = {"type": avro} if isinstance(avro, str) else avro
    return {**base, "connect.parameters": {**params, "io.confluent.connect.protobuf.Tag": str(tag)}}


def _opt(name: str, avro: Any) -> dict[str, Any]:
    """An optional field (every ProtobufData field is): a [null, T] union defaulting to null."""
    return {"name": name, "type": ["null", avro], "default": None}


def test_protobuf_and_json_schema_inputs(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer,
    schema_registry: SchemaRegistryClient, schema_registry_url: str,
    subjects: Callable[[str], str], tmp_path: Path,
) -> None:  # fmt: skip
    tp, tj = make_topic("sr-proto"), make_topic("sr-json")
    subjects(f"{tp}-value")
    subjects(f"{tj}-value")
    user = _user_message_class()
    serialize = ProtobufSerializer(user, schema_registry)
    ctx = SerializationContext(tp, MessageField.VALUE)
    m0 = user(id=1, name="ann", tags=["a", "b"], color=1, nick="an")
    m0.attrs["k"] = 5
    m0.home.city = "paris"
    produce(producer, tp, [serialize(m0, ctx), serialize(user(id=2), ctx)])
    json_schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Order",
        "description": "An order",
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "item": {"type": "string"},
            "qty": {"oneOf": [{"type": "null"}, {"type": "number"}]},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["id", "item"],
    }
    jser = JSONSerializer(json.dumps(json_schema), schema_registry)
    jctx = SerializationContext(tj, MessageField.VALUE)
    produce(producer, tj, [
        jser({"id": 1, "item": "pen", "qty": 2.5, "tags": ["x"]}, jctx),
        jser({"id": 2, "item": "ink", "tags": []}, jctx),
    ])  # fmt: skip

    run(spark, sink_keys(tp, bucket, tmp_path, **{
        "format.class": AVRO_FORMAT, "flush.size": "2",
        "value.converter": "io.confluent.connect.protobuf.ProtobufConverter",
        "value.converter.schema.registry.url": schema_registry_url,
    }))  # fmt: skip
    got = objects(s3, bucket)
    key = f"topics/{tp}/partition=0/{tp}+0+0000000000.avro"
    assert list(got) == [key]
    written, _, rows = read_avro(got[key])
    color_params = {
        "io.confluent.connect.protobuf.Enum": "Color",
        "io.confluent.connect.protobuf.Enum.RED": "0",
        "io.confluent.connect.protobuf.Enum.GREEN": "1",
    }
    # ProtobufData: every field optional with its tag; the map's key is optional, so AvroData
    # writes it as an array of MapEntry records named after the map.
    entry = {
        "type": "record",
        "name": "attrs",
        "fields": [_opt("key", _tagged(1, "string")), _opt("value", _tagged(2, "long"))],
        "connect.internal.type": "MapEntry",
    }
    address = {
        "type": "record",
        "name": "Address",
        "fields": [_opt("city", _tagged(1, "string"))],
    }
    assert written == {
        "type": "record",
        "name": "User",
        "fields": [
            _opt("id", _tagged(1, "int")),
            _opt("name", _tagged(2, "string")),
            _opt("tags", _tagged(3, {"type": "array", "items": ["null", "string"]})),
            _opt("color", {**_tagged(4, "string", **color_params), "connect.name": "Color"}),
            _opt(
                "attrs",
                {**_tagged(5, {"type": "array", "items": entry}), "connect.name": "attrs"},
            ),
            _opt("home", {**_tagged(6, address), "connect.name": "Address"}),
            _opt("nick", _tagged(7, "string")),
        ],
        "connect.version": 1,
        "connect.name": "User",
    }
    assert rows == [
        {"id": 1, "name": "ann", "tags": ["a", "b"], "color": "GREEN",
         "attrs": [{"key": "k", "value": 5}], "home": {"city": "paris"}, "nick": "an"},
        {"id": 2, "name": "", "tags": [], "color": "RED", "attrs": [], "home": None,
         "nick": None},
    ]  # fmt: skip

    # Confluent Cloud's keys: input.data.format instead of value.converter.
    keys = sink_keys(tj, bucket, tmp_path, **{
        "format.class": AVRO_FORMAT, "flush.size": "2", "topics.dir": "json-sr",
        "input.data.format": "JSON_SR", "value.converter.schema.registry.url": schema_registry_url,
        "checkpoint.location": str(tmp_path / "ck-json"),
    })  # fmt: skip
    del keys["value.converter"], keys["value.converter.schemas.enable"]
    run(spark, keys)
    got = objects(s3, bucket, "json-sr/")
    key = f"json-sr/{tj}/partition=0/{tj}+0+0000000000.avro"
    assert list(got) == [key]
    written, _, rows = read_avro(got[key])
    assert written == {
        "type": "record",
        "name": "Order",
        "fields": [  # everit's HashMap order of the properties, as Confluent's converter reads
            {"name": "item", "type": "string"},
            {"name": "qty", "type": ["null", "double"], "default": None},
            {"name": "id", "type": "long"},
            {"name": "tags", "type": {"type": "array", "items": "string"}},
        ],
        "connect.doc": "An order",
        "connect.version": 1,
        "connect.name": "Order",
    }
    assert rows == [
        {"id": 1, "item": "pen", "qty": 2.5, "tags": ["x"]},
        {"id": 2, "item": "ink", "qty": None, "tags": []},
    ]


def test_bad_magic_byte_goes_to_the_dlq_as_a_value_converter_error(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, consume: Any,
    schema_registry: SchemaRegistryClient, schema_registry_url: str,
    subjects: Callable[[str], str], dlq_topic: str, tmp_path: Path,
) -> None:  # fmt: skip
    t = make_topic("sr-dlq")
    subjects(f"{t}-value")
    ctx = SerializationContext(t, MessageField.VALUE)
    serialize = AvroSerializer(schema_registry, json.dumps(USER))
    values = [serialize(user_record(i), ctx) for i in range(3)]
    assert values[1] is not None
    values[1] = b"\x07" + values[1][1:]  # wrong magic byte (1 frames a schema GUID)
    values.append(b"\x00\x7f\xff\xff\xf0payload")  # an id the registry does not know
    produce(producer, t, values)
    run(spark, sink_keys(t, bucket, tmp_path, **{
        "format.class": AVRO_FORMAT, "flush.size": "2", "errors.tolerance": "all",
        "errors.deadletterqueue.topic.name": dlq_topic,
        "errors.deadletterqueue.topic.replication.factor": "1",
        "errors.deadletterqueue.context.headers.enable": "true",
        **_registry_keys(schema_registry_url, tmp_path, "ck"),
    }))  # fmt: skip
    got = objects(s3, bucket)
    key = f"topics/{t}/partition=0/{t}+0+0000000000.avro"
    assert list(got) == [key]
    assert [r["id"] for r in read_avro(got[key])[2]] == [0, 2]
    letters = consume(dlq_topic, 2)
    headers = [dict(m.headers()) for m in letters]
    assert [h["__connect.errors.offset"] for h in headers] == [b"1", b"3"]
    for h in headers:
        assert h["__connect.errors.stage"] == b"VALUE_CONVERTER"
        assert h["__connect.errors.class.name"] == AVRO_CONVERTER.encode()
    assert b"Unknown magic byte!" in headers[0]["__connect.errors.exception.message"]
    assert b"not found" in headers[1]["__connect.errors.exception.message"]
    assert letters[0].value() == values[1]


def test_an_unreachable_registry_fails_the_run_without_showing_credentials(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer,
    schema_registry: SchemaRegistryClient, subjects: Callable[[str], str], tmp_path: Path,
) -> None:  # fmt: skip
    t = make_topic("sr-down")
    subjects(f"{t}-value")
    ctx = SerializationContext(t, MessageField.VALUE)
    serialize = AvroSerializer(schema_registry, json.dumps(USER))
    produce(producer, t, [serialize(user_record(i), ctx) for i in range(2)])
    keys = sink_keys(t, bucket, tmp_path, **{
        "format.class": AVRO_FORMAT, "errors.tolerance": "all",
        **_registry_keys("http://ann:s3cr3t@127.0.0.1:9/apis/ccompat/v7", tmp_path, "ck"),
    })  # fmt: skip
    with pytest.raises(RuntimeError) as info:
        run(spark, keys)
    text = str(info.value)
    first_line = text.split("\n", 1)[0]
    assert first_line.startswith(
        "the sink query failed: s3connect.errors.SchemaRegistryError: Schema Registry "
        "http://[hidden]@127.0.0.1:9/apis/ccompat/v7: could not fetch schema id "
    )
    assert first_line.endswith(f"(topic='{t}', partition=0, offset=0)")
    assert "s3cr3t" not in text
    # Never skipped, never dead-lettered: nothing was written.
    assert objects(s3, bucket) == {}
