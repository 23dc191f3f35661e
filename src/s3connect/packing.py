"""Kafka rows packed into Arrow chunks before the shuffle into the stateful processor.

Spark's ``transformWithStateInPandas`` turns its input into pandas row by row (``itertuples``,
then a ``DataFrame`` rebuilt from the tuples): several microseconds per Kafka record before the
sink sees it. So the sink packs, in a ``mapInArrow`` step right after the Kafka source, each
Arrow batch of raw Kafka rows into one row per topic-partition: ``(topic, partition,
first_offset, record_count, chunk)``, ``chunk`` being the records' columns as an Arrow IPC
stream. The processor then gets a few rows per micro-batch and reads the records straight from
Arrow. The records, their order (sorted by offset, as before) and so the files are the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["PACKED_SCHEMA", "RECORD_COLUMNS", "pack_batches", "unpack_chunks"]

RECORD_COLUMNS = ("offset", "timestamp", "key", "value", "headers")
PACKED_SCHEMA = "topic STRING, partition INT, first_offset LONG, record_count LONG, chunk BINARY"
_OUT = pa.schema(
    [
        ("topic", pa.string()),
        ("partition", pa.int32()),
        ("first_offset", pa.int64()),
        ("record_count", pa.int64()),
        ("chunk", pa.binary()),
    ]
)


def _chunk(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as stream:
        stream.write_table(table)
    return sink.getvalue().to_pybytes()  # type: ignore[no-any-return]


def _groups(batch: pa.RecordBatch) -> Iterator[tuple[str, int, pa.Table]]:
    table = pa.Table.from_batches([batch])
    records = table.select(list(RECORD_COLUMNS))
    topics, partitions = table.column("topic"), table.column("partition")
    # A Kafka source partition reads one topic-partition: one group, normally.
    first_topic, first_partition = topics[0].as_py(), partitions[0].as_py()
    if (
        pc.all(pc.equal(topics, first_topic)).as_py()
        and pc.all(pc.equal(partitions, first_partition)).as_py()
        and topics.null_count == 0
    ):
        yield first_topic, first_partition, records
        return
    keys = table.select(["topic", "partition"]).group_by(["topic", "partition"]).aggregate([])
    for topic, partition in zip(
        keys.column("topic").to_pylist(), keys.column("partition").to_pylist(), strict=True
    ):
        mask = pc.and_(pc.equal(topics, topic), pc.equal(partitions, partition))
        yield topic, partition, records.filter(mask)


def pack_batches(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """``mapInArrow`` function: raw Kafka rows -> one packed row per topic-partition per batch."""
    for batch in batches:
        if batch.num_rows == 0:
            continue
        out: dict[str, list[Any]] = {name: [] for name in _OUT.names}
        for topic, partition, records in _groups(batch):
            offsets = records.column("offset")
            out["topic"].append(topic)
            out["partition"].append(partition)
            out["first_offset"].append(pc.min(offsets).as_py())
            out["record_count"].append(records.num_rows)
            out["chunk"].append(_chunk(records))
        yield pa.RecordBatch.from_pydict(out, schema=_OUT)


def unpack_chunks(chunks: Iterable[Any]) -> pa.Table:
    """The records of packed chunks (of one topic-partition) as one table sorted by offset."""
    tables = [pa.ipc.open_stream(pa.py_buffer(chunk)).read_all() for chunk in chunks]
    if not tables:
        raise ValueError("no chunks")
    # Chunks hold consecutive offsets: in order of their first offset they are usually sorted
    # already, and sorting (a copy of every value) is then skipped.
    tables.sort(key=lambda t: t.column("offset")[0].as_py() if t.num_rows else -1)
    table = pa.concat_tables(tables) if len(tables) > 1 else tables[0]
    offsets = table.column("offset")
    n = len(offsets)
    if n > 1 and not pc.all(pc.greater(offsets.slice(1), offsets.slice(0, n - 1))).as_py():
        table = table.sort_by([("offset", "ascending")])
    return table
