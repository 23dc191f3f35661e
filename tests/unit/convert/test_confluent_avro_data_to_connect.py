"""Confluent's ``AvroDataTest`` (schema-registry 794611bd, module avro-data), Avro -> Connect
half (``toConnectSchema`` / ``toConnectData``), one test per Java test method.

A datum reaches our AvroData as fastavro decodes it from the bytes Avro writes: each test writes
the Java test's datum with its schema and reads it back (:func:`to_connect_data`). Skipped: the
tests handing ``toConnectData`` a datum of another type than its schema (fastavro does not write
one), of settings our reading side does not have (``enhanced.avro.schema.support``,
``generalized.sum.type.support``, ``connect.meta.data=false``), of the ``variant`` logical type
and of the schema caches.
"""

from __future__ import annotations

import io
import json
from decimal import Decimal
from struct import pack, unpack
from typing import Any

import pytest

from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Type
from s3connect.convert.avro_anything import ANYTHING_SCHEMA_JSON
from s3connect.convert.avro_data import (
    AVRO_ENUM,
    AVRO_UNION,
    ENUM_DOC,
    FIELD_DEFAULT_FLAG,
    FIELD_DOC,
    connect_reader,
    to_connect_schema,
)
from tests.unit.convert.confluent_avro_help import (
    BOOLEAN,
    BYTES,
    DATE_SCHEMA,
    FIXED_SIZE,
    FLOAT32,
    FLOAT64,
    INT8,
    INT16,
    INT32,
    INT64,
    NS,
    OPT_INT32,
    OPT_STRING,
    PRECISION,
    STRING,
    TIME_SCHEMA,
    TIMESTAMP_SCHEMA,
    array,
    decimal_schema,
    encode,
    from_connect_data,
    from_connect_schema,
    map_of,
    struct,
    to_connect_data,
)
from tests.unit.convert.test_confluent_avro_data import (
    EPOCH_PLUS_TEN_THOUSAND_DAYS,
    EPOCH_PLUS_TEN_THOUSAND_MILLIS,
    NAMED_AVRO_MAP_SCHEMA,
    NAMED_MAP_SCHEMA,
    NOW,
    NOW_MILLIS,
    TEST_DECIMAL,
    TEST_DECIMAL_BYTES,
)

ANYTHING = json.loads(ANYTHING_SCHEMA_JSON)


def check(avro: Any, datum: Any, schema: ConnectSchema | None, value: Any) -> None:
    """``assertEquals(new SchemaAndValue(schema, value), toConnectData(avro, datum))``."""
    assert to_connect_data(avro, datum) == (schema, value)


def test_to_connect_boolean() -> None:
    check("boolean", True, BOOLEAN, True)


def test_to_connect_int32() -> None:
    check("int", 12, INT32, 12)


def test_to_connect_int64() -> None:
    check("long", 12, INT64, 12)


def test_to_connect_float32() -> None:
    check("float", 12.0, FLOAT32, 12.0)


def test_to_connect_float64() -> None:
    check("double", 12.0, FLOAT64, 12.0)


def test_to_connect_nullable_string_nullvalue() -> None:
    assert to_connect_data(["null", "string"], None)[1] is None


def test_to_connect_nullable_string() -> None:
    check(["null", "string"], "teststring", OPT_STRING, "teststring")


def test_to_connect_string() -> None:
    check("string", "teststring", STRING, "teststring")


def test_to_connect_bytes() -> None:
    check("bytes", b"foo", BYTES, b"foo")


def test_to_connect_array() -> None:
    avro = {"type": "array", "items": {"type": "int", "connect.type": "int8"}}
    check(avro, [12, 13], array(INT8), [12, 13])


def test_to_connect_map_string_keys() -> None:
    avro = {"type": "map", "values": {"type": "int", "connect.type": "int8"}}
    check(avro, {"field": 12}, map_of(STRING, INT8), {"field": 12})


