"""The source's publisher against the real broker: records arrive in order at the partition
given, with their keys and headers; a record Kafka refuses fails the publisher naming topic and
partition; Java producer properties are taken as librdkafka names them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyarrow as pa
import pytest

from s3connect.errors import PublishError
from s3connect.kafka.publisher import Publisher

pytestmark = pytest.mark.integration


def test_records_and_value_columns_arrive_in_order_with_keys_and_headers(
    kafka_bootstrap: str, make_topic: Callable[..., str], consume: Callable[..., list[Any]]
) -> None:
    topic = make_topic("pub", partitions=3)
    options = {
        "bootstrap.servers": kafka_bootstrap,
        "enable.idempotence": "true",
        "acks": "all",
        "queue.buffering.max.messages": "1000",  # a full queue on the way: the values wait
    }
    with Publisher(options) as publisher:
        publisher.send(topic, 2, b"first", b"k1", (("h", b"v"), ("empty", None)))
        publisher.send(topic, 2, None, b"tombstone")
        publisher.send_values(topic, 2, pa.array([f"v{i}".encode() for i in range(25_000)]))
        publisher.send_values(topic, 0, pa.array([b"zero", None], pa.binary()))
    got = consume(topic, 25_004)
    assert len(got) == 25_004
    by_partition: dict[int, list[Any]] = {}
    for message in sorted(got, key=lambda m: (m.partition(), m.offset())):
        by_partition.setdefault(message.partition(), []).append(message)
    two = by_partition[2]
    assert (two[0].key(), two[0].value(), two[0].headers()) == (
        b"k1",
        b"first",
        [("h", b"v"), ("empty", None)],
    )
    assert (two[1].key(), two[1].value()) == (b"tombstone", None)
    assert [m.value() for m in two[2:]] == [f"v{i}".encode() for i in range(25_000)]
    assert [m.offset() for m in two] == list(range(25_002))
    assert [(m.key(), m.value()) for m in by_partition[0]] == [(None, b"zero"), (None, None)]
    assert 1 not in by_partition


def test_a_record_the_broker_refuses_fails_naming_topic_and_partition(
    kafka_bootstrap: str, make_topic: Callable[..., str], consume: Callable[..., list[Any]]
) -> None:
    """``max.request.size`` (Java's name) lets the client send 2 MB; the broker's limit (1 MB)
    refuses it in its delivery report, which the publisher's exit (its close) raises."""
    topic = make_topic("pub-big")
    options = {"bootstrap.servers": kafka_bootstrap, "max.request.size": "5000000"}
    with pytest.raises(PublishError) as failed, Publisher(options) as publisher:
        publisher.send(topic, 0, b"small")
        publisher.send(topic, 0, b"x" * 2_000_000)  # queued: the broker's report fails the exit
    message = str(failed.value)
    assert f"cannot publish to topic {topic!r}, partition 0: " in message
    assert "too large" in message.lower()
    with Publisher(options) as publisher:  # the next task's: the failure is not carried over
        publisher.send(topic, 0, b"next")
    assert [m.value() for m in consume(topic, 2, timeout=20)] == [b"small", b"next"]


def test_the_tasks_of_a_process_share_its_producer(kafka_bootstrap: str) -> None:
    options = {"bootstrap.servers": kafka_bootstrap, "linger.ms": "7"}
    first, second = Publisher(options), Publisher(options)
    assert first._producer is second._producer
    assert Publisher({**options, "linger.ms": "8"})._producer is not first._producer


def test_a_record_over_the_clients_own_limit_fails_before_it_is_queued(
    kafka_bootstrap: str, make_topic: Callable[..., str]
) -> None:
    topic = make_topic("pub-limit")
    publisher = Publisher({"bootstrap.servers": kafka_bootstrap})
    too_large = f"topic '{topic}', partition 0: .*too large"
    with pytest.raises(PublishError, match=too_large), publisher:
        publisher.send_values(topic, 0, pa.array([b"ok", b"y" * 2_000_000]))


def test_java_only_and_unknown_properties_are_left_out(
    kafka_bootstrap: str,
    make_topic: Callable[..., str],
    consume: Callable[..., list[Any]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    topic = make_topic("pub-java")
    options = {
        "bootstrap.servers": kafka_bootstrap,
        "max.block.ms": "60000",
        "buffer.memory": "33554432",
        "partitioner.class": "org.apache.kafka.clients.producer.RoundRobinPartitioner",
        "send.buffer.bytes": "-1",
        "some.plugin.setting": "x",
        "compression.type": "zstd",
    }
    with caplog.at_level("WARNING"), Publisher(options) as publisher:
        publisher.send(topic, 0, b"made")
    assert [m.value() for m in consume(topic, 1)] == [b"made"]
    assert [r.getMessage() for r in caplog.records] == [
        "kafka.some.plugin.setting is not a property the source's producer (librdkafka) knows: "
        "left out"
    ]


def test_a_value_librdkafka_refuses_fails_naming_the_property(kafka_bootstrap: str) -> None:
    with pytest.raises(PublishError, match=r"cannot make the Kafka producer: .*Unsupported SASL"):
        Publisher({"bootstrap.servers": kafka_bootstrap, "security.protocol": "SASL_PLAINTEXT",
                   "sasl.mechanism": "NOPE"})  # fmt: skip
    with pytest.raises(PublishError, match=r'property "queue\.buffering\.max\.ms"'):
        Publisher({"bootstrap.servers": kafka_bootstrap, "linger.ms": "soon"})
