"""Converters: Kafka Connect JsonConverter / StringConverter / ByteArrayConverter behaviour."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any

import pytest

from s3connect.connect.json_data import dumps_json, parse_json_schema, schema_to_json
from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.convert.base import Converter
from s3connect.convert.bytearray import ByteArrayConverter
from s3connect.convert.factory import converter_names, make_converter, register_converter
from s3connect.convert.json import JsonConverter
from s3connect.convert.string import StringConverter

DECIMAL = "org.apache.kafka.connect.data.Decimal"
TIMESTAMP = "org.apache.kafka.connect.data.Timestamp"
DATE = "org.apache.kafka.connect.data.Date"
TIME = "org.apache.kafka.connect.data.Time"


def envelope(schema: Any, payload: Any) -> bytes:
    return json.dumps({"schema": schema, "payload": payload}).encode()


ORDER_SCHEMA = {
    "type": "struct",
    "name": "com.acme.Order",
    "version": 3,
    "doc": "an order",
    "optional": False,
    "fields": [
        {"field": "id", "type": "int64"},
        {"field": "qty", "type": "int16"},
        {"field": "flag", "type": "int8", "optional": True},
        {"field": "price", "type": "double"},
        {"field": "ratio", "type": "float"},
        {"field": "ok", "type": "boolean"},
        {"field": "note", "type": "string", "optional": True},
        {"field": "blob", "type": "bytes"},
        {
            "field": "amount",
            "type": "bytes",
            "name": DECIMAL,
            "version": 1,
            "parameters": {"scale": "2"},
        },
        {"field": "ts", "type": "int64", "name": TIMESTAMP, "version": 1},
        {"field": "day", "type": "int32", "name": DATE, "version": 1},
        {"field": "at", "type": "int32", "name": TIME, "version": 1},
        {"field": "tags", "type": "array", "items": {"type": "string"}},
        {
            "field": "attrs",
            "type": "map",
            "keys": {"type": "string"},
            "values": {"type": "int32"},
        },
        {"field": "codes", "type": "map", "keys": {"type": "int32"}, "values": {"type": "string"}},
        {
            "field": "addr",
            "type": "struct",
            "fields": [
                {"field": "city", "type": "string"},
                {"field": "zip", "type": "string", "optional": True, "default": "00000"},
            ],
        },
    ],
}
ORDER_PAYLOAD = {
    "id": 42,
    "qty": 7,
    "flag": None,
    "price": 9.5,
    "ratio": 0.25,
    "ok": True,
    "note": None,
    "blob": "AQID",
    "amount": "MDk=",  # 0x3039 = 12345 -> 123.45
    "ts": 1700000000123,
    "day": 19000,
    "at": 3723004,
    "tags": ["a", "b"],
    "attrs": {"x": 1, "y": 2},
    "codes": [[1, "one"], [2, "two"]],
    "addr": {"city": "Paris", "zip": None},
}


def test_envelope_full_struct_values() -> None:
    value, schema = JsonConverter().to_connect("t", envelope(ORDER_SCHEMA, ORDER_PAYLOAD))
    assert value == {
        "id": 42,
        "qty": 7,
        "flag": None,
        "price": 9.5,
        "ratio": 0.25,
        "ok": True,
        "note": None,
        "blob": b"\x01\x02\x03",
        "amount": Decimal("123.45"),
        "ts": datetime(2023, 11, 14, 22, 13, 20, 123000, tzinfo=UTC),
        "day": date(2022, 1, 8),
        "at": time(1, 2, 3, 4000),
        "tags": ["a", "b"],
        "attrs": {"x": 1, "y": 2},
        "codes": {1: "one", 2: "two"},
        "addr": {"city": "Paris", "zip": "00000"},  # null replaced by the field default
    }
    assert schema is not None
    assert list(value) == [f.name for f in schema.fields]


def test_envelope_schema_model() -> None:
    _, schema = JsonConverter().to_connect("t", envelope(ORDER_SCHEMA, ORDER_PAYLOAD))
    assert schema is not None
    assert (schema.type, schema.name, schema.version, schema.doc, schema.optional) == (
        Type.STRUCT,
        "com.acme.Order",
        3,
        "an order",
        False,
    )
    amount = schema.field("amount")
    assert amount is not None
    assert amount.schema == ConnectSchema(
        Type.BYTES, name=DECIMAL, version=1, parameters={"scale": "2"}
    )
    flag = schema.field("flag")
    assert flag is not None and flag.schema == ConnectSchema(Type.INT8, optional=True)
    codes = schema.field("codes")
    assert codes is not None
    assert codes.schema.key_schema == ConnectSchema(Type.INT32)
    assert codes.schema.value_schema == ConnectSchema(Type.STRING)
    addr = schema.field("addr")
    assert addr is not None
    assert addr.schema.fields[1] == Field(
        "zip", ConnectSchema(Type.STRING, optional=True, default="00000")
    )


def test_schema_round_trips_through_json() -> None:
    schema = parse_json_schema(ORDER_SCHEMA)
    assert parse_json_schema(json.loads(json.dumps(schema_to_json(schema)))) == schema


def test_logical_defaults_are_converted() -> None:
    node = {"type": "int64", "name": TIMESTAMP, "optional": True, "default": 1000}
    assert parse_json_schema(node) == ConnectSchema(
        Type.INT64,
        optional=True,
        name=TIMESTAMP,
        default=datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC),
    )


def test_decimal_numeric_payload() -> None:
    schema = {"type": "bytes", "name": DECIMAL, "parameters": {"scale": "3"}}
    value, _ = JsonConverter().to_connect(
        "t", b'{"schema":%s,"payload":1.5}' % json.dumps(schema).encode()
    )
    # JsonConverter reads a number as its BigDecimal (JsonNode.decimalValue), at its own scale.
    assert value == Decimal("1.5")
    assert str(value) == "1.5"


def test_negative_decimal_base64() -> None:
    schema = {"type": "bytes", "name": DECIMAL, "parameters": {"scale": "2"}}
    value, _ = JsonConverter().to_connect("t", envelope(schema, "/w=="))  # 0xFF = -1
    assert value == Decimal("-0.01")


@pytest.mark.parametrize("schemas_enable", [True, False])
def test_tombstone_is_null_value_and_schema(schemas_enable: bool) -> None:
    assert JsonConverter(schemas_enable=schemas_enable).to_connect("t", None) == (None, None)


def test_null_payload_for_optional_schema() -> None:
    data = envelope({"type": "string", "optional": True}, None)
    assert JsonConverter().to_connect("t", data) == (
        None,
        ConnectSchema(Type.STRING, optional=True),
    )


def test_null_schema_in_envelope_is_schemaless() -> None:
    assert JsonConverter().to_connect("t", b'{"schema":null,"payload":{"a":1}}') == (
        {"a": 1},
        None,
    )


@pytest.mark.parametrize(
    "data",
    [b'{"a": 1}', b'{"schema": {"type": "int32"}, "payload": 1, "extra": 2}', b"[1, 2]", b"3"],
)
def test_missing_envelope_names_the_fix(data: bytes) -> None:
    with pytest.raises(ValueError) as err:
        JsonConverter().to_connect("t", data)
    assert str(err.value) == (
        'JsonConverter with schemas.enable requires "schema" and "payload" fields and may not '
        "contain additional fields. If you are trying to deserialize plain JSON data, set "
        "schemas.enable=false in your converter configuration."
    )


def test_invalid_json_is_a_serialization_error() -> None:
    with pytest.raises(ValueError, match="failed due to serialization error"):
        JsonConverter(schemas_enable=False).to_connect("t", b"{not json")


def test_schemaless_values() -> None:
    conv = JsonConverter(schemas_enable=False)
    assert conv.to_connect("t", b'{"a": [1, 2.5, "x", null, true], "b": {"c": -3}}') == (
        {"a": [1, 2.5, "x", None, True], "b": {"c": -3}},
        None,
    )
    assert conv.to_connect("t", b'"text"') == ("text", None)
    assert conv.to_connect("t", b"12") == (12, None)
    assert conv.to_connect("t", b"null") == (None, None)


@pytest.mark.parametrize(
    ("schema", "payload", "message"),
    [
        ({"type": "int32"}, None, "Invalid null value for required INT32 field"),
        (
            {"type": "int32", "name": DATE},
            "1",
            "Invalid type for Date, underlying representation should be integer but was STRING",
        ),
        (
            {"type": "map", "keys": {"type": "string"}, "values": {"type": "int32"}},
            [],
            "Maps with string fields should be encoded as JSON objects, but found ARRAY",
        ),
        ({"type": "struct", "fields": []}, [1], "Structs should be encoded as JSON objects"),
        ({"type": "uuid"}, 1, "Unknown schema type: uuid"),
        ({"type": "array"}, [], "Array schema did not specify the element type"),
        ({"type": "map", "values": {"type": "int32"}}, {}, "Map schema did not specify the key"),
        ({"optional": True}, 1, "Schema must contain 'type' field"),
        ({"type": "struct", "fields": [{"type": "int32"}]}, {}, "field name not specified"),
        (
            {"type": "map", "keys": {"type": "int32"}, "values": {"type": "int32"}},
            [[1]],
            "Found invalid map entry, expected length 2 but found :1",
        ),
        (
            {"type": "map", "keys": {"type": "int32"}, "values": {"type": "int32"}},
            [1],
            "Found invalid map entry instead of array tuple: NUMBER",
        ),
    ],
)
def test_schema_and_payload_errors(schema: Any, payload: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        JsonConverter().to_connect("t", envelope(schema, payload))


def test_from_connect_envelope_bytes() -> None:
    schema = ConnectSchema(
        Type.STRUCT,
        name="r",
        fields=(
            Field("a", ConnectSchema(Type.FLOAT64)),
            Field("b", ConnectSchema(Type.FLOAT32)),
            Field("c", ConnectSchema(Type.BYTES, optional=True)),
        ),
    )
    out = JsonConverter().from_connect("t", schema, {"a": 1e7, "b": 0.1, "c": b"\x00\xff"})
    assert out == (
        b'{"schema":{"type":"struct","fields":[{"type":"double","optional":false,"field":"a"},'
        b'{"type":"float","optional":false,"field":"b"},'
        b'{"type":"bytes","optional":true,"field":"c"}],"optional":false,"name":"r"},'
        b'"payload":{"a":1.0E7,"b":0.1,"c":"AP8="}}'
    )
    assert JsonConverter().to_connect("t", out) == (
        {"a": 1e7, "b": pytest.approx(0.1), "c": b"\x00\xff"},
        schema,
    )


def test_from_connect_decimal_formats() -> None:
    schema = ConnectSchema(Type.BYTES, name=DECIMAL, parameters={"scale": "2"})
    base64_conv = JsonConverter(schemas_enable=False)
    numeric = JsonConverter(schemas_enable=False, decimal_format="numeric")
    assert base64_conv.from_connect("t", schema, Decimal("123.45")) == b'"MDk="'
    assert numeric.from_connect("t", schema, Decimal("123.45")) == b"123.45"
    # NUMERIC writes the BigDecimal as it is (JsonNodeFactory.numberNode), whatever its scale.
    assert numeric.from_connect("t", schema, Decimal("1.234")) == b"1.234"
    with pytest.raises(ValueError, match="mismatching scale"):
        base64_conv.from_connect("t", schema, Decimal("1.234"))


def test_from_connect_required_null_fails() -> None:
    with pytest.raises(ValueError, match="null value for field that is required"):
        JsonConverter(schemas_enable=False).from_connect("t", ConnectSchema(Type.INT32), None)


def test_dumps_json_matches_jackson_text() -> None:
    assert dumps_json({"s": 'a"\\\n\x01é', "n": None, "t": True}) == (
        '{"s":"a\\"\\\\\\n\\u0001é","n":null,"t":true}'
    )
    assert dumps_json([1.0, 1e-4, 123.5, -0.0, 1e21, float("nan")]) == (
        '[1.0,1.0E-4,123.5,-0.0,1.0E21,"NaN"]'
    )
    assert dumps_json(datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC)) == "1000"
    assert dumps_json({1: b"\x01"}) == '{"1":"AQ=="}'
    assert dumps_json(Decimal("1E+3")) == "1E+3"


def test_string_converter() -> None:
    conv = StringConverter()
    assert conv.to_connect("t", "héllo".encode()) == ("héllo", ConnectSchema(Type.STRING, True))
    assert conv.to_connect("t", None) == (None, ConnectSchema(Type.STRING, optional=True))
    assert conv.to_connect("t", b"a\xffb") == ("a\ufffdb", ConnectSchema(Type.STRING, True))


def test_bytearray_converter() -> None:
    conv = ByteArrayConverter()
    assert conv.to_connect("t", b"\x00\x01") == (b"\x00\x01", ConnectSchema(Type.BYTES, True))
    assert conv.to_connect("t", None) == (None, ConnectSchema(Type.BYTES, optional=True))


def test_make_converter_by_short_and_class_name() -> None:
    json_conv = make_converter("json", schemas_enable=False, is_key=True)
    assert isinstance(json_conv, JsonConverter)
    assert (json_conv.schemas_enable, json_conv.is_key) == (False, True)
    assert isinstance(
        make_converter("org.apache.kafka.connect.storage.StringConverter"), StringConverter
    )
    assert isinstance(make_converter("bytearray"), ByteArrayConverter)
    assert isinstance(json_conv, Converter)


def test_unknown_converter_lists_known_names() -> None:
    with pytest.raises(
        ValueError,
        match="Unknown converter 'avro'; known: boolean, bytearray, double, float, integer, "
        "json, long, short, string",
    ):
        make_converter("avro")


def test_register_converter() -> None:
    class Upper:
        def __init__(self, *, schemas_enable: bool, is_key: bool) -> None:
            self.is_key = is_key

        def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
            return (None if data is None else data.decode().upper()), None

    register_converter("upper-test", Upper)
    try:
        assert make_converter("upper-test").to_connect("t", b"ab") == ("AB", None)
        assert "upper-test" in converter_names()
    finally:
        from s3connect.convert import factory as converters

        converters._REGISTRY.pop("upper-test")


@pytest.mark.parametrize(
    ("schema", "payload"),
    [({"type": "int64", "name": TIMESTAMP}, 10**17), ({"type": "int32", "name": DATE}, 3_000_000)],
)
def test_dates_beyond_python_years_are_data_errors(schema: Any, payload: int) -> None:
    # Java's Date holds them; Python's datetime stops at year 9999: a record error, not a crash.
    with pytest.raises(ValueError, match="outside the years 1 to 9999"):
        JsonConverter().to_connect("t", envelope(schema, payload))
