"""The per topic-partition writer: Confluent's ``TopicPartitionWriter`` I/O around the rotator.

It converts each raw Kafka record, asks the partitioner for its encoded partition, lets the
:class:`~s3connect.sink.rotation.Rotator` decide rotation, keeps the records of open files, and
writes each committed file through the format to storage. It has no Spark in it: the streaming layer
feeds it records in offset order and persists :meth:`TopicPartitionWriter.snapshot` (rotator
state plus the records of still-open files) in checkpointed state, so open files survive restarts.

Keys and headers (``store.kafka.keys`` / ``store.kafka.headers``) are written as Confluent's
``KeyValueHeaderRecordWriterProvider`` writes them: for each committed file, the value file
``<name><ext>`` then ``<name>.keys<keys ext>`` and ``<name>.headers<headers ext>``, same start
offset, same records, so they rotate together. Each object is atomic (multipart upload completed
on close); a failure on any of them fails the batch, and a replay rewrites identical objects.
With ``behavior.on.null.values=write`` a tombstone goes to the encoded partition
``tombstone.encoded.partition`` (Confluent's ``TombstoneSupportedPartitioner``), whose files hold
no value file: only keys (and headers). A record without a key (keys stored) or without headers
(headers stored) fails, as in Confluent ("Key cannot be null", "Headers cannot be null"), and so
does a value that Confluent's AvroData refuses into Avro or Parquet (:mod:`.data_checks`).
With ``behavior.on.null.values=ignore`` a tombstone is in no file and not counted; with
``report.null.values.to.dlq`` and an error reporter it is also reported, as Kafka Connect's
``ErrantRecordReporter`` reports it for Confluent's ``S3SinkTask``: a dead letter (stage
``TASK_PUT``, class ``org.apache.kafka.connect.sink.SinkTask``, "Skipping null value record."),
and, with ``errors.tolerance=none``, then a failure ("Tolerance exceeded in error handler").
Under ``errors.tolerance=none`` any record Kafka Connect's reporters would see (a DLQ topic,
``errors.log.enable`` or ``dlq.table`` set) is reported before the batch fails: the writer stops
there and hands it on as :attr:`TopicPartitionWriter.failure`.

The commit log gets one row per written file: its value object, or its keys object in the
tombstone partition. The companion objects' names follow from it (``.keys`` / ``.headers``
inserted before the extension) and are not logged separately, so record counts add up.
"""

from __future__ import annotations

import io
import itertools
import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, BinaryIO, Literal

import numpy as np
import pyarrow as pa

from s3connect.connect.projection import project_record
from s3connect.connect.records import RawRecord, SinkRecord
from s3connect.connect.schema import ConnectSchema
from s3connect.convert.avro_anything import anything_datum
from s3connect.errors import SINK_TASK_CLASS, RecordError
from s3connect.formats.avro import AvroFormat, sync_marker
from s3connect.formats.base import Format, LineFormat
from s3connect.formats.bytearray import ByteArrayFormat, bytearray_problem
from s3connect.formats.json import JsonFormat
from s3connect.formats.parquet import ParquetFormat
from s3connect.formats.views import ViewFormat, header_texts
from s3connect.sink.data_checks import AvroDataChecks
from s3connect.sink.dead_letters import DeadLetter
from s3connect.sink.lines import BatchLines, LinePlan, LineRun, joined_lines
from s3connect.sink.rotation import Commit, RotationPolicy, Rotator, RotatorState, SchemaKey
from s3connect.sink.rows import batch_records
from s3connect.storage.base import Storage

__all__ = [
    "CommittedObject",
    "Entry",
    "PendingRecord",
    "TopicPartitionWriter",
    "WriterContext",
]

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class PendingRecord:
    """A record of a still-open file: its raw form, encoded partition and (cached) conversion."""

    raw: RawRecord
    encoded_partition: str
    converted: SinkRecord | None = None

    @property
    def first_offset(self) -> int:
        return self.raw.offset

    last_offset = first_offset

    def __len__(self) -> int:
        return 1


