"""Which listed objects the source may read past: those of sink commits that have settled.

A sink commits the files of one topic-partition one object at a time: Confluent's
``TopicPartitionWriter.commitFiles`` completes one upload per encoded partition (in no set
order), each value file before its ``.keys`` and ``.headers`` companions. A listing taken in the
middle of a commit can miss some of its objects: a lower start offset in another folder (which an
offset past it would then skip for good), or the companions of a value file just listed (whose
records would go out without keys or headers).

So an object is read only once the source has seen it for ``listing.settle.ms``, a bound on how
long a commit takes to complete, and so are the objects ordered before it: a settled object's
commit is complete, and every object of that commit or an earlier one is then listed with its
companions. Objects of one topic-partition ordered after its last settled object wait for a later
listing. ``seen`` maps an object key to when (``time.monotonic()``) a listing first showed it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from s3connect.source.offsets import Offsets, Position, pending, tp_id
from s3connect.source.reader import SourceObject

__all__ = ["Objects", "settle_wait", "settled"]

Objects = Mapping[tuple[str, int], Sequence[SourceObject]]
"""Objects per (topic, partition), in (start offset, key) order."""


def _ready(obj: SourceObject, seen: Mapping[str, float], now: float, settle_s: float) -> bool:
    first = seen.get(obj.key)
    return first is not None and now - first >= settle_s


def settled(
    objects: Objects, seen: Mapping[str, float], now: float, settle_s: float
) -> dict[tuple[str, int], list[SourceObject]]:
    """Each topic-partition's objects up to its last settled one (see the module docstring)."""
    out: dict[tuple[str, int], list[SourceObject]] = {}
    for tp, objs in objects.items():
        last = max((i for i, o in enumerate(objs) if _ready(o, seen, now, settle_s)), default=-1)
        if last >= 0:
            out[tp] = list(objs[: last + 1])
    return out


def settle_wait(
    objects: Objects, start: Offsets, seen: Mapping[str, float], now: float, settle_s: float
) -> float:
    """Seconds until every object still to publish after ``start`` has settled (0: none waits)."""
    wait = 0.0
    for (topic, partition), objs in objects.items():
        position: Position | None = start.get(tp_id(topic, partition))
        for obj in pending(objs, position):
            first = seen.get(obj.key, now)
            wait = max(wait, first + settle_s - now)
    return wait
