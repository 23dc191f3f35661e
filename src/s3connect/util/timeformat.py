"""Joda-Time compatible zones, date-time pattern formatting and ISO-8601 parsing.

Confluent's ``TimeBasedPartitioner`` formats bucket instants with Joda-Time
``DateTimeFormat.forPattern(path.format).withZone(zone).withLocale(locale)`` and its
``RecordField`` extractor parses strings with ``ISODateTimeFormat.dateTimeParser()``. This module
reproduces both as Joda-Time 2.13.1 (the version storage-common pins) does on Java 17, plus
``DateTimeZone.forID`` and the two conversions the partitioner's bucketing relies on;
``tests/reference/test_joda.py`` runs the real Joda beside it.

Supported pattern letters (as Joda): ``G`` era, ``C`` century of era, ``Y`` year of era, ``x``
weekyear, ``w`` week of weekyear, ``e`` day of week (number), ``E`` day of week (text), ``y`` year,
``D`` day of year, ``M`` month (number for 1-2 letters, text for 3+), ``d`` day of month, ``a``
half-day, ``K`` hour of half-day (0-11), ``h`` clock hour of half-day (1-12), ``H`` hour of day
(0-23), ``k`` clock hour of day (1-24), ``m`` minute, ``s`` second, ``S`` fraction of second (at
most 15 digits printed), ``z`` zone name, ``Z`` offset (``Z``: ``-0500``, ``ZZ``: ``-05:00``,
``+0000`` at UTC) or zone id (``ZZZ``); text in single quotes is literal and ``''`` is a quote.
Other ASCII letters are errors. A count of 2 on ``y``/``Y``/``x`` prints the two-digit (pivot)
year; other counts pad to the count.

Zones are Joda's IDs (its tz database, 2025a: an alias prints as its canonical ID) with this
machine's offsets for them (``zoneinfo``), or fixed offsets.

Limits (documented, checked when a formatter is built or an instant printed): instants must fall
in years 1-9999 (Joda prints years beyond); text names (``G E MMM a``) exist for the locales Java
17 gives for ``en de fr es it nl pt``; like ``new Locale(s)`` in Java, any value with a region
(``en_US``) is an unknown language and gets Java's root names (``Mar``, ``Sun``, ``CE``); other
bare languages are rejected when a text letter is used. ``z`` (zone names, which Joda takes from
the JDK's locale data: ``EST``, ``MEZ``, ``BRT``) is valid in a pattern but rejected by
:class:`JodaFormatter`. The ISO parser takes every year Joda does, but refuses the few instants
whose arithmetic overflows a long in Joda (which then returns a wrapped value).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from datetime import timezone as _fixed_timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from s3connect.util.jodazones import joda_zone

__all__ = [
    "JodaFormatter",
    "JodaZone",
    "format_instant",
    "parse_iso_datetime",
    "validate_pattern",
]

_MS_HOUR = 3_600_000
_MS_MINUTE = 60_000
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_EPOCH_NAIVE = datetime(1970, 1, 1)
_ONE_MS = timedelta(milliseconds=1)
_KNOWN_LETTERS = frozenset("GCYxwyeEDMdaKhHkmsSzZ")


# --------------------------------------------------------------------------------------------
# Zones


_UTC_IDS = frozenset({"UTC", "Z", "UT"})  # forID gives Joda's UTC for these
_OFFSET_ID = re.compile(r"(?:UTC|GMT|UT)?(?=[+-])")


@dataclass(frozen=True, slots=True)
class JodaZone:
    """A time zone with Joda ``DateTimeZone`` conversions; build it with :meth:`for_id`."""

    id: str
    tz: tzinfo

    @classmethod
    def for_id(cls, zone_id: str) -> JodaZone:
        """Resolve a zone like ``DateTimeZone.forID``: ``UTC``, an ID of Joda's tz database (an
        alias resolves to its canonical ID, as ``getID()`` prints it) or an offset
        ``±hh[[:]mm[[:]ss[[.]SSS]]]``, bare or after ``UTC``/``GMT``/``UT``.

        Raises:
            ValueError: Joda does not recognise the id (or this machine's tz database lacks it).
        """
        if zone_id in _UTC_IDS:
            return cls("UTC", UTC)
        known = joda_zone(zone_id)
        if known is not None:
            try:
                return cls(known[0], ZoneInfo(known[1]))
            except (ZoneInfoNotFoundError, ValueError) as e:
                raise ValueError(
                    f"The datetime zone id '{zone_id}' is not in this machine's tz database"
                ) from e
        prefixed = _OFFSET_ID.match(zone_id)  # Joda's provider reads GMT+01:00 as +01:00
        if prefixed is not None:
            cur = _Cursor(zone_id[prefixed.end() :])
            ms = _parse_offset(cur, zero_text=None)
            if ms is not None and cur.pos == len(cur.text):
                if ms == 0:
                    return cls("UTC", UTC)
                return cls(_print_offset(ms), _fixed_timezone(timedelta(milliseconds=ms)))
        raise ValueError(f"The datetime zone id '{zone_id}' is not recognised")

    def offset_ms(self, instant_ms: int) -> int:
        """The zone's offset from UTC in milliseconds at an instant (``getOffset``).

        Raises:
            ValueError: the instant is outside years 1-9999 (UTC).
        """
        moment = _aware(instant_ms)
        try:
            off = moment.astimezone(self.tz).utcoffset()
        except OverflowError:  # local time past year 1 or 9999: no transition so near, read by UTC
            off = self.tz.utcoffset(moment.replace(tzinfo=None))
        return 0 if off is None else off // _ONE_MS

    def convert_utc_to_local(self, instant_ms: int) -> int:
        """``DateTimeZone.convertUTCToLocal``: the instant plus the offset at that instant."""
        return instant_ms + self.offset_ms(instant_ms)

    def convert_local_to_utc(self, local_ms: int, strict: bool = False) -> int:
        """``DateTimeZone.convertLocalToUTC(instantLocal, strict)``, Joda's arithmetic exactly.

        In a DST gap a non-strict conversion keeps the offset before the gap for zones west of
        Greenwich (a local time in the gap moves forward) and the estimate for zones east of it;
        in an overlap it picks the later (standard-time) instant for the west, as Joda does.

        Raises:
            ValueError: ``strict`` and the local time falls in a gap.
        """
        offset_local = self.offset_ms(local_ms)
        offset = self.offset_ms(local_ms - offset_local)
        if offset_local != offset and (strict or offset_local < 0):
            # Joda compares nextTransition(local - offsetLocal) with nextTransition(local - offset):
            # they differ exactly when a transition lies in between (offsets piecewise constant).
            a, b = local_ms - offset_local, local_ms - offset
            lo, hi = min(a, b), max(a, b)
            if self.offset_ms(lo) != self.offset_ms(hi):
                if strict:
                    raise ValueError(
                        f"Illegal instant due to time zone offset transition ({self.id})"
                    )
                offset = offset_local
        return local_ms - offset


def _aware(instant_ms: int) -> datetime:
    try:
        return _EPOCH + timedelta(milliseconds=instant_ms)
    except OverflowError as e:
        raise ValueError(f"instant {instant_ms} ms is outside years 1-9999") from e


def _print_offset(offset_ms: int) -> str:
    """Joda's ``DateTimeZone.printOffset`` (``+hh:mm``, then ``:ss`` and ``.SSS`` if needed)."""
    sign = "-" if offset_ms < 0 else "+"
    ms = abs(offset_ms)
    hours, ms = divmod(ms, _MS_HOUR)
    minutes, ms = divmod(ms, _MS_MINUTE)
    out = f"{sign}{hours:02d}:{minutes:02d}"
    if ms:
        seconds, ms = divmod(ms, 1000)
        out += f":{seconds:02d}"
        if ms:
            out += f".{ms:03d}"
    return out


# --------------------------------------------------------------------------------------------
# Locale text


@dataclass(frozen=True, slots=True)
class _Symbols:
    months: tuple[str, ...]
    months_short: tuple[str, ...]
    weekdays: tuple[str, ...]  # Monday first
    weekdays_short: tuple[str, ...]
    halfdays: tuple[str, str]
    eras: tuple[str, str]  # BC, AD


# Names as Joda-Time 2.13.1 prints them on Java 17 (CLDR); "" is Java's root locale, which any
# locale string Java does not know as a language (``en_US``, ``de-DE``, ``xx``) falls back to.
_SYMBOLS: dict[str, _Symbols] = {
    "en": _Symbols(
        ("January", "February", "March", "April", "May", "June", "July", "August",
         "September", "October", "November", "December"),
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
        ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
        ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
        ("AM", "PM"),
        ("BC", "AD"),
    ),
    "": _Symbols(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
        ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
        ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
        ("AM", "PM"),
        ("BCE", "CE"),
    ),
    "de": _Symbols(
        ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
         "Oktober", "November", "Dezember"),
        ("Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.",
         "Dez."),
        ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"),
        ("Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa.", "So."),
        ("AM", "PM"),
        ("v. Chr.", "n. Chr."),
    ),
    "fr": _Symbols(
        ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
         "octobre", "novembre", "décembre"),
        ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.",
         "nov.", "déc."),
        ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
        ("lun.", "mar.", "mer.", "jeu.", "ven.", "sam.", "dim."),
        ("AM", "PM"),
        ("av. J.-C.", "ap. J.-C."),
    ),
    "es": _Symbols(
        ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
         "octubre", "noviembre", "diciembre"),
        ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"),
        ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
        ("lun", "mar", "mié", "jue", "vie", "sáb", "dom"),
        ("a.\u00a0m.", "p.\u00a0m."),
        ("a. C.", "d. C."),
    ),
    "it": _Symbols(
        ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
         "settembre", "ottobre", "novembre", "dicembre"),
        ("gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"),
        ("lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica"),
        ("lun", "mar", "mer", "gio", "ven", "sab", "dom"),
        ("AM", "PM"),
        ("a.C.", "d.C."),
    ),
    "nl": _Symbols(
        ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september",
         "oktober", "november", "december"),
        ("jan.", "feb.", "mrt.", "apr.", "mei", "jun.", "jul.", "aug.", "sep.", "okt.", "nov.",
         "dec."),
        ("maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag"),
        ("ma", "di", "wo", "do", "vr", "za", "zo"),
        ("a.m.", "p.m."),
        ("v.Chr.", "n.Chr."),
    ),
    "pt": _Symbols(
        ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro",
         "outubro", "novembro", "dezembro"),
        ("jan.", "fev.", "mar.", "abr.", "mai.", "jun.", "jul.", "ago.", "set.", "out.", "nov.",
         "dez."),
        ("segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado",
         "domingo"),
        ("seg.", "ter.", "qua.", "qui.", "sex.", "sáb.", "dom."),
        ("AM", "PM"),
        ("a.C.", "d.C."),
    ),
}  # fmt: skip


