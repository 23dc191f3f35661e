"""The JVM's Avro datums of JsonConverter envelopes (s3connect-jvm.jar: JsonAvroDatum) against the
Python writer: the same datum bytes value by value on random schemas and values (a null where
the JVM is not sure), one number per distinct schema, and a sink run with it writes the same
objects and dead letters as one that computes every datum in Python."""

from __future__ import annotations

import base64
import io
import json
import random
import struct
from pathlib import Path
from typing import Any

import fastavro
import pyarrow as pa
import pytest
from confluent_kafka import Producer

from s3connect.connect.records import SinkRecord
from s3connect.convert.json import JsonConverter
from s3connect.formats.avro import AvroFormat, sync_marker
from s3connect.spark.jvm_lines import DATUM_FUNCTION, registered
from tests.integration.sinkhelp import (
    ENVELOPE_ODDITIES,
    TOLERANT_KEYS,
    produce,
    written_with_and_without_jvm,
)

pytestmark = pytest.mark.integration

_PRIMITIVES = ["int8", "int16", "int32", "int64", "float", "double", "boolean", "string", "bytes"]
_LOGICAL = {
    "date": {"type": "int32", "name": "org.apache.kafka.connect.data.Date", "version": 1},
    "time": {"type": "int32", "name": "org.apache.kafka.connect.data.Time", "version": 1},
    "timestamp": {"type": "int64", "name": "org.apache.kafka.connect.data.Timestamp"},
    "decimal": {"type": "bytes", "name": "org.apache.kafka.connect.data.Decimal",
                "parameters": {"scale": "2"}},
}  # fmt: skip
_TEXTS = ["", "a", "é☃", "😀 astral", "\ud800 lone", 'quote " and \\', "\x00\x1f", "x" * 70]
_KEYS = ["k0", "zz", "Aa", "BB", "b", "a", "key10", "é", *(f"m{i}" for i in range(20))]


def _schema(rng: random.Random, depth: int = 0) -> dict[str, Any]:
    """A random Connect schema as JsonConverter's envelope holds it."""
    r = rng.random()
    s: dict[str, Any]
    if depth > 2 or r < 0.5:
        kind = rng.choice([*_PRIMITIVES, *_PRIMITIVES[:4], "date", "time", "timestamp", "decimal"])
        s = dict(_LOGICAL.get(kind, {"type": kind}))
        if rng.random() < 0.04:
            s["default"] = {"int32": 7, "string": "d", "boolean": True}.get(s["type"], 1)
    elif r < 0.65:
        s = {"type": "array", "items": _schema(rng, depth + 1)}
    elif r < 0.75:
        keys = rng.choice([{"type": "string", "optional": False}] * 4 + [{"type": "int32"}])
        s = {"type": "map", "keys": keys, "values": _schema(rng, depth + 1)}
    else:
        fields = [{**_schema(rng, depth + 1), "field": f"f{i}"} for i in range(rng.randint(0, 5))]
        s = {"type": "struct", "fields": fields}
        if rng.random() < 0.5:
            s["name"] = f"n{depth}.S{rng.randrange(3)}"
    s["optional"] = rng.random() < 0.3
    return s


def _double(rng: random.Random) -> Any:
    while True:
        d = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if d == d and abs(d) != float("inf"):
            return d


def _value(rng: random.Random, s: dict[str, Any]) -> Any:
    """A value of ``s``, now and then of another kind, a null, or at the edge of a range."""
    if rng.random() < 0.04:
        return rng.choice([None, "str", 1, 1.5, True, [], {}, 2**70, -1])
    if s.get("optional") and rng.random() < 0.15:
        return None
    t, name = s["type"], s.get("name", "")
    if name.endswith("Decimal"):
        return rng.choice(["AAE=", 12])
    if name.endswith(("Date", "Time", "Timestamp")):
        edges = [0, -1, 86_399_999, 86_400_000, -719_162, -719_163, 2_932_896, 2_932_897,
                 253_402_300_799_999, 253_402_300_800_000, -62_135_596_800_000, 10**14]  # fmt: skip
        return rng.choice([rng.randint(0, 86_399_999), rng.randint(-(10**5), 10**5), *edges])
    if t.startswith("int"):
        return rng.choice([0, 1, -5, 127, 128, -129, 32767, 2**31 - 1, 2**31, -(2**63), 2**63])
    if t in ("float", "double"):
        return rng.choice([_double(rng), _double(rng), rng.random(), 0.0, -0.0, 3, 10**30,
                           3.4028235677973366e38, 1e-46, 0.1])  # fmt: skip
    if t == "boolean":
        return rng.choice([True, False])
    if t == "string":
        return rng.choice(_TEXTS)
    if t == "bytes":
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(6)))
        return rng.choice([base64.b64encode(raw).decode(), "QQ", "QR==", "!!", "AA=A"])
    if t == "array":
        return [_value(rng, s["items"]) for _ in range(rng.randint(0, 3))]
    if t == "map":
        if s["keys"]["type"] == "string":
            keys = rng.sample(_KEYS, rng.choice([0, 1, 2, 3, 5, 14, 26]))
            return {k: _value(rng, s["values"]) for k in keys}  # HashMap order differs
        return [[i, _value(rng, s["values"])] for i in range(rng.randint(0, 2))]
    out = {f["field"]: _value(rng, f) for f in s["fields"] if rng.random() < 0.95}
    if rng.random() < 0.05:
        out["extra"] = 1
    return out


