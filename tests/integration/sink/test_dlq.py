"""Errors and the dead letter queue against the real stack: Kafka DLQ topic, Delta table, S3.

Accounting invariant checked here: every consumed offset ends in exactly one S3 object or in the
dead letter queue; dead letters never count toward flush.size nor move file names.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient

from s3connect.config.sink import SinkConfig
from s3connect.spark.sink_query import run_sink
from tests.integration.sinkhelp import envelope, objects, read_parquet, sink_keys, user

pytestmark = pytest.mark.integration

T0 = 1_710_036_300_000
HEADER = ("origin", b"test")
FIELD = "io.confluent.connect.storage.partitioner.FieldPartitioner"
JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter"
SINK_TASK = "org.apache.kafka.connect.sink.SinkTask"


def _produce(producer: Producer, topic: str, values: list[bytes | None]) -> None:
    for i, value in enumerate(values):
        producer.produce(
            topic, value=value, key=f"k{i}".encode(), partition=0, timestamp=T0 + i,
            headers=[HEADER],
        )  # fmt: skip
    assert producer.flush(30) == 0


def _lines(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.decode().splitlines()]


def test_bad_records_go_to_the_dlq_topic_and_table_with_context_headers(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, consume: Any,
    kafka_admin: AdminClient, dlq_topic: str, tmp_path: Path, s3connect_log: list[str],
) -> None:  # fmt: skip
    t = make_topic("dlq-src")
    good = {0: "a", 2: "b", 4: "a", 6: "a", 7: "b", 8: "b"}
    values: list[bytes | None] = [
        json.dumps({"k": good[i], "i": i}).encode() if i in good else None for i in range(9)
    ]
    values[1] = b"{not json"  # value converter fails
    values[3] = b'{"i": 3}'  # no partition field
    values[5] = None  # tombstone skipped by behavior.on.null.values=ignore, and reported
    _produce(producer, t, values)
    table = str(tmp_path / "dlq-table")
    logged = s3connect_log
    keys = sink_keys(t, bucket, tmp_path, **{
        "partitioner.class": FIELD, "partition.field.name": "k",
        "behavior.on.null.values": "ignore",
        "errors.tolerance": "all", "errors.log.enable": "true",
        "errors.log.include.messages": "true",
        "errors.deadletterqueue.topic.name": dlq_topic,
        "errors.deadletterqueue.topic.replication.factor": "1",
        "errors.deadletterqueue.context.headers.enable": "true",
        "dlq.table": table,
    })  # fmt: skip
    summary = run_sink(SinkConfig.from_mapping(keys), spark, once=True)

    # flush.size=3 counts good records only: (0, 2, 4) then (6, 7, 8); names keep start offsets.
    got = {k: _lines(v) for k, v in objects(s3, bucket).items()}
    assert got == {
        f"topics/{t}/k=a/{t}+0+0000000000.json": [{"k": "a", "i": 0}, {"k": "a", "i": 4}],
        f"topics/{t}/k=b/{t}+0+0000000002.json": [{"k": "b", "i": 2}],
        f"topics/{t}/k=a/{t}+0+0000000006.json": [{"k": "a", "i": 6}],
        f"topics/{t}/k=b/{t}+0+0000000007.json": [{"k": "b", "i": 7}, {"k": "b", "i": 8}],
    }
    assert summary.dead_letters == 3

    # The DLQ topic: created with one partition, original key/value/timestamp/headers + context.
    assert len(kafka_admin.list_topics(dlq_topic, timeout=30).topics[dlq_topic].partitions) == 1
    msgs = consume(dlq_topic, 3)
    assert [(m.key(), m.value(), m.timestamp()[1]) for m in msgs] == [
        (b"k1", b"{not json", T0 + 1),
        (b"k3", b'{"i": 3}', T0 + 3),
        (b"k5", None, T0 + 5),
    ]
    headers = [dict(m.headers()) for m in msgs]
    assert [m.headers()[0] for m in msgs] == [HEADER] * 3
    expected = [
        (1, "VALUE_CONVERTER", JSON_CONVERTER, "s3connect.errors.ConversionError"),
        (3, "TASK_PUT", SINK_TASK, "s3connect.errors.PartitionError"),
        (5, "TASK_PUT", SINK_TASK, "s3connect.errors.RecordError"),
    ]
    for h, (offset, stage, cls, exc) in zip(headers, expected, strict=True):
        assert h["__connect.errors.topic"] == t.encode()
        assert h["__connect.errors.partition"] == b"0"
        assert h["__connect.errors.offset"] == str(offset).encode()
        assert h["__connect.errors.connector.name"] == f"test-{t}".encode()
        assert h["__connect.errors.task.id"] == b"0"
        assert h["__connect.errors.stage"] == stage.encode()
        assert h["__connect.errors.class.name"] == cls.encode()
        assert h["__connect.errors.exception.class.name"] == exc.encode()
        message = h["__connect.errors.exception.message"].decode()
        assert f"topic='{t}', partition=0, offset={offset}" in message
        # printStackTrace's shape: "<class>: <message>", then the frames
        assert h["__connect.errors.exception.stacktrace"].startswith(f"{exc}: ".encode())

    # The Delta table: one row per dead letter, queryable with SQL.
    rows = spark.sql(
        f"SELECT topic, partition, offset, key, value, headers, stage, connector_name "
        f"FROM delta.`{table}` ORDER BY offset"
    ).collect()
    assert [
        (r.topic, r.partition, r.offset, bytes(r.key), r.value, r.stage, r.connector_name)
        for r in rows
    ] == [
        (t, 0, 1, b"k1", bytearray(b"{not json"), "VALUE_CONVERTER", f"test-{t}"),
        (t, 0, 3, b"k3", bytearray(b'{"i": 3}'), "TASK_PUT", f"test-{t}"),
        (t, 0, 5, b"k5", None, "TASK_PUT", f"test-{t}"),
    ]
    assert [(h.key, bytes(h.value)) for h in rows[0].headers] == [HEADER]

    # Accounting: every consumed offset is in exactly one object or in the DLQ.
    in_objects = [line["i"] for lines in got.values() for line in lines]
    in_dlq = [int(h["__connect.errors.offset"]) for h in headers]
    assert sorted(in_objects + in_dlq) == list(range(9))

    # errors.log.enable with include.messages: one line per failure, naming where and what.
    # As Kafka's LogReporter: the stage, the class, where the record was (never its contents).
    errors = [line for line in logged if line.startswith("Error encountered in task ")]
    assert len(errors) == 3
    assert errors[0].startswith(
        f"Error encountered in task test-{t}-0. Executing stage 'VALUE_CONVERTER' with class "
        f"'{JSON_CONVERTER}', where consumed record is {{topic='{t}', partition=0, offset=1, "
        f"timestamp={T0 + 1}}}.\ns3connect.errors.ConversionError: "
    )  # LogReporter's message, then the stack trace (log.error(message, error))
    assert "{not json" not in errors[0] and "k1" not in errors[0]


def test_errors_tolerance_none_stops_at_the_bad_record_and_a_restart_reprocesses_it(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, consume: Any,
    dlq_topic: str, tmp_path: Path,
) -> None:  # fmt: skip
    t = make_topic("dlq-none")
    values: list[bytes | None] = [json.dumps({"i": i}).encode() for i in range(6)]
    values[2] = b"[broken"
    _produce(producer, t, values)
    keys = sink_keys(t, bucket, tmp_path, **{"flush.size": "2"})
    with pytest.raises(RuntimeError) as info:
        run_sink(SinkConfig.from_mapping(keys), spark, once=True)
    text = str(info.value)
    assert f"topic='{t}', partition=0, offset=2" in text
    assert "value could not be converted by json converter" in text
    # Nothing after the bad record was written.
    assert list(objects(s3, bucket)) == [f"topics/{t}/partition=0/{t}+0+0000000000.json"]

    # The same checkpoint with errors.tolerance=all: the failed batch is reprocessed from its
    # start, the bad record goes to the DLQ and the rest lands.
    keys.update({
        "errors.tolerance": "all", "errors.deadletterqueue.topic.name": dlq_topic,
        "errors.deadletterqueue.topic.replication.factor": "1",
    })  # fmt: skip
    summary = run_sink(SinkConfig.from_mapping(keys), spark, once=True)
    got = {k: _lines(v) for k, v in objects(s3, bucket).items()}
    assert got == {
        f"topics/{t}/partition=0/{t}+0+0000000000.json": [{"i": 0}, {"i": 1}],
        f"topics/{t}/partition=0/{t}+0+0000000003.json": [{"i": 3}, {"i": 4}],
    }
    assert [(o["object_key"], o["start_offset"]) for o in summary.objects] == [
        (f"topics/{t}/partition=0/{t}+0+0000000000.json", 0),
        (f"topics/{t}/partition=0/{t}+0+0000000003.json", 3),
    ]
    msgs = consume(dlq_topic, 1)
    # Without context headers the DLQ record is the original record only.
    assert [(m.key(), m.value(), m.headers()) for m in msgs] == [(b"k2", b"[broken", [HEADER])]


def test_errors_tolerance_none_with_a_dlq_topic_reports_the_bad_record_then_fails(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, consume: Any,
    dlq_topic: str, tmp_path: Path,
) -> None:  # fmt: skip
    # Kafka Connect's RetryWithToleranceOperator reports a failed record to every reporter
    # (DLQ topic, error log) in a finally block, then throws "Tolerance exceeded in error
    # handler" under errors.tolerance=none.
    t = make_topic("dlq-none-reported")
    values: list[bytes | None] = [json.dumps({"i": i}).encode() for i in range(6)]
    values[2] = b"[broken"
    _produce(producer, t, values)
    keys = sink_keys(t, bucket, tmp_path, **{
        "flush.size": "2", "errors.deadletterqueue.topic.name": dlq_topic,
        "errors.deadletterqueue.topic.replication.factor": "1",
        "errors.deadletterqueue.context.headers.enable": "true",
    })  # fmt: skip
    with pytest.raises(RuntimeError) as info:
        run_sink(SinkConfig.from_mapping(keys), spark, once=True)
    text = str(info.value)
    assert "Tolerance exceeded in error handler: value could not be converted" in text
    assert f"topic='{t}', partition=0, offset=2" in text
    assert list(objects(s3, bucket)) == [f"topics/{t}/partition=0/{t}+0+0000000000.json"]
    (msg,) = consume(dlq_topic, 1)
    assert (msg.key(), msg.value()) == (b"k2", b"[broken")
    h = dict(msg.headers())
    assert h["origin"] == b"test"
    assert (h["__connect.errors.offset"], h["__connect.errors.stage"]) == (b"2", b"VALUE_CONVERTER")
    assert h["__connect.errors.class.name"] == JSON_CONVERTER.encode()


def test_schemaless_record_to_parquet_goes_to_the_dlq_alone_after_rotating(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, consume: Any,
    dlq_topic: str, tmp_path: Path,
) -> None:  # fmt: skip
    t = make_topic("dlq-parquet")
    values: list[bytes | None] = [envelope(user(i)) for i in range(4)]
    values[1] = json.dumps({"schema": None, "payload": {"id": 1}}).encode()
    _produce(producer, t, values)
    keys = sink_keys(t, bucket, tmp_path, **{
        "format.class": "io.confluent.connect.s3.format.parquet.ParquetFormat",
        "value.converter.schemas.enable": "true", "errors.tolerance": "all",
        "errors.deadletterqueue.topic.name": dlq_topic,
        "errors.deadletterqueue.topic.replication.factor": "1",
        "errors.deadletterqueue.context.headers.enable": "true",
    })  # fmt: skip
    run_sink(SinkConfig.from_mapping(keys), spark, once=True)
    got = objects(s3, bucket)
    first = f"topics/{t}/partition=0/{t}+0+0000000000.snappy.parquet"
    assert list(got) == [first]
    # As Confluent's writer: the schemaless record rotates [0] before it fails as it is
    # written, and 2 and 3 (flush.size 3) stay open.
    assert read_parquet(got[first])[0].column("id").to_pylist() == [0]
    (msg,) = consume(dlq_topic, 1)
    h = dict(msg.headers())
    assert h["__connect.errors.offset"] == b"1"
    assert h["__connect.errors.stage"] == b"TASK_PUT"
    message = h["__connect.errors.exception.message"]
    assert b"ParquetFormat output needs values with a schema" in message


def test_ignored_tombstones_are_reported_to_the_dlq(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, consume: Any,
    dlq_topic: str, tmp_path: Path,
) -> None:  # fmt: skip
    # behavior.on.null.values=ignore with report.null.values.to.dlq (default true) and a DLQ:
    # each tombstone is reported as Kafka Connect's ErrantRecordReporter reports it for
    # Confluent's S3SinkTask, and is in no object nor counted in flush.size.
    t = make_topic("dlq-null")
    values: list[bytes | None] = [json.dumps({"i": i}).encode() for i in range(6)]
    values[1] = values[4] = None
    _produce(producer, t, values)
    keys = sink_keys(t, bucket, tmp_path, **{
        "behavior.on.null.values": "ignore", "errors.tolerance": "all",
        "errors.deadletterqueue.topic.name": dlq_topic,
        "errors.deadletterqueue.topic.replication.factor": "1",
        "errors.deadletterqueue.context.headers.enable": "true",
    })  # fmt: skip
    summary = run_sink(SinkConfig.from_mapping(keys), spark, once=True)
    got = {k: _lines(v) for k, v in objects(s3, bucket).items()}
    assert got == {f"topics/{t}/partition=0/{t}+0+0000000000.json": [{"i": 0}, {"i": 2}, {"i": 3}]}
    assert summary.dead_letters == 2
    msgs = consume(dlq_topic, 2)
    assert [(m.key(), m.value(), m.timestamp()[1]) for m in msgs] == [
        (b"k1", None, T0 + 1),
        (b"k4", None, T0 + 4),
    ]
    for m, offset in zip(msgs, (1, 4), strict=True):
        h = dict(m.headers())
        assert h["__connect.errors.offset"] == str(offset).encode()
        assert h["__connect.errors.stage"] == b"TASK_PUT"
        assert h["__connect.errors.class.name"] == b"org.apache.kafka.connect.sink.SinkTask"
        message = h["__connect.errors.exception.message"].decode()
        assert message == f"Skipping null value record. (topic='{t}', partition=0, offset={offset})"
