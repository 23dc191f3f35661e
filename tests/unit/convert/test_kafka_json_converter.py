"""Kafka's ``JsonConverterTest`` and ``JsonConverterConfigTest``, one test per Java method, on
our :class:`~s3connect.convert.json.JsonConverter`.

Source: apache/kafka ``connect/json/src/test/java/org/apache/kafka/connect/json/`` at 1eb7644
(the mirror's HEAD; the product runs Kafka 4.1.1's JsonConverter, whose tests are the same).
Java's ``converter.configure(props, isKey)`` is the converter's constructor arguments; a
``SchemaAndValue`` is our ``(value, schema)`` pair, a ``Struct`` a dict in field order, a
``java.util.Date`` of the Date, Time and Timestamp logical types a :class:`datetime.date`,
:class:`datetime.time` and UTC :class:`datetime.datetime`. ``parse(fromConnectData(...))`` is
the written bytes read back as JSON (numbers as :class:`decimal.Decimal`, as the Java test's
``USE_BIG_DECIMAL_FOR_FLOATS`` mapper reads them). Not ported: the header delegation tests
(``testStringHeaderToJson``, ``stringHeaderToConnect``: the product has no JsonConverter header
converter), the from-Connect schema cache (``testCacheSchemaToJsonConversion``: no such cache),
``testJsonSchemaCacheSizeFromConfigFile`` and ``testVersionRetrievedFromAppInfoParser``.
"""

from __future__ import annotations

import base64
import json
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any

import pytest

from s3connect.connect.schema import ConnectSchema, Type
from s3connect.convert.json import JsonConverter
from tests.unit.transforms.xformhelp import (
    BOOLEAN,
    BYTES,
    DATE_SCHEMA,
    FLOAT32,
    FLOAT64,
    INT8,
    INT16,
    INT32,
    INT64,
    OPTIONAL_STRING,
    STRING,
    TIME_SCHEMA,
    TIMESTAMP_SCHEMA,
    decimal_schema,
    struct,
)

TOPIC = "topic"
OPTIONAL_BOOLEAN = ConnectSchema(Type.BOOLEAN, optional=True)
DECIMAL_2 = '"name": "org.apache.kafka.connect.data.Decimal", "version": 1'


def to_connect(text: str | bytes | None, **config: Any) -> tuple[Any, ConnectSchema | None]:
    """``toConnectData`` of a converter configured with ``config``: (value, schema)."""
    data = text.encode() if isinstance(text, str) else text
    return JsonConverter(**config).to_connect(TOPIC, data)


def from_connect(schema: ConnectSchema | None, value: Any, **config: Any) -> Any:
    """``parse(fromConnectData(...))``: the written JSON read back (None for null bytes)."""
    out = JsonConverter(**config).from_connect(TOPIC, schema, value)
    return None if out is None else json.loads(out, parse_float=Decimal)


def envelope_of(converted: Any, schema_json: str) -> Any:
    """``validateEnvelope``, the schema checked against ``schema_json``: the payload."""
    assert isinstance(converted, dict)
    assert list(converted) == ["schema", "payload"]
    assert isinstance(converted["schema"], dict)
    assert converted["schema"] == json.loads(schema_json)
    return converted["payload"]


def null_schema_payload(converted: Any) -> Any:
    """``validateEnvelopeNullSchema``: the payload."""
    assert isinstance(converted, dict)
    assert list(converted) == ["schema", "payload"]
    assert converted["schema"] is None
    return converted["payload"]


# Schema metadata


def test_connect_schema_metadata_translation() -> None:
    assert to_connect('{ "schema": { "type": "boolean" }, "payload": true }') == (True, BOOLEAN)
    assert to_connect('{ "schema": { "type": "boolean", "optional": true }, "payload": null }') == (
        None,
        OPTIONAL_BOOLEAN,
    )
    assert to_connect('{ "schema": { "type": "boolean", "default": true }, "payload": null }') == (
        True,
        ConnectSchema(Type.BOOLEAN, default=True),
    )
    assert to_connect(
        '{ "schema": { "type": "boolean", "optional": false, "name": "bool", "version": 2, '
        '"doc": "the documentation", "parameters": { "foo": "bar" }}, "payload": true }'
    ) == (
        True,
        ConnectSchema(
            Type.BOOLEAN, name="bool", version=2, doc="the documentation", parameters={"foo": "bar"}
        ),
    )


# Schema types