def test_to_connect_record() -> None:
    avro = {
        "type": "record",
        "name": "Record",
        "fields": [
            {"name": "int8", "type": {"type": "int", "connect.type": "int8"}},
            {"name": "string", "type": "string"},
        ],
    }
    schema = struct(("int8", INT8), ("string", STRING), name="Record")
    value = {"int8": 12, "string": "sample string"}
    check(avro, value, schema, value)


def _record_with_optional(value: str | None) -> None:
    avro = {
        "type": "record",
        "name": "Record",
        "fields": [
            {"name": "int8", "type": {"type": "int", "connect.type": "int8"}},
            {"name": "string", "type": ["null", "string"], "default": None},
        ],
    }
    schema = struct(("int8", INT8), ("string", OPT_STRING), name="Record")
    check(avro, {"int8": 12, "string": value}, schema, {"int8": 12, "string": value})


def test_to_connect_record_with_optional_value() -> None:
    _record_with_optional("sample string")


def test_to_connect_record_with_optional_null_value() -> None:
    _record_with_optional(None)


def _record_with_optional_array(value: list[str] | None) -> None:
    avro = {
        "type": "record",
        "name": "Record",
        "fields": [
            {"name": "string", "type": ["null", "string"], "default": None},
            {"name": "array", "type": ["null", {"type": "array", "items": "string"}]},
        ],
    }
    schema = struct(("string", OPT_STRING), ("array", array(STRING, optional=True)), name="Record")
    check(avro, {"string": "xx", "array": value}, schema, {"string": "xx", "array": value})


def test_to_connect_record_with_optional_array_value() -> None:
    _record_with_optional_array(["test"])


def test_to_connect_record_with_optional_array_null_value() -> None:
    _record_with_optional_array(None)


NESTED_RECORD_AVRO = {
    "type": "record",
    "name": "Record",
    "fields": [
        {
            "name": "nestedRecord",
            "type": [
                {
                    "type": "record",
                    "name": "nestedRecord",
                    "fields": [{"name": "string", "type": "string"}],
                },
                "null",
            ],
        }
    ],
}
NESTED_RECORD_SCHEMA = struct(
    ("nestedRecord", struct(("string", STRING), name="nestedRecord", optional=True)),
    name="Record",
)


def test_to_connect_nested_record_with_optional_record_value() -> None:
    value = {"nestedRecord": {"string": "xx"}}
    check(NESTED_RECORD_AVRO, value, NESTED_RECORD_SCHEMA, value)


def test_to_connect_nested_record_with_optional_record_null_value() -> None:
    value = {"nestedRecord": None}
    check(NESTED_RECORD_AVRO, value, NESTED_RECORD_SCHEMA, value)


def test_to_connect_decimal() -> None:
    avro = {
        "type": "bytes",
        "connect.name": DECIMAL,
        "connect.version": 1,
        "connect.parameters": {"scale": "2"},
    }
    check(avro, TEST_DECIMAL_BYTES, decimal_schema(2), TEST_DECIMAL)


def test_to_connect_decimal_avro() -> None:
    avro = {"type": "bytes", "logicalType": "decimal", "precision": 50, "scale": 2}
    schema, value = to_connect_data(avro, TEST_DECIMAL_BYTES)
    expected = decimal_schema(2, params={PRECISION: "50"})
    assert schema is not None
    assert schema.parameters == expected.parameters
    assert (schema, value) == (expected, TEST_DECIMAL)


def test_to_connect_decimal_avro_fixed() -> None:
    avro = {
        "type": "fixed",
        "name": "fixed",
        "size": 100,
        "logicalType": "decimal",
        "precision": 50,
        "scale": 2,
    }
    schema, value = to_connect_data(avro, bytes(98) + TEST_DECIMAL_BYTES)
    expected = decimal_schema(2, params={PRECISION: "50", FIXED_SIZE: "100"})
    assert schema is not None
    assert schema.parameters == expected.parameters
    assert (schema, value) == (expected, TEST_DECIMAL)


def test_to_connect_decimal_avro_default_scale() -> None:
    avro = {"type": "bytes", "logicalType": "decimal", "precision": 50}
    schema, value = to_connect_data(avro, TEST_DECIMAL_BYTES)
    expected = decimal_schema(0, params={PRECISION: "50"})
    assert schema is not None
    assert schema.parameters == expected.parameters
    assert (schema, value) == (expected, Decimal(156))


