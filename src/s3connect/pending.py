"""Records of still-open files as bytes, for Spark's checkpointed streaming state.

One encoded chunk holds many records (an Arrow IPC stream, LZ4-compressed buffers), so the state
store sees one list entry per micro-batch slice rather than one per record.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from s3connect.writer import PendingRecord, RawRecord

__all__ = ["decode_pending", "encode_pending"]

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


def encode_pending(records: list[PendingRecord]) -> bytes:
    """Serialize records (of one topic-partition) into one chunk."""
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


def decode_pending(topic: str, partition: int, chunk: bytes) -> list[PendingRecord]:
    """The records of one chunk written by :func:`encode_pending`."""
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
