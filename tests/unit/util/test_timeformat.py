"""Joda formatting, zone arithmetic and ISO parsing; expected values were printed by Joda-Time
2.13.1 (``tests/reference/test_joda.py`` compares many more with Joda itself)."""

from __future__ import annotations

import pytest

from s3connect.util.timeformat import (
    JodaFormatter,
    JodaZone,
    format_instant,
    parse_iso_datetime,
    validate_pattern,
)

T = 1710053400000  # 2024-03-10T06:50:00Z, a Sunday, ISO week 10


@pytest.mark.parametrize(
    ("pattern", "zone", "expected"),
    [
        ("'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH", "UTC", "year=2024/month=03/day=10/hour=06"),
        (
            "'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH",
            "America/New_York",
            "year=2024/month=03/day=10/hour=01",
        ),
        ("yyyy-MM-dd'T'HH:mm:ss.SSSZZ", "UTC", "2024-03-10T06:50:00.000+00:00"),
        ("yyyy-MM-dd'T'HH:mm:ssZ", "Asia/Kolkata", "2024-03-10T12:20:00+0530"),
        ("YY yy Y YYYYY C G", "UTC", "24 24 2024 02024 20 AD"),
        ("xxxx-'W'ww-e D DDD", "UTC", "2024-W10-7 70 070"),
        ("MMM MMMM M EEE EEEE", "UTC", "Mar March 3 Sun Sunday"),
        ("a K h H k hh kk", "America/New_York", "AM 1 1 1 1 01 01"),
        ("ZZZ Z", "America/New_York", "America/New_York -0500"),
        ("''yyyy''/'it''s' dd", "UTC", "'2024'/it's 10"),
        ("HH:mm", "+05:30", "12:20"),
    ],
)
def test_format_matches_joda(pattern: str, zone: str, expected: str) -> None:
    assert format_instant(T, pattern, zone) == expected


def test_fraction_of_second_truncates_and_pads_like_joda() -> None:
    t = T + 123
    assert format_instant(t, "S SS SSS SSSS", "UTC") == "1 12 123 1230"
    assert format_instant(t, "S" * 17, "UTC") == "123000000000000"  # Joda caps at 15 digits
    assert format_instant(T, "SSSSS", "UTC") == "00000"
    assert format_instant(T + 11, "S" * 19, "UTC") == "011000000000000"  # 18-digit cap, then 15
    assert format_instant(T, "S" * 19, "UTC") == "0" * 19  # a whole second: count zeros


def test_a_pattern_that_prints_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="Both printing and parsing not supported"):
        validate_pattern("'")
    assert format_instant(T, "HH'", "UTC") == "06"


def test_instants_past_year_9999_are_refused_not_crashed() -> None:
    last = 253402300799999  # 9999-12-31T23:59:59.999Z: 10000-01-01 in Kolkata
    with pytest.raises(ValueError, match="outside years 1-9999"):
        format_instant(last, "yyyy", "Asia/Kolkata")
    assert format_instant(last, "yyyy", "UTC") == "9999"


def test_midnight_clock_hours() -> None:
    midnight = 1710028800000  # 2024-03-10T00:00Z
    assert format_instant(midnight, "H k K h a", "UTC") == "0 24 0 12 AM"


def test_locales_follow_java() -> None:
    assert format_instant(T, "MMM MMMM EEE G", "UTC", "de") == "März März So. n. Chr."
    assert format_instant(T, "MMM MMMM EEE G", "UTC", "fr") == "mars mars dim. ap. J.-C."
    # new Locale("en_US") is an unknown language in Java: root names.
    assert format_instant(T, "MMM MMMM EEEE G", "UTC", "en_US") == "Mar Mar Sun CE"
    assert format_instant(T + 43_200_000, "a", "UTC", "es") == "p.\u00a0m."
    with pytest.raises(ValueError, match="locale 'ja'"):
        JodaFormatter("MMM", "UTC", "ja")
    assert JodaFormatter("yyyy", "UTC", "ja").format(T) == "2024"  # numbers need no names


def test_validate_pattern_names_bad_letter() -> None:
    validate_pattern("'year'=YYYY/'month'=MM")
    validate_pattern("'unterminated")
    with pytest.raises(ValueError, match="Illegal pattern component: q"):
        validate_pattern("yyyy-q")
    with pytest.raises(ValueError, match="Illegal pattern component: T"):
        validate_pattern("yyyy-MM-ddTHH")
    with pytest.raises(ValueError, match="Invalid pattern"):
        validate_pattern("")


def test_zone_names_are_rejected_by_formatter() -> None:
    validate_pattern("z")
    with pytest.raises(ValueError, match="pattern letter z"):
        JodaFormatter("HH z", "UTC")


