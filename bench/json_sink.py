"""Sink benchmark, schemaless JSON: s3connect's JSON and ByteArray outputs vs Spark's text sink.

    python bench/json_sink.py [--records 1020000] [--partitions 6] [--record-bytes 1024]
                              [--variants noop,spark-text,...] [--s3] [--baseline DIR]
                              [--repeat 1]

Produces the topic once (``bench-jsonv1-<records>-<partitions>p-<record_bytes>b``, reused by
every later run with the same arguments): schemaless JSON objects of exactly ``--record-bytes``
bytes, record ``i`` in partition ``i % partitions``, each one a function of ``i`` only (nested
objects, an array of objects, strings with non-ASCII characters and escaped quotes, backslashes,
newlines and tabs, ints, floats such as 12.5 and 0.25, booleans, nulls, and ``region``, one of 8
values, for the FieldPartitioner). Then each variant runs in its own child process on that topic,
``maxOffsetsPerTrigger`` the same for all (``--max-offsets``, default 200000, as ``run.py``):

- ``noop``: ``readStream kafka -> writeStream noop``: the plain read, the ceiling.
- ``arrow-handoff``: the sink's plumbing with no work in it (Kafka rows with headers ->
  ``foreachBatch`` -> ``mapInArrow`` into a function that counts rows): the floor of any sink
  whose writers run in Python workers.
- ``spark-text``: ``CAST(value AS STRING) -> writeStream text``: Spark's own file sink writing
  the same value bytes, one line each. ``spark-text-gzip``: the same with ``compression`` gzip.
- ``json``: ``s3connect.spark.sink_query.run_sink(..., once=True)``, JsonConverter
  (``schemas.enable=false``) -> JsonFormat, DefaultPartitioner, ``flush.size`` 10000.
  ``json-gzip``: the same with ``s3.compression.type=gzip``. ``json-field``: FieldPartitioner on
  ``region``. ``json-hourly``: HourlyPartitioner on the Kafka timestamps (UTC);
  ``json-time-field``: on the value's ``ts`` field (RecordField).
  ``string-json``: StringConverter -> JsonFormat (each value written as a JSON string).
  ``bytes-bytes``: ByteArrayConverter -> ByteArrayFormat (the speed issue's raw-bytes
  case: the same bytes as ``spark-text`` writes).
- ``<s3connect variant>-baseline``: that variant run with another checkout's package
  (``--baseline DIR``: ``PYTHONPATH=DIR/src``, e.g. a ``git worktree`` of an earlier commit, and
  its own ``s3connect-jvm.jar``: ``DIR/.deps/spark-jars`` when it has them, else built from
  ``DIR/jvm/src`` beside this checkout's other jars, see :func:`baseline_jars`).
  With ``--baseline`` and no ``-baseline`` variant named in ``--variants``, each s3connect
  variant is followed by its baseline.

Output goes to a local folder (``store.url file://...``); with ``--s3``, the s3connect variants
write to the stack's S3 server (versitygw, ``stack/stack.py``), a new bucket each. Spark's text
variants cannot: this project's session has no ``hadoop-aws`` jars (no ``s3a://``), so in ``--s3``
runs they still write to a local folder, marked so in the table.

Every variant is measured as a whole process (``run.run_measured``): wall time from just before
the child starts to its exit (SparkSession start-up and shutdown included), its query time
(printed by the child), the peak resident memory of its process tree (JVM + Python workers) and
its CPU seconds (user + system). Records/s and MB/s are on the whole-process time, MB of value
bytes read. The output is measured after the child exits: bytes written (objects, not Spark's
``_spark_metadata`` or checksum files) and, for a local folder, records written (lines, gzip
decompressed). With ``--repeat N`` the variants run N rounds in turn and the table shows, per
variant, the run with the median whole-process time.

The table is printed (markdown) with the ratios of each s3connect variant to ``spark-text`` (and
of ``json-gzip`` to ``spark-text-gzip``) on whole-process time (the target is >= 0.7x) and peak
memory (the target is <= 1.0x); results go to
``bench/results/json-sink-<partitions>p[-s3].json``.
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
from collections.abc import Iterator
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

TOPIC_PREFIX = "bench-jsonv1"
"""Names the topic's payload: change the version when :func:`json_payload` changes."""