def test_boolean_to_connect() -> None:
    assert to_connect('{ "schema": { "type": "boolean" }, "payload": true }') == (True, BOOLEAN)
    assert to_connect('{ "schema": { "type": "boolean" }, "payload": false }') == (False, BOOLEAN)


def test_byte_to_connect() -> None:
    assert to_connect('{ "schema": { "type": "int8" }, "payload": 12 }') == (12, INT8)


def test_short_to_connect() -> None:
    assert to_connect('{ "schema": { "type": "int16" }, "payload": 12 }') == (12, INT16)


def test_int_to_connect() -> None:
    assert to_connect('{ "schema": { "type": "int32" }, "payload": 12 }') == (12, INT32)


def test_long_to_connect() -> None:
    assert to_connect('{ "schema": { "type": "int64" }, "payload": 12 }') == (12, INT64)
    assert to_connect('{ "schema": { "type": "int64" }, "payload": 4398046511104 }') == (
        4398046511104,
        INT64,
    )


def test_number_with_leading_zeros_to_connect() -> None:
    assert to_connect('{ "schema": { "type": "int8" }, "payload": 0012 }') == (12, INT8)
    assert to_connect('{ "schema": { "type": "int16" }, "payload": 000123 }') == (123, INT16)
    assert to_connect('{ "schema": { "type": "int32" }, "payload": 000012345 }') == (12345, INT32)
    assert to_connect('{ "schema": { "type": "int64" }, "payload": 00000123456789 }') == (
        123456789,
        INT64,
    )


def test_float_to_connect() -> None:
    # Our float32 values are Python floats (doubles), rounded to a float when written.
    assert to_connect('{ "schema": { "type": "float" }, "payload": 12.34 }') == (12.34, FLOAT32)


def test_double_to_connect() -> None:
    assert to_connect('{ "schema": { "type": "double" }, "payload": 12.34 }') == (12.34, FLOAT64)


def test_bytes_to_connect() -> None:
    value, _ = to_connect('{ "schema": { "type": "bytes" }, "payload": "dGVzdC1zdHJpbmc=" }')
    assert value == b"test-string"


def test_string_to_connect() -> None:
    assert to_connect('{ "schema": { "type": "string" }, "payload": "foo-bar-baz" }') == (
        "foo-bar-baz",
        STRING,
    )


def test_array_to_connect() -> None:
    text = '{ "schema": { "type": "array", "items": { "type" : "int32" } }, "payload": [1, 2, 3] }'
    assert to_connect(text) == ([1, 2, 3], ConnectSchema(Type.ARRAY, value_schema=INT32))


def test_map_to_connect_string_keys() -> None:
    text = (
        '{ "schema": { "type": "map", "keys": { "type" : "string" }, "values": { "type" : '
        '"int32" } }, "payload": { "key1": 12, "key2": 15} }'
    )
    schema = ConnectSchema(Type.MAP, key_schema=STRING, value_schema=INT32)
    assert to_connect(text) == ({"key1": 12, "key2": 15}, schema)


def test_map_to_connect_non_string_keys() -> None:
    text = (
        '{ "schema": { "type": "map", "keys": { "type" : "int32" }, "values": { "type" : '
        '"int32" } }, "payload": [ [1, 12], [2, 15] ] }'
    )
    schema = ConnectSchema(Type.MAP, key_schema=INT32, value_schema=INT32)
    assert to_connect(text) == ({1: 12, 2: 15}, schema)


def test_struct_to_connect() -> None:
    text = (
        '{ "schema": { "type": "struct", "fields": [{ "field": "field1", "type": "boolean" }, '
        '{ "field": "field2", "type": "string" }] }, "payload": { "field1": true, "field2": '
        '"string" } }'
    )
    schema = struct(("field1", BOOLEAN), ("field2", STRING))
    assert to_connect(text) == ({"field1": True, "field2": "string"}, schema)


def test_struct_with_optional_field_to_connect() -> None:
    text = (
        '{ "schema": { "type": "struct", "fields": [{ "field":"optional", "type": "string", '
        '"optional": true }, {  "field": "required", "type": "string" }] }, "payload": { '
        '"required": "required" } }'
    )
    schema = struct(("optional", OPTIONAL_STRING), ("required", STRING))
    assert to_connect(text) == ({"optional": None, "required": "required"}, schema)


def test_null_to_connect() -> None:
    assert to_connect(None) == (None, None)


