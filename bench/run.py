"""Sink benchmark: s3connect against Spark's own decoding file sink, Spark's byte-copying file sink
and a plain Kafka read, on records with a schema (the speed issue's bench).

    python bench/run.py [--records 1000000] [--partitions 6] [--record-bytes 1024]
                        [--record bench|wide|registry] [--format avro|parquet] [--s3]
                        [--variants noop,spark-raw,...] [--baseline DIR] [--repeat N]

Produces the records once into a topic (``bench/records.py``: ``bench``, a JSON envelope of
~record-bytes with 5 fields; ``wide``, a JSON envelope with 22 fields of mixed types whose payload
is ~record-bytes; ``registry``, the wide record as Schema Registry Avro), then runs each variant
as a whole child process on the same topic (``availableNow``, ``maxOffsetsPerTrigger``
``--max-offsets``), writing ``--format`` with snappy:

- ``noop``: ``readStream kafka -> writeStream noop`` (the plain read).
- ``spark-raw``: Spark's file sink writing the raw Kafka rows (no decoding).
- ``spark-decoded``: Spark's file sink writing the decoded value: ``from_json`` of the envelope
  (or ``from_avro`` of the datum after the 5-byte prefix), in the JVM. The speed issue's reference.
- ``arrow-handoff``: the shuffle-free sink's plumbing with no work in it (``foreachBatch`` ->
  ``mapInArrow`` of the Kafka columns into a function that only counts rows): the floor of any
  sink doing its per-record work in Python workers.
- ``s3connect``: our sink, Default partitioner, ``flush.size`` 10000, to a local folder (with
  ``--s3``: to the stack's S3 server, a new bucket each; Spark's variants cannot write there, no
  ``hadoop-aws``, so they stay local).
- ``s3connect-baseline``: the same from another checkout (``--baseline DIR``, e.g. a ``git
  worktree``; its ``src`` and its own ``s3connect-jvm.jar``), to compare versions in one run.

Each variant is measured with its whole process tree (``measure.run_measured``): wall time from
start to exit, query time (SparkSession start excluded), peak RSS, CPU seconds. With ``--repeat
N`` the variants run N rounds in turn and the table shows each one's median-time run. Results:
printed, and ``bench/results/sink-<record>-<format>-<partitions>p[-s3].json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from measure import (
    KAFKA,
    ROOT,
    baseline_jars,
    child_result,
    drop_bucket,
    ensure_topic,
    local_stack,
    median_run,
    run_measured,
    s3_client,
)
from records import RECORDS, bench_payload, registry_payload, wide_payload

SPARK_VARIANTS = ("noop", "spark-raw", "spark-decoded", "arrow-handoff")
VARIANTS = (*SPARK_VARIANTS, "s3connect", "s3connect-baseline")
DEFAULT_VARIANTS = VARIANTS[:5]
FORMATS = {
    "avro": {
        "format.class": "io.confluent.connect.s3.format.avro.AvroFormat",
        "avro.codec": "snappy",
    },
    "parquet": {
        "format.class": "io.confluent.connect.s3.format.parquet.ParquetFormat",
        "parquet.codec": "snappy",
    },
}
TOPIC_PREFIXES = {"bench": "bench", "wide": "bench-wide", "registry": "bench-wide-sr"}
"""Name the topic's payload: change one when its payload function changes."""


# --- the child: one variant ---


def run_child(args: argparse.Namespace) -> None:
    """Run one variant to completion in this process."""
    import s3connect

    print(f"S3CONNECT_FROM {Path(s3connect.__file__).parent}", flush=True)
    os.environ.setdefault("S3CONNECT_DRIVER_MEMORY", "4g")
    from s3connect.spark.session import get_spark

    spark = get_spark(f"bench-{args.child}")
    spark.sparkContext.setLogLevel("ERROR")
    started = time.monotonic()
    try:
        if args.child == "s3connect":
            from s3connect.config.sink import SinkConfig
            from s3connect.spark.sink_query import run_sink

            run_sink(SinkConfig.from_mapping(_sink_config(args)), spark, once=True)
        else:
            _spark_query(spark, args)
    finally:
        print(f"QUERY_SECONDS {time.monotonic() - started:.3f}", flush=True)


