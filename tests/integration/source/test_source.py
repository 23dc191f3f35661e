"""The S3 source against the real stack: produce -> sink -> source -> consume ``copy_of_<topic>``.

Every round trip asserts that the records of the committed objects come back byte-identical, in
the same partition and in the same order.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from s3connect.config.source import SourceConfig
from s3connect.connect.json_data import parse_json_schema
from s3connect.convert.json import JsonConverter
from s3connect.errors import DestinationError, QueryFailedError, SourceObjectError
from s3connect.source.summary import SourceSummary
from s3connect.spark.source_query import run_source, start_source
from tests.integration.sinkhelp import USER_SCHEMA, end_offsets, produce, run, sink_keys, user

pytestmark = pytest.mark.integration

Consume = Callable[..., list[Any]]

BYTEARRAY = {
    "format.class": "io.confluent.connect.s3.format.bytearray.ByteArrayFormat",
    "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
}


def source_keys(sink: Mapping[str, str], tmp: Path, **keys: Any) -> dict[str, str]:
    """The sink's config turned into a source config: same keys, its own checkpoint."""
    config = dict(sink)
    config.pop("topics")
    config["checkpoint.location"] = str(tmp / "source-checkpoint")
    config["name"] = "source-" + config["name"]
    # Each test's sink run has committed before the source lists: a short settle keeps the
    # suite quick (the settling itself: test_stream_reader.py; the default: the notebook test).
    config["listing.settle.ms"] = "200"
    for key, value in keys.items():
        config[key.replace("_", ".") if "." not in key else key] = str(value)
    return config


def run_src(spark: Any, keys: Mapping[str, str]) -> SourceSummary:
    """Run the source once (availableNow), quietly."""
    return run_source(SourceConfig.from_mapping(keys), spark, once=True)


def by_partition(messages: Iterable[Any]) -> dict[int, list[bytes | None]]:
    """Consumed messages -> {partition: values in consumed (= offset) order}."""
    out: dict[int, list[bytes | None]] = {}
    for m in messages:
        out.setdefault(m.partition(), []).append(m.value())
    return out


def compact(rows: Iterable[Any]) -> list[bytes]:
    """JSON values in the compact form Kafka's JsonConverter writes (the tests give their keys
    in the order of the Java ``HashMap`` it reads them into, so a copy is byte-identical)."""
    return [json.dumps(r, separators=(",", ":")).encode() for r in rows]


@pytest.mark.parametrize("compression", ["none", "gzip"])
def test_json_round_trip_two_partitions(
    spark: Any,
    make_topic: Callable[..., str],
    producer: Producer,
    consume: Consume,
    bucket: str,
    tmp_path: Path,
    kafka_admin: AdminClient,
    compression: str,
) -> None:
    topic = make_topic("src-json", partitions=2)
    values = {p: compact({"p": p, "x": i * 0.5, "id": i} for i in range(7)) for p in (0, 1)}
    for p, vals in values.items():
        produce(producer, topic, vals, partition=p)
    sink = sink_keys(topic, bucket, tmp_path, **{"s3.compression.type": compression})
    run(spark, sink)
    keys = source_keys(sink, tmp_path)
    summary = run_src(spark, keys)
    dest = f"copy_of_{topic}"
    try:
        # flush.size=3: records 0..5 of each partition are in committed objects.
        got = by_partition(consume(dest, 12))
        assert got == {p: vals[:6] for p, vals in values.items()}
        assert summary.records == {(dest, 0): 6, (dest, 1): 6}
        assert summary.total == 12
    finally:
        kafka_admin.delete_topics([dest])


def connect_json(values: Iterable[Any]) -> list[bytes]:
    """Envelopes as Kafka's JsonConverter (schemas.enable=true) writes them: compact."""
    schema = parse_json_schema(USER_SCHEMA)
    converter = JsonConverter(schemas_enable=True)
    out = [converter.from_connect("t", schema, v) for v in values]
    return [v for v in out if v is not None]


