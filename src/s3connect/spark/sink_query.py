"""The S3 sink as a Spark Structured Streaming query, in one of two shapes.

Shuffle-free (the default)::

    Kafka source ──▶ foreachBatch: mapInArrow(PartitionTask) ──▶ committed-object rows
        ──▶ dead letters, commit log (Delta), progress

Spark reads each Kafka topic-partition of a micro-batch in one task; that task converts, rotates
and writes its files (:class:`PartitionTask`), and keeps the rotator state and the records of
still-open files in offset-keyed files in the checkpoint (:mod:`s3connect.sink.partition_state`).

Stateful (for timers, or a checkpoint the tasks cannot reach as files)::

    Kafka source ──▶ groupBy(topic, partition) ──▶ transformWithStateInPandas(SinkProcessor)
        ──▶ committed-object rows ──▶ foreachBatch: dead letters, commit log, progress

One key is one topic-partition; the open files live in the RocksDB state store
(:mod:`s3connect.spark.stateful`). Its processing-time timers close the files of idle partitions
on schedule (``rotate.schedule.interval.ms`` on a continuous trigger).

Both keep open files in the checkpoint with the Kafka offsets, so a restart resumes open files
exactly and a replayed micro-batch rewrites identical objects (exactly-once for deterministic
partitioners and rotation). Both run the same :class:`~s3connect.sink.writer.TopicPartitionWriter`.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from s3connect.config.sink import SinkConfig
from s3connect.errors import ConfigError
from s3connect.sink.dead_letters import dead_letter_from_row, failure_error
from s3connect.sink.output import COMMIT_COLUMNS, OUTPUT_SCHEMA
from s3connect.sink.partition_state import local_state_root
from s3connect.sink.summary import BatchStats, SinkSummary
from s3connect.sink.task import PartitionTask
from s3connect.spark.dead_letter_queue import DeadLetterQueue, ensure_dlq_topic
from s3connect.spark.jvm_lines import with_jvm_lines
from s3connect.spark.progress import BatchProgress, await_query

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.streaming.query import StreamingQuery

__all__ = [
    "SinkRun",
    "kafka_rows",
    "kafka_source",
    "processor_input",
    "run_sink",
    "start_sink",
]

logger = logging.getLogger(__name__)


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
    """The Kafka source's rows as the sink reads them (timestamp in epoch milliseconds; null
    for Kafka's ``RecordBatch.NO_TIMESTAMP``, -1, as ``WorkerSinkTask`` hands it to the task)."""
    return source.selectExpr(
        "topic", "partition", "offset", "nullif(unix_millis(timestamp), -1) AS timestamp", "key",
        "value", "headers",
    )  # fmt: skip


def _app_id(config: SinkConfig) -> str:
    return (
        "s3connect-sink-"
        + hashlib.sha256(config.streaming.checkpoint_location.encode()).hexdigest()[:16]
    )


def _batch_handler(
    config: SinkConfig,
    summary: SinkSummary,
    output: Callable[[DataFrame], DataFrame],
) -> Callable[[DataFrame, int], None]:
    """The foreachBatch function: runs ``output`` (the writers' committed objects and dead
    letters) on the micro-batch, then handles dead letters, the commit log and progress."""
    dlq = DeadLetterQueue(config)

    def handle(batch: DataFrame, batch_id: int) -> None:
        # One action only: evaluating the output twice would run the writers twice.
        rows_out = [r.asDict() for r in output(batch).collect()]
        rows = [{k: r[k] for k in COMMIT_COLUMNS} for r in rows_out if r["kind"] == "object"]
        letters = [r for r in rows_out if r["kind"] in ("dead_letter", "failure")]
        summary.batches += 1
        summary.objects += rows
        # Dead letters first: a failure there fails the batch before the commit log says done.
        dlq.handle(batch.sparkSession, letters, _app_id(config), batch_id)
        summary.dead_letters = dlq.count
        failures = [r for r in rows_out if r["kind"] == "failure"]
        if failures:  # errors.tolerance=none: reported above, now it fails the batch
            first = min(failures, key=lambda r: (r["topic"], r["partition"], r["offset"]))
            raise failure_error(dead_letter_from_row(first))
        if rows and config.streaming.commit_log_table:
            from s3connect.spark.commit_log import append_commit_log

            append_commit_log(
                batch.sparkSession,
                config.streaming.commit_log_table,
                rows,
                _app_id(config),
                batch_id,
            )
        if rows:
            n_rec = sum(r["record_count"] for r in rows)
            n_bytes = sum(r["bytes"] for r in rows)
            logger.info(
                "batch %d: committed %d objects, %d records, %d bytes",
                batch_id, len(rows), n_rec, n_bytes,
            )  # fmt: skip

    return handle


