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

import sys

from s3connect.app.failures import ExitCode
from s3connect.app.status.checkpoint import checkpoint_folder
from s3connect.app.status.kafka_offsets import BrokerOffsets, KafkaOffsets
from s3connect.app.status.sink import print_sink
from s3connect.app.status.source import print_source
from s3connect.config.sink import SinkConfig
from s3connect.config.source import SourceConfig

__all__ = [
    "print_status",
]


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
            return print_source(config, folder, kafka)
        return print_sink(config, folder, kafka)
    finally:
        if brokers is not None:
            brokers.close()