Entry = PendingRecord | LineRun
"""What an open file holds: single records, or runs of records already written as lines."""


@dataclass(frozen=True, slots=True)
class WriterContext:
    """Everything a writer needs, built once per task from the connector config.

    Attributes:
        convert: Raw record -> converted and transformed record, or None when a transform
            dropped it (raises ConversionError, TransformationError).
        encode_partition: (record, now_ms) -> encoded partition (raises PartitionError).
        extract_timestamp: (record, now_ms) -> timestamp for rotate.interval.ms, or None when the
            partitioner has no timestamp extractor (Confluent ignores rotate.interval.ms then).
        schema_key: Identity of a record's value schema (None when schemaless).
        format: The file format.
        object_key: (topic, encoded_partition, kafka_partition, start_offset, extension) -> key.
        storage: Where files go.
        policy: Rotation settings.
        null_values: ``behavior.on.null.values``.
        report_ignored_nulls: ``report.null.values.to.dlq`` and an error reporter (a DLQ topic,
            ``errors.log.enable`` or ``dlq.table``): with ``null_values=ignore`` each skipped
            null value is reported (a dead letter, or a failure without ``tolerate_errors``).
        keys_format: Writes the keys file (``store.kafka.keys``), or None.
        headers_format: Writes the headers file (``store.kafka.headers``), or None.
        tombstone_partition: ``tombstone.encoded.partition`` (used with ``null_values=write``).
        value_needs_schema: The format writes schema'd values only (Parquet): a schemaless
            record fails on its own, before it joins a file.
        tolerate_errors: ``errors.tolerance=all``: a record that fails becomes a dead letter
            (:attr:`TopicPartitionWriter.dead_letters`) instead of failing the batch.
        task_errors_reported: There is a reporter of errant records (a DLQ topic,
            ``errors.log.enable`` or ``dlq.table``): only then does a failure of the sink
            task itself (stage ``TASK_PUT``) become a dead letter under ``tolerate_errors``.
        lines: The line path (:mod:`s3connect.sink.lines`), None when records go one by one.
    """

    convert: Callable[[RawRecord], SinkRecord | None]
    encode_partition: Callable[[SinkRecord, int], str]
    extract_timestamp: Callable[[SinkRecord, int], int] | None
    schema_key: Callable[[SinkRecord], SchemaKey]
    format: Format
    object_key: Callable[[str, str, int, int, str], str]
    storage: Storage
    policy: RotationPolicy
    null_values: Literal["fail", "ignore", "write"] = "fail"
    report_ignored_nulls: bool = False
    keys_format: Format | None = None
    headers_format: Format | None = None
    tombstone_partition: str = "tombstone"
    value_needs_schema: bool = False
    tolerate_errors: bool = False
    task_errors_reported: bool = False
    lines: LinePlan | None = None


@dataclass(frozen=True, slots=True)
class CommittedObject:
    """One object written to storage (a row of the commit log)."""

    key: str
    topic: str
    partition: int
    encoded_partition: str
    start_offset: int
    end_offset: int
    record_count: int
    bytes: int


class _CountingWriter(io.RawIOBase):
    def __init__(self, out: BinaryIO) -> None:
        super().__init__()
        self._out = out
        self.count = 0

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        n = len(memoryview(data).cast("B"))
        self._out.write(data)
        self.count += n
        return n


