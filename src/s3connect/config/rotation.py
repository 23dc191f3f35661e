"""Rotation keys: ``flush.size``, ``rotate.interval.ms`` and ``rotate.schedule.interval.ms``."""

from __future__ import annotations

from dataclasses import dataclass

from s3connect.config.partitioner import time_interval_ms
from s3connect.config.reader import INT_MAX, LONG_MAX, KeyReader

__all__ = ["RotationConfig"]

_CLOUD_FLUSH_SIZE = 1000  # Confluent Cloud's documented default


@dataclass(frozen=True, kw_only=True)
class RotationConfig:
    """When a topic-partition's open files are committed (Confluent's ``TopicPartitionWriter``)."""

    flush_size: int
    rotate_interval_ms: int = -1
    rotate_schedule_interval_ms: int = -1
    rotate_file_on_partition_change: bool = True
    """Not a Confluent key: with ``rotate.interval.ms`` > 0 Confluent always rotates when the
    encoded partition changes (``TopicPartitionWriter.rotateOnTime``); kept for the writer."""

    @classmethod
    def read(cls, r: KeyReader, *, cloud: bool) -> RotationConfig:
        """Read the keys; on Confluent Cloud ``flush.size`` defaults to 1000 and
        ``rotate.interval.ms`` to the ``time.interval``."""
        flush = r.integer("flush.size", None, 1, INT_MAX, "must be an integer > 0")
        if flush is None and not r.has("flush.size"):
            if cloud:
                flush = _CLOUD_FLUSH_SIZE
            else:
                r.missing("flush.size", "must be an integer > 0")
        interval = time_interval_ms(r.peek("time.interval")) if cloud else None
        return cls(
            flush_size=flush or 1,
            rotate_interval_ms=r.integer(
                "rotate.interval.ms",
                -1 if interval is None else interval,
                -(2**63),
                LONG_MAX,
                "must be an integer (milliseconds)",
            ),
            rotate_schedule_interval_ms=r.integer(
                "rotate.schedule.interval.ms",
                -1,
                -(2**63),
                LONG_MAX,
                "must be an integer (milliseconds)",
            ),
        )

    def describe(self) -> dict[str, str]:
        """The keys under their names."""
        return {
            "flush.size": str(self.flush_size),
            "rotate.interval.ms": str(self.rotate_interval_ms),
            "rotate.schedule.interval.ms": str(self.rotate_schedule_interval_ms),
        }
