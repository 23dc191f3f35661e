"""AvroData (``convert/avro_data.py``) against Confluent's own: golden cases from
``AvroDataTest`` / ``AdditionalAvroDataTest`` (schema-registry v8.3.1, module avro-data) with the
converter's default config, and random Connect schemas round-tripped as AvroData does.

Avro schemas are written as JSON; ``AvroDataTest`` builds the same ones with Avro's
``SchemaBuilder``. Connect schemas use Kafka's logical schemas as their builders make them
(``Date.SCHEMA`` and friends carry version 1).
"""

from __future__ import annotations

import io
import json
import random
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any

import fastavro
import pytest

from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.convert.avro_data import (
    AVRO_DATA_CONFIG,
    AVRO_ENUM,
    AVRO_UNION,
    FIELD_DEFAULT_FLAG,
    RECORD_DOC,
    avro_schema,
    avro_schema_json,
    connect_reader,
    to_avro_value,
    to_connect_schema,
)
from tests.unit.convert.random_connect import Names, loosen, random_schema, random_value

FIELD_DOC = "io.confluent.connect.avro.field.doc."
PRECISION = "connect.decimal.precision"
FIXED_SIZE = "connect.fixed.size"
NS = "io.confluent.connect.avro"

INT8, INT16, INT32, INT64 = (
    ConnectSchema(t) for t in (Type.INT8, Type.INT16, Type.INT32, Type.INT64)
)
STRING, BYTES, BOOLEAN = (
    ConnectSchema(Type.STRING),
    ConnectSchema(Type.BYTES),
    ConnectSchema(Type.BOOLEAN),
)
OPT_INT32 = ConnectSchema(Type.INT32, optional=True)
OPT_STRING = ConnectSchema(Type.STRING, optional=True)
# Kafka's Date.SCHEMA, Time.SCHEMA, Timestamp.SCHEMA, Decimal.schema(scale): version 1.
DATE_SCHEMA = ConnectSchema(Type.INT32, name=DATE, version=1)
TIME_SCHEMA = ConnectSchema(Type.INT32, name=TIME, version=1)
TIMESTAMP_SCHEMA = ConnectSchema(Type.INT64, name=TIMESTAMP, version=1)


def decimal_schema(scale: int, **params: str) -> ConnectSchema:
    return ConnectSchema(
        Type.BYTES, name=DECIMAL, version=1, parameters={"scale": str(scale), **params}
    )


def struct(*fields: tuple[str, ConnectSchema], **kw: Any) -> ConnectSchema:
    return ConnectSchema(Type.STRUCT, fields=tuple(Field(n, s) for n, s in fields), **kw)


def record(name: str, *fields: dict[str, Any], **props: Any) -> dict[str, Any]:
    return {"type": "record", "name": name, "fields": list(fields), **props}


def test_defaults_are_the_converters() -> None:
    assert AVRO_DATA_CONFIG == {
        "connect.meta.data": "true",
        "enhanced.avro.schema.support": "false",
        "generalized.sum.type.support": "false",
        "scrub.invalid.names": "false",
        "discard.type.doc.default": "false",
        "allow.optional.map.keys": "false",
        "flatten.singleton.unions": "true",
        "ignore.default.for.nullables": "false",
    }


# ---------------------------------------------------------------------------------------------
# Avro -> Connect schemas (toConnectSchema)