def _envelopes(rng: random.Random, schemas: int, each: int) -> list[bytes]:
    out = []
    for _ in range(schemas):
        schema = _schema(rng)
        schema_json = json.dumps(schema, separators=(",", ":"))
        for _ in range(each):
            payload = json.dumps(_value(rng, schema), ensure_ascii=rng.random() < 0.3)
            text = '{"schema":' + schema_json + ',"payload":' + payload + "}"
            out.append(text.encode("utf-8", "surrogatepass"))  # lone: not UTF-8
    return out


def _python_datum(data: bytes) -> bytes | None:
    """What the Python writer writes for ``data`` (None: it does not convert or encode)."""
    try:
        value, schema = JsonConverter().to_connect("t", data)
        if value is None or schema is None:
            return None
        return AvroFormat("null").datum_encoder(schema)(value)
    except Exception:
        return None


def _jvm(spark: Any, values: list[bytes]) -> list[tuple[bytes | None, int | None]]:
    df = spark.createDataFrame([(v,) for v in values], "value binary").repartition(3)
    df = df.selectExpr("value", f"{DATUM_FUNCTION}(value) AS d")
    got = {r.value: (r.d.line, r.d.schema_id) for r in df.collect()}
    return [got[bytes(v)] for v in values]


def test_the_jvm_writes_the_datums_the_python_writer_writes(spark: Any) -> None:
    assert registered(spark, DATUM_FUNCTION)
    values = list(dict.fromkeys(_envelopes(random.Random(5), 800, 12)))
    jvm = _jvm(spark, values)
    python = [_python_datum(v) for v in values]
    written = [(v, j[0], p) for v, j, p in zip(values, jvm, python, strict=True) if j[0]]
    assert [(v, j, p) for v, j, p in written if j != p] == []
    # One number per distinct schema prefix, a different one for each.
    ids: dict[bytes, set[int | None]] = {}
    for v, (line, schema_id) in zip(values, jvm, strict=True):
        if line is not None:
            ids.setdefault(v[: v.index(b',"payload":')], set()).add(schema_id)
    assert all(len(found) == 1 for found in ids.values())
    assert len({i for found in ids.values() for i in found}) == len(ids) > 100
    # Python also converts the payloads JsonConverter reads as Jackson does though they do not
    # fit their schema (9223372036854775808 for an int64, 128 for an int8: longValue/intValue
    # wrap), which the JVM leaves to it: about half of what the generator makes.
    converted = sum(p is not None for p in python)
    assert converted > 1500 and len(written) > 0.45 * converted


