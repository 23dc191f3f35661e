"""Records of still-open files as bytes, for Spark's checkpointed streaming state.

One encoded chunk holds many records (an Arrow IPC stream, LZ4-compressed buffers), so the state
store sees one list entry per micro-batch slice rather than one per record.

A chunk also carries the records' converted form (pickled, LZ4), so a record need not be
converted again when its file is written in a later micro-batch: conversion is most of a record's
cost. It is a cache: a chunk whose converted form cannot be read (another package version, say)
gives the raw records alone, and the writer converts them again.
"""

from __future__ import annotations

import io
import itertools
import pickle
import struct
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from s3connect.connect.records import RawRecord, SinkRecord
from s3connect.sink.lines import LineRun
from s3connect.sink.rotation import RotatorState
from s3connect.sink.writer import Entry, PendingRecord, TopicPartitionWriter

__all__ = ["OpenChunks", "decode_pending", "encode_entries", "encode_pending", "open_chunks"]

_SCHEMA = pa.schema(
    [
        ("offset", pa.int64()),
        ("timestamp", pa.int64()),
        ("key", pa.binary()),
        ("value", pa.binary()),
        ("headers", pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))),
        ("encoded_partition", pa.string()),
    ]
)


# LZ4-compressed buffers: the chunk crosses to the JVM, into RocksDB and the checkpoint on every
# batch that leaves files open. Readers decompress transparently (uncompressed chunks of
# earlier versions read as before).
_WRITE_OPTIONS = pa.ipc.IpcWriteOptions(compression="lz4")


# A chunk with the converted records: _CACHED, the sizes of the Arrow stream, of the pickle and of
# its compressed form, then the Arrow stream and the compressed pickle. A plain Arrow stream (no
# converted records, or written by an earlier version) starts with 0xFFFFFFFF instead.
_CACHED = b"S3CPEND1"
_SIZES = struct.Struct("<QQQ")


def encode_pending(records: list[PendingRecord]) -> bytes:
    """Serialize records (of one topic-partition) into one chunk."""
    arrow = _encode_raw(records)
    converted = [p.converted for p in records]
    if any(c is None for c in converted):
        return arrow
    # Plain tuples pickle fast; the rest of a record is its raw one's. One pickle for the chunk:
    # records sharing a schema object share it after loading too.
    pickled = pickle.dumps(
        [_converted_fields(c, p.raw) for c, p in zip(converted, records, strict=True) if c],
        protocol=pickle.HIGHEST_PROTOCOL,
    )
    packed = pa.compress(pickled, codec="lz4", asbytes=True)
    return b"".join((_CACHED, _SIZES.pack(len(arrow), len(pickled), len(packed)), arrow, packed))


def _converted_fields(c: SinkRecord, raw: RawRecord) -> tuple[Any, ...]:
    """Key, value and their schemas; and topic, timestamp and headers when a transform changed
    them (else they are the raw record's)."""
    fields = (c.key, c.value, c.key_schema, c.value_schema)
    if c.topic == raw.topic and c.timestamp == raw.timestamp and c.headers == raw.headers:
        return fields
    return (*fields, c.topic, c.timestamp, c.headers)


@dataclass(frozen=True, slots=True)
class OpenChunks:
    """What to save of a writer after a micro-batch: its rotator state and its open records as
    chunks, either replacing the saved chunks or following them (``replace`` False)."""

    rotator: RotatorState
    chunks: list[bytes]
    replace: bool


def open_chunks(writer: TopicPartitionWriter) -> OpenChunks:
    """The state to save after ``writer`` handled a micro-batch. When it committed nothing, the
    saved chunks stay as they are (not decoded, not encoded again) and only the micro-batch's
    still-open records are added; otherwise every open record is saved anew."""
    if writer.flushed:
        state, pending = writer.snapshot()
        return OpenChunks(state, encode_entries(pending), replace=True)
    return OpenChunks(writer.rotator.state, encode_entries(writer.new_pending()), replace=False)


def encode_entries(entries: list[Entry]) -> list[bytes]:
    """Chunks of open-file entries (in offset order): one of the single records (of any files),
    and per file one of each stretch of its line runs with none of its single records between
    them (the writer puts each file's entries back in offset order)."""
    singles = [e for e in entries if not isinstance(e, LineRun)]
    chunks = [encode_pending(singles)] if singles else []
    by_file: dict[str, list[Entry]] = {}
    for e in entries:
        by_file.setdefault(e.encoded_partition, []).append(e)
    for file_entries in by_file.values():
        for plan, stretch in itertools.groupby(file_entries, key=_run_plan):
            if plan is not None:
                chunks.append(_encode_runs(list(stretch)))  # type: ignore[arg-type]
    return chunks


def _run_plan(entry: Entry) -> str | None:
    return entry.plan if isinstance(entry, LineRun) else None


# A chunk of line runs: _RUNS, then an Arrow stream of the Kafka columns and the lines, the
# encoded partition and the plan in its schema's metadata.
_RUNS = b"S3CLINE1"
_RUN_COLUMNS = ("offset", "timestamp", "key", "value", "headers")


