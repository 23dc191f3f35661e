"""The stack's Schema Registry is a real one: confluent-kafka's client and serializers work on it.

Each test registers under its own subjects, checks ids and versions, and checks the Confluent wire
format (magic byte 0, the schema id as 4 big-endian bytes, then the payload) by hand as well as by
the matching deserializer.
"""

from __future__ import annotations

import io
import json
import struct
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import fastavro
import pytest
from confluent_kafka.schema_registry import Schema, SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
from confluent_kafka.schema_registry.error import SchemaRegistryError
from confluent_kafka.schema_registry.json_schema import JSONDeserializer, JSONSerializer
from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer
from confluent_kafka.serialization import MessageField, SerializationContext
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

pytestmark = pytest.mark.integration

USER_V1: dict[str, Any] = {
    "type": "record",
    "name": "User",
    "namespace": "s3connect.test",
    "fields": [{"name": "id", "type": "int"}, {"name": "name", "type": "string"}],
}
# v1 plus an optional field with a default: a BACKWARD-compatible second version.
USER_V2: dict[str, Any] = {
    **USER_V1,
    "fields": [*USER_V1["fields"], {"name": "email", "type": ["null", "string"], "default": None}],
}

USER_JSON_V1: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "User",
    "type": "object",
    "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
    "required": ["id", "name"],
    "additionalProperties": False,
}
USER_JSON_V2: dict[str, Any] = {
    **USER_JSON_V1,
    "properties": {**USER_JSON_V1["properties"], "email": {"type": "string"}},
}


def _wire(data: bytes) -> tuple[int, int, bytes]:
    """(magic byte, schema id, rest) of a Confluent-framed record."""
    magic, schema_id = struct.unpack(">bI", data[:5])
    return magic, schema_id, data[5:]


def _schema_json(client: SchemaRegistryClient, schema_id: int) -> Any:
    text = client.get_schema(schema_id).schema_str
    assert text is not None
    return json.loads(text)


@pytest.fixture
def topic() -> str:
    return f"sr-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def cleanup(schema_registry: SchemaRegistryClient) -> Iterator[Callable[[str], str]]:
    """Subjects passed through here are deleted (soft, then hard) after the test."""
    subjects: list[str] = []

    def track(subject: str) -> str:
        subjects.append(subject)
        return subject

    yield track
    for subject in subjects:
        try:
            schema_registry.delete_subject(subject)
            schema_registry.delete_subject(subject, permanent=True)
        except SchemaRegistryError:
            pass


def test_the_registry_answers_and_lists_subjects(schema_registry: SchemaRegistryClient) -> None:
    assert isinstance(schema_registry.get_subjects(), list)


def test_avro_versions_ids_and_wire_format(
    schema_registry: SchemaRegistryClient, topic: str, cleanup: Callable[[str], str]
) -> None:
    subject = cleanup(f"{topic}-value")
    id1 = schema_registry.register_schema(subject, Schema(json.dumps(USER_V1), "AVRO"))
    # Registering the same schema again gives the same id and no new version.
    assert schema_registry.register_schema(subject, Schema(json.dumps(USER_V1), "AVRO")) == id1
    schema_registry.set_compatibility(subject, "BACKWARD")
    assert schema_registry.test_compatibility(subject, Schema(json.dumps(USER_V2), "AVRO"))
    id2 = schema_registry.register_schema(subject, Schema(json.dumps(USER_V2), "AVRO"))

    assert id2 != id1
    assert schema_registry.get_versions(subject) == [1, 2]
    latest = schema_registry.get_latest_version(subject)
    assert (latest.version, latest.schema_id) == (2, id2)
    assert schema_registry.get_version(subject, 1).schema_id == id1
    assert subject in schema_registry.get_subjects()
    assert schema_registry.get_schema(id1).schema_type == "AVRO"
    assert _schema_json(schema_registry, id1) == USER_V1
    assert _schema_json(schema_registry, id2) == USER_V2

    ctx = SerializationContext(topic, MessageField.VALUE)
    latest_ser = AvroSerializer(
        schema_registry,
        json.dumps(USER_V2),
        conf={"auto.register.schemas": False, "use.latest.version": True},
    )
    record = {"id": 7, "name": "ann", "email": "ann@example.com"}
    data = latest_ser(record, ctx)
    assert data is not None
    magic, schema_id, payload = _wire(data)
    assert (magic, schema_id) == (0, id2)
    parsed = fastavro.parse_schema(USER_V2)
    assert fastavro.schemaless_reader(io.BytesIO(payload), parsed, parsed) == record
    assert AvroDeserializer(schema_registry)(data, ctx) == record

    # A writer still on v1 frames with v1's id; a reader asking for v2 gets the default.
    v1_data = AvroSerializer(schema_registry, json.dumps(USER_V1))({"id": 1, "name": "bo"}, ctx)
    assert v1_data is not None
    assert _wire(v1_data)[:2] == (0, id1)
    assert AvroDeserializer(schema_registry)(v1_data, ctx) == {"id": 1, "name": "bo"}
    as_v2 = AvroDeserializer(schema_registry, json.dumps(USER_V2))(v1_data, ctx)
    assert as_v2 == {"id": 1, "name": "bo", "email": None}