def test_empty_bytes_to_connect() -> None:
    assert to_connect("", schemas_enable=False, is_key=True) == (None, None)


def test_schemaless_with_empty_field_value_to_connect() -> None:
    converted = to_connect('{ "a": "", "b": null}', schemas_enable=False, is_key=True)
    assert converted == ({"a": "", "b": None}, None)


def test_null_schema_primitive_to_connect() -> None:
    assert to_connect('{ "schema": null, "payload": null }') == (None, None)
    assert to_connect('{ "schema": null, "payload": true }') == (True, None)
    # Integers are longs, other numbers doubles.
    converted = to_connect('{ "schema": null, "payload": 12 }')
    assert converted == (12, None) and type(converted[0]) is int
    converted = to_connect('{ "schema": null, "payload": 12.24 }')
    assert converted == (12.24, None) and type(converted[0]) is float
    assert to_connect('{ "schema": null, "payload": "a string" }') == ("a string", None)
    assert to_connect('{ "schema": null, "payload": [1, "2", 3] }') == ([1, "2", 3], None)
    assert to_connect('{ "schema": null, "payload": { "field1": 1, "field2": 2} }') == (
        {"field1": 1, "field2": 2},
        None,
    )


def test_decimal_to_connect() -> None:
    # The payload is the base64 of byte[]{0, -100}, the two's complement encoding of 156.
    text = (
        f'{{ "schema": {{ "type": "bytes", {DECIMAL_2}, "parameters": {{ "scale": "2" }} }}, '
        '"payload": "AJw=" }'
    )
    value, schema = to_connect(text)
    assert schema == decimal_schema(2)
    assert value == Decimal("1.56") and value.as_tuple() == Decimal("1.56").as_tuple()


def test_decimal_to_connect_optional() -> None:
    text = (
        f'{{ "schema": {{ "type": "bytes", {DECIMAL_2}, "optional": true, "parameters": '
        '{ "scale": "2" } }, "payload": null }'
    )
    value, schema = to_connect(text)
    assert schema == ConnectSchema(
        Type.BYTES, optional=True, name=decimal_schema(2).name, version=1, parameters={"scale": "2"}
    )
    assert value is None


def test_decimal_to_connect_with_default_value() -> None:
    reference = Decimal("1.56")
    text = (
        f'{{ "schema": {{ "type": "bytes", {DECIMAL_2}, "default": "AJw=", "parameters": '
        '{ "scale": "2" } }, "payload": null }'
    )
    value, schema = to_connect(text)
    assert schema == ConnectSchema(
        Type.BYTES,
        default=reference,
        name=decimal_schema(2).name,
        version=1,
        parameters={"scale": "2"},
    )
    assert value == reference


def test_decimal_to_connect_optional_with_default_value() -> None:
    reference = Decimal("1.56")
    text = (
        f'{{ "schema": {{ "type": "bytes", {DECIMAL_2}, "optional": true, "default": "AJw=", '
        '"parameters": { "scale": "2" } }, "payload": null }'
    )
    value, schema = to_connect(text)
    assert schema == ConnectSchema(
        Type.BYTES,
        optional=True,
        default=reference,
        name=decimal_schema(2).name,
        version=1,
        parameters={"scale": "2"},
    )
    assert value == reference


def _same_decimal(value: Any, reference: str) -> None:
    """``BigDecimal.equals``: the same number at the same scale."""
    assert isinstance(value, Decimal)
    assert value.as_tuple() == Decimal(reference).as_tuple()


def test_numeric_decimal_to_connect() -> None:
    text = (
        f'{{ "schema": {{ "type": "bytes", {DECIMAL_2}, "parameters": {{ "scale": "2" }} }}, '
        '"payload": 1.56 }'
    )
    value, schema = to_connect(text)
    assert schema == decimal_schema(2)
    _same_decimal(value, "1.56")


def test_numeric_decimal_with_trailing_zeros_to_connect() -> None:
    text = (
        f'{{ "schema": {{ "type": "bytes", {DECIMAL_2}, "parameters": {{ "scale": "4" }} }}, '
        '"payload": 1.5600 }'
    )
    value, schema = to_connect(text)
    assert schema == decimal_schema(4)
    _same_decimal(value, "1.5600")


