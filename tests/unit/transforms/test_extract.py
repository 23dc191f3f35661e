"""ExtractField, HoistField, ValueToKey and the field paths of field.syntax.version
(Kafka's ExtractFieldTest, HoistFieldTest, ValueToKeyTest, FieldPathNotationTest,
SingleFieldPathTest, FieldSyntaxVersionTest)."""

from __future__ import annotations

import pytest

from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.errors import TransformationError
from s3connect.transforms.field_path import SingleFieldPath, parse_v2_path
from tests.unit.transforms.xformhelp import (
    INT32,
    STRING,
    apply,
    one,
    one_problems,
    rec,
    struct,
)

V2 = {"field.syntax.version": "V2"}


# ExtractField


def test_extract_schemaless() -> None:
    out = apply("ExtractField$Key", {"field": "magic"}, rec(key={"magic": 42}))
    assert out.key_schema is None and out.key == 42


def test_extract_schemaless_nested_path() -> None:
    out = apply("ExtractField$Key", {"field": "magic.foo", **V2}, rec(key={"magic": {"foo": 42}}))
    assert out.key == 42


def test_extract_null_schemaless_stays_null() -> None:
    out = apply("ExtractField$Key", {"field": "magic"}, rec(key=None))
    assert out.key is None and out.key_schema is None


def test_extract_with_schema() -> None:
    schema = struct(("magic", INT32))
    out = apply("ExtractField$Key", {"field": "magic"}, rec(key={"magic": 42}, key_schema=schema))
    assert out.key_schema == INT32 and out.key == 42


def test_extract_with_schema_and_nested_path() -> None:
    foo = struct(("foo", INT32))
    schema = struct(("magic", foo))
    record = rec(key={"magic": {"foo": 42}}, key_schema=schema)
    out = apply("ExtractField$Key", {"field": "magic.foo", **V2}, record)
    assert out.key_schema == INT32 and out.key == 42


def test_extract_null_with_schema_keeps_the_field_schema() -> None:
    schema = struct(("magic", INT32), optional=True)
    out = apply("ExtractField$Key", {"field": "magic"}, rec(key=None, key_schema=schema))
    assert out.key_schema == INT32 and out.key is None


def test_extract_missing_field() -> None:
    assert apply("ExtractField$Key", {"field": "nonexistent"}, rec(key={"magic": 42})).key is None
    nested = rec(key={"magic": {"foo": 42}})
    assert apply("ExtractField$Key", {"field": "magic.nonexistent", **V2}, nested).key is None
    schema = struct(("magic", INT32))
    with pytest.raises(TransformationError) as info:
        one("ExtractField$Key", {"field": "nonexistent"}).apply(
            rec(key={"magic": 42}, key_schema=schema)
        )
    assert "Unknown field: nonexistent" in str(info.value)
    nested_schema = struct(("magic", struct(("foo", INT32))))
    with pytest.raises(TransformationError) as info:
        one("ExtractField$Key", {"field": "magic.nonexistent", **V2}).apply(
            rec(key={"magic": {"foo": 42}}, key_schema=nested_schema)
        )
    assert "Unknown field: magic.nonexistent" in str(info.value)


@pytest.mark.parametrize(("replace_null", "expected"), [("false", None), ("true", 42)])
@pytest.mark.parametrize("side", ["Key", "Value"])
def test_extract_unset_optional_field(replace_null: str, expected: int | None, side: str) -> None:
    schema = struct(("optional_with_default", ConnectSchema(Type.INT32, optional=True, default=42)))
    value = {"optional_with_default": None}
    record = rec(key=value, key_schema=schema) if side == "Key" else rec(value, schema)
    props = {"field": "optional_with_default", "replace.null.with.default": replace_null}
    out = apply(f"ExtractField${side}", props, record)
    assert (out.key if side == "Key" else out.value) == expected


def test_extract_needs_a_map_or_struct() -> None:
    with pytest.raises(TransformationError) as info:
        one("ExtractField$Value", {"field": "a"}).apply(rec(42))
    assert (
        "Only Map objects supported in absence of schema for [field extraction], found: "
        "java.lang.Long" in str(info.value)
    )


