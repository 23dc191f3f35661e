"""The line path (s3connect.sink.lines) against the per-record path: on generated configs and
records, the same objects byte for byte, the same output rows (committed objects, dead letters),
the same errors and the same saved state, also when micro-batches switch between the paths."""

from __future__ import annotations

import functools
import io
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from s3connect.config.sink import SinkConfig
from s3connect.connect.records import SinkRecord
from s3connect.convert.json import JsonConverter
from s3connect.formats.avro import AvroFormat
from s3connect.formats.json import json_line
from s3connect.formats.parquet import ParquetFormat
from s3connect.sink.lines import LineRun, _offsets, line_plan
from s3connect.sink.partition_state import PartitionStateStore, local_state_root
from s3connect.sink.pending import decode_pending
from s3connect.sink.task import PartitionTask
from s3connect.util.timeformat import JodaZone

_PAIRS = {
    "json-json": {
        "value.converter": "org.apache.kafka.connect.json.JsonConverter",
        "value.converter.schemas.enable": "false",
        "format.class": "io.confluent.connect.s3.format.json.JsonFormat",
    },
    "json-field": {
        "value.converter": "org.apache.kafka.connect.json.JsonConverter",
        "value.converter.schemas.enable": "false",
        "format.class": "io.confluent.connect.s3.format.json.JsonFormat",
        "partitioner.class": "io.confluent.connect.storage.partitioner.FieldPartitioner",
    },
    "json-time": {
        "value.converter": "org.apache.kafka.connect.json.JsonConverter",
        "value.converter.schemas.enable": "false",
        "format.class": "io.confluent.connect.s3.format.json.JsonFormat",
    },
    "string-json": {
        "value.converter": "org.apache.kafka.connect.storage.StringConverter",
        "format.class": "io.confluent.connect.s3.format.json.JsonFormat",
    },
    "bytearray-bytearray": {
        "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
        "format.class": "io.confluent.connect.s3.format.bytearray.ByteArrayFormat",
    },
    "json-avro": {
        "value.converter": "org.apache.kafka.connect.json.JsonConverter",
        "value.converter.schemas.enable": "true",
        "format.class": "io.confluent.connect.s3.format.avro.AvroFormat",
    },
    "json-parquet": {
        "value.converter": "org.apache.kafka.connect.json.JsonConverter",
        "value.converter.schemas.enable": "true",
        "format.class": "io.confluent.connect.s3.format.parquet.ParquetFormat",
    },
}

_TEXTS = [
    "plain ascii", "", "Zürich São Paulo", "李雷", "quote \" inside", "back\\slash", "tab\there",
    "new\nline", "\x00\x1f\x7f", "😀 astral", "é" * 40, "x" * 300,
]  # fmt: skip
_JSONS = [
    b'{"b":1,"a":2,"c":[1,2.5,null,true],"d":{"z":"\\u00e9","y":-0.0}}',
    b'{"id":12345678901234567890,"f":1e300,"g":1.0E-5,"s":"\\ud83d\\ude00"}',
    b"[1, 2, 3]", b'"a string"', b"42", b"3.25", b"true", b"null", b"", b"   ",
    b"{not json", b'{"a":1} trailing', b"\xef\xbb\xbf{\"bom\":1}", b'{"dup":1,"dup":2}',
    b'{"k":"\xf0\x9f\x98\x80","n":0.001,"m":1234567.0}',
]  # fmt: skip


# FieldPartitioner values: most in few files, some refused (null, object, array) or needing
# Java's number text or percent-encoding, some alike in a key (1 and "1", true and "true");
# "n.m" is a nested field, '"a.b"' a key with a dot.
_FIELD_VALUES = [1, 1, "1", 2, -7, "eu", "eu", "us/west", "..", True, "true", False, 2.5, 1e20,
                 0.001, None, {"x": 1}, [1], "é%41"]  # fmt: skip
_FIELDS = ["r", "r,n.m", '"a.b"', "r, s ,r"]


def _field_value(rng: random.Random) -> bytes:
    """A JSON object with the partition fields (each now and then missing) and other keys."""
    value: dict[str, Any] = {f"k{rng.randrange(9)}": rng.random() for _ in range(2)}
    for name in ("r", "s", "a.b"):
        if rng.random() < 0.95:
            value[name] = rng.choice(_FIELD_VALUES)
    if rng.random() < 0.9:
        value["n"] = {"m": rng.choice(_FIELD_VALUES[:8])} if rng.random() < 0.95 else 3
    return json.dumps(value, ensure_ascii=rng.random() < 0.5).encode()