def test_high_precision_numeric_decimal_to_connect() -> None:
    # This number is too big to be kept in a float64.
    text = (
        f'{{ "schema": {{ "type": "bytes", {DECIMAL_2}, "parameters": {{ "scale": "17" }} }}, '
        '"payload": 1.23456789123456789 }'
    )
    value, schema = to_connect(text)
    assert schema == decimal_schema(17)
    _same_decimal(value, "1.23456789123456789")


def _logical(type_name: str, logical: str, extra: str, payload: str) -> str:
    return (
        f'{{ "schema": {{ "type": "{type_name}", "name": "org.apache.kafka.connect.data.'
        f'{logical}", "version": 1{extra} }}, "payload": {payload} }}'
    )


def test_date_to_connect() -> None:
    value, schema = to_connect(_logical("int32", "Date", "", "10000"))
    assert schema == DATE_SCHEMA
    assert value == date(1997, 5, 19)  # 1970-01-01 + 10000 days


def test_date_to_connect_optional() -> None:
    value, schema = to_connect(_logical("int32", "Date", ', "optional": true', "null"))
    assert schema == ConnectSchema(Type.INT32, optional=True, name=DATE_SCHEMA.name, version=1)
    assert value is None


def test_date_to_connect_with_default_value() -> None:
    reference = date(1970, 1, 1)
    value, schema = to_connect(_logical("int32", "Date", ', "default": 0', "null"))
    assert schema == ConnectSchema(Type.INT32, default=reference, name=DATE_SCHEMA.name, version=1)
    assert value == reference


def test_date_to_connect_optional_with_default_value() -> None:
    reference = date(1970, 1, 1)
    extra = ', "optional": true, "default": 0'
    value, schema = to_connect(_logical("int32", "Date", extra, "null"))
    assert schema == ConnectSchema(
        Type.INT32, optional=True, default=reference, name=DATE_SCHEMA.name, version=1
    )
    assert value == reference


def test_time_to_connect() -> None:
    value, schema = to_connect(_logical("int32", "Time", "", "14400000"))
    assert schema == TIME_SCHEMA
    assert value == time(4, 0)


def test_time_to_connect_optional() -> None:
    value, schema = to_connect(_logical("int32", "Time", ', "optional": true', "null"))
    assert schema == ConnectSchema(Type.INT32, optional=True, name=TIME_SCHEMA.name, version=1)
    assert value is None


def test_time_to_connect_with_default_value() -> None:
    reference = time(0, 0)
    value, schema = to_connect(_logical("int32", "Time", ', "default": 0', "null"))
    assert schema == ConnectSchema(Type.INT32, default=reference, name=TIME_SCHEMA.name, version=1)
    assert value == reference


def test_time_to_connect_optional_with_default_value() -> None:
    reference = time(0, 0)
    extra = ', "optional": true, "default": 0'
    value, schema = to_connect(_logical("int32", "Time", extra, "null"))
    assert schema == ConnectSchema(
        Type.INT32, optional=True, default=reference, name=TIME_SCHEMA.name, version=1
    )
    assert value == reference


def test_timestamp_to_connect() -> None:
    value, schema = to_connect(_logical("int64", "Timestamp", "", "4000000000"))
    assert schema == TIMESTAMP_SCHEMA
    assert value == datetime(1970, 2, 16, 7, 6, 40, tzinfo=UTC)  # 4e9 ms after the epoch


def test_timestamp_to_connect_optional() -> None:
    value, schema = to_connect(_logical("int64", "Timestamp", ', "optional": true', "null"))
    assert schema == ConnectSchema(Type.INT64, optional=True, name=TIMESTAMP_SCHEMA.name, version=1)
    assert value is None


def test_timestamp_to_connect_with_default_value() -> None:
    reference = datetime(1970, 1, 1, 0, 0, 0, 42000, tzinfo=UTC)
    value, schema = to_connect(_logical("int64", "Timestamp", ', "default": 42', "null"))
    assert schema == ConnectSchema(
        Type.INT64, default=reference, name=TIMESTAMP_SCHEMA.name, version=1
    )
    assert value == reference


def test_timestamp_to_connect_optional_with_default_value() -> None:
    reference = datetime(1970, 1, 1, 0, 0, 0, 42000, tzinfo=UTC)
    extra = ',  "optional": true, "default": 42'
    value, schema = to_connect(_logical("int64", "Timestamp", extra, "null"))
    assert schema == ConnectSchema(
        Type.INT64, optional=True, default=reference, name=TIMESTAMP_SCHEMA.name, version=1
    )
    assert value == reference


# Schema metadata


