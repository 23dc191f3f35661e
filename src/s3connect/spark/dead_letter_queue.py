"""The sink's dead letter queue: a Kafka topic and a Delta table, fed once per micro-batch.

The stateful processor emits a row per dead letter next to its committed-object rows (see
:data:`DEAD_LETTER_COLUMNS`); the micro-batch handler then, on the driver:

1. logs each one as Kafka Connect's ``LogReporter`` does (``errors.log.enable``; with
   ``errors.log.include.messages`` the record's topic, partition, offset and timestamp);
2. publishes it to ``errors.deadletterqueue.topic.name`` as Kafka Connect's
   ``DeadLetterQueueReporter`` does: original key, value, headers and timestamp, plus the
   ``__connect.errors.*`` context headers when enabled; the topic is created on start with one
   partition and the configured replication factor when missing;
3. appends it to the Delta table ``dlq.table`` (idempotently per micro-batch, like the commit log).

Delivery to the topic is at-least-once, as in Kafka Connect: a micro-batch replayed after a crash
between publishing and the checkpoint publishes its dead letters again. The Delta table keeps
exactly one row per dead letter.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from confluent_kafka import Producer
from confluent_kafka.admin import NewTopic  # type: ignore[attr-defined]

from s3connect.config.sink import SinkConfig
from s3connect.errors import DestinationError
from s3connect.kafka.admin import admin_client, client_props, create_topics, topic_metadata
from s3connect.sink.dead_letters import (
    DLQ_TABLE_SCHEMA,
    DeadLetter,
    context_headers,
    dead_letter_from_row,
)

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = [
    "DeadLetterQueue",
    "ensure_dlq_topic",
]

TIMEOUT_S = 30.0

logger = logging.getLogger(__name__)


def ensure_dlq_topic(config: SinkConfig) -> None:
    """Create the DLQ topic (one partition) when missing, as Kafka Connect does on start.

    Raises:
        DestinationError: the topic cannot be listed or created (e.g. a replication factor
            above the number of brokers).
    """
    if config.errors.dlq_topic is None:
        return
    admin = admin_client(config.kafka.bootstrap_servers, config.kafka.options)
    found = topic_metadata(admin).get(config.errors.dlq_topic)
    if found is not None and found.error is None:
        return
    create_topics(
        admin,
        [NewTopic(config.errors.dlq_topic, 1, config.errors.dlq_replication_factor)],
        "the dead letter queue topic (errors.deadletterqueue.topic.replication.factor="
        f"{config.errors.dlq_replication_factor})",
    )


class DeadLetterQueue:
    """Logs, publishes and records the dead letters of each micro-batch for one sink config."""

    def __init__(self, config: SinkConfig) -> None:
        self._config = config
        self._producer: Producer | None = None
        self.count = 0
        """Dead letters handled by this run."""

    def handle(
        self,
        spark: SparkSession,
        rows: Sequence[Mapping[str, Any]],
        app_id: str,
        batch_id: int,
    ) -> None:
        """Log, publish and record the dead-letter ``rows`` of micro-batch ``batch_id``."""
        if not rows:
            return
        letters = sorted(
            (dead_letter_from_row(r) for r in rows),
            key=lambda d: (d.raw.topic, d.raw.partition, d.raw.offset),
        )
        self.count += len(letters)
        config = self._config
        if config.errors.log_enable:
            for d in letters:
                logger.error("%s", self._describe(d))
        if config.errors.dlq_topic is not None:
            self._publish(config.errors.dlq_topic, letters)
        if config.errors.dlq_table is not None:
            self._append(spark, config.errors.dlq_table, letters, app_id, batch_id)
        where = [config.errors.dlq_topic, config.errors.dlq_table]
        logger.info(
            f"batch {batch_id}: {len(letters)} records failed and went to the dead letter queue"
            + (f" ({', '.join(w for w in where if w)})" if any(where) else " (dropped)")
        )

    def _describe(self, d: DeadLetter) -> str:
        """Kafka Connect's ``LogReporter`` line (task id 0); ``errors.log.include.messages``
        adds where the record was consumed, never its key, value or headers."""
        text = (
            f"Error encountered in task {self._config.name}-0. Executing stage '{d.stage}' "
            f"with class '{d.class_name}'"
        )
        if self._config.errors.log_include_messages:
            raw = d.raw
            text += (
                f", where consumed record is {{topic='{raw.topic}', partition={raw.partition}, "
                f"offset={raw.offset}"
                + ("" if raw.timestamp is None else f", timestamp={raw.timestamp}")
                + "}"
            )
        return f"{text}. {d.exception_class}: {d.message}"

    def _publish(self, topic: str, letters: Sequence[DeadLetter]) -> None:
        config = self._config
        if self._producer is None:
            props: dict[str, str | int | float | bool] = {
                **client_props(config.kafka.bootstrap_servers, config.kafka.options),
                "enable.idempotence": True,
                "acks": "all",
            }
            self._producer = Producer(props)
        producer = self._producer
        failures: list[str] = []

        def delivered(err: Any, _msg: Any) -> None:
            if err is not None:
                failures.append(str(err))

        now = int(datetime.now(UTC).timestamp() * 1000)
        for d in letters:
            raw = d.raw
            headers: list[tuple[str, str | bytes | None]] = list(raw.headers)
            if config.errors.dlq_context_headers:
                headers += context_headers(d, config.name)
            producer.produce(
                topic,
                value=raw.value,
                key=raw.key,
                headers=headers,
                timestamp=raw.timestamp
                if raw.timestamp is not None and raw.timestamp >= 0
                else now,
                on_delivery=delivered,
            )
            producer.poll(0)
        left = producer.flush(TIMEOUT_S)
        if failures or left:
            raise DestinationError(
                f"cannot publish {len(letters)} dead letters to {topic!r}: "
                + (failures[0] if failures else f"{left} still undelivered after {TIMEOUT_S}s")
            )

    def _append(
        self,
        spark: SparkSession,
        table: str,
        letters: Sequence[DeadLetter],
        app_id: str,
        batch_id: int,
    ) -> None:
        from s3connect.spark.commit_log import append_once

        now = datetime.now(UTC).replace(tzinfo=None)
        df = spark.createDataFrame(
            [
                (
                    d.raw.topic,
                    d.raw.partition,
                    d.raw.offset,
                    None
                    if d.raw.timestamp is None
                    else datetime.fromtimestamp(d.raw.timestamp / 1000, UTC).replace(tzinfo=None),
                    d.raw.key,
                    d.raw.value,
                    [(k, v) for k, v in d.raw.headers],
                    d.stage,
                    d.class_name,
                    d.exception_class,
                    d.message,
                    d.stacktrace,
                    self._config.name,
                    now,
                )
                for d in letters
            ],
            DLQ_TABLE_SCHEMA,
        )
        append_once(df, table, app_id + "-dlq", batch_id)

    def close(self) -> None:
        """Flush and drop the producer."""
        if self._producer is not None:
            self._producer.flush(TIMEOUT_S)
            self._producer = None
