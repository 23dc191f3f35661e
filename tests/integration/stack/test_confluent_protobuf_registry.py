"""Ports of Confluent's ``ProtobufConverterTest`` reading tests against the stack's real Schema
Registry (schema-registry commit 794611bd): the Java tests register ``.proto`` text with a
``MockSchemaRegistryClient``; here the same text goes to the real registry (references for
imports of other registered files) and our converter reads it back as the serialized descriptor,
as in production. Values and schemas are those ProtobufDataTest expects.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka.schema_registry import Schema, SchemaReference, SchemaRegistryClient
from confluent_kafka.schema_registry.error import SchemaRegistryError

from s3connect.convert.factory import make_converter
from s3connect.convert.registry.client import Registry, RegistrySettings
from tests.unit.convert.registry.confluent_protos import PROTOS
from tests.unit.convert.registry.test_confluent_protobuf import (
    TEST_MSG_STRING,
    create_nested_test_proto,
    enum_union,
    enum_union_schema,
    expected_nested_result,
    hello_world,
    message2_schema,
    message_schema,
    message_struct,
    nested_test_proto_schema,
)
from tests.unit.convert.registry.test_converters import framed

pytestmark = pytest.mark.integration


@pytest.fixture
def topic() -> str:
    return f"pb-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def subjects(schema_registry: SchemaRegistryClient) -> Iterator[list[str]]:
    """Subjects appended here are deleted (soft, then hard) after the test."""
    created: list[str] = []
    yield created
    for subject in reversed(created):
        try:
            schema_registry.delete_subject(subject)
            schema_registry.delete_subject(subject, permanent=True)
        except SchemaRegistryError:
            pass


def _register(
    client: SchemaRegistryClient,
    subjects: list[str],
    subject: str,
    file: str,
    refs: list[SchemaReference] | None = None,
) -> int:
    subjects.append(subject)
    return int(client.register_schema(subject, Schema(PROTOS[file], "PROTOBUF", refs or [])))


def _converter(url: str, is_key: bool = False) -> Any:
    return make_converter("protobuf", registry=Registry(RegistrySettings(url)), is_key=is_key)


def test_to_connect_data_for_value_with_both_messages(
    schema_registry: SchemaRegistryClient,
    schema_registry_url: str,
    topic: str,
    subjects: list[str],
) -> None:
    schema_id = _register(schema_registry, subjects, f"{topic}-value", "TestProto.proto")
    conv = _converter(schema_registry_url)
    value, schema = conv.to_connect(topic, framed(schema_id, b"\x00" + hello_world("TestMessage")))
    assert schema == message_schema("TestMessage")
    assert value == message_struct(TEST_MSG_STRING, 123)
    data = framed(schema_id, b"\x02\x02" + hello_world("TestMessage2"))
    value, schema = conv.to_connect(topic, data)
    assert schema == message2_schema()
    assert value == {**message_struct(TEST_MSG_STRING, 123), "test_message": None}


def test_to_connect_data_with_nested_protobuf_message_and_string_user_id(
    schema_registry: SchemaRegistryClient,
    schema_registry_url: str,
    topic: str,
    subjects: list[str],
) -> None:
    schema_id = _register(schema_registry, subjects, f"{topic}-value", "NestedTestProto.proto")
    message = create_nested_test_proto({"kafka_user_id": "my_user"})
    # Message indexes [3]: NestedMessage follows UserId, MessageId and ComplexType.
    index = list(message.DESCRIPTOR.file.message_types_by_name).index("NestedMessage")
    data = framed(schema_id, bytes([2, index * 2]) + message.SerializeToString())
    value, schema = _converter(schema_registry_url).to_connect(topic, data)
    assert schema == _versioned(nested_test_proto_schema(), 1)
    assert value == expected_nested_result({"kafka_user_id": "my_user"})


def test_to_connect_enum_union_with_string(
    schema_registry: SchemaRegistryClient,
    schema_registry_url: str,
    topic: str,
    subjects: list[str],
) -> None:
    # EnumUnion.proto imports NestedTestProto.proto: registered first, then referenced.
    dep = f"{topic}-NestedTestProto.proto"
    _register(schema_registry, subjects, dep, "NestedTestProto.proto")
    ref = SchemaReference("NestedTestProto.proto", dep, 1)
    schema_id = _register(schema_registry, subjects, f"{topic}-value", "EnumUnion.proto", [ref])
    message = enum_union(one_id="ID", status=1)
    data = framed(schema_id, b"\x00" + message.SerializeToString())
    value, schema = _converter(schema_registry_url).to_connect(topic, data)
    assert schema == _versioned(enum_union_schema(), 1)
    assert value == {
        "some_val_0": {"one_id": "ID", "other_id": None, "some_status": None},
        "status": "INACTIVE",
    }


def _versioned(schema: Any, version: int) -> Any:
    return dataclasses.replace(schema, version=version)
