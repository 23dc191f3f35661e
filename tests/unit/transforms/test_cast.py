"""Cast$Key / Cast$Value: Kafka's CastTest, translated to our value model."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from decimal import Decimal

import pytest

from s3connect.connect.schema import ConnectSchema, Type
from s3connect.errors import TransformationError
from s3connect.util.jackson import Float32
from tests.unit.transforms.xformhelp import (
    BOOLEAN,
    BYTES,
    DATE_SCHEMA,
    FLOAT32,
    FLOAT64,
    INT8,
    INT32,
    INT64,
    OPTIONAL_INT32,
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

DAY_MS = 86_400_000


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "Must specify at least one field to cast."),
        ("foo:faketype", "Invalid type found in casting spec: faketype"),
        ("foo:array", "does not support casting to ARRAY"),
        ("array", "does not support casting to ARRAY"),
        ("foo:bytes", "does not support casting to BYTES"),
        ("foo:int8:extra", "Invalid rename mapping: foo:int8:extra"),  # sic, Kafka's Cast
        ("foo:int8,int32", "may only specify a single cast in their spec"),
    ],
)
def test_invalid_specs_are_config_errors_naming_the_key(spec: str, message: str) -> None:
    text = one_problems("Cast$Key", {"spec": spec})
    listed = ", ".join(spec.split(",")) if spec else ""  # a LIST key: Java prints [a, b]
    assert f"Invalid value [{listed}] for configuration transforms.t.spec: " in text
    assert message in text
    assert "colon-delimited pairs" in text


def test_spec_is_required() -> None:
    assert 'Missing required configuration "transforms.t.spec"' in one_problems("Cast$Value")


def test_null_values_and_keys_pass_unchanged() -> None:
    with_schema = rec(None, STRING, key="key", key_schema=STRING)
    assert one("Cast$Value", {"spec": "foo:int64"}).apply(with_schema) is with_schema
    schemaless = rec(None, None, key="key", key_schema=STRING)
    assert one("Cast$Value", {"spec": "foo:int64"}).apply(schemaless) is schemaless
    null_key = rec("value", STRING, key=None, key_schema=STRING)
    assert one("Cast$Key", {"spec": "foo:int64"}).apply(null_key) is null_key


@pytest.mark.parametrize(("replace_null", "expected"), [(False, None), (True, "10")])
def test_a_null_field_takes_its_default_unless_told_not_to(
    replace_null: bool, expected: str | None
) -> None:
    schema = struct(("magic", ConnectSchema(Type.INT32, optional=True, default=10)))
    props = {"spec": "magic:string", "replace.null.with.default": str(replace_null).lower()}
    out = apply("Cast$Value", props, rec({"magic": None}, schema))
    assert out.value_schema is not None
    magic = out.value_schema.field("magic")
    assert magic is not None and magic.schema.type is Type.STRING
    assert out.value == {"magic": expected}


def test_whole_key_with_schema() -> None:
    out = apply("Cast$Key", {"spec": "int8"}, rec("bogus", STRING, key=42, key_schema=INT32))
    assert out.key_schema == INT8 and out.key == 42
    assert out.value == "bogus" and out.value_schema == STRING


@pytest.mark.parametrize(
    ("target", "schema_type", "expected"),
    [
        ("int8", Type.INT8, 42),
        ("int16", Type.INT16, 42),
        ("int32", Type.INT32, 42),
        ("int64", Type.INT64, 42),
        ("float32", Type.FLOAT32, Float32(42.0)),  # a Java Float: JSON prints Float.toString
        ("float64", Type.FLOAT64, 42.0),
        ("boolean", Type.BOOLEAN, True),
        ("string", Type.STRING, "42"),
    ],
)
def test_whole_value_with_schema(target: str, schema_type: Type, expected: object) -> None:
    out = apply("Cast$Value", {"spec": target}, rec(42, INT32))
    assert out.value_schema == ConnectSchema(schema_type)
    assert out.value == expected and type(out.value) is type(expected)


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("int8", 42),
        ("int16", 42),
        ("int32", 42),
        ("int64", 42),
        ("float32", Float32(42.0)),
        ("float64", 42.0),
        ("boolean", True),
        ("string", "42"),
    ],
)
def test_whole_value_schemaless(target: str, expected: object) -> None:
    out = apply("Cast$Value", {"spec": target}, rec(42))
    assert out.value_schema is None
    assert out.value == expected and type(out.value) is type(expected)


def test_zero_casts_to_false() -> None:
    assert apply("Cast$Value", {"spec": "boolean"}, rec(0, INT32)).value is False
    assert apply("Cast$Value", {"spec": "boolean"}, rec(0)).value is False


def test_whole_decimal_and_timestamp_to_string() -> None:
    out = apply("Cast$Value", {"spec": "string"}, rec(Decimal(42), decimal_schema(0)))
    assert out.value == "42" and out.value_schema is not None
    assert out.value_schema.type is Type.STRING
    moment = datetime(1970, 1, 2, 0, 0, 0, 1000, tzinfo=UTC)  # a day and 1 ms
    out = apply("Cast$Value", {"spec": "string"}, rec(moment, TIMESTAMP_SCHEMA))
    assert out.value == "1970-01-02T00:00:00.001Z"


def test_the_schema_default_is_cast_too() -> None:
    schema = ConnectSchema(Type.FLOAT32, default=-42.125)
    out = apply("Cast$Value", {"spec": "int32"}, rec(42.125, schema))
    assert out.value == 42
    assert out.value_schema == ConnectSchema(Type.INT32, default=-42)


def test_whole_key_schemaless() -> None:
    out = apply("Cast$Key", {"spec": "int8"}, rec("bogus", STRING, key=42))
    assert out.key_schema is None and out.key == 42


def test_a_list_cannot_be_cast() -> None:
    with pytest.raises(TransformationError) as info:
        one("Cast$Value", {"spec": "int8"}).apply(rec(["foo"]))
    assert "does not support casting from ARRAY" in str(info.value)
    assert info.value.class_name == "org.apache.kafka.connect.transforms.Cast$Value"
    assert info.value.stage == "TRANSFORMATION"


def test_logical_types_cast_to_their_numbers_with_java_narrowing() -> None:
    spec = (
        "date_to_int32:int32,timestamp_to_int64:int64,time_to_int64:int64,"
        "decimal_to_int32:int32,timestamp_to_float64:float64,null_timestamp_to_int32:int32"
    )
    schema = struct(
        ("date_to_int32", DATE_SCHEMA),
        ("timestamp_to_int64", TIMESTAMP_SCHEMA),
        ("time_to_int64", TIME_SCHEMA),
        ("decimal_to_int32", decimal_schema(0)),
        ("timestamp_to_float64", TIMESTAMP_SCHEMA),
        (
            "null_timestamp_to_int32",
            ConnectSchema(Type.INT64, name=TIMESTAMP_SCHEMA.name, optional=True),
        ),
    )
    value = {
        "date_to_int32": date(1970, 1, 2),
        "timestamp_to_int64": datetime(1970, 1, 1, tzinfo=UTC),
        "time_to_int64": time(0, 0, 0, 1000),
        "decimal_to_int32": Decimal(2**31),
        "timestamp_to_float64": datetime(9999, 12, 31, tzinfo=UTC),
        "null_timestamp_to_int32": None,
    }
    out = apply("Cast$Value", {"spec": spec}, rec(value, schema))
    assert out.value == {
        "date_to_int32": 1,
        "timestamp_to_int64": 0,
        "time_to_int64": 1,
        "decimal_to_int32": -(2**31),  # intValue() wraps
        "timestamp_to_float64": 253402214400000.0,
        "null_timestamp_to_int32": None,
    }
    assert out.value_schema is not None
    types = [f.schema.type for f in out.value_schema.fields]
    assert types == [Type.INT32, Type.INT64, Type.INT64, Type.INT32, Type.FLOAT64, Type.INT32]
    assert [f.schema.name for f in out.value_schema.fields] == [None] * 6


def test_logical_types_to_string_use_values_date_formats() -> None:
    schema = struct(
        ("date", DATE_SCHEMA),
        ("decimal", decimal_schema(0)),
        ("time", TIME_SCHEMA),
        ("timestamp", TIMESTAMP_SCHEMA),
    )
    value = {
        "date": date(1970, 1, 2),
        "decimal": Decimal(1982),
        "time": time(1, 0),
        "timestamp": datetime(2023, 11, 14, 22, 13, 20, 123000, tzinfo=UTC),
    }
    out = apply(
        "Cast$Value",
        {"spec": "date:string,decimal:string,time:string,timestamp:string"},
        rec(value, schema),
    )
    assert out.value == {
        "date": "1970-01-02",
        "decimal": "1982",
        "time": "01:00:00.000Z",
        "timestamp": "2023-11-14T22:13:20.123Z",
    }


def test_fields_with_schema() -> None:
    spec = (
        "int8:int16,int16:int32,int32:int64,int64:boolean,float32:float64,float64:boolean,"
        "boolean:int8,string:int32,bigdecimal:string,date:string,optional:int32,bytes:string"
    )
    schema = struct(
        ("int8", INT8),
        ("int16", ConnectSchema(Type.INT16, optional=True)),
        ("int32", ConnectSchema(Type.INT32, default=2)),
        ("int64", INT64),
        ("float32", FLOAT32),
        ("float64", ConnectSchema(Type.FLOAT64, default=-1.125)),
        ("boolean", BOOLEAN),
        ("string", STRING),
        ("bigdecimal", decimal_schema(0)),
        ("date", DATE_SCHEMA),
        ("optional", ConnectSchema(Type.FLOAT32, optional=True)),
        ("timestamp", TIMESTAMP_SCHEMA),
        ("bytes", BYTES),
    )
    value = {
        "int8": 8,
        "int16": 16,
        "int32": 32,
        "int64": 64,
        "float32": 32.0,
        "float64": -64.0,
        "boolean": True,
        "string": "42",
        "bigdecimal": Decimal(42),
        "date": date(1970, 1, 2),
        "optional": None,
        "timestamp": datetime(1970, 1, 1, tzinfo=UTC),
        "bytes": bytes([0xFE, 0xDC, 0xBA, 0x98, 0x76, 0x54, 0x32, 0x10]),
    }
    out = apply("Cast$Value", {"spec": spec}, rec(value, schema))
    assert out.value == {
        "int8": 8,
        "int16": 16,
        "int32": 32,
        "int64": True,
        "float32": 32.0,
        "float64": True,
        "boolean": 1,
        "string": 42,
        "bigdecimal": "42",
        "date": "1970-01-02",
        "optional": None,
        "timestamp": datetime(1970, 1, 1, tzinfo=UTC),
        "bytes": "/ty6mHZUMhA=",
    }
    new = out.value_schema
    assert new is not None
    by_name = {f.name: f.schema for f in new.fields}
    assert by_name["int16"] == ConnectSchema(Type.INT32, optional=True)
    assert by_name["int32"] == ConnectSchema(Type.INT64, default=2)
    assert by_name["float64"] == ConnectSchema(Type.BOOLEAN, default=True)
    assert by_name["optional"] == OPTIONAL_INT32
    assert by_name["timestamp"] == TIMESTAMP_SCHEMA  # not cast
    assert by_name["bytes"] == STRING


def test_fields_schemaless() -> None:
    spec = (
        "int8:int16,int16:int32,int32:int64,int64:boolean,float32:float64,float64:boolean,"
        "boolean:int8,string:int32,missing:int8"
    )
    value = {
        "int8": 8,
        "int16": 16,
        "int32": 32,
        "int64": 64,
        "float32": 32.0,
        "float64": -64.0,
        "boolean": True,
        "string": "42",
    }
    out = apply("Cast$Value", {"spec": spec}, rec(value))
    assert out.value_schema is None
    assert out.value == {
        "int8": 8,
        "int16": 16,
        "int32": 32,
        "int64": True,
        "float32": 32.0,
        "float64": True,
        "boolean": 1,
        "string": 42,
        "missing": None,  # Kafka's HashMap.put of the (null) cast of a missing field
    }


@pytest.mark.parametrize(
    ("value", "schema", "target", "expected"),
    [
        (300, INT32, "int8", 44),  # (byte) 300
        (-129, INT64, "int8", 127),
        (70000, INT32, "int16", 4464),
        (2**40 + 5, INT64, "int32", 5),
        (3.99, FLOAT64, "int32", 3),  # toward zero
        (-3.99, FLOAT64, "int64", -3),
        (1e20, FLOAT64, "int32", 2**31 - 1),  # saturates
        (1e20, FLOAT64, "int8", -1),  # (byte) of the saturated int
        (float("nan"), FLOAT64, "int64", 0),
        (0.1, FLOAT64, "float32", 0.10000000149011612),
        (0.5, FLOAT64, "boolean", False),  # longValue() is 0
        (0.1, FLOAT32, "float64", 0.10000000149011612),  # a Java Float widened
        (1.5, FLOAT32, "string", "1.5"),
        (1e10, FLOAT64, "string", "1.0E10"),
        (True, BOOLEAN, "float32", 1.0),
        ("TRUE", STRING, "boolean", True),
        ("yes", STRING, "boolean", False),
        ("+12", STRING, "int16", 12),
        ("1e3", STRING, "float64", 1000.0),
        ("1.5f", STRING, "float32", 1.5),
        (" 2.5 ", STRING, "float64", 2.5),  # parseDouble trims
    ],
)
def test_java_conversions(
    value: object, schema: ConnectSchema, target: str, expected: object
) -> None:
    out = apply("Cast$Value", {"spec": target}, rec(value, schema))
    assert out.value == expected


@pytest.mark.parametrize(
    ("value", "target"), [("128", "int8"), ("abc", "int32"), ("1.5", "int64"), (" 1", "int32")]
)
def test_strings_that_do_not_parse_fail_as_in_kafka(value: str, target: str) -> None:
    with pytest.raises(TransformationError) as info:
        one("Cast$Value", {"spec": target}).apply(rec(value, STRING, offset=7))
    assert str(info.value).startswith(
        f"transform 't' failed: Value ({value}) was out of range for requested data type"
    )
    assert info.value.offset == 7


def test_bytes_only_cast_to_string() -> None:
    with pytest.raises(TransformationError) as info:
        one("Cast$Value", {"spec": "int32"}).apply(rec(b"\x01", BYTES))
    assert "Unexpected type in Cast transformation: class [B" in str(info.value)


@pytest.mark.parametrize(
    "spec", ["a:int32,b:int32,zz:int32,f1:int32", "f1:int32,zz:int32,b:int32,a:int32"]
)
def test_schemaless_fields_are_cast_in_hash_map_order(spec: str) -> None:
    """Kafka keeps the casts in a HashMap: a schemaless value's fields are cast in its order,
    so the first that fails names the error whatever the spec's order (checked against
    Kafka 4.1.1)."""
    value = {"a": "x", "b": "yy", "zz": "zzz", "f1": "w"}
    with pytest.raises(TransformationError) as info:
        one("Cast$Value", {"spec": spec}).apply(rec(value))
    assert "Value (zzz) was out of range for requested data type" in str(info.value)