class TopicPartitionWriter:
    """Writes the files of one Kafka topic-partition.

    Args:
        ctx: The writer context.
        topic: The Kafka topic.
        partition: The Kafka partition.
        state: The rotator state saved by a previous :meth:`snapshot`, if any.
        load_pending: Returns the records of open files saved by a previous :meth:`snapshot`;
            called only when a file must be written, so a batch that commits nothing never reads
            them back.
    """

    def __init__(
        self,
        ctx: WriterContext,
        topic: str,
        partition: int,
        state: RotatorState | None = None,
        load_pending: Callable[[], list[Entry]] | None = None,
    ) -> None:
        self._ctx = ctx
        self._topic = topic
        self._partition = partition
        self._rotator = Rotator(ctx.policy, state, topic=topic, partition=partition)
        self._load_pending = load_pending
        self._has_saved = bool(state and state.open_files) and load_pending is not None
        self._open: dict[str, list[Entry]] = {}
        self._new: list[Entry] = []
        keys = ctx.keys_format.inner if isinstance(ctx.keys_format, ViewFormat) else None
        # (format, key view?) of the value and keys files whose formats refuse some values
        self._checked = [
            (fmt, is_key)
            for fmt, is_key in ((ctx.format, False), (keys, True))
            if isinstance(fmt, AvroFormat | ByteArrayFormat)
        ]
        self._avro_data = _data_checks(ctx.format)
        self._rejected: RecordError | None = None
        self._placing: RawRecord | None = None
        self.flushed = False
        self.dead_letters: list[DeadLetter] = []
        """Records that failed with ``errors.tolerance=all``, in offset order."""
        self.failure: DeadLetter | None = None
        """The record that stopped this writer under ``errors.tolerance=none`` with a reporter:
        Kafka Connect reports it (DLQ topic, error log) before failing the task, so the writer
        hands it on and handles nothing more; the caller reports it, then fails the batch."""

    @property
    def rotator(self) -> Rotator:
        """The rotation state machine."""
        return self._rotator

    def write(self, records: Iterable[RawRecord], now_ms: int) -> list[CommittedObject]:
        """Handle records in offset order; returns the objects committed meanwhile."""
        committed: list[CommittedObject] = []
        for raw in records:
            if self.failure is not None:
                break
            self._rejected = None
            try:
                admitted = self._admit(raw, now_ms)
            except RecordError as error:
                self._fail(raw, error)
                continue
            if admitted is None:
                continue
            record, encoded, commits = admitted
            for commit in commits:
                if commit.before_record:
                    committed += self._flush(commit)
            if self._rejected is not None:  # failed as it was written, after the rotations
                self._fail(raw, self._rejected)
                continue
            pending = PendingRecord(raw, encoded, record)
            self._open.setdefault(encoded, []).append(pending)
            self._new.append(pending)
            for commit in commits:
                if not commit.before_record:
                    committed += self._flush(commit)
        return committed

    def _fail(self, raw: RawRecord, error: RecordError) -> None:
        """A record that failed: a dead letter, the writer's :attr:`failure`, or raised."""
        ctx = self._ctx
        if _reported_failure(error, ctx):
            self.failure = DeadLetter.of(raw, error)
            return
        if not _dead_letter_allowed(error, ctx):
            raise (_unreported(error) if ctx.tolerate_errors else _not_tolerated(error)) from None
        # A dead letter never joins a file: it neither counts toward flush.size nor changes
        # the names of the files around it (nothing was committed for it).
        self.dead_letters.append(DeadLetter.of(raw, error))

    def write_run(
        self, rows: pa.RecordBatch, batch: BatchLines, plan: LinePlan, now_ms: int
    ) -> list[CommittedObject]:
        """Handle the Kafka rows ``rows`` (in offset order) whose lines and files ``batch``
        holds (every line there): each stretch of records joining open files goes in whole
        (:meth:`Rotator.joining`, :meth:`Rotator.extend`); a record that opens a file or could
        rotate files by another rule than flush.size goes through :meth:`write`, so every
        rotation rule stays there."""
        schema = batch.schema if batch.schema is not None else plan.schema
        schema_key = self._ctx.schema_key(
            SinkRecord(self._topic, self._partition, 0, None, None, None, None, schema, ())
        )
        offsets = rows.column("offset")
        committed: list[CommittedObject] = []
        i, n = 0, rows.num_rows
        while i < n and self.failure is None:
            stamps = None if batch.timestamps is None else batch.timestamps[i:]
            take = self._rotator.joining(
                schema_key, batch.files[i:], batch.partitions, stamps, now_ms
            )
            if take == 0:
                committed += self.write(
                    batch_records(self._topic, self._partition, rows.slice(i, 1)), now_ms
                )
                i += 1
                continue
            runs = _runs(rows.slice(i, take), batch, i, plan.name)
            for run in runs:
                self._open.setdefault(run.encoded_partition, []).append(run)
                self._new.append(run)
            ends = [(r.encoded_partition, len(r), r.last_offset) for r in runs]
            span = None if stamps is None else (int(stamps[0]), int(stamps[take - 1]))
            for commit in self._rotator.extend(ends, offsets[i + take - 1].as_py(), span):
                committed += self._flush(commit)
            i += take
        return committed

    def _admit(self, raw: RawRecord, now_ms: int) -> tuple[SinkRecord, str, list[Commit]] | None:
        """Place ``raw`` and offer it to the rotator; returns the record (projected onto its
        file's schema), its encoded partition and the commits; None: skip it.

        A record that cannot be written (:meth:`_write_problem`) fails after the rotation rules,
        as in Confluent's ``writeRecord``: the commits stand, and :attr:`_rejected` holds why.

        Raises:
            RecordError: The record cannot be converted, partitioned or projected; the rotator
                rejects it before appending it, as Confluent's ``write()``.
        """
        placed = self._place(raw, now_ms)
        if placed is None:
            return None
        record, encoded, timestamp = placed
        self._placing, self._projecting = raw, record
        commits = self._rotator.offer(
            raw.offset,
            encoded,
            timestamp=timestamp,
            schema_key=self._ctx.schema_key(record),
            schema=record.value_schema,
            now_ms=now_ms,
            project=self._project,
            accept=self._accept,
        )
        return self._projecting, encoded, commits

    def _accept(self) -> bool:
        """The rotator's last step before it appends the record: can it be written?"""
        assert self._placing is not None
        self._rejected = self._write_problem(self._placing, self._projecting)
        return self._rejected is None

    def _project(self, target: ConnectSchema) -> None:
        """The rotator keeps the record in a file of another (compatible) schema: project it
        (schema.compatibility BACKWARD/FORWARD/FULL), failing before it is appended."""
        self._projecting = project_record(self._projecting, target)

    def _place(self, raw: RawRecord, now_ms: int) -> tuple[SinkRecord, str, int | None] | None:
        """Convert ``raw`` and find its encoded partition and timestamp; None: skip it.

        Raises:
            RecordError: The record cannot be converted, partitioned or written.
        """
        ctx = self._ctx
        record = ctx.convert(raw)
        if record is None:  # dropped by a transform (Filter): in no file, not counted
            return None
        tombstone = record.value is None
        if tombstone:
            if ctx.null_values == "ignore":
                if ctx.report_ignored_nulls:
                    raise _skipped_null(raw)
                return None
            if ctx.null_values == "fail":  # S3SinkTask throws it from put(): never reported
                raise RecordError(
                    "null (tombstone) value and behavior.on.null.values=fail; set it to "
                    "'ignore' to skip such records or 'write' to store their keys",
                    topic=raw.topic,
                    partition=raw.partition,
                    offset=raw.offset,
                    reportable=False,
                )
        timestamp = None
        if ctx.extract_timestamp is not None:  # a tombstone's: its Kafka timestamp, as
            # Confluent's TombstoneTimestampExtractor gives; extracted before the partition
            timestamp = record.timestamp if tombstone else ctx.extract_timestamp(record, now_ms)
        try:
            encoded = ctx.tombstone_partition if tombstone else ctx.encode_partition(record, now_ms)
        except RecordError:
            self._rotator.note_timestamp(timestamp)  # Confluent's writer took it already
            raise
        if record.topic != self._topic:  # renamed by a transform: its own files
            encoded = file_key(record.topic, encoded)
        return record, encoded, timestamp

    def _write_problem(self, raw: RawRecord, record: SinkRecord) -> RecordError | None:
        """Why the record cannot be written, or None: KeyValueHeaderRecordWriterProvider's checks,
        then the value format's (AvroData's ``DataException``\\ s for Avro and Parquet), before
        anything is written."""
        ctx = self._ctx
        problem = None
        value, schema = record.value, record.value_schema
        if ctx.keys_format is not None and record.key is None:
            problem = (
                f"Key cannot be null for SinkRecord: {_loggable(record)} (store.kafka.keys=true)"
            )
        elif ctx.headers_format is not None and not record.headers:
            problem = (
                f"Headers cannot be null for SinkRecord: {_loggable(record)} "
                "(store.kafka.headers=true and the record has none)"
            )
        elif ctx.value_needs_schema and value is not None and schema is None:
            problem = (
                f"the {type(ctx.format).__name__} output needs values with a schema; this record "
                "is schemaless (use a converter with schemas, e.g. JsonConverter with "
                "schemas.enable=true)"
            )
        elif self._avro_data is not None and value is not None and schema is not None:
            problem = self._avro_data(schema, value)
        if problem is None and ctx.headers_format is not None:
            try:
                header_texts(record)
            except ValueError as exc:
                problem = str(exc)
        if problem is None and self._checked:
            problem = self._format_problem(record)
        if problem is None:
            return None
        return RecordError(problem, topic=raw.topic, partition=raw.partition, offset=raw.offset)

    def _format_problem(self, record: SinkRecord) -> str | None:
        """What the value or keys file's format refuses as Confluent's writer writes the record:
        AvroData's ``fromConnectData`` a schemaless value (or key) of no Connect type, Kafka's
        ``ByteArrayConverter`` (ByteArrayFormat) a value (or key) that is not bytes."""
        for fmt, is_key in self._checked:
            schema, value = (
                (record.key_schema, record.key) if is_key else (record.value_schema, record.value)
            )
            if value is None:  # a tombstone (no value file) or a null key (refused before)
                continue
            if isinstance(fmt, ByteArrayFormat):
                problem = bytearray_problem(schema, value)
                if problem is not None:
                    return problem
            elif schema is None:
                try:
                    anything_datum(value)
                except ValueError as exc:
                    return str(exc)
        return None

    def on_timer(self, now_ms: int) -> list[CommittedObject]:
        """Commit on time without new records (scheduled rotation of an idle partition)."""
        committed: list[CommittedObject] = []
        if self.failure is not None:
            return committed
        for commit in self._rotator.on_timer(now_ms):
            committed += self._flush(commit)
        return committed

    def snapshot(self) -> tuple[RotatorState, list[Entry]]:
        """The rotator state and the records of every open file, in offset order."""
        self._restore_saved()
        pending = sorted(
            (p for records in self._open.values() for p in records), key=lambda p: p.first_offset
        )
        return self._rotator.state, pending

    def new_pending(self) -> list[Entry]:
        """Records added since construction that are still in open files (when nothing was
        flushed, saving just these next to the earlier saved ones is enough)."""
        open_ids = {id(p) for records in self._open.values() for p in records}
        return [p for p in self._new if id(p) in open_ids]

    def _restore_saved(self) -> None:
        if not self._has_saved or self._load_pending is None:
            return
        saved = self._load_pending()
        self._has_saved = False
        merged: dict[str, list[Entry]] = {}
        plan = self._ctx.lines
        for p in saved:
            if isinstance(p, LineRun) and (plan is None or p.plan != plan.name):
                raws = batch_records(self._topic, self._partition, p.columns)
                merged.setdefault(p.encoded_partition, []).extend(
                    PendingRecord(raw, p.encoded_partition) for raw in raws
                )
            else:
                merged.setdefault(p.encoded_partition, []).append(p)
        for encoded, records in self._open.items():
            merged.setdefault(encoded, []).extend(records)
        for records in merged.values():
            records.sort(key=lambda p: p.first_offset)  # chunks hold several files' entries
        self._open = merged

    def _flush(self, commit: Commit) -> list[CommittedObject]:
        self._restore_saved()
        self.flushed = True
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug(
                "%s-%d: rotating %d file(s) on %s, %s",
                self._topic, self._partition, len(commit.files), commit.reason,
                ", ".join(f"{f.encoded_partition.replace(_TOPIC_SEP, ' ')} "
                          f"offsets {f.start_offset}..{f.end_offset} "
                          f"({f.record_count} records)" for f in commit.files),
            )  # fmt: skip
        out: list[CommittedObject] = []
        for info in commit.files:
            records = self._open.pop(info.encoded_partition, [])
            count = sum(map(len, records))
            if (
                count != info.record_count
                or records[0].first_offset != info.start_offset
                or records[-1].last_offset != info.end_offset
            ):
                raise RuntimeError(
                    f"writer state out of step with the rotator for {self._topic}-"
                    f"{self._partition} {info}: holding {count} records"
                )
            if any(isinstance(p, LineRun) for p in records):
                out.append(self._write_line_file(info.encoded_partition, records, count))
            else:
                out.append(self._write_file(info.encoded_partition, records))  # type: ignore[arg-type]
        return out

    def _again(self, raw: RawRecord) -> SinkRecord:
        """A record of an open file, converted again (when its saved conversion is gone)."""
        record = self._ctx.convert(raw)
        if record is None:
            raise RuntimeError(
                f"{raw.topic}-{raw.partition} offset {raw.offset}: a transform dropped a record "
                "it had kept before (transforms must be deterministic)"
            )
        return record

    def _write_file(self, key_of_file: str, pending: list[PendingRecord]) -> CommittedObject:
        ctx = self._ctx
        topic, encoded = split_file_key(key_of_file, self._topic)
        records = [self._converted(p) for p in pending]
        start, end = pending[0].raw.offset, pending[-1].raw.offset
        tombstones = ctx.null_values == "write" and encoded == ctx.tombstone_partition
        if not tombstones:
            records = _onto_file_schema(records)
        written: list[tuple[str, int]] = []
        tags = _file_tags(start, end, len(records))
        # Value file first, then keys, then headers, as KeyValueHeaderRecordWriterProvider
        # commits them; the tombstone partition has no value file.
        for fmt in (None if tombstones else ctx.format, ctx.keys_format, ctx.headers_format):
            if fmt is None:
                continue
            key = ctx.object_key(topic, encoded, self._partition, start, fmt.extension)
            # Only a value file is tagged: Confluent tags the value file's name, which the
            # tombstone partition never writes (we leave its keys file untagged).
            file_tags = None if written or tombstones else tags
            size = _store(ctx.storage, key, file_tags, partial(fmt.write, records))
            written.append((key, size))
        key, size = written[0]
        return CommittedObject(
            key=key,
            topic=topic,
            partition=self._partition,
            encoded_partition=encoded,
            start_offset=start,
            end_offset=end,
            record_count=len(records),
            bytes=size,
        )

    def _write_line_file(self, encoded: str, entries: list[Entry], count: int) -> CommittedObject:
        """A file of the line path: its runs' lines and its single records' (written by the
        format), in order (no keys or headers files: the line path has none)."""
        plan, fmt = self._ctx.lines, self._ctx.format
        if isinstance(fmt, AvroFormat | ParquetFormat):
            return self._write_schema_file(encoded, entries, count)
        assert plan is not None and isinstance(fmt, LineFormat)

        def parts() -> Iterator[bytes | memoryview]:
            for p in entries:
                if isinstance(p, LineRun):
                    yield from joined_lines(p.lines, plan.separator)
                else:
                    yield fmt.record_line(self._converted(p))

        start, end = entries[0].first_offset, entries[-1].last_offset
        key = self._ctx.object_key(self._topic, encoded, self._partition, start, fmt.extension)
        tags = _file_tags(start, end, count)
        size = _store(self._ctx.storage, key, tags, lambda out: fmt.write_lines(parts(), out))
        return CommittedObject(key, self._topic, self._partition, encoded, start, end, count, size)

    def _write_schema_file(self, encoded: str, entries: list[Entry], count: int) -> CommittedObject:
        """An Avro or Parquet file of the line path: its runs' datums or payloads and its single
        records (projected onto the file's schema, that of its first record, as
        :meth:`_write_file` does)."""
        fmt = self._ctx.format
        first = entries[0]
        # A record opens each file through write() (Rotator.joining), so it comes first.
        assert isinstance(first, PendingRecord), "a file of runs starts with a single record"
        schema = self._converted(first).value_schema
        assert schema is not None  # these plans' records have schemas
        singles = [
            _onto_schema([self._converted(p)], schema)[0] if isinstance(p, PendingRecord) else p
            for p in entries
        ]
        start, end = entries[0].first_offset, entries[-1].last_offset
        key = self._ctx.object_key(self._topic, encoded, self._partition, start, fmt.extension)
        write: Callable[[BinaryIO], None]
        if isinstance(fmt, AvroFormat):
            encode = fmt.datum_encoder(schema)
            datums = [
                p.lines if isinstance(p, LineRun) else pa.array([encode(p.value)]) for p in singles
            ]
            sync = sync_marker(self._topic, self._partition, start, end, count)
            write = partial(fmt.write_datums, schema, datums, sync)
        else:
            assert isinstance(fmt, ParquetFormat)
            parts = [p.lines if isinstance(p, LineRun) else p for p in singles]
            write = partial(fmt.write_payloads, schema, parts)
        size = _store(self._ctx.storage, key, _file_tags(start, end, count), write)
        return CommittedObject(key, self._topic, self._partition, encoded, start, end, count, size)

    def _converted(self, p: PendingRecord) -> SinkRecord:
        """A record of an open file as converted (again, when its saved conversion is gone)."""
        return p.converted if p.converted is not None else self._again(p.raw)


