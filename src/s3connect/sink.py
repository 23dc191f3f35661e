"""The S3 sink as a Spark Structured Streaming query, in one of two shapes.

Shuffle-free (the default)::

    Kafka source ──▶ foreachBatch: mapInArrow(PartitionTask) ──▶ committed-object rows
        ──▶ dead letters, commit log (Delta), progress

Spark reads each Kafka topic-partition of a micro-batch in one task; that task converts, rotates
and writes its files (:class:`PartitionTask`), and keeps the rotator state and the records of
still-open files in offset-keyed files in the checkpoint (:mod:`s3connect.partition_state`).

Stateful (for timers, or a checkpoint the tasks cannot reach as files)::

    Kafka source ──▶ groupBy(topic, partition) ──▶ transformWithStateInPandas(SinkProcessor)
        ──▶ committed-object rows ──▶ foreachBatch: dead letters, commit log, progress

One key is one topic-partition; the open files live in the RocksDB state store
(:mod:`s3connect.stateful_sink`). Its processing-time timers close the files of idle partitions
on schedule (``rotate.schedule.interval.ms`` on a continuous trigger).

Both keep open files in the checkpoint with the Kafka offsets, so a restart resumes open files
exactly and a replayed micro-batch rewrites identical objects (exactly-once for deterministic
partitioners and rotation). Both run the same :class:`~s3connect.writer.TopicPartitionWriter`.
"""

from __future__ import annotations

import base64
import contextlib
import gc
import hashlib
import itertools
import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from s3connect.config import SinkConfig
from s3connect.dead_letter_queue import (
    DEAD_LETTER_COLUMNS,
    DeadLetterQueue,
    dead_letter_row,
    ensure_dlq_topic,
)
from s3connect.dead_letters import DeadLetter
from s3connect.errors import ConfigError
from s3connect.partition_state import PartitionStateStore, local_state_root
from s3connect.pending import decode_pending, open_chunks
from s3connect.pipeline import build_writer_context
from s3connect.queries import await_query
from s3connect.writer import CommittedObject, RawRecord, TopicPartitionWriter, WriterContext

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.streaming.query import StreamingQuery

__all__ = [
    "COMMIT_SCHEMA",
    "PartitionTask",
    "SinkRun",
    "SinkSummary",
    "gc_paused",
    "kafka_rows",
    "kafka_source",
    "processor_input",
    "raw_records",
    "run_sink",
    "start_sink",
]

COMMIT_COLUMNS = (
    "object_key",
    "topic",
    "partition",
    "encoded_partition",
    "start_offset",
    "end_offset",
    "record_count",
    "bytes",
)
COMMIT_SCHEMA = (
    "object_key STRING, topic STRING, partition INT, encoded_partition STRING, "
    "start_offset LONG, end_offset LONG, record_count LONG, bytes LONG"
)
# The processor emits committed objects (kind "object") and dead letters (kind "dead_letter")
# in one stream: the committed-object columns, then the dead-letter ones.
OUTPUT_COLUMNS = ("kind", *COMMIT_COLUMNS, *DEAD_LETTER_COLUMNS)
OUTPUT_SCHEMA = (
    "kind STRING, "
    + COMMIT_SCHEMA
    + ", "
    + ", ".join(f"{name} {kind}" for name, kind in DEAD_LETTER_COLUMNS.items())
)


def _output_fields(ddl: str) -> list[tuple[str, str]]:
    """(name, type) pairs of a flat DDL schema (types without commas)."""
    return [tuple(part.strip().split(" ", 1)) for part in ddl.split(",")]  # type: ignore[misc]


_ARROW_TYPES = {
    "STRING": pa.string(),
    "INT": pa.int32(),
    "LONG": pa.int64(),
    "BINARY": pa.binary(),
    "ARRAY<STRING>": pa.list_(pa.string()),
    "ARRAY<BINARY>": pa.list_(pa.binary()),
}
OUTPUT_ARROW_SCHEMA = pa.schema(
    [(name, _ARROW_TYPES[kind.upper()]) for name, kind in _output_fields(OUTPUT_SCHEMA)]
)


