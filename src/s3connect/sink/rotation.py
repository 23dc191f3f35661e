"""File rotation decisions of Confluent's S3 sink ``TopicPartitionWriter``, as a pure state machine.

One :class:`Rotator` stands for one Kafka topic-partition. It never touches records or storage:
the caller offers each record's offset, encoded partition, timestamp and value schema (its key and
the schema), and gets back the groups of files to commit (projecting a record it keeps in a file
of another schema is the caller's, through a callback). The I/O layer keeps the records per
encoded partition and cuts its files on these decisions. The state (:class:`RotatorState`) is
plain, JSON-compatible data so a streaming query can persist it and resume exactly after a
restart.

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
  those, when its value schema calls for a new file (below); or, last, when it would open a new
  file while ``partitioner.max.open.files`` files are open. None of these fire while no record
  is open.
* Confluent's partition-change check needs only ``rotate.interval.ms > 0`` and a timestamp
  extractor (not a timestamp): here ``timestamp=None`` stands for "no extractor", and the
  extractors never return null (a record without a usable timestamp is a ``PartitionError``).
* Schema changes (Confluent's ``StorageSchemaCompatibility.shouldChangeSchema``, current
  kafka-connect-storage-common, against the schema of the open file of the record's encoded
  partition, i.e. of that file's first record): ``schema.compatibility=NONE`` rotates on any
  different schema. BACKWARD and FULL rotate when the record's schema differs in type (beyond
  numeric widening), name or parameters (at every level, on the struct fields both have) or has a
  *newer* version; FORWARD likewise but on an *older* version. Otherwise the record stays in the
  file and is projected onto the file's schema (:mod:`s3connect.connect.projection`). A different
  schema without a version fails (``SchemaProjectionError``) in those three modes.
* Beyond Confluent (which fails there with "Switch between schema-based and schema-less data is
  not supported"), a switch between schemaless and schema'd values rotates, in every mode.
* A time rotation (periodic or scheduled) moves the next scheduled rotation to the next boundary
  after ``now``, aligned to midnight in ``timezone``; with no open record an expired boundary is
  moved the same way before the next record is handled.
* After each batch, Confluent commits on time even with no new record: :meth:`Rotator.on_timer`.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np

from s3connect.connect.json_data import parse_json_schema, schema_to_json
from s3connect.connect.projection import describe, is_promotable, parameters_differ
from s3connect.connect.schema import ConnectSchema, Type
from s3connect.errors import ConfigError, SchemaProjectionError
from s3connect.util.javamath import java_div

__all__ = [
    "Commit",
    "FileInfo",
    "OpenFile",
    "RotationPolicy",
    "RotationReason",
    "Rotator",
    "RotatorState",
    "SchemaCompatibility",
    "SchemaIncompatibility",
    "SchemaKey",
    "next_time_adjusted_by_day",
    "schema_incompatibility",
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
    MAX_OPEN_FILES = "max_open_files"
    """``partitioner.max.open.files``: a record would open one file more than allowed."""


class SchemaCompatibility(StrEnum):
    """``schema.compatibility``: when a record's value schema rotates the files."""

    NONE = "NONE"
    BACKWARD = "BACKWARD"
    FORWARD = "FORWARD"
    FULL = "FULL"


