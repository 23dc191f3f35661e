"""Confluent's AvroConverter tests and the Avro deserializer tests that define what a reading
converter does with the bytes and the registry, ported one test per Java method:

- ``io.confluent.connect.avro.AvroConverterTest`` (avro-converter);
- ``io.confluent.kafka.serializers.KafkaAvroSerializerTest`` (avro-serializer), the methods about
  deserializing;
- ``io.confluent.kafka.serializers.AbstractKafkaAvroDeserializerTest`` (avro-serializer).

From confluentinc/schema-registry at 794611bd86d1ce0422581269e2b13a2ab010c7fb. The Java tests use
a ``MockSchemaRegistryClient``; here :class:`MockRegistryClient` answers as the registry's REST API
does (through confluent-kafka's types), and Confluent's serializers are emulated by
:func:`serialize`: register the schema under the strategy's subject, then the wire format (magic
byte 0, the id) and the datum (a top-level ``bytes`` value as it is). ``fromConnectData`` is
AvroData's ``fromConnectSchema`` / ``fromConnectData`` (:mod:`s3connect.convert.avro_data`).
Serializer-only methods (auto registration rules, specific and reflection records, Java config
classes, mock:// URLs) have no reading side here and are not ported.
"""

from __future__ import annotations

import io
import json
import struct
import uuid
from typing import Any

import fastavro
import pytest
from confluent_kafka.schema_registry import Metadata, RegisteredSchema, Schema
from confluent_kafka.schema_registry.error import SchemaRegistryError as ClientError

from s3connect.config.sink import SinkConfig
from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.convert.avro_data import avro_schema_json, to_avro_value
from s3connect.convert.factory import make_converter
from s3connect.convert.registry.base import RegistryConverter
from s3connect.convert.registry.client import ReadSettings, Registry, RegistrySettings
from s3connect.errors import ConfigError, SchemaRegistryError
from s3connect.sink.converters import build_converter

TOPIC = "topic"
STRATEGY = "io.confluent.kafka.serializers.subject."
TOPIC_NAME = STRATEGY + "TopicNameStrategy"
RECORD_NAME = STRATEGY + "RecordNameStrategy"
TOPIC_RECORD_NAME = STRATEGY + "TopicRecordNameStrategy"


class MockRegistryClient:
    """``MockSchemaRegistryClient``'s answers: one id per schema (text and metadata), versions
    counted per subject, 404s with the registry's error codes."""

    def __init__(self) -> None:
        self.ids: dict[tuple[str, str], int] = {}
        self.schemas: dict[int, Schema] = {}
        self.subjects: dict[str, list[int]] = {}
        self.failures: list[Exception] = []
        self.guids: dict[str, int] = {}

    @staticmethod
    def guid(schema_id: int) -> str:
        """The GUID the registry gives schema ``schema_id`` (here: derived from the id)."""
        return str(uuid.UUID(int=0x5EED << 64 | schema_id))

    def get_schema_by_guid(self, guid: str, fmt: str | None = None) -> Schema:
        if guid not in self.guids:
            raise ClientError(404, 40403, f"Schema {guid} not found")
        return self.schemas[self.guids[guid]]

    def register(self, subject: str, schema: Any, properties: dict[str, str] | None = None) -> int:
        """Register a (JSON-able) Avro schema under ``subject``; its version."""
        text = json.dumps(schema)
        metadata = Metadata.from_dict({"properties": properties}) if properties else None
        key = (text, json.dumps(properties, sort_keys=True))
        if key not in self.ids:
            self.ids[key] = len(self.ids) + 1
            self.schemas[self.ids[key]] = Schema(text, "AVRO", metadata=metadata)
            self.guids[self.guid(self.ids[key])] = self.ids[key]
        versions = self.subjects.setdefault(subject, [])
        if self.ids[key] not in versions:
            versions.append(self.ids[key])
        return versions.index(self.ids[key]) + 1

    def schema_id(self, schema: Any) -> int:
        text = json.dumps(schema)
        return next(i for (t, _), i in self.ids.items() if t == text)

    def get_schema(self, schema_id: int, fmt: str | None = None) -> Schema:
        if self.failures:
            raise self.failures.pop(0)
        if schema_id not in self.schemas:
            raise ClientError(404, 40403, f"Schema {schema_id} not found")
        return self.schemas[schema_id]

    def _registered(self, subject: str, version: int) -> RegisteredSchema:
        schema_id = self.subjects[subject][version - 1]
        return RegisteredSchema(
            schema_id=schema_id,
            guid=None,
            schema=self.schemas[schema_id],
            subject=subject,
            version=version,
        )

    def lookup_schema(self, subject: str, schema: Schema, deleted: bool = False) -> Any:
        if subject not in self.subjects:
            raise ClientError(404, 40401, f"Subject '{subject}' not found.")
        for version, schema_id in enumerate(self.subjects[subject], 1):
            if self.schemas[schema_id].schema_str == schema.schema_str:
                return self._registered(subject, version)
        raise ClientError(404, 40403, "Schema not found")

    def get_latest_version(self, subject: str) -> RegisteredSchema:
        if subject not in self.subjects:
            raise ClientError(404, 40401, f"Subject '{subject}' not found.")
        return self._registered(subject, len(self.subjects[subject]))

    def get_version(
        self, subject: str, version: int, deleted: bool = False, fmt: Any = None
    ) -> Any:
        return self._registered(subject, version)