TO_CONNECT = [
    # testToConnectDateAvro / TimeAvro / TimestampAvro: Date.builder() etc. set version 1.
    ({"type": "int", "logicalType": "date"}, DATE_SCHEMA),
    ({"type": "int", "logicalType": "time-millis"}, TIME_SCHEMA),
    ({"type": "long", "logicalType": "timestamp-millis"}, TIMESTAMP_SCHEMA),
    ({"type": "long", "logicalType": "TIMESTAMP-MILLIS"}, TIMESTAMP_SCHEMA),  # equalsIgnoreCase
    # testToConnectDate: no logicalType, but the connect.* properties.
    ({"type": "int", "connect.name": DATE, "connect.version": 1}, DATE_SCHEMA),
    # Logical types AvroData does not know stay their Avro type; connect.type yields to them.
    ({"type": "long", "logicalType": "timestamp-micros"}, INT64),
    ({"type": "int", "logicalType": "other", "connect.type": "int8"}, INT32),
    # testToConnectInt8 / Int16
    ({"type": "int", "connect.type": "int8"}, INT8),
    ({"type": "int", "connect.type": "int16"}, INT16),
    # testToConnectDecimal (connect.* properties), DecimalAvro, DecimalAvroDefaultScale,
    # DecimalAvroFixed (a fixed decimal keeps Decimal's name, adds its size).
    (
        {
            "type": "bytes",
            "connect.name": DECIMAL,
            "connect.version": 1,
            "connect.parameters": {"scale": "2"},
        },
        decimal_schema(2),
    ),
    (
        {"type": "bytes", "logicalType": "decimal", "precision": 50, "scale": 2},
        decimal_schema(2, **{PRECISION: "50"}),
    ),
    (
        {"type": "bytes", "logicalType": "decimal", "precision": 64, "scale": 2},
        decimal_schema(2),
    ),
    (
        {"type": "bytes", "logicalType": "decimal", "precision": 50},
        decimal_schema(0, **{PRECISION: "50"}),
    ),
    (
        {
            "type": "fixed",
            "name": "fixed",
            "size": 100,
            "logicalType": "decimal",
            "precision": 50,
            "scale": 2,
        },
        decimal_schema(2, **{PRECISION: "50", FIXED_SIZE: "100"}),
    ),
    # testToConnectFixed
    (
        {"type": "fixed", "name": "sample", "size": 4},
        ConnectSchema(Type.BYTES, name="sample", parameters={FIXED_SIZE: "4"}),
    ),
    # testToConnectSingletonUnion (flatten.singleton.unions=true)
    (["string"], STRING),
    (["null", "string"], OPT_STRING),
    (["string", "null"], OPT_STRING),
    # testToConnectEnum, testToConnectEnumWithNoDoc
    (
        {
            "type": "enum",
            "name": "TestEnum",
            "doc": "some documentation",
            "symbols": ["foo", "bar", "baz"],
        },
        ConnectSchema(
            Type.STRING,
            name="TestEnum",
            parameters={
                f"{NS}.enum.doc.TestEnum": "some documentation",
                AVRO_ENUM: "TestEnum",
                f"{AVRO_ENUM}.foo": "foo",
                f"{AVRO_ENUM}.bar": "bar",
                f"{AVRO_ENUM}.baz": "baz",
            },
        ),
    ),
    (
        {"type": "enum", "name": "E", "namespace": "a.b", "symbols": ["X"], "default": "X"},
        ConnectSchema(
            Type.STRING,
            name="a.b.E",
            parameters={f"{NS}.enum.default.E": "X", AVRO_ENUM: "a.b.E", f"{AVRO_ENUM}.X": "X"},
        ),
    ),
    # testToConnectMapNonStringKeys, testToConnectMapWithNamedSchema
    (
        {
            "type": "array",
            "items": record(
                "MapEntry",
                {"name": "key", "type": {"type": "int", "connect.type": "int8"}},
                {"name": "value", "type": {"type": "int", "connect.type": "int16"}},
                namespace=NS,
            ),
        },
        ConnectSchema(Type.MAP, key_schema=INT8, value_schema=INT16),
    ),
    (
        {
            "type": "array",
            "connect.name": "foo.bar",
            "items": record(
                "foo.bar",
                {"name": "key", "type": ["null", "string"], "default": None},
                {"name": "value", "type": "int"},
                **{"connect.internal.type": "MapEntry"},
            ),
        },
        ConnectSchema(Type.MAP, name="foo.bar", key_schema=OPT_STRING, value_schema=INT32),
    ),
    (
        {"type": "map", "values": "long"},
        ConnectSchema(Type.MAP, key_schema=STRING, value_schema=INT64),
    ),
    # testToConnectOptionalPrimitiveWithConnectMetadata
    (
        [
            {
                "type": "string",
                "connect.name": "io.confluent.stringtype",
                "connect.version": 2,
                "connect.doc": "doc",
                "connect.default": "foo",
                "connect.parameters": {"foo": "bar", "baz": "baz"},
            },
            "null",
        ],
        ConnectSchema(
            Type.STRING,
            optional=True,
            default="foo",
            name="io.confluent.stringtype",
            version=2,
            doc="doc",
            parameters={"foo": "bar", "baz": "baz"},
        ),
    ),
    # testIntWithConnectDefault / testLongWithConnectDefault (the field's schema)
    (
        {"type": "int", "connect.default": 42, "connect.version": 1},
        ConnectSchema(Type.INT32, default=42, version=1),
    ),
    (
        {"type": "long", "connect.default": 42, "connect.version": 1},
        ConnectSchema(Type.INT64, default=42, version=1),
    ),
    # testAvroWithAndWithoutMetaData: avro* properties become parameters (Java's toString).
    (
        {"type": "string", "avro.java.string": "String", "avro.x": {"a": 1}, "avro.y": [1, True]},
        ConnectSchema(
            Type.STRING,
            parameters={"avro.java.string": "String", "avro.x": "{a=1}", "avro.y": "[1, true]"},
        ),
    ),
]


