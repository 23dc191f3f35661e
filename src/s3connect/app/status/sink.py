"""Where a sink stands: per Kafka topic-partition, consumed, open, committed and Kafka's end."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from botocore.exceptions import BotoCoreError, ClientError

from s3connect.app.failures import ExitCode
from s3connect.app.status.checkpoint import (
    CheckpointLog,
    batches_line,
    kafka_offsets_of,
    read_checkpoint_log,
)
from s3connect.app.status.kafka_offsets import KafkaOffsets, end_offsets
from s3connect.app.status.table import cell, known_cell, render_table, total_cell
from s3connect.config.sink import SinkConfig
from s3connect.errors import StorageError
from s3connect.sink.context import build_storage
from s3connect.sink.partition_state import PartitionStateStore
from s3connect.storage.base import Storage
from s3connect.storage.naming import parse_object_key
from s3connect.transforms.chain import possible_topics

STORAGE_ERRORS = (BotoCoreError, ClientError, StorageError, OSError)
"""What listing the bucket may raise: the report then shows ``?``."""

__all__ = [
    "STORAGE_ERRORS",
    "SinkPartition",
    "SinkStatus",
    "last_objects",
    "object_topics",
    "sink_status",
]


@dataclass(slots=True)
class SinkPartition:
    """Where one Kafka topic-partition of a sink stands.

    Attributes:
        consumed: Next offset after the last committed batch (None: not consumed yet).
        in_flight: Next offset after the batch in flight, when it reads this partition.
        open_records: Records in open files (None: not known here, the stateful shape).
        first_open: Offset of the first record in an open file (None: no open file).
        last_object: Key of the committed object with the greatest start offset.
        start: Where the sink starts reading a partition it has not consumed yet.
        end: Kafka's end offset (None: unknown).
    """

    topic: str
    partition: int
    consumed: int | None = None
    in_flight: int | None = None
    open_records: int | None = 0
    first_open: int | None = None
    last_object: str | None = None
    start: int | None = None
    end: int | None = None

    @property
    def lag(self) -> int | None:
        """Records in Kafka not consumed yet."""
        at = self.consumed if self.consumed is not None else self.start
        return None if self.end is None or at is None else max(self.end - at, 0)

    @property
    def s3_lag(self) -> int | None:
        """Records in Kafka from the first one not yet in S3 (open or not consumed)."""
        if self.open_records is None or self.end is None:
            return None
        at = self.first_open if self.open_records else self.consumed
        at = self.start if at is None else at
        return None if at is None else max(self.end - at, 0)


def _sink_topics(config: SinkConfig, kafka: KafkaOffsets, known: Iterable[str]) -> list[str]:
    names = set(config.topics.names) | set(known)
    if config.topics.regex is not None:
        names |= {t for t in kafka.topics() if config.topics.matches(t) and not t.startswith("__")}
    return sorted(names)


def _sink_shape(config: SinkConfig, folder: Path) -> str:
    """``stateful`` or ``shuffle-free``: the checkpoint's, or the one a new run would take."""
    if (folder / "state").is_dir():
        return "stateful"
    if any((folder / "s3connect-state").rglob("*.state")):
        return "shuffle-free"
    timers = config.rotation.rotate_schedule_interval_ms > 0
    return "stateful" if timers and config.streaming.trigger != "availableNow" else "shuffle-free"


def _start(
    config: SinkConfig, started: bool, topic: str, partition: int, low: int, end: int
) -> int:
    """Where the sink starts a partition it has not consumed (a new partition: the earliest)."""
    starting = config.kafka.starting_offsets
    if started or starting == "earliest":
        return low
    if starting == "latest":
        return end
    given = json.loads(starting).get(topic, {}).get(str(partition), -2)
    return end if given == -1 else low if given == -2 else int(given)


def object_topics(config: SinkConfig, topic: str) -> frozenset[str] | None:
    """The topic folders ``topic``'s objects are under (the transforms' renames); None when a
    transform chooses it record by record."""
    if not config.transforms.active:
        return frozenset({topic})
    return possible_topics(config.transforms.chain(), topic)


def last_objects(
    config: SinkConfig, storage: Storage, topics: Iterable[str]
) -> dict[tuple[str, int], str]:
    """Per consumed (topic, partition), the key of its committed object with the greatest start
    offset (a value file before its ``.keys``/``.headers`` companions)."""
    layout = config.layout
    delim = layout.directory_delim
    root = layout.topics_dir + delim if layout.topics_dir.strip() else ""
    best: dict[tuple[str, int], tuple[int, bool, str]] = {}
    for topic in topics:
        for name in sorted(object_topics(config, topic) or ()):
            for key in storage.list_keys(root + name + delim):
                try:
                    parsed = parse_object_key(
                        key,
                        topics_dir=layout.topics_dir,
                        directory_delim=delim,
                        file_delim=layout.file_delim,
                    )
                except ValueError:
                    continue
                if parsed.topic != name:
                    continue
                value_file = not parsed.extension.startswith((".keys.", ".headers."))
                rank = (parsed.start_offset, value_file, key)
                tp = (topic, parsed.kafka_partition)
                best[tp] = max(best.get(tp, rank), rank)
    return {tp: rank[2] for tp, rank in best.items()}