def converter(
    client: MockRegistryClient, *, is_key: bool = False, **settings: Any
) -> RegistryConverter:
    """``new AvroConverter(schemaRegistry)`` configured with ``settings`` (ReadSettings')."""
    registry = Registry(
        RegistrySettings("http://fake-url"), client_factory=lambda conf: client, sleep=lambda s: 0
    )
    conv = make_converter(
        "io.confluent.connect.avro.AvroConverter",
        registry=registry,
        is_key=is_key,
        read_settings=ReadSettings(**settings),
    )
    assert isinstance(conv, RegistryConverter)
    return conv


def record_name(schema: Any) -> str:
    return f"{schema['namespace']}.{schema['name']}" if "namespace" in schema else schema["name"]


def serialize(
    client: MockRegistryClient,
    topic: str,
    schema: Any,
    datum: Any,
    *,
    is_key: bool = False,
    strategy: str = TOPIC_NAME,
    auto_register: bool = True,
) -> bytes | None:
    """``KafkaAvroSerializer.serialize``: the wire format of ``datum`` (None: null)."""
    if datum is None:
        return None
    if strategy == TOPIC_NAME:
        subject = f"{topic}-{'key' if is_key else 'value'}"
    elif strategy == RECORD_NAME:
        subject = record_name(schema)
    else:
        subject = f"{topic}-{record_name(schema)}"
    if auto_register:
        client.register(subject, schema)
    schema_id = client.schema_id(schema)
    if schema == "bytes":
        payload = datum
    else:
        out = io.BytesIO()
        fastavro.schemaless_writer(out, fastavro.parse_schema(schema), datum)
        payload = out.getvalue()
    return b"\x00" + struct.pack(">I", schema_id) + payload


def from_connect_data(
    client: MockRegistryClient, topic: str, schema: ConnectSchema, value: Any, is_key: bool = False
) -> bytes | None:
    """``AvroConverter.fromConnectData``: AvroData's schema and datum, serialized."""
    avro = json.loads(avro_schema_json(schema))
    if value is None:
        return None
    return serialize(client, topic, avro, to_avro_value(schema, value), is_key=is_key)


FOO_1 = {"type": "record", "name": "Foo", "fields": [{"name": "key", "type": "int"}]}
FOO_2 = {
    "type": "record",
    "name": "Foo",
    "fields": [{"name": "key", "type": "int"}, {"name": "value", "type": "string"}],
}

# ---------------------------------------------------------------------------------------------
# AvroConverterTest