def test_avro_incompatible_change_is_rejected(
    schema_registry: SchemaRegistryClient, topic: str, cleanup: Callable[[str], str]
) -> None:
    subject = cleanup(f"{topic}-value")
    schema_registry.register_schema(subject, Schema(json.dumps(USER_V1), "AVRO"))
    schema_registry.set_compatibility(subject, "BACKWARD")
    # A new field without a default cannot read old records.
    bad = {**USER_V1, "fields": [*USER_V1["fields"], {"name": "age", "type": "int"}]}
    assert not schema_registry.test_compatibility(subject, Schema(json.dumps(bad), "AVRO"))
    with pytest.raises(SchemaRegistryError):
        schema_registry.register_schema(subject, Schema(json.dumps(bad), "AVRO"))
    assert schema_registry.get_versions(subject) == [1]


def test_json_schema_versions_and_wire_format(
    schema_registry: SchemaRegistryClient, topic: str, cleanup: Callable[[str], str]
) -> None:
    subject = cleanup(f"{topic}-value")
    ctx = SerializationContext(topic, MessageField.VALUE)
    data = JSONSerializer(json.dumps(USER_JSON_V1), schema_registry)({"id": 1, "name": "a"}, ctx)
    assert data is not None
    magic, id1, payload = _wire(data)
    assert magic == 0
    assert json.loads(payload) == {"id": 1, "name": "a"}
    registered = schema_registry.get_latest_version(subject)
    assert (registered.version, registered.schema_id) == (1, id1)
    assert registered.schema.schema_type == "JSON"
    assert _schema_json(schema_registry, id1) == USER_JSON_V1

    id2 = schema_registry.register_schema(subject, Schema(json.dumps(USER_JSON_V2), "JSON"))
    assert id2 != id1
    assert schema_registry.get_versions(subject) == [1, 2]
    record = {"id": 2, "name": "b", "email": "b@example.com"}
    data2 = JSONSerializer(json.dumps(USER_JSON_V2), schema_registry)(record, ctx)
    assert data2 is not None
    assert _wire(data2)[:2] == (0, id2)
    assert JSONDeserializer(None, schema_registry_client=schema_registry)(data2, ctx) == record
    assert JSONDeserializer(None, schema_registry_client=schema_registry)(data, ctx) == {
        "id": 1,
        "name": "a",
    }


def _user_message_class(with_email: bool = False) -> Any:
    """A compiled-at-run-time protobuf message ``s3connect.test.User`` (no protoc output)."""
    proto = descriptor_pb2.FileDescriptorProto(
        name="s3connect/test/user.proto", package="s3connect.test", syntax="proto3"
    )
    message = proto.message_type.add(name="User")
    optional = descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL
    field_type = descriptor_pb2.FieldDescriptorProto
    message.field.add(name="id", number=1, type=field_type.TYPE_INT32, label=optional)
    message.field.add(name="name", number=2, type=field_type.TYPE_STRING, label=optional)
    if with_email:
        message.field.add(name="email", number=3, type=field_type.TYPE_STRING, label=optional)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("s3connect.test.User"))


def test_protobuf_versions_and_wire_format(
    schema_registry: SchemaRegistryClient, topic: str, cleanup: Callable[[str], str]
) -> None:
    subject = cleanup(f"{topic}-value")
    ctx = SerializationContext(topic, MessageField.VALUE)
    user_v1 = _user_message_class()
    data = ProtobufSerializer(user_v1, schema_registry)(user_v1(id=5, name="pat"), ctx)
    assert data is not None
    magic, id1, rest = _wire(data)
    assert magic == 0
    # Message indexes: a lone 0 means "the first message of the file"; the payload follows.
    assert rest[:1] == b"\x00"
    assert user_v1.FromString(rest[1:]) == user_v1(id=5, name="pat")
    registered = schema_registry.get_latest_version(subject)
    assert (registered.version, registered.schema_id) == (1, id1)
    assert schema_registry.get_schema(id1).schema_type == "PROTOBUF"
    decoded = ProtobufDeserializer(user_v1)(data, ctx)
    assert (decoded.id, decoded.name) == (5, "pat")

    user_v2 = _user_message_class(with_email=True)
    data2 = ProtobufSerializer(user_v2, schema_registry)(
        user_v2(id=6, name="q", email="q@example.com"), ctx
    )
    assert data2 is not None
    id2 = _wire(data2)[1]
    assert id2 != id1
    assert schema_registry.get_versions(subject) == [1, 2]
    decoded2 = ProtobufDeserializer(user_v2)(data2, ctx)
    assert (decoded2.id, decoded2.name, decoded2.email) == (6, "q", "q@example.com")