def test_extract_config_errors() -> None:
    assert 'Missing required configuration "transforms.t.field"' in one_problems(
        "ExtractField$Value"
    )
    text = one_problems("ExtractField$Value", {"field": "a", "field.syntax.version": "v3"})
    assert (
        "Invalid value v3 for configuration transforms.t.field.syntax.version: String must "
        "be one of (case "
        "insensitive): V1, V2" in text
    )
    text = one_problems("ExtractField$Value", {"field": "`a.b", **V2})
    assert "Incomplete backtick pair in path: [`a.b]" in text


@pytest.mark.parametrize("version", ["v1", "v2", "V1", "V2"])
def test_field_syntax_version_ignores_case(version: str) -> None:
    out = apply(
        "ExtractField$Value", {"field": "a", "field.syntax.version": version}, rec({"a": 1})
    )
    assert out.value == 1


@pytest.mark.parametrize("version", ["v3", "V 1", "v", "V 2", "2", "1"])
def test_should_fail_when_wrong_version_is_passed(version: str) -> None:
    text = one_problems("ExtractField$Value", {"field": "a", "field.syntax.version": version})
    assert (
        f"Invalid value {version} for configuration transforms.t.field.syntax.version: "
        "String must be one of (case insensitive): V1, V2" in text
    )


# Field paths (FieldPathNotationTest)


@pytest.mark.parametrize("path", ["foo.bar.baz", "foo`bar`", "foo.`bar.baz`"])
def test_v1_paths_are_one_step(path: str) -> None:
    assert SingleFieldPath.of(path, "V1").steps == (path,)


@pytest.mark.parametrize(
    ("path", "steps"),
    [
        ("..", ("", "", "")),
        ("foo..", ("foo", "", "")),
        (".bar.", ("", "bar", "")),
        ("..baz", ("", "", "baz")),
        ("", ()),
        ("foobarbaz", ("foobarbaz",)),
        ("foo.bar.baz", ("foo", "bar", "baz")),
        ("foo`bar`baz", ("foo`bar`baz",)),
        ("`foo.bar.baz`", ("foo.bar.baz",)),
        ("foo.`bar.baz`", ("foo", "bar.baz")),
        ("`foo.bar`.baz", ("foo.bar", "baz")),
        ("foo.`bar`.baz", ("foo", "bar", "baz")),
        ("foo.``bar.baz`", ("foo", "`bar.baz")),
        ("foo.`bar.baz``", ("foo", "bar.baz`")),
        ("foo.`ba`r.baz`", ("foo", "ba`r.baz")),
        ("foo.ba`r.baz", ("foo", "ba`r", "baz")),
        ("foo.``bar``.baz", ("foo", "`bar`", "baz")),
        ("``foo.bar.baz``", ("`foo.bar.baz`",)),
        ("foo.`bar\\`.baz`", ("foo", "bar`.baz")),
        ("foo.`bar.`baz`", ("foo", "bar.`baz")),
        ("foo.`bar\\`.`baz`", ("foo", "bar`.`baz")),
        ("foo.`bar\\\\`.\\`baz`", ("foo", "bar\\`.\\`baz")),
    ],
)
def test_v2_paths(path: str, steps: tuple[str, ...]) -> None:
    assert parse_v2_path(path) == steps


@pytest.mark.parametrize(
    ("path", "position"),
    [("`foo.bar.baz", 0), ("foo.`bar.baz", 4), ("foo.bar.`baz", 8), ("foo.bar.`baz\\`", 8)],
)
def test_v2_incomplete_backticks(path: str, position: int) -> None:
    with pytest.raises(ValueError) as info:
        parse_v2_path(path)
    assert str(info.value) == (
        f"Incomplete backtick pair in path: [{path}], consider adding a backslash before "
        f"backtick at position {position} to escape it"
    )


