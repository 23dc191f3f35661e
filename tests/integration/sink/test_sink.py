"""The S3 sink end to end against the real stack: Kafka broker -> Spark query -> S3 objects.

Every test produces to a fresh topic, runs the sink (availableNow unless it tests the continuous
trigger) on the shared SparkSession and asserts the exact object keys and their decoded contents,
with readers independent of s3connect (see ``sinkhelp``).
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer

from s3connect.app.cli import main as cli_main
from s3connect.config.sink import SinkConfig
from s3connect.spark.sink_query import start_sink
from tests.conftest import S3_CREDENTIALS
from tests.integration.sinkhelp import (
    USER_AVRO_SCHEMA,
    envelope,
    json_values,
    keys_of,
    objects,
    offsets_by_key,
    produce,
    read_avro,
    read_json_lines,
    read_parquet,
    run,
    sink_keys,
    user,
    wait_for_keys,
)

pytestmark = pytest.mark.integration

JSON_FORMAT = "io.confluent.connect.s3.format.json.JsonFormat"
AVRO_FORMAT = "io.confluent.connect.s3.format.avro.AvroFormat"
PARQUET_FORMAT = "io.confluent.connect.s3.format.parquet.ParquetFormat"
BYTES_FORMAT = "io.confluent.connect.s3.format.bytearray.ByteArrayFormat"
BYTES_CONVERTER = "org.apache.kafka.connect.converters.ByteArrayConverter"
SCHEMAS = {"value.converter.schemas.enable": "true"}

H = 3_600_000
T0 = 1_710_036_300_000  # 2024-03-10T02:05:00Z


def user_line(i: int) -> bytes:
    """JsonFormat's line for user(i): JsonConverter (schemas off) in schema field order."""
    u = user(i)
    score = "null" if u["score"] is None else repr(u["score"])
    return f'{{"id":{i},"name":"user-{i}","score":{score}}}\n'.encode()


# ---------------------------------------------------------------------------------------------
# Formats and codecs


@pytest.mark.parametrize("codec", ["null", "deflate", "snappy", "bzip2"])
def test_avro_codecs(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path,
    codec: str,
) -> None:  # fmt: skip
    t = make_topic("avro")
    produce(producer, t, [envelope(user(i)) for i in range(5)])
    summary = run(
        spark,
        sink_keys(t, bucket, tmp_path, **SCHEMAS, **{
            "format.class": AVRO_FORMAT, "avro.codec": codec, "flush.size": "2",
        }),
    )  # fmt: skip
    got = objects(s3, bucket)
    first = f"topics/{t}/partition=0/{t}+0+0000000000.avro"
    second = f"topics/{t}/partition=0/{t}+0+0000000002.avro"
    assert list(got) == [first, second]  # offset 4 stays in an open file
    for key, ids in ((first, [0, 1]), (second, [2, 3])):
        schema, file_codec, records = read_avro(got[key])
        assert schema == USER_AVRO_SCHEMA
        assert file_codec == codec
        assert records == [user(i) for i in ids]
    assert offsets_by_key(summary.objects) == {first: (0, 1, 2), second: (2, 3, 2)}
    assert {o["object_key"]: o["bytes"] for o in summary.objects} == {
        k: len(v) for k, v in got.items()
    }
    if codec == "snappy":  # Spark's Avro reader (Java snappy) agrees with fastavro
        local = tmp_path / "copy.avro"
        local.write_bytes(got[second])
        rows = spark.read.format("avro").load(str(local)).collect()
        assert [r.asDict() for r in rows] == [user(2), user(3)]


@pytest.mark.parametrize(("compression", "extension"), [("none", ".json"), ("gzip", ".json.gz")])
def test_json_compression(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path,
    compression: str, extension: str,
) -> None:  # fmt: skip
    t = make_topic("json")
    produce(producer, t, [envelope(user(i)) for i in range(6)])
    run(
        spark,
        sink_keys(t, bucket, tmp_path, **SCHEMAS, **{
            "format.class": JSON_FORMAT, "s3.compression.type": compression, "flush.size": "3",
        }),
    )  # fmt: skip
    got = objects(s3, bucket)
    keys = [f"topics/{t}/partition=0/{t}+0+000000000{s}{extension}" for s in (0, 3)]
    assert list(got) == keys
    for key, start in zip(keys, (0, 3), strict=True):
        data = got[key]
        if compression == "gzip":
            assert data[:2] == b"\x1f\x8b"
            data = gzip.decompress(data)
        assert data == b"".join(user_line(i) for i in range(start, start + 3))
        assert read_json_lines(data) == [user(i) for i in range(start, start + 3)]


