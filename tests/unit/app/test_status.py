"""``s3connect status`` offline: checkpoints written as Spark and the sink task write them (offsets
and commits logs by hand in Spark's format, state files with ``PartitionStateStore.save``),
objects in a ``file://`` store, and Kafka's answers from a stand-in (no network)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from s3connect.app.cli import main
from s3connect.app.status import print_status
from s3connect.app.status.checkpoint import (
    CheckpointLog,
    LoggedBatch,
    checkpoint_folder,
    read_checkpoint_log,
)
from s3connect.app.status.sink import sink_status
from s3connect.app.status.source import source_status
from s3connect.app.status.table import render_table
from s3connect.config.sink import SinkConfig
from s3connect.config.source import SourceConfig
from s3connect.sink.partition_state import PartitionStateStore
from s3connect.sink.rotation import OpenFile, RotatorState
from s3connect.storage.local import LocalStorage
from s3connect.storage.naming import object_key

# Spark's offsets log metadata line (abridged: Spark writes its SQL confs too).
_METADATA = '{"batchWatermarkMs":0,"batchTimestampMs":1795544614784,"conf":{}}'


class Kafka:
    """Kafka's answers: ``ends`` (topic, partition) -> (low, high); ``error`` set: unreachable."""

    def __init__(self, ends: Mapping[tuple[str, int], tuple[int, int]], error: str | None = None):
        self.ends = dict(ends)
        self.error = error

    def topics(self) -> Mapping[str, Sequence[int]]:
        if self.error is not None:
            return {}
        out: dict[str, list[int]] = {}
        for topic, partition in sorted(self.ends):
            out.setdefault(topic, []).append(partition)
        return out

    def watermarks(self, topic: str, partition: int) -> tuple[int, int] | None:
        return None if self.error is not None else self.ends[topic, partition]


def spark_batch(checkpoint: Path, batch_id: int, offsets: Any, *, committed: bool) -> None:
    """One micro-batch as Spark logs it: ``offsets/<id>`` (then ``commits/<id>`` when done)."""
    (checkpoint / "offsets").mkdir(parents=True, exist_ok=True)
    text = f"v1\n{_METADATA}\n{json.dumps(offsets, separators=(',', ':'))}"
    (checkpoint / "offsets" / str(batch_id)).write_text(text)
    if committed:
        (checkpoint / "commits").mkdir(exist_ok=True)
        (checkpoint / "commits" / str(batch_id)).write_text('v1\n{"nextBatchWatermarkMs":0}')


def save_state(checkpoint: Path, topic: str, partition: int, next_offset: int, *files: Any) -> None:
    """A state file as the shuffle-free task saves it: open files (start, count) and records."""
    rotator = RotatorState(
        open_files=[
            OpenFile(f"partition={partition}", start, start + count - 1, count)
            for start, count in files
        ],
        current_offset=next_offset - 1,
    )
    chunk = b"records" * sum(count for _, count in files)
    PartitionStateStore(checkpoint / "s3connect-state").save(
        topic, partition, next_offset, rotator, [chunk], loaded=None
    )


def put(store: Path, topic: str, partition: int, start: int, ext: str = ".json") -> str:
    key = object_key(
        topics_dir="topics",
        topic=topic,
        encoded_partition=f"partition={partition}",
        kafka_partition=partition,
        start_offset=start,
        extension=ext,
    )
    with LocalStorage(store).open_write(key) as out:
        out.write(b'{"x":1}\n')
    return key


def sink_config(tmp_path: Path, **keys: str) -> SinkConfig:
    return SinkConfig.from_mapping(
        {
            "name": "orders-sink",
            "topics": "orders",
            "kafka.bootstrap.servers": "127.0.0.1:1",
            "checkpoint.location": str(tmp_path / "checkpoint"),
            "s3.bucket.name": "bucket",
            "store.url": f"file://{tmp_path / 'store'}",
            "format.class": "json",
            "value.converter": "org.apache.kafka.connect.json.JsonConverter",
            "value.converter.schemas.enable": "false",
            "flush.size": "3",
            **keys,
        }
    )


def source_config(tmp_path: Path, **keys: str) -> SourceConfig:
    return SourceConfig.from_mapping(
        {
            "name": "orders-source",
            "kafka.bootstrap.servers": "127.0.0.1:1",
            "checkpoint.location": str(tmp_path / "source-checkpoint"),
            "s3.bucket.name": "bucket",
            "store.url": f"file://{tmp_path / 'store'}",
            "format.class": "json",
            **keys,
        }
    )