def _sink_config(args: argparse.Namespace) -> dict[str, str]:
    config = {
        "name": "bench",
        "topics": args.topic,
        "kafka.bootstrap.servers": KAFKA,
        "checkpoint.location": str(args.out / "checkpoint"),
        "max.offsets.per.trigger": str(args.max_offsets),
        "flush.size": "10000",
        **FORMATS[args.format],
        **RECORDS[args.record].converter(local_stack().schema_registry_url()),
    }
    if args.bucket is None:
        return {**config, "s3.bucket.name": "bench", "store.url": f"file://{args.out / 'data'}"}
    stack = local_stack()
    return {
        **config,
        "s3.bucket.name": args.bucket,
        "s3.region": stack.S3_REGION,
        "store.url": stack.s3_endpoint(),
        "aws.access.key.id": stack.S3_ACCESS_KEY_ID,
        "aws.secret.access.key": stack.S3_SECRET_ACCESS_KEY,
    }


def _spark_query(spark: Any, args: argparse.Namespace) -> None:
    df = (
        spark.readStream.format("kafka")
        .option("kafka.bootstrap.servers", KAFKA)
        .option("subscribe", args.topic)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", str(args.max_offsets))
        .option("includeHeaders", str(args.child == "arrow-handoff").lower())
        .load()
    )
    if args.child == "noop":
        writer = df.writeStream.format("noop")
    elif args.child == "arrow-handoff":
        from s3connect.spark.sink_query import kafka_rows, processor_input

        def handoff(batch: Any, batch_id: int) -> None:
            processor_input(kafka_rows(batch)).mapInArrow(_count_rows, "n LONG").collect()

        writer = df.writeStream.foreachBatch(handoff)
    else:
        rows = df if args.child == "spark-raw" else RECORDS[args.record].decode(df).select("p.*")
        writer = (
            rows.writeStream.format(args.format)
            .option("compression", "snappy")
            .option("path", str(args.out / "data"))
        )
    query = (
        writer.option("checkpointLocation", str(args.out / "checkpoint"))
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()


def _count_rows(batches: Any) -> Any:
    import pyarrow as pa

    n = sum(batch.num_rows for batch in batches)
    yield pa.RecordBatch.from_pydict({"n": pa.array([n], pa.int64())})


# --- the parent: measuring ---


def measure(variant: str, topic: str, args: argparse.Namespace) -> dict[str, Any]:
    """Run ``variant`` in a child process and measure it with its process tree."""
    out = Path(tempfile.mkdtemp(prefix=f"bench-{variant}-"))
    env, child = dict(os.environ), variant
    if variant == "s3connect-baseline":
        assert args.baseline is not None, "--baseline DIR is needed for s3connect-baseline"
        env["PYTHONPATH"] = str(args.baseline.resolve() / "src")
        env.setdefault("S3CONNECT_JARS_DIR", str(baseline_jars(args.baseline.resolve())))
        child = "s3connect"
    bucket, s3 = None, None
    if args.s3 and child == "s3connect":
        s3, bucket = s3_client(), f"bench-{uuid.uuid4().hex[:12]}"
        s3.create_bucket(Bucket=bucket)
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", child, "--topic", topic,
           "--out", str(out), "--max-offsets", str(args.max_offsets), "--format", args.format,
           "--record", args.record] + (["--bucket", bucket] if bucket else [])  # fmt: skip
    load = os.getloadavg()[0]
    run = run_measured(cmd, env, out / "child.log", tail=True)
    result = {
        "load_before": load,
        **child_result(run, out / "child.log", out / "data", s3, bucket, lines=False),
    }
    if s3 is not None and bucket is not None:
        drop_bucket(s3, bucket)
    shutil.rmtree(out, ignore_errors=True)
    return result


def _payload(args: argparse.Namespace, topic: str) -> Any:
    if args.record == "registry":
        return registry_payload(local_stack().schema_registry_url(), topic)
    return wide_payload if args.record == "wide" else bench_payload


def _topic(args: argparse.Namespace) -> str:
    prefix = TOPIC_PREFIXES[args.record]
    name = f"{prefix}-{args.records}-{args.partitions}p-{args.record_bytes}b"
    if args.record == "registry":
        _forget_unregistered(name)
    return ensure_topic(
        args.records,
        args.partitions,
        args.record_bytes,
        prefix=prefix,
        payload=_payload(args, name),
    )


def _forget_unregistered(topic: str) -> None:
    """Delete ``topic`` when the registry does not have its value subject (the stack's registry
    keeps schemas in memory: after a restart the records' schema ids name nothing), so that
    it is produced again."""
    from confluent_kafka.admin import AdminClient  # type: ignore[attr-defined]
    from confluent_kafka.schema_registry import SchemaRegistryClient

    registry = SchemaRegistryClient({"url": local_stack().schema_registry_url()})
    admin = AdminClient({"bootstrap.servers": KAFKA})
    if f"{topic}-value" in registry.get_subjects():
        return
    if topic in admin.list_topics(timeout=10).topics:
        admin.delete_topics([topic])[topic].result()
        time.sleep(2)


