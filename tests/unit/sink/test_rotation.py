"""Record-by-record tests of the rotation state machine against Confluent's TopicPartitionWriter.

Scenarios named ``confluent_*`` replay tests of ``TopicPartitionWriterTest.java``
(kafka-connect-storage-cloud) with the file lists Confluent asserts there.
"""

from __future__ import annotations

import hashlib
import json
import random
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np
import pytest

from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.errors import ConfigError, RecordError, SchemaProjectionError
from s3connect.sink.rotation import (
    Commit,
    FileInfo,
    OpenFile,
    RotationPolicy,
    RotationReason,
    Rotator,
    RotatorState,
    SchemaCompatibility,
    next_time_adjusted_by_day,
)

LA = "America/Los_Angeles"
NY = "America/New_York"
KOLKATA = "Asia/Kolkata"
MIN = 60_000
HOUR = 3_600_000
DAY = 24 * HOUR

R = RotationReason


def at(local: str, zone: str = "UTC") -> int:
    """Epoch millis of a local wall-clock time in ``zone``."""
    dt = datetime.fromisoformat(local).replace(tzinfo=ZoneInfo(zone))
    return int(dt.timestamp()) * 1000 + dt.microsecond // 1000


def iso(epoch_ms: int, zone: str) -> str:
    return datetime.fromtimestamp(epoch_ms / 1000, ZoneInfo(zone)).isoformat(
        timespec="milliseconds"
    )


def fi(partition: str, start: int, end: int, count: int) -> FileInfo:
    return FileInfo(partition, start, end, count)


def commit(reason: RotationReason, before: bool, next_offset: int, *files: FileInfo) -> Commit:
    return Commit(tuple(files), reason, before, next_offset)


def hour_partition(ts: int, zone: str = LA) -> str:
    """An HourlyPartitioner-like encoded partition (the rotator treats it as opaque)."""
    return datetime.fromtimestamp(ts / 1000, ZoneInfo(zone)).strftime(
        "year=%Y/month=%m/day=%d/hour=%H"
    )


# --- flush.size -----------------------------------------------------------------------------


def test_confluent_default_partitioner_flush_size_3() -> None:
    rot = Rotator(RotationPolicy(flush_size=3))
    out = [rot.offer(o, "partition=12") for o in range(10)]
    assert out == [
        [],
        [],
        [commit(R.FLUSH_SIZE, False, 3, fi("partition=12", 0, 2, 3))],
        [],
        [],
        [commit(R.FLUSH_SIZE, False, 6, fi("partition=12", 3, 5, 3))],
        [],
        [],
        [commit(R.FLUSH_SIZE, False, 9, fi("partition=12", 6, 8, 3))],
        [],
    ]
    assert rot.open_files == (fi("partition=12", 9, 9, 1),)
    assert rot.record_count == 1


def test_confluent_field_partitioner_flush_size_counts_across_encoded_partitions() -> None:
    # testWriteRecordFieldPartitioner: flush.size=9, 18 records cycling int=16,17,18.
    # Expected files: int=16@0, int=17@1, int=18@2, int=16@9, int=17@10, int=18@11, 3 records each.
    rot = Rotator(RotationPolicy(flush_size=9))
    commits: list[Commit] = []
    for offset in range(18):
        result = rot.offer(offset, f"int={16 + offset % 3}")
        if offset in (8, 17):
            assert len(result) == 1
        else:
            assert result == []
        commits += result
    assert commits == [
        commit(
            R.FLUSH_SIZE,
            False,
            9,
            fi("int=16", 0, 6, 3),
            fi("int=17", 1, 7, 3),
            fi("int=18", 2, 8, 3),
        ),
        commit(
            R.FLUSH_SIZE,
            False,
            18,
            fi("int=16", 9, 15, 3),
            fi("int=17", 10, 16, 3),
            fi("int=18", 11, 17, 3),
        ),
    ]
    assert rot.open_files == ()


def test_flush_size_commit_includes_triggering_record_in_new_partition() -> None:
    rot = Rotator(RotationPolicy(flush_size=3))
    assert rot.offer(5, "a") == []
    assert rot.offer(6, "a") == []
    assert rot.offer(7, "b") == [commit(R.FLUSH_SIZE, False, 8, fi("a", 5, 6, 2), fi("b", 7, 7, 1))]


def test_flush_size_one_commits_every_record() -> None:
    rot = Rotator(RotationPolicy(flush_size=1, rotate_interval_ms=10))
    assert rot.offer(0, "a", timestamp=0) == [commit(R.FLUSH_SIZE, False, 1, fi("a", 0, 0, 1))]
    assert rot.offer(1, "b", timestamp=100) == [commit(R.FLUSH_SIZE, False, 2, fi("b", 1, 1, 1))]


# --- rotate.interval.ms ---------------------------------------------------------------------


def test_confluent_record_timestamp_hours_rotate_every_minute() -> None:
    # testWriteRecordTimeBasedPartitionRecordTimestampHours: one record every 20 s, interval 1 min,
    # 9 records from 10:00 and 9 from 12:00 (LA). Files 0,3,6 and 9,12; 15..17 stay open.
    policy = RotationPolicy(flush_size=1000, rotate_interval_ms=MIN)
    rot = Rotator(policy)
    first, later = at("2017-03-02T10:00:00", LA), at("2017-03-02T12:00:00", LA)
    stamps = [first + i * 20_000 for i in range(9)] + [later + i * 20_000 for i in range(9)]
    p10, p12 = hour_partition(first), hour_partition(later)
    assert p10 == "year=2017/month=03/day=02/hour=10"
    out = [rot.offer(o, hour_partition(ts), timestamp=ts) for o, ts in enumerate(stamps)]
    committed = {o: c for o, c in enumerate(out) if c}
    assert committed == {
        3: [commit(R.ROTATE_INTERVAL, True, 3, fi(p10, 0, 2, 3))],
        6: [commit(R.ROTATE_INTERVAL, True, 6, fi(p10, 3, 5, 3))],
        9: [commit(R.ROTATE_INTERVAL, True, 9, fi(p10, 6, 8, 3))],
        12: [commit(R.ROTATE_INTERVAL, True, 12, fi(p12, 9, 11, 3))],
        15: [commit(R.ROTATE_INTERVAL, True, 15, fi(p12, 12, 14, 3))],
    }
    assert rot.open_files == (fi(p12, 15, 17, 3),)
    # testWriteRecordTimeBasedPartitionFieldTimestampHours: a much later record flushes 15..17.
    much_later = at("2017-03-02T16:00:00", LA)
    assert rot.offer(19, hour_partition(much_later), timestamp=much_later) == [
        commit(R.ROTATE_INTERVAL, True, 18, fi(p12, 15, 17, 3))
    ]