def _time_value(rng: random.Random, offset: int) -> bytes:
    """A JSON object with its time (RecordField) at ts, meta.ts and "a.ts": epoch millis near
    the Kafka time (only those, at some offsets), else ISO text, a decimal, or what the
    extractor refuses."""
    stamp = _timestamp(offset) or 1_699_163_990_000

    def when() -> Any:
        if offset // 40 % 2 == 0:  # stretches of whole numbers only (cast as a column)
            return rng.choice([stamp, stamp + 3_600_000])
        return rng.choice([
            stamp, stamp, stamp, stamp + 3_600_000, stamp / 1.0 + 0.5, "2023-11-05T06:00:00Z",
            "2023-11-05T01:59:59.5-04:00", "2024-03-10T02:30:00", "not a time", True, None, [1],
            {"x": 1},
        ])  # fmt: skip

    value: dict[str, Any] = {"k": rng.random()}
    if rng.random() < 0.95:
        value["ts"] = when()
    value["meta"] = {"ts": when()}
    value["a.ts"] = when()
    return json.dumps(value).encode()


def _f(field: str, kind: str, optional: bool = False, **more: Any) -> dict[str, Any]:
    return {"field": field, "type": kind, "optional": optional, **more}


_STAMP = {"name": "org.apache.kafka.connect.data.Timestamp", "version": 1}
_DAY = {"name": "org.apache.kafka.connect.data.Date", "version": 1}
_ENVELOPE_FIELDS = [
    _f("id", "int64"), _f("name", "string"), _f("score", "double", True),
    _f("tags", "array", items={"type": "string", "optional": False}),
    _f("m", "map", True, keys={"type": "string", "optional": False},
       values={"type": "int32", "optional": True}),
    _f("when", "int64", **_STAMP), _f("day", "int32", True, **_DAY), _f("b", "bytes", True),
    _f("small", "int8", True), _f("f", "float", True),
    _f("in", "struct", True, name="t.In", fields=[_f("x", "int32"), _f("y", "string", True)]),
]  # fmt: skip
_ENVELOPE_SCHEMAS = [
    {"type": "struct", "name": "t.V", "optional": False, "fields": _ENVELOPE_FIELDS},
    {"type": "struct", "name": "t.V", "optional": False,  # a compatible later version
     "fields": [*_ENVELOPE_FIELDS, _f("extra", "string", True)]},
    {"type": "string", "optional": False},
    {"type": "struct", "name": "t.D", "optional": False,  # a default: Python's to decide
     "fields": [_f("id", "int64"), _f("d", "int32", True, default=7)]},
]  # fmt: skip


# Parquet: structs, maps only as their own fields (Arrow's JSON reader has none: read apart).
_PARQUET_SCHEMAS = [
    _ENVELOPE_SCHEMAS[0],
    _ENVELOPE_SCHEMAS[1],
    {"type": "struct", "name": "t.N", "optional": False,  # a map in a struct: per record
     "fields": [_f("id", "int64"),
                _f("in", "struct", True, name="t.M", fields=[_ENVELOPE_FIELDS[4]])]},
    _ENVELOPE_SCHEMAS[3],
]  # fmt: skip


def _envelope_value(
    rng: random.Random, schemas: list[dict[str, Any]], clean: bool = False
) -> bytes:
    """A JsonConverter envelope of one of a few schemas, most of its payloads converting, some
    with a value of the wrong kind, a null for a required field, an edge number; ``clean``: only
    values of their field's kind, in range, with every field."""
    schema = rng.choice(schemas[:1] * (30 if clean else 6) + schemas[1:])
    if schema["type"] == "string":
        payload: Any = rng.choice([*_TEXTS, None, 5])
    else:
        payload = {
            f["field"]: _field_payload(rng, f, clean)
            for f in schema["fields"]
            if clean or rng.random() < 0.97
        }
    if not clean and rng.random() < 0.03:
        return rng.choice([b"{", b'{"schema":null,"payload":1}', b'{"payload":{}}', b"[]"])
    envelope = json.dumps({"schema": schema, "payload": payload}, separators=(",", ":"))
    return envelope.encode()


_CLEAN = {"double": [0.5, -1.25e-7, 3, 0.1, 1e30], "int8": [-128, 127, 5], "int32": [17, -19000]}


