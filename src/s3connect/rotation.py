"""File rotation decisions of Confluent's S3 sink ``TopicPartitionWriter``, as a pure state machine.

One :class:`Rotator` stands for one Kafka topic-partition. It never touches records or storage:
the caller offers each record's offset, encoded partition, timestamp and schema key, and gets
back the groups of files to commit. The I/O layer keeps the records per encoded partition and
cuts its files on these decisions. The state (:class:`RotatorState`) is plain, JSON-compatible
data so a streaming query can persist it and resume exactly after a restart.

Reproduced from ``kafka-connect-s3/.../TopicPartitionWriter.java`` (the version with
``FileRotationTracker`` and ``resetExpiredScheduledRotationIfNoPendingRecords``) and
``DateTimeUtils.getNextTimeAdjustedByDay`` (kafka-connect-storage-common):

* ``flush.size`` counts the records of the topic-partition across all its open files; the record
  that reaches it is appended first, then *all* open files are committed.
* Before appending, a record rotates (commits all open files, then starts new ones) when, with
  ``rotate.interval.ms > 0`` and a timestamp extractor, ``timestamp - base >= rotate.interval.ms``
  (``base`` = timestamp of the first record offered since the last commit; earlier, out-of-order
  timestamps never rotate and never move ``base``) or its encoded partition differs from the one
  of the previous record (``rotate.file.on.partition.change``, default true); or when
  ``rotate.schedule.interval.ms > 0`` and ``now >= next scheduled rotation``; or, checked after
  those, when its value schema differs from the schema of the open file of its encoded partition
  (``schema.compatibility=NONE``). None of these fire while no record is open.
* A time rotation (periodic or scheduled) moves the next scheduled rotation to the next boundary
  after ``now``, aligned to midnight in ``timezone``; with no open record an expired boundary is
  moved the same way before the next record is handled.
* After each batch, Confluent commits on time even with no new record: :meth:`Rotator.on_timer`.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from s3connect.errors import ConfigError, RecordError

__all__ = [
    "Commit",
    "FileInfo",
    "OpenFile",
    "RotationPolicy",
    "RotationReason",
    "Rotator",
    "RotatorState",
    "SchemaKey",
    "SchemaSwitchError",
    "next_time_adjusted_by_day",
]

SchemaKey = str | int | None
"""Opaque identity of a record's value schema (e.g. a fingerprint); None for schemaless data."""

_DAY_MS = 24 * 60 * 60 * 1000
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ONE_MS = timedelta(milliseconds=1)
_OFFSET_ID = re.compile(r"^([+-])(\d{2}):?(\d{2})$")


class RotationReason(StrEnum):
    """Why a group of files was committed (the counters of Confluent's ``FileRotationTracker``)."""

    FLUSH_SIZE = "flush_size"
    ROTATE_INTERVAL = "rotate_interval"
    PARTITION_CHANGE = "partition_change"
    SCHEDULED = "scheduled"
    SCHEMA_CHANGE = "schema_change"


class SchemaSwitchError(RecordError):
    """A record switches between schema-based and schemaless data within one open file.

    Confluent raises ``SchemaProjectorException`` here (the task fails, or the record goes to the
    DLQ). The rotator state is left as Confluent leaves it, so the caller may skip the record.
    """


