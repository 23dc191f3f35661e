"""Schema Registry converters without a registry: schema mappings (Avro/JSON Schema/Protobuf ->
Connect, as Confluent's AvroData / JsonSchemaData / ProtobufData), the wire format, the error
split and retries (with an in-memory client), the config keys, and the Avro output of the
resulting Connect schemas (AvroData.fromConnectSchema round trip)."""

from __future__ import annotations

import base64
import dataclasses
import io
import json
import random
import re
import struct
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import fastavro
import pytest
from confluent_kafka.schema_registry import RegisteredSchema, Schema
from confluent_kafka.schema_registry.error import SchemaRegistryError as ClientError
from google.protobuf import message_factory

from s3connect.config.sink import SinkConfig
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import DATE, DECIMAL, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.convert.avro_data import AVRO_UNION, avro_schema, avro_schema_json, to_avro_value
from s3connect.convert.avro_data import to_connect_schema as avro_to_connect_schema
from s3connect.convert.factory import make_converter
from s3connect.convert.registry.client import (
    Registry,
    RegistrySettings,
    RetryPolicy,
    display_url,
    read_message_indexes,
    wire_header,
    with_record_context,
)
from s3connect.convert.registry.json_schema import json_schema_to_connect
from s3connect.convert.registry.proto_parser import parse_proto
from s3connect.convert.registry.protobuf import (
    _add_file,
    _message_at,
    _proto_message,
    _well_known_pool,
    protobuf_to_connect_schema,
)
from s3connect.errors import ConfigError, SchemaRegistryError
from s3connect.formats.avro import AvroFormat
from s3connect.formats.factory import read_file
from tests.unit.convert.random_connect import Names, loosen, random_struct, random_value

# ---------------------------------------------------------------------------------------------
# An in-memory registry client (the subset the converters call)


class FakeClient:
    def __init__(self) -> None:
        self.schemas: dict[int, Schema] = {}
        self.versions: dict[tuple[str, int], int] = {}
        self.calls: list[str] = []
        self.failures: list[Exception] = []

    def add(self, schema_id: int, text: str, kind: str, subject: str, version: int) -> None:
        self.schemas[schema_id] = Schema(text, kind)
        self.versions[(subject, schema_id)] = version

    def _fail(self) -> None:
        if self.failures:
            raise self.failures.pop(0)

    def get_schema(self, schema_id: int, fmt: str | None = None) -> Schema:
        self.calls.append(f"get_schema {schema_id}")
        self._fail()
        if schema_id not in self.schemas:
            raise ClientError(404, 40403, f"Schema {schema_id} not found")
        return self.schemas[schema_id]

    def lookup_schema(self, subject: str, schema: Schema, deleted: bool = False) -> Any:
        self.calls.append(f"lookup {subject}")
        self._fail()
        for (s, schema_id), version in self.versions.items():
            if s == subject and self.schemas[schema_id] is schema:
                return RegisteredSchema(
                    subject=subject, version=version, schema_id=schema_id, guid=None, schema=schema
                )
        raise ClientError(404, 40403, "Schema not found")


def registry(client: FakeClient, retry: RetryPolicy | None = None) -> Registry:
    settings = RegistrySettings("http://ann:pw@sr.example:8081")
    return Registry(settings, retry, client_factory=lambda conf: client, sleep=lambda s: None)


def framed(schema_id: int, payload: bytes) -> bytes:
    return b"\x00" + struct.pack(">I", schema_id) + payload


def avro_bytes(schema: Any, datum: Any) -> bytes:
    out = io.BytesIO()
    fastavro.schemaless_writer(out, fastavro.parse_schema(schema), datum)
    return out.getvalue()


# ---------------------------------------------------------------------------------------------
# Wire format


def test_wire_header_and_message_indexes() -> None:
    assert wire_header(b"\x00\x00\x00\x01\x02rest", "t") == 258
    for bad in (b"\x02\x00\x00\x00\x01", b"\x01" + bytes(16), b"\x00\x00", b""):
        with pytest.raises(ValueError, match=r"^Error deserializing schema ID: "):
            wire_header(bad, "t")
    with pytest.raises(ValueError, match="Unknown magic byte!"):
        wire_header(b"\x02\x00\x00\x00\x01", "t")
    assert read_message_indexes(b"\x00xyz", 0) == ([0], 1)
    # [1, 2]: count 2, then 1 and 2, zig-zag varints.
    assert read_message_indexes(b"\x04\x02\x04msg", 0) == ([1, 2], 3)
    with pytest.raises(ValueError, match="truncated"):
        read_message_indexes(b"\x04\x02", 0)


def test_display_url_hides_user_info() -> None:
    assert display_url("http://ann:pw@h:8081/x,https://b@h2") == (
        "http://[hidden]@h:8081/x,https://[hidden]@h2"
    )
    assert display_url("http://h:8081") == "http://h:8081"
    settings = RegistrySettings("http://a:b@h", "USER_INFO", "me:secret")
    assert "secret" not in repr(settings) and "a:b" not in repr(settings)
    assert settings.client_config() == {
        "url": "http://a:b@h",
        "basic.auth.user.info": "me:secret",
    }


# ---------------------------------------------------------------------------------------------
# Avro -> Connect (AvroData.toConnectSchema) and back (fromConnectSchema)