SPARK_VARIANTS = ("noop", "spark-text", "spark-text-gzip", "arrow-handoff")
_JSON = {
    "value.converter": "org.apache.kafka.connect.json.JsonConverter",
    "value.converter.schemas.enable": "false",
}
_STRING = {"value.converter": "org.apache.kafka.connect.storage.StringConverter"}
_JSON_FORMAT = {"format.class": "io.confluent.connect.s3.format.json.JsonFormat"}
_DEFAULT = {"partitioner.class": "io.confluent.connect.storage.partitioner.DefaultPartitioner"}
S3CONNECT_VARIANTS: dict[str, dict[str, str]] = {
    "json": {**_JSON, **_JSON_FORMAT, **_DEFAULT},
    "json-gzip": {**_JSON, **_JSON_FORMAT, **_DEFAULT, "s3.compression.type": "gzip"},
    "json-field": {
        **_JSON,
        **_JSON_FORMAT,
        "partitioner.class": "io.confluent.connect.storage.partitioner.FieldPartitioner",
        "partition.field.name": "region",
    },
    "json-hourly": {
        **_JSON,
        **_JSON_FORMAT,
        "partitioner.class": "io.confluent.connect.storage.partitioner.HourlyPartitioner",
        "timestamp.extractor": "Record",
        "locale": "en-US",
        "timezone": "UTC",
    },
    "json-time-field": {
        **_JSON,
        **_JSON_FORMAT,
        "partitioner.class": "io.confluent.connect.storage.partitioner.HourlyPartitioner",
        "timestamp.extractor": "RecordField",
        "timestamp.field": "ts",
        "locale": "en-US",
        "timezone": "UTC",
    },
    "string-json": {**_STRING, **_JSON_FORMAT, **_DEFAULT},
    "bytes-bytes": {
        "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
        "format.class": "io.confluent.connect.s3.format.bytearray.ByteArrayFormat",
        **_DEFAULT,
    },
}
"""Each s3connect variant's own keys (with ``flush.size`` 10000 and the rest in
:func:`_sink_config`)."""
BASELINE = "-baseline"
VARIANTS = (
    *SPARK_VARIANTS,
    *S3CONNECT_VARIANTS,
    *(f"{v}{BASELINE}" for v in S3CONNECT_VARIANTS),
)
DEFAULT_VARIANTS = (*SPARK_VARIANTS, *S3CONNECT_VARIANTS)
FLUSH_SIZE = 10_000
TARGET_RATIO = 0.7

# The payload's pools: realistic text, some of it beyond ASCII, picked by the record's hash.
_REGIONS = (
    "us-east", "us-west", "eu-west", "eu-central", "ap-south", "ap-northeast", "sa-east",
    "af-south",
)  # fmt: skip
_EVENTS = ("page_view", "click", "add_to_cart", "purchase", "signup", "search", "logout")
_NAMES = (
    "Ana García", "Jörg Müller", "Zoë Smith", "Søren Kierkegaard", "李雷", "Olivia O'Brien",
    "Łukasz Żak", "Amélie Poulain",
)  # fmt: skip
_CITIES = ("Zürich", "São Paulo", "Kraków", "Reykjavík", "New York", "Tōkyō", "Montréal", "Málaga")
_FILLER = (
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
    "incididunt ut labore et dolore magna aliqua. "
) * 40  # ASCII without escapes: one character is one byte of JSON