@pytest.mark.parametrize(("avro", "expected"), TO_CONNECT)
def test_to_connect_schema(avro: Any, expected: ConnectSchema) -> None:
    assert to_connect_schema(avro) == expected


def test_to_connect_union() -> None:
    # testToConnectUnion: members by type name or a named type's short name, all optional.
    avro = [
        "int",
        "string",
        record("Test1", {"name": "test", "type": "int"}),
        record("Test2", {"name": "test", "type": "int"}, namespace="io.confluent"),
    ]
    assert to_connect_schema(avro) == struct(
        ("int", OPT_INT32),
        ("string", OPT_STRING),
        ("Test1", struct(("test", INT32), name="Test1", optional=True)),
        ("Test2", struct(("test", INT32), name="io.confluent.Test2", optional=True)),
        name=AVRO_UNION,
    )
    # A null member makes the union struct optional.
    assert to_connect_schema(["null", "int", "string"]) == struct(
        ("int", OPT_INT32), ("string", OPT_STRING), name=AVRO_UNION, optional=True
    )
    # testToConnectFixedUnion: fixed members by their short names.
    fixed = [{"type": "fixed", "name": n, "size": s} for n, s in (("sample", 4), ("a.other", 6))]
    assert to_connect_schema(fixed) == struct(
        ("sample", ConnectSchema(Type.BYTES, True, name="sample", parameters={FIXED_SIZE: "4"})),
        ("other", ConnectSchema(Type.BYTES, True, name="a.other", parameters={FIXED_SIZE: "6"})),
        name=AVRO_UNION,
    )
    # testToConnectUnionRecordConflict
    with pytest.raises(ValueError, match="Multiple union schemas map to the Connect union field"):
        to_connect_schema(
            [
                record("Test1", {"name": "test", "type": "int"}),
                record("io.confluent.Test1", {"name": "test", "type": "int"}),
            ]
        )


def test_to_connect_record_with_metadata() -> None:
    # testToConnectRecordWithMetadata: a field default is flagged as coming from the field.
    avro = record(
        "TestSchema",
        {"name": "int32", "doc": "field doc", "type": "int", "default": 7},
        namespace="io.confluent.test",
        **{
            "connect.name": "io.confluent.test.TestSchema",
            "connect.version": 12,
            "connect.doc": "doc",
        },
    )
    assert to_connect_schema(avro) == struct(
        ("int32", ConnectSchema(Type.INT32, default=7, parameters={FIELD_DEFAULT_FLAG: "true"})),
        name="io.confluent.test.TestSchema",
        version=12,
        doc="doc",
        parameters={FIELD_DOC + "int32": "field doc"},
    )
    # A record's own doc, and the registry's version when the schema has no connect.version.
    s = to_connect_schema(record("R", {"name": "a", "type": "int"}, doc="rec"), version=4)
    assert (s.version, dict(s.parameters)) == (4, {RECORD_DOC: "rec"})


def test_connect_default_names_are_dropped_at_every_depth() -> None:
    # testFromConnectStructsWithNullName: AvroData names unnamed structs ConnectDefault,
    # ConnectDefault2, ...; toConnectSchema drops every name starting with
    # io.confluent.connect.avro.ConnectDefault (AvroData.java: !name.startsWith(...)).
    inner = struct(("value", INT64), optional=True)
    outer = struct(("struct", inner), ("array", ConnectSchema(Type.ARRAY, value_schema=inner)))
    text = avro_schema_json(outer)
    assert text == (
        '{"type":"record","name":"ConnectDefault","namespace":"io.confluent.connect.avro",'
        '"fields":[{"name":"struct","type":["null",{"type":"record","name":"ConnectDefault2",'
        '"fields":[{"name":"value","type":"long"}]}],"default":null},{"name":"array","type":'
        '{"type":"array","items":["null","ConnectDefault2"]}}]}'
    )
    assert to_connect_schema(json.loads(text)) == outer
    # connect.name too.
    assert to_connect_schema({"type": "int", "connect.name": f"{NS}.ConnectDefault7"}) == INT32


