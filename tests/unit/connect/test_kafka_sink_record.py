"""Kafka's ``SinkRecordTest`` (``connect/api/src/test/java/org/apache/kafka/connect/sink``,
apache/kafka 1eb7644): what our :class:`SinkRecord` models, its fields, headers and
``newRecord`` (:meth:`SinkRecord.new_record`). Headers are ours: (name, bytes) pairs, a header
converter's input (``addString("h1", "hv1")`` is ``("h1", b"hv1")``), in a tuple no one
modifies; timestamp types and original topic-partitions are not modelled.
"""

from __future__ import annotations

from s3connect.connect.records import SinkRecord
from tests.unit.transforms.xformhelp import BOOLEAN, STRING

TOPIC_NAME = "myTopic"
PARTITION_NUMBER = 0
KAFKA_OFFSET = 0
KAFKA_TIMESTAMP = 0


def record() -> SinkRecord:
    return SinkRecord(
        TOPIC_NAME, PARTITION_NUMBER, KAFKA_OFFSET, KAFKA_TIMESTAMP, "key", False, STRING, BOOLEAN
    )


def assert_fields(r: SinkRecord) -> None:
    assert r.topic == TOPIC_NAME
    assert r.partition == PARTITION_NUMBER
    assert r.key_schema == STRING
    assert r.key == "key"
    assert r.value_schema == BOOLEAN
    assert r.value is False
    assert r.offset == KAFKA_OFFSET
    assert r.timestamp == KAFKA_TIMESTAMP


def test_should_create_sink_record_with_headers() -> None:
    headers = (("h1", b"hv1"), ("h2", b"true"))
    r = SinkRecord(
        TOPIC_NAME,
        PARTITION_NUMBER,
        KAFKA_OFFSET,
        KAFKA_TIMESTAMP,
        "key",
        False,
        STRING,
        BOOLEAN,
        headers,
    )
    assert r.headers is headers
    assert r.headers


def test_should_create_sink_record_with_empty_headers() -> None:
    r = record()
    assert_fields(r)
    assert r.headers == ()


def test_should_duplicate_record_and_clone_headers() -> None:
    r = record()
    duplicate = r.new_record(
        TOPIC_NAME, PARTITION_NUMBER, STRING, "key", BOOLEAN, False, KAFKA_TIMESTAMP
    )
    assert_fields(duplicate)
    assert duplicate.headers == ()
    assert duplicate.headers == r.headers


def test_should_duplicate_record_using_new_headers() -> None:
    r = record()
    new_headers = (("h3", b"hv3"),)
    duplicate = r.new_record(
        TOPIC_NAME, PARTITION_NUMBER, STRING, "key", BOOLEAN, False, KAFKA_TIMESTAMP, new_headers
    )
    assert_fields(duplicate)
    assert duplicate.headers is new_headers
    assert duplicate.headers != r.headers
