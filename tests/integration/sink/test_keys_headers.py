"""Keys, headers and tombstones against the real stack: produce -> sink -> source -> consume.

The sink writes ``.keys.<ext>`` / ``.headers.<ext>`` files beside each value file (same start
offset) and tombstones into ``tombstone.encoded.partition`` (keys and headers files only, as
Confluent's KeyValueHeaderRecordWriterProvider); the source publishes every record back with its
key, value (null for tombstones) and headers, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer

from tests.integration.sinkhelp import (
    objects,
    read_avro,
    read_json_lines,
    read_parquet,
    run,
    sink_keys,
)
from tests.integration.source.test_source import run_src, source_keys

pytestmark = pytest.mark.integration

Header = tuple[str, bytes]
# (key, value, headers) by offset of partition 0: offsets 2 and 4 are tombstones.
P0: list[tuple[bytes, bytes | None, list[Header]]] = [
    (b"k0", b'{"id":0}', [("trace", b"t-0"), ("trace", b"dup"), ("empty", b"")]),
    (b"k1", b'{"id":1}', [("trace", b"t-1")]),
    (b"k2", None, [("deleted", b"yes")]),
    (b"k3", b'{"id":3}', [("trace", b"t-3"), ("unicode", "é✓".encode())]),
    (b"k4", None, [("deleted", b"yes"), ("by", b"gc")]),
    (b"k5", b'{"id":5}', [("trace", b"t-5")]),
]
P1: list[tuple[bytes, bytes | None, list[Header]]] = [
    (b"a", b'{"id":10}', [("h", b"1")]),
    (b"b", b'{"id":11}', [("h", b"2")]),
    (b"c", b'{"id":12}', [("h", b"3")]),
]


def _produce(producer: Producer, topic: str) -> None:
    for partition, rows in ((0, P0), (1, P1)):
        for key, value, headers in rows:
            producer.produce(topic, key=key, value=value, headers=headers, partition=partition)
    assert producer.flush(30) == 0


def _names(topic: str) -> dict[str, list[int]]:
    """Folder -> start offsets of its files, for partition 0 and 1."""
    return {
        f"topics/{topic}/partition=0/{topic}+0+": [0, 3],
        f"topics/{topic}/tombstone/{topic}+0+": [2, 4],
        f"topics/{topic}/partition=1/{topic}+1+": [0],
    }


@pytest.mark.parametrize(
    ("keys_format", "headers_format", "key_converter"),
    [
        ("avro", "avro", "string"),
        ("bytearray", "json", "bytearray"),
        ("parquet", "parquet", "string"),
    ],
)
def test_keys_headers_tombstones_round_trip(
    spark: Any,
    make_topic: Callable[..., str],
    producer: Producer,
    consume: Callable[..., list[Any]],
    s3: Any,
    bucket: str,
    tmp_path: Path,
    keys_format: str,
    headers_format: str,
    key_converter: str,
) -> None:
    topic = make_topic("kh", partitions=2)
    _produce(producer, topic)
    sink = sink_keys(
        topic,
        bucket,
        tmp_path,
        **{
            "store.kafka.keys": "true",
            "store.kafka.headers": "true",
            "keys.format.class": keys_format,
            "headers.format.class": headers_format,
            "key.converter": key_converter,
            "behavior.on.null.values": "write",
        },
    )
    summary = run(spark, sink)

    # -- objects: value, keys and headers files with the same start offsets; tombstones
    # (offsets 2 and 4) in their own folder with keys and headers only.
    ext = {"avro": ".avro", "bytearray": ".bin", "json": ".json", "parquet": ".snappy.parquet"}
    kext, hext = ".keys" + ext[keys_format], ".headers" + ext[headers_format]
    expected: list[str] = []
    for prefix, starts in _names(topic).items():
        for start in starts:
            name = f"{prefix}{start:010d}"
            exts = [kext, hext] if "/tombstone/" in prefix else [".json", kext, hext]
            expected += [name + ext for ext in exts]
    got = objects(s3, bucket)
    assert sorted(got) == sorted(expected)
    # The commit log: one row per file (value object, or keys object of tombstones).
    assert sorted((o["object_key"], o["record_count"]) for o in summary.objects) == sorted(
        [
            (f"topics/{topic}/partition=0/{topic}+0+0000000000.json", 2),
            (f"topics/{topic}/partition=0/{topic}+0+0000000003.json", 2),
            (f"topics/{topic}/tombstone/{topic}+0+0000000002{kext}", 1),
            (f"topics/{topic}/tombstone/{topic}+0+0000000004{kext}", 1),
            (f"topics/{topic}/partition=1/{topic}+1+0000000000.json", 3),
        ]
    )

    # -- contents of the first file of partition 0 (offsets 0, 1).
    base = f"topics/{topic}/partition=0/{topic}+0+0000000000"
    assert got[base + ".json"] == b'{"id":0}\n{"id":1}\n'
    headers_0 = [
        [
            {"key": "trace", "value": "t-0"},
            {"key": "trace", "value": "dup"},
            {"key": "empty", "value": ""},
        ],
        [{"key": "trace", "value": "t-1"}],
    ]
    if keys_format == "avro":
        schema, _codec, keys = read_avro(got[base + kext])
        assert (schema, keys) == (["null", "string"], ["k0", "k1"])
    elif keys_format == "parquet":
        table, meta = read_parquet(got[base + kext])
        assert table.to_pylist() == [{"key": "k0"}, {"key": "k1"}]
        assert json.loads(meta.metadata[b"parquet.avro.schema"]) == {
            "type": "record",
            "name": "RecordKey",
            "fields": [{"name": "key", "type": ["null", "string"], "default": None}],
            "connect.name": "RecordKey",
        }
    else:
        assert got[base + kext] == b"k0\nk1\n"
    if headers_format == "avro":
        schema, _codec, headers = read_avro(got[base + hext])
        assert schema == {
            "type": "array",
            "items": {
                "type": "record",
                "name": "ConnectDefault",
                "namespace": "io.confluent.connect.avro",
                "fields": [
                    {"name": "key", "type": "string"},
                    {"name": "value", "type": "string"},
                ],
            },
        }
        assert headers == headers_0
    elif headers_format == "parquet":
        table, _meta = read_parquet(got[base + hext])
        assert table.to_pylist() == [{"headers": h} for h in headers_0]
    else:
        assert read_json_lines(got[base + hext]) == [{"headers": h} for h in headers_0]
        assert got[base + hext].startswith(b'{"headers":[{"key":"trace","value":"t-0"}')
    tomb = f"topics/{topic}/tombstone/{topic}+0+0000000004"
    if keys_format == "bytearray":
        assert got[tomb + kext] == b"k4\n"
    if headers_format == "json":
        assert json.loads(got[tomb + hext]) == {
            "headers": [{"key": "deleted", "value": "yes"}, {"key": "by", "value": "gc"}]
        }

    # -- the source: every record back with key, value and headers, same partition. Within
    # partition 0 objects are read by start offset (0, 2, 3, 4), so tombstone 4 follows 5.
    run_src(spark, source_keys(sink, tmp_path))
    messages = consume(f"copy_of_{topic}", len(P0) + len(P1))
    back: dict[int, list[tuple[bytes | None, bytes | None, list[Header]]]] = {}
    for m in messages:
        back.setdefault(m.partition(), []).append((m.key(), m.value(), list(m.headers() or [])))
    order = [0, 1, 2, 3, 5, 4]
    assert back == {0: [P0[i] for i in order], 1: P1}
