"""``java.text.SimpleDateFormat`` in UTC: formatting and lenient parsing.

Parsing follows ``SimpleDateFormat.parse`` and ``GregorianCalendar``'s lenient field resolution:
spaces and tabs before a field are skipped, a number runs as far as its digits go unless another
field follows at once (then it takes exactly as many characters as the pattern letter is
repeated), out-of-range values roll over (month 13 is January of the next year, ``SSS`` of
``1234`` adds a second), text after the pattern is ignored, and ``y``/``yy`` read a two-digit year
within the 100 years starting 80 years before the formatter was made. Zone names that parse are
those of UTC (``UTC``, ``GMT``, ``Coordinated Universal Time``, ``Greenwich Mean Time``) besides
``GMT+hh:mm``, ``+hhmm`` and ISO ``X`` offsets. A week year (``Y``) cannot be parsed.
"""

from __future__ import annotations

from s3connect.connect.java_types import LONG_MAX, LONG_MIN
from s3connect.transforms.date_format import (
    DAY_MS,
    MONTHS,
    SHORT_MONTHS,
    SHORT_WEEKDAYS,
    WEEKDAYS,
    civil_from_days,
    compile_pattern,
    day_of_week,
    days_from_civil,
    format_millis,
    month_length,
)
from s3connect.util.javamath import java_narrow

__all__ = ["SimpleDateFormat"]

_UTC_NAMES = ("Coordinated Universal Time", "Greenwich Mean Time", "UTC", "GMT")
_NUMERIC_START = "khyY"
_GENERIC_FIELDS = {
    "d": "DAY_OF_MONTH",
    "H": "HOUR_OF_DAY",
    "m": "MINUTE",
    "s": "SECOND",
    "S": "MILLISECOND",
    "D": "DAY_OF_YEAR",
    "F": "DAY_OF_WEEK_IN_MONTH",
    "w": "WEEK_OF_YEAR",
    "W": "WEEK_OF_MONTH",
    "K": "HOUR",
}


