"""The stateful sink shape: ``groupBy(topic, partition).transformWithStateInPandas``.

Used for timers (``rotate.schedule.interval.ms`` on a continuous trigger: processing-time timers
close the files of idle partitions) and for checkpoints the tasks cannot reach as files. One
processor key is one Kafka topic-partition; the rotator state and the records of still-open
files live in the RocksDB state store, checkpointed with the Kafka offsets. Kept apart from
:mod:`s3connect.spark.sink_query` so that the shuffle-free shape's Python workers never import
pandas.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pandas as pd
from pyspark.sql.streaming.stateful_processor import (
    ExpiredTimerInfo,
    StatefulProcessor,
    StatefulProcessorHandle,
    TimerValues,
)

from s3connect.config.sink import SinkConfig
from s3connect.connect.records import RawRecord
from s3connect.sink.context import build_writer_context
from s3connect.sink.dead_letters import DEAD_LETTER_COLUMNS, DeadLetter, dead_letter_row
from s3connect.sink.output import COMMIT_COLUMNS, OUTPUT_COLUMNS
from s3connect.sink.pending import decode_pending, open_chunks
from s3connect.sink.rotation import RotatorState
from s3connect.sink.rows import raw_records
from s3connect.sink.task import gc_paused
from s3connect.sink.writer import CommittedObject, TopicPartitionWriter, WriterContext

__all__ = ["SinkProcessor"]

_INT_COLUMNS = {
    "partition": "int32",
    "start_offset": "int64",
    "end_offset": "int64",
    "record_count": "int64",
    "bytes": "int64",
}


def _rows(
    objects: list[CommittedObject], letters: list[DeadLetter], failure: DeadLetter | None = None
) -> Iterator[pd.DataFrame]:
    if objects:
        frame = pd.DataFrame(
            [
                (
                    "object",
                    o.key,
                    o.topic,
                    o.partition,
                    o.encoded_partition,
                    o.start_offset,
                    o.end_offset,
                    o.record_count,
                    o.bytes,
                )
                for o in objects
            ],
            columns=["kind", *COMMIT_COLUMNS],
        ).astype(_INT_COLUMNS)
        for name in DEAD_LETTER_COLUMNS:
            frame[name] = pd.Series([None] * len(frame), dtype=object)
        yield frame[list(OUTPUT_COLUMNS)]
    if failure is not None:
        letters = [*letters, failure]
    if letters:
        frame = pd.DataFrame([dead_letter_row(d) for d in letters])
        frame["timestamp"] = pd.Series([d.raw.timestamp for d in letters], dtype=object)
        kinds = ["dead_letter"] * len(letters)
        if failure is not None:
            kinds[-1] = "failure"
        frame.insert(0, "kind", kinds)
        for name in COMMIT_COLUMNS:
            if name not in frame:
                frame[name] = pd.Series([None] * len(frame), dtype=object)
        yield frame.astype({"partition": "int32", "offset": "int64"})[list(OUTPUT_COLUMNS)]


class SinkProcessor(StatefulProcessor):
    """Writes the files of one Kafka topic-partition per grouping key."""

    def __init__(self, config: SinkConfig, *, timers: bool = False) -> None:
        self._config = config
        self._timers = timers

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._handle = handle
        self._rotator = handle.getValueState("rotator", "state STRING")
        self._pending = handle.getListState("pending", "chunk BINARY")
        self._ctx: WriterContext = build_writer_context(self._config)

    def _writer(self, topic: str, partition: int) -> TopicPartitionWriter:
        saved = self._rotator.get() if self._rotator.exists() else None
        state = RotatorState.from_dict(json.loads(saved[0])) if saved else None

        def load() -> list[Any]:
            if not self._pending.exists():
                return []
            out: list[Any] = []
            for (chunk,) in self._pending.get():
                out += decode_pending(topic, partition, bytes(chunk))
            return out

        return TopicPartitionWriter(self._ctx, topic, partition, state, load)

    def _save(self, writer: TopicPartitionWriter, now_ms: int) -> None:
        saved = open_chunks(writer)
        if saved.replace:
            self._pending.clear()
            if saved.chunks:
                self._pending.put([(chunk,) for chunk in saved.chunks])
        else:
            for chunk in saved.chunks:
                self._pending.appendValue((chunk,))
        self._rotator.update((json.dumps(saved.rotator.to_dict()),))
        if not self._timers:
            return
        for old in self._handle.listTimers():
            self._handle.deleteTimer(old)
        due = writer.rotator.next_timer_ms()
        if due is not None:
            self._handle.registerTimer(max(due, now_ms + 1))

    def handleInputRows(
        self, key: Any, rows: Iterator[pd.DataFrame], timerValues: TimerValues
    ) -> Iterator[pd.DataFrame]:
        topic, partition = _topic_partition(key)
        now = timerValues.getCurrentProcessingTimeInMs()
        with gc_paused():
            frame = pd.concat(list(rows), ignore_index=True)
            if not frame["offset"].is_monotonic_increasing:
                frame = frame.sort_values("offset", kind="stable")
            writer = self._writer(topic, partition)
            committed = writer.write(_raw_records(topic, partition, frame), now)
            committed += writer.on_timer(now)
            if writer.failure is None:  # else the batch fails once the failure is reported
                self._save(writer, now)
            letters, failure = writer.dead_letters, writer.failure
            # Free the batch's records now, by reference counting, rather than have the next
            # collection walk them.
            del frame, writer
        yield from _rows(committed, letters, failure)

    def handleExpiredTimer(
        self, key: Any, timerValues: TimerValues, expiredTimerInfo: ExpiredTimerInfo
    ) -> Iterator[pd.DataFrame]:
        topic, partition = _topic_partition(key)
        now = timerValues.getCurrentProcessingTimeInMs()
        writer = self._writer(topic, partition)
        committed = writer.on_timer(now)
        self._save(writer, now)
        yield from _rows(committed, [])

    def close(self) -> None:
        pass


def _topic_partition(key: Any) -> tuple[str, int]:
    """The grouping key ``(topic, partition)`` (PySpark's ``TwsTester`` passes it wrapped in a
    one-element tuple)."""
    if len(key) == 1:
        key = key[0]
    return str(key[0]), int(key[1])


def _raw_records(topic: str, partition: int, frame: pd.DataFrame) -> Iterator[RawRecord]:
    """The records of a frame of Kafka rows (see :func:`processor_input`), in its order."""
    offsets = frame["offset"]
    timestamps = frame["timestamp"]
    headers = frame["headers"]
    return raw_records(
        topic,
        partition,
        offsets.tolist() if offsets.dtype.kind == "i" else [int(o) for o in offsets],
        timestamps.tolist()
        if timestamps.dtype.kind == "i" and not timestamps.hasnans
        else [None if pd.isna(t) else int(t) for t in timestamps],
        frame["key"].tolist(),
        frame["value"].tolist(),
        None if headers.isna().all() else headers.tolist(),
    )