def _output_batch(objects: list[CommittedObject], letters: list[DeadLetter]) -> pa.RecordBatch:
    rows: list[dict[str, Any]] = [
        {
            "kind": "object",
            "object_key": o.key,
            "topic": o.topic,
            "partition": o.partition,
            "encoded_partition": o.encoded_partition,
            "start_offset": o.start_offset,
            "end_offset": o.end_offset,
            "record_count": o.record_count,
            "bytes": o.bytes,
        }
        for o in objects
    ]
    rows += [{"kind": "dead_letter", **dead_letter_row(d)} for d in letters]
    return pa.RecordBatch.from_pylist(rows, schema=OUTPUT_ARROW_SCHEMA)


class PartitionTask:
    """Writes, in the Spark task that reads them, the records of each topic-partition of one
    micro-batch (``DataFrame.mapInArrow`` over the Kafka rows: no shuffle). The rotator state
    and open records carry over between micro-batches in :class:`PartitionStateStore` files in
    the checkpoint, keyed by offset."""

    def __init__(self, config: SinkConfig, state_root: str, now_ms: int) -> None:
        self._config = config
        self._state_root = state_root
        self._now_ms = now_ms

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        ctx = build_writer_context(self._config)
        store = PartitionStateStore(Path(self._state_root))
        done: set[tuple[str, int]] = set()
        current: _OpenPartition | None = None
        with gc_paused():
            for batch in batches:
                for (topic, partition), rows in _partition_runs(batch):
                    if current is None or (topic, partition) != current.key:
                        if current is not None:
                            yield current.finish(store, self._now_ms)
                        if (topic, partition) in done:
                            raise RuntimeError(
                                f"{topic}-{partition}: records of one topic-partition reached a "
                                "task out of order"
                            )
                        done.add((topic, partition))
                        current = _OpenPartition.start(ctx, store, topic, partition, rows)
                    current.write(rows, self._now_ms)
            if current is not None:
                yield current.finish(store, self._now_ms)


@dataclass
class _OpenPartition:
    key: tuple[str, int]
    writer: TopicPartitionWriter
    loaded: int | None
    saved_chunks: list[bytes]
    last_offset: int = -1
    committed: list[CommittedObject] = field(default_factory=list)

    @classmethod
    def start(
        cls,
        ctx: WriterContext,
        store: PartitionStateStore,
        topic: str,
        partition: int,
        rows: pa.RecordBatch,
    ) -> _OpenPartition:
        saved = store.load(topic, partition, rows.column("offset")[0].as_py())
        chunks = saved.chunks if saved else []

        def load() -> list[Any]:
            return [p for chunk in chunks for p in decode_pending(topic, partition, chunk)]

        writer = TopicPartitionWriter(ctx, topic, partition, saved.rotator if saved else None, load)
        return cls((topic, partition), writer, saved.next_offset if saved else None, chunks)

    def write(self, rows: pa.RecordBatch, now_ms: int) -> None:
        headers = rows.column("headers")
        offsets = rows.column("offset").to_pylist()
        self.committed += self.writer.write(
            raw_records(
                *self.key,
                offsets,
                rows.column("timestamp").to_pylist(),
                _binaries(rows.column("key")),
                _binaries(rows.column("value")),
                None if headers.null_count == len(headers) else headers.to_pylist(),
            ),
            now_ms,
        )
        self.last_offset = offsets[-1]

    def finish(self, store: PartitionStateStore, now_ms: int) -> pa.RecordBatch:
        writer = self.writer
        self.committed += writer.on_timer(now_ms)
        saved = open_chunks(writer)
        chunks = saved.chunks if saved.replace else self.saved_chunks + saved.chunks
        store.save(*self.key, self.last_offset + 1, saved.rotator, chunks, loaded=self.loaded)
        return _output_batch(self.committed, writer.dead_letters)