def test_rotate_interval_is_inclusive_and_base_is_first_record_of_segment() -> None:
    rot = Rotator(RotationPolicy(flush_size=100, rotate_interval_ms=1000))
    assert rot.offer(0, "p", timestamp=5000) == []
    assert rot.offer(1, "p", timestamp=5999) == []  # 999 < 1000
    assert rot.offer(2, "p", timestamp=6000) == [  # 1000 >= 1000: rotates before the record
        commit(R.ROTATE_INTERVAL, True, 2, fi("p", 0, 1, 2))
    ]
    assert rot.state.base_record_timestamp == 6000  # the rotating record starts the new segment
    assert rot.offer(3, "p", timestamp=6999) == []
    assert rot.offer(4, "p", timestamp=7000) == [
        commit(R.ROTATE_INTERVAL, True, 4, fi("p", 2, 3, 2))
    ]


def test_out_of_order_timestamps_never_rotate_nor_move_the_base() -> None:
    rot = Rotator(RotationPolicy(flush_size=100, rotate_interval_ms=1000))
    assert rot.offer(0, "p", timestamp=10_000) == []
    assert rot.offer(1, "p", timestamp=2_000) == []  # far in the past: negative difference
    assert rot.offer(2, "p", timestamp=10_999) == []  # base stays 10_000, not 2_000
    assert rot.state.base_record_timestamp == 10_000
    assert rot.offer(3, "p", timestamp=11_000) == [
        commit(R.ROTATE_INTERVAL, True, 3, fi("p", 0, 2, 3))
    ]


def _out_of_order_records() -> list[tuple[int, int]]:
    hour = at("2017-03-02T10:00:00", LA)
    return [
        (0, hour),
        (1, hour - 2 * MIN),
        (2, hour + 9 * MIN),
        (3, hour - 5 * MIN),
        (4, hour + 10 * MIN),
    ]


def test_confluent_out_of_order_hours_without_partition_change_rotation() -> None:
    # testWriteRecordTimeBasedPartitionRecordTimestampHoursOutOfOrder (rotate on change = false):
    # files hour=10@0 and hour=09@1 with 2 records each; record 4 (exactly +10 min) rotates.
    rot = Rotator(
        RotationPolicy(
            flush_size=1000, rotate_interval_ms=10 * MIN, rotate_on_partition_change=False
        )
    )
    h10, h09 = "year=2017/month=03/day=02/hour=10", "year=2017/month=03/day=02/hour=09"
    out = [rot.offer(o, hour_partition(ts), timestamp=ts) for o, ts in _out_of_order_records()]
    assert out == [
        [],
        [],
        [],
        [],
        [commit(R.ROTATE_INTERVAL, True, 4, fi(h10, 0, 2, 2), fi(h09, 1, 3, 2))],
    ]
    assert rot.open_files == (fi(h10, 4, 4, 1),)


def test_confluent_out_of_order_hours_rotate_on_partition_change() -> None:
    # testWriteRecordTimeBasedPartitionRecordTimestampHoursOutOfOrderAndRotateOnPartitionChange:
    # files hour=10@0, hour=09@1, hour=10@2, hour=09@3 with one record each.
    rot = Rotator(RotationPolicy(flush_size=1000, rotate_interval_ms=10 * MIN))
    h10, h09 = "year=2017/month=03/day=02/hour=10", "year=2017/month=03/day=02/hour=09"
    out = [rot.offer(o, hour_partition(ts), timestamp=ts) for o, ts in _out_of_order_records()]
    assert out == [
        [],
        [commit(R.PARTITION_CHANGE, True, 1, fi(h10, 0, 0, 1))],
        [commit(R.ROTATE_INTERVAL, True, 2, fi(h09, 1, 1, 1))],  # 10:09 - 09:58 >= 10 min
        [commit(R.PARTITION_CHANGE, True, 3, fi(h10, 2, 2, 1))],
        [commit(R.ROTATE_INTERVAL, True, 4, fi(h09, 3, 3, 1))],  # 10:10 - 09:55 >= 10 min
    ]
    assert rot.open_files == (fi(h10, 4, 4, 1),)


def test_confluent_daily_rotation_interval_without_partition_change_rotation() -> None:
    # testWriteRecordTimeBasedPartitionRecordTimestampHoursDailyRotationInterval: nothing is
    # written by the first four records; the fifth (exactly +1 day) commits four 1-record files.
    rot = Rotator(
        RotationPolicy(flush_size=1000, rotate_interval_ms=DAY, rotate_on_partition_change=False)
    )
    first, nxt = at("2017-03-01T10:00:00", LA), at("2017-03-02T05:00:00", LA)
    stamps = [first, first - 2 * HOUR, nxt + 2 * HOUR, nxt]
    for o, ts in enumerate(stamps):
        assert rot.offer(o, hour_partition(ts), timestamp=ts) == []
    last = nxt + 5 * HOUR
    assert rot.offer(4, hour_partition(last), timestamp=last) == [
        commit(
            R.ROTATE_INTERVAL,
            True,
            4,
            fi("year=2017/month=03/day=01/hour=10", 0, 0, 1),
            fi("year=2017/month=03/day=01/hour=08", 1, 1, 1),
            fi("year=2017/month=03/day=02/hour=07", 2, 2, 1),
            fi("year=2017/month=03/day=02/hour=05", 3, 3, 1),
        )
    ]


def test_confluent_rotate_interval_ignored_without_timestamp_extractor() -> None:
    # testRotateIntervalIsIgnoredWhenUsedWithNoTimeBasedPartitioner: flush.size=10, 9 records.
    rot = Rotator(RotationPolicy(flush_size=10, rotate_interval_ms=MIN))
    for o in range(9):
        assert rot.offer(o, "partition=12", timestamp=None) == []
    assert rot.on_timer(10**13) == []
    assert rot.open_files == (fi("partition=12", 0, 8, 9),)