class SchemaIncompatibility(StrEnum):
    """Why a schema change rotates (Confluent's ``SchemaIncompatibilityType``, plus ours)."""

    DIFFERENT_SCHEMA = "different_schema"
    DIFFERENT_TYPE = "different_type"
    DIFFERENT_NAME = "different_name"
    DIFFERENT_PARAMS = "different_params"
    DIFFERENT_VERSION = "different_version"
    INCOMPATIBLE_OPTIONALITY = "incompatible_optionality"
    MISSING_REQUIRED_FIELD = "missing_required_field"
    SCHEMALESS_SWITCH = "schemaless_switch"


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
        schema_compatibility: ``schema.compatibility`` (a :class:`SchemaCompatibility` or its
            name).
        max_open_files: ``partitioner.max.open.files``: -1 (no limit) or N >= 1: a record that
            would open a new file while exactly N are open first commits them all.
        tombstone_partition: ``tombstone.encoded.partition`` when tombstones are written
            (``behavior.on.null.values=write``), else None: a change of encoded partition to or
            from one containing it does not rotate (Confluent's
            ``shouldRotateOnPartitionChangeWithTombstoneCheck``).
    """

    flush_size: int
    rotate_interval_ms: int = -1
    rotate_schedule_interval_ms: int = -1
    rotate_on_partition_change: bool = True
    timezone: str | None = None
    schema_compatibility: SchemaCompatibility = SchemaCompatibility.NONE
    max_open_files: int = -1
    tombstone_partition: str | None = None

    def __post_init__(self) -> None:
        try:
            compat = SchemaCompatibility(self.schema_compatibility)
        except ValueError:
            raise ConfigError(
                "schema_compatibility must be one of NONE, BACKWARD, FORWARD, FULL, got "
                f"{self.schema_compatibility!r}"
            ) from None
        object.__setattr__(self, "schema_compatibility", compat)
        for name in (
            "flush_size",
            "rotate_interval_ms",
            "rotate_schedule_interval_ms",
            "max_open_files",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{name} must be an integer, got {value!r}")
        if self.flush_size < 1:
            raise ConfigError(f"flush.size must be at least 1, got {self.flush_size}")
        if self.max_open_files != -1 and self.max_open_files < 1:
            raise ConfigError(
                "partitioner.max.open.files must be -1 (no limit) or at least 1, got "
                f"{self.max_open_files}"
            )
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
    """A file being written: first and last offset, record count and its value schema.

    ``schema_key`` identifies the value schema of the file (of its first record; None when
    schemaless). ``schema`` is that schema as JSON (JsonConverter's envelope form), kept only with
    ``schema.compatibility`` other than NONE, whose decisions look inside it.
    """

    encoded_partition: str
    start_offset: int
    end_offset: int
    record_count: int
    schema_key: SchemaKey = None
    schema: dict[str, Any] | None = None


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
        failed_schemas: Confluent's ``currentSchemas`` entries that no open file tells: encoded
            partition -> [schema key, kept JSON] of a record that failed as it was written
            (after the rotation rules), where Confluent keeps its schema until the next commit.
    """

    open_files: list[OpenFile] = field(default_factory=list)
    current_offset: int = -1
    current_encoded_partition: str | None = None
    current_timestamp: int | None = None
    base_record_timestamp: int | None = None
    next_scheduled_rotation_ms: int | None = None
    failed_schemas: dict[str, list[Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Return the state as a JSON-compatible dict."""
        out = {
            "open_files": [_open_file_dict(f) for f in self.open_files],
            "current_offset": self.current_offset,
            "current_encoded_partition": self.current_encoded_partition,
            "current_timestamp": self.current_timestamp,
            "base_record_timestamp": self.base_record_timestamp,
            "next_scheduled_rotation_ms": self.next_scheduled_rotation_ms,
        }
        if self.failed_schemas:  # rare: left out, the state is as before it existed
            out["failed_schemas"] = self.failed_schemas
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RotatorState:
        """Rebuild a state from :meth:`to_dict` output (of this or an earlier version)."""
        return cls(
            open_files=[
                OpenFile(
                    encoded_partition=str(f["encoded_partition"]),
                    start_offset=int(f["start_offset"]),
                    end_offset=int(f["end_offset"]),
                    record_count=int(f["record_count"]),
                    schema_key=f.get("schema_key"),
                    schema=f.get("schema"),
                )
                for f in data.get("open_files", [])
            ],
            current_offset=int(data.get("current_offset", -1)),
            current_encoded_partition=data.get("current_encoded_partition"),
            current_timestamp=_opt_int(data.get("current_timestamp")),
            base_record_timestamp=_opt_int(data.get("base_record_timestamp")),
            next_scheduled_rotation_ms=_opt_int(data.get("next_scheduled_rotation_ms")),
            failed_schemas={
                str(k): [v[0], v[1]] for k, v in (data.get("failed_schemas") or {}).items()
            },
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
        self._versioned = policy.schema_compatibility is not SchemaCompatibility.NONE
        # Neither rotate.interval.ms nor a schedule: only flush.size and schema changes rotate.
        self._count_only = self._zone is None and policy.rotate_interval_ms <= 0
        # Schemas of open files by key: the offered objects, or parsed from a restored state.
        self._schemas: dict[SchemaKey, ConnectSchema] = {}
        self._schema_json: dict[SchemaKey, dict[str, Any] | None] = {}

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
        files = self._state.open_files
        # One open file is the common case (checked twice per record): skip the generator.
        return files[0].record_count if len(files) == 1 else sum(f.record_count for f in files)

    def offer(
        self,
        offset: int,
        encoded_partition: str,
        *,
        timestamp: int | None = None,
        schema_key: SchemaKey = None,
        schema: ConnectSchema | None = None,
        now_ms: int | None = None,
        project: Callable[[ConnectSchema], object] | None = None,
        accept: Callable[[], bool] | None = None,
    ) -> list[Commit]:
        """Handle one record and return the commits it causes, in order.

        Args:
            offset: The record's Kafka offset.
            encoded_partition: The partitioner's encoded partition for the record.
            timestamp: The timestamp extractor's value; None when the partitioner has none.
            schema_key: Identity of the record's value schema; None for schemaless data.
            schema: The record's value schema, looked into by BACKWARD, FORWARD and FULL; without
                it a different ``schema_key`` rotates (as NONE).
            now_ms: Wall-clock time; required when a schedule is configured.
            project: Called with the current schema of the encoded partition just before the
                record is appended when the record's schema differs from it (BACKWARD, FORWARD,
                FULL): the caller projects the record onto it. Whatever it raises propagates
                with no commit made and the record not appended.
            accept: Called after every rotation rule, just before the record is appended
                (Confluent's ``writeRecord``); False: the record failed there, and is not
                appended, but its timestamp and schema stay as Confluent's writer keeps them.

        Raises:
            SchemaProjectionError: BACKWARD, FORWARD or FULL and the record's schema or the open
                file's has no version (the record is not appended; as with ``project`` errors,
                the state is left as Confluent leaves it, so the caller may skip the record).
        """
        st = self._state
        if self._count_only and len(st.open_files) == 1 and not st.failed_schemas:
            joined = self._join_open_file(offset, encoded_partition, timestamp, schema_key, accept)
            if joined is not None:
                return joined
        now = self._now(now_ms)
        self._reset_expired_schedule(now)
        commits: list[Commit] = []
        while True:
            self._note_timestamp(timestamp)
            open_file = self._find(encoded_partition)
            known, current = self._current_schema(encoded_partition, open_file)
            if known and (current[0] is None) != (schema_key is None):
                # Confluent's shouldRotateForNullSchema: checked first, the schedule not moved
                commits.append(self._commit(RotationReason.SCHEMA_CHANGE, before_record=True))
                continue
            reason = self._rotate_on_time(encoded_partition, timestamp, now)
            if reason is not None:
                self._set_next_scheduled_rotation(now)
                commits.append(self._commit(reason, before_record=True))
                continue
            if current[0] is None:  # Confluent puts the record's schema for its partition
                current = (schema_key, self._schema_state(schema_key, schema))
            differs = current[0] != schema_key
            change = self._schema_change(offset, schema_key, schema, current) if differs else None
            if change is not None and self.record_count > 0:  # as Confluent: recordCount > 0
                commits.append(self._commit(RotationReason.SCHEMA_CHANGE, before_record=True))
                continue
            if open_file is None and len(st.open_files) == self._policy.max_open_files:
                # Confluent's rotateOnPartitionerMaxOpenFiles: "==", checked after the others.
                commits.append(self._commit(RotationReason.MAX_OPEN_FILES, before_record=True))
                continue
            target = self._schema_of(*current) if differs and self._versioned else None
            if project is not None and target is not None:
                project(target)  # NONE's project() leaves the record as it is
            appended = accept is None or accept()
            if appended:
                kept = current if target is not None else None
                self._append(offset, encoded_partition, open_file, schema_key, schema, kept)
            if not appended or st.failed_schemas:
                self._keep_current_schema(encoded_partition, current)
            if appended and self.record_count >= self._policy.flush_size:
                commits.append(self._commit(RotationReason.FLUSH_SIZE, before_record=False))
            return commits

    def note_timestamp(self, timestamp: int | None) -> None:
        """A record's timestamp, extracted before it failed to be partitioned: Confluent's
        writer keeps it as the current one (and as the base of rotate.interval.ms when no file
        has a base yet)."""
        self._note_timestamp(timestamp)

    def _note_timestamp(self, timestamp: int | None) -> None:
        if timestamp is not None:
            st = self._state
            st.current_timestamp = timestamp
            if st.base_record_timestamp is None:
                st.base_record_timestamp = timestamp

    def _current_schema(
        self, encoded_partition: str, open_file: OpenFile | None
    ) -> tuple[bool, tuple[SchemaKey, Any]]:
        """Confluent's ``currentSchemas`` entry of an encoded partition: whether it has one, and
        its (schema key, kept JSON). Its open file's schema, unless a record that failed after
        the rotation rules left another (:attr:`RotatorState.failed_schemas`)."""
        failed = self._state.failed_schemas.get(encoded_partition)
        if failed is not None:
            return True, (failed[0], failed[1])
        if open_file is not None:
            return True, (open_file.schema_key, open_file.schema)
        return False, (None, None)

    def _keep_current_schema(self, encoded_partition: str, current: tuple[SchemaKey, Any]) -> None:
        """After a record: remember the partition's current schema where its open file (if any)
        does not tell it."""
        st = self._state
        open_file = self._find(encoded_partition)
        if open_file is not None and open_file.schema_key == current[0]:
            st.failed_schemas.pop(encoded_partition, None)
        else:
            st.failed_schemas[encoded_partition] = [current[0], current[1]]

    def _join_open_file(
        self,
        offset: int,
        encoded_partition: str,
        timestamp: int | None,
        schema_key: SchemaKey,
        accept: Callable[[], bool] | None,
    ) -> list[Commit] | None:
        """The common case of :meth:`offer`, short: the record joins the one open file (same
        partition and schema; None: it does not), as the full checks would decide."""
        st = self._state
        f = st.open_files[0]
        if f.encoded_partition != encoded_partition or f.schema_key != schema_key:
            return None
        self._note_timestamp(timestamp)
        if accept is not None and not accept():
            return []
        f.end_offset = offset
        f.record_count += 1
        st.current_encoded_partition = encoded_partition
        st.current_offset = offset
        if f.record_count >= self._policy.flush_size:
            return [self._commit(RotationReason.FLUSH_SIZE, before_record=False)]
        return []

    def joining(
        self,
        schema_key: SchemaKey,
        files: Any,
        partitions: Sequence[str | None],
        timestamps: Any,
        now_ms: int,
    ) -> int:
        """How many records :meth:`extend` may add, from the first of ``files`` (each record's
        index into the encoded ``partitions``; ``timestamps``: the extractor's, None without
        one; NumPy arrays): those that join open files of this schema before any rule but
        flush.size rotates; 0 when the first must be offered (it opens a file or rotates)."""
        st, policy = self._state, self._policy
        if not st.open_files or st.failed_schemas or self._scheduled_rotation_pending(now_ms):
            return 0
        limit = min(policy.flush_size - self.record_count, len(files))
        if limit <= 0:
            return 0
        joinable = {f.encoded_partition for f in st.open_files if f.schema_key == schema_key}
        is_open = np.array([p in joinable for p in partitions], bool)
        size = 64  # looked at in growing windows: a record that stops the run is usually near
        while True:
            end = min(size, limit)
            stops = ~is_open[files[:end]]
            if policy.rotate_interval_ms > 0 and timestamps is not None:
                stops |= self._rotates_on_time(files[:end], partitions, timestamps[:end])
            found = np.flatnonzero(stops)
            if len(found):
                return int(found[0])
            if end >= limit:
                return limit
            size *= 4

    def _scheduled_rotation_pending(self, now_ms: int) -> bool:
        """Whether a schedule could rotate before the next record (or is not set yet)."""
        if self._zone is None:
            return False
        nxt = self._state.next_scheduled_rotation_ms
        return nxt is None or now_ms >= nxt

    def _rotates_on_time(
        self, files: Any, partitions: Sequence[str | None], timestamps: Any
    ) -> Any:
        """Per record, whether rotate.interval.ms would rotate before it (its time from the
        base, or its encoded partition not the one before it: ``_rotate_on_time``)."""
        st, policy = self._state, self._policy
        base = st.base_record_timestamp
        if base is None:
            stops = np.zeros(len(files), bool)
        else:
            stops = timestamps - base >= policy.rotate_interval_ms
        if policy.rotate_on_partition_change:
            current = st.current_encoded_partition
            before = partitions.index(current) if current in partitions else -1
            changed = files != np.concatenate(([before], files[:-1]))
            tomb = policy.tombstone_partition
            if tomb is not None and current is not None:  # tombstone transitions do not rotate
                is_tomb = np.array([p is not None and tomb in p for p in partitions], bool)
                after = is_tomb[files]
                changed &= ~(after | np.concatenate(([tomb in current], after[:-1])))
            stops |= changed
        return stops

    def extend(
        self,
        files: Sequence[tuple[str, int, int]],
        last_offset: int,
        timestamps: tuple[int, int] | None = None,
    ) -> list[Commit]:
        """Offer records that all join open files, at most :meth:`joining` of them: per file its
        encoded partition, how many records and the last one's offset; the last record's offset;
        the first and last record's timestamps (None without an extractor). The same state and
        commits as offering each record in offset order."""
        st = self._state
        by_partition = {f.encoded_partition: f for f in st.open_files}
        for encoded, count, end in files:
            f = by_partition[encoded]
            f.end_offset = end
            f.record_count += count
            if end == last_offset:
                st.current_encoded_partition = encoded
        if timestamps is not None:
            if st.base_record_timestamp is None:
                st.base_record_timestamp = timestamps[0]
            st.current_timestamp = timestamps[1]
        st.current_offset = last_offset
        if self.record_count >= self._policy.flush_size:
            return [self._commit(RotationReason.FLUSH_SIZE, before_record=False)]
        return []

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

    def _schema_change(
        self,
        offset: int,
        schema_key: SchemaKey,
        schema: ConnectSchema | None,
        current_schema: tuple[SchemaKey, Any],
    ) -> SchemaIncompatibility | None:
        """Whether a record's value schema needs a new file rather than the current schema of
        its encoded partition (schema key, kept JSON: :meth:`_current_schema`).

        Confluent's ``StorageSchemaCompatibility.shouldChangeSchema`` (``validateAndCheck``,
        ``check``, ``checkVersions``), except that a switch between schemaless and schema'd
        data rotates instead of failing.

        Raises:
            SchemaProjectionError: BACKWARD, FORWARD or FULL, a different schema, and a version
                missing on either side (Confluent: "Schema version required for ...").
        """
        if schema_key == current_schema[0]:  # Confluent: currentSchema == valueSchema
            return None
        if schema_key is None or current_schema[0] is None:
            return SchemaIncompatibility.SCHEMALESS_SWITCH
        mode = self._policy.schema_compatibility
        if mode is SchemaCompatibility.NONE:
            return SchemaIncompatibility.DIFFERENT_SCHEMA
        current = self._schema_of(*current_schema)
        if schema is None or current is None:
            # Nothing to look into (a caller without schemas, or a file opened under NONE by an
            # earlier run): a new file is always safe.
            return SchemaIncompatibility.DIFFERENT_SCHEMA
        if schema.version is None or current.version is None:
            raise SchemaProjectionError(
                f"Schema version required for {mode} compatibility: the record's value schema "
                f"{describe(schema)} differs from the open file's schema {describe(current)}, "
                f"and schema.compatibility={mode} needs a version on both",
                topic=self._topic,
                partition=self._partition,
                offset=offset,
            )
        return schema_incompatibility(mode, schema, current)

    def _schema_of(self, key: SchemaKey, kept: dict[str, Any] | None) -> ConnectSchema | None:
        """A value schema by key and kept JSON (None when unknown: schemaless or not kept)."""
        found = self._schemas.get(key)
        if found is None and kept is not None:
            found = parse_json_schema(kept)
            if found is not None:
                self._schemas[key] = found
        return found

    def _schema_state(self, schema_key: SchemaKey, schema: ConnectSchema | None) -> Any:
        """What a new file keeps of its schema: its JSON, with BACKWARD/FORWARD/FULL only."""
        if not self._versioned or schema_key is None or schema is None:
            return None
        if schema_key not in self._schema_json:
            self._schemas[schema_key] = schema
            self._schema_json[schema_key] = schema_to_json(schema)
        return self._schema_json[schema_key]

    def _rotate_on_time(
        self, encoded_partition: str, timestamp: int | None, now: int
    ) -> RotationReason | None:
        if self.record_count <= 0:
            return None
        st = self._state
        policy = self._policy
        # Confluent's rotateOnTime: rotate.interval.ms > 0 and a timestamp extractor (timestamp
        # None: none); the interval needs a base too, the partition change does not.
        if policy.rotate_interval_ms > 0 and timestamp is not None:
            base = st.base_record_timestamp
            if base is not None and timestamp - base >= policy.rotate_interval_ms:
                return RotationReason.ROTATE_INTERVAL
            if (
                policy.rotate_on_partition_change
                and encoded_partition != st.current_encoded_partition
                and not self._tombstone_transition(encoded_partition)
            ):
                return RotationReason.PARTITION_CHANGE
        if self._scheduled_rotation_due(now):
            return RotationReason.SCHEDULED
        return None

    def _tombstone_transition(self, encoded_partition: str) -> bool:
        """A change to or from the tombstone partition (Confluent compares with ``contains``)."""
        tomb, current = self._policy.tombstone_partition, self._state.current_encoded_partition
        if tomb is None or current is None:
            return False
        return tomb in encoded_partition or tomb in current

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
        schema: ConnectSchema | None,
        projected: tuple[SchemaKey, Any] | None = None,
    ) -> None:
        """Append the record; a new file's schema is that of the record, or ``projected`` (key,
        kept JSON) when the record was projected onto that schema."""
        st = self._state
        if open_file is None:
            key, kept = projected or (schema_key, self._schema_state(schema_key, schema))
            st.open_files.append(OpenFile(encoded_partition, offset, offset, 1, key, kept))
        else:
            open_file.end_offset = offset
            open_file.record_count += 1
        st.current_encoded_partition = encoded_partition
        st.current_offset = offset

    def _commit(self, reason: RotationReason, *, before_record: bool) -> Commit:
        st = self._state
        files = tuple(_info(f) for f in st.open_files)
        st.open_files = []
        st.failed_schemas = {}
        st.base_record_timestamp = None
        return Commit(files, reason, before_record, st.current_offset + 1)


def next_time_adjusted_by_day(now_ms: int, period_ms: int, timezone_id: str) -> int:
    """Return the next multiple of ``period_ms`` after ``now_ms``, counted from local midnight.

    Confluent's ``DateTimeUtils.getNextTimeAdjustedByDay``: periods restart at each midnight
    of ``timezone_id``, and the next midnight is returned when it comes first.
    """
    return _next_time(now_ms, period_ms, _zone(timezone_id))


def _next_time(now_ms: int, period_ms: int, zone: tzinfo) -> int:
    local_day = java_div(now_ms + _offset_ms(now_ms, zone), _DAY_MS)
    start_of_day = _local_to_utc(local_day * _DAY_MS, zone)
    day_ms = _local_to_utc((local_day + 1) * _DAY_MS, zone) - start_of_day  # 23 to 25 h
    next_period_offset = (java_div(now_ms - start_of_day, period_ms) + 1) * period_ms
    return start_of_day + min(next_period_offset, day_ms)


def _offset_ms(instant_ms: int, zone: tzinfo) -> int:
    offset = (_EPOCH + instant_ms * _ONE_MS).astimezone(zone).utcoffset()
    return 0 if offset is None else offset // _ONE_MS


def _local_to_utc(local_ms: int, zone: tzinfo) -> int:
    # fold=0: the earlier instant in an overlap; in a gap (where Joda's strict conversion
    # throws) the pre-transition offset, i.e. the instant the clock jumps.
    naive = datetime(1970, 1, 1) + local_ms * _ONE_MS
    return (naive.replace(tzinfo=zone) - _EPOCH) // _ONE_MS


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


def schema_incompatibility(
    mode: SchemaCompatibility, schema: ConnectSchema, current: ConnectSchema
) -> SchemaIncompatibility | None:
    """Why a record of value ``schema`` needs a new file rather than one of schema ``current``
    (None: it joins the file, projected onto ``current``): Confluent's
    ``StorageSchemaCompatibility.check``. NONE: any difference (``Schema.equals``); BACKWARD,
    FORWARD and FULL: structure first (:func:`_incompatibility`), then versions.

    Raises:
        ValueError: BACKWARD, FORWARD or FULL and a version missing on either side (the rotator
            checks it first, with the record's coordinates).
    """
    if schema is current:  # validateAndCheck: the same schema object
        return None
    if mode is SchemaCompatibility.NONE:
        return None if schema == current else SchemaIncompatibility.DIFFERENT_SCHEMA
    if schema.version is None or current.version is None:
        raise ValueError(f"Schema version required for {mode} compatibility")
    structural = _incompatibility(schema, current)
    if structural is not None:
        return structural
    newer = schema.version > current.version
    older = schema.version < current.version
    if older if mode is SchemaCompatibility.FORWARD else newer:
        return SchemaIncompatibility.DIFFERENT_VERSION
    return None


def _incompatibility(schema: ConnectSchema, current: ConnectSchema) -> SchemaIncompatibility | None:
    """``checkSchemaCompatibility`` of the record's ``schema`` with the file's ``current``: type
    (beyond widening), name or parameters differ, or an optional schema meets a required one
    without a default, at this level or, recursively, in array elements, map keys and values and
    struct fields (:func:`_struct_incompatibility`)."""
    if schema.type is not current.type and not is_promotable(schema.type, current.type):
        return SchemaIncompatibility.DIFFERENT_TYPE
    if schema.name != current.name:
        return SchemaIncompatibility.DIFFERENT_NAME
    if parameters_differ(schema, current):
        return SchemaIncompatibility.DIFFERENT_PARAMS
    if schema.optional and not current.optional and current.default is None:
        return SchemaIncompatibility.INCOMPATIBLE_OPTIONALITY
    if schema.type is Type.STRUCT:
        return _struct_incompatibility(schema, current)
    pairs: list[tuple[ConnectSchema | None, ConnectSchema | None]] = []
    if schema.type is Type.ARRAY:
        pairs = [(schema.value_schema, current.value_schema)]
    elif schema.type is Type.MAP:
        pairs = [
            (schema.key_schema, current.key_schema),
            (schema.value_schema, current.value_schema),
        ]
    for inner, inner_current in pairs:
        assert inner is not None and inner_current is not None
        found = _incompatibility(inner, inner_current)
        if found is not None:
            return found
    return None


def _struct_incompatibility(
    schema: ConnectSchema, current: ConnectSchema
) -> SchemaIncompatibility | None:
    """``checkStructFieldsCompatibility``: the fields both structs have, then a required field
    without a default that only the file's struct has (a field only the record's has is left to
    the projection's rules)."""
    for f in schema.fields:
        cf = current.field(f.name)
        if cf is not None and (found := _incompatibility(f.schema, cf.schema)) is not None:
            return found
    for cf in current.fields:
        if schema.field(cf.name) is None and not cf.schema.optional and cf.schema.default is None:
            return SchemaIncompatibility.MISSING_REQUIRED_FIELD
    return None


def _open_file_dict(f: OpenFile) -> dict[str, Any]:
    out: dict[str, Any] = {
        "encoded_partition": f.encoded_partition,
        "start_offset": f.start_offset,
        "end_offset": f.end_offset,
        "record_count": f.record_count,
        "schema_key": f.schema_key,
    }
    if f.schema is not None:
        out["schema"] = f.schema
    return out


def _info(f: OpenFile) -> FileInfo:
    return FileInfo(f.encoded_partition, f.start_offset, f.end_offset, f.record_count)


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)
