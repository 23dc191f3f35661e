"""The S3 source as a Spark Structured Streaming query.

    S3 listing ──▶ Python streaming DataSource (offsets per source topic-partition)
        ──▶ one input partition (one Spark task) per source topic-partition: read its objects
            in order, serialize each record with value.converter, publish it (a librdkafka
            producer in the task) to the renamed topic, same partition number
        ──▶ its counts per destination ──▶ writeStream.format("noop") (observed metrics)

The DataSource's offsets (:mod:`s3connect.source.offsets`) say, per source topic-partition, the
last object published and how many of its records; Spark checkpoints them, so a restart resumes
where the last committed batch ended. Delivery is at-least-once: a task ends only once Kafka has
acknowledged all its records, and a batch that fails or is cut short by a crash is published
again on restart. Within a task the records are sent in order through an idempotent producer, so
each destination partition gets the records of its source partition in their original order.
Every ``latestOffset`` lists the bucket again, so new objects, new partition folders and new
time-based folders are found while the query runs.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from s3connect.config.source import SourceConfig
from s3connect.source.destinations import check_destinations
from s3connect.source.reader import (
    list_objects,
    source_storage,
)
from s3connect.source.summary import SourceSummary
from s3connect.spark.progress import BatchProgress, await_query
from s3connect.spark.source_stream import ROW_SCHEMA, SOURCE_FORMAT, configured_source

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.streaming.query import StreamingQuery

__all__ = [
    "SourceRun",
    "run_source",
    "start_source",
]

logger = logging.getLogger(__name__)


# --------------------------------------------------------------------------- running


@dataclass
class SourceRun:
    """A started source query and its summary."""

    query: StreamingQuery
    summary: SourceSummary

    def count_batch(self, progress: BatchProgress) -> None:
        """Add one micro-batch's published records (its observed metrics) to the summary."""
        summary = self.summary
        metrics = progress.get("observedMetrics", {}).get("published")
        counts = [] if metrics is None else metrics.asDict(recursive=True).get("counts") or []
        rows = sum(int(item["records"]) for item in counts)
        for item in counts:
            pair = (item["topic"], item["partition"])
            summary.records[pair] = summary.records.get(pair, 0) + item["records"]
        if rows:
            summary.total += rows
            summary.batches += 1
            seconds = progress.get("durationMs", {}).get("triggerExecution", 0) / 1000
            rate = rows / seconds if seconds else 0.0
            summary.progress.append((int(progress["batchId"]), rows, rate))
            logger.info(
                "progress: batch %s, %d records published, %.0f records/s",
                progress["batchId"], rows, rate,
            )  # fmt: skip


def _source_frame(spark: SparkSession, config: SourceConfig) -> Any:
    """The source's counts of published records per destination topic-partition (its tasks
    publish), gathered as an observed metric."""
    from pyspark.sql import functions as F

    spark.dataSource.register(configured_source(config))
    # The schema given, Spark does not start a Python process to ask the data source for it.
    frame: DataFrame = spark.readStream.format(SOURCE_FORMAT).schema(ROW_SCHEMA).load()
    counts = F.collect_list(F.struct("topic", "partition", "records")).alias("counts")
    return frame.observe("published", counts)


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
    from s3connect.spark.session import get_spark

    listing = list_objects(source_storage(config), config)
    check_destinations(config, listing)
    spark = spark or get_spark("s3connect-source")
    writer = (
        _source_frame(spark, config)
        .writeStream.format("noop")
        .queryName(config.name)
        .option("checkpointLocation", config.streaming.checkpoint_location)
    )
    if once or (once is None and config.streaming.trigger == "availableNow"):
        writer = writer.trigger(availableNow=True)
    else:
        writer = writer.trigger(
            processingTime=f"{config.streaming.trigger_interval_ms} milliseconds"
        )
    return SourceRun(writer.start(), SourceSummary(skipped=list(listing.skipped)))


def run_source(
    config: SourceConfig,
    spark: SparkSession | None = None,
    *,
    once: bool | None = None,
    timeout_s: float | None = None,
) -> SourceSummary:
    """Run the source until it stops (availableNow) or ``timeout_s``; log progress, summary.

    Raises:
        DestinationError: destination checks failed before the query started.
        QueryFailedError: the query failed (the message carries the cause, e.g. an object key).
    """
    run = start_source(config, spark, once=once)
    await_query(run.query, run.count_batch, what="source", timeout_s=timeout_s)
    logger.info("%s", run.summary.render())
    return run.summary