def test_tombstone_transitions_do_not_rotate_on_partition_change() -> None:
    # behavior.on.null.values=write: TopicPartitionWriter's
    # shouldRotateOnPartitionChangeWithTombstoneCheck: to or from the tombstone partition is no
    # partition change; between other partitions it still is.
    policy = RotationPolicy(flush_size=10, rotate_interval_ms=HOUR, tombstone_partition="tombstone")
    rot = Rotator(policy)
    assert rot.offer(0, "hour=22", timestamp=0) == []
    assert rot.offer(1, "tombstone", timestamp=1) == []
    assert rot.offer(2, "hour=22", timestamp=2) == []
    assert rot.open_files == (fi("hour=22", 0, 2, 2), fi("tombstone", 1, 1, 1))
    assert rot.offer(3, "hour=23", timestamp=3) == [
        commit(R.PARTITION_CHANGE, True, 3, fi("hour=22", 0, 2, 2), fi("tombstone", 1, 1, 1))
    ]
    plain = Rotator(RotationPolicy(flush_size=10, rotate_interval_ms=HOUR))
    assert plain.offer(0, "hour=22", timestamp=0) == []
    assert plain.offer(1, "tombstone", timestamp=1) != []


def test_partition_change_needs_rotate_interval() -> None:
    rot = Rotator(RotationPolicy(flush_size=10))
    assert rot.offer(0, "a", timestamp=0) == []
    assert rot.offer(1, "b", timestamp=1) == []
    assert rot.offer(2, "a", timestamp=2) == []
    assert rot.open_files == (fi("a", 0, 2, 2), fi("b", 1, 1, 1))


# --- rotate.schedule.interval.ms --------------------------------------------------------------


@pytest.mark.parametrize(
    ("now_local", "period_ms", "expected"),
    [
        ("2024-03-15T10:07:00", 10 * MIN, "2024-03-15T10:10:00.000-04:00"),
        ("2024-03-15T10:10:00", 10 * MIN, "2024-03-15T10:20:00.000-04:00"),
        # 7 h periods from midnight: 07:00, 14:00, 21:00, then the next midnight comes first.
        ("2024-03-15T13:59:59", 7 * HOUR, "2024-03-15T14:00:00.000-04:00"),
        ("2024-03-15T22:00:00", 7 * HOUR, "2024-03-16T00:00:00.000-04:00"),
        # Periods are elapsed time since local midnight (spring-forward day: 23 h long) ...
        ("2024-03-10T04:30:00", HOUR, "2024-03-10T05:00:00.000-04:00"),
        # ... capped at the next midnight, however long the day (DateTimeUtils since 2020): the
        # 25 h fall-back day's last hour ends at midnight, not at 23:00 (before now) ...
        ("2024-11-03T23:30:00", HOUR, "2024-11-04T00:00:00.000-05:00"),
        # ... and on the 23 h spring-forward day 4 h periods end at midnight, not at 01:00.
        ("2024-03-10T21:30:00", 4 * HOUR, "2024-03-11T00:00:00.000-04:00"),
    ],
)
def test_next_time_adjusted_by_day(now_local: str, period_ms: int, expected: str) -> None:
    assert iso(next_time_adjusted_by_day(at(now_local, NY), period_ms, NY), NY) == expected


def test_next_time_adjusted_by_day_half_hour_zone() -> None:
    # Hourly boundaries at HH:00 local = HH:30 UTC; a fixed "+05:30" id behaves the same.
    now = at("2024-06-01T09:10:00", KOLKATA)
    assert next_time_adjusted_by_day(now, HOUR, KOLKATA) == at("2024-06-01T04:30:00")
    assert next_time_adjusted_by_day(now, HOUR, "+05:30") == at("2024-06-01T04:30:00")


def test_scheduled_rotation_record_by_record_and_idle_close() -> None:
    policy = RotationPolicy(flush_size=100, rotate_schedule_interval_ms=HOUR, timezone=KOLKATA)
    rot = Rotator(policy)
    assert rot.next_timer_ms() is None
    assert rot.offer(0, "p", now_ms=at("2024-06-01T09:10:00", KOLKATA)) == []
    assert iso(rot.next_timer_ms() or 0, KOLKATA) == "2024-06-01T10:00:00.000+05:30"
    assert rot.offer(1, "p", now_ms=at("2024-06-01T09:59:59.999", KOLKATA)) == []
    assert rot.on_timer(at("2024-06-01T09:59:59.999", KOLKATA)) == []
    # now == boundary: rotates before appending; the record starts the next file.
    assert rot.offer(2, "q", now_ms=at("2024-06-01T10:00:00", KOLKATA)) == [
        commit(R.SCHEDULED, True, 2, fi("p", 0, 1, 2))
    ]
    assert iso(rot.next_timer_ms() or 0, KOLKATA) == "2024-06-01T11:00:00.000+05:30"
    assert rot.on_timer(at("2024-06-01T10:30:00", KOLKATA)) == []
    # No record arrives: the timer closes the open files at the boundary.
    assert rot.on_timer(at("2024-06-01T11:00:00", KOLKATA)) == [
        commit(R.SCHEDULED, False, 3, fi("q", 2, 2, 1))
    ]
    assert rot.next_timer_ms() is None
    assert iso(rot.state.next_scheduled_rotation_ms or 0, KOLKATA) == (
        "2024-06-01T12:00:00.000+05:30"
    )
    # An expired boundary with nothing open is moved before the record is handled.
    assert rot.offer(3, "q", now_ms=at("2024-06-01T12:20:00", KOLKATA)) == []
    assert iso(rot.next_timer_ms() or 0, KOLKATA) == "2024-06-01T13:00:00.000+05:30"


def test_confluent_records_after_expired_schedule_go_to_same_file() -> None:
    # testWriteRecordsAfterScheduleRotationExpiryButNoResetShouldGoToSameFile: schedule 10 min;
    # 11 min after start 3 records arrive -> one file 0..2, committed 11 min later.
    policy = RotationPolicy(
        flush_size=1000,
        rotate_interval_ms=HOUR,
        rotate_schedule_interval_ms=10 * MIN,
        timezone="UTC",
    )
    rot = Rotator(policy)
    start = at("2024-06-01T09:05:00")
    assert rot.on_timer(start) == []  # writer created: first boundary 09:10
    now = start + 11 * MIN
    for o in range(3):
        assert rot.offer(o, "p", timestamp=now, now_ms=now) == []
    assert rot.on_timer(now) == []
    assert iso(rot.next_timer_ms() or 0, "UTC") == "2024-06-01T09:20:00.000+00:00"
    assert rot.on_timer(now + 11 * MIN) == [commit(R.SCHEDULED, False, 3, fi("p", 0, 2, 3))]