def _field_payload(rng: random.Random, field: dict[str, Any], clean: bool = False) -> Any:
    kind = field["type"]
    if clean and kind in ("double", "float", "int8", "int32", "int64"):
        return rng.choice(_CLEAN.get(kind, _CLEAN["double" if kind == "float" else "int32"]))
    if not clean and rng.random() < 0.03:
        return rng.choice([None, "text", 1.5, [1], {"x": 1}, True, 2**70])
    if kind == "struct":
        return None if rng.random() < 0.2 else {"x": rng.randrange(-5, 5), "y": rng.choice(_TEXTS)}
    if kind == "array":
        return [rng.choice(_TEXTS) for _ in range(rng.randrange(0, 4))]
    if kind == "map":
        return {f"k{rng.randrange(30)}": rng.choice([1, None, -2]) for _ in range(rng.randrange(4))}
    if kind == "bytes":
        return rng.choice(["AAEC", "", "QQ==", "3q2+7w==", *(() if clean else ("QQ", "not b64!"))])
    if kind == "string":
        return rng.choice(_TEXTS)
    if kind in ("double", "float"):
        return rng.choice([0.5, -1.25e-7, 0.0, -0.0, 1e300, 3, 2.0**60 + 1, 0.1, 3.4028236e38])
    if kind == "int8":
        return rng.choice([-128, 127, 128, 5, 0])
    if kind == "int32":
        return rng.choice([0, 17, -19000, 2_932_897, 2**31])
    return rng.choice([0, 1, -(2**63), 2**63 - 1, 1_700_000_000_000, 253_402_300_800_000])


def _value(rng: random.Random, pair: str, offset: int = 0) -> bytes | None:
    if rng.random() < 0.03:
        return None
    if pair == "json-avro":
        return _envelope_value(rng, _ENVELOPE_SCHEMAS)
    if pair == "json-parquet":  # mostly values of their fields' kinds: long runs
        return _envelope_value(rng, _PARQUET_SCHEMAS, clean=rng.random() < 0.85)
    if pair == "json-time":
        return _time_value(rng, offset) if rng.random() < 0.9 else rng.choice(_JSONS)
    if pair == "json-field":
        return _field_value(rng) if rng.random() < 0.9 else rng.choice(_JSONS)
    if pair == "json-json":
        if rng.random() < 0.8:  # most values convert: long line runs
            return json.dumps(
                {f"k{rng.randrange(40)}": rng.choice([1, -2.5, "v", None, [1], {"x": 1}])
                 for _ in range(rng.randrange(1, 6))}
            ).encode()  # fmt: skip
        return rng.choice(_JSONS)
    if pair == "bytearray-bytearray" or rng.random() < 0.05:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 12)))  # any bytes
    if rng.random() < 0.05:
        return rng.choice([b"\xed\xa0\x80", b"\xff", b"caf\xc3"])  # not UTF-8 (a surrogate...)
    if rng.random() < 0.6:
        return f"text {rng.randrange(10**6)} ok".encode()
    if rng.random() < 0.6:  # text that needs Jackson's short escapes only
        parts = ['{"a":', '"b\\n"', "\\", "\r\b\f", "\t", "é", str(rng.random())]
        return "".join(rng.choice(parts) for _ in range(rng.randrange(1, 8))).encode()
    return rng.choice(_TEXTS).encode()


def _sink(tmp: Path, pair: str, **keys: str) -> SinkConfig:
    """A sink of topic ``events`` into ``tmp``, the converter and format of ``pair``."""
    return SinkConfig.from_mapping(
        {
            "name": "t",
            "topics": "events",
            "kafka.bootstrap.servers": "127.0.0.1:1",
            "checkpoint.location": str(tmp / "cp"),
            "s3.bucket.name": "b",
            "store.url": f"file://{tmp / 'data'}",
            **_PAIRS[pair],
            **keys,
        }
    )


