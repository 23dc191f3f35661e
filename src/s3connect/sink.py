"""The S3 sink as a Spark Structured Streaming query.

    Kafka source ──▶ groupBy(topic, partition) ──▶ transformWithStateInPandas(SinkProcessor)
        ──▶ committed-object rows ──▶ foreachBatch: commit log (Delta) + progress

One stateful-processor key is one Kafka topic-partition, so Spark spreads topic-partitions over
its executors. The processor keeps, in the RocksDB state store, the rotator state and the
records of still-open files; Spark checkpoints that state together with the Kafka offsets, so a
restart resumes open files exactly and a replayed micro-batch rewrites identical objects
(exactly-once for deterministic partitioners and rotation).
"""

from __future__ import annotations

import base64
import contextlib
import gc
import hashlib
import itertools
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pandas as pd
from pyspark.sql.streaming.stateful_processor import (
    ExpiredTimerInfo,
    StatefulProcessor,
    StatefulProcessorHandle,
    TimerValues,
)

from s3connect.config import SinkConfig
from s3connect.dead_letter_queue import (
    DEAD_LETTER_COLUMNS,
    DeadLetterQueue,
    dead_letter_row,
    ensure_dlq_topic,
)
from s3connect.dead_letters import DeadLetter
from s3connect.pending import decode_pending, encode_pending
from s3connect.pipeline import build_writer_context
from s3connect.queries import await_query
from s3connect.rotation import RotatorState
from s3connect.writer import CommittedObject, RawRecord, TopicPartitionWriter, WriterContext

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.streaming.query import StreamingQuery

__all__ = ["COMMIT_SCHEMA", "SinkProcessor", "SinkRun", "SinkSummary", "run_sink", "start_sink"]

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
_INT_COLUMNS = {
    "partition": "int32",
    "start_offset": "int64",
    "end_offset": "int64",
    "record_count": "int64",
    "bytes": "int64",
}


def _rows(objects: list[CommittedObject], letters: list[DeadLetter]) -> Iterator[pd.DataFrame]:
    if objects:
        frame = pd.DataFrame(
            [
                (
                    "object",
                    o.key,
                    o.topic,
                    o.partition,
                    o.encoded_partition,
                    o.start_offset,
                    o.end_offset,
                    o.record_count,
                    o.bytes,
                )
                for o in objects
            ],
            columns=["kind", *COMMIT_COLUMNS],
        ).astype(_INT_COLUMNS)
        for name in DEAD_LETTER_COLUMNS:
            frame[name] = pd.Series([None] * len(frame), dtype=object)
        yield frame[list(OUTPUT_COLUMNS)]
    if letters:
        frame = pd.DataFrame([dead_letter_row(d) for d in letters])
        frame["timestamp"] = pd.Series([d.raw.timestamp for d in letters], dtype=object)
        frame.insert(0, "kind", "dead_letter")
        for name in COMMIT_COLUMNS:
            if name not in frame:
                frame[name] = pd.Series([None] * len(frame), dtype=object)
        yield frame.astype({"partition": "int32", "offset": "int64"})[list(OUTPUT_COLUMNS)]