def test_periodic_rotation_resets_the_schedule() -> None:
    policy = RotationPolicy(
        flush_size=100,
        rotate_interval_ms=1000,
        rotate_schedule_interval_ms=10 * MIN,
        timezone="UTC",
    )
    rot = Rotator(policy)
    assert rot.offer(0, "p", timestamp=0, now_ms=at("2024-06-01T09:05:00")) == []
    assert rot.offer(1, "p", timestamp=1000, now_ms=at("2024-06-01T09:12:00")) == [
        commit(R.ROTATE_INTERVAL, True, 1, fi("p", 0, 0, 1))
    ]
    assert iso(rot.next_timer_ms() or 0, "UTC") == "2024-06-01T09:20:00.000+00:00"


def test_a_schemaless_switch_rotates_before_the_schedule_and_does_not_move_it() -> None:
    # TopicPartitionWriter checks shouldRotateForNullSchema before rotateOnTime, without
    # setNextScheduledRotation: the expired boundary then rotates the next record's file.
    policy = RotationPolicy(flush_size=100, rotate_schedule_interval_ms=10 * MIN, timezone="UTC")
    rot = Rotator(policy)
    assert rot.offer(0, "p", schema_key="s", now_ms=at("2024-06-01T09:05:00")) == []
    later = at("2024-06-01T09:12:00")
    assert rot.offer(1, "p", schema_key=None, now_ms=later) == [
        commit(R.SCHEMA_CHANGE, True, 1, fi("p", 0, 0, 1))
    ]
    assert iso(rot.state.next_scheduled_rotation_ms or 0, "UTC") == "2024-06-01T09:10:00.000+00:00"
    assert rot.offer(2, "p", schema_key=None, now_ms=later) == [
        commit(R.SCHEDULED, True, 2, fi("p", 1, 1, 1))
    ]
    assert iso(rot.next_timer_ms() or 0, "UTC") == "2024-06-01T09:20:00.000+00:00"


def test_a_rejected_record_leaves_its_schema_until_the_next_commit_across_restarts() -> None:
    # Confluent's currentSchemas: a record that fails in writeRecord keeps the schema it put for
    # its encoded partition; the state carries it over to the next micro-batch's rotator.
    rot = Rotator(RotationPolicy(flush_size=10))
    assert rot.offer(0, "p", schema_key="a") == []
    assert rot.offer(1, "p", schema_key="b", accept=lambda: False) == [
        commit(R.SCHEMA_CHANGE, True, 1, fi("p", 0, 0, 1))
    ]
    assert rot.state.failed_schemas == {"p": ["b", None]}
    data = json.loads(json.dumps(rot.state.to_dict()))
    assert data["failed_schemas"] == {"p": ["b", None]}
    again = Rotator(RotationPolicy(flush_size=10), RotatorState.from_dict(data))
    assert again.offer(2, "p", schema_key="a") == []  # nothing open: no rotation, "b" stays
    assert again.offer(3, "p", schema_key="a") == [
        commit(R.SCHEMA_CHANGE, True, 3, fi("p", 2, 2, 1))
    ]
    assert again.state.failed_schemas == {}
    assert "failed_schemas" not in again.state.to_dict()


def test_schedule_needs_now() -> None:
    rot = Rotator(RotationPolicy(flush_size=1, rotate_schedule_interval_ms=HOUR, timezone="UTC"))
    with pytest.raises(ValueError, match="now_ms is required"):
        rot.offer(0, "p")


# --- schema change (schema.compatibility=NONE) ---------------------------------------------------


def test_schema_change_rotates_before_the_record() -> None:
    rot = Rotator(RotationPolicy(flush_size=100))
    assert rot.offer(0, "p", schema_key="v1") == []  # never for the first record
    assert rot.offer(1, "p", schema_key="v1") == []
    assert rot.offer(2, "p", schema_key="v2") == [
        commit(R.SCHEMA_CHANGE, True, 2, fi("p", 0, 1, 2))
    ]
    assert rot.offer(3, "p", schema_key="v1") == [
        commit(R.SCHEMA_CHANGE, True, 3, fi("p", 2, 2, 1))
    ]
    assert rot.open_files == (fi("p", 3, 3, 1),)


def test_schema_is_tracked_per_encoded_partition() -> None:
    rot = Rotator(RotationPolicy(flush_size=100))
    assert rot.offer(0, "a", schema_key=1) == []
    assert rot.offer(1, "b", schema_key=2) == []  # new file: takes its own schema
    assert rot.offer(2, "a", schema_key=1) == []
    assert rot.offer(3, "b", schema_key=1) == [
        commit(R.SCHEMA_CHANGE, True, 3, fi("a", 0, 2, 2), fi("b", 1, 1, 1))
    ]


@pytest.mark.parametrize("mode", list(SchemaCompatibility))
def test_switch_between_schema_and_schemaless_rotates(mode: SchemaCompatibility) -> None:
    # Beyond Confluent, which fails with "Switch between schema-based and schema-less data is
    # not supported": each file is all schemaless or all schema'd.
    rot = Rotator(RotationPolicy(flush_size=100, schema_compatibility=mode))
    v1 = _user(1)
    assert _offer(rot, 0, v1) == []
    assert _offer(rot, 1, None) == [commit(R.SCHEMA_CHANGE, True, 1, fi("p", 0, 0, 1))]
    assert _offer(rot, 2, None) == []
    assert _offer(rot, 3, v1) == [commit(R.SCHEMA_CHANGE, True, 3, fi("p", 1, 2, 2))]
    assert rot.open_files == (fi("p", 3, 3, 1),)
    # Schemaless data throughout never rotates on schema.
    schemaless = Rotator(RotationPolicy(flush_size=100, schema_compatibility=mode))
    assert [schemaless.offer(o, "p") for o in range(3)] == [[], [], []]


# --- schema change (schema.compatibility=BACKWARD, FORWARD, FULL) --------------------------------


def _key(schema: ConnectSchema | None) -> str | None:
    """The sink's schema key (pipeline.schema_key): a fingerprint of the whole schema."""
    return None if schema is None else hashlib.sha256(repr(schema).encode()).hexdigest()[:32]


def _user(version: int | None, *, name: str | None = "User", extra: bool = False) -> ConnectSchema:
    fields = [Field("id", ConnectSchema(Type.INT32))]
    if extra:
        fields.append(Field("email", ConnectSchema(Type.STRING, default="none")))
    return ConnectSchema(Type.STRUCT, name=name, version=version, fields=tuple(fields))


def _offer(
    rot: Rotator,
    offset: int,
    schema: ConnectSchema | None,
    part: str = "p",
    projected: list[tuple[int, ConnectSchema]] | None = None,
) -> list[Commit]:
    def project(target: ConnectSchema) -> None:
        assert projected is not None, f"offset {offset} projected unexpectedly"
        projected.append((offset, target))

    return rot.offer(offset, part, schema_key=_key(schema), schema=schema, project=project)