USER: dict[str, Any] = {
    "type": "record",
    "name": "User",
    "namespace": "s3connect.test",
    "doc": "A user",
    "fields": [
        {"name": "id", "type": "int", "doc": "the id"},
        {"name": "email", "type": ["null", "string"], "default": None},
        {"name": "age", "type": "int", "default": 18},
        {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "color", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN"]}},
        {
            "name": "price",
            "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2},
        },
        {"name": "small", "type": {"type": "int", "connect.type": "int16"}},
        {"name": "u", "type": ["null", "int", "string"], "default": None},
        {"name": "j", "type": {"type": "string", "avro.java.string": "String"}},
        {"name": "micros", "type": {"type": "long", "logicalType": "timestamp-micros"}},
    ],
}


def test_avro_record_to_connect() -> None:
    s = avro_to_connect_schema(USER, version=3)
    assert (s.type, s.name, s.version, s.optional) == (Type.STRUCT, "s3connect.test.User", 3, False)
    assert s.parameters == {
        "io.confluent.connect.avro.record.doc": "A user",
        "io.confluent.connect.avro.field.doc.id": "the id",
    }
    f = {x.name: x.schema for x in s.fields}
    assert f["id"] == ConnectSchema(Type.INT32)
    assert f["email"] == ConnectSchema(Type.STRING, optional=True)
    # An Avro field default: the default, flagged as coming from the field.
    assert f["age"] == ConnectSchema(
        Type.INT32, default=18, parameters={"io.confluent.connect.avro.field.default": "true"}
    )
    assert f["ts"] == ConnectSchema(Type.INT64, name=TIMESTAMP, version=1)
    assert f["color"] == ConnectSchema(
        Type.STRING,
        name="s3connect.test.Color",
        parameters={
            "io.confluent.connect.avro.Enum": "s3connect.test.Color",
            "io.confluent.connect.avro.Enum.RED": "RED",
            "io.confluent.connect.avro.Enum.GREEN": "GREEN",
        },
    )
    assert f["price"] == ConnectSchema(
        Type.BYTES,
        name=DECIMAL,
        version=1,
        parameters={"scale": "2", "connect.decimal.precision": "10"},
    )
    assert f["small"] == ConnectSchema(Type.INT16)
    assert f["u"] == ConnectSchema(
        Type.STRUCT,
        optional=True,
        name=AVRO_UNION,
        parameters={"io.confluent.connect.avro.field.default": "true"},
        fields=(
            Field("int", ConnectSchema(Type.INT32, optional=True)),
            Field("string", ConnectSchema(Type.STRING, optional=True)),
        ),
    )
    assert f["j"] == ConnectSchema(Type.STRING, parameters={"avro.java.string": "String"})
    assert f["micros"] == ConnectSchema(Type.INT64)  # not a logical type AvroData knows


def test_avro_round_trip_is_what_confluent_writes() -> None:
    s = avro_to_connect_schema(USER, version=3)
    assert json.loads(avro_schema_json(s)) == {
        "type": "record",
        "name": "User",
        "namespace": "s3connect.test",
        "doc": "A user",
        "fields": [
            {"name": "id", "type": "int", "doc": "the id"},
            {"name": "email", "type": ["null", "string"], "default": None},
            {"name": "age", "type": "int", "default": 18},
            {
                "name": "ts",
                "type": {
                    "type": "long",
                    "connect.version": 1,
                    "connect.name": TIMESTAMP,
                    "logicalType": "timestamp-millis",
                },
            },
            {
                "name": "color",
                "type": {
                    "type": "string",
                    "connect.parameters": {
                        "io.confluent.connect.avro.Enum": "s3connect.test.Color",
                        "io.confluent.connect.avro.Enum.RED": "RED",
                        "io.confluent.connect.avro.Enum.GREEN": "GREEN",
                    },
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
                    "connect.name": DECIMAL,
                    "logicalType": "decimal",
                },
            },
            {"name": "small", "type": {"type": "int", "connect.type": "int16"}},
            {"name": "u", "type": ["null", "int", "string"], "default": None},
            {
                "name": "j",
                "type": {
                    "type": "string",
                    "connect.parameters": {"avro.java.string": "String"},
                    "avro.java.string": "String",
                },
            },
            {"name": "micros", "type": "long"},
        ],
        "connect.version": 3,
        "connect.parameters": {
            "io.confluent.connect.avro.record.doc": "A user",
            "io.confluent.connect.avro.field.doc.id": "the id",
        },
        "connect.name": "s3connect.test.User",
    }
    # The record doc comes before the fields, as Avro Java writes it.
    assert avro_schema_json(s).startswith(
        '{"type":"record","name":"User","namespace":"s3connect.test","doc":"A user","fields":'
    )


def test_avro_connect_metadata_wins_and_errors() -> None:
    # connect.* properties (a schema a Connect source wrote) take priority over the registry.
    s = avro_to_connect_schema(
        {
            "type": "record",
            "name": "ConnectDefault",
            "namespace": "io.confluent.connect.avro",
            "fields": [{"name": "n", "type": {"type": "int", "connect.type": "int8"}}],
            "connect.version": 7,
            "connect.doc": "d",
            "connect.parameters": {"p": "v"},
        },
        version=2,
    )
    assert (s.name, s.version, s.doc, dict(s.parameters)) == (None, 7, "d", {"p": "v"})
    assert s.fields[0].schema == ConnectSchema(Type.INT8)
    # A top-level logical type registered as version 2: AvroData's "Mismatched versions".
    with pytest.raises(ValueError, match="Mismatched versions"):
        avro_to_connect_schema({"type": "int", "logicalType": "date"}, version=2)
    assert avro_to_connect_schema({"type": "int", "logicalType": "date"}, version=1) == (
        ConnectSchema(Type.INT32, name=DATE, version=1)
    )
    # No scale: 0 (AvroData since DGS-2937; AvroDataTest.testToConnectDecimalAvroDefaultScale).
    assert avro_to_connect_schema({"type": "bytes", "logicalType": "decimal", "precision": 4}) == (
        ConnectSchema(
            Type.BYTES,
            name=DECIMAL,
            version=1,
            parameters={"scale": "0", "connect.decimal.precision": "4"},
        )
    )
    with pytest.raises(ValueError, match="Standalone null"):
        avro_to_connect_schema("null")
    with pytest.raises(ValueError, match="recursive"):
        avro_to_connect_schema(
            {"type": "record", "name": "N", "fields": [{"name": "next", "type": ["null", "N"]}]}
        )
    with pytest.raises(ValueError, match="Multiple union schemas"):
        avro_to_connect_schema(
            [
                {"type": "record", "name": "a.X", "fields": []},
                {"type": "record", "name": "b.X", "fields": []},
            ]
        )
    # Maps with non-string keys, as AvroData writes them: arrays of MapEntry records.
    entry = {
        "type": "record",
        "name": "MapEntry",
        "namespace": "io.confluent.connect.avro",
        "fields": [{"name": "key", "type": "int"}, {"name": "value", "type": "string"}],
    }
    assert avro_to_connect_schema({"type": "array", "items": entry}) == ConnectSchema(
        Type.MAP, key_schema=ConnectSchema(Type.INT32), value_schema=ConnectSchema(Type.STRING)
    )


def test_avro_union_struct_values_are_written_as_unions() -> None:
    union = avro_to_connect_schema(["null", "int", "string"])
    assert union.name == AVRO_UNION and union.optional
    assert to_avro_value(union, {"int": None, "string": "x"}) == "x"
    assert to_avro_value(union, None) is None


def test_avro_converter_decodes_caches_and_splits_errors() -> None:
    client = FakeClient()
    point = {"type": "record", "name": "Point", "fields": [{"name": "x", "type": "int"}]}
    schema = {
        "type": "record",
        "name": "Shape",
        "namespace": "geo",
        "fields": [
            {"name": "v", "type": ["null", "int", "string", point]},
            {"name": "p", "type": ["null", "geo.Point"]},
            {"name": "when", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        ],
    }
    client.add(7, json.dumps(schema), "AVRO", "t-value", 4)
    conv = make_converter("io.confluent.connect.avro.AvroConverter", registry=registry(client))
    ts = datetime(2024, 1, 2, tzinfo=UTC)
    datum = {"v": ("geo.Point", {"x": 3}), "p": {"x": 1}, "when": ts}
    value, connect = conv.to_connect("t", framed(7, avro_bytes(schema, datum)))
    assert value == {
        "v": {"int": None, "string": None, "Point": {"x": 3}},
        "p": {"x": 1},
        "when": ts,
    }
    assert connect is not None and connect.version == 4 and connect.name == "geo.Shape"
    value2, connect2 = conv.to_connect("t", framed(7, avro_bytes(schema, {**datum, "v": 5})))
    assert value2["v"] == {"int": 5, "string": None, "Point": None}
    assert connect2 is connect  # one Connect schema object per (topic, id)
    assert client.calls == ["get_schema 7", "lookup t-value"]  # fetched once
    assert conv.to_connect("t", None) == (None, None)
    with pytest.raises(ValueError, match="Unknown magic byte"):
        conv.to_connect("t", b"\x02" + framed(7, b"")[1:])
    with pytest.raises(ValueError, match="Error retrieving Avro value schema for id 8: Schema 8"):
        conv.to_connect("t", framed(8, b"\x00"))
    # Trailing bytes are ignored (avro.fail.on.trailing.data=false, Confluent's default).
    assert conv.to_connect("t", framed(7, avro_bytes(schema, datum) + b"\x00"))[0] == value2 | {
        "v": {"int": None, "string": None, "Point": {"x": 3}}
    }
    # Registered under another subject only: not this topic's schema (no version).
    with pytest.raises(ValueError, match="not registered under subject other-value"):
        conv.to_connect("other", framed(7, avro_bytes(schema, datum)))


@pytest.mark.parametrize("seed", range(3))
def test_avro_converter_and_source_read_sink_schemas_alike(seed: int) -> None:
    """The Schema Registry converter and the S3 source's Avro reader give the same Connect
    schema and values for what the sink writes: both are convert/avro_data (two mappings
    disagreed on logical-type versions and nested ConnectDefault names)."""
    rng = random.Random(seed)
    for i in range(60):
        schema = dataclasses.replace(loosen(rng, random_struct(rng, Names(), 0)), version=5)
        value = random_value(rng, schema)
        client = FakeClient()
        client.add(1, avro_schema_json(schema), "AVRO", "t-value", 5)
        conv = make_converter("avro", registry=registry(client))
        framed_value = framed(1, avro_bytes(avro_schema(schema), to_avro_value(schema, value)))
        record = SinkRecord("t", 0, i, None, None, value, None, schema)
        out = io.BytesIO()
        AvroFormat().write([record], out)
        file = read_file("avro", out.getvalue(), ".avro")
        assert conv.to_connect("t", framed_value) == (file.values[0], file.schema)


def test_registry_outage_is_retried_then_fails_naming_the_registry_not_the_credentials() -> None:
    client = FakeClient()
    client.add(1, json.dumps("string"), "AVRO", "t-value", 1)
    client.failures = [ClientError(503, 50301, "busy"), ConnectionError("refused")]
    conv = make_converter("avro", registry=registry(client, RetryPolicy(60_000, 1_000)))
    assert conv.to_connect("t", framed(1, b"\x02a")) == (
        "a",
        ConnectSchema(Type.STRING, version=1),
    )
    assert client.calls == ["get_schema 1", "get_schema 1", "get_schema 1", "lookup t-value"]

    down = FakeClient()
    down.failures = [ClientError(503, 50301, "busy")] * 5
    conv = make_converter("avro", registry=registry(down))  # errors.retry.timeout=0: no retry
    with pytest.raises(SchemaRegistryError) as info:
        conv.to_connect("t", framed(1, b"\x02a"))
    assert str(info.value) == (
        "Schema Registry http://[hidden]@sr.example:8081: could not fetch schema id 1: HTTP 503 "
        "(error code 50301): busy (1 attempt; errors.retry.timeout=0, "
        "errors.retry.delay.max.ms=60000) (topic='t', partition=None, offset=None)"
    )
    denied = FakeClient()
    denied.failures = [ClientError(401, 40101, "Unauthorized")]
    conv = make_converter("avro", registry=registry(denied, RetryPolicy(-1, 10)))
    with pytest.raises(SchemaRegistryError, match="HTTP 401"):  # not retried, even forever
        conv.to_connect("t", framed(1, b"\x02a"))

    class Raw:
        topic, partition, offset = "t", 3, 42

    def convert(raw: Any) -> Any:
        raise SchemaRegistryError("down", url="http://h", topic="t")

    with pytest.raises(SchemaRegistryError, match=r"partition=3, offset=42\)$"):
        with_record_context(convert)(Raw())


# ---------------------------------------------------------------------------------------------
# JSON Schema -> Connect (JsonSchemaData)


def test_json_schema_to_connect() -> None:
    node = {
        "title": "Order",
        "description": "An order",
        "type": "object",
        "definitions": {"Line": {"type": "object", "properties": {"sku": {"type": "string"}}}},
        "properties": {
            "id": {"type": "integer"},
            "qty": {"type": "number"},
            "note": {"oneOf": [{"type": "null"}, {"type": "string"}]},
            "alt": {"type": ["string", "null"]},
            "kind": {"type": "string", "enum": ["A", "B"]},
            "small": {"type": "integer", "connect.type": "int16"},
            "attrs": {"type": "object", "connect.type": "map",
                      "additionalProperties": {"type": "integer"}},
            "lines": {"type": "array", "items": {"$ref": "#/definitions/Line"}},
            "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "flag": {"type": "boolean", "default": True},
        },
        "required": ["id"],
    }  # fmt: skip
    s = json_schema_to_connect(node, version=2)
    assert (s.name, s.doc, s.version, s.optional) == ("Order", "An order", 2, False)
    f = {x.name: x.schema for x in s.fields}
    # everit keeps the properties in a java.util.HashMap: its order, not the document's
    assert list(f) == [
        "small", "note", "either", "flag", "kind", "qty", "alt", "id", "lines", "attrs"
    ]  # fmt: skip
    # Non-required properties stay required (use.optional.for.nonrequired=false).
    assert f["id"] == ConnectSchema(Type.INT64)
    assert f["qty"] == ConnectSchema(Type.FLOAT64)
    assert f["note"] == ConnectSchema(Type.STRING, optional=True)
    assert f["alt"] == ConnectSchema(Type.STRING, optional=True)
    assert f["kind"] == ConnectSchema(
        Type.STRING,
        parameters={
            "io.confluent.connect.json.Enum": "",
            "io.confluent.connect.json.Enum.A": "A",
            "io.confluent.connect.json.Enum.B": "B",
        },
    )
    assert f["small"] == ConnectSchema(Type.INT16)
    assert f["attrs"] == ConnectSchema(
        Type.MAP, key_schema=ConnectSchema(Type.STRING), value_schema=ConnectSchema(Type.INT64)
    )
    line = ConnectSchema(Type.STRUCT, fields=(Field("sku", ConnectSchema(Type.STRING)),))
    assert f["lines"] == ConnectSchema(Type.ARRAY, value_schema=line)
    one_of = "io.confluent.connect.json.OneOf"
    assert f["either"] == ConnectSchema(
        Type.STRUCT,
        name=one_of,
        fields=(
            Field(f"{one_of}.field.0", ConnectSchema(Type.STRING, optional=True)),
            Field(f"{one_of}.field.1", ConnectSchema(Type.INT64, optional=True)),
        ),
    )
    assert f["flag"] == ConnectSchema(Type.BOOLEAN, default=True)
    for unsupported in (False, {"type": "null"}, {"type": "array"}):
        with pytest.raises(ValueError):
            json_schema_to_connect(unsupported)


def test_json_schema_combinations_as_everit_loads_them() -> None:
    one_of = "io.confluent.connect.json.OneOf"
    # Properties beside oneOf: everit's synthetic allOf of both parts; allOfToConnectSchema
    # collects the properties (the combinator's part first).
    beside = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
        "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
    }
    assert json_schema_to_connect(beside) == ConnectSchema(
        Type.STRUCT,
        fields=(Field("a", ConnectSchema(Type.STRING)), Field("b", ConnectSchema(Type.INT64))),
    )
    merged = {
        "properties": {"a": {"type": "string"}},
        "allOf": [{"properties": {"b": {"type": "integer"}}}],
    }
    assert [f.name for f in json_schema_to_connect(merged).fields] == ["b", "a"]
    # flatten.singleton.unions=true: a one-member union is its member (testToConnectSingletonUnion)
    assert json_schema_to_connect({"oneOf": [{"type": "string"}]}, version=3) == ConnectSchema(
        Type.STRING
    )
    addr = {"title": "Addr", "type": "object", "properties": {"c": {"type": "string"}}}
    ref = {"definitions": {"Addr": addr}, "allOf": [{"$ref": "#/definitions/Addr"}]}
    assert json_schema_to_connect(ref).name == "Addr"
    # An untyped const is a one-symbol enum (toConnectEnums; testToConnectConst)
    const = json_schema_to_connect({"type": "object", "properties": {"k": {"const": "fixed"}}})
    assert const.fields[0].schema == ConnectSchema(
        Type.STRING,
        parameters={
            "io.confluent.connect.json.Enum": "",
            "io.confluent.connect.json.Enum.fixed": "fixed",
        },
    )
    # A union keeps the node's description as its doc.
    doc = {"description": "either", "oneOf": [{"type": "string"}, {"type": "integer"}]}
    union = json_schema_to_connect(doc)
    assert (union.name, union.doc) == (one_of, "either")


def test_json_schema_union_values_pick_the_member_as_json_schema_data_does() -> None:
    # The STRUCT converter for unions: a simple member the value is an instance of, else the
    # struct sharing most properties, children's matches counted (matchStructSchema); none: error.
    node = {
        "oneOf": [
            {"type": "object", "properties": {"a": {"type": "integer"}, "x": {"type": "object"}}},
            {"type": "object", "properties": {"x": {"type": "object",
                                                    "properties": {"q": {"type": "integer"}}}}},
        ]
    }  # fmt: skip
    client = FakeClient()
    client.add(3, json.dumps(node), "JSON", "t-value", 1)
    conv = make_converter("jsonschema", registry=registry(client))
    one_of = "io.confluent.connect.json.OneOf"
    value, _ = conv.to_connect("t", framed(3, b'{"x": {"q": 1}}'))
    assert value == {f"{one_of}.field.0": None, f"{one_of}.field.1": {"x": {"q": 1}}}
    with pytest.raises(ValueError, match="Did not find matching oneof field"):
        conv.to_connect("t", framed(3, b'{"c": 1}'))


def test_json_schema_connect_properties_and_values() -> None:
    node = {
        "type": "object",
        "title": "T",
        "connect.version": 9,
        "properties": {
            "b": {"type": "number", "connect.index": 1, "connect.type": "bytes",
                  "title": DECIMAL, "connect.parameters": {"scale": "2"}},
            "a": {"type": "integer", "connect.index": 0, "connect.type": "int64",
                  "title": TIMESTAMP},
        },
    }  # fmt: skip
    s = json_schema_to_connect(node, version=2)
    assert s.version == 9  # connect.version wins
    assert [x.name for x in s.fields] == ["a", "b"]  # connect.index order
    client = FakeClient()
    client.add(3, json.dumps(node), "JSON", "t-value", 2)
    conv = make_converter("jsonschema", registry=registry(client))
    value, _ = conv.to_connect("t", framed(3, b'{"b": 12.50, "a": 1000}'))
    assert value == {"a": datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC), "b": Decimal("12.50")}
    required = {"type": "object", "properties": {"n": {"type": "integer"}}}
    client.add(4, json.dumps(required), "JSON", "t-value", 1)
    # A missing property is null (JsonSchemaData), an explicit null for a required one fails.
    assert conv.to_connect("t", framed(4, b"{}"))[0] == {"n": None}
    with pytest.raises(ValueError, match="Invalid null value for required INT64 field"):
        conv.to_connect("t", framed(4, b'{"n": null}'))
    with pytest.raises(ValueError, match="not JSON"):
        conv.to_connect("t", framed(4, b"{nope"))