def test_json_schema_metadata_translation() -> None:
    converted = from_connect(BOOLEAN, True)
    assert envelope_of(converted, '{ "type": "boolean", "optional": false }') is True

    converted = from_connect(OPTIONAL_BOOLEAN, None)
    assert envelope_of(converted, '{ "type": "boolean", "optional": true }') is None

    converted = from_connect(ConnectSchema(Type.BOOLEAN, default=True), True)
    schema = '{ "type": "boolean", "optional": false, "default": true }'
    assert envelope_of(converted, schema) is True

    metadata = ConnectSchema(
        Type.BOOLEAN, name="bool", version=3, doc="the documentation", parameters={"foo": "bar"}
    )
    converted = from_connect(metadata, True)
    schema = (
        '{ "type": "boolean", "optional": false, "name": "bool", "version": 3, "doc": '
        '"the documentation", "parameters": { "foo": "bar" }}'
    )
    assert envelope_of(converted, schema) is True


def test_cache_schema_to_connect_conversion() -> None:
    converter = JsonConverter()
    assert converter.schema_cache_size == 0

    converter.to_connect(TOPIC, b'{ "schema": { "type": "boolean" }, "payload": true }')
    assert converter.schema_cache_size == 1

    converter.to_connect(TOPIC, b'{ "schema": { "type": "boolean" }, "payload": true }')
    assert converter.schema_cache_size == 1

    # A different schema is cached too.
    text = b'{ "schema": { "type": "boolean", "optional": true }, "payload": true }'
    converter.to_connect(TOPIC, text)
    assert converter.schema_cache_size == 2

    # An equivalent schema in a different JSON encoding gets its own entry.
    text = b'{ "schema": { "type": "boolean", "optional": false }, "payload": true }'
    converter.to_connect(TOPIC, text)
    assert converter.schema_cache_size == 3


# Schema types


def test_boolean_to_json() -> None:
    converted = from_connect(BOOLEAN, True)
    assert envelope_of(converted, '{ "type": "boolean", "optional": false }') is True


def test_byte_to_json() -> None:
    assert envelope_of(from_connect(INT8, 12), '{ "type": "int8", "optional": false }') == 12


def test_short_to_json() -> None:
    assert envelope_of(from_connect(INT16, 12), '{ "type": "int16", "optional": false }') == 12


def test_int_to_json() -> None:
    assert envelope_of(from_connect(INT32, 12), '{ "type": "int32", "optional": false }') == 12


def test_long_to_json() -> None:
    converted = from_connect(INT64, 4398046511104)
    assert envelope_of(converted, '{ "type": "int64", "optional": false }') == 4398046511104


def test_float_to_json() -> None:
    payload = envelope_of(from_connect(FLOAT32, 12.34), '{ "type": "float", "optional": false }')
    assert float(payload) == pytest.approx(12.34, abs=0.001)


def test_double_to_json() -> None:
    payload = envelope_of(from_connect(FLOAT64, 12.34), '{ "type": "double", "optional": false }')
    assert float(payload) == pytest.approx(12.34, abs=0.001)


def test_bytes_to_json() -> None:
    converted = from_connect(BYTES, b"test-string")
    payload = envelope_of(converted, '{ "type": "bytes", "optional": false }')
    assert base64.b64decode(payload) == b"test-string"


def test_string_to_json() -> None:
    converted = from_connect(STRING, "test-string")
    assert envelope_of(converted, '{ "type": "string", "optional": false }') == "test-string"


def test_array_to_json() -> None:
    converted = from_connect(ConnectSchema(Type.ARRAY, value_schema=INT32), [1, 2, 3])
    schema = (
        '{ "type": "array", "items": { "type": "int32", "optional": false }, "optional": false }'
    )
    assert envelope_of(converted, schema) == [1, 2, 3]


def test_map_to_json_string_keys() -> None:
    string_int_map = ConnectSchema(Type.MAP, key_schema=STRING, value_schema=INT32)
    converted = from_connect(string_int_map, {"key1": 12, "key2": 15})
    schema = (
        '{ "type": "map", "keys": { "type" : "string", "optional": false }, "values": { "type" '
        ': "int32", "optional": false }, "optional": false }'
    )
    assert envelope_of(converted, schema) == {"key1": 12, "key2": 15}