def test_logical_type_versions_and_names() -> None:
    # testLogicalTypeWithMatchingNameAndVersion / MismatchingName / MismatchingVersion
    ts = {
        "type": "long",
        "connect.doc": "When.",
        "connect.version": 1,
        "connect.name": TIMESTAMP,
        "logicalType": "timestamp-millis",
    }
    message = record("Message", {"name": "createdat", "type": ts}, namespace="org.irc")
    field = to_connect_schema(message).fields[0].schema
    assert field == ConnectSchema(Type.INT64, name=TIMESTAMP, version=1, doc="When.")
    with pytest.raises(ValueError, match="Mismatched names"):
        to_connect_schema({**ts, "connect.name": "com.custom.Timestamp"})
    with pytest.raises(ValueError, match="Mismatched versions"):
        to_connect_schema({**ts, "connect.version": 2})
    # A logical type without connect.version: version 1 all the same (Date.builder()).
    day = record("R", {"name": "day", "type": {"type": "int", "logicalType": "date"}})
    assert to_connect_schema(day).fields[0].schema == DATE_SCHEMA


def test_rejected_schemas() -> None:
    with pytest.raises(ValueError, match="Standalone null schemas"):  # testToConnectNullType
        to_connect_schema("null")
    with pytest.raises(ValueError, match="Connect type annotation for Avro int field is null"):
        to_connect_schema({"type": "int", "connect.type": "int64"})
    with pytest.raises(ValueError, match="precision property must be a JSON Integer"):
        to_connect_schema({"type": "bytes", "logicalType": "decimal", "precision": "4"})
    with pytest.raises(ValueError, match="Invalid Connect version found: x"):
        to_connect_schema({"type": "int", "connect.version": "x"})
    with pytest.raises(ValueError, match="Expected schema parameter values to be strings"):
        to_connect_schema({"type": "int", "connect.parameters": {"a": 1}})
    with pytest.raises(ValueError, match="Invalid schema name"):
        to_connect_schema({"type": "int", "connect.name": 5})
    with pytest.raises(ValueError, match="array elements do not match the expected format"):
        to_connect_schema(
            {"type": "array", "items": record(f"{NS}.MapEntry", {"name": "key", "type": "int"})}
        )


# ---------------------------------------------------------------------------------------------
# Avro -> Connect defaults (defaultValueFromAvro)


def field_schema(field: dict[str, Any]) -> ConnectSchema:
    return to_connect_schema(record("R", field)).fields[0].schema


def test_field_defaults() -> None:
    flag = {FIELD_DEFAULT_FLAG: "true"}
    # A field default wins over connect.default, and then is not flagged.
    both = {"name": "a", "type": {"type": "int", "connect.default": 1}, "default": 2}
    assert field_schema(both) == ConnectSchema(Type.INT32, default=2)
    assert field_schema({"name": "a", "type": "string", "default": "x"}) == (
        ConnectSchema(Type.STRING, default="x", parameters=flag)
    )
    # Field.defaultVal() is null for a JSON int on a double (JacksonUtils.toObject): no default.
    assert field_schema({"name": "a", "type": "double", "default": 0}) == ConnectSchema(
        Type.FLOAT64
    )
    assert field_schema({"name": "a", "type": "double", "default": 0.5}) == (
        ConnectSchema(Type.FLOAT64, default=0.5, parameters=flag)
    )
    # testFloatWithInvalidDefault: Avro cannot read it, so there is none.
    assert field_schema({"name": "f", "type": "float", "default": [1.23]}) == ConnectSchema(
        Type.FLOAT32
    )
    # [null, T]: the field default is not passed on (nor flagged).
    assert field_schema({"name": "a", "type": ["null", "int"], "default": None}) == OPT_INT32
    # A general union: the flag, and the default in the member of the first member's class.
    union = field_schema({"name": "u", "type": ["int", "string"], "default": 5})
    assert (union.default, dict(union.parameters)) == ({"int": 5, "string": None}, flag)
    # ... with a record first, no member takes its Map (isInstanceOfAvroSchemaTypeForSimpleSchema).
    x = record("X", {"name": "x", "type": "int"})
    first_record = field_schema({"name": "u", "type": [x, "null", "int"], "default": {"x": 1}})
    assert (first_record.default, dict(first_record.parameters)) == (None, flag)
    # Logical types get their Connect values.
    day = field_schema({"name": "d", "type": {"type": "int", "logicalType": "date"}, "default": 3})
    assert day.default == date(1970, 1, 4)
    price = {"type": "bytes", "logicalType": "decimal", "precision": 5, "scale": 2}
    assert field_schema({"name": "p", "type": price, "default": "\u0001\u0000"}).default == Decimal(
        "2.56"
    )


