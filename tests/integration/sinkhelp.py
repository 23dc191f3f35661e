"""Helpers of the sink integration tests: configs, producing, listing and independent decoders.

The decoders here never use s3connect: fastavro for Avro (with a snappy block reader built on
pyarrow's codec, since fastavro's own needs cramjam), ``pyarrow.parquet.ParquetFile`` for Parquet,
``gzip``/``json`` for JSON and raw bytes for ByteArray.
"""

from __future__ import annotations

import gzip
import io
import json
import time
import uuid
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import fastavro
import fastavro.read
import pyarrow as pa
import pyarrow.parquet as pq
from confluent_kafka import Consumer, Producer, TopicPartition

from s3connect.config.sink import SinkConfig
from s3connect.sink.avro_datums import AVRO_DATUM_PREFIX
from s3connect.sink.avro_rows import AVRO_ROW_PREFIX
from s3connect.sink.summary import SinkSummary
from s3connect.spark.jvm_lines import JVM_LINES_ENV, with_jvm_lines
from s3connect.spark.sink_query import processor_input, run_sink
from tests.conftest import KAFKA, S3_CREDENTIALS, S3_ENDPOINT

# ---------------------------------------------------------------------------------------------
# Configs


def sink_keys(topics: str | Iterable[str], bucket: str, tmp: Path, **keys: Any) -> dict[str, str]:
    """A complete connector config (Confluent keys + ours) for the local stack.

    Defaults: schemaless JSON values to JsonFormat, ``flush.size=3``, the checkpoint under
    ``tmp``; ``keys`` (dotted names, passed as ``**{"flush.size": "5"}``) override them.
    """
    names = topics if isinstance(topics, str) else ",".join(topics)
    config: dict[str, str] = {
        "name": f"test-{names.split(',')[0]}",
        "topics": names,
        "kafka.bootstrap.servers": KAFKA,
        "checkpoint.location": str(tmp / "checkpoint"),
        "s3.bucket.name": bucket,
        "s3.region": "us-east-1",
        "store.url": S3_ENDPOINT,
        "aws.access.key.id": S3_CREDENTIALS["aws_access_key_id"],
        "aws.secret.access.key": S3_CREDENTIALS["aws_secret_access_key"],
        "format.class": "io.confluent.connect.s3.format.json.JsonFormat",
        "value.converter": "org.apache.kafka.connect.json.JsonConverter",
        "value.converter.schemas.enable": "false",
        "flush.size": "3",
    }
    config.update({key: str(value) for key, value in keys.items()})
    return config


def run(spark: Any, keys: Mapping[str, str]) -> SinkSummary:
    """Run the sink once (availableNow) with the shared session, quietly."""
    return run_sink(SinkConfig.from_mapping(keys), spark, once=True)


# ---------------------------------------------------------------------------------------------
# Producing

# A Connect struct schema as JsonConverter (schemas.enable=true) reads it: no name, so AvroData
# names the record io.confluent.connect.avro.ConnectDefault.
USER_SCHEMA: dict[str, Any] = {
    "type": "struct",
    "optional": False,
    "fields": [
        {"field": "id", "type": "int32", "optional": False},
        {"field": "name", "type": "string", "optional": False},
        {"field": "score", "type": "double", "optional": True},
    ],
}
# AvroData.fromConnectSchema(USER_SCHEMA) with connect.meta.data=true.
USER_AVRO_SCHEMA: dict[str, Any] = {
    "type": "record",
    "name": "ConnectDefault",
    "namespace": "io.confluent.connect.avro",
    "fields": [
        {"name": "id", "type": "int"},
        {"name": "name", "type": "string"},
        {"name": "score", "type": ["null", "double"], "default": None},
    ],
}


def user(i: int) -> dict[str, Any]:
    """The i-th test record: score is null for every third record."""
    return {"id": i, "name": f"user-{i}", "score": None if i % 3 == 0 else i * 1.5}


