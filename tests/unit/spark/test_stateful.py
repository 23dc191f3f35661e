"""The stateful sink processor (``transformWithStateInPandas``) under PySpark's ``TwsTester``:
micro-batches of one topic-partition, its open files in the processor's state, timers, dead
letters, all without a JVM."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from pyspark.sql.streaming.tws_tester import TwsTester

from s3connect.config.sink import SinkConfig
from s3connect.spark.stateful import SinkProcessor

KEY = ("t", 0)
T0 = 1_700_000_000_000


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


def _rows(offsets: range, values: list[bytes] | None = None) -> pd.DataFrame:
    """Kafka rows as the processor reads them (``processor_input``: headers as JSON text)."""
    values = values or [json.dumps({"i": o}).encode() for o in offsets]
    return pd.DataFrame(
        {
            "topic": ["t"] * len(offsets),
            "partition": [0] * len(offsets),
            "offset": list(offsets),
            "timestamp": [T0 + o for o in offsets],
            "key": [None] * len(offsets),
            "value": values,
            "headers": [None] * len(offsets),
        }
    )


def _objects(out: pd.DataFrame) -> list[tuple[str, int, int, int]]:
    objects = out[out["kind"] == "object"]
    return [
        (r.object_key, r.start_offset, r.end_offset, r.record_count) for r in objects.itertuples()
    ]


def _lines(tmp_path: Path, key: str) -> list[str]:
    return (tmp_path / "out" / key).read_text().splitlines()


def test_open_files_carry_over_micro_batches_in_state(tmp_path: Path) -> None:
    tester = TwsTester(SinkProcessor(_config(tmp_path)))
    first = tester.testInPandas(KEY, _rows(range(0, 2)))
    assert first.empty
    assert len(tester.peekListState("pending", KEY)) == 1  # the two open records, one chunk

    second = tester.testInPandas(KEY, _rows(range(2, 5)))
    assert _objects(second) == [("topics/t/partition=0/t+0+0000000000.json", 0, 2, 3)]
    assert _lines(tmp_path, "topics/t/partition=0/t+0+0000000000.json") == [
        '{"i":0}',
        '{"i":1}',
        '{"i":2}',
    ]
    assert list(second.columns)[:2] == ["kind", "object_key"]
    rotator = json.loads(tester.peekValueState("rotator", KEY)[0])  # type: ignore[index]
    assert rotator["current_offset"] == 4


def test_scheduled_rotation_closes_an_idle_partition_on_its_timer(tmp_path: Path) -> None:
    config = _config(
        tmp_path,
        **{"flush.size": "100", "rotate.schedule.interval.ms": "60000", "timezone": "UTC"},
    )
    tester = TwsTester(SinkProcessor(config, timers=True), timeMode="ProcessingTime")
    tester.setProcessingTime(T0)
    assert tester.testInPandas(KEY, _rows(range(0, 2))).empty
    next_minute = (T0 // 60_000 + 1) * 60_000
    assert tester.setProcessingTime(next_minute - 1).empty  # not due yet
    fired = tester.setProcessingTime(next_minute)
    assert _objects(fired) == [("topics/t/partition=0/t+0+0000000000.json", 0, 1, 2)]
    assert tester.peekListState("pending", KEY) == []


def test_a_bad_record_becomes_a_dead_letter_row(tmp_path: Path) -> None:
    tester = TwsTester(SinkProcessor(_config(tmp_path, **{"errors.tolerance": "all"})))
    values = [b'{"i":0}', b"{not json", b'{"i":2}', b'{"i":3}']
    out = tester.testInPandas(KEY, _rows(range(0, 4), values))
    assert _objects(out) == [("topics/t/partition=0/t+0+0000000000.json", 0, 3, 3)]
    letters = out[out["kind"] == "dead_letter"]
    assert [(r.offset, r.stage, bytes(r.value)) for r in letters.itertuples()] == [
        (1, "VALUE_CONVERTER", b"{not json")
    ]


def test_a_reported_failure_comes_out_as_a_failure_row(tmp_path: Path) -> None:
    # errors.tolerance=none with a DLQ topic: the record is reported before the batch fails.
    config = _config(tmp_path, **{"errors.deadletterqueue.topic.name": "dlq", "flush.size": "1"})
    tester = TwsTester(SinkProcessor(config))
    values = [b'{"i":0}', b"{not json", b'{"i":2}']
    out = tester.testInPandas(KEY, _rows(range(0, 3), values))
    assert _objects(out) == [("topics/t/partition=0/t+0+0000000000.json", 0, 0, 1)]
    failures = out[out["kind"] == "failure"]
    assert [(r.offset, r.stage, bytes(r.value)) for r in failures.itertuples()] == [
        (1, "VALUE_CONVERTER", b"{not json")
    ]
    assert (out["kind"] == "dead_letter").sum() == 0


@pytest.mark.parametrize("order", [[2, 0, 1], [1, 2, 0]])
def test_rows_out_of_offset_order_are_written_in_order(tmp_path: Path, order: list[int]) -> None:
    rows = _rows(range(0, 3)).iloc[order]
    out = TwsTester(SinkProcessor(_config(tmp_path))).testInPandas(KEY, rows)
    assert _objects(out) == [("topics/t/partition=0/t+0+0000000000.json", 0, 2, 3)]
    assert _lines(tmp_path, "topics/t/partition=0/t+0+0000000000.json") == [
        '{"i":0}',
        '{"i":1}',
        '{"i":2}',
    ]
