"""Source benchmark: S3 objects -> Kafka with s3connect vs a plain producer from memory.

    python bench/source.py [--records 1000000] [--partitions 6] [--record-bytes 1024]
                           [--format bytearray|json] [--baseline CHECKOUT]

Writes the records once as objects of ``--per-object`` records (Confluent's layout,
``topics/<topic>/partition=<p>/<topic>+<p>+<offset>.bin``; ``--format json``: JSON objects in
``.json`` objects, read by JsonFormat and published by JsonConverter without schemas, record by
record) into a local folder, then in the same run measures:

- ``producer``: confluent-kafka publishing the same records from memory (idempotent, acks=all)
  to a fresh topic, until flushed;
- ``s3connect``: the source (availableNow) publishing them to ``copy_of_<topic>``, in its own
  process (``-baseline``: with another checkout's ``src``); query time (from ``start_source`` to
  the query's end, SparkSession start-up excluded), the micro-batches' own time
  (``triggerExecution``: without the Python data source's start in Spark), the peak RSS and CPU
  seconds of its process tree.

Results: printed, and written to ``bench/results/source-<format>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure import KAFKA, ROOT, drop_topics, run_measured

FORMATS = {
    "bytearray": (".bin", "org.apache.kafka.connect.converters.ByteArrayConverter"),
    "json": (".json", "org.apache.kafka.connect.json.JsonConverter"),
}


def _record(i: int, size: int, fmt: str = "bytearray") -> bytes:
    if fmt == "json":  # {"pad":…,"i":…}: the order Kafka's JsonConverter writes them back in
        head = json.dumps({"pad": "", "i": i}, separators=(",", ":")).encode()
        return head.replace(b'"pad":""', b'"pad":"' + b"x" * max(0, size - len(head)) + b'"')
    head = f"record {i:09d} ".encode()
    return head + b"x" * max(0, size - len(head))


def write_objects(
    root: Path, topic: str, records: int, partitions: int, size: int, per: int, fmt: str
) -> None:
    """Records round-robin over partitions, in objects of ``per`` records (lines)."""
    for p in range(partitions):
        values = [_record(i, size, fmt) for i in range(p, records, partitions)]
        folder = root / "topics" / topic / f"partition={p}"
        folder.mkdir(parents=True, exist_ok=True)
        for start in range(0, len(values), per):
            chunk = values[start : start + per]
            name = f"{topic}+{p}+{start:010d}{FORMATS[fmt][0]}"
            (folder / name).write_bytes(b"".join(v + b"\n" for v in chunk))


def produce_from_memory(topic: str, records: int, partitions: int, size: int, fmt: str) -> float:
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": KAFKA})
    admin.create_topics([NewTopic(topic, partitions, 1)])[topic].result()
    values = [_record(i, size, fmt) for i in range(records)]
    producer = Producer(
        {"bootstrap.servers": KAFKA, "enable.idempotence": True, "acks": "all",
         "linger.ms": 5, "queue.buffering.max.messages": 500_000}
    )  # fmt: skip
    producer.produce(topic, value=b"warm-up", partition=0)  # the idempotent producer's id
    producer.flush(60)
    started = time.monotonic()
    for i, value in enumerate(values):
        while True:
            try:
                producer.produce(topic, value=value, partition=i % partitions)
                break
            except BufferError:
                producer.poll(0.05)
    producer.flush(300)
    return time.monotonic() - started


def run_child(data: Path, topic: str, checkpoint: Path, fmt: str) -> None:
    from s3connect.config.source import SourceConfig
    from s3connect.spark.session import get_spark
    from s3connect.spark.source_query import start_source

    spark = get_spark("bench-source")
    spark.sparkContext.setLogLevel("ERROR")
    config = SourceConfig.from_mapping(
        {
            "name": "bench-source",
            "topics": topic,
            "kafka.bootstrap.servers": KAFKA,
            "checkpoint.location": str(checkpoint),
            "s3.bucket.name": "bench",
            "store.url": f"file://{data}",
            "format.class": fmt,
            "value.converter": FORMATS[fmt][1],
            "value.converter.schemas.enable": "false",
            # The objects were all written before the run: no sink commit is in flight, so
            # the one-shot run need not wait listing.settle.ms (up to 5 s) before its batch.
            "listing.settle.ms": "0",
        }
    )
    started = time.monotonic()
    run = start_source(config, spark, once=True)
    run.query.awaitTermination()
    print(f"QUERY_SECONDS {time.monotonic() - started:.3f}", flush=True)
    batches = sum(p["durationMs"].get("triggerExecution", 0) for p in run.query.recentProgress)
    print(f"BATCH_SECONDS {batches / 1000:.3f}", flush=True)


def measure_source(
    work: Path, topic: str, checkpoint: str, baseline: Path | None, fmt: str
) -> dict[str, float]:
    """Run the source in a child process (``baseline``: another checkout's ``src``); query
    seconds, peak RSS and CPU seconds of its process tree."""
    env = dict(os.environ)
    if baseline is not None:
        env["PYTHONPATH"] = str(baseline / "src")
    cmd = [sys.executable, __file__, "--child", str(work / "data"), topic, str(work / checkpoint)]
    cmd += ["--format", fmt]
    log = work / f"{checkpoint}.log"
    run = run_measured(cmd, env, log)
    text = log.read_text(errors="replace")
    if run.returncode != 0:
        raise SystemExit(f"source failed:\n{text[-5000:]}")
    said = {
        name: value
        for name, _, value in (line.partition(" ") for line in text.splitlines())
        if name in ("QUERY_SECONDS", "BATCH_SECONDS")
    }
    result = {
        "seconds": float(said["QUERY_SECONDS"]),
        "peak_rss_mb": run.peak_rss_kb / 1024,
        "cpu_seconds": run.cpu_seconds,
    }
    if "BATCH_SECONDS" in said:
        result["batch_seconds"] = float(said["BATCH_SECONDS"])
    return result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--partitions", type=int, default=6)
    parser.add_argument("--record-bytes", type=int, default=1024)
    parser.add_argument("--per-object", type=int, default=10_000)
    parser.add_argument("--format", choices=sorted(FORMATS), default="bytearray")
    parser.add_argument("--child", nargs=3, metavar=("DATA", "TOPIC", "CHECKPOINT"))
    parser.add_argument("--baseline", type=Path, help="also run another checkout's source")
    args = parser.parse_args()
    if args.child:
        run_child(Path(args.child[0]), args.child[1], Path(args.child[2]), args.format)
        return 0

    work = Path(tempfile.mkdtemp(prefix="bench-source-"))
    topic = f"bsrc-{uuid.uuid4().hex[:6]}"
    write_objects(work / "data", topic, args.records, args.partitions, args.record_bytes,
                  args.per_object, args.format)  # fmt: skip
    mb = args.records * args.record_bytes / 1e6
    results: dict[str, dict[str, float]] = {}

    seconds = produce_from_memory(
        f"{topic}-mem", args.records, args.partitions, args.record_bytes, args.format
    )
    results["producer"] = {"seconds": seconds}

    results["s3connect"] = measure_source(work, topic, "ck", None, args.format)
    if args.baseline is not None:
        base = measure_source(work, topic, "ck-base", args.baseline, args.format)
        results["s3connect-baseline"] = base

    for name, r in results.items():
        r["records_per_s"] = args.records / r["seconds"]
        r["mb_per_s"] = mb / r["seconds"]
        extra = f"  peak RSS {r['peak_rss_mb']:.0f} MB" if "peak_rss_mb" in r else ""
        if "cpu_seconds" in r:
            extra += f"  CPU {r['cpu_seconds'] / (args.records / 1e6):.1f} s/M records"
        if "batch_seconds" in r:
            extra += f"  batches {r['batch_seconds']:.1f} s"
        print(f"{name:<18} {r['seconds']:7.1f} s {r['records_per_s']:10.0f} rec/s "
              f"{r['mb_per_s']:7.1f} MB/s{extra}", flush=True)  # fmt: skip
    ratio = results["s3connect"]["records_per_s"] / results["producer"]["records_per_s"]
    print(f"s3connect / producer: {ratio:.2f}x")
    dest = ROOT / "bench" / "results"
    dest.mkdir(parents=True, exist_ok=True)
    (dest / f"source-{args.format}.json").write_text(
        json.dumps({"args": vars(args), "results": results}, indent=2, default=str)
    )
    shutil.rmtree(work, ignore_errors=True)
    drop_topics(f"{topic}-mem", f"copy_of_{topic}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
