"""Sink benchmark: s3connect vs Spark's built-in file sink vs a plain Kafka read (the ceiling).

    python bench/run.py [--records 1000000] [--partitions 6] [--record-bytes 1024]

Produces the records once into a topic (JSON with a Connect schema envelope, ~record-bytes each),
then runs each variant in its own process on the same topic, measuring the query's wall time
(start to end, SparkSession start-up excluded), the peak resident memory and the CPU seconds
(user + system) of the process tree (JVM + Python workers), sampled every 0.2 s. Variants:

- ``s3connect``: our sink, Avro snappy, Default partitioner, flush.size 10000, to a local folder.
- ``spark-avro``: ``readStream kafka -> writeStream avro`` (snappy) to a local folder.
- ``noop``: ``readStream kafka -> writeStream noop``.
- ``spark-json-avro``: the file sink writing the decoded payload: ``from_json`` with the bench
  schema, in the JVM, then Avro snappy. What a sink converting in the JVM could approach.
- ``s3connect-baseline``: the ``s3connect`` variant of another checkout (``--baseline DIR``, e.g.
  a ``git worktree`` of an earlier commit), to compare two versions side by side in one run.
- ``arrow-handoff``: the shuffle-free sink's plumbing with no work in it: ``foreachBatch`` ->
  ``mapInArrow`` of the same Kafka columns into a Python function that only counts rows. What any
  sink doing its per-record work in Python pays before doing any (the floor for ``s3connect``).

Results are printed as a table and written to ``bench/results/sink-<partitions>p.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KAFKA = f"127.0.0.1:{os.environ.get('KAFKA_PORT', '9092')}"
VARIANTS = (
    "noop",
    "spark-avro",
    "spark-json-avro",
    "arrow-handoff",
    "s3connect",
    "s3connect-baseline",
)
DEFAULT_VARIANTS = VARIANTS[:5]


_TICKS = os.sysconf("SC_CLK_TCK")


def _tree_sample(pid: int) -> tuple[int, dict[int, float]]:
    """Resident memory (KiB) of a process and all its descendants, and each one's CPU seconds
    so far (user + system)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            ppid = int(fields[1])
            with open(f"/proc/{entry}/status") as f:
                kb = next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
        except (FileNotFoundError, ProcessLookupError, StopIteration, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
        rss[int(entry)] = kb
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / _TICKS
    total, stack, tree = 0, [pid], {}
    while stack:
        p = stack.pop()
        total += rss.get(p, 0)
        tree[p] = cpu.get(p, 0.0)
        stack += children.get(p, [])
    return total, tree


@dataclass(frozen=True)
class Measured:
    """One child process run to its end, measured with its whole process tree."""

    returncode: int
    wall_seconds: float
    """From just before the process is started to its exit."""
    peak_rss_kb: int
    """The largest sum of the tree's resident memory seen in one sample."""
    cpu_seconds: float
    """User + system CPU seconds, each process of the tree at its last sample, summed."""
    reaped_cpu_seconds: float
    """User + system CPU seconds of every descendant reaped by its parent before the child
    exited (``getrusage(RUSAGE_CHILDREN)``): exact for those, blind to any left running."""


def run_measured(
    cmd: list[str], env: dict[str, str], log: Path, interval: float = 0.2, *, tail: bool = False
) -> Measured:
    """Run ``cmd`` (stdout and stderr into ``log``) to its end, sampling its process tree's
    resident memory and CPU seconds every ``interval`` seconds.

    ``tail``: this process becomes a child subreaper (Linux), so descendants that outlive the
    child (PySpark's JVM, which shuts down after its driver exits) are re-parented here; the
    measure then lasts until they have all exited too, and they are reaped here, so that
    ``reaped_cpu_seconds`` covers every process the child started, however short-lived.
    """
    import resource

    if tail:
        _become_subreaper()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu: dict[int, float] = {}
    peak = 0
    started = time.monotonic()
    with log.open("w") as sink:
        child = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT, env=env)
        while child.poll() is None:
            rss, tree = _tree_sample(child.pid)
            peak = max(peak, rss)
            cpu.update(tree)
            time.sleep(interval)
    if tail:
        peak = max(peak, _reap_orphans(cpu, interval))
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    reaped = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Measured(child.returncode, wall, peak, sum(cpu.values()), reaped)


def _become_subreaper() -> None:
    import ctypes

    pr_set_child_subreaper = 36
    if ctypes.CDLL(None, use_errno=True).prctl(pr_set_child_subreaper, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def _reap_orphans(cpu: dict[int, float], interval: float, timeout: float = 120.0) -> int:
    """Sample and reap this process's remaining children until none is left (or ``timeout``,
    then they are left running); the peak resident memory (KiB) of those trees."""
    peak, deadline, me = 0, time.monotonic() + timeout, os.getpid()
    while time.monotonic() < deadline:
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            return peak
        rss, tree = _tree_sample(me)
        tree.pop(me)
        peak = max(peak, rss - _own_rss_kb())
        cpu.update(tree)
        time.sleep(interval)
    return peak


def _own_rss_kb() -> int:
    with open("/proc/self/status") as f:
        return next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)


