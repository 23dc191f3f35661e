"""Publishing records from Python: the source's Spark tasks send each record straight to its
destination partition through a confluent-kafka (librdkafka) producer, in the order given.

The producer takes the source's producer properties (``kafka.*``: idempotent, ``acks=all`` and
batching by default) as librdkafka names them (:func:`~s3connect.kafka.librdkafka.producer_props`),
and lives as long as the Python worker. Only failed deliveries are reported back (no Python call
per record delivered); :meth:`Publisher.close` waits for every record to be acknowledged and
raises if any was not, so a Spark task ends only once its records are in Kafka.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
from confluent_kafka import KafkaError, KafkaException, Message, Producer

from s3connect.errors import PublishError
from s3connect.kafka.librdkafka import producer_props

__all__ = ["Publisher"]

logger = logging.getLogger(__name__)

_UNKNOWN = re.compile(r'No such configuration property: "([^"]+)"')
_POLL_EVERY = 10_000
"""Records sent between two polls of the producer's (error-only) delivery reports."""

_CLOSE_ON_ERROR_S = 10.0
"""How long a publisher closed by an error waits for the records already sent."""

Headers = list[tuple[str, str | bytes | None]]


class Publisher:
    """A task's use of its process's producer for these properties (made once per Python worker
    and kept, so the tasks a worker runs one after the other do not each connect and fetch an
    idempotent producer id); use it as a context manager: its exit waits for every record sent
    and raises :class:`PublishError` for the first failed one."""

    def __init__(self, options: Mapping[str, str]) -> None:
        """``options``: Java producer properties, ``bootstrap.servers`` among them."""
        self._shared = _shared(producer_props(options))
        self._shared.failures.clear()
        self._producer = self._shared.producer
        self._sent = 0

    def __enter__(self) -> Publisher:
        return self

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if kind is None:
            self.close()
        else:  # the task fails and its batch is published again: no waiting on what is queued
            self._forget()
            self._producer.purge(in_flight=False)
            self._producer.flush(_CLOSE_ON_ERROR_S)

    def send(
        self,
        topic: str,
        partition: int,
        value: bytes | None,
        key: bytes | None = None,
        headers: Sequence[tuple[str, bytes | None]] | None = None,
    ) -> None:
        """Queue one record for ``topic``'s ``partition`` (waiting while the queue is full)."""
        while True:
            try:
                self._producer.produce(topic, value, key, partition, headers=_headers(headers))
                break
            except BufferError:
                self._producer.poll(0.05)
            except KafkaException as exc:  # refused before queueing (too large, ...)
                reason = exc.args[0].str() if exc.args else str(exc)
                raise PublishError(_place(topic, partition, reason)) from None
        self._sent += 1
        if self._sent % _POLL_EVERY == 0:
            self._served()

    def send_values(self, topic: str, partition: int, values: pa.Array) -> None:
        """Queue a column of values without keys or headers, in order (as :meth:`send` does
        each, without its Python call per value while the queue has room)."""
        produce = self._producer.produce
        for value in values.to_pylist():
            try:
                produce(topic, value, None, partition)
            except (BufferError, KafkaException):
                self.send(topic, partition, value)  # waits (values stay in order), or raises
        self._sent += len(values)
        self._served()

    def close(self) -> None:
        """Wait until every queued record is acknowledged (or failed).

        Raises:
            PublishError: a record was not delivered (the first failure's topic, partition,
                and Kafka's reason).
        """
        left = self._producer.flush()
        if left or self._shared.failures:
            self._forget()
        self._raise_failure()
        if left:
            raise PublishError(f"{left} records were still undelivered when the producer closed")

    def _forget(self) -> None:
        """After a failure: the process's next task makes a fresh producer."""
        _PRODUCERS.pop(self._shared.key, None)

    def _served(self) -> None:
        """Take the delivery reports in (failures only) and raise the first failure."""
        self._producer.poll(0)
        self._raise_failure()

    def _raise_failure(self) -> None:
        if self._shared.failures:
            raise PublishError(self._shared.failures[0])


@dataclass(frozen=True)
class _Shared:
    """A process's producer for one set of properties, and its failed deliveries."""

    key: tuple[tuple[str, str], ...]
    producer: Producer
    failures: list[str]


_PRODUCERS: dict[tuple[tuple[str, str], ...], _Shared] = {}


def _shared(props: Mapping[str, str]) -> _Shared:
    """This process's producer for ``props``, made on first use (only failed deliveries are
    reported back: no Python call per record delivered)."""
    key = tuple(sorted(props.items()))
    shared = _PRODUCERS.get(key)
    if shared is None:
        failures: list[str] = []

        def delivered(error: KafkaError | None, message: Message) -> None:
            if error is not None and not failures:
                failures.append(_place(str(message.topic()), message.partition() or 0, error.str()))

        config: dict[str, Any] = {**props, "delivery.report.only.error": True}
        shared = _Shared(key, _producer({**config, "on_delivery": delivered}), failures)
        _PRODUCERS[key] = shared
    return shared


def _place(topic: str, partition: int, reason: str) -> str:
    return (
        f"cannot publish to topic {topic!r}, partition {partition}: {reason} (the batch's "
        "records are published again when the query restarts from its checkpoint)"
    )


def _headers(headers: Sequence[tuple[str, bytes | None]] | None) -> Headers | None:
    return list(headers) if headers else None


def _producer(props: dict[str, Any]) -> Producer:
    """A producer of ``props``, less any property librdkafka does not know (logged, as the Java
    client logs and ignores a property it does not know)."""
    while True:
        try:
            return Producer(props)
        except KafkaException as exc:
            unknown = _UNKNOWN.search(str(exc))
            if unknown is None or unknown.group(1) not in props:
                raise PublishError(f"cannot make the Kafka producer: {exc}") from None
            logger.warning(
                "kafka.%s is not a property the source's producer (librdkafka) knows: left out",
                unknown.group(1),
            )
            del props[unknown.group(1)]
