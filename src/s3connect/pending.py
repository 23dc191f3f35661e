"""Records of still-open files as bytes, for Spark's checkpointed streaming state.

One encoded chunk holds many records (an Arrow IPC stream), so the state store sees one list
entry per micro-batch slice rather than one per record.
"""

from __future__ import annotations

import pyarrow as pa

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


def encode_pending(records: list[PendingRecord]) -> bytes:
    """Serialize records (of one topic-partition) into one chunk."""
    table = pa.table(
        {
            "offset": [p.raw.offset for p in records],
            "timestamp": [p.raw.timestamp for p in records],
            "key": [p.raw.key for p in records],
            "value": [p.raw.value for p in records],
            "headers": [[{"key": k, "value": v} for k, v in p.raw.headers] for p in records],
            "encoded_partition": [p.encoded_partition for p in records],
        },
        schema=_SCHEMA,
    )
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, _SCHEMA) as stream:
        stream.write_table(table)
    return bytes(sink.getvalue().to_pybytes())


def decode_pending(topic: str, partition: int, chunk: bytes) -> list[PendingRecord]:
    """The records of one chunk written by :func:`encode_pending`."""
    table = pa.ipc.open_stream(chunk).read_all()
    return [
        PendingRecord(
            RawRecord(
                topic=topic,
                partition=partition,
                offset=row["offset"],
                timestamp=row["timestamp"],
                key=row["key"],
                value=row["value"],
                headers=tuple((h["key"], h["value"]) for h in row["headers"]),
            ),
            row["encoded_partition"],
        )
        for row in table.to_pylist()
    ]