# Every codec is written and read back in tests/unit/source/test_reader.py; through the stack,
# each format with no codec and with the codecs most unlike the rest (bzip2 in pure Python;
# Hadoop's LZ4 framing) besides Parquet's default, snappy.
@pytest.mark.parametrize(
    ("fmt", "codec"),
    [
        ("avro", {"avro.codec": "null"}),
        ("avro", {"avro.codec": "bzip2"}),
        ("parquet", {"parquet.codec": "none"}),
        ("parquet", {"parquet.codec": "snappy"}),
        ("parquet", {"parquet.codec": "lz4"}),
    ],
)
def test_schema_formats_round_trip(
    spark: Any,
    make_topic: Callable[..., str],
    producer: Producer,
    consume: Consume,
    bucket: str,
    tmp_path: Path,
    kafka_admin: AdminClient,
    fmt: str,
    codec: dict[str, str],
) -> None:
    topic = make_topic(f"src-{fmt}")
    values = connect_json(user(i) for i in range(8))
    produce(producer, topic, values)
    sink = sink_keys(
        topic,
        bucket,
        tmp_path,
        **{"format.class": fmt, "value.converter.schemas.enable": "true"},
        **codec,
    )
    run(spark, sink)
    summary = run_src(spark, source_keys(sink, tmp_path))
    dest = f"copy_of_{topic}"
    try:
        assert by_partition(consume(dest, 6)) == {0: values[:6]}
        assert summary.total == 6
    finally:
        kafka_admin.delete_topics([dest])


@pytest.mark.parametrize("compression", ["none", "gzip"])
def test_bytearray_round_trip_with_regex_router(
    spark: Any,
    make_topic: Callable[..., str],
    producer: Producer,
    consume: Consume,
    bucket: str,
    tmp_path: Path,
    kafka_admin: AdminClient,
    compression: str,
) -> None:
    topic = make_topic("src-bytes")
    values = [bytes([i, 0, 255 - i]) * (i + 1) for i in range(9)]
    produce(producer, topic, values)
    sink = sink_keys(
        topic,
        bucket,
        tmp_path,
        **{
            "format.class": "bytearray",
            "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
            "s3.compression.type": compression,
        },
    )
    run(spark, sink)
    keys = source_keys(
        sink,
        tmp_path,
        **{
            "transforms": "AddPrefix",
            "transforms.AddPrefix.type": "org.apache.kafka.connect.transforms.RegexRouter",
            "transforms.AddPrefix.regex": ".*",
            "transforms.AddPrefix.replacement": "copy_of_$0",
        },
    )
    summary = run_src(spark, keys)
    dest = f"copy_of_{topic}"
    try:
        assert by_partition(consume(dest, 9)) == {0: values}
        assert summary.records == {(dest, 0): 9}
    finally:
        kafka_admin.delete_topics([dest])


@pytest.mark.parametrize("compression", ["none", "gzip"])
def test_bytearray_objects_published_column_wise(
    spark: Any,
    make_topic: Callable[..., str],
    producer: Producer,
    consume: Consume,
    bucket: str,
    tmp_path: Path,
    kafka_admin: AdminClient,
    compression: str,
) -> None:
    """ByteArray objects with no transforms (read as one Arrow column per object): every
    committed record back byte for byte, in its partition and order, and counted."""
    topic = make_topic("src-columns", partitions=2)
    values = {
        p: [bytes([(7 * i + p) % 10, 0, 255 - i, 13]) * (i % 4) for i in range(30)] for p in (0, 1)
    }  # empty values, NUL, CR and bytes that are not UTF-8; never the separator (\n = 10)
    assert all(b"\n" not in v for vs in values.values() for v in vs)
    for p, vs in values.items():
        produce(producer, topic, vs, partition=p)
    sink = sink_keys(
        topic,
        bucket,
        tmp_path,
        **{
            **BYTEARRAY,
            "s3.compression.type": compression,
            "flush.size": "7",
        },
    )
    run(spark, sink)  # 4 objects of 7 a partition; the last 2 records stay in an open file
    summary = run_src(spark, source_keys(sink, tmp_path))
    dest = f"copy_of_{topic}"
    try:
        assert by_partition(consume(dest, 56)) == {0: values[0][:28], 1: values[1][:28]}
        assert summary.records == {(dest, 0): 28, (dest, 1): 28}
        assert summary.total == 56
    finally:
        kafka_admin.delete_topics([dest])


def _sink_json(
    spark: Any, producer: Producer, topic: str, bucket: str, tmp: Path, partitions: int = 1
) -> tuple[dict[str, str], dict[int, list[bytes]]]:
    values = {p: compact({"p": p, "n": i} for i in range(3)) for p in range(partitions)}
    for p, vals in values.items():
        produce(producer, topic, vals, partition=p)
    sink = sink_keys(topic, bucket, tmp)
    run(spark, sink)
    return sink, values