def _runs(rows: pa.RecordBatch, batch: BatchLines, start: int, plan: str) -> list[LineRun]:
    """The records ``rows`` (of ``batch`` from ``start``) as one run per file, each in offset
    order (records of several files: each run picks its own, copied out when written)."""
    n = rows.num_rows
    lines, files = batch.lines.slice(start, n), batch.files[start : start + n]
    first = files[0]
    if (files == first).all():
        return [LineRun(batch.partitions[first], rows, lines, plan)]
    order = np.argsort(files, kind="stable")
    ordered = files[order]
    edges = [0, *(np.flatnonzero(ordered[1:] != ordered[:-1]) + 1).tolist(), n]
    return [
        LineRun(batch.partitions[ordered[a]], rows, lines, plan, order[a:b])
        for a, b in itertools.pairwise(edges)
    ]


def _loggable(record: SinkRecord) -> str:
    """Confluent's ``Utils.sinkRecordToLoggableString`` (without its trailing space)."""
    return (
        f"SinkRecord{{kafkaOffset={record.offset}, topic='{record.topic}', "
        f"kafkaPartition={record.partition}}}"
    )


def _file_tags(start: int, end: int, count: int) -> dict[str, str]:
    """TopicPartitionWriter.tagFile's tags, for the committed file (not its keys/headers)."""
    return {"startOffset": str(start), "endOffset": str(end), "recordCount": str(count)}