def test_record_defaults() -> None:
    # AdditionalAvroDataTest.testRecordDefault
    obj2 = record("obj2", {"name": "data", "type": "string", "default": ""})
    assert field_schema({"name": "obj", "type": obj2, "default": {"data": ""}}).default == {
        "data": ""
    }
    # testArrayOfRecordsWithDefaultValue: a missing field takes its own default.
    item = record(
        "ArrayItem",
        {"name": "itemName", "type": "string"},
        {"name": "itemValue", "type": "string"},
        {"name": "itemValueNullable", "type": ["null", "string"], "default": None},
    )
    records = {
        "name": "records",
        "type": {"type": "array", "items": item},
        "default": [
            {"itemName": "item1", "itemValue": "value1"},
            {"itemName": "item2", "itemValue": "value2"},
        ],
    }
    assert field_schema(records).default == [
        {"itemName": "item1", "itemValue": "value1", "itemValueNullable": None},
        {"itemName": "item2", "itemValue": "value2", "itemValueNullable": None},
    ]
    # testNestedRecordWithInvalidDefault: ignored.
    bad = record("Object", {"name": "s", "type": ["null", "string"]}, **{"connect.default": [1.23]})
    assert field_schema({"name": "obj", "type": bad}).default is None
    # A required field left null: ignored (Struct.put refuses it).
    required = record("Object", {"name": "s", "type": "string"})
    assert field_schema({"name": "obj", "type": required, "default": {"s": None}}).default is None


def test_defaults_of_containers() -> None:
    # Maps with non-string keys (arrays of MapEntry): a non-empty default cannot be read back
    # (its entries are Maps, not records), an empty one is an empty map.
    entry = record(
        f"{NS}.MapEntry", {"name": "key", "type": "int"}, {"name": "value", "type": "int"}
    )
    assert (
        field_schema(
            {"name": "m", "type": {"type": "array", "items": entry}, "default": [[1, 2]]}
        ).default
        is None
    )
    assert (
        field_schema(
            {"name": "m", "type": {"type": "array", "items": entry}, "default": []}
        ).default
        == {}
    )
    # connect.default of a union-typed element or value: the union's first member, null.
    items = {"type": "array", "items": ["null", "int"], "connect.default": [1, 2]}
    assert to_connect_schema(items).default == [None, None]
    values = {"type": "map", "values": ["int", "null"], "connect.default": {"a": 1}}
    assert to_connect_schema(values).default is None  # int first: the member schema's own field
    assert to_connect_schema(
        {"type": "map", "values": "int", "connect.default": {"a": 1}}
    ).default == {"a": 1}


# ---------------------------------------------------------------------------------------------
# Connect -> Avro (fromConnectSchema), as Avro Java's Schema.toString() prints it


def test_from_connect_complex() -> None:
    # testFromConnectComplex
    schema = struct(
        ("int8", ConnectSchema(Type.INT8, default=2, doc="int8 field")),
        ("int16", INT16),
        ("int32", INT32),
        ("int64", INT64),
        ("float32", ConnectSchema(Type.FLOAT32)),
        ("float64", ConnectSchema(Type.FLOAT64)),
        ("boolean", BOOLEAN),
        ("string", STRING),
        ("bytes", BYTES),
        ("array", ConnectSchema(Type.ARRAY, value_schema=STRING)),
        ("map", ConnectSchema(Type.MAP, key_schema=STRING, value_schema=INT32)),
        ("mapNonStringKeys", ConnectSchema(Type.MAP, key_schema=INT32, value_schema=INT32)),
    )
    assert avro_schema_json(schema) == (
        '{"type":"record","name":"ConnectDefault","namespace":"io.confluent.connect.avro",'
        '"fields":[{"name":"int8","type":{"type":"int","connect.doc":"int8 field",'
        '"connect.default":2,"connect.type":"int8"},"default":2},{"name":"int16","type":'
        '{"type":"int","connect.type":"int16"}},{"name":"int32","type":"int"},{"name":"int64",'
        '"type":"long"},{"name":"float32","type":"float"},{"name":"float64","type":"double"},'
        '{"name":"boolean","type":"boolean"},{"name":"string","type":"string"},{"name":"bytes",'
        '"type":"bytes"},{"name":"array","type":{"type":"array","items":"string"}},{"name":'
        '"map","type":{"type":"map","values":"int"}},{"name":"mapNonStringKeys","type":{"type":'
        '"array","items":{"type":"record","name":"MapEntry","fields":[{"name":"key","type":'
        '"int"},{"name":"value","type":"int"}]}}}]}'
    )
    assert to_connect_schema(json.loads(avro_schema_json(schema))) == schema


