"""ParquetFormat.write_payloads: a file of JsonConverter payloads read by Arrow's JSON reader
(the sink's line path into Parquet) is byte for byte the file ParquetFormat.write gives for the
same records: nested and null structs, lists, Dates, Times, Timestamps, floats, bytes (base64),
maps (in HashMap order), escapes, row groups, each codec."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from s3connect.connect.records import SinkRecord
from s3connect.convert.json import JsonConverter
from s3connect.formats.parquet import PARQUET_CODECS, ParquetFormat


def _f(field: str, kind: str, optional: bool = False, **more: Any) -> dict[str, Any]:
    return {"field": field, "type": kind, "optional": optional, **more}


_IN = [
    _f("x", "int32"),
    _f("y", "string", True),
    _f("deep", "struct", True, fields=[_f("z", "boolean")]),
]
_SCHEMA = {
    "type": "struct", "name": "t.V", "optional": False,
    "fields": [
        _f("id", "int64"), _f("s", "string"), _f("small", "int8", True), _f("f", "float", True),
        _f("d", "double"), _f("ok", "boolean", True),
        _f("day", "int32", True, name="org.apache.kafka.connect.data.Date", version=1),
        _f("at", "int32", True, name="org.apache.kafka.connect.data.Time", version=1),
        _f("when", "int64", name="org.apache.kafka.connect.data.Timestamp", version=1),
        _f("tags", "array", items={"type": "string", "optional": True}),
        _f("grid", "array", True, items={"type": "array", "items": {"type": "int16"}}),
        _f("in", "struct", True, fields=_IN),
        _f("must", "struct", fields=[_f("a", "int32"), _f("b", "string", True)]),
        _f("rows", "array", items={"type": "struct", "fields": _IN, "optional": True}),
        _f("blob", "bytes", True), _f("blobs", "array", items={"type": "bytes"}),
        _f("attrs", "map", keys={"type": "string"}, values={"type": "string"}),
        _f("counts", "map", True, keys={"type": "string"},
           values={"type": "float", "optional": True}),
    ],
}  # fmt: skip
_TEXTS = ["", "plain", "é☃", "😀", 'q"\\/', "\x00\x1f\t", "x" * 300, "\u2028"]
# Map keys whose HashMap order is not their order (colliding String hashes among them).
_KEYS = ["zz", "Aa", "BB", "b", "a", "key10", "é", "😀", *(f"m{i}" for i in range(14))]


def _payload(rng: random.Random, i: int) -> dict[str, Any]:
    def inner() -> Any:
        return rng.choice([
            None, {"x": i, "y": rng.choice([None, *_TEXTS])},
            {"x": -i, "deep": rng.choice([None, {"z": True}])}, {"x": 0, "y": "e", "more": [1]},
        ])  # fmt: skip

    value = {
        "id": rng.choice([i, -(2**63), 2**63 - 1]), "s": rng.choice(_TEXTS),
        "small": rng.choice([None, -128, 127, 3]), "f": rng.choice([None, 0.1, 3.4e38, -1e-40, 7]),
        "d": rng.choice([0.1, -2.5e-300, 1e308, 2**60 + 1, 5]),
        "ok": rng.choice([None, True, False]), "day": rng.choice([None, -719_162, 0, 2_932_896]),
        "at": rng.choice([None, 0, 86_399_999]),
        "when": rng.choice([-62_135_596_800_000, 0, 1_700_000_000_123, 253_402_300_799_999]),
        "tags": [rng.choice([None, *_TEXTS]) for _ in range(rng.randrange(4))],
        "grid": rng.choice([None, [], [[1, -2], []], [[32767]]]), "in": inner(),
        "must": {"a": i, "b": rng.choice([None, "b"])},
        "rows": [inner() for _ in range(rng.randrange(3))], "extra": {"ignored": [1, "x"]},
        "blob": rng.choice([None, "", "AA==", "3q2+7w==", "/+8="]),
        "blobs": [rng.choice(["", "QUJD", "AAEC"]) for _ in range(rng.randrange(3))],
        "attrs": {k: rng.choice(_TEXTS) for k in rng.sample(_KEYS, rng.randrange(len(_KEYS)))},
        "counts": rng.choice([None, {}, {"b": None, "a": 0.1, "Aa": 2**60 + 1, "BB": -1e-40}]),
    }  # fmt: skip
    for name in ("small", "f", "ok", "day", "at", "grid", "in", "blob", "counts"):
        if value[name] is None and rng.random() < 0.5:
            del value[name]  # a missing optional field: null
    return value


@pytest.mark.parametrize("codec", sorted(PARQUET_CODECS))
@pytest.mark.parametrize("pieces", [1, 4])
def test_payloads_make_the_file_records_make(codec: str, pieces: int) -> None:
    rng = random.Random(pieces)
    texts = [
        json.dumps(_payload(rng, i), ensure_ascii=rng.random() < 0.5).encode() for i in range(230)
    ]
    converter, records = JsonConverter(), []
    for offset, text in enumerate(texts):
        envelope = b'{"schema":' + json.dumps(_SCHEMA).encode() + b',"payload":' + text + b"}"
        value, schema = converter.to_connect("t", envelope)
        records.append(SinkRecord("t", 0, offset, None, None, value, None, schema))
    fmt = ParquetFormat(codec, batch_size=50)
    expected = io.BytesIO()
    fmt.write(records, expected)
    # Runs of payloads (Arrow slices with offsets > 0) with single records between them.
    cuts = sorted(rng.sample(range(1, 229), 2 * pieces - 2))
    bounds = list(zip([0, *cuts], [*cuts, 230], strict=True))
    parts: list[pa.Array | SinkRecord] = []
    for n, (a, b) in enumerate(bounds):
        if n % 2:
            parts += records[a:b]
        else:
            parts.append(pa.array([b"", *texts[a:b]], pa.binary()).slice(1))
    got = io.BytesIO()
    assert records[0].value_schema is not None
    fmt.write_payloads(records[0].value_schema, parts, got)
    assert got.getvalue() == expected.getvalue()
    written = pq.ParquetFile(pa.BufferReader(got.getvalue()))
    assert written.metadata.num_row_groups == 5 and written.metadata.num_rows == 230
