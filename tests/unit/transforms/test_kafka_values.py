"""Kafka's ``ValuesTest`` (connect/api, apache/kafka 1eb7644, checked against the Kafka 4.1.1 jar),
one test per Java method, on our ``Values``: ``value_parser`` (``parseString``, ``Parser``),
``values`` (``convertToString``, ``inferSchema``, ``escape``) and ``value_convert``
(``convertTo*``).

Our values carry no Java class: a parsed ``Byte`` is an int whose schema says int8. Where Kafka's
test infers a schema from a converted value's class (``Values.inferSchema`` of a ``Short``), the
port takes the type converted to, or the schema of the parsed text whose values they are.
``java.util.Date`` is our ``date``, ``time`` or ``datetime`` (UTC, as the JVM here).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

import pytest

from s3connect.connect.logical import decimal_to_bytes, time_to_millis, timestamp_to_millis
from s3connect.connect.schema import ConnectSchema, Type
from s3connect.transforms.base import DataError
from s3connect.transforms.jvm import java_trim, to_float32
from s3connect.transforms.value_convert import (
    convert_to_boolean,
    convert_to_date,
    convert_to_decimal,
    convert_to_list,
    convert_to_map,
    convert_to_number,
    convert_to_struct,
    convert_to_time,
    convert_to_timestamp,
)
from s3connect.transforms.value_parser import Parser, SchemaAndValue, parse_string
from s3connect.transforms.values import convert_to_string, escape, infer_schema
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
    STRING,
    TIME_SCHEMA,
    TIMESTAMP_SCHEMA,
    decimal_schema,
    struct,
)

WHITESPACE = "\n \t \t\n"
MILLIS_PER_DAY = 86_400_000
LONG_MAX, LONG_MIN = 2**63 - 1, -(2**63)
FLOAT_MAX, DOUBLE_MAX = to_float32(3.4028234663852886e38), 1.7976931348623157e308

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
NOW = datetime(2024, 5, 17, 13, 45, 12, 345000, tzinfo=UTC)  # Kafka's test: new Date()


def _parsed(text: str | None) -> SchemaAndValue:
    result = parse_string(text)
    assert result is not None
    return result


def _schema(text: str) -> ConnectSchema:
    schema = _parsed(text)[0]
    assert schema is not None
    return schema


def _utc(iso: str) -> datetime:
    """``new SimpleDateFormat(ISO_8601_*_FORMAT_PATTERN).parse(iso)`` in UTC."""
    if "T" not in iso and ":" in iso:
        iso = "1970-01-01T" + iso
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).replace(tzinfo=UTC)


# ValuesTest's helpers: roundTrip, convertTo, assertRoundTrip, assertShortCircuit


def _convert_to(desired: ConnectSchema, value: Any) -> SchemaAndValue:
    """The test's ``convertTo``: ``Values.convertTo<type>(STRING_SCHEMA, value)`` and the
    inferred schema of the result (its Java class: the type converted to, or for a list or map
    the schema of the text parsed into it)."""
    kind = desired.type
    new: Any
    if kind is Type.STRING:
        new = convert_to_string(STRING, value)
        return (infer_schema(new), new)
    if kind is Type.BOOLEAN:
        new = convert_to_boolean(STRING, value)
        return (infer_schema(new), new)
    if kind in (Type.ARRAY, Type.MAP):
        new = (convert_to_list if kind is Type.ARRAY else convert_to_map)(STRING, value)
        return (_schema(value) if isinstance(value, str) else infer_schema(new), new)
    assert kind not in (Type.STRUCT, Type.BYTES), "unexpected schema type"
    new = convert_to_number(STRING, value, kind)
    return (None if new is None else ConnectSchema(kind), new)


def _round_trip(desired: ConnectSchema, current: SchemaAndValue | str) -> SchemaAndValue:
    schema, value = (STRING, current) if isinstance(current, str) else current
    serialized = convert_to_string(schema, value)
    if value is not None:
        assert serialized is not None
    return _convert_to(desired, serialized)


def _assert_round_trip(schema: ConnectSchema, current: ConnectSchema, value: Any) -> None:
    result = _round_trip(schema, (current, value))
    if value is None:
        assert result == (None, None)
        return
    assert result[1] == value
    assert result[0] == schema
    assert result[0] is not None
    result2 = _round_trip(result[0], result)
    assert result2[0] == schema
    assert result2[1] == value
    assert result == result2


def _assert_short_circuit(schema: ConnectSchema, value: Any) -> None:
    result = _convert_to(schema, value)
    assert result[1] == value
    assert result[0] == schema


def test_should_parse_null_string() -> None:
    assert parse_string(None) == (None, None)


def test_should_parse_empty_string() -> None:
    assert parse_string("") == (STRING, "")


def test_should_not_encounter_infinite_loop() -> None:
    text = bytes([0xEF, 0xBF, 0xBF]).decode("utf-8")  # CharacterIterator.DONE (KAFKA-10574)
    assert parse_string(text) == (STRING, text)


def test_should_not_parse_unquoted_embedded_map_keys_as_strings() -> None:
    assert parse_string("{foo: 3}") == (STRING, "{foo: 3}")


def test_should_not_parse_unquoted_embedded_map_values_as_strings() -> None:
    assert parse_string("{3: foo}") == (STRING, "{3: foo}")


def test_should_not_parse_unquoted_array_elements_as_strings() -> None:
    assert parse_string("[foo]") == (STRING, "[foo]")


def test_should_not_parse_strings_beginning_with_null_as_strings() -> None:
    assert parse_string("null=") == (STRING, "null=")


def test_should_parse_strings_beginning_with_true_as_strings() -> None:
    assert parse_string("true}") == (STRING, "true}")


def test_should_parse_strings_beginning_with_false_as_strings() -> None:
    assert parse_string("false]") == (STRING, "false]")


def test_should_parse_true_as_boolean_if_surrounded_by_whitespace() -> None:
    assert parse_string(WHITESPACE + "true" + WHITESPACE) == (BOOLEAN, True)


def test_should_parse_false_as_boolean_if_surrounded_by_whitespace() -> None:
    assert parse_string(WHITESPACE + "false" + WHITESPACE) == (BOOLEAN, False)


def test_should_parse_null_as_null_if_surrounded_by_whitespace() -> None:
    assert parse_string(WHITESPACE + "null" + WHITESPACE) is None


def test_should_parse_boolean_literals_embedded_in_array() -> None:
    schema, value = _parsed("[true, false]")
    assert schema == ConnectSchema(Type.ARRAY, value_schema=BOOLEAN)
    assert value == [True, False]


def test_should_parse_boolean_literals_embedded_in_map() -> None:
    schema, value = _parsed("{true: false, false: true}")
    assert schema == ConnectSchema(Type.MAP, key_schema=BOOLEAN, value_schema=BOOLEAN)
    assert value == {True: False, False: True}


def test_should_not_parse_as_map_without_commas() -> None:
    assert parse_string("{6:9 4:20}") == (STRING, "{6:9 4:20}")


def test_should_not_parse_as_array_without_commas() -> None:
    assert parse_string("[0 1 2]") == (STRING, "[0 1 2]")


def test_should_parse_empty_map() -> None:
    schema, value = _parsed("{}")
    assert schema is not None and schema.type is Type.MAP
    assert value == {}


def test_should_parse_empty_array() -> None:
    schema, value = _parsed("[]")
    assert schema is not None and schema.type is Type.ARRAY
    assert value == []


def test_should_not_parse_as_map_with_null_keys() -> None:
    assert parse_string("{null: 3}") == (STRING, "{null: 3}")


def test_should_parse_null() -> None:
    assert parse_string("null") is None


def test_should_convert_string_of_null() -> None:
    _assert_round_trip(STRING, STRING, "null")


def test_should_parse_null_map_values() -> None:
    schema, value = _parsed("{3: null}")
    assert schema is not None and schema.type is Type.MAP
    assert schema.key_schema == INT8
    assert value == {3: None}


def test_should_parse_null_array_elements() -> None:
    schema, value = _parsed("[null]")
    assert schema is not None and schema.type is Type.ARRAY
    assert value == [None]


def test_should_escape_strings_with_embedded_quotes_and_backslashes() -> None:
    assert escape('three"blind\\"mice') == 'three\\"blind\\\\\\"mice'


def test_should_convert_null_value() -> None:
    for schema in (INT8, INT16, INT32, INT64, FLOAT32, FLOAT64, BOOLEAN, STRING):
        _assert_round_trip(schema, STRING, None)
        _assert_round_trip(ConnectSchema(schema.type, optional=True), STRING, None)


def test_should_convert_boolean_values() -> None:
    _assert_round_trip(BOOLEAN, BOOLEAN, False)
    _assert_short_circuit(BOOLEAN, False)
    assert _round_trip(BOOLEAN, "false") == (BOOLEAN, False)
    assert _round_trip(BOOLEAN, "0") == (BOOLEAN, False)

    _assert_round_trip(BOOLEAN, BOOLEAN, True)
    _assert_short_circuit(BOOLEAN, True)
    assert _round_trip(BOOLEAN, "true") == (BOOLEAN, True)
    assert _round_trip(BOOLEAN, "1") == (BOOLEAN, True)


def test_should_fail_to_parse_invalid_boolean_value_string() -> None:
    with pytest.raises(DataError) as info:
        convert_to_boolean(STRING, '"green"')
    assert str(info.value) == (
        'Unable to convert "green" (class java.lang.String) to Schema{STRING}'
    )


def test_should_convert_int8() -> None:
    _assert_round_trip(INT8, INT8, 0)
    _assert_round_trip(INT8, INT8, 1)


def test_should_convert_int64() -> None:
    _assert_round_trip(INT64, INT64, 1)
    _assert_short_circuit(INT64, 1)


def test_should_convert_float32() -> None:
    _assert_round_trip(FLOAT32, FLOAT32, Float32(1.0))
    _assert_short_circuit(FLOAT32, Float32(1.0))


def test_should_convert_float64() -> None:
    _assert_round_trip(FLOAT64, FLOAT64, 1.0)
    _assert_short_circuit(FLOAT64, 1.0)


def test_should_convert_empty_struct() -> None:
    schema = struct()
    with pytest.raises(DataError):
        convert_to_struct(schema, None)
    with pytest.raises(DataError) as info:
        convert_to_struct(schema, "")
    assert str(info.value) == "Unable to convert  (class java.lang.String) to Schema{STRUCT}"
    assert convert_to_struct(schema, {}) == {}


def test_should_convert_simple_string() -> None:
    _assert_round_trip(STRING, STRING, "simple")


def test_should_convert_empty_string() -> None:
    _assert_round_trip(STRING, STRING, "")


def test_should_convert_string_with_quotes_and_other_delimiter_characters() -> None:
    _assert_round_trip(STRING, STRING, 'three"blind\\"mice')
    _assert_round_trip(STRING, STRING, "string with delimiters: <>?,./\\=+-!@#$%^&*(){}[]|;':")


def test_should_convert_map_with_string_keys() -> None:
    _assert_round_trip(STRING_MAP_SCHEMA, STRING_MAP_SCHEMA, STRING_MAP)


def test_should_parse_string_of_map_with_string_values_without_whitespace_as_map() -> None:
    result = _round_trip(STRING_MAP_SCHEMA, '{"foo":"123","bar":"baz"}')
    assert result == (STRING_MAP_SCHEMA, STRING_MAP)


def test_should_parse_string_of_map_with_string_values_with_whitespace_as_map() -> None:
    result = _round_trip(STRING_MAP_SCHEMA, '{ "foo" : "123", \n"bar" : "baz" } ')
    assert result == (STRING_MAP_SCHEMA, STRING_MAP)


def test_should_convert_map_with_string_keys_and_short_values() -> None:
    _assert_round_trip(STRING_SHORT_MAP_SCHEMA, STRING_SHORT_MAP_SCHEMA, STRING_SHORT_MAP)


def test_should_parse_string_of_map_with_short_values_without_whitespace_as_map() -> None:
    result = _round_trip(STRING_SHORT_MAP_SCHEMA, '{"foo":12345,"bar":0,"baz":-4321}')
    assert result == (STRING_SHORT_MAP_SCHEMA, STRING_SHORT_MAP)


def test_should_parse_string_of_map_with_short_values_with_whitespace_as_map() -> None:
    text = ' { "foo" :  12345 , "bar" : 0,  "baz" : -4321 }  '
    assert _round_trip(STRING_SHORT_MAP_SCHEMA, text) == (STRING_SHORT_MAP_SCHEMA, STRING_SHORT_MAP)


def test_should_convert_map_with_string_keys_and_integer_values() -> None:
    _assert_round_trip(STRING_INT_MAP_SCHEMA, STRING_INT_MAP_SCHEMA, STRING_INT_MAP)


def test_should_parse_string_of_map_with_int_values_without_whitespace_as_map() -> None:
    result = _round_trip(STRING_INT_MAP_SCHEMA, '{"foo":1234567890,"bar":0,"baz":-987654321}')
    assert result == (STRING_INT_MAP_SCHEMA, STRING_INT_MAP)


def test_should_parse_string_of_map_with_int_values_with_whitespace_as_map() -> None:
    text = ' { "foo" :  1234567890 , "bar" : 0,  "baz" : -987654321 }  '
    assert _round_trip(STRING_INT_MAP_SCHEMA, text) == (STRING_INT_MAP_SCHEMA, STRING_INT_MAP)


def test_should_convert_list_with_string_values() -> None:
    _assert_round_trip(STRING_LIST_SCHEMA, STRING_LIST_SCHEMA, STRING_LIST)


def test_should_convert_list_with_integer_values() -> None:
    _assert_round_trip(INT_LIST_SCHEMA, INT_LIST_SCHEMA, INT_LIST)


def test_should_convert_string_of_list_with_only_numeric_element_types_into_list_of_largest_numeric_type() -> (  # noqa: E501
    None
):
    third = 32767 + 1
    text = f"[1, 2, {third}]"
    assert convert_to_list(STRING, text) == [1, 2, third]
    assert _schema(text) == ConnectSchema(Type.ARRAY, value_schema=INT32)  # all Integers


def test_should_convert_integral_types_to_float() -> None:
    values = convert_to_list(STRING, "[1, 2, 3.4028235E38]")  # "" + Float.MAX_VALUE
    assert values == [1, 2, FLOAT_MAX]
    assert all(isinstance(v, Float32) for v in values)


def test_should_convert_integral_types_to_double() -> None:
    values = convert_to_list(STRING, "[1, 2, 1.7976931348623157E308]")
    assert values == [1, 2, DOUBLE_MAX]
    assert not any(isinstance(v, Float32) for v in values)


def _assert_parse_string_array_with_no_schema(expected: list[Any], text: str) -> None:
    schema, value = _parsed(text)
    assert schema is not None and schema.type is Type.ARRAY
    assert schema.value_schema is None
    assert value == expected


def test_should_parse_string_list_with_multiple_element_types() -> None:
    _assert_parse_string_array_with_no_schema([1, 2, 300, "four"], '[1, 2, 300, "four"]')
    _assert_parse_string_array_with_no_schema([2, 300, "four", 1], '[2, 300, "four", 1]')
    _assert_parse_string_array_with_no_schema([300, "four", 1, 2], '[300, "four", 1, 2]')
    _assert_parse_string_array_with_no_schema(["four", 1, 2, 300], '["four", 1, 2, 300]')


def _assert_parse_string_map_with_no_schema(expected: dict[Any, Any], text: str) -> None:
    schema, value = _parsed(text)
    assert schema is not None and schema.type is Type.MAP
    assert schema.value_schema is None
    assert value == expected


def test_should_parse_string_map_with_multiple_key_types() -> None:
    expected = {1: 1, 2: 1, 300: 300, "four": 1}
    _assert_parse_string_map_with_no_schema(expected, '{1:1, 2:1, 300:300, "four":1}')
    _assert_parse_string_map_with_no_schema(expected, '{2:1, 300:300, "four":1, 1:1}')
    _assert_parse_string_map_with_no_schema(expected, '{300:300, "four":1, 1:1, 2:1}')
    _assert_parse_string_map_with_no_schema(expected, '{"four":1, 1:1, 2:1, 300:300}')
    assert _schema('{1:1, 2:1, 300:300, "four":1}').key_schema is None


def test_should_parse_string_map_with_multiple_value_types() -> None:
    expected = {1: 1, 2: 1, 300: 300, 4: "four"}
    _assert_parse_string_map_with_no_schema(expected, '{1:1, 2:1, 300:300, 4:"four"}')
    _assert_parse_string_map_with_no_schema(expected, '{2:1, 300:300, 4:"four", 1:1}')
    _assert_parse_string_map_with_no_schema(expected, '{300:300, 4:"four", 1:1, 2:1}')
    _assert_parse_string_map_with_no_schema(expected, '{4:"four", 1:1, 2:1, 300:300}')
    assert _schema('{4:"four", 1:1, 2:1, 300:300}').key_schema == INT16  # the keys are Shorts


def test_should_parse_nested_array() -> None:
    schema = _schema("[[]]")
    assert schema.type is Type.ARRAY
    assert schema.value_schema is not None and schema.value_schema.type is Type.ARRAY


def test_should_parse_array_containing_map() -> None:
    schema = _schema("[{}]")
    assert schema.type is Type.ARRAY
    assert schema.value_schema is not None and schema.value_schema.type is Type.MAP


def test_should_parse_nested_map() -> None:
    schema = _schema('{"a":{}}')
    assert schema.type is Type.MAP
    assert schema.value_schema is not None and schema.value_schema.type is Type.MAP


def test_should_parse_map_containing_array() -> None:
    schema = _schema('{"a":[]}')
    assert schema.type is Type.MAP
    assert schema.value_schema is not None and schema.value_schema.type is Type.ARRAY


def test_should_parse_string_list_with_extra_delimiters_and_return_string() -> None:
    assert parse_string("[1, 2, 3,,,]") == (STRING, "[1, 2, 3,,,]")


def test_should_parse_string_list_with_null_last_as_string() -> None:
    assert parse_string("[1, null]") == (STRING, "[1, null]")


def test_should_parse_string_list_with_null_first_as_string() -> None:
    assert parse_string("[null, 1]") == (STRING, "[null, 1]")


def test_should_parse_timestamp_string_as_timestamp() -> None:
    text = "2019-08-23T14:34:54.346Z"
    assert parse_string(text) == (TIMESTAMP_SCHEMA, _utc(text))


def test_should_parse_date_string_as_date() -> None:
    assert parse_string("2019-08-23") == (DATE_SCHEMA, date(2019, 8, 23))


def test_should_parse_time_string_as_date() -> None:
    assert parse_string("14:34:54.346Z") == (TIME_SCHEMA, time(14, 34, 54, 346000))


def test_should_parse_timestamp_string_with_escaped_colons_as_timestamp() -> None:
    expected = _utc("2019-08-23T14:34:54.346Z")
    assert parse_string("2019-08-23T14\\:34\\:54.346Z") == (TIMESTAMP_SCHEMA, expected)


def test_should_parse_time_string_with_escaped_colons_as_date() -> None:
    assert parse_string("14\\:34\\:54.346Z") == (TIME_SCHEMA, time(14, 34, 54, 346000))


def test_should_parse_date_string_as_date_in_array() -> None:
    schema, value = _parsed("[2019-08-23]")
    assert schema == ConnectSchema(Type.ARRAY, value_schema=DATE_SCHEMA)
    assert value == [date(2019, 8, 23)]


def test_should_parse_time_string_as_time_in_array() -> None:
    schema, value = _parsed("[14:34:54.346Z]")
    assert schema == ConnectSchema(Type.ARRAY, value_schema=TIME_SCHEMA)
    assert value == [time(14, 34, 54, 346000)]


def test_should_parse_timestamp_string_as_timestamp_in_array() -> None:
    schema, value = _parsed("[2019-08-23T14:34:54.346Z]")
    assert schema == ConnectSchema(Type.ARRAY, value_schema=TIMESTAMP_SCHEMA)
    assert value == [_utc("2019-08-23T14:34:54.346Z")]


def test_should_parse_multiple_timestamp_string_as_timestamp_in_array() -> None:
    texts = ("2019-08-23T14:34:54.346Z", "2019-01-23T15:12:34.567Z", "2019-04-23T19:12:34.567Z")
    schema, value = _parsed(f"[{texts[0]},{texts[1]},   {texts[2]}]")
    assert schema == ConnectSchema(Type.ARRAY, value_schema=TIMESTAMP_SCHEMA)
    assert value == [_utc(t) for t in texts]


def test_should_parse_quoted_time_string_as_time_in_map() -> None:
    schema, value = _parsed('{"k1":"14:34:54.346Z"}')
    assert schema == ConnectSchema(Type.MAP, key_schema=STRING, value_schema=TIME_SCHEMA)
    assert value == {"k1": time(14, 34, 54, 346000)}


def test_should_parse_time_string_as_time_in_map() -> None:
    schema, value = _parsed('{"k1":14:34:54.346Z}')
    assert schema == ConnectSchema(Type.MAP, key_schema=STRING, value_schema=TIME_SCHEMA)
    assert value == {"k1": time(14, 34, 54, 346000)}


def test_should_fail_to_convert_null_time() -> None:
    for convert in (convert_to_time, convert_to_date, convert_to_timestamp):
        with pytest.raises(DataError) as info:
            convert(None, None)
        assert str(info.value) == "Unable to convert a null value to a schema that requires a value"


def test_should_fail_to_convert_to_list_from_string_with_extra_delimiters() -> None:
    with pytest.raises(DataError) as info:
        convert_to_list(STRING, "[1, 2, 3,,,]")
    assert str(info.value) == (
        "Unable to convert [1, 2, 3,,,] (class java.lang.String) to Schema{ARRAY}"
    )


def test_should_fail_to_convert_to_list_from_string_with_non_common_element_type_and_blank_element() -> (  # noqa: E501
    None
):
    with pytest.raises(DataError, match=r"\(class java.lang.String\) to Schema\{ARRAY\}$"):
        convert_to_list(STRING, '[1, 2, 3, "four",,,]')


def test_should_fail_to_parse_string_of_map_with_int_values_with_blank_entry() -> None:
    text = ' { "foo" :  1234567890 ,, "bar" : 0,  "baz" : -987654321 }  '
    with pytest.raises(DataError) as info:
        convert_to_map(STRING, text)
    # Kafka 4.1.1's own message: the map does not parse, and the text is then read as its
    # first token, the blank " "
    assert str(info.value) == "Unable to convert   (class java.lang.String) to Schema{MAP}"


def test_should_fail_to_parse_string_of_malformed_map() -> None:
    text = ' { "foo" :  1234567890 , "a", "bar" : 0,  "baz" : -987654321 }  '
    with pytest.raises(DataError, match=r"\(class java.lang.String\) to Schema\{MAP\}$"):
        convert_to_map(STRING, text)


def test_should_fail_to_parse_string_of_map_with_int_values_with_only_blank_entries() -> None:
    with pytest.raises(DataError, match=r"\(class java.lang.String\) to Schema\{MAP\}$"):
        convert_to_map(STRING, " { ,,  , , }  ")


def test_should_fail_to_parse_string_of_map_with_int_values_with_blank_entries() -> None:
    text = ' { "foo" :  "1234567890" ,, "bar" : "0",  "baz" : "boz" }  '
    with pytest.raises(DataError, match=r"\(class java.lang.String\) to Schema\{MAP\}$"):
        convert_to_map(STRING, text)


def test_should_consume_multiple_tokens() -> None:
    parser = Parser("a:b:c:d:e:f:g:h")
    assert parser.next_n(5) == "a:b:c"
    assert parser.next() == ":"
    assert parser.next() == "d"
    assert parser.next() == ":"
    assert parser.next_n(8) is None  # only 7 remain
    assert parser.next() == "e"


def _assert_consumable(parser: Parser, *expected_tokens: str) -> None:
    for token in expected_tokens:
        if java_trim(token):
            position = parser.mark()
            assert parser.can_consume(java_trim(token))
            parser.rewind_to(position)
            assert parser.can_consume(java_trim(token), True)
            parser.rewind_to(position)
            assert parser.can_consume(token, False)


def _assert_parsed(text: str, *expected_tokens: str) -> None:
    """The test's ``assertParsed``: the tokens, their positions, rewinding, consuming."""
    expected_tokens = expected_tokens or (text,)
    parser = Parser(text)
    if not parser.has_next():
        assert expected_tokens == ("",)
        return
    for token in expected_tokens:
        assert parser.has_next()
        position = parser.mark()
        assert parser.next() == token
        assert parser.position() == position + len(token)
        assert parser.previous == token
        parser.rewind_to(position)
        assert parser.position() == position
        assert parser.next() == token
        assert parser.mark() == position + len(token)
        assert parser.previous == token
    assert not parser.has_next()
    parser.rewind_to(0)
    _assert_consumable(parser, *expected_tokens)
    _assert_consumable(Parser(text), *expected_tokens)


