"""The shuffle-free sink task: each Kafka topic-partition of a micro-batch written by the Spark
task that reads it (``mapInArrow`` over the Kafka rows), its open files carried over between
micro-batches in offset-keyed state files (:mod:`s3connect.sink.partition_state`). Pure Python and
pyarrow: Spark only calls it."""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from s3connect.config.sink import SinkConfig
from s3connect.sink.context import build_writer_context
from s3connect.sink.lines import LinePlan
from s3connect.sink.output import output_batch
from s3connect.sink.partition_state import PartitionStateStore
from s3connect.sink.pending import decode_pending, open_chunks
from s3connect.sink.rows import batch_records
from s3connect.sink.writer import CommittedObject, TopicPartitionWriter, WriterContext

__all__ = ["PartitionTask", "gc_paused"]


class PartitionTask:
    """Writes, in the Spark task that reads them, the records of each topic-partition of one
    micro-batch (``DataFrame.mapInArrow`` over the Kafka rows: no shuffle). The rotator state
    and open records carry over between micro-batches in :class:`PartitionStateStore` files in
    the checkpoint, keyed by offset."""

    def __init__(
        self, config: SinkConfig, state_root: str, now_ms: int, *, line_path: bool = True
    ) -> None:
        self._config = config
        self._state_root = state_root
        self._now_ms = now_ms
        self._line_path = line_path
        """Whether runs of records may take the line path (:mod:`s3connect.sink.lines`)."""

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        ctx = build_writer_context(self._config)
        if not self._line_path:
            ctx = dataclasses.replace(ctx, lines=None)
        store = PartitionStateStore(Path(self._state_root))
        done: set[tuple[str, int]] = set()
        current: _OpenPartition | None = None
        with gc_paused():
            for batch in batches:
                for (topic, partition), rows in _partition_runs(batch):
                    if current is None or (topic, partition) != current.key:
                        if current is not None:
                            yield current.finish(store, self._now_ms)
                        if (topic, partition) in done:
                            raise RuntimeError(
                                f"{topic}-{partition}: records of one topic-partition reached a "
                                "task out of order"
                            )
                        done.add((topic, partition))
                        current = _OpenPartition.start(ctx, store, topic, partition, rows)
                    current.write(rows, ctx.lines, self._now_ms)
            if current is not None:
                yield current.finish(store, self._now_ms)


@dataclass
class _OpenPartition:
    key: tuple[str, int]
    writer: TopicPartitionWriter
    loaded: int | None
    saved_chunks: list[bytes]
    last_offset: int = -1
    committed: list[CommittedObject] = field(default_factory=list)

    @classmethod
    def start(
        cls,
        ctx: WriterContext,
        store: PartitionStateStore,
        topic: str,
        partition: int,
        rows: pa.RecordBatch,
    ) -> _OpenPartition:
        saved = store.load(topic, partition, rows.column("offset")[0].as_py())
        chunks = saved.chunks if saved else []

        def load() -> list[Any]:
            return [p for chunk in chunks for p in decode_pending(topic, partition, chunk)]

        writer = TopicPartitionWriter(ctx, topic, partition, saved.rotator if saved else None, load)
        return cls((topic, partition), writer, saved.next_offset if saved else None, chunks)

    def write(self, rows: pa.RecordBatch, plan: LinePlan | None, now_ms: int) -> None:
        batch = None if plan is None else plan.lines(rows, *self.key, now_ms)
        for start, end, valid in _stretches(None if batch is None else batch.lines, rows.num_rows):
            part = rows.slice(start, end - start)
            if valid and plan is not None and batch is not None:
                stretch = batch.slice(start, end)
                self.committed += self.writer.write_run(part, stretch, plan, now_ms)
            else:
                self.committed += self.writer.write(batch_records(*self.key, part), now_ms)
        self.last_offset = rows.column("offset")[-1].as_py()

    def finish(self, store: PartitionStateStore, now_ms: int) -> pa.RecordBatch:
        writer = self.writer
        self.committed += writer.on_timer(now_ms)
        if writer.failure is None:  # else the batch fails once the failure is reported
            saved = open_chunks(writer)
            chunks = saved.chunks if saved.replace else self.saved_chunks + saved.chunks
            store.save(*self.key, self.last_offset + 1, saved.rotator, chunks, loaded=self.loaded)
        return output_batch(self.committed, writer.dead_letters, writer.failure)


def _stretches(lines: pa.Array | None, n: int) -> list[tuple[int, int, bool]]:
    """(start, end, has lines) of the stretches of a batch with lines and without (None: none)."""
    if lines is None or lines.null_count == n:
        return [(0, n, False)]
    if lines.null_count == 0:
        return [(0, n, True)]
    valid = lines.is_valid().to_numpy(zero_copy_only=False)
    edges = [0, *(np.flatnonzero(valid[1:] != valid[:-1]) + 1).tolist(), n]
    return [(a, b, bool(valid[a])) for a, b in itertools.pairwise(edges)]


def _partition_runs(batch: pa.RecordBatch) -> Iterator[tuple[tuple[str, int], pa.RecordBatch]]:
    """Slices of ``batch`` holding one topic-partition each, in order (one slice, as a rule:
    a Spark Kafka task reads one topic-partition)."""
    if batch.num_rows == 0:
        return
    topics = batch.column("topic")
    partitions = batch.column("partition")
    if len(pc.unique(topics)) == 1 and len(pc.unique(partitions)) == 1:
        yield (topics[0].as_py(), partitions[0].as_py()), batch
        return
    keys = list(zip(topics.to_pylist(), partitions.to_pylist(), strict=True))
    start = 0
    for i in range(1, len(keys) + 1):
        if i == len(keys) or keys[i] != keys[start]:
            yield keys[start], batch.slice(start, i - start)
            start = i


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a batch is handled: its records (acyclic, freed by
    reference counting) would otherwise trigger full collections over every live object."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
