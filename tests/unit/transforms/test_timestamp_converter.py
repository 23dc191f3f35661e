"""TimestampConverter$Key / $Value: Kafka's TimestampConverterTest, translated (Connect's
java.util.Date values are our datetime, date and time)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Any

import pytest

from s3connect.connect.schema import ConnectSchema, Type
from s3connect.errors import TransformationError
from tests.unit.transforms.xformhelp import (
    DATE_SCHEMA,
    INT32,
    INT64,
    OPTIONAL_INT64,
    OPTIONAL_STRING,
    STRING,
    TIME_SCHEMA,
    TIMESTAMP_SCHEMA,
    apply,
    one,
    one_problems,
    rec,
    struct,
)

FMT = "yyyy MM dd HH mm ss SSS z"
DATE_PLUS_TIME = datetime(1970, 1, 2, 0, 0, 1, 234000, tzinfo=UTC)
DATE_PLUS_TIME_STRING = "1970 01 02 00 00 01 234 UTC"
DATE_PLUS_TIME_UNIX = 86_401_234
DATE_ONLY = date(1970, 1, 2)
TIME_ONLY = time(0, 0, 1, 234000)
OPTIONAL = {
    "Timestamp": ConnectSchema(Type.INT64, optional=True, name=TIMESTAMP_SCHEMA.name, version=1),
    "Date": ConnectSchema(Type.INT32, optional=True, name=DATE_SCHEMA.name, version=1),
    "Time": ConnectSchema(Type.INT32, optional=True, name=TIME_SCHEMA.name, version=1),
    "unix": OPTIONAL_INT64,
    "string": OPTIONAL_STRING,
}


def _tc(target: str, **extra: str) -> dict[str, Any]:
    return {"target.type": target, **{k.replace("_", "."): v for k, v in extra.items()}}


def test_config_errors() -> None:
    assert 'Missing required configuration "transforms.t.target.type"' in one_problems(
        "TimestampConverter$Value"
    )
    assert (
        "Invalid value invalid for configuration transforms.t.target.type: String must be "
        "one of: string, unix, Date, "
        "Time, Timestamp" in one_problems("TimestampConverter$Value", _tc("invalid"))
    )
    assert "Invalid value invalid for configuration transforms.t.unix.precision" in one_problems(
        "TimestampConverter$Value", _tc("unix", unix_precision="invalid")
    )
    assert "requires format option to be specified when using string timestamps" in one_problems(
        "TimestampConverter$Value", _tc("string")
    )
    text = one_problems("TimestampConverter$Value", _tc("string", format="bad-format"))
    assert (
        "Invalid value bad-format for configuration transforms.t.format: "
        "TimestampConverter requires a "
        "SimpleDateFormat-compatible pattern" in text
    )
    assert "Illegal pattern character 'b'" in text
    assert one("TimestampConverter$Value", _tc("unix", unix_precision="seconds"))


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("Timestamp", DATE_PLUS_TIME),
        ("Date", DATE_ONLY),
        ("Time", TIME_ONLY),
        ("unix", DATE_PLUS_TIME_UNIX),
        ("string", DATE_PLUS_TIME_STRING),
    ],
)
def test_schemaless_from_timestamp(target: str, expected: object) -> None:
    out = apply("TimestampConverter$Value", _tc(target, format=FMT), rec(DATE_PLUS_TIME))
    assert out.value_schema is None and out.value == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (DATE_ONLY, datetime(1970, 1, 2, tzinfo=UTC)),
        (TIME_ONLY, datetime(1970, 1, 1, 0, 0, 1, 234000, tzinfo=UTC)),
        (DATE_PLUS_TIME_UNIX, DATE_PLUS_TIME),
        (DATE_PLUS_TIME_STRING, DATE_PLUS_TIME),
    ],
)
def test_schemaless_to_timestamp(value: object, expected: datetime) -> None:
    out = apply("TimestampConverter$Value", _tc("Timestamp", format=FMT), rec(value))
    assert out.value_schema is None and out.value == expected


@pytest.mark.parametrize(
    ("target", "schema", "expected"),
    [
        ("Timestamp", TIMESTAMP_SCHEMA, DATE_PLUS_TIME),
        ("Date", DATE_SCHEMA, DATE_ONLY),
        ("Time", TIME_SCHEMA, TIME_ONLY),
        ("unix", INT64, DATE_PLUS_TIME_UNIX),
        ("string", STRING, DATE_PLUS_TIME_STRING),
    ],
)
def test_with_schema_from_timestamp(target: str, schema: ConnectSchema, expected: object) -> None:
    out = apply(
        "TimestampConverter$Value", _tc(target, format=FMT), rec(DATE_PLUS_TIME, TIMESTAMP_SCHEMA)
    )
    assert out.value_schema == schema and out.value == expected


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        (DATE_SCHEMA, DATE_ONLY, datetime(1970, 1, 2, tzinfo=UTC)),
        (TIME_SCHEMA, TIME_ONLY, datetime(1970, 1, 1, 0, 0, 1, 234000, tzinfo=UTC)),
        (INT64, DATE_PLUS_TIME_UNIX, DATE_PLUS_TIME),
        (STRING, DATE_PLUS_TIME_STRING, DATE_PLUS_TIME),
    ],
)
def test_with_schema_to_timestamp(schema: ConnectSchema, value: object, expected: datetime) -> None:
    out = apply("TimestampConverter$Value", _tc("Timestamp", format=FMT), rec(value, schema))
    assert out.value_schema == TIMESTAMP_SCHEMA and out.value == expected


@pytest.mark.parametrize("target", ["string", "Date", "Timestamp", "unix", "Time"])
def test_schemaless_nulls(target: str) -> None:
    out = apply("TimestampConverter$Value", _tc(target, format=FMT), rec(None))
    assert out.value is None and out.value_schema is None
    out = apply("TimestampConverter$Value", _tc(target, format=FMT, field="ts"), rec(None))
    assert out.value is None and out.value_schema is None


@pytest.mark.parametrize("target", ["string", "Date", "Timestamp", "unix", "Time"])
@pytest.mark.parametrize("original", ["Timestamp", "Date", "Time", "unix", "string"])
def test_with_schema_nulls(target: str, original: str) -> None:
    out = apply("TimestampConverter$Value", _tc(target, format=FMT), rec(None, OPTIONAL[original]))
    assert out.value_schema == OPTIONAL[target] and out.value is None
    props = _tc(target, format=FMT, field="ts")
    schema = struct(("ts", OPTIONAL[original]), ("other", STRING))
    out = apply("TimestampConverter$Value", props, rec({"ts": None, "other": "test"}, schema))
    assert out.value_schema == struct(("ts", OPTIONAL[target]), ("other", STRING))
    assert out.value == {"ts": None, "other": "test"}
    optional = struct(("ts", OPTIONAL[original]), ("other", STRING), optional=True)
    out = apply("TimestampConverter$Value", props, rec(None, optional))
    assert out.value_schema == struct(("ts", OPTIONAL[target]), ("other", STRING), optional=True)
    assert out.value is None


def test_schemaless_field() -> None:
    out = apply("TimestampConverter$Value", _tc("Date", field="ts"), rec({"ts": DATE_PLUS_TIME}))
    assert out.value == {"ts": DATE_ONLY}


def test_with_schema_field() -> None:
    schema = struct(("ts", INT64), ("other", STRING))
    out = apply(
        "TimestampConverter$Value",
        _tc("Timestamp", field="ts"),
        rec({"ts": DATE_PLUS_TIME_UNIX, "other": "test"}, schema),
    )
    assert out.value_schema == struct(("ts", TIMESTAMP_SCHEMA), ("other", STRING))
    assert out.value == {"ts": DATE_PLUS_TIME, "other": "test"}


def test_with_schema_null_field_without_default_replacement() -> None:
    schema = struct(("ts", ConnectSchema(Type.INT64, optional=True, default=0)), ("other", STRING))
    props = _tc("Timestamp", field="ts", replace_null_with_default="false")
    out = apply("TimestampConverter$Value", props, rec({"ts": None, "other": "test"}, schema))
    assert out.value_schema == struct(("ts", OPTIONAL["Timestamp"]), ("other", STRING))
    assert out.value == {"ts": None, "other": "test"}
    replaced = apply(
        "TimestampConverter$Value",
        _tc("Timestamp", field="ts"),
        rec({"ts": None, "other": "x"}, schema),
    )
    assert replaced.value == {"ts": datetime(1970, 1, 1, tzinfo=UTC), "other": "x"}


@pytest.mark.parametrize(
    ("precision", "unix", "expected"),
    [
        ("microseconds", DATE_PLUS_TIME_UNIX * 1000 + 123, DATE_PLUS_TIME),
        ("nanoseconds", (DATE_PLUS_TIME_UNIX * 1000 + 123) * 1000 + 456, DATE_PLUS_TIME),
        ("seconds", DATE_PLUS_TIME_UNIX // 1000, datetime(1970, 1, 2, 0, 0, 1, tzinfo=UTC)),
        ("microseconds", -1500, datetime(1969, 12, 31, 23, 59, 59, 999000, tzinfo=UTC)),  # -1 ms
    ],
)
def test_unix_precisions_in(precision: str, unix: int, expected: datetime) -> None:
    props = _tc("Timestamp", field="ts", unix_precision=precision)
    out = apply("TimestampConverter$Value", props, rec({"ts": unix}, struct(("ts", INT64))))
    assert out.value == {"ts": expected}


@pytest.mark.parametrize(
    ("precision", "expected"),
    [("microseconds", 86_401_234_000), ("nanoseconds", 86_401_234_000_000), ("seconds", 86_401)],
)
def test_unix_precisions_out(precision: str, expected: int) -> None:
    props = _tc("unix", unix_precision=precision, format=FMT)
    assert apply("TimestampConverter$Value", props, rec(DATE_PLUS_TIME_STRING)).value == expected


def test_key() -> None:
    out = apply("TimestampConverter$Key", _tc("Timestamp"), rec(None, key=DATE_PLUS_TIME))
    assert out.key == DATE_PLUS_TIME and out.key_schema is None


def test_failures() -> None:
    chain = one("TimestampConverter$Value", _tc("unix", format="yyyy-MM-dd"))
    with pytest.raises(TransformationError) as info:
        chain.apply(rec("not a date"))
    assert (
        "Could not parse timestamp: value (not a date) does not match pattern (yyyy-MM-dd)"
        in str(info.value)
    )
    with pytest.raises(TransformationError) as info:
        chain.apply(rec(42, INT32))
    assert "does not correspond to a known timestamp type format" in str(info.value)
    with pytest.raises(TransformationError) as info:
        chain.apply(rec(1.5))
    assert (
        "TimestampConverter does not support class java.lang.Double objects as timestamps"
        in str(info.value)
    )


def test_lenient_parsing_as_java() -> None:
    chain = one("TimestampConverter$Value", _tc("Timestamp", format="yyyy-MM-dd HH:mm"))
    out = chain.apply(rec("2024-13-32 25:61 and more"))  # month 13, day 32, hour 25 roll over
    assert out is not None and out.value == datetime(2025, 2, 2, 2, 1, tzinfo=UTC)
    out = chain.apply(rec(" 2024-01-05 7:05"))  # spaces before a field are skipped
    assert out is not None and out.value == datetime(2024, 1, 5, 7, 5, tzinfo=UTC)


def test_two_digit_years_are_the_one_non_deterministic_case() -> None:
    chain = one("TimestampConverter$Value", _tc("Timestamp", format="dd/MM/yy"))
    assert not chain.deterministic
    assert "two-digit years" in chain.nondeterminism[0]
    assert chain.nondeterminism[0].startswith("transforms.t: ")
    # built 2023-11-14: two-digit years fall in 1943-11-14 .. 2043-11-13
    assert chain.apply(rec("01/01/43")).value == datetime(2043, 1, 1, tzinfo=UTC)  # type: ignore[union-attr]
    assert chain.apply(rec("01/12/43")).value == datetime(1943, 12, 1, tzinfo=UTC)  # type: ignore[union-attr]
    assert chain.apply(rec("01/01/44")).value == datetime(1944, 1, 1, tzinfo=UTC)  # type: ignore[union-attr]
    assert one("TimestampConverter$Value", _tc("Timestamp", format="dd/MM/yyyy")).deterministic


def test_a_string_without_format_fails_as_in_kafka() -> None:
    """Kafka requires ``format`` only for target type string; a string read without it fails
    every record with a NullPointerException (checked against Kafka 4.1.1)."""
    with pytest.raises(TransformationError) as info:
        one("TimestampConverter$Value", _tc("unix", field="s")).apply(rec({"s": "2020-01-01"}))
    assert '"config.format" is null' in str(info.value)