def table(out: str) -> dict[str, list[str]]:
    """The printed table's rows by ``<topic> <partition>`` (and ``total``), split on spaces."""
    rows = {}
    for line in out.splitlines():
        cells = line.split()
        if cells and cells[0] == "total":
            rows["total"] = cells[1:]
        elif len(cells) > 2 and cells[1].isdigit():
            rows[f"{cells[0]} {cells[1]}"] = cells[2:]
    return rows


# --------------------------------------------------------------------------- checkpoint log


def test_the_last_committed_batch_and_the_one_in_flight(tmp_path: Path) -> None:
    ck = tmp_path / "ck"
    for batch_id in range(3):
        spark_batch(ck, batch_id, {"t": {"0": 10 * (batch_id + 1)}}, committed=batch_id < 2)
    assert read_checkpoint_log(ck) == CheckpointLog(
        LoggedBatch(1, {"t": {"0": 20}}), LoggedBatch(2, {"t": {"0": 30}})
    )


def test_a_log_entry_not_whole_yet_is_passed_over(tmp_path: Path) -> None:
    ck = tmp_path / "ck"
    spark_batch(ck, 0, {"t": {"0": 5}}, committed=True)
    (ck / "offsets" / "1").write_text("v1\n")  # Spark writes aside and renames; a copy may not
    (ck / "offsets" / ".1.e4a1.tmp").write_text("v1\n{}\n{}")
    (ck / "offsets" / "1.crc").write_text("")
    assert read_checkpoint_log(ck) == CheckpointLog(LoggedBatch(0, {"t": {"0": 5}}), None)


def test_no_checkpoint_is_an_empty_log(tmp_path: Path) -> None:
    assert read_checkpoint_log(tmp_path / "missing") == CheckpointLog()


def test_only_local_checkpoints_are_read(tmp_path: Path) -> None:
    assert checkpoint_folder(str(tmp_path)) == tmp_path
    assert checkpoint_folder(f"file://{tmp_path}") == tmp_path
    assert checkpoint_folder("s3a://bucket/ck") is None
    assert checkpoint_folder("abfss://c@acct.dfs.core.windows.net/ck") is None
    if not Path("/dbfs").exists():
        assert checkpoint_folder("dbfs:/ck") is None
    if not Path("/Volumes").exists():
        assert checkpoint_folder("/Volumes/main/s/ck") is None


# --------------------------------------------------------------------------- sink


def _running_sink(tmp_path: Path) -> tuple[SinkConfig, Kafka, dict[int, str]]:
    """orders-0: 12 consumed, 8..11 open in two files; orders-1: 4 consumed, nothing open;
    a batch in flight reading orders-0 up to 15 (its state already saved)."""
    config = sink_config(tmp_path)
    ck = tmp_path / "checkpoint"
    spark_batch(ck, 0, {"orders": {"0": 6, "1": 4}}, committed=True)
    spark_batch(ck, 1, {"orders": {"0": 12, "1": 4}}, committed=True)
    spark_batch(ck, 2, {"orders": {"0": 15, "1": 4}}, committed=False)
    save_state(ck, "orders", 0, 6)
    save_state(ck, "orders", 0, 12, (8, 3), (11, 1))
    save_state(ck, "orders", 0, 15, (8, 3), (11, 4))  # the batch in flight's
    save_state(ck, "orders", 1, 4)
    store = tmp_path / "store"
    keys = {0: put(store, "orders", 0, 5), 1: put(store, "orders", 1, 2)}
    put(store, "orders", 0, 0)
    put(store, "orders", 0, 5, ".keys.json")  # a companion: not the object named
    (store / "topics/orders/partition=0/notes.txt").write_text("not an object of the sink")
    kafka = Kafka({("orders", 0): (0, 20), ("orders", 1): (2, 4)})
    return config, kafka, keys


def test_sink_rows_from_the_checkpoint_the_state_files_s3_and_kafka(tmp_path: Path) -> None:
    config, kafka, keys = _running_sink(tmp_path)
    storage = LocalStorage(tmp_path / "store")
    found = sink_status(config, tmp_path / "checkpoint", kafka, storage)
    rows, log = found.rows, found.log
    assert (log.committed and log.committed.batch_id, log.in_flight and log.in_flight.batch_id) == (
        1,
        2,
    )
    assert found.shape == "shuffle-free" and found.s3_error is None
    p0, p1 = rows
    assert (p0.consumed, p0.in_flight, p0.open_records, p0.first_open) == (12, 15, 4, 8)
    assert (p0.last_object, p0.end, p0.lag, p0.s3_lag) == (keys[0], 20, 8, 12)
    assert (p1.consumed, p1.in_flight, p1.open_records, p1.first_open) == (4, None, 0, None)
    assert (p1.last_object, p1.end, p1.lag, p1.s3_lag) == (keys[1], 4, 0, 0)