def test_should_parse_strings_without_delimiters() -> None:
    for text in (
        "  ",
        "simple",
        "simple string",
        "simple \n\t\bstring",
        "'simple' string",
        "si\\mple",
        "si\\\\mple",
    ):
        _assert_parsed(text)


def test_should_parse_strings_with_escaped_delimiters() -> None:
    for text in ('si\\"mple', "si\\{mple", "si\\}mple", "si\\]mple", "si\\[mple", "si\\:mple"):
        _assert_parsed(text)
    _assert_parsed("si\\,mple")


def test_should_parse_strings_with_single_delimiter() -> None:
    for delimiter in '{}[]:,"':
        _assert_parsed(f"a{delimiter}b", "a", delimiter, "b")
        _assert_parsed(f"{delimiter}b", delimiter, "b")
        _assert_parsed(delimiter, delimiter)


def test_should_parse_strings_with_multiple_delimiters() -> None:
    _assert_parsed('"simple" string', '"', "simple", '"', " string")
    _assert_parsed("a{bc}d", "a", "{", "bc", "}", "d")
    _assert_parsed("a { b c } d", "a ", "{", " b c ", "}", " d")


def test_should_convert_time_values() -> None:
    current_millis = timestamp_to_millis(NOW) % MILLIS_PER_DAY

    assert convert_to_time(TIME_SCHEMA, NOW) is NOW  # a Date: just copied
    # a Timestamp: the date is discarded, the day's milliseconds kept
    t1 = convert_to_time(TIMESTAMP_SCHEMA, NOW)
    assert t1 == NOW.time().replace(tzinfo=None)
    assert time_to_millis(t1) == current_millis
    assert time_to_millis(convert_to_time(TIME_SCHEMA, str(current_millis))) == current_millis
    assert time_to_millis(convert_to_time(TIME_SCHEMA, current_millis)) == current_millis