def _store(
    storage: Storage, key: str, tags: dict[str, str] | None, write: Callable[[BinaryIO], None]
) -> int:
    """Write one object (``write`` fills it) and return its size in bytes."""
    with storage.open_write(key, tags) as out:
        counter = _CountingWriter(out)
        write(counter)  # type: ignore[arg-type]
    return counter.count


def _dead_letter_allowed(error: RecordError, ctx: WriterContext) -> bool:
    """Kafka Connect's rule under ``errors.tolerance=all``: a converter or transform failure is
    skipped (and reported, when there is a reporter); one of Confluent's task (``TASK_PUT``)
    only goes through its ``ErrantRecordReporter`` (a DLQ topic, ``errors.log.enable``, or our
    ``dlq.table``): without one the task throws it; one it throws past the reporter
    (``reportable`` false) always stops it."""
    if not ctx.tolerate_errors or not error.reportable:
        return False
    return error.stage != "TASK_PUT" or ctx.task_errors_reported


def _reported_failure(error: RecordError, ctx: WriterContext) -> bool:
    """Kafka Connect's rule under ``errors.tolerance=none``: a failure its reporters see (any
    reportable one, when a DLQ topic, ``errors.log.enable`` or ``dlq.table`` is set) is reported,
    then fails the task (``RetryWithToleranceOperator.execute``/``executeFailed``)."""
    return not ctx.tolerate_errors and error.reportable and ctx.task_errors_reported