def json_payload(i: int, record_bytes: int) -> bytes:
    """Record ``i``: a compact JSON object (UTF-8, non-ASCII unescaped) of exactly
    ``record_bytes`` bytes (at least its ~700 bytes of fields), a function of ``i`` only."""
    h = (i * 2654435761) & 0xFFFFFFFF
    value: dict[str, Any] = {
        "id": i,
        "event_id": f"evt-{h:08x}-{i:010d}",
        "ts": 1_767_225_600_000 + i * 37,
        "type": _EVENTS[h % len(_EVENTS)],
        "region": _REGIONS[(h >> 8) % len(_REGIONS)],
        "user": {
            "id": h % 100_000,
            "name": _NAMES[(h >> 4) % len(_NAMES)],
            "email": f"user{h % 100_000}@example.com",
            "verified": h % 3 == 0,
            "score": (h % 400) * 0.25,
            "address": {
                "city": _CITIES[(h >> 12) % len(_CITIES)],
                "zip": f"{h % 100_000:05d}",
                "geo": {"lat": (h % 720 - 360) * 0.25, "lon": ((h >> 3) % 1440 - 720) * 0.125},
            },
        },
        "amount": (h % 100_000) / 8,
        "discount": 0.25 if h % 4 == 0 else 0.0,
        "quantity": 1 + h % 9,
        "items": [
            {"sku": f"SKU-{(h >> k) % 10_000:04d}", "qty": 1 + (h >> k) % 4, "price": 12.5 + k}
            for k in range(1 + h % 3)
        ],
        "tags": ["web" if h % 2 else "mobile", f"campaign-{h % 17}", "beta"][: 1 + h % 3],
        "flags": {"returning": h % 5 == 0, "gift": False, "newsletter": True},
        "coupon": None if h % 7 else f"SAVE{h % 50}",
        "referrer": None,
        "comment": f'Said "great product" \\ {_NAMES[h % 8]}\nrated {1 + h % 5}/5\t✓ — ünïcødé 🚀',
        "body": "",
    }
    base = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
    value["body"] = _FILLER[: max(0, record_bytes - base)]
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


# --- the child process: one variant ---


def run_child(
    variant: str, topic: str, out: Path, max_offsets: int, flush_size: int, bucket: str | None
) -> None:
    """Run one variant to completion in this process."""
    import s3connect

    print(f"S3CONNECT_FROM {Path(s3connect.__file__).parent}", flush=True)
    os.environ.setdefault("S3CONNECT_DRIVER_MEMORY", "4g")
    from s3connect.spark.session import get_spark

    spark = get_spark(f"bench-json-{variant}")
    spark.sparkContext.setLogLevel("ERROR")
    started = time.monotonic()
    try:
        if variant in S3CONNECT_VARIANTS:
            from s3connect.config.sink import SinkConfig
            from s3connect.spark.sink_query import run_sink

            config = _sink_config(variant, topic, out, max_offsets, bucket)
            config["flush.size"] = str(flush_size)
            run_sink(SinkConfig.from_mapping(config), spark, once=True)
        else:
            _spark_query(spark, variant, topic, out, max_offsets)
    finally:
        print(f"QUERY_SECONDS {time.monotonic() - started:.3f}", flush=True)


def _sink_config(
    variant: str, topic: str, out: Path, max_offsets: int, bucket: str | None
) -> dict[str, str]:
    config = {
        "name": f"bench-{variant}",
        "topics": topic,
        "kafka.bootstrap.servers": KAFKA,
        "checkpoint.location": str(out / "checkpoint"),
        "max.offsets.per.trigger": str(max_offsets),
        "flush.size": str(FLUSH_SIZE),
        **S3CONNECT_VARIANTS[variant],
    }
    if bucket is None:
        config.update({"s3.bucket.name": "bench", "store.url": f"file://{out / 'data'}"})
        return config
    stack = local_stack()
    config.update(
        {
            "s3.bucket.name": bucket,
            "s3.region": stack.S3_REGION,
            "store.url": stack.s3_endpoint(),
            "aws.access.key.id": stack.S3_ACCESS_KEY_ID,
            "aws.secret.access.key": stack.S3_SECRET_ACCESS_KEY,
        }
    )
    return config