def test_should_convert_date_values() -> None:
    current_millis = timestamp_to_millis(NOW) % MILLIS_PER_DAY
    days = timestamp_to_millis(NOW) // MILLIS_PER_DAY

    assert convert_to_date(DATE_SCHEMA, NOW) is NOW  # a Date: just copied
    current_date = NOW - timedelta(milliseconds=current_millis)
    # a Timestamp: the day's milliseconds are discarded, the date kept
    assert convert_to_date(TIMESTAMP_SCHEMA, current_date) == current_date.date()
    assert convert_to_date(DATE_SCHEMA, str(days)) == current_date.date()
    assert convert_to_date(DATE_SCHEMA, days) == current_date.date()


def test_should_convert_timestamp_values() -> None:
    current_millis = timestamp_to_millis(NOW) % MILLIS_PER_DAY

    assert convert_to_timestamp(TIMESTAMP_SCHEMA, NOW) is NOW  # a Date: just copied
    current_date = NOW - timedelta(milliseconds=current_millis)
    assert convert_to_timestamp(DATE_SCHEMA, current_date.date()) == current_date
    # a Time: the day's milliseconds
    expected = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=current_millis)
    assert convert_to_timestamp(TIME_SCHEMA, current_millis) == expected
    assert convert_to_timestamp(TIMESTAMP_SCHEMA, str(timestamp_to_millis(NOW))) == NOW
    assert convert_to_timestamp(TIMESTAMP_SCHEMA, timestamp_to_millis(NOW)) == NOW


