"""AvroFormat.write_datums: a file of datums encoded elsewhere (the sink's line path into Avro)
is byte for byte the file AvroFormat.write gives for the same records: header, blocks cut
where fastavro (as Avro Java) cuts them, each codec."""

from __future__ import annotations

import io
import random

import pyarrow as pa
import pytest

from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.formats.avro import AvroFormat, sync_marker

_SCHEMA = ConnectSchema(
    Type.STRUCT,
    name="t.V",
    fields=(
        Field("s", ConnectSchema(Type.STRING)),
        Field("n", ConnectSchema(Type.INT64, optional=True)),
        Field("xs", ConnectSchema(Type.ARRAY, value_schema=ConnectSchema(Type.FLOAT64))),
    ),
)


@pytest.mark.parametrize("codec", ["null", "snappy", "deflate", "bzip2"])
@pytest.mark.parametrize("pieces", [1, 3, 7])
def test_datums_make_the_file_records_make(codec: str, pieces: int) -> None:
    rng = random.Random(pieces)
    values = [
        {"s": "y" * rng.randrange(0, 3000), "n": rng.choice([None, i]), "xs": [i / 7] * (i % 4)}
        for i in range(400)
    ]
    records = [
        SinkRecord("t", 3, 100 + i, None, None, v, None, _SCHEMA) for i, v in enumerate(values)
    ]
    fmt = AvroFormat(codec)
    expected = io.BytesIO()
    fmt.write(records, expected)
    encode = fmt.datum_encoder(_SCHEMA)
    datums = [encode(v) for v in values]
    cuts = sorted(rng.sample(range(1, 400), pieces - 1))
    parts = [
        pa.array(datums[a:b], pa.binary()) for a, b in zip([0, *cuts], [*cuts, 400], strict=True)
    ]
    sliced = [pa.array([b"", *p.to_pylist()], pa.binary()).slice(1) for p in parts]  # offsets > 0
    got = io.BytesIO()
    fmt.write_datums(_SCHEMA, sliced, sync_marker("t", 3, 100, 499, 400), got)
    assert got.getvalue() == expected.getvalue()
    assert expected.getvalue().count(sync_marker("t", 3, 100, 499, 400)) > 5  # many blocks


def test_a_block_ends_with_the_record_that_takes_it_to_64000_bytes() -> None:
    schema = ConnectSchema(Type.STRING)
    values = ["z" * 1998] * 70  # datums of 2,000 bytes: 32 of them make 64,000
    records = [SinkRecord("t", 0, i, None, None, v, None, schema) for i, v in enumerate(values)]
    fmt, expected = AvroFormat("null"), io.BytesIO()
    fmt.write(records, expected)
    sync = sync_marker("t", 0, 0, 69, 70)
    got = io.BytesIO()
    fmt.write_datums(schema, [pa.array([fmt.datum_encoder(schema)(v) for v in values])], sync, got)
    assert got.getvalue() == expected.getvalue()
    first_block = expected.getvalue().split(sync)[1]
    assert first_block[:1] == b"\x40" and len(first_block) == 1 + 3 + 64_000  # 32 records