def test_from_connect_with_defaults_round_trips() -> None:
    # testFromConnectComplexWithDefaults (converted three times back and forth in AvroDataTest).
    schema = struct(
        ("int16", ConnectSchema(Type.INT16, default=12, doc="int16 field")),
        ("float32", ConnectSchema(Type.FLOAT32, default=12.2, doc="float32 field")),
        ("bytes", ConnectSchema(Type.BYTES, default=b"foo", doc="bytes field")),
        ("array", ConnectSchema(Type.ARRAY, value_schema=STRING, default=["a", "b", "c"])),
        (
            "map",
            ConnectSchema(Type.MAP, key_schema=STRING, value_schema=INT32, default={"field": 1}),
        ),
        (
            "date",
            ConnectSchema(
                Type.INT32, name=DATE, version=1, default=date(1970, 4, 11), doc="date field"
            ),
        ),
        (
            "time",
            ConnectSchema(Type.INT32, name=TIME, version=1, default=time(2), doc="time field"),
        ),
        (
            "ts",
            ConnectSchema(
                Type.INT64,
                name=TIMESTAMP,
                version=1,
                doc="ts field",
                default=datetime(1971, 1, 1, 0, 0, 0, 100_000, tzinfo=UTC),
            ),
        ),
        (
            "decimal",
            ConnectSchema(
                Type.BYTES,
                name=DECIMAL,
                version=1,
                doc="decimal field",
                parameters={"scale": "5"},
                default=Decimal("3.14159"),
            ),
        ),
    )
    text = avro_schema_json(schema)
    fields = json.loads(text)["fields"]
    assert fields[5] == {
        "name": "date",
        "type": {
            "type": "int",
            "connect.doc": "date field",
            "connect.version": 1,
            "connect.default": 100,
            "connect.name": DATE,
            "logicalType": "date",
        },
        "default": 100,
    }
    assert fields[8]["type"] == {
        "type": "bytes",
        "scale": 5,
        "precision": 64,
        "connect.doc": "decimal field",
        "connect.version": 1,
        "connect.parameters": {"scale": "5"},
        "connect.default": "\u0004\u00cb/",
        "connect.name": DECIMAL,
        "logicalType": "decimal",
    }
    for _ in range(3):
        schema = to_connect_schema(json.loads(avro_schema_json(schema)))
    assert avro_schema_json(schema) == text


def test_from_connect_optional_and_metadata() -> None:
    # testFromConnectOptionalPrimitiveWithMetadata: metadata on the member, default first.
    string = ConnectSchema(
        Type.STRING,
        optional=True,
        default="foo",
        name="io.confluent.stringtype",
        version=2,
        doc="doc",
        parameters={"foo": "bar", "baz": "baz"},
    )
    assert avro_schema_json(string) == (
        '[{"type":"string","connect.doc":"doc","connect.version":2,"connect.parameters":'
        '{"foo":"bar","baz":"baz"},"connect.default":"foo","connect.name":'
        '"io.confluent.stringtype"},"null"]'
    )
    # testFromConnectRecordWithMetadata
    rec = struct(("int32", INT32), name="io.confluent.test.TestSchema", version=12, doc="doc")
    assert avro_schema_json(rec) == (
        '{"type":"record","name":"TestSchema","namespace":"io.confluent.test","fields":[{"name":'
        '"int32","type":"int"}],"connect.doc":"doc","connect.version":12,"connect.name":'
        '"io.confluent.test.TestSchema"}'
    )
    # testFromConnectOptionalComplex: null first, null default; named map entries.
    schema = struct(
        ("optionalStruct", struct(("int32", INT32), name="optionalStruct", optional=True)),
        (
            "optionalMap",
            ConnectSchema(Type.MAP, optional=True, key_schema=STRING, value_schema=INT32),
        ),
        (
            "named",
            ConnectSchema(Type.MAP, name="foo.bar", key_schema=OPT_STRING, value_schema=INT32),
        ),
    )
    assert avro_schema_json(schema) == (
        '{"type":"record","name":"ConnectDefault","namespace":"io.confluent.connect.avro",'
        '"fields":[{"name":"optionalStruct","type":["null",{"type":"record","name":'
        '"optionalStruct","namespace":"","fields":[{"name":"int32","type":"int"}],"connect.name":'
        '"optionalStruct"}],"default":null},{"name":"optionalMap","type":["null",{"type":"map",'
        '"values":"int"}],"default":null},{"name":"named","type":{"type":"array","items":{"type":'
        '"record","name":"bar","namespace":"foo","fields":[{"name":"key","type":["null","string"],'
        '"default":null},{"name":"value","type":"int"}],"connect.internal.type":"MapEntry"},'
        '"connect.name":"foo.bar"}}]}'
    )
    assert to_connect_schema(json.loads(avro_schema_json(schema))) == schema