def _payload(i: int, record_bytes: int) -> bytes:
    schema = {
        "type": "struct",
        "name": "bench.Event",
        "optional": False,
        "fields": [
            {"field": "id", "type": "int64", "optional": False},
            {"field": "user", "type": "string", "optional": False},
            {"field": "amount", "type": "double", "optional": False},
            {"field": "tags", "type": "array", "items": {"type": "string"}, "optional": False},
            {"field": "body", "type": "string", "optional": False},
        ],
    }
    value = {
        "id": i,
        "user": f"user-{i % 1000}",
        "amount": i * 0.25,
        "tags": ["a", "b", f"t{i % 10}"],
        "body": "",
    }
    base = len(json.dumps({"schema": schema, "payload": value}, separators=(",", ":")))
    value["body"] = ("lorem ipsum dolor sit amet " * 64)[: max(0, record_bytes - base)]
    return json.dumps({"schema": schema, "payload": value}, separators=(",", ":")).encode()


def ensure_topic(
    records: int,
    partitions: int,
    record_bytes: int,
    *,
    prefix: str = "bench",
    payload: Callable[[int, int], bytes] = _payload,
) -> str:
    """The benchmark topic ``<prefix>-<records>-<partitions>p-<record_bytes>b``, produced once
    (reused when it already holds ``records``); record ``i`` is ``payload(i, record_bytes)`` in
    partition ``i % partitions``."""
    from confluent_kafka import Consumer, Producer, TopicPartition
    from confluent_kafka.admin import AdminClient, NewTopic  # type: ignore[attr-defined]

    topic = f"{prefix}-{records}-{partitions}p-{record_bytes}b"
    admin = AdminClient({"bootstrap.servers": KAFKA})
    if topic in admin.list_topics(timeout=10).topics:
        consumer = Consumer({"bootstrap.servers": KAFKA, "group.id": "bench-check"})
        total = sum(
            consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1]
            for p in range(partitions)
        )
        consumer.close()
        if total == records:
            return topic
        admin.delete_topics([topic])[topic].result()
        time.sleep(2)
    admin.create_topics([NewTopic(topic, partitions, 1)])[topic].result()
    producer = Producer(
        {"bootstrap.servers": KAFKA, "linger.ms": 20, "batch.size": 1_000_000,
         "compression.type": "lz4", "queue.buffering.max.messages": 500_000}
    )  # fmt: skip
    started = time.monotonic()
    for i in range(records):
        while True:
            try:
                producer.produce(topic, value=payload(i, record_bytes), partition=i % partitions)
                break
            except BufferError:
                producer.poll(0.1)
        if i % 10_000 == 0:
            producer.poll(0)
    producer.flush(120)
    print(f"produced {records} records to {topic} in {time.monotonic() - started:.1f}s")
    return topic


def run_variant(variant: str, topic: str, out: Path, max_offsets: int) -> None:
    """Run one variant to completion in this process (called in a child process)."""
    os.environ.setdefault("S3CONNECT_DRIVER_MEMORY", "4g")
    from s3connect.spark.session import get_spark

    spark = get_spark(f"bench-{variant}")
    spark.sparkContext.setLogLevel("ERROR")
    started = time.monotonic()
    try:
        _run_query(spark, variant, topic, out, max_offsets)
    finally:
        print(f"QUERY_SECONDS {time.monotonic() - started:.3f}", flush=True)


def _run_query(spark: Any, variant: str, topic: str, out: Path, max_offsets: int) -> None:
    checkpoint = str(out / "checkpoint")
    if variant == "s3connect":
        from s3connect.config.sink import SinkConfig
        from s3connect.spark.sink_query import run_sink

        config = SinkConfig.from_mapping(
            {
                "name": "bench",
                "topics": topic,
                "kafka.bootstrap.servers": KAFKA,
                "checkpoint.location": checkpoint,
                "max.offsets.per.trigger": str(max_offsets),
                "s3.bucket.name": "bench",
                "store.url": f"file://{out / 'data'}",
                "format.class": "io.confluent.connect.s3.format.avro.AvroFormat",
                "avro.codec": "snappy",
                "flush.size": "10000",
                "value.converter": "org.apache.kafka.connect.json.JsonConverter",
                "value.converter.schemas.enable": "true",
            }
        )
        run_sink(config, spark, once=True)
        return
    df = (
        spark.readStream.option("kafka.bootstrap.servers", KAFKA)
        .format("kafka")
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", str(max_offsets))
        .option("includeHeaders", str(variant == "arrow-handoff").lower())
        .load()
    )
    writer = df.writeStream.option("checkpointLocation", checkpoint).trigger(availableNow=True)
    if variant == "arrow-handoff":
        from s3connect.spark.sink_query import kafka_rows, processor_input

        def handoff(batch: Any, batch_id: int) -> None:
            processor_input(kafka_rows(batch)).mapInArrow(_count_rows, "n LONG").collect()

        writer = writer.foreachBatch(handoff)
    elif variant == "spark-json-avro":
        writer = (
            df.selectExpr(f"from_json(CAST(value AS STRING), '{_ENVELOPE_DDL}').payload AS p")
            .select("p.*")
            .writeStream.option("checkpointLocation", checkpoint)
            .trigger(availableNow=True)
            .format("avro")
            .option("compression", "snappy")
            .option("path", str(out / "data"))
        )
    elif variant == "spark-avro":
        writer = (
            writer.format("avro").option("compression", "snappy").option("path", str(out / "data"))
        )
    else:
        writer = writer.format("noop")
    writer.start().awaitTermination()