MINIMAL = {
    "topics": TOPIC,
    "kafka.bootstrap.servers": "localhost:9092",
    "checkpoint.location": "/tmp/ckpt",
    "s3.bucket.name": "bucket",
    "format.class": "avro",
    "flush.size": "3",
    "key.converter": "io.confluent.connect.avro.AvroConverter",
    "key.converter.schema.registry.url": "http://localhost",
    "value.converter": "io.confluent.connect.avro.AvroConverter",
    "value.converter.schema.registry.url": "http://localhost",
}


def test_configure() -> None:
    conv = build_converter(SinkConfig.from_mapping(MINIMAL), is_key=True)
    assert isinstance(conv, RegistryConverter)
    assert conv.is_key
    assert conv.registry is not None


def test_configure_alt() -> None:
    conv = build_converter(SinkConfig.from_mapping(MINIMAL), is_key=False)
    assert isinstance(conv, RegistryConverter)
    assert not conv.is_key
    assert conv.registry is not None


def test_primitive() -> None:
    client = MockRegistryClient()
    converted = from_connect_data(client, TOPIC, ConnectSchema(Type.BOOLEAN), True)
    # Because of registration in schema registry and lookup, we'll have added a version number
    assert converter(client).to_connect(TOPIC, converted) == (
        True,
        ConnectSchema(Type.BOOLEAN, version=1),
    )


def _complex_fields() -> tuple[Field, ...]:
    return (
        Field("int8", ConnectSchema(Type.INT8, default=2, doc="int8 field")),
        Field("int16", ConnectSchema(Type.INT16)),
        Field("int32", ConnectSchema(Type.INT32)),
        Field("int64", ConnectSchema(Type.INT64)),
        Field("float32", ConnectSchema(Type.FLOAT32)),
        Field("float64", ConnectSchema(Type.FLOAT64)),
        Field("boolean", ConnectSchema(Type.BOOLEAN)),
        Field("string", ConnectSchema(Type.STRING)),
        Field("bytes", ConnectSchema(Type.BYTES)),
        Field("array", ConnectSchema(Type.ARRAY, value_schema=ConnectSchema(Type.STRING))),
        Field(
            "map",
            ConnectSchema(
                Type.MAP,
                key_schema=ConnectSchema(Type.STRING),
                value_schema=ConnectSchema(Type.INT32),
            ),
        ),
        Field(
            "mapNonStringKeys",
            ConnectSchema(
                Type.MAP,
                key_schema=ConnectSchema(Type.INT32),
                value_schema=ConnectSchema(Type.INT32),
            ),
        ),
    )


def test_complex() -> None:
    client = MockRegistryClient()
    schema = ConnectSchema(Type.STRUCT, fields=_complex_fields())
    original = {
        "int8": 12,
        "int16": 12,
        "int32": 12,
        "int64": 12,
        "float32": 12.2,
        "float64": 12.2,
        "boolean": True,
        "string": "foo",
        "bytes": b"foo",
        "array": ["a", "b", "c"],
        "map": {"field": 1},
        "mapNonStringKeys": {1: 1},
    }
    converted = from_connect_data(client, TOPIC, schema, original)
    value, read = converter(client).to_connect(TOPIC, converted)
    # Because of registration in schema registry and lookup, we'll have added a version number
    assert read == ConnectSchema(Type.STRUCT, fields=_complex_fields(), version=1)
    assert value == original | {"float32": pytest.approx(12.2)}


def test_type_bytes() -> None:
    client = MockRegistryClient()
    b = from_connect_data(client, "topic", ConnectSchema(Type.BYTES), b"jellomellow")
    assert b == b"\x00\x00\x00\x00\x01jellomellow"  # the serializer writes the bytes as they are
    value, schema = converter(client).to_connect("topic", b)
    assert schema is not None and schema.type == Type.BYTES
    assert value == b"jellomellow"