@dataclass(frozen=True, slots=True)
class RotationPolicy:
    """The rotation settings of the S3 sink.

    Attributes:
        flush_size: ``flush.size``, records per topic-partition before all its files commit.
        rotate_interval_ms: ``rotate.interval.ms``; <= 0 disables. Applies only to records offered
            with a timestamp (Confluent ignores it unless the partitioner is time-based).
        rotate_schedule_interval_ms: ``rotate.schedule.interval.ms``; <= 0 disables.
        rotate_on_partition_change: ``rotate.file.on.partition.change`` (default true): with
            ``rotate.interval.ms`` active, a change of encoded partition rotates too.
        timezone: ``timezone``, a zone id or ``+HH:MM``; required by a schedule.
    """

    flush_size: int
    rotate_interval_ms: int = -1
    rotate_schedule_interval_ms: int = -1
    rotate_on_partition_change: bool = True
    timezone: str | None = None

    def __post_init__(self) -> None:
        for name in ("flush_size", "rotate_interval_ms", "rotate_schedule_interval_ms"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{name} must be an integer, got {value!r}")
        if self.flush_size < 1:
            raise ConfigError(f"flush.size must be at least 1, got {self.flush_size}")
        if not isinstance(self.rotate_on_partition_change, bool):
            raise ConfigError(
                "rotate_on_partition_change must be a boolean, "
                f"got {self.rotate_on_partition_change!r}"
            )
        if self.rotate_schedule_interval_ms > 0:
            if not self.timezone:
                raise ConfigError(
                    "timezone must be set when rotate.schedule.interval.ms is set "
                    f"(rotate.schedule.interval.ms={self.rotate_schedule_interval_ms})"
                )
            _zone(self.timezone)
        elif self.timezone:
            _zone(self.timezone)


@dataclass(frozen=True, slots=True)
class FileInfo:
    """One committed file: its encoded partition and the offsets and count of its records."""

    encoded_partition: str
    start_offset: int
    end_offset: int
    record_count: int


@dataclass(frozen=True, slots=True)
class Commit:
    """A group of files committed together.

    Attributes:
        files: The committed files, in the order they were opened.
        reason: What triggered the commit.
        before_record: True when committed before the offered record was appended (the record
            then starts a new file); False for a commit after appending it or from a timer.
        next_offset: The Kafka offset to commit for the topic-partition (last written + 1).
    """

    files: tuple[FileInfo, ...]
    reason: RotationReason
    before_record: bool
    next_offset: int


@dataclass(slots=True)
class OpenFile:
    """A file being written: first and last offset, record count and its value schema key."""

    encoded_partition: str
    start_offset: int
    end_offset: int
    record_count: int
    schema_key: SchemaKey = None


@dataclass(slots=True)
class RotatorState:
    """The whole state of one :class:`Rotator`, plain and JSON-compatible via :meth:`to_dict`.

    Attributes:
        open_files: Open files in the order they were opened.
        current_offset: Offset of the last appended record (-1 before any).
        current_encoded_partition: Encoded partition of the last appended record.
        current_timestamp: Timestamp of the last offered record.
        base_record_timestamp: Timestamp of the first record offered since the last commit.
        next_scheduled_rotation_ms: Next scheduled rotation (None until first used).
    """

    open_files: list[OpenFile] = field(default_factory=list)
    current_offset: int = -1
    current_encoded_partition: str | None = None
    current_timestamp: int | None = None
    base_record_timestamp: int | None = None
    next_scheduled_rotation_ms: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the state as a JSON-compatible dict."""
        return {
            "open_files": [
                {
                    "encoded_partition": f.encoded_partition,
                    "start_offset": f.start_offset,
                    "end_offset": f.end_offset,
                    "record_count": f.record_count,
                    "schema_key": f.schema_key,
                }
                for f in self.open_files
            ],
            "current_offset": self.current_offset,
            "current_encoded_partition": self.current_encoded_partition,
            "current_timestamp": self.current_timestamp,
            "base_record_timestamp": self.base_record_timestamp,
            "next_scheduled_rotation_ms": self.next_scheduled_rotation_ms,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RotatorState:
        """Rebuild a state from :meth:`to_dict` output."""
        return cls(
            open_files=[
                OpenFile(
                    encoded_partition=str(f["encoded_partition"]),
                    start_offset=int(f["start_offset"]),
                    end_offset=int(f["end_offset"]),
                    record_count=int(f["record_count"]),
                    schema_key=f.get("schema_key"),
                )
                for f in data.get("open_files", [])
            ],
            current_offset=int(data.get("current_offset", -1)),
            current_encoded_partition=data.get("current_encoded_partition"),
            current_timestamp=_opt_int(data.get("current_timestamp")),
            base_record_timestamp=_opt_int(data.get("base_record_timestamp")),
            next_scheduled_rotation_ms=_opt_int(data.get("next_scheduled_rotation_ms")),
        )


class Rotator:
    """Rotation decisions for one Kafka topic-partition (Confluent's ``TopicPartitionWriter``).

    Offer records in offset order with :meth:`offer`; call :meth:`on_timer` after each batch and
    when the timer from :meth:`next_timer_ms` fires. With no schedule, decisions depend only on
    the offered values (``now_ms`` is unused); with a Wallclock extractor pass ``timestamp=now_ms``.
    """

    def __init__(
        self,
        policy: RotationPolicy,
        state: RotatorState | None = None,
        *,
        topic: str = "",
        partition: int = -1,
    ) -> None:
        """Create a rotator, resuming from ``state`` (copied) when given."""
        self._policy = policy
        self._state = copy.deepcopy(state) if state is not None else RotatorState()
        self._topic = topic
        self._partition = partition
        self._zone = _zone(policy.timezone) if policy.rotate_schedule_interval_ms > 0 else None

    @property
    def policy(self) -> RotationPolicy:
        """The rotation settings."""
        return self._policy

    @property
    def state(self) -> RotatorState:
        """A copy of the current state, safe to persist."""
        return copy.deepcopy(self._state)

    @property
    def open_files(self) -> tuple[FileInfo, ...]:
        """The files currently open, in the order they were opened."""
        return tuple(_info(f) for f in self._state.open_files)

    @property
    def record_count(self) -> int:
        """Records appended since the last commit, across all open files."""
        return sum(f.record_count for f in self._state.open_files)

    def offer(
        self,
        offset: int,
        encoded_partition: str,
        *,
        timestamp: int | None = None,
        schema_key: SchemaKey = None,
        now_ms: int | None = None,
    ) -> list[Commit]:
        """Handle one record and return the commits it causes, in order.

        Args:
            offset: The record's Kafka offset.
            encoded_partition: The partitioner's encoded partition for the record.
            timestamp: The timestamp extractor's value; None when the partitioner has none.
            schema_key: Identity of the record's value schema; None for schemaless data.
            now_ms: Wall-clock time; required when a schedule is configured.

        Raises:
            SchemaSwitchError: The record is schemaless and its open file is not, or vice versa.
        """
        now = self._now(now_ms)
        self._reset_expired_schedule(now)
        st = self._state
        commits: list[Commit] = []
        while True:
            if timestamp is not None:
                st.current_timestamp = timestamp
                if st.base_record_timestamp is None:
                    st.base_record_timestamp = timestamp
            open_file = self._find(encoded_partition)
            current_schema = open_file.schema_key if open_file is not None else schema_key

            reason = self._rotate_on_time(encoded_partition, timestamp, now)
            if reason is not None:
                self._set_next_scheduled_rotation(now)
                commits.append(self._commit(reason, before_record=True))
                continue
            if self._schema_changed(offset, schema_key, current_schema) and self.record_count > 0:
                commits.append(self._commit(RotationReason.SCHEMA_CHANGE, before_record=True))
                continue

            self._append(offset, encoded_partition, open_file, current_schema)
            if self.record_count >= self._policy.flush_size:
                commits.append(self._commit(RotationReason.FLUSH_SIZE, before_record=False))
            return commits

    def on_timer(self, now_ms: int | None = None) -> list[Commit]:
        """Commit on time with no new record (Confluent's ``commitOnTimeIfNoData``).

        Call after each batch of offers and whenever :meth:`next_timer_ms` is reached: when the
        scheduled rotation is due, all open files are committed even if no record arrives.
        """
        now = self._now(now_ms)
        self._reset_expired_schedule(now)
        st = self._state
        if self.record_count > 0 and st.current_encoded_partition is not None:
            reason = self._rotate_on_time(st.current_encoded_partition, st.current_timestamp, now)
            if reason is not None:
                self._set_next_scheduled_rotation(now)
                return [self._commit(reason, before_record=False)]
        return []

    def next_timer_ms(self) -> int | None:
        """Wall-clock time at which :meth:`on_timer` would commit the open files, if any."""
        if self._zone is None or self.record_count == 0:
            return None
        return self._state.next_scheduled_rotation_ms

    def _now(self, now_ms: int | None) -> int:
        if now_ms is None:
            if self._zone is not None:
                raise ValueError("now_ms is required when rotate.schedule.interval.ms > 0")
            return 0
        return now_ms

    def _find(self, encoded_partition: str) -> OpenFile | None:
        for f in self._state.open_files:
            if f.encoded_partition == encoded_partition:
                return f
        return None

    def _schema_changed(self, offset: int, schema_key: SchemaKey, current: SchemaKey) -> bool:
        if schema_key is None and current is None:
            return False
        if schema_key is None or current is None:
            raise SchemaSwitchError(
                "Switch between schema-based and schema-less data is not supported",
                topic=self._topic,
                partition=self._partition,
                offset=offset,
            )
        return schema_key != current

    def _rotate_on_time(
        self, encoded_partition: str, timestamp: int | None, now: int
    ) -> RotationReason | None:
        if self.record_count <= 0:
            return None
        st = self._state
        policy = self._policy
        base = st.base_record_timestamp
        if policy.rotate_interval_ms > 0 and timestamp is not None and base is not None:
            if timestamp - base >= policy.rotate_interval_ms:
                return RotationReason.ROTATE_INTERVAL
            if (
                policy.rotate_on_partition_change
                and encoded_partition != st.current_encoded_partition
            ):
                return RotationReason.PARTITION_CHANGE
        if self._scheduled_rotation_due(now):
            return RotationReason.SCHEDULED
        return None

    def _scheduled_rotation_due(self, now: int) -> bool:
        nxt = self._state.next_scheduled_rotation_ms
        return self._zone is not None and nxt is not None and now >= nxt

    def _set_next_scheduled_rotation(self, now: int) -> None:
        if self._zone is not None:
            self._state.next_scheduled_rotation_ms = _next_time(
                now, self._policy.rotate_schedule_interval_ms, self._zone
            )

    def _reset_expired_schedule(self, now: int) -> None:
        # Confluent sets the first boundary when the writer is created and moves an expired one
        # at the start of each write() while nothing is open; lazily doing both here is equivalent.
        if self._zone is None:
            return
        if self._state.next_scheduled_rotation_ms is None or (
            self.record_count == 0 and self._scheduled_rotation_due(now)
        ):
            self._set_next_scheduled_rotation(now)

    def _append(
        self,
        offset: int,
        encoded_partition: str,
        open_file: OpenFile | None,
        schema_key: SchemaKey,
    ) -> None:
        st = self._state
        if open_file is None:
            st.open_files.append(OpenFile(encoded_partition, offset, offset, 1, schema_key))
        else:
            open_file.end_offset = offset
            open_file.record_count += 1
        st.current_encoded_partition = encoded_partition
        st.current_offset = offset

    def _commit(self, reason: RotationReason, *, before_record: bool) -> Commit:
        st = self._state
        files = tuple(_info(f) for f in st.open_files)
        st.open_files = []
        st.base_record_timestamp = None
        return Commit(files, reason, before_record, st.current_offset + 1)


def next_time_adjusted_by_day(now_ms: int, period_ms: int, timezone_id: str) -> int:
    """Return the next multiple of ``period_ms`` after ``now_ms``, counted from local midnight.

    Confluent's ``DateTimeUtils.getNextTimeAdjustedByDay``: periods restart at each midnight
    of ``timezone_id``, and the next midnight is returned when it comes first.
    """
    return _next_time(now_ms, period_ms, _zone(timezone_id))


def _next_time(now_ms: int, period_ms: int, zone: tzinfo) -> int:
    local_ms = now_ms + _offset_ms(now_ms, zone)
    start_of_day = _local_to_utc(_jdiv(local_ms, _DAY_MS) * _DAY_MS, zone)
    next_period_offset = (_jdiv(now_ms - start_of_day, period_ms) + 1) * period_ms
    return start_of_day + min(next_period_offset, _DAY_MS)


def _offset_ms(instant_ms: int, zone: tzinfo) -> int:
    offset = (_EPOCH + instant_ms * _ONE_MS).astimezone(zone).utcoffset()
    return 0 if offset is None else offset // _ONE_MS


def _local_to_utc(local_ms: int, zone: tzinfo) -> int:
    # fold=0: the earlier instant in an overlap; in a gap (where Joda's strict conversion
    # throws) the pre-transition offset, i.e. the instant the clock jumps.
    naive = datetime(1970, 1, 1) + local_ms * _ONE_MS
    return (naive.replace(tzinfo=zone) - _EPOCH) // _ONE_MS


def _jdiv(a: int, b: int) -> int:
    """Java long division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _zone(timezone_id: str | None) -> tzinfo:
    if not timezone_id:
        raise ConfigError("timezone must not be empty")
    match = _OFFSET_ID.match(timezone_id)
    if match:
        sign = -1 if match.group(1) == "-" else 1
        minutes = int(match.group(2)) * 60 + int(match.group(3))
        return timezone(sign * timedelta(minutes=minutes))
    try:
        return ZoneInfo(timezone_id)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(f"timezone {timezone_id!r} is not a known time zone id") from exc


def _info(f: OpenFile) -> FileInfo:
    return FileInfo(f.encoded_partition, f.start_offset, f.end_offset, f.record_count)


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)