def test_should_convert_decimal_values() -> None:
    number = Float32(1.0)
    text = "1.0"  # Float.toString(1.0f)
    value = Decimal(text)
    raw = decimal_to_bytes(10)  # Decimal.fromLogical(Decimal.schema(1), 1.0)

    for form in (number, text, value, raw, bytearray(raw), memoryview(raw)):
        converted = convert_to_decimal(None, form, 1)
        assert converted == value
        assert converted.as_tuple() == value.as_tuple()  # BigDecimal.equals: the scale too


def test_should_fail_to_convert_null_to_decimal() -> None:
    with pytest.raises(DataError):
        convert_to_decimal(None, None, 1)


def test_should_infer_byte_schema() -> None:
    assert infer_schema(bytes(1)) == BYTES
    assert infer_schema(memoryview(bytes(1))) == BYTES  # a ByteBuffer


def test_should_infer_no_schema_for_empty_list() -> None:
    assert infer_schema([]) is None


def test_should_infer_no_schema_for_list_containing_object() -> None:
    assert infer_schema([object()]) is None


def test_should_infer_no_schema_for_empty_map() -> None:
    assert infer_schema({}) is None


def test_should_infer_no_schema_for_map_containing_object() -> None:
    assert infer_schema({object(): object()}) is None


def test_should_not_convert_array_values_to_decimal() -> None:
    big, small = Decimal(LONG_MAX) + 1, Decimal(LONG_MIN) - 1
    # decimals.toString() of ["\"1.0\"", big, small, (byte) 1, (byte) 1]
    schema, value = _parsed(f'["1.0", {big}, {small}, 1, 1]')
    assert schema is not None and schema.type is Type.ARRAY
    assert schema.value_schema is None
    assert value == ["1.0", big, small, 1, 1]  # the quotes are parsed away: still a string