def test_from_connect_fixed_and_decimals() -> None:
    # testFromConnectBytesFixed, testFromConnectLogicalDecimalFixedNew
    sample = ConnectSchema(Type.BYTES, name="sample", parameters={FIXED_SIZE: "4"})
    assert avro_schema_json(sample) == (
        '{"type":"fixed","name":"sample","size":4,"connect.parameters":'
        '{"connect.fixed.size":"4"},"connect.name":"sample"}'
    )
    fixed_decimal = decimal_schema(2, **{PRECISION: "64", FIXED_SIZE: "100"})
    assert avro_schema_json(fixed_decimal) == (
        '{"type":"fixed","name":"Decimal","namespace":"org.apache.kafka.connect.data","size":100,'
        '"scale":2,"precision":64,"connect.version":1,"connect.parameters":{"scale":"2",'
        '"connect.decimal.precision":"64","connect.fixed.size":"100"},"connect.name":'
        '"org.apache.kafka.connect.data.Decimal","logicalType":"decimal"}'
    )
    # A bytes decimal with a precision (testFromConnectLogicalDecimalNew).
    assert json.loads(avro_schema_json(decimal_schema(2, **{PRECISION: "10"})))["precision"] == 10
    for schema in (sample, fixed_decimal):
        assert to_connect_schema(json.loads(avro_schema_json(schema))) == schema
    # Fixed values: the exact size; a decimal's unscaled bytes sign-extended to it.
    assert to_avro_value(fixed_decimal, Decimal("-0.01")) == b"\xff" * 100
    assert to_avro_value(sample, b"foob") == b"foob"
    with pytest.raises(ValueError, match="3 bytes for the fixed type sample of 4 bytes"):
        to_avro_value(sample, b"foo")


def test_union_struct_defaults_are_the_first_members() -> None:
    union = struct(
        ("int", OPT_INT32),
        ("string", OPT_STRING),
        name=AVRO_UNION,
        default={"int": 3, "string": None},
    )
    assert json.loads(avro_schema_json(struct(("u", union))))["fields"][0] == {
        "name": "u",
        "type": ["int", "string"],
        "default": 3,
    }


# ---------------------------------------------------------------------------------------------
# Values: Connect -> Avro datum -> (fastavro) -> Connect, both ways as AvroData


def round_trip_value(schema: ConnectSchema, value: Any) -> Any:
    out = io.BytesIO()
    fastavro.schemaless_writer(
        out, fastavro.parse_schema(avro_schema(schema)), to_avro_value(schema, value)
    )
    reader = connect_reader(json.loads(avro_schema_json(schema)))
    return reader.read(io.BytesIO(out.getvalue()))


def test_union_fixed_and_map_values() -> None:
    # testToConnectUnion / testToConnectFixedUnion / testToConnectMapNonStringKeys
    test1 = struct(("test", INT32), name="Test1", optional=True)
    test2 = struct(("test", INT32), name="io.confluent.Test2", optional=True)
    union = struct(
        ("int", OPT_INT32),
        ("string", OPT_STRING),
        ("Test1", test1),
        ("Test2", test2),
        name=AVRO_UNION,
    )
    for member, value in (
        ("int", 12),
        ("string", "teststring"),
        ("Test1", {"test": 12}),
        ("Test2", {"test": 12}),
    ):
        connect = {"int": None, "string": None, "Test1": None, "Test2": None, member: value}
        assert round_trip_value(union, connect) == connect
    fixed = struct(
        ("sample", ConnectSchema(Type.BYTES, True, name="sample", parameters={FIXED_SIZE: "4"})),
        ("other", ConnectSchema(Type.BYTES, True, name="other", parameters={FIXED_SIZE: "6"})),
        (
            "sameOther",
            ConnectSchema(Type.BYTES, True, name="sameOther", parameters={FIXED_SIZE: "6"}),
        ),
        name=AVRO_UNION,
    )
    for member, raw in (("sample", b"foob"), ("other", b"foobar"), ("sameOther", b"foobar")):
        connect = {"sample": None, "other": None, "sameOther": None, member: raw}
        assert round_trip_value(fixed, connect) == connect
    by_int8 = ConnectSchema(Type.MAP, key_schema=INT8, value_schema=INT16)
    assert round_trip_value(by_int8, {12: 16}) == {12: 16}
    decimal = decimal_schema(2, **{PRECISION: "10", FIXED_SIZE: "8"})
    assert round_trip_value(decimal, Decimal("1.56")) == Decimal("1.56")