def test_null() -> None:
    # A null value is written as null, and registers no schema.
    client = MockRegistryClient()
    converted = from_connect_data(client, TOPIC, ConnectSchema(Type.BOOLEAN, optional=True), None)
    assert converted is None
    assert client.subjects == {}
    assert converter(client).to_connect(TOPIC, converted) == (None, None)


def _version_extracted(
    client: MockRegistryClient, subject: str, strategy: str, conv: RegistryConverter
) -> None:
    # Pre-register to ensure ordering
    client.register(subject, FOO_1)
    client.register(subject, FOO_2)
    serialized1 = serialize(client, TOPIC, FOO_1, {"key": 15}, strategy=strategy)
    serialized2 = serialize(client, TOPIC, FOO_2, {"key": 15, "value": "bar"}, strategy=strategy)
    converted1 = conv.to_connect(TOPIC, serialized1)[1]
    assert converted1 is not None and converted1.version == 1
    converted2 = conv.to_connect(TOPIC, serialized2)[1]
    assert converted2 is not None and converted2.version == 2


def test_version_extracted_for_default_subject_name_strategy() -> None:
    client = MockRegistryClient()
    _version_extracted(client, TOPIC + "-value", TOPIC_NAME, converter(client))


def test_version_extracted_for_record_subject_name_strategy() -> None:
    client = MockRegistryClient()
    conv = converter(client, subject_name_strategy=RECORD_NAME)
    _version_extracted(client, "Foo", RECORD_NAME, conv)
    # Configured as Kafka Connect passes it: value.converter.value.subject.name.strategy.
    config = SinkConfig.from_mapping({
        **MINIMAL, "value.converter.value.subject.name.strategy": RECORD_NAME,
    })  # fmt: skip
    assert config.registry.value_read == ReadSettings(RECORD_NAME)
    assert config.registry.key_read == ReadSettings(TOPIC_NAME)


def test_version_extracted_from_metadata() -> None:
    client = MockRegistryClient()
    subject = TOPIC + "-value"
    client.register(subject, FOO_1, {"confluent:version": "2"})
    client.register(subject, FOO_2, {"confluent:version": "200"})
    conv = converter(client)
    serialized1 = serialize(client, TOPIC, FOO_1, {"key": 15}, auto_register=False)
    serialized2 = serialize(client, TOPIC, FOO_2, {"key": 15, "value": "bar"}, auto_register=False)
    converted1 = conv.to_connect(TOPIC, serialized1)[1]
    assert converted1 is not None and converted1.version == 2
    converted2 = conv.to_connect(TOPIC, serialized2)[1]
    assert converted2 is not None and converted2.version == 200


def test_version_maintained() -> None:
    # The version of the Connect schema (connect.version) wins over the registry's.
    client = MockRegistryClient()
    optional16 = ConnectSchema(Type.INT16, optional=True)
    newer = ConnectSchema(
        Type.STRUCT, version=2, fields=(Field("orig", optional16), Field("new", optional16))
    )
    newer_serialized = from_connect_data(client, TOPIC, newer, {"orig": None, "new": None})
    older = ConnectSchema(Type.STRUCT, version=1, fields=(Field("orig", optional16),))
    older_serialized = from_connect_data(client, TOPIC, older, {"orig": None})
    conv = converter(client)
    newer_read = conv.to_connect(TOPIC, newer_serialized)[1]
    older_read = conv.to_connect(TOPIC, older_serialized)[1]
    assert newer_read is not None and newer_read.version == 2
    assert older_read is not None and older_read.version == 1


def _same_schema_multiple_topic(is_key: bool) -> None:
    client = MockRegistryClient()
    conv = converter(client, is_key=is_key)
    suffix = "key" if is_key else "value"
    client.register("topic1-" + suffix, FOO_2)
    client.register("topic2-" + suffix, FOO_1)
    client.register("topic2-" + suffix, FOO_2)
    datum = {"key": 15, "value": "bar"}
    serialized1 = serialize(client, "topic1", FOO_2, datum, is_key=is_key)
    serialized2 = serialize(client, "topic2", FOO_2, datum, is_key=is_key)
    assert serialized1 == serialized2  # one schema id
    converted1 = conv.to_connect("topic1", serialized1)[1]
    assert converted1 is not None and converted1.version == 1
    converted2 = conv.to_connect("topic2", serialized2)[1]
    assert converted2 is not None and converted2.version == 2
    converted2 = conv.to_connect("topic2", serialized2)[1]
    assert converted2 is not None and converted2.version == 2