def test_should_parse_array_of_only_decimals() -> None:
    decimals = [Decimal(LONG_MAX) + 1, Decimal(LONG_MIN) - 1]
    schema, value = _parsed(f"[{decimals[0]}, {decimals[1]}]")
    assert schema == ConnectSchema(Type.ARRAY, value_schema=decimal_schema(0))
    assert value == decimals


def test_should_parse_big_integer_as_decimal_with_zero_scale() -> None:
    for number in (LONG_MAX + 1, LONG_MIN - 1):
        schema, value = _parsed(str(number))
        assert schema == decimal_schema(0)
        assert isinstance(value, Decimal)
        assert value.as_tuple().exponent == 0 and int(value) == number  # the unscaled value


def _assert_parses_as(text: str, schema: ConnectSchema, value: int | float) -> None:
    parsed = _parsed(text)
    assert parsed == (schema, value)
    assert type(parsed[1]) is type(value)  # an int, a Float32 or a float


def test_should_parse_byte_as_int8() -> None:
    _assert_parses_as("127", INT8, 127)
    _assert_parses_as("-128", INT8, -128)


def test_should_parse_short_as_int16() -> None:
    _assert_parses_as("32767", INT16, 32767)
    _assert_parses_as("-32768", INT16, -32768)


def test_should_parse_integer_as_int32() -> None:
    _assert_parses_as("2147483647", INT32, 2147483647)
    _assert_parses_as("-2147483648", INT32, -2147483648)


def test_should_parse_long_as_int64() -> None:
    _assert_parses_as(str(LONG_MAX), INT64, LONG_MAX)
    _assert_parses_as(str(LONG_MIN), INT64, LONG_MIN)


def test_should_parse_float_as_float32() -> None:
    _assert_parses_as("3.4028235E38", FLOAT32, FLOAT_MAX)  # String.valueOf(Float.MAX_VALUE)
    _assert_parses_as("-3.4028235E38", FLOAT32, to_float32(-FLOAT_MAX))


def test_should_parse_double_as_float64() -> None:
    _assert_parses_as("1.7976931348623157E308", FLOAT64, DOUBLE_MAX)
    _assert_parses_as("-1.7976931348623157E308", FLOAT64, -DOUBLE_MAX)


def test_should_parse_fractional_parts_as_integer_when_no_fractional_part() -> None:
    assert parse_string("1.0") == (INT8, 1)
    assert parse_string("1.1") == (FLOAT32, to_float32(1.1))
    assert parse_string("300.0") == (INT16, 300)
    assert parse_string("300.01") == (FLOAT32, to_float32(300.01))
    assert parse_string("66000.0") == (INT32, 66000)
    assert parse_string("66000.0008") == (FLOAT32, to_float32(66000.0008))