def _config(tmp: Path, rng: random.Random, pair: str) -> SinkConfig:
    extra: dict[str, str] = {}
    if rng.random() < 0.5:
        extra["errors.tolerance"] = "all"
    if rng.random() < 0.5:
        extra["behavior.on.null.values"] = "ignore"
    if rng.random() < 0.3 and pair not in ("json-avro", "json-parquet"):
        extra["s3.compression.type"] = "gzip"
    if pair == "json-avro" and rng.random() < 0.5:
        extra["avro.codec"] = rng.choice(["snappy", "deflate"])
    if pair == "json-parquet" and rng.random() < 0.5:
        extra["parquet.codec"] = rng.choice(["none", "gzip", "zstd"])
    if rng.random() < 0.3:
        extra["schema.compatibility"] = rng.choice(["BACKWARD", "FORWARD", "FULL"])
    if pair == "json-field":
        extra["partition.field.name"] = rng.choice(_FIELDS)
        if rng.random() < 0.3:
            extra["directory.delim"] = "_"
    elif pair == "json-time":
        extra |= _time_keys(rng)
        extra["timestamp.extractor"] = "RecordField"
        extra["timestamp.field"] = rng.choice(["ts", "ts", "meta.ts", '"a.ts"'])
    elif rng.random() < 0.5:
        extra |= _time_keys(rng)
    if "bytearray" in pair and rng.random() < 0.5:
        extra["format.bytearray.separator"] = rng.choice(["|", "\r\n", "--"])
    return _sink(tmp, pair, **{"flush.size": str(rng.choice([1, 2, 3, 5, 8, 40]))}, **extra)


_TIME = "io.confluent.connect.storage.partitioner."


def _time_keys(rng: random.Random) -> dict[str, str]:
    """A time-based partitioner by Kafka time or the wall clock, in a zone of fixed offset or
    one with daylight saving time, with rotation by time now and then."""
    keys = {
        "partitioner.class": _TIME
        + rng.choice(["TimeBasedPartitioner"] * 3 + ["HourlyPartitioner"]),
        "partition.duration.ms": str(rng.choice([1000, 7000, 60_000])),
        "path.format": rng.choice(["'t'=HH-mm-ss", "YYYY/MM/dd/HH/mm/ss"]),
        "locale": "en-US",
        "timezone": rng.choice(["UTC", "+05:30", "-03:00", "America/New_York", "Asia/Kathmandu"]),
        "timestamp.extractor": rng.choice(["Record", "Record", "Wallclock"]),
    }
    if rng.random() < 0.4:
        keys["rotate.interval.ms"] = str(rng.choice([500, 3000, 20_000]))
    if rng.random() < 0.3:
        keys["rotate.schedule.interval.ms"] = str(rng.choice([2000, 60_000]))
    return keys


def _micro_batches(rng: random.Random, pair: str) -> list[list[pa.RecordBatch]]:
    """Micro-batches of one partition, each split into Arrow batches; offsets with gaps."""
    offset, out = rng.randrange(0, 5), []
    for _ in range(rng.randrange(1, 6)):
        arrow_batches = []
        for _ in range(rng.randrange(1, 4)):
            n = rng.randrange(1, 30)
            offsets = []
            for _ in range(n):
                offsets.append(offset)
                offset += 1 if rng.random() < 0.9 else rng.randrange(2, 5)
            values = [_value(rng, pair, o) for o in offsets]
            arrow_batches.append(_rows(offsets, values))
        out.append(arrow_batches)
    return out


def _timestamp(offset: int) -> int | None:
    """Kafka time: a few records a second, some out of order, now and then none; across New
    York's change from daylight saving time (2023-11-05 06:00 UTC), and to it (2024-03-10
    07:00 UTC) from offset 80."""
    if offset % 97 == 13:
        return None
    start = 1_699_163_990_000 if offset < 80 else 1_710_053_990_000 - 80 * 271
    return start + offset * 271 + (offset * 7919) % 1500


def _rows(offsets: list[int], values: list[bytes | None]) -> pa.RecordBatch:
    return pa.RecordBatch.from_pydict(
        {
            "topic": ["events"] * len(offsets),
            "partition": pa.array([2] * len(offsets), pa.int32()),
            "offset": pa.array(offsets, pa.int64()),
            "timestamp": pa.array([_timestamp(o) for o in offsets], pa.int64()),
            "key": pa.array([b"k%d" % o for o in offsets], pa.binary()),
            "value": pa.array(values, pa.binary()),
            "headers": pa.array([None] * len(offsets), pa.string()),
        }
    )


