"""The JVM line path (s3connect-jvm.jar: Kafka's JsonConverter and Jackson in the query) against
the Python writer: the same lines value by value, and a sink run with it writes the same objects
and dead letters as one that computes every line in Python."""

from __future__ import annotations

import itertools
import json
import random
import struct
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from confluent_kafka import Producer

from s3connect.config.sink import SinkConfig
from s3connect.sink.lines import line_plan
from s3connect.spark import jvm_lines
from s3connect.spark.jvm_lines import (
    FIELD_FUNCTION,
    FUNCTION,
    registered,
    with_jvm_lines,
)
from s3connect.spark.sink_query import processor_input
from tests.integration.sinkhelp import KAFKA_ROWS, produce, sink_keys, written_with_and_without_jvm
from tests.reference.random_json import generated

pytestmark = pytest.mark.integration


def _doubles(rng: random.Random, n: int) -> list[bytes]:
    """Objects holding doubles of any bit pattern and decimals across 60 orders of magnitude
    (Java 17 prints some of them otherwise than Java 19+: those must come back null)."""
    out = []
    while len(out) < n:
        d = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if d == d and abs(d) != float("inf"):
            e = rng.random() * 10 ** rng.randrange(-30, 30)
            out.append(b'{"d":%r,"e":%r,"n":[%r]}' % (d, e, -e))
    return [*out, b'{"x":2e23}', b'{"x":1e23}', b'{"x":4.9e-324}', b'{"x":1.0E-5}']


_FIELD_KEYS = {
    "partitioner.class": "io.confluent.connect.storage.partitioner.FieldPartitioner",
    "partition.field.name": 'r,n.m,"a.b"',
}


def _python_lines(values: list[bytes | None], **keys: str) -> list[tuple[bytes, str] | None]:
    """Python's line and encoded partition of each value (None: per record)."""
    plan = line_plan(SinkConfig.from_mapping(sink_keys("t", "b", Path("/tmp"), **keys)))
    assert plan is not None and plan.name == "json-json"
    rows = pa.RecordBatch.from_pydict({"value": pa.array(values, pa.binary())})
    return _lines_and_files(plan.lines(rows, "t", 0, 0))


def _lines_and_files(batch: Any) -> list[tuple[bytes, str] | None]:
    return [
        None if line is None else (line, batch.partitions[f])
        for line, f in zip(batch.lines.to_pylist(), batch.files.tolist(), strict=True)
    ]


def _field_values(rng: random.Random, n: int) -> list[bytes]:
    """Objects with the fields r, n.m and "a.b" of every JSON kind (some missing or null)."""
    kinds = [1, "1", -7, 2**62, 2**64, "eu", "us/west", "..", "é%41", True, "true", 2.5, 1e20,
             0.1 + 0.2, 4.35, None, {"x": 1}, [1]]  # fmt: skip
    out = []
    for _ in range(n):
        value: dict[str, Any] = {"k": rng.random()}
        for name in ("r", "a.b"):
            if rng.random() < 0.95:
                value[name] = rng.choice(kinds)
        value["n"] = {"m": rng.choice(kinds)} if rng.random() < 0.9 else rng.choice(kinds)
        out.append(json.dumps(value).encode())
    return out


def test_the_jvm_writes_the_lines_the_python_writer_writes(spark: Any) -> None:
    assert registered(spark, FUNCTION)
    values = generated(11, 2000) + _doubles(random.Random(3), 2000)
    df = spark.createDataFrame([(v,) for v in values], "value binary")
    jvm = [r[0] for r in df.selectExpr(f"{FUNCTION}(value)").collect()]
    python = [None if p is None else p[0] for p in _python_lines(values)]
    compared = [(v, j, p) for v, j, p in zip(values, jvm, python, strict=True) if j is not None]
    assert [(v, j) for v, j, p in compared if j != p] == []
    # Null where Python has none only for doubles Java 17 prints longer than Java 19+ does.
    assert [v for v, j, p in zip(values, jvm, python, strict=True) if p is None and j][:1] == []
    assert len(compared) > 0.85 * sum(p is not None for p in python)