def test_same_schema_multiple_topic_for_value() -> None:
    _same_schema_multiple_topic(False)


def test_same_schema_multiple_topic_for_key() -> None:
    _same_schema_multiple_topic(True)


def test_explicitly_named_nested_maps_with_non_string_keys() -> None:
    optional_string = ConnectSchema(Type.STRING, optional=True)
    inner = ConnectSchema(
        Type.MAP, key_schema=optional_string, value_schema=ConnectSchema(Type.INT32), name="foo.bar"
    )
    schema = ConnectSchema(
        Type.MAP, key_schema=optional_string, value_schema=inner, name="biz.baz", version=1
    )
    client = MockRegistryClient()
    value = {"foo": {"bar": 1}}
    converted = from_connect_data(client, "topic", schema, value)
    assert converter(client).to_connect("topic", converted) == (value, schema)


MY_SCHEMA = {"type": "record", "name": "MySchema", "fields": [{"name": "id", "type": "string"}]}


def _single_field_read(inputs: list[dict[str, str]]) -> list[Any]:
    """What the converter (use.latest.version=true, TopicNameStrategy) reads of the values the
    serializer writes with the latest schema of ``topic-value`` (``MySchema``: its field
    ``id`` only) for each Connect struct of ``inputs``."""
    client = MockRegistryClient()
    client.register("topic-value", MY_SCHEMA)
    conv = converter(client, use_latest_version=True, subject_name_strategy=TOPIC_NAME)
    out = []
    for value in inputs:
        datum = {"id": next(v for k, v in value.items() if k.lower() == "id")}
        out.append(
            conv.to_connect(
                "topic", serialize(client, "topic", MY_SCHEMA, datum, auto_register=False)
            )
        )
    return out


def test_single_field_serialization() -> None:
    first, second = _single_field_read([{"foo": "123", "id": "456"}, {"id": "456", "foo": "123"}])
    assert first[0] == second[0] == {"id": "456"}


def test_single_field_serialization_different_case() -> None:
    first, second = _single_field_read([{"ID": "456"}, {"ID": "456"}])
    assert first[0] == second[0] == {"id": "456"}


def test_to_connect_data_throws_network_exception_on_serialization_exception_caused_by_network_connection_exception() -> (  # noqa: E501
    None
):
    # Documented difference (README, "Schema Registry converters"): AvroConverter throws Kafka's
    # NetworkException, which Connect's error handling may skip; here a registry that cannot be
    # reached fails the query with a SchemaRegistryError naming the registry, whatever
    # errors.tolerance says.
    client = MockRegistryClient()
    value_bytes = from_connect_data(client, TOPIC, ConnectSchema(Type.BOOLEAN), True)
    client.failures = [ConnectionError("io fail")]
    with pytest.raises(SchemaRegistryError, match="could not fetch schema id 1: ConnectionError"):
        converter(client).to_connect(TOPIC, value_bytes)