def _binaries(column: pa.Array) -> list[bytes | None]:
    """A binary column as bytes (None for nulls): by way of NumPy, half the cost of to_pylist."""
    if column.null_count == len(column):
        return [None] * len(column)
    return column.to_numpy(zero_copy_only=False).tolist()  # type: ignore[no-any-return]


def _partition_runs(batch: pa.RecordBatch) -> Iterator[tuple[tuple[str, int], pa.RecordBatch]]:
    """Slices of ``batch`` holding one topic-partition each, in order (one slice, as a rule:
    a Spark Kafka task reads one topic-partition)."""
    if batch.num_rows == 0:
        return
    topics = batch.column("topic")
    partitions = batch.column("partition")
    if len(pc.unique(topics)) == 1 and len(pc.unique(partitions)) == 1:
        yield (topics[0].as_py(), partitions[0].as_py()), batch
        return
    keys = list(zip(topics.to_pylist(), partitions.to_pylist(), strict=True))
    start = 0
    for i in range(1, len(keys) + 1):
        if i == len(keys) or keys[i] != keys[start]:
            yield keys[start], batch.slice(start, i - start)
            start = i


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a batch is handled: its records (acyclic, freed by
    reference counting) would otherwise trigger full collections over every live object."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def raw_records(
    topic: str,
    partition: int,
    offsets: list[int],
    timestamps: list[int | None],
    keys: list[bytes | None],
    values: list[bytes | None],
    headers: list[str | None] | None,
) -> Iterator[RawRecord]:
    for offset, ts, k, v, h in zip(
        offsets,
        timestamps,
        keys,
        values,
        itertools.repeat(None) if headers is None else headers,
        strict=False,
    ):
        yield RawRecord(topic, partition, offset, ts, k, v, () if h is None else _json_headers(h))


def _json_headers(text: str) -> tuple[tuple[str, bytes | None], ...]:
    """Headers from Spark's ``to_json`` of the Kafka source's ``headers`` (binary values in
    base64; a null value written as null or left out)."""
    return tuple(
        (h["key"], None if h.get("value") is None else base64.b64decode(h["value"]))
        for h in json.loads(text)
    )


def processor_input(source: DataFrame) -> DataFrame:
    """The Kafka rows as the processor reads them: headers as JSON text. Spark's Arrow writer
    (feeding the Python processor) re-walks a list column to size the batch after every row,
    quadratic in the batch; a string column costs nothing when there are no headers."""
    return source.selectExpr(
        "topic", "partition", "offset", "timestamp", "key", "value", "to_json(headers) AS headers"
    )


def kafka_source(spark: SparkSession, config: SinkConfig) -> DataFrame:
    """The configured topics as raw Kafka rows (timestamp in epoch milliseconds)."""
    reader = spark.readStream.format("kafka").option("includeHeaders", "true")
    for name, value in config.spark_kafka_options().items():
        reader = reader.option(name, value)
    return kafka_rows(reader.load())


def kafka_rows(source: DataFrame) -> DataFrame:
    """The Kafka source's rows as the sink reads them (timestamp in epoch milliseconds)."""
    return source.selectExpr(
        "topic", "partition", "offset", "unix_millis(timestamp) AS timestamp", "key", "value",
        "headers",
    )  # fmt: skip


