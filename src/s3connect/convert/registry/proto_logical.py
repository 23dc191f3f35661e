"""ProtobufData's ``TO_CONNECT_LOGICAL_CONVERTERS``: ``confluent.type.Decimal``,
``google.type.Date``, ``google.type.TimeOfDay`` and ``google.protobuf.Timestamp`` messages ->
Connect Decimal, Date, Time and Timestamp values, with the checks (and messages) of the Java
classes doing the work."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from decimal import MAX_EMAX, MIN_EMIN, ROUND_HALF_UP, Context, Decimal

from s3connect.connect.logical import EPOCH, bytes_to_decimal

__all__ = ["confluent_decimal", "google_date", "google_time_of_day", "protobuf_timestamp"]

_CUTOVER = (1582, 10, 15)
_JULIAN_ORDINAL_OFFSET = 1721425  # Julian day number of proleptic Gregorian ordinal 0
_MIN_SECONDS, _MAX_SECONDS = -62_135_596_800, 253_402_300_799


def google_date(year: int, month: int, day: int) -> date:
    """A non-lenient UTC ``GregorianCalendar`` set to the date (the Date converter): Julian
    before 15 October 1582, so ``1000-01-01`` is the (proleptic Gregorian) ``1000-01-06``.

    Raises:
        ValueError: a date the calendar refuses (``YEAR``, ``MONTH``, ``DAY_OF_MONTH``, or one
            of the ten days the Gregorian reform skipped), or one before year 1 once converted.
    """
    if year < 1:
        raise ValueError(f"Invalid google.type.Date {year}-{month}-{day}: YEAR")
    if (year, month, day) >= _CUTOVER:
        try:
            return date(year, month, day)
        except ValueError as exc:
            raise ValueError(f"Invalid google.type.Date {year}-{month}-{day}: {exc}") from None
    if not 1 <= month <= 12:
        raise ValueError(f"Invalid google.type.Date {year}-{month}-{day}: MONTH")
    if (year, month) == (1582, 10) and day > 4:
        raise ValueError(
            f"Invalid google.type.Date {year}-{month}-{day}: the specified date doesn't exist"
        )
    lengths = [31, 29 if year % 4 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not 1 <= day <= lengths[month - 1]:
        raise ValueError(f"Invalid google.type.Date {year}-{month}-{day}: DAY_OF_MONTH")
    a = (14 - month) // 12
    y, m = year + 4800 - a, month + 12 * a - 3
    julian_day = day + (153 * m + 2) // 5 + 365 * y + y // 4 - 32083
    ordinal = julian_day - _JULIAN_ORDINAL_OFFSET
    if ordinal < 1:
        raise ValueError(f"Invalid google.type.Date {year}-{month}-{day}: before 0001-01-01")
    return date.fromordinal(ordinal)


_TIME_FIELDS = (
    ("HourOfDay", 23),
    ("MinuteOfHour", 59),
    ("SecondOfMinute", 59),
    ("NanoOfSecond", 999_999_999),
)


def google_time_of_day(hours: int, minutes: int, seconds: int, nanos: int) -> time:
    """``LocalTime.of(hours, minutes, seconds, nanos)`` truncated to milliseconds.

    Raises:
        ValueError: a field out of range, with ``DateTimeException``'s message.
    """
    for (name, top), value in zip(_TIME_FIELDS, (hours, minutes, seconds, nanos), strict=True):
        if not 0 <= value <= top:
            raise ValueError(f"Invalid value for {name} (valid values 0 - {top}): {value}")
    return time(hours, minutes, seconds, (nanos // 1_000_000) * 1000)


def protobuf_timestamp(seconds: int, nanos: int) -> datetime:
    """``Timestamps.toMillis`` (which checks the timestamp first) as a UTC datetime.

    Raises:
        ValueError: seconds or nanos out of the proto definition's range.
    """
    if not (_MIN_SECONDS <= seconds <= _MAX_SECONDS and 0 <= nanos <= 999_999_999):
        raise ValueError(
            "Timestamp is not valid. See proto definition for valid values. "
            f"Seconds ({seconds}) must be in range [-62,135,596,800, +253,402,300,799]. "
            f"Nanos ({nanos}) must be in range [0, +999,999,999]."
        )
    return EPOCH + timedelta(milliseconds=seconds * 1000 + nanos // 1_000_000)


def confluent_decimal(value: bytes, precision: int, scale: int) -> Decimal:
    """``DecimalUtils.toBigDecimal``: the unscaled bytes at the message's own scale, rounded
    half-up to its ``precision`` digits when that is set (non-zero), as
    ``new BigDecimal(unscaled, scale, new MathContext(precision))``.

    Raises:
        ValueError: a negative precision (``MathContext``'s "Digits < 0").
    """
    decimal = bytes_to_decimal(value, scale)
    if not precision:
        return decimal
    if precision < 0:
        raise ValueError("Digits < 0")
    context = Context(prec=precision, rounding=ROUND_HALF_UP, Emax=MAX_EMAX, Emin=MIN_EMIN)
    return context.plus(decimal)