def test_map_to_json_non_string_keys() -> None:
    int_int_map = ConnectSchema(Type.MAP, key_schema=INT32, value_schema=INT32)
    converted = from_connect(int_int_map, {1: 12, 2: 15})
    schema = (
        '{ "type": "map", "keys": { "type" : "int32", "optional": false }, "values": { "type" '
        ': "int32", "optional": false }, "optional": false }'
    )
    payload = envelope_of(converted, schema)
    assert isinstance(payload, list) and len(payload) == 2
    assert sorted(payload) == [[1, 12], [2, 15]]


def test_struct_to_json() -> None:
    schema = struct(
        ("field1", BOOLEAN), ("field2", STRING), ("field3", STRING), ("field4", BOOLEAN)
    )
    value = {"field1": True, "field2": "string2", "field3": "string3", "field4": False}
    converted = from_connect(schema, value)
    schema_json = (
        '{ "type": "struct", "optional": false, "fields": [{ "field": "field1", "type": '
        '"boolean", "optional": false }, { "field": "field2", "type": "string", "optional": '
        'false }, { "field": "field3", "type": "string", "optional": false }, { "field": '
        '"field4", "type": "boolean", "optional": false }] }'
    )
    assert envelope_of(converted, schema_json) == value


def test_struct_schema_identical() -> None:
    fields = (("field1", BOOLEAN), ("field2", STRING), ("field3", STRING), ("field4", BOOLEAN))
    schema, input_schema = struct(*fields), struct(*fields)
    value = {"field1": True, "field2": "string2", "field3": "string3", "field4": False}
    # assertStructSchemaEqual: the struct converts with the equal schema built apart.
    assert JsonConverter().from_connect(TOPIC, schema, value) is not None
    assert schema == input_schema


_DECIMAL_SCHEMA_JSON = (
    '{ "type": "bytes", "optional": false, "name": "org.apache.kafka.connect.data.Decimal", '
    '"version": 1, "parameters": { "scale": "%d" } }'
)


def test_decimal_to_json() -> None:
    converted = from_connect(decimal_schema(2), Decimal("1.56"))
    payload = envelope_of(converted, _DECIMAL_SCHEMA_JSON % 2)
    assert isinstance(payload, str), "expected node to be base64 text"
    assert base64.b64decode(payload) == bytes([0, 0x100 - 100])


def test_decimal_to_numeric_json() -> None:
    converted = from_connect(decimal_schema(2), Decimal("1.56"), decimal_format="NUMERIC")
    payload = envelope_of(converted, _DECIMAL_SCHEMA_JSON % 2)
    assert isinstance(payload, Decimal), "expected node to be numeric"
    _same_decimal(payload, "1.56")


def test_decimal_with_trailing_zeros_to_numeric_json() -> None:
    converted = from_connect(decimal_schema(4), Decimal("1.5600"), decimal_format="NUMERIC")
    payload = envelope_of(converted, _DECIMAL_SCHEMA_JSON % 4)
    assert isinstance(payload, Decimal), "expected node to be numeric"
    _same_decimal(payload, "1.5600")


def test_decimal_to_json_without_schema() -> None:
    with pytest.raises(ValueError, match="does not have corresponding schema type"):
        JsonConverter().from_connect(TOPIC, None, Decimal("1.56"))


def test_date_to_json() -> None:
    converted = from_connect(DATE_SCHEMA, date(1997, 5, 19))
    schema = (
        '{ "type": "int32", "optional": false, "name": "org.apache.kafka.connect.data.Date", '
        '"version": 1 }'
    )
    assert envelope_of(converted, schema) == 10000


def test_time_to_json() -> None:
    converted = from_connect(TIME_SCHEMA, time(4, 0))
    schema = (
        '{ "type": "int32", "optional": false, "name": "org.apache.kafka.connect.data.Time", '
        '"version": 1 }'
    )
    assert envelope_of(converted, schema) == 14400000


def test_timestamp_to_json() -> None:
    converted = from_connect(TIMESTAMP_SCHEMA, datetime(1970, 2, 16, 7, 6, 40, tzinfo=UTC))
    schema = (
        '{ "type": "int64", "optional": false, "name": '
        '"org.apache.kafka.connect.data.Timestamp", "version": 1 }'
    )
    assert envelope_of(converted, schema) == 4000000000


def test_null_schema_and_primitive_to_json() -> None:
    # A null schema means "anything goes": the value is still converted.
    assert null_schema_payload(from_connect(None, True)) is True


def test_null_schema_and_array_to_json() -> None:
    converted = from_connect(None, [1, "string", True])
    assert null_schema_payload(converted) == [1, "string", True]