def test_to_connect_date() -> None:
    avro = {"type": "int", "connect.name": DATE, "connect.version": 1}
    check(avro, 10000, DATE_SCHEMA, EPOCH_PLUS_TEN_THOUSAND_DAYS)


def test_to_connect_date_avro() -> None:
    check({"type": "int", "logicalType": "date"}, 10000, DATE_SCHEMA, EPOCH_PLUS_TEN_THOUSAND_DAYS)


def test_to_connect_time() -> None:
    avro = {"type": "int", "connect.name": TIME, "connect.version": 1}
    check(avro, 10000, TIME_SCHEMA, EPOCH_PLUS_TEN_THOUSAND_MILLIS)


def test_to_connect_time_avro() -> None:
    avro = {"type": "int", "logicalType": "time-millis"}
    check(avro, 10000, TIME_SCHEMA, EPOCH_PLUS_TEN_THOUSAND_MILLIS)


def test_to_connect_timestamp() -> None:
    avro = {"type": "long", "connect.name": TIMESTAMP, "connect.version": 1}
    check(avro, NOW_MILLIS, TIMESTAMP_SCHEMA, NOW)


def test_to_connect_timestamp_avro() -> None:
    check({"type": "long", "logicalType": "timestamp-millis"}, NOW_MILLIS, TIMESTAMP_SCHEMA, NOW)


def test_to_connect_int8() -> None:
    check({"type": "int", "connect.type": "int8"}, 12, INT8, 12)


def test_to_connect_int16() -> None:
    check({"type": "int", "connect.type": "int16"}, 12, INT16, 12)


def _map_entries(value_type: Any) -> dict[str, Any]:
    return {
        "type": "array",
        "items": {
            "type": "record",
            "name": "MapEntry",
            "namespace": NS,
            "fields": [
                {"name": "key", "type": {"type": "int", "connect.type": "int8"}},
                {"name": "value", "type": value_type},
            ],
        },
    }


def test_to_connect_map_non_string_keys() -> None:
    avro = _map_entries({"type": "int", "connect.type": "int16"})
    check(avro, [{"key": 12, "value": 16}], map_of(INT8, INT16), {12: 16})


def _map_optional(value: str | None) -> None:
    avro = _map_entries(["null", "string"])
    check(avro, [{"key": 12, "value": value}], map_of(INT8, OPT_STRING), {12: value})


def test_to_connect_map_optional_value() -> None:
    _map_optional("some value")


def test_to_connect_map_optional_null_value() -> None:
    _map_optional(None)


def test_to_connect_map_with_named_schema() -> None:
    assert to_connect_schema(NAMED_AVRO_MAP_SCHEMA) == NAMED_MAP_SCHEMA


def test_to_connect_null_type() -> None:
    with pytest.raises(
        ValueError, match=r"^Standalone null schemas are not supported by this converter$"
    ):
        to_connect_schema("null")


def _fixed(name: str, size: int, **kw: Any) -> ConnectSchema:
    return ConnectSchema(Type.BYTES, name=name, parameters={FIXED_SIZE: str(size)}, **kw)


def test_to_connect_fixed() -> None:
    check({"type": "fixed", "name": "sample", "size": 4}, b"foob", _fixed("sample", 4), b"foob")


def test_to_connect_fixed_union() -> None:
    union_avro = [
        {"type": "fixed", "name": "sample", "size": 4},
        {"type": "fixed", "name": "other", "size": 6},
        {"type": "fixed", "name": "sameOther", "size": 6},
    ]
    union = struct(
        ("sample", _fixed("sample", 4, optional=True)),
        ("other", _fixed("other", 6, optional=True)),
        ("sameOther", _fixed("sameOther", 6, optional=True)),
        name=AVRO_UNION,
    )
    assert to_connect_schema(union_avro) == union
    empty = {"sample": None, "other": None, "sameOther": None}
    for name, raw in (("sample", b"foob"), ("other", b"foobar"), ("sameOther", b"foobar")):
        check(union_avro, (name, raw), union, {**empty, name: raw})