def test_sink_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, kafka, keys = _running_sink(tmp_path)
    assert print_status(config, kafka) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert (
        lines[0] == f"sink 'orders-sink': checkpoint {tmp_path / 'checkpoint'} (shuffle-free shape)"
    )
    assert (
        lines[1] == "batches: last committed 1; batch 2 in flight (offsets logged, not committed)"
    )
    assert lines[2].split() == [
        "topic", "partition", "consumed", "in", "flight", "open", "first", "open", "last",
        "object", "end", "lag", "S3", "lag",
    ]  # fmt: skip
    assert table(out) == {
        "orders 0": ["12", "15", "4", "8", keys[0], "20", "8", "12"],
        "orders 1": ["4", "-", "0", "-", keys[1], "4", "0", "0"],
        "total": ["16", "4", "24", "8", "12"],
    }


def test_a_sink_not_started_shows_kafka_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = sink_config(tmp_path, topics="orders,payments")
    kafka = Kafka({("orders", 0): (3, 10), ("payments", 0): (0, 0), ("payments", 1): (0, 7)})
    assert print_status(config, kafka) == 0
    out = capsys.readouterr().out
    assert "batches: none yet (not started)" in out
    assert table(out) == {
        "orders 0": ["not", "started", "0", "-", "-", "10", "7", "7"],
        "payments 0": ["not", "started", "0", "-", "-", "0", "0", "0"],
        "payments 1": ["not", "started", "0", "-", "-", "7", "7", "7"],
        "total": ["-", "0", "17", "14", "14"],
    }


def test_a_new_sink_starting_at_latest_has_no_lag(tmp_path: Path) -> None:
    config = sink_config(tmp_path, **{"starting.offsets": "latest"})
    kafka = Kafka({("orders", 0): (3, 10)})
    rows = sink_status(config, tmp_path / "checkpoint", kafka, None).rows
    assert (rows[0].consumed, rows[0].lag, rows[0].s3_lag) == (None, 0, 0)


def test_a_stateful_sink_does_not_guess_its_open_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = sink_config(tmp_path)
    ck = tmp_path / "checkpoint"
    spark_batch(ck, 0, {"orders": {"0": 7}}, committed=True)
    (ck / "state" / "0" / "0").mkdir(parents=True)  # Spark's operator state (RocksDB)
    assert print_status(config, Kafka({("orders", 0): (0, 9)})) == 0
    out = capsys.readouterr().out
    assert "(stateful shape)" in out.splitlines()[0]
    assert "open files: in Spark's state store (stateful shape), not shown" in out
    assert table(out)["orders 0"] == ["7", "?", "-", "-", "9", "2", "?"]


def test_objects_of_a_renamed_topic_are_found(tmp_path: Path) -> None:
    config = sink_config(
        tmp_path,
        transforms="Rename",
        **{
            "transforms.Rename.type": "org.apache.kafka.connect.transforms.RegexRouter",
            "transforms.Rename.regex": "(.*)",
            "transforms.Rename.replacement": "archived-$1",
        },
    )
    key = put(tmp_path / "store", "archived-orders", 0, 3)
    storage = LocalStorage(tmp_path / "store")
    rows = sink_status(config, tmp_path / "ck", Kafka({("orders", 0): (0, 5)}), storage).rows
    assert rows[0].last_object == key


