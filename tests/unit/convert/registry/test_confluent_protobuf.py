"""Ports of Confluent's ``ProtobufDataTest`` and ``ProtobufConverterTest``
(schema-registry protobuf-converter/src/test/java/io/confluent/connect/protobuf/, commit
794611bd86d1ce0422581269e2b13a2ab010c7fb), one test per Java method, for the reading direction
(``toConnectSchema`` / ``toConnectData`` and the converter's wire format).

The Java tests build their messages from generated classes; here the same ``.proto`` files
(:mod:`tests.unit.convert.registry.confluent_protos`) are parsed by our ``.proto`` parser into a
descriptor pool and the messages built with ``google.protobuf``. Java's ``Struct`` values are
dicts, ``ByteBuffer`` bytes, ``java.util.Date`` a ``datetime`` / ``date`` / ``time`` by logical
type. Not ported: the ``fromConnect*`` tests and round trips (this product only reads Protobuf),
and the tests of ``ProtobufDataConfig`` settings the converter refuses at non-default values
(``int.for.enums``, ``generalized.sum.type.support``, ``generate.index.for.unions``,
``flatten.unions``, ``generate.struct.for.nulls``, ``wrapper.for.nullables``,
``optional.for.nullables``, ``optional.for.proto2``, ``enhanced.protobuf.schema.support``,
``scrub.invalid.names``, and ``wrapper.for.raw.primitives=false``, the Java tests' default for
their ``*Struct`` variants).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any

import pytest
from google.protobuf import json_format, message_factory

from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.convert.factory import make_converter
from s3connect.convert.registry.proto_parser import parse_proto
from s3connect.convert.registry.protobuf import (
    PROTO_ENUM,
    PROTO_TAG,
    PROTO_TYPE,
    PROTO_UNION,
    _add_file,
    _proto_message,
    _well_known_pool,
    protobuf_to_connect_schema,
)
from s3connect.errors import SchemaRegistryError
from tests.unit.convert.registry.confluent_protos import PROTOS
from tests.unit.convert.registry.test_converters import FakeClient, framed, registry

TEST_PKG = "io.confluent.kafka.serializers.protobuf.test"

# ---------------------------------------------------------------------------------------------
# Helpers: the Java tests' generated classes, getSchemaAndValue and expected schemas


def _pool(*files: str, extra: dict[str, str] | None = None) -> Any:
    """A descriptor pool with the well-known types and ``files`` (in dependency order)."""
    pool = _well_known_pool()
    sources = {**PROTOS, **(extra or {})}
    for name in files:
        proto = parse_proto(sources[name])
        proto.name = name
        _add_file(pool, proto)
    return pool


def _cls(pool: Any, full_name: str) -> Any:
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(full_name))


def schema_and_value(message: Any) -> tuple[ConnectSchema, Any]:
    """getSchemaAndValue: ProtobufData.toConnectData(new ProtobufSchema(descriptor), message
    re-parsed from its bytes), with the converter's settings."""
    desc = message.DESCRIPTOR
    schema = protobuf_to_connect_schema(desc)
    parsed = message_factory.GetMessageClass(desc).FromString(message.SerializeToString())
    return schema, _proto_message(schema, desc)(parsed)


def opt(t: Type, tag: int | None = None, **params: str) -> ConnectSchema:
    """An optional schema with the Tag parameter (and others)."""
    p = {PROTO_TAG: str(tag)} if tag is not None else {}
    return ConnectSchema(t, optional=True, parameters={**p, **params})


def struct(name: str | None, *fields: tuple[str, ConnectSchema], **kw: Any) -> ConnectSchema:
    return ConnectSchema(Type.STRUCT, name=name, fields=tuple(Field(n, s) for n, s in fields), **kw)


def tagged(schema: ConnectSchema, tag: int) -> ConnectSchema:
    """``schema`` made optional with the Tag parameter (``builder.optional().parameter(...)``)."""
    return ConnectSchema(
        schema.type,
        optional=True,
        name=schema.name,
        version=schema.version,
        parameters={**schema.parameters, PROTO_TAG: str(tag)},
        fields=schema.fields,
        key_schema=schema.key_schema,
        value_schema=schema.value_schema,
    )


