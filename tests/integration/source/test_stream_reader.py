"""The source's stream reader against the real broker: one topic-partition's records published
column-wise or record by record per object, in object order, and counted."""

from __future__ import annotations

import gzip
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from pyspark.sql.datasource import InputPartition
from pyspark.sql.streaming.datasource import ReadAllAvailable

from s3connect.config.source import SourceConfig
from s3connect.formats import common
from s3connect.formats.common import split_column
from s3connect.source.offsets import ObjectSlice
from s3connect.source.reader import list_objects, read_object, source_storage
from s3connect.spark.source_stream import S3StreamReader, _Work
from s3connect.storage.local import LocalStorage

pytestmark = pytest.mark.integration

Row = tuple[str, int, bytes | None, bytes | None]


def _config(tmp_path: Path, kafka: str, **extra: str) -> SourceConfig:
    return SourceConfig.from_mapping(
        {
            "kafka.bootstrap.servers": kafka,
            "checkpoint.location": str(tmp_path / "ck"),
            "s3.bucket.name": "b",
            "store.url": f"file://{tmp_path / 'data'}",
            "topics": "t",
            "format.class": "io.confluent.connect.s3.format.bytearray.ByteArrayFormat",
            "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
            "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
            **extra,
        }
    )


def _objects(tmp_path: Path) -> None:
    """Objects of t/0: some with a keys object (read record by record), plain ones (read
    column-wise), one gzip, a large one, and a truncated one."""
    store = LocalStorage(tmp_path / "data")
    folder = "topics/t/partition=0/"

    def put(offset: int, values: list[bytes], ext: str = ".bin", keys: bool = False) -> None:
        data = b"".join(v + b"\n" for v in values)
        with store.open_write(f"{folder}t+0+{offset:010d}{ext}") as out:
            out.write(gzip.compress(data) if ext.endswith(".gz") else data)
        if keys:
            with store.open_write(f"{folder}t+0+{offset:010d}.keys.bin") as out:
                out.write(b"".join(b"k" + v + b"\n" for v in values))

    put(0, [b"r%d" % i for i in range(5)], keys=True)
    put(5, [b"r%d" % i for i in range(5, 10)])
    put(10, [b"r%d" % i for i in range(10, 15)], ".bin.gz")
    put(15, [b"r%d" % i for i in range(15, 18)], keys=True)
    put(18, [b"big %06d" % i for i in range(25_000)])
    with store.open_write(f"{folder}t+0+{25_018:010d}.bin") as out:
        out.write(b"truncated")
    put(25_019, [b"", b"last"])


def _published(reader: S3StreamReader, work: _Work, consume: Callable[..., list[Any]]) -> list[Row]:
    """The records the reader published (consumed back in offset order), checking the counts it
    returns: the records per destination."""
    counts = [r for batch in reader.read(InputPartition(work)) for r in batch.to_pylist()]
    total = sum(c["records"] for c in counts)
    assert work.destination is not None
    rows = [
        (m.topic(), m.partition(), m.key(), m.value()) for m in consume(work.destination, total)
    ]
    assert len(rows) == total
    if rows:
        assert counts == [{"topic": work.destination, "partition": 0, "records": total}]
    return rows


def _expected(config: SourceConfig, work: _Work) -> list[Row]:
    store = source_storage(config)
    return [
        (r.topic, r.partition, r.key, r.value)
        for s in work.slices
        for r in read_object(
            store,
            config,
            s.obj,
            destination=work.destination,
            skip=s.skip,
            stop=s.stop,
            bound=s.bound,
        )
    ]


@pytest.mark.parametrize("cut", [None, (2, 3), (0, 1), (4, 20_000)])
def test_every_record_is_published_in_object_order(
    tmp_path: Path,
    cut: tuple[int, int] | None,
    caplog: pytest.LogCaptureFixture,
    kafka_bootstrap: str,
    make_topic: Callable[..., str],
    consume: Callable[..., list[Any]],
) -> None:
    _objects(tmp_path)
    config = _config(tmp_path, kafka_bootstrap, **{"behavior.on.error": "log"})
    dest = make_topic("copy_of_t")
    objs = list_objects(LocalStorage(tmp_path / "data"), config).objects[("t", 0)]
    assert [(o.start_offset, o.keys_key is not None) for o in objs][:2] == [(0, True), (5, False)]
    slices = [ObjectSlice(o) for o in objs]
    if cut is not None:  # a batch starting inside one object and ending inside another
        first, last = cut
        slices = slices[first : last + 1]
        slices[0] = ObjectSlice(slices[0].obj, skip=1)
        slices[-1] = ObjectSlice(slices[-1].obj, stop=2)
    work = _Work("t", 0, dest, 1, tuple(slices))
    with caplog.at_level(logging.ERROR):
        rows = _published(S3StreamReader(config), work, consume)
    assert rows == _expected(config, work)
    if cut is None:
        values = [r[3] for r in rows]
        assert values[:5] == [b"r0", b"r1", b"r2", b"r3", b"r4"]
        assert [r[2] for r in rows[:2]] == [b"kr0", b"kr1"]  # keys from the keys object
        assert values[5:18] == [b"r%d" % i for i in range(5, 18)]
        assert values[18:25_018] == [b"big %06d" % i for i in range(25_000)]
        assert values[25_018:] == [b"", b"last"]  # the truncated object is skipped, logged
        assert "t+0+0000025018.bin: cannot read it as bytearray" in caplog.text
        assert {r[:2] for r in rows} == {(dest, 0)}