def test_kafka_unreachable_prints_what_is_known_and_exits_5(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, _, keys = _running_sink(tmp_path)
    assert print_status(config, Kafka({}, error="cannot list topics: timed out")) == 5
    captured = capsys.readouterr()
    assert table(captured.out)["orders 0"] == ["12", "15", "4", "8", keys[0], "?", "?", "?"]
    assert "Kafka: cannot list topics: timed out" in captured.err


def test_a_checkpoint_status_cannot_read_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = sink_config(tmp_path, **{"checkpoint.location": "s3a://bucket/checkpoints/sink"})
    assert print_status(config, Kafka({})) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "checkpoint.location s3a://bucket/checkpoints/sink cannot be read as files" in (
        captured.err
    )


def test_the_cli_runs_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sink.json"
    base = sink_config(tmp_path).describe(masked=False)
    path.write_text(json.dumps({**base, "checkpoint.location": "abfss://c@a.dfs/x"}))
    assert main(["status", "--config", str(path)]) == 2
    assert "abfss://c@a.dfs/x cannot be read as files" in capsys.readouterr().err


# --------------------------------------------------------------------------- source


def _position(key: str, offset: int, index: int = -1) -> dict[str, Any]:
    return {"key": key, "offset": offset, "index": index}


def test_source_rows_and_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "store"
    a = [put(store, "orders", 0, start) for start in (0, 3, 6, 9)]
    b = [put(store, "orders", 1, start) for start in (0, 3)]
    c = put(store, "payments", 0, 0)
    ck = tmp_path / "source-checkpoint"
    spark_batch(ck, 0, {"orders/0": _position(a[1], 3)}, committed=True)
    committed = {"orders/0": _position(a[2], 6, 2), "orders/1": _position(b[1], 3)}
    spark_batch(ck, 1, committed, committed=True)
    spark_batch(ck, 2, {**committed, "orders/0": _position(a[3], 9)}, committed=False)
    config = source_config(tmp_path)
    kafka = Kafka({("copy_of_orders", 0): (0, 8), ("copy_of_orders", 1): (0, 6)})

    storage = LocalStorage(store)
    found = source_status(config, ck, kafka, storage)
    rows, log = found.rows, found.log
    assert (log.committed and log.committed.batch_id, found.s3_error, found.skipped) == (
        1,
        None,
        [],
    )
    assert [(r.topic, r.partition, len(r.objects), r.done, r.remaining) for r in rows] == [
        ("orders", 0, 4, 2, 2),
        ("orders", 1, 2, 2, 0),
        ("payments", 0, 1, 0, 1),
    ]
    assert [(r.destination, r.end, r.missing) for r in rows] == [
        ("copy_of_orders", 8, False),
        ("copy_of_orders", 6, False),
        ("copy_of_payments", None, True),
    ]

    assert print_status(config, kafka) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1] == (
        "batches: last committed 1; batch 2 in flight (offsets logged, not committed)"
    )
    assert table(out) == {
        "orders 0": ["4", "2", "2", "2", a[2], "(first", "2", "records)", "copy_of_orders", "8"],
        "orders 1": ["2", "2", "0", "-", b[1], "copy_of_orders", "6"],
        "payments 0": ["1", "0", "1", "-", "nothing", "yet", "copy_of_payments", "missing"],
        "total": ["7", "4", "3", "14"],
    }
    assert c not in out


def test_a_source_not_started(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "store"
    put(store, "orders", 0, 0)
    (store / "topics" / "orders" / "partition=0" / "orders+0+x.json").write_text("{}\n")
    config = source_config(tmp_path, **{"behavior.on.error": "fail"})
    assert print_status(config, Kafka({("copy_of_orders", 0): (0, 0)})) == 0
    out = capsys.readouterr().out
    assert "batches: none yet (not started)" in out
    assert table(out)["orders 0"] == ["1", "0", "1", "nothing", "yet", "copy_of_orders", "0"]
    assert "1 badly named objects are not read, e.g. topics/orders/partition=0/orders+0+x.json" in (
        out
    )


# --------------------------------------------------------------------------- helpers


def test_the_state_read_is_the_one_a_task_would_load(tmp_path: Path) -> None:
    ck = tmp_path / "ck"
    save_state(ck, "a.b", 2, 5, (3, 2))
    save_state(ck, "a.b", 2, 9, (3, 6))
    store = PartitionStateStore(ck / "s3connect-state")
    assert store.saved_rotator("a.b", 2, 4) is None
    for at, expected in ((5, 5), (8, 5), (9, 9), (100, 9)):
        saved = store.saved_rotator("a.b", 2, at)
        loaded = store.load("a.b", 2, at)
        assert saved is not None and loaded is not None
        assert saved == (expected, loaded.rotator) and loaded.next_offset == expected
    assert store.saved_rotator("a.b", 3, 9) is None


def test_render_table_aligns_numbers_right_and_text_left() -> None:
    assert render_table(["name", "n", "key"], [["a", "5", "x/y"], ["total", "15", ""]]) == [
        "name    n  key",
        "a       5  x/y",
        "total  15",
    ]


def test_status_does_not_load_spark() -> None:
    code = (
        "import sys, s3connect.app.cli, s3connect.app.status; "
        "sys.exit(any(m.split('.')[0] in ('pyspark', 'pandas') for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
