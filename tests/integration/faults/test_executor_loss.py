"""The sink and the source on a multi-process Spark (``local-cluster``: two executor JVMs of one
core each), one executor killed with SIGKILL while it runs a task: Spark runs the task again on
the other executor and the run completes. The sink's objects are then a clean run's, every offset
in exactly one object; the source has published every record at least once, in order per
partition.

The kill lands mid-task, not merely mid-batch: the run's S3 requests go through a proxy
(``s3.proxy.url``) that stops one chosen object's request, so the task sending it is known to be
half done, and the process that sent it names the executor to kill.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient

from tests.integration.faults.faulthelp import (
    CliRun,
    HoldingProxy,
    duplicates,
    executor_of,
    read_topic,
    reference_objects,
    source_config,
    wait_for,
)
from tests.integration.sinkhelp import (
    end_offsets,
    json_values,
    objects,
    produce,
    read_json_lines,
    run,
    sink_keys,
)

pytestmark = pytest.mark.integration

CLUSTER = "local-cluster[2,1,1024]"


def _kill_held_task(proxy: HoldingProxy, cli: CliRun) -> int:
    """SIGKILL the executor running the task whose request the proxy holds; its pid."""
    assert proxy.client_pid is not None
    executor = executor_of(proxy.client_pid)
    os.kill(executor, signal.SIGKILL)
    proxy.drop()
    return executor


def _lost_tasks(cli: CliRun) -> list[str]:
    """Spark's lines about tasks lost with their executor, from the run's log file."""
    lines = "\n".join(f.read_text(errors="replace") for f in cli.log_files).splitlines()
    return [line for line in lines if "Lost task" in line and "ExecutorLostFailure" in line]


def test_sink_executor_killed_mid_task(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("exec", partitions=2)
    per_partition, flush = 40, 4
    sent = {p: [{"p": p, "i": i} for i in range(per_partition)] for p in (0, 1)}
    for p, rows in sent.items():
        produce(producer, t, json_values(rows), partition=p)
    # 10 offsets of each partition a micro-batch.
    keys = sink_keys(t, bucket, tmp_path, **{
        "flush.size": str(flush), "max.offsets.per.trigger": "20",
    })  # fmt: skip
    started = time.monotonic()
    # Batch 1 reads offsets 10..19: the task of partition 0 loads the open records 8 and 9 from
    # the checkpoint, writes the object at 8, and is stopped starting the object at 12.
    with HoldingProxy(f"/{t}+0+{12:010d}.json") as proxy:
        sink = CliRun("sink", {**keys, "s3.proxy.url": proxy.url}, tmp_path, "--once",
                      master=CLUSTER)  # fmt: skip
        try:
            sink.until(proxy.held, 150)
            executor = _kill_held_task(proxy, sink)
            code = sink.wait(120)
        finally:
            sink.kill()
    print(f"\nexecutor {executor} killed; sink done in {time.monotonic() - started:.0f} s")
    assert code == 0, sink.text()[-3000:]
    lost = _lost_tasks(sink)
    assert len(lost) == 1 and "[batchId = 1]" in lost[0], lost

    got = objects(s3, bucket)
    assert got == reference_objects(spark, s3, keys, tmp_path)  # same keys, same bytes
    for p in (0, 1):
        starts = range(0, per_partition, flush)
        names = [f"topics/{t}/partition={p}/{t}+{p}+{s:010d}.json" for s in starts]
        assert [k for k in got if f"partition={p}/" in k] == names
        # Every offset in exactly one object, in order.
        assert [r for name in names for r in read_json_lines(got[name])] == sent[p]


def test_source_executor_killed_mid_task(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer,
    kafka_admin: AdminClient, tmp_path: Path,
) -> None:  # fmt: skip
    t = make_topic("execsrc", partitions=2)
    dest = f"copy_of_{t}"
    per_partition, flush = 24_000, 500
    sent = {p: json_values({"p": p, "i": i} for i in range(per_partition)) for p in (0, 1)}
    for p, values in sent.items():
        produce(producer, t, values, partition=p)
    keys = sink_keys(t, bucket, tmp_path, **{"flush.size": str(flush)})
    run(spark, keys)  # 48 objects of 500 records a partition
    started = time.monotonic()
    # Batch 0 takes 46 objects of each partition. The task of partition 0 hands its records to
    # Spark's Kafka writer in Arrow batches of 10,000 (the first is published while the second
    # is being read), and is stopped reading object 44.
    held = 44 * flush
    with HoldingProxy(f"/{t}+0+{held:010d}.json") as proxy:
        source = source_config(keys, tmp_path, **{
            "s3.proxy.url": proxy.url, "max.objects.per.trigger": "92",
        })  # fmt: skip
        src = CliRun("source", source, tmp_path, "--once", master=CLUSTER)
        try:
            src.until(proxy.held, 150)
            published = wait_for(
                "the first 10,000 records of partition 0 published by the task to kill",
                lambda: (n := end_offsets(dest)[0]) >= 10_000 and n,
                60,
            )
            executor = _kill_held_task(proxy, src)
            code = src.wait(120)
        finally:
            src.kill()
    try:
        got = read_topic(dest)
    finally:
        kafka_admin.delete_topics([dest])
    print(f"\nexecutor {executor} killed; source done in {time.monotonic() - started:.0f} s")
    assert code == 0, src.text()[-3000:]
    lost = _lost_tasks(src)
    assert len(lost) == 1 and "[batchId = 0]" in lost[0], lost

    dupes = {p: duplicates(got[p], sent[p]) for p in (0, 1)}  # at least once, in order
    print(f"records published twice: {dupes} ({published} published before the kill)")
    # The task run again publishes its slice from the start: what the killed one had published
    # comes twice, nothing else (partition 1's task, on the other executor, ran once).
    assert published <= dupes[0] <= held
    assert dupes[1] == 0