@dataclass
class SinkSummary:
    """What a sink run wrote, per topic-partition and in total."""

    objects: list[dict[str, Any]] = field(default_factory=list)
    batches: int = 0
    input_rows: int = 0
    dead_letters: int = 0
    """Records that failed and went to the dead letter queue (``errors.tolerance=all``)."""

    def totals(self) -> dict[tuple[str, int], dict[str, int]]:
        """Objects, records and bytes per (topic, partition)."""
        out: dict[tuple[str, int], dict[str, int]] = {}
        for o in self.objects:
            t = out.setdefault(
                (o["topic"], o["partition"]), {"objects": 0, "records": 0, "bytes": 0}
            )
            t["objects"] += 1
            t["records"] += o["record_count"]
            t["bytes"] += o["bytes"]
        return out

    def render(self) -> str:
        """A plain-text summary table."""
        lines = [f"{'topic':<30} {'partition':>9} {'objects':>8} {'records':>10} {'bytes':>12}"]
        for (topic, partition), t in sorted(self.totals().items()):
            lines.append(
                f"{topic:<30} {partition:>9} {t['objects']:>8} {t['records']:>10} {t['bytes']:>12}"
            )
        n_obj = len(self.objects)
        n_rec = sum(o["record_count"] for o in self.objects)
        n_bytes = sum(o["bytes"] for o in self.objects)
        lines.append(f"{'total':<30} {'':>9} {n_obj:>8} {n_rec:>10} {n_bytes:>12}")
        if self.dead_letters:
            lines.append(f"dead letters: {self.dead_letters} records failed (errors.tolerance=all)")
        return "\n".join(lines)


def _app_id(config: SinkConfig) -> str:
    return "s3connect-sink-" + hashlib.sha256(config.checkpoint_location.encode()).hexdigest()[:16]


def _batch_handler(
    config: SinkConfig,
    summary: SinkSummary,
    log: Callable[[str], None],
    output: Callable[[DataFrame], DataFrame],
) -> Callable[[DataFrame, int], None]:
    """The foreachBatch function: runs ``output`` (the writers' committed objects and dead
    letters) on the micro-batch, then handles dead letters, the commit log and progress."""
    dlq = DeadLetterQueue(config, log)

    def handle(batch: DataFrame, batch_id: int) -> None:
        # One action only: evaluating the output twice would run the writers twice.
        rows_out = [r.asDict() for r in output(batch).collect()]
        rows = [{k: r[k] for k in COMMIT_COLUMNS} for r in rows_out if r["kind"] == "object"]
        letters = [r for r in rows_out if r["kind"] == "dead_letter"]
        summary.batches += 1
        summary.objects += rows
        # Dead letters first: a failure there fails the batch before the commit log says done.
        dlq.handle(batch.sparkSession, letters, _app_id(config), batch_id)
        summary.dead_letters = dlq.count
        if rows and config.commit_log_table:
            from s3connect.commit_log import append_commit_log

            append_commit_log(
                batch.sparkSession, config.commit_log_table, rows, _app_id(config), batch_id
            )
        if rows:
            n_rec = sum(r["record_count"] for r in rows)
            n_bytes = sum(r["bytes"] for r in rows)
            log(
                f"batch {batch_id}: committed {len(rows)} objects, {n_rec} records, {n_bytes} bytes"
            )

    return handle


def _written_in_task(config: SinkConfig, state_root: Path) -> Callable[[DataFrame], DataFrame]:
    """The shuffle-free output: each Kafka topic-partition written by the task reading it."""

    def output(batch: DataFrame) -> DataFrame:
        task = PartitionTask(config, str(state_root), int(time.time() * 1000))
        return processor_input(batch).mapInArrow(task, OUTPUT_SCHEMA)

    return output


@dataclass
class SinkRun:
    """A started sink query with the summary it fills as batches commit."""

    query: StreamingQuery
    summary: SinkSummary


