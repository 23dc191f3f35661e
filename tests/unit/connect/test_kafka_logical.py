"""Kafka's ``DecimalTest``, ``DateTest``, ``TimeTest`` and ``TimestampTest``
(``connect/api/src/test/java/org/apache/kafka/connect/data``, apache/kafka 1eb7644), test by
test, in our value model.

``fromLogical`` is :func:`decimal_unscaled` + :func:`decimal_to_bytes`, :func:`date_to_days`,
:func:`time_to_millis` and :func:`timestamp_to_millis`; ``toLogical`` is
:func:`bytes_to_decimal`, :func:`date_from_days`, :func:`millis_to_time` and
:func:`timestamp_from_millis`. A ``java.util.Date`` is a UTC datetime (a Date's value is also a
``date``, a Time's a ``time``). Our conversions are chosen by the schema's name, so Kafka's
``...InvalidSchema`` tests (a conversion asked of a schema of another name) have no
counterpart.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from s3connect.connect.logical import (
    DATE_SCHEMA,
    TIME_SCHEMA,
    TIMESTAMP_SCHEMA,
    bytes_to_decimal,
    date_to_days,
    decimal_scale,
    decimal_schema,
    decimal_to_bytes,
    decimal_unscaled,
    millis_to_time,
    time_to_millis,
    timestamp_to_millis,
)
from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP
from s3connect.transforms.values import date_from_days, timestamp_from_millis

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

# ---------------------------------------------------------------------------------------------
# DecimalTest

TEST_SCALE = 2
TEST_DECIMAL = Decimal("1.56")
TEST_DECIMAL_NEGATIVE = Decimal("-1.56")
TEST_BYTES = bytes([0, 256 - 100])  # {0, -100}
TEST_BYTES_NEGATIVE = bytes([256 - 1, 100])  # {-1, 100}


def test_decimal_builder() -> None:
    plain = decimal_schema(2)
    assert plain.name == DECIMAL
    assert plain.parameters == {"scale": "2"}
    assert plain.version == 1


def test_decimal_from_logical() -> None:
    schema = decimal_schema(TEST_SCALE)
    assert decimal_to_bytes(decimal_unscaled(schema, TEST_DECIMAL)) == TEST_BYTES
    assert decimal_to_bytes(decimal_unscaled(schema, TEST_DECIMAL_NEGATIVE)) == TEST_BYTES_NEGATIVE


def test_decimal_from_logical_mismatching_scale() -> None:
    # Decimal.fromLogical's message (no test method of its own in Kafka)
    with pytest.raises(ValueError) as e:
        decimal_unscaled(decimal_schema(2), Decimal("1.5"))
    assert str(e.value) == (
        "Decimal value has mismatching scale for given Decimal schema. "
        "Schema has scale 2, value has scale 1."
    )


def test_decimal_to_logical() -> None:
    scale = decimal_scale(decimal_schema(2))
    converted = bytes_to_decimal(TEST_BYTES, scale)
    assert converted == TEST_DECIMAL
    assert converted.as_tuple() == TEST_DECIMAL.as_tuple()  # BigDecimal.equals: scale too
    assert (
        bytes_to_decimal(TEST_BYTES_NEGATIVE, scale).as_tuple() == TEST_DECIMAL_NEGATIVE.as_tuple()
    )


# ---------------------------------------------------------------------------------------------
# DateTest

EPOCH_PLUS_TEN_THOUSAND_DAYS = EPOCH + timedelta(days=10000)
EPOCH_PLUS_TIME_COMPONENT = EPOCH + timedelta(seconds=1)


def test_date_builder() -> None:
    assert DATE_SCHEMA.name == DATE
    assert DATE_SCHEMA.version == 1


def test_date_from_logical() -> None:
    assert date_to_days(EPOCH) == 0
    assert date_to_days(EPOCH_PLUS_TEN_THOUSAND_DAYS) == 10000
    assert date_to_days(EPOCH_PLUS_TEN_THOUSAND_DAYS.date()) == 10000


def test_date_from_logical_invalid_has_time_components() -> None:
    with pytest.raises(ValueError) as e:
        date_to_days(EPOCH_PLUS_TIME_COMPONENT)
    assert str(e.value) == (
        "Kafka Connect Date type should not have any time fields set to non-zero values."
    )


def test_date_to_logical() -> None:
    assert date_from_days(0) == EPOCH.date()
    assert date_from_days(10000) == EPOCH_PLUS_TEN_THOUSAND_DAYS.date()


# ---------------------------------------------------------------------------------------------
# TimeTest

EPOCH_PLUS_TEN_THOUSAND_MILLIS = EPOCH + timedelta(milliseconds=10000)
EPOCH_PLUS_DATE_COMPONENT = EPOCH + timedelta(days=10000)


def test_time_builder() -> None:
    assert TIME_SCHEMA.name == TIME
    assert TIME_SCHEMA.version == 1


def test_time_from_logical() -> None:
    assert time_to_millis(EPOCH) == 0
    assert time_to_millis(EPOCH_PLUS_TEN_THOUSAND_MILLIS) == 10000
    assert time_to_millis(EPOCH_PLUS_TEN_THOUSAND_MILLIS.time()) == 10000


def test_time_from_logical_invalid_has_date_components() -> None:
    with pytest.raises(ValueError) as e:
        time_to_millis(EPOCH_PLUS_DATE_COMPONENT)
    assert str(e.value) == (
        "Kafka Connect Time type should not have any date fields set to non-zero values."
    )


def test_time_to_logical() -> None:
    assert millis_to_time(0) == EPOCH.time()
    assert millis_to_time(10000) == EPOCH_PLUS_TEN_THOUSAND_MILLIS.time()


# ---------------------------------------------------------------------------------------------
# TimestampTest

NUM_MILLIS = 2000000000
TOTAL_MILLIS = NUM_MILLIS * 2
EPOCH_PLUS_MILLIS = EPOCH + timedelta(milliseconds=NUM_MILLIS) + timedelta(milliseconds=NUM_MILLIS)


def test_timestamp_builder() -> None:
    # Kafka's test checks Date.SCHEMA (a slip); Timestamp.SCHEMA is what it means
    assert TIMESTAMP_SCHEMA.name == TIMESTAMP
    assert TIMESTAMP_SCHEMA.version == 1


def test_timestamp_from_logical() -> None:
    assert timestamp_to_millis(EPOCH) == 0
    assert timestamp_to_millis(EPOCH_PLUS_MILLIS) == TOTAL_MILLIS


def test_timestamp_to_logical() -> None:
    assert timestamp_from_millis(0) == EPOCH
    assert timestamp_from_millis(TOTAL_MILLIS) == EPOCH_PLUS_MILLIS
