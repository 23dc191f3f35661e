"""Kafka's ``SimpleHeaderConverterTest`` and the parts of ``ConnectHeadersTest`` our headers model
(connect/api, apache/kafka 1eb7644, checked against the Kafka 4.1.1 jar), one test per Java method.

``SimpleHeaderConverter`` is :mod:`s3connect.transforms.header_converter` (what the header
transforms write, what the headers file reads); ``ConnectHeaders.add``'s check is
:func:`s3connect.transforms.headers.header_bytes`, and a header's value is read with ``Values``.
``ConnectHeaders``' collection API (iteration, renaming, equality, ``toString``) has no
counterpart here: our records keep headers as Kafka's (name, bytes) pairs.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from decimal import ROUND_DOWN, Decimal
from typing import Any

import pytest

from s3connect.connect.logical import date_to_days, timestamp_to_millis
from s3connect.connect.schema import ConnectSchema, Type
from s3connect.transforms.base import DataError
from s3connect.transforms.header_converter import from_connect_header, to_connect_header
from s3connect.transforms.headers import header_bytes
from s3connect.transforms.value_convert import (
    convert_to_date,
    convert_to_decimal,
    convert_to_number,
    convert_to_time,
    convert_to_timestamp,
)
from s3connect.util.jackson import Float32
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

STRING_MAP = {"foo": "123", "bar": "baz"}
STRING_MAP_SCHEMA = ConnectSchema(Type.MAP, key_schema=STRING, value_schema=STRING)
STRING_SHORT_MAP = {"foo": 12345, "bar": 0, "baz": -4321}
STRING_SHORT_MAP_SCHEMA = ConnectSchema(Type.MAP, key_schema=STRING, value_schema=INT16)
STRING_INT_MAP = {"foo": 1234567890, "bar": 0, "baz": -987654321}
STRING_INT_MAP_SCHEMA = ConnectSchema(Type.MAP, key_schema=STRING, value_schema=INT32)
INT_LIST = [1234567890, -987654321]
INT_LIST_SCHEMA = ConnectSchema(Type.ARRAY, value_schema=INT32)
STRING_LIST = ["foo", "bar"]
STRING_LIST_SCHEMA = ConnectSchema(Type.ARRAY, value_schema=STRING)
EPOCH_PLUS_TEN_THOUSAND_DAYS = date(1970, 1, 1) + timedelta(days=10000)
EPOCH_PLUS_TEN_THOUSAND_MILLIS = time(0, 0, 10)


def _round_trip(schema: ConnectSchema | None, value: Any) -> Any:
    return to_connect_header(from_connect_header(schema, value))


def _assert_round_trip(schema: ConnectSchema, value: Any) -> None:
    serialized = from_connect_header(schema, value)
    result = to_connect_header(serialized)
    if value is None:
        assert serialized is None
        assert result == (None, None)
        return
    assert serialized is not None
    assert result is not None
    assert result[1] == value
    assert result[0] == schema
    serialized2 = from_connect_header(result[0], result[1])
    result2 = to_connect_header(serialized2)
    assert serialized2 is not None
    assert result2 == (schema, value)
    assert result == result2
    assert serialized == serialized2


# SimpleHeaderConverterTest


def test_should_convert_null_value() -> None:
    _assert_round_trip(STRING, None)
    _assert_round_trip(OPTIONAL_STRING, None)


def test_should_convert_simple_string() -> None:
    _assert_round_trip(STRING, "simple")


def test_should_convert_empty_string() -> None:
    _assert_round_trip(STRING, "")


def test_should_convert_string_with_quotes_and_other_delimiter_characters() -> None:
    _assert_round_trip(STRING, 'three"blind\\"mice')
    _assert_round_trip(STRING, "string with delimiters: <>?,./\\=+-!@#$%^&*(){}[]|;':")


def test_should_convert_map_with_string_keys() -> None:
    _assert_round_trip(STRING_MAP_SCHEMA, STRING_MAP)


def test_should_parse_string_of_map_with_string_values_without_whitespace_as_map() -> None:
    result = _round_trip(STRING, '{"foo":"123","bar":"baz"}')
    assert result == (STRING_MAP_SCHEMA, STRING_MAP)


def test_should_parse_string_of_map_with_string_values_with_whitespace_as_map() -> None:
    result = _round_trip(STRING, '{ "foo" : "123", \n"bar" : "baz" } ')
    assert result == (STRING_MAP_SCHEMA, STRING_MAP)


def test_should_convert_map_with_string_keys_and_short_values() -> None:
    _assert_round_trip(STRING_SHORT_MAP_SCHEMA, STRING_SHORT_MAP)


def test_should_parse_string_of_map_with_short_values_without_whitespace_as_map() -> None:
    result = _round_trip(STRING, '{"foo":12345,"bar":0,"baz":-4321}')
    assert result == (STRING_SHORT_MAP_SCHEMA, STRING_SHORT_MAP)


def test_should_parse_string_of_map_with_short_values_with_whitespace_as_map() -> None:
    result = _round_trip(STRING, ' { "foo" :  12345 , "bar" : 0,  "baz" : -4321 }  ')
    assert result == (STRING_SHORT_MAP_SCHEMA, STRING_SHORT_MAP)


def test_should_convert_map_with_string_keys_and_integer_values() -> None:
    _assert_round_trip(STRING_INT_MAP_SCHEMA, STRING_INT_MAP)


def test_should_parse_string_of_map_with_int_values_without_whitespace_as_map() -> None:
    result = _round_trip(STRING, '{"foo":1234567890,"bar":0,"baz":-987654321}')
    assert result == (STRING_INT_MAP_SCHEMA, STRING_INT_MAP)


def test_should_parse_string_of_map_with_int_values_with_whitespace_as_map() -> None:
    result = _round_trip(STRING, ' { "foo" :  1234567890 , "bar" : 0,  "baz" : -987654321 }  ')
    assert result == (STRING_INT_MAP_SCHEMA, STRING_INT_MAP)


def test_should_convert_list_with_string_values() -> None:
    _assert_round_trip(STRING_LIST_SCHEMA, STRING_LIST)


def test_should_convert_list_with_integer_values() -> None:
    _assert_round_trip(INT_LIST_SCHEMA, INT_LIST)


def test_should_convert_map_with_string_keys_and_mixed_values_to_map() -> None:
    value = {"foo": "bar", "baz": 3456}
    schema, result = _round_trip(None, value)
    assert schema.type is Type.MAP
    assert schema.key_schema == STRING
    assert schema.value_schema is None
    assert result == value


def test_should_convert_list_with_mixed_values_to_list_without_schema() -> None:
    value = ["foo", 13344]
    schema, result = _round_trip(None, value)
    assert schema.type is Type.ARRAY
    assert schema.value_schema is None
    assert result == value


def test_should_convert_empty_map_to_map() -> None:
    schema, result = _round_trip(None, {})
    assert schema.type is Type.MAP
    assert schema.key_schema is None and schema.value_schema is None
    assert result == {}


def test_should_convert_empty_list_to_list() -> None:
    schema, result = _round_trip(None, [])
    assert schema.type is Type.ARRAY
    assert schema.value_schema is None
    assert result == []


# ConnectHeadersTest: ConnectHeaders.add's check, and header values read with Values


def _add_header(schema: ConnectSchema, value: Any) -> None:
    """The test's ``addHeader``: the header is added (here: serialized) and reads back."""
    serialized = header_bytes(schema, value)
    assert (serialized is None) == (value is None)


