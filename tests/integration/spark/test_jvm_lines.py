"""The JVM line path (s3connect-jvm.jar: Kafka's JsonConverter and Jackson in the query) against
the Python writer: the same lines value by value, and a sink run with it writes the same objects
and dead letters as one that computes every line in Python."""

from __future__ import annotations

import random
import struct
import uuid
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from confluent_kafka import Producer

from s3connect.config.sink import SinkConfig
from s3connect.sink.lines import line_plan
from s3connect.spark import jvm_lines
from s3connect.spark.jvm_lines import FUNCTION, JVM_LINES_ENV, registered, with_jvm_lines
from s3connect.spark.sink_query import processor_input
from tests.integration.sinkhelp import objects, produce, run, sink_keys
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


def _python_lines(values: list[bytes | None]) -> list[bytes | None]:
    plan = line_plan(SinkConfig.from_mapping(sink_keys("t", "b", Path("/tmp"))))
    assert plan is not None and plan.name == "json-json"
    lines = plan.lines(pa.RecordBatch.from_pydict({"value": pa.array(values, pa.binary())}))
    assert lines is not None
    return lines.to_pylist()  # type: ignore[no-any-return]


def test_the_jvm_writes_the_lines_the_python_writer_writes(spark: Any) -> None:
    assert registered(spark)
    values = generated(11, 2000) + _doubles(random.Random(3), 2000)
    df = spark.createDataFrame([(v,) for v in values], "value binary")
    jvm = [r[0] for r in df.selectExpr(f"{FUNCTION}(value)").collect()]
    python = _python_lines(values)
    compared = [(v, j, p) for v, j, p in zip(values, jvm, python, strict=True) if j is not None]
    assert [(v, j) for v, j, p in compared if j != p] == []
    # Null where Python has none only for doubles Java 17 prints longer than Java 19+ does.
    assert [v for v, j, p in zip(values, jvm, python, strict=True) if p is None and j][:1] == []
    assert len(compared) > 0.85 * sum(p is not None for p in python)


def test_a_sink_run_writes_the_same_with_and_without_the_jvm(
    spark: Any, s3: Any, make_topic: Any, producer: Producer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    topic = make_topic("jvm-lines")
    values: list[bytes | None] = list(generated(12, 600))
    values[10:13] = [None, b"", b"{broken"]  # a tombstone, a blank value, a dead letter
    produce(producer, topic, values)
    written = {}
    for jvm in (True, False):
        bucket = f"jvm-lines-{str(jvm).lower()}-{uuid.uuid4().hex[:8]}"
        s3.create_bucket(Bucket=bucket)
        keys = sink_keys(topic, bucket, tmp_path / bucket, **{
            "flush.size": "37", "errors.tolerance": "all", "behavior.on.null.values": "ignore",
        })  # fmt: skip
        config = SinkConfig.from_mapping(keys)
        if jvm:
            monkeypatch.delenv(JVM_LINES_ENV, raising=False)
        else:
            monkeypatch.setenv(JVM_LINES_ENV, "off")
        rows = with_jvm_lines(processor_input(spark.createDataFrame([], _KAFKA_ROWS)), config)
        assert ("line" in rows.columns) is jvm
        summary = run(spark, keys)
        written[jvm] = (
            {k.split("/", 1)[1]: v for k, v in objects(s3, bucket).items()},
            summary.dead_letters,
            [(o["start_offset"], o["record_count"]) for o in summary.objects],
        )
    assert written[True] == written[False]
    files, dead_letters, _ = written[True]
    assert dead_letters > 0 and len(files) > 5


def test_without_the_jar_the_lines_come_from_python(
    spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, s3connect_log: list[str]
) -> None:
    monkeypatch.setattr(jvm_lines, "_CLASS", "s3connect.jvm.NotThere")
    monkeypatch.setattr(jvm_lines, "FUNCTION", "s3connect_not_there")
    monkeypatch.setattr(jvm_lines, "_told", False)
    config = SinkConfig.from_mapping(sink_keys("t", "b", tmp_path))
    empty = processor_input(spark.createDataFrame([], _KAFKA_ROWS))
    assert "line" not in with_jvm_lines(empty, config).columns
    assert not registered(spark)
    told = [line for line in s3connect_log if "s3connect.jvm.NotThere" in line]
    assert len(told) == 1 and "computed in the Python workers" in told[0]


def test_the_function_is_registered_again_in_a_new_session(spark: Any) -> None:
    assert registered(spark)
    other = spark.newSession()  # its own temporary functions
    assert not other.catalog.functionExists(FUNCTION)
    assert registered(other) and other.catalog.functionExists(FUNCTION)


_KAFKA_ROWS = (
    "topic string, partition int, offset long, timestamp long, key binary, value binary, "
    "headers array<struct<key: string, value: binary>>"
)