REFERENCE = "s3connect_reference_json_line"

# Values at the edges of the streaming pass (s3connect.jvm.SchemalessJson): whether it reads each
# itself (True) or leaves it to Kafka's JsonConverter (False), which alone knows what it gives.
EDGES: dict[bytes, bool] = {
    b'{"z":0.0,"n":0.000,"i":-0,"l":-9223372036854775808,"f":-1.5e-7}': True,
    b"[007,-00.5,00]": True,  # Kafka's reader allows leading zeros
    b"-0.0": False, b"[1,-0.0]": False, b"-0e5": False, b"0e5": False,  # no -0.0 in BigDecimal
    b"[-1e-400]": False, b"1e-400": False, b"1e400": False, b"[-1e400]": False,
    b"[1e2147483648]": False, b"1e-2147483649": False,  # beyond BigDecimal's exponent
    b"9223372036854775808": False, b"[-9223372036854775809]": False,  # JsonConverter truncates
    b'{"a":"x","a":"yy","b":"x"}': True, b'{"b":1,"a":{"c":"d"},"b":"2"}': True,
    b'"plain ascii"': True, b'"del\x7f ~ "': True, b'"a\\/b"': True, b'"tab\\t"': True,
    b'"\\u0000"': True, b'"caf\xc3\xa9"': True, b'"\xf0\x9f\x98\x80"': True,
    b'"\\ud800"': True,  # a lone surrogate: Jackson writes it escaped
    b'"\xc0\x80"': True,  # an overlong NUL: Jackson's parser reads U+0000
    b'"\xed\xa0\x80"': False, b'"\xff"': False, b'"ab': False, b'{"a":"b': False,
    b'"abc" x': True, b'{"a":"b"}garbage': True, b"1x": False, b"": False, b"  ": False,
    b"{}": True, b"[]": True, b"true": True, b"null": True, b"12": True,
}  # fmt: skip


# Values at the edges of the transcoder (s3connect.jvm.JsonTranscoder): whether it writes the line
# itself (True) or leaves it to the streaming pass (False).
_COLLIDING = ["".join(p) for p in itertools.product(["Aa", "BB"], repeat=3)]  # one hash
TRANSCODED: dict[bytes, bool] = {
    b'{"b":1,"a":[2,{"d":true,"c":null}]}': True, b'{"a":1,"a":2}': False,  # a duplicate key
    b'"\\u0041"': True, b'"\\uZZZZ"': False, b'"\\u12"': False, b'{"\\u0041":1}': False,
    b'"\xf0\x9f\x98\x80 \xe2\x9c\x93 \xc3\xa9"': True,
    b'"\\/\\b\\t\\"\\\\"': True,
    b'"\xc0\x80"': False, b'"\xed\xa0\x80"': False, b'"\xf4\x90\x80\x80"': False, b'"\x1f"': False,
    b'"\xf4\x8f\xbf\xbf"': True, b'"\xe0\x9f\xbf"': False, b'{"\xc3\xa9":1}': False,
    b"1e5": False, b"0.001": True, b"0.000999": False, b"9999999.5": True, b"10000000.0": False,
    b"1234567.12345678": True, b"1234567.123456789": False, b"-0.0": False, b"00.000": True,
    b"[-0,-007.250,0.10]": True, b"123456789012345678": True, b"1234567890123456789": False,
    b"null": False, b"": False, b" \t\r\n": False, b'\xef\xbb\xbf{"a":1}': False,
    b'{"a":1} x': False, b' {"a" : 1 ,\n"b":2 } ': True, b"[1,]": False, b"[truex]": False,
    b"[" * 64 + b"]" * 64: True, b"[" * 65 + b"]" * 65: False,
    ("{" + ",".join(f'"{k}":1' for k in _COLLIDING) + "}").encode(): False,  # 8 in one bin
    ("{" + ",".join(f'"{k}":1' for k in _COLLIDING[:7]) + "}").encode(): True,
    ("{" + ",".join(f'"k{i}":{i}' for i in range(49)) + "}").encode(): True,  # resized twice
}  # fmt: skip


