"""Rotation keys: ``flush.size``, ``rotate.interval.ms``, ``rotate.schedule.interval.ms``,
``rotate.file.on.partition.change``, ``partitioner.max.open.files`` (and the type check of
``max.write.duration.ms``, a key without effect here)."""

from __future__ import annotations

from dataclasses import dataclass

from s3connect.config.parsing import bool_text
from s3connect.config.partitioner import time_interval_ms
from s3connect.config.reader import INT_MAX, INT_MIN, LONG_MAX, KeyReader

__all__ = ["RotationConfig"]

_CLOUD_FLUSH_SIZE = 1000  # Confluent Cloud's documented default
_INT_MIN = -(2**31)
_LONG_MIN = -(2**63)
_LONG_MS = "Not a number of type LONG"  # Kafka's LONG type
_MAX_OPEN_FILES = (
    "must be -1 (no limit) or an integer >= 1 (0 would make Confluent's writer commit no files "
    "forever, retrying the same record)"
)


@dataclass(frozen=True, kw_only=True)
class RotationConfig:
    """When a topic-partition's open files are committed (Confluent's ``TopicPartitionWriter``)."""

    flush_size: int
    rotate_interval_ms: int = -1
    rotate_schedule_interval_ms: int = -1
    rotate_file_on_partition_change: bool = True
    """``rotate.file.on.partition.change``: with ``rotate.interval.ms`` > 0 and a time-based
    partitioner, a record whose encoded partition differs from the previous record's commits
    every open file first (Confluent's ``TopicPartitionWriter.rotateOnTime``)."""
    partitioner_max_open_files: int = -1
    """``partitioner.max.open.files`` (Confluent's internal key): -1, or N >= 1: a record that
    would open a new encoded partition while N files are open commits them all first."""

    @classmethod
    def read(cls, r: KeyReader, *, cloud: bool) -> RotationConfig:
        """Read the keys; on Confluent Cloud ``flush.size`` defaults to 1000 and
        ``rotate.interval.ms`` to the ``time.interval``."""
        # Confluent's flush.size has no validator: rotateOnSize (recordCount >= flush.size) makes
        # 0 or less a file per record, as 1 does.
        flush = r.integer("flush.size", None, INT_MIN, INT_MAX, "Not a number of type INT")
        flush = None if flush is None else max(1, flush)
        if flush is None and not r.has("flush.size"):
            if cloud:
                flush = _CLOUD_FLUSH_SIZE
            else:
                r.missing("flush.size", "must be an integer > 0")
        interval = time_interval_ms(r.peek("time.interval")) if cloud else None
        if r.has("max.write.duration.ms"):  # without effect (NO_EFFECT_KEYS), but a LONG
            r.integer("max.write.duration.ms", LONG_MAX, _LONG_MIN, LONG_MAX, _LONG_MS)
        return cls(
            flush_size=flush or 1,
            rotate_interval_ms=r.integer(
                "rotate.interval.ms",
                -1 if interval is None else interval,
                _LONG_MIN,
                LONG_MAX,
                _LONG_MS,
            ),
            rotate_schedule_interval_ms=r.integer(
                "rotate.schedule.interval.ms",
                -1,
                _LONG_MIN,
                LONG_MAX,
                _LONG_MS,
            ),
            rotate_file_on_partition_change=r.boolean("rotate.file.on.partition.change", True),
            partitioner_max_open_files=_read_max_open_files(r),
        )

    def describe(self) -> dict[str, str]:
        """The keys under their names."""
        return {
            "flush.size": str(self.flush_size),
            "rotate.interval.ms": str(self.rotate_interval_ms),
            "rotate.schedule.interval.ms": str(self.rotate_schedule_interval_ms),
            "rotate.file.on.partition.change": bool_text(self.rotate_file_on_partition_change),
            "partitioner.max.open.files": str(self.partitioner_max_open_files),
        }


def _read_max_open_files(r: KeyReader) -> int:
    """``partitioner.max.open.files``: Confluent's INT without a validator; here 0 (which loops
    forever there) and values below -1 are refused."""
    value = r.integer("partitioner.max.open.files", -1, _INT_MIN, INT_MAX, _MAX_OPEN_FILES)
    if value == -1 or value >= 1:
        return value
    r.invalid(
        "partitioner.max.open.files", r.raw_text("partitioner.max.open.files"), _MAX_OPEN_FILES
    )
    return -1