def _symbols_for(locale: str) -> _Symbols | None:
    """The names Java would use for ``new Locale(locale)``; None when we do not have them."""
    language = locale.lower()
    if language in _SYMBOLS:
        return _SYMBOLS[language]
    if re.fullmatch(r"[a-z]{2,3}", language):
        return None  # a real language Java knows but our table does not
    return _SYMBOLS[""]


# --------------------------------------------------------------------------------------------
# Pattern parsing (DateTimeFormat.parsePatternTo / parseToken)


@dataclass(frozen=True, slots=True)
class _Field:
    letter: str
    count: int
    two_digit: bool = False


def _tokenize(pattern: str) -> list[str]:
    tokens: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c.isascii() and c.isalpha():
            j = i
            while j + 1 < n and pattern[j + 1] == c:
                j += 1
            tokens.append(pattern[i : j + 1])
            i = j + 1
            continue
        buf = ["'"]
        in_literal = False
        while i < n:
            c = pattern[i]
            if c == "'":
                if i + 1 < n and pattern[i + 1] == "'":
                    i += 1
                    buf.append(c)
                else:
                    in_literal = not in_literal
            elif not in_literal and c.isascii() and c.isalpha():
                break
            else:
                buf.append(c)
            i += 1
        tokens.append("".join(buf))
    return tokens