def status(tag: int) -> ConnectSchema:
    return ConnectSchema(
        Type.STRING,
        optional=True,
        name="Status",
        parameters={
            PROTO_TAG: str(tag),
            PROTO_ENUM: "Status",
            f"{PROTO_ENUM}.ACTIVE": "0",
            f"{PROTO_ENUM}.INACTIVE": "1",
        },
    )


def union(name: str, *fields: tuple[str, ConnectSchema]) -> ConnectSchema:
    return struct(f"{PROTO_UNION}.{name}", *fields, optional=True)


def expected_schema_and_value(
    field_schema: ConnectSchema, message_name: str, value: Any
) -> tuple[ConnectSchema, Any]:
    """getExpectedSchemaAndValue: a struct named after the message with one field ``value``."""
    return struct(message_name, ("value", field_schema)), {"value": value}


def nested_test_proto_schema() -> ConnectSchema:
    """getExpectedNestedTestProtoSchema(false)."""
    user_id = union(
        "user_id",
        ("kafka_user_id", opt(Type.STRING, 1)),
        ("other_user_id", opt(Type.INT32, 2)),
        ("another_id", tagged(struct("MessageId", ("id", opt(Type.STRING, 1))), 3)),
    )
    return struct(
        "NestedMessage",
        ("user_id", tagged(struct("UserId", ("user_id_0", user_id)), 1)),
        ("is_active", opt(Type.BOOLEAN, 2)),
        (
            "experiments_active",
            tagged(ConnectSchema(Type.ARRAY, value_schema=opt(Type.STRING)), 3),
        ),
        ("updated_at", tagged(ConnectSchema(Type.INT64, name=TIMESTAMP, version=1), 4)),
        ("status", status(5)),
        ("complex_type", tagged(complex_type_schema(), 6)),
        (
            "map_type",
            tagged(
                ConnectSchema(
                    Type.MAP,
                    name="map_type",
                    key_schema=opt(Type.STRING, 1),
                    value_schema=opt(Type.STRING, 2),
                ),
                7,
            ),
        ),
        (
            "inner",
            tagged(
                struct(
                    "InnerMessage",
                    ("id", opt(Type.STRING, 1)),
                    ("ids", tagged(ConnectSchema(Type.ARRAY, value_schema=opt(Type.INT32)), 2)),
                ),
                8,
            ),
        ),
    )


def complex_type_schema() -> ConnectSchema:
    """getComplexTypeSchemaBuilder()."""
    return struct(
        "ComplexType",
        ("some_val_0", union("some_val", ("one_id", opt(Type.STRING, 1)),
                             ("other_id", opt(Type.INT32, 2)))),
        ("is_active", opt(Type.BOOLEAN, 3)),
    )  # fmt: skip


def enum_union_schema() -> ConnectSchema:
    """getEnumUnionSchemaBuilder()."""
    return struct(
        "EnumUnion",
        (
            "some_val_0",
            union(
                "some_val",
                ("one_id", opt(Type.STRING, 1)),
                ("other_id", opt(Type.INT32, 2)),
                ("some_status", status(3)),
            ),
        ),
        ("status", status(4)),
    )


def _nested_pool() -> Any:
    return _pool("NestedTestProto.proto")


def create_nested_test_proto(user_id: dict[str, Any]) -> Any:
    """createNestedTestProto(id)."""
    pool = _nested_pool()
    m = _cls(pool, f"{TEST_PKG}.NestedMessage")()
    for k, v in user_id.items():
        setattr(m.user_id, k, v)
    m.is_active = True
    m.experiments_active.extend(["first experiment", "second experiment"])
    m.status = 1  # INACTIVE
    m.inner.id = ""
    m.updated_at.FromDatetime(datetime(2017, 9, 18))
    m.map_type.add(key="Hello", value="World")
    return m