PARQUET_CODECS = [
    # parquet.codec, CompressionCodecName.getExtension(), codec recorded in the column chunks
    ("none", "", {"UNCOMPRESSED"}),
    ("snappy", ".snappy", {"SNAPPY"}),
    ("gzip", ".gz", {"GZIP"}),
    ("zstd", ".zstd", {"ZSTD"}),
    ("brotli", ".br", {"BROTLI"}),
    ("lz4", ".lz4hadoop", {"LZ4"}),  # Hadoop-framed LZ4, as parquet-mr writes and reads
]


@pytest.mark.parametrize(("codec", "codec_ext", "chunk_codecs"), PARQUET_CODECS)
def test_parquet_codecs(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path,
    codec: str, codec_ext: str, chunk_codecs: set[str],
) -> None:  # fmt: skip
    t = make_topic("parquet")
    produce(producer, t, [envelope(user(i)) for i in range(4)])
    run(
        spark,
        sink_keys(t, bucket, tmp_path, **SCHEMAS, **{
            "format.class": PARQUET_FORMAT, "parquet.codec": codec, "flush.size": "4",
        }),
    )  # fmt: skip
    got = objects(s3, bucket)
    key = f"topics/{t}/partition=0/{t}+0+0000000000{codec_ext}.parquet"
    assert list(got) == [key]
    table, meta = read_parquet(got[key])
    assert table.to_pylist() == [user(i) for i in range(4)]
    assert [(f.name, str(f.type), f.nullable) for f in table.schema] == [
        ("id", "int32", False),
        ("name", "string", False),
        ("score", "double", True),
    ]
    assert json.loads(meta.metadata[b"parquet.avro.schema"]) == USER_AVRO_SCHEMA
    assert meta.num_rows == 4
    used = {meta.row_group(0).column(c).compression for c in range(meta.num_columns)}
    assert used == chunk_codecs
    if codec != "brotli":  # parquet-mr (Spark) decodes them too; it ships no Brotli codec
        local = tmp_path / f"copy{codec_ext}.parquet"
        local.write_bytes(got[key])
        assert [r.asDict() for r in spark.read.parquet(str(local)).collect()] == [
            user(i) for i in range(4)
        ]


