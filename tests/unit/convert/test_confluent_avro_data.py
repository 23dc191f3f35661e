"""Confluent's ``AvroDataTest`` (schema-registry 794611bd, module avro-data), Connect -> Avro
half (``fromConnectSchema`` / ``fromConnectData``), one test per Java test method.

Avro schemas are compared as the JSON trees Avro Java's ``Schema.toString()`` prints for the
schema the Java test builds (key order aside, which Avro's ``Schema.equals`` ignores too); datums
are fastavro's (records are dicts, fixed and bytes are ``bytes``, enums their symbol, a named
union member ``(name, datum)``). Skipped: the tests of settings our AvroData does not have
(``scrub.invalid.names``, ``generalized.sum.type.support``, ``ignore.default.for.nullables``),
of the ``variant`` logical type, and of the schema caches' internals.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from struct import pack, unpack
from typing import Any

import pytest

from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Type
from s3connect.convert.avro_anything import ANYTHING_SCHEMA_JSON, anything_datum
from s3connect.convert.avro_data import (
    AVRO_UNION,
    AvroDataOptions,
    compile_to_avro,
    to_avro_value,
)
from tests.unit.convert.confluent_avro_help import (
    BOOLEAN,
    BYTES,
    DATE_SCHEMA,
    DEFAULTS,
    ENHANCED,
    FIXED_SIZE,
    FLOAT32,
    FLOAT64,
    INT8,
    INT16,
    INT32,
    INT64,
    NS,
    OPT_BOOLEAN,
    OPT_INT64,
    OPT_STRING,
    PRECISION,
    STRING,
    TIME_SCHEMA,
    TIMESTAMP_SCHEMA,
    array,
    convert_to_connect,
    decimal_schema,
    encode,
    from_connect_data,
    from_connect_schema,
    map_of,
    struct,
    to_connect_data,
)

TEST_DECIMAL = Decimal("1.56")
TEST_DECIMAL_BYTES = bytes([0, 0x9C])  # new byte[]{0, -100}
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
EPOCH_PLUS_TEN_THOUSAND_DAYS = date(1970, 1, 1) + timedelta(days=10000)
EPOCH_PLUS_TEN_THOUSAND_MILLIS = time(0, 0, 10)
NOW = datetime(2026, 11, 29, 5, 57, 12, 345000, tzinfo=UTC)  # new java.util.Date()
NOW_MILLIS = int((NOW - EPOCH).total_seconds() * 1000)

F32_12_2 = unpack("f", pack("f", 12.2))[0]  # Java's 12.2f

NAMED_MAP_SCHEMA = map_of(OPT_STRING, INT32, name="foo.bar")
NAMED_AVRO_MAP_SCHEMA = {
    "type": "array",
    "items": {
        "type": "record",
        "name": "bar",
        "namespace": "foo",
        "fields": [
            {"name": "key", "type": ["null", "string"], "default": None},
            {"name": "value", "type": "int"},
        ],
        "connect.internal.type": "MapEntry",
    },
    "connect.name": "foo.bar",
}
MAP_ENTRY_INT_INT = {
    "type": "record",
    "name": "MapEntry",
    "namespace": NS,
    "fields": [{"name": "key", "type": "int"}, {"name": "value", "type": "int"}],
}


def without(node: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in node.items() if k != key}


def check_non_record_conversion(
    expected_schema: Any,
    expected: Any,
    schema: ConnectSchema,
    value: Any,
    options: AvroDataOptions = DEFAULTS,
) -> None:
    """AvroDataTest.checkNonRecordConversion: the schema and the container's value."""
    assert from_connect_schema(schema, options) == expected_schema
    assert from_connect_data(schema, value, options) == expected


def check_non_record_conversion_null(schema: ConnectSchema) -> None:
    assert from_connect_data(schema, None) is None


def decimal_avro(precision: int, scale: int = 2, fixed_size: int = 0) -> dict[str, Any]:
    """AvroDataTest.createDecimalSchema(required=true, precision, scale, fixedSize)."""
    params = {"scale": str(scale), PRECISION: str(precision)}
    avro: dict[str, Any] = {"type": "bytes"}
    if fixed_size:
        avro = {
            "type": "fixed",
            "name": "Decimal",
            "namespace": "org.apache.kafka.connect.data",
            "size": fixed_size,
        }
        params[FIXED_SIZE] = str(fixed_size)
    return {
        **avro,
        "scale": scale,
        "precision": precision,
        "connect.version": 1,
        "connect.parameters": params,
        "connect.name": DECIMAL,
        "logicalType": "decimal",
    }


