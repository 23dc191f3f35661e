"""The JVM's check of Confluent-framed Avro datums (s3connect-jvm.jar: RegistryAvroDatum) against
the per-record path (AvroConverter's reader, AvroFormat's writer): on random schemas and datums,
some of them damaged, every datum the JVM vouches for and the plan copies is what the per-record
writer writes, byte for byte, in the same file; at the edges (non-canonical encodings, map order,
NaN, dates Python does not hold, unions AvroData reorders) it leaves the record to Python; and a
sink run through the stack's registry with it writes the same objects and dead letters as one
that converts every record in Python."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from confluent_kafka import Producer

from s3connect.connect.records import SinkRecord
from s3connect.convert.avro_data import AvroDataOptions, avro_map_order
from s3connect.formats.avro import AvroFormat, sync_marker
from s3connect.sink.avro_datums import _copied
from s3connect.spark.jvm_lines import _avro_datum_function
from tests.conftest import SCHEMA_REGISTRY_URL
from tests.integration.sinkhelp import (
    TOLERANT_KEYS,
    produce,
    sink_keys,
    written_with_and_without_jvm,
)
from tests.integration.spark.test_jvm_avro_rows import (
    _ENUM,
    _NAN,
    _PREFIX,
    _RECORD,
    _framed,
    _in_runs,
    _one,
    _python_records,
    _schemas_and_datums,
    _two_versions,
)

pytestmark = pytest.mark.integration


_SINK_AVRO_DATA = AvroDataOptions(enhanced_schema_support=True)  # the S3 sink's default


def _jvm_checks(spark: Any, schema: str, datums: list[bytes]) -> list[bool] | None:
    """Which of ``datums`` the JVM vouches for (None: it checks no datum of the schema)."""
    from pyspark.sql import functions as F

    function = _avro_datum_function(spark, schema)
    if function is None:
        return None
    argument = F.lit(bytearray(_PREFIX + schema.encode()))
    df = spark.createDataFrame([(i, d) for i, d in enumerate(datums)], "i int, value binary")
    df = df.select("i", F.call_function(function, F.col("value"), argument).alias("ok"))
    rows = sorted(df.collect())
    assert all(r.ok in (True, None) for r in rows)  # never false: null or true
    return [r.ok is True for r in rows]


def _same_avro(
    schema_text: str, checks: list[bool], datums: list[bytes], records: list[SinkRecord | None]
) -> bool | None:
    """Whether the datums the JVM vouches for, copied, write the Avro file the records write
    (None: none vouched for, or the plan does not copy the schema's datums)."""
    picked = [i for i, ok in enumerate(checks) if ok]
    if not picked:
        return None
    kept = [records[i] for i in picked]
    assert all(r is not None for r in kept)  # what the JVM vouches for, Python reads and writes
    schema = kept[0].value_schema  # type: ignore[union-attr]
    fmt = AvroFormat("deflate", avro_data=_SINK_AVRO_DATA)
    if not _copied(schema_text, schema, fmt.avro_data):
        return None
    expected, got = io.BytesIO(), io.BytesIO()
    fmt.write(kept, expected)  # type: ignore[arg-type]
    copies = pa.array([datums[i][5:] for i in picked], pa.binary())
    cut = len(kept) // 2  # runs of copies around a datum the writer encodes
    single = pa.array([fmt.datum_encoder(schema)(kept[cut].value)])  # type: ignore[union-attr]
    sync = sync_marker("t", 0, picked[0], picked[-1], len(picked))
    fmt.write_datums(schema, [copies.slice(0, cut), single, copies.slice(cut + 1)], sync, got)
    return got.getvalue() == expected.getvalue()


def test_the_copied_datums_are_what_the_per_record_writer_writes(spark: Any) -> None:
    rng = random.Random(31)
    compared = refused = unchecked = vouched = readable = 0
    for schema, datums in _schemas_and_datums(rng, 160, 12):
        records = _python_records(schema, datums, AvroFormat())
        checks = _jvm_checks(spark, schema, datums)
        if checks is None:
            unchecked += 1
            continue
        vouched += sum(checks)
        readable += sum(r is not None for r in records)
        same = _same_avro(schema, checks, datums, records)
        assert same is not False, schema
        compared += same is True
        refused += same is None
    assert compared > 35 and unchecked > 20 and refused > 0, (compared, unchecked, refused)
    assert vouched > 0.95 * readable, (vouched, readable)


_MAP = {"type": "map", "values": "int"}
_DATE = {"type": "int", "logicalType": "date"}
_STAMP = {"type": "long", "logicalType": "timestamp-millis"}
# Datums the JVM vouches for and the plan copies (True), or leaves to the per-record path.
AVRO_DATUM_EDGES: list[tuple[tuple[str, bytes], bool]] = [
    (_one("int", 5), True),
    (_one("int", data=_PREFIX + b"\x8a\x00"), False),  # 5 in two bytes: written in one
    (_one("long", data=_PREFIX + b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"), True),  # min
    (_one({"type": "int", "connect.type": "int8"}, 3), False),  # Connect's int8: not copied
    (_one("boolean", data=_PREFIX + b"\x01"), True),
    (_one("boolean", data=_PREFIX + b"\x02"), False),
    (_one("string", "😀 é"), True),
    (_one("string", data=_PREFIX + b"\x04\xff\xfe"), False),  # not UTF-8
    (_one("string", data=_PREFIX + b"\x06\xed\xa0\x80"), False),  # an encoded surrogate
    (_one("string", data=_PREFIX + b"\x02a!"), False),  # a byte after the datum
    (_one("string", data=_PREFIX + b"\x04a"), False),  # short
    (_one("bytes", data=_PREFIX + b"\xfe\xff\xff\xff\x0fa"), False),  # 2**31 - 1 bytes long
    (_one("bytes", b"\x00\xff\x80"), True),
    (_one("bytes", b""), True),
    (_one("int", data=b"\x00\x00\x00\x00\x08\x02"), False),  # another schema id
    (_one(_ENUM, "Y"), True),
    (_one(_ENUM, data=_PREFIX + b"\x04"), False),  # symbol 2 of 2
    (_one(["null", "long"], None), True),
    (_one(["null", "long"], 3), True),
    (_one(["long", "null"], 3), False),  # AvroData writes ["null", "long"]: index 1, not 0
    (_one(["int", "string"], 3), False),  # a general union: not checked
    (_one({"type": "fixed", "name": "F", "size": 3}, b"abc"), True),
    (_one(_MAP, {"b": 1, "a": 2, "Aa": 3, "BB": 4}), False),  # HashMap order: Aa, BB, a, b
    (_one(_MAP, {"Aa": 3, "BB": 4, "a": 2, "b": 1}), True),
    (_one(_MAP, {"BB": 4, "Aa": 3, "a": 2, "b": 1}), True),  # a tie keeps the datum's order
    (_one(_MAP, {"z": 1}), True),
    (_one(_MAP, {}), True),
    (_one(_MAP, data=_PREFIX + b"\x02\x02a\x02\x02\x02b\x04\x00"), False),  # two blocks
    (_one(_MAP, data=_PREFIX + b"\x02\x02a\x02\x02\x02a\x04\x00"), False),  # a key twice
    (_one({"type": "array", "items": "int"}, data=_PREFIX + b"\x03\x04\x02\x04\x00"), False),
    (_one({"type": "array", "items": ["null", "double"]}, [1.5, None]), True),
    (_one({"type": "array", "items": "int"}, []), True),
    (_one("float", _NAN), False),
    (_one("double", _NAN), False),
    (_one("double", float("-inf")), True),
    (_one(_DATE, 2_932_896), True),
    (_one(_DATE, 2_932_897), False),  # beyond 9999-12-31
    (_one({"type": "int", "logicalType": "time-millis"}, -1), False),
    (_one({"type": "int", "logicalType": "time-millis"}, 86_399_999), True),
    (_one(_STAMP, -62_135_596_800_000), True),
    (_one(_STAMP, 253_402_300_800_000), False),
    (_one({"type": "long", "logicalType": "timestamp-micros"}, 5), False),  # not checked
    (_one({"type": "bytes", "logicalType": "decimal", "precision": 4, "scale": 1}, b"\x01"), False),
    (_one({**_RECORD, "name": "Inner", "fields": [{"name": "b", "type": "long"}]}, {"b": 1}), True),
    # The JVM walks the bytes itself: varints at their limits, and UTF-8 as Java's decoder takes it.
    (_one("int", 2**31 - 1), True),
    (_one("int", -(2**31)), True),
    (_one("int", data=_PREFIX + b"\xff\xff\xff\xff\x1f"), False),  # beyond 32 bits
    (_one("int", data=_PREFIX + b"\xff\xff\xff\xff\xff\x01"), False),  # six bytes
    (_one("long", 2**63 - 1), True),
    (_one("long", data=_PREFIX + b"\xff" * 9 + b"\x02"), False),  # beyond 64 bits
    (_one(_ENUM, data=_PREFIX + b"\x82\x00"), False),  # symbol 1 in two bytes
    (_one("string", data=_PREFIX + b"\x82\x00a"), False),  # a length in two bytes
    (_one("float", -0.0), True),
    (_one("float", float("inf")), True),
    (_one("double", 5e-324), True),
    (_one("boolean", data=_PREFIX + b"\x00"), True),
    *[
        (_one("string", data=_PREFIX + bytes([2 * len(text)]) + text), valid)
        for text, valid in [
            (b"\xc0\x80", False),  # an overlong NUL
            (b"\xe0\x80\x80", False),  # overlong
            (b"\xf0\x80\x80\x80", False),  # overlong
            (b"\xf4\x90\x80\x80", False),  # beyond U+10FFFF
            (b"\xf5\x80\x80\x80", False),
            (b"\xe2\x28\xa1", False),  # not a continuation byte
            (b"a\x80", False),  # a lone continuation byte
            (b"\xe2\x82", False),  # cut short at the string's end
            (b"\xf4\x8f\xbf\xbf", True),  # U+10FFFF
            (b"\xef\xbf\xbf", True),  # U+FFFF
            (b"\xed\x9f\xbf", True),  # U+D7FF
            (b"\xee\x80\x80", True),  # U+E000
            (b"\xc2\x80\xdf\xbf", True),
        ]
    ],
    *[  # maps of non-ASCII keys, in Java's HashMap order of their Strings or not
        (_one(_MAP, keys), list(avro_map_order(keys)) == list(keys))
        for keys in ({"é": 1, "ü": 2}, {"ü": 2, "é": 1}, {"😀": 1, "a": 2}, {"a": 2, "😀": 1})
    ],
]


def test_the_jvm_vouches_only_for_datums_written_as_they_are(spark: Any) -> None:
    got = []
    for (schema, datum), _ in AVRO_DATUM_EDGES:
        checks = _jvm_checks(spark, schema, [datum])
        records = _python_records(schema, [datum], AvroFormat())
        same = None if checks is None else _same_avro(schema, checks, [datum], records)
        assert same is not False, schema
        got.append(same is True)
    assert got == [expected for _, expected in AVRO_DATUM_EDGES]


def test_a_sink_run_writes_the_same_avro_with_and_without_the_jvm(
    spark: Any, s3: Any, make_topic: Any, producer: Producer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    topic = make_topic("jvm-avro-datums")
    first, latest, evolved = _two_versions(topic)
    rng = random.Random(32)
    values: list[bytes | None] = []
    copied = set()  # the records of the latest schema whose map is in the writer's order
    for i in range(600):
        keys = rng.sample(["a", "b", "Aa", "BB"], i % 3)  # two keys: in HashMap order or not
        value = {"id": i, "who": None if i % 3 else f"w{i}", "day": 19_000 + i,
                 "tags": {k: str(i) for k in keys}}  # fmt: skip
        if i < 200:
            values.append(_framed(first, value))
            continue
        values.append(_framed(latest, {**value, "n": i}, evolved))
        if list(avro_map_order(value["tags"])) == keys:
            copied.add(i)
    values[250] = b"\x00\x00\x00\x7f\x7f" + values[250][5:]  # an unknown schema id
    values[260] = values[260][:-1]  # a datum cut short
    values[270] = None  # a tombstone
    values[280] = _framed(first, {"id": 1, "who": None, "day": 1, "tags": {}})  # the older one
    values[290] = _framed(latest, {"id": 1, "who": None, "day": 9_999_999, "tags": {}, "n": 1},
                          evolved)  # fmt: skip  # a date Python does not hold: a dead letter
    produce(producer, topic, values)
    keys = {
        **TOLERANT_KEYS,
        "value.converter": "io.confluent.connect.avro.AvroConverter",
        "value.converter.schema.registry.url": SCHEMA_REGISTRY_URL,
        "format.class": "io.confluent.connect.s3.format.avro.AvroFormat",
        "avro.codec": "snappy",
        "schema.compatibility": "NONE",
    }
    copied -= {250, 260, 270, 280, 290}
    assert 250 < len(copied) < 350  # a third of the maps have two keys, about half out of order
    assert _in_runs(spark, topic, values, sink_keys(topic, "b", tmp_path / "b", **keys)) == len(
        copied
    )
    written = written_with_and_without_jvm(spark, s3, monkeypatch, topic, tmp_path, **keys)
    assert written[True] == written[False]
    files, dead_letters, committed = written[True]
    assert dead_letters == 3 and len(files) > 5
    assert sum(count for _, count in committed) > 500