def _task_state_root(config: SinkConfig, timers: bool) -> Path | None:
    """Where the shuffle-free sink keeps open files (see :class:`PartitionTask`); None: the
    stateful sink (:class:`SinkProcessor`) instead.

    The stateful one is needed for timers (scheduled rotation of idle partitions, on a
    continuous trigger) and for a checkpoint the tasks cannot reach as files. A checkpoint
    keeps the kind it started with, so that no open file is left behind in the other kind's
    state.

    Raises:
        ConfigError: Timers are needed, but the checkpoint was started without them.
    """
    root = local_state_root(config.checkpoint_location)
    if root is None:
        return None
    if (root.parent / "state").is_dir():  # Spark's operator state: started stateful
        return None
    if timers:
        if any(root.rglob("*.state")):
            raise ConfigError(
                f"rotate.schedule.interval.ms={config.rotate_schedule_interval_ms} on a "
                "continuous trigger closes idle files with Spark's stateful operator, but "
                f"checkpoint.location {config.checkpoint_location} was started without it "
                "(by a run with trigger availableNow or without rotate.schedule.interval.ms), "
                "and its open files are kept apart from it: keep running it that way, or "
                "start a new checkpoint.location"
            )
        return None
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(
            f"checkpoint.location {config.checkpoint_location}: the sink keeps open files under "
            f"{root}, which cannot be created ({exc.strerror}); use a path every task can write "
            "(a local or shared file system path, dbfs:/ or /Volumes/ on Databricks), or an "
            "s3a:// or abfss:// URL (open files then live in Spark's state store)"
        ) from exc
    return root


def start_sink(
    config: SinkConfig,
    spark: SparkSession | None = None,
    *,
    once: bool | None = None,
    log: Callable[[str], None] = print,
) -> SinkRun:
    """Start the sink query (``once`` forces the availableNow trigger)."""
    from s3connect.spark import get_spark

    spark = spark or get_spark("s3connect-sink")
    summary = SinkSummary()
    if config.errors_tolerance == "all":
        ensure_dlq_topic(config)
    available_now = bool(once or (once is None and config.trigger == "availableNow"))
    # Processing-time timers close idle files on schedule; a query with them runs a batch on
    # every trigger even without data, so an availableNow run would never end: it gets none
    # and commits due files when records arrive, as Confluent does.
    timers = config.rotate_schedule_interval_ms > 0 and not available_now
    state_root = _task_state_root(config, timers)
    source = kafka_source(spark, config)
    if state_root is None:
        from s3connect.stateful_sink import SinkProcessor

        stream = (
            processor_input(source)
            .groupBy("topic", "partition")
            .transformWithStateInPandas(
                statefulProcessor=SinkProcessor(config, timers=timers),
                outputStructType=OUTPUT_SCHEMA,
                outputMode="Append",
                timeMode="ProcessingTime" if timers else "None",
            )
        )
        handler = _batch_handler(config, summary, log, lambda batch: batch)
    else:
        stream = source
        handler = _batch_handler(config, summary, log, _written_in_task(config, state_root))
    writer = (
        stream.writeStream.queryName(config.name)
        .option("checkpointLocation", config.checkpoint_location)
        .foreachBatch(handler)
    )
    if available_now:
        writer = writer.trigger(availableNow=True)
    else:
        writer = writer.trigger(processingTime=f"{config.trigger_interval_ms} milliseconds")
    return SinkRun(writer.start(), summary)


def run_sink(
    config: SinkConfig,
    spark: SparkSession | None = None,
    *,
    once: bool | None = None,
    log: Callable[[str], None] = print,
    timeout_s: float | None = None,
) -> SinkSummary:
    """Run the sink until it stops (availableNow) or ``timeout_s``; print progress and summary."""
    run = start_sink(config, spark, once=once, log=log)
    await_query(
        run.query,
        lambda seen: _show_progress(run.query, seen, log),
        what="sink",
        timeout_s=timeout_s,
    )
    log(run.summary.render())
    sys.stdout.flush()
    return run.summary


def _show_progress(query: StreamingQuery, seen: int, log: Callable[[str], None]) -> int:
    for progress in query.recentProgress:
        batch = int(progress["batchId"])
        if batch <= seen:
            continue
        lag = [
            s.get("metrics", {}).get("maxOffsetsBehindLatest") for s in progress.get("sources", [])
        ]
        lag_text = ", ".join(str(x) for x in lag if x is not None) or "?"
        log(
            f"progress: batch {batch}, {progress.get('numInputRows', 0)} input records, "
            f"{progress.get('processedRowsPerSecond', 0.0):.0f} records/s, lag {lag_text}"
        )
        seen = batch
    return seen