# ---------------------------------------------------------------------------------------------
# Protobuf -> Connect (ProtobufData), from .proto text and from a serialized descriptor

PROTO = """
syntax = "proto3";
package shop.v1;
import "google/protobuf/timestamp.proto";
import "confluent/meta.proto";
import "confluent/type/decimal.proto";

message Order {
  int64 id = 1;
  repeated string tags = 2;
  map<string, int32> line_counts = 3;
  google.protobuf.Timestamp at = 4;
  Status status = 5;
  oneof payer { string card = 6; Account account = 7; }
  optional string note = 8;
  uint64 big = 9;
  sint32 delta = 10;
  confluent.type.Decimal total = 11
      [(confluent.field_meta) = { params: [{key: "scale", value: "2"}] }];
  message Account { string iban = 1; }
  enum Status { NEW = 0; PAID = 1; }
}
message Other { bool ok = 1; }
"""


def _order_descriptor() -> tuple[Any, Any]:
    proto = parse_proto(PROTO)
    proto.name = "shop.proto"
    pool = _well_known_pool()
    _add_file(pool, proto)
    return pool, proto


def test_protobuf_to_connect_schema() -> None:
    pool, proto = _order_descriptor()
    s = protobuf_to_connect_schema(_message_at(pool, proto, [0]), version=5)
    assert (s.name, s.version, s.optional) == ("Order", 5, False)
    assert [f.name for f in s.fields] == [
        "payer_0", "id", "tags", "line_counts", "at", "status", "note", "big", "delta", "total",
    ]  # fmt: skip
    f = {x.name: x.schema for x in s.fields}

    def tag(n: int, **params: str) -> dict[str, str]:
        return {**params, "io.confluent.connect.protobuf.Tag": str(n)}

    assert f["id"] == ConnectSchema(Type.INT64, optional=True, parameters=tag(1))
    assert f["tags"] == ConnectSchema(
        Type.ARRAY,
        optional=True,
        parameters=tag(2),
        value_schema=ConnectSchema(Type.STRING, optional=True),
    )
    assert f["line_counts"] == ConnectSchema(
        Type.MAP,
        optional=True,
        name="line_counts",
        parameters=tag(3),
        key_schema=ConnectSchema(Type.STRING, optional=True, parameters=tag(1)),
        value_schema=ConnectSchema(Type.INT32, optional=True, parameters=tag(2)),
    )
    assert f["at"] == ConnectSchema(
        Type.INT64, optional=True, name=TIMESTAMP, version=1, parameters=tag(4)
    )
    assert f["status"] == ConnectSchema(
        Type.STRING,
        optional=True,
        name="Status",
        parameters={
            "io.confluent.connect.protobuf.Enum": "Status",
            "io.confluent.connect.protobuf.Enum.NEW": "0",
            "io.confluent.connect.protobuf.Enum.PAID": "1",
            "io.confluent.connect.protobuf.Tag": "5",
        },
    )
    payer = f["payer_0"]
    assert (payer.name, payer.optional) == ("io.confluent.connect.protobuf.Union.payer", True)
    assert [x.name for x in payer.fields] == ["card", "account"]
    assert f["big"].parameters == tag(9, **{"io.confluent.connect.protobuf.Type": "uint64"})
    sint32 = {"io.confluent.connect.protobuf.Type": "sint32"}
    assert f["delta"] == ConnectSchema(Type.INT32, optional=True, parameters=tag(10, **sint32))
    assert f["total"] == ConnectSchema(
        Type.BYTES, optional=True, name=DECIMAL, version=1, parameters=tag(11, scale="2")
    )