# The envelope of _payload's records, for Spark's from_json.
_ENVELOPE_DDL = (
    "schema STRING, payload STRUCT<id: BIGINT, user: STRING, amount: DOUBLE, tags: ARRAY<STRING>, "
    "body: STRING>"
)


def _count_rows(batches: Any) -> Any:
    import pyarrow as pa

    n = sum(batch.num_rows for batch in batches)
    yield pa.RecordBatch.from_pydict({"n": pa.array([n], pa.int64())})


def measure(
    variant: str, topic: str, max_offsets: int, baseline: Path | None = None
) -> dict[str, float]:
    """Run a variant in a child process; wall time, peak RSS and CPU seconds of its process tree.
    ``s3connect-baseline`` runs the ``s3connect`` variant of another checkout (``baseline``)."""
    out = Path(tempfile.mkdtemp(prefix=f"bench-{variant}-"))
    script, env = Path(__file__), dict(os.environ)
    if variant == "s3connect-baseline":
        assert baseline is not None, "--baseline DIR is needed for s3connect-baseline"
        script, variant = baseline / "bench" / "run.py", "s3connect"
        env["PYTHONPATH"] = str(baseline / "src")
    cmd = [sys.executable, str(script), "--child", variant, "--topic", topic,
           "--out", str(out), "--max-offsets", str(max_offsets)]  # fmt: skip
    log = out / "child.log"
    run = run_measured(cmd, env, log)
    text = log.read_text(errors="replace")
    if run.returncode != 0:
        raise SystemExit(f"{variant} failed:\n{text[-5000:]}")
    query = [line.split()[1] for line in text.splitlines() if line.startswith("QUERY_SECONDS")]
    data = out / "data"
    size = sum(p.stat().st_size for p in data.rglob("*") if p.is_file()) if data.exists() else 0
    shutil.rmtree(out, ignore_errors=True)
    return {
        "seconds": float(query[-1]),
        "process_seconds": run.wall_seconds,
        "peak_rss_mb": run.peak_rss_kb / 1024,
        "cpu_seconds": run.cpu_seconds,
        "output_bytes": size,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--partitions", type=int, default=6)
    parser.add_argument("--record-bytes", type=int, default=1024)
    parser.add_argument("--max-offsets", type=int, default=200_000)
    parser.add_argument("--variants", default=",".join(DEFAULT_VARIANTS))
    parser.add_argument("--baseline", type=Path, help="a checkout for s3connect-baseline")
    parser.add_argument("--child", choices=VARIANTS)
    parser.add_argument("--topic")
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.child:
        run_variant(args.child, args.topic, Path(args.out), args.max_offsets)
        return 0

    topic = ensure_topic(args.records, args.partitions, args.record_bytes)
    input_mb = args.records * args.record_bytes / 1e6
    results = {}
    for variant in args.variants.split(","):
        r = measure(variant, topic, args.max_offsets, args.baseline)
        r["records_per_s"] = args.records / r["seconds"]
        r["mb_per_s"] = input_mb / r["seconds"]
        r["cpu_s_per_m"] = r["cpu_seconds"] / (args.records / 1e6)
        results[variant] = r
        print(
            f"{variant:<18} {r['seconds']:8.1f} s {r['records_per_s']:10.0f} rec/s "
            f"{r['mb_per_s']:7.1f} MB/s  peak RSS {r['peak_rss_mb']:7.0f} MB  "
            f"CPU {r['cpu_s_per_m']:6.1f} s/M records  output {r['output_bytes'] / 1e6:8.1f} MB",
            flush=True,
        )
    if "s3connect" in results:
        for base in (
            "spark-avro",
            "noop",
            "spark-json-avro",
            "arrow-handoff",
            "s3connect-baseline",
        ):
            if base in results:
                ratio = results["s3connect"]["records_per_s"] / results[base]["records_per_s"]
                print(f"s3connect / {base}: {ratio:.2f}x")
    dest = ROOT / "bench" / "results"
    dest.mkdir(parents=True, exist_ok=True)
    (dest / f"sink-{args.partitions}p.json").write_text(
        json.dumps({"args": vars(args), "results": results}, indent=2, default=str)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