@dataclass(frozen=True, slots=True)
class SinkStatus:
    """A sink's rows, its checkpoint log, its shape (``shuffle-free`` or ``stateful``) and why
    S3 could not be listed (None: it was)."""

    rows: list[SinkPartition]
    log: CheckpointLog
    shape: str
    s3_error: str | None = None


def sink_status(
    config: SinkConfig, folder: Path, kafka: KafkaOffsets, storage: Storage | None
) -> SinkStatus:
    """Where the sink with checkpoint ``folder`` stands (``storage`` None: not listed)."""
    log = read_checkpoint_log(folder)
    consumed, in_flight = kafka_offsets_of(log.committed), kafka_offsets_of(log.in_flight)
    topics = _sink_topics(config, kafka, (t for t, _ in [*consumed, *in_flight]))
    pairs = {(t, p) for t in topics for p in kafka.topics().get(t, ())} | {*consumed, *in_flight}
    shape = _sink_shape(config, folder)
    store = PartitionStateStore(folder / "s3connect-state")
    rows = []
    for topic, partition in sorted(pairs):
        row = SinkPartition(topic, partition, consumed.get((topic, partition)))
        if (topic, partition) in in_flight and in_flight[topic, partition] != row.consumed:
            row.in_flight = in_flight[topic, partition]
        if shape == "stateful":
            row.open_records = None
        elif row.consumed is not None:
            try:
                saved = store.saved_rotator(topic, partition, row.consumed)
            except (OSError, ValueError):  # unreadable: shown as unknown
                row.open_records = None
            else:
                files = saved[1].open_files if saved is not None else []
                row.open_records = sum(f.record_count for f in files)
                row.first_open = min((f.start_offset for f in files), default=None)
        marks = end_offsets(kafka, topic, partition)
        if marks is not None:
            row.start = _start(config, log.committed is not None, topic, partition, *marks)
            row.end = marks[1]
        rows.append(row)
    s3_error = None
    if storage is not None:
        try:
            found = last_objects(config, storage, topics)
        except STORAGE_ERRORS as exc:
            s3_error, found = f"cannot list {storage.describe()}: {exc}", {}
        for row in rows:
            row.last_object = found.get((row.topic, row.partition))
    return SinkStatus(rows, log, shape, s3_error)


def _sink_cells(r: SinkPartition, s3_known: bool) -> list[str]:
    return [
        r.topic,
        str(r.partition),
        "not started" if r.consumed is None else str(r.consumed),
        cell(r.in_flight),
        known_cell(r.open_records),
        cell(r.first_open),
        cell(r.last_object) if s3_known else "?",
        known_cell(r.end),
        known_cell(r.lag),
        known_cell(r.s3_lag),
    ]


def _sink_table(rows: Sequence[SinkPartition], in_flight: bool, s3_known: bool) -> list[str]:
    header = ["topic", "partition", "consumed", "in flight", "open", "first open"]
    header += ["last object", "end", "lag", "S3 lag"]
    cells = [_sink_cells(r, s3_known) for r in rows]
    consumed = [r.consumed for r in rows if r.consumed is not None]
    total = ["total", "", str(sum(consumed)) if consumed else "-", ""]
    total += [total_cell(r.open_records for r in rows), "", "", total_cell(r.end for r in rows)]
    total += [total_cell(r.lag for r in rows), total_cell(r.s3_lag for r in rows)]
    keep = [i for i, name in enumerate(header) if in_flight or name != "in flight"]
    return render_table(
        [header[i] for i in keep], [[row[i] for i in keep] for row in (*cells, total)]
    )


def print_sink(config: SinkConfig, folder: Path, kafka: KafkaOffsets) -> int:
    storage, s3_error = None, None
    try:
        storage = build_storage(config)
    except STORAGE_ERRORS as exc:
        s3_error = f"cannot reach S3: {exc}"
    found = sink_status(config, folder, kafka, storage)
    s3_error = s3_error or found.s3_error
    location = config.streaming.checkpoint_location
    print(f"sink {config.name!r}: checkpoint {location} ({found.shape} shape)")
    print(batches_line(found.log))
    for line in _sink_table(found.rows, found.log.in_flight is not None, s3_error is None):
        print(line)
    if found.shape == "stateful":
        print("open files: in Spark's state store (stateful shape), not shown")
    print("consumed: next offset after the last committed batch; lag: end - consumed;")
    print("S3 lag: end - first offset not in S3 (in an open file, or not consumed)")
    return report_errors(kafka.error, s3_error)


def report_errors(kafka_error: str | None, s3_error: str | None) -> int:
    """Print failures on stderr; the exit code (Kafka's first)."""
    if s3_error is not None:
        print(f"s3connect status: S3: {s3_error} (shown as ?)", file=sys.stderr)
    if kafka_error is not None:
        print(f"s3connect status: Kafka: {kafka_error} (shown as ?)", file=sys.stderr)
        return ExitCode.KAFKA
    return ExitCode.STORAGE if s3_error is not None else ExitCode.OK