def _header_schema_id(is_key: bool, field: str) -> None:
    # HeaderSchemaIdSerializer: the schema's GUID (magic byte 1) in the __key_schema_id /
    # __value_schema_id header, the payload alone in the value; DualSchemaIdDeserializer (the
    # default) reads the header first.
    client = MockRegistryClient()
    schema = ConnectSchema(Type.STRUCT, fields=(Field(field, ConnectSchema(Type.STRING)),))
    framed = from_connect_data(client, TOPIC, schema, {field: "test" + field.title()}, is_key)
    assert framed is not None
    guid = uuid.UUID(MockRegistryClient.guid(1)).bytes
    serialized = framed[5:]
    headers = [("__key_schema_id" if is_key else "__value_schema_id", b"\x01" + guid)]
    conv = converter(client, is_key=is_key)
    value, read = conv.to_connect(TOPIC, serialized, headers)
    assert value == {field: "test" + field.title()}
    assert read is not None and read.version == 1
    # The other side's header is not this converter's.
    other = [("__value_schema_id" if is_key else "__key_schema_id", b"\x01" + guid)]
    with pytest.raises(ValueError, match="Error deserializing schema ID: Unknown magic byte!"):
        conv.to_connect(TOPIC, serialized, other)
    # A schema id (magic byte 0) in the header; a GUID framing the value.
    assert conv.to_connect(TOPIC, serialized, [(headers[0][0], framed[:5])])[0] == value
    assert conv.to_connect(TOPIC, b"\x01" + guid + serialized)[0] == value


def test_header_schema_id_serializer_for_key() -> None:
    _header_schema_id(True, "key")


def test_header_schema_id_serializer_for_value() -> None:
    _header_schema_id(False, "value")


# ---------------------------------------------------------------------------------------------
# KafkaAvroSerializerTest (deserializing)

USER = {
    "namespace": "example.avro",
    "type": "record",
    "name": "User",
    "fields": [{"name": "name", "type": "string"}],
}
EXTENDED_USER = {
    "namespace": "example.avro",
    "type": "record",
    "name": "User",
    "fields": [{"name": "name", "type": "string"}, {"name": "age", "type": ["null", "int"]}],
}


def test_kafka_avro_serializer() -> None:
    client = MockRegistryClient()
    conv = converter(client)
    topic = "test"

    def round_trip(schema: Any, datum: Any) -> Any:
        return conv.to_connect(topic, serialize(client, topic, schema, datum))[0]

    assert round_trip(USER, {"name": "testUser"}) == {"name": "testUser"}
    assert round_trip(EXTENDED_USER, {"name": "testUser", "age": 30}) == {
        "name": "testUser",
        "age": 30,
    }
    assert round_trip(EXTENDED_USER, {"name": "testUser", "age": None}) == {
        "name": "testUser",
        "age": None,
    }
    assert round_trip(USER, None) is None
    assert round_trip("boolean", True) is True
    assert round_trip("int", 123) == 123
    assert round_trip("long", 345) == 345
    assert round_trip("float", 1.23) == pytest.approx(1.23)
    assert round_trip("double", 2.34) == 2.34
    assert round_trip("string", "abc") == "abc"
    assert round_trip("bytes", b"abc") == b"abc"


def test_kafka_avro_serializer_primitive_arrays() -> None:
    arrays = {
        "boolean": [True, False],
        "int": [1, 2],
        "long": [1, 2],
        "double": [1.1, 2.2],
        "string": ["string", "elements!"],
    }
    client = MockRegistryClient()
    conv = converter(client)
    for index, (items, values) in enumerate(arrays.items()):
        topic = f"test_{index}"
        schema = {"type": "array", "items": items}
        value, _ = conv.to_connect(topic, serialize(client, topic, schema, values))
        assert [str(v) for v in value] == [str(v) for v in values]


def test_kafka_avro_serializer_with_trailing_data() -> None:
    client = MockRegistryClient()
    client.register("test-value", USER)
    bytes_ = serialize(client, "test", USER, {"name": "testUser"}, auto_register=False)
    assert bytes_ is not None
    with_trailing_data = bytes_ + bytes(5)
    strict = converter(client, fail_on_trailing_data=True)
    with pytest.raises(ValueError) as info:
        strict.to_connect("test", with_trailing_data)
    assert str(info.value) == (
        "Failed to deserialize data for topic test to Avro: Error deserializing Avro message for "
        "id 1: Trailing data found after deserializing Avro  message for id 1"
    )
    # avro.fail.on.trailing.data=false (the default): the bytes after the datum are ignored.
    assert converter(client).to_connect("test", with_trailing_data)[0] == {"name": "testUser"}