def test_from_connect_boolean() -> None:
    check_non_record_conversion("boolean", True, BOOLEAN, True)
    check_non_record_conversion_null(OPT_BOOLEAN)


def test_from_connect_byte() -> None:
    check_non_record_conversion({"type": "int", "connect.type": "int8"}, 12, INT8, 12)
    check_non_record_conversion_null(ConnectSchema(Type.INT8, optional=True))


def test_from_connect_short() -> None:
    check_non_record_conversion({"type": "int", "connect.type": "int16"}, 12, INT16, 12)
    check_non_record_conversion_null(ConnectSchema(Type.INT16, optional=True))


def test_from_connect_integer() -> None:
    check_non_record_conversion("int", 12, INT32, 12)
    check_non_record_conversion_null(ConnectSchema(Type.INT32, optional=True))


def test_from_connect_long() -> None:
    check_non_record_conversion("long", 12, INT64, 12)
    check_non_record_conversion_null(OPT_INT64)


def test_from_connect_float() -> None:
    check_non_record_conversion("float", 12.2, FLOAT32, 12.2)
    check_non_record_conversion_null(ConnectSchema(Type.FLOAT32, optional=True))


def test_from_connect_double() -> None:
    check_non_record_conversion("double", 12.2, FLOAT64, 12.2)
    check_non_record_conversion_null(ConnectSchema(Type.FLOAT64, optional=True))


def test_from_connect_bytes() -> None:
    check_non_record_conversion("bytes", b"foo", BYTES, b"foo")
    check_non_record_conversion_null(ConnectSchema(Type.BYTES, optional=True))


def test_from_connect_string() -> None:
    check_non_record_conversion("string", "string", STRING, "string")
    check_non_record_conversion_null(OPT_STRING)


def test_from_connect_enum() -> None:
    avro = {
        "type": "enum",
        "name": "enum",
        "symbols": ["one", "two", "three"],
        "connect.parameters": {
            "connect.enum.doc": "null",
            "io.confluent.connect.avro.Enum": "enum",
            "io.confluent.connect.avro.Enum.one": "one",
            "io.confluent.connect.avro.Enum.two": "two",
            "io.confluent.connect.avro.Enum.three": "three",
        },
        "connect.name": "enum",
    }
    schema, value = to_connect_data(avro, "one")
    assert schema is not None
    check_non_record_conversion(avro, "one", schema, value, ENHANCED)


def test_from_connect_map_with_string_key() -> None:
    assert from_connect_schema(map_of(STRING, INT32)) == {"type": "map", "values": "int"}


def test_from_connect_map_with_optional_key() -> None:
    assert from_connect_schema(map_of(OPT_STRING, INT32)) == {
        "type": "array",
        "items": {
            "type": "record",
            "name": "MapEntry",
            "namespace": NS,
            "fields": [
                {"name": "key", "type": ["null", "string"], "default": None},
                {"name": "value", "type": "int"},
            ],
        },
    }


def test_from_connect_map_with_allow_optional_key() -> None:
    options = AvroDataOptions(allow_optional_map_keys=True)
    assert from_connect_schema(map_of(OPT_STRING, OPT_STRING), options) == {
        "type": "map",
        "values": ["null", "string"],
    }


def test_from_connect_map_with_non_string_key() -> None:
    assert from_connect_schema(map_of(INT32, INT32)) == {
        "type": "array",
        "items": MAP_ENTRY_INT_INT,
    }


def test_from_named_connect_map_with_non_string_key() -> None:
    assert from_connect_schema(NAMED_MAP_SCHEMA) == NAMED_AVRO_MAP_SCHEMA


def test_from_connect_bytes_fixed() -> None:
    avro = {
        "type": "fixed",
        "name": "sample",
        "size": 4,
        "connect.parameters": {FIXED_SIZE: "4"},
        "connect.name": "sample",
    }
    schema, value = to_connect_data(avro, b"foob")
    assert schema is not None
    check_non_record_conversion(avro, b"foob", schema, value)


