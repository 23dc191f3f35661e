"""The per topic-partition writer, driven record by record without Spark (local folder storage)."""

from __future__ import annotations

import datetime as dt
import io
import json
import logging
import os
import struct
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from s3connect.config.sink import SinkConfig
from s3connect.connect.records import RawRecord
from s3connect.errors import PartitionError, RecordError
from s3connect.sink.context import build_writer_context
from s3connect.sink.dead_letters import failure_error
from s3connect.sink.pending import decode_pending, encode_pending
from s3connect.sink.writer import PendingRecord, TopicPartitionWriter
from tests.unit.confluent_base import AVRO_RECORD


def _config(tmp_path: Path, **extra: str) -> SinkConfig:
    return SinkConfig.from_mapping(
        {
            "topics": "t",
            "kafka.bootstrap.servers": "127.0.0.1:9092",
            "checkpoint.location": str(tmp_path / "ck"),
            "s3.bucket.name": "b",
            "store.url": f"file://{tmp_path / 'out'}",
            "format.class": "json",
            "value.converter.schemas.enable": "false",
            "flush.size": "3",
            **extra,
        }
    )


def _records(values: list[dict[str, object]], start: int = 0) -> list[RawRecord]:
    return [
        RawRecord("t", 0, start + i, 1_700_000_000_000 + i, None, json.dumps(v).encode())
        for i, v in enumerate(values)
    ]


def _files(root: Path) -> dict[str, list[str]]:
    return {
        p.relative_to(root).as_posix(): p.read_text().splitlines()
        for p in sorted(root.rglob("*.json"))
    }


def test_flush_size_counts_across_encoded_partitions(tmp_path: Path) -> None:
    ctx = build_writer_context(
        _config(tmp_path, **{"partitioner.class": "field", "partition.field.name": "k"})
    )
    writer = TopicPartitionWriter(ctx, "t", 0)
    committed = writer.write(_records([{"k": "a"}, {"k": "b"}, {"k": "a"}, {"k": "b"}]), 0)
    assert [(o.key, o.start_offset, o.end_offset, o.record_count) for o in committed] == [
        ("topics/t/k=a/t+0+0000000000.json", 0, 2, 2),
        ("topics/t/k=b/t+0+0000000001.json", 1, 1, 1),
    ]
    assert _files(tmp_path / "out") == {
        "topics/t/k=a/t+0+0000000000.json": ['{"k":"a"}', '{"k":"a"}'],
        "topics/t/k=b/t+0+0000000001.json": ['{"k":"b"}'],
    }
    _state, pending = writer.snapshot()
    assert [(p.raw.offset, p.encoded_partition) for p in pending] == [(3, "k=b")]


def test_each_rotation_is_logged_at_debug_with_its_reason(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ctx = build_writer_context(
        _config(tmp_path, **{"partitioner.class": "field", "partition.field.name": "k"})
    )
    caplog.set_level(logging.DEBUG, logger="s3connect.sink.writer")
    TopicPartitionWriter(ctx, "t", 0).write(_records([{"k": "a"}, {"k": "b"}, {"k": "a"}]), 0)
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG] == [
        "t-0: rotating 2 file(s) on flush_size, k=a offsets 0..2 (2 records), "
        "k=b offsets 1..1 (1 records)"
    ]


def test_open_records_survive_a_snapshot_and_restore(tmp_path: Path) -> None:
    ctx = build_writer_context(_config(tmp_path))
    first = TopicPartitionWriter(ctx, "t", 0)
    assert first.write(_records([{"i": 0}, {"i": 1}]), 0) == []
    state, pending = first.snapshot()
    chunk = encode_pending(pending)

    def load() -> list[PendingRecord]:
        return decode_pending("t", 0, chunk)

    second = TopicPartitionWriter(ctx, "t", 0, state, load)
    committed = second.write(_records([{"i": 2}, {"i": 3}], start=2), 0)
    assert [(o.key, o.record_count) for o in committed] == [
        ("topics/t/partition=0/t+0+0000000000.json", 3)
    ]
    assert _files(tmp_path / "out") == {
        "topics/t/partition=0/t+0+0000000000.json": ['{"i":0}', '{"i":1}', '{"i":2}'],
    }
    assert [p.raw.offset for p in second.snapshot()[1]] == [3]


def test_unflushed_batch_reports_only_its_new_records(tmp_path: Path) -> None:
    ctx = build_writer_context(_config(tmp_path, **{"flush.size": "10"}))
    writer = TopicPartitionWriter(ctx, "t", 0)
    writer.write(_records([{"i": 0}]), 0)
    assert not writer.flushed
    assert [p.raw.offset for p in writer.new_pending()] == [0]


def test_null_values_fail_or_are_ignored(tmp_path: Path) -> None:
    tombstone = [RawRecord("t", 0, 7, None, b"k", None)]
    ctx = build_writer_context(_config(tmp_path))
    with pytest.raises(RecordError, match=r"behavior.on.null.values.*partition=0, offset=7"):
        TopicPartitionWriter(ctx, "t", 0).write(tombstone, 0)
    ignoring = build_writer_context(_config(tmp_path, **{"behavior.on.null.values": "ignore"}))
    writer = TopicPartitionWriter(ignoring, "t", 0)
    assert writer.write(tombstone, 0) == []
    assert writer.snapshot()[1] == []


def test_pending_codec_round_trips_headers_and_nulls() -> None:
    raw = RawRecord("t", 2, 41, None, None, b"v", (("h", b"1"), ("n", None)))
    decoded = decode_pending("t", 2, encode_pending([PendingRecord(raw, "partition=2")]))
    assert [(p.raw, p.encoded_partition) for p in decoded] == [(raw, "partition=2")]


def _kv(
    offset: int, key: bytes | None, value: bytes | None, *headers: tuple[str, bytes]
) -> RawRecord:
    return RawRecord("t", 0, offset, 1_700_000_000_000 + offset, key, value, tuple(headers))


def _all_files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.*"))}


def test_keys_and_headers_files_beside_the_value_file(tmp_path: Path) -> None:
    ctx = build_writer_context(
        _config(
            tmp_path,
            **{
                "store.kafka.keys": "true",
                "store.kafka.headers": "true",
                "keys.format.class": "bytearray",
                "headers.format.class": "json",
                "key.converter": "bytearray",
                "flush.size": "2",
            },
        )
    )
    writer = TopicPartitionWriter(ctx, "t", 0)
    records = [
        _kv(5, b"k1", b'{"i":1}', ("h", b"a"), ("h", b"b")),
        _kv(6, b"k2", b'{"i":2}', ("x", b"1")),
    ]
    committed = writer.write(records, 0)
    assert [(o.key, o.record_count) for o in committed] == [
        ("topics/t/partition=0/t+0+0000000005.json", 2)
    ]
    assert _all_files(tmp_path / "out") == {
        "topics/t/partition=0/t+0+0000000005.json": b'{"i":1}\n{"i":2}\n',
        "topics/t/partition=0/t+0+0000000005.keys.bin": b"k1\nk2\n",
        "topics/t/partition=0/t+0+0000000005.headers.json": (
            b'{"headers":[{"key":"h","value":"a"},{"key":"h","value":"b"}]}\n'
            b'{"headers":[{"key":"x","value":"1"}]}\n'
        ),
    }


def test_avro_keys_and_headers_files(tmp_path: Path) -> None:
    import io

    import fastavro

    ctx = build_writer_context(
        _config(
            tmp_path,
            **{
                "store.kafka.keys": "true",
                "store.kafka.headers": "true",
                "key.converter": "string",
                "flush.size": "2",
            },
        )
    )
    TopicPartitionWriter(ctx, "t", 0).write(
        [_kv(0, b"a", b"1", ("h", b"x")), _kv(1, b"b", b"2", ("h", b"y"), ("g", b"z"))], 0
    )
    out = tmp_path / "out" / "topics/t/partition=0"
    keys = fastavro.reader(io.BytesIO((out / "t+0+0000000000.keys.avro").read_bytes()))
    assert keys.writer_schema == ["null", "string"]  # StringConverter: optional string
    assert list(keys) == ["a", "b"]
    headers = fastavro.reader(io.BytesIO((out / "t+0+0000000000.headers.avro").read_bytes()))
    assert headers.writer_schema == {
        "type": "array",
        "items": {
            "type": "record",
            "name": "io.confluent.connect.avro.ConnectDefault",
            "fields": [{"name": "key", "type": "string"}, {"name": "value", "type": "string"}],
        },
    }
    assert list(headers) == [
        [{"key": "h", "value": "x"}],
        [{"key": "h", "value": "y"}, {"key": "g", "value": "z"}],
    ]


def test_schemaless_keys_in_avro_keys_files_are_anything_records(tmp_path: Path) -> None:
    # JsonConverter keys without schemas into the default (Avro) keys format: Confluent's
    # KeyRecordView has a null schema, which AvroData writes as its Anything record (the whole
    # keys file failed to be written before).
    import io

    import fastavro

    ctx = build_writer_context(_config(tmp_path, **{
        "store.kafka.keys": "true", "key.converter.schemas.enable": "false", "flush.size": "2",
    }))  # fmt: skip
    TopicPartitionWriter(ctx, "t", 0).write([_kv(0, b'"a"', b"1"), _kv(1, b"7", b"2")], 0)
    data = (tmp_path / "out/topics/t/partition=0/t+0+0000000000.keys.avro").read_bytes()
    keys = fastavro.reader(io.BytesIO(data))
    assert keys.writer_schema["name"] == "io.confluent.connect.avro.Anything"  # type: ignore[index]
    assert [{k: v for k, v in r.items() if v is not None} for r in keys] == [  # type: ignore[union-attr]
        {"string": "a"}, {"long": 7},
    ]  # fmt: skip