def _datums_as_from_the_jvm(rows: pa.RecordBatch, config: SinkConfig) -> pa.RecordBatch:
    """``rows`` with the ``line`` and ``schema_id`` columns JsonAvroDatum adds (the Python
    writer's datums; the integration tests check the JVM's): a number per distinct envelope
    prefix, null where the value does not convert."""
    fmt = AvroFormat("null")
    converter = JsonConverter(schemas_enable=True)
    lines: list[bytes | None] = []
    ids: list[int | None] = []
    prefixes: dict[bytes, int] = {}
    for data in rows.column("value").to_pylist():
        line = found = None
        try:
            value, schema = converter.to_connect("", data)
            if value is not None and schema is not None:
                line = fmt.datum_encoder(schema)(value)
                found = prefixes.setdefault(data[: data.index(b',"payload":')], len(prefixes))
        except Exception:
            line = found = None
        lines.append(line)
        ids.append(None if line is None else found)
    extra = [pa.array(lines, pa.binary()), pa.array(ids, pa.int64())]
    return pa.RecordBatch.from_arrays(
        [*rows.columns, *extra], [*rows.schema.names, "line", "schema_id"]
    )


def _payloads_as_from_the_jvm(rows: pa.RecordBatch, config: SinkConfig) -> pa.RecordBatch:
    """``rows`` with the ``payload_start`` and ``schema_id`` columns JsonParquetPayload adds:
    here where the payload read by Arrow's JSON reader makes the Parquet file the per-record
    writer makes for the record (the integration tests check the JVM's choice)."""
    starts = [_payload_start(data) for data in rows.column("value").to_pylist()]
    prefixes: dict[bytes, int] = {}
    ids = [
        None if start is None else prefixes.setdefault(data[:start], len(prefixes))
        for data, start in zip(rows.column("value").to_pylist(), starts, strict=True)
    ]
    extra = [pa.array(starts, pa.int32()), pa.array(ids, pa.int64())]
    return pa.RecordBatch.from_arrays(
        [*rows.columns, *extra], [*rows.schema.names, "payload_start", "schema_id"]
    )


@functools.cache
def _payload_start(data: bytes | None) -> int | None:
    """Where the payload of the envelope ``data`` starts, if Arrow's JSON reader reads it into
    the Parquet file the per-record writer writes for it."""
    try:
        value, schema = JsonConverter(schemas_enable=True).to_connect("", data)
        assert data is not None and value is not None and schema is not None
        start = data.index(b',"payload":') + len(b',"payload":')
        fmt, expected, got = ParquetFormat(), io.BytesIO(), io.BytesIO()
        fmt.write([SinkRecord("t", 0, 0, None, None, value, None, schema)], expected)
        fmt.write_payloads(schema, [pa.array([data[start:-1]])], got)
        assert got.getvalue() == expected.getvalue()
        return start
    except Exception:
        return None


def _as_from_the_jvm(rows: pa.RecordBatch, config: SinkConfig) -> pa.RecordBatch:
    """``rows`` with the ``line`` and ``fields`` columns SchemalessJsonFieldLine adds (Jackson's
    text of what JsonConverter read: ``json_line``; the integration tests check the JVM's)."""
    plan = line_plan(config)
    assert plan is not None
    converter = JsonConverter(schemas_enable=False)
    lines, fields = [], []
    for data in rows.column("value").to_pylist():
        try:
            value, _ = converter.to_connect("", data)
        except ValueError:
            value = None
        found = [value]
        for path in plan.field_paths if value is not None else ():
            current = value
            for key in path:
                current = current.get(key) if isinstance(current, dict) else None
            found.append(current)
        ok = value is not None and None not in found
        lines.append(json_line(value, None) if ok else None)
        fields.append(json_line(found[1:], None) if ok else None)
    extra = [pa.array(lines, pa.binary()), pa.array(fields, pa.binary())]
    return pa.RecordBatch.from_arrays(
        [*rows.columns, *extra], [*rows.schema.names, "line", "fields"]
    )