BAD_NAME = "topics/{topic}/partition=0/copied-by-hand.json"


def test_bad_and_ignored_names_per_behavior_on_error(
    spark: Any,
    make_topic: Callable[..., str],
    producer: Producer,
    consume: Consume,
    bucket: str,
    tmp_path: Path,
    kafka_admin: AdminClient,
    s3: Any,
) -> None:
    topic = make_topic("src-names")
    sink, values = _sink_json(spark, producer, topic, bucket, tmp_path)
    bad = BAD_NAME.format(topic=topic)
    s3.put_object(Bucket=bucket, Key=bad, Body=b'{"evil":1}\n')
    ignored = {
        f"topics/{topic}/partition=0/{topic}+0+0000000099.avro": b"other format",
        f"elsewhere/{topic}/partition=0/{topic}+0+0000000099.json": b'{"outside":1}\n',
    }
    for key, body in ignored.items():
        s3.put_object(Bucket=bucket, Key=key, Body=body)
    dest = f"copy_of_{topic}"
    with pytest.raises(SourceObjectError) as info:
        run_src(spark, source_keys(sink, tmp_path))
    assert info.value.key == bad
    try:
        summary = run_src(spark, source_keys(sink, tmp_path, **{"behavior.on.error": "log"}))
        assert summary.skipped == [bad]
        assert by_partition(consume(dest, 3)) == {0: values[0]}
        assert summary.total == 3
    finally:
        kafka_admin.delete_topics([dest])


def test_fewer_destination_partitions_fails_before_publishing(
    spark: Any,
    make_topic: Callable[..., str],
    producer: Producer,
    consume: Consume,
    bucket: str,
    tmp_path: Path,
    kafka_admin: AdminClient,
) -> None:
    topic = make_topic("src-dest", partitions=3)
    sink, _ = _sink_json(spark, producer, topic, bucket, tmp_path, partitions=3)
    dest = f"copy_of_{topic}"
    for future in kafka_admin.create_topics([NewTopic(dest, 2, 1)]).values():
        future.result(timeout=30)
    try:
        with pytest.raises(DestinationError) as info:
            run_src(spark, source_keys(sink, tmp_path))
        message = str(info.value)
        assert f"{dest!r} has 2 partitions" in message and "needs 3" in message
        assert end_offsets(dest) == {0: 0, 1: 0}  # nothing published
    finally:
        kafka_admin.delete_topics([dest])
    missing = source_keys(sink, tmp_path, **{"topic.prefix": "absent_"})
    missing["topic.creation.enable"] = "false"
    with pytest.raises(DestinationError, match=r"topic\.creation\.enable=false"):
        run_src(spark, missing)


def test_a_record_kafka_refuses_fails_the_query_and_is_published_again_on_restart(
    spark: Any, consume: Consume, s3: Any, bucket: str, tmp_path: Path, kafka_admin: AdminClient
) -> None:
    """A 2 MB record (over the broker's 1 MB limit, under the client's max.request.size): the
    task's producer reports it, the query fails naming topic and partition, and the checkpoint
    stays where it was, so a rerun publishes the batch again (at-least-once). The records sent
    after the refused one are in Kafka already, as with Kafka Connect's or Spark's producer."""
    topic = f"src-big-{tmp_path.name[-8:]}"
    body = b"before\n" + b"x" * 2_000_000 + b"\nafter\n"
    key = f"topics/{topic}/partition=0/{topic}+0+0000000000.bin"
    s3.put_object(Bucket=bucket, Key=key, Body=body)
    sink = sink_keys(
        topic,
        bucket,
        tmp_path,
        **{
            **BYTEARRAY,
            "kafka.max.request.size": "5000000",
        },
    )
    keys = source_keys(sink, tmp_path)
    dest = f"copy_of_{topic}"
    try:
        for _ in range(2):
            with pytest.raises(QueryFailedError) as failed:
                run_src(spark, keys)
            assert failed.value.error_class == "s3connect.errors.PublishError"
            assert f"cannot publish to topic {dest!r}, partition 0: " in failed.value.cause
        assert [m.value() for m in consume(dest, 4, timeout=10)] == [b"before", b"after"] * 2
    finally:
        kafka_admin.delete_topics([dest])