def table(chosen: dict[str, dict[str, Any]], records: int) -> list[str]:
    """The results as markdown table lines (rates on the whole-process time)."""
    lines = [
        "| variant | output to | whole process | query | records/s | MB/s out | peak RSS "
        "| CPU s / M records | output MB |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in chosen.items():
        if "error" in r:
            lines.append(f"| {name} | {r['dest']} | failed | | | | | | |")
            continue
        dest = "S3" if r["dest"].startswith("s3://") else "local"
        lines.append(
            f"| {name} | {dest} | {r['process_seconds']:.1f} s | {r.get('query_seconds', 0):.1f} s "
            f"| {records / r['process_seconds']:,.0f} "
            f"| {r['output_bytes'] / 1e6 / r['process_seconds']:.1f} "
            f"| {r['peak_rss_mb']:,.0f} MB | {r['cpu_seconds'] / (records / 1e6):.1f} "
            f"| {r['output_bytes'] / 1e6:,.1f} |"
        )
    return lines


TARGETS = {"spark-decoded": 1.0, "noop": 0.6}


def ratios(chosen: dict[str, dict[str, Any]]) -> list[str]:
    """s3connect (and its baseline) against each other variant: whole-process speed, peak RSS
    and CPU; the speed issue's targets marked."""
    lines = []
    for name in ("s3connect", "s3connect-baseline"):
        r = chosen.get(name)
        if r is None or "error" in r:
            continue
        for ref in SPARK_VARIANTS:
            s = chosen.get(ref)
            if s is None or "error" in s:
                continue
            speed = s["process_seconds"] / r["process_seconds"]
            target = TARGETS.get(ref)
            met = "met" if target is not None and speed >= target else "not met"
            mark = "" if target is None else f" (target {target}x: {met})"
            lines.append(
                f"{name} / {ref}: {speed:.2f}x whole process{mark}, query "
                f"{s.get('query_seconds', 0) / r.get('query_seconds', 1):.2f}x, "
                f"peak RSS {r['peak_rss_mb'] / s['peak_rss_mb']:.2f}x, "
                f"CPU {r['cpu_seconds'] / s['cpu_seconds']:.2f}x"
            )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--partitions", type=int, default=6)
    parser.add_argument("--record-bytes", type=int, default=1024)
    parser.add_argument("--record", choices=sorted(RECORDS), default="bench")
    parser.add_argument("--format", choices=sorted(FORMATS), default="avro")
    parser.add_argument("--max-offsets", type=int, default=200_000)
    parser.add_argument("--variants", default=",".join(DEFAULT_VARIANTS))
    parser.add_argument("--s3", action="store_true", help="s3connect to the stack's S3 server")
    parser.add_argument("--baseline", type=Path, help="a checkout for s3connect-baseline")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of all the variants")
    parser.add_argument("--child", choices=VARIANTS)
    parser.add_argument("--topic")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--bucket")
    args = parser.parse_args()
    if args.child:
        run_child(args)
        return 0
    variants = [v for v in args.variants.split(",") if v]
    if unknown := set(variants) - set(VARIANTS):
        parser.error(f"unknown variants {sorted(unknown)}; known: {', '.join(VARIANTS)}")

    topic = _topic(args)
    started_at = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    print(f"{topic} -> {args.format}: {started_at}, load {os.getloadavg()[0]:.2f}", flush=True)
    runs: dict[str, list[dict[str, Any]]] = {v: [] for v in variants}
    for _ in range(args.repeat):
        for variant in variants:
            r = measure(variant, topic, args)
            runs[variant].append(r)
            if "error" in r:
                print(f"{variant} FAILED:\n{r['error']}", flush=True)
                continue
            print(
                f"{variant:<18} whole {r['process_seconds']:6.1f} s  query "
                f"{r.get('query_seconds', 0):6.1f} s  peak {r['peak_rss_mb']:6,.0f} MB  "
                f"CPU {r['cpu_seconds'] / (args.records / 1e6):5.1f} s/M  "
                f"out {r['output_bytes'] / 1e6:7.1f} MB  {r['dest']}",
                flush=True,
            )
    chosen = {v: median_run(rs) for v, rs in runs.items()}
    print(f"\n{args.records:,} records, {args.partitions} p, {args.record} -> {args.format}")
    print("\n".join(table(chosen, args.records)))
    print("\n".join(ratios(chosen)))
    dest = ROOT / "bench" / "results"
    dest.mkdir(parents=True, exist_ok=True)
    name = f"sink-{args.record}-{args.format}-{args.partitions}p{'-s3' if args.s3 else ''}.json"
    report = {"args": vars(args), "topic": topic, "started_at": started_at, "runs": runs}
    (dest / name).write_text(json.dumps(report, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
