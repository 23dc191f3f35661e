"""The shuffle-free sink task (sink.PartitionTask) and its offset-keyed state files, without Spark:
Arrow batches of Kafka rows in, committed objects out, open files carried between micro-batches."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import fastavro
import pyarrow as pa
import pytest

from s3connect.config.sink import SinkConfig
from s3connect.sink.partition_state import PartitionStateStore, local_state_root
from s3connect.sink.rotation import RotatorState
from s3connect.sink.task import PartitionTask


def _config(tmp_path: Path, **extra: str) -> SinkConfig:
    return SinkConfig.from_mapping(
        {
            "name": "t",
            "topics": "events",
            "kafka.bootstrap.servers": "127.0.0.1:1",
            "checkpoint.location": str(tmp_path / "cp"),
            "s3.bucket.name": "b",
            "store.url": f"file://{tmp_path / 'data'}",
            "format.class": "JsonFormat",
            "flush.size": "3",
            "value.converter": "org.apache.kafka.connect.json.JsonConverter",
            "value.converter.schemas.enable": "false",
            **extra,
        }
    )


def _batch(offsets: list[int], *, topic: str = "events", partition: int = 0) -> pa.RecordBatch:
    return pa.RecordBatch.from_pydict(
        {
            "topic": [topic] * len(offsets),
            "partition": pa.array([partition] * len(offsets), pa.int32()),
            "offset": pa.array(offsets, pa.int64()),
            "timestamp": pa.array([1_700_000_000_000 + o for o in offsets], pa.int64()),
            "key": pa.array([None] * len(offsets), pa.binary()),
            "value": pa.array([json.dumps({"n": o}).encode() for o in offsets], pa.binary()),
            "headers": pa.array([None] * len(offsets), pa.string()),
        }
    )


def _run(config: SinkConfig, *batches: pa.RecordBatch) -> list[dict[str, object]]:
    root = local_state_root(config.streaming.checkpoint_location)
    assert root is not None
    task = PartitionTask(config, str(root), 0)
    return [row for out in task(iter(batches)) for row in out.to_pylist()]


def _objects(tmp_path: Path) -> dict[str, list[dict[str, int]]]:
    base = tmp_path / "data"
    return {
        str(p.relative_to(base)): [json.loads(line) for line in p.read_text().splitlines()]
        for p in sorted(base.rglob("*.json"))
    }


def test_open_records_carry_over_to_the_next_micro_batch(tmp_path: Path) -> None:
    config = _config(tmp_path)
    first = _run(config, _batch([0, 1, 2, 3, 4]))
    assert [(r["kind"], r["start_offset"], r["record_count"]) for r in first] == [("object", 0, 3)]
    second = _run(config, _batch([5, 6]))
    assert [(r["object_key"], r["record_count"]) for r in second] == [
        ("topics/events/partition=0/events+0+0000000003.json", 3)
    ]
    assert _objects(tmp_path) == {
        "topics/events/partition=0/events+0+0000000000.json": [{"n": 0}, {"n": 1}, {"n": 2}],
        "topics/events/partition=0/events+0+0000000003.json": [{"n": 3}, {"n": 4}, {"n": 5}],
    }
    # Offset 6 is open, saved in the state after offset 6; older states are pruned once a
    # later micro-batch started from their successor.
    state_dir = tmp_path / "cp" / "s3connect-state" / "events" / "0"
    assert sorted(p.name for p in state_dir.iterdir()) == [
        f"{5:020d}.state",
        f"{7:020d}.state",
    ]


def test_a_replayed_micro_batch_gives_the_same_objects_and_state(tmp_path: Path) -> None:
    config = _config(tmp_path)
    _run(config, _batch([0, 1]))
    once = _run(config, _batch([2, 3, 4, 5, 6]))
    state = tmp_path / "cp" / "s3connect-state" / "events" / "0" / f"{7:020d}.state"
    saved = state.read_bytes()
    again = _run(config, _batch([2, 3, 4, 5, 6]))  # Spark replays the same offset range
    assert once == again
    assert state.read_bytes() == saved
    assert list(_objects(tmp_path)) == [
        "topics/events/partition=0/events+0+0000000000.json",
        "topics/events/partition=0/events+0+0000000003.json",
    ]
    # Then the next range resumes after offset 6 (one record open there).
    nxt = _run(config, _batch([7, 8]))
    assert [(r["start_offset"], r["end_offset"]) for r in nxt] == [(6, 8)]


def test_offset_gaps_resume_from_the_latest_earlier_state(tmp_path: Path) -> None:
    config = _config(tmp_path)
    _run(config, _batch([0, 1]))
    # Offsets 2-4 were transaction markers or compacted away: the next range starts at 5.
    out = _run(config, _batch([5, 9]))
    assert [(r["start_offset"], r["end_offset"], r["record_count"]) for r in out] == [(0, 5, 3)]
    # Offset 9 stays open; a range starting at 12 finds it.
    out = _run(config, _batch([12, 13]))
    assert [(r["start_offset"], r["end_offset"], r["record_count"]) for r in out] == [(9, 13, 3)]


def test_several_topic_partitions_in_one_task(tmp_path: Path) -> None:
    config = _config(tmp_path, topics="a,b")
    out = _run(
        config,
        _batch([0, 1, 2], topic="a"),
        _batch([10, 11, 12], topic="b", partition=3),
    )
    assert sorted(str(r["object_key"]) for r in out) == [
        "topics/a/partition=0/a+0+0000000000.json",
        "topics/b/partition=3/b+3+0000000010.json",
    ]


def test_a_partition_met_again_in_the_same_task_fails(tmp_path: Path) -> None:
    config = _config(tmp_path, topics="a,b")
    with pytest.raises(RuntimeError, match="a-0: records of one topic-partition"):
        _run(config, _batch([0], topic="a"), _batch([0], topic="b"), _batch([1], topic="a"))


def test_dead_letters_come_out_with_their_offsets(tmp_path: Path) -> None:
    config = _config(tmp_path, **{"errors.tolerance": "all"})
    batch = _batch([0, 1, 2, 3])
    values = batch.column("value").to_pylist()
    values[1] = b"{not json"
    batch = batch.set_column(5, "value", pa.array(values, pa.binary()))
    out = _run(config, batch)
    letters = [r for r in out if r["kind"] == "dead_letter"]
    assert [(r["offset"], r["stage"]) for r in letters] == [(1, "VALUE_CONVERTER")]
    objects = [r for r in out if r["kind"] == "object"]
    assert [(r["start_offset"], r["end_offset"], r["record_count"]) for r in objects] == [(0, 3, 3)]


def test_a_reported_failure_comes_out_last_and_saves_no_state(tmp_path: Path) -> None:
    # errors.tolerance=none with a reporter: the failing record comes out as a "failure" row
    # (reported on the driver, which then fails the batch); nothing after it is written and no
    # state is saved, so the replayed batch starts from the state before it.
    config = _config(tmp_path, **{"errors.log.enable": "true", "flush.size": "1"})
    batch = _batch([0, 1, 2, 3])
    values = batch.column("value").to_pylist()
    values[2] = b"{not json"
    out = _run(config, batch.set_column(5, "value", pa.array(values, pa.binary())))
    assert [(r["kind"], r["start_offset"], r["offset"]) for r in out] == [
        ("object", 0, None), ("object", 1, None), ("failure", None, 2),
    ]  # fmt: skip
    assert out[-1]["stage"] == "VALUE_CONVERTER" and out[-1]["value"] == b"{not json"
    assert list(_objects(tmp_path)) == [
        "topics/events/partition=0/events+0+0000000000.json",
        "topics/events/partition=0/events+0+0000000001.json",
    ]
    assert not (tmp_path / "cp" / "s3connect-state" / "events" / "0").exists()


def test_state_store_round_trip_and_pruning(tmp_path: Path) -> None:
    store = PartitionStateStore(tmp_path)
    assert store.load("t/x", 0, 100) is None
    state = RotatorState(current_offset=41)
    store.save("t/x", 0, 42, state, [b"one", b"", b"three"], loaded=None)
    assert store.load("t/x", 0, 42).chunks == [b"one", b"", b"three"]  # type: ignore[union-attr]
    store.save("t/x", 0, 50, RotatorState(current_offset=49), [], loaded=42)
    store.save("t/x", 0, 60, RotatorState(current_offset=59), [], loaded=50)
    assert store.load("t/x", 0, 41) is None
    assert store.load("t/x", 0, 49) is None  # pruned: a later batch started from 50
    loaded = store.load("t/x", 0, 55)
    assert loaded is not None
    assert (loaded.next_offset, loaded.rotator.current_offset, loaded.chunks) == (50, 49, [])
    assert (tmp_path / "t%2Fx" / "0").is_dir()


def test_local_state_root() -> None:
    assert local_state_root("/cp") == Path("/cp/s3connect-state")
    assert local_state_root("file:///cp/x") == Path("/cp/x/s3connect-state")
    assert local_state_root("file:/cp") == Path("/cp/s3connect-state")
    assert local_state_root("dbfs:/cp") == Path("/dbfs/cp/s3connect-state")
    assert local_state_root("s3a://bucket/cp") is None
    assert local_state_root("abfss://c@a.dfs.core.windows.net/cp") is None


def test_avro_files_are_written_in_the_task(tmp_path: Path) -> None:
    config = _config(
        tmp_path,
        **{"format.class": "AvroFormat", "value.converter.schemas.enable": "true"},
    )
    schema = {"type": "struct", "optional": False, "fields": [{"field": "n", "type": "int64"}]}
    batch = _batch([0, 1, 2])
    batch = batch.set_column(
        5,
        "value",
        pa.array(
            [json.dumps({"schema": schema, "payload": {"n": o}}).encode() for o in range(3)],
            pa.binary(),
        ),
    )
    out = _run(config, batch)
    assert [r["object_key"] for r in out] == ["topics/events/partition=0/events+0+0000000000.avro"]
    with (tmp_path / "data" / str(out[0]["object_key"])).open("rb") as f:
        assert [r for r in fastavro.reader(f)] == [{"n": 0}, {"n": 1}, {"n": 2}]


def test_which_sink_a_checkpoint_gets(tmp_path: Path) -> None:
    from s3connect.errors import ConfigError
    from s3connect.spark.sink_query import _task_state_root

    config = _config(tmp_path)
    root = tmp_path / "cp" / "s3connect-state"
    assert _task_state_root(config, timers=False) == root
    assert _task_state_root(config, timers=True) is None  # fresh: stateful, for the timers
    other = _config(tmp_path, **{"checkpoint.location": "s3a://bucket/cp"})
    assert _task_state_root(other, timers=False) is None
    # Started shuffle-free (the root exists), nothing saved yet: timers may still take over.
    assert _task_state_root(config, timers=False) == root
    assert root.is_dir()
    assert _task_state_root(config, timers=True) is None
    # Open files saved: timers cannot take them over.
    (root / "events" / "0").mkdir(parents=True)
    (root / "events" / "0" / f"{5:020d}.state").write_bytes(b"")
    with pytest.raises(ConfigError, match="was started without it"):
        _task_state_root(config, timers=True)
    # Started stateful (Spark's operator state in the checkpoint): stays stateful.
    started = _config(tmp_path / "x")
    (tmp_path / "x" / "cp" / "state").mkdir(parents=True)
    assert _task_state_root(started, timers=False) is None


def test_open_records_accumulate_over_batches_that_commit_nothing(tmp_path: Path) -> None:
    config = _config(tmp_path, **{"flush.size": "4"})
    assert _run(config, _batch([0])) == []
    assert _run(config, _batch([1, 2])) == []
    assert _run(config, _batch([1, 2])) == []  # a replay of the second micro-batch
    state_dir = tmp_path / "cp" / "s3connect-state" / "events" / "0"
    saved = PartitionStateStore(tmp_path / "cp" / "s3connect-state").load("events", 0, 3)
    assert saved is not None and len(saved.chunks) == 2  # the first batch's chunk, passed on
    out = _run(config, _batch([3, 4]))
    assert [(r["start_offset"], r["end_offset"]) for r in out] == [(0, 3)]
    assert _objects(tmp_path) == {
        "topics/events/partition=0/events+0+0000000000.json": [{"n": n} for n in range(4)]
    }
    assert sorted(p.name for p in state_dir.iterdir()) == [f"{3:020d}.state", f"{5:020d}.state"]


def test_a_checkpoint_the_sink_cannot_write_fails_clearly(tmp_path: Path) -> None:
    from s3connect.errors import ConfigError
    from s3connect.spark.sink_query import _task_state_root

    (tmp_path / "file").write_text("")
    config = _config(tmp_path, **{"checkpoint.location": str(tmp_path / "file" / "cp")})
    with pytest.raises(ConfigError, match=r"keeps open files under .*cannot be created"):
        _task_state_root(config, timers=False)


def test_long_keys_and_double_values_go_per_record_in_the_task(tmp_path: Path) -> None:
    # Kafka's LongConverter keys (stored in a keys file) and DoubleConverter values: the
    # per-record path, as the writer's; a value of the wrong size is a VALUE_CONVERTER letter.
    config = _config(tmp_path, **{
        "key.converter": "org.apache.kafka.connect.converters.LongConverter",
        "value.converter": "org.apache.kafka.connect.converters.DoubleConverter",
        "store.kafka.keys": "true", "keys.format.class": "json", "errors.tolerance": "all",
    })  # fmt: skip
    batch = _batch([0, 1, 2, 3])
    keys = [struct.pack(">q", o * 10) for o in range(4)]
    values = [struct.pack(">d", o + 0.25) for o in range(4)]
    values[1] = b"\x00"
    batch = batch.set_column(4, "key", pa.array(keys, pa.binary()))
    out = _run(config, batch.set_column(5, "value", pa.array(values, pa.binary())))
    assert [(r["offset"], r["stage"]) for r in out if r["kind"] == "dead_letter"] == [
        (1, "VALUE_CONVERTER")
    ]
    assert _objects(tmp_path) == {
        "topics/events/partition=0/events+0+0000000000.json": [0.25, 2.25, 3.25],
        "topics/events/partition=0/events+0+0000000000.keys.json": [0, 20, 30],
    }
