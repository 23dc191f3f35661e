"""The JVM's Parquet payloads of JsonConverter envelopes (s3connect-jvm.jar: JsonParquetPayload)
against the Python writer: on random schemas and values, every payload the JVM vouches for,
read by Arrow's JSON reader, makes the Parquet file the per-record writer makes (byte for
byte); the JVM vouches for most of what could be read, and at the edges only for what Arrow
reads alike; and a sink run with it writes the same objects and dead letters as one that writes
every record in Python."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from confluent_kafka import Producer

from s3connect.connect.records import SinkRecord
from s3connect.convert.json import JsonConverter
from s3connect.formats.parquet import ParquetFormat
from s3connect.spark.jvm_lines import PAYLOAD_FUNCTION, registered
from tests.integration.sinkhelp import (
    ENVELOPE_ODDITIES,
    TOLERANT_KEYS,
    produce,
    written_with_and_without_jvm,
)
from tests.integration.spark.test_jvm_datums import _schema, _value

pytestmark = pytest.mark.integration


_PLAIN = ("int8", "int16", "int32", "int64", "float", "double", "boolean", "string")


def _readable(s: dict[str, Any], top: bool = True) -> bool:
    """No Decimal and no empty struct anywhere in ``s``, maps only as its own fields, of plain
    values (not logical types)."""
    if s["type"] == "map":
        return not top and s["values"]["type"] in _PLAIN and "name" not in s["values"]
    if s.get("fields") == [] or s.get("name", "").endswith("Decimal"):
        return False
    if top:
        return all(_readable(f, top=False) for f in s["fields"])
    children = [s.get("items"), *s.get("fields", ())]
    return all(c["type"] != "map" and _readable(c, top=False) for c in children if c is not None)


def _struct_schemas(rng: random.Random, count: int, readable: float) -> list[dict[str, Any]]:
    """Random struct schemas, a share ``readable`` of them (:func:`_readable`)."""
    out: list[dict[str, Any]] = []
    while len(out) < count:
        s = _schema(rng)
        if s["type"] == "struct" and s["fields"] and _readable(s) == (rng.random() < readable):
            out.append({**s, "optional": rng.random() < 0.1})
    return out


def _envelopes(rng: random.Random, schema: dict[str, Any], each: int) -> list[bytes]:
    schema_json = json.dumps(schema, separators=(",", ":"))
    out = []
    for _ in range(each):
        payload = json.dumps(_value(rng, schema), ensure_ascii=rng.random() < 0.3)
        if rng.random() < 0.05:
            payload = payload.replace(", ", ",\n ", 1)  # a line break between tokens
        text = '{"schema":' + schema_json + ',"payload":' + payload + "}"
        out.append(text.encode("utf-8", "surrogatepass"))
    return out


def _jvm(spark: Any, values: list[bytes]) -> list[tuple[int | None, int | None]]:
    assert registered(spark, PAYLOAD_FUNCTION)
    df = spark.createDataFrame([(v,) for v in values], "value binary").repartition(3)
    df = df.selectExpr("value", f"{PAYLOAD_FUNCTION}(value) AS p")
    got = {r.value: (r.p.payload_start, r.p.schema_id) for r in df.collect()}
    return [got[bytes(v)] for v in values]


def _record(data: bytes, offset: int) -> SinkRecord | None:
    try:
        value, schema = JsonConverter().to_connect("t", data)
        record = SinkRecord("t", 0, offset, None, None, value, None, schema)
        ParquetFormat().write([record], io.BytesIO())  # Python writes it
        return record
    except Exception:
        return None


def test_the_jvm_payloads_read_as_the_python_writer_writes(spark: Any) -> None:
    rng = random.Random(11)
    schemas = _struct_schemas(rng, 400, readable=0.8)
    values = [v for s in schemas for v in dict.fromkeys(_envelopes(rng, s, 14))]
    jvm = _jvm(spark, values)
    records = [_record(v, i) for i, v in enumerate(values)]
    by_schema: dict[int, list[tuple[bytes, int, SinkRecord | None]]] = {}
    for data, (start, schema_id), record in zip(values, jvm, records, strict=True):
        if start is not None and schema_id is not None:
            by_schema.setdefault(schema_id, []).append((data, start, record))
    differ = []
    for found in by_schema.values():
        assert all(record is not None for _, _, record in found)  # the JVM vouches: it converts
        kept = [record for _, _, record in found if record is not None]
        fmt, expected, got = ParquetFormat("snappy", batch_size=5), io.BytesIO(), io.BytesIO()
        fmt.write(kept, expected)
        payloads = pa.array([data[start:-1] for data, start, _ in found], pa.binary())
        schema = kept[0].value_schema
        assert schema is not None
        cut = len(found) // 2  # runs of payloads around a single record
        fmt.write_payloads(
            schema, [payloads.slice(0, cut), kept[cut], payloads.slice(cut + 1)], got
        )
        if got.getvalue() != expected.getvalue():
            differ.append(found[0][0])
    assert differ == []
    # Most values Python writes whose schema has no bytes or maps, the JVM vouches for.
    readable = [
        r is not None and _readable(json.loads(v)["schema"])
        for v, r in zip(values, records, strict=True)
    ]
    vouched = sum(start is not None for start, _ in jvm)
    assert sum(readable) > 800, sum(readable)
    # (Python also converts the payloads JsonConverter reads as Jackson does though they do not
    # fit their schema, e.g. 128 for an int8, which the JVM leaves to it.)
    assert vouched > 0.4 * sum(readable), (vouched, sum(readable))
    assert all(r for r, (start, _) in zip(readable, jvm, strict=True) if start is not None)


def _one(kind: str, payload: str, more: str = "") -> str:
    field = f'{{"field":"a","type":"{kind}","optional":false{more}}}'
    return (
        f'{{"schema":{{"type":"struct","fields":[{field}],"optional":false}},"payload":{payload}}}'
    )


_MAP = ',"keys":{"type":"string"},"values":{"type":"%s"}'
# Envelopes whose payload the JVM vouches for (True) or leaves to Python (False).
PAYLOAD_EDGES: dict[str, bool] = {
    _one("int32", '{"a":5}'): True,
    _one("int32", '{ "a" :\t-0 }'): True,  # spaces and tabs between tokens, minus zero
    _one("int32", '{"a":5,\n"b":1}'): False,  # a line break between tokens
    _one("int32", '{"a":5.0}'): False,
    _one("int32", '{"a":5,"a":6}'): False,
    _one("int32", '{"a":5} x'): False,
    _one("int32", '{"a":5,"b":{"c":[1,"\\u0000",{"d":null}]}}'): True,  # fields beyond, ignored
    _one("int64", '{"a":-9223372036854775808}'): True,
    _one("int64", '{"a":9223372036854775808}'): False,
    _one("double", '{"a":9007199254740993}'): True,  # an integer rounded to a double
    _one("double", '{"a":1E2}'): True,
    _one("double", '{"a":4.9e-324}'): True,
    _one("double", '{"a":1e-400}'): False,  # rounds to zero
    _one("float", '{"a":1.4e-45}'): True,
    _one("float", '{"a":7}'): True,
    # 1 + 2**-24 + 2**-60 reads as the double 1 + 2**-24, halfway between two floats: Java's
    # and Python's writers round that double to 1.0, the decimal itself rounds up.
    _one("float", '{"a":1.0000000596046448}'): False,
    _one("string", '{"a":"\\ud83d\\ude00 \\/ \\u00e9 \\\\ \\" \\u2028"}'): True,
    _one("string", '{"a":"\\udc00"}'): False,
    _one("string", '{"a":"tab\there"}'): False,  # a raw control character: not JSON
    _one("boolean", '{"a":true}'): True,
    _one("boolean", '{"a":1}'): False,
    _one("bytes", '{"a":"QQ=="}'): True,  # base64 text, decoded after reading
    _one("bytes", '{"a":"QQ"}'): False,  # not what Java's encoder writes
    _one("array", '{"a":["","AAEC"]}', ',"items":{"type":"bytes"}'): True,
    _one("map", '{"a":{"k":1,"Aa":2,"BB":null}}', _MAP % "int32"): False,  # a required value null
    _one("map", '{"a":{"k":1,"Aa":2,"BB":3}}', _MAP % "int32"): True,  # read apart
    _one("map", '{"a":{"k":"x"}}', _MAP % "string"): True,
    _one("map", '{"a":{"k":9007199254740993,"j":-5}}', _MAP % "double"): True,
    _one("map", '{"a":{"d":1}}', _MAP % 'int32","name":"org.apache.kafka.connect.data.Date'): False,
    _one("array", '{"a":[{}]}', ',"items":{"type":"map"%s}' % (_MAP % "int32")): False,  # nested
    _one("struct", '{"a":{}}', ',"fields":[]'): False,  # Parquet has no empty group
    _one("array", '{"a":[null]}', ',"items":{"type":"int32","optional":true}'): True,
    _one("array", '{"a":[null]}', ',"items":{"type":"int32","optional":false}'): False,
    '{"schema":{"type":"string","optional":false},"payload":"x"}': False,  # not a struct
}


def test_the_jvm_vouches_only_for_payloads_arrow_reads_alike(spark: Any) -> None:
    values = [v.encode() for v in PAYLOAD_EDGES]
    jvm = _jvm(spark, values)
    assert {
        v.decode(): s is not None for v, (s, _) in zip(values, jvm, strict=True)
    } == PAYLOAD_EDGES
    for offset, (data, (start, _)) in enumerate(zip(values, jvm, strict=True)):
        if start is None:
            continue
        record = _record(data, offset)
        assert record is not None and record.value_schema is not None
        fmt, expected, got = ParquetFormat(), io.BytesIO(), io.BytesIO()
        fmt.write([record], expected)
        fmt.write_payloads(record.value_schema, [pa.array([data[start:-1]])], got)
        assert got.getvalue() == expected.getvalue(), data


_PARQUET_KEYS = {
    "value.converter": "org.apache.kafka.connect.json.JsonConverter",
    "value.converter.schemas.enable": "true",
    "format.class": "io.confluent.connect.s3.format.parquet.ParquetFormat",
    "parquet.codec": "snappy",
}


def test_a_sink_run_writes_the_same_parquet_with_and_without_the_jvm(
    spark: Any, s3: Any, make_topic: Any, producer: Producer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    topic = make_topic("jvm-payloads")
    rng = random.Random(12)
    values: list[bytes | None] = []
    for schema in _struct_schemas(rng, 3, readable=1.0):
        made = _envelopes(rng, schema, 1000)
        good = [v for i, v in enumerate(made) if _record(v, i) is not None]
        values += good[:190] + [v for v in made if v not in good][:10]  # a few dead letters
    values[10:13] = ENVELOPE_ODDITIES
    vouched = [start for start, _ in _jvm(spark, [v for v in values if v])]
    assert sum(start is not None for start in vouched) > 200  # many go in runs of payloads
    produce(producer, topic, values)
    written = written_with_and_without_jvm(
        spark, s3, monkeypatch, topic, tmp_path, **TOLERANT_KEYS, **_PARQUET_KEYS
    )
    assert written[True] == written[False]
    files, dead_letters, _ = written[True]
    assert dead_letters > 0 and len(files) > 10
