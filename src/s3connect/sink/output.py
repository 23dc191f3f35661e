"""The rows a sink task emits per micro-batch, in one schema: one row per committed object (the
commit log's columns) and one per dead letter, told apart by ``kind``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyarrow as pa

from s3connect.sink.dead_letters import DEAD_LETTER_COLUMNS, DeadLetter, dead_letter_row
from s3connect.sink.writer import CommittedObject

__all__ = [
    "COMMIT_COLUMNS",
    "OUTPUT_ARROW_SCHEMA",
    "OUTPUT_COLUMNS",
    "OUTPUT_SCHEMA",
    "ddl",
    "output_batch",
]

COMMIT_COLUMNS: Mapping[str, str] = {
    "object_key": "STRING",
    "topic": "STRING",
    "partition": "INT",
    "encoded_partition": "STRING",
    "start_offset": "LONG",
    "end_offset": "LONG",
    "record_count": "LONG",
    "bytes": "LONG",
}
"""A committed object's columns (Spark SQL types): the commit log's, but for ``committed_at``."""

OUTPUT_COLUMNS: Mapping[str, str] = {"kind": "STRING", **COMMIT_COLUMNS, **DEAD_LETTER_COLUMNS}
"""A task's output columns: ``kind`` (``object``, ``dead_letter``, or ``failure``: a dead letter
reported before it fails the batch), then both kinds' columns."""


def ddl(columns: Mapping[str, str]) -> str:
    """A Spark DDL schema string of ``columns``."""
    return ", ".join(f"{name} {kind}" for name, kind in columns.items())


OUTPUT_SCHEMA = ddl(OUTPUT_COLUMNS)

_ARROW_TYPES = {
    "STRING": pa.string(),
    "INT": pa.int32(),
    "LONG": pa.int64(),
    "BINARY": pa.binary(),
    "ARRAY<STRING>": pa.list_(pa.string()),
    "ARRAY<BINARY>": pa.list_(pa.binary()),
}
OUTPUT_ARROW_SCHEMA = pa.schema(
    [(name, _ARROW_TYPES[kind]) for name, kind in OUTPUT_COLUMNS.items()]
)


def output_batch(
    objects: list[CommittedObject], letters: list[DeadLetter], failure: DeadLetter | None = None
) -> pa.RecordBatch:
    """The output rows of one topic-partition's micro-batch."""
    rows: list[dict[str, Any]] = [
        {
            "kind": "object",
            "object_key": o.key,
            "topic": o.topic,
            "partition": o.partition,
            "encoded_partition": o.encoded_partition,
            "start_offset": o.start_offset,
            "end_offset": o.end_offset,
            "record_count": o.record_count,
            "bytes": o.bytes,
        }
        for o in objects
    ]
    rows += [{"kind": "dead_letter", **dead_letter_row(d)} for d in letters]
    if failure is not None:
        rows.append({"kind": "failure", **dead_letter_row(failure)})
    return pa.RecordBatch.from_pylist(rows, schema=OUTPUT_ARROW_SCHEMA)