def _run(
    config: SinkConfig, batches: list[list[pa.RecordBatch]], paths: list[bool]
) -> dict[str, Any]:
    """Each micro-batch in a task of its own, taking the line path or not; what came out."""
    root = local_state_root(config.streaming.checkpoint_location)
    assert root is not None
    rows: list[Any] = []
    for n, (micro_batch, line_path) in enumerate(zip(batches, paths, strict=True)):
        now_ms = 1_700_000_000_000 + 1700 * n  # the wall clock of each micro-batch
        task = PartitionTask(config, str(root), now_ms, line_path=line_path)
        try:
            rows += [_frameless(r) for out in task(iter(micro_batch)) for r in out.to_pylist()]
        except Exception as exc:  # the same failure on both paths
            rows.append(("failed", type(exc).__name__, str(exc)))
            break
    data = Path(config.s3.store_url.removeprefix("file://"))
    objects = {str(p.relative_to(data)): p.read_bytes() for p in data.rglob("*") if p.is_file()}
    saved = PartitionStateStore(root).load("events", 2, 1 << 62)
    state = None
    if saved is not None:
        entries = [e for c in saved.chunks for e in decode_pending("events", 2, c)]
        state = (saved.rotator.to_dict(), saved.next_offset, _flat(entries))
    return {"rows": rows, "objects": objects, "state": state}


def _frameless(row: dict[str, Any]) -> dict[str, Any]:
    """A dead letter's stack trace without its frames: which of the converter's internal paths
    (its envelope prefix cache, warm or not) raised the same error is no difference."""
    trace = row.get("exception_stacktrace")
    if trace:
        lines = trace.splitlines()
        row["exception_stacktrace"] = "\n".join(line for line in lines if not line[:1].isspace())
    return row


def _flat(entries: list[Any]) -> list[tuple[Any, ...]]:
    """The saved open records in offset order, whatever their chunks' kind and order."""
    out: list[tuple[Any, ...]] = []
    for e in entries:
        if isinstance(e, LineRun):
            names = ("offset", "timestamp", "key", "value")
            out += zip(*(e.columns.column(n).to_pylist() for n in names), strict=True)
        else:
            out.append((e.raw.offset, e.raw.timestamp, e.raw.key, e.raw.value))
    return sorted(out)


