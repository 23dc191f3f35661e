"""Joda-Time 2.13.1 (the version Confluent's storage-common pins) beside ours on random cases:
``DateTimeFormat`` patterns printed in a zone and locale, ``TimeBasedPartitioner``'s encoded
partition (bucketing and ``path.format``), ``DateTimeZone.forID`` (IDs and offsets of every zone),
and the RecordField extractor's string timestamps (``ISODateTimeFormat.dateTimeParser``). Where
Joda answers, ours gives the same text, or refuses the input for one of its documented limits with
an error saying so; where Joda fails, so do we.

Offsets come from this machine's tz database (Debian's tzdata, built with the pre-1970 history
Joda's global-tz keeps): where its release differs from Joda's 2025a, offsets can differ, and
``TZDB_RELEASES`` lists those zones (their IDs are still compared)."""

from __future__ import annotations

import collections
import re
import zoneinfo
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from s3connect.connect.records import SinkRecord
from s3connect.errors import PartitionError
from s3connect.sink.partitioners import (
    RecordFieldTimestampExtractor,
    TimeBasedPartitioner,
    WallclockTimestampExtractor,
)
from s3connect.util.timeformat import JodaFormatter, JodaZone
from tests.reference.java import joda_results
from tests.reference.random_joda import (
    OFFSET_IDS,
    ZONES,
    format_cases,
    iso_texts,
    partition_cases,
    transition_cases,
)

# What ours refuses and Joda prints: the module's documented limits (checked to apply to the case).
LIMITS = {
    "z": re.compile(r"time zone names \(pattern letter z\) are not supported"),
    "locale": re.compile(r"locale '[^']*' has no built-in month/day/era names"),
    "years": re.compile(r"outside years 1-9999"),
    "long": re.compile(r"outside the epoch milliseconds Joda can hold"),
}
NAMED_LOCALES = {"en", "de", "fr", "es", "it", "nl", "pt"}
FIRST_MS, LAST_MS, DAY_MS = -62_135_596_800_000, 253_402_300_799_999, 86_400_000
TZDB_RELEASES = {
    "Asia/Tehran": "tz 2025b corrected Iran's 1977-1979 offsets",
    "Iran": "an alias of Asia/Tehran",
}


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("joda")


def _format(case: Sequence[str | int]) -> tuple[bool, str]:
    _, pattern, zone, locale, millis = case
    try:
        return True, JodaFormatter(str(pattern), str(zone), str(locale)).format(int(millis))
    except ValueError as e:
        return False, str(e)


def _partition(case: Sequence[str | int]) -> tuple[bool, str]:
    _, path, duration, zone, locale, millis = case
    try:
        partitioner = TimeBasedPartitioner(
            str(path), int(duration), str(locale), str(zone), WallclockTimestampExtractor()
        )
        return True, partitioner.encode_timestamp(int(millis))
    except ValueError as e:  # ConfigError too
        return False, str(e)


def _zone(case: Sequence[str | int]) -> tuple[bool, str]:
    _, zone_id, millis = case
    try:
        zone = JodaZone.for_id(str(zone_id))
        return True, f"{zone.id} {zone.offset_ms(int(millis))}"
    except ValueError as e:
        return False, str(e)


def _extracted(case: Sequence[str | int]) -> tuple[bool, str]:
    record = SinkRecord("topic", 0, 0, None, None, {"ts": case[1]})
    try:
        return True, str(RecordFieldTimestampExtractor("ts").extract(record, 0))
    except PartitionError as e:
        return False, str(e)


def _limit_applies(limit: str, case: Sequence[str | int]) -> bool:
    """Whether a refusal for ``limit`` is about this case (elsewhere it would be a bug)."""
    if limit == "z":
        return "z" in str(case[1])
    if limit == "locale":
        language = str(case[-2]).lower()
        return re.fullmatch(r"[a-z]{2,3}", language) is not None and language not in NAMED_LOCALES
    if limit == "years":  # the zone moves local time a day at most; Java's division, toward 0
        return not FIRST_MS + 2 * DAY_MS < int(case[-1]) < LAST_MS - 2 * DAY_MS
    return limit == "long" and case[0] == "I"


def _compare(
    cases: Sequence[Sequence[str | int]],
    ours: Callable[[Sequence[str | int]], tuple[bool, str]],
    reference: Sequence[tuple[bool, str]],
) -> collections.Counter[str]:
    """Assert ours answers as Joda does on every case; count the outcomes."""
    counts = collections.Counter[str]()
    mismatched = []
    for case, (joda_ok, want) in zip(cases, reference, strict=True):
        try:
            ok, got = ours(case)
        except Exception as e:  # a crash is a difference too
            ok, got = False, f"crash: {e!r}"
        if ok and joda_ok and got == want:
            counts["same"] += 1
        elif not ok and not joda_ok and not got.startswith("crash: "):
            counts["both refuse"] += 1
        elif not ok and (limit := next((k for k, r in LIMITS.items() if r.search(got)), "")):
            if not _limit_applies(limit, case):
                mismatched.append(f"{case!r}\n  refused for a limit that is not this case's: {got}")
            counts[f"limit: {limit}"] += 1
        else:
            mismatched.append(f"{case!r}\n  joda: {joda_ok} {want!r}\n  ours: {ok} {got!r}")
    assert not mismatched, f"{len(mismatched)} of {len(cases)}:\n" + "\n".join(mismatched[:12])
    return counts


@pytest.mark.parametrize("seed", range(2))
def test_patterns_print_what_joda_prints(seed: int, build: Path) -> None:
    cases = format_cases(seed, 2500)
    counts = _compare(cases, _format, joda_results(cases, build))
    assert counts["same"] > 1700, counts


@pytest.mark.parametrize("seed", range(2))
def test_partitions_are_confluents(seed: int, build: Path) -> None:
    cases = partition_cases(100 + seed, 2000)
    counts = _compare(cases, _partition, joda_results(cases, build))
    assert counts["same"] > 1350, counts


def test_buckets_at_dst_transitions_start_where_confluents_do(build: Path) -> None:
    cases = transition_cases(200, 2000)
    counts = _compare(cases, _partition, joda_results(cases, build))
    assert counts["same"] > 1900, counts


def test_every_zone_has_jodas_id_and_offsets(build: Path) -> None:
    """Every tz database ID (and some that are not) through ``forID``: the same ID (an alias
    resolves to Joda's canonical one) and the same offset at instants from 1850 to 2100."""
    ids = sorted(zoneinfo.available_timezones() | set(ZONES) | set(OFFSET_IDS))
    instants = range(-3_786_825_600_000, 4_102_444_800_000, 86_400_000 * 1_461 + 3_600_000 * 7 + 1)
    cases = [("Z", i, t) for i in ids for t in instants]
    reference = joda_results(cases, build)
    offsets = dict(zip(cases, reference, strict=True))

    def ours(case: Sequence[str | int]) -> tuple[bool, str]:
        ok, got = _zone(case)
        joda_ok, joda = offsets[(str(case[0]), str(case[1]), int(case[2]))]
        if ok and joda_ok and case[1] in TZDB_RELEASES:  # the ID only
            return ok, got.split()[0] + " " + joda.split()[1]
        return ok, got

    counts = _compare(cases, ours, reference)
    assert counts["same"] > 30_000, counts


def test_string_timestamps_are_read_as_joda_reads_them(build: Path) -> None:
    cases = [("I", text) for text in iso_texts(7, 3000)]
    counts = _compare(cases, _extracted, joda_results(cases, build))
    assert counts["same"] > 2300, counts