def _spark_query(spark: Any, variant: str, topic: str, out: Path, max_offsets: int) -> None:
    df = (
        spark.readStream.format("kafka")
        .option("kafka.bootstrap.servers", KAFKA)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", str(max_offsets))
        .option("includeHeaders", str(variant == "arrow-handoff").lower())
        .load()
    )
    if variant == "noop":
        writer = df.writeStream.format("noop")
    elif variant == "arrow-handoff":
        from s3connect.spark.sink_query import kafka_rows, processor_input

        def handoff(batch: Any, batch_id: int) -> None:
            processor_input(kafka_rows(batch)).mapInArrow(_count_rows, "n LONG").collect()

        writer = df.writeStream.foreachBatch(handoff)
    else:
        writer = (
            df.selectExpr("CAST(value AS STRING) AS value")
            .writeStream.format("text")
            .option("path", str(out / "data"))
        )
        if variant == "spark-text-gzip":
            writer = writer.option("compression", "gzip")
    query = (
        writer.option("checkpointLocation", str(out / "checkpoint"))
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()


def _count_rows(batches: Iterator[Any]) -> Iterator[Any]:
    """The arrow-handoff variant's Python side: counts the rows, nothing else."""
    import pyarrow as pa

    n = sum(b.num_rows for b in batches)
    yield pa.RecordBatch.from_pydict({"n": [n]})


# --- the parent: measuring ---


def measure(variant: str, topic: str, args: argparse.Namespace) -> dict[str, Any]:
    """Run ``variant`` in a child process and measure it (see the module docstring)."""
    base = variant.removesuffix(BASELINE)
    out = Path(tempfile.mkdtemp(prefix=f"bench-json-{variant}-"))
    env = dict(os.environ)
    if variant.endswith(BASELINE):
        if args.baseline is None:
            raise SystemExit(f"{variant}: --baseline DIR is needed")
        env["PYTHONPATH"] = str(args.baseline.resolve() / "src")
        env.setdefault("S3CONNECT_JARS_DIR", str(baseline_jars(args.baseline.resolve())))
    bucket, s3 = None, None
    if args.s3 and base in S3CONNECT_VARIANTS:
        s3 = s3_client()
        bucket = f"bench-{base}-{uuid.uuid4().hex[:8]}"
        s3.create_bucket(Bucket=bucket)
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", base, "--topic", topic,
           "--out", str(out), "--max-offsets", str(args.max_offsets),
           "--flush-size", str(args.flush_size)]  # fmt: skip
    if bucket:
        cmd += ["--bucket", bucket]
    load = os.getloadavg()[0]
    run = run_measured(cmd, env, out / "child.log", tail=True)
    result = {
        "variant": variant,
        "load_before": load,
        **child_result(run, out / "child.log", out / "data", s3, bucket, lines=True),
    }
    if s3 is not None and bucket is not None:
        drop_bucket(s3, bucket)
    shutil.rmtree(out, ignore_errors=True)
    return result


def _derive(r: dict[str, Any], records: int, record_bytes: int) -> None:
    """Rates from the whole-process time; CPU seconds per million records."""
    r["records_per_s"] = records / r["process_seconds"]
    r["mb_per_s"] = records * record_bytes / 1e6 / r["process_seconds"]
    r["cpu_s_per_m"] = r["cpu_seconds"] / (records / 1e6)
    r["reaped_cpu_s_per_m"] = r["reaped_cpu_seconds"] / (records / 1e6)


def _fmt(value: Any, spec: str) -> str:
    return "—" if value is None else format(value, spec)


