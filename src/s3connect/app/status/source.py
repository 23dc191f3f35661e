"""Where a source stands: per source topic-partition, objects done and remaining, and the
destination's end offset."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from s3connect.app.status.checkpoint import (
    CheckpointLog,
    LoggedBatch,
    batches_line,
    read_checkpoint_log,
)
from s3connect.app.status.kafka_offsets import KafkaOffsets, end_offsets
from s3connect.app.status.sink import STORAGE_ERRORS, report_errors
from s3connect.app.status.table import cell, known_cell, render_table, total_cell
from s3connect.config.source import SourceConfig
from s3connect.source.offsets import ALL, Position, offsets_from_json, tp_of
from s3connect.source.reader import SourceObject, list_objects, source_storage
from s3connect.storage.base import Storage

__all__ = [
    "SourcePartition",
    "SourceStatus",
    "source_status",
]


@dataclass(slots=True)
class SourcePartition:
    """Where one source topic-partition (objects of one Kafka partition) stands.

    Attributes:
        objects: Its objects listed in S3, in reading order.
        published: Position published through by the last committed batch (None: none yet).
        in_flight: Position the batch in flight publishes through, when it reads this one.
        destination: The topic its records go to (None: chosen record by record).
        end: The destination partition's end offset (None: unknown or missing).
        missing: Kafka has no such destination partition (yet: a run creates it).
    """

    topic: str
    partition: int
    objects: list[SourceObject] = field(default_factory=list)
    published: Position | None = None
    in_flight: Position | None = None
    destination: str | None = None
    end: int | None = None
    missing: bool = False

    def done_by(self, position: Position | None) -> int:
        """Objects whose every record is published at ``position``."""
        if position is None:
            return 0
        return sum(
            1
            for o in self.objects
            if o.order < position.order or (o.order == position.order and position.index == ALL)
        )

    @property
    def done(self) -> int:
        """Objects completely published by the last committed batch."""
        return self.done_by(self.published)

    @property
    def remaining(self) -> int:
        """Objects not completely published."""
        return len(self.objects) - self.done


def _positions(batch: LoggedBatch | None) -> dict[tuple[str, int], Position]:
    doc = batch.offsets if batch is not None and isinstance(batch.offsets, dict) else {}
    return {tp_of(entry): p for entry, p in offsets_from_json(doc).items()}


@dataclass(frozen=True, slots=True)
class SourceStatus:
    """A source's rows, its checkpoint log, the badly named keys it does not read and why S3
    could not be listed (None: it was)."""

    rows: list[SourcePartition]
    log: CheckpointLog
    skipped: list[str]
    s3_error: str | None = None


def source_status(
    config: SourceConfig, folder: Path, kafka: KafkaOffsets, storage: Storage
) -> SourceStatus:
    """Where the source with checkpoint ``folder`` stands."""
    log = read_checkpoint_log(folder)
    published, in_flight = _positions(log.committed), _positions(log.in_flight)
    # Badly named objects are counted, not fatal here (whatever behavior.on.error says).
    lenient = dataclasses.replace(config, behavior_on_error="ignore")
    try:
        listing = list_objects(storage, lenient)
        objects, skipped, s3_error = listing.objects, listing.skipped, None
    except STORAGE_ERRORS as exc:
        objects, skipped, s3_error = {}, [], f"cannot list {storage.describe()}: {exc}"
    rows = []
    for topic, partition in sorted({*objects, *published, *in_flight}):
        row = SourcePartition(topic, partition, objects.get((topic, partition), []))
        row.published = published.get((topic, partition))
        if in_flight.get((topic, partition)) not in (None, row.published):
            row.in_flight = in_flight[topic, partition]
        row.destination = config.destination(topic)
        if row.destination is not None:
            marks = end_offsets(kafka, row.destination, partition)
            row.end = None if marks is None else marks[1]
            row.missing = kafka.error is None and marks is None
        rows.append(row)
    return SourceStatus(rows, log, skipped, s3_error)


def _position_cell(position: Position | None) -> str:
    if position is None:
        return "nothing yet"
    return position.key + ("" if position.index == ALL else f" (first {position.index} records)")


def _source_cells(r: SourcePartition, s3_known: bool) -> list[str]:
    counts = [len(r.objects), r.done, r.remaining]
    flying = None if r.in_flight is None else r.done_by(r.in_flight) - r.done
    end = "-" if r.destination is None else "missing" if r.missing else known_cell(r.end)
    return [
        r.topic,
        str(r.partition),
        *([str(n) for n in counts] if s3_known else ["?"] * 3),
        cell(flying) if s3_known else "?",
        _position_cell(r.published),
        r.destination or "(chosen per record)",
        end,
    ]


def _source_table(rows: Sequence[SourcePartition], in_flight: bool, s3_known: bool) -> list[str]:
    header = ["topic", "partition", "objects", "done", "remaining", "in flight"]
    header += ["published through", "destination", "end"]
    cells = [_source_cells(r, s3_known) for r in rows]
    counts = [sum(len(r.objects) for r in rows), sum(r.done for r in rows)]
    counts.append(sum(r.remaining for r in rows))
    ends = total_cell(r.end for r in rows if r.destination is not None and not r.missing)
    total = ["total", "", *([str(n) for n in counts] if s3_known else ["?"] * 3), "", "", ""]
    keep = [i for i, name in enumerate(header) if in_flight or name != "in flight"]
    return render_table(
        [header[i] for i in keep], [[row[i] for i in keep] for row in (*cells, [*total, ends])]
    )


def print_source(config: SourceConfig, folder: Path, kafka: KafkaOffsets) -> int:
    try:
        storage = source_storage(config)
    except STORAGE_ERRORS as exc:
        return report_errors(kafka.error, f"cannot reach S3: {exc}")
    found = source_status(config, folder, kafka, storage)
    print(f"source {config.name!r}: checkpoint {config.streaming.checkpoint_location}")
    print(batches_line(found.log))
    for line in _source_table(found.rows, found.log.in_flight is not None, not found.s3_error):
        print(line)
    if found.skipped:
        print(f"{len(found.skipped)} badly named objects are not read, e.g. {found.skipped[0]}")
    print(
        "done: objects published whole by the last committed batch; end: the destination "
        "partition's end offset"
    )
    return report_errors(kafka.error, found.s3_error)