def test_kafka_avro_deserializer_with_pre_registered_use_latest_record_name_strategy() -> None:
    client = MockRegistryClient()
    client.register("example.avro.User", USER)
    conv = converter(client, use_latest_version=True, subject_name_strategy=RECORD_NAME)
    bytes_ = serialize(
        client, "test", USER, {"name": "testUser"}, strategy=RECORD_NAME, auto_register=False
    )
    value, schema = conv.to_connect("test", bytes_)
    assert value == {"name": "testUser"}
    assert schema is not None and (schema.name, schema.version) == ("example.avro.User", 1)


def test_kafka_avro_serializer_supports_schema_evolution() -> None:
    # The Java reads with schema V2 given as the reader schema; a converter reads with the
    # subject's latest schema (use.latest.version=true).
    v1 = {
        "type": "record",
        "name": "SchemaEvolution",
        "namespace": "example.avro",
        "fields": [{"name": "fieldToDelete", "type": "string"}],
    }
    v2 = {
        "type": "record",
        "name": "SchemaEvolution",
        "namespace": "example.avro",
        "fields": [{"name": "newOptionalField", "type": ["string", "null"], "default": "optional"}],
    }
    client = MockRegistryClient()
    bytes_ = serialize(client, "test", v1, {"fieldToDelete": "present"})
    client.register("test-value", v2)
    value, schema = converter(client, use_latest_version=True).to_connect("test", bytes_)
    # In version 2 of the schema, newOptionalField has a non-null default value
    assert value == {"newOptionalField": "optional"}
    # ... and fieldToDelete is gone; the version is the writer schema's.
    assert schema is not None and [f.name for f in schema.fields] == ["newOptionalField"]
    assert schema.version == 1
    # Without use.latest.version the writer's schema is read.
    assert converter(client).to_connect("test", bytes_)[0] == {"fieldToDelete": "present"}


def test_null_kafka_avro_serializer_test() -> None:
    # KafkaAvroSerializerTest.testNull (AvroConverterTest.testNull is test_null).
    assert converter(MockRegistryClient()).to_connect("test", None) == (None, None)


# ---------------------------------------------------------------------------------------------
# AbstractKafkaAvroDeserializerTest


def _schema_not_copied_when_deserialized_with_version(topic: str, strategy: str) -> None:
    client = MockRegistryClient()
    subject = {
        TOPIC_NAME: f"{topic}-value",
        RECORD_NAME: "example.avro.User",
        TOPIC_RECORD_NAME: f"{topic}-example.avro.User",
    }[strategy]
    client.register(subject, USER)
    conv = converter(client, subject_name_strategy=strategy)
    bytes_ = serialize(
        client, topic, USER, {"name": "testUser"}, strategy=strategy, auto_register=False
    )
    first = conv.to_connect(topic, bytes_)
    second = conv.to_connect(topic, bytes_)
    assert first[0] == {"name": "testUser"}
    assert first[1] is second[1]  # one schema object
    assert first[1] is not None and first[1].version == 1


def test_schema_not_copied_for_topic_name_strategy() -> None:
    _schema_not_copied_when_deserialized_with_version("test-topic", TOPIC_NAME)


def test_schema_not_copied_for_record_name_strategy() -> None:
    _schema_not_copied_when_deserialized_with_version("test-topic", RECORD_NAME)


def test_schema_not_copied_for_topic_record_name_strategy() -> None:
    _schema_not_copied_when_deserialized_with_version("test-topic", TOPIC_RECORD_NAME)


def test_schema_version_set() -> None:
    client = MockRegistryClient()
    version = client.register("topic", USER)
    bytes_ = serialize(client, "topic", USER, {"name": "testUser"})
    schema = converter(client).to_connect("topic", bytes_)[1]
    assert schema is not None and schema.version == version


