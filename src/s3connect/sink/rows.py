"""The Kafka rows as a sink task receives them (Arrow columns of the processor's input) turned
into :class:`~s3connect.connect.records.RawRecord` objects."""

from __future__ import annotations

import base64
import itertools
import json
from collections.abc import Iterator

import pyarrow as pa

from s3connect.connect.records import RawRecord

__all__ = ["batch_records", "binaries", "raw_records"]


def binaries(column: pa.Array) -> list[bytes | None]:
    """A binary column as bytes (None for nulls): by way of NumPy, half the cost of to_pylist."""
    if column.null_count == len(column):
        return [None] * len(column)
    return column.to_numpy(zero_copy_only=False).tolist()  # type: ignore[no-any-return]


def batch_records(topic: str, partition: int, rows: pa.RecordBatch) -> Iterator[RawRecord]:
    """The records of ``rows`` (``offset``, ``timestamp``, ``key``, ``value``, ``headers`` as
    Spark's ``to_json`` of the Kafka source's headers)."""
    headers = rows.column("headers")
    return raw_records(
        topic,
        partition,
        rows.column("offset").to_pylist(),
        rows.column("timestamp").to_pylist(),
        binaries(rows.column("key")),
        binaries(rows.column("value")),
        None if headers.null_count == len(headers) else headers.to_pylist(),
    )


def raw_records(
    topic: str,
    partition: int,
    offsets: list[int],
    timestamps: list[int | None],
    keys: list[bytes | None],
    values: list[bytes | None],
    headers: list[str | None] | None,
) -> Iterator[RawRecord]:
    for offset, ts, k, v, h in zip(
        offsets,
        timestamps,
        keys,
        values,
        itertools.repeat(None) if headers is None else headers,
        strict=False,
    ):
        yield RawRecord(topic, partition, offset, ts, k, v, () if h is None else _json_headers(h))


def _json_headers(text: str) -> tuple[tuple[str, bytes | None], ...]:
    """Headers from Spark's ``to_json`` of the Kafka source's ``headers`` (binary values in
    base64; a null value written as null or left out)."""
    return tuple(
        (h["key"], None if h.get("value") is None else base64.b64decode(h["value"]))
        for h in json.loads(text)
    )