def _not_tolerated(error: RecordError) -> RecordError:
    """``error`` as it stops the batch under ``errors.tolerance=none`` with no reporter: a
    converter or transform failure in the words of ``RetryWithToleranceOperator`` ("Tolerance
    exceeded in error handler"); one of Confluent's task as the task throws it."""
    if not error.reportable or error.stage == "TASK_PUT":
        return error
    return error.reworded(f"Tolerance exceeded in error handler: {error.reason}")


def _unreported(error: RecordError) -> RecordError:
    """``error`` as it stops the batch under ``errors.tolerance=all``, saying why."""
    if not error.reportable:
        return error
    return RecordError(
        f"{error.reason}; errors.tolerance=all skips such records only through a reporter of "
        "errant records (errors.deadletterqueue.topic.name, errors.log.enable=true or "
        "dlq.table), as Confluent's S3 sink task does: set one",
        topic=error.topic,
        partition=error.partition,
        offset=error.offset,
        stage=error.stage,
        class_name=error.class_name,
    )


def _skipped_null(raw: RawRecord) -> RecordError:
    """What reporting a tombstone skipped by ``behavior.on.null.values=ignore`` raises: the dead
    letter Kafka Connect's ``WorkerErrantRecordReporter`` makes of it (``executeFailed(TASK_PUT,
    SinkTask.class, ...)``); under ``errors.tolerance=none`` it is reported, then fails the task
    (see :func:`s3connect.sink.dead_letters.failure_error`)."""
    return RecordError(
        "Skipping null value record.",
        topic=raw.topic,
        partition=raw.partition,
        offset=raw.offset,
        class_name=SINK_TASK_CLASS,
    )