def test_protobuf_converter_values_from_a_serialized_descriptor() -> None:
    pool, proto = _order_descriptor()
    cls = message_factory.GetMessageClass(_message_at(pool, proto, [0]))
    m = cls(id=7, tags=["x"], status=1, account={"iban": "DE1"}, big=2**64 - 1, delta=-2)
    m.line_counts.add(key="a", value=2)  # map entries parse as messages, in wire order
    m.at.seconds, m.at.nanos = 1, 2_000_000
    m.total.value, m.total.scale = (1234).to_bytes(2, "big", signed=True), 2
    client = FakeClient()
    serialized = base64.b64encode(proto.SerializeToString()).decode()
    client.add(5, serialized, "PROTOBUF", "t-value", 3)
    conv = make_converter("protobuf", registry=registry(client))
    value, schema = conv.to_connect("t", framed(5, b"\x00" + m.SerializeToString()))
    assert schema is not None and schema.version == 3
    assert value == {
        "payer_0": {"card": None, "account": {"iban": "DE1"}},
        "id": 7,
        "tags": ["x"],
        "line_counts": {"a": 2},
        "at": datetime(1970, 1, 1, 0, 0, 1, 2000, tzinfo=UTC),
        "status": "PAID",
        "note": None,  # proto3 optional, unset
        "big": -1,  # uint64 read as Java's signed long
        "delta": -2,
        "total": Decimal("12.34"),
    }
    # Message indexes [1]: the file's second message.
    other, _ = conv.to_connect("t", framed(5, b"\x02\x02" + b"\x08\x01"))
    assert other == {"ok": True}
    with pytest.raises(ValueError, match="message index 4 out of range"):
        conv.to_connect("t", framed(5, b"\x02\x08"))


