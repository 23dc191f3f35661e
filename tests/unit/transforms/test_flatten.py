"""Flatten$Key / Flatten$Value: Kafka's FlattenTest, translated."""

from __future__ import annotations

import pytest

from s3connect.connect.schema import ConnectSchema, Type
from s3connect.errors import TransformationError
from tests.unit.transforms.xformhelp import (
    BOOLEAN,
    BYTES,
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
    apply,
    one,
    rec,
    struct,
)

SUPPORTED = struct(
    ("int8", INT8),
    ("int16", INT16),
    ("int32", INT32),
    ("int64", INT64),
    ("float32", FLOAT32),
    ("float64", FLOAT64),
    ("boolean", BOOLEAN),
    ("string", STRING),
    ("bytes", BYTES),
)
VALUES = {
    "int8": 8,
    "int16": 16,
    "int32": 32,
    "int64": 64,
    "float32": 32.0,
    "float64": 64.0,
    "boolean": True,
    "string": "stringy",
    "bytes": b"bytes",
}


def test_a_top_level_struct_or_map_is_required() -> None:
    with pytest.raises(TransformationError):
        one("Flatten$Value").apply(rec(42, INT32))
    with pytest.raises(TransformationError) as info:
        one("Flatten$Value").apply(rec(42))
    assert "Only Map objects supported in absence of schema for [flattening]" in str(info.value)


def test_nested_struct() -> None:
    schema = struct(("A", struct(("B", SUPPORTED))))
    out = apply("Flatten$Value", {}, rec({"A": {"B": VALUES}}, schema))
    assert out.value == {f"A.B.{k}": v for k, v in VALUES.items()}
    assert out.value_schema is not None and out.value_schema.type is Type.STRUCT
    assert [f.name for f in out.value_schema.fields] == [f"A.B.{k}" for k in VALUES]
    assert [f.schema for f in out.value_schema.fields] == [f.schema for f in SUPPORTED.fields]


def test_nested_map_with_delimiter() -> None:
    out = apply("Flatten$Value", {"delimiter": "#"}, rec({"A": {"B": VALUES}}))
    assert out.value_schema is None
    assert out.value == {f"A#B#{k}": v for k, v in VALUES.items()}


def test_optional_fields() -> None:
    schema = struct(("B", struct(("opt_int32", OPTIONAL_INT32))))
    out = apply("Flatten$Value", {}, rec({"B": {"opt_int32": None}}, schema))
    assert out.value == {"B.opt_int32": None}
    null_tombstone = rec(None, struct(("opt_int32", OPTIONAL_INT32), optional=True))
    assert one("Flatten$Value").apply(null_tombstone) is null_tombstone


def test_optional_nested_struct_that_is_null() -> None:
    inner = struct(("opt_int32", OPTIONAL_INT32), optional=True)
    out = apply("Flatten$Value", {}, rec({"B": None}, struct(("B", inner))))
    assert out.value == {"B.opt_int32": None}
    assert out.value_schema == struct(("B.opt_int32", OPTIONAL_INT32))


def test_optional_field_map() -> None:
    out = apply("Flatten$Value", {}, rec({"B": {"opt_int32": None}}))
    assert out.value == {"B.opt_int32": None}


def test_key() -> None:
    out = apply("Flatten$Key", {}, rec(key={"A": {"B": 12}}))
    assert out.key == {"A.B": 12} and out.key_schema is None


def test_arrays_are_left_alone() -> None:
    value = {"foo": ["bar", {"baz": {"lfg": "lfg"}}]}
    assert apply("Flatten$Value", {}, rec(value)).value == value
    nested = struct(("lfg", STRING))
    inner = struct(("baz", nested))
    array = ConnectSchema(Type.ARRAY, value_schema=inner, doc="durk")
    schema = struct(("foo", array))
    value2 = {"foo": [{"baz": {"lfg": "lfg"}}]}
    out = apply("Flatten$Value", {}, rec(value2, schema))
    assert out.value == value2 and out.value_schema == schema


def test_optional_and_default_values_nested() -> None:
    child_default = {"req_field": "req_default", "opt_field": None}
    child = struct(
        ("req_field", STRING),
        ("opt_field", ConnectSchema(Type.STRING, optional=True, default="child_default")),
        optional=True,
        default=child_default,
    )
    out = apply("Flatten$Value", {}, rec({"req_field": None, "opt_field": None}, child))
    assert out.value_schema is not None and len(out.value_schema.fields) == 2
    req, opt = out.value_schema.fields
    assert req.schema == ConnectSchema(Type.STRING, optional=True, default="req_default")
    assert opt.schema == ConnectSchema(Type.STRING, optional=True, default="child_default")
    assert out.value == {"req_field": None, "opt_field": "child_default"}


def test_tombstones_pass_through() -> None:
    schemaless = rec(None)
    assert one("Flatten$Value").apply(schemaless) is schemaless
    schema = struct(("magic", OPTIONAL_INT64), name="name", version=1, doc="doc")
    with_schema = rec(None, schema)
    assert one("Flatten$Value").apply(with_schema) is with_schema


def test_null_fields_keep_their_order() -> None:
    value = {
        "firstNull": None,
        "firstNonNull": "nonNull",
        "secondNull": None,
        "secondNonNull": "alsoNonNull",
        "thirdNonNull": None,
    }
    assert list(apply("Flatten$Value", {}, rec(value)).value) == list(value)
    schema = struct(*((name, OPTIONAL_STRING) for name in value))
    out = apply("Flatten$Value", {}, rec(value, schema))
    assert out.value == value


def test_maps_with_a_schema_are_refused() -> None:
    schema = struct(("m", ConnectSchema(Type.MAP, key_schema=STRING, value_schema=STRING)))
    with pytest.raises(TransformationError) as info:
        one("Flatten$Value").apply(rec({"m": {}}, schema))
    assert (
        "Flatten transformation does not support MAP for record with schemas (for field m)."
        in str(info.value)
    )


def test_schema_name_and_doc_are_kept_and_collisions_fail() -> None:
    schema = struct(("a", struct(("b", INT32))), name="n", doc="d", version=3)
    out = apply("Flatten$Value", {}, rec({"a": {"b": 1}}, schema))
    assert out.value_schema == struct(("a.b", INT32), name="n", doc="d", version=3)
    clash = struct(("a.b", INT32), ("a", struct(("b", INT32))))
    with pytest.raises(TransformationError) as info:
        one("Flatten$Value").apply(rec({"a.b": 1, "a": {"b": 2}}, clash))
    assert "Cannot create field because of field name duplication a.b" in str(info.value)
