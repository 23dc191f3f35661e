"""Kafka Connect's logical types (Timestamp, Date, Time, Decimal): between their Python values
(aware ``datetime``, ``date``, ``time``, ``Decimal``) and their wire forms (epoch milliseconds,
epoch days, milliseconds of the day, big-endian unscaled bytes)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Type

__all__ = [
    "DATE_SCHEMA",
    "EPOCH",
    "EPOCH_DAY",
    "TIMESTAMP_SCHEMA",
    "TIME_RANGE",
    "TIME_SCHEMA",
    "bytes_to_decimal",
    "date_to_days",
    "decimal_scale",
    "decimal_schema",
    "decimal_to_bytes",
    "decimal_unscaled",
    "millis_to_time",
    "time_to_millis",
    "timestamp_to_millis",
]


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

EPOCH_DAY = date(1970, 1, 1)

MS_PER_DAY = 86_400_000

DATE_SCHEMA = ConnectSchema(Type.INT32, name=DATE, version=1)
"""Kafka's ``Date.SCHEMA``."""

TIME_SCHEMA = ConnectSchema(Type.INT32, name=TIME, version=1)
"""Kafka's ``Time.SCHEMA``."""

TIMESTAMP_SCHEMA = ConnectSchema(Type.INT64, name=TIMESTAMP, version=1)
"""Kafka's ``Timestamp.SCHEMA``."""


def decimal_schema(scale: int) -> ConnectSchema:
    """Kafka's ``Decimal.schema(scale)``."""
    return ConnectSchema(Type.BYTES, name=DECIMAL, version=1, parameters={"scale": str(scale)})


def timestamp_to_millis(value: Any) -> int:
    """Epoch milliseconds of a Connect Timestamp value (naive datetimes are taken as UTC)."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return int((value - EPOCH) // timedelta(milliseconds=1))
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(f"Timestamp value must be a datetime, got {type(value).__name__}")


def date_to_days(value: Any) -> int:
    """Days since the epoch of a Connect Date value (``Date.fromLogical``: a datetime, Java's
    ``java.util.Date``, must be at midnight UTC).

    Raises:
        ValueError: a datetime with a time of day, Kafka's message.
    """
    if isinstance(value, datetime):
        utc = value if value.tzinfo is None else value.astimezone(UTC)
        if utc.hour or utc.minute or utc.second or utc.microsecond // 1000:
            raise ValueError(
                "Kafka Connect Date type should not have any time fields set to non-zero values."
            )
        value = utc.date()
    if isinstance(value, date):
        return (value - EPOCH_DAY).days
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(f"Date value must be a date, got {type(value).__name__}")


def time_to_millis(value: Any) -> int:
    """Milliseconds since midnight of a Connect Time value (``Time.fromLogical``: a datetime,
    Java's ``java.util.Date``, must be within the epoch's day, 0 to 86400000 ms).

    Raises:
        ValueError: a datetime out of that day, Kafka's message.
    """
    if isinstance(value, time):
        return (value.hour * 3600 + value.minute * 60 + value.second) * 1000 + (
            value.microsecond // 1000
        )
    if isinstance(value, datetime):
        millis = timestamp_to_millis(value)
        if not 0 <= millis <= MS_PER_DAY:
            raise ValueError(
                "Kafka Connect Time type should not have any date fields set to non-zero values."
            )
        return millis
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(f"Time value must be a time, got {type(value).__name__}")


TIME_RANGE = "Time values must use number of milliseconds greater than 0 and less than 86400000"
"""``Time.toLogical``'s message for milliseconds out of 0 to 86400000."""


def millis_to_time(millis: int) -> time | datetime:
    """``Time.toLogical``: 0 to 86400000 ms (the last, 24:00, is a datetime here, as Python's
    times end before it).

    Raises:
        ValueError: milliseconds out of that range (:data:`TIME_RANGE`).
    """
    if not 0 <= millis <= MS_PER_DAY:
        raise ValueError(TIME_RANGE)
    moment = EPOCH + timedelta(milliseconds=millis)
    return moment.time() if millis < MS_PER_DAY else moment


def decimal_scale(schema: ConnectSchema) -> int:
    """The ``scale`` parameter of a Connect Decimal schema."""
    try:
        return int(schema.parameters["scale"])
    except (KeyError, ValueError) as e:
        raise ValueError("Decimal schema must have an integer 'scale' parameter") from e


def decimal_unscaled(schema: ConnectSchema, value: Any) -> int:
    """The unscaled integer of ``value``, which must be at the schema's scale (Connect's
    ``Decimal.fromLogical``: ``1.5`` for a scale of 2 is refused, as Kafka and AvroData do)."""
    scale = decimal_scale(schema)
    if isinstance(value, int) and not isinstance(value, bool):
        value = Decimal(value)
    if not isinstance(value, Decimal):
        raise ValueError(f"Decimal value must be a decimal.Decimal, got {type(value).__name__}")
    exponent = value.as_tuple().exponent
    if not isinstance(exponent, int):
        raise ValueError(f"Decimal value {value} is not finite")
    if -exponent != scale:
        raise ValueError(
            "Decimal value has mismatching scale for given Decimal schema. "
            f"Schema has scale {scale}, value has scale {-exponent}."
        )
    sign, digits, _ = value.as_tuple()
    unscaled = int("".join(map(str, digits)) or "0")  # exact, whatever the context's precision
    return -unscaled if sign else unscaled


def decimal_to_bytes(unscaled: int) -> bytes:
    """Big-endian two's complement, minimal length (Java's ``BigInteger.toByteArray``)."""
    length = unscaled.bit_length() // 8 + 1
    return unscaled.to_bytes(length, "big", signed=True)


def bytes_to_decimal(raw: bytes, scale: int) -> Decimal:
    """The Decimal of big-endian two's complement unscaled bytes at ``scale`` (exact: not
    rounded to the decimal context's 28 digits)."""
    unscaled = int.from_bytes(raw, "big", signed=True)
    digits = tuple(int(d) for d in str(abs(unscaled)))
    return Decimal((1 if unscaled < 0 else 0, digits, -scale))
