"""InsertField, MaskField, ReplaceField and SetSchemaMetadata (Kafka's InsertFieldTest,
MaskFieldTest, ReplaceFieldTest and SetSchemaMetadataTest, translated)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any

import pytest

from s3connect.connect.schema import ConnectSchema, Type
from s3connect.errors import TransformationError
from s3connect.util.jackson import Float32
from tests.unit.transforms.xformhelp import (
    BOOLEAN,
    DATE_SCHEMA,
    FLOAT32,
    FLOAT64,
    INT8,
    INT16,
    INT32,
    INT64,
    OPTIONAL_INT32,
    OPTIONAL_INT64,
    OPTIONAL_STRING,
    STRING,
    TIME_SCHEMA,
    TIMESTAMP_SCHEMA,
    apply,
    decimal_schema,
    one,
    one_problems,
    rec,
    struct,
)

INSERT = {
    "topic.field": "topic_field!",
    "partition.field": "partition_field",
    "timestamp.field": "timestamp_field?",
    "static.field": "instance_id",
    "static.value": "my-instance-id",
}
SIMPLE = struct(("magic", OPTIONAL_INT64), name="name", version=1, doc="doc")


# InsertField


def test_insert_requires_a_struct_with_a_schema() -> None:
    with pytest.raises(TransformationError) as info:
        one("InsertField$Value", {"topic.field": "topic_field"}).apply(rec(42, INT32, topic=""))
    assert "Only Struct objects supported for [field insertion], found: java.lang.Integer" in str(
        info.value
    )


def test_insert_with_schema() -> None:
    out = apply("InsertField$Value", INSERT, rec({"magic": 42}, SIMPLE, timestamp=789))
    schema = out.value_schema
    assert schema is not None and (schema.name, schema.doc, schema.version) == ("name", "doc", 1)
    assert [(f.name, f.schema) for f in schema.fields] == [
        ("magic", OPTIONAL_INT64),
        ("topic_field", STRING),
        ("partition_field", OPTIONAL_INT32),
        (
            "timestamp_field",
            ConnectSchema(Type.INT64, optional=True, name=TIMESTAMP_SCHEMA.name, version=1),
        ),
        ("instance_id", OPTIONAL_STRING),
    ]
    assert out.value == {
        "magic": 42,
        "topic_field": "test",
        "partition_field": 0,
        "timestamp_field": datetime(1970, 1, 1, 0, 0, 0, 789000, tzinfo=UTC),
        "instance_id": "my-instance-id",
    }
    chain = one("InsertField$Value", INSERT)
    first = chain.apply(rec({"magic": 1}, SIMPLE, timestamp=1))
    second = chain.apply(rec({"magic": None}, SIMPLE, partition=1))
    assert first is not None and second is not None
    assert first.value_schema is second.value_schema  # cached
    assert second.value == {
        "magic": None,
        "topic_field": "test",
        "partition_field": 1,
        "timestamp_field": None,  # the record has no timestamp
        "instance_id": "my-instance-id",
    }


def test_insert_schemaless() -> None:
    out = apply("InsertField$Value", INSERT, rec({"magic": 42}, timestamp=123))
    assert out.value == {
        "magic": 42,
        "topic_field": "test",
        "partition_field": 0,
        "timestamp_field": 123,
        "instance_id": "my-instance-id",
    }


def test_insert_offset() -> None:
    out = apply(
        "InsertField$Value",
        {"offset.field": "off!"},
        rec({"a": 1}, struct(("a", INT32)), offset=99),
    )
    assert out.value == {"a": 1, "off": 99}
    assert out.value_schema == struct(("a", INT32), ("off", INT64))


def test_insert_into_tombstones_and_null_keys_leaves_them() -> None:
    tombstone = rec(None)
    assert one("InsertField$Value", INSERT).apply(tombstone) is tombstone
    with_schema = rec(None, SIMPLE)
    assert one("InsertField$Value", INSERT).apply(with_schema) is with_schema
    null_key = rec({"magic": 42}, key=None)
    assert one("InsertField$Key", INSERT).apply(null_key) is null_key


def test_insert_key_fields_into_tombstone() -> None:
    out = apply("InsertField$Key", INSERT, rec(None, key={"magic": 42}))
    assert out.key == {
        "magic": 42,
        "topic_field": "test",
        "partition_field": 0,
        "instance_id": "my-instance-id",
    }
    assert out.value is None


@pytest.mark.parametrize(("replace_null", "expected"), [("false", None), ("true", 42)])
def test_insert_unset_optional_field(replace_null: str, expected: int | None) -> None:
    field = ConnectSchema(Type.INT64, optional=True, default=42)
    schema = struct(("magic_with_default", field), name="name", version=1, doc="doc")
    props = {**INSERT, "replace.null.with.default": replace_null}
    out = apply(
        "InsertField$Value", props, rec({"magic_with_default": None}, schema, timestamp=789)
    )
    assert out.value["magic_with_default"] == expected
    assert out.value_schema is not None and out.value_schema.fields[0].schema == field


def test_insert_config_errors() -> None:
    assert "No field insertion configured" in one_problems("InsertField$Value", {})
    text = one_problems("InsertField$Value", {"static.field": "s"})
    assert (
        "Invalid value null for configuration transforms.t.static.value: "
        "No value specified for static field: s" in text
    )


def test_insert_duplicate_field_fails() -> None:
    with pytest.raises(TransformationError) as info:
        one("InsertField$Value", {"topic.field": "a"}).apply(rec({"a": 1}, struct(("a", INT32))))
    assert "Cannot create field because of field name duplication a" in str(info.value)


# MaskField

MASK_SCHEMA = struct(
    ("magic", INT32),
    ("bool", BOOLEAN),
    ("byte", INT8),
    ("short", INT16),
    ("int", INT32),
    ("long", INT64),
    ("float", FLOAT32),
    ("double", FLOAT64),
    ("string", STRING),
    ("date", DATE_SCHEMA),
    ("time", TIME_SCHEMA),
    ("timestamp", TIMESTAMP_SCHEMA),
    ("decimal", decimal_schema(0)),
    ("array", ConnectSchema(Type.ARRAY, value_schema=INT32)),
    ("map", ConnectSchema(Type.MAP, key_schema=STRING, value_schema=STRING)),
    ("withDefault", ConnectSchema(Type.STRING, optional=True, default="default")),
)
MASK_VALUES_WITH_SCHEMA = {
    "magic": 42,
    "bool": True,
    "byte": 42,
    "short": 42,
    "int": 42,
    "long": 42,
    "float": 42.0,
    "double": 42.0,
    "string": "hmm",
    "date": date(2024, 1, 2),
    "time": time(12, 0),
    "timestamp": datetime(2024, 1, 2, tzinfo=UTC),
    "decimal": Decimal(42),
    "array": [1, 2, 3],
    "map": {"what": "what"},
    "withDefault": None,
}
MASK_VALUES = {
    "magic": 42,
    "bool": True,
    "long": 42,
    "double": 42.0,
    "string": "55.121.20.20",
    "date": datetime(2024, 1, 2, tzinfo=UTC),
    "bigdec": Decimal("42.0"),
    "list": [42],
    "map": {"key": "value"},
}


def _mask(fields: list[str], replacement: str | None = None) -> dict[str, Any]:
    props: dict[str, Any] = {"fields": ",".join(fields), "replace.null.with.default": "false"}
    if replacement is not None:
        props["replacement"] = replacement
    return props


def test_mask_schemaless() -> None:
    fields = [k for k in MASK_VALUES if k != "magic"]
    out = apply("MaskField$Value", _mask(fields), rec(MASK_VALUES))
    assert out.value == {
        "magic": 42,
        "bool": False,
        "long": 0,
        "double": 0.0,
        "string": "",
        "date": datetime(1970, 1, 1, tzinfo=UTC),
        "bigdec": Decimal(0),
        "list": [],
        "map": {},
    }


def test_mask_with_schema() -> None:
    fields = [f.name for f in MASK_SCHEMA.fields if f.name != "magic"]
    out = apply("MaskField$Value", _mask(fields), rec(MASK_VALUES_WITH_SCHEMA, MASK_SCHEMA))
    assert out.value == {
        "magic": 42,
        "bool": False,
        "byte": 0,
        "short": 0,
        "int": 0,
        "long": 0,
        "float": 0.0,
        "double": 0.0,
        "string": "",
        "date": date(1970, 1, 1),
        "time": time(0),
        "timestamp": datetime(1970, 1, 1, tzinfo=UTC),
        "decimal": Decimal(0),
        "array": [],
        "map": {},
        "withDefault": None,
    }
    assert out.value_schema is MASK_SCHEMA


@pytest.mark.parametrize(
    ("field", "replacement", "expected"),
    [
        ("short", "123", 123),
        ("byte", "123", 123),
        ("int", "123", 123),
        ("long", "123", 123),
        ("float", "123.0", Float32(123.0)),
        ("double", "123.0", 123.0),
        ("string", "123", "123"),
        ("decimal", "123.0", Decimal("123.0")),
        ("int", "123.9", 123),  # Values.convertToInteger truncates
        ("byte", "300", 44),  # and narrows
    ],
)
def test_mask_with_schema_and_replacement(field: str, replacement: str, expected: object) -> None:
    out = apply(
        "MaskField$Value", _mask([field], replacement), rec(MASK_VALUES_WITH_SCHEMA, MASK_SCHEMA)
    )
    assert out.value[field] == expected and type(out.value[field]) is type(expected)


@pytest.mark.parametrize(
    ("field", "replacement", "expected"),
    [
        ("long", "123", 123),
        ("double", "123.0", 123.0),
        ("string", "123", "123"),
        ("bigdec", "123.0", Decimal("123.0")),
    ],
)
def test_mask_schemaless_with_replacement(field: str, replacement: str, expected: object) -> None:
    out = apply("MaskField$Value", _mask([field], replacement), rec(MASK_VALUES))
    assert out.value[field] == expected


@pytest.mark.parametrize(
    ("schema", "field", "replacement", "message"),
    [
        (
            None,
            "date",
            "x",
            "Cannot mask value of type class java.util.Date with custom replacement.",
        ),
        (
            None,
            "bool",
            "false",
            "Cannot mask value of type class java.lang.Boolean with custom replacement.",
        ),
        (
            None,
            "list",
            "123",
            "Cannot mask value of type class java.util.ArrayList with custom replacement.",
        ),
        (
            MASK_SCHEMA,
            "time",
            "x",
            "Cannot mask value of type class java.util.Date with custom replacement.",
        ),
        (MASK_SCHEMA, "array", "123", "with custom replacement."),
        (None, "long", "foo", "Unable to convert foo (class java.lang.String) to a number"),
        (None, "double", "foo", "Unable to convert foo (class java.lang.String) to a number"),
        (None, "bigdec", "foo", "Unable to convert foo (class java.lang.String) to number"),
    ],
)
def test_mask_replacement_failures(
    schema: ConnectSchema | None, field: str, replacement: str, message: str
) -> None:
    value = MASK_VALUES_WITH_SCHEMA if schema is not None else MASK_VALUES
    with pytest.raises(TransformationError) as info:
        one("MaskField$Value", _mask([field], replacement)).apply(rec(value, schema))
    assert message in str(info.value)


def test_mask_bytes_and_tombstones_fail_as_in_kafka() -> None:
    with pytest.raises(TransformationError) as info:
        one("MaskField$Value", _mask(["b"])).apply(
            rec({"b": b"x"}, struct(("b", ConnectSchema(Type.BYTES))))
        )
    assert "Cannot mask value of type: class [B" in str(info.value)
    with pytest.raises(TransformationError) as info:
        one("MaskField$Value", _mask(["b"])).apply(rec(None))
    assert "Only Map objects supported in absence of schema for [mask fields], found: null" in str(
        info.value
    )


def test_mask_empty_replacement_is_a_config_error() -> None:
    assert (
        "Invalid value  for configuration transforms.t.replacement: String must be non-empty"
        in one_problems("MaskField$Value", {"fields": "a", "replacement": ""})
    )


# ReplaceField

DONT = struct(("dont", STRING), ("abc", INT32), ("foo", BOOLEAN), ("etc", STRING))
DONT_VALUE = {"dont": "whatever", "abc": 42, "foo": True, "etc": "etc"}


def test_replace_tombstones() -> None:
    props = {"include": "abc,foo", "renames": "abc:xyz,foo:bar"}
    tombstone = rec(None)
    assert one("ReplaceField$Value", props).apply(tombstone) is tombstone
    with_schema = rec(None, DONT)
    assert one("ReplaceField$Value", props).apply(with_schema) is with_schema


def test_replace_schemaless() -> None:
    props = {"exclude": "dont", "renames": "abc:xyz,foo:bar"}
    out = apply("ReplaceField$Value", props, rec(DONT_VALUE))
    assert out.value == {"xyz": 42, "bar": True, "etc": "etc"}


def test_replace_with_schema() -> None:
    props = {"include": "abc,foo", "renames": "abc:xyz,foo:bar"}
    out = apply("ReplaceField$Value", props, rec(DONT_VALUE, DONT))
    assert out.value == {"xyz": 42, "bar": True}
    assert out.value_schema == struct(("xyz", INT32), ("bar", BOOLEAN))


def test_replace_legacy_names() -> None:
    out = apply(
        "ReplaceField$Value", {"blacklist": "dont", "renames": "abc:xyz,foo:bar"}, rec(DONT_VALUE)
    )
    assert out.value == {"xyz": 42, "bar": True, "etc": "etc"}
    out = apply("ReplaceField$Value", {"whitelist": "abc,foo"}, rec(DONT_VALUE))
    assert out.value == {"abc": 42, "foo": True}
    both = apply("ReplaceField$Value", {"exclude": "etc", "blacklist": "dont"}, rec(DONT_VALUE))
    assert both.value == {"dont": "whatever", "abc": 42, "foo": True}  # exclude wins


def test_replace_exclude_wins_over_include() -> None:
    out = apply(
        "ReplaceField$Value", {"include": "abc,foo", "exclude": "foo"}, rec(DONT_VALUE, DONT)
    )
    assert out.value == {"abc": 42}


@pytest.mark.parametrize(("replace_null", "expected"), [("false", None), ("true", 42)])
@pytest.mark.parametrize("side", ["Key", "Value"])
def test_replace_null_with_default(replace_null: str, expected: int | None, side: str) -> None:
    schema = struct(("abc", ConnectSchema(Type.INT32, optional=True, default=42)))
    props = {
        "include": "abc",
        "renames": "abc:optional_with_default",
        "replace.null.with.default": replace_null,
    }
    record = (
        rec(key={"abc": None}, key_schema=schema) if side == "Key" else rec({"abc": None}, schema)
    )
    out = apply(f"ReplaceField${side}", props, record)
    assert (out.key if side == "Key" else out.value) == {"optional_with_default": expected}


@pytest.mark.parametrize("renames", ["abc", "abc:", "a:b:c"])
def test_replace_invalid_renames(renames: str) -> None:
    text = one_problems("ReplaceField$Value", {"renames": renames})
    assert (
        f"Invalid value [{renames}] for configuration transforms.t.renames: Invalid rename "
        f"mapping: {renames}" in text
    )


# SetSchemaMetadata


def test_set_schema_name_and_version() -> None:
    out = apply("SetSchemaMetadata$Value", {"schema.name": "foo"}, rec(None, struct()))
    assert out.value_schema is not None and out.value_schema.name == "foo"
    out = apply("SetSchemaMetadata$Value", {"schema.version": "42"}, rec(None, struct()))
    assert out.value_schema is not None and out.value_schema.version == 42
    out = apply(
        "SetSchemaMetadata$Value", {"schema.name": "foo", "schema.version": 42}, rec(None, struct())
    )
    assert out.value_schema is not None and (out.value_schema.name, out.value_schema.version) == (
        "foo",
        42,
    )


def test_set_schema_metadata_on_a_struct() -> None:
    schema = struct(("f1", STRING), ("f2", INT32), name="my.orig.SchemaDefn")
    props = {"schema.name": "foo", "schema.version": "42"}
    out = apply("SetSchemaMetadata$Value", props, rec({"f1": "value1", "f2": 1}, schema))
    assert out.value_schema == struct(("f1", STRING), ("f2", INT32), name="foo", version=42)
    assert out.value == {"f1": "value1", "f2": 1}


@pytest.mark.parametrize(("replace_null", "expected"), [("false", None), ("true", "default")])
def test_set_schema_metadata_null_field(replace_null: str, expected: str | None) -> None:
    schema = struct(
        ("f1", ConnectSchema(Type.STRING, optional=True, default="default")), ("f2", INT32)
    )
    props = {
        "schema.name": "foo",
        "schema.version": "42",
        "replace.null.with.default": replace_null,
    }
    out = apply("SetSchemaMetadata$Value", props, rec({"f1": None, "f2": 1}, schema))
    assert out.value == {"f1": expected, "f2": 1}


def test_set_schema_metadata_needs_a_schema_unless_null() -> None:
    with pytest.raises(TransformationError) as info:
        one("SetSchemaMetadata$Value", {"schema.name": "x"}).apply(rec(42))
    assert "Schema required for [updating schema metadata]" in str(info.value)
    null = rec(None)
    assert one("SetSchemaMetadata$Value", {"schema.name": "x"}).apply(null) is null


def test_set_schema_metadata_keeps_arrays_and_maps() -> None:
    array = ConnectSchema(Type.ARRAY, value_schema=INT32, optional=True, doc="d")
    out = apply("SetSchemaMetadata$Key", {"schema.name": "n"}, rec("v", key=[1], key_schema=array))
    assert out.key_schema == ConnectSchema(
        Type.ARRAY, value_schema=INT32, optional=True, doc="d", name="n"
    )
    assert out.key == [1]


def test_set_schema_metadata_config_errors() -> None:
    assert "Neither schema name nor version configured" in one_problems(
        "SetSchemaMetadata$Value", {}
    )
    text = one_problems("SetSchemaMetadata$Value", {"schema.version": "x"})
    assert (
        "Invalid value x for configuration transforms.t.schema.version: Not a number of type INT"
        in text
    )


def test_mask_schemaless_fields_fail_in_hash_set_order() -> None:
    """Kafka masks a schemaless value's fields in the order of a ``HashSet`` of them: the
    first that cannot take the replacement names the error (checked against Kafka 4.1.1)."""
    value = {"f32": 1.5, "s": "x", "i32": 1, "b": True, "f64": 2.5}
    chain = one("MaskField$Value", _mask(["f32", "s", "i32", "b", "f64"], "***"))
    with pytest.raises(TransformationError) as info:
        chain.apply(rec(value))
    assert "Cannot mask value of type class java.lang.Boolean with custom replacement." in str(
        info.value
    )