class SimpleDateFormat:
    """A pattern bound to UTC and the ``en`` locale.

    Args:
        pattern: The ``SimpleDateFormat`` pattern.
        created_ms: When the formatter is made (epoch ms): two-digit years parse relative to it.

    Raises:
        ValueError: the pattern is invalid (Java's ``IllegalArgumentException`` message).
    """

    def __init__(self, pattern: str, created_ms: int = 0) -> None:
        self.pattern = pattern
        self.tokens = compile_pattern(pattern)
        days, ms = divmod(created_ms, DAY_MS)
        year, month, day = civil_from_days(days)
        day = min(day, month_length(year - 80, month))
        self.century_start_ms = days_from_civil(year - 80, month, day) * DAY_MS + ms
        self.century_start_year = year - 80

    @property
    def reads_two_digit_years(self) -> bool:
        """Whether parsing may read a two-digit year (its century depends on ``created_ms``)."""
        return any(t[0] in "yY" and int(t[1]) <= 2 for t in self.tokens)

    def format(self, millis: int) -> str:
        """``format(new Date(millis))``."""
        return format_millis(millis, self.tokens)

    def parse(self, text: str) -> tuple[int, int] | None:
        """``parse(text, new ParsePosition(0))``: (epoch ms, index after the match), or None.

        Raises:
            ValueError: the pattern has a week year (``Y``), which is not supported.
        """
        if any(t[0] == "Y" for t in self.tokens):
            raise ValueError("parsing a week year (pattern letter Y) is not supported")
        fields = _Fields()
        pos, ambiguous = 0, False
        for i, (letter, arg) in enumerate(self.tokens):
            if letter == "'":
                for ch in str(arg):
                    if pos >= len(text) or text[pos] != ch:
                        return None
                    pos += 1
                continue
            obey = i + 1 < len(self.tokens) and self.tokens[i + 1][0] != "'"
            parsed = self._sub_parse(text, pos, letter, int(arg), obey, fields)
            if parsed is None:
                return None
            pos, was_ambiguous = parsed
            ambiguous = ambiguous or was_ambiguous
        millis = fields.establish()
        if ambiguous and millis < self.century_start_ms:
            fields.values["YEAR"] = fields.values.get("YEAR", 1970) + 100
            millis = fields.establish()
        return millis, pos

    def _sub_parse(
        self, text: str, start: int, letter: str, count: int, obey: bool, fields: _Fields
    ) -> tuple[int, bool] | None:
        index = start
        while index < len(text) and text[index] in " \t":
            index += 1
        if index >= len(text):
            return None
        limit = start + count if obey else len(text)
        numeric = letter in _NUMERIC_START or (letter in "ML" and count <= 2)
        if (numeric or letter in _GENERIC_FIELDS or letter == "u") and limit > len(text):
            return None
        if numeric or letter in _GENERIC_FIELDS:
            number = _parse_number(text[:limit], index)
            if number is None:
                return None
            value, end = number
            if letter in "yY":
                return self._year(text, index, end, value, count, fields)
            fields.put(_numeric_field(letter), _numeric_value(letter, value))
            return end, False
        if letter == "u":
            number = _parse_number(text[:limit], index)
            if number is None:
                return None
            fields.put("DAY_OF_WEEK", number[0] % 7 + 1)
            return number[1], False
        text_end = _text_field(text, (start, index), letter, count, fields)
        return None if text_end is None else (text_end, False)

    def _year(
        self, text: str, start: int, end: int, value: int, count: int, fields: _Fields
    ) -> tuple[int, bool]:
        ambiguous = False
        if count <= 2 and end - start == 2 and text[start : start + 2].isdigit():
            two_digit = self.century_start_year % 100
            ambiguous = value == two_digit
            value += (self.century_start_year // 100) * 100 + (100 if value < two_digit else 0)
        fields.put("YEAR", value)
        return end, ambiguous


def _numeric_field(letter: str) -> str:
    if letter in "ML":
        return "MONTH"
    if letter == "k":
        return "HOUR_OF_DAY"
    if letter == "h":
        return "HOUR"
    return _GENERIC_FIELDS[letter]


def _numeric_value(letter: str, value: int) -> int:
    if letter in "ML":
        return value - 1
    if (letter == "k" and value == 24) or (letter == "h" and value == 12):
        return 0
    return value


def _parse_number(text: str, index: int) -> tuple[int, int] | None:
    """``DecimalFormat`` parsing an integer: an optional ``-`` and digits; ``intValue()``."""
    end = index + 1 if index < len(text) and text[index] == "-" else index
    digits_start = end
    while end < len(text) and text[end].isdecimal():
        end += 1
    if end == digits_start:
        return None
    value = int(text[index:end])
    if LONG_MIN <= value <= LONG_MAX:
        return java_narrow(value, 32), end
    return (2**31 - 1 if value > 0 else -(2**31)), end


def _match(text: str, start: int, names: tuple[str, ...]) -> tuple[int, int] | None:
    """``matchString``: the longest name matching at ``start``, ignoring case."""
    best, best_len = -1, 0
    for i, name in enumerate(names):
        if len(name) > best_len and text[start : start + len(name)].lower() == name.lower():
            best, best_len = i, len(name)
    return None if best < 0 else (best, start + best_len)


def _text_field(
    text: str, where: tuple[int, int], letter: str, count: int, fields: _Fields
) -> int | None:
    """A text field (era, month name, day name, AM/PM) or a zone; its end, or None.

    ``where`` is (where the field starts, where it starts after spaces): names must match at
    the first (as Java's ``matchString`` does), zones are read from the second.
    """
    start, index = where
    if letter in "zZ":
        return _zone(text, start, index, fields)
    if letter == "X":
        return _iso_zone(text, index, count, fields)
    choices: dict[str, tuple[str, tuple[tuple[str, ...], ...]]] = {
        "G": ("ERA", (("BC", "AD"),)),
        "M": ("MONTH", (MONTHS, SHORT_MONTHS)),
        "L": ("MONTH", (MONTHS, SHORT_MONTHS)),
        "E": ("DAY_OF_WEEK", (WEEKDAYS, SHORT_WEEKDAYS)),
        "a": ("AM_PM", (("AM", "PM"),)),
    }
    field, name_lists = choices[letter]
    for names in name_lists:
        found = _match(text, start, names)
        if found is not None:
            fields.put(field, found[0] + (1 if field == "DAY_OF_WEEK" else 0))
            return found[1]
    return None


def _zone(text: str, start: int, index: int, fields: _Fields) -> int | None:
    sign = {"+": 1, "-": -1}.get(text[index], 0)
    if sign:
        return _numeric_zone(text, index + 1, sign, 0, False, fields)
    if text[index] in "Gg" and text[start : start + 3].upper() == "GMT":
        index = start + 3
        sign = {"+": 1, "-": -1}.get(text[index : index + 1], 0)
        if not sign:
            fields.set_zone(0)
            return index
        return _numeric_zone(text, index + 1, sign, 0, True, fields)
    found = _match(text, index, _UTC_NAMES)
    if found is None:
        return None
    fields.set_zone(0)
    return found[1]


def _iso_zone(text: str, index: int, count: int, fields: _Fields) -> int | None:
    c = text[index]
    if c == "Z":
        fields.set_zone(0)
        return index + 1
    sign = {"+": 1, "-": -1}.get(c, 0)
    if not sign:
        return None
    return _numeric_zone(text, index + 1, sign, count, count == 3, fields)


def _numeric_zone(
    text: str, index: int, sign: int, count: int, colon: bool, fields: _Fields
) -> int | None:
    """``subParseNumericZone``: ``hh[:]mm`` (``count`` 1: ``hh`` only); its end or None."""

    def digit(i: int) -> int | None:
        return int(text[i]) if i < len(text) and text[i].isdigit() else None

    first = digit(index)
    if first is None:
        return None
    hours, index = first, index + 1
    second = digit(index)
    if second is not None:
        hours, index = hours * 10 + second, index + 1
    elif count > 0 or not colon:
        return None
    if hours > 23:
        return None
    minutes = 0
    if count != 1:
        if colon:
            if text[index : index + 1] != ":":
                return None
            index += 1
        tens, ones = digit(index), digit(index + 1)
        if tens is None or ones is None or tens * 10 + ones > 59:
            return None
        minutes, index = tens * 10 + ones, index + 2
    fields.set_zone(sign * (hours * 60 + minutes) * 60_000)
    return index


class _Fields:
    """The calendar fields a parse set, in order (``CalendarBuilder``), and their resolution."""

    def __init__(self) -> None:
        self.values: dict[str, int] = {}
        self.stamps: dict[str, int] = {}

    def put(self, field: str, value: int) -> None:
        self.values[field] = value
        self.stamps[field] = len(self.stamps) + 2

    def set_zone(self, offset_ms: int) -> None:
        self.put("ZONE_OFFSET", offset_ms)

    def _stamp(self, field: str) -> int:
        return self.stamps.get(field, 0)

    def _both(self, a: str, b: str) -> int:
        sa, sb = self._stamp(a), self._stamp(b)
        return 0 if not sa or not sb else max(sa, sb)

    def _date_fields(self) -> set[str]:
        """``Calendar.selectFields``: which fields say the day."""
        dow = self._stamp("DAY_OF_WEEK")
        dom, doy = self._stamp("DAY_OF_MONTH"), self._stamp("DAY_OF_YEAR")
        wom, dowim = (
            self._both("WEEK_OF_MONTH", "DAY_OF_WEEK"),
            self._both("DAY_OF_WEEK_IN_MONTH", "DAY_OF_WEEK"),
        )
        woy = self._both("WEEK_OF_YEAR", "DAY_OF_WEEK")
        best = max(dom, wom, dowim, doy, woy)
        if not best:
            wom, woy = self._stamp("WEEK_OF_MONTH"), self._stamp("WEEK_OF_YEAR")
            dowim = max(self._stamp("DAY_OF_WEEK_IN_MONTH"), dow)
            best = max(wom, dowim, woy)
            if not best:
                best = dom = self._stamp("MONTH")
        woy_stamp = self._stamp("WEEK_OF_YEAR")
        if (
            best == dom
            or (best == wom and self._stamp("WEEK_OF_MONTH") >= woy_stamp)
            or (best == dowim and self._stamp("DAY_OF_WEEK_IN_MONTH") >= woy_stamp)
        ):
            chosen = {"MONTH"}
            if best == dom:
                return chosen | {"DAY_OF_MONTH"}
            if dow:
                chosen.add("DAY_OF_WEEK")
            if wom == dowim:
                prefer_wom = self._stamp("WEEK_OF_MONTH") >= self._stamp("DAY_OF_WEEK_IN_MONTH")
                chosen.add("WEEK_OF_MONTH" if prefer_wom else "DAY_OF_WEEK_IN_MONTH")
            elif best == wom:
                chosen.add("WEEK_OF_MONTH")
            elif self._stamp("DAY_OF_WEEK_IN_MONTH"):
                chosen.add("DAY_OF_WEEK_IN_MONTH")
            return chosen
        if best == doy:
            return {"DAY_OF_YEAR"}
        return {"WEEK_OF_YEAR", "DAY_OF_WEEK"} if dow else {"WEEK_OF_YEAR"}

    def _time_of_day(self) -> int:
        v = self.values
        hour_of_day = self._stamp("HOUR_OF_DAY")
        hour = self._both("HOUR", "AM_PM")
        best = max(hour, hour_of_day) or max(self._stamp("HOUR"), self._stamp("AM_PM"))
        hours = 0
        if best and best == hour_of_day:
            hours = v["HOUR_OF_DAY"]
        elif best:
            hours = v.get("HOUR", 0) + 12 * v.get("AM_PM", 0)
        minutes = hours * 60 + v.get("MINUTE", 0)
        return (minutes * 60 + v.get("SECOND", 0)) * 1000 + v.get("MILLISECOND", 0)

    def establish(self) -> int:
        """``GregorianCalendar.computeTime`` (lenient, UTC): the epoch milliseconds."""
        year = self.values.get("YEAR", 1970)
        if self.values.get("ERA", 1) == 0:
            year = 1 - year
        days, ms = divmod(self._time_of_day(), DAY_MS)
        days += self._day(year, self._date_fields())
        return days * DAY_MS + ms - self.values.get("ZONE_OFFSET", 0)

    def _day(self, year: int, chosen: set[str]) -> int:
        """``GregorianCalendar.getFixedDate``, as days since the epoch."""
        v = self.values
        month = 0
        if "MONTH" in chosen:
            year, month = year + v.get("MONTH", 0) // 12, v.get("MONTH", 0) % 12
        first = days_from_civil(year, month + 1, 1)
        if "MONTH" in chosen:
            if "DAY_OF_MONTH" in chosen:
                return first + v.get("DAY_OF_MONTH", 1) - 1
            dow = v.get("DAY_OF_WEEK", 1) if "DAY_OF_WEEK" in chosen else 1
            if "WEEK_OF_MONTH" in chosen:
                week_start = _on_or_before(first + 6, 1)
                if week_start - first >= 1:
                    week_start -= 7
                if "DAY_OF_WEEK" in chosen:
                    week_start = _on_or_before(week_start + 6, dow)
                return week_start + 7 * (v.get("WEEK_OF_MONTH", 0) - 1)
            dowim = v.get("DAY_OF_WEEK_IN_MONTH", 1) if "DAY_OF_WEEK_IN_MONTH" in chosen else 1
            if dowim >= 0:
                return _on_or_before(first + 7 * dowim - 1, dow)
            last = month_length(year, month + 1) + 7 * (dowim + 1)
            return _on_or_before(first + last - 1, dow)
        if "DAY_OF_YEAR" in chosen:
            return first + v.get("DAY_OF_YEAR", 0) - 1
        week_start = _on_or_before(first + 6, 1)
        if week_start - first >= 1:
            week_start -= 7
        if "DAY_OF_WEEK" in chosen and v.get("DAY_OF_WEEK", 0) != 1:
            week_start = _on_or_before(week_start + 6, v.get("DAY_OF_WEEK", 0))
        return week_start + 7 * (v.get("WEEK_OF_YEAR", 0) - 1)


def _on_or_before(days: int, dow: int) -> int:
    """``getDayOfWeekDateOnOrBefore``: the last day on or before ``days`` that is ``dow``."""
    return days - (day_of_week(days) - dow) % 7