V1, V2 = _user(1), _user(2, extra=True)


@pytest.mark.parametrize("mode", [SchemaCompatibility.BACKWARD, SchemaCompatibility.FULL])
def test_backward_rotates_on_newer_and_projects_older(mode: SchemaCompatibility) -> None:
    rot = Rotator(RotationPolicy(flush_size=100, schema_compatibility=mode))
    projected: list[tuple[int, ConnectSchema]] = []
    assert _offer(rot, 0, V1) == []
    assert _offer(rot, 1, V2) == [commit(R.SCHEMA_CHANGE, True, 1, fi("p", 0, 0, 1))]
    assert _offer(rot, 2, V1, projected=projected) == []  # older: kept, projected onto v2
    assert _offer(rot, 3, V2) == []
    assert _offer(rot, 4, V1, projected=projected) == []
    assert projected == [(2, V2), (4, V2)]
    assert rot.open_files == (fi("p", 1, 4, 4),)


FORWARD = SchemaCompatibility.FORWARD


def test_forward_rotates_on_older_and_projects_newer() -> None:
    rot = Rotator(RotationPolicy(flush_size=100, schema_compatibility=FORWARD))
    projected: list[tuple[int, ConnectSchema]] = []
    assert _offer(rot, 0, V1) == []
    assert _offer(rot, 1, V2, projected=projected) == []  # newer: kept, projected onto v1
    assert _offer(rot, 2, V1) == []
    assert projected == [(1, V1)]
    starts_newer = Rotator(RotationPolicy(flush_size=100, schema_compatibility=FORWARD))
    assert _offer(starts_newer, 0, V2) == []
    assert _offer(starts_newer, 1, V1) == [commit(R.SCHEMA_CHANGE, True, 1, fi("p", 0, 0, 1))]
    assert _offer(starts_newer, 2, V2, projected=projected) == []
    assert projected == [(1, V1), (2, V1)]


def test_none_rotates_on_any_change_and_never_projects() -> None:
    rot = Rotator(RotationPolicy(flush_size=100))
    assert _offer(rot, 0, V2) == []
    assert _offer(rot, 1, V1) == [commit(R.SCHEMA_CHANGE, True, 1, fi("p", 0, 0, 1))]
    assert _offer(rot, 2, V2) == [commit(R.SCHEMA_CHANGE, True, 2, fi("p", 1, 1, 1))]
    assert rot.state.open_files[0].schema is None  # NONE keeps only the key, as before


@pytest.mark.parametrize("mode", ["BACKWARD", "FORWARD", "FULL"])
@pytest.mark.parametrize(
    ("other", "why"),
    [
        (_user(1, name="Customer"), "a different name"),
        (_user(1, name=None), "no name"),
        (
            ConnectSchema(
                Type.STRUCT, name="User", version=1,
                fields=(Field("id", ConnectSchema(Type.STRING)),),
            ),
            "a shared field of another type",
        ),
        (
            ConnectSchema(Type.STRUCT, name="User", version=1, parameters={"k": "v"}),
            "other parameters",
        ),
        (ConnectSchema(Type.ARRAY, name="User", version=1, value_schema=V1), "another type"),
        (
            ConnectSchema(
                Type.STRUCT, name="User", version=1,
                fields=(Field("id", ConnectSchema(Type.INT32, optional=True)),),
            ),
            "optional where the file's is required without a default (INCOMPATIBLE_OPTIONALITY)",
        ),
        (
            ConnectSchema(
                Type.STRUCT, name="User", version=1,
                fields=(Field("other", ConnectSchema(Type.INT32, optional=True)),),
            ),
            "without the file's required id, which has no default (MISSING_REQUIRED_FIELD)",
        ),
    ],
)  # fmt: skip
def test_structural_changes_rotate_whatever_the_version(
    mode: str, other: ConnectSchema, why: str
) -> None:
    # checkSchemaCompatibility: type, name, parameters (recursively on shared fields) rotate
    # before versions are compared, so an older version of another shape never fails a projection.
    rot = Rotator(RotationPolicy(flush_size=100, schema_compatibility=SchemaCompatibility(mode)))
    assert _offer(rot, 0, _user(2)) == [], why
    assert _offer(rot, 1, other) == [commit(R.SCHEMA_CHANGE, True, 1, fi("p", 0, 0, 1))], why


def test_widening_and_metadata_do_not_rotate() -> None:
    wide = ConnectSchema(
        Type.STRUCT, name="User", version=2, parameters={"connect.record.doc": "a user"},
        fields=(Field("id", ConnectSchema(Type.INT64)),),
    )  # fmt: skip
    rot = Rotator(RotationPolicy(flush_size=100, schema_compatibility=SchemaCompatibility.FULL))
    projected: list[tuple[int, ConnectSchema]] = []
    assert _offer(rot, 0, wide) == []
    assert _offer(rot, 1, V1, projected=projected) == []  # int32 widens to int64; doc ignored
    assert projected == [(1, wide)]


def test_enum_symbols_may_only_grow_toward_the_file() -> None:
    def color(version: int, *symbols: str) -> ConnectSchema:
        params = {"io.confluent.connect.avro.Enum": "Color"}
        params.update({f"io.confluent.connect.avro.Enum.{s}": s for s in symbols})
        return ConnectSchema(Type.STRING, name="Color", version=version, parameters=params)

    rot = Rotator(RotationPolicy(flush_size=100, schema_compatibility=SchemaCompatibility.BACKWARD))
    projected: list[tuple[int, ConnectSchema]] = []
    assert _offer(rot, 0, color(2, "RED", "GREEN")) == []
    assert _offer(rot, 1, color(1, "RED"), projected=projected) == []  # a subset: projected
    assert _offer(rot, 2, color(1, "BLUE")) == [commit(R.SCHEMA_CHANGE, True, 2, fi("p", 0, 1, 2))]
    assert projected == [(1, color(2, "RED", "GREEN"))]


@pytest.mark.parametrize("mode", ["BACKWARD", "FORWARD", "FULL"])
def test_a_different_schema_without_version_fails(mode: str) -> None:
    rot = Rotator(
        RotationPolicy(flush_size=100, schema_compatibility=SchemaCompatibility(mode)),
        topic="t",
        partition=3,
    )
    unversioned = _user(None)
    assert _offer(rot, 0, unversioned) == []
    assert _offer(rot, 1, unversioned) == []  # the same schema needs no version
    with pytest.raises(SchemaProjectionError) as err:
        _offer(rot, 2, V1)
    assert isinstance(err.value, RecordError)
    assert str(err.value) == (
        f"Schema version required for {mode} compatibility: the record's value schema 'User' "
        f"version 1 differs from the open file's schema 'User', and schema.compatibility={mode} "
        "needs a version on both (topic='t', partition=3, offset=2)"
    )
    assert rot.open_files == (fi("p", 0, 1, 2),)  # the record was not taken
    assert rot.state.current_offset == 1