WRAPPED_AND_PROTO2 = {
    "w.proto": """
syntax = "proto3";
import "google/protobuf/wrappers.proto";
message W {
  int32 key = 1;
  google.protobuf.StringValue name = 2;
  google.protobuf.UInt32Value count = 3;
  repeated google.protobuf.Int64Value ids = 4;
}
""",
    "map.proto": """
syntax = "proto3";
message Counts { map<string, int32> m = 1; }
""",
    "p2.proto": """
syntax = "proto2";
message M {
  optional int32 key = 1;
  optional string value = 2;
  optional int32 d = 3 [default = 5];
  required int32 r = 4;
  repeated int32 xs = 5;
}
""",
}


def _proto_values(name: str, build: Any) -> tuple[Any, Any]:
    proto = parse_proto(WRAPPED_AND_PROTO2[name])
    proto.name = name
    pool = _well_known_pool()
    _add_file(pool, proto)
    desc = _message_at(pool, proto, [0])
    client = FakeClient()
    client.add(9, base64.b64encode(proto.SerializeToString()).decode(), "PROTOBUF", "t-value", 1)
    conv = make_converter("protobuf", registry=registry(client))
    m = build(message_factory.GetMessageClass(desc))
    return conv.to_connect("t", framed(9, b"\x00" + m.SerializeToString()))