def expected_nested_result(union_value: dict[str, Any]) -> dict[str, Any]:
    """getExpectedNestedProtoResult{String,Int}UserId(false)."""
    members = {"kafka_user_id": None, "other_user_id": None, "another_id": None, **union_value}
    return {
        "user_id": {"user_id_0": members},
        "is_active": True,
        "experiments_active": ["first experiment", "second experiment"],
        "updated_at": datetime(2017, 9, 18, tzinfo=UTC),
        "status": "INACTIVE",
        "complex_type": None,
        "map_type": {"Hello": "World"},
        "inner": {"id": "", "ids": []},
    }


# ---------------------------------------------------------------------------------------------
# ProtobufDataTest


def test_to_connect_data_with_nested_protobuf_message_and_string_user_id() -> None:
    message = create_nested_test_proto({"kafka_user_id": "my_user"})
    schema, value = schema_and_value(message)
    assert schema == nested_test_proto_schema()
    assert value == expected_nested_result({"kafka_user_id": "my_user"})


def test_to_connect_data_with_nested_protobuf_message_and_int_user_id() -> None:
    message = create_nested_test_proto({"other_user_id": 5})
    schema, value = schema_and_value(message)
    assert schema == nested_test_proto_schema()
    assert value == expected_nested_result({"other_user_id": 5})


def test_to_connect_data_with_empty_nested_protobuf_message() -> None:
    message = _cls(_nested_pool(), f"{TEST_PKG}.NestedMessage")()
    schema, value = schema_and_value(message)
    assert schema == nested_test_proto_schema()
    assert value == {
        "user_id": None,
        "is_active": False,
        "experiments_active": [],
        "updated_at": None,
        "status": "ACTIVE",
        "complex_type": None,
        "map_type": {},
        "inner": None,
    }


def test_to_connect_data_default_one_of() -> None:
    message = _cls(_nested_pool(), f"{TEST_PKG}.ComplexType")(other_id=0)
    schema, value = schema_and_value(message)
    assert schema == complex_type_schema()
    assert value == {"some_val_0": {"one_id": None, "other_id": 0}, "is_active": False}


def test_to_connect_data_default_one_of_cannot_have_two_one_ofs_set() -> None:
    message = _cls(_nested_pool(), f"{TEST_PKG}.ComplexType")()
    message.one_id = "asdf"
    message.other_id = 0  # the last member set wins
    schema, value = schema_and_value(message)
    assert schema == complex_type_schema()
    assert value == {"some_val_0": {"one_id": None, "other_id": 0}, "is_active": False}


def enum_union(**fields: Any) -> Any:
    pool = _pool("NestedTestProto.proto", "EnumUnion.proto")
    return _cls(pool, f"{TEST_PKG}.EnumUnion")(**fields)


def test_to_connect_enum_union_with_string() -> None:
    schema, value = schema_and_value(enum_union(one_id="ID", status=1))
    assert schema == enum_union_schema()
    assert value == {
        "some_val_0": {"one_id": "ID", "other_id": None, "some_status": None},
        "status": "INACTIVE",
    }


def test_to_connect_enum_union_with_some_status() -> None:
    schema, value = schema_and_value(enum_union(some_status=1, status=1))
    assert schema == enum_union_schema()
    assert value == {
        "some_val_0": {"one_id": None, "other_id": None, "some_status": "INACTIVE"},
        "status": "INACTIVE",
    }


def test_to_connect_nested_null_negative() -> None:
    # generate.struct.for.nulls=false (the default): an unset message field is null.
    message = _cls(_pool("nestedfield.proto"), "NestedKeyValueMessage")()
    schema, value = schema_and_value(message)
    wrapper_field = schema.field("wrapper_field")
    assert wrapper_field is not None and wrapper_field.schema.field("nested_field") is not None
    assert value == {"wrapper_field": None, "inner_field": 0.0}