def test_the_jvm_lines_are_what_json_converter_and_object_mapper_write(spark: Any) -> None:
    """SchemalessJsonLine (the transcoder, else one streaming pass) against JsonConverterLine
    (Kafka's JsonConverter read, ObjectMapper write) on the same values: byte for byte, null
    where it is null; and each of the two alone."""
    from pyspark.sql.types import BinaryType

    spark.udf.registerJavaFunction(REFERENCE, "s3connect.jvm.JsonConverterLine", BinaryType())
    assert registered(spark, FUNCTION)
    values = [*EDGES, *TRANSCODED, *generated(21, 3000), *_doubles(random.Random(22), 1000)]
    values.append(b'"\\u00e9\\uD83D\\ude00\\u0022\\u005c\\u001f\\u000a\\u002F\\ud800"')
    bench, wide = [_bench_like(i) for i in range(300)], _wide_objects(random.Random(23), 300)
    values += bench + wide + _decimals(random.Random(24), 500)
    df = spark.createDataFrame([(v,) for v in values], "value binary")
    got = df.selectExpr(f"{FUNCTION}(value)", f"{REFERENCE}(value)").collect()
    assert [(v, f, r) for v, (f, r) in zip(values, got, strict=True) if f != r] == []
    reference = {v: r for v, (_, r) in zip(values, got, strict=True)}
    jvm = spark._jvm.s3connect.jvm
    transcoded = {v: jvm.JsonTranscoder.line(v) for v in values}
    assert [v for v, t in transcoded.items() if t is not None and t != reference[v]] == []
    assert [v for v in values if jvm.SchemalessJson.line(v) != reference[v]] == []
    assert {v: transcoded[v] is not None for v in TRANSCODED} == TRANSCODED
    assert all(transcoded[v] is not None for i, v in enumerate(bench) if i % 4 != 1)
    assert sum(transcoded[v] is not None for v in wide) > 100
    assert sum(transcoded[v] is not None for v in values[-500:]) > 100  # the decimals
    escapes = b'"\\u00e9\\uD83D\\ude00\\u0022\\u005c\\u001f\\u000a\\u002F\\ud800"'
    assert transcoded[escapes] == b'"\xc3\xa9\\uD83D\\uDE00\\"\\\\\\u001F\\n/\\uD800"'
    emoji = b'"\xf0\x9f\x98\x80 \xe2\x9c\x93 \xc3\xa9"'
    assert transcoded[emoji] == b'"\\uD83D\\uDE00 \xe2\x9c\x93 \xc3\xa9"'
    assert transcoded[b"[-0,-007.250,0.10]"] == b"[0,-7.25,0.1]"
    nested = b'{"b":1,"a":[2,{"d":true,"c":null}]}'
    assert transcoded[nested] == b'{"a":[2,{"c":null,"d":true}],"b":1}'
    written = {v: f for v, (f, _) in zip(values, got, strict=True)}
    assert written[b'{"a":"x","a":"yy","b":"x"}'] == b'{"a":"yy","b":"x"}'
    assert written[b"[007,-00.5,00]"] == b"[7,-0.5,0]"
    assert written[b"-0.0"] == b"0.0" and written[b"[-1e-400]"] == b"[-0.0]"
    assert written[b'"del\x7f ~ "'] == b'"del\x7f ~ "' and written[b'"\\ud800"'] == b'"\\uD800"'
    assert written[b'"\xc0\x80"'] == b'"\\u0000"' and written[b'"\xed\xa0\x80"'] is None
    streams = jvm.SchemalessJson.streams
    assert {v: streams(v) for v in EDGES} == EDGES
    assert all(streams(v) for v in bench)


