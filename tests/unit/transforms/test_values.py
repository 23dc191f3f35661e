"""The Java helpers under the transforms: SimpleDateFormat (the JDK's javadoc examples, in UTC)
and Connect's Values (convertToString, parseString, dateFormatFor)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from decimal import Decimal

import pytest

from s3connect.connect.schema import ConnectSchema, Type
from s3connect.transforms.date_format import days_from_civil
from s3connect.transforms.simple_date_format import SimpleDateFormat
from s3connect.transforms.value_parser import parse_string
from s3connect.transforms.values import convert_to_string, date_format_for
from tests.unit.transforms.xformhelp import FLOAT32, INT32, STRING, struct

JULY_4 = int(datetime(2001, 7, 4, 12, 8, 56, 235000, tzinfo=UTC).timestamp() * 1000)


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        ("yyyy.MM.dd G 'at' HH:mm:ss z", "2001.07.04 AD at 12:08:56 UTC"),
        ("EEE, MMM d, ''yy", "Wed, Jul 4, '01"),
        ("h:mm a", "12:08 PM"),
        ("hh 'o''clock' a, zzzz", "12 o'clock PM, Coordinated Universal Time"),
        ("K:mm a, z", "0:08 PM, UTC"),
        ("yyyyy.MMMMM.dd GGG hh:mm aaa", "02001.July.04 AD 12:08 PM"),
        ("EEE, d MMM yyyy HH:mm:ss Z", "Wed, 4 Jul 2001 12:08:56 +0000"),
        ("yyMMddHHmmssZ", "010704120856+0000"),
        ("yyyy-MM-dd'T'HH:mm:ss.SSSZ", "2001-07-04T12:08:56.235+0000"),
        ("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "2001-07-04T12:08:56.235Z"),
        ("YYYY-'W'ww-u", "2001-W27-3"),
        ("D F W k S SSSS", "185 1 1 12 235 0235"),
    ],
)
def test_format_javadoc_examples(pattern: str, text: str) -> None:
    assert SimpleDateFormat(pattern).format(JULY_4) == text


def test_format_weeks_across_years_and_negative_instants() -> None:
    f = SimpleDateFormat("YYYY ww yyyy")
    assert f.format(int(datetime(2024, 12, 31, tzinfo=UTC).timestamp() * 1000)) == "2025 01 2024"
    assert SimpleDateFormat("yyyy-MM-dd HH:mm:ss.SSS").format(-1) == "1969-12-31 23:59:59.999"


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        ("yyyy.MM.dd G 'at' HH:mm:ss z", "2001.07.04 AD at 12:08:56 UTC"),
        ("EEE, d MMM yyyy HH:mm:ss Z", "Wed, 4 Jul 2001 12:08:56 +0000"),
        ("yyyyy.MMMMM.dd GGG hh:mm:ss aaa", "02001.July.04 AD 12:08:56 PM"),
        ("yyyy-MM-dd'T'HH:mm:ssXXX", "2001-07-04T12:08:56Z"),
        ("yyyy-MM-dd'T'HH:mm:ssXXX", "2001-07-04T17:38:56+05:30"),
        ("yyyy-MM-dd'T'HH:mm:ssXX", "2001-07-04T17:38:56+0530"),
        ("yyyy-MM-dd'T'HH:mm:ssX", "2001-07-04T14:08:56+02"),
        ("yyyy-MM-dd HH:mm:ss z", "2001-07-04 14:08:56 GMT+02:00"),
        ("yyyy-MM-dd HH:mm:ss z", "2001-07-04 14:08:56 GMT+2:00"),
        ("yyyy-MM-dd HH:mm:ss Z", "2001-07-04 07:08:56 -0500"),
        ("yyyyMMddHHmmss", "20010704120856"),  # abutting fields take their width
        ("MMM d yyyy hh:mm:ss a", "jul 4 2001 12:08:56 pm"),  # names ignore case
        ("yyyy-MM-dd HH:mm:ss", "2001-07-04 12:08:56 trailing text is ignored"),
    ],
)
def test_parse(pattern: str, text: str) -> None:
    parsed = SimpleDateFormat(pattern).parse(text)
    assert parsed is not None
    assert parsed[0] == JULY_4 - 235


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        ("yyyy-MM-dd", "2024-02-30", datetime(2024, 3, 1, tzinfo=UTC)),
        ("yyyy-MM-dd", "2024-00-10", datetime(2023, 12, 10, tzinfo=UTC)),
        ("HH:mm:ss.SSS", "00:00:00.1234", datetime(1970, 1, 1, 0, 0, 1, 234000, tzinfo=UTC)),
        ("hh:mm", "12:30", datetime(1970, 1, 1, 0, 30, tzinfo=UTC)),  # 12 is 0 without AM/PM
        ("kk:mm", "24:30", datetime(1970, 1, 1, 0, 30, tzinfo=UTC)),
        ("yyyy D", "2024 60", datetime(2024, 2, 29, tzinfo=UTC)),
        ("EEE MMM yyyy", "Mon Jan 2024", datetime(2024, 1, 1, tzinfo=UTC)),  # first Monday
        ("EEE MMM yyyy", "Fri Mar 2024", datetime(2024, 3, 1, tzinfo=UTC)),
        ("d MMM yyyy EEE", "15 Jan 2024 Mon", datetime(2024, 1, 15, tzinfo=UTC)),  # d wins
        ("EEE, d MMM yyyy", "Sun, 15 Jan 2024", datetime(2024, 1, 15, tzinfo=UTC)),
        ("yyyyMMdd", "2024011", datetime(2024, 1, 1, tzinfo=UTC)),  # the last field is free
    ],
)
def test_lenient_parse(pattern: str, text: str, expected: datetime) -> None:
    parsed = SimpleDateFormat(pattern).parse(text)
    assert parsed is not None
    assert parsed[0] == int(expected.timestamp() * 1000)


def test_eras() -> None:
    parsed = SimpleDateFormat("yyyy-MM-dd G").parse("0044-03-15 BC")
    assert parsed is not None  # 44 BC is year -43, proleptic Gregorian
    assert parsed[0] == days_from_civil(-43, 3, 15) * 86_400_000
    assert SimpleDateFormat("yyyy-MM-dd G").format(parsed[0]) == "0044-03-15 BC"


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        ("yyyy-MM-dd", "2024/01/01"),
        ("yyyy-MM-dd", "2024-01"),
        ("yyyyMMdd", "202401"),
        ("MMM yyyy", "Foo 2024"),
        ("HH:mm z", "10:00 PST"),  # only UTC's names
        ("yyyy", ""),
    ],
)
def test_parse_failures(pattern: str, text: str) -> None:
    assert SimpleDateFormat(pattern).parse(text) is None


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("bad-format", "Illegal pattern character 'b'"),
        ("yyyy-'MM", "Unterminated quote"),
        ("XXXX", "invalid ISO 8601 format: length=4"),
    ],
)
def test_invalid_patterns(pattern: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        SimpleDateFormat(pattern)
    assert str(info.value) == message


def test_date_format_for() -> None:
    assert date_format_for(3_600_000) == "01:00:00.000Z"
    assert date_format_for(86_400_000) == "1970-01-02"
    assert date_format_for(86_400_001) == "1970-01-02T00:00:00.001Z"
    assert date_format_for(0) == "00:00:00.000Z"  # Kafka formats the epoch day as a time
    assert date_format_for(-86_400_000) == "00:00:00.000Z"  # ... and everything before it


def test_convert_to_string() -> None:
    schema = struct(
        ("s", STRING),
        ("d", ConnectSchema(Type.INT32, optional=True, default=7)),
        ("f", FLOAT32),
        ("l", ConnectSchema(Type.ARRAY, value_schema=STRING)),
        ("m", ConnectSchema(Type.MAP, key_schema=INT32, value_schema=STRING)),
    )
    value = {"s": 'say "hi"\\', "d": None, "f": 0.1, "l": ["a", None], "m": {1: "x"}}
    assert convert_to_string(schema, value) == (
        '{"s":"say \\"hi\\"\\\\","d":7,"f":0.1,"l":["a",null],"m":{1:"x"}}'
    )
    assert convert_to_string(STRING, 'plain "text"') == 'plain "text"'
    assert convert_to_string(None, None) is None
    assert convert_to_string(None, b"\xff") == "/w=="
    assert convert_to_string(None, 1e-5) == "1.0E-5"
    assert convert_to_string(None, Decimal("0.0000001")) == "1E-7"
    assert convert_to_string(None, Decimal("-0")) == "0"
    assert (
        convert_to_string(None, [date(2024, 1, 2), time(1, 2, 3)]) == "[2024-01-02,01:02:03.000Z]"
    )
    assert convert_to_string(None, {"a": [True, False]}) == '{"a":[true,false]}'


@pytest.mark.parametrize(
    ("text", "schema_type", "value"),
    [
        ("", Type.STRING, ""),
        ("127", Type.INT8, 127),
        ("128", Type.INT16, 128),
        ("32768", Type.INT32, 32768),
        ("2147483648", Type.INT64, 2147483648),
        ("1.0", Type.INT8, 1),
        ("-1.5", Type.FLOAT32, -1.5),
        ("1e39", Type.FLOAT64, 1e39),
        ("12345678901234567890", Type.BYTES, Decimal("12345678901234567890")),
        ("false", Type.BOOLEAN, False),
        ("true}", Type.STRING, "true}"),
        ("[1,null]", Type.STRING, "[1,null]"),  # null does not convert to int8: read as text
        ("{a:1}", Type.STRING, "{a:1}"),
        ('["a", "b"]', Type.ARRAY, ["a", "b"]),
        ("[2024-01-01, 5]", Type.ARRAY, [date(2024, 1, 1), date(1970, 1, 6)]),
        ("12:34:56.789Z", Type.INT32, time(12, 34, 56, 789000)),
    ],
)
def test_parse_string(text: str, schema_type: Type, value: object) -> None:
    parsed = parse_string(text)
    assert parsed is not None and parsed[0] is not None
    assert parsed[0].type is schema_type and parsed[1] == value


def test_parse_string_null_and_maps() -> None:
    assert parse_string("null") is None
    parsed = parse_string('{"a": 1, "b": 300}')
    assert parsed is not None and parsed[0] is not None
    assert parsed[0].key_schema is not None and parsed[0].key_schema.type is Type.STRING
    assert parsed[0].value_schema is not None and parsed[0].value_schema.type is Type.INT16
    assert parsed[1] == {"a": 1, "b": 300}