def test_to_connect_null() -> None:
    # toConnectData(protobufSchema, null): SchemaAndValue.NULL.
    conv = make_converter("protobuf", registry=registry(FakeClient()))
    assert conv.to_connect("topic", None) == (None, None)


def _wrapper(name: str, value: Any) -> tuple[ConnectSchema, Any]:
    """getSchemaAndValue(message, true) of a google.protobuf wrapper message."""
    return schema_and_value(_cls(_well_known_pool(), f"google.protobuf.{name}")(value=value))


def test_to_connect_boolean() -> None:
    assert _wrapper("BoolValue", True) == (ConnectSchema(Type.BOOLEAN), True)


def _single_value(file: str, message: str, value: Any) -> tuple[ConnectSchema, Any]:
    return schema_and_value(_cls(_pool(file), message)(value=value))


def test_to_connect_int8_struct() -> None:
    assert _single_value("Int8Value.proto", "Int8Value", 12) == expected_schema_and_value(
        opt(Type.INT8, 1), "Int8Value", 12
    )


def test_to_connect_int16_struct() -> None:
    assert _single_value("Int16Value.proto", "Int16Value", 12) == expected_schema_and_value(
        opt(Type.INT16, 1), "Int16Value", 12
    )


def test_to_connect_int32() -> None:
    assert _wrapper("Int32Value", 12) == (ConnectSchema(Type.INT32), 12)


def test_to_connect_int32_with0() -> None:
    assert _wrapper("Int32Value", 0) == (ConnectSchema(Type.INT32), 0)


def test_to_connect_int32_struct_with_sint32() -> None:
    assert _single_value("SInt32Value.proto", "SInt32Value", 12) == expected_schema_and_value(
        opt(Type.INT32, 1, **{PROTO_TYPE: "sint32"}), "SInt32Value", 12
    )


def test_to_connect_int32_struct_with_u_int32() -> None:
    # Java sets -1, i.e. 0xFFFFFFFF: read as the unsigned 4294967295.
    assert _single_value(
        "UInt32Value.proto", "UInt32Value", 4294967295
    ) == expected_schema_and_value(
        opt(Type.INT64, 1, **{PROTO_TYPE: "uint32"}), "UInt32Value", 4294967295
    )


def test_to_connect_int64() -> None:
    assert _wrapper("Int64Value", 12) == (ConnectSchema(Type.INT64), 12)


def test_to_connect_s_int64_struct() -> None:
    assert _single_value("SInt64Value.proto", "SInt64Value", 12) == expected_schema_and_value(
        opt(Type.INT64, 1, **{PROTO_TYPE: "sint64"}), "SInt64Value", 12
    )


def test_to_connect_float32() -> None:
    assert _wrapper("FloatValue", 12.0) == (ConnectSchema(Type.FLOAT32), 12.0)


def test_to_connect_float64() -> None:
    assert _wrapper("DoubleValue", 12.0) == (ConnectSchema(Type.FLOAT64), 12.0)


def test_to_connect_string() -> None:
    assert _wrapper("StringValue", "Hello") == (ConnectSchema(Type.STRING), "Hello")


def test_to_connect_empty_string() -> None:
    assert _wrapper("StringValue", "") == (ConnectSchema(Type.STRING), "")


def test_to_connect_decimal() -> None:
    pool = _pool("DecimalValue.proto")
    message = _cls(pool, "DecimalValue")()
    message.value.value = (12345678).to_bytes(4, "big", signed=True)
    message.value.precision = 8
    message.value.scale = 3
    decimal_schema = ConnectSchema(
        Type.BYTES,
        optional=True,
        name=DECIMAL,
        version=1,
        parameters={"scale": "3", "connect.decimal.precision": "8", PROTO_TAG: "1"},
    )
    assert schema_and_value(message) == expected_schema_and_value(
        decimal_schema, "DecimalValue", Decimal("12345.678")
    )


VARIANT_FIELD = """\
syntax = "proto3";
import "confluent/type/variant.proto";
message VariantValue {
  confluent.type.Variant value = 1;
}
"""