def test_single_field_path_on_schemas_structs_and_maps() -> None:
    bar = struct(("bar", INT32))
    schema = struct(("foo", bar))
    assert SingleFieldPath.of("foo.bar", "V2").field_from(schema) == Field("bar", INT32)
    assert SingleFieldPath.of("foo", "V2").field_from(schema) == Field("foo", bar)
    for missing in ("un.known", "foo.unknown", "unknown"):
        assert SingleFieldPath.of(missing, "V2").field_from(schema) is None
    assert SingleFieldPath.of("test", "V2").field_from(None) is None
    mapping = {"foo": {"bar": 42, "baz": None}}
    assert SingleFieldPath.of("foo.bar", "V2").value_from_map(mapping) == 42
    for missing in ("foo.baz", "un.known", "foo.unknown", "unknown", "foo.baz.inner"):
        assert SingleFieldPath.of(missing, "V2").value_from_map(mapping) is None
    baz = struct(("inner", STRING), optional=True)
    nested = struct(("foo", struct(("bar", INT32), ("baz", baz))))
    value = {"foo": {"bar": 42, "baz": None}}
    assert SingleFieldPath.of("foo.bar", "V2").value_from_struct(nested, value) == 42
    for missing in ("foo.baz", "un.known", "foo.unknown", "unknown", "foo.baz.inner"):
        assert SingleFieldPath.of(missing, "V2").value_from_struct(nested, value) is None


# HoistField


def test_hoist_schemaless() -> None:
    out = apply("HoistField$Key", {"field": "magic"}, rec(key=42))
    assert out.key_schema is None and out.key == {"magic": 42}


def test_hoist_with_schema() -> None:
    out = apply("HoistField$Key", {"field": "magic"}, rec(key=42, key_schema=INT32))
    assert out.key_schema == struct(("magic", INT32))
    assert out.key == {"magic": 42}


def test_hoist_a_null_into_a_required_field_fails() -> None:
    with pytest.raises(TransformationError) as info:
        one("HoistField$Value", {"field": "magic"}).apply(rec(None, INT32))
    assert 'Invalid value: null used for required field: "magic", schema type: INT32' in str(
        info.value
    )


def test_hoist_tombstone_schemaless() -> None:
    assert apply("HoistField$Value", {"field": "v"}, rec(None)).value == {"v": None}


# ValueToKey


def test_value_to_key_schemaless() -> None:
    out = apply("ValueToKey", {"fields": "a,b"}, rec({"a": 1, "b": 2, "c": 3}))
    assert out.key_schema is None and out.key == {"a": 1, "b": 2}
    assert out.value == {"a": 1, "b": 2, "c": 3}


def test_value_to_key_schemaless_key_is_in_the_order_of_javas_hashmap() -> None:
    """Kafka builds the key with new HashMap<>(fields.size()): its order, as jshell prints it
    for these four keys, is what a JSON key file lists."""
    value = {"region": "eu", "id": 1, "user": "u", "ts": 5}
    out = apply("ValueToKey", {"fields": "region,id,user,ts"}, rec(value))
    assert list(out.key) == ["id", "region", "user", "ts"]


def test_value_to_key_with_schema() -> None:
    schema = struct(("a", INT32), ("b", INT32), ("c", INT32))
    out = apply("ValueToKey", {"fields": "a,b"}, rec({"a": 1, "b": 2, "c": 3}, schema))
    assert out.key_schema == struct(("a", INT32), ("b", INT32))
    assert out.key == {"a": 1, "b": 2}


def test_value_to_key_missing_field() -> None:
    with pytest.raises(TransformationError) as info:
        one("ValueToKey", {"fields": "not_exist"}).apply(rec({"a": 1}, struct(("a", INT32))))
    assert "Field does not exist: not_exist" in str(info.value)


@pytest.mark.parametrize(("replace_null", "expected"), [("false", None), ("true", 42)])
def test_value_to_key_replace_null_with_default(replace_null: str, expected: int | None) -> None:
    schema = struct(("optional_with_default", ConnectSchema(Type.INT32, optional=True, default=42)))
    props = {"fields": "optional_with_default", "replace.null.with.default": replace_null}
    out = apply("ValueToKey", props, rec({"optional_with_default": None}, schema))
    assert out.key == {"optional_with_default": expected}


def test_value_to_key_config_errors() -> None:
    assert "Invalid value [] for configuration transforms.t.fields: Empty list" in one_problems(
        "ValueToKey", {"fields": " "}
    )
    assert 'Missing required configuration "transforms.t.fields"' in one_problems("ValueToKey")


def test_extract_v2_path_through_a_non_struct_fails_as_in_kafka() -> None:
    schema = struct(("a", INT32))
    with pytest.raises(TransformationError) as info:
        one("ExtractField$Value", {"field": "a.x", **V2}).apply(rec({"a": 1}, schema))
    assert "Cannot look up fields on non-struct type" in str(info.value)