def test_tombstones_written_to_their_encoded_partition(tmp_path: Path) -> None:
    ctx = build_writer_context(
        _config(
            tmp_path,
            **{
                "store.kafka.keys": "true",
                "keys.format.class": "json",
                "key.converter": "string",
                "behavior.on.null.values": "write",
                "flush.size": "3",
            },
        )
    )
    committed = TopicPartitionWriter(ctx, "t", 0).write(
        [_kv(0, b"a", b'{"i":0}'), _kv(1, b"b", None), _kv(2, b"c", b'{"i":2}')], 0
    )
    assert [(o.key, o.encoded_partition, o.record_count) for o in committed] == [
        ("topics/t/partition=0/t+0+0000000000.json", "partition=0", 2),
        ("topics/t/tombstone/t+0+0000000001.keys.json", "tombstone", 1),
    ]
    assert _all_files(tmp_path / "out") == {
        "topics/t/partition=0/t+0+0000000000.json": b'{"i":0}\n{"i":2}\n',
        "topics/t/partition=0/t+0+0000000000.keys.json": b'"a"\n"c"\n',
        "topics/t/tombstone/t+0+0000000001.keys.json": b'"b"\n',
    }


def test_null_key_or_no_headers_fail_as_confluent(tmp_path: Path) -> None:
    keys = build_writer_context(_config(tmp_path, **{"store.kafka.keys": "true"}))
    with pytest.raises(RecordError, match=r"Key cannot be null.*offset=3"):
        TopicPartitionWriter(keys, "t", 0).write([_kv(3, None, b"{}")], 0)
    headers = build_writer_context(_config(tmp_path, **{"store.kafka.headers": "true"}))
    with pytest.raises(RecordError, match=r"Headers cannot be null.*offset=4"):
        TopicPartitionWriter(headers, "t", 0).write([_kv(4, b"k", b"{}")], 0)


