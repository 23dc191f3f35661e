"""Confluent's data writer tests, one by one, at unit level: ``DataWriterAvroTest``,
``DataWriterJsonTest``, ``DataWriterParquetTest``, ``DataWriterByteArrayTest`` (with their
``DataWriterTestBase``), ``format/RecordViewsTest`` and ``integration/S3SinkDataFormatIT``
(kafka-connect-storage-cloud, kafka-connect-s3/src/test/java/io/confluent/connect/s3/).

Each test is named after the Java test it stands for and builds the same Connect records
(``StorageSinkTestBase.createSchema``/``createRecord``...), writes them through the writer
(``TopicPartitionWriter`` per Kafka partition, Confluent's ``S3SinkTask``, with the converter
replaced by a look-up of the ready-made record) into a ``file://`` store with the Java tests'
layout (``TestWithMockedS3``: ``directory.delim=_``, ``file.delim=#``, flush.size 3), and
asserts what the Java test asserts: the exact object keys, the records read back by independent
readers (fastavro, pyarrow, json, gzip), the codec, the offsets a ``preCommit`` would return.

Not carried over (they test nothing that exists here): ``DataWriterByteArrayTest.
testBufferOverflowFix`` (S3OutputStream's part buffer against a mocked part size),
``DataWriterParquetTest.testSchemaHasArrayOfOptionalItems`` (the Java helper choosing
parquet-avro's old 2-level list layout; ours always writes the 3-level one, see README),
``RecordViewsTest.testToString`` (Java class names).
"""

from __future__ import annotations

import base64
import dataclasses
import gzip
import io
import itertools
import json
import struct
import zlib
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import fastavro
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from s3connect.config.sink import SinkConfig
from s3connect.connect.records import RawRecord, SinkRecord
from s3connect.connect.schema import TIMESTAMP, ConnectSchema, Field, Type
from s3connect.errors import SchemaProjectionError, StorageError
from s3connect.formats.avro import AvroFormat
from s3connect.formats.json import JsonFormat
from s3connect.formats.views import ViewFormat, headers_view, key_view
from s3connect.sink.context import build_record_converter, build_writer_context
from s3connect.sink.writer import CommittedObject, TopicPartitionWriter
from s3connect.storage.local import LocalStorage
from tests.unit.confluent_base import (
    AVRO,
    AVRO_RECORD,
    LA,
    NEW_SCHEMA,
    SCHEMA,
    SCHEMA_NO_VERSION,
    STRING,
    TOPIC,
)
from tests.unit.confluent_base import confluent_config as _config
from tests.unit.formats.test_formats import snappy_reader  # noqa: F401  (a fixture)

P12, P13, P14 = 12, 13, 14  # StorageSinkTestBase.PARTITION, PARTITION2, PARTITION3
ASSIGNMENT = (P12, P13)  # MockSinkTaskContext's assignment
HOUR = 3_600_000
# "Bring the clock to present": any time works; this one is 2017-03-02 10:00 in Los Angeles.
NOW = int(datetime(2017, 3, 2, 10, tzinfo=ZoneInfo(LA)).timestamp() * 1000)
JSON = "io.confluent.connect.s3.format.json.JsonFormat"
PARQUET = "io.confluent.connect.s3.format.parquet.ParquetFormat"
BYTEARRAY = "io.confluent.connect.s3.format.bytearray.ByteArrayFormat"


def _f32(x: float) -> float:
    """A Java float's value, as read back from Avro or Parquet."""
    return float(struct.unpack("<f", struct.pack("<f", x))[0])


# ---------------------------------------------------------------------------------------------
# StorageSinkTestBase's schemas and records

RECORD = {"boolean": True, "int": 12, "long": 12, "float": 12.2, "double": 12.2}
NEW_RECORD = {**RECORD, "string": "def"}
# What Avro and Parquet files hold of them (AvroData.fromConnectData, a Java float read back).
ROW = {**RECORD, "float": _f32(12.2)}
NEW_ROW = {**ROW, "string": "def"}
ROW_AS_NEW = {**ROW, "string": "abc"}  # a v1 record projected onto v2 (BACKWARD)

AVRO_NEW_RECORD = {
    **AVRO_RECORD,
    "fields": [
        *AVRO_RECORD["fields"],  # type: ignore[misc]
        {
            "name": "string",
            "type": {"type": "string", "connect.default": "abc"},
            "default": "abc",
        },
    ],
    "connect.version": 2,
}


def _record(
    offset: int,
    partition: int = P12,
    schema: ConnectSchema | None = SCHEMA,
    value: Any = RECORD,
    timestamp: int | None = None,
    topic: str = TOPIC,
) -> SinkRecord:
    """``new SinkRecord(TOPIC, partition, Schema.STRING_SCHEMA, "key", schema, value, offset)``."""
    return SinkRecord(topic, partition, offset, timestamp, "key", value, STRING, schema)


def create_records(
    size: int, start: int = 0, partitions: Sequence[int] = (P12,)
) -> list[SinkRecord]:
    """``createRecords``: ``size`` records from ``start`` for each partition in turn."""
    return [_record(o, p) for p in partitions for o in range(start, start + size)]


def create_records_interleaved(
    total: int, start: int = 0, partitions: Sequence[int] = ASSIGNMENT, **kw: Any
) -> list[SinkRecord]:
    """``createRecordsInterleaved`` (Avro, JSON): ``total`` records, offset by offset, one per
    partition (sorted) in turn. The Parquet test's counts offsets: pass ``size * partitions``."""
    out: list[SinkRecord] = []
    offset = start
    while len(out) < total:
        out += [_record(offset, p, **kw) for p in sorted(partitions)][: total - len(out)]
        offset += 1
    return out


