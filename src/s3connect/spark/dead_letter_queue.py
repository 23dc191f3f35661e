"""The sink's dead letter queue: a Kafka topic and a Delta table, fed once per micro-batch.

The stateful processor emits a row per dead letter next to its committed-object rows (see
:data:`DEAD_LETTER_COLUMNS`); the micro-batch handler then, on the driver, reports each in offset
order to Kafka Connect's reporters in their order:

1. publishes it to ``errors.deadletterqueue.topic.name`` as Kafka Connect's
   ``DeadLetterQueueReporter`` does: original key, value, headers and timestamp, plus the
   ``__connect.errors.*`` context headers when enabled; the topic is created on start with one
   partition and the configured replication factor when missing;
2. logs it as Kafka Connect's ``LogReporter`` does (``errors.log.enable``; with
   ``errors.log.include.messages`` the record's topic, partition, offset and timestamp), the
   stack trace after the message;

then appends them to the Delta table ``dlq.table`` (idempotently per micro-batch, like the
commit log).

Delivery to the topic is at-least-once, as in Kafka Connect: a micro-batch replayed after a crash
between publishing and the checkpoint publishes its dead letters again. The Delta table keeps
exactly one row per dead letter.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
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
    dead_letter_from_row,
    dlq_record,
    log_message,
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
    """Create the DLQ topic (one partition, ``errors.deadletterqueue.topic.replication.factor``)
    when missing, as Kafka Connect's ``DeadLetterQueueReporter.createAndSetup`` does on start.

    Raises:
        DestinationError: the topic cannot be listed or created (e.g. a replication factor
            above the number of brokers): "Could not initialize dead letter queue with
            topic=<name>", then why.
    """
    topic = config.errors.dlq_topic
    if topic is None:
        return
    try:
        admin = admin_client(config.kafka.bootstrap_servers, config.kafka.options)
        found = topic_metadata(admin).get(topic)
        if found is not None and found.error is None:
            return
        logger.error("Topic %s doesn't exist. Will attempt to create topic.", topic)
        create_topics(
            admin,
            [NewTopic(topic, 1, config.errors.dlq_replication_factor)],
            "the dead letter queue topic (errors.deadletterqueue.topic.replication.factor="
            f"{config.errors.dlq_replication_factor})",
        )
    except DestinationError as exc:
        raise DestinationError(
            f"Could not initialize dead letter queue with topic={topic}: {exc}"
        ) from None


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
        self._report(letters)
        if config.errors.dlq_table is not None:
            self._append(spark, config.errors.dlq_table, letters, app_id, batch_id)
        where = [config.errors.dlq_topic, config.errors.dlq_table]
        logger.info(
            f"batch {batch_id}: {len(letters)} records failed and went to the dead letter queue"
            + (f" ({', '.join(w for w in where if w)})" if any(where) else " (dropped)")
        )

    def _report(self, letters: Sequence[DeadLetter]) -> None:
        """Each letter to the DLQ topic, then to the error log (Kafka Connect's reporters, in
        the order its ``Worker`` adds them); then waits for the topic's acknowledgements."""
        errors = self._config.errors
        topic = errors.dlq_topic
        if topic is None and not errors.log_enable:
            return
        failures: list[str] = []

        def delivered(err: Any, _msg: Any) -> None:
            if err is not None:
                failures.append(str(err))

        for d in letters:
            if topic is not None:
                self._send(topic, d, delivered)
            if errors.log_enable:
                logger.error(
                    "%s\n%s",
                    log_message(d, self._config.name, include_messages=errors.log_include_messages),
                    d.stacktrace.rstrip("\n"),
                )
        if topic is None or self._producer is None:
            return
        left = self._producer.flush(TIMEOUT_S)
        if failures or left:
            raise DestinationError(  # Kafka Connect's words when a DLQ send fails
                f"Could not produce message to dead letter queue. topic={topic}: "
                + (failures[0] if failures else f"{left} still undelivered after {TIMEOUT_S}s")
                + f" ({len(letters)} dead letters in this batch)"
            )

    def producer(self) -> Producer:
        """The DLQ producer (created on first use: idempotent, ``acks=all``)."""
        if self._producer is None:
            config = self._config
            props: dict[str, str | int | float | bool] = {
                **client_props(config.kafka.bootstrap_servers, config.kafka.options),
                "enable.idempotence": True,
                "acks": "all",
            }
            self._producer = Producer(props)
        return self._producer

    def _send(self, topic: str, d: DeadLetter, delivered: Callable[[Any, Any], None]) -> None:
        errors = self._config.errors
        record = dlq_record(d, topic, self._config.name, context=errors.dlq_context_headers)
        headers: list[tuple[str, str | bytes | None]] = list(record.headers)
        producer = self.producer()
        producer.produce(
            record.topic,
            value=record.value,
            key=record.key,
            headers=headers,
            # 0 (librdkafka's default): the producer's clock, as a ProducerRecord without one
            timestamp=0 if record.timestamp is None else record.timestamp,
            on_delivery=delivered,
        )
        producer.poll(0)

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