def envelope(payload: Any, schema: Mapping[str, Any] = USER_SCHEMA) -> bytes:
    """JsonConverter's ``{"schema": ..., "payload": ...}`` envelope."""
    return json.dumps({"schema": schema, "payload": payload}).encode()


def produce(
    producer: Producer,
    topic: str,
    values: Iterable[bytes | None],
    *,
    partition: int = 0,
    timestamps: Iterable[int] | None = None,
    keys: Iterable[bytes | None] | None = None,
) -> None:
    """Produce values in order to one partition (explicit timestamps when given), then flush."""
    values = list(values)
    ts = list(timestamps) if timestamps is not None else [None] * len(values)
    ks = list(keys) if keys is not None else [None] * len(values)
    assert len(ts) == len(values) == len(ks)
    for value, timestamp, key in zip(values, ts, ks, strict=True):
        extra = {} if timestamp is None else {"timestamp": timestamp}
        producer.produce(topic, value=value, key=key, partition=partition, **extra)
    assert producer.flush(30) == 0


def json_values(rows: Iterable[Any]) -> list[bytes]:
    """Schemaless JSON values (compact, as a JSON client would send them)."""
    return [json.dumps(r, separators=(",", ":")).encode() for r in rows]


# ---------------------------------------------------------------------------------------------
# Reading S3


def objects(s3: Any, bucket: str, prefix: str = "") -> dict[str, bytes]:
    """Every object of the bucket (under ``prefix``), key -> bytes, keys sorted."""
    out: dict[str, bytes] = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        for o in page.get("Contents", []):
            out[o["Key"]] = s3.get_object(Bucket=bucket, Key=o["Key"])["Body"].read()
    return dict(sorted(out.items()))


def keys_of(s3: Any, bucket: str) -> list[str]:
    """The bucket's keys, sorted."""
    return list(objects(s3, bucket))


def wait_for_keys(s3: Any, bucket: str, count: int, timeout: float) -> tuple[list[str], float]:
    """Poll until the bucket holds at least ``count`` objects; returns keys and seconds waited."""
    start = time.monotonic()
    while True:
        keys = sorted(o["Key"] for o in s3.list_objects_v2(Bucket=bucket).get("Contents", []))
        waited = time.monotonic() - start
        if len(keys) >= count or waited > timeout:
            return keys, waited
        time.sleep(0.2)


# ---------------------------------------------------------------------------------------------
# Independent decoders


def _read_varint(fo: Any) -> int:
    shift, out = 0, 0
    while True:
        b = fo.read(1)[0]
        out |= (b & 0x7F) << shift
        if not b & 0x80:
            return out
        shift += 7


def _read_long(fo: Any) -> int:
    n = _read_varint(fo)
    return (n >> 1) ^ -(n & 1)


def _snappy_block(fo: Any) -> io.BytesIO:
    """Avro's snappy codec: raw snappy data then the big-endian CRC32 of the uncompressed data."""
    length = _read_long(fo)
    data = fo.read(length - 4)
    crc = int.from_bytes(fo.read(4), "big")
    size = _read_varint(io.BytesIO(data))  # a raw snappy stream starts with its length
    raw = pa.decompress(data, decompressed_size=size, codec="snappy", asbytes=True)
    assert zlib.crc32(raw) == crc, "snappy block CRC mismatch"
    return io.BytesIO(raw)


fastavro.read.BLOCK_READERS["snappy"] = _snappy_block


def read_avro(data: bytes) -> tuple[dict[str, Any], str, list[dict[str, Any]]]:
    """An Avro container file: (writer schema as stored, codec, records)."""
    reader = fastavro.reader(io.BytesIO(data))
    schema = json.loads(reader.metadata["avro.schema"])
    return schema, reader.metadata.get("avro.codec", "null"), list(reader)


def read_parquet(data: bytes) -> tuple[pa.Table, pq.FileMetaData]:
    """A Parquet file: its table and footer metadata."""
    f = pq.ParquetFile(pa.BufferReader(data))
    return f.read(), f.metadata