def test_zone_ids() -> None:
    assert JodaZone.for_id("UTC").offset_ms(T) == 0
    assert JodaZone.for_id("+05:30").id == "+05:30"
    assert JodaZone.for_id("-0800").offset_ms(T) == -28_800_000
    assert JodaZone.for_id("+00:00").id == "UTC"
    for bad in ("Mars/Olympus", "Factory", "localtime", "posixrules", "utc", "+5", "+05:3"):
        with pytest.raises(ValueError, match="not recognised"):
            JodaZone.for_id(bad)


@pytest.mark.parametrize(
    ("zone_id", "joda_id"),
    [
        ("Asia/Calcutta", "Asia/Kolkata"),  # aliases print as Joda's canonical ID
        ("US/Eastern", "America/New_York"),
        ("EST", "America/Panama"),
        ("GMT", "Etc/GMT"),
        ("MET", "CET"),
        ("Z", "UTC"),
        ("UT", "UTC"),
        ("GMT+01:00", "+01:00"),  # the provider's GMT/UTC/UT prefixes
        ("UTC-0530", "-05:30"),
        ("GMT-00", "UTC"),
        ("+01:02:03.004", "+01:02:03.004"),
        ("+053000", "+05:30"),
        ("+05:30:00,5", "+05:30:00.500"),
    ],
)
def test_zone_ids_as_joda_prints_them(zone_id: str, joda_id: str) -> None:
    assert JodaZone.for_id(zone_id).id == joda_id
    assert format_instant(T, "ZZZ", zone_id) == joda_id


def test_joda_zones_with_another_zones_offsets() -> None:
    # Joda's CET has Europe/Brussels's history (tz 2024b): GMT in 1900, not +01:00.
    assert JodaZone.for_id("CET").offset_ms(-2208988800000) == 0
    assert JodaZone.for_id("EST").offset_ms(-2524521600000) == -19_088_000  # Panama, -05:18:08


def test_convert_local_to_utc_in_gap_and_overlap() -> None:
    ny = JodaZone.for_id("America/New_York")
    # 2024-03-10 02:00 local does not exist: west of Greenwich Joda keeps the pre-gap offset.
    gap_local = 1710036000000  # 2024-03-10T02:00 as local millis
    assert ny.convert_local_to_utc(gap_local) == 1710054000000  # 07:00Z = 03:00 EDT
    with pytest.raises(ValueError, match="Illegal instant"):
        ny.convert_local_to_utc(gap_local, strict=True)
    # 2024-11-03 01:00 local happens twice: Joda picks the first (EDT) instant.
    assert ny.convert_local_to_utc(1730595600000) == 1730610000000  # 05:00Z
    assert ny.convert_utc_to_local(1730615400000) == 1730597400000  # 06:30Z -> 01:30 EST


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-03-10", 1710028800000),
        ("2024-03-10T02:30", 1710037800000),
        ("2024-03-10T02:30:00.123+01:00", 1710034200123),
        ("2024-03-10t02:30z", 1710037800000),
        ("2024-070", 1710028800000),
        ("2024-W10-7", 1710028800000),
        ("2024-W10", 1709510400000),
        ("2024-3-1", 1709251200000),
        ("T10:15Z", 36900000),
        ("2024-03-10T", 1710028800000),
        ("2024-03-10T10.5", 1710066600000),
        ("2024-03-10T10:15:30,5", 1710065730500),
        ("2024-03-10T10:15:30.123456789Z", 1710065730123),
        ("2024-01-01T10:00+0530", 1704083400000),
        ("2024-01-01T10:00-05:30:15.5", 1704123015500),
        ("1969-12-31T23:59:59.999Z", -1),
        ("+2024-01-01", 1704067200000),
        ("0000-01-01", -62167219200000),  # any year Joda holds
        ("-0001-12-31", -62167305600000),
        ("10000-01-01", 253402300800000),
        ("-0001-W52-7", -62167132800000),
        ("292278993-12-31T23:59:59.999", 9223372017129599999),
        ("2024-03-10T10:00+05:30:00.5", 1710045000000 - 500),
    ],
)
def test_parse_iso_datetime_matches_joda(text: str, expected: int) -> None:
    assert parse_iso_datetime(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "2024-02-30",
        "2024-13-01",
        "2023-366",
        "2021-W53",
        "2024-01-01T24:00",
        "2024-01-01 10:00",
        "2024-01-01T10:00:00.1234567891Z",
        "2024-01-01T10:00:00Z ",
        "2024-01-01T10:00+05:",
        "2024-01-01T10:00+05:30:15.",  # a fraction separator needs a digit
        "2024-\u0660\u0663-10",  # Joda reads ASCII digits only
        "2024-03-10T\u0661\u0660",
        "292278994-12-31",  # Joda's arithmetic overflows a long there
        "",
    ],
)
def test_parse_iso_datetime_rejects_what_joda_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_iso_datetime(text)
