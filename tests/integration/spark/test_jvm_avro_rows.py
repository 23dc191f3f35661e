"""The JVM's rows of Confluent-framed Avro datums (s3connect-jvm.jar: RegistryAvroRow) against the
Python reader (AvroConverter's): on random schemas and datums, some of them damaged, the JVM
gives a row only for a datum the Python reader reads, and the Parquet file of its rows
(formats/payloads.avro_rows) is the per-record writer's, byte for byte; at the edges it leaves to
Python what Python reads otherwise; and a sink run through the stack's registry with it writes
the same objects and dead letters as one that reads every record in Python."""

from __future__ import annotations

import io
import json
import random
import uuid
from pathlib import Path
from typing import Any

import fastavro
import pyarrow as pa
import pytest
from confluent_kafka import Producer
from confluent_kafka.schema_registry import Schema, SchemaRegistryClient

from s3connect.config.sink import SinkConfig
from s3connect.connect.json_data import json_to_connect, parse_json_schema
from s3connect.connect.records import SinkRecord
from s3connect.convert.avro_data import (
    AvroDataOptions,
    avro_schema_json,
    connect_reader,
    to_avro_value,
)
from s3connect.formats.parquet import ParquetFormat
from s3connect.formats.payloads import avro_rows
from s3connect.sink.lines import line_plan
from s3connect.sink.registry_columns import latest_value_schemas
from s3connect.spark.jvm_lines import _avro_row_function, with_jvm_lines
from s3connect.spark.sink_query import processor_input
from tests.conftest import SCHEMA_REGISTRY_URL
from tests.integration.sinkhelp import (
    KAFKA_ROWS,
    TOLERANT_KEYS,
    produce,
    sink_keys,
    written_with_and_without_jvm,
)
from tests.integration.spark.test_jvm_datums import _schema, _value

pytestmark = pytest.mark.integration

_PREFIX = b"\x00\x00\x00\x00\x07"  # schema id 7


def _raw(avro: Any) -> Any:
    """``avro`` without logical types (to write their numbers as they are, in range or not)."""
    if isinstance(avro, list):
        return [_raw(a) for a in avro]
    if not isinstance(avro, dict):
        return avro
    out = {k: _raw(v) for k, v in avro.items() if k != "logicalType"}
    if "fields" in avro:
        out["fields"] = [{**f, "type": _raw(f["type"])} for f in avro["fields"]]
    return out


def _datum(avro: Any, value: Any) -> bytes:
    out = io.BytesIO()
    fastavro.schemaless_writer(out, fastavro.parse_schema(_raw(avro)), value)
    return _PREFIX + out.getvalue()


def _damaged(rng: random.Random, datum: bytes) -> bytes:
    """``datum`` cut short, with a byte more, or with one byte changed."""
    r = rng.random()
    if r < 0.3:
        return datum[: rng.randrange(5, len(datum))] if len(datum) > 5 else datum + b"\x00"
    if r < 0.5:
        return datum + bytes([rng.randrange(256)])
    at = rng.randrange(5, len(datum)) if len(datum) > 5 else 4
    return datum[:at] + bytes([rng.randrange(256)]) + datum[at + 1 :]


def _schemas_and_datums(rng: random.Random, count: int, each: int) -> list[tuple[str, list[bytes]]]:
    """Random struct schemas as AvroData writes them (int8/16, logical types, maps of both
    kinds, Decimals, defaults) and datums of random values, one in ten damaged."""
    out = []
    while len(out) < count:
        s = _schema(rng)
        if s["type"] != "struct" or not s["fields"]:
            continue
        try:
            connect = parse_json_schema({**s, "optional": False})
            assert connect is not None
            avro = json.loads(avro_schema_json(connect))
        except ValueError:  # a default of another kind, or at another scale than its Decimal's
            continue
        datums = []
        for _ in range(each * 20):  # values of other kinds now and then: tried again
            try:
                value = to_avro_value(connect, json_to_connect(connect, _value(rng, s), True))
                datum = _datum(avro, value)
            except Exception:  # a value the schema does not take
                continue
            datums.append(_damaged(rng, datum) if rng.random() < 0.1 else datum)
            if len(datums) == each:
                break
        out.append((json.dumps(avro), list(dict.fromkeys(datums))))
    return out


