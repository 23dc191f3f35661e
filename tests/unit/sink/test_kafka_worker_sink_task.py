"""What Kafka Connect's sink task framework does to each record, ported from Apache Kafka's
``WorkerSinkTaskTest`` (connect/runtime, trunk at the mirror's HEAD, 4.1 line): the record
the task gets (topic, partition, offset, timestamp, headers), the transforms applied after
conversion, a topic renamed by a transform, and the ``topics.regex`` subscription.

Kafka's mocked consumer and ``SinkTask`` become our real path: Kafka rows into
:class:`PartitionTask` (the objects it writes are what the task was handed), or a
:class:`RawRecord` through :func:`build_record_converter` (the ``SinkRecord`` the task gets).
Tests of rebalances, offset commit timing, pause/resume, wakeups and metrics are not ported
(Spark owns those), nor ``testHeadersWithCustomConverter`` (a Java converter class of the
test's own). Kafka's ``SinkRecord.timestampType`` is not modelled.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pyarrow as pa
import pytest

from s3connect.config.sink import SinkConfig
from s3connect.connect.records import RawRecord, SinkRecord
from s3connect.errors import TransformationError
from s3connect.sink.context import build_record_converter
from s3connect.sink.partition_state import local_state_root
from s3connect.sink.task import PartitionTask

TOPIC = "test"
PARTITION = 12
FIRST_OFFSET = 45
TIMESTAMP = 1_700_000_000_123
ROUTE = {
    "transforms": "route",
    "transforms.route.type": "org.apache.kafka.connect.transforms.RegexRouter",
    "transforms.route.regex": "(.*)",
    "transforms.route.replacement": "newtopic_$1",
}
"""``expectConversionAndTransformation("newtopic_", ...)``: the transform prefixes the topic."""


def _config(tmp_path: Path, *, drop: tuple[str, ...] = (), **extra: str) -> SinkConfig:
    config = {
        "name": "test-connector",
        "topics": TOPIC,
        "kafka.bootstrap.servers": "127.0.0.1:1",
        "checkpoint.location": str(tmp_path / "cp"),
        "s3.bucket.name": "b",
        "store.url": f"file://{tmp_path / 'data'}",
        "format.class": "json",
        "flush.size": "1",
        "key.converter": "org.apache.kafka.connect.storage.StringConverter",
        "value.converter": "org.apache.kafka.connect.json.JsonConverter",
        "value.converter.schemas.enable": "false",
        **extra,
    }
    return SinkConfig.from_mapping({k: v for k, v in config.items() if k not in drop})


def _raw(
    value: bytes = b'{"n": 1}',
    *,
    timestamp: int | None = TIMESTAMP,
    headers: tuple[tuple[str, bytes | None], ...] = (),
) -> RawRecord:
    return RawRecord(TOPIC, PARTITION, FIRST_OFFSET, timestamp, b"key", value, headers)


def _delivered(config: SinkConfig, raw: RawRecord) -> SinkRecord:
    """The record the task is handed for ``raw``."""
    record = build_record_converter(config)(raw)
    assert record is not None
    return record


def _batch(offsets: list[int]) -> pa.RecordBatch:
    return pa.RecordBatch.from_pydict(
        {
            "topic": [TOPIC] * len(offsets),
            "partition": pa.array([PARTITION] * len(offsets), pa.int32()),
            "offset": pa.array(offsets, pa.int64()),
            "timestamp": pa.array([TIMESTAMP] * len(offsets), pa.int64()),
            "key": pa.array([b"key"] * len(offsets), pa.binary()),
            "value": pa.array([json.dumps({"n": o}).encode() for o in offsets], pa.binary()),
            "headers": pa.array([None] * len(offsets), pa.string()),
        }
    )


def _run(config: SinkConfig, batch: pa.RecordBatch) -> list[dict[str, object]]:
    root = local_state_root(config.streaming.checkpoint_location)
    assert root is not None
    return [
        row for out in PartitionTask(config, str(root), 0)(iter([batch])) for row in out.to_pylist()
    ]


def test_delivery_with_mutating_transform(tmp_path: Path) -> None:
    out = _run(_config(tmp_path, **ROUTE), _batch([FIRST_OFFSET]))
    objects = [r for r in out if r["kind"] == "object"]
    assert [
        (r["topic"], r["partition"], r["start_offset"], r["record_count"]) for r in objects
    ] == [("newtopic_" + TOPIC, PARTITION, FIRST_OFFSET, 1)]
    written = tmp_path / "data" / str(objects[0]["object_key"])
    assert [json.loads(line) for line in written.read_text().splitlines()] == [{"n": FIRST_OFFSET}]


def test_missing_timestamp_propagation(tmp_path: Path) -> None:
    # Kafka's NO_TIMESTAMP (-1) is null in the Kafka rows (sink_query.kafka_rows), so the task
    # gets a null timestamp.
    record = _delivered(_config(tmp_path), _raw(timestamp=None))
    assert record.timestamp is None


def test_timestamp_propagation(tmp_path: Path) -> None:
    record = _delivered(_config(tmp_path), _raw(timestamp=TIMESTAMP))
    assert record.timestamp == TIMESTAMP
    assert (record.topic, record.partition, record.offset) == (TOPIC, PARTITION, FIRST_OFFSET)
    assert (record.key, record.value) == ("key", {"n": 1})


def test_topics_regex(tmp_path: Path) -> None:
    config = _config(tmp_path, drop=("topics",), **{"topics.regex": "te.*"})
    options = config.spark_kafka_options()
    assert options["subscribePattern"] == "te.*" and "subscribe" not in options
    assert config.topics.matches(TOPIC) and not config.topics.matches("other")


def test_headers(tmp_path: Path) -> None:
    # The task gets the header as SimpleHeaderConverter reads it: the headers file holds it.
    config = _config(tmp_path, **{"store.kafka.headers": "true", "headers.format.class": "json"})
    value = base64.b64encode(b"header_value").decode()
    batch = _batch([FIRST_OFFSET])
    headers = pa.array([json.dumps([{"key": "header_key", "value": value}])], pa.string())
    out = _run(config, batch.set_column(6, "headers", headers))
    assert [r["record_count"] for r in out if r["kind"] == "object"] == [1]
    files = list((tmp_path / "data").rglob("*.headers.json"))
    assert len(files) == 1
    assert [json.loads(line) for line in files[0].read_text().splitlines()] == [
        {"headers": [{"key": "header_key", "value": "header_value"}]}
    ]


def test_original_topic_with_topic_mutating_transformations(tmp_path: Path) -> None:
    config = _config(tmp_path, **ROUTE)
    record = _delivered(config, _raw())
    assert record.topic == "newtopic_" + TOPIC and record.partition == PARTITION
    # A failure after the rename names the original topic-partition, as Kafka's originalTopic().
    failing = _config(
        tmp_path,
        **{
            **ROUTE,
            "transforms": "route,cast",
            "transforms.cast.type": "org.apache.kafka.connect.transforms.Cast$Value",
            "transforms.cast.spec": "n:int8",
        },
    )
    with pytest.raises(TransformationError) as info:
        build_record_converter(failing)(_raw(b'{"n": "not a number"}'))
    assert (info.value.topic, info.value.partition, info.value.offset) == (
        TOPIC,
        PARTITION,
        FIRST_OFFSET,
    )