def test_from_connect_fixed_union() -> None:
    def fixed(name: str, size: str) -> ConnectSchema:
        return ConnectSchema(Type.BYTES, name=name, optional=True, parameters={FIXED_SIZE: size})

    union = struct(
        ("sample", fixed("sample", "4")),
        ("other", fixed("other", "6")),
        ("sameOther", fixed("sameOther", "6")),
        name=AVRO_UNION,
    )
    union_avro = [
        {"type": "fixed", "name": "sample", "size": 4},
        {"type": "fixed", "name": "other", "size": 6},
        {"type": "fixed", "name": "sameOther", "size": 6},
    ]
    empty = {"sample": None, "other": None, "sameOther": None}
    for index, (member, raw) in enumerate(
        (("sample", b"foob"), ("other", b"foobar"), ("sameOther", b"foobar"))
    ):
        datum = to_avro_value(union, {**empty, member: raw})
        # GenericData.resolveUnion: the branch the datum is written as.
        assert encode(union_avro, datum)[0] == 2 * index


def test_from_connect_complex() -> None:
    schema = struct(
        ("int8", ConnectSchema(Type.INT8, default=2, doc="int8 field")),
        ("int16", INT16),
        ("int32", INT32),
        ("int64", INT64),
        ("float32", FLOAT32),
        ("float64", FLOAT64),
        ("boolean", BOOLEAN),
        ("string", STRING),
        ("bytes", BYTES),
        ("array", array(STRING)),
        ("map", map_of(STRING, INT32)),
        ("mapNonStringKeys", map_of(INT32, INT32)),
    )
    value = {
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
    int8 = {"type": "int", "connect.doc": "int8 field", "connect.default": 2}
    assert from_connect_schema(schema) == {
        "type": "record",
        "name": "ConnectDefault",
        "namespace": NS,
        "fields": [
            {"name": "int8", "type": {**int8, "connect.type": "int8"}, "default": 2},
            {"name": "int16", "type": {"type": "int", "connect.type": "int16"}},
            {"name": "int32", "type": "int"},
            {"name": "int64", "type": "long"},
            {"name": "float32", "type": "float"},
            {"name": "float64", "type": "double"},
            {"name": "boolean", "type": "boolean"},
            {"name": "string", "type": "string"},
            {"name": "bytes", "type": "bytes"},
            {"name": "array", "type": {"type": "array", "items": "string"}},
            {"name": "map", "type": {"type": "map", "values": "int"}},
            {
                "name": "mapNonStringKeys",
                # MapEntry shares the record's namespace: toString() leaves it out.
                "type": {"type": "array", "items": without(MAP_ENTRY_INT_INT, "namespace")},
            },
        ],
    }
    assert from_connect_data(schema, value) == {
        **value,
        "mapNonStringKeys": [{"key": 1, "value": 1}],
    }


def test_from_connect_complex_with_default_struct_containing_nulls() -> None:
    fields = (
        ("int8", ConnectSchema(Type.INT8, optional=True, doc="int8 field")),
        ("int16", ConnectSchema(Type.INT16, optional=True, doc="int16 field")),
        ("int32", ConnectSchema(Type.INT32, optional=True, doc="int32 field")),
        ("int64", ConnectSchema(Type.INT64, optional=True, doc="int64 field")),
        ("float32", ConnectSchema(Type.FLOAT32, optional=True, doc="float32 field")),
        ("float64", ConnectSchema(Type.FLOAT64, optional=True, doc="float64 field")),
        ("boolean", ConnectSchema(Type.BOOLEAN, optional=True, doc="bool field")),
        ("string", ConnectSchema(Type.STRING, optional=True, doc="string field")),
        ("bytes", ConnectSchema(Type.BYTES, optional=True, doc="bytes field")),
        ("array", array(STRING, optional=True)),
        ("map", map_of(STRING, INT32, optional=True)),
        ("date", ConnectSchema(Type.INT32, name=DATE, version=1, optional=True, doc="date field")),
        ("time", ConnectSchema(Type.INT32, name=TIME, version=1, optional=True, doc="time field")),
        ("ts", ConnectSchema(Type.INT64, name=TIMESTAMP, version=1, optional=True, doc="ts field")),
        ("decimal", decimal_schema(5, optional=True, doc="decimal field")),
    )
    default = {name: None for name, _ in fields} | {"int8": 2}
    avro = from_connect_schema(struct(*fields, default=default))
    assert avro is not None
    assert avro["connect.default"] == default


def test_from_connect_complex_with_defaults() -> None:
    date_def_val, time_def_val = 100, 1000 * 60 * 60 * 2
    ts_def_val = 1471229028  # Java: the int 1000 * 60 * 60 * 24 * 365 (overflowed) + 100
    date_def = date(1970, 1, 1) + timedelta(days=date_def_val)
    time_def = time(2)
    ts_def = EPOCH + timedelta(milliseconds=ts_def_val)
    decimal_def = Decimal("3.14159")
    decimal_def_val = (314159).to_bytes(3, "big")
    schema = struct(
        ("int8", ConnectSchema(Type.INT8, default=2, doc="int8 field")),
        ("int16", ConnectSchema(Type.INT16, default=12, doc="int16 field")),
        ("int32", ConnectSchema(Type.INT32, default=12, doc="int32 field")),
        ("int64", ConnectSchema(Type.INT64, default=12, doc="int64 field")),
        ("float32", ConnectSchema(Type.FLOAT32, default=12.2, doc="float32 field")),
        ("float64", ConnectSchema(Type.FLOAT64, default=12.2, doc="float64 field")),
        ("boolean", ConnectSchema(Type.BOOLEAN, default=True, doc="bool field")),
        ("string", ConnectSchema(Type.STRING, default="foo", doc="string field")),
        ("bytes", ConnectSchema(Type.BYTES, default=b"foo", doc="bytes field")),
        ("array", array(STRING, default=["a", "b", "c"])),
        ("map", map_of(STRING, INT32, default={"field": 1})),
        ("date", ConnectSchema(**_logical(DATE, date_def, "date field"))),
        ("time", ConnectSchema(**_logical(TIME, time_def, "time field"))),
        ("ts", ConnectSchema(**_logical(TIMESTAMP, ts_def, "ts field"))),
        ("decimal", decimal_schema(5, default=decimal_def, doc="decimal field")),
    )
    value = {
        "int8": 2,
        "int16": 12,
        "int32": 12,
        "int64": 12,
        "float32": F32_12_2,
        "float64": 12.2,
        "boolean": True,
        "string": "foo",
        "bytes": b"foo",
        "array": ["a", "b", "c"],
        "map": {"field": 1},
        "date": date_def,
        "time": time_def,
        "ts": ts_def,
        "decimal": decimal_def,
    }

    def prim(kind: str, doc: str, default: Any, **more: Any) -> dict[str, Any]:
        return {"type": kind, "connect.doc": doc, "connect.default": default, **more}

    def logical(kind: str, name: str, avro_logical: str, doc: str, default: int) -> Any:
        extra = {"connect.name": name, "connect.version": 1, "logicalType": avro_logical}
        return prim(kind, doc, default, **extra)

    decimal_type = prim(
        "bytes",
        "decimal field",
        decimal_def_val.decode("latin-1"),
        scale=5,
        precision=64,
        **{
            "connect.version": 1,
            "connect.parameters": {"scale": "5"},
            "connect.name": DECIMAL,
            "logicalType": "decimal",
        },
    )
    types = [
        ("int8", prim("int", "int8 field", 2, **{"connect.type": "int8"}), 2),
        ("int16", prim("int", "int16 field", 12, **{"connect.type": "int16"}), 12),
        ("int32", prim("int", "int32 field", 12), 12),
        ("int64", prim("long", "int64 field", 12), 12),
        ("float32", prim("float", "float32 field", 12.2), 12.2),
        ("float64", prim("double", "float64 field", 12.2), 12.2),
        ("boolean", prim("boolean", "bool field", True), True),
        ("string", prim("string", "string field", "foo"), "foo"),
        ("bytes", prim("bytes", "bytes field", "foo"), "foo"),
        ("array", {"type": "array", "items": "string", "connect.default": ["a", "b", "c"]}, None),
        ("map", {"type": "map", "values": "int", "connect.default": {"field": 1}}, None),
        ("date", logical("int", DATE, "date", "date field", date_def_val), date_def_val),
        ("time", logical("int", TIME, "time-millis", "time field", time_def_val), time_def_val),
        ("ts", logical("long", TIMESTAMP, "timestamp-millis", "ts field", ts_def_val), None),
        ("decimal", decimal_type, decimal_def_val.decode("latin-1")),
    ]
    avro = {
        "type": "record",
        "name": "ConnectDefault",
        "namespace": NS,
        "fields": [
            {"name": n, "type": t, "default": d if d is not None else t["connect.default"]}
            for n, t, d in types
        ],
    }
    datum = {
        **value,
        "date": date_def_val,
        "time": time_def_val,
        "ts": ts_def_val,
        "decimal": decimal_def_val,
    }
    schema_and_value = (schema, value)
    for _ in range(3):
        back_schema, back_value = convert_to_connect(avro, datum, *schema_and_value)
        assert back_schema is not None
        schema_and_value = (back_schema, back_value)


def _logical(name: str, default: Any, doc: str) -> dict[str, Any]:
    kind = Type.INT64 if name == TIMESTAMP else Type.INT32
    return {"type": kind, "name": name, "version": 1, "default": default, "doc": doc}


def test_from_connect_optional_and_non_optional_struct() -> None:
    inner = struct(("value", INT64), name="inner", optional=True)
    outer = struct(("struct", inner), ("array", array(inner)), name="outer")
    inner_value = {"value": 46421}
    value = {"struct": inner_value, "array": [inner_value]}
    record = {
        "type": "record",
        "name": "inner",
        "fields": [{"name": "value", "type": "long"}],
        "connect.name": "inner",
    }
    avro = {
        "type": "record",
        "name": "outer",
        "fields": [
            {"name": "struct", "type": ["null", record], "default": None},
            {"name": "array", "type": {"type": "array", "items": ["null", "inner"]}},
        ],
        "connect.name": "outer",
    }
    assert convert_to_connect(avro, value, outer, value) is not None


def test_from_connect_structs_with_null_name() -> None:
    inner = struct(("value", INT64), optional=True)
    outer = struct(("struct", inner), ("array", array(inner)))
    inner_value = {"value": 46421}
    value = {"struct": inner_value, "array": [inner_value]}
    record = {
        "type": "record",
        "name": "ConnectDefault2",
        "fields": [{"name": "value", "type": "long"}],
    }
    avro = {
        "type": "record",
        "name": "ConnectDefault",
        "namespace": NS,
        "fields": [
            {"name": "struct", "type": ["null", record], "default": None},
            {"name": "array", "type": {"type": "array", "items": ["null", "ConnectDefault2"]}},
        ],
    }
    assert convert_to_connect(avro, value, outer, value) is not None


def test_from_connect_optional_with_default_null() -> None:
    schema = struct(("optionalBool", OPT_BOOLEAN))
    assert from_connect_schema(schema) == {
        "type": "record",
        "name": "ConnectDefault",
        "namespace": NS,
        "fields": [{"name": "optionalBool", "type": ["null", "boolean"], "default": None}],
    }
    assert from_connect_data(schema, {"optionalBool": True}) == {"optionalBool": True}


def test_from_connect_optional_with_invalid_default() -> None:
    schema = struct(("array", array(OPT_STRING, default=["a", "b", "c"])))
    array_avro = {
        "type": "array",
        "items": ["null", "string"],
        "connect.default": ["a", "b", "c"],
    }
    assert from_connect_schema(schema) == {
        "type": "record",
        "name": "ConnectDefault",
        "namespace": NS,
        "fields": [{"name": "array", "type": array_avro, "default": ["a", "b", "c"]}],
    }
    value = {"array": ["a", "b", "c"]}
    assert from_connect_data(schema, value) == value


def test_from_connect_optional_anonymous_struct() -> None:
    schema = struct(("int32", INT32), optional=True)
    assert from_connect_data(schema, {"int32": 12}) == {"int32": 12}


def test_from_connect_optional_complex() -> None:
    optional_struct = struct(("int32", INT32), name="optionalStruct", optional=True)
    schema = struct(
        ("int32", INT32),
        ("optionalStruct", optional_struct),
        ("optionalArray", array(INT32, optional=True)),
        ("optionalMap", map_of(STRING, INT32, optional=True)),
        ("optionalMapNonStringKeys", map_of(INT32, INT32, optional=True)),
    )
    value = {
        "int32": 12,
        "optionalStruct": {"int32": 12},
        "optionalArray": [12, 13],
        "optionalMap": {"field": 12},
        "optionalMapNonStringKeys": {123: 12},
    }
    assert from_connect_data(schema, value) == {
        **value,
        "optionalMapNonStringKeys": [{"key": 123, "value": 12}],
    }
    nulls = {name: None for name in value} | {"int32": 12}
    assert from_connect_data(schema, nulls) == nulls


def test_from_connect_optional_primitive_with_metadata() -> None:
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
    check_non_record_conversion([string, "null"], "string", schema, "string")
    assert from_connect_schema(schema) != ["string", "null"]  # the wrongAvroSchema
    # Null is null again: the default stands in for a null only in a struct's field.
    check_non_record_conversion_null(schema)


def test_from_connect_record_with_metadata() -> None:
    schema = struct(("int32", INT32), name="io.confluent.test.TestSchema", version=12, doc="doc")
    assert from_connect_schema(schema) == {
        "type": "record",
        "name": "TestSchema",
        "namespace": "io.confluent.test",
        "fields": [{"name": "int32", "type": "int"}],
        "connect.name": "io.confluent.test.TestSchema",
        "connect.version": 12,
        "connect.doc": "doc",
    }
    assert from_connect_data(schema, {"int32": 12}) == {"int32": 12}


def test_from_connect_logical_decimal_new() -> None:
    schema = decimal_schema(2, params={PRECISION: "64"})
    check_non_record_conversion(decimal_avro(64), TEST_DECIMAL_BYTES, schema, TEST_DECIMAL)
    check_non_record_conversion_null(decimal_schema(2, optional=True))


def test_from_connect_logical_decimal_fixed_new() -> None:
    schema = decimal_schema(2, params={PRECISION: "64", FIXED_SIZE: "100"})
    fixed_100 = bytes(98) + TEST_DECIMAL_BYTES  # sign-extended to the fixed size
    check_non_record_conversion(decimal_avro(64, 2, 100), fixed_100, schema, TEST_DECIMAL)
    check_non_record_conversion_null(decimal_schema(2, optional=True))


def test_from_connect_logical_date_new() -> None:
    avro = {"type": "int", "connect.name": DATE, "connect.version": 1, "logicalType": "date"}
    check_non_record_conversion(avro, 10000, DATE_SCHEMA, EPOCH_PLUS_TEN_THOUSAND_DAYS)


def test_from_connect_logical_time_new() -> None:
    avro = {"type": "int", "connect.name": TIME, "connect.version": 1, "logicalType": "time-millis"}
    check_non_record_conversion(avro, 10000, TIME_SCHEMA, EPOCH_PLUS_TEN_THOUSAND_MILLIS)


def test_from_connect_logical_timestamp_new() -> None:
    avro = {
        "type": "long",
        "connect.name": TIMESTAMP,
        "connect.version": 1,
        "logicalType": "timestamp-millis",
    }
    check_non_record_conversion(avro, NOW_MILLIS, TIMESTAMP_SCHEMA, NOW)


def test_from_connect_logical_decimal_scale_greater_than_precision() -> None:
    test_decimal = Decimal("0.0012358")  # unscaled 12358, scale 7
    schema = decimal_schema(7, params={PRECISION: "5"})
    expected = (12358).to_bytes(2, "big")
    check_non_record_conversion(decimal_avro(5, 7), expected, schema, test_decimal)
    check_non_record_conversion_null(decimal_schema(7, optional=True))


def test_from_connect_logical_decimal() -> None:
    schema = decimal_schema(2, params={PRECISION: "64"})
    check_non_record_conversion(decimal_avro(64), TEST_DECIMAL_BYTES, schema, TEST_DECIMAL)
    check_non_record_conversion_null(decimal_schema(2, optional=True))


def test_from_connect_logical_decimal_fixed() -> None:
    schema = decimal_schema(2, params={PRECISION: "64", FIXED_SIZE: "100"})
    fixed_100 = bytes(98) + TEST_DECIMAL_BYTES
    check_non_record_conversion(decimal_avro(64, 2, 100), fixed_100, schema, TEST_DECIMAL)
    check_non_record_conversion_null(decimal_schema(2, optional=True))


def _fixed_decimal_row(scale: int, precision: str, size: str) -> ConnectSchema:
    amount = decimal_schema(scale, params={PRECISION: precision, FIXED_SIZE: size})
    return struct(("amount", amount), name="row")


def test_from_connect_logical_decimal_fixed_serializes_short_unscaled_value() -> None:
    schema = _fixed_decimal_row(9, "38", "16")
    expected = Decimal(0).scaleb(-9)
    converted = from_connect_data(schema, {"amount": expected})
    assert len(converted["amount"]) == 16
    _, value = to_connect_data(from_connect_schema(schema), converted)
    assert value["amount"] == expected


def test_from_connect_logical_decimal_fixed_serializes_negative_unscaled_value() -> None:
    schema = _fixed_decimal_row(9, "38", "16")
    expected = Decimal(-1).scaleb(-9)
    converted = from_connect_data(schema, {"amount": expected})
    assert converted["amount"] == b"\xff" * 16
    _, value = to_connect_data(from_connect_schema(schema), converted)
    assert value["amount"] == expected


def test_from_connect_non_decimal_fixed_does_not_pad_short_value() -> None:
    # AvroData passes the 4 bytes through and Avro's writer then fails on them; ours fails when
    # converting: either way the value is not written, and not padded.
    fixed = ConnectSchema(Type.BYTES, name="myFixed", parameters={FIXED_SIZE: "16"})
    schema = struct(("id", fixed), name="row")
    with pytest.raises(ValueError, match="4 bytes for the fixed type myFixed of 16 bytes"):
        to_avro_value(schema, {"id": bytes([1, 2, 3, 4])})


def test_from_connect_logical_decimal_fixed_too_small_for_unscaled_value_throws() -> None:
    schema = _fixed_decimal_row(0, "4", "2")
    with pytest.raises(
        ValueError, match=r"^Unscaled value byte array length 3 is greater than fixed size 2$"
    ):
        to_avro_value(schema, {"amount": Decimal(100000)})


def test_from_connect_logical_date() -> None:
    avro = {"type": "int", "connect.name": DATE, "connect.version": 1, "logicalType": "date"}
    check_non_record_conversion(avro, 10000, DATE_SCHEMA, EPOCH_PLUS_TEN_THOUSAND_DAYS)


def test_from_connect_logical_time() -> None:
    avro = {"type": "int", "connect.name": TIME, "connect.version": 1, "logicalType": "time-millis"}
    check_non_record_conversion(avro, 10000, TIME_SCHEMA, EPOCH_PLUS_TEN_THOUSAND_MILLIS)


def test_from_connect_logical_timestamp() -> None:
    avro = {
        "type": "long",
        "connect.name": TIMESTAMP,
        "connect.version": 1,
        "logicalType": "timestamp-millis",
    }
    check_non_record_conversion(avro, NOW_MILLIS, TIMESTAMP_SCHEMA, NOW)


def _mismatch(schema: ConnectSchema, value: Any, message: str) -> None:
    """A DataException from fromConnectData (the reference and the compiled converter)."""
    with pytest.raises(ValueError, match=f"^{message}$"):
        to_avro_value(schema, value)
    with pytest.raises(ValueError, match=f"^{message}$"):
        compile_to_avro(schema)(value)


def test_from_connect_mismatch_schema_primitive() -> None:
    _mismatch(OPT_BOOLEAN, 12, "Invalid type for BOOLEAN: class java.lang.Long")


def test_from_connect_mismatch_schema_primitive_required() -> None:
    _mismatch(BOOLEAN, None, "Found null value for non-optional schema")


def test_from_connect_mismatch_schema_array() -> None:
    _mismatch(array(BOOLEAN), [12], "Invalid type for BOOLEAN: class java.lang.Long")


def test_from_connect_mismatch_schema_map_with_string_key_mismatch_key() -> None:
    # AvroData's (String) cast of the key fails inside the map's conversion.
    _mismatch(map_of(STRING, INT32), {True: 12}, "Invalid type for MAP: class java.util.HashMap")


def test_from_connect_mismatch_schema_map_with_string_key_mismatch_value() -> None:
    # Java's Long 12L in an INT32 map; ours: a value out of the INT32 range.
    _mismatch(
        map_of(STRING, INT32), {"foobar": 2**40}, "Invalid type for INT32: class java.lang.Long"
    )


def test_from_connect_mismatch_schema_map_with_non_string_key_mismatch_key() -> None:
    _mismatch(map_of(INT32, INT32), {True: 12}, "Invalid type for INT32: class java.lang.Boolean")


def test_from_connect_mismatch_schema_map_with_non_string_key_mismatch_value() -> None:
    _mismatch(map_of(INT32, INT32), {12: 2**40}, "Invalid type for INT32: class java.lang.Long")


def test_from_connect_mismatch_schema_record() -> None:
    # A struct of another schema: "Mismatching struct schema"; ours holds no schema in a struct
    # value, so the null of the required field is what fails.
    first = struct(("foo", BOOLEAN))
    _mismatch(first, {"foo": None}, "Found null value for non-optional schema")


def test_from_connect_schemaless() -> None:
    # fromConnectData(null, value): the Anything record of the value's Java type (a schemaless
    # integer is a Long in our value model, where AvroDataTest's bytes, shorts and ints go to
    # the int field); a null inside an array or map: a record with no field set.
    int_record, string_record, null_record = {"long": 12}, {"string": "teststring"}, {}
    assert anything_datum(12) == int_record
    assert anything_datum(12.2) == {"double": 12.2}
    assert anything_datum(True) == {"boolean": True}
    assert anything_datum("teststring") == string_record
    assert anything_datum([12, "teststring", None]) == {
        "array": [int_record, string_record, null_record]
    }
    assert anything_datum({12: "teststring", 13: None}) == {
        "map": [
            {"key": int_record, "value": string_record},
            {"key": {"long": 13}, "value": null_record},
        ]
    }
    # Written with ANYTHING_SCHEMA and read back.
    _, value = to_connect_data(
        json.loads(ANYTHING_SCHEMA_JSON), anything_datum({12: "x", 13: None})
    )
    assert value == {12: "x", 13: None}


# The enum tests read with AvroData's reading defaults (our AvroConverter has no enhanced
# schema support: a union's named members are fields named by their short names), then write
# with enhanced schema support, as the S3 sink does.

ENUM_TEST = {
    "namespace": "foo.bar",
    "type": "record",
    "name": "EnumTest",
    "fields": [
        {"name": "testkey", "type": "string"},
        {
            "name": "kind",
            "type": {"name": "Kind", "type": "enum", "symbols": ["ONE", "TWO", "THREE"]},
        },
    ],
}
USER_TYPE = {"type": "enum", "name": "UserType", "symbols": ["ANONYMOUS", "REGISTERED"]}


def _user_type_record(name: str, *members: Any) -> dict[str, Any]:
    return {
        "type": "record",
        "name": name,
        "namespace": "com.connect.avro",
        "fields": [{"name": "userType", "type": ["null", *members], "default": None}],
    }


def _union_index(avro: dict[str, Any], datum: Any) -> int:
    """GenericData.resolveUnion of the record's first field: its branch, as written."""
    return encode(avro, datum)[0] // 2


def test_enum() -> None:
    schema, value = to_connect_data(ENUM_TEST, {"testkey": "name", "kind": "ONE"})
    assert schema is not None
    assert from_connect_schema(schema, ENHANCED)["fields"][1]["type"]["type"] == "enum"
    assert from_connect_data(schema, value, ENHANCED) == {"testkey": "name", "kind": "ONE"}


def test_enum_union() -> None:
    avro = _user_type_record("EnumUnion", USER_TYPE)
    schema, value = to_connect_data(avro, {"userType": "ANONYMOUS"})
    assert schema is not None
    datum = from_connect_data(schema, value, ENHANCED)
    assert _union_index(from_connect_schema(schema, ENHANCED), datum) == 1


def test_enum_union_null_value() -> None:
    avro = _user_type_record("EnumUnion", USER_TYPE)
    schema, value = to_connect_data(avro, {"userType": None})
    assert schema is not None
    assert from_connect_data(schema, value, ENHANCED) == {"userType": None}


def test_enum_string_union() -> None:
    avro = _user_type_record("EnumStringUnion", "string", USER_TYPE)
    schema, value = to_connect_data(avro, {"userType": ("com.connect.avro.UserType", "ANONYMOUS")})
    assert schema is not None
    datum = from_connect_data(schema, value, ENHANCED)
    assert _union_index(from_connect_schema(schema, ENHANCED), datum) == 2


def test_enum_string_union_generic() -> None:
    enum_field = {"type": "enum", "name": "testEnum", "namespace": "com", "symbols": list("ABCD")}
    avro = {
        "type": "record",
        "name": "EnumUnionTest",
        "namespace": "com",
        "fields": [{"name": "id", "type": ["null", "string", enum_field]}],
    }
    for datum, branch in (
        ({"id": None}, 0),
        ({"id": "teststring"}, 1),
        ({"id": ("com.testEnum", "A")}, 2),
    ):
        schema, value = to_connect_data(avro, datum)
        assert schema is not None
        converted = from_connect_data(schema, value, ENHANCED)
        written = from_connect_schema(schema, ENHANCED)
        assert encode(written, converted) == encode(avro, datum)
        assert _union_index(written, converted) == branch