def test_to_connect_variant() -> None:
    # A top-level confluent.type.Variant is a struct named "Variant" with its two fields.
    pool = _well_known_pool()
    schema = protobuf_to_connect_schema(pool.FindMessageTypeByName("confluent.type.Variant"))
    assert schema.name == "Variant"
    assert schema.field("metadata") is not None
    assert schema.field("value") is not None
    # As a field, it is ConnectVariant's schema (the PROTOBUF_VARIANT_TYPE case).
    pool = _pool("v.proto", extra={"v.proto": VARIANT_FIELD})
    message = _cls(pool, "VariantValue")()
    message.value.metadata, message.value.value = b"\x01", b"\x02"
    variant = struct(
        "org.apache.kafka.connect.data.Variant",
        ("metadata", ConnectSchema(Type.BYTES)),
        ("value", ConnectSchema(Type.BYTES)),
    )
    assert schema_and_value(message) == expected_schema_and_value(
        tagged(variant, 1), "VariantValue", {"metadata": b"\x01", "value": b"\x02"}
    )


def test_to_connect_date() -> None:
    message = _cls(_pool("DateValue.proto"), "DateValue")()
    message.value.year, message.value.month, message.value.day = 2017, 12, 31
    date_schema = ConnectSchema(
        Type.INT32, optional=True, name=DATE, version=1, parameters={PROTO_TAG: "1"}
    )
    assert schema_and_value(message) == expected_schema_and_value(
        date_schema, "DateValue", date(2017, 12, 31)
    )


def test_to_connect_time() -> None:
    message = _cls(_pool("TimeOfDayValue.proto"), "TimeOfDayValue")()
    v = message.value
    v.hours, v.minutes, v.seconds, v.nanos = 11, 12, 13, 14_000_000
    time_schema = ConnectSchema(
        Type.INT32, optional=True, name=TIME, version=1, parameters={PROTO_TAG: "1"}
    )
    assert schema_and_value(message) == expected_schema_and_value(
        time_schema, "TimeOfDayValue", time(11, 12, 13, 14_000)
    )


def test_to_connect_timestamp() -> None:
    message = _cls(_pool("TimestampValue.proto"), "TimestampValue")()
    message.value.FromDatetime(datetime(2017, 12, 31))
    timestamp_schema = ConnectSchema(
        Type.INT64, optional=True, name=TIMESTAMP, version=1, parameters={PROTO_TAG: "1"}
    )
    assert schema_and_value(message) == expected_schema_and_value(
        timestamp_schema, "TimestampValue", datetime(2017, 12, 31, tzinfo=UTC)
    )


def test_round_trip_connect_no_optional_for_nullables() -> None:
    # The toConnect half (this product does not write Protobuf).
    message = _cls(_pool("keyvalueoptional.proto"), "KeyValueOptionalMessage")(key=123, value="hi")
    schema, value = schema_and_value(message)
    assert schema == struct(
        "KeyValueOptionalMessage", ("key", opt(Type.INT32, 1)), ("value", opt(Type.STRING, 2))
    )
    assert value == {"key": 123, "value": "hi"}


def test_to_connect_recursive_schema() -> None:
    # Deliberate difference (README: "Not supported: recursive schemas"): ProtobufData builds a
    # self-referencing Connect schema; ours refuses the schema.
    pool = _pool("recursivekeyvalue.proto")
    desc = pool.FindMessageTypeByName("RecursiveKeyValueMessage")
    with pytest.raises(ValueError, match="recursive Protobuf messages are not supported"):
        protobuf_to_connect_schema(desc)


MULTIPLE_ONEOFS = """\
syntax = "proto3";

package foo;

message Customer {
    int64 count = 1;
    string first_name = 2;
    string last_name = 3;
    string address = 4;
    oneof survey_id {
        string survey_response_id = 5;
        string outgoing_action_id = 6;
    }
    oneof comment {
        string email = 7;
        string platform = 8;
    }
}"""


