"""``s3connect status`` on the real stack: after a sink run that leaves records in open files,
on a source before and after its run, and beside a continuous sink while it runs."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient

from s3connect.app.cli import main
from s3connect.app.status.checkpoint import read_checkpoint_log
from s3connect.config.sink import SinkConfig
from s3connect.spark.sink_query import start_sink
from tests.integration.sinkhelp import json_values, produce, run, sink_keys
from tests.integration.source.test_source import run_src, source_keys

pytestmark = pytest.mark.integration


def status(
    capsys: pytest.CaptureFixture[str], keys: Mapping[str, str], tmp: Path, *flags: str
) -> tuple[int, str]:
    """``s3connect status`` on ``keys`` written to a config file: (exit code, what it printed)."""
    path = tmp / "status-config.json"
    path.write_text(json.dumps(dict(keys)))
    capsys.readouterr()
    code = main(["status", "--config", str(path), *flags])
    captured = capsys.readouterr()
    assert captured.err == ""
    return code, captured.out


def rows(out: str) -> dict[str, list[str]]:
    """The table's rows by partition number (and ``total``), split on spaces."""
    table = {}
    for line in out.splitlines():
        cells = line.split()
        if cells and cells[0] == "total":
            table["total"] = cells[1:]
        elif len(cells) > 2 and cells[1].isdigit():
            table[cells[1]] = cells[2:]
    return table


def key(topic: str, partition: int, start: int) -> str:
    return f"topics/{topic}/partition={partition}/{topic}+{partition}+{start:010d}.json"


def test_status_after_a_sink_run_with_open_files(
    spark: Any,
    make_topic: Callable[..., str],
    producer: Producer,
    bucket: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    topic = make_topic("status", partitions=2)
    produce(producer, topic, json_values({"i": i} for i in range(7)), partition=0)
    produce(producer, topic, json_values({"i": i} for i in range(4)), partition=1)
    keys = sink_keys(topic, bucket, tmp_path)  # flush.size=3: 6 + 3 in objects, 1 + 1 open

    code, out = status(capsys, keys, tmp_path)
    assert code == 0 and "batches: none yet (not started)" in out
    assert rows(out) == {
        "0": ["not", "started", "0", "-", "-", "7", "7", "7"],
        "1": ["not", "started", "0", "-", "-", "4", "4", "4"],
        "total": ["-", "0", "11", "11", "11"],
    }

    run(spark, keys)
    code, out = status(capsys, keys, tmp_path)
    assert code == 0
    checkpoint = tmp_path / "checkpoint"
    assert out.splitlines()[:2] == [
        f"sink '{keys['name']}': checkpoint {checkpoint} (shuffle-free shape)",
        "batches: last committed 0",
    ]
    assert rows(out) == {
        "0": ["7", "1", "6", key(topic, 0, 3), "7", "0", "1"],
        "1": ["4", "1", "3", key(topic, 1, 0), "4", "0", "1"],
        "total": ["11", "2", "11", "0", "2"],
    }

    produce(producer, topic, json_values({"i": i} for i in range(7, 12)), partition=0)
    code, out = status(capsys, keys, tmp_path)
    assert rows(out)["0"] == ["7", "1", "6", key(topic, 0, 3), "12", "5", "6"]


def test_status_of_a_source_before_and_after_its_run(
    spark: Any,
    make_topic: Callable[..., str],
    producer: Producer,
    bucket: str,
    tmp_path: Path,
    kafka_admin: AdminClient,
    capsys: pytest.CaptureFixture[str],
) -> None:
    topic = make_topic("status-src", partitions=2)
    produce(producer, topic, json_values({"i": i} for i in range(7)), partition=0)
    produce(producer, topic, json_values({"i": i} for i in range(4)), partition=1)
    sink = sink_keys(topic, bucket, tmp_path)
    run(spark, sink)
    keys = source_keys(sink, tmp_path)
    dest = f"copy_of_{topic}"

    code, out = status(capsys, keys, tmp_path, "--source")
    assert code == 0 and "batches: none yet (not started)" in out
    assert rows(out) == {
        "0": ["2", "0", "2", "nothing", "yet", dest, "missing"],
        "1": ["1", "0", "1", "nothing", "yet", dest, "missing"],
        "total": ["3", "0", "3", "0"],
    }

    try:
        run_src(spark, keys)
        code, out = status(capsys, keys, tmp_path, "--source")
        assert code == 0
        assert out.splitlines()[:2] == [
            f"source '{keys['name']}': checkpoint {tmp_path / 'source-checkpoint'}",
            "batches: last committed 0",
        ]
        assert rows(out) == {
            "0": ["2", "2", "0", key(topic, 0, 3), dest, "6"],
            "1": ["1", "1", "0", key(topic, 1, 0), dest, "3"],
            "total": ["3", "3", "0", "9"],
        }
    finally:
        kafka_admin.delete_topics([dest])


def _wait_until_committed(
    checkpoint: Path, topic: str, offset: int, timeout: float = 120.0
) -> None:
    """Until a committed batch has consumed ``topic``-0 up to ``offset``."""
    deadline = time.monotonic() + timeout
    while True:
        batch = read_checkpoint_log(checkpoint).committed
        if batch is not None and batch.offsets.get(topic, {}).get("0") == offset:
            return
        assert time.monotonic() < deadline, f"{topic}-0 not consumed up to {offset} in {timeout}s"
        time.sleep(0.2)


def test_status_beside_a_running_sink(
    spark: Any,
    make_topic: Callable[..., str],
    producer: Producer,
    bucket: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    topic = make_topic("status-live")
    produce(producer, topic, json_values({"i": i} for i in range(7)))
    keys = sink_keys(topic, bucket, tmp_path, trigger="1 second")
    checkpoint = tmp_path / "checkpoint"
    sink = start_sink(SinkConfig.from_mapping(keys), spark)
    try:
        _wait_until_committed(checkpoint, topic, 7)
        code, out = status(capsys, keys, tmp_path)
        assert code == 0
        assert "batches: last committed 0" in out
        assert rows(out)["0"] == ["7", "1", "6", key(topic, 0, 3), "7", "0", "1"]

        # Two more records complete the open file: the next batch commits it.
        produce(producer, topic, json_values({"i": i} for i in range(7, 9)))
        _wait_until_committed(checkpoint, topic, 9)
        code, out = status(capsys, keys, tmp_path)
        assert code == 0
        assert rows(out)["0"] == ["9", "0", "-", key(topic, 0, 6), "9", "0", "0"]
        assert sink.query.isActive
    finally:
        sink.query.stop()