def table(chosen: dict[str, dict[str, Any]]) -> list[str]:
    """The results as markdown table lines."""
    lines = [
        "| variant | output to | whole process | query | records/s | MB/s | peak RSS | "
        "CPU s / M records | output MB | records out |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in chosen.items():
        if "error" in r:
            lines.append(f"| {name} | {r['dest']} | failed | | | | | | | |")
            continue
        dest = "S3" if r["dest"].startswith("s3://") else "local"
        lines.append(
            f"| {name} | {dest} | {r['process_seconds']:.1f} s "
            f"| {_fmt(r.get('query_seconds'), '.1f')} s | {r['records_per_s']:,.0f} "
            f"| {r['mb_per_s']:.1f} | {r['peak_rss_mb']:,.0f} MB | {r['cpu_s_per_m']:.1f} "
            f"| {r['output_bytes'] / 1e6:,.1f} | {_fmt(r.get('records_out'), ',')} |"
        )
    return lines


def ratios(chosen: dict[str, dict[str, Any]]) -> list[str]:
    """Each s3connect variant against Spark's text sink: whole-process time (target >= 0.7x),
    query time, peak memory (target <= 1.0x) and CPU seconds."""
    lines = []
    for name, r in chosen.items():
        base = name.removesuffix(BASELINE)
        if base not in S3CONNECT_VARIANTS or "error" in r:
            continue
        refs = ["spark-text"] + (["spark-text-gzip"] if base == "json-gzip" else [])
        for ref in refs:
            s = chosen.get(ref)
            if s is None or "error" in s:
                continue
            speed = s["process_seconds"] / r["process_seconds"]
            query = (
                s["query_seconds"] / r["query_seconds"]
                if r.get("query_seconds") and s.get("query_seconds")
                else None
            )
            memory = r["peak_rss_mb"] / s["peak_rss_mb"]
            mark = "met" if speed >= TARGET_RATIO else "not met"
            lines.append(
                f"{name} / {ref}: {speed:.2f}x whole process ({mark}), query "
                f"{_fmt(query, '.2f')}x, peak RSS {memory:.2f}x "
                f"({'met' if memory <= 1.0 else 'not met'}), "
                f"CPU {r['cpu_seconds'] / s['cpu_seconds']:.2f}x"
            )
    return lines


def _variants(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[str]:
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variants {unknown}; known: {', '.join(VARIANTS)}")
    if args.baseline is not None and not any(v.endswith(BASELINE) for v in variants):
        variants = [
            w for v in variants for w in ([v, v + BASELINE] if v in S3CONNECT_VARIANTS else [v])
        ]
    if any(v.endswith(BASELINE) for v in variants) and args.baseline is None:
        parser.error("a -baseline variant needs --baseline DIR")
    return variants


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=1_020_000)
    parser.add_argument("--partitions", type=int, default=6)
    parser.add_argument("--record-bytes", type=int, default=1024)
    parser.add_argument("--max-offsets", type=int, default=200_000)
    parser.add_argument("--variants", default=",".join(DEFAULT_VARIANTS))
    parser.add_argument("--flush-size", type=int, default=FLUSH_SIZE, help="s3connect's")
    parser.add_argument("--s3", action="store_true", help="s3connect to the stack's S3 server")
    parser.add_argument("--baseline", type=Path, help="a checkout for the -baseline variants")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of all the variants")
    parser.add_argument("--child", choices=(*SPARK_VARIANTS, *S3CONNECT_VARIANTS))
    parser.add_argument("--topic")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--bucket")
    args = parser.parse_args()
    if args.child:
        run_child(args.child, args.topic, args.out, args.max_offsets, args.flush_size, args.bucket)
        return 0

    variants = _variants(args, parser)
    topic = ensure_topic(
        args.records, args.partitions, args.record_bytes, prefix=TOPIC_PREFIX, payload=json_payload
    )
    started_at = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    load_start = os.getloadavg()
    print(f"{topic}: {started_at}, load {load_start[0]:.2f} {load_start[1]:.2f}", flush=True)
    if load_start[0] > 1.5:
        print("warning: the machine is busy (1-minute load > 1.5): times will wander", flush=True)
    runs: dict[str, list[dict[str, Any]]] = {v: [] for v in variants}
    for round_ in range(args.repeat):
        for variant in variants:
            r = measure(variant, topic, args)
            if "error" not in r:
                _derive(r, args.records, args.record_bytes)
            runs[variant].append(r)
            if "error" in r:
                print(f"{variant} (round {round_ + 1}) FAILED:\n{r['error']}", flush=True)
                continue
            print(
                f"{variant:<22} whole {r['process_seconds']:6.1f} s  query "
                f"{_fmt(r.get('query_seconds'), '6.1f')} s  {r['records_per_s']:8,.0f} rec/s  "
                f"peak {r['peak_rss_mb']:6,.0f} MB  CPU {r['cpu_s_per_m']:5.1f} s/M "
                f"(reaped {r['reaped_cpu_s_per_m']:5.1f})  out {r['output_bytes'] / 1e6:7.1f} MB "
                f"{r['dest']}",
                flush=True,
            )
    chosen = {v: median_run(rs) for v, rs in runs.items()}
    load_end = os.getloadavg()
    print()
    print(
        f"{args.records:,} records of {args.record_bytes} B, {args.partitions} partitions, "
        f"{started_at}, load {load_start[0]:.2f} at start, {load_end[0]:.2f} at end"
        + (f", median of {args.repeat} rounds" if args.repeat > 1 else "")
    )
    print("\n".join(table(chosen)))
    print("\n".join(ratios(chosen)))
    dest = ROOT / "bench" / "results"
    dest.mkdir(parents=True, exist_ok=True)
    path = dest / f"json-sink-{args.partitions}p{'-s3' if args.s3 else ''}.json"
    report = {
        "args": vars(args),
        "topic": topic,
        "started_at": started_at,
        "load_start": load_start,
        "load_end": load_end,
        "cpus": os.cpu_count(),
        "results": chosen,
        "runs": runs,
    }
    path.write_text(json.dumps(report, indent=2, default=str))
    print(f"results: {path}")
    return 0 if all("error" not in r for r in chosen.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
