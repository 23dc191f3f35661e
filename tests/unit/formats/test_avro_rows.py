"""formats/payloads.avro_rows without the JVM: rows shaped as s3connect.jvm.RegistryAvroRow gives
them (plain Avro values, every field nullable, maps in the datum's order) make, through
ParquetFormat.write_payloads, the file the per-record writer makes of what AvroConverter's
reader reads from the same datums; maps of every size come out in AvroData's HashMap order."""

from __future__ import annotations

import io
import random
from typing import Any

import fastavro
import pyarrow as pa
import pytest

from s3connect.connect.records import SinkRecord
from s3connect.convert.avro_data import AvroDataOptions, connect_reader
from s3connect.formats.parquet import ParquetFormat
from s3connect.formats.payloads import avro_rows

_AVRO = {
    "type": "record",
    "name": "R",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "m", "type": {"type": "map", "values": ["null", "int"]}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "in", "type": ["null", {"type": "record", "name": "I", "fields": [
            {"name": "tags", "type": {"type": "array", "items": "string"}},
            {"name": "f", "type": {"type": "fixed", "name": "F", "size": 2}},
        ]}]},
    ],
}  # fmt: skip
_ROWS = pa.struct(
    [
        pa.field("id", pa.int64()),
        pa.field("m", pa.map_(pa.string(), pa.int32())),
        pa.field("day", pa.int32()),
        pa.field("in", pa.struct([("tags", pa.list_(pa.string())), ("f", pa.binary())])),
    ]
)
# "Aa" and "BB" share String.hashCode 2112; twenty keys make maps beyond a table of 16.
_KEYS = ["Aa", "BB", "a", "b", "e", "k10", "é", "😀", *(f"m{i}" for i in range(20))]


def _values(rng: random.Random, n: int) -> list[dict[str, Any]]:
    out = []
    for i in range(n):
        keys = rng.sample(_KEYS, rng.choice([0, 1, 2, 3, 8, 9, 14, 26]))
        inner = None if rng.random() < 0.2 else {"tags": ["x"] * (i % 3), "f": b"ab"}
        m = {k: (None if rng.random() < 0.1 else j) for j, k in enumerate(keys)}
        out.append({"id": i, "m": m, "day": 19_000 + i, "in": inner})
    return out


def _records(values: list[dict[str, Any]]) -> list[SinkRecord]:
    parsed, reader = fastavro.parse_schema(_AVRO), connect_reader(_AVRO)
    records = []
    for offset, value in enumerate(values):
        out = io.BytesIO()
        fastavro.schemaless_writer(out, parsed, value)
        read = reader.read(io.BytesIO(out.getvalue()))
        records.append(SinkRecord("t", 0, offset, None, None, read, None, reader.schema))
    return records


def _jvm_rows(values: list[dict[str, Any] | None]) -> pa.Array:
    """What RegistryAvroRow hands over: maps as pairs in the datum's (the dict's) order."""
    rows = [None if v is None else {**v, "m": list(v["m"].items())} for v in values]
    return pa.array(rows, _ROWS)


def test_rows_write_the_per_record_file_with_maps_in_hashmap_order() -> None:
    values = _values(random.Random(5), 300)
    records = _records(values)
    schema = records[0].value_schema
    assert schema is not None
    with_nulls: list[dict[str, Any] | None] = [*values[:100], None, *values[100:]]
    typed = avro_rows(_jvm_rows(with_nulls), schema, AvroDataOptions())
    assert typed.null_count == 1 and not typed[100].is_valid
    runs = [typed.slice(0, 100), records[100], typed.slice(102)]
    fmt, expected, got = ParquetFormat(batch_size=64), io.BytesIO(), io.BytesIO()
    fmt.write(records, expected)
    fmt.write_payloads(schema, runs, got)
    assert got.getvalue() == expected.getvalue()
    big = next(i for i, v in enumerate(values) if len(v["m"]) == 26)
    assert [k for k, _ in typed[big if big < 100 else big + 1]["m"].as_py()] != list(
        values[big]["m"]
    )  # reordered, not written in the datum's order


@pytest.mark.parametrize(
    ("avro", "value", "problem"),
    [
        ({"type": "int", "logicalType": "date"}, 2_932_897, "out of range"),
        ({"type": "long", "logicalType": "timestamp-millis"}, -62_135_596_800_001, "out of"),
        ({"type": "int", "logicalType": "time-millis"}, 86_400_000, "out of range"),
        ("double", float("nan"), "NaN"),
    ],
)
def test_rows_python_reads_otherwise_are_refused(avro: Any, value: Any, problem: str) -> None:
    schema = connect_reader({**_AVRO, "fields": [{"name": "a", "type": avro}]}).schema
    rows = pa.array([{"a": value}], pa.struct([("a", pa.float64() if avro == "double" else
                                                 pa.int64() if "timestamp" in str(avro) else
                                                 pa.int32())]))  # fmt: skip
    with pytest.raises(ValueError, match=problem):
        avro_rows(rows, schema, AvroDataOptions())