def _jvm_rows(spark: Any, schema: str, datums: list[bytes]) -> pa.Array | None:
    """The JVM's rows of ``datums`` in order (None: the JVM does not read the schema)."""
    from pyspark.sql import functions as F

    function = _avro_row_function(spark, schema)
    if function is None:
        return None
    argument = F.lit(bytearray(_PREFIX + schema.encode()))
    df = spark.createDataFrame([(i, d) for i, d in enumerate(datums)], "i int, value binary")
    df = df.select("i", F.call_function(function, F.col("value"), argument))
    table = df.toArrow().sort_by("i")
    return table.column(1).combine_chunks()


def _python_records(schema: str, datums: list[bytes], fmt: Any = None) -> list[SinkRecord | None]:
    """What AvroConverter's reader reads of each datum and ``fmt`` (ParquetFormat) writes
    (None: fails)."""
    reader = connect_reader(json.loads(schema))
    out: list[SinkRecord | None] = []
    for offset, datum in enumerate(datums):
        try:
            buffer = io.BytesIO(datum)
            buffer.seek(5)
            value = reader.read(buffer)
            if buffer.tell() != len(datum):
                raise ValueError("bytes left")
            record = SinkRecord("t", 0, offset, None, None, value, None, reader.schema)
            (fmt or ParquetFormat()).write([record], io.BytesIO())
            out.append(record)
        except Exception:
            out.append(None)
    return out


def _same_parquet(
    schema_text: str, rows: pa.Array, records: list[SinkRecord | None]
) -> bool | None:
    """Whether the rows the JVM gives write the Parquet file the records write (None: the
    rows are refused, every record goes per record)."""
    picked = [i for i in range(len(records)) if rows[i].is_valid]
    if not picked:
        return None
    first = records[picked[0]]
    schema = first.value_schema if first is not None else None
    if schema is None:
        schema = connect_reader(json.loads(schema_text)).schema
    try:
        typed = avro_rows(rows.take(pa.array(picked)), schema, AvroDataOptions())
    except ValueError:
        return None
    kept = [records[i] for i in picked]
    assert all(r is not None for r in kept)  # what the JVM reads and avro_rows takes, Python reads
    fmt, expected, got = ParquetFormat("snappy", batch_size=5), io.BytesIO(), io.BytesIO()
    fmt.write(kept, expected)  # type: ignore[arg-type]
    cut = len(kept) // 2  # runs of rows around a single record
    fmt.write_payloads(schema, [typed.slice(0, cut), kept[cut], typed.slice(cut + 1)], got)
    return got.getvalue() == expected.getvalue()


def test_the_jvm_rows_write_what_the_python_reader_reads(spark: Any) -> None:
    rng = random.Random(21)
    compared = refused = unread = vouched = readable = 0
    for schema, datums in _schemas_and_datums(rng, 100, 12):
        records = _python_records(schema, datums)
        rows = _jvm_rows(spark, schema, datums)
        if rows is None:
            unread += 1
            continue
        vouched += len(rows) - rows.null_count
        readable += sum(r is not None for r in records)
        same = _same_parquet(schema, rows, records)
        assert same is not False, schema
        compared += same is True
        refused += same is None
    assert compared > 40 and unread > 5 and refused > 5, (compared, unread, refused)
    assert vouched > 0.9 * readable, (vouched, readable)


_RECORD = {"type": "record", "name": "R", "fields": []}


def _one(avro: Any, value: Any = None, data: bytes | None = None) -> tuple[str, bytes]:
    schema = {**_RECORD, "fields": [{"name": "a", "type": avro}]}
    return json.dumps(schema), data if data is not None else _datum(schema, {"a": value})