def _encode_runs(runs: list[LineRun]) -> bytes:
    first = runs[0]
    table = pa.Table.from_batches(
        [
            pa.RecordBatch.from_arrays(
                [*(r.columns.column(c) for c in _RUN_COLUMNS), r.lines], [*_RUN_COLUMNS, "line"]
            )
            for r in runs
        ]
    ).replace_schema_metadata({"encoded_partition": first.encoded_partition, "plan": first.plan})
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema, options=_WRITE_OPTIONS) as stream:
        stream.write_table(table)
    return _RUNS + bytes(sink.getvalue().to_pybytes())


def _decode_runs(chunk: bytes) -> list[Entry]:
    table = pa.ipc.open_stream(chunk[len(_RUNS) :]).read_all().combine_chunks()
    meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
    batch = table.to_batches()[0] if table.num_rows else None
    if batch is None:
        return []
    columns = pa.RecordBatch.from_arrays(
        [batch.column(c) for c in _RUN_COLUMNS], list(_RUN_COLUMNS)
    )
    return [LineRun(meta["encoded_partition"], columns, batch.column("line"), meta["plan"])]


def _encode_raw(records: list[PendingRecord]) -> bytes:
    raws = [p.raw for p in records]
    table = pa.table(
        {
            "offset": [r.offset for r in raws],
            "timestamp": [r.timestamp for r in raws],
            "key": [r.key for r in raws],
            "value": [r.value for r in raws],
            "headers": [
                [{"key": k, "value": v} for k, v in r.headers] if r.headers else [] for r in raws
            ],
            "encoded_partition": [p.encoded_partition for p in records],
        },
        schema=_SCHEMA,
    )
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, _SCHEMA, options=_WRITE_OPTIONS) as stream:
        stream.write_table(table)
    return bytes(sink.getvalue().to_pybytes())


def decode_pending(topic: str, partition: int, chunk: bytes) -> list[Entry]:
    """The records of one chunk written by :func:`encode_pending` or :func:`encode_entries`."""
    if chunk.startswith(_RUNS):
        return _decode_runs(chunk)
    entries: list[Entry] = []
    entries += _decode_records(topic, partition, chunk)
    return entries


def _decode_records(topic: str, partition: int, chunk: bytes) -> list[PendingRecord]:
    if not chunk.startswith(_CACHED):
        return _decode_raw(topic, partition, chunk)
    at = len(_CACHED) + _SIZES.size
    arrow_size, pickled_size, packed_size = _SIZES.unpack(chunk[len(_CACHED) : at])
    records = _decode_raw(topic, partition, chunk[at : at + arrow_size])
    packed = chunk[at + arrow_size : at + arrow_size + packed_size]
    try:
        pickled = pa.decompress(packed, pickled_size, codec="lz4", asbytes=True)
        converted = _ConvertedUnpickler(io.BytesIO(pickled)).load()
    except Exception:  # a cache: the records are converted again instead
        return records
    if isinstance(converted, list) and len(converted) == len(records):
        for record, fields in zip(records, converted, strict=True):
            raw = record.raw
            key, value, key_schema, value_schema = fields[:4]
            topic, timestamp, headers = fields[4:] or (raw.topic, raw.timestamp, raw.headers)
            record.converted = SinkRecord(
                topic, raw.partition, raw.offset, timestamp, key, value,
                key_schema, value_schema, headers,
            )  # fmt: skip
    return records


# What a converted record holds besides builtins (see s3connect.connect.schema for the value model).
_SAFE_CLASSES = {
    ("decimal", "Decimal"),
    ("datetime", "date"),
    ("datetime", "datetime"),
    ("datetime", "time"),
    ("datetime", "timedelta"),
    ("datetime", "timezone"),
    ("s3connect.util.jackson", "Float32"),  # a Java float (Cast to float32)
}


class _ConvertedUnpickler(pickle.Unpickler):
    """Loads converted records only: Connect schemas and values, nothing else, so a checkpoint
    that someone else could write to cannot make the sink run code."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "s3connect.schema":  # where the schema model lived before the layer packages
            module = "s3connect.connect.schema"
        if module == "s3connect.connect.schema" or (module, name) in _SAFE_CLASSES:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a converted record")


def _decode_raw(topic: str, partition: int, chunk: bytes) -> list[PendingRecord]:
    table = pa.ipc.open_stream(chunk).read_all()
    headers = table.column("headers")
    any_headers = bool(pc.sum(pc.list_value_length(headers)).as_py())
    # Column by column (to_pylist of whole rows builds a dict per record).
    return [
        PendingRecord(
            RawRecord(topic, partition, offset, ts, key, value, tuple(_pairs(h)) if h else ()),
            encoded,
        )
        for offset, ts, key, value, h, encoded in zip(
            table.column("offset").to_pylist(),
            table.column("timestamp").to_pylist(),
            table.column("key").to_pylist(),
            table.column("value").to_pylist(),
            headers.to_pylist() if any_headers else _empty(len(headers)),
            table.column("encoded_partition").to_pylist(),
            strict=True,
        )
    ]


def _pairs(headers: list[dict[str, Any]]) -> list[tuple[str, bytes | None]]:
    return [(h["key"], h["value"]) for h in headers]


def _empty(n: int) -> list[None]:
    return [None] * n
