"""``s3connect status``: where a sink or a source stands, told without starting Spark.

It reads the checkpoint's files (Spark's offsets and commits logs; the shuffle-free sink's state
files), lists the bucket and asks Kafka for end offsets. It only reads, so it may run beside a
running query: Spark and the sink write their files aside and rename them into place, and a file
deleted between listing and reading is looked for again or skipped.

Spark's offsets log ``<checkpoint>/offsets/<batchId>``: line 1 ``v1``, line 2 the batch's
metadata (JSON), then one line per source: its offsets as JSON (the Kafka source's
``{"topic": {"0": next offset}}``; the S3 source's, see :mod:`s3connect.source.offsets`). A batch
is committed once ``<checkpoint>/commits/<batchId>`` exists.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from botocore.exceptions import BotoCoreError, ClientError
from confluent_kafka import Consumer, KafkaException, TopicPartition

from s3connect.app.failures import ExitCode
from s3connect.config.sink import SinkConfig
from s3connect.config.source import SourceConfig
from s3connect.errors import StorageError
from s3connect.kafka.admin import client_props
from s3connect.sink.context import build_storage
from s3connect.sink.partition_state import PartitionStateStore, local_state_root
from s3connect.source.offsets import ALL, Position, offsets_from_json, tp_of
from s3connect.source.reader import SourceObject, list_objects, source_storage
from s3connect.storage.base import Storage
from s3connect.storage.naming import parse_object_key
from s3connect.transforms.chain import possible_topics

__all__ = [
    "BrokerOffsets",
    "CheckpointLog",
    "KafkaOffsets",
    "LoggedBatch",
    "SinkPartition",
    "SinkStatus",
    "SourcePartition",
    "SourceStatus",
    "checkpoint_folder",
    "last_objects",
    "object_topics",
    "print_status",
    "read_checkpoint_log",
    "render_table",
    "sink_status",
    "source_status",
]

KAFKA_TIMEOUT_S = 10.0
_STORAGE_ERRORS = (BotoCoreError, ClientError, StorageError, OSError)


# --------------------------------------------------------------------------- checkpoint


@dataclass(frozen=True, slots=True)
class LoggedBatch:
    """One micro-batch of Spark's offsets log: its id and its (first) source's offsets JSON."""

    batch_id: int
    offsets: Any


@dataclass(frozen=True, slots=True)
class CheckpointLog:
    """The last committed batch and the one logged after it, not committed yet (in flight)."""

    committed: LoggedBatch | None = None
    in_flight: LoggedBatch | None = None


def checkpoint_folder(location: str) -> Path | None:
    """``checkpoint.location`` as a local folder; None when it cannot be read as files here
    (``s3a://``, ``abfss://``; ``dbfs:`` or ``/Volumes/`` off Databricks)."""
    root = local_state_root(location)
    if root is None:
        return None
    folder = root.parent
    for mount in ("/dbfs", "/Volumes"):
        if folder.parts[:2] == ("/", mount[1:]) and not Path(mount).is_dir():
            return None
    return folder


def _batch_ids(folder: Path) -> list[int]:
    try:
        return sorted(int(name) for name in (p.name for p in folder.iterdir()) if name.isdigit())
    except OSError:  # not there (yet)
        return []


def _read_batch(folder: Path, batch_id: int) -> LoggedBatch | None:
    """The offsets log entry ``batch_id``; None when missing or not (yet) whole."""
    try:
        lines = (folder / "offsets" / str(batch_id)).read_text("utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    if len(lines) < 3 or not lines[0].startswith("v"):
        return None
    text = lines[2].strip()
    try:
        return LoggedBatch(batch_id, None if text == "-" else json.loads(text))
    except ValueError:
        return None


def read_checkpoint_log(folder: Path) -> CheckpointLog:
    """The last committed batch of the checkpoint at ``folder`` and the one in flight."""
    logged = _batch_ids(folder / "offsets")
    last = max(_batch_ids(folder / "commits"), default=-1)
    committed = in_flight = None
    for batch_id in reversed(logged):
        batch = _read_batch(folder, batch_id)
        if batch is None:
            continue
        if batch_id > last:
            in_flight = in_flight or batch
        else:
            committed = batch
            break
    return CheckpointLog(committed, in_flight)


def _kafka_offsets(batch: LoggedBatch | None) -> dict[tuple[str, int], int]:
    """The Kafka source's next offset per topic-partition in ``batch``."""
    doc = batch.offsets if batch is not None and isinstance(batch.offsets, dict) else {}
    return {(t, int(p)): int(o) for t, parts in doc.items() for p, o in parts.items()}


def _batches_line(log: CheckpointLog) -> str:
    if log.committed is None and log.in_flight is None:
        return "batches: none yet (not started)"
    text = "batches: " + (
        f"last committed {log.committed.batch_id}" if log.committed else "none committed yet"
    )
    if log.in_flight is not None:
        text += f"; batch {log.in_flight.batch_id} in flight (offsets logged, not committed)"
    return text


# --------------------------------------------------------------------------- Kafka


class KafkaOffsets(Protocol):
    """What status asks Kafka: topics with their partitions, and watermarks."""

    error: str | None
    """The first failure (later questions are then not asked)."""

    def topics(self) -> Mapping[str, Sequence[int]]:
        """Topic -> partition numbers ({} after a failure)."""

    def watermarks(self, topic: str, partition: int) -> tuple[int, int] | None:
        """(low, high) offsets of a topic-partition; None after a failure."""


class BrokerOffsets:
    """:class:`KafkaOffsets` from the brokers, through a consumer that never joins a group."""

    def __init__(self, bootstrap_servers: str, options: Mapping[str, str]) -> None:
        props: dict[str, Any] = dict(client_props(bootstrap_servers, options))
        props.update({"group.id": "s3connect-status", "enable.auto.commit": False})
        props["log_level"] = 0  # failures are reported once, not logged per retry
        self._topics: dict[str, list[int]] | None = None
        self.error: str | None = None
        self._consumer: Any = None
        try:
            self._consumer = Consumer(props)
        except KafkaException as exc:
            self.error = f"cannot make a client with the kafka.* options: {exc}"

    def topics(self) -> Mapping[str, Sequence[int]]:
        if self._topics is None and self.error is None:
            try:
                metadata = self._consumer.list_topics(timeout=KAFKA_TIMEOUT_S)
            except KafkaException as exc:
                self.error = f"cannot list topics: {exc}"
                return {}
            self._topics = {
                name: sorted(t.partitions) for name, t in metadata.topics.items() if t.error is None
            }
        return self._topics or {}

    def watermarks(self, topic: str, partition: int) -> tuple[int, int] | None:
        if self.error is not None:
            return None
        try:
            low, high = self._consumer.get_watermark_offsets(
                TopicPartition(topic, partition), timeout=KAFKA_TIMEOUT_S, cached=False
            )
        except KafkaException as exc:
            self.error = f"cannot read the end offset of {topic}-{partition}: {exc}"
            return None
        return int(low), int(high)

    def close(self) -> None:
        """Close the consumer."""
        if self._consumer is not None:
            self._consumer.close()


def _end(kafka: KafkaOffsets, topic: str, partition: int) -> tuple[int, int] | None:
    """Watermarks of a topic-partition Kafka has (None: unknown or missing)."""
    if partition not in kafka.topics().get(topic, ()):
        return None
    return kafka.watermarks(topic, partition)


# --------------------------------------------------------------------------- table


def _cell(value: object) -> str:
    return "-" if value is None else str(value)


def render_table(header: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> list[str]:
    """Columns padded to their widest cell; the first ``left`` and text columns left-aligned,
    numbers right-aligned."""
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    numeric = [
        i >= left and all(r[i].lstrip("-").isdigit() or r[i] in ("-", "?", "") for r in rows)
        for i in range(len(header))
    ]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if num else c.ljust(w)
            for c, w, num in zip(cells, widths, numeric, strict=True)
        ).rstrip()

    return [line(header), *(line(r) for r in rows)]


# --------------------------------------------------------------------------- sink


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
    consumed, in_flight = _kafka_offsets(log.committed), _kafka_offsets(log.in_flight)
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
        marks = _end(kafka, topic, partition)
        if marks is not None:
            row.start = _start(config, log.committed is not None, topic, partition, *marks)
            row.end = marks[1]
        rows.append(row)
    s3_error = None
    if storage is not None:
        try:
            found = last_objects(config, storage, topics)
        except _STORAGE_ERRORS as exc:
            s3_error, found = f"cannot list {storage.describe()}: {exc}", {}
        for row in rows:
            row.last_object = found.get((row.topic, row.partition))
    return SinkStatus(rows, log, shape, s3_error)


def _sum(values: Iterable[int | None]) -> str:
    items = list(values)
    return "?" if any(v is None for v in items) else str(sum(v for v in items if v is not None))


def _known(value: int | None) -> str:
    return "?" if value is None else str(value)


def _sink_cells(r: SinkPartition, s3_known: bool) -> list[str]:
    return [
        r.topic,
        str(r.partition),
        "not started" if r.consumed is None else str(r.consumed),
        _cell(r.in_flight),
        _known(r.open_records),
        _cell(r.first_open),
        _cell(r.last_object) if s3_known else "?",
        _known(r.end),
        _known(r.lag),
        _known(r.s3_lag),
    ]


def _sink_table(rows: Sequence[SinkPartition], in_flight: bool, s3_known: bool) -> list[str]:
    header = ["topic", "partition", "consumed", "in flight", "open", "first open"]
    header += ["last object", "end", "lag", "S3 lag"]
    cells = [_sink_cells(r, s3_known) for r in rows]
    consumed = [r.consumed for r in rows if r.consumed is not None]
    total = ["total", "", str(sum(consumed)) if consumed else "-", ""]
    total += [_sum(r.open_records for r in rows), "", "", _sum(r.end for r in rows)]
    total += [_sum(r.lag for r in rows), _sum(r.s3_lag for r in rows)]
    keep = [i for i, name in enumerate(header) if in_flight or name != "in flight"]
    return render_table(
        [header[i] for i in keep], [[row[i] for i in keep] for row in (*cells, total)]
    )


def _print_sink(config: SinkConfig, folder: Path, kafka: KafkaOffsets) -> int:
    storage, s3_error = None, None
    try:
        storage = build_storage(config)
    except _STORAGE_ERRORS as exc:
        s3_error = f"cannot reach S3: {exc}"
    found = sink_status(config, folder, kafka, storage)
    s3_error = s3_error or found.s3_error
    location = config.streaming.checkpoint_location
    print(f"sink {config.name!r}: checkpoint {location} ({found.shape} shape)")
    print(_batches_line(found.log))
    for line in _sink_table(found.rows, found.log.in_flight is not None, s3_error is None):
        print(line)
    if found.shape == "stateful":
        print("open files: in Spark's state store (stateful shape), not shown")
    print("consumed: next offset after the last committed batch; lag: end - consumed;")
    print("S3 lag: end - first offset not in S3 (in an open file, or not consumed)")
    return _report_errors(kafka.error, s3_error)


def _report_errors(kafka_error: str | None, s3_error: str | None) -> int:
    """Print failures on stderr; the exit code (Kafka's first)."""
    if s3_error is not None:
        print(f"s3connect status: S3: {s3_error} (shown as ?)", file=sys.stderr)
    if kafka_error is not None:
        print(f"s3connect status: Kafka: {kafka_error} (shown as ?)", file=sys.stderr)
        return ExitCode.KAFKA
    return ExitCode.STORAGE if s3_error is not None else ExitCode.OK


# --------------------------------------------------------------------------- source


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
    except _STORAGE_ERRORS as exc:
        objects, skipped, s3_error = {}, [], f"cannot list {storage.describe()}: {exc}"
    rows = []
    for topic, partition in sorted({*objects, *published, *in_flight}):
        row = SourcePartition(topic, partition, objects.get((topic, partition), []))
        row.published = published.get((topic, partition))
        if in_flight.get((topic, partition)) not in (None, row.published):
            row.in_flight = in_flight[topic, partition]
        row.destination = config.destination(topic)
        if row.destination is not None:
            marks = _end(kafka, row.destination, partition)
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
    end = "-" if r.destination is None else "missing" if r.missing else _known(r.end)
    return [
        r.topic,
        str(r.partition),
        *([str(n) for n in counts] if s3_known else ["?"] * 3),
        _cell(flying) if s3_known else "?",
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
    ends = _sum(r.end for r in rows if r.destination is not None and not r.missing)
    total = ["total", "", *([str(n) for n in counts] if s3_known else ["?"] * 3), "", "", ""]
    keep = [i for i, name in enumerate(header) if in_flight or name != "in flight"]
    return render_table(
        [header[i] for i in keep], [[row[i] for i in keep] for row in (*cells, [*total, ends])]
    )


def _print_source(config: SourceConfig, folder: Path, kafka: KafkaOffsets) -> int:
    try:
        storage = source_storage(config)
    except _STORAGE_ERRORS as exc:
        return _report_errors(kafka.error, f"cannot reach S3: {exc}")
    found = source_status(config, folder, kafka, storage)
    print(f"source {config.name!r}: checkpoint {config.streaming.checkpoint_location}")
    print(_batches_line(found.log))
    for line in _source_table(found.rows, found.log.in_flight is not None, not found.s3_error):
        print(line)
    if found.skipped:
        print(f"{len(found.skipped)} badly named objects are not read, e.g. {found.skipped[0]}")
    print(
        "done: objects published whole by the last committed batch; end: the destination "
        "partition's end offset"
    )
    return _report_errors(kafka.error, found.s3_error)


# --------------------------------------------------------------------------- entry


def print_status(config: SinkConfig | SourceConfig, kafka: KafkaOffsets | None = None) -> int:
    """Print where the sink or source ``config`` describes stands; the exit code.

    Args:
        config: A validated sink or source config.
        kafka: What to ask Kafka (default: the brokers of ``kafka.bootstrap.servers``).

    Returns:
        0; 2 when the checkpoint cannot be read as files here; 4 (S3) or 5 (Kafka) when one
        could not be asked (the table is printed, with ``?`` for what is unknown).
    """
    location = config.streaming.checkpoint_location
    folder = checkpoint_folder(location)
    if folder is None:
        print(
            f"s3connect status: checkpoint.location {location} cannot be read as files here: "
            "status reads Spark's checkpoint files directly, so it needs a local path, file:, "
            "or on Databricks dbfs:/ (through /dbfs) or /Volumes/; for an s3a:// or abfss:// "
            "checkpoint, see the query's progress (StreamingQuery.lastProgress) instead",
            file=sys.stderr,
        )
        return ExitCode.CONFIG
    brokers = None
    if kafka is None:
        kafka = brokers = BrokerOffsets(config.kafka.bootstrap_servers, config.kafka.options)
    try:
        if isinstance(config, SourceConfig):
            return _print_source(config, folder, kafka)
        return _print_sink(config, folder, kafka)
    finally:
        if brokers is not None:
            brokers.close()