def create_records_with_altering_schemas(size: int, start: int = 0) -> list[SinkRecord]:
    """``createRecordsWithAlteringSchemas``: v1, v2, v1, v2... (the last v1 when ``size`` is
    odd), on partition 12."""
    out = [
        _record(o, schema=SCHEMA, value=RECORD)
        if (o - start) % 2 == 0
        else _record(o, schema=NEW_SCHEMA, value=NEW_RECORD)
        for o in range(start, start + size // 2 * 2)
    ]
    if size % 2:
        out.append(_record(start + size - 1))
    return out


def create_records_no_version(size: int, start: int = 0) -> list[SinkRecord]:
    """``createRecordsNoVersion``: the struct of ``createSchemaNoVersion``."""
    return [_record(o, schema=SCHEMA_NO_VERSION) for o in range(start, start + size)]


# ---------------------------------------------------------------------------------------------
# The connector and its task


TIME_BASED = {  # testPreCommitOnRotateTime's partitioner: a day's buckets, the (mock) wall clock
    "partitioner.class": "io.confluent.connect.storage.partitioner.TimeBasedPartitioner",
    "partition.duration.ms": str(24 * HOUR),
    "timestamp.extractor": "Wallclock",
}


class _Task:
    """``S3SinkTask`` at unit level: a ``TopicPartitionWriter`` per Kafka partition, fed the
    ready-made Connect records (each raw record's value names its converted record)."""

    def __init__(self, config: SinkConfig, storage: Any = None) -> None:
        self.records: list[SinkRecord] = []
        ctx = build_writer_context(config)
        self.ctx = dataclasses.replace(
            ctx,
            convert=lambda raw: self.records[int(raw.value)],
            storage=storage or ctx.storage,
        )
        self.writers: dict[int, TopicPartitionWriter] = {}
        self.committed: list[CommittedObject] = []
        self._to_commit: dict[int, int] = {}

    def writer(self, partition: int) -> TopicPartitionWriter:
        if partition not in self.writers:
            self.writers[partition] = TopicPartitionWriter(self.ctx, TOPIC, partition)
        return self.writers[partition]

    def put(self, records: Sequence[SinkRecord], now_ms: int = NOW) -> None:
        """``put``: each partition's records, in order; an empty put runs the time rotations
        (``rotate.schedule.interval.ms``) as Confluent's ``put`` of no records does."""
        by_partition: dict[int, list[RawRecord]] = {}
        for record in records:
            self.records.append(record)
            raw = RawRecord(
                record.topic,
                record.partition,
                record.offset,
                record.timestamp,
                b"key",
                str(len(self.records) - 1).encode(),
            )
            by_partition.setdefault(record.partition, []).append(raw)
        for partition, raws in by_partition.items():
            self._note(partition, self.writer(partition).write(raws, now_ms))
        if not records:
            for partition, writer in self.writers.items():
                self._note(partition, writer.on_timer(now_ms))

    def _note(self, partition: int, committed: list[CommittedObject]) -> None:
        self.committed += committed
        if committed:
            self._to_commit[partition] = committed[-1].end_offset + 1

    def pre_commit(self) -> dict[int, int]:
        """``preCommit``: per partition, the offset after its last committed file, if any file
        was committed since the last call."""
        out, self._to_commit = self._to_commit, {}
        return out

    def open_offsets(self, partition: int) -> list[int]:
        """The offsets of the partition's open files (``close`` drops them in Confluent)."""
        return [p.first_offset for p in self.writer(partition).snapshot()[1]]


# ---------------------------------------------------------------------------------------------
# What is in the bucket


def _key(
    partition: int, start: int, ext: str, topics_dir: str = "topics", directory: str = ""
) -> str:
    """``FileUtils.fileKeyToCommit`` with the test delimiters."""
    folder = directory or f"partition={partition}"
    return f"{topics_dir}_{TOPIC}_{folder}_{TOPIC}#{partition}#{start:010d}{ext}"


def expected_files(
    valid_offsets: Sequence[int], partitions: Sequence[int], ext: str, **kw: str
) -> list[str]:
    """``getExpectedFiles``: one file per consecutive pair of ``valid_offsets``."""
    return sorted(_key(p, s, ext, **kw) for p in partitions for s in valid_offsets[:-1])


def _listing(root: Path) -> list[str]:
    if not root.exists():
        return []
    return sorted(p.name for p in root.iterdir() if not p.name.startswith("."))


def _avro(root: Path, key: str) -> tuple[Any, dict[str, str], list[Any]]:
    """An Avro object read by fastavro: its schema, metadata and records."""
    reader = fastavro.reader(io.BytesIO((root / key).read_bytes()))
    return json.loads(reader.metadata["avro.schema"]), dict(reader.metadata), list(reader)


def _parquet(root: Path, key: str) -> tuple[Any, str, list[Any]]:
    """A Parquet object read by pyarrow: the Avro schema of its footer, its codec and rows."""
    parquet = pq.ParquetFile(pa.BufferReader((root / key).read_bytes()))
    avro = json.loads((parquet.schema_arrow.metadata or {})[b"parquet.avro.schema"])
    codec = parquet.metadata.row_group(0).column(0).compression
    return avro, codec, parquet.read().to_pylist()


def _lines(root: Path, key: str, separator: bytes = b"\n") -> list[bytes]:
    """``ByteArrayUtils.getRecords`` (gunzipped for ``.gz``): what lies between separators."""
    data = (root / key).read_bytes()
    if key.endswith(".gz"):
        data = gzip.decompress(data)
    assert data.endswith(separator)
    return data.split(separator)[:-1]


def _json(root: Path, key: str) -> list[Any]:
    """``JsonUtils.getRecords``: each line read back as JSON."""
    return [json.loads(line) for line in _lines(root, key)]


def _verify(
    root: Path,
    valid_offsets: Sequence[int],
    partitions: Sequence[int],
    ext: str,
    read: Any,
    expected: Any,
    **kw: str,
) -> None:
    """``verify``: the bucket holds exactly these files, each with its records (``expected``:
    the value of each record, by partition and offset)."""
    assert _listing(root) == expected_files(valid_offsets, partitions, ext, **kw)
    for p in partitions:
        for start, end in itertools.pairwise(valid_offsets):
            rows = read(root, _key(p, start, ext, **kw))
            assert rows == [expected(p, o) for o in range(start, end)]


def _avro_rows(root: Path, key: str) -> list[Any]:
    return _avro(root, key)[2]


def _parquet_rows(root: Path, key: str) -> list[Any]:
    return _parquet(root, key)[2]


def _out(tmp_path: Path) -> Path:
    return tmp_path / "out"


# ---------------------------------------------------------------------------------------------
# DataWriterAvroTest


def _row(partition: int, offset: int) -> dict[str, Any]:
    return ROW


def test_avro_write_records(tmp_path: Path) -> None:
    # DataWriterAvroTest.testWriteRecords: 7 records, flush.size 3: files at 0 and 3, 6 open.
    task = _Task(_config(tmp_path, AVRO))
    task.put(create_records(7))
    _verify(_out(tmp_path), [0, 3, 6], [P12], ".avro", _avro_rows, _row)
    schema, meta, _ = _avro(_out(tmp_path), _key(P12, 0, ".avro"))
    assert (schema, meta["avro.codec"]) == (AVRO_RECORD, "null")
    assert task.open_offsets(P12) == [6]


ENUM_SCHEMA = ConnectSchema(  # DataWriterAvroTest.createEnumSchema
    Type.STRING,
    name="TestEnum",
    parameters={
        "io.confluent.connect.avro.Enum": "TestEnum",
        "io.confluent.connect.avro.Enum.foo": "foo",
        "io.confluent.connect.avro.Enum.bar": "bar",
        "io.confluent.connect.avro.Enum.baz": "baz",
    },
)


def test_avro_write_records_of_enums_with_enhanced_avro_data(tmp_path: Path) -> None:
    # DataWriterAvroTest.testWriteRecordsOfEnumsWithEnhancedAvroData: a Connect string with
    # AvroData's enum parameters is an Avro enum in the file; each value the symbol "bar".
    config = _config(
        tmp_path, AVRO, **{"enhanced.avro.schema.support": "true", "connect.meta.data": "true"}
    )
    _Task(config).put([_record(o, schema=ENUM_SCHEMA, value="bar") for o in range(7)])
    _verify(_out(tmp_path), [0, 3, 6], [P12], ".avro", _avro_rows, lambda p, o: "bar")
    schema, _, _ = _avro(_out(tmp_path), _key(P12, 3, ".avro"))
    assert schema == {
        "type": "enum",
        "name": "TestEnum",
        "symbols": ["foo", "bar", "baz"],
        "connect.parameters": dict(ENUM_SCHEMA.parameters),
        "connect.name": "TestEnum",
    }


_TEST1 = ConnectSchema(
    Type.STRUCT, optional=True, name="Test1", fields=(Field("test", ConnectSchema(Type.INT32)),)
)
_TEST2 = dataclasses.replace(_TEST1, name="io.confluent.Test2")
UNION_SCHEMA = ConnectSchema(  # DataWriterAvroTest.createRecordsWithUnion
    Type.STRUCT,
    name="io.confluent.connect.avro.Union",
    fields=(
        Field("int", ConnectSchema(Type.INT32, optional=True)),
        Field("string", ConnectSchema(Type.STRING, optional=True)),
        Field("Test1", _TEST1),
        Field("io.confluent.Test2", _TEST2),
    ),
)
_NO_MEMBER = {"int": None, "string": None, "Test1": None, "io.confluent.Test2": None}
UNION_VALUES = [  # int, string, Test1, Test2, in turn
    {**_NO_MEMBER, "int": 12},
    {**_NO_MEMBER, "string": "teststring"},
    {**_NO_MEMBER, "Test1": {"test": 12}},
    {**_NO_MEMBER, "io.confluent.Test2": {"test": 12}},
]


def test_avro_write_records_of_unions_with_enhanced_avro_data(tmp_path: Path) -> None:
    # DataWriterAvroTest.testWriteRecordsOfUnionsWithEnhancedAvroData: 28 records of AvroData's
    # Union struct are an Avro union, each value its member's; nine files of 3, 27 open.
    config = _config(
        tmp_path, AVRO, **{"enhanced.avro.schema.support": "true", "connect.meta.data": "true"}
    )
    task = _Task(config)
    task.put([_record(o, schema=UNION_SCHEMA, value=UNION_VALUES[o % 4]) for o in range(28)])
    members: list[Any] = [12, "teststring", {"test": 12}, {"test": 12}]
    offsets = list(range(0, 28, 3))
    _verify(_out(tmp_path), offsets, [P12], ".avro", _avro_rows, lambda p, o: members[o % 4])
    schema, _, _ = _avro(_out(tmp_path), _key(P12, 0, ".avro"))
    test1 = {"type": "record", "name": "Test1", "fields": [{"name": "test", "type": "int"}]}
    assert schema == [
        "int",
        "string",
        {**test1, "connect.name": "Test1"},
        {
            **test1,
            "name": "Test2",
            "namespace": "io.confluent",
            "connect.name": "io.confluent.Test2",
        },
    ]
    assert task.open_offsets(P12) == [27]


@pytest.mark.usefixtures("snappy_reader")
def test_avro_compress_file(tmp_path: Path) -> None:
    # DataWriterAvroTest.testCompressFile: avro.codec=snappy is each file's avro.codec.
    _Task(_config(tmp_path, AVRO, **{"avro.codec": "snappy"})).put(create_records(7))
    for key in _listing(_out(tmp_path)):
        assert _avro(_out(tmp_path), key)[1]["avro.codec"] == "snappy"
    _verify(_out(tmp_path), [0, 3, 6], [P12], ".avro", _avro_rows, _row)


def _partial_avro_file(records: Sequence[SinkRecord]) -> bytes:
    """``AvroUtils.putRecords``: a plain Avro file of the records (a leftover object)."""
    out = io.BytesIO()
    fastavro.writer(out, fastavro.parse_schema(AVRO_RECORD), [RECORD for _ in records])
    return out.getvalue()


def test_avro_recovery_with_partial_file(tmp_path: Path) -> None:
    # DataWriterAvroTest.testRecoveryWithPartialFile: a two-record object already at the first
    # file's key is replaced by the whole file.
    key = _key(P12, 0, ".avro")
    _out(tmp_path).mkdir()
    (_out(tmp_path) / key).write_bytes(_partial_avro_file(create_records(2)))
    _Task(_config(tmp_path, AVRO)).put(create_records(2) + create_records(5, 2))
    _verify(_out(tmp_path), [0, 3, 6], [P12], ".avro", _avro_rows, _row)


def test_avro_write_records_spanning_multiple_parts(tmp_path: Path) -> None:
    # DataWriterAvroTest.testWriteRecordsSpanningMultipleParts: flush.size 10000, 11000 records
    # (many S3 parts in Java): one file of 10000, the rest open.
    task = _Task(_config(tmp_path, AVRO, **{"flush.size": "10000"}))
    task.put(create_records(11000))
    _verify(_out(tmp_path), [0, 10000], [P12], ".avro", _avro_rows, _row)
    assert task.open_offsets(P12) == list(range(10000, 11000))


def test_avro_write_records_in_multiple_partitions(tmp_path: Path) -> None:
    # DataWriterAvroTest.testWriteRecordsInMultiplePartitions: each partition its own files.
    _Task(_config(tmp_path, AVRO)).put(create_records(7, 0, ASSIGNMENT))
    _verify(_out(tmp_path), [0, 3, 6], ASSIGNMENT, ".avro", _avro_rows, _row)


def test_avro_write_interleaved_records_in_multiple_partitions(tmp_path: Path) -> None:
    # DataWriterAvroTest.testWriteInterleavedRecordsInMultiplePartitions.
    _Task(_config(tmp_path, AVRO)).put(create_records_interleaved(14, 0))
    _verify(_out(tmp_path), [0, 3, 6], ASSIGNMENT, ".avro", _avro_rows, _row)


def test_avro_write_interleaved_records_in_multiple_partitions_non_zero_initial_offset(
    tmp_path: Path,
) -> None:
    # DataWriterAvroTest.testWriteInterleavedRecordsInMultiplePartitionsNonZeroInitialOffset.
    _Task(_config(tmp_path, AVRO)).put(create_records_interleaved(14, 9))
    _verify(_out(tmp_path), [9, 12, 15], ASSIGNMENT, ".avro", _avro_rows, _row)


def _pre_commit_on_size_rotation(tmp_path: Path, fmt: str) -> None:
    """testPreCommitOnSizeRotation (Avro and Parquet): flush.size 3, two partitions."""
    task = _Task(_config(tmp_path, fmt))
    task.put(create_records_interleaved(6, 0))  # offsets 0..2 of each partition
    assert task.pre_commit() == {P12: 3, P13: 3}
    task.put(create_records_interleaved(4, 3))  # 3..4
    assert task.pre_commit() == {}
    task.put(create_records_interleaved(2, 5))  # 5
    assert task.pre_commit() == {P12: 6, P13: 6}
    # 6..8 of each partition, but for the last one of partition 13
    task.put(create_records_interleaved(6, 6)[:-1])
    assert task.pre_commit() == {P12: 9}


def test_avro_pre_commit_on_size_rotation(tmp_path: Path) -> None:
    # DataWriterAvroTest.testPreCommitOnSizeRotation.
    _pre_commit_on_size_rotation(tmp_path, AVRO)


def _pre_commit_on_schema_incompatibility_rotation(tmp_path: Path, fmt: str) -> None:
    """testPreCommitOnSchemaIncompatibilityRotation: flush.size 2, v1 then v2 (schema
    compatibility NONE): the v1 file commits alone."""
    task = _Task(_config(tmp_path, fmt, **{"flush.size": "2"}))
    task.put(create_records_with_altering_schemas(2, 0))
    assert task.pre_commit() == {P12: 1}


def test_avro_pre_commit_on_schema_incompatibility_rotation(tmp_path: Path) -> None:
    # DataWriterAvroTest.testPreCommitOnSchemaIncompatibilityRotation.
    _pre_commit_on_schema_incompatibility_rotation(tmp_path, AVRO)


def _pre_commit_on_rotate_time(tmp_path: Path, fmt: str, ext: str) -> None:
    """testPreCommitOnRotateTime: rotate.interval.ms 1 h by the (mock) wall clock; the fourth
    record, two hours later, commits the first three."""
    config = _config(
        tmp_path, fmt, **TIME_BASED, **{"flush.size": "1000", "rotate.interval.ms": str(HOUR)}
    )
    task = _Task(config)
    records = [_record(o, timestamp=NOW) for o in range(4)]
    task.put(records[:3], NOW)
    assert task.pre_commit() == {}
    task.put(records[3:], NOW + 2 * HOUR)
    assert task.pre_commit() == {P12: 3}
    day = "year=2017_month=03_day=02_hour=00"  # the day's bucket, in Los Angeles
    assert _listing(_out(tmp_path)) == [_key(P12, 0, ext, directory=day)]


def test_avro_pre_commit_on_rotate_time(tmp_path: Path) -> None:
    # DataWriterAvroTest.testPreCommitOnRotateTime.
    _pre_commit_on_rotate_time(tmp_path, AVRO, ".avro")


def _pre_commit_on_rotate_schedule_time(tmp_path: Path, fmt: str, **partitioner: str) -> None:
    """testPreCommitOnRotateScheduleTime: rotate.schedule.interval.ms 1 h; a put of no records
    70 minutes later commits the three open records."""
    config = _config(
        tmp_path,
        fmt,
        **partitioner,
        **{"flush.size": "1000", "rotate.schedule.interval.ms": str(HOUR)},
    )
    task = _Task(config)
    task.put([_record(o, timestamp=NOW) for o in range(3)], NOW)
    assert task.pre_commit() == {}
    task.put([], NOW + 70 * 60_000)
    assert task.pre_commit() == {P12: 3}


def test_avro_pre_commit_on_rotate_schedule_time(tmp_path: Path) -> None:
    # DataWriterAvroTest.testPreCommitOnRotateScheduleTime (TimeBasedPartitioner, wall clock).
    _pre_commit_on_rotate_schedule_time(tmp_path, AVRO, **TIME_BASED)


class _FlakyStorage(LocalStorage):
    """``S3OutputStreamFlaky``: the first object's commit fails."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.failures = 1

    def open_write(self, key: str, tags: Any = None) -> Any:
        if self.failures:
            self.failures -= 1
            raise StorageError(f"Fake exception writing {key}")
        return super().open_write(key, tags)


def test_avro_pre_commit_on_rotate_schedule_time_with_exception(tmp_path: Path) -> None:
    # DataWriterAvroTest.testPreCommitOnRotateScheduleTimeWithException: the scheduled commit
    # fails once; nothing is committed, and the records, handled again (Kafka Connect rewinds
    # the consumer; here Spark replays the micro-batch from the saved state), make the same
    # file at the next scheduled rotation.
    config = _config(
        tmp_path,
        AVRO,
        **TIME_BASED,
        **{"flush.size": "1000", "rotate.schedule.interval.ms": str(HOUR)},
    )
    storage = _FlakyStorage(_out(tmp_path))
    task = _Task(config, storage)
    task.put([_record(o, timestamp=NOW) for o in range(3)], NOW)
    assert task.pre_commit() == {}
    state, pending = task.writer(P12).snapshot()
    later = NOW + 70 * 60_000
    with pytest.raises(StorageError, match="Fake exception"):
        task.put([], later)
    assert task.pre_commit() == {} and _listing(_out(tmp_path)) == []
    # The replay: the partition's writer from the state saved before the failed batch.
    task.writers[P12] = TopicPartitionWriter(task.ctx, TOPIC, P12, state, lambda: pending)
    task.put([], later)
    assert task.pre_commit() == {P12: 3}
    day = "year=2017_month=03_day=02_hour=00"
    _verify(_out(tmp_path), [0, 3], [P12], ".avro", _avro_rows, _row, directory=day)


def _rebalance(tmp_path: Path, fmt: str, ext: str, read: Any) -> None:
    """testRebalance: partitions 12 and 13, then 12 and 14 (12 goes on where it was; 13's
    files stay; 14 starts at offset 6)."""
    task = _Task(_config(tmp_path, fmt))
    task.put(create_records_interleaved(14, 0))
    _verify(_out(tmp_path), [0, 3, 6], ASSIGNMENT, ext, read, _row)
    assert task.open_offsets(P12) == [6] and task.open_offsets(P13) == [6]
    # Confluent's close drops the open files and Kafka redelivers from offset 6; here the
    # partition's open records are in its saved state, so only the records after them come.
    state, pending = task.writer(P12).snapshot()
    task.writers = {P12: TopicPartitionWriter(task.ctx, TOPIC, P12, state, lambda: pending)}
    task.put(create_records_interleaved(14, 6, (P12, P14))[1:])
    assert _listing(_out(tmp_path)) == sorted(
        expected_files([0, 3, 6, 9, 12], [P12], ext)
        + expected_files([0, 3, 6], [P13], ext)
        + expected_files([6, 9, 12], [P14], ext)
    )
    for key in _listing(_out(tmp_path)):
        assert read(_out(tmp_path), key) == [ROW] * 3


def test_avro_rebalance(tmp_path: Path) -> None:
    # DataWriterAvroTest.testRebalance.
    _rebalance(tmp_path, AVRO, ".avro", _avro_rows)


def _projected(records: list[SinkRecord], files: Sequence[int]) -> Any:
    """``verifyContents``: each record's value projected onto the schema of its file's first
    record (files: their start offsets), as the file holds it."""
    first = {r.offset: r for r in records}

    def row(partition: int, offset: int) -> dict[str, Any]:
        start = max(s for s in files if s <= offset)
        target, own = first[start].value_schema, first[offset].value_schema
        if own == target:
            return NEW_ROW if own == NEW_SCHEMA else ROW
        return ROW_AS_NEW if target == NEW_SCHEMA else ROW

    return row


def _project_backward(tmp_path: Path, fmt: str, ext: str, read: Any) -> None:
    """testProjectBackward: flush.size 2, BACKWARD; v1, v2, v1, ...: a v2 record rotates the v1
    file, older records join v2 files with the new field's default."""
    config = _config(tmp_path, fmt, **{"flush.size": "2", "schema.compatibility": "BACKWARD"})
    records = create_records_with_altering_schemas(7, 0)
    _Task(config).put(records)
    offsets = [0, 1, 3, 5, 7]
    _verify(_out(tmp_path), offsets, [P12], ext, read, _projected(records, offsets))


def test_avro_project_backward(tmp_path: Path) -> None:
    # DataWriterAvroTest.testProjectBackward.
    _project_backward(tmp_path, AVRO, ".avro", _avro_rows)
    schemas = [_avro(_out(tmp_path), k)[0] for k in _listing(_out(tmp_path))]
    assert schemas == [AVRO_RECORD, AVRO_NEW_RECORD, AVRO_NEW_RECORD, AVRO_NEW_RECORD]


def _project_none(tmp_path: Path, fmt: str, ext: str, read: Any) -> None:
    """testProjectNone: every schema change rotates: six one-record files, offset 6 open."""
    config = _config(tmp_path, fmt, **{"flush.size": "2"})
    records = create_records_with_altering_schemas(7, 0)
    task = _Task(config)
    task.put(records)
    offsets = [0, 1, 2, 3, 4, 5, 6]
    _verify(_out(tmp_path), offsets, [P12], ext, read, _projected(records, offsets))
    assert task.open_offsets(P12) == [6]


def test_avro_project_none(tmp_path: Path) -> None:
    # DataWriterAvroTest.testProjectNone.
    _project_none(tmp_path, AVRO, ".avro", _avro_rows)


def _project_forward(tmp_path: Path, fmt: str, ext: str, read: Any) -> None:
    """testProjectForward: flush.size 2, FORWARD, from a v2 record: a v1 record rotates, newer
    records join v1 files without the new field."""
    config = _config(tmp_path, fmt, **{"flush.size": "2", "schema.compatibility": "FORWARD"})
    records = create_records_with_altering_schemas(8, 0)[1:]
    _Task(config).put(records)
    offsets = [1, 2, 4, 6, 8]
    _verify(_out(tmp_path), offsets, [P12], ext, read, _projected(records, offsets))


def test_avro_project_forward(tmp_path: Path) -> None:
    # DataWriterAvroTest.testProjectForward.
    _project_forward(tmp_path, AVRO, ".avro", _avro_rows)
    schemas = [_avro(_out(tmp_path), k)[0] for k in _listing(_out(tmp_path))]
    assert schemas == [AVRO_NEW_RECORD, AVRO_RECORD, AVRO_RECORD, AVRO_RECORD]


def _project_no_version(tmp_path: Path, fmt: str) -> None:
    """testProjectNoVersion: BACKWARD and a schema without a version, then v1: the put fails
    (ConnectException) and nothing is written."""
    config = _config(tmp_path, fmt, **{"flush.size": "2", "schema.compatibility": "BACKWARD"})
    records = create_records_no_version(1, 0) + create_records_with_altering_schemas(7, 0)
    with pytest.raises(SchemaProjectionError, match="Schema version required for BACKWARD"):
        _Task(config).put(records)
    assert _listing(_out(tmp_path)) == []


def test_avro_project_no_version(tmp_path: Path) -> None:
    # DataWriterAvroTest.testProjectNoVersion.
    _project_no_version(tmp_path, AVRO)


def _correct_record_writer(
    tmp_path: Path, fmt: str, topics_dir: str, ext: str, records: list[SinkRecord], **extra: str
) -> list[str]:
    """``testCorrectRecordWriterHelper``: ``topics.dir`` may hold any extension; each file
    ends with the format's extension once. One record per file (the Java test names each file
    after offset 0 of its partition: the records here are at offset 0)."""
    config = _config(tmp_path, fmt, **{"topics.dir": topics_dir, "flush.size": "1", **extra})
    task = _Task(config)
    task.put(records)
    partitions = sorted({r.partition for r in records})
    assert task.ctx.format.extension == ext
    assert _listing(_out(tmp_path)) == expected_files(
        [0, 1], partitions, ext, topics_dir=topics_dir
    )
    return [_key(p, 0, ext, topics_dir=topics_dir) for p in partitions]


@pytest.mark.parametrize(
    "topics_dir",
    ["this.is.dir", "this.is.json.dir", "this.is.avro.dir"],
    ids=["Basic", "Other", "This"],
)
def test_avro_correct_record_writer(tmp_path: Path, topics_dir: str) -> None:
    # DataWriterAvroTest.testCorrectRecordWriterBasic / Other / This.
    records = create_records_no_version(1, 0)
    (key,) = _correct_record_writer(tmp_path, AVRO, topics_dir, ".avro", records)
    schema, _, rows = _avro(_out(tmp_path), key)
    assert rows == [ROW]
    assert schema == {k: v for k, v in AVRO_RECORD.items() if k != "connect.version"}


# ---------------------------------------------------------------------------------------------
# DataWriterJsonTest

# JsonConverter (schemas.enable=false) of createRecord: fields in order, the float as Java
# prints 12.2f.
JSON_LINE = b'{"boolean":true,"int":12,"long":12,"float":12.2,"double":12.2}'
# DataWriterJsonTest.createJsonRecordsWithoutSchema: a JSON envelope's text as a schemaless
# String value (not valid JSON: "str12" is not quoted), written as a JSON string.
ENVELOPE_TEXT = (
    '{"schema":{"type":"struct","fields":[ '
    '{"type":"boolean","optional":true,"field":"booleanField"},'
    '{"type":"int32","optional":true,"field":"intField"},'
    '{"type":"int64","optional":true,"field":"longField"},'
    '{"type":"string","optional":false,"field":"stringField"}],'
    '"payload":{"booleanField":"true","intField":12,"longField":12,"stringField":str12}}'
)


def create_json_records_without_schema(total: int, start: int = 0) -> list[SinkRecord]:
    """``createJsonRecordsWithoutSchema``: the envelope text, no key or value schema."""
    return [
        dataclasses.replace(r, key_schema=None)
        for r in create_records_interleaved(total, start, schema=None, value=ENVELOPE_TEXT)
    ]


def _json_struct_lines(tmp_path: Path, ext: str) -> None:
    _verify(_out(tmp_path), [0, 3, 6], ASSIGNMENT, ext, _lines, lambda p, o: JSON_LINE)
    assert _json(_out(tmp_path), _key(P12, 0, ext)) == [RECORD] * 3


def _json_string_lines(tmp_path: Path, ext: str) -> None:
    quoted = json.dumps(ENVELOPE_TEXT, separators=(",", ":")).encode()
    assert quoted.startswith(b'"{\\"schema\\":{\\"type\\":\\"struct\\"')  # Jackson's escapes
    _verify(_out(tmp_path), [0, 3, 6], ASSIGNMENT, ext, _lines, lambda p, o: quoted)
    assert _json(_out(tmp_path), _key(P13, 3, ext)) == [ENVELOPE_TEXT] * 3


def test_json_with_schema(tmp_path: Path) -> None:
    # DataWriterJsonTest.testWithSchema: structs as JsonConverter writes them, one per line.
    _Task(_config(tmp_path, JSON)).put(create_records_interleaved(14, 0))
    _json_struct_lines(tmp_path, ".json")


def test_json_no_schema(tmp_path: Path) -> None:
    # DataWriterJsonTest.testNoSchema: a schemaless String is written as a JSON string.
    _Task(_config(tmp_path, JSON)).put(create_json_records_without_schema(14, 0))
    _json_string_lines(tmp_path, ".json")


def _java_gzip(tmp_path: Path, key: str, level: int) -> None:
    """The object is what ``GZIPOutputStream`` with ``Deflater.setLevel(level)`` writes of its
    text (CompressionType.GZIP.wrapForOutput): Java's header, zlib's raw deflate, CRC and size."""
    data = (_out(tmp_path) / key).read_bytes()
    text = gzip.decompress(data)
    deflater = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    body = deflater.compress(text) + deflater.flush()
    trailer = struct.pack("<II", zlib.crc32(text), len(text))
    assert data == bytes.fromhex("1f8b08000000000000ff") + body + trailer


def test_json_gzip_compression_with_schema(tmp_path: Path) -> None:
    # DataWriterJsonTest.testGzipCompressionWithSchema: s3.compression.type=gzip: .json.gz.
    config = _config(tmp_path, JSON, **{"s3.compression.type": "gzip"})
    _Task(config).put(create_records_interleaved(14, 0))
    _json_struct_lines(tmp_path, ".json.gz")


def test_json_gzip_compression_no_schema(tmp_path: Path) -> None:
    # DataWriterJsonTest.testGzipCompressionNoSchema.
    config = _config(tmp_path, JSON, **{"s3.compression.type": "gzip"})
    _Task(config).put(create_json_records_without_schema(14, 0))
    _json_string_lines(tmp_path, ".json.gz")
    _java_gzip(tmp_path, _key(P12, 0, ".json.gz"), -1)  # Deflater's default level


def test_json_best_gzip_compression_no_schema(tmp_path: Path) -> None:
    # DataWriterJsonTest.testBestGzipCompressionNoSchema: s3.compression.level 9.
    config = _config(tmp_path, JSON, **{"s3.compression.type": "gzip", "s3.compression.level": "9"})
    _Task(config).put(create_json_records_without_schema(14, 0))
    _json_string_lines(tmp_path, ".json.gz")
    _java_gzip(tmp_path, _key(P12, 0, ".json.gz"), 9)  # Deflater.BEST_COMPRESSION


@pytest.mark.parametrize(
    "topics_dir",
    ["this.is.dir", "this.is.avro.dir", "this.is.json.dir"],
    ids=["Basic", "Other", "This"],
)
def test_json_correct_record_writer(tmp_path: Path, topics_dir: str) -> None:
    # DataWriterJsonTest.testCorrectRecordWriterBasic / Other / This: one schemaless record in
    # each partition of the assignment.
    records = create_json_records_without_schema(2, 0)
    for key in _correct_record_writer(tmp_path, JSON, topics_dir, ".json", records):
        assert _json(_out(tmp_path), key) == [ENVELOPE_TEXT]


# ---------------------------------------------------------------------------------------------
# DataWriterByteArrayTest

ENVELOPE_BYTES = ENVELOPE_TEXT.encode()  # createByteArrayRecordsWithoutSchema: the text's bytes


def create_byte_array_records_without_schema(total: int, start: int = 0) -> list[SinkRecord]:
    """``createByteArrayRecordsWithoutSchema``: the envelope's bytes, no key or value schema."""
    return [
        dataclasses.replace(r, key_schema=None)
        for r in create_records_interleaved(total, start, schema=None, value=ENVELOPE_BYTES)
    ]


def _byte_array_files(tmp_path: Path, ext: str, separator: bytes = b"\n") -> None:
    def read(root: Path, key: str) -> list[bytes]:
        return _lines(root, key, separator)

    _verify(_out(tmp_path), [0, 3, 6], ASSIGNMENT, ext, read, lambda p, o: ENVELOPE_BYTES)


def test_byte_array_no_schema(tmp_path: Path) -> None:
    # DataWriterByteArrayTest.testNoSchema: each value's bytes, then the line separator.
    _Task(_config(tmp_path, BYTEARRAY)).put(create_byte_array_records_without_schema(14, 0))
    _byte_array_files(tmp_path, ".bin")
    assert (_out(tmp_path) / _key(P12, 3, ".bin")).read_bytes() == (ENVELOPE_BYTES + b"\n") * 3


def test_byte_array_gzip_compression(tmp_path: Path) -> None:
    # DataWriterByteArrayTest.testGzipCompression: .bin.gz.
    config = _config(tmp_path, BYTEARRAY, **{"s3.compression.type": "gzip"})
    _Task(config).put(create_byte_array_records_without_schema(14, 0))
    _byte_array_files(tmp_path, ".bin.gz")
    _java_gzip(tmp_path, _key(P13, 0, ".bin.gz"), -1)


def test_byte_array_best_gzip_compression(tmp_path: Path) -> None:
    # DataWriterByteArrayTest.testBestGzipCompression: s3.compression.level 9.
    config = _config(
        tmp_path, BYTEARRAY, **{"s3.compression.type": "gzip", "s3.compression.level": "9"}
    )
    _Task(config).put(create_byte_array_records_without_schema(14, 0))
    _byte_array_files(tmp_path, ".bin.gz")
    _java_gzip(tmp_path, _key(P13, 0, ".bin.gz"), 9)


def test_byte_array_custom_extension_and_line_separator(tmp_path: Path) -> None:
    # DataWriterByteArrayTest.testCustomExtensionAndLineSeparator.
    config = _config(
        tmp_path,
        BYTEARRAY,
        **{
            "format.bytearray.separator": "SEPARATOR",
            "format.bytearray.extension": ".customExtensionForTest",
        },
    )
    _Task(config).put(create_byte_array_records_without_schema(14, 0))
    _byte_array_files(tmp_path, ".customExtensionForTest", b"SEPARATOR")
    key = _key(P12, 0, ".customExtensionForTest")
    assert (_out(tmp_path) / key).read_bytes() == (ENVELOPE_BYTES + b"SEPARATOR") * 3


@pytest.mark.parametrize(
    "topics_dir",
    ["this.is.dir", "this.is.json.dir", "this.is.bin.dir"],
    ids=["Basic", "Other", "This"],
)
def test_byte_array_correct_record_writer(tmp_path: Path, topics_dir: str) -> None:
    # DataWriterByteArrayTest.testCorrectRecordWriterBasic / Other / This.
    records = create_byte_array_records_without_schema(2, 0)
    for key in _correct_record_writer(tmp_path, BYTEARRAY, topics_dir, ".bin", records):
        assert (_out(tmp_path) / key).read_bytes() == ENVELOPE_BYTES + b"\n"


# ---------------------------------------------------------------------------------------------
# DataWriterParquetTest


def _parquet_writes_records(tmp_path: Path, ext: str, codec: str, **extra: str) -> None:
    """``writeRecordsWithExtensionAndVerifyResult``: 7 records, files at 0 and 3 named with the
    codec's extension, the records as AvroData's schema has them."""
    _Task(_config(tmp_path, PARQUET, **extra)).put(create_records(7))
    _verify(_out(tmp_path), [0, 3, 6], [P12], ext, _parquet_rows, _row)
    avro, written_codec, _ = _parquet(_out(tmp_path), _key(P12, 0, ext))
    assert (avro, written_codec) == (AVRO_RECORD, codec)


def test_parquet_with_default_codec_write_records(tmp_path: Path) -> None:
    # DataWriterParquetTest.testWithDefaultCodecWriteRecords: snappy, ".snappy.parquet".
    _parquet_writes_records(tmp_path, ".snappy.parquet", "SNAPPY")


def test_parquet_uncompressed_compression_write_records(tmp_path: Path) -> None:
    # DataWriterParquetTest.testUncompressedCompressionWriteRecords: parquet.codec=none.
    _parquet_writes_records(tmp_path, ".parquet", "UNCOMPRESSED", **{"parquet.codec": "none"})


def test_parquet_gzip_compression_write_records(tmp_path: Path) -> None:
    # DataWriterParquetTest.testGzipCompressionWriteRecords: ".gz.parquet".
    _parquet_writes_records(tmp_path, ".gz.parquet", "GZIP", **{"parquet.codec": "gzip"})


def test_parquet_snappy_compression_write_records(tmp_path: Path) -> None:
    # DataWriterParquetTest.testSnappyCompressionWriteRecords.
    _parquet_writes_records(tmp_path, ".snappy.parquet", "SNAPPY", **{"parquet.codec": "snappy"})


def test_parquet_recovery_with_partial_file(tmp_path: Path) -> None:
    # DataWriterParquetTest.testRecoveryWithPartialFile: a two-record object at the first
    # file's key is replaced by the whole file.
    key = _key(P12, 0, ".snappy.parquet")
    _out(tmp_path).mkdir()
    partial = pa.Table.from_pylist([ROW, ROW])
    pq.write_table(partial, _out(tmp_path) / key)
    _Task(_config(tmp_path, PARQUET)).put(create_records(2) + create_records(5, 2))
    _verify(_out(tmp_path), [0, 3, 6], [P12], ".snappy.parquet", _parquet_rows, _row)


def test_parquet_write_records_spanning_multiple_parts(tmp_path: Path) -> None:
    # DataWriterParquetTest.testWriteRecordsSpanningMultipleParts.
    task = _Task(_config(tmp_path, PARQUET, **{"flush.size": "10000"}))
    task.put(create_records(11000))
    _verify(_out(tmp_path), [0, 10000], [P12], ".snappy.parquet", _parquet_rows, _row)
    assert task.open_offsets(P12) == list(range(10000, 11000))


def test_parquet_write_records_in_multiple_partitions(tmp_path: Path) -> None:
    # DataWriterParquetTest.testWriteRecordsInMultiplePartitions.
    _Task(_config(tmp_path, PARQUET)).put(create_records(7, 0, ASSIGNMENT))
    _verify(_out(tmp_path), [0, 3, 6], ASSIGNMENT, ".snappy.parquet", _parquet_rows, _row)


def test_parquet_write_interleaved_records_in_multiple_partitions(tmp_path: Path) -> None:
    # DataWriterParquetTest.testWriteInterleavedRecordsInMultiplePartitions (7 offsets each).
    _Task(_config(tmp_path, PARQUET)).put(create_records_interleaved(7 * 2, 0))
    _verify(_out(tmp_path), [0, 3, 6], ASSIGNMENT, ".snappy.parquet", _parquet_rows, _row)


_OPTIONAL_STRINGS = ConnectSchema(
    Type.ARRAY, value_schema=ConnectSchema(Type.STRING, optional=True)
)
_STRINGS = ConnectSchema(Type.ARRAY, value_schema=STRING)
_ITEMS = (Field("regular_items", _STRINGS), Field("optional_items", _OPTIONAL_STRINGS))
ARRAYS_SCHEMA = ConnectSchema(  # SchemaConfig(regular, optional, nested "nested_schema").create()
    Type.STRUCT,
    fields=(
        *_ITEMS,
        Field("nested", ConnectSchema(Type.STRUCT, name="nested_schema", fields=_ITEMS)),
    ),
)


def _arrays_value(offset: int) -> dict[str, Any]:
    """``createRecordsWithArrayOfOptionalString``: nulls at the edges, then inside, in turn."""
    edge = offset % 2 == 0
    optional = ["item-1" if edge else None, None if edge else "item-2", "item-3" if edge else None]
    regular = ["reg-1", "reg-2"]
    nested = {"regular_items": regular, "optional_items": list(optional)}
    return {"regular_items": regular, "optional_items": optional, "nested": nested}


def test_parquet_write_records_in_multiple_partitions_with_array_of_optional_string(
    tmp_path: Path,
) -> None:
    # DataWriterParquetTest.testWriteRecordsInMultiplePartitionsWithArrayOfOptionalString
    # (issue #339): arrays with null items, at the top and in a nested struct.
    records = [_record(o, p, ARRAYS_SCHEMA, _arrays_value(o)) for p in ASSIGNMENT for o in range(7)]
    _Task(_config(tmp_path, PARQUET)).put(records)
    read = _parquet_rows
    _verify(
        _out(tmp_path),
        [0, 3, 6],
        ASSIGNMENT,
        ".snappy.parquet",
        read,
        lambda p, o: _arrays_value(o),
    )
    avro, _, _ = _parquet(_out(tmp_path), _key(P13, 3, ".snappy.parquet"))
    items = [
        {"name": "regular_items", "type": {"type": "array", "items": "string"}},
        {"name": "optional_items", "type": {"type": "array", "items": ["null", "string"]}},
    ]
    assert avro == {
        "type": "record",
        "name": "ConnectDefault",
        "namespace": "io.confluent.connect.avro",
        "fields": [
            *items,
            {
                "name": "nested",
                "type": {
                    "type": "record",
                    "name": "nested_schema",
                    "namespace": "",
                    "fields": items,
                    "connect.name": "nested_schema",
                },
            },
        ],
    }


def test_parquet_write_interleaved_records_in_multiple_partitions_non_zero_initial_offset(
    tmp_path: Path,
) -> None:
    # DataWriterParquetTest.testWriteInterleavedRecordsInMultiplePartitionsNonZeroInitialOffset.
    _Task(_config(tmp_path, PARQUET)).put(create_records_interleaved(7 * 2, 9))
    _verify(_out(tmp_path), [9, 12, 15], ASSIGNMENT, ".snappy.parquet", _parquet_rows, _row)


def test_parquet_pre_commit_on_size_rotation(tmp_path: Path) -> None:
    # DataWriterParquetTest.testPreCommitOnSizeRotation.
    _pre_commit_on_size_rotation(tmp_path, PARQUET)


def test_parquet_pre_commit_on_schema_incompatibility_rotation(tmp_path: Path) -> None:
    # DataWriterParquetTest.testPreCommitOnSchemaIncompatibilityRotation.
    _pre_commit_on_schema_incompatibility_rotation(tmp_path, PARQUET)


def test_parquet_pre_commit_on_rotate_time(tmp_path: Path) -> None:
    # DataWriterParquetTest.testPreCommitOnRotateTime.
    _pre_commit_on_rotate_time(tmp_path, PARQUET, ".snappy.parquet")


def test_parquet_pre_commit_on_rotate_schedule_time(tmp_path: Path) -> None:
    # DataWriterParquetTest.testPreCommitOnRotateScheduleTime: the DefaultPartitioner, the
    # task's (mock) clock.
    _pre_commit_on_rotate_schedule_time(tmp_path, PARQUET)


def test_parquet_rebalance(tmp_path: Path) -> None:
    # DataWriterParquetTest.testRebalance.
    _rebalance(tmp_path, PARQUET, ".snappy.parquet", _parquet_rows)


def test_parquet_project_backward(tmp_path: Path) -> None:
    # DataWriterParquetTest.testProjectBackward.
    _project_backward(tmp_path, PARQUET, ".snappy.parquet", _parquet_rows)


def test_parquet_project_none(tmp_path: Path) -> None:
    # DataWriterParquetTest.testProjectNone.
    _project_none(tmp_path, PARQUET, ".snappy.parquet", _parquet_rows)


def test_parquet_project_forward(tmp_path: Path) -> None:
    # DataWriterParquetTest.testProjectForward.
    _project_forward(tmp_path, PARQUET, ".snappy.parquet", _parquet_rows)


def test_parquet_project_no_version(tmp_path: Path) -> None:
    # DataWriterParquetTest.testProjectNoVersion.
    _project_no_version(tmp_path, PARQUET)


@pytest.mark.parametrize(
    "topics_dir",
    [
        "this.is.dir",
        "this.is.json.dir",
        "this.is.snappy.parquet.dir",
        "this.is.snappy.dir",
        "this.is.parquet.dir",
    ],
    ids=["Basic", "Other", "This", "PartialThisA", "PartialThisB"],
)
def test_parquet_correct_record_writer(tmp_path: Path, topics_dir: str) -> None:
    # DataWriterParquetTest.testCorrectRecordWriterBasic / Other / This / PartialThisA /
    # PartialThisB.
    records = create_records(1, 0)
    (key,) = _correct_record_writer(tmp_path, PARQUET, topics_dir, ".snappy.parquet", records)
    assert _parquet(_out(tmp_path), key)[2] == [ROW]


# ---------------------------------------------------------------------------------------------
# RecordViewsTest

_KEY_SCHEMA = ConnectSchema(  # getExampleKeyStructSchema
    Type.STRUCT,
    fields=(
        Field("recordKeyID", ConnectSchema(Type.INT64)),
        Field("keyString", STRING),
        Field("keyBytes", ConnectSchema(Type.BYTES)),
    ),
)
_VALUE_SCHEMA = ConnectSchema(  # getExampleValueStructSchema
    Type.STRUCT,
    fields=(
        Field("ID", ConnectSchema(Type.INT64)),
        Field("myString", STRING),
        Field("myBool", ConnectSchema(Type.BOOLEAN)),
        Field("myBytes", ConnectSchema(Type.BYTES)),
        Field(
            "myDate",
            ConnectSchema(Type.INT32, name="org.apache.kafka.connect.data.Date", version=1),
        ),
        Field("myTime", ConnectSchema(Type.INT64, name=TIMESTAMP, version=1)),
    ),
)


def _sample_sink_record() -> SinkRecord:
    """``getSampleSinkRecord`` (its headers aside: see the header test)."""
    key = {"recordKeyID": 0, "keyString": "theStringVal", "keyBytes": b"theBytes"}
    value = {
        "ID": 0,
        "myString": "theStringVal",
        "myBool": True,
        "myBytes": b"theBytes",
        "myDate": datetime(1970, 1, 1).date(),
        "myTime": datetime.fromtimestamp(33333.333, ZoneInfo("UTC")),
    }
    return SinkRecord("topic", 0, 0, 0, key, value, _KEY_SCHEMA, _VALUE_SCHEMA)


def test_record_views_get_extension() -> None:
    # RecordViewsTest.testGetExtension: the value view adds nothing, the key view ".keys", the
    # header view ".headers", before the format's extension (Utils.getAdjustedFilename).
    assert AvroFormat().extension == ".avro"
    assert ViewFormat(AvroFormat(), "keys", "avro").extension == ".keys.avro"
    assert ViewFormat(AvroFormat(), "headers", "avro").extension == ".headers.avro"
    assert ViewFormat(JsonFormat("gzip"), "keys", "json").extension == ".keys.json.gz"


def test_record_views_record_key_value_views() -> None:
    # RecordViewsTest.testRecordKeyValueViews: the key view (not enveloped) is the record's key
    # with its key schema; the value view is the record itself.
    record = _sample_sink_record()
    view = key_view(record, False)
    assert (view.value, view.value_schema) == (record.key, record.key_schema)
    out = io.BytesIO()
    ViewFormat(JsonFormat(), "keys", "json").write([record], out)
    assert (
        out.getvalue()
        == b'{"recordKeyID":0,"keyString":"theStringVal","keyBytes":"dGhlQnl0ZXM="}\n'
    )
    out = io.BytesIO()
    JsonFormat().write([record], out)
    assert out.getvalue() == (
        b'{"ID":0,"myString":"theStringVal","myBool":true,"myBytes":"dGhlQnl0ZXM=",'
        b'"myDate":0,"myTime":33333333}\n'
    )


def test_record_views_header_converts_to_string(tmp_path: Path) -> None:
    # RecordViewsTest.testHeaderConvertsToString: ConnectHeaders addString("string", "string"),
    # addInt("int", 12), addBoolean("boolean", false), as Kafka holds them (SimpleHeaderConverter's
    # bytes), through the header converter: each value converted to a string.
    config = _config(
        tmp_path, AVRO, **{"store.kafka.headers": "true", "value.converter.schemas.enable": "false"}
    )
    headers = (("string", b"string"), ("int", b"12"), ("boolean", b"false"))
    raw = RawRecord("topic", 0, 0, 0, None, b'{"a":1}', headers)
    record = build_record_converter(config)(raw)
    assert record is not None
    assert headers_view(record, False).value == [
        {"key": "string", "value": "string"},
        {"key": "int", "value": "12"},
        {"key": "boolean", "value": "false"},
    ]


# ---------------------------------------------------------------------------------------------
# S3SinkDataFormatIT (Schema Registry converters into AvroFormat; an in-memory registry here)

_SAMPLE = {  # BaseConnectorIT.getSampleStructVal
    "ID": 1,
    "myBool": True,
    "myInt32": 32,
    "myFloat32": 3.2,
    "myFloat64": 64.64,
    "myString": "theStringVal",
}
_SAMPLE_AVRO = {  # AvroData.fromConnectSchema(getSampleStructSchema()), as AvroConverter registers
    "type": "record",
    "name": "ConnectDefault",
    "namespace": "io.confluent.connect.avro",
    "fields": [
        {"name": "ID", "type": "long"},
        {"name": "myBool", "type": "boolean"},
        {"name": "myInt32", "type": "int"},
        {"name": "myFloat32", "type": "float"},
        {"name": "myFloat64", "type": "double"},
        {"name": "myString", "type": "string"},
    ],
}
_SAMPLE_JSON_SCHEMA = {  # JsonSchemaData.fromConnectSchema, as JsonSchemaConverter registers
    "type": "object",
    "properties": {
        "ID": {"type": "integer", "connect.index": 0, "connect.type": "int64"},
        "myBool": {"type": "boolean", "connect.index": 1},
        "myInt32": {"type": "integer", "connect.index": 2, "connect.type": "int32"},
        "myFloat32": {"type": "number", "connect.index": 3, "connect.type": "float32"},
        "myFloat64": {"type": "number", "connect.index": 4, "connect.type": "float64"},
        "myString": {"type": "string", "connect.index": 5},
    },
    "required": ["ID", "myBool", "myInt32", "myFloat32", "myFloat64", "myString"],
}
_SAMPLE_PROTO = """
syntax = "proto3";
message ConnectDefault1 {
  int64 ID = 1;
  bool myBool = 2;
  int32 myInt32 = 3;
  float myFloat32 = 4;
  double myFloat64 = 5;
  string myString = 6;
}
"""


def _register(client: Any, text: str, kind: str, topics: list[str]) -> None:
    for topic in topics:
        client.add(1, text, kind, f"{topic}-value", 1)


def _sample_value_bytes(converter: str, client: Any, topics: list[str]) -> bytes:
    """What ``converter.fromConnectData`` of the sample struct gives (its schema registered
    as id 1, version 1 of each topic's value subject, in ``client``)."""
    from google.protobuf import message_factory

    from s3connect.convert.registry.proto_parser import parse_proto
    from s3connect.convert.registry.protobuf import _add_file, _message_at, _well_known_pool
    from tests.unit.convert.registry.test_converters import framed

    if converter == "AvroConverter":
        _register(client, json.dumps(_SAMPLE_AVRO), "AVRO", topics)
        datum = io.BytesIO()
        fastavro.schemaless_writer(datum, fastavro.parse_schema(_SAMPLE_AVRO), _SAMPLE)
        return framed(1, datum.getvalue())
    if converter == "JsonSchemaConverter":
        _register(client, json.dumps(_SAMPLE_JSON_SCHEMA), "JSON", topics)
        return framed(1, json.dumps(_SAMPLE, separators=(",", ":")).encode())
    proto = parse_proto(_SAMPLE_PROTO)
    proto.name = "sample.proto"
    pool = _well_known_pool()
    _add_file(pool, proto)
    message = message_factory.GetMessageClass(_message_at(pool, proto, [0]))(**_SAMPLE)
    _register(client, base64.b64encode(proto.SerializeToString()).decode(), "PROTOBUF", topics)
    return framed(1, b"\x00" + message.SerializeToString())


@pytest.mark.parametrize("converter", ["JsonSchemaConverter", "ProtobufConverter", "AvroConverter"])
def test_s3_sink_data_format_basic_records_written_avro(tmp_path: Path, converter: str) -> None:
    # S3SinkDataFormatIT.testBasicRecordsWrittenAvro: 30 records of the sample struct through
    # each Schema Registry converter, flush.size 3, into AvroFormat: ten files of three rows,
    # each row the sample's values; a topic named with ".avro" inside gets its own files too.
    from s3connect.convert.factory import make_converter
    from tests.unit.convert.registry.test_converters import FakeClient, registry

    client = FakeClient()
    topics = [f"TestTopic{converter}", "other.avro.topic.avro"]
    data = _sample_value_bytes(converter, client, topics)
    name = {"JsonSchemaConverter": "jsonschema", "ProtobufConverter": "protobuf"}
    value_converter = make_converter(name.get(converter, "avro"), registry=registry(client))
    config = SinkConfig.from_mapping(
        {
            "topics": ",".join(topics),
            "kafka.bootstrap.servers": "127.0.0.1:9092",
            "checkpoint.location": str(tmp_path / "ck"),
            "s3.bucket.name": "b",
            "store.url": f"file://{_out(tmp_path)}",
            "format.class": AVRO,
            "flush.size": "3",
        }
    )

    def convert(raw: RawRecord) -> SinkRecord:
        value, schema = value_converter.to_connect(raw.topic, raw.value)
        return SinkRecord(raw.topic, raw.partition, raw.offset, None, None, value, None, schema)

    ctx = dataclasses.replace(build_writer_context(config), convert=convert)
    for topic in topics:
        raws = [RawRecord(topic, 0, o, None, str(o).encode(), data) for o in range(30)]
        assert len(TopicPartitionWriter(ctx, topic, 0).write(raws, NOW)) == 10
    keys = sorted(
        f"topics/{t}/partition=0/{t}+0+{o:010d}.avro" for t in topics for o in range(0, 30, 3)
    )
    root = _out(tmp_path)
    found = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    assert found == keys
    for key in keys:
        assert _avro_rows(_out(tmp_path), key) == [{**_SAMPLE, "myFloat32": _f32(3.2)}] * 3
