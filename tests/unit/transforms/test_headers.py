"""DropHeaders, HeaderFrom and InsertHeader (Kafka's DropHeadersTest, HeaderFromTest,
InsertHeaderTest). Headers are the bytes SimpleHeaderConverter writes."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest

from s3connect.connect.records import Header, SinkRecord
from s3connect.connect.schema import ConnectSchema, Type
from s3connect.errors import TransformationError
from tests.unit.transforms.xformhelp import (
    DATE_SCHEMA,
    FLOAT32,
    INT32,
    STRING,
    TIMESTAMP_SCHEMA,
    apply,
    decimal_schema,
    one,
    one_problems,
    rec,
    struct,
)

EXISTING: tuple[Header, ...] = (("existing", b"existing-value"),)


# DropHeaders


def test_drop_existing_header() -> None:
    record = rec("value", key="key", headers=(*EXISTING, ("to-drop", b"existing-value")))
    out = apply("DropHeaders", {"headers": "to-drop"}, record)
    assert out.headers == EXISTING
    assert (out.topic, out.key, out.value, out.timestamp) == ("test", "key", "value", None)


def test_drop_every_header_of_the_name() -> None:
    headers = (*EXISTING, ("to-drop", b"a"), ("other", None), ("to-drop", b"b"))
    out = apply("DropHeaders", {"headers": "to-drop, other"}, rec("v", headers=headers))
    assert out.headers == EXISTING


def test_drop_missing_header() -> None:
    assert (
        apply("DropHeaders", {"headers": "to-drop"}, rec("v", headers=EXISTING)).headers == EXISTING
    )


def test_drop_needs_a_list() -> None:
    assert "Invalid value [] for configuration transforms.t.headers: Empty list" in one_problems(
        "DropHeaders", {"headers": ""}
    )


# InsertHeader


def test_insert_with_another_header() -> None:
    out = apply(
        "InsertHeader",
        {"header": "inserted", "value.literal": "inserted-value"},
        rec("v", headers=EXISTING),
    )
    assert out.headers == (*EXISTING, ("inserted", b"inserted-value"))


def test_insert_with_the_same_header() -> None:
    record = rec("v", headers=(("existing", b"preexisting-value"),))
    out = apply("InsertHeader", {"header": "existing", "value.literal": "inserted-value"}, record)
    assert out.headers == (("existing", b"preexisting-value"), ("existing", b"inserted-value"))


@pytest.mark.parametrize(
    ("literal", "written"),
    [
        ("1", b"1"),  # a byte header, as Kafka's insertionWithByteHeader
        ("1.50", b"1.5"),  # parsed as float32 1.5
        ("3.14159265358979", b"3.1415927"),
        ("[1, 2.5]", b"[1.0,2.5]"),
        ('{"a": 1}', b'{"a":1}'),
        ("2024-01-01", b"2024-01-01"),
        ("true", b"true"),
        ("hello, world", b"hello, world"),
        ("  padded  ", b"padded"),  # ConfigDef trims strings
        ("null", None),
    ],
)
def test_insert_writes_what_simple_header_converter_would(
    literal: str, written: bytes | None
) -> None:
    out = apply("InsertHeader", {"header": "h", "value.literal": literal}, rec("v"))
    assert out.headers == (("h", written),)


def test_insert_config_errors() -> None:
    text = one_problems("InsertHeader", {})
    assert 'Missing required configuration "transforms.t.header"' in text
    assert 'Missing required configuration "transforms.t.value.literal"' in text


# HeaderFrom


def _hf(fields: str, headers: str, operation: str, replace_null: bool = True) -> dict[str, Any]:
    return {
        "fields": fields,
        "headers": headers,
        "operation": operation,
        "replace.null.with.default": str(replace_null).lower(),
    }


def _record(
    side: str, schema: ConnectSchema | None, value: Any, headers: tuple[Header, ...]
) -> SinkRecord:
    if side == "Key":
        return rec("value", key=value, key_schema=schema, headers=headers)
    return rec(value, schema, key="key", headers=headers)


def _operating(record: SinkRecord, side: str) -> tuple[ConnectSchema | None, Any]:
    return (record.key_schema, record.key) if side == "Key" else (record.value_schema, record.value)


TWO = struct(("field1", STRING), ("field2", STRING))
TWO_VALUES = {"field1": "field1-value", "field2": "field2-value"}
HEADER1: tuple[Header, ...] = (("header1", b"existing-value"),)


@pytest.mark.parametrize("side", ["Key", "Value"])
@pytest.mark.parametrize("with_schema", [True, False])
@pytest.mark.parametrize(
    ("props", "kept", "added"),
    [
        (
            _hf("field1", "inserted1", "copy"),
            ["field1", "field2"],
            [("inserted1", b"field1-value")],
        ),
        (_hf("field1", "inserted1", "move"), ["field2"], [("inserted1", b"field1-value")]),
        (
            _hf("field1,field1", "inserted1,inserted2", "move"),
            ["field2"],
            [("inserted1", b"field1-value"), ("inserted2", b"field1-value")],
        ),
        (
            _hf("field1,field2", "inserted1,inserted1", "move"),
            [],
            [("inserted1", b"field1-value"), ("inserted1", b"field2-value")],
        ),
    ],
)
def test_header_from(
    side: str, with_schema: bool, props: dict[str, Any], kept: list[str], added: list[Header]
) -> None:
    schema = TWO if with_schema else None
    out = apply(f"HeaderFrom${side}", props, _record(side, schema, TWO_VALUES, HEADER1))
    new_schema, new_value = _operating(out, side)
    assert new_value == {k: TWO_VALUES[k] for k in kept}
    if with_schema:
        assert new_schema == struct(*((k, STRING) for k in kept))
    else:
        assert new_schema is None
    assert out.headers == (*HEADER1, *added)


@pytest.mark.parametrize("operation", ["copy", "move"])
def test_header_from_a_struct_field_writes_values_text(operation: str) -> None:
    inner = struct(("foo", STRING))
    schema = struct(("field1", inner), ("field2", STRING))
    value = {"field1": {"foo": "foo-value"}, "field2": "field2-value"}
    out = apply(
        "HeaderFrom$Value",
        _hf("field1", "inserted1", operation),
        rec(value, schema, headers=HEADER1),
    )
    assert out.headers == (*HEADER1, ("inserted1", b'{"foo":"foo-value"}'))


@pytest.mark.parametrize(("replace_null", "written"), [(False, None), (True, b"default")])
def test_header_from_null_field_with_default(replace_null: bool, written: bytes | None) -> None:
    optional = ConnectSchema(Type.STRING, optional=True, default="default")
    schema = struct(("field1", optional), ("field2", optional))
    value = {"field1": "field1-value", "field2": None}
    props = _hf("field1,field2", "inserted1,inserted2", "copy", replace_null)
    out = apply("HeaderFrom$Value", props, rec(value, schema))
    assert out.headers == (("inserted1", b"field1-value"), ("inserted2", written))
    assert out.value == value


def test_header_from_value_types_as_text() -> None:
    schema = struct(
        ("i", INT32),
        ("f", FLOAT32),
        ("d", decimal_schema(2)),
        ("day", DATE_SCHEMA),
        ("ts", TIMESTAMP_SCHEMA),
        ("b", ConnectSchema(Type.BYTES)),
        ("list", ConnectSchema(Type.ARRAY, value_schema=STRING)),
        ("map", ConnectSchema(Type.MAP, key_schema=STRING, value_schema=INT32)),
    )
    value = {
        "i": 42,
        "f": 0.1,
        "d": Decimal("1.50"),
        "day": date(2024, 1, 2),
        "ts": datetime(2024, 1, 2, 3, 4, 5, 6000, tzinfo=UTC),
        "b": b"\x00\x01",
        "list": ['a"b', "c\\d"],
        "map": {"k": 1},
    }
    names = ",".join(value)
    out = apply("HeaderFrom$Value", _hf(names, names, "copy"), rec(value, schema))
    assert dict(out.headers) == {
        "i": b"42",
        "f": b"0.1",
        "d": b"1.50",
        "day": b"2024-01-02",
        "ts": b"2024-01-02T03:04:05.006Z",
        "b": b"AAE=",
        "list": b'["a\\"b","c\\\\d"]',
        "map": b'{"k":1}',
    }


def test_header_from_needs_a_struct_or_map() -> None:
    with pytest.raises(TransformationError) as info:
        one("HeaderFrom$Value", _hf("a", "b", "copy")).apply(
            rec(None, struct(("a", STRING), optional=True))
        )
    assert "Only Struct objects supported for [header copy], found: null" in str(info.value)


def test_header_from_config_errors() -> None:
    text = one_problems("HeaderFrom$Value", _hf("foo,bar", "foo", "copy"))
    assert "'fields' config must have the same number of elements as 'headers' config." in text
    assert "transforms.t.fields and transforms.t.headers are invalid" in text
    text = one_problems("HeaderFrom$Key", _hf("", "", "copy"))
    assert "Invalid value [] for configuration transforms.t.fields: Empty list" in text
    assert "Invalid value [] for configuration transforms.t.headers: Empty list" in text
    text = one_problems("HeaderFrom$Key", _hf("a", "b", "cut"))
    assert (
        "Invalid value cut for configuration transforms.t.operation: String must be one "
        "of: move, copy" in text
    )


# NonEmptyListValidator (Kafka's NonEmptyListValidatorTest, through DropHeaders' headers)


def test_null_list() -> None:
    assert "Invalid value null for configuration transforms.t.headers: Empty list" in (
        one_problems("DropHeaders", {"headers": None})
    )


def test_empty_list() -> None:
    assert "Invalid value [] for configuration transforms.t.headers: Empty list" in (
        one_problems("DropHeaders", {"headers": []})
    )


def test_valid_list() -> None:
    assert len(one("DropHeaders", {"headers": ["foo"]})) == 1


def test_header_from_a_field_the_schema_lacks_fails_as_in_kafka() -> None:
    """Kafka fails with a NullPointerException (checked against Kafka 4.1.1)."""
    chain = one("HeaderFrom$Value", _hf("nope", "h", "move"))
    with pytest.raises(TransformationError) as info:
        chain.apply(rec({"field1": "a", "field2": "b"}, TWO))
    assert 'the return value of "org.apache.kafka.connect.data.Schema.field(String)" is null' in (
        str(info.value)
    )
