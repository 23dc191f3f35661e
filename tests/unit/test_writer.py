"""The per topic-partition writer, driven record by record without Spark (local folder storage)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from s3connect.config import SinkConfig
from s3connect.errors import RecordError
from s3connect.pending import decode_pending, encode_pending
from s3connect.pipeline import build_writer_context
from s3connect.writer import PendingRecord, RawRecord, TopicPartitionWriter


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