def _decimals(rng: random.Random, n: int) -> list[bytes]:
    """Arrays of decimals written as people write them: a sign, leading and trailing zeros, 1 to
    18 digits with the point anywhere (the transcoder writes those of at most 15 significant
    digits between 0.001 and 1e7 itself)."""
    out = []
    for _ in range(n):
        items = []
        for _ in range(rng.randrange(1, 6)):
            digits = "".join(rng.choices("0123456789", k=rng.randrange(1, 19)))
            point = rng.randrange(len(digits) + 1)
            whole, fraction = digits[:point] or "0", digits[point:] or "0"
            items.append(f"{rng.choice(['', '-'])}{'0' * rng.randrange(2)}{whole}.{fraction}")
        out.append(f"[{','.join(items)}]".encode())
    return out


def _wide_objects(rng: random.Random, n: int) -> list[bytes]:
    """Objects of 2 to 300 keys (HashMap resizes), some made of colliding keys ("Aa" and "BB"
    have one String hash), some with a duplicate key."""
    out = []
    for _ in range(n):
        size = rng.choice([2, 5, 8, 12, 13, 24, 25, 48, 49, 100, 300])
        if rng.random() < 0.3:
            keys = ["".join(rng.choices(["Aa", "BB"], k=rng.randrange(1, 6))) for _ in range(size)]
        else:
            keys = [
                "".join(rng.choices("abcdefxyzAB_019", k=rng.randrange(1, 9))) for _ in range(size)
            ]
        if rng.random() < 0.5:
            keys = list(dict.fromkeys(keys))
        items = [
            f'"{k}":{rng.choice(["1", "2.5", "[1,{}]", "null", "0.001", "007"])}' for k in keys
        ]
        out.append(("{" + ",".join(items) + "}").encode())
    return out


def _bench_like(i: int) -> bytes:
    """A value shaped like the benchmark's (bench/json_sink.py): nested objects, doubles, ASCII
    and non-ASCII strings, escapes; with ``\\u`` escapes where ``i % 4 == 0``, doubles of 16 or
    17 digits where it is 1."""
    lat, lon = (i * 0.1, -i / 7) if i % 4 == 1 else (i * 0.25, -i / 8)
    value = {
        "id": i, "ts": 1_767_225_600_000 + i * 37, "score": (i % 400) * 0.25,
        "user": {"name": ["Zoë", "李雷", "Ana"][i % 3], "geo": {"lat": lat, "lon": lon}},
        "items": [{"sku": f"SKU-{i:04d}", "price": 12.5 + k} for k in range(i % 3)],
        "comment": 'Said "great" \\ ok\n🚀', "coupon": None, "flag": i % 2 == 0,
        "body": "Lorem ipsum dolor sit amet " * (i % 20),
    }  # fmt: skip
    return json.dumps(value, ensure_ascii=i % 4 == 0).encode()


def test_the_jvm_gives_the_fields_python_partitions_by(spark: Any) -> None:
    """FieldPartitioner: the JVM's lines and field values become the files Python gives."""
    values = _field_values(random.Random(5), 3000) + _doubles(random.Random(6), 300)
    config = SinkConfig.from_mapping(sink_keys("t", "b", Path("/tmp"), **_FIELD_KEYS))
    rows = with_jvm_lines(spark.createDataFrame([(v,) for v in values], "value binary"), config)
    assert rows.columns == ["value", "line", "fields"]
    assert rows._jdf.queryExecution().executedPlan().toString().count(FIELD_FUNCTION) == 1
    arrow = pa.RecordBatch.from_pylist(
        [r.asDict() for r in rows.collect()],
        pa.schema([("value", pa.binary()), ("line", pa.binary()), ("fields", pa.binary())]),
    )
    plan = line_plan(config)
    assert plan is not None
    jvm = _lines_and_files(plan.lines(arrow, "t", 0, 0))
    python = _python_lines(values, **_FIELD_KEYS)
    assert [(v, j, p) for v, j, p in zip(values, jvm, python, strict=True) if j and j != p] == []
    assert [v for v, j, p in zip(values, jvm, python, strict=True) if p is None and j][:1] == []
    given = sum(j is not None for j in jvm)
    assert given > 0.85 * sum(p is not None for p in python) and given > 1000
    files = "\n".join({p[1] for p in jvm if p})
    for text in ("r=us/west/", "r=../", "=0.30000000000000004", "=1.0E20", "=true",
                 "=4611686018427387904", "=4.35", "/n.m=-7/", "=é%41"):  # fmt: skip
        assert text in files