def read_json_lines(data: bytes, *, gzipped: bool = False) -> list[Any]:
    """JSON lines (optionally gzip): one document per ``\\n``-terminated line."""
    text = (gzip.decompress(data) if gzipped else data).decode("utf-8")
    assert text.endswith("\n"), "every record line ends with \\n"
    return [json.loads(line) for line in text[:-1].split("\n")]


def offsets_by_key(summary_objects: Iterable[Mapping[str, Any]]) -> dict[str, tuple[int, int, int]]:
    """Commit rows -> {key: (start, end, count)}."""
    return {
        o["object_key"]: (o["start_offset"], o["end_offset"], o["record_count"])
        for o in summary_objects
    }


KAFKA_ROWS = (
    "topic string, partition int, offset long, timestamp long, key binary, value binary, "
    "headers array<struct<key: string, value: binary>>"
)
"""The Kafka source's rows, for empty DataFrames of them."""

Written = tuple[dict[str, bytes], int, list[tuple[int, int]]]


# A tombstone, an empty value and an envelope JsonConverter refuses (a null payload for a
# required schema: "x" for an int32 it would read as 0, as Jackson's intValue): what the JVM
# functions leave to the per-record path (dead letters with TOLERANT_KEYS, the tombstone ignored).
ENVELOPE_ODDITIES: list[bytes | None] = [
    None,
    b"",
    b'{"schema":{"type":"int32","optional":false},"payload":null}',
]
TOLERANT_KEYS = {
    "flush.size": "37",
    "errors.tolerance": "all",
    "errors.log.enable": "true",  # a reporter: the task's own failures become dead letters too
    "behavior.on.null.values": "ignore",
    "report.null.values.to.dlq": "false",  # tombstones skipped silently, as without a reporter
}


def written_with_and_without_jvm(
    spark: Any, s3: Any, monkeypatch: Any, topic: str, tmp: Path, **keys: str
) -> dict[bool, Written]:
    """The sink run on ``topic`` into a new bucket twice, with the JVM line functions (True) and
    without them (``S3CONNECT_JVM_LINES=off``): each run's objects (by key below the topics
    folder), dead letters, and committed (start offset, record count)."""
    written: dict[bool, Written] = {}
    for jvm in (True, False):
        bucket = f"jvm-{str(jvm).lower()}-{uuid.uuid4().hex[:8]}"
        s3.create_bucket(Bucket=bucket)
        run_keys = sink_keys(topic, bucket, tmp / bucket, **keys)
        if jvm:
            monkeypatch.delenv(JVM_LINES_ENV, raising=False)
        else:
            monkeypatch.setenv(JVM_LINES_ENV, "off")
        empty = processor_input(spark.createDataFrame([], KAFKA_ROWS))
        rows = with_jvm_lines(empty, SinkConfig.from_mapping(run_keys))
        registry = (AVRO_ROW_PREFIX, AVRO_DATUM_PREFIX)
        columns = {"registry" if c.startswith(registry) else c for c in rows.columns}
        assert bool({"line", "payload_start", "registry"} & columns) is jvm
        summary = run(spark, run_keys)
        written[jvm] = (
            {k.split("/", 1)[1]: v for k, v in objects(s3, bucket).items()},
            summary.dead_letters,
            [(o["start_offset"], o["record_count"]) for o in summary.objects],
        )
    return written


def end_offsets(topic: str) -> dict[int, int]:
    """The end offset of each partition of ``topic`` (0 for a partition not there yet)."""
    consumer = Consumer({"bootstrap.servers": KAFKA, "group.id": f"ends-{uuid.uuid4().hex[:8]}"})
    try:
        partitions = consumer.list_topics(topic, timeout=30).topics[topic].partitions
        return {
            p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=30)[1]
            for p in partitions
        }
    finally:
        consumer.close()