def test_hash_code_not_reset() -> None:
    client = MockRegistryClient()
    bytes_ = serialize(client, "topic", USER, {"name": "testUser"})
    conv = converter(client)
    first, second = conv.to_connect("topic", bytes_)[1], conv.to_connect("topic", bytes_)[1]
    fields = (Field("name", ConnectSchema(Type.STRING)),)
    assert first is second
    assert first == ConnectSchema(Type.STRUCT, name="example.avro.User", version=1, fields=fields)


# ---------------------------------------------------------------------------------------------
# The deserializers' failures, as AvroConverter reports them


def test_deserializer_failures_carry_confluents_texts() -> None:
    client = MockRegistryClient()
    conv = converter(client, is_key=True)
    with pytest.raises(ValueError) as info:
        conv.to_connect("t", b"\x07" + bytes(8))
    assert str(info.value) == (
        "Failed to deserialize data for topic t to Avro: Error deserializing schema ID: "
        "Unknown magic byte!"
    )
    with pytest.raises(ValueError) as info:
        conv.to_connect("t", b"\x00\x00\x00\x00\x2a\x02")
    assert str(info.value).startswith(
        "Failed to deserialize data for topic t to Avro: Error retrieving Avro key schema for "
        "id 42: Schema 42 not found"
    )
    bytes_ = serialize(client, "other", USER, {"name": "x"}, is_key=True)
    with pytest.raises(ValueError, match="Error retrieving Avro key schema version for id 1: "):
        conv.to_connect("t", bytes_)  # registered under other-key only
    with pytest.raises(ValueError, match="Error deserializing Avro message for id 1: "):
        conv.to_connect("other", bytes_[:-1])  # cut short
    # A record name strategy needs a record schema.
    string = serialize(client, "t", "string", "a", is_key=True)
    with pytest.raises(ValueError) as info:
        converter(client, is_key=True, subject_name_strategy=RECORD_NAME).to_connect("t", string)
    assert str(info.value) == (
        "Failed to deserialize data for topic t to Avro: In configuration "
        f"key.subject.name.strategy = {RECORD_NAME}, the message key must only be a record schema"
    )


def test_converter_config_keys() -> None:
    config = SinkConfig.from_mapping({
        **MINIMAL,
        "key.converter.key.subject.name.strategy": TOPIC_RECORD_NAME,
        "key.converter.value.subject.name.strategy": RECORD_NAME,  # not the key converter's
        "value.converter.use.latest.version": "true",
        "value.converter.avro.fail.on.trailing.data": "true",
        "value.converter.auto.register.schemas": "false",
        "value.converter.latest.compatibility.strict": "false",
        "value.converter.avro.reflection.allow.null": "true",
        "value.converter.schemas.cache.config": "10",
    })  # fmt: skip
    assert config.registry.key_read == ReadSettings(TOPIC_RECORD_NAME)
    assert config.registry.value_read == ReadSettings(TOPIC_NAME, True, True)
    assert {
        "key.converter.value.subject.name.strategy",
        "value.converter.auto.register.schemas",
        "value.converter.latest.compatibility.strict",
        "value.converter.avro.reflection.allow.null",
        "value.converter.schemas.cache.config",
    } <= set(config.ignored_keys)
    value = build_converter(config, is_key=False)
    assert isinstance(value, RegistryConverter) and value.settings.use_latest_version
    with pytest.raises(ConfigError) as info:
        SinkConfig.from_mapping({
            **MINIMAL,
            "value.converter.value.subject.name.strategy": "com.example.MyStrategy",
            "value.converter.specific.avro.reader": "true",
            "value.converter.use.latest.with.metadata": "app=1",
            "key.converter": "io.confluent.connect.json.JsonSchemaConverter",
            "key.converter.key.subject.name.strategy": RECORD_NAME,
        })  # fmt: skip
    text = str(info.value)
    assert "value.converter.value.subject.name.strategy=com.example.MyStrategy is not " in text
    assert "value.converter.specific.avro.reader=true is not supported yet" in text
    assert "value.converter.use.latest.with.metadata=app=1 is not supported yet" in text
    assert f"key.converter.key.subject.name.strategy={RECORD_NAME} is not supported yet" in text
