"""Kafka's end offsets for the status report, asked without Spark."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from confluent_kafka import Consumer, KafkaException, TopicPartition

from s3connect.kafka.admin import client_props

KAFKA_TIMEOUT_S = 10.0
"""How long status waits for Kafka."""

__all__ = [
    "KAFKA_TIMEOUT_S",
    "BrokerOffsets",
    "KafkaOffsets",
]


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


def end_offsets(kafka: KafkaOffsets, topic: str, partition: int) -> tuple[int, int] | None:
    """Watermarks of a topic-partition Kafka has (None: unknown or missing)."""
    if partition not in kafka.topics().get(topic, ()):
        return None
    return kafka.watermarks(topic, partition)