def test_protobuf_wrapper_fields_are_raw_primitives_at_any_depth() -> None:
    # wrapper.for.raw.primitives=true (the default): toStructSchema -> toConnectSchema(message)
    # -> toUnwrappedSchema, for fields too; values through getWrappedValue.
    def build(cls: Any) -> Any:
        m = cls(key=1)
        m.name.value = "hi"
        m.ids.add(value=7)
        return m

    value, schema = _proto_values("w.proto", build)
    f = {x.name: x.schema for x in schema.fields}
    tag = "io.confluent.connect.protobuf.Tag"
    assert f["name"] == ConnectSchema(Type.STRING, optional=True, parameters={tag: "2"})
    assert f["count"] == ConnectSchema(Type.INT64, optional=True, parameters={tag: "3"})
    assert f["ids"].value_schema == ConnectSchema(Type.INT64, optional=True)
    assert value == {"key": 1, "name": "hi", "count": None, "ids": [7]}


# java.util.HashMap's order of these keys, whatever order they were put in (Java 17).
HASHMAP_ORDER = ["zeta", "banana", "date", "apple", "fig", "grape"]


def test_protobuf_and_json_schema_maps_come_in_hashmap_order() -> None:
    # ProtobufData and JsonSchemaData fill a new HashMap<>(), which JsonFormat, Avro and
    # parquet-avro then write in its order.
    def build(cls: Any) -> Any:
        m = cls()
        for i, k in enumerate(["fig", "grape", "zeta", "apple", "banana", "date"]):
            m.m.add(key=k, value=i)  # the wire order of a Java producer's map
        return m

    value, _ = _proto_values("map.proto", build)
    assert list(value["m"]) == HASHMAP_ORDER and value["m"]["zeta"] == 2
    node = {
        "type": "object",
        "properties": {"m": {"type": "object", "connect.type": "map",
                             "additionalProperties": {"type": "integer"}}},
    }  # fmt: skip
    client = FakeClient()
    client.add(3, json.dumps(node), "JSON", "t-value", 1)
    conv = make_converter("jsonschema", registry=registry(client))
    doc = {"m": {k: 1 for k in ["fig", "grape", "zeta", "apple", "banana", "date"]}}
    value, _ = conv.to_connect("t", framed(3, json.dumps(doc).encode()))
    assert list(value["m"]) == HASHMAP_ORDER