_TIME_FIELD_KEYS = {
    "partitioner.class": "io.confluent.connect.storage.partitioner.TimeBasedPartitioner",
    "partition.duration.ms": "60000",
    "path.format": "'t'=YYYY-MM-dd-HH-mm",
    "locale": "en-US",
    "timezone": "America/New_York",
    "timestamp.extractor": "RecordField",
    "timestamp.field": "n.m",
}


def _time_values(rng: random.Random, n: int) -> list[bytes]:
    """Objects whose n.m is epoch millis across New York's DST change, an ISO text, a string of
    digits or a decimal (a value the RecordField extractor refuses stops the query, as
    Confluent's task: tests/unit/sink/test_writer.py)."""
    out = []
    for i in range(n):
        stamp = 1_699_163_000_000 + i * 3_001
        when = rng.choice(
            [stamp, stamp, stamp, stamp + 0.5, "2023-11-05T01:30:00-04:00", str(stamp)]
        )
        out.append(json.dumps({"i": i, "n": {"m": when}}).encode())
    return out


@pytest.mark.parametrize("kind", ["default", "field", "time-field"])
def test_a_sink_run_writes_the_same_with_and_without_the_jvm(
    spark: Any, s3: Any, make_topic: Any, producer: Producer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, kind: str,
) -> None:  # fmt: skip
    topic = make_topic("jvm-lines")
    values: list[bytes | None] = list(
        _field_values(random.Random(7), 600) if kind == "field"
        else _time_values(random.Random(8), 600) if kind == "time-field"
        else generated(12, 600)
    )  # fmt: skip
    values[10:13] = [None, b"", b"{broken"]  # a tombstone, a blank value, a dead letter
    produce(producer, topic, values)
    keys = {
        "flush.size": "37", "errors.tolerance": "all", "errors.log.enable": "true",
        "behavior.on.null.values": "ignore", "report.null.values.to.dlq": "false",
    }  # fmt: skip
    extra = {"default": {}, "field": _FIELD_KEYS, "time-field": _TIME_FIELD_KEYS}[kind]
    written = written_with_and_without_jvm(spark, s3, monkeypatch, topic, tmp_path, **keys, **extra)
    assert written[True] == written[False]
    files, dead_letters, _ = written[True]
    assert dead_letters > 0 and len(files) > 5


def test_without_the_jar_the_lines_come_from_python(
    spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, s3connect_log: list[str]
) -> None:
    monkeypatch.setitem(jvm_lines._CLASSES, "s3connect_not_there", "s3connect.jvm.NotThere")
    monkeypatch.setattr(jvm_lines, "FUNCTION", "s3connect_not_there")
    monkeypatch.setattr(jvm_lines, "_told", False)
    config = SinkConfig.from_mapping(sink_keys("t", "b", tmp_path))
    empty = processor_input(spark.createDataFrame([], KAFKA_ROWS))
    assert "line" not in with_jvm_lines(empty, config).columns
    assert not registered(spark, "s3connect_not_there")
    told = [line for line in s3connect_log if "s3connect.jvm.NotThere" in line]
    assert len(told) == 1 and "computed in the Python workers" in told[0]


def test_the_function_is_registered_again_in_a_new_session(spark: Any) -> None:
    assert registered(spark, FUNCTION)
    other = spark.newSession()  # its own temporary functions
    assert not other.catalog.functionExists(FUNCTION)
    assert registered(other, FUNCTION) and other.catalog.functionExists(FUNCTION)