def test_a_failed_projection_takes_nothing() -> None:
    rot = Rotator(RotationPolicy(flush_size=2, schema_compatibility=SchemaCompatibility.BACKWARD))
    assert _offer(rot, 0, V2) == []

    def refuse(target: ConnectSchema) -> None:
        raise SchemaProjectionError("no", topic="t", partition=0, offset=1)

    with pytest.raises(SchemaProjectionError):
        rot.offer(1, "p", schema_key=_key(V1), schema=V1, project=refuse)
    assert rot.open_files == (fi("p", 0, 0, 1),)  # not appended, flush.size not reached
    assert _offer(rot, 2, V2) == [commit(R.FLUSH_SIZE, False, 3, fi("p", 0, 2, 2))]


def test_versioned_schema_is_tracked_per_encoded_partition() -> None:
    rot = Rotator(RotationPolicy(flush_size=100, schema_compatibility=SchemaCompatibility.BACKWARD))
    projected: list[tuple[int, ConnectSchema]] = []
    assert _offer(rot, 0, V2, "a") == []
    assert _offer(rot, 1, V1, "b") == []  # a new file takes its record's schema
    assert _offer(rot, 2, V1, "a", projected) == []  # onto a's v2
    # v2 is newer than b's v1: every open file commits (Confluent's commitFiles).
    assert _offer(rot, 3, V2, "b") == [
        commit(R.SCHEMA_CHANGE, True, 3, fi("a", 0, 2, 2), fi("b", 1, 1, 1))
    ]
    assert projected == [(2, V2)]


def test_versioned_state_round_trips_and_old_states_load() -> None:
    policy = RotationPolicy(flush_size=100, schema_compatibility=SchemaCompatibility.BACKWARD)
    rot = Rotator(policy)
    assert _offer(rot, 0, V2) == []
    data = json.loads(json.dumps(rot.state.to_dict()))
    assert data["open_files"][0]["schema"] == {
        "type": "struct",
        "fields": [
            {"type": "int32", "optional": False, "field": "id"},
            {"type": "string", "optional": False, "default": "none", "field": "email"},
        ],
        "optional": False,
        "name": "User",
        "version": 2,
    }
    resumed = Rotator(policy, RotatorState.from_dict(data))
    projected: list[tuple[int, ConnectSchema]] = []
    assert _offer(resumed, 1, V1, projected=projected) == []  # decided on the saved schema
    assert projected == [(1, V2)]
    assert _offer(resumed, 2, _user(3)) == [commit(R.SCHEMA_CHANGE, True, 2, fi("p", 0, 1, 2))]
    # A state saved before schemas were kept (or under NONE) has only the key: a different
    # schema then always rotates, which needs no projection.
    del data["open_files"][0]["schema"]
    old = Rotator(policy, RotatorState.from_dict(data))
    assert _offer(old, 1, V1) == [commit(R.SCHEMA_CHANGE, True, 1, fi("p", 0, 0, 1))]


def test_schema_compatibility_policy_values() -> None:
    assert RotationPolicy(1).schema_compatibility is SchemaCompatibility.NONE
    policy = RotationPolicy(1, schema_compatibility="FULL")  # type: ignore[arg-type]
    assert policy.schema_compatibility is SchemaCompatibility.FULL
    with pytest.raises(ConfigError, match="schema_compatibility must be one of NONE, BACKWARD"):
        RotationPolicy(1, schema_compatibility="TRANSITIVE")  # type: ignore[arg-type]


# --- worked example and state ------------------------------------------------------------------


def test_worked_example_traced_from_topic_partition_writer() -> None:
    # flush.size=4, rotate.interval.ms=60000, rotate on partition change, schema NONE.
    # Each row: offset, encoded partition, timestamp (s), schema, expected commits, traced
    # through executeState/checkRotationOrAppend of TopicPartitionWriter.java by hand.
    rot = Rotator(RotationPolicy(flush_size=4, rotate_interval_ms=60_000))
    rows: list[tuple[int, str, int, str, list[Commit]]] = [
        (0, "A", 0, "s1", []),
        (1, "A", 10, "s1", []),
        (2, "B", 20, "s1", [commit(R.PARTITION_CHANGE, True, 2, fi("A", 0, 1, 2))]),
        (3, "B", 5, "s1", []),  # out of order: 5 - 20 < 60, base stays 20
        (4, "B", 30, "s2", [commit(R.SCHEMA_CHANGE, True, 4, fi("B", 2, 3, 2))]),
        (5, "B", 89, "s2", []),  # 89 - 30 = 59 < 60
        (6, "B", 90, "s2", [commit(R.ROTATE_INTERVAL, True, 6, fi("B", 4, 5, 2))]),
        (7, "B", 91, "s2", []),
        (8, "B", 92, "s2", []),
        (9, "B", 93, "s2", [commit(R.FLUSH_SIZE, False, 10, fi("B", 6, 9, 4))]),
        (10, "A", 200, "s1", []),  # nothing open: no partition, time or schema rotation
        (11, "A", 260, "s2", [commit(R.ROTATE_INTERVAL, True, 11, fi("A", 10, 10, 1))]),
    ]
    for offset, part, ts, schema, expected in rows:
        assert rot.offer(offset, part, timestamp=ts * 1000, schema_key=schema) == expected, offset
    assert rot.state.to_dict() == {
        "open_files": [
            {
                "encoded_partition": "A",
                "start_offset": 11,
                "end_offset": 11,
                "record_count": 1,
                "schema_key": "s2",
            }
        ],
        "current_offset": 11,
        "current_encoded_partition": "A",
        "current_timestamp": 260_000,
        "base_record_timestamp": 260_000,
        "next_scheduled_rotation_ms": None,
    }


_Event = tuple[str, dict[str, Any]]


def _mixed_events() -> list[_Event]:
    base = at("2024-06-01T23:40:00", KOLKATA)
    events: list[_Event] = []
    parts = ["a", "b", "a", "a", "c", "b", "b", "a", "c", "c", "a", "b"]
    for i, part in enumerate(parts * 2):
        now = base + i * 3 * MIN
        ts = now - (i % 4) * 20_000
        events.append(
            (
                "offer",
                {
                    "offset": 100 + i,
                    "encoded_partition": part,
                    "timestamp": ts,
                    "schema_key": "v2" if i in (9, 10, 11) else "v1",
                    "now_ms": now,
                },
            )
        )
        if i % 5 == 4:
            events.append(("timer", {"now_ms": now + MIN}))
    events.append(("timer", {"now_ms": base + 3 * HOUR}))
    return events


