"""Unit tests for the S3 source's offsets: positions, batch ends, slices down to a record."""

from __future__ import annotations

import json

from s3connect.source.offsets import (
    ALL,
    ObjectSlice,
    Position,
    latest_offsets,
    offsets_from_json,
    offsets_to_json,
    plan_slices,
    tp_id,
    tp_of,
)
from s3connect.source.reader import SourceObject


def obj(topic: str, partition: int, offset: int) -> SourceObject:
    k = f"topics/{topic}/partition={partition}/{topic}+{partition}+{offset:010d}.json"
    return SourceObject(k, topic, partition, offset, ".json")


A = [obj("a", 0, 0), obj("a", 0, 3), obj("a", 0, 6)]
B = [obj("b", 2, 10)]
LISTED = {("a", 0): A, ("b", 2): B}


def test_entry_names() -> None:
    assert tp_id("my.topic", 3) == "my.topic/3"
    assert tp_of("my.topic/3") == ("my.topic", 3)


def test_json_round_trip() -> None:
    offsets = {"a/0": Position(3, A[1].key, 2), "b/2": Position(10, B[0].key)}
    doc = json.loads(json.dumps(offsets_to_json(offsets)))
    assert doc["a/0"] == {"key": A[1].key, "offset": 3, "index": 2}
    assert offsets_from_json(doc) == offsets
    assert offsets_from_json({}) == {} and offsets_from_json(None) == {}


def test_latest_takes_everything_listed() -> None:
    end = latest_offsets(LISTED, {})
    assert end == {"a/0": Position(6, A[2].key, ALL), "b/2": Position(10, B[0].key, ALL)}
    assert latest_offsets(LISTED, end) == end  # nothing new: the start comes back


def test_latest_with_max_objects_is_round_robin() -> None:
    end = latest_offsets(LISTED, {}, max_objects=2)
    assert end == {"a/0": Position(0, A[0].key), "b/2": Position(10, B[0].key)}
    end = latest_offsets(LISTED, end, max_objects=1)
    assert end["a/0"] == Position(3, A[1].key)


def test_a_partly_published_object_is_still_pending() -> None:
    start = {"a/0": Position(6, A[2].key, 1), "b/2": Position(10, B[0].key)}
    assert latest_offsets(LISTED, start)["a/0"] == Position(6, A[2].key, ALL)


def test_slices_between_positions() -> None:
    slices = plan_slices(A, None, Position(6, A[2].key))
    assert slices == [ObjectSlice(A[0]), ObjectSlice(A[1]), ObjectSlice(A[2])]
    assert plan_slices(A, Position(0, A[0].key), Position(3, A[1].key)) == [ObjectSlice(A[1])]


def test_slices_down_to_the_record() -> None:
    slices = plan_slices(A, Position(3, A[1].key, 2), Position(6, A[2].key, 1))
    assert slices == [ObjectSlice(A[1], skip=2), ObjectSlice(A[2], stop=1)]


def test_bounds_from_the_next_object_and_flush_size() -> None:
    slices = plan_slices(A, None, Position(6, A[2].key), contiguous=True)
    assert [s.bound for s in slices] == [3, 3, None]
    slices = plan_slices(A, None, Position(6, A[2].key), contiguous=True, flush_size=2)
    assert [s.bound for s in slices] == [2, 2, 2]
    assert [s.bound for s in plan_slices(A, None, Position(6, A[2].key))] == [None] * 3