def _attempt_and_fail_to_add_header(schema: ConnectSchema, value: Any) -> None:
    with pytest.raises(DataError) as info:
        header_bytes(schema, value)
    name = schema.type.name
    assert str(info.value) == f"A null value requires an optional schema but was Schema{{{name}}}"


def test_should_add_headers_with_primitive_values() -> None:
    _add_header(BOOLEAN, True)
    _add_header(INT8, 0)
    _add_header(INT16, 0)
    _add_header(INT32, 0)
    _add_header(INT64, 0)
    _add_header(FLOAT32, Float32(1.0))
    _add_header(FLOAT64, 1.0)
    _add_header(OPTIONAL_STRING, None)  # addString(key, null)
    _add_header(STRING, "third")
    assert header_bytes(FLOAT32, Float32(1.0)) == b"1.0"


def test_should_add_headers_with_null_object_values_with_optional_schema() -> None:
    _add_header(BOOLEAN, True)
    _add_header(STRING, "hello")
    _add_header(OPTIONAL_STRING, None)


def test_should_not_add_headers_with_null_object_values_with_non_optional_schema() -> None:
    _attempt_and_fail_to_add_header(BOOLEAN, None)
    _attempt_and_fail_to_add_header(STRING, None)


def test_should_validate_build_in_types() -> None:
    for kind in (Type.BOOLEAN, Type.BYTES, Type.INT8, Type.INT16, Type.INT32, Type.INT64):
        _add_header(ConnectSchema(kind, optional=True), None)
    for kind in (Type.FLOAT32, Type.FLOAT64, Type.STRING):
        _add_header(ConnectSchema(kind, optional=True), None)
    _add_header(BOOLEAN, True)
    _add_header(BYTES, b"")
    _add_header(INT8, 0)
    _add_header(INT16, 0)
    _add_header(INT32, 0)
    _add_header(INT64, 0)
    _add_header(FLOAT32, Float32(1.0))
    _add_header(FLOAT64, 1.0)
    _add_header(STRING, "value")
    _add_header(STRING_LIST_SCHEMA, [])
    _add_header(STRING_LIST_SCHEMA, ["value"])
    _add_header(STRING_INT_MAP_SCHEMA, {})
    _add_header(STRING_INT_MAP_SCHEMA, {"a": 0})
    _add_header(struct(), {})
    schema = struct(("foo", ConnectSchema(Type.BOOLEAN, optional=True)), ("bar", STRING))
    _add_header(schema, {"foo": True, "bar": "v"})
    assert header_bytes(schema, {"foo": True, "bar": "v"}) == b'{"foo":true,"bar":"v"}'