def _run(rot: Rotator, events: list[_Event]) -> list[Commit]:
    out: list[Commit] = []
    for kind, args in events:
        out += rot.offer(**args) if kind == "offer" else rot.on_timer(**args)
    return out


@pytest.mark.parametrize("partition_change", [True, False])
def test_state_round_trip_resumes_identically(partition_change: bool) -> None:
    policy = RotationPolicy(
        flush_size=3,
        rotate_interval_ms=20 * MIN,
        rotate_schedule_interval_ms=30 * MIN,
        rotate_on_partition_change=partition_change,
        timezone=KOLKATA,
    )
    events = _mixed_events()
    whole = Rotator(policy)
    expected = _run(whole, events)
    assert {c.reason for c in expected} >= {R.SCHEDULED, R.SCHEMA_CHANGE}
    if not partition_change:  # traced by hand: 23:40 IST start, 30 min schedule, flush.size=3
        assert [(c.reason, c.before_record, c.next_offset) for c in expected] == [
            (R.FLUSH_SIZE, False, 103),
            (R.FLUSH_SIZE, False, 106),
            (R.SCHEDULED, True, 107),  # first offer at/after midnight (00:01)
            (R.SCHEMA_CHANGE, True, 109),
            (R.FLUSH_SIZE, False, 112),
            (R.FLUSH_SIZE, False, 115),
            (R.SCHEDULED, True, 117),
            (R.FLUSH_SIZE, False, 120),
            (R.FLUSH_SIZE, False, 123),
            (R.SCHEDULED, False, 124),  # the final idle timer
        ]
        assert expected[3].files == (fi("a", 107, 107, 1), fi("c", 108, 108, 1))
    committed = sum(f.record_count for c in expected for f in c.files)
    assert committed + whole.record_count == 24  # every offered record is in exactly one file
    for cut in range(len(events) + 1):
        first = Rotator(policy)
        got = _run(first, events[:cut])
        saved = json.loads(json.dumps(first.state.to_dict()))
        resumed = Rotator(policy, RotatorState.from_dict(saved))
        got += _run(resumed, events[cut:])
        assert got == expected, cut
        assert resumed.state == whole.state


def test_state_round_trip_scenario_values() -> None:
    policy = RotationPolicy(flush_size=5, rotate_schedule_interval_ms=30 * MIN, timezone=KOLKATA)
    rot = Rotator(policy)
    rot.offer(7, "a", schema_key="v1", now_ms=at("2024-06-01T23:40:00", KOLKATA))
    rot.offer(8, "b", schema_key=42, now_ms=at("2024-06-01T23:41:00", KOLKATA))
    data = rot.state.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["open_files"] == [
        {"encoded_partition": "a", "start_offset": 7, "end_offset": 7, "record_count": 1,
         "schema_key": "v1"},
        {"encoded_partition": "b", "start_offset": 8, "end_offset": 8, "record_count": 1,
         "schema_key": 42},
    ]  # fmt: skip
    assert iso(data["next_scheduled_rotation_ms"], KOLKATA) == "2024-06-02T00:00:00.000+05:30"
    assert RotatorState.from_dict(data) == rot.state
    # The state property is a copy: mutating it does not touch the rotator.
    copy_ = rot.state
    copy_.open_files.clear()
    assert rot.record_count == 2