@pytest.mark.parametrize(
    ("avro", "writer", "raw", "value"),
    [
        # testToConnectDate / testToConnectDecimal: connect.name alone makes the logical type.
        ({"type": "int", "connect.name": DATE, "connect.version": 1}, "int", 10000,
         date(1997, 5, 19)),
        ({"type": "bytes", "connect.name": DECIMAL, "connect.version": 1,
          "connect.parameters": {"scale": "2"}}, "bytes", b"\x00\x9c", Decimal("1.56")),
        (["null", {"type": "long", "connect.name": TIMESTAMP}], ["null", "long"], 1000,
         datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC)),
        # A decimal whose scale exceeds its precision (which Avro Java ignores as a logical type,
        # testFromConnectLogicalDecimalScaleGreaterThanPrecision): the Connect scale all the same.
        ({"type": "bytes", "logicalType": "decimal", "precision": 2, "scale": 5}, "bytes",
         b"\x9c", Decimal("-0.00100")),
    ],
)  # fmt: skip
def test_logical_values_fastavro_does_not_decode(
    avro: Any, writer: Any, raw: Any, value: Any
) -> None:
    out = io.BytesIO()
    fastavro.schemaless_writer(out, fastavro.parse_schema(writer), raw)
    assert connect_reader(avro).read(io.BytesIO(out.getvalue())) == value


def test_foreign_logical_types_arrive_raw() -> None:
    # AvroData knows decimal, date, time-millis and timestamp-millis only.
    avro = record(
        "R",
        {"name": "us", "type": {"type": "long", "logicalType": "timestamp-micros"}},
        {"name": "id", "type": {"type": "string", "logicalType": "uuid"}},
    )
    out = io.BytesIO()
    fastavro.schemaless_writer(out, fastavro.parse_schema(avro), {"us": 5, "id": "u-1"})
    reader = connect_reader(avro)
    assert reader.schema == struct(("us", INT64), ("id", STRING), name="R")
    assert reader.read(io.BytesIO(out.getvalue())) == {"us": 5, "id": "u-1"}


# ---------------------------------------------------------------------------------------------
# Random Connect schemas: Connect -> Avro -> Connect as AvroData


def avro_round_trip(schema: ConnectSchema) -> ConnectSchema:
    return to_connect_schema(json.loads(avro_schema_json(schema)))


@pytest.mark.parametrize("seed", range(5))
def test_connect_avro_connect_round_trips(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for _ in range(250):
        names = Names()
        schema = random_schema(rng, names)
        assert avro_round_trip(schema) == schema, avro_schema_json(schema)
        for _ in range(3):
            value = random_value(rng, schema)
            if value is not None or schema.optional:
                assert round_trip_value(schema, value) == value, (avro_schema_json(schema), value)
                checked += 1
    assert checked > 600


@pytest.mark.parametrize("seed", range(4))
def test_round_trips_reach_a_fixed_point(seed: int) -> None:
    """Schemas AvroData does not give back unchanged (unversioned logical types, one-member
    unions, defaults with union-typed content, ...) settle after two trips. One is not always
    enough, in Confluent's AvroData too: a default AvroData cannot read leaves only the
    field-default flag, which a union cannot carry into Avro; an optional struct's default is
    not an Avro field default, so the next trip writes ``"default": null``, hence the flag."""
    rng = random.Random(seed)
    for _ in range(250):
        schema = loosen(rng, random_schema(rng, Names()))
        twice = avro_round_trip(avro_round_trip(schema))
        assert avro_round_trip(twice) == twice


# AvroData.toConnectData puts a string-keyed Avro map into a new HashMap<>(size), filled in the
# datum's order: buckets by (h ^ h >>> 16) & (capacity - 1) of String.hashCode, a bucket's keys
# in that order. Two keys: table 2, resized to 4 at the second put; "e" (101) and "a" (97) share
# bucket 1 there, so "e" stays first (in a table of 16, as the Avro writer's map, "a" comes
# first). Four keys: table 4, resized to 8: "BB" and "Aa" (2112) bucket 0, "a" 1, "b" 2.
@pytest.mark.parametrize(
    ("datum_order", "connect_order"),
    [(["e", "a"], ["e", "a"]), (["b", "BB", "a", "Aa"], ["BB", "Aa", "a", "b"])],
)
def test_avro_maps_read_in_avrodata_hashmap_order(
    datum_order: list[str], connect_order: list[str]
) -> None:
    for values in ("int", {"type": "array", "items": "int"}):  # as they are, and converted
        avro = {"type": "map", "values": values}
        out = io.BytesIO()
        datum = {k: (i if values == "int" else [i]) for i, k in enumerate(datum_order)}
        fastavro.schemaless_writer(out, fastavro.parse_schema(avro), datum)
        read = connect_reader(avro).read(io.BytesIO(out.getvalue()))
        assert list(read) == connect_order
        assert read == datum