def test_to_connect_union() -> None:
    test1 = {"type": "record", "name": "Test1", "fields": [{"name": "test", "type": "int"}]}
    test2 = {**test1, "name": "Test2", "namespace": "io.confluent"}
    avro = ["int", "string", test1, test2]
    record1 = struct(("test", INT32), name="Test1", optional=True)
    record2 = struct(("test", INT32), name="io.confluent.Test2", optional=True)
    schema = struct(
        ("int", OPT_INT32),
        ("string", OPT_STRING),
        ("Test1", record1),
        ("Test2", record2),
        name=AVRO_UNION,
    )
    empty = {"int": None, "string": None, "Test1": None, "Test2": None}
    check(avro, 12, schema, {**empty, "int": 12})
    check(avro, "teststring", schema, {**empty, "string": "teststring"})
    check(avro, ("Test1", {"test": 12}), schema, {**empty, "Test1": {"test": 12}})
    check(avro, ("io.confluent.Test2", {"test": 12}), schema, {**empty, "Test2": {"test": 12}})


def test_to_connect_union_record_conflict() -> None:
    test1 = {"type": "record", "name": "Test1", "fields": [{"name": "test", "type": "int"}]}
    avro = [test1, {**test1, "namespace": "io.confluent"}]
    with pytest.raises(
        ValueError, match=r"^Multiple union schemas map to the Connect union field name$"
    ):
        to_connect_data(avro, ("Test1", {"test": 12}))


def test_to_connect_union_doc_change() -> None:
    def first(doc: str) -> dict[str, Any]:
        fields = [{"name": "int1", "type": "int"}]
        return {"type": "record", "name": "FirstRecord", "doc": doc, "fields": fields}

    irrelevant = {
        "type": "record",
        "name": "placeholder",
        "doc": "old doc",
        "fields": [{"name": "holder", "type": "int"}],
    }
    for doc in ("old doc", "new doc"):
        schema, value = to_connect_data([first(doc), irrelevant], ("FirstRecord", {"int1": 12}))
        assert value == {"FirstRecord": {"int1": 12}, "placeholder": None}
        assert schema is not None
        record = schema.field("FirstRecord")
        assert record is not None
        assert record.schema.parameters["io.confluent.connect.avro.record.doc"] == doc


def test_to_connect_singleton_union() -> None:
    check(["string"], "bar", STRING, "bar")


def _enum_schema(doc: str | None) -> ConnectSchema:
    params = {} if doc is None else {ENUM_DOC + "TestEnum": doc}
    params[AVRO_ENUM] = "TestEnum"
    params.update({f"{AVRO_ENUM}.{s}": s for s in ("foo", "bar", "baz")})
    return ConnectSchema(Type.STRING, name="TestEnum", parameters=params)


def test_to_connect_enum() -> None:
    avro = {
        "type": "enum",
        "name": "TestEnum",
        "doc": "some documentation",
        "symbols": ["foo", "bar", "baz"],
    }
    check(avro, "bar", _enum_schema("some documentation"), "bar")


def test_to_connect_enum_with_no_doc() -> None:
    avro = {"type": "enum", "name": "TestEnum", "symbols": ["foo", "bar", "baz"]}
    check(avro, "bar", _enum_schema(None), "bar")


def test_to_connect_optional_primitive_with_connect_metadata() -> None:
    schema = ConnectSchema(
        Type.STRING,
        doc="doc",
        default="foo",
        name="io.confluent.stringtype",
        version=2,
        optional=True,
        parameters={"foo": "bar", "baz": "baz"},
    )
    string = {
        "type": "string",
        "connect.name": "io.confluent.stringtype",
        "connect.version": 2,
        "connect.doc": "doc",
        "connect.default": "foo",
        "connect.parameters": {"foo": "bar", "baz": "baz"},
    }
    check([string, "null"], "string", schema, "string")


