"""``java.text.SimpleDateFormat`` patterns: compiling them and formatting epoch milliseconds.

Kafka's ``TimestampConverter`` and ``TimestampRouter`` format in UTC, and Connect's ``Values``
formats dates in the JVM's default zone, which we take to be UTC too. Names are those of the
``en`` locale (``January``, ``Mon``, ``AM``, ``AD``); weeks are the US ones (they start on
Sunday, week 1 holds January 1). Dates are proleptic Gregorian: Java's calendar switches to the
Julian calendar before 15 October 1582, we do not.
"""

from __future__ import annotations

__all__ = [
    "DAY_MS",
    "MONTHS",
    "SHORT_MONTHS",
    "SHORT_WEEKDAYS",
    "WEEKDAYS",
    "Token",
    "civil_from_days",
    "compile_pattern",
    "day_of_week",
    "days_from_civil",
    "format_millis",
    "month_length",
]

DAY_MS = 86_400_000

PATTERN_LETTERS = "GyMdkHmsSEDFwWahKzZYuXL"
"""``DateFormatSymbols.patternChars``: every letter a pattern may use."""

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
SHORT_MONTHS = tuple(m[:3] for m in MONTHS)
WEEKDAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
SHORT_WEEKDAYS = tuple(d[:3] for d in WEEKDAYS)

Token = tuple[str, str | int]
"""A compiled pattern element: ``("'", text)`` for literal text, ``(letter, count)`` for a field."""


def compile_pattern(pattern: str) -> tuple[Token, ...]:
    """Split a pattern into literal text and fields, as ``SimpleDateFormat.compile`` does.

    Raises:
        ValueError: Java's message: an illegal pattern character, an unterminated quote, or
            ``X`` repeated more than three times.
    """
    tokens: list[Token] = []
    text: list[str] = []
    letter, count = "", 0
    in_quote = False

    def end_field() -> None:
        nonlocal letter, count
        if count:
            if letter == "X" and count >= 4:
                raise ValueError(f"invalid ISO 8601 format: length={count}")
            tokens.append((letter, count))
        letter, count = "", 0

    def end_text() -> None:
        if text:
            tokens.append(("'", "".join(text)))
            text.clear()

    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "'":
            end_field()
            if i + 1 < n and pattern[i + 1] == "'":
                text.append("'")
                i += 2
            else:
                in_quote = not in_quote
                i += 1
            continue
        if in_quote or not ("a" <= c <= "z" or "A" <= c <= "Z"):
            end_field()
            text.append(c)
        elif c not in PATTERN_LETTERS:
            raise ValueError(f"Illegal pattern character '{c}'")
        else:
            if count and c != letter:
                end_field()
            end_text()
            letter, count = c, count + 1
        i += 1
    if in_quote:
        raise ValueError("Unterminated quote")
    end_field()
    end_text()
    return tuple(tokens)


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (``month`` 1-12)."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146_097 + doe - 719_468


def civil_from_days(days: int) -> tuple[int, int, int]:
    """The proleptic Gregorian (year, month 1-12, day) of days since 1970-01-01."""
    days += 719_468
    era = days // 146_097
    doe = days - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (month <= 2), month, day


def month_length(year: int, month: int) -> int:
    """Days in ``month`` (1-12) of ``year``."""
    nxt = days_from_civil(year + month // 12, month % 12 + 1, 1)
    return nxt - days_from_civil(year, month, 1)


def day_of_week(days: int) -> int:
    """``Calendar.DAY_OF_WEEK`` of days since the epoch: 1 is Sunday, 7 Saturday."""
    return (days + 4) % 7 + 1


def _week_fields(days: int, year: int) -> tuple[int, int]:
    """(week year, week of year) with weeks starting on Sunday, week 1 holding January 1."""
    next_jan1 = days_from_civil(year + 1, 1, 1)
    if days >= next_jan1 - (day_of_week(next_jan1) - 1):
        return year + 1, 1
    jan1 = days_from_civil(year, 1, 1)
    return year, (days - jan1 + day_of_week(jan1) - 1) // 7 + 1


def _pad(value: int, count: int) -> str:
    return str(value).rjust(count, "0")


def format_millis(millis: int, tokens: tuple[Token, ...]) -> str:
    """Format an instant (epoch milliseconds) with a compiled pattern, in UTC."""
    days, ms_of_day = divmod(millis, DAY_MS)
    year, month, day = civil_from_days(days)
    out: list[str] = []
    for letter, arg in tokens:
        if letter == "'":
            out.append(str(arg))
        else:
            out.append(_field(letter, int(arg), days, ms_of_day, (year, month, day)))
    return "".join(out)


def _field(letter: str, count: int, days: int, ms: int, ymd: tuple[int, int, int]) -> str:
    year, month, day = ymd
    hour, minute, second, milli = ms // 3_600_000, ms // 60_000 % 60, ms // 1000 % 60, ms % 1000
    if letter in "yY":
        value = year if letter == "y" else _week_fields(days, year)[0]
        value = value if value > 0 else 1 - value  # year of era
        return _pad(value % 100, 2) if count == 2 else _pad(value, count)
    if letter in "ML":
        if count >= 4:
            return MONTHS[month - 1]
        return SHORT_MONTHS[month - 1] if count == 3 else _pad(month, count)
    if letter == "E":
        names = WEEKDAYS if count >= 4 else SHORT_WEEKDAYS
        return names[day_of_week(days) - 1]
    numbers = {
        "d": day,
        "H": hour,
        "k": hour or 24,
        "K": hour % 12,
        "h": hour % 12 or 12,
        "m": minute,
        "s": second,
        "S": milli,
        "D": days - days_from_civil(year, 1, 1) + 1,
        "F": (day - 1) // 7 + 1,
        "W": (day - 1 + day_of_week(days - day + 1) - 1) // 7 + 1,
        "u": (day_of_week(days) + 5) % 7 + 1,
    }
    if letter in numbers:
        return _pad(numbers[letter], count)
    if letter == "w":
        return _pad(_week_fields(days, year)[1], count)
    texts = {
        "G": "AD" if year > 0 else "BC",
        "a": "AM" if hour < 12 else "PM",
        "z": "Coordinated Universal Time" if count >= 4 else "UTC",
        "Z": "+0000",
        "X": "Z",
    }
    return texts[letter]
