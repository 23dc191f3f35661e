"""Unit tests for the source's settling rule: a listing taken in the middle of a sink's commit
must not move an offset past an object still to appear."""

from __future__ import annotations

import pytest

from s3connect.config.source import SourceConfig
from s3connect.errors import ConfigError
from s3connect.source.offsets import Position, latest_offsets
from s3connect.source.reader import SourceObject
from s3connect.source.settling import settle_wait, settled


def obj(hour: int, offset: int) -> SourceObject:
    """An object of orders-0 in an hourly folder (TimeBasedPartitioner)."""
    key = f"topics/orders/hour={hour:02d}/orders+0+{offset:010d}.json"
    return SourceObject(key, "orders", 0, offset, ".json")


H10_0, H11_1, H10_2, H11_3 = obj(10, 0), obj(11, 1), obj(10, 2), obj(11, 3)
TP = ("orders", 0)


def test_a_listing_in_the_middle_of_a_commit_does_not_skip_its_lower_offset() -> None:
    # The sink's commit completes hour=11's file (start 1) before hour=10's (start 0); the
    # first listing sees only the former: it waits instead of moving the offset past 0.
    seen = {H11_1.key: 100.0}
    first = {TP: [H11_1]}
    assert settled(first, seen, 101.0, 5.0) == {}
    assert latest_offsets(settled(first, seen, 101.0, 5.0), {}) == {}
    assert settle_wait(first, {}, seen, 101.0, 5.0) == pytest.approx(4.0)
    # Listed again once settled: hour=10's file is there, both are read, in offset order.
    seen[H10_0.key] = 105.5
    later = {TP: [H10_0, H11_1]}
    assert settled(later, seen, 106.0, 5.0) == {TP: [H10_0, H11_1]}
    assert latest_offsets(settled(later, seen, 106.0, 5.0), {}) == {
        "orders/0": Position(1, H11_1.key)
    }


def test_objects_after_the_last_settled_one_wait() -> None:
    seen = {H10_0.key: 0.0, H11_1.key: 9.0, H10_2.key: 1.0, H11_3.key: 9.5}
    listed = {TP: [H10_0, H11_1, H10_2, H11_3]}
    # At 10 s, 5 s settle: offsets 0 and 2 settled; 1 is before 2 (its commit is complete).
    assert settled(listed, seen, 10.0, 5.0) == {TP: [H10_0, H11_1, H10_2]}
    assert settled(listed, seen, 14.5, 5.0) == {TP: [H10_0, H11_1, H10_2, H11_3]}
    assert settled(listed, seen, 10.0, 0.0) == {TP: [H10_0, H11_1, H10_2, H11_3]}
    # Never listed (no time seen): not settled.
    assert settled(listed, {}, 10.0, 0.0) == {}


def test_wait_counts_only_objects_still_to_publish() -> None:
    seen = {H10_0.key: 0.0, H11_1.key: 8.0}
    listed = {TP: [H10_0, H11_1]}
    assert settle_wait(listed, {}, seen, 10.0, 5.0) == pytest.approx(3.0)
    done = {"orders/0": Position(1, H11_1.key)}
    assert settle_wait(listed, done, seen, 10.0, 5.0) == 0.0
    # A key not seen yet counts as seen now: a full settle.
    assert settle_wait({TP: [H10_2]}, {}, {}, 10.0, 5.0) == pytest.approx(5.0)


def _config(**keys: str) -> SourceConfig:
    return SourceConfig.from_mapping({
        "s3.bucket.name": "b", "format.class": "io.confluent.connect.s3.format.json.JsonFormat",
        "kafka.bootstrap.servers": "127.0.0.1:9092", "checkpoint.location": "/tmp/ck", **keys,
    })  # fmt: skip


def test_listing_settle_ms_key() -> None:
    assert _config().streaming.listing_settle_ms == 5000
    config = _config(**{"listing.settle.ms": "250"})
    assert config.streaming.listing_settle_ms == 250
    assert (
        SourceConfig.from_mapping(config.describe(masked=False)).streaming.listing_settle_ms == 250
    )
    with pytest.raises(ConfigError, match=r"listing\.settle\.ms"):
        _config(**{"listing.settle.ms": "-1"})