_ENUM = {"type": "enum", "name": "E", "symbols": ["X", "Y"]}
_NAN = float("nan")
# Datums the JVM gives a row for and avro_rows types (True) or leaves to Python (False).
AVRO_EDGES: list[tuple[tuple[str, bytes], bool]] = [
    (_one("int", 5), True),
    (_one({"type": "int", "connect.type": "int8"}, 300), True),  # Python writes it too
    (_one("boolean", data=_PREFIX + b"\x01"), True),
    (_one("boolean", data=_PREFIX + b"\x02"), False),  # fastavro: True; Avro's Java: false
    (_one("string", "😀 é"), True),
    (_one("string", data=_PREFIX + b"\x04\xff\xfe"), False),  # not UTF-8
    (_one("string", data=_PREFIX + b"\x06\xed\xa0\x80"), False),  # an encoded surrogate
    (_one("string", data=_PREFIX + b"\x02a!"), False),  # a byte after the datum
    (_one("string", data=_PREFIX + b"\x04a"), False),  # short
    (_one("string", data=_PREFIX + b"\x80\x80\x80\x80\x08a"), False),  # 2**30 bytes long
    (_one("bytes", data=_PREFIX + b"\xfe\xff\xff\xff\x0fa"), False),  # 2**31 - 1 bytes long
    (_one("int", data=b"\x00\x00\x00\x00\x08\x02"), False),  # another schema id
    (_one("int", data=b"\x01\x00\x00\x00\x07\x02"), False),  # not the magic byte
    (_one(_ENUM, "Y"), True),
    (_one(_ENUM, data=_PREFIX + b"\x04"), False),  # symbol 2 of 2
    (_one(["null", "long"], None), True),
    (_one(["long", "null"], 3), True),
    (_one(["null", "long"], data=_PREFIX + b"\x04"), False),  # union member 2
    (_one(["int", "string"], 3), False),  # a general union: not read
    (_one({"type": "fixed", "name": "F", "size": 3}, b"abc"), True),
    (_one({"type": "map", "values": "int"}, {"b": 1, "a": 2, "Aa": 3, "BB": 4}), True),
    (_one({"type": "array", "items": ["null", "double"]}, [1.5, None]), True),
    (_one("float", _NAN), False),
    (_one("double", _NAN), False),
    (_one({"type": "int", "logicalType": "date"}, 2_932_896), True),
    (_one({"type": "int", "logicalType": "date"}, 2_932_897), False),  # beyond 9999-12-31
    (_one({"type": "int", "logicalType": "time-millis"}, -1), False),  # Python: 00:00:00.999
    (_one({"type": "long", "logicalType": "timestamp-millis"}, -62_135_596_800_000), True),
    (_one({"type": "long", "logicalType": "timestamp-millis"}, 253_402_300_800_000), False),
    (_one({"type": "bytes", "logicalType": "decimal", "precision": 4, "scale": 1}, b"\x01"), False),
    (_one(["string", "null"], "x"), True),
    (_one({**_RECORD, "name": "Inner", "fields": [{"name": "b", "type": "long"}]}, {"b": 1}), True),
]


def test_the_jvm_rows_hold_only_what_python_reads_alike(spark: Any) -> None:
    got = []
    for (schema, datum), _ in AVRO_EDGES:
        rows = _jvm_rows(spark, schema, [datum])
        records = _python_records(schema, [datum])
        got.append(rows is not None and _same_parquet(schema, rows, records) is True)
    assert got == [expected for _, expected in AVRO_EDGES]


def test_a_null_with_a_default_keeps_its_batch_per_record(spark: Any) -> None:
    # The Connect schema keeps the required field's default, which the writer puts in a null's
    # place: a column with a default and a null is refused, even a null under a null struct.
    inner = {**_RECORD, "name": "In", "fields": [{"name": "b", "type": "int", "default": 4}]}
    schema = json.dumps({**_RECORD, "fields": [{"name": "a", "type": ["null", inner]}]})
    data = [_datum(json.loads(schema), {"a": a}) for a in (None, {"b": 1})]
    rows = _jvm_rows(spark, schema, data)
    assert rows is not None and rows.null_count == 0
    records = _python_records(schema, data)
    assert _same_parquet(schema, rows, records) is None
    assert _same_parquet(schema, rows.slice(1), records[1:]) is True  # no null: the rows go


_WIDE = {
    **_RECORD,
    "name": "Order",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "who", "type": ["null", "string"], "default": None},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "tags", "type": {"type": "map", "values": "string"}},
    ],
}


def _two_versions(topic: str) -> tuple[int, int, dict[str, Any]]:
    """``_WIDE`` and an evolution of it (a field more) registered as the topic's value schema:
    their ids, and the evolved schema."""
    client = SchemaRegistryClient({"url": SCHEMA_REGISTRY_URL})
    first = client.register_schema(f"{topic}-value", Schema(json.dumps(_WIDE), "AVRO"))
    evolved = {**_WIDE, "fields": [*_WIDE["fields"], {"name": "n", "type": "int", "default": 0}]}
    latest = client.register_schema(f"{topic}-value", Schema(json.dumps(evolved), "AVRO"))
    return first, latest, evolved


def _framed(schema_id: int, value: dict[str, Any], schema: dict[str, Any] = _WIDE) -> bytes:
    return b"\x00" + schema_id.to_bytes(4, "big") + _datum(schema, value)[5:]


