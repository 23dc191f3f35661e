"""The Kafka broker stops and comes back (same port, same data folder) while a continuous sink and
a continuous source run, both in the middle of a backlog: both queries ride it out; the sink's
objects are those of a clean run, and the source publishes every record at least once, in order
per partition.

This restarts the stack's one broker: other tests running against it at the same moment see it
go away for about ten seconds.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient
from stack import stack as local_stack

from s3connect.config.sink import SinkConfig
from s3connect.config.source import SourceConfig
from s3connect.spark.sink_query import start_sink
from s3connect.spark.source_query import start_source
from tests.integration.faults.faulthelp import (
    duplicates,
    read_topic,
    reference_objects,
    source_config,
    wait_for,
)
from tests.integration.sinkhelp import (
    end_offsets,
    json_values,
    keys_of,
    objects,
    produce,
    sink_keys,
)

pytestmark = pytest.mark.integration

OUTAGE_S = 5.0
"""How long the broker stays stopped (its restart takes a few seconds more)."""


@contextlib.contextmanager
def broker_stopped() -> Iterator[None]:
    """The stack's Kafka broker stopped; started again (same port and data) however the block
    ends, and answering before this returns."""
    local_stack.stop("kafka")
    try:
        yield
    finally:
        local_stack.start("kafka")


def test_broker_restart_under_a_running_sink_and_source(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer,
    kafka_admin: AdminClient, tmp_path: Path,
) -> None:  # fmt: skip
    t = make_topic("broker", partitions=2)
    dest = f"copy_of_{t}"
    sent: dict[int, list[bytes]] = {0: [], 1: []}

    def send(first: int, count: int) -> None:
        for p in (0, 1):
            values = json_values({"p": p, "i": i} for i in range(first, first + count))
            produce(producer, t, values, partition=p)
            sent[p] += values

    flush, backlog, after = 3, 36, 6
    send(0, backlog)
    # Slow on purpose, so that the broker goes away mid-stream: 3 records of each partition a
    # sink micro-batch, 2 objects of each partition a source micro-batch.
    keys = sink_keys(t, bucket, tmp_path, **{
        "flush.size": str(flush), "trigger": "1 second", "max.offsets.per.trigger": "6",
    })  # fmt: skip
    source = source_config(
        keys, tmp_path, **{"trigger": "1 second", "max.objects.per.trigger": "4"}
    )
    sink = start_sink(SinkConfig.from_mapping(keys), spark)
    src = None
    try:
        src = start_source(SourceConfig.from_mapping(source), spark)
        wait_for("the source's first records", lambda: sum(end_offsets(dest).values()), 90)
        before = (len(keys_of(s3, bucket)), sum(end_offsets(dest).values()))
        started = time.monotonic()
        with broker_stopped():
            time.sleep(OUTAGE_S)
        outage = time.monotonic() - started
        send(backlog, after)  # records produced after the restart are taken too
        total = 2 * (backlog + after)

        def done() -> bool:
            if not (sink.query.isActive and src.query.isActive):
                return True  # failed: said below
            published = read_topic(dest)
            return len(keys_of(s3, bucket)) >= total // flush and all(
                set(sent[p]) <= set(published[p]) for p in (0, 1)
            )

        wait_for("every object written and every record published", done, 90, step=1)
        # Neither query failed: they waited for the broker.
        for query in (sink.query, src.query):
            assert query.isActive and query.exception() is None, query.exception()
    finally:
        for query in (sink.query, src.query if src else None):
            if query is not None:
                query.stop()
    print(f"\nbroker away {outage:.1f} s, with {before[0]} of {total // flush} objects written "
          f"and {before[1]} of {total} records published")  # fmt: skip
    assert before[0] < 2 * backlog // flush and before[1] < 2 * backlog  # mid-stream

    assert objects(s3, bucket) == reference_objects(spark, s3, keys, tmp_path)
    try:
        got = read_topic(dest)
    finally:
        kafka_admin.delete_topics([dest])
    dupes = {p: duplicates(got[p], sent[p]) for p in (0, 1)}  # at least once, in order
    print(f"records published twice: {dupes}")
    # At least once allows the micro-batch in flight again: 2 objects of each partition.
    assert all(n <= 2 * flush for n in dupes.values()), dupes