def test_null_schema_and_map_to_json() -> None:
    converted = from_connect(None, {"key1": 12, "key2": "string", "key3": True})
    assert null_schema_payload(converted) == {"key1": 12, "key2": "string", "key3": True}


def test_null_schema_and_map_non_string_keys_to_json() -> None:
    converted = from_connect(None, {"string": 12, 52: "string", False: True})
    payload = null_schema_payload(converted)
    assert isinstance(payload, list) and len(payload) == 3
    entries = {json.dumps(entry) for entry in payload}
    assert entries == {'["string", 12]', '[52, "string"]', "[false, true]"}


def test_null_schema_and_null_value_to_json() -> None:
    # The tombstone a converter with schemas.enable writes.
    assert JsonConverter(schemas_enable=True, is_key=True).from_connect(TOPIC, None, None) is None


def test_null_value_to_json() -> None:
    # The tombstone a converter without schemas.enable writes.
    assert JsonConverter(schemas_enable=False, is_key=True).from_connect(TOPIC, None, None) is None


def test_mismatch_schema_json() -> None:
    # Mismatching schema info is a data error.
    with pytest.raises(ValueError):
        JsonConverter().from_connect(TOPIC, FLOAT64, True)


def test_no_schema_to_connect() -> None:
    assert to_connect("true", schemas_enable=False, is_key=True) == (True, None)


def test_no_schema_to_json() -> None:
    assert from_connect(None, True, schemas_enable=False, is_key=True) is True


_OPTIONAL_DEFAULT = ConnectSchema(Type.STRING, optional=True, default="default")
_OPTIONAL_DEFAULT_JSON = '{"type":"string","optional":true,"default":"default"}'
_STRUCT_JSON = (
    '{"type":"struct","fields":[{"field":"field1","type":"string","optional":true,'
    '"default":"default"}],"optional":false}'
)


def test_serialize_null_to_default() -> None:
    converted = from_connect(_OPTIONAL_DEFAULT, None, replace_null_with_default=True)
    assert converted == json.loads(f'{{"schema":{_OPTIONAL_DEFAULT_JSON},"payload":"default"}}')


def test_serialize_null_to_null() -> None:
    converted = from_connect(_OPTIONAL_DEFAULT, None, replace_null_with_default=False)
    assert converted == json.loads(f'{{"schema":{_OPTIONAL_DEFAULT_JSON},"payload":null}}')


def test_deserialize_null_to_default() -> None:
    text = f'{{"schema":{_OPTIONAL_DEFAULT_JSON},"payload":null}}'
    assert to_connect(text, replace_null_with_default=True)[0] == "default"


def test_deserialize_null_to_null() -> None:
    text = f'{{"schema":{_OPTIONAL_DEFAULT_JSON},"payload":null}}'
    assert to_connect(text, replace_null_with_default=False)[0] is None


def test_serialize_field_null_to_default() -> None:
    schema = struct(("field1", _OPTIONAL_DEFAULT))
    converted = from_connect(schema, {"field1": None}, replace_null_with_default=True)
    assert converted == json.loads(f'{{"schema":{_STRUCT_JSON},"payload":{{"field1":"default"}}}}')


def test_serialize_field_null_to_null() -> None:
    schema = struct(("field1", _OPTIONAL_DEFAULT))
    converted = from_connect(schema, {"field1": None}, replace_null_with_default=False)
    assert converted == json.loads(f'{{"schema":{_STRUCT_JSON},"payload":{{"field1":null}}}}')


def test_deserialize_field_null_to_default() -> None:
    text = f'{{"schema":{_STRUCT_JSON},"payload":{{"field1":null}}}}'
    value, schema = to_connect(text, replace_null_with_default=True)
    assert schema == struct(("field1", _OPTIONAL_DEFAULT))
    assert value == {"field1": "default"}


def test_deserialize_field_null_to_null() -> None:
    text = f'{{"schema":{_STRUCT_JSON},"payload":{{"field1":null}}}}'
    value, schema = to_connect(text, replace_null_with_default=False)
    assert schema == struct(("field1", _OPTIONAL_DEFAULT))
    assert value == {"field1": None}


# JsonConverterConfigTest


def test_should_be_case_insensitive_for_decimal_format_config() -> None:
    converter = JsonConverter(is_key=True, decimal_format="NuMeRiC")
    assert converter.decimal_format == "NUMERIC"