def test_multiple_oneofs() -> None:
    pool = _pool("c.proto", extra={"c.proto": MULTIPLE_ONEOFS})
    text = (
        '{"count":"0","firstName":"Bob","lastName":"Jones","address":"123 Main St",'
        '"outgoingActionId":"my outgoing_action_id","platform":"my platform"}'
    )
    message = json_format.Parse(text, _cls(pool, "foo.Customer")())
    _, value = schema_and_value(message)
    assert value["survey_id_0"]["outgoing_action_id"] == "my outgoing_action_id"
    assert value["comment_1"]["platform"] == "my platform"


DIAMOND = """\
syntax = "proto3";
package com.mycorp.mynamespace;

message SampleRecord {
  int32 my_field1 = 1;
  int32 totalAmount = 2;
  Org payee = 3;
}
message Org {
  string id = 1;
  string name = 2;
  PAdd contactAddress = 3;
  repeated Location locations = 4;
}
message PAdd {
  string postalAddress = 1;
  PAddType type = 2;
}
message Location {
  string id = 1;
  string name = 2;
  PAdd physicalAddress = 3;
}
enum PAddType {
  POSTAL_ADDRESS_TYPE_UNSPECIFIED = 0;
  POSTAL = 1;
  PHYSICAL = 2;
}"""


def test_diamond() -> None:
    # The toConnectSchema half: a message reached twice (not recursively) converts both times.
    pool = _pool("d.proto", extra={"d.proto": DIAMOND})
    schema = protobuf_to_connect_schema(
        pool.FindMessageTypeByName("com.mycorp.mynamespace.SampleRecord")
    )
    payee = schema.field("payee")
    assert payee is not None
    org = payee.schema
    contact, locations = org.field("contactAddress"), org.field("locations")
    assert contact is not None and locations is not None
    assert locations.schema.value_schema is not None
    physical = locations.schema.value_schema.field("physicalAddress")
    assert physical is not None
    assert contact.schema.name == physical.schema.name == "PAdd"
    assert contact.schema.fields == physical.schema.fields


def test_to_connect_optional_proto2() -> None:
    message = _cls(_pool("keyvalueproto2.proto"), "KeyValueMessage2")(key=123)
    _, value = schema_and_value(message)
    assert value["value"] is None


def test_to_connect_multiple_map_references() -> None:
    pool = _pool("mapreferences.proto")
    entry = _cls(pool, "AttributeFieldEntry")
    message = _cls(pool, "MapReferencesMessage")()
    message.map1.append(entry(key="key1", value="value1"))
    message.map2.append(entry(key="key2", value="value2"))
    message.notAMap1.CopyFrom(entry(key="key3", value="value3"))
    message.notAMap2.CopyFrom(entry(key="key4", value="value4"))
    schema, value = schema_and_value(message)

    def attribute_map(tag: int) -> ConnectSchema:
        return tagged(
            ConnectSchema(
                Type.MAP,
                name="attribute_field",
                key_schema=opt(Type.STRING, 1),
                value_schema=opt(Type.STRING, 2),
            ),
            tag,
        )

    entry_struct = struct(
        "AttributeFieldEntry", ("key", opt(Type.STRING, 1)), ("value", opt(Type.STRING, 2))
    )
    assert schema == struct(
        "MapReferencesMessage",
        ("map1", attribute_map(1)),
        ("map2", attribute_map(2)),
        ("notAMap1", tagged(entry_struct, 3)),
        ("notAMap2", tagged(entry_struct, 4)),
    )
    assert value == {
        "map1": {"key1": "value1"},
        "map2": {"key2": "value2"},
        "notAMap1": {"key": "key3", "value": "value3"},
        "notAMap2": {"key": "key4", "value": "value4"},
    }


# ---------------------------------------------------------------------------------------------
# ProtobufConverterTest: the converter reads the wire format with the registered schema (a
# FakeClient, as the MockSchemaRegistryClient; the registered text is the .proto source, as
# getSchema(descriptor) registers ProtobufSchema's text).

TEST_MSG_STRING = "Hello World"