def _compile(pattern: str) -> list[_Field | str]:
    """Compile a pattern into literal strings and fields; raise ValueError on a bad letter."""
    if not pattern:
        raise ValueError("Invalid pattern specification")
    out: list[_Field | str] = []
    for token in _tokenize(pattern):
        c = token[0]
        if c == "'":
            out.append(token[1:])
        elif c not in _KNOWN_LETTERS:
            raise ValueError(f"Illegal pattern component: {token}")
        else:
            out.append(_Field(c, len(token), two_digit=c in "xyY" and len(token) == 2))
    if not any(out):  # only a lone quote: Joda's builder has nothing to print
        raise ValueError("Both printing and parsing not supported (the pattern prints nothing)")
    return out


def validate_pattern(pattern: str) -> None:
    """Raise ValueError naming the bad component if Joda's ``forPattern`` would reject it."""
    _compile(pattern)


# --------------------------------------------------------------------------------------------
# Formatting


def _pad(value: int, width: int) -> str:
    """Joda's ``FormatUtils.appendPaddedInteger``: sign, then digits zero-padded to width."""
    if value < 0:
        return "-" + str(-value).rjust(width, "0")
    return str(value).rjust(width, "0")


def _fraction(millis: int, count: int) -> str:
    """Joda's ``Fraction`` printer for ``S`` repeated ``count`` times: ``count`` zeros for a whole
    second, else at most 15 digits (its 18-digit cap, less what overflows a long), truncated."""
    if millis == 0:
        return "0" * count
    digits = min(count, 15)
    return str(millis * 10**digits // 1000).rjust(digits, "0")


class JodaFormatter:
    """A Joda pattern bound to a zone and a locale (``forPattern().withZone().withLocale()``).

    Raises:
        ValueError: the pattern is invalid, or uses text this module cannot render (see module doc).
    """

    def __init__(self, pattern: str, zone: JodaZone | str = "UTC", locale: str = "en") -> None:
        self.pattern = pattern
        self.zone = zone if isinstance(zone, JodaZone) else JodaZone.for_id(zone)
        self.locale = locale
        self._parts = _compile(pattern)
        uses_text = any(
            isinstance(p, _Field) and (p.letter in "GEa" or (p.letter == "M" and p.count >= 3))
            for p in self._parts
        )
        symbols = _symbols_for(locale)
        if uses_text and symbols is None:
            raise ValueError(
                f"locale '{locale}' has no built-in month/day/era names "
                f"(supported: {', '.join(k for k in _SYMBOLS if k)} or a region-qualified value)"
            )
        self._symbols = symbols or _SYMBOLS[""]
        if any(isinstance(p, _Field) and p.letter == "z" for p in self._parts):
            raise ValueError("time zone names (pattern letter z) are not supported; use Z or ZZZ")

    def format(self, instant_ms: int) -> str:
        """Format an epoch-millisecond instant in the formatter's zone."""
        offset = self.zone.offset_ms(instant_ms)
        try:
            local = _EPOCH_NAIVE + timedelta(milliseconds=instant_ms + offset)
        except OverflowError as e:
            raise ValueError(f"instant {instant_ms} ms is outside years 1-9999") from e
        return "".join(
            p if isinstance(p, str) else self._field(p, local, instant_ms, offset)
            for p in self._parts
        )

    def _field(self, f: _Field, t: datetime, instant_ms: int, offset: int) -> str:
        c, n, sym = f.letter, f.count, self._symbols
        iso = t.isocalendar()
        if f.two_digit:
            year = iso.year if c == "x" else t.year
            return _pad(abs(year) % 100, 2)
        if c in "yY":
            return _pad(t.year, n)
        if c == "x":
            return _pad(iso.year, n)
        if c == "G":
            return sym.eras[1]
        if c == "C":
            return _pad(t.year // 100, n)
        if c == "w":
            return _pad(iso.week, n)
        if c == "e":
            return _pad(iso.weekday, n)
        if c == "E":
            names = sym.weekdays if n >= 4 else sym.weekdays_short
            return names[iso.weekday - 1]
        if c == "D":
            return _pad(t.timetuple().tm_yday, n)
        if c == "M":
            if n >= 4:
                return sym.months[t.month - 1]
            if n == 3:
                return sym.months_short[t.month - 1]
            return _pad(t.month, n)
        if c == "d":
            return _pad(t.day, n)
        if c == "a":
            return sym.halfdays[t.hour // 12]
        if c == "K":
            return _pad(t.hour % 12, n)
        if c == "h":
            return _pad(t.hour % 12 or 12, n)
        if c == "H":
            return _pad(t.hour, n)
        if c == "k":
            return _pad(t.hour or 24, n)
        if c == "m":
            return _pad(t.minute, n)
        if c == "s":
            return _pad(t.second, n)
        if c == "S":
            return _fraction(t.microsecond // 1000, n)
        # c == "Z" ("z" is rejected in __init__)
        if n >= 3:
            return self.zone.id
        return _offset_text(offset, colon=n == 2)


def _offset_text(offset_ms: int, *, colon: bool) -> str:
    """Joda's ``TimeZoneOffset`` printer as ``forPattern`` builds it (no zero text, 2 fields)."""
    sign = "-" if offset_ms < 0 else "+"
    ms = abs(offset_ms)
    hours, ms = divmod(ms, _MS_HOUR)
    minutes = ms // _MS_MINUTE
    return f"{sign}{hours:02d}{':' if colon else ''}{minutes:02d}"


def format_instant(instant_ms: int, pattern: str, zone: str = "UTC", locale: str = "en") -> str:
    """Format an epoch-millisecond instant with a Joda pattern in a zone (convenience wrapper)."""
    return JodaFormatter(pattern, zone, locale).format(instant_ms)


# --------------------------------------------------------------------------------------------
# ISO-8601 parsing (ISODateTimeFormat.dateTimeParser)

_DIGITS = re.compile(r"[0-9]+")
_YEARS = (-292_275_055, 292_278_994)  # what Joda's year field takes while parsing
_WEEKYEARS = 292_278_993  # its weekyear field checks the absolute value
_LONGS = (-(2**63), 2**63 - 1)


class _Cursor:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def peek(self, n: int = 1) -> str:
        return self.text[self.pos : self.pos + n]

    def digit_at(self, k: int = 0) -> bool:
        """Whether the character ``k`` places ahead is an ASCII digit (Joda reads no others)."""
        return "0" <= self.text[self.pos + k : self.pos + k + 1] <= "9"

    def digits(self, most: int) -> int:
        """How many ASCII digits (at most ``most``) follow."""
        n = 0
        while n < most and self.digit_at(n):
            n += 1
        return n

    def literal(self, s: str) -> bool:
        if self.peek(len(s)).upper() == s.upper():
            self.pos += len(s)
            return True
        return False

    def separated(self, sep: str) -> bool:
        """Step over ``sep`` if a digit follows it."""
        if self.peek() == sep and self.digit_at(1):
            self.pos += 1
            return True
        return False

    def number(self, max_digits: int, signed: bool = False) -> int | None:
        start = self.pos
        sign = 1
        if signed and self.peek() in ("+", "-") and self.digit_at(1):
            sign = -1 if self.peek() == "-" else 1
            self.pos += 1
        m = _DIGITS.match(self.text, self.pos, self.pos + max_digits)
        if m is None:
            self.pos = start
            return None
        self.pos = m.end()
        return sign * int(m.group())


def _parse_fraction(cur: _Cursor, unit_ms: int) -> int | None:
    """Joda's ``Fraction.parseInto`` (up to 9 digits, truncated to milliseconds)."""
    if cur.peek() not in (".", ",") or not cur.digit_at(1):
        return None
    cur.pos += 1
    value, n, length = 0, unit_ms * 10, 0
    while length < 9 and cur.digit_at():
        n //= 10
        value += int(cur.peek()) * n
        cur.pos += 1
        length += 1
    return value // 10


def _parse_offset(cur: _Cursor, zero_text: str | None = "Z") -> int | None:
    """Joda's ``TimeZoneOffset.parseInto``: ``zero_text`` (any case), or a sign, two-digit hours
    and then ``:mm[:ss[.SSS]]`` or ``mm[ss[SSS]]`` (a separator decides); None, the cursor not
    moved, when it does not parse."""
    if zero_text is not None and cur.literal(zero_text):
        return 0
    start = cur.pos
    sign = cur.peek()
    if sign not in ("+", "-"):
        return None
    cur.pos += 1
    total = _two_digits(cur, 23)
    if total is None:
        cur.pos = start
        return None
    total *= _MS_HOUR
    separators = cur.peek() == ":"
    if separators or cur.digit_at():
        if separators:
            cur.pos += 1
        for unit, prefix in ((_MS_MINUTE, ""), (1000, ":"), (1, ".,")):
            if unit != _MS_MINUTE and separators:
                if not cur.peek() or cur.peek() not in prefix:
                    break
                cur.pos += 1
            if not separators and not cur.digit_at():
                break
            value = _two_digits(cur, 59) if unit != 1 else _millis(cur)
            if value is None:
                cur.pos = start
                return None
            total += value * unit
    return -total if sign == "-" else total


def _two_digits(cur: _Cursor, most: int) -> int | None:
    """Two digits of at most ``most``, or None."""
    if cur.digits(2) < 2 or int(cur.peek(2)) > most:
        return None
    cur.pos += 2
    return int(cur.text[cur.pos - 2 : cur.pos])


def _millis(cur: _Cursor) -> int | None:
    """One to three digits of a second's fraction, in milliseconds."""
    n = cur.digits(3)
    if n == 0:
        return None
    cur.pos += n
    return int(cur.text[cur.pos - n : cur.pos].ljust(3, "0"))


def _parse_time(cur: _Cursor) -> int | None:
    """time-element ``HH[:mm[:ss[.f]] | :mm.f | .f]``, in milliseconds of the day."""
    hour = cur.number(2)
    if hour is None:
        return None
    _check("hourOfDay", hour, 0, 23)
    ms = hour * _MS_HOUR
    if cur.separated(":"):
        minute = cur.number(2) or 0
        _check("minuteOfHour", minute, 0, 59)
        ms += minute * _MS_MINUTE
        if cur.separated(":"):
            second = cur.number(2) or 0
            _check("secondOfMinute", second, 0, 59)
            ms += second * 1000 + (_parse_fraction(cur, 1000) or 0)
        else:
            ms += _parse_fraction(cur, _MS_MINUTE) or 0
    else:
        ms += _parse_fraction(cur, _MS_HOUR) or 0
    return ms


class _FormatError(ValueError):
    """Joda's ``Invalid format`` IllegalArgumentException of a parser."""


def _format_error(text: str, pos: int) -> _FormatError:
    """Joda's ``FormatUtils.createErrorMessage`` for a parse that failed at ``pos``."""
    sample = text if len(text) <= pos + 35 else text[: pos + 32] + "..."
    if pos <= 0:
        return _FormatError(f'Invalid format: "{sample}"')
    if pos >= len(text):
        return _FormatError(f'Invalid format: "{sample}" is too short')
    return _FormatError(f'Invalid format: "{sample}" is malformed at "{sample[pos:]}"')


def _check(field: str, value: int, low: int, high: int) -> None:
    """Joda's ``verifyValueBounds``."""
    if not low <= value <= high:
        raise ValueError(f"Value {value} for {field} must be in the range [{low},{high}]")


def _parse_date(cur: _Cursor) -> tuple[str, tuple[int, ...]]:
    """date-element: a calendar, ordinal or week date, the longest that parses (the first of
    equals, as Joda's ``MatchingParser``), as its kind and numbers."""
    start = cur.pos
    year = cur.number(9, signed=True)
    if year is None:
        raise _format_error(cur.text, start)
    after_year = cur.pos
    candidates: list[tuple[int, str, tuple[int, ...]]] = []
    fields: tuple[int, ...] = (year,)  # yyyy ['-' MM ['-' dd]]
    if cur.separated("-"):
        fields = (year, cur.number(2) or 0)
        if cur.separated("-"):
            fields = (*fields, cur.number(2) or 0)
    candidates.append((cur.pos, "cal", fields))
    cur.pos = after_year  # yyyy '-' DDD
    if cur.separated("-"):
        day_of_year = cur.number(3) or 0
        candidates.append((cur.pos, "ord", (year, day_of_year)))
    cur.pos = after_year  # xxxx '-W' ww ['-' e]
    if cur.literal("-W") and (week := cur.number(2)) is not None:
        fields = (year, week)
        if cur.separated("-"):
            fields = (year, week, cur.number(1) or 0)
        candidates.append((cur.pos, "week", fields))
    end, kind, fields = max(candidates, key=lambda c: c[0])
    cur.pos = end
    return kind, fields


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a proleptic Gregorian date of any year (ISOChronology)."""
    year -= month <= 2
    era, year_of_era = divmod(year, 400)
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    days = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146_097 + days - 719_468


def _week_one(weekyear: int) -> int:
    """The day (from the epoch) of the Monday that starts ISO week 1 of ``weekyear``."""
    jan4 = _days_from_civil(weekyear, 1, 4)
    return jan4 - (jan4 + 3) % 7


def _date_days(kind: str, fields: tuple[int, ...]) -> int:
    """Days from the epoch of a parsed date, its fields checked as Joda sets them."""
    year = fields[0]
    if kind == "week":
        _check("weekyear", abs(year), _YEARS[0] + 1, _YEARS[1] - 1)
        if year <= _YEARS[0]:  # Joda takes it, but its week arithmetic overflows there
            raise ValueError(f"weekyear {year} is outside the epoch milliseconds Joda can hold")
        week, dow = (*fields[1:], 1)[:2]
        _check("weekOfWeekyear", week, 1, (_week_one(year + 1) - _week_one(year)) // 7)
        _check("dayOfWeek", dow, 1, 7)
        return _week_one(year) + (week - 1) * 7 + dow - 1
    _check("year", year, *_YEARS)
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if kind == "ord":
        _check("dayOfYear", fields[1], 1, 365 + leap)
        return _days_from_civil(year, 1, 1) + fields[1] - 1
    month, day = (*fields[1:], 1, 1)[:2]
    _check("monthOfYear", month, 1, 12)
    _check("dayOfMonth", day, 1, 28 + leap if month == 2 else 30 + (month + month // 8) % 2)
    return _days_from_civil(year, month, day)


def parse_iso_datetime(text: str) -> int:
    """Parse like Joda ``ISODateTimeFormat.dateTimeParser().parseMillis`` with a UTC default zone.

    Accepts ``[date]['T'[time][offset]]`` or ``'T' time [offset]``: calendar (``2024-03-10``),
    ordinal (``2024-070``) and week (``2024-W10-7``) dates of any year Joda holds (signed, up to
    9 digits), fields of one or two digits, decimal fractions of the last time unit (``.`` or
    ``,``, up to 9 digits), offsets ``Z`` or ``±hh[:mm[:ss[.SSS]]]``. A value without an offset
    is read as UTC (the JVM default zone on Confluent's images).

    Returns:
        Epoch milliseconds.

    Raises:
        ValueError: the text is not a Joda ISO date-time, names an impossible date, or (where
            Joda's arithmetic overflows a long) an instant beyond Joda's years.
    """
    cur = _Cursor(text)
    day_ms, time_ms, offset = 0, 0, 0
    try:
        if cur.literal("T"):
            parsed = _parse_time(cur)
            if parsed is None:
                raise _format_error(text, 1)
            time_ms, offset = parsed, _parse_offset(cur) or 0
        else:
            day_ms = _date_days(*_parse_date(cur)) * 86_400_000
            if cur.literal("T"):
                time_ms, offset = _parse_time(cur) or 0, _parse_offset(cur) or 0
        if cur.pos != len(text):
            raise _format_error(text, cur.pos)
    except _FormatError:
        raise
    except ValueError as e:  # a field out of range: Joda's IllegalFieldValueException
        raise ValueError(f'Cannot parse "{text}": {e}') from e
    millis = day_ms + time_ms - offset
    if not _LONGS[0] <= millis <= _LONGS[1]:
        raise ValueError(f'Cannot parse "{text}": outside the epoch milliseconds Joda can hold')
    return millis