_S = '{"schema":{"type":"struct","fields":[%s],"optional":false},"payload":%s}'
# Envelopes the JVM writes (True) or leaves to Python (False).
EDGES: dict[str, bool] = {
    _S % ('{"field":"a","type":"int32","optional":false}', '{"a":5}'): True,
    _S % ('{"field":"a","type":"int32","optional":false}', '{"a":5} '): True,
    _S % ('{"field":"a","type":"int32","optional":false}', '{"a":007}'): False,
    _S % ('{"field":"a","type":"int32","optional":false}', '{"a":5.0}'): False,
    _S % ('{"field":"a","type":"int32","optional":false}', '{"a":5,"a":6}'): False,
    _S % ('{"field":"a","type":"int32","optional":false}', "null"): False,
    _S % ('{"field":"a","type":"int8","optional":false}', '{"a":128}'): False,
    _S % ('{"field":"a","type":"int32","optional":true,"default":3}', '{"a":5}'): False,
    _S % ('{"field":"a","type":"int32","optional":true,"default":null}', '{"a":5}'): True,
    _S % ('{"field":"a","type":"string","optional":false,"parameters":{"x":"y"}}',
          '{"a":"s"}'): False,
    _S % ('{"field":"a","type":"double","optional":false}', '{"a":-0.0}'): False,
    _S % ('{"field":"a","type":"double","optional":false}', '{"a":0}'): False,
    _S % ('{"field":"a","type":"double","optional":false}', '{"a":1e400}'): False,
    _S % ('{"field":"a","type":"float","optional":false}', '{"a":3.5e38}'): False,
    _S % ('{"field":"a","type":"float","optional":false}', '{"a":0.1}'): True,
    _S % ('{"field":"a","type":"bytes","optional":false}', '{"a":"QQ=="}'): True,
    _S % ('{"field":"a","type":"bytes","optional":false}', '{"a":"QQ"}'): False,
    _S % ('{"field":"a","type":"string","optional":false}', '{"a":"\\ud83d\\ude00"}'): True,
    _S % ('{"field":"a","type":"string","optional":false}', '{"a":"\\ud83d"}'): False,
    _S % ('{"field":"a","type":"int64","optional":false,'
          '"name":"org.apache.kafka.connect.data.Timestamp"}', '{"a":253402300799999}'): True,
    _S % ('{"field":"a","type":"int64","optional":false,'
          '"name":"org.apache.kafka.connect.data.Timestamp"}', '{"a":253402300800000}'): False,
    _S % ('{"field":"a","type":"int32","optional":false,'
          '"name":"org.apache.kafka.connect.data.Time"}', '{"a":86400000}'): False,
    _S % ('{"field":"a","type":"map","optional":false,"keys":{"type":"int32","optional":false},'
          '"values":{"type":"int32","optional":false}}', '{"a":[[1,2]]}'): False,
    '{"schema": {"type":"string","optional":false},"payload":"x"}': True,
    '{"schema":{"type":"string","optional":false} ,"payload":"x"}': False,
    '{"schema":{"type":"string","optional":false},"payload":"x","more":1}': False,
    '{"schema":{"type":"string","optional":false},"payload":"x"}': True,
    '{"payload":"x","schema":{"type":"string","optional":false}}': False,
}  # fmt: skip


def test_the_jvm_leaves_to_python_what_it_is_not_sure_of(spark: Any) -> None:
    values = [v.encode() for v in EDGES]
    jvm = _jvm(spark, values)
    assert {v.decode(): line is not None for v, (line, _) in zip(values, jvm, strict=True)} == EDGES
    for v, (line, _) in zip(values, jvm, strict=True):
        assert line is None or line == _python_datum(v)


def test_big_records_fill_avro_blocks_as_the_per_record_writer_does(spark: Any) -> None:
    schema = (
        '{"type":"struct","fields":[{"field":"s","type":"string","optional":false},'
        '{"field":"n","type":"int64","optional":true}],"optional":false}'
    )
    payloads = [{"s": "y" * (900 + i), "n": i} for i in range(300)]
    values = [f'{{"schema":{schema},"payload":{json.dumps(p)}}}'.encode() for p in payloads]
    datums = [line for line, _ in _jvm(spark, values)]
    converter, records = JsonConverter(), []
    for offset, data in enumerate(values):
        value, connect = converter.to_connect("t", data)
        records.append(SinkRecord("t", 0, offset, None, None, value, None, connect))
    fmt, expected = AvroFormat("snappy"), io.BytesIO()
    fmt.write(records, expected)
    out, connect = io.BytesIO(), records[0].value_schema
    assert connect is not None
    fmt.write_datums(
        connect, [pa.array(datums, pa.binary())], sync_marker("t", 0, 0, 299, 300), out
    )
    assert out.getvalue() == expected.getvalue()
    blocks = list(fastavro.block_reader(io.BytesIO(out.getvalue())))
    assert len(blocks) > 4 and sum(b.num_records for b in blocks) == 300


_AVRO_KEYS = {
    "value.converter": "org.apache.kafka.connect.json.JsonConverter",
    "value.converter.schemas.enable": "true",
    "format.class": "io.confluent.connect.s3.format.avro.AvroFormat",
    "avro.codec": "snappy",
}


def test_a_sink_run_writes_the_same_avro_with_and_without_the_jvm(
    spark: Any, s3: Any, make_topic: Any, producer: Producer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    topic = make_topic("jvm-datums")
    rng = random.Random(9)
    values: list[bytes | None] = []
    for schemas in (_envelopes(rng, 1, 250), _envelopes(rng, 1, 100), _envelopes(rng, 1, 250)):
        values += schemas
    values[10:13] = ENVELOPE_ODDITIES
    produce(producer, topic, values)
    written = written_with_and_without_jvm(
        spark, s3, monkeypatch, topic, tmp_path, **TOLERANT_KEYS, **_AVRO_KEYS
    )
    assert written[True] == written[False]
    files, dead_letters, _ = written[True]
    assert dead_letters > 0 and len(files) > 10