def message_schema(name: str, version: int | None = 1) -> ConnectSchema:
    """getTestMessageSchema(name) (a builder with ``version(1)`` unless None)."""

    def typed(t: Type, tag: int, proto_type: str) -> ConnectSchema:
        return opt(t, tag, **{PROTO_TYPE: proto_type})

    return struct(
        name,
        ("test_string", opt(Type.STRING, 1)),
        ("test_bool", opt(Type.BOOLEAN, 2)),
        ("test_bytes", opt(Type.BYTES, 3)),
        ("test_double", opt(Type.FLOAT64, 4)),
        ("test_float", opt(Type.FLOAT32, 5)),
        ("test_fixed32", typed(Type.INT64, 6, "fixed32")),
        ("test_fixed64", typed(Type.INT64, 7, "fixed64")),
        ("test_int32", opt(Type.INT32, 8)),
        ("test_int64", opt(Type.INT64, 9)),
        ("test_sfixed32", typed(Type.INT32, 10, "sfixed32")),
        ("test_sfixed64", typed(Type.INT64, 11, "sfixed64")),
        ("test_sint32", typed(Type.INT32, 12, "sint32")),
        ("test_sint64", typed(Type.INT64, 13, "sint64")),
        ("test_uint32", typed(Type.INT64, 14, "uint32")),
        ("test_uint64", typed(Type.INT64, 15, "uint64")),
        version=version,
    )


def message_struct(message_text: str, message_int: int) -> dict[str, Any]:
    """getTestMessageStruct(text, int)."""
    return {
        "test_string": message_text,
        "test_bool": False,
        "test_bytes": b"",
        "test_double": 0.0,
        "test_float": 0.0,
        "test_fixed32": 0,
        "test_fixed64": 0,
        "test_int32": message_int,
        "test_int64": 0,
        "test_sfixed32": 0,
        "test_sfixed64": 0,
        "test_sint32": 0,
        "test_sint64": 0,
        "test_uint32": 0,
        "test_uint64": 0,
    }


def message2_schema() -> ConnectSchema:
    base = message_schema("TestMessage2")
    nested = tagged(message_schema("TestMessage", version=None), 16)
    return struct("TestMessage2", *((f.name, f.schema) for f in base.fields),
                  ("test_message", nested), version=1)  # fmt: skip


def hello_world(message: str) -> bytes:
    pool = _pool("TestProto.proto")
    return bytes(_cls(pool, f"{TEST_PKG}.{message}")(
        test_string=TEST_MSG_STRING, test_int32=123
    ).SerializeToString())  # fmt: skip


def _converter(subject: str, is_key: bool, files: dict[int, str]) -> Any:
    """A ProtobufConverter whose registry has ``files`` (schema id -> .proto text) registered
    under ``subject`` as versions 1, 2, ..."""
    client = FakeClient()
    for version, (schema_id, text) in enumerate(files.items(), 1):
        client.add(schema_id, text, "PROTOBUF", subject, version)
    return make_converter("protobuf", registry=registry(client), is_key=is_key)


def _to_connect_first_message(is_key: bool) -> None:
    side = "key" if is_key else "value"
    conv = _converter(f"my-topic-{side}", is_key, {1: PROTOS["TestProto.proto"]})
    value, schema = conv.to_connect("my-topic", framed(1, b"\x00" + hello_world("TestMessage")))
    assert schema == message_schema("TestMessage")
    assert value == message_struct(TEST_MSG_STRING, 123)


def _to_connect_second_message(is_key: bool) -> None:
    side = "key" if is_key else "value"
    conv = _converter(f"my-topic-{side}", is_key, {1: PROTOS["TestProto.proto"]})
    value, schema = conv.to_connect(
        "my-topic", framed(1, b"\x02\x02" + hello_world("TestMessage2"))
    )
    assert schema == message2_schema()
    assert value == {**message_struct(TEST_MSG_STRING, 123), "test_message": None}


def test_to_connect_data_for_key() -> None:
    _to_connect_first_message(is_key=True)