def test_an_object_beyond_binary_offsets_is_split_into_large_binary_and_published(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    kafka_bootstrap: str,
    make_topic: Callable[..., str],
    consume: Callable[..., list[Any]],
) -> None:
    """Objects of 2 GiB or more need 64-bit offsets: split into large binary, published alike."""
    monkeypatch.setattr(common, "_BINARY_LIMIT", 8)
    assert split_column(b"a\nbb\n", b"\n").type == pa.binary()
    big = split_column(b"a\nbb\nccc\n", b"\n")
    assert big.type == pa.large_binary() and big.to_pylist() == [b"a", b"bb", b"ccc"]
    with LocalStorage(tmp_path / "data").open_write("topics/t/partition=0/t+0+0000000000.bin") as f:
        f.write(b"a\nbb\nccc\n")
    config = _config(tmp_path, kafka_bootstrap)
    (obj,) = list_objects(LocalStorage(tmp_path / "data"), config).objects[("t", 0)]
    dest = make_topic("copy_of_t")
    work = _Work("t", 0, dest, 1, (ObjectSlice(obj, skip=1),))
    assert _published(S3StreamReader(config), work, consume) == [
        (dest, 0, None, b"bb"),
        (dest, 0, None, b"ccc"),
    ]


@pytest.mark.parametrize("available_now", [False, True])
def test_a_listing_in_the_middle_of_a_sink_commit_waits_for_the_rest(
    tmp_path: Path, kafka_bootstrap: str, kafka_admin: Any, available_now: bool
) -> None:
    # A time-based sink commits hour=11's file (start offset 1) before hour=10's (start 0), and
    # each value file before its keys file. The first listing sees only the former: the reader
    # waits listing.settle.ms, lists again and ends the batch past both, each with its keys.
    topic = f"settle{tmp_path.name[-6:].replace('-', '')}{int(available_now)}"
    store = LocalStorage(tmp_path / "data")
    base = f"topics/{topic}/"

    def put(hour: int, offset: int) -> None:
        name = f"{base}hour={hour}/{topic}+0+{offset:010d}"
        with store.open_write(f"{name}.bin") as out:
            out.write(b"r%d\n" % offset)
        time.sleep(0.3)
        with store.open_write(f"{name}.keys.bin") as out:
            out.write(b"k%d\n" % offset)

    put(11, 1)
    late = threading.Timer(0.4, put, (10, 0))
    keys = {"topics": topic, "listing.settle.ms": "1500"}
    reader = S3StreamReader(_config(tmp_path, kafka_bootstrap, **keys))
    try:
        if available_now:
            reader.prepareForTriggerAvailableNow()
        late.start()
        end = reader.latestOffset({}, ReadAllAvailable())
        late.join()
        assert end == {
            f"{topic}/0": {"key": f"{base}hour=11/{topic}+0+0000000001.bin", "offset": 1,
                           "index": -1},
        }  # fmt: skip
        (part,) = reader.partitions({}, end)
        slices = part.value.slices
        assert [(s.obj.start_offset, s.obj.keys_key) for s in slices] == [
            (0, f"{base}hour=10/{topic}+0+0000000000.keys.bin"),
            (1, f"{base}hour=11/{topic}+0+0000000001.keys.bin"),
        ]
        # Without settling the first listing moves the offset past offset 0 for good.
        quick = S3StreamReader(_config(tmp_path, kafka_bootstrap, topics=topic,
                                       **{"listing.settle.ms": "0"}))  # fmt: skip
        for ext in (".bin", ".keys.bin"):  # back to the first listing's view
            (tmp_path / "data" / f"{base}hour=10" / f"{topic}+0+0000000000{ext}").unlink()
        assert quick.latestOffset({}, ReadAllAvailable()) == end
        put(10, 0)
        assert quick.latestOffset(end, ReadAllAvailable()) == end  # offset 0 never read
    finally:
        kafka_admin.delete_topics([f"copy_of_{topic}"])