def test_should_validate_logical_types() -> None:
    now = datetime(2024, 5, 17, 13, 45, 12, 345000, tzinfo=UTC)
    _add_header(decimal_schema(3), Decimal(100))
    _add_header(TIME_SCHEMA, now.time())
    _add_header(DATE_SCHEMA, now.date())
    _add_header(TIMESTAMP_SCHEMA, now)
    assert header_bytes(TIMESTAMP_SCHEMA, now) == b"2024-05-17T13:45:12.345Z"


def test_should_not_validate_null_values_with_built_in_types() -> None:
    for schema in (BOOLEAN, BYTES, INT8, INT16, INT32, INT64, FLOAT32, FLOAT64, STRING):
        _attempt_and_fail_to_add_header(schema, None)
    _attempt_and_fail_to_add_header(STRING_LIST_SCHEMA, None)
    _attempt_and_fail_to_add_header(STRING_INT_MAP_SCHEMA, None)
    _attempt_and_fail_to_add_header(struct(), None)


def test_should_add_date() -> None:
    value = EPOCH_PLUS_TEN_THOUSAND_DAYS
    days = date_to_days(value)
    assert convert_to_number(DATE_SCHEMA, value, Type.INT32) == days
    assert convert_to_date(DATE_SCHEMA, value) is value

    assert convert_to_number(INT32, days, Type.INT32) == days  # headers.addInt(other, days)
    assert convert_to_date(INT32, days) == value


def test_should_add_time() -> None:
    value = EPOCH_PLUS_TEN_THOUSAND_MILLIS
    millis = 10000
    assert convert_to_number(TIME_SCHEMA, value, Type.INT64) == millis
    assert convert_to_time(TIME_SCHEMA, value) is value

    assert convert_to_number(INT64, millis, Type.INT64) == millis  # headers.addLong(other, ...)
    assert convert_to_time(INT64, millis) == value


def test_should_add_timestamp() -> None:
    value = datetime(1970, 1, 1, 0, 0, 10, tzinfo=UTC)  # EPOCH_PLUS_TEN_THOUSAND_MILLIS
    millis = timestamp_to_millis(value)
    assert convert_to_number(TIMESTAMP_SCHEMA, value, Type.INT64) == millis
    assert convert_to_timestamp(TIMESTAMP_SCHEMA, value) is value

    assert convert_to_number(INT64, millis, Type.INT64) == millis
    assert convert_to_timestamp(INT64, millis) == value


def test_should_add_decimal() -> None:
    value = Decimal("3.038573478e+3")
    scale = -value.as_tuple().exponent  # type: ignore[operator]
    schema = decimal_schema(scale)
    assert convert_to_number(schema, value, Type.FLOAT64) == pytest.approx(float(value), abs=1e-5)
    assert convert_to_decimal(schema, value, scale) == value

    header_value, value = value, value.quantize(Decimal("0.001"), rounding=ROUND_DOWN)
    converted = convert_to_decimal(schema, header_value, 3)
    assert converted.quantize(Decimal("0.001"), rounding=ROUND_DOWN) == value