def test_to_connect_data_for_key_with_second_message() -> None:
    _to_connect_second_message(is_key=True)


def test_to_connect_data_for_value() -> None:
    _to_connect_first_message(is_key=False)


def test_to_connect_data_for_value_with_second_message() -> None:
    _to_connect_second_message(is_key=False)


def test_to_connect_data_for_value_with_both_messages() -> None:
    # Both messages' schemas are the same file: one schema id, version 1, message indexes differ.
    conv = _converter("my-topic-value", False, {1: PROTOS["TestProto.proto"]})
    value, schema = conv.to_connect("my-topic", framed(1, b"\x00" + hello_world("TestMessage")))
    assert (schema, value) == (
        message_schema("TestMessage"),
        message_struct(TEST_MSG_STRING, 123),
    )
    value, schema = conv.to_connect(
        "my-topic", framed(1, b"\x02\x02" + hello_world("TestMessage2"))
    )
    assert schema == message2_schema()
    assert value == {**message_struct(TEST_MSG_STRING, 123), "test_message": None}


def test_null() -> None:
    conv = _converter("topic-value", False, {})
    assert conv.to_connect("topic", None) == (None, None)


def _key_and_key_value() -> tuple[bytes, bytes]:
    key = _cls(_pool("key.proto"), "KeyMessage")(key=15)
    key_value = _cls(_pool("keyvalue.proto"), "KeyValueMessage")(key=15, value="bar")
    return bytes(key.SerializeToString()), bytes(key_value.SerializeToString())


def test_version_extracted_for_default_subject_name_strategy() -> None:
    # KafkaProtobufSerializer registers KeyMessage then KeyValueMessage under topic-value.
    conv = _converter("topic-value", False, {1: PROTOS["key.proto"], 2: PROTOS["keyvalue.proto"]})
    key, key_value = _key_and_key_value()
    _, schema1 = conv.to_connect("topic", framed(1, b"\x00" + key))
    assert schema1 is not None and schema1.version == 1
    _, schema2 = conv.to_connect("topic", framed(2, b"\x00" + key_value))
    assert schema2 is not None and schema2.version == 2


def _same_schema_multiple_topic(is_key: bool) -> None:
    side = "key" if is_key else "value"
    key_value_text = PROTOS["keyvalue.proto"]
    client = FakeClient()
    client.add(1, key_value_text, "PROTOBUF", f"topic1-{side}", 1)
    client.add(2, PROTOS["key.proto"], "PROTOBUF", f"topic2-{side}", 1)
    # The same schema registered under topic2 as its version 2 (the registry keeps one id).
    client.versions[(f"topic2-{side}", 1)] = 2
    conv = make_converter("protobuf", registry=registry(client), is_key=is_key)
    _, key_value = _key_and_key_value()
    _, schema1 = conv.to_connect("topic1", framed(1, b"\x00" + key_value))
    assert schema1 is not None and schema1.version == 1
    for _ in range(2):
        _, schema2 = conv.to_connect("topic2", framed(1, b"\x00" + key_value))
        assert schema2 is not None and schema2.version == 2


def test_same_schema_multiple_topic_for_value() -> None:
    _same_schema_multiple_topic(is_key=False)


def test_same_schema_multiple_topic_for_key() -> None:
    _same_schema_multiple_topic(is_key=True)


def test_to_connect_data_throws_network_exception_on_serialization_exception_caused_by_network_connection_exception() -> (  # noqa: E501
    None
):
    # Java: a deserializer failure caused by an UnknownHostException is a NetworkException (a
    # RetriableException), not a DataException; ours: a SchemaRegistryError, not a ValueError.
    client = FakeClient()
    client.add(1, PROTOS["key.proto"], "PROTOBUF", "topic-value", 1)
    client.failures = [ConnectionError("io fail")] * 10
    conv = make_converter("protobuf", registry=registry(client))
    with pytest.raises(SchemaRegistryError):
        conv.to_connect("topic", framed(1, b"\x00"))