def test_to_connect_record_with_metadata() -> None:
    int32 = ConnectSchema(Type.INT32, default=7, parameters={FIELD_DEFAULT_FLAG: "true"})
    schema = struct(
        ("int32", int32),
        name="io.confluent.test.TestSchema",
        version=12,
        doc="doc",
        parameters={FIELD_DOC + "int32": "field doc"},
    )
    avro = {
        "type": "record",
        "name": "TestSchema",
        "namespace": "io.confluent.test",
        "fields": [{"name": "int32", "type": "int", "doc": "field doc", "default": 7}],
        "connect.name": "io.confluent.test.TestSchema",
        "connect.version": 12,
        "connect.doc": "doc",
    }
    check(avro, {"int32": 12}, schema, {"int32": 12})


def test_to_connect_schemaless() -> None:
    null_record: dict[str, Any] = {}
    int_record, string_record = {"int": 12}, {"string": "teststring"}
    check(ANYTHING, null_record, None, None)
    check(ANYTHING, int_record, None, 12)
    check(ANYTHING, {"long": 12}, None, 12)
    f32 = unpack("f", pack("f", 12.2))[0]
    check(ANYTHING, {"float": 12.2}, None, f32)
    check(ANYTHING, {"double": 12.2}, None, 12.2)
    check(ANYTHING, {"boolean": True}, None, True)
    check(ANYTHING, string_record, None, "teststring")
    array_record = {"array": [int_record, string_record, null_record]}
    check(ANYTHING, array_record, None, [12, "teststring", None])
    map_record = {
        "map": [
            {"key": int_record, "value": string_record},
            {"key": {"int": 13}, "value": null_record},
        ]
    }
    check(ANYTHING, map_record, None, {12: "teststring", 13: None})


def test_int_with_connect_default() -> None:
    avro = {
        "type": "record",
        "name": "SomeThing",
        "namespace": "com.acme.property",
        "fields": [
            {"name": "f", "type": {"type": "int", "connect.default": 42, "connect.version": 1}}
        ],
    }
    f = to_connect_schema(avro).field("f")
    assert f is not None
    assert f.schema.default == 42


def test_long_with_connect_default() -> None:
    avro = {
        "type": "record",
        "name": "SomeThing",
        "namespace": "com.acme.property",
        "fields": [
            {"name": "f", "type": {"type": "long", "connect.default": 42, "connect.version": 1}}
        ],
    }
    f = to_connect_schema(avro).field("f")
    assert f is not None
    assert f.schema.default == 42
    assert f.schema.type is Type.INT64


def test_float_with_invalid_default() -> None:
    avro = {
        "type": "record",
        "name": "SomeThing",
        "namespace": "com.acme.property",
        "fields": [{"name": "f", "type": "float", "default": [1.23]}],
    }
    f = to_connect_schema(avro).field("f")
    assert f is not None
    assert f.schema.default is None


def _record_with_object(obj_default: dict[str, Any], type_props: dict[str, Any]) -> Any:
    inner = {
        "name": "Object",
        "type": "record",
        **type_props,
        "fields": [{"name": "nullableString", "type": ["null", "string"]}],
    }
    return {
        "name": "RecordWithObjectDefault",
        "type": "record",
        "fields": [{"name": "obj", **obj_default, "type": inner}],
    }


def test_nested_record_with_null_default() -> None:
    avro = _record_with_object({"default": {"nullableString": None}}, {})
    _, value = to_connect_data(avro, {"obj": {"nullableString": None}})
    assert value == {"obj": {"nullableString": None}}


def test_nested_record_with_invalid_default() -> None:
    avro = _record_with_object({}, {"connect.default": [1.23]})
    _, value = to_connect_data(avro, {"obj": {"nullableString": None}})
    assert value == {"obj": {"nullableString": None}}


def test_array_of_record_with_null_namespace() -> None:
    avro = {
        "type": "array",
        "items": {"type": "record", "name": "item", "fields": [{"name": "value", "type": "int"}]},
    }
    assert to_connect_schema(avro) == array(struct(("value", INT32), name="item"))