def test_protobuf_unset_proto2_optionals_are_null() -> None:
    # optional.for.proto2=true (ProtobufDataConfig's default): setStructField sets an optional
    # scalar only when present (testToConnectOptionalProto2); required and repeated always.
    value, _ = _proto_values("p2.proto", lambda cls: cls(key=123, r=0))
    assert value == {"key": 123, "value": None, "d": None, "r": 0, "xs": []}


def test_proto_text_parser_details() -> None:
    proto = parse_proto(PROTO)
    order = proto.message_type[0]
    assert [n.name for n in order.nested_type] == ["LineCountsEntry", "Account"]
    assert order.nested_type[0].options.map_entry
    assert [o.name for o in order.oneof_decl] == ["payer", "_note"]  # synthetic last
    with pytest.raises(ValueError, match="groups"):
        parse_proto("syntax = 'proto2'; message M { optional group G = 1 { } }")


# ---------------------------------------------------------------------------------------------
# Config

MINIMAL = {
    "topics": "orders",
    "kafka.bootstrap.servers": "localhost:9092",
    "checkpoint.location": "/tmp/ckpt",
    "s3.bucket.name": "bucket",
    "format.class": "avro",
    "flush.size": "3",
}


def test_config_registry_converters() -> None:
    c = SinkConfig.from_mapping({
        **MINIMAL,
        "key.converter": "io.confluent.connect.protobuf.ProtobufConverter",
        "key.converter.schema.registry.url": "https://ann:pw@sr:8081",
        "value.converter": "io.confluent.connect.json.JsonSchemaConverter",
        "value.converter.schema.registry.url": "http://sr:8081",
        "value.converter.basic.auth.credentials.source": "USER_INFO",
        "value.converter.basic.auth.user.info": "bob:s3cret",
        "value.converter.auto.register.schemas": "false",
        "errors.retry.timeout": "30000",
        "errors.retry.delay.max.ms": "2000",
    })  # fmt: skip
    assert (c.converters.key, c.converters.value) == ("protobuf", "jsonschema")
    assert c.registry.key == RegistrySettings("https://ann:pw@sr:8081")
    assert (c.errors.retry_timeout_ms, c.errors.retry_delay_max_ms) == (30000, 2000)
    shown = c.describe()
    assert shown["value.converter"] == "io.confluent.connect.json.JsonSchemaConverter"
    assert shown["value.converter.basic.auth.user.info"] == "[hidden]"
    assert shown["key.converter.schema.registry.url"] == "https://[hidden]@sr:8081"
    assert "s3cret" not in repr(c) and "ann:pw" not in repr(c)
    assert c.describe(masked=False)["value.converter.basic.auth.user.info"] == "bob:s3cret"
    assert "value.converter.auto.register.schemas" in c.ignored_keys


