"""The S3 source's offsets: how far each source topic-partition has been published.

An offset is JSON, one entry per source topic-partition::

    {"orders/0": {"key": "topics/orders/partition=0/orders+0+0000000006.json",
                  "offset": 6, "index": -1}}

meaning: every record of the objects ordered before ``key`` is published, and of ``key`` itself
the first ``index`` records (``-1``: all of them). Objects of one topic-partition are ordered by
(start offset, key): for the DefaultPartitioner that is key order and the original offset order.
Spark's checkpoint stores these offsets, so a restart resumes down to a record inside an object.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from s3connect.source.reader import SourceObject

__all__ = [
    "ALL",
    "ObjectSlice",
    "Offsets",
    "Position",
    "latest_offsets",
    "offsets_from_json",
    "offsets_to_json",
    "pending",
    "plan_slices",
    "tp_id",
    "tp_of",
]

ALL = -1
"""``index`` of a position whose object is completely published."""


@dataclass(frozen=True, slots=True, order=True)
class Position:
    """A point in one topic-partition's object sequence (see the module docstring)."""

    offset: int
    key: str
    index: int = ALL

    @property
    def order(self) -> tuple[int, str]:
        """The position's object in the (start offset, key) order."""
        return (self.offset, self.key)


Offsets = dict[str, Position]
"""``"<topic>/<partition>"`` -> position."""


def tp_id(topic: str, partition: int) -> str:
    """The offset entry name of a topic-partition (topics cannot contain ``/``)."""
    return f"{topic}/{partition}"


def tp_of(entry: str) -> tuple[str, int]:
    """(topic, partition) of an offset entry name."""
    topic, _, partition = entry.rpartition("/")
    return topic, int(partition)


def offsets_to_json(offsets: Offsets) -> dict[str, Any]:
    """The JSON-able form Spark checkpoints."""
    return {
        tp: {"key": p.key, "offset": p.offset, "index": p.index}
        for tp, p in sorted(offsets.items())
    }


def offsets_from_json(doc: Mapping[str, Any] | None) -> Offsets:
    """Parse :func:`offsets_to_json` output (None or ``{}``: nothing read yet)."""
    return {
        tp: Position(int(v["offset"]), str(v["key"]), int(v["index"]))
        for tp, v in (doc or {}).items()
    }


def _after(obj: SourceObject, start: Position | None) -> bool:
    """Whether ``obj`` still has records to publish after ``start``."""
    if start is None:
        return True
    order = obj.order
    return order > start.order or (order == start.order and start.index != ALL)


def pending(objects: Sequence[SourceObject], start: Position | None) -> list[SourceObject]:
    """The objects (in order) that still have records to publish after ``start``."""
    return [o for o in objects if _after(o, start)]


def latest_offsets(
    objects: Mapping[tuple[str, int], Sequence[SourceObject]],
    start: Offsets,
    max_objects: int | None = None,
) -> Offsets:
    """The end offsets of the next batch: everything listed, or at most ``max_objects`` objects
    shared round-robin over the topic-partitions."""
    left = {tp_id(*tp): pending(objs, start.get(tp_id(*tp))) for tp, objs in objects.items()}
    end = dict(start)
    if max_objects is None:
        for tp, objs in left.items():
            if objs:
                end[tp] = Position(objs[-1].start_offset, objs[-1].key)
        return end
    taken = dict.fromkeys(left, 0)
    budget = max_objects
    while budget > 0 and any(taken[tp] < len(objs) for tp, objs in left.items()):
        for tp, objs in sorted(left.items()):
            if budget > 0 and taken[tp] < len(objs):
                taken[tp] += 1
                budget -= 1
    for tp, count in taken.items():
        if count:
            last = left[tp][count - 1]
            end[tp] = Position(last.start_offset, last.key)
    return end


@dataclass(frozen=True, slots=True)
class ObjectSlice:
    """Records ``skip`` up to ``stop`` (None: to the end) of one object, to publish.

    ``bound`` is the most records the object can hold (from the next object's start offset under
    the DefaultPartitioner, or ``flush.size``), None when unknown.
    """

    obj: SourceObject
    skip: int = 0
    stop: int | None = None
    bound: int | None = None


def plan_slices(
    objects: Sequence[SourceObject],
    start: Position | None,
    end: Position,
    *,
    contiguous: bool = False,
    flush_size: int | None = None,
) -> list[ObjectSlice]:
    """The slices of one topic-partition's ordered ``objects`` in (``start``, ``end``].

    Args:
        objects: the topic-partition's objects in (start offset, key) order.
        start: where the previous batch ended (None: the beginning).
        end: where this batch ends.
        contiguous: offsets run on from one object to the next (DefaultPartitioner), so the next
            object's start offset bounds this object's record count.
        flush_size: ``flush.size`` when known: no object holds more records.
    """
    slices: list[ObjectSlice] = []
    # Tombstone files (their own encoded partition) interleave offsets with the value files.
    contiguous = contiguous and not any(o.tombstones for o in objects)
    for i, obj in enumerate(objects):
        if not _after(obj, start):
            continue
        if obj.order > end.order:
            break
        skip = start.index if start is not None and obj.order == start.order else 0
        stop = end.index if obj.order == end.order and end.index != ALL else None
        bounds = [flush_size] if flush_size else []
        if contiguous and i + 1 < len(objects):
            bounds.append(objects[i + 1].start_offset - obj.start_offset)
        slices.append(ObjectSlice(obj, skip, stop, min(bounds) if bounds else None))
    return slices