def _message(connect_version: int, connect_name: str) -> Any:
    created = {
        "type": "long",
        "connect.doc": "When this message was received.",
        "connect.version": connect_version,
        "connect.name": connect_name,
        "logicalType": "timestamp-millis",
    }
    return {
        "type": "record",
        "name": "Message",
        "namespace": "org.cmatta.kafka.connect.irc",
        "fields": [{"name": "createdat", "type": created}],
    }


def test_logical_type_with_matching_name_and_version() -> None:
    f = to_connect_schema(_message(1, TIMESTAMP)).field("createdat")
    assert f is not None
    assert f.schema.name == TIMESTAMP


def test_logical_type_with_mismatching_name() -> None:
    with pytest.raises(
        ValueError,
        match=r"^Mismatched names: name already added to SchemaBuilder "
        r"\(org\.apache\.kafka\.connect\.data\.Timestamp\) differs from name in source schema "
        r"\(com\.custom\.Timestamp\)$",
    ):
        to_connect_schema(_message(1, "com.custom.Timestamp"))


def test_logical_type_with_mismatching_version() -> None:
    with pytest.raises(
        ValueError,
        match=r"^Mismatched versions: version already added to SchemaBuilder \(1\) differs from "
        r"version in source schema \(2\)$",
    ):
        to_connect_schema(_message(2, TIMESTAMP))


# The cycle tests: recursive Avro schemas are a documented difference (README, "Not supported:
# recursive schemas"): ours refuse them.

RECURSIVE = r"^recursive Avro schemas are not supported \({name} refers to itself\)$"


def _refused(avro: Any, name: str) -> None:
    with pytest.raises(ValueError, match=RECURSIVE.format(name=name)):
        to_connect_schema(avro)


def test_cyclical_avro_schema() -> None:
    next_field = {"name": "next", "type": ["null", "linked_list"], "default": None}
    fields = [{"name": "value", "type": "long"}, next_field]
    _refused({"type": "record", "name": "linked_list", "fields": fields}, "linked_list")


def test_array_cycle() -> None:
    friends = {"type": ["null", {"type": "array", "items": "Users"}], "default": None}
    fields = [{"name": "name", "type": "string"}, {"name": "friends", **friends}]
    _refused({"type": "record", "name": "Users", "fields": fields}, "Users")


def test_map_cycle() -> None:
    siblings = {"type": ["null", {"type": "map", "values": "Node"}], "default": None}
    fields = [{"name": "value", "type": "long"}, {"name": "siblings", **siblings}]
    _refused({"type": "record", "name": "Node", "fields": fields}, "Node")


def test_union_cycle() -> None:
    fields = [
        {"name": "name", "type": "string"},
        {"name": "follows", "type": ["null", "string", "Person"]},
    ]
    _refused({"type": "record", "name": "Person", "fields": fields}, "Person")


def test_record_union_multiple_type_cycle() -> None:
    avro = {
        "fields": [{"default": "", "name": "field1", "type": ["string", "int", "float"]}],
        "name": "TestRecord",
        "type": "record",
    }
    schema = to_connect_schema(avro, version=1)
    assert from_connect_schema(schema) is not None
    reader = connect_reader(avro, version=1)
    datum = {"field1": "value1"}
    value = reader.read(io.BytesIO(encode(avro, datum)))
    assert value == {"field1": {"string": "value1", "int": None, "float": None}}
    assert reader.read(io.BytesIO(encode(avro, datum))) == value
    assert reader.schema is not None
    assert from_connect_data(reader.schema, value) == datum


def test_to_connect_narrow_ints_wrap_as_java_casts() -> None:
    # No Java test: toConnectData's ((Integer) value).byteValue() / shortValue() wrap an Avro
    # int beyond the Connect type's range (a writer other than AvroData may write one).
    check({"type": "int", "connect.type": "int8"}, 300, INT8, 44)
    check({"type": "int", "connect.type": "int8"}, -129, INT8, 127)
    check({"type": "int", "connect.type": "int16"}, 65535, INT16, -1)
    avro = {"type": "array", "items": ["null", {"type": "int", "connect.type": "int8"}]}
    check(avro, [128, None], array(ConnectSchema(Type.INT8, optional=True)), [-128, None])