def test_parquet_to_a_local_folder_reads_back_with_spark(
    spark: Any, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("pqlocal", partitions=2)
    for p in (0, 1):
        produce(producer, t, [envelope(user(10 * p + i)) for i in range(3)], partition=p)
    root = tmp_path / "out"
    run(
        spark,
        sink_keys(t, "ignored", tmp_path, **SCHEMAS, **{
            "format.class": PARQUET_FORMAT, "flush.size": "3", "store.url": f"file://{root}",
        }),
    )  # fmt: skip
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    assert files == [
        f"topics/{t}/partition=0/{t}+0+0000000000.snappy.parquet",
        f"topics/{t}/partition=1/{t}+1+0000000000.snappy.parquet",
    ]
    rows = spark.read.parquet(str(root / "topics" / t)).orderBy("id").collect()
    assert [r.asDict() for r in rows] == [
        {**user(10 * p + i), "partition": p} for p in (0, 1) for i in range(3)
    ]


BYTE_VALUES = [b"alpha", b"\x00\x01\xfe\xff", b"", b"line\nbreak", b"omega"]


@pytest.mark.parametrize(
    ("extra", "name", "separator", "gzipped"),
    [
        ({}, ".bin", b"\n", False),
        (
            {"format.bytearray.separator": "||", "format.bytearray.extension": ".raw"},
            ".raw",
            b"||",
            False,
        ),
        ({"s3.compression.type": "gzip"}, ".bin.gz", b"\n", True),
    ],
    ids=["default", "custom", "gzip"],
)
def test_bytearray(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path,
    extra: dict[str, str], name: str, separator: bytes, gzipped: bool,
) -> None:  # fmt: skip
    t = make_topic("bytes")
    produce(producer, t, BYTE_VALUES)
    run(
        spark,
        sink_keys(t, bucket, tmp_path, **extra, **{
            "format.class": BYTES_FORMAT, "value.converter": BYTES_CONVERTER, "flush.size": "5",
        }),
    )  # fmt: skip
    got = objects(s3, bucket)
    key = f"topics/{t}/partition=0/{t}+0+0000000000{name}"
    assert list(got) == [key]
    data = gzip.decompress(got[key]) if gzipped else got[key]
    assert data == b"".join(v + separator for v in BYTE_VALUES)


# ---------------------------------------------------------------------------------------------
# Partitioners

ORDER_SCHEMA: dict[str, Any] = {
    "type": "struct",
    "optional": False,
    "fields": [
        {"field": "id", "type": "int32", "optional": False},
        {"field": "region", "type": "string", "optional": False},
        {
            "field": "meta",
            "type": "struct",
            "optional": False,
            "fields": [
                {"field": "kind", "type": "string", "optional": False},
                {"field": "level", "type": "int32", "optional": False},
            ],
        },
    ],
}


def test_field_partitioner_several_and_nested_fields(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("field")
    rows = [(0, "eu", 1), (1, "us", 2), (2, "eu", 1), (3, "eu", 2), (4, "us", 2), (5, "eu", 1)]
    payloads = [
        {"id": i, "region": r, "meta": {"kind": f"k{i % 2}", "level": lv}} for i, r, lv in rows
    ]
    produce(producer, t, [envelope(p, ORDER_SCHEMA) for p in payloads])
    summary = run(
        spark,
        sink_keys(t, bucket, tmp_path, **SCHEMAS, **{
            "partitioner.class": "io.confluent.connect.storage.partitioner.FieldPartitioner",
            "partition.field.name": "region,meta.level",
            "flush.size": "5",
        }),
    )  # fmt: skip
    got = objects(s3, bucket)
    base = f"topics/{t}"
    expected = {
        f"{base}/region=eu/meta.level=1/{t}+0+0000000000.json": [0, 2],
        f"{base}/region=us/meta.level=2/{t}+0+0000000001.json": [1, 4],
        f"{base}/region=eu/meta.level=2/{t}+0+0000000003.json": [3],
    }  # offset 5 (flush.size reached at offset 4) stays open
    assert list(got) == sorted(expected)
    for key, ids in expected.items():
        lines = b"".join(
            json.dumps(payloads[i], separators=(",", ":")).encode() + b"\n" for i in ids
        )
        assert got[key] == lines
    assert {o["object_key"]: o["encoded_partition"] for o in summary.objects} == {
        k: k.split("/", 2)[2].rsplit("/", 1)[0] for k in expected
    }
    assert offsets_by_key(summary.objects) == {
        k: (ids[0], ids[-1], len(ids)) for k, ids in expected.items()
    }


def test_flush_size_counts_records_across_encoded_partitions(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("flush")
    values = [{"id": i, "color": "red" if i % 2 == 0 else "blue"} for i in range(10)]
    produce(producer, t, json_values(values))
    run(
        spark,
        sink_keys(t, bucket, tmp_path, **{
            "partitioner.class": "FieldPartitioner",
            "partition.field.name": "color",
            "flush.size": "4",
        }),
    )  # fmt: skip
    got = objects(s3, bucket)
    # flush.size=4 counts the topic-partition's records over both open files: offsets 0-3 commit
    # two files of 2 records, 4-7 two more; 8 and 9 stay open.
    expected = {
        f"topics/{t}/color=red/{t}+0+0000000000.json": [0, 2],
        f"topics/{t}/color=blue/{t}+0+0000000001.json": [1, 3],
        f"topics/{t}/color=red/{t}+0+0000000004.json": [4, 6],
        f"topics/{t}/color=blue/{t}+0+0000000005.json": [5, 7],
    }
    assert list(got) == sorted(expected)
    for key, ids in expected.items():
        assert read_json_lines(got[key]) == [values[i] for i in ids]


def hour_path(day: int, hour: int) -> str:
    return f"year=2024/month=03/day={day:02d}/hour={hour:02d}"


def test_time_based_partitioner_record_timestamps(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("time")
    stamps = [T0, T0 + 5 * 60_000, T0 + 15 * 60_000, T0 + 55 * 60_000, T0 + 85 * 60_000]
    stamps.append(T0 + 3 * H)
    produce(producer, t, json_values({"id": i} for i in range(6)), timestamps=stamps)
    run(
        spark,
        sink_keys(t, bucket, tmp_path, **{
            "partitioner.class": "io.confluent.connect.storage.partitioner.TimeBasedPartitioner",
            "path.format": "'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH",
            "partition.duration.ms": str(H),
            "locale": "en-US",
            "timezone": "UTC",
            "timestamp.extractor": "Record",
            "flush.size": "3",
        }),
    )  # fmt: skip
    got = objects(s3, bucket)
    # 02:05, 02:10, 02:20 -> hour 02; 03:00, 03:30 and 05:05 -> hours 03 and 05 (one commit).
    expected = {
        f"topics/{t}/{hour_path(10, 2)}/{t}+0+0000000000.json": [0, 1, 2],
        f"topics/{t}/{hour_path(10, 3)}/{t}+0+0000000003.json": [3, 4],
        f"topics/{t}/{hour_path(10, 5)}/{t}+0+0000000005.json": [5],
    }
    assert list(got) == sorted(expected)
    for key, ids in expected.items():
        assert got[key] == b"".join(b'{"id":%d}\n' % i for i in ids)


def test_time_based_partitioner_record_field_millis_and_iso_strings(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    millis, iso = make_topic("tsmillis"), make_topic("tsiso")
    produce(
        producer,
        millis,
        json_values(
            {"id": i, "event": {"ts": ts}} for i, ts in enumerate([T0, T0 + H, T0 + H + 1])
        ),
    )
    iso_stamps = [
        "2024-03-10T02:59:59.999Z",  # hour 02 UTC
        "2024-03-10T04:15:00+01:00",  # 03:15 UTC
        "2024-03-09T22:00:00.000-05:00",  # 03:00 UTC
    ]
    produce(
        producer, iso, json_values({"id": i, "event": {"ts": s}} for i, s in enumerate(iso_stamps))
    )
    run(
        spark,
        sink_keys([millis, iso], bucket, tmp_path, **{
            "partitioner.class": "TimeBasedPartitioner",
            "path.format": "'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH",
            "partition.duration.ms": str(H),
            "locale": "en",
            "timezone": "UTC",
            "timestamp.extractor": "RecordField",
            "timestamp.field": "event.ts",
            "flush.size": "3",
        }),
    )  # fmt: skip
    got = objects(s3, bucket)
    assert {k: read_json_lines(v) for k, v in got.items()} == {
        f"topics/{millis}/{hour_path(10, 2)}/{millis}+0+0000000000.json": [
            {"id": 0, "event": {"ts": T0}}
        ],
        f"topics/{millis}/{hour_path(10, 3)}/{millis}+0+0000000001.json": [
            {"id": 1, "event": {"ts": T0 + H}},
            {"id": 2, "event": {"ts": T0 + H + 1}},
        ],
        f"topics/{iso}/{hour_path(10, 2)}/{iso}+0+0000000000.json": [
            {"id": 0, "event": {"ts": iso_stamps[0]}}
        ],
        f"topics/{iso}/{hour_path(10, 3)}/{iso}+0+0000000001.json": [
            {"id": 1, "event": {"ts": iso_stamps[1]}},
            {"id": 2, "event": {"ts": iso_stamps[2]}},
        ],
    }


@pytest.mark.parametrize(
    ("partitioner", "timezone", "paths"),
    [
        # 2024-03-09T23:30Z is already the 10th in Paris (+01:00); 2024-03-10T23:30Z the 11th.
        (
            "io.confluent.connect.storage.partitioner.DailyPartitioner",
            "Europe/Paris",
            ["year=2024/month=03/day=10", "year=2024/month=03/day=11"],
        ),
        (
            "io.confluent.connect.storage.partitioner.HourlyPartitioner",
            "UTC",
            [hour_path(9, 23), hour_path(10, 23)],
        ),
    ],
    ids=["daily", "hourly"],
)
def test_daily_and_hourly_presets(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path,
    partitioner: str, timezone: str, paths: list[str],
) -> None:  # fmt: skip
    t = make_topic("preset")
    late = 1_710_027_000_000  # 2024-03-09T23:30:00Z
    produce(
        producer, t, json_values({"id": i} for i in range(4)),
        timestamps=[late, late + 60_000, late + 24 * H, late + 24 * H + 1],
    )  # fmt: skip
    run(
        spark,
        sink_keys(t, bucket, tmp_path, **{
            "partitioner.class": partitioner,
            "locale": "en",
            "timezone": timezone,
            "timestamp.extractor": "Record",
            "flush.size": "4",
        }),
    )  # fmt: skip
    got = objects(s3, bucket)
    assert {k: read_json_lines(v) for k, v in got.items()} == {
        f"topics/{t}/{paths[0]}/{t}+0+0000000000.json": [{"id": 0}, {"id": 1}],
        f"topics/{t}/{paths[1]}/{t}+0+0000000002.json": [{"id": 2}, {"id": 3}],
    }


def test_rotate_interval_with_record_timestamps(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("rotate")
    offsets_s = [0, 10, 59.999, 60, 70, 30, 125, 126]  # seconds after T0; offset 5 is late
    stamps = [T0 + int(s * 1000) for s in offsets_s]
    produce(producer, t, json_values({"id": i} for i in range(len(stamps))), timestamps=stamps)
    summary = run(
        spark,
        sink_keys(t, bucket, tmp_path, **{
            "partitioner.class": "TimeBasedPartitioner",
            "path.format": "'dt'=YYYY-MM-dd",
            "partition.duration.ms": str(24 * H),
            "locale": "en",
            "timezone": "UTC",
            "timestamp.extractor": "Record",
            "rotate.interval.ms": "60000",
            "flush.size": "100",
        }),
    )  # fmt: skip
    got = objects(s3, bucket)
    # 60 s after the file's first record rotates before appending (0-2 | 3-5); the late record
    # (offset 5, T0+30s) neither rotates nor moves the base; T0+125s is >= base (T0+60s) + 60 s.
    expected = {
        f"topics/{t}/dt=2024-03-10/{t}+0+0000000000.json": [0, 1, 2],
        f"topics/{t}/dt=2024-03-10/{t}+0+0000000003.json": [3, 4, 5],
    }
    assert list(got) == list(expected)
    for key, ids in expected.items():
        assert read_json_lines(got[key]) == [{"id": i} for i in ids]
    assert offsets_by_key(summary.objects) == {
        k: (ids[0], ids[-1], len(ids)) for k, ids in expected.items()
    }


# ---------------------------------------------------------------------------------------------
# Object naming


def test_blank_topics_dir_and_custom_directory_delim(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("delim")
    produce(producer, t, json_values({"a": "x", "b": i} for i in range(2)))
    run(
        spark,
        sink_keys(t, bucket, tmp_path, **{
            "topics.dir": "  ",
            "directory.delim": "_",
            "partitioner.class": "FieldPartitioner",
            "partition.field.name": "a,b",
            "flush.size": "2",
        }),
    )  # fmt: skip
    assert keys_of(s3, bucket) == [
        f"{t}_a=x_b=0_{t}+0+0000000000.json",
        f"{t}_a=x_b=1_{t}+0+0000000001.json",
    ]


def test_custom_topics_dir_file_delim_and_zero_pad_width(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("naming")
    produce(producer, t, json_values({"n": i} for i in range(12)))
    run(
        spark,
        sink_keys(t, bucket, tmp_path, **{
            "topics.dir": "exports/raw",
            "file.delim": "#",
            "filename.offset.zero.pad.width": "1",
            "flush.size": "5",
        }),
    )  # fmt: skip
    # width 1: offsets print whole, unpadded (String.format("%01d")).
    got = objects(s3, bucket)
    assert list(got) == [
        f"exports/raw/{t}/partition=0/{t}#0#0.json",
        f"exports/raw/{t}/partition=0/{t}#0#5.json",
    ]
    assert read_json_lines(got[f"exports/raw/{t}/partition=0/{t}#0#5.json"]) == [
        {"n": i} for i in range(5, 10)
    ]


# ---------------------------------------------------------------------------------------------
# Restarts, exactly-once, errors, commit log


def test_resume_after_clean_stop_carries_open_files_over(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("resume")
    keys = sink_keys(t, bucket, tmp_path, **{"flush.size": "5"})
    produce(producer, t, json_values({"i": i} for i in range(7)))
    first = run(spark, keys)
    k0 = f"topics/{t}/partition=0/{t}+0+0000000000.json"
    k5 = f"topics/{t}/partition=0/{t}+0+0000000005.json"
    assert keys_of(s3, bucket) == [k0]
    assert offsets_by_key(first.objects) == {k0: (0, 4, 5)}
    # The shuffle-free shape: offsets 5 and 6 wait in a state file named after offset 7, in the
    # checkpoint; Spark keeps no operator state.
    checkpoint = tmp_path / "checkpoint"
    assert [p.name for p in (checkpoint / "s3connect-state" / t / "0").iterdir()] == [
        f"{7:020d}.state"
    ]
    assert not (checkpoint / "state").exists()

    produce(producer, t, json_values({"i": i} for i in range(7, 10)))
    second = run(spark, keys)
    got = objects(s3, bucket)
    assert list(got) == [k0, k5]
    assert offsets_by_key(second.objects) == {k5: (5, 9, 5)}  # 5 and 6 came from state
    assert read_json_lines(got[k0]) == [{"i": i} for i in range(5)]
    assert read_json_lines(got[k5]) == [{"i": i} for i in range(5, 10)]


def test_behavior_on_null_values_ignore_skips_tombstones(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("nullok")
    produce(producer, t, [b'{"v":0}', None, b'{"v":2}', None, b'{"v":4}'])
    summary = run(
        spark,
        sink_keys(t, bucket, tmp_path, **{"behavior.on.null.values": "ignore", "flush.size": "3"}),
    )
    key = f"topics/{t}/partition=0/{t}+0+0000000000.json"
    got = objects(s3, bucket)
    assert list(got) == [key]
    assert got[key] == b'{"v":0}\n{"v":2}\n{"v":4}\n'
    assert offsets_by_key(summary.objects) == {key: (0, 4, 3)}


def test_behavior_on_null_values_fail_names_the_record(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("nullfail")
    produce(producer, t, [b'{"v":0}', b'{"v":1}', None, b'{"v":3}'])
    with pytest.raises(RuntimeError) as info:
        run(spark, sink_keys(t, bucket, tmp_path, **{"flush.size": "2"}))
    first_line = str(info.value).split("\n", 1)[0]
    assert first_line == (
        "the sink query failed: s3connect.errors.RecordError: null (tombstone) value and "
        "behavior.on.null.values=fail; set it to 'ignore' to skip such records or 'write' to "
        f"store their keys (topic='{t}', partition=0, offset=2)"
    )
    # As in Confluent, the file that flush.size closed before the tombstone is in S3.
    assert objects(s3, bucket) == {
        f"topics/{t}/partition=0/{t}+0+0000000000.json": b'{"v":0}\n{"v":1}\n'
    }


def _commit_log(spark: Any, path: Path) -> list[tuple[Any, ...]]:
    rows = spark.read.format("delta").load(str(path)).collect()
    return sorted(
        (r.object_key, r.topic, r.partition, r.encoded_partition, r.start_offset, r.end_offset,
         r.record_count, r.bytes)
        for r in rows
    )  # fmt: skip


def test_commit_log_matches_objects_and_a_replayed_batch_adds_nothing(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("log", partitions=2)
    for p in (0, 1):
        produce(producer, t, [envelope(user(10 * p + i)) for i in range(5)], partition=p)
    log_path = tmp_path / "commit_log"
    keys = sink_keys(t, bucket, tmp_path, **SCHEMAS, **{
        "format.class": AVRO_FORMAT, "flush.size": "2", "commit.log.table": str(log_path),
    })  # fmt: skip
    run(spark, keys)
    got = objects(s3, bucket)
    expected = sorted(
        (
            f"topics/{t}/partition={p}/{t}+{p}+000000000{s}.avro", t, p, f"partition={p}",
            s, s + 1, 2, len(got[f"topics/{t}/partition={p}/{t}+{p}+000000000{s}.avro"]),
        )
        for p in (0, 1) for s in (0, 2)
    )  # fmt: skip
    assert list(got) == [row[0] for row in expected]
    assert _commit_log(spark, log_path) == expected
    for row in expected:
        _, _, records = read_avro(got[row[0]])
        p, s = row[2], row[4]
        assert records == [user(10 * p + s), user(10 * p + s + 1)]

    # Forget that batch 0 committed: the restart replays it, rewriting the same objects.
    commits = tmp_path / "checkpoint" / "commits"
    assert sorted(os.listdir(commits)) == [".0.crc", "0"]
    (commits / "0").unlink()
    (commits / ".0.crc").unlink()
    versions = spark.sql(f"DESCRIBE HISTORY delta.`{log_path}`").count()
    replay = run(spark, keys)
    assert sorted(o["object_key"] for o in replay.objects) == [row[0] for row in expected]
    assert objects(s3, bucket) == got
    assert _commit_log(spark, log_path) == expected
    assert spark.sql(f"DESCRIBE HISTORY delta.`{log_path}`").count() == versions


def _wait_for_commits(checkpoint: Path, count: int, timeout: float) -> list[str]:
    """Poll until Spark has committed ``count`` micro-batches; returns the committed batch ids."""
    deadline = time.monotonic() + timeout
    while True:
        done = sorted(p.name for p in (checkpoint / "commits").glob("[0-9]*"))
        if len(done) >= count or time.monotonic() > deadline:
            return done
        time.sleep(0.1)


def test_exactly_once_after_sigkill_mid_stream(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("kill", partitions=2)
    per_partition = 12
    for p in (0, 1):
        produce(
            producer, t, [envelope(user(100 * p + i)) for i in range(per_partition)], partition=p
        )
    log_path = tmp_path / "commit_log"
    keys = sink_keys(t, bucket, tmp_path, **SCHEMAS, **{
        "format.class": AVRO_FORMAT,
        "avro.codec": "deflate",
        "flush.size": "3",
        "trigger": "1 second",
        "max.offsets.per.trigger": "4",  # 2 records per partition per micro-batch
        "commit.log.table": str(log_path),
    })  # fmt: skip
    config_file = tmp_path / "sink.json"
    config_file.write_text(json.dumps(keys))
    env = {
        **os.environ,
        "S3CONNECT_SPARK_MASTER": "local[2]",
        "AWS_ACCESS_KEY_ID": S3_CREDENTIALS["aws_access_key_id"],
        "AWS_SECRET_ACCESS_KEY": S3_CREDENTIALS["aws_secret_access_key"],
    }
    cli = [sys.executable, "-m", "s3connect.app.cli", "sink", "--config", str(config_file)]
    log_file = tmp_path / "killed.log"
    with log_file.open("wb") as out:
        proc = subprocess.Popen(
            cli, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        try:
            committed = _wait_for_commits(tmp_path / "checkpoint", 2, timeout=150)
        finally:
            os.killpg(proc.pid, signal.SIGKILL)  # the whole sink: driver, JVM, Python workers
            proc.wait(30)
    # Killed after 2 of the 6 micro-batches: files 0-2 of each partition are in S3, offset 3
    # is in an open file in the checkpointed state, and batch 2 may be half done.
    assert len(committed) >= 2, log_file.read_text()[-3000:]
    before = keys_of(s3, bucket)
    assert 2 <= len(before) < 2 * per_partition // 3, before

    # Restart with --once through the CLI, in this process (its warm SparkSession).
    restart = ["sink", "--config", str(config_file), "--once"]
    assert cli_main([*restart, "--set", "max.offsets.per.trigger=100"]) == 0
    got = objects(s3, bucket)

    # Reference: the same topic, uninterrupted, into another bucket with its own checkpoint.
    ref_bucket = f"{bucket}-ref"
    s3.create_bucket(Bucket=ref_bucket)
    ref_keys = {
        **keys,
        "s3.bucket.name": ref_bucket,
        "checkpoint.location": str(tmp_path / "ref-checkpoint"),
        "trigger": "availableNow",
    }
    del ref_keys["commit.log.table"], ref_keys["max.offsets.per.trigger"]
    run(spark, ref_keys)
    assert got == objects(s3, ref_bucket)  # same keys, byte-identical objects

    starts = range(0, per_partition, 3)
    assert list(got) == [
        f"topics/{t}/partition={p}/{t}+{p}+{s:010d}.avro" for p in (0, 1) for s in starts
    ]
    for p in (0, 1):
        offsets: list[int] = []
        for s in starts:
            _, codec, records = read_avro(got[f"topics/{t}/partition={p}/{t}+{p}+{s:010d}.avro"])
            assert codec == "deflate"
            assert records == [user(100 * p + i) for i in range(s, s + 3)]
            offsets += range(s, s + 3)
        assert offsets == list(range(per_partition))  # every offset in exactly one object
    log = _commit_log(spark, log_path)
    assert [row[0] for row in log] == list(got)  # one row per object, none twice
    assert [(row[4], row[5], row[6], row[7]) for row in log] == [
        (int(k[-15:-5]), int(k[-15:-5]) + 2, 3, len(got[k])) for k in got
    ]


# ---------------------------------------------------------------------------------------------
# Scheduled rotation on a continuous trigger


def test_scheduled_rotation_commits_an_idle_partition_on_time(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("sched")
    keys = sink_keys(t, bucket, tmp_path, **{
        "trigger": "1 second",
        "rotate.schedule.interval.ms": "5000",
        "timezone": "UTC",
        "flush.size": "1000",
    })  # fmt: skip
    sink = start_sink(SinkConfig.from_mapping(keys), spark)
    try:
        deadline = time.monotonic() + 60
        while sink.query.lastProgress is None and time.monotonic() < deadline:
            time.sleep(0.2)  # the query runs (empty) batches before any record arrives
        assert sink.query.isActive and sink.query.lastProgress is not None

        # Records arrive, then nothing: the file must commit at the next 5 s boundary (aligned
        # to midnight UTC) plus at most a trigger interval and a batch, with no further record.
        produce(producer, t, json_values({"n": i} for i in range(3)))
        first, waited = wait_for_keys(s3, bucket, 1, timeout=30)
        assert first == [f"topics/{t}/partition=0/{t}+0+0000000000.json"]
        assert waited < 10, f"scheduled rotation took {waited:.1f} s"

        # The next file of the same partition gets its own timer.
        produce(producer, t, json_values({"n": i} for i in range(3, 5)))
        _, waited = wait_for_keys(s3, bucket, 2, timeout=30)
        assert waited < 10, f"scheduled rotation took {waited:.1f} s"
        deadline = time.monotonic() + 30
        while len(sink.summary.objects) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)  # the object is in S3; let its micro-batch finish committing
    finally:
        sink.query.stop()
    assert sink.query.exception() is None
    # Timers: the stateful shape, open files in Spark's state store, no state files of ours.
    assert (tmp_path / "checkpoint" / "state").is_dir()
    assert not any((tmp_path / "checkpoint").rglob("*.state"))
    got = objects(s3, bucket)
    assert {k: read_json_lines(v) for k, v in got.items()} == {
        f"topics/{t}/partition=0/{t}+0+0000000000.json": [{"n": i} for i in range(3)],
        f"topics/{t}/partition=0/{t}+0+0000000003.json": [{"n": 3}, {"n": 4}],
    }
    assert offsets_by_key(sink.summary.objects) == {
        f"topics/{t}/partition=0/{t}+0+0000000000.json": (0, 2, 3),
        f"topics/{t}/partition=0/{t}+0+0000000003.json": (3, 4, 2),
    }


@pytest.mark.parametrize(
    ("flag", "expected"),
    [
        # Confluent's testWriteRecordTimeBasedPartitionRecordTimestampHoursOutOfOrder: with the
        # flag false the late records go back into their hour's open file: two files.
        ("false", {(10, 0): [0, 2], (9, 1): [1, 3]}),
        # ...AndRotateOnPartitionChange (the default): every hour change commits: four files.
        ("true", {(10, 0): [0], (9, 1): [1], (10, 2): [2], (9, 3): [3]}),
    ],
)
def test_rotate_file_on_partition_change_with_out_of_order_hours(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path,
    flag: str, expected: dict[tuple[int, int], list[int]],
) -> None:  # fmt: skip
    t = make_topic("ooo")
    ten = 1_710_064_800_000  # 2024-03-10T10:00:00Z
    minute = 60_000
    stamps = [ten, ten - 2 * minute, ten + 9 * minute, ten - 5 * minute, ten + 10 * minute]
    produce(producer, t, json_values({"id": i} for i in range(5)), timestamps=stamps)
    run(
        spark,
        sink_keys(t, bucket, tmp_path, **{
            "partitioner.class": "io.confluent.connect.storage.partitioner.HourlyPartitioner",
            "locale": "en",
            "timezone": "UTC",
            "timestamp.extractor": "Record",
            "rotate.interval.ms": str(10 * minute),
            "rotate.file.on.partition.change": flag,
            "flush.size": "1000",
        }),
    )  # fmt: skip
    got = {k: read_json_lines(v) for k, v in objects(s3, bucket).items()}
    # Record 4 (10:10) is 10 minutes after the first file's first record: it commits every open
    # file and stays open itself.
    assert got == {
        f"topics/{t}/{hour_path(10, hour)}/{t}+0+{start:010d}.json": [{"id": i} for i in ids]
        for (hour, start), ids in expected.items()
    }