def _written_in_task(config: SinkConfig, state_root: Path) -> Callable[[DataFrame], DataFrame]:
    """The shuffle-free output: each Kafka topic-partition written by the task reading it."""

    def output(batch: DataFrame) -> DataFrame:
        task = PartitionTask(config, str(state_root), int(time.time() * 1000))
        return with_jvm_lines(processor_input(batch), config).mapInArrow(task, OUTPUT_SCHEMA)

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
    root = local_state_root(config.streaming.checkpoint_location)
    if root is None:
        return None
    if (root.parent / "state").is_dir():  # Spark's operator state: started stateful
        return None
    if timers:
        if any(root.rglob("*.state")):
            raise ConfigError(
                f"rotate.schedule.interval.ms={config.rotation.rotate_schedule_interval_ms} on a "
                "continuous trigger closes idle files with Spark's stateful operator, but "
                f"checkpoint.location {config.streaming.checkpoint_location} was started "
                "without it "
                "(by a run with trigger availableNow or without rotate.schedule.interval.ms), "
                "and its open files are kept apart from it: keep running it that way, or "
                "start a new checkpoint.location"
            )
        return None
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(
            f"checkpoint.location {config.streaming.checkpoint_location}: the sink keeps open "
            "files under "
            f"{root}, which cannot be created ({exc.strerror}); use a path every task can write "
            "(a local or shared file system path, dbfs:/ or /Volumes/ on Databricks), or an "
            "s3a:// or abfss:// URL (open files then live in Spark's state store)"
        ) from exc
    return root


def _check_bucket(config: SinkConfig) -> None:
    """Fail at start on a missing bucket, as Confluent's S3SinkTask.start does."""
    from s3connect.sink.context import build_storage
    from s3connect.storage.s3 import S3Storage

    storage = build_storage(config)
    if isinstance(storage, S3Storage):
        storage.check_bucket()


def start_sink(
    config: SinkConfig,
    spark: SparkSession | None = None,
    *,
    once: bool | None = None,
) -> SinkRun:
    """Start the sink query (``once`` forces the availableNow trigger)."""
    from s3connect.spark.session import get_spark, redact_secret_options

    spark = spark or get_spark("s3connect-sink")
    redact_secret_options(spark)  # the Kafka source's options hold the SASL and TLS secrets
    summary = SinkSummary()
    _check_bucket(config)
    ensure_dlq_topic(config)  # whatever errors.tolerance: Kafka Connect reports to it either way
    available_now = bool(once or (once is None and config.streaming.trigger == "availableNow"))
    # Processing-time timers close idle files on schedule; a query with them runs a batch on
    # every trigger even without data, so an availableNow run would never end: it gets none
    # and commits due files when records arrive, as Confluent does.
    timers = config.rotation.rotate_schedule_interval_ms > 0 and not available_now
    state_root = _task_state_root(config, timers)
    source = kafka_source(spark, config)
    if state_root is None:
        from s3connect.spark.stateful import SinkProcessor

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
        handler = _batch_handler(config, summary, lambda batch: batch)
    else:
        stream = source
        handler = _batch_handler(config, summary, _written_in_task(config, state_root))
    writer = (
        stream.writeStream.queryName(config.name)
        .option("checkpointLocation", config.streaming.checkpoint_location)
        .foreachBatch(handler)
    )
    if available_now:
        writer = writer.trigger(availableNow=True)
    else:
        writer = writer.trigger(
            processingTime=f"{config.streaming.trigger_interval_ms} milliseconds"
        )
    return SinkRun(writer.start(), summary)


def run_sink(
    config: SinkConfig,
    spark: SparkSession | None = None,
    *,
    once: bool | None = None,
    timeout_s: float | None = None,
    show: Callable[[BatchStats], None] | None = None,
) -> SinkSummary:
    """Run the sink until it stops (availableNow) or ``timeout_s``; report each micro-batch
    (``show``; default: a log line) and log the summary."""
    run = start_sink(config, spark, once=once)

    def on_batch(progress: BatchProgress) -> None:
        stats = BatchStats.of(progress)
        run.summary.progress.append(stats)
        (show or log_batch)(stats)

    await_query(run.query, on_batch, what="sink", timeout_s=timeout_s)
    logger.info("%s", run.summary.render())
    return run.summary


def log_batch(stats: BatchStats) -> None:
    """The plain progress line of a micro-batch."""
    logger.info(
        "progress: batch %d, %d input records, %.0f records/s, lag %s",
        stats.batch, stats.input_rows, stats.rows_per_second,
        "?" if stats.lag is None else stats.lag,
    )  # fmt: skip