_TOPIC_SEP = "\x00"  # never in a topic name, nor in an encoded partition (control characters
# in field values are percent-encoded)


def file_key(topic: str, encoded: str) -> str:
    """The rotator's name of a file whose records a transform gave another topic than the
    consumed one: the topic and the encoded partition (files of one Kafka partition rotate
    together, whatever their topic)."""
    return f"{topic}{_TOPIC_SEP}{encoded}"


def split_file_key(key: str, consumed_topic: str) -> tuple[str, str]:
    """(topic, encoded partition) of a file's key (see :func:`file_key`)."""
    topic, sep, encoded = key.partition(_TOPIC_SEP)
    return (topic, encoded) if sep else (consumed_topic, key)


def _onto_file_schema(records: list[SinkRecord]) -> list[SinkRecord]:
    """The records of one file with their values projected onto the file's schema, that of its
    first record (schema.compatibility BACKWARD/FORWARD/FULL keep other compatible versions in a
    file; records restored from checkpointed state are converted again, hence projected here)."""
    target = records[0].value_schema
    if target is None:
        return records
    return _onto_schema(records, target)


def _onto_schema(records: list[SinkRecord], target: ConnectSchema) -> list[SinkRecord]:
    """The records with their values projected onto ``target`` where their schema differs."""
    out = records
    same: dict[int, bool] = {id(target): True}
    for i, record in enumerate(records):
        schema = record.value_schema
        equal = same.get(id(schema))
        if equal is None:
            equal = same[id(schema)] = schema == target
        if not equal:
            if out is records:
                out = list(records)
            out[i] = project_record(record, target)
    return out


def _data_checks(fmt: Format) -> AvroDataChecks | None:
    """The per-record checks of the values ``fmt`` converts as it writes them: AvroData's for
    Avro and Parquet, ``JsonConverter.fromConnectData``'s decimals for JsonFormat's BASE64."""
    if isinstance(fmt, AvroFormat | ParquetFormat):
        return AvroDataChecks()
    if isinstance(fmt, JsonFormat) and fmt.decimal_format.upper() == "BASE64":
        return AvroDataChecks(decimals_only=True)
    return None