def test_config_registry_problems_name_the_keys() -> None:
    with pytest.raises(ConfigError) as info:
        SinkConfig.from_mapping({
            **MINIMAL,
            "value.converter": "io.confluent.connect.avro.AvroConverter",
            "key.converter": "io.confluent.connect.avro.AvroConverter",
            "key.converter.schema.registry.url": "sr:8081",
            "key.converter.basic.auth.credentials.source": "USER_INFO",
            "key.converter.enhanced.avro.schema.support": "true",
        })  # fmt: skip
    text = str(info.value)
    assert (
        "value.converter.schema.registry.url is missing: required, the Schema Registry base URL "
        "for io.confluent.connect.avro.AvroConverter"
    ) in text
    assert "key.converter.schema.registry.url=sr:8081 is invalid: must be http(s) URLs" in text
    assert "key.converter.basic.auth.user.info is missing" in text
    assert "key.converter.enhanced.avro.schema.support=true is not supported yet" in text
    with pytest.raises(ConfigError, match=r"input\.data\.format=AVRO and value\.converter=json"):
        SinkConfig.from_mapping({**MINIMAL, "input.data.format": "AVRO", "value.converter": "json"})
    c = SinkConfig.from_mapping({
        **MINIMAL, "input.data.format": "protobuf",
        "value.converter.schema.registry.url": "http://sr:8081",
    })  # fmt: skip
    assert c.converters.value == "protobuf"
    assert c.describe()["value.converter"] == "io.confluent.connect.protobuf.ProtobufConverter"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("enhanced.protobuf.schema.support", "true"),
        ("scrub.invalid.names", "true"),
        ("int.for.enums", "true"),
        ("optional.for.nullables", "true"),
        ("optional.for.proto2", "false"),
        ("wrapper.for.nullables", "true"),
        ("wrapper.for.raw.primitives", "false"),
        ("generate.struct.for.nulls", "true"),
        ("generate.index.for.unions", "false"),
        ("flatten.unions", "true"),
    ],
)
def test_config_protobuf_data_settings_only_at_their_defaults(key: str, value: str) -> None:
    # ProtobufDataConfig's reading settings change the Connect data: refused, not ignored.
    base = {
        **MINIMAL,
        "value.converter": "io.confluent.connect.protobuf.ProtobufConverter",
        "value.converter.schema.registry.url": "http://sr:8081",
    }
    with pytest.raises(ConfigError, match=rf"value\.converter\.{re.escape(key)}={value} is not"):
        SinkConfig.from_mapping({**base, f"value.converter.{key}": value})
    default = "false" if value == "true" else "true"
    SinkConfig.from_mapping({**base, f"value.converter.{key}": default})


def test_json_and_avro_day_values() -> None:
    # Date and decimal values decode to the Python types the formats expect.
    schema = {
        "type": "record",
        "name": "D",
        "fields": [
            {"name": "d", "type": {"type": "int", "logicalType": "date"}},
            {"name": "m", "type": {"type": "map", "values": ["null", "int", "string"]}},
        ],
    }
    client = FakeClient()
    client.add(2, json.dumps(schema), "AVRO", "t-value", 1)
    conv = make_converter("avro", registry=registry(client))
    datum = {"d": date(2024, 2, 29), "m": {"a": 1, "b": None}}
    value, _ = conv.to_connect("t", framed(2, avro_bytes(schema, datum)))
    assert value == {
        "d": date(2024, 2, 29),
        "m": {"a": {"int": 1, "string": None}, "b": None},
    }


def test_protobuf_int8_int16_wrap_and_enum_aliases_take_the_first_name() -> None:
    # ProtobufData: ((Number) value).byteValue() / shortValue(); DynamicMessage's enum value is
    # findValueByNumber's, the first declared of aliases.
    text = """
syntax = "proto3";
import "confluent/meta.proto";
message N {
  int32 b = 1 [(confluent.field_meta) = { params: [{ key: "connect.type", value: "int8" }]}];
  int32 s = 2 [(confluent.field_meta) = { params: [{ key: "connect.type", value: "int16" }]}];
  E e = 3;
  enum E {
    option allow_alias = true;
    ZERO = 0;
    ALSO_ZERO = 0;
    ONE = 1;
  }
}
"""
    proto = parse_proto(text)
    proto.name = "n.proto"
    pool = _well_known_pool()
    _add_file(pool, proto)
    desc = _message_at(pool, proto, [0])
    message = message_factory.GetMessageClass(desc)(b=300, s=40000, e=0)
    schema = protobuf_to_connect_schema(desc)
    assert [f.schema.type for f in schema.fields] == [Type.INT8, Type.INT16, Type.STRING]
    value = _proto_message(schema, desc)(message)
    assert value == {"b": 44, "s": -25536, "e": "ZERO"}
