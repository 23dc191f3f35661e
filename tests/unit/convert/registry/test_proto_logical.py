"""ProtobufData's Decimal/Date/Time/Timestamp converters, checked against Java 17's BigDecimal,
GregorianCalendar, LocalTime and protobuf-java-util 3.25.5's Timestamps (values printed by
running them)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from decimal import Decimal

import pytest

from s3connect.connect.logical import decimal_to_bytes
from s3connect.convert.registry.proto_logical import (
    confluent_decimal,
    google_date,
    google_time_of_day,
    protobuf_timestamp,
)


@pytest.mark.parametrize(
    ("ymd", "expected"),
    [
        ((1000, 1, 1), date(1000, 1, 6)),  # Julian before the reform
        ((1582, 10, 4), date(1582, 10, 14)),
        ((1582, 10, 15), date(1582, 10, 15)),
        ((1500, 2, 29), date(1500, 3, 10)),  # a Julian leap day
        ((2017, 12, 31), date(2017, 12, 31)),
    ],
)
def test_google_date_uses_java_calendar(ymd: tuple[int, int, int], expected: date) -> None:
    assert google_date(*ymd) == expected


@pytest.mark.parametrize(
    ("ymd", "message"),
    [
        ((1582, 10, 10), "the specified date doesn't exist"),
        ((0, 0, 0), "YEAR"),
        ((2017, 2, 30), "day is out of range"),
        ((1500, 13, 1), "MONTH"),
        ((1, 1, 1), "before 0001-01-01"),  # Java: 0000-12-30, out of Python's dates
    ],
)
def test_google_date_refuses_what_the_calendar_refuses(
    ymd: tuple[int, int, int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        google_date(*ymd)


def test_time_of_day_and_timestamp_checks() -> None:
    assert google_time_of_day(11, 12, 13, 14_999_999) == time(11, 12, 13, 14_000)
    hour = r"^Invalid value for HourOfDay \(valid values 0 - 23\): 24$"
    with pytest.raises(ValueError, match=hour):
        google_time_of_day(24, 0, 0, 0)
    assert protobuf_timestamp(1, 2_500_000) == datetime(1970, 1, 1, 0, 0, 1, 2000, tzinfo=UTC)
    with pytest.raises(ValueError) as info:
        protobuf_timestamp(1, -5)
    assert str(info.value) == (
        "Timestamp is not valid. See proto definition for valid values. Seconds (1) must be in "
        "range [-62,135,596,800, +253,402,300,799]. Nanos (-5) must be in range [0, +999,999,999]."
    )
    with pytest.raises(ValueError, match=r"Seconds \(-62135596801\)"):
        protobuf_timestamp(-62_135_596_801, 0)


@pytest.mark.parametrize(
    ("unscaled", "precision", "expected"),
    [
        (12345678, 0, "12345.678"),  # precision unset
        (12345678, 8, "12345.678"),
        (12345678, 5, "12346"),  # new BigDecimal(unscaled, 3, new MathContext(5))
        (-12345500, 5, "-12346"),  # HALF_UP
        (12345678, 2, "1.2E+4"),
        (10**30 + 1, 0, "1000000000000000000000000000.001"),  # beyond 28 digits, exact
    ],
)
def test_confluent_decimal_is_decimal_utils(unscaled: int, precision: int, expected: str) -> None:
    value = confluent_decimal(decimal_to_bytes(unscaled), precision, 3)
    assert str(value) == expected
    assert value == Decimal(expected)