def _in_runs(spark: Any, topic: str, values: list[bytes | None], keys: dict[str, str]) -> int:
    """How many of ``values`` (offsets 0, 1, ...) the task's line plan takes as rows."""
    config = SinkConfig.from_mapping(keys)
    plan = line_plan(config)
    assert plan is not None
    rows = [(topic, 0, i, 0, None, v, None) for i, v in enumerate(values)]
    df = with_jvm_lines(processor_input(spark.createDataFrame(rows, KAFKA_ROWS)), config)
    batch = df.toArrow().combine_chunks().to_batches()[0]
    lines = plan.lines(batch, topic, 0, 0)
    return 0 if lines is None else len(lines.lines) - lines.lines.null_count


def test_a_sink_run_writes_the_same_parquet_with_and_without_the_jvm(
    spark: Any, s3: Any, make_topic: Any, producer: Producer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    topic = make_topic("jvm-avro-rows")
    first, latest, evolved = _two_versions(topic)
    rng = random.Random(22)
    values: list[bytes | None] = []
    for i in range(600):
        tags = {k: str(i) for k in rng.sample(["a", "b", "Aa", "BB"], i % 4)}
        value = {"id": i, "who": None if i % 3 else f"w{i}", "day": 19_000 + i, "tags": tags}
        if i < 200:
            values.append(_framed(first, value))
        else:
            values.append(_framed(latest, {**value, "n": i}, evolved))
    values[250] = b"\x00\x00\x00\x7f\x7f" + values[250][5:]  # an unknown schema id
    values[260] = values[260][:-1]  # a datum cut short
    values[270] = None  # a tombstone
    values[280] = _framed(first, {"id": 1, "who": None, "day": 1, "tags": {}})  # the older one
    produce(producer, topic, values)
    keys = {
        **TOLERANT_KEYS,
        "value.converter": "io.confluent.connect.avro.AvroConverter",
        "value.converter.schema.registry.url": SCHEMA_REGISTRY_URL,
        "format.class": "io.confluent.connect.s3.format.parquet.ParquetFormat",
        "schema.compatibility": "NONE",
    }
    assert _in_runs(spark, topic, values, sink_keys(topic, "b", tmp_path / "b", **keys)) == 396
    written = written_with_and_without_jvm(spark, s3, monkeypatch, topic, tmp_path, **keys)
    assert written[True] == written[False]
    files, dead_letters, committed = written[True]
    assert dead_letters == 2 and len(files) > 5
    assert sum(count for _, count in committed) > 500


def test_the_schemas_read_into_rows_are_the_latest_of_the_topics_read(tmp_path: Path) -> None:
    """``topics``: each named topic's latest value schema; ``topics.regex``: those of the
    registry's value subjects whose topic it matches whole; at most the newest four."""
    client = SchemaRegistryClient({"url": SCHEMA_REGISTRY_URL})
    run = uuid.uuid4().hex[:8]
    ids = {}
    for name in ("a", "b", "c", "d", "e", "xa"):
        fields = [{"name": f"f_{name}_{run}", "type": "int"}]
        schema = Schema(json.dumps({**_RECORD, "fields": fields}), "AVRO")
        ids[name] = client.register_schema(f"rx-{run}-{name}-value", schema)
    client.register_schema(f"rx-{run}-a-key", Schema(json.dumps(_RECORD | {"name": "K",
        "fields": [{"name": "k", "type": "int"}]}), "AVRO"))  # fmt: skip
    registry = {"value.converter": "io.confluent.connect.avro.AvroConverter",
                "value.converter.schema.registry.url": SCHEMA_REGISTRY_URL,
                "format.class": "io.confluent.connect.s3.format.parquet.ParquetFormat"}  # fmt: skip

    def found(**topics: str) -> list[int]:
        keys = sink_keys("unused", "b", tmp_path, **registry)
        keys.pop("topics")
        return [i for i, _ in latest_value_schemas(SinkConfig.from_mapping({**keys, **topics}))]

    # A topic with no schema is skipped, not the end of the search.
    assert found(topics=f"rx-{run}-none,rx-{run}-a,rx-{run}-b") == sorted([ids["a"], ids["b"]])
    newest = sorted(ids[n] for n in "abcde")[-4:]
    assert found(**{"topics.regex": f"rx-{run}-[a-e]"}) == newest  # not "xa", not "-key"
    assert found(**{"topics.regex": f"rx-{run}-x"}) == []  # the whole name must match