@pytest.mark.parametrize("seed", range(400))
def test_the_line_path_writes_what_the_per_record_path_writes(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    pair = list(_PAIRS)[seed % len(_PAIRS)]
    batches = _micro_batches(rng, pair)
    results = []
    mixed = [rng.random() < 0.5 for _ in batches]
    for name, paths in (("reference", [False] * len(batches)), ("lines", [True] * len(batches)),
                        ("mixed", mixed)):  # fmt: skip
        config = _config(tmp_path / name, random.Random(seed * 7919), pair)
        given = batches
        if pair in ("json-field", "json-time") and name != "reference" and seed // 6 % 2:
            given = [[_as_from_the_jvm(b, config) for b in mb] for mb in batches]
        if pair == "json-avro" and name != "reference" and seed // 7 % 2:
            given = [[_datums_as_from_the_jvm(b, config) for b in mb] for mb in batches]
        if pair == "json-parquet" and name != "reference":
            given = [[_payloads_as_from_the_jvm(b, config) for b in mb] for mb in batches]
        assert line_plan(config) is not None
        results.append(_run(config, given, paths))
    reference, lines, mixed_result = results
    assert lines == reference
    assert mixed_result == reference


def test_runs_are_saved_as_lines_and_written_from_them(tmp_path: Path) -> None:
    config = _sink(tmp_path, "string-json", **{"flush.size": "10"})
    root = local_state_root(config.streaming.checkpoint_location)
    assert root is not None
    out = _run(config, [[_rows(list(range(7)), [b"a%d" % i for i in range(7)])]], [True])
    assert out["rows"] == []
    saved = PartitionStateStore(root).load("events", 2, 7)
    assert saved is not None
    # The record that opened the file went the per-record way, the rest as one line run.
    entries = [e for c in saved.chunks for e in decode_pending("events", 2, c)]
    assert [type(e).__name__ for e in entries] == ["PendingRecord", "LineRun"]
    assert entries[1].lines.to_pylist() == [b'"a%d"' % i for i in range(1, 7)]
    out = _run(config, [[_rows(list(range(7, 12)), [b"b%d" % i for i in range(7, 12)])]], [True])
    assert [(r["object_key"], r["record_count"]) for r in out["rows"]] == [
        ("topics/events/partition=2/events+2+0000000000.json", 10)
    ]
    lines = [f'"a{i}"' for i in range(7)] + [f'"b{i}"' for i in range(7, 10)]
    assert out["objects"] == {
        "topics/events/partition=2/events+2+0000000000.json": ("\n".join(lines) + "\n").encode()
    }


@pytest.mark.parametrize("line_path", [False, True])
def test_open_records_of_many_files_share_chunks(tmp_path: Path, line_path: bool) -> None:
    config = _sink(tmp_path, "json-json", **{
        "flush.size": "1000",
        "partitioner.class": "io.confluent.connect.storage.partitioner.FieldPartitioner",
        "partition.field.name": "r",
    })  # fmt: skip
    values = [json.dumps({"r": i % 8}).encode() for i in range(200)]
    _run(config, [[_rows(list(range(200)), values)]], [line_path])
    root = local_state_root(config.streaming.checkpoint_location)
    assert root is not None
    saved = PartitionStateStore(root).load("events", 2, 200)
    assert saved is not None
    entries = [[e for e in decode_pending("events", 2, c)] for c in saved.chunks]
    if not line_path:  # one chunk of single records
        assert [len(chunk) for chunk in entries] == [200]
        return
    # The 8 records that opened the files in one chunk; each file's 24 others as one run.
    assert [[type(e).__name__ for e in chunk] for chunk in entries] == [
        ["PendingRecord"] * 8,
        *[["LineRun"]] * 8,
    ]
    runs = [chunk[0] for chunk in entries[1:]]
    assert [(r.encoded_partition, len(r)) for r in runs] == [(f"r={i}", 24) for i in range(8)]
    assert runs[3].columns.column("offset").to_pylist() == list(range(11, 200, 8))
    assert runs[3].lines.to_pylist() == [b'{"r":3}'] * 24


def test_field_values_written_alike_share_their_file(tmp_path: Path) -> None:
    """1 and "1" (true and "true") are one encoded partition: one file, in offset order."""
    values = [
        json.dumps({"r": v, "i": i}).encode() for i, v in enumerate([1, "1", True, "true"] * 6)
    ]
    out = {}
    for name, line_path in (("reference", False), ("lines", True)):
        config = _sink(tmp_path / name, "json-field", **{
            "flush.size": "24", "partition.field.name": "r",
        })  # fmt: skip
        rows = _as_from_the_jvm(_rows(list(range(24)), values), config)
        out[name] = _run(config, [[rows]], [line_path])
    assert out["lines"] == out["reference"]
    assert sorted(out["lines"]["objects"]) == [
        "topics/events/r=1/events+2+0000000000.json",
        "topics/events/r=true/events+2+0000000002.json",
    ]
    written = out["lines"]["objects"]["topics/events/r=1/events+2+0000000000.json"]
    assert [json.loads(line)["i"] for line in written.splitlines()] == [
        i for i in range(24) if i % 4 < 2
    ]


@pytest.mark.parametrize(
    "zone",
    [
        "America/New_York",
        "Europe/London",
        "Australia/Lord_Howe",
        "Africa/Monrovia",
        "Pacific/Apia",
        "+05:30",
    ],
)
def test_zone_offsets_column_wise_are_those_of_each_instant(zone: str) -> None:
    """Offsets looked up per minute (per instant in a minute with a transition, such as
    Monrovia's at an odd second) equal the zone's offset at every instant."""
    joda = JodaZone.for_id(zone)
    rng = random.Random(zone)
    instants = [rng.randrange(-4_000_000_000_000, 4_200_000_000_000) for _ in range(3000)]
    for year_start in range(-3_786_825_600_000, 4_102_444_800_000, 31_556_952_000 // 3):
        instants += [year_start + rng.randrange(-90_000, 90_000) for _ in range(3)]
    # Around each transition: the instants a millisecond and a few seconds either side.
    transitions, last = [], min(instants)
    for instant in sorted(instants):
        if joda.offset_ms(instant) != joda.offset_ms(last):
            lo, hi = last, instant
            while hi - lo > 1:  # the transition's instant
                mid = (lo + hi) // 2
                lo, hi = (mid, hi) if joda.offset_ms(mid) == joda.offset_ms(lo) else (lo, mid)
            transitions.append(hi)
        last = instant
    instants += [t + d for t in transitions for d in (-61_000, -1500, -1, 0, 1, 999, 59_999)]
    given = np.array(instants, np.int64)
    assert _offsets(joda, given).tolist() == [joda.offset_ms(i) for i in instants]
    assert len(transitions) >= (0 if zone == "+05:30" else 2)


def test_a_file_saved_with_single_records_between_its_runs_keeps_offset_order(
    tmp_path: Path,
) -> None:
    """A Kafka batch with bytes that are not UTF-8 goes per record between two line runs of the
    same file; saved and taken up in the next micro-batch, the file stays in offset order."""
    config = _sink(tmp_path, "string-json", **{"flush.size": "12"})
    texts = [b"a%d" % i for i in range(12)]
    texts[5] = b"\xff"  # Java's decoding replaces it: its Kafka batch goes per record
    first = [
        _rows([0, 1, 2, 3, 4], texts[:5]),
        _rows([5, 6], texts[5:7]),
        _rows([7, 8], texts[7:9]),
    ]
    _run(config, [first], [True])
    root = local_state_root(config.streaming.checkpoint_location)
    assert root is not None
    saved = PartitionStateStore(root).load("events", 2, 9)
    assert saved is not None
    entries = [e for c in saved.chunks for e in decode_pending("events", 2, c)]
    assert sorted((type(e).__name__, e.first_offset) for e in entries) == [
        ("LineRun", 1), ("LineRun", 7), ("PendingRecord", 0), ("PendingRecord", 5),
        ("PendingRecord", 6),
    ]  # fmt: skip
    out = _run(config, [[_rows([9, 10, 11], texts[9:])]], [True])
    written = out["objects"]["topics/events/partition=2/events+2+0000000000.json"]
    texts[5] = "\ufffd".encode()  # (Jackson writes it as it is, in UTF-8)
    assert written.split(b"\n")[:-1] == [b'"' + t + b'"' for t in texts]


_PER_RECORD_ONLY = {
    "keys files": {"store.kafka.keys": "true"},
    "headers files": {"store.kafka.headers": "true"},
    "a transform": {
        "transforms": "i",
        "transforms.i.type": "org.apache.kafka.connect.transforms.InsertField$Value",
        "transforms.i.static.field": "f",
        "transforms.i.static.value": "v",
    },
    "a schema affix": {"s3.schema.partition.affix.type": "PREFIX"},
    "a registry key converter": {
        "key.converter": "io.confluent.connect.avro.AvroConverter",
        "key.converter.schema.registry.url": "http://127.0.0.1:1",
    },
    "a Kafka number key converter": {
        "key.converter": "org.apache.kafka.connect.converters.LongConverter"
    },
    "a Kafka number header converter": {
        "header.converter": "org.apache.kafka.connect.converters.LongConverter"
    },
}


_REGISTRY_AVRO = {  # the line paths of AvroConverter: tests/integration (a registry)
    "value.converter": "io.confluent.connect.avro.AvroConverter",
    "value.converter.schema.registry.url": "http://127.0.0.1:1",
}
_REGISTRY_FORMATS = {
    "avro-parquet": "io.confluent.connect.s3.format.parquet.ParquetFormat",
    "avro-avro": "io.confluent.connect.s3.format.avro.AvroFormat",
}


@pytest.mark.parametrize("converter", ["Short", "Integer", "Long", "Float", "Double", "Boolean"])
@pytest.mark.parametrize("fmt", ["JsonFormat", "AvroFormat", "ByteArrayFormat"])
def test_number_and_boolean_value_converters_go_per_record(
    tmp_path: Path, converter: str, fmt: str
) -> None:
    """Kafka's number and Boolean converters have no line path: every record is converted."""
    keys = {
        "value.converter": f"org.apache.kafka.connect.converters.{converter}Converter",
        "format.class": fmt,
        "flush.size": "5",
    }
    assert line_plan(_sink(tmp_path, "json-json", **keys)) is None


@pytest.mark.parametrize(
    "pair",
    ["json-json", "bytearray-bytearray", "json-avro", "json-parquet", "avro-parquet", "avro-avro"],
)
@pytest.mark.parametrize("keys", list(_PER_RECORD_ONLY), ids=str)
def test_configs_the_line_path_cannot_prove_go_per_record(
    tmp_path: Path, pair: str, keys: str
) -> None:
    """Keys or headers files, transforms, a schema affix, a key converter that may fail the
    batch: no plan, so every record goes the per-record way (decided per config)."""
    base = {"flush.size": "5"}
    if pair in _REGISTRY_FORMATS:
        base |= {**_REGISTRY_AVRO, "format.class": _REGISTRY_FORMATS[pair]}
    pairing = "json-json" if pair in _REGISTRY_FORMATS else pair
    plan = line_plan(_sink(tmp_path, pairing, **base))
    assert plan is not None and plan.name == pair
    assert line_plan(_sink(tmp_path, pairing, **base, **_PER_RECORD_ONLY[keys])) is None