def test_new_time_folders_while_running_and_restart_resumes(
    spark: Any,
    make_topic: Callable[..., str],
    producer: Producer,
    consume: Consume,
    bucket: str,
    tmp_path: Path,
    kafka_admin: AdminClient,
) -> None:
    topic = make_topic("src-time")
    hour = 3_600_000
    base = 1_700_000_000_000 - 1_700_000_000_000 % hour
    sink = sink_keys(
        topic,
        bucket,
        tmp_path,
        **{
            "partitioner.class": "io.confluent.connect.storage.partitioner.TimeBasedPartitioner",
            "path.format": "'dt'=YYYY-MM-dd/'hour'=HH",
            "partition.duration.ms": str(hour),
            "locale": "en",
            "timezone": "UTC",
            "timestamp.extractor": "Record",
        },
    )
    sent: list[bytes] = []

    def hour_of_records(h: int) -> None:
        vals = compact({"h": h, "i": i} for i in range(3))
        produce(producer, topic, vals, timestamps=[base + h * hour + i for i in range(3)])
        sent.extend(vals)

    hour_of_records(0)  # flush.size=3: each hour's three records make one object
    hour_of_records(1)
    run(spark, sink)
    keys = source_keys(sink, tmp_path, trigger="1 second")
    dest = f"copy_of_{topic}"
    running = start_source(SourceConfig.from_mapping(keys), spark)
    try:
        assert by_partition(consume(dest, 6)) == {0: sent}
        hour_of_records(2)  # a new time folder appears while the source runs
        run(spark, sink)
        assert by_partition(consume(dest, 9, timeout=60)) == {0: sent}
        running.query.processAllAvailable()  # the batch is committed: a clean stop
    finally:
        running.query.stop()
    hour_of_records(3)
    run(spark, sink)
    summary = run_src(spark, keys)  # restart from the checkpoint: only the new folder
    try:
        assert summary.total == 3
        got = by_partition(consume(dest, 13, timeout=5))
        assert got == {0: sent}  # 12 records: nothing lost, nothing twice
    finally:
        kafka_admin.delete_topics([dest])


def test_extract_topic_routes_each_record_and_creates_its_topic(
    spark: Any, make_topic: Callable[..., str], producer: Producer, consume: Consume,
    bucket: str, tmp_path: Path, kafka_admin: AdminClient,
) -> None:  # fmt: skip
    topic = make_topic("src-route", partitions=2)
    suffix = topic.rsplit("-", 1)[1]
    tables = {0: ["users", "orders", "users"], 1: ["orders", "orders", "users"]}
    for p, names in tables.items():
        produce(producer, topic, compact({"p": p, "i": i, "table": f"{n}-{suffix}"}
                                         for i, n in enumerate(names)), partition=p)  # fmt: skip
    sink = sink_keys(topic, bucket, tmp_path)
    run(spark, sink)
    keys = source_keys(sink, tmp_path, **{
        "transforms": "by",
        "transforms.by.type": "io.confluent.connect.transforms.ExtractTopic$Value",
        "transforms.by.field": "table",
    })  # fmt: skip
    keys.pop("topic.prefix", None)
    summary = run_src(spark, keys)
    users, orders = f"users-{suffix}", f"orders-{suffix}"
    try:
        assert summary.total == 6
        # counted per destination even though the transform picks it record by record
        assert summary.records == {(users, 0): 2, (users, 1): 1, (orders, 0): 1, (orders, 1): 2}
        created = kafka_admin.list_topics(timeout=30).topics
        assert len(created[users].partitions) == 2 and len(created[orders].partitions) == 2
        got_users = by_partition(consume(users, 3))
        got_orders = by_partition(consume(orders, 3))
        assert got_users == {
            0: compact([{"p": 0, "i": 0, "table": users}, {"p": 0, "i": 2, "table": users}]),
            1: compact([{"p": 1, "i": 2, "table": users}]),
        }
        assert got_orders == {
            0: compact([{"p": 0, "i": 1, "table": orders}]),
            1: compact([{"p": 1, "i": 0, "table": orders}, {"p": 1, "i": 1, "table": orders}]),
        }
    finally:
        kafka_admin.delete_topics([users, orders])