def test_parquet_keys_are_enveloped(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    ctx = build_writer_context(
        _config(
            tmp_path,
            **{
                "store.kafka.keys": "true",
                "store.kafka.headers": "true",
                "keys.format.class": "parquet",
                "headers.format.class": "parquet",
                "key.converter": "string",
                "flush.size": "1",
            },
        )
    )
    TopicPartitionWriter(ctx, "t", 0).write([_kv(0, b"a", b"1", ("h", b"x"))], 0)
    out = tmp_path / "out" / "topics/t/partition=0"
    keys = pq.ParquetFile(out / "t+0+0000000000.keys.snappy.parquet").read()
    assert keys.to_pylist() == [{"key": "a"}]
    assert b'"name":"RecordKey"' in keys.schema.metadata[b"parquet.avro.schema"]
    headers = pq.ParquetFile(out / "t+0+0000000000.headers.snappy.parquet").read()
    assert headers.to_pylist() == [{"headers": [{"key": "h", "value": "x"}]}]
    assert b'"name":"RecordHeaders"' in headers.schema.metadata[b"parquet.avro.schema"]


# --------------------------------------------------------------------------- dead letters


def _raw(offset: int, value: bytes | None, key: bytes | None = b"k") -> RawRecord:
    return RawRecord("t", 0, offset, 1_700_000_000_000 + offset, key, value, (("h", b"v"),))


def test_tombstones_take_their_kafka_timestamp_and_a_bad_time_field_stops(tmp_path: Path) -> None:
    # Confluent's TombstoneTimestampExtractor: a tombstone's time is its Kafka timestamp, not
    # the RecordField extractor's (which a null value has no field for); a value whose time field
    # cannot be read stops the task: TopicPartitionWriter extracts before its error reporting.
    hour = 3_600_000
    ctx = build_writer_context(_config(tmp_path, **{
        "store.kafka.keys": "true", "keys.format.class": "json", "key.converter": "string",
        "behavior.on.null.values": "write", "flush.size": "100",
        "partitioner.class": "io.confluent.connect.storage.partitioner.HourlyPartitioner",
        "locale": "en-US", "timezone": "UTC", "timestamp.extractor": "RecordField",
        "timestamp.field": "ts", "rotate.interval.ms": str(hour),
        "errors.tolerance": "all", "errors.log.enable": "true",
    }))  # fmt: skip
    writer = TopicPartitionWriter(ctx, "t", 0)
    base = 1_700_000_000_000 - 1_700_000_000_000 % hour
    first = _kv(0, b"a", json.dumps({"ts": base}).encode())
    tomb = RawRecord("t", 0, 1, base + hour, b"b", None, ())  # an hour on: rotates
    assert writer.write([first, tomb], 0) != []
    with pytest.raises(PartitionError, match="field named 'ts' does not exist") as info:
        writer.write([_kv(2, b"c", b'{"other":1}')], 0)
    assert not info.value.reportable and writer.dead_letters == []


def test_errors_tolerance_all_turns_bad_records_into_dead_letters(tmp_path: Path) -> None:
    ctx = build_writer_context(
        _config(
            tmp_path,
            **{
                "errors.tolerance": "all",
                "errors.log.enable": "true",  # a reporter: the task's own failures need one
                "partitioner.class": "field",
                "partition.field.name": "k",
            },
        )
    )
    writer = TopicPartitionWriter(ctx, "t", 0)
    raws = [
        _raw(0, b'{"k":"a"}'),
        _raw(1, b"{not json"),
        _raw(2, b'{"k":"a"}'),
        _raw(3, b'{"other":1}'),  # no partition field
        _raw(4, b"[1,"),
        _raw(5, b'{"k":"a"}'),
        _raw(6, b'{"k":"a"}'),
    ]
    committed = writer.write(raws, 0)
    # Dead letters neither count toward flush.size nor move the start offsets.
    assert [(o.key, o.start_offset, o.end_offset, o.record_count) for o in committed] == [
        ("topics/t/k=a/t+0+0000000000.json", 0, 5, 3)
    ]
    assert [p.raw.offset for p in writer.snapshot()[1]] == [6]
    letters = writer.dead_letters
    assert [(d.raw.offset, d.stage, d.class_name) for d in letters] == [
        (1, "VALUE_CONVERTER", "org.apache.kafka.connect.json.JsonConverter"),
        (3, "TASK_PUT", "org.apache.kafka.connect.sink.SinkTask"),
        (4, "VALUE_CONVERTER", "org.apache.kafka.connect.json.JsonConverter"),
    ]
    assert letters[0].raw == raws[1]
    assert letters[0].exception_class == "s3connect.errors.ConversionError"
    assert letters[1].exception_class == "s3connect.errors.PartitionError"
    assert "offset=3" in letters[1].message and "'k'" in letters[1].message
    assert letters[0].stacktrace.startswith(  # Java's printStackTrace shape
        f"s3connect.errors.ConversionError: {letters[0].message}\n\tat "
    )


def test_errors_tolerance_all_without_a_reporter_skips_conversions_but_not_task_failures(
    tmp_path: Path,
) -> None:
    # Kafka Connect skips a converter failure under errors.tolerance=all even with no reporter;
    # Confluent's task hands its own failures (a partition it cannot encode) to the
    # ErrantRecordReporter, which exists only with a DLQ topic or errors.log.enable: else it
    # throws (TopicPartitionWriter: "if (reporter != null) ... else throw e").
    config = {"errors.tolerance": "all", "partitioner.class": "field", "partition.field.name": "k"}
    writer = TopicPartitionWriter(build_writer_context(_config(tmp_path, **config)), "t", 0)
    writer.write([_raw(0, b'{"k":"a"}'), _raw(1, b"{not json"), _raw(2, b'{"k":"a"}')], 0)
    assert [d.raw.offset for d in writer.dead_letters] == [1]  # skipped (only counted)
    assert [p.raw.offset for p in writer.snapshot()[1]] == [0, 2]
    with pytest.raises(RecordError, match=r"errors.deadletterqueue.topic.name") as info:
        writer.write([_raw(3, b'{"other":1}')], 0)
    assert "(topic='t', partition=0, offset=3)" in str(info.value)


@pytest.mark.parametrize("tolerance", ["none", "all"])
def test_null_value_with_behavior_fail_stops_whatever_the_tolerance(
    tmp_path: Path, tolerance: str
) -> None:
    # S3SinkTask.maybeSkipOnNullValue throws from put(), past the errant-record reporter.
    config = {"errors.tolerance": tolerance, "errors.log.enable": "true"}
    writer = TopicPartitionWriter(build_writer_context(_config(tmp_path, **config)), "t", 0)
    with pytest.raises(RecordError, match=r"behavior.on.null.values=fail.*offset=1"):
        writer.write([_raw(0, b'{"k":"a"}'), _raw(1, None)], 0)
    assert writer.dead_letters == []


def test_errors_tolerance_none_fails_at_the_first_bad_record(tmp_path: Path) -> None:
    ctx = build_writer_context(_config(tmp_path))
    writer = TopicPartitionWriter(ctx, "t", 0)
    with pytest.raises(RecordError, match=r"topic='t', partition=0, offset=1") as info:
        writer.write([_raw(0, b"{}"), _raw(1, b"{oops"), _raw(2, b"{}")], 0)
    assert info.value.stage == "VALUE_CONVERTER"
    assert writer.dead_letters == []


def _struct_envelope(i: int) -> bytes:
    schema = {"type": "struct", "fields": [{"field": "i", "type": "int32"}]}
    return json.dumps({"schema": schema, "payload": {"i": i}}).encode()


def test_schemaless_record_into_avro_is_an_anything_record_in_a_file_of_its_own(
    tmp_path: Path,
) -> None:
    # Confluent's TopicPartitionWriter rotates on a switch between schema'd and schemaless
    # values (shouldRotateForNullSchema), and its AvroFormat writes the schemaless value in
    # AvroData's Anything record: three files, none of the records a dead letter.
    cfg = _config(tmp_path, **{"format.class": "avro", "flush.size": "10",
                               "value.converter.schemas.enable": "true"})  # fmt: skip
    writer = TopicPartitionWriter(build_writer_context(cfg), "t", 0)
    schemaless = json.dumps({"schema": None, "payload": {"id": 1}}).encode()
    values = [_struct_envelope(0), schemaless, _struct_envelope(2), _struct_envelope(3)]
    committed = writer.write([_raw(o, v) for o, v in enumerate(values)], 0)
    assert [(o.key, o.start_offset, o.end_offset) for o in committed] == [
        ("topics/t/partition=0/t+0+0000000000.avro", 0, 0),
        ("topics/t/partition=0/t+0+0000000001.avro", 1, 1),
    ]
    assert writer.dead_letters == []
    files = _avro_files(tmp_path / "out")
    assert files["t+0+0000000000.avro"][1] == [{"i": 0}]
    schema, rows = files["t+0+0000000001.avro"]
    assert schema["name"] == "Anything"  # type: ignore[index]
    nothing = dict.fromkeys(["boolean", "bytes", "double", "float", "int", "long", "string",
                             "array", "map"])  # fmt: skip
    key, value = {**nothing, "string": "id"}, {**nothing, "long": 1}
    assert rows == [{**nothing, "map": [{"key": key, "value": value}]}]
    assert [p.raw.offset for p in writer.snapshot()[1]] == [2, 3]


def test_schemaless_record_into_parquet_is_a_dead_letter_of_its_own(tmp_path: Path) -> None:
    ctx = build_writer_context(
        _config(
            tmp_path,
            **{
                "format.class": "parquet",
                "errors.tolerance": "all",
                "flush.size": "2",
                "errors.log.enable": "true",
            },
        )
    )
    writer = TopicPartitionWriter(ctx, "t", 0)
    # value.converter.schemas.enable=false: the envelope is schemaless data to Parquet.
    committed = writer.write([_raw(0, _struct_envelope(1))], 0)
    assert committed == []
    assert [d.raw.offset for d in writer.dead_letters] == [0]
    assert "ParquetFormat output needs values with a schema" in writer.dead_letters[0].message


def test_context_headers_are_kafka_connects(tmp_path: Path) -> None:
    from s3connect.errors import ConversionError
    from s3connect.sink.dead_letters import DeadLetter, context_headers

    error = ConversionError(
        "bad", topic="t", partition=2, offset=7, stage="VALUE_CONVERTER", class_name="C"
    )
    letter = DeadLetter.of(RawRecord("t", 2, 7, 5, None, b"x"), error)
    headers = dict(context_headers(letter, "my-sink"))
    assert list(headers) == [
        "__connect.errors.topic",
        "__connect.errors.partition",
        "__connect.errors.offset",
        "__connect.errors.connector.name",
        "__connect.errors.task.id",
        "__connect.errors.stage",
        "__connect.errors.class.name",
        "__connect.errors.exception.class.name",
        "__connect.errors.exception.message",
        "__connect.errors.exception.stacktrace",
    ]
    assert headers["__connect.errors.partition"] == b"2"
    assert headers["__connect.errors.offset"] == b"7"
    assert headers["__connect.errors.connector.name"] == b"my-sink"
    assert headers["__connect.errors.task.id"] == b"0"
    assert headers["__connect.errors.stage"] == b"VALUE_CONVERTER"
    assert headers["__connect.errors.exception.message"] == (
        b"bad (topic='t', partition=2, offset=7)"
    )


# --------------------------------------------------------------------------- schema.compatibility


def _user_schema(version: int | None, email: str | None = "default") -> dict[str, object]:
    """A JsonConverter envelope schema: v1 {id}; v2 adds email (with a default unless None)."""
    fields: list[dict[str, object]] = [{"field": "id", "type": "int32", "optional": False}]
    if email is not None:
        extra = {} if email == "required" else {"default": "none"}
        fields.append({"field": "email", "type": "string", "optional": False, **extra})
    return {"type": "struct", "name": "User", "version": version, "fields": fields}


def _user(offset: int, version: int | None, email: str | None = "default") -> RawRecord:
    """Record ``offset``: a v1 ``{id}`` or, with an email field, ``{id, email: u<offset>}``."""
    schema = _user_schema(version, email if version != 1 else None)
    payload: dict[str, object] = {"id": offset}
    if version != 1:
        payload["email"] = f"u{offset}"
    return RawRecord("t", 0, offset, 1_000 + offset, None, json.dumps(
        {"schema": schema, "payload": payload}).encode())  # fmt: skip


def _avro_config(tmp_path: Path, mode: str, **extra: str) -> SinkConfig:
    return _config(
        tmp_path,
        **{
            "format.class": "avro",
            "value.converter.schemas.enable": "true",
            "schema.compatibility": mode,
            "flush.size": "4",
            **extra,
        },
    )


def _avro_files(root: Path) -> dict[str, tuple[object, list[object]]]:
    """Each Avro file: (its writer schema, its records)."""
    import io

    import fastavro

    out: dict[str, tuple[object, list[object]]] = {}
    for p in sorted(root.rglob("*.avro")):
        reader = fastavro.reader(io.BytesIO(p.read_bytes()))
        out[p.name] = (json.loads(reader.metadata["avro.schema"]), list(reader))
    return out


_AVRO_V1 = {
    "type": "record",
    "name": "User",
    "fields": [{"name": "id", "type": "int"}],
    "connect.version": 1,
    "connect.name": "User",
}
_AVRO_V2 = {
    "type": "record",
    "name": "User",
    "fields": [
        {"name": "id", "type": "int"},
        {"name": "email", "type": {"type": "string", "connect.default": "none"}, "default": "none"},
    ],
    "connect.version": 2,
    "connect.name": "User",
}
_VERSIONS = [1, 1, 2, 1, 2, 1, 2]  # of offsets 0..6


@pytest.mark.parametrize("mode", ["BACKWARD", "FULL"])
def test_backward_projects_older_records_onto_the_file_schema(tmp_path: Path, mode: str) -> None:
    writer = TopicPartitionWriter(build_writer_context(_avro_config(tmp_path, mode)), "t", 0)
    committed = writer.write([_user(o, v) for o, v in enumerate(_VERSIONS)], 0)
    # v2 at offset 2 is newer: rotate; then v1 records take v2's default; flush.size=4 at 5.
    assert [(o.key, o.start_offset, o.end_offset) for o in committed] == [
        ("topics/t/partition=0/t+0+0000000000.avro", 0, 1),
        ("topics/t/partition=0/t+0+0000000002.avro", 2, 5),
    ]
    assert _avro_files(tmp_path / "out") == {
        "t+0+0000000000.avro": (_AVRO_V1, [{"id": 0}, {"id": 1}]),
        "t+0+0000000002.avro": (_AVRO_V2, [
            {"id": 2, "email": "u2"}, {"id": 3, "email": "none"},
            {"id": 4, "email": "u4"}, {"id": 5, "email": "none"},
        ]),
    }  # fmt: skip
    assert [p.raw.offset for p in writer.snapshot()[1]] == [6]


def test_forward_projects_newer_records_onto_the_file_schema(tmp_path: Path) -> None:
    writer = TopicPartitionWriter(build_writer_context(_avro_config(tmp_path, "FORWARD")), "t", 0)
    committed = writer.write([_user(o, v) for o, v in enumerate(_VERSIONS)], 0)
    # v2 records lose email in the v1 file; the file opened by v2 at 4 rotates on v1 at 5.
    assert [(o.key, o.start_offset, o.end_offset) for o in committed] == [
        ("topics/t/partition=0/t+0+0000000000.avro", 0, 3),
        ("topics/t/partition=0/t+0+0000000004.avro", 4, 4),
    ]
    assert _avro_files(tmp_path / "out") == {
        "t+0+0000000000.avro": (_AVRO_V1, [{"id": 0}, {"id": 1}, {"id": 2}, {"id": 3}]),
        "t+0+0000000004.avro": (_AVRO_V2, [{"id": 4, "email": "u4"}]),
    }
    assert [p.raw.offset for p in writer.snapshot()[1]] == [5, 6]


def test_none_rotates_on_every_schema_change(tmp_path: Path) -> None:
    writer = TopicPartitionWriter(build_writer_context(_avro_config(tmp_path, "NONE")), "t", 0)
    committed = writer.write([_user(o, v) for o, v in enumerate(_VERSIONS)], 0)
    assert [(o.start_offset, o.end_offset) for o in committed] == [
        (0, 1), (2, 2), (3, 3), (4, 4), (5, 5),
    ]  # fmt: skip


def test_projection_survives_a_restart(tmp_path: Path) -> None:
    ctx = build_writer_context(_avro_config(tmp_path, "BACKWARD"))
    first = TopicPartitionWriter(ctx, "t", 0)
    assert first.write([_user(0, 2), _user(1, 1)], 0) == []
    state, pending = first.snapshot()
    chunk = encode_pending(pending)
    saved = json.loads(json.dumps(state.to_dict()))
    from s3connect.sink.rotation import RotatorState

    second = TopicPartitionWriter(
        ctx, "t", 0, RotatorState.from_dict(saved), lambda: decode_pending("t", 0, chunk)
    )
    # Restored records are converted again and projected when the file is written; the
    # rotator decides on the schema saved in its state (v1 at 2 is projected, v3 would rotate).
    committed = second.write([_user(2, 1), _user(3, 2)], 0)
    assert [(o.start_offset, o.end_offset) for o in committed] == [(0, 3)]
    assert _avro_files(tmp_path / "out") == {
        "t+0+0000000000.avro": (_AVRO_V2, [
            {"id": 0, "email": "u0"}, {"id": 1, "email": "none"},
            {"id": 2, "email": "none"}, {"id": 3, "email": "u3"},
        ]),
    }  # fmt: skip


def test_a_record_without_a_required_field_of_the_file_rotates(tmp_path: Path) -> None:
    # v2's email is required with no default: a v1 record, which lacks it, could not be
    # projected onto v2, so StorageSchemaCompatibility finds it incompatible
    # (MISSING_REQUIRED_FIELD) and the files rotate; the next v2 record rotates again (newer).
    raws = [_user(0, 2, "required"), _user(1, 1), _user(2, 2, "required")]
    writer = TopicPartitionWriter(build_writer_context(_avro_config(tmp_path, "BACKWARD")), "t", 0)
    committed = writer.write(raws, 0)
    assert [(o.start_offset, o.end_offset, o.record_count) for o in committed] == [
        (0, 0, 1),
        (1, 1, 1),
    ]
    assert [p.raw.offset for p in writer.snapshot()[1]] == [2]
    assert writer.dead_letters == []


@pytest.mark.parametrize("mode", ["BACKWARD", "FORWARD", "FULL"])
def test_different_schemas_without_versions_fail(tmp_path: Path, mode: str) -> None:
    from s3connect.errors import SchemaProjectionError

    writer = TopicPartitionWriter(build_writer_context(_avro_config(tmp_path, mode)), "t", 0)
    writer.write([_user(0, None), _user(1, None)], 0)  # one schema: no version needed
    with pytest.raises(SchemaProjectionError, match=f"Schema version required for {mode}"):
        writer.write([_user(2, 1)], 0)


@pytest.mark.parametrize("mode", ["NONE", "BACKWARD", "FORWARD", "FULL"])
def test_switching_between_schemaless_and_schema_values_rotates(tmp_path: Path, mode: str) -> None:
    schema = {"type": "struct", "name": "S", "version": 1,
              "fields": [{"field": "i", "type": "int32", "optional": False}]}  # fmt: skip
    values = [schema, schema, None, None, schema]
    raws = [
        RawRecord("t", 0, i, None, None, json.dumps({"schema": s, "payload": {"i": i}}).encode())
        for i, s in enumerate(values)
    ]
    ctx = build_writer_context(
        _config(
            tmp_path, **{"value.converter.schemas.enable": "true", "schema.compatibility": mode}
        )
    )
    writer = TopicPartitionWriter(ctx, "t", 0)
    committed = writer.write(raws, 0)
    assert [(o.start_offset, o.end_offset) for o in committed] == [(0, 1), (2, 3)]
    assert _files(tmp_path / "out") == {
        "topics/t/partition=0/t+0+0000000000.json": ['{"i":0}', '{"i":1}'],
        "topics/t/partition=0/t+0+0000000002.json": ['{"i":2}', '{"i":3}'],
    }


def test_unwritable_header_is_a_dead_letter_of_its_own(tmp_path: Path) -> None:
    # SimpleHeaderConverter reads malformed UTF-8 with replacement characters (as Java's
    # new String(bytes, UTF_8)) and the text "null" as a null value, which the headers file's
    # required value field refuses (a DataException: reported, as a null header).
    ctx = build_writer_context(
        _config(
            tmp_path,
            **{
                "store.kafka.headers": "true",
                "errors.tolerance": "all",
                "errors.log.enable": "true",
            },
        )
    )
    writer = TopicPartitionWriter(ctx, "t", 0)
    raws = [
        RawRecord("t", 0, 0, 1, None, b"{}", (("h", b"ok"),)),
        RawRecord("t", 0, 1, 2, None, b"{}", (("h", b"\xff\xfe"),)),
        RawRecord("t", 0, 2, 3, None, b"{}", (("h", None),)),
        RawRecord("t", 0, 3, 4, None, b"{}", (("h", b"null"),)),
        RawRecord("t", 0, 4, 5, None, b"{}", (("h", b"fine"),)),
    ]
    assert [o.record_count for o in writer.write(raws, 0)] == [3]
    assert [(d.raw.offset, d.stage) for d in writer.dead_letters] == [
        (2, "TASK_PUT"),
        (3, "TASK_PUT"),
    ]
    assert "is null" in writer.dead_letters[0].message
    assert writer.dead_letters[1].raw.headers == (("h", b"null"),)  # the DLQ keeps the bytes
    headers = (tmp_path / "out/topics/t/partition=0/t+0+0000000000.headers.avro").read_bytes()
    assert "\ufffd\ufffd".encode() in headers


def test_headers_file_values_are_what_kafka_connect_writes(tmp_path: Path) -> None:
    # Kafka's SimpleHeaderConverter (Values.parseString) then Confluent's HeaderRecordView
    # (Values.convertToString), checked against Kafka 4.1.1's Values.
    ctx = build_writer_context(_config(tmp_path, **{
        "store.kafka.headers": "true", "headers.format.class": "json", "flush.size": "1",
    }))  # fmt: skip
    texts = [b"1.50", b"1e3", b"007", b"[1, 2]", b"1970-01-01", b" 5 ", b"TRUE", b"", b"a b"]
    raw = RawRecord("t", 0, 0, 1, None, b"{}", tuple((f"h{i}", t) for i, t in enumerate(texts)))
    TopicPartitionWriter(ctx, "t", 0).write([raw], 0)
    line = (tmp_path / "out/topics/t/partition=0/t+0+0000000000.headers.json").read_text()
    values = [h["value"] for h in json.loads(line)["headers"]]
    assert values == ["1.5", "1000", "7", "[1,2]", "00:00:00.000Z", "5", "TRUE", "", "a b"]


@pytest.mark.parametrize(
    ("converter", "expected"),
    [
        # StringConverter.toConnectHeader: the text as it is (malformed UTF-8 replaced)
        ("org.apache.kafka.connect.storage.StringConverter", ["1.50", "007", "", "\ufffdx"]),
        # ByteArrayConverter: bytes, which Values.convertToString writes in Base64
        (
            "org.apache.kafka.connect.converters.ByteArrayConverter",
            ["MS41MA==", "MDA3", "", "/3g="],
        ),
    ],
)
def test_headers_file_values_follow_header_converter(
    tmp_path: Path, converter: str, expected: list[str]
) -> None:
    ctx = build_writer_context(_config(tmp_path, **{
        "store.kafka.headers": "true", "headers.format.class": "json", "flush.size": "1",
        "header.converter": converter,
    }))  # fmt: skip
    texts = [b"1.50", b"007", b"", b"\xffx"]
    raw = RawRecord("t", 0, 0, 1, None, b"{}", tuple((f"h{i}", t) for i, t in enumerate(texts)))
    TopicPartitionWriter(ctx, "t", 0).write([raw], 0)
    line = (tmp_path / "out/topics/t/partition=0/t+0+0000000000.headers.json").read_text()
    assert [h["value"] for h in json.loads(line)["headers"]] == expected


def test_pending_chunks_carry_the_converted_records(tmp_path: Path) -> None:
    ctx = build_writer_context(_config(tmp_path))
    writer = TopicPartitionWriter(ctx, "t", 0)
    writer.write(_records([{"i": 0}, {"i": 1}]), 0)
    _state, pending = writer.snapshot()
    chunk = encode_pending(pending)
    restored = decode_pending("t", 0, chunk)
    assert [p.converted for p in restored] == [p.converted for p in pending]
    assert [p.raw for p in restored] == [p.raw for p in pending]
    # A converted form that cannot be read leaves the raw records, to be converted again.
    broken = chunk[:-12] + b"\xff" * 12
    assert [(p.raw, p.converted) for p in decode_pending("t", 0, broken)] == [
        (p.raw, None) for p in pending
    ]


def test_pending_chunks_load_nothing_but_connect_data(tmp_path: Path) -> None:
    import pickle

    from s3connect.sink.pending import _ConvertedUnpickler

    for allowed in (Decimal("1.5"), dt.date(2024, 1, 2), {"a": [1, 2.5, "x", b"y", None]}):
        assert _ConvertedUnpickler(io.BytesIO(pickle.dumps(allowed))).load() == allowed
    with pytest.raises(pickle.UnpicklingError, match=r"posix\.system is not part"):
        _ConvertedUnpickler(io.BytesIO(pickle.dumps(os.system))).load()


# --------------------------------------------------------------------------- transforms

TRANSFORMS = "org.apache.kafka.connect.transforms"


def _filter_tombstones_and_drafts(**extra: str) -> dict[str, str]:
    return {
        "transforms": "drop",
        "transforms.drop.type": f"{TRANSFORMS}.Filter",
        "transforms.drop.predicate": "draft",
        "predicates": "draft",
        "predicates.draft.type": f"{TRANSFORMS}.predicates.HasHeaderKey",
        "predicates.draft.name": "draft",
        **extra,
    }


def test_a_filtered_record_is_in_no_file_and_not_counted_in_flush_size(tmp_path: Path) -> None:
    ctx = build_writer_context(_config(tmp_path, **_filter_tombstones_and_drafts()))
    draft = (("draft", b"1"),)
    records = [
        RawRecord(
            "t", 0, i, 1_700_000_000_000 + i, None, b'{"i":%d}' % i, draft if i in (1, 2) else ()
        )
        for i in range(6)
    ]
    committed = TopicPartitionWriter(ctx, "t", 0).write(records, 0)
    assert [(o.key, o.start_offset, o.end_offset, o.record_count) for o in committed] == [
        ("topics/t/partition=0/t+0+0000000000.json", 0, 4, 3)
    ]
    assert _files(tmp_path / "out") == {
        "topics/t/partition=0/t+0+0000000000.json": ['{"i":0}', '{"i":3}', '{"i":4}']
    }


def test_a_renamed_topic_names_the_objects_and_the_commit_rows(tmp_path: Path) -> None:
    route = {
        "transforms": "route",
        "transforms.route.type": f"{TRANSFORMS}.RegexRouter",
        "transforms.route.regex": "(.*)",
        "transforms.route.replacement": "archive-$1",
    }
    ctx = build_writer_context(_config(tmp_path, **route))
    committed = TopicPartitionWriter(ctx, "t", 0).write(_records([{"i": 0}, {"i": 1}, {"i": 2}]), 0)
    assert [(o.key, o.topic, o.encoded_partition) for o in committed] == [
        ("topics/archive-t/partition=0/archive-t+0+0000000000.json", "archive-t", "partition=0")
    ]


def test_records_routed_to_several_topics_get_their_own_files(tmp_path: Path) -> None:
    route = {
        "transforms": "daily",
        "transforms.daily.type": f"{TRANSFORMS}.TimestampRouter",
        "transforms.daily.timestamp.format": "yyyyMMdd",
    }
    ctx = build_writer_context(_config(tmp_path, **route, **{"flush.size": "4"}))
    day = 86_400_000
    records = [
        RawRecord("t", 0, i, 1_700_000_000_000 + (i % 2) * day, None, b'{"i":%d}' % i)
        for i in range(4)
    ]
    first = TopicPartitionWriter(ctx, "t", 0)
    assert first.write(records[:3], 0) == []
    state, pending = first.snapshot()  # open files survive a restart with their topics
    chunk = encode_pending(pending)
    second = TopicPartitionWriter(ctx, "t", 0, state, lambda: decode_pending("t", 0, chunk))
    committed = second.write(records[3:], 0)
    assert sorted((o.key, o.record_count) for o in committed) == [
        ("topics/t-20231114/partition=0/t-20231114+0+0000000000.json", 2),
        ("topics/t-20231115/partition=0/t-20231115+0+0000000001.json", 2),
    ]
    assert _files(tmp_path / "out")[
        "topics/t-20231115/partition=0/t-20231115+0+0000000001.json"
    ] == ['{"i":1}', '{"i":3}']


def test_a_record_a_transform_fails_on_is_a_transformation_dead_letter(tmp_path: Path) -> None:
    cast = {
        "transforms": "cast",
        "transforms.cast.type": f"{TRANSFORMS}.Cast$Value",
        "transforms.cast.spec": "n:int32",
    }
    ctx = build_writer_context(_config(tmp_path, **cast, **{"errors.tolerance": "all"}))
    writer = TopicPartitionWriter(ctx, "t", 0)
    records = [RawRecord("t", 0, i, None, None, v) for i, v in enumerate(
        [b'{"n":"1"}', b'{"n":"x"}', b'{"n":"3"}', b'{"n":"4"}'])]  # fmt: skip
    committed = writer.write(records, 0)
    assert [(o.start_offset, o.record_count) for o in committed] == [(0, 3)]
    assert _files(tmp_path / "out") == {
        "topics/t/partition=0/t+0+0000000000.json": ['{"n":1}', '{"n":3}', '{"n":4}']
    }
    [letter] = writer.dead_letters
    assert (letter.raw.offset, letter.stage, letter.class_name) == (
        1,
        "TRANSFORMATION",
        f"{TRANSFORMS}.Cast$Value",
    )
    assert letter.exception_class == "s3connect.errors.TransformationError"
    failing = build_writer_context(_config(tmp_path, **cast))
    with pytest.raises(RecordError, match=r"transform 'cast' failed.*offset=1"):
        TopicPartitionWriter(failing, "t", 0).write(records, 0)


# ---------------------------------------------------------------- Confluent's writer tests
# Ports of TopicPartitionWriterTest (kafka-connect-storage-cloud): its TOPIC_PARTITION, and
# its records (StorageSinkTestBase.createSchema: struct "record" version 1; createRecord) as
# JsonConverter envelopes.

CTOPIC, CPARTITION = "test-topic", 12
LA = "America/Los_Angeles"
MINUTE = 60_000


def _f32(x: float) -> float:
    """A Java float's value, as Avro reads it back (and as ``(double) floatValue``)."""
    return float(struct.unpack("<f", struct.pack("<f", x))[0])


def _record_schema(name: str | None = "record", version: int | None = 1) -> dict[str, object]:
    fields = [
        {"field": n, "type": t, "optional": False}
        for n, t in (("boolean", "boolean"), ("int", "int32"), ("long", "int64"),
                     ("float", "float"), ("double", "double"))
    ]  # fmt: skip
    return {"type": "struct", "name": name, "version": version, "fields": fields}


def _record_value(i: int) -> dict[str, object]:
    """createRecord(schema, 16 + i, 12.2f + i)."""
    return {"boolean": True, "int": 16 + i, "long": 16 + i, "float": 12.2 + i,
            "double": _f32(12.2 + i)}  # fmt: skip


def _confluent_raw(offset: int, i: int, timestamp: int | None = None, **schema: Any) -> RawRecord:
    envelope = {"schema": _record_schema(**schema), "payload": _record_value(i)}
    return RawRecord(CTOPIC, CPARTITION, offset, timestamp, None, json.dumps(envelope).encode())


def _confluent_config(tmp_path: Path, **extra: str) -> SinkConfig:
    return _config(
        tmp_path,
        **{
            "topics": CTOPIC,
            "format.class": "avro",
            "value.converter.schemas.enable": "true",
            **extra,
        },
    )


def _avro_value(i: int) -> dict[str, object]:
    """What the Avro file holds for ``_record_value(i)``."""
    return {**_record_value(i), "float": _f32(12.2 + i)}


def _avro_objects(root: Path) -> dict[str, list[object]]:
    """Each Avro object under ``root`` by key: its records (the writer schema checked)."""
    import fastavro

    out: dict[str, list[object]] = {}
    for p in sorted(root.rglob("*.avro")):
        reader = fastavro.reader(io.BytesIO(p.read_bytes()))
        assert json.loads(reader.metadata["avro.schema"]) == AVRO_RECORD
        out[p.relative_to(root).as_posix()] = list(reader)
    return out


def _hour_dir(hour: int) -> str:
    return f"topics/{CTOPIC}/year=2017/month=03/day=02/hour={hour:02d}"


def _obj(directory: str, start: int) -> str:
    return f"{directory}/{CTOPIC}+{CPARTITION}+{start:010d}.avro"


_HOUR = int(dt.datetime(2017, 3, 2, 10, tzinfo=ZoneInfo(LA)).timestamp() * 1000)
# Offsets 0..4 at 10:00, 09:58, 10:09, 09:55, 10:10 (America/Los_Angeles).
_OUT_OF_ORDER = [
    _HOUR,
    _HOUR - 2 * MINUTE,
    _HOUR + 9 * MINUTE,
    _HOUR - 5 * MINUTE,
    _HOUR + 10 * MINUTE,
]


def _hourly_writer(tmp_path: Path, on_change: str) -> TopicPartitionWriter:
    config = _confluent_config(tmp_path, **{
        "partitioner.class": "io.confluent.connect.storage.partitioner.HourlyPartitioner",
        "timestamp.extractor": "Record", "locale": "en", "timezone": LA,
        "rotate.interval.ms": str(10 * MINUTE), "flush.size": "1000",
        "rotate.file.on.partition.change": on_change,
    })  # fmt: skip
    return TopicPartitionWriter(build_writer_context(config), CTOPIC, CPARTITION)


def test_confluent_out_of_order_hours_without_rotation_on_partition_change(tmp_path: Path) -> None:
    # testWriteRecordTimeBasedPartitionRecordTimestampHoursOutOfOrder: flag false, one file
    # open per hour; record 4 (10:10, exactly 10 min after the base) commits two files.
    writer = _hourly_writer(tmp_path, "false")
    raws = [_confluent_raw(o, 0, ts) for o, ts in enumerate(_OUT_OF_ORDER)]
    committed = writer.write(raws, 0)
    assert [(o.key, o.start_offset, o.end_offset, o.record_count) for o in committed] == [
        (_obj(_hour_dir(10), 0), 0, 2, 2),
        (_obj(_hour_dir(9), 1), 1, 3, 2),
    ]
    assert _avro_objects(tmp_path / "out") == {
        _obj(_hour_dir(10), 0): [_avro_value(0)] * 2,
        _obj(_hour_dir(9), 1): [_avro_value(0)] * 2,
    }
    assert [p.raw.offset for p in writer.snapshot()[1]] == [4]


def test_confluent_out_of_order_hours_rotate_on_partition_change(tmp_path: Path) -> None:
    # ...OutOfOrderAndRotateOnPartitionChange: the default (true) gives four one-record files.
    writer = _hourly_writer(tmp_path, "true")
    committed = writer.write([_confluent_raw(o, 0, ts) for o, ts in enumerate(_OUT_OF_ORDER)], 0)
    expected = [_obj(_hour_dir(10), 0), _obj(_hour_dir(9), 1), _obj(_hour_dir(10), 2),
                _obj(_hour_dir(9), 3)]  # fmt: skip
    assert [(o.key, o.record_count) for o in committed] == [(key, 1) for key in expected]
    assert _avro_objects(tmp_path / "out") == {key: [_avro_value(0)] for key in expected}
    assert [p.raw.offset for p in writer.snapshot()[1]] == [4]


@pytest.mark.parametrize(
    ("fields", "suffix"), [("int", ""), ("int,boolean", "/boolean=true")], ids=["one", "two"]
)
def test_confluent_field_partitioner_rotates_on_max_open_files(
    tmp_path: Path, fields: str, suffix: str
) -> None:
    # testWriteRecordFieldBasedPartitionAndRotateOnMaxSize (and ...WithMultipleFields): max 5,
    # flush.size 10; six field values: five one-record files, the sixth record stays open.
    config = _confluent_config(tmp_path, **{
        "partitioner.class": "field", "partition.field.name": fields,
        "partitioner.max.open.files": "5", "flush.size": "10",
    })  # fmt: skip
    writer = TopicPartitionWriter(build_writer_context(config), CTOPIC, CPARTITION)
    committed = writer.write([_confluent_raw(o, o) for o in range(6)], 0)
    expected = [_obj(f"topics/{CTOPIC}/int={16 + i}{suffix}", i) for i in range(5)]
    assert [(o.key, o.record_count) for o in committed] == [(key, 1) for key in expected]
    assert _avro_objects(tmp_path / "out") == {
        key: [_avro_value(i)] for i, key in enumerate(expected)
    }
    assert [p.raw.offset for p in writer.snapshot()[1]] == [5]


def test_confluent_max_open_files_unset_rotates_on_flush_size(tmp_path: Path) -> None:
    # ...RotateOnFlushSizeWhenMaxFilesIsUnset: -1, flush.size 10, twenty records of int=16.
    config = _confluent_config(tmp_path, **{
        "partitioner.class": "field", "partition.field.name": "int",
        "partitioner.max.open.files": "-1", "flush.size": "10",
    })  # fmt: skip
    writer = TopicPartitionWriter(build_writer_context(config), CTOPIC, CPARTITION)
    committed = writer.write([_confluent_raw(o, 0) for o in range(20)], 0)
    directory = f"topics/{CTOPIC}/int=16"
    assert [(o.key, o.record_count) for o in committed] == [
        (_obj(directory, 0), 10),
        (_obj(directory, 10), 10),
    ]


# --------------------------------------------------------------------------- schema name affix


def _json_objects(root: Path) -> dict[str, list[Any]]:
    return {
        p.relative_to(root).as_posix(): [json.loads(line) for line in p.read_text().splitlines()]
        for p in sorted(root.rglob("*.json"))
    }


def _affix_dir(affix: str, schema_name: str) -> str:
    """generateS3DirectoryPathWithDefaultPartitioner."""
    part, schema = f"partition={CPARTITION}", f"schema_name={schema_name}"
    inner = f"{schema}/{part}" if affix == "PREFIX" else f"{part}/{schema}"
    return f"topics/{CTOPIC}/{inner}"


def _json_value(i: int) -> dict[str, object]:
    return {**_record_value(i), "float": 12.2 + i}


@pytest.mark.parametrize("affix", ["PREFIX", "SUFFIX"])
def test_confluent_schema_partitioner_with_affix_and_schemas(tmp_path: Path, affix: str) -> None:
    # testWriteSchemaPartitionerWithAffix(true, affix): an unnamed schema, "record1" and
    # "record2" interleaved, 18 records each (batches of int 16, 17, 18), flush.size 9: each
    # commit holds three files of three records, one per schema name.
    config = _config(tmp_path, **{
        "topics": CTOPIC, "flush.size": "9", "value.converter.schemas.enable": "true",
        "s3.schema.partition.affix.type": affix,
    })  # fmt: skip
    writer = TopicPartitionWriter(build_writer_context(config), CTOPIC, CPARTITION)
    schemas = [{"name": None, "version": None}, {"name": "record1"}, {"name": "record2"}]
    raws = [
        _confluent_raw(3 * i + j, i % 3, **schema)
        for i in range(18)
        for j, schema in enumerate(schemas)
    ]
    committed = writer.write(raws, 0)
    dirs = [_affix_dir(affix, name) for name in ("null", "record1", "record2")]
    expected = [f"{dirs[j]}/{CTOPIC}+{CPARTITION}+{i + j:010d}.json"
                for i in range(0, 54, 9) for j in range(3)]  # fmt: skip
    assert [(o.key, o.record_count) for o in committed] == [(key, 3) for key in expected]
    assert _json_objects(tmp_path / "out") == {
        key: [_json_value(0), _json_value(1), _json_value(2)] for key in expected
    }


@pytest.mark.parametrize("affix", ["PREFIX", "SUFFIX"])
def test_confluent_schema_partitioner_with_affix_and_no_schema(tmp_path: Path, affix: str) -> None:
    # testWriteSchemaPartitionerWithAffix(false, affix): 18 schemaless records, flush.size 9.
    config = _config(tmp_path, **{
        "topics": CTOPIC, "flush.size": "9", "s3.schema.partition.affix.type": affix,
    })  # fmt: skip
    writer = TopicPartitionWriter(build_writer_context(config), CTOPIC, CPARTITION)
    raws = [
        RawRecord(CTOPIC, CPARTITION, i, None, None, json.dumps({"intField": 16 + i}).encode())
        for i in range(18)
    ]
    committed = writer.write(raws, 0)
    directory = _affix_dir(affix, "null")
    assert [(o.key, o.record_count) for o in committed] == [
        (f"{directory}/{CTOPIC}+{CPARTITION}+0000000000.json", 9),
        (f"{directory}/{CTOPIC}+{CPARTITION}+0000000009.json", 9),
    ]


_SCHEMA_DIR = "schema_name=com.acme.Order"
_ORDER_SCHEMA = {
    "type": "struct",
    "name": "com.acme.Order",
    "fields": [{"field": "region", "type": "string", "optional": False}],
}


@pytest.mark.parametrize(
    ("affix", "extra", "key"),
    [
        ("NONE", {}, "topics/orders/partition=0/orders+0+0000000000.avro"),
        ("PREFIX", {}, f"topics/orders/{_SCHEMA_DIR}/partition=0/orders+0+0000000000.avro"),
        ("SUFFIX", {}, f"topics/orders/partition=0/{_SCHEMA_DIR}/orders+0+0000000000.avro"),
        (
            "PREFIX",
            {"partitioner.class": "hourly", "timestamp.extractor": "Record", "locale": "en",
             "timezone": LA},
            f"topics/orders/{_SCHEMA_DIR}/year=2017/month=03/day=02/hour=10/"
            "orders+0+0000000000.avro",
        ),
        (
            "PREFIX",
            {"partitioner.class": "field", "partition.field.name": "region"},
            f"topics/orders/{_SCHEMA_DIR}/region=eu/orders+0+0000000000.avro",
        ),
    ],
)  # fmt: skip
def test_schema_affix_object_keys(
    tmp_path: Path, affix: str, extra: dict[str, str], key: str
) -> None:
    # The object keys of the research notes' table (TopicPartitionWriter.fileKey).
    config = _config(tmp_path, **{
        "topics": "orders", "format.class": "avro", "value.converter.schemas.enable": "true",
        "flush.size": "1", "s3.schema.partition.affix.type": affix, **extra,
    })  # fmt: skip
    value = json.dumps({"schema": _ORDER_SCHEMA, "payload": {"region": "eu"}}).encode()
    committed = TopicPartitionWriter(build_writer_context(config), "orders", 0).write(
        [RawRecord("orders", 0, 0, _HOUR, None, value)], 0
    )
    assert [o.key for o in committed] == [key]


def test_schema_affix_leaves_the_tombstone_folder_alone(tmp_path: Path) -> None:
    # TombstoneSupportedPartitioner wraps SchemaPartitioner: tombstones keep their folder.
    config = _config(tmp_path, **{
        "topics": "orders", "format.class": "avro", "value.converter.schemas.enable": "true",
        "flush.size": "1", "s3.schema.partition.affix.type": "PREFIX",
        "behavior.on.null.values": "write", "store.kafka.keys": "true",
        "key.converter": "string",
    })  # fmt: skip
    value = json.dumps({"schema": _ORDER_SCHEMA, "payload": {"region": "eu"}}).encode()
    committed = TopicPartitionWriter(build_writer_context(config), "orders", 0).write(
        [RawRecord("orders", 0, 0, 1, b"k0", None), RawRecord("orders", 0, 1, 2, b"k1", value)], 0
    )
    assert [o.key for o in committed] == [
        "topics/orders/tombstone/orders+0+0000000000.keys.avro",
        "topics/orders/schema_name=com.acme.Order/partition=0/orders+0+0000000001.avro",
    ]


# ---------------------------------------------------------------- report.null.values.to.dlq

SINK_TASK_CLASS = "org.apache.kafka.connect.sink.SinkTask"
_REPORTERS = [
    {"errors.deadletterqueue.topic.name": "dlq"},
    {"errors.log.enable": "true"},
    {"dlq.table": "main.s3connect.dlq"},
]


def _with_tombstones() -> list[RawRecord]:
    """Offsets 0..5, null values at 1 and 4."""
    return [_raw(o, None if o in (1, 4) else b'{"i":%d}' % o) for o in range(6)]


@pytest.mark.parametrize("reporter", _REPORTERS, ids=["dlq-topic", "error-log", "dlq-table"])
def test_ignored_null_values_are_reported_as_kafka_connect_does(
    tmp_path: Path, reporter: dict[str, str]
) -> None:
    # S3SinkTask.maybeReportNullRecordToDlq (testWriteNullRecords): each ignored null value is
    # reported (TASK_PUT, SinkTask, "Skipping null value record."); it is in no file and not
    # counted in flush.size.
    ctx = build_writer_context(_config(tmp_path, **{
        "behavior.on.null.values": "ignore", "errors.tolerance": "all", **reporter,
    }))  # fmt: skip
    writer = TopicPartitionWriter(ctx, "t", 0)
    committed = writer.write(_with_tombstones(), 0)
    assert [(o.start_offset, o.end_offset, o.record_count) for o in committed] == [(0, 3, 3)]
    assert _files(tmp_path / "out") == {
        "topics/t/partition=0/t+0+0000000000.json": ['{"i":0}', '{"i":2}', '{"i":3}']
    }
    assert [p.raw.offset for p in writer.snapshot()[1]] == [5]
    letters = writer.dead_letters
    assert [(d.raw.offset, d.raw.value, d.stage, d.class_name) for d in letters] == [
        (1, None, "TASK_PUT", SINK_TASK_CLASS),
        (4, None, "TASK_PUT", SINK_TASK_CLASS),
    ]
    assert letters[0].message == "Skipping null value record. (topic='t', partition=0, offset=1)"


@pytest.mark.parametrize(
    "extra",
    [
        {"errors.deadletterqueue.topic.name": "dlq", "report.null.values.to.dlq": "false"},
        {},  # no error reporter (errors.tolerance=all alone makes none)
    ],
    ids=["not-reported", "no-reporter"],
)
def test_ignored_null_values_are_skipped_silently(tmp_path: Path, extra: dict[str, str]) -> None:
    ctx = build_writer_context(_config(tmp_path, **{
        "behavior.on.null.values": "ignore", "errors.tolerance": "all", **extra,
    }))  # fmt: skip
    writer = TopicPartitionWriter(ctx, "t", 0)
    committed = writer.write(_with_tombstones(), 0)
    assert [(o.start_offset, o.record_count) for o in committed] == [(0, 3)]
    assert writer.dead_letters == []


def test_reported_null_value_fails_under_errors_tolerance_none(tmp_path: Path) -> None:
    # Kafka's RetryWithToleranceOperator.executeFailed reports, then throws "Tolerance exceeded
    # in error handler": the first ignored tombstone is handed on to be reported, and the
    # writer handles nothing after it; the batch then fails, saying what to change.
    ctx = build_writer_context(_config(tmp_path, **{
        "behavior.on.null.values": "ignore", "errors.log.enable": "true",
    }))  # fmt: skip
    writer = TopicPartitionWriter(ctx, "t", 0)
    assert writer.write(_with_tombstones(), 0) == []
    failure = writer.failure
    assert failure is not None and writer.dead_letters == []
    assert (failure.raw.offset, failure.stage, failure.class_name) == (
        1, "TASK_PUT", SINK_TASK_CLASS,
    )  # fmt: skip
    assert failure.message == "Skipping null value record. (topic='t', partition=0, offset=1)"
    assert [p.raw.offset for p in writer.snapshot()[1]] == [0]  # offsets 2.. never handled
    assert writer.write([_raw(6, b'{"i":6}')], 0) == [] and writer.on_timer(10**12) == []
    text = str(failure_error(failure))
    assert text.startswith("Tolerance exceeded in error handler: a null (tombstone) value")
    assert "set errors.tolerance=all" in text and "report.null.values.to.dlq=false" in text
    assert text.endswith("(topic='t', partition=0, offset=1)")
    # Without a reporter the same config skips them, as Confluent (no ErrantRecordReporter).
    quiet = build_writer_context(_config(tmp_path, **{"behavior.on.null.values": "ignore"}))
    assert TopicPartitionWriter(quiet, "t", 0).write(_with_tombstones(), 0) != []


@pytest.mark.parametrize("reporter", _REPORTERS, ids=["dlq-topic", "error-log", "dlq-table"])
def test_errors_tolerance_none_reports_the_failing_record_before_failing(
    tmp_path: Path, reporter: dict[str, str]
) -> None:
    # RetryWithToleranceOperator.execute reports a failed operation in its finally block, also
    # when it then throws under errors.tolerance=none: with a reporter the converter failure
    # is handed on, with what was written before it; a failure Confluent throws past its
    # reporter (behavior.on.null.values=fail) still raises at once.
    ctx = build_writer_context(_config(tmp_path, **{"flush.size": "1", **reporter}))
    writer = TopicPartitionWriter(ctx, "t", 0)
    committed = writer.write([_raw(0, b"{}"), _raw(1, b"{oops"), _raw(2, b"{}")], 0)
    assert [o.key for o in committed] == ["topics/t/partition=0/t+0+0000000000.json"]
    failure = writer.failure
    assert failure is not None and failure.raw == _raw(1, b"{oops")
    assert (failure.stage, failure.class_name) == (
        "VALUE_CONVERTER", "org.apache.kafka.connect.json.JsonConverter",
    )  # fmt: skip
    error = failure_error(failure)
    assert (error.topic, error.partition, error.offset, error.stage) == (
        "t", 0, 1, "VALUE_CONVERTER",
    )  # fmt: skip
    assert str(error).startswith("Tolerance exceeded in error handler: value could not be")
    assert str(error).count("offset=1") == 1
    fatal = TopicPartitionWriter(ctx, "t", 0)
    with pytest.raises(RecordError, match=r"behavior.on.null.values=fail"):
        fatal.write([_raw(0, None)], 0)
    assert fatal.failure is None


def test_null_values_with_fail_or_write_are_not_reported(tmp_path: Path) -> None:
    ctx = build_writer_context(_config(tmp_path, **{
        "errors.tolerance": "all", "errors.deadletterqueue.topic.name": "dlq",
    }))  # fmt: skip
    writer = TopicPartitionWriter(ctx, "t", 0)
    # fail: S3SinkTask throws from put(), never reporting it, whatever errors.tolerance says
    with pytest.raises(RecordError, match=r"behavior\.on\.null\.values=fail") as info:
        writer.write(_with_tombstones(), 0)
    assert not info.value.reportable and writer.dead_letters == []


def test_schemaless_value_of_no_connect_type_into_avro_is_a_dead_letter(tmp_path: Path) -> None:
    # AvroData.fromConnectData(null, value) throws a DataException ("Unknown Java type for
    # schemaless data") for a java.util.Date, as TimestampConverter makes of a schemaless field;
    # Confluent's writer reports the record and goes on.
    cfg = _config(tmp_path, **{
        "format.class": "avro", "flush.size": "2", "errors.tolerance": "all",
        "errors.log.enable": "true", "transforms": "ts",
        "transforms.ts.type": "org.apache.kafka.connect.transforms.TimestampConverter$Value",
        "transforms.ts.field": "at", "transforms.ts.target.type": "Timestamp",
    })  # fmt: skip
    writer = TopicPartitionWriter(build_writer_context(cfg), "t", 0)
    values = [{"n": 0}, {"n": 1, "at": 1_700_000_000_000}, {"n": 2}]
    committed = writer.write(_records(values), 0)
    assert [(o.key, o.start_offset, o.end_offset) for o in committed] == [
        ("topics/t/partition=0/t+0+0000000000.avro", 0, 2),
    ]
    assert [d.raw.offset for d in writer.dead_letters] == [1]
    message = writer.dead_letters[0].message
    assert "Unknown Java type for schemaless data: class java.util.Date" in message


def test_bytearray_files_refuse_what_bytearray_converter_refuses(tmp_path: Path) -> None:
    # Confluent's ByteArrayRecordWriterProvider writes each value (a keys file each key) with
    # Kafka's ByteArrayConverter.fromConnectData, which throws a DataException for a schema
    # other than bytes (StringConverter's strings) and for a value that is not bytes
    # (schemaless JSON); TopicPartitionWriter.writeRecord reports that record and goes on.
    cfg = _config(tmp_path, **{
        "format.class": "bytearray", "value.converter": "string", "flush.size": "2",
        "errors.tolerance": "all", "errors.log.enable": "true",
    })  # fmt: skip
    writer = TopicPartitionWriter(build_writer_context(cfg), "t", 0)
    assert writer.write(_records([{"i": 0}, {"i": 1}]), 0) == []
    assert [d.raw.offset for d in writer.dead_letters] == [0, 1]
    assert "Invalid schema type for ByteArrayConverter: STRING" in writer.dead_letters[0].message
    assert writer.snapshot()[1] == [] and not (tmp_path / "out").exists()
    schemaless = build_writer_context(_config(tmp_path, **{"format.class": "bytearray"}))
    with pytest.raises(RecordError, match=r"type class java\.util\.HashMap.*offset=0"):
        TopicPartitionWriter(schemaless, "t", 0).write(_records([{"i": 0}]), 0)
    keys = build_writer_context(_config(tmp_path, **{
        "store.kafka.keys": "true", "keys.format.class": "bytearray", "key.converter": "string",
    }))  # fmt: skip
    with pytest.raises(RecordError, match=r"Invalid schema type for ByteArrayConverter: STRING"):
        TopicPartitionWriter(keys, "t", 0).write([_kv(3, b"k", b"{}")], 0)


def test_a_record_failing_as_it_is_written_still_rotates_and_keeps_its_schema(
    tmp_path: Path,
) -> None:
    # Confluent's testExceptionOnNullKeysReported ("the extra rotation is currently expected
    # behavior"): the rotation rules run before writeRecord fails, so a record of another
    # schema commits the open files; its schema stays the partition's currentSchemas entry
    # until the next commit, so the next file (offset 4) is committed by the record after it.
    cfg = _config(tmp_path, **{
        "format.class": "avro", "flush.size": "3", "value.converter.schemas.enable": "true",
        "key.converter": "org.apache.kafka.connect.storage.StringConverter",
        "store.kafka.keys": "true", "errors.tolerance": "all", "errors.log.enable": "true",
    })  # fmt: skip
    writer = TopicPartitionWriter(build_writer_context(cfg), "t", 0)
    string = json.dumps({"schema": {"type": "string"}, "payload": "1"}).encode()
    records = [_raw(o, _struct_envelope(o)) for o in range(11)]
    records[2], records[3] = _raw(2, string, key=None), _raw(3, string, key=None)
    committed = writer.write(records, 0)
    assert [(o.key.rsplit("/", 1)[1], o.start_offset, o.end_offset) for o in committed] == [
        ("t+0+0000000000.avro", 0, 1),
        ("t+0+0000000004.avro", 4, 4),
        ("t+0+0000000005.avro", 5, 7),
        ("t+0+0000000008.avro", 8, 10),
    ]
    # Confluent's DataException message, then ours:
    null_key = "Key cannot be null for SinkRecord: SinkRecord{{kafkaOffset={}, topic='t', "
    assert [d.raw.offset for d in writer.dead_letters] == [2, 3]
    for d in writer.dead_letters:
        assert d.message.startswith(null_key.format(d.raw.offset) + "kafkaPartition=0} ")
    assert writer.rotator.state.failed_schemas == {}


def test_a_record_failing_as_it_is_written_sets_the_base_of_rotate_interval(
    tmp_path: Path,
) -> None:
    # Confluent's writer takes each record's timestamp before anything else: a record that then
    # fails (here: no key, keys stored) starts rotate.interval.ms's count for the next file.
    cfg = _config(tmp_path, **{
        "flush.size": "100", "rotate.interval.ms": "1000",
        "partitioner.class": "io.confluent.connect.storage.partitioner.TimeBasedPartitioner",
        "partition.duration.ms": "86400000", "path.format": "'d'=YYYY-MM-dd", "locale": "en",
        "timezone": "UTC", "timestamp.extractor": "Record",
        "key.converter": "org.apache.kafka.connect.storage.StringConverter",
        "store.kafka.keys": "true", "keys.format.class": "json",
        "errors.tolerance": "all", "errors.log.enable": "true",
    })  # fmt: skip
    writer = TopicPartitionWriter(build_writer_context(cfg), "t", 0)
    base = 1_700_000_000_000
    stamps = {0: base, 1: base + 500, 2: base + 1200, 3: base + 1300}
    records = [
        RawRecord("t", 0, o, t, None if o == 0 else b"k", b'{"i":%d}' % o, ())
        for o, t in stamps.items()
    ]
    committed = writer.write(records, 0)
    # 0 fails but is the base: 2 is 1200 ms after it, so [1] is committed before 2 joins.
    assert [(o.start_offset, o.end_offset) for o in committed] == [(1, 1)]
    assert [d.raw.offset for d in writer.dead_letters] == [0]
    assert [p.raw.offset for p in writer.snapshot()[1]] == [2, 3]


_LONG = "org.apache.kafka.connect.converters.LongConverter"
_DOUBLE = "org.apache.kafka.connect.converters.DoubleConverter"


def _long_double(offset: int, key: int, value: float, *headers: tuple[str, bytes]) -> RawRecord:
    """A record as Kafka's LongSerializer and DoubleSerializer write it."""
    return _kv(offset, struct.pack(">q", key), struct.pack(">d", value), *headers)


def test_long_keys_file_and_double_values_in_json(tmp_path: Path) -> None:
    ctx = build_writer_context(_config(tmp_path, **{
        "key.converter": _LONG, "value.converter": _DOUBLE, "store.kafka.keys": "true",
        "keys.format.class": "json", "flush.size": "2",
    }))  # fmt: skip
    records = [_long_double(0, -2, 1234.31), _long_double(1, 2**63 - 1, 1e300)]
    committed = TopicPartitionWriter(ctx, "t", 0).write(records, 0)
    assert [o.key for o in committed] == ["topics/t/partition=0/t+0+0000000000.json"]
    # Jackson writes a Double as Double.toString, a Long as its digits
    assert _all_files(tmp_path / "out") == {
        "topics/t/partition=0/t+0+0000000000.json": b"1234.31\n1.0E300\n",
        "topics/t/partition=0/t+0+0000000000.keys.json": b"-2\n9223372036854775807\n",
    }


def test_long_keys_file_and_double_values_in_avro(tmp_path: Path) -> None:
    import fastavro

    ctx = build_writer_context(_config(tmp_path, **{
        "key.converter": _LONG, "value.converter": _DOUBLE, "store.kafka.keys": "true",
        "format.class": "io.confluent.connect.s3.format.avro.AvroFormat", "flush.size": "2",
    }))  # fmt: skip
    records = [_long_double(0, -2, 1234.31), _long_double(1, 7, -0.5)]
    TopicPartitionWriter(ctx, "t", 0).write(records, 0)
    out = tmp_path / "out/topics/t/partition=0"
    values = fastavro.reader(io.BytesIO((out / "t+0+0000000000.avro").read_bytes()))
    assert values.writer_schema == ["null", "double"]  # OPTIONAL_FLOAT64_SCHEMA
    assert list(values) == [1234.31, -0.5]
    keys = fastavro.reader(io.BytesIO((out / "t+0+0000000000.keys.avro").read_bytes()))
    assert keys.writer_schema == ["null", "long"]  # OPTIONAL_INT64_SCHEMA
    assert list(keys) == [-2, 7]


@pytest.mark.parametrize(
    ("converter", "data", "expected"),
    [
        ("ShortConverter", [b"\x80\x00", b"\x00\x7b"], b"-32768\n123\n"),
        ("IntegerConverter", [b"\x00\x00\x04\xd2", b"\xff\xff\xff\xff"], b"1234\n-1\n"),
        # Jackson writes a Float as Float.toString
        ("FloatConverter", [bytes.fromhex("449a49ec"), bytes.fromhex("7f7fffff")],
         b"1234.31\n3.4028235E38\n"),
        ("BooleanConverter", [b"\x01", b"\x00"], b"true\nfalse\n"),
    ],
)  # fmt: skip
def test_number_and_boolean_values_in_json(
    tmp_path: Path, converter: str, data: list[bytes], expected: bytes
) -> None:
    ctx = build_writer_context(_config(tmp_path, **{
        "value.converter": f"org.apache.kafka.connect.converters.{converter}", "flush.size": "2",
    }))  # fmt: skip
    TopicPartitionWriter(ctx, "t", 0).write([_kv(o, None, d) for o, d in enumerate(data)], 0)
    assert _all_files(tmp_path / "out") == {"topics/t/partition=0/t+0+0000000000.json": expected}


def test_wrong_size_keys_and_values_are_converter_dead_letters(tmp_path: Path) -> None:
    ctx = build_writer_context(_config(tmp_path, **{
        "key.converter": _LONG, "value.converter": _DOUBLE, "store.kafka.keys": "true",
        "keys.format.class": "json", "flush.size": "2",
        "errors.tolerance": "all", "errors.log.enable": "true",
    }))  # fmt: skip
    writer = TopicPartitionWriter(ctx, "t", 0)
    good = _long_double(0, 1, 1.5)
    bad_key = _kv(1, b"\x00" * 4, struct.pack(">d", 2.5))
    bad_value = _kv(2, struct.pack(">q", 3), b"\x00" * 4)
    committed = writer.write([good, bad_key, bad_value, _long_double(3, 4, 4.5)], 0)
    assert [(o.start_offset, o.record_count) for o in committed] == [(0, 2)]
    assert [(d.raw.offset, d.stage, d.class_name) for d in writer.dead_letters] == [
        (1, "KEY_CONVERTER", _LONG), (2, "VALUE_CONVERTER", _DOUBLE),
    ]  # fmt: skip
    assert writer.dead_letters[0].message == (
        "key could not be converted by long converter: Failed to deserialize long: Size of "
        "data received by LongDeserializer is not 8 (topic='t', partition=0, offset=1)"
    )
    assert "Failed to deserialize double: Size of data received by Deserializer is not 8" in (
        writer.dead_letters[1].message
    )
    assert writer.dead_letters[0].exception_class == "s3connect.errors.ConversionError"


def test_number_values_are_refused_where_confluent_refuses_them(tmp_path: Path) -> None:
    # ByteArrayFormat takes bytes only (per record); FieldPartitioner structs only; Parquet
    # only Avro records (the whole file), as with StringConverter's strings.
    ctx = build_writer_context(_config(tmp_path, **{
        "value.converter": _DOUBLE, "format.class": "bytearray", "flush.size": "1",
        "errors.tolerance": "all", "errors.log.enable": "true",
    }))  # fmt: skip
    writer = TopicPartitionWriter(ctx, "t", 0)
    assert writer.write([_long_double(0, 1, 1.5)], 0) == []
    assert [(d.stage, d.message) for d in writer.dead_letters] == [
        ("TASK_PUT", "Invalid schema type for ByteArrayConverter: FLOAT64 "
         "(topic='t', partition=0, offset=0)"),
    ]  # fmt: skip
    ctx = build_writer_context(_config(tmp_path, **{
        "value.converter": _DOUBLE, "partitioner.class": "field", "partition.field.name": "f",
        "errors.tolerance": "all", "errors.log.enable": "true",
    }))  # fmt: skip
    writer = TopicPartitionWriter(ctx, "t", 0)
    assert writer.write([_long_double(0, 1, 1.5)], 0) == []
    assert [d.stage for d in writer.dead_letters] == ["TASK_PUT"]
    assert writer.dead_letters[0].message.startswith("Error encoding partition.")
    ctx = build_writer_context(_config(tmp_path, **{
        "value.converter": _DOUBLE, "format.class": "parquet", "flush.size": "1",
    }))  # fmt: skip
    with pytest.raises(ValueError, match="Parquet needs a STRUCT value schema, got FLOAT64"):
        TopicPartitionWriter(ctx, "t", 0).write([_long_double(0, 1, 1.5)], 0)


@pytest.mark.parametrize(
    ("converter", "data", "expected"),
    [
        ("LongConverter", [struct.pack(">q", -2), None], ["-2", None]),
        ("IntegerConverter", [struct.pack(">i", 1234)], ["1234"]),
        ("ShortConverter", [struct.pack(">h", 7)], ["7"]),
        # Values.convertToString of a Float / Double: Float.toString / Double.toString
        ("FloatConverter", [bytes.fromhex("449a49ec"), bytes.fromhex("00000001")],
         ["1234.31", "1.4E-45"]),
        ("DoubleConverter", [struct.pack(">d", 1e300), struct.pack(">d", 0.5)],
         ["1.0E300", "0.5"]),
        ("BooleanConverter", [b"\x01", b"\x00"], ["true", "false"]),
    ],
)  # fmt: skip
def test_headers_file_values_of_number_and_boolean_header_converters(
    tmp_path: Path, converter: str, data: list[bytes | None], expected: list[str | None]
) -> None:
    # Kafka's NumberConverter / BooleanConverter.toConnectHeader, then Confluent's
    # HeaderRecordView (Values.convertToString); a null value stays null.
    ctx = build_writer_context(_config(tmp_path, **{
        "store.kafka.headers": "true", "headers.format.class": "json", "flush.size": "1",
        "header.converter": f"org.apache.kafka.connect.converters.{converter}",
        "errors.tolerance": "all", "errors.log.enable": "true",
    }))  # fmt: skip
    raw = RawRecord("t", 0, 0, 1, None, b"{}", tuple((f"h{i}", d) for i, d in enumerate(data)))
    writer = TopicPartitionWriter(ctx, "t", 0)
    writer.write([raw], 0)
    if None in expected:  # the headers file refuses a null header value, as Confluent's
        assert [d.stage for d in writer.dead_letters] == ["TASK_PUT"]
        assert "is null: the headers file's value field is required" in (
            writer.dead_letters[0].message
        )
        return
    line = (tmp_path / "out/topics/t/partition=0/t+0+0000000000.headers.json").read_text()
    assert [h["value"] for h in json.loads(line)["headers"]] == expected


@pytest.mark.parametrize("stored", ["true", "false"])
def test_a_header_the_header_converter_refuses_fails_the_record(
    tmp_path: Path, stored: str
) -> None:
    # Kafka Connect converts every record's headers (stored or not): a wrong-size one fails the
    # record at HEADER_CONVERTER, a dead letter under errors.tolerance=all.
    ctx = build_writer_context(_config(tmp_path, **{
        "store.kafka.headers": stored, "headers.format.class": "json", "flush.size": "1",
        "header.converter": _LONG, "errors.tolerance": "all", "errors.log.enable": "true",
    }))  # fmt: skip
    writer = TopicPartitionWriter(ctx, "t", 0)
    good = RawRecord("t", 0, 0, 1, None, b"{}", (("h", struct.pack(">q", 1)),))
    bad = RawRecord("t", 0, 1, 1, None, b"{}", (("h", b"1"),))
    committed = writer.write([good, bad], 0)
    assert [o.start_offset for o in committed] == [0]
    letters = writer.dead_letters
    assert [(d.raw, d.stage, d.class_name) for d in letters] == [(bad, "HEADER_CONVERTER", _LONG)]
    assert letters[0].message == (
        "headers could not be converted by long header converter: Failed to deserialize long: "
        "Size of data received by LongDeserializer is not 8 (topic='t', partition=0, offset=1)"
    )
