"""Random Joda-Time inputs for the Joda reference test: patterns of every letter and count, quoted
text and separators; instants over years 1-9999, near the epoch, at DST transitions and at bucket
edges; fixed, region and alias zones; locales; partition durations; ISO-8601 strings of every
form ``ISODateTimeFormat.dateTimeParser`` knows and near misses."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

__all__ = [
    "DURATIONS",
    "LOCALES",
    "OFFSET_IDS",
    "ZONES",
    "format_cases",
    "iso_texts",
    "partition_cases",
    "transition_cases",
]

# Letter -> the counts drawn (beyond 4 the output is the same as 4 for text, padding otherwise).
_LETTERS = {"G": 4, "C": 4, "Y": 6, "x": 6, "w": 3, "e": 3, "E": 5, "y": 6, "D": 4, "M": 5, "d": 3,
            "a": 2, "K": 3, "h": 3, "H": 3, "k": 3, "m": 3, "s": 3, "S": 19, "Z": 4}  # fmt: skip
_SEPARATORS = ["/", "-", ":", " ", "_", ".", "=", ",", "", "", "", "é", "日", "\u00a0", "+", "#"]
_QUOTED = ["'year'=", "'T'", "'it''s'", "''", "'", "'a b'", "'Z'", "'''x'''", "'é'", "'h'"]
_COMMON = ["'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH", "yyyy-MM-dd'T'HH:mm:ss.SSSZZ",
           "YYYY/MM/dd/HH/", "'dt'=YYYY-MM-dd/", "xxxx-'W'ww-e", "/", "", " "]  # fmt: skip
_INVALID = ["q", "T", "b", "B", "A", "u", "W", "Q", "n", "zz", "z", "zzzz", "c", "F", "L"]

# Not Asia/Tehran: its 1977-1979 offsets differ between Joda's tz 2025a and later releases.
ZONES = ["UTC", "+05:30", "-08:00", "+00:00", "-00:00", "+14:00", "-12:00", "+05:45", "+0530",
         "+05", "-03:30:15", "+01:02:03.004", "+23:59", "+24:00", "05:00", "America/New_York",
         "Asia/Kolkata", "Europe/Berlin", "Australia/Lord_Howe", "America/Sao_Paulo",
         "Europe/London", "Asia/Kathmandu", "Pacific/Chatham", "America/St_Johns",
         "Africa/Casablanca", "Europe/Dublin", "Pacific/Apia", "America/Santiago",
         "Antarctica/Troll", "Europe/Moscow", "America/Los_Angeles", "Pacific/Kiritimati",
         "Etc/UTC", "Etc/GMT", "Etc/GMT+5", "Etc/GMT-14", "GMT", "UCT", "Zulu", "US/Eastern",
         "Asia/Calcutta", "EST", "EST5EDT", "CET", "MET", "America/Argentina/Buenos_Aires",
         "America/Buenos_Aires", "Europe/Kiev", "Mars/Olympus", "utc", "Z", "UTC+1", "GMT+1",
         "posixrules", "Factory", "localtime"]  # fmt: skip
_DST_ZONES = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "America/Sao_Paulo",
              "Europe/London", "Pacific/Chatham", "America/St_Johns", "Africa/Casablanca",
              "Europe/Dublin", "Pacific/Apia", "America/Santiago", "Antarctica/Troll",
              "Europe/Moscow", "America/Los_Angeles", "Asia/Kolkata"]  # fmt: skip
# Offsets as zone IDs: forms DateTimeZone.parseOffset takes and near misses.
OFFSET_IDS = ["Z", "z", "UT", "+0", "+5", "+05:30:00", "+05:30:00.000", "-0", "+00", " UTC", "UTC ",
              "+00:00:00.001", "-00:00:00.001", "+1", "-23:59:59.999", "+23:59:59.999", "+24",
              "+05:3", "+05:30:", "+0530:00", "+05:3000", "+053000", "+053000000", "+05:30:00.5",
              "+05:30:00.12", "+05:30:00.1234", "+05:30:00,5", "-05", "--05", "+-05", "+5:30",
              "+0530001", "+05300012", "+05:30:00.", "+05:60", "+05:30:60", "+\u0660\u0665:30",
              "posix/Europe/Berlin", "right/UTC", "Europe/../Europe/Berlin", "US/Pacific-New",
              "America/New_york", "SystemV/EST5", "Etc/Unknown", "", "/", "GMT+01:00", "GMT+1",
              "GMT-05:30", "UTC+01:00", "UT+01:00", "GMT+0", "GMT+00:00", "Z+01:00", "GMT+0100",
              "UTC-0530", "gmt+01:00", "Etc/GMT+01:00", "UTC0", "GMT-00", "UTC+24:00",
              "UTCX+1"]  # fmt: skip
LOCALES = ["en", "de", "fr", "es", "it", "nl", "pt", "en_US", "de_DE", "fr-FR", "pt_BR", "EN",
           "De", "english", "xx", "ja", "ru", "pl", "und", "root"]  # fmt: skip
DURATIONS = [3_600_000, 86_400_000, 900_000, 604_800_000, 1, 7, 1000, 60_000, 1_800_000,
             5_400_000, 172_800_000, 2_592_000_000, 31_536_000_000, 3_599_999, 86_400_001,
             123_456_789, 0, -3_600_000]  # fmt: skip

_FIRST_MS = -62_135_596_800_000  # 0001-01-01T00:00Z
_LAST_MS = 253_402_300_799_999  # 9999-12-31T23:59:59.999Z


def _token(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.62:
        letter = rng.choice(list(_LETTERS))
        return letter * rng.randint(1, _LETTERS[letter])
    if roll < 0.85:
        return rng.choice(_SEPARATORS)
    if roll < 0.98:
        return rng.choice(_QUOTED)
    return rng.choice(_INVALID)


def pattern(rng: random.Random) -> str:
    """A random Joda pattern (about one in 25 with a letter Joda refuses, or ``z``)."""
    if rng.random() < 0.1:
        return rng.choice(_COMMON)
    return "".join(_token(rng) for _ in range(rng.randint(1, 8)))


def _transition(rng: random.Random, zone: str) -> int:
    """An instant within hours of one of ``zone``'s offset transitions in a random year."""
    tz = ZoneInfo(zone)
    year = rng.choice([rng.randint(1850, 2100), rng.randint(1970, 2040), rng.randint(2000, 2030)])
    t = datetime(year, 1, 1, tzinfo=UTC)
    before = t.astimezone(tz).utcoffset()
    changes = []
    for day in range(0, 366, 3):
        u = t + timedelta(days=day)
        if u.astimezone(tz).utcoffset() != before:
            changes.append(u)
            before = u.astimezone(tz).utcoffset()
    if not changes:
        return int(t.timestamp() * 1000) + rng.randint(0, 365 * 86_400_000)
    hi = rng.choice(changes)
    lo, want = hi - timedelta(days=3), hi.astimezone(tz).utcoffset()
    while hi - lo > timedelta(milliseconds=1):  # the first instant with the new offset
        mid = lo + (hi - lo) / 2
        mid = mid.replace(microsecond=mid.microsecond // 1000 * 1000)
        if mid.astimezone(tz).utcoffset() == want:
            hi = mid
        else:
            lo = mid
    edge = int((hi - datetime(1970, 1, 1, tzinfo=UTC)) / timedelta(milliseconds=1))
    return edge + rng.choice([0, -1, 1, rng.randint(-3 * 3_600_000, 3 * 3_600_000)])


def instant(rng: random.Random, zone: str) -> int:
    """Epoch millis: anywhere in years 1-9999 and just past them, near the epoch, near a DST
    transition of ``zone`` (or of a zone with some), or at an hour edge."""
    roll = rng.random()
    if roll < 0.25:
        return rng.randint(_FIRST_MS, _LAST_MS)
    if roll < 0.3:
        return rng.choice([_FIRST_MS, _LAST_MS]) + rng.randint(-2 * 86_400_000, 2 * 86_400_000)
    if roll < 0.45:
        return rng.randint(-3 * 86_400_000, 3 * 86_400_000) * rng.choice([1, 1, 1000, 100_000])
    if roll < 0.75:
        return _transition(rng, zone if zone in _DST_ZONES else rng.choice(_DST_ZONES))
    hour = rng.randint(-1_000_000, 1_000_000) * 3_600_000
    return hour + rng.choice([0, 0, -1, 1, 1_800_000, -1_800_000, rng.randint(0, 3_599_999)])


def _zone(rng: random.Random) -> str:
    return rng.choice(ZONES) if rng.random() < 0.5 else rng.choice(_DST_ZONES)


def format_cases(seed: int, count: int) -> list[tuple[str, str, str, str, int]]:
    """``("F", pattern, zone, locale, millis)`` cases for ``JodaReference``."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        zone = _zone(rng)
        out.append(("F", pattern(rng), zone, rng.choice(LOCALES), instant(rng, zone)))
    return out


def partition_cases(seed: int, count: int) -> list[tuple[str, str, int, str, str, int]]:
    """``("P", path_format, duration_ms, zone, locale, millis)`` cases for ``JodaReference``."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        zone = _zone(rng)
        path = pattern(rng) if rng.random() < 0.6 else "'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH"
        duration = rng.choice(DURATIONS) if rng.random() < 0.9 else rng.randint(1, 10**10)
        out.append(("P", path, duration, zone, rng.choice(LOCALES[:8]), instant(rng, zone)))
    return out


_FRACTIONS = ["", "", "", ".5", ",25", ".123", ".1234", ".123456789", ".0", ".1234567891", ".", ","]
_OFFSETS = ["", "", "Z", "z", "+05:30", "-08:00", "+0530", "+05", "-00:00", "+23:59", "+05:30:15",
            "+05:30:15.5", "+053015", "+053015123", "+05:30:15,123", "-03:30"]  # fmt: skip
_BAD_OFFSETS = ["+24:00", "+05:60", "+05:30:15.", "+05:3", "+5", "-", "+05:30:1", "+05:30:15.1234",
                "+0530:15", "+05:30:", "+\u0660\u0665:30"]  # fmt: skip
_ODD = ["", " ", "T", "t10", "2024", "20240310", "2024-03-10 10:00", "2024-03-10T10:00:00Z ",
        "2024-W10-7T10", "2024-070T10:00Z", "2024-3-1T1:2:3", "0000-01-01", "-0001-12-31",
        "10000-01-01", "+2024-01-01", "-2024-01-01", "2024-02-29", "2023-02-29", "1900-02-29",
        "2000-02-29", "2024-00-10", "2024-13-01", "2024-366", "2023-366", "2024-000", "2020-W53",
        "2021-W53", "2024-W00", "2024-W10-0", "2024-W10-8", "2024-w10", "2024-03-10TZ",
        "2024-03-10T+05:00", "T10:15:30.5-08:00", "T24:00", "2024-03-10T23:59:60",
        "2024-03-10T10:60", "1234567890123", "-1234567890123", "9223372036854775808",
        "00000000000000000001", "2024-\u0660\u0663-10", "2024-03-10T\u0661\u0660",
        "2024-03-10T10:15:30.5+05:30:15.",
        "292278993-12-31", "292278994-01-01", "-292275054-01-01", "999999999-01-01",
        "292278994-12-31", "-292275055-01-01", "-292275055-12-31", "292278994-W01", "0000-W01",
        "-0001-W52-7", "-292275055-W52", "292278993-12-31T23:59:59.999-00:01",
        "2024-03", "2024-03-", "2024-W1", "2024-W1-1", "2024-7", "2024-07-4",
        "2024-06-31"]  # fmt: skip


def _iso_date(rng: random.Random) -> str:
    year = rng.choice([rng.randint(1, 9999), rng.randint(1960, 2040), rng.randint(-3000, 12000)])
    sign = "-" if year < 0 else rng.choice(["", "", "", "+"])
    y = f"{sign}{abs(year):0{rng.choice([4, 4, 4, 1, 5])}d}"
    kind = rng.randrange(6)
    if kind < 3:
        month = rng.randint(1, 12) if rng.random() < 0.97 else rng.randint(0, 13)
        day = rng.randint(1, 28) if rng.random() < 0.85 else rng.randint(0, 32)
        m, d = f"{month:0{rng.choice([2, 2, 1])}d}", f"{day:0{rng.choice([2, 2, 1])}d}"
        return [f"{y}-{m}-{d}", f"{y}-{m}", y][min(kind, rng.randrange(3))]
    if kind < 5:
        week = rng.randint(1, 52) if rng.random() < 0.9 else rng.randint(0, 54)
        w = f"{week:0{rng.choice([2, 2, 1])}d}"
        dow = rng.randint(1, 7) if rng.random() < 0.9 else rng.choice([0, 8])
        return f"{y}-W{w}-{dow}" if rng.random() < 0.7 else f"{y}-W{w}"
    doy = rng.randint(1, 365) if rng.random() < 0.9 else rng.choice([0, 366, 367])
    return f"{y}-{doy:03d}"


def _iso_time(rng: random.Random) -> str:
    hour = rng.randint(0, 23) if rng.random() < 0.97 else 24
    minute, second = rng.randint(0, 59), rng.randint(0, 59) if rng.random() < 0.97 else 60
    h, m, s = f"{hour:02d}", f"{minute:02d}", f"{second:02d}"
    if rng.random() < 0.1:
        h, m, s = str(hour), str(minute), str(second)
    fraction = rng.choice(_FRACTIONS[:-3] if rng.random() < 0.9 else _FRACTIONS)
    return rng.choice([h, f"{h}:{m}", f"{h}:{m}:{s}"]) + fraction


def _offset(rng: random.Random) -> str:
    return rng.choice(_OFFSETS if rng.random() < 0.9 else _BAD_OFFSETS)


def iso_texts(seed: int, count: int) -> list[str]:
    """Strings for the RecordField extractor: mostly ISO forms Joda reads, some near misses."""
    rng = random.Random(seed)
    out = list(_ODD)
    while len(out) < count:
        roll = rng.random()
        if roll < 0.15:
            out.append(f"T{_iso_time(rng)}{_offset(rng)}")
        elif roll < 0.3:
            out.append(_iso_date(rng))
        else:
            time = _iso_time(rng) if rng.random() < 0.9 else ""
            t = rng.choice(["T", "T", "T", "t"])
            out.append(f"{_iso_date(rng)}{t}{time}{_offset(rng)}")
    return out


def transition_cases(seed: int, count: int) -> list[tuple[str, str, int, str, str, int]]:
    """``P`` cases of hourly, daily and shorter buckets at DST transitions, where the bucket's
    local start can fall in a gap or an overlap (``convertLocalToUTC``'s edge cases)."""
    rng = random.Random(seed)
    path = "yyyy-MM-dd'T'HH:mm:ss.SSSZZ/ZZZ"
    out = []
    for _ in range(count):
        zone = rng.choice(_DST_ZONES)
        duration = rng.choice([3_600_000, 86_400_000, 900_000, 1_800_000, 7_200_000, 10_800_000])
        out.append(("P", path, duration, zone, "en", _transition(rng, zone)))
    return out