# --- policy validation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"flush_size": 0}, "flush.size must be at least 1"),
        ({"flush_size": "3"}, "flush_size must be an integer"),
        ({"flush_size": 3, "rotate_schedule_interval_ms": HOUR}, "timezone must be set"),
        (
            {"flush_size": 3, "rotate_schedule_interval_ms": HOUR, "timezone": "Mars/Base"},
            "timezone 'Mars/Base' is not a known time zone id",
        ),
    ],
)
def test_policy_validation(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        RotationPolicy(**kwargs)


# --- partitioner.max.open.files -------------------------------------------------------------


def test_confluent_field_partitioner_rotates_on_max_open_files() -> None:
    # testWriteRecordFieldBasedPartitionAndRotateOnMaxSize: max 5, flush.size 10, six field
    # values: the sixth record commits five one-record files (before it) and stays open.
    rot = Rotator(RotationPolicy(flush_size=10, max_open_files=5))
    out = [rot.offer(o, f"int={16 + o}") for o in range(6)]
    assert out == [[], [], [], [], [], [
        commit(R.MAX_OPEN_FILES, True, 5, *(fi(f"int={16 + o}", o, o, 1) for o in range(5)))
    ]]  # fmt: skip
    assert rot.open_files == (fi("int=21", 5, 5, 1),)


def test_confluent_max_open_files_unset_rotates_on_flush_size_only() -> None:
    # testWriteRecordFieldBasedPartitionAndRotateOnFlushSizeWhenMaxFilesIsUnset (-1, flush 10).
    rot = Rotator(RotationPolicy(flush_size=10, max_open_files=-1))
    out = [c for o in range(20) for c in rot.offer(o, "int=16")]
    assert out == [
        commit(R.FLUSH_SIZE, False, 10, fi("int=16", 0, 9, 10)),
        commit(R.FLUSH_SIZE, False, 20, fi("int=16", 10, 19, 10)),
    ]


def test_max_open_files_counts_open_files_not_records() -> None:
    # A record of an open file never rotates; flush.size still counts across the files.
    rot = Rotator(RotationPolicy(flush_size=5, max_open_files=2))
    assert [rot.offer(o, p) for o, p in enumerate("abab")] == [[], [], [], []]
    assert rot.offer(4, "c") == [
        commit(R.MAX_OPEN_FILES, True, 4, fi("a", 0, 2, 2), fi("b", 1, 3, 2))
    ]
    assert rot.offer(5, "c") == []
    assert rot.open_files == (fi("c", 4, 5, 2),)


def test_max_open_files_one_commits_on_every_new_partition() -> None:
    rot = Rotator(RotationPolicy(flush_size=100, max_open_files=1))
    assert rot.offer(0, "a") == []
    assert rot.offer(1, "a") == []
    assert rot.offer(2, "b") == [commit(R.MAX_OPEN_FILES, True, 2, fi("a", 0, 1, 2))]
    assert rot.offer(3, "a") == [commit(R.MAX_OPEN_FILES, True, 3, fi("b", 2, 2, 1))]


def test_max_open_files_is_checked_after_time_rotation() -> None:
    # Confluent's order: rotateOnTime first (one commit, reason partition change), then the
    # open-files check finds nothing open.
    rot = Rotator(RotationPolicy(flush_size=100, rotate_interval_ms=HOUR, max_open_files=1))
    assert rot.offer(0, "a", timestamp=0) == []
    assert rot.offer(1, "b", timestamp=1) == [commit(R.PARTITION_CHANGE, True, 1, fi("a", 0, 0, 1))]


@pytest.mark.parametrize("value", [0, -2])
def test_max_open_files_must_be_minus_one_or_positive(value: int) -> None:
    with pytest.raises(ConfigError, match=r"partitioner\.max\.open\.files must be -1"):
        RotationPolicy(flush_size=1, max_open_files=value)


# --- rotate.file.on.partition.change ------------------------------------------------------------


def test_partition_change_needs_rotate_interval_and_an_extractor_only() -> None:
    # rotateOnTime: rotate.interval.ms > 0 and an extractor (here: a timestamp offered); the
    # record's timestamp and the base play no part, so a state restored without a base rotates.
    state = RotatorState(
        open_files=[OpenFile("a", 0, 0, 1)], current_offset=0, current_encoded_partition="a"
    )
    rot = Rotator(RotationPolicy(flush_size=10, rotate_interval_ms=HOUR), state)
    assert rot.offer(1, "b", timestamp=5) == [commit(R.PARTITION_CHANGE, True, 1, fi("a", 0, 0, 1))]
    off = Rotator(
        RotationPolicy(flush_size=10, rotate_interval_ms=HOUR, rotate_on_partition_change=False),
        state,
    )
    assert off.offer(1, "b", timestamp=5) == []
    assert off.offer(2, "c", timestamp=None) == []  # no extractor: never on time


@pytest.mark.parametrize("seed", range(60))
def test_joining_and_extend_are_offering_each_record(seed: int) -> None:
    """Runs (the line path): as many records as joining() allows, or one offered, give the
    state and commits of offering every record, whatever the files, times and rules."""
    rng = random.Random(seed)
    interval = rng.choice([0, 0, 50, 400])
    policy = RotationPolicy(
        flush_size=rng.choice([1, 3, 10, 25, 1000]),
        rotate_interval_ms=interval,
        rotate_on_partition_change=rng.random() < 0.7,
        rotate_schedule_interval_ms=rng.choice([0, 0, 1000]),
        timezone="UTC",
    )
    one_by_one, runs = Rotator(policy), Rotator(policy)
    offsets = sorted(rng.sample(range(3000), 600))
    names = [f"f={rng.randrange(rng.choice([1, 2, 6]))}" for _ in offsets]
    if rng.random() < 0.5:  # time buckets: long stretches of one file
        names = [f"h={o // 200}" for o in offsets]
    stamps = [10_000 + o * 3 + rng.randrange(-20, 20) for o in offsets] if interval else None
    nows = [1_000_000 + (o // 100) * 700 for o in offsets]  # the same within a micro-batch
    commits_one, commits_runs = [], []
    for k, (o, name) in enumerate(zip(offsets, names, strict=True)):
        ts = None if stamps is None else stamps[k]
        commits_one += one_by_one.offer(o, name, timestamp=ts, now_ms=nows[k])
    partitions = sorted(set(names))
    files = np.array([partitions.index(n) for n in names], np.int32)
    times = None if stamps is None else np.array(stamps, np.int64)
    i = 0
    while i < len(offsets):
        window = times if times is None else times[i:]
        joining = runs.joining(None, files[i:], partitions, window, nows[i])
        take = min(joining, rng.choice([joining, 1 + joining // 2]))  # a run may stop early
        if nows[i + take - 1 if take else i] != nows[i]:
            take = sum(1 for n in nows[i : i + take] if n == nows[i])  # one micro-batch
        if take == 0:
            ts = None if stamps is None else stamps[i]
            commits_runs += runs.offer(offsets[i], names[i], timestamp=ts, now_ms=nows[i])
            i += 1
            continue
        ends: dict[str, tuple[int, int]] = {}
        for o, name in zip(offsets[i : i + take], names[i : i + take], strict=True):
            ends[name] = (ends.get(name, (0, 0))[0] + 1, o)
        span = None if stamps is None else (stamps[i], stamps[i + take - 1])
        end = offsets[i + take - 1]
        commits_runs += runs.extend([(n, c, e) for n, (c, e) in ends.items()], end, span)
        i += take
    assert runs.state == one_by_one.state
    assert commits_runs == commits_one
    no_rule = policy.flush_size == 1000 and not interval and not policy.rotate_schedule_interval_ms
    assert len(commits_one) > 1 or no_rule


def test_joining_stops_where_a_rule_other_than_flush_size_could_rotate() -> None:
    def joining(r: Rotator, names: list[str], stamps: list[int] | None = None, now: int = 0) -> int:
        files = np.array([["p", "q", "r"].index(n) for n in names], np.int32)
        times = None if stamps is None else np.array(stamps, np.int64)
        return r.joining(None, files, ["p", "q", "r"], times, now)

    counted = Rotator(RotationPolicy(flush_size=5))
    assert joining(counted, ["p", "p"]) == 0  # no open file: the first record opens one
    counted.offer(0, "p")
    counted.offer(1, "q", schema_key="other")
    assert joining(counted, ["p", "p", "p", "p", "p"]) == 3  # flush.size 5: room for 3
    assert joining(counted, ["p", "r", "p"]) == 1  # r opens a file
    assert joining(counted, ["q"]) == 0  # q's file has another schema
    timed = Rotator(RotationPolicy(flush_size=100, rotate_interval_ms=1000))
    timed.offer(0, "p", timestamp=5000)
    assert joining(timed, ["p"] * 4, [5100, 5999, 6000, 5000]) == 2  # 6000: the interval
    assert joining(timed, ["p", "p", "q"], [5001, 5002, 5003]) == 2  # opens q
    timed.offer(1, "q", timestamp=5001)
    assert joining(timed, ["q", "p"], [5002, 5003]) == 1  # the partition changes
    assert joining(timed, ["p"], [5002]) == 0
    scheduled = Rotator(RotationPolicy(100, rotate_schedule_interval_ms=1000, timezone="UTC"))
    scheduled.offer(0, "p", now_ms=500)
    assert (joining(scheduled, ["p"], now=999), joining(scheduled, ["p"], now=1000)) == (1, 0)
