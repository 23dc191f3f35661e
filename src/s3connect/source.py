"""The S3 source as a Spark Structured Streaming query.

    S3 listing ──▶ Python streaming DataSource (offsets per source topic-partition)
        ──▶ one input partition (one Spark task) per source topic-partition: read its objects
            in order, serialize each record with value.converter
        ──▶ writeStream.format("kafka"): topic = renamed topic, same partition number

The DataSource's offsets (:mod:`s3connect.source_offsets`) say, per source topic-partition, the
last object published and how many of its records; Spark checkpoints them, so a restart resumes
where the last committed batch ended. Delivery is at-least-once: a batch that fails or is cut
short by a crash is published again on restart. Within a task Spark's Kafka sink sends records in
order through an idempotent producer, so each destination partition gets the records of its
source partition in their original order. Every ``latestOffset`` lists the bucket again, so new
objects, new partition folders and new time-based folders are found while the query runs.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import (
    ReadAllAvailable,
    ReadLimit,
    ReadMaxFiles,
    SupportsTriggerAvailableNow,
)

from s3connect.destinations import ensure_destinations
from s3connect.errors import DestinationError
from s3connect.queries import await_query
from s3connect.source_config import SourceConfig
from s3connect.source_offsets import (
    ObjectSlice,
    latest_offsets,
    offsets_from_json,
    offsets_to_json,
    plan_slices,
    tp_id,
    tp_of,
)
from s3connect.source_reader import (
    Listing,
    key_serializer_for,
    list_objects,
    read_object,
    source_storage,
    value_serializer,
)

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.streaming.query import StreamingQuery
    from pyspark.sql.types import StructType

__all__ = [
    "SOURCE_FORMAT",
    "S3SourceDataSource",
    "SourceRun",
    "SourceSummary",
    "check_destinations",
    "run_source",
    "start_source",
]

SOURCE_FORMAT = "s3connect_s3_source"
_BATCH_ROWS = 10_000
_ARROW_SCHEMA = pa.schema(
    [
        ("topic", pa.string()),
        ("partition", pa.int32()),
        ("key", pa.binary()),
        ("value", pa.binary()),
        ("headers", pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))),
    ]
)
ROW_SCHEMA = (
    "topic STRING, partition INT, key BINARY, value BINARY, "
    "headers ARRAY<STRUCT<key: STRING, value: BINARY>>"
)


def check_destinations(config: SourceConfig, listing: Listing) -> dict[str, tuple[str, int]]:
    """Refuse feedback loops and check/create the destination topics of ``listing``.

    Returns destination -> (source topic, partitions needed).

    Raises:
        DestinationError: a source topic routed onto itself (unless ``source.allow.same.topic``),
            or a destination topic that is missing/too small (see ensure_destinations).
    """
    needed: dict[str, tuple[str, int]] = {}
    for topic, partition in listing.objects:
        dest = config.destination(topic)
        if dest == topic and not config.allow_same_topic:
            raise DestinationError(
                f"source topic {topic!r} would be written back into itself (a feedback loop "
                "with the sink): rename it with topic.prefix or transforms, or set "
                "source.allow.same.topic=true"
            )
        previous = needed.get(dest, (topic, 0))
        if partition + 1 > previous[1]:
            needed[dest] = (topic, partition + 1)
    ensure_destinations(config, needed)
    return needed


def _batch(
    work: _Work,
    keys: list[bytes | None],
    values: list[bytes | None],
    headers: list[tuple[tuple[str, bytes | None], ...]],
) -> pa.RecordBatch:
    n = len(values)
    header_type = _ARROW_SCHEMA.field("headers").type
    return pa.RecordBatch.from_arrays(
        [
            pa.array([work.destination] * n, pa.string()),
            pa.array([work.partition] * n, pa.int32()),
            pa.array(keys, pa.binary()),
            pa.array(values, pa.binary()),
            pa.array(
                [[{"key": k, "value": v} for k, v in h] if h else None for h in headers],
                header_type,
            ),
        ],
        schema=_ARROW_SCHEMA,
    )


@dataclass(frozen=True, slots=True)
class _Work:
    """One input partition: the slices of one source topic-partition, in order."""

    topic: str
    partition: int
    destination: str
    slices: tuple[ObjectSlice, ...]


class S3StreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """Offsets, planning and reading of the S3 source (see the module docstring)."""

    def __init__(self, config: SourceConfig) -> None:
        self.config = config
        self._target: Listing | None = None
        self._listing: Listing | None = None
        self._checked: dict[str, int] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self.config}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["config"])  # type: ignore[misc]

    def _list(self) -> Listing:
        listing = list_objects(source_storage(self.config), self.config)
        grown = {
            tp_id(topic, partition)
            for topic, partition in listing.objects
            if self._checked.get(topic, -1) < partition
        }
        if grown:
            check_destinations(self.config, listing)
            for topic, partition in listing.objects:
                self._checked[topic] = max(self._checked.get(topic, -1), partition)
        self._listing = listing
        return listing

    def initialOffset(self) -> dict[str, Any]:
        return {}

    def prepareForTriggerAvailableNow(self) -> None:
        self._target = self._list()

    def getDefaultReadLimit(self) -> ReadLimit:
        limit = self.config.max_objects_per_trigger
        return ReadAllAvailable() if limit is None else ReadMaxFiles(limit)

    def latestOffset(self, start: dict[str, Any], limit: ReadLimit) -> dict[str, Any]:
        listing = self._target if self._target is not None else self._list()
        max_objects = limit.max_files if isinstance(limit, ReadMaxFiles) else None
        end = latest_offsets(listing.objects, offsets_from_json(start), max_objects)
        return offsets_to_json(end)

    def partitions(self, start: dict[str, Any], end: dict[str, Any]) -> Sequence[InputPartition]:
        begin, stop = offsets_from_json(start), offsets_from_json(end)
        listing = self._listing
        known = set() if listing is None else {o.key for v in listing.objects.values() for o in v}
        if listing is None or any(p.key not in known for p in stop.values()):
            listing = self._list()  # a restart replaying a batch planned by an earlier run
        out: list[InputPartition] = []
        for entry, position in sorted(stop.items()):
            topic, partition = tp_of(entry)
            slices = plan_slices(
                listing.objects.get((topic, partition), []),
                begin.get(entry),
                position,
                contiguous=self.config.partitioner == "default",
                flush_size=self.config.flush_size,
            )
            if slices:
                work = _Work(topic, partition, self.config.destination(topic), tuple(slices))
                out.append(InputPartition(work))
        return out

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        """The records of one source topic-partition, in order, as Arrow batches (far cheaper
        for Spark to take in than one Python tuple per record)."""
        work: _Work = partition.value
        storage = source_storage(self.config)
        serializer = value_serializer(self.config)
        key_serializer = key_serializer_for(self.config)
        keys: list[bytes | None] = []
        values: list[bytes | None] = []
        headers: list[tuple[tuple[str, bytes | None], ...]] = []
        for piece in work.slices:
            for record in read_object(
                storage,
                self.config,
                piece.obj,
                destination=work.destination,
                skip=piece.skip,
                stop=piece.stop,
                bound=piece.bound,
                serializer=serializer,
                key_serializer=key_serializer,
            ):
                keys.append(record.key)
                values.append(record.value)
                headers.append(record.headers)
                if len(values) >= _BATCH_ROWS:
                    yield _batch(work, keys, values, headers)
                    keys, values, headers = [], [], []
        if values:
            yield _batch(work, keys, values, headers)

    def commit(self, end: dict[str, Any]) -> None:
        """Nothing to clean up: S3 objects stay (the sink owns them)."""


class S3SourceDataSource(DataSource):
    """``spark.readStream.format("s3connect_s3_source").option("config", <json>)``."""

    @classmethod
    def name(cls) -> str:
        return SOURCE_FORMAT

    def schema(self) -> str:
        return ROW_SCHEMA

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        import json

        return S3StreamReader(SourceConfig.from_mapping(json.loads(self.options["config"])))


# --------------------------------------------------------------------------- running


@dataclass
class SourceSummary:
    """Records published per destination topic-partition, batches, and skipped object keys."""

    records: dict[tuple[str, int], int] = field(default_factory=dict)
    batches: int = 0
    total: int = 0
    skipped: list[str] = field(default_factory=list)

    def render(self) -> str:
        """A plain-text summary table."""
        lines = [f"{'destination topic':<40} {'partition':>9} {'records':>10}"]
        for (topic, partition), count in sorted(self.records.items()):
            lines.append(f"{topic:<40} {partition:>9} {count:>10}")
        other = self.total - sum(self.records.values())
        if other:
            lines.append(f"{'(partitions found while running)':<40} {'':>9} {other:>10}")
        lines.append(f"{'total':<40} {'':>9} {self.total:>10}")
        if self.skipped:
            lines.append(f"skipped {len(self.skipped)} badly named objects (behavior.on.error)")
        return "\n".join(lines)


@dataclass
class SourceRun:
    """A started source query, the destination topic-partitions counted, and its summary."""

    query: StreamingQuery
    pairs: list[tuple[str, int]]
    summary: SourceSummary


def _source_frame(spark: SparkSession, config: SourceConfig, pairs: list[tuple[str, int]]) -> Any:
    import json

    from pyspark.sql import functions as F

    spark.dataSource.register(S3SourceDataSource)
    frame: DataFrame = (
        spark.readStream.format(SOURCE_FORMAT)
        .option("config", json.dumps(config.describe(masked=False)))
        .load()
    )
    metrics = [F.count(F.lit(1)).alias("records")]
    metrics += [
        F.count_if((F.col("topic") == topic) & (F.col("partition") == partition)).alias(f"p{i}")
        for i, (topic, partition) in enumerate(pairs)
    ]
    return frame.observe("published", *metrics)


def start_source(
    config: SourceConfig,
    spark: SparkSession | None = None,
    *,
    once: bool | None = None,
) -> SourceRun:
    """Check destinations, then start the query (``once`` forces the availableNow trigger).

    Raises:
        DestinationError: before anything is published (see :func:`check_destinations`).
        SourceObjectError: a badly named object with ``behavior.on.error=fail``.
    """
    from s3connect.spark import get_spark

    listing = list_objects(source_storage(config), config)
    check_destinations(config, listing)
    pairs = sorted({(config.destination(t), p) for t, p in listing.objects})
    spark = spark or get_spark("s3connect-source")
    writer = (
        _source_frame(spark, config, pairs)
        .writeStream.format("kafka")
        .queryName(config.name)
        .options(**config.spark_kafka_options())
        .option("checkpointLocation", config.checkpoint_location)
    )
    if once or (once is None and config.trigger == "availableNow"):
        writer = writer.trigger(availableNow=True)
    else:
        writer = writer.trigger(processingTime=f"{config.trigger_interval_ms} milliseconds")
    return SourceRun(writer.start(), pairs, SourceSummary(skipped=list(listing.skipped)))


def run_source(
    config: SourceConfig,
    spark: SparkSession | None = None,
    *,
    once: bool | None = None,
    log: Callable[[str], None] = print,
    timeout_s: float | None = None,
) -> SourceSummary:
    """Run the source until it stops (availableNow) or ``timeout_s``; print progress, summary.

    Raises:
        DestinationError: destination checks failed before the query started.
        RuntimeError: the query failed (the message carries the cause, e.g. an object key).
    """
    run = start_source(config, spark, once=once)
    await_query(
        run.query,
        lambda seen: _show_progress(run, seen, log),
        what="source",
        timeout_s=timeout_s,
    )
    log(run.summary.render())
    sys.stdout.flush()
    return run.summary


def _show_progress(run: SourceRun, seen: int, log: Callable[[str], None]) -> int:
    summary = run.summary
    for progress in run.query.recentProgress:
        batch = int(progress["batchId"])
        if batch <= seen:
            continue
        seen = batch
        rows = int(progress.get("numInputRows", 0))
        metrics = progress.get("observedMetrics", {}).get("published")
        if metrics is not None:
            values = metrics.asDict()
            summary.total += int(values.get("records") or 0)
            for i, pair in enumerate(run.pairs):
                count = int(values.get(f"p{i}") or 0)
                if count:
                    summary.records[pair] = summary.records.get(pair, 0) + count
        if rows:
            summary.batches += 1
            log(
                f"progress: batch {batch}, {rows} records published, "
                f"{progress.get('processedRowsPerSecond', 0.0):.0f} records/s"
            )
    return seen