class SinkProcessor(StatefulProcessor):
    """Writes the files of one Kafka topic-partition per grouping key."""

    def __init__(self, config: SinkConfig, *, timers: bool = False) -> None:
        self._config = config
        self._timers = timers

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._handle = handle
        self._rotator = handle.getValueState("rotator", "state STRING")
        self._pending = handle.getListState("pending", "chunk BINARY")
        self._ctx: WriterContext = build_writer_context(self._config)

    def _writer(self, topic: str, partition: int) -> TopicPartitionWriter:
        saved = self._rotator.get() if self._rotator.exists() else None
        state = RotatorState.from_dict(json.loads(saved[0])) if saved else None

        def load() -> list[Any]:
            if not self._pending.exists():
                return []
            out: list[Any] = []
            for (chunk,) in self._pending.get():
                out += decode_pending(topic, partition, bytes(chunk))
            return out

        return TopicPartitionWriter(self._ctx, topic, partition, state, load)

    def _save(self, writer: TopicPartitionWriter, now_ms: int) -> None:
        if writer.flushed:
            state, pending = writer.snapshot()
            self._pending.clear()
            if pending:
                self._pending.put([(encode_pending(pending),)])
        else:
            state = writer.rotator.state
            new = writer.new_pending()
            if new:
                self._pending.appendValue((encode_pending(new),))
        self._rotator.update((json.dumps(state.to_dict()),))
        if not self._timers:
            return
        for old in self._handle.listTimers():
            self._handle.deleteTimer(old)
        due = writer.rotator.next_timer_ms()
        if due is not None:
            self._handle.registerTimer(max(due, now_ms + 1))

    def handleInputRows(
        self, key: Any, rows: Iterator[pd.DataFrame], timerValues: TimerValues
    ) -> Iterator[pd.DataFrame]:
        topic, partition = str(key[0]), int(key[1])
        now = timerValues.getCurrentProcessingTimeInMs()
        with _gc_paused():
            frame = pd.concat(list(rows), ignore_index=True)
            if not frame["offset"].is_monotonic_increasing:
                frame = frame.sort_values("offset", kind="stable")
            writer = self._writer(topic, partition)
            committed = writer.write(_raw_records(topic, partition, frame), now)
            committed += writer.on_timer(now)
            self._save(writer, now)
            letters = writer.dead_letters
            # Free the batch's records now, by reference counting, rather than have the next
            # collection walk them.
            del frame, writer
        yield from _rows(committed, letters)

    def handleExpiredTimer(
        self, key: Any, timerValues: TimerValues, expiredTimerInfo: ExpiredTimerInfo
    ) -> Iterator[pd.DataFrame]:
        topic, partition = str(key[0]), int(key[1])
        now = timerValues.getCurrentProcessingTimeInMs()
        writer = self._writer(topic, partition)
        committed = writer.on_timer(now)
        self._save(writer, now)
        yield from _rows(committed, [])

    def close(self) -> None:
        pass


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a batch is handled: its records (acyclic, freed by
    reference counting) would otherwise trigger full collections over every live object."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _raw_records(topic: str, partition: int, frame: pd.DataFrame) -> Iterator[RawRecord]:
    """The records of a frame of Kafka rows (see :func:`_processor_input`), in its order."""
    offsets = frame["offset"]
    timestamps = frame["timestamp"]
    headers = frame["headers"]
    for offset, ts, k, v, h in zip(
        offsets.tolist() if offsets.dtype.kind == "i" else [int(o) for o in offsets],
        timestamps.tolist()
        if timestamps.dtype.kind == "i" and not timestamps.hasnans
        else [None if pd.isna(t) else int(t) for t in timestamps],
        frame["key"].tolist(),
        frame["value"].tolist(),
        itertools.repeat(None) if headers.isna().all() else headers.tolist(),
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


def _processor_input(source: DataFrame) -> DataFrame:
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
    return reader.load().selectExpr(
        "topic",
        "partition",
        "offset",
        "unix_millis(timestamp) AS timestamp",
        "key",
        "value",
        "headers",
    )


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


def _commit_log_writer(
    config: SinkConfig, summary: SinkSummary, log: Callable[[str], None]
) -> Callable[[DataFrame, int], None]:
    dlq = DeadLetterQueue(config, log)

    def write(batch: DataFrame, batch_id: int) -> None:
        # One action only: evaluating the batch twice would run the writers twice.
        output = [r.asDict() for r in batch.collect()]
        rows = [{k: r[k] for k in COMMIT_COLUMNS} for r in output if r["kind"] == "object"]
        letters = [r for r in output if r["kind"] == "dead_letter"]
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

    return write


@dataclass
class SinkRun:
    """A started sink query with the summary it fills as batches commit."""

    query: StreamingQuery
    summary: SinkSummary


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
    committed = (
        _processor_input(kafka_source(spark, config))
        .groupBy("topic", "partition")
        .transformWithStateInPandas(
            statefulProcessor=SinkProcessor(config, timers=timers),
            outputStructType=OUTPUT_SCHEMA,
            outputMode="Append",
            timeMode="ProcessingTime" if timers else "None",
        )
    )
    writer = (
        committed.writeStream.queryName(config.name)
        .option("checkpointLocation", config.checkpoint_location)
        .foreachBatch(_commit_log_writer(config, summary, log))
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
