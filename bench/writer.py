"""Writer benchmark: the per-record path (the reference every fast path falls back to), in process.

    python bench/writer.py [--records 200000] [--baseline CHECKOUT] [--repeat 2]
                           [--variants json-default,json-hourly,envelope-avro-field]

Feeds ``--records`` generated Kafka records (1 KB schemaless JSON objects, or JsonConverter
envelopes of a 6-field struct) to one ``TopicPartitionWriter`` built from a Kafka Connect config,
writing into a local folder, no Spark and no stack; each variant and checkout runs in its own
process (this checkout's ``src``, and ``--baseline``'s, alternating, ``--repeat`` rounds) and
prints records/s, MB/s, CPU seconds per million records and the process's peak RSS:

- ``json-default``: schemaless JSON -> JsonFormat, DefaultPartitioner, flush.size 1000 (the
  rotator's one-open-file shortcut);
- ``json-hourly``: the same, hourly TimeBasedPartitioner on record timestamps and
  rotate.interval.ms (every rotation rule checked per record);
- ``envelope-avro-field``: JsonConverter envelopes -> AvroFormat, FieldPartitioner on a field
  of 4 values (4 open files), flush.size 1000.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ("json-default", "json-hourly", "envelope-avro-field")
_COMMON = {
    "topics": "t",
    "kafka.bootstrap.servers": "127.0.0.1:9092",
    "s3.bucket.name": "b",
    "flush.size": "1000",
}
_KEYS: dict[str, dict[str, str]] = {
    "json-default": {"format.class": "json", "value.converter.schemas.enable": "false"},
    "json-hourly": {
        "format.class": "json",
        "value.converter.schemas.enable": "false",
        "partitioner.class": "io.confluent.connect.storage.partitioner.HourlyPartitioner",
        "timestamp.extractor": "Record",
        "locale": "en",
        "timezone": "UTC",
        "rotate.interval.ms": "600000",
    },
    "envelope-avro-field": {
        "format.class": "avro",
        "value.converter.schemas.enable": "true",
        "partitioner.class": "io.confluent.connect.storage.partitioner.FieldPartitioner",
        "partition.field.name": "region",
    },
}
_SCHEMA = {
    "type": "struct",
    "name": "Order",
    "fields": [
        {"field": "id", "type": "int64"},
        {"field": "region", "type": "string"},
        {"field": "amount", "type": "double"},
        {"field": "paid", "type": "boolean"},
        {"field": "note", "type": "string", "optional": True},
        {"field": "tags", "type": "array", "items": {"type": "string"}},
    ],
}


def _value(variant: str, i: int) -> bytes:
    regions = ("eu", "us", "apac", "latam")
    if variant == "envelope-avro-field":
        payload = {"id": i, "region": regions[i % 4], "amount": i * 0.25, "paid": i % 2 == 0,
                   "note": None if i % 3 else f"note {i}", "tags": ["a", f"t{i % 7}"]}  # fmt: skip
        return json.dumps({"schema": _SCHEMA, "payload": payload}).encode()
    body = {"id": i, "region": regions[i % 4], "user": {"name": f"user-{i}", "age": i % 90},
            "items": [{"sku": f"s{j}", "qty": j} for j in range(3)]}  # fmt: skip
    text = json.dumps(body)
    return json.dumps({**body, "pad": "x" * max(0, 1000 - len(text))}).encode()


def _child(src: str, variant: str, records: int) -> None:
    """Write the records with the writer of ``src``; print one JSON line of measurements."""
    sys.path.insert(0, src)
    from s3connect.config.sink import SinkConfig
    from s3connect.connect.records import RawRecord
    from s3connect.sink.context import build_writer_context
    from s3connect.sink.writer import TopicPartitionWriter

    with tempfile.TemporaryDirectory() as out:
        keys = {**_COMMON, **_KEYS[variant], "store.url": f"file://{out}",
                "checkpoint.location": f"{out}/ck"}  # fmt: skip
        writer = TopicPartitionWriter(build_writer_context(SinkConfig.from_mapping(keys)), "t", 0)
        base = 1_700_000_000_000
        raws = [RawRecord("t", 0, i, base + i * 20, None, _value(variant, i), ())
                for i in range(records)]  # fmt: skip
        size = sum(len(r.value or b"") for r in raws)
        started, cpu = time.monotonic(), time.process_time()
        for start in range(0, records, 10_000):  # micro-batch-sized calls
            writer.write(raws[start : start + 10_000], base)
        wall, cpu = time.monotonic() - started, time.process_time() - cpu
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"src": src, "variant": variant, "records": records, "bytes": size,
                      "wall_s": wall, "cpu_s": cpu, "peak_mb": peak_mb}))  # fmt: skip


def _run(src: Path, variant: str, records: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", str(src), "--variants", variant,
         "--records", str(records)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--baseline", type=Path, help="another checkout, run beside this one")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.variants, args.records)
        return
    sources = [("HEAD", ROOT / "src")]
    if args.baseline is not None:
        sources.append(("baseline", args.baseline.resolve() / "src"))
    print("variant              | code     | wall s | records/s | MB/s  | CPU s/M | peak MB")
    for _ in range(args.repeat):
        for variant in args.variants.split(","):
            for name, src in sources:
                m = _run(src, variant, args.records)
                print(f"{variant:20} | {name:8} | {m['wall_s']:6.2f} | "
                      f"{m['records'] / m['wall_s']:9,.0f} | "
                      f"{m['bytes'] / m['wall_s'] / 1e6:5.1f} | "
                      f"{m['cpu_s'] / m['records'] * 1e6:7.2f} | {m['peak_mb']:7.0f}",
                      flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
