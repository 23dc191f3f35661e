"""Format writers: files read back by independent readers (fastavro, pyarrow, gzip + json)."""

from __future__ import annotations

import gzip
import io
import json
import re
import zlib
from collections.abc import Iterator
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any

import fastavro
import fastavro.read
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.convert.avro_data import AvroDataOptions, avro_schema_json
from s3connect.convert.json import JsonConverter
from s3connect.formats.base import Format
from s3connect.formats.factory import (
    AvroFormat,
    ByteArrayFormat,
    JsonFormat,
    ParquetFormat,
    make_format,
    read_file,
)

DECIMAL = "org.apache.kafka.connect.data.Decimal"
TIMESTAMP = "org.apache.kafka.connect.data.Timestamp"
DATE = "org.apache.kafka.connect.data.Date"

INT32 = ConnectSchema(Type.INT32)
STRING = ConnectSchema(Type.STRING)
OPT_STRING = ConnectSchema(Type.STRING, optional=True)


def records(values: list[Any], schema: ConnectSchema | None) -> list[SinkRecord]:
    return [
        SinkRecord("orders", 0, i, 1000 + i, None, v, None, schema) for i, v in enumerate(values)
    ]


def write(fmt: Format, recs: list[SinkRecord]) -> bytes:
    out = io.BytesIO()
    fmt.write(recs, out)
    return out.getvalue()


def read_avro(data: bytes) -> tuple[list[Any], dict[str, bytes]]:
    reader = fastavro.reader(io.BytesIO(data))
    return list(reader), {
        k: v.encode() if isinstance(v, str) else v for k, v in reader.metadata.items()
    }


def read_parquet(data: bytes) -> pa.Table:
    # ParquetFile.read: pq.read_table's dataset thread pool intermittently aborts the interpreter
    # at exit with pyarrow 22 in this environment.
    return pq.ParquetFile(pa.BufferReader(data)).read()


@pytest.fixture
def snappy_reader(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """fastavro's snappy block reader, backed by pyarrow (no python-snappy installed)."""

    def read_long(fo: Any) -> int:
        n, shift = 0, 0
        while True:
            byte: int = fo.read(1)[0]
            n |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return (n >> 1) ^ -(n & 1)

    def read_block(fo: Any) -> io.BytesIO:
        length = read_long(fo)
        block = fo.read(length - 4)
        crc = int.from_bytes(fo.read(4), "big")
        size, shift, pos = 0, 0, 0
        while True:  # snappy preamble: uncompressed length as a varint
            byte = block[pos]
            size |= (byte & 0x7F) << shift
            pos, shift = pos + 1, shift + 7
            if not byte & 0x80:
                break
        raw = pa.decompress(block, decompressed_size=size, codec="snappy", asbytes=True)
        assert zlib.crc32(raw) == crc
        return io.BytesIO(raw)

    monkeypatch.setitem(fastavro.read.BLOCK_READERS, "snappy", read_block)
    yield


# --------------------------------------------------------------------------------------------
# A struct with every kind of field, coming from a JSON envelope

ENVELOPE_SCHEMA = {
    "type": "struct",
    "name": "com.acme.Order",
    "version": 2,
    "fields": [
        {"field": "id", "type": "int64"},
        {"field": "small", "type": "int8"},
        {"field": "note", "type": "string", "optional": True},
        {
            "field": "amount",
            "type": "bytes",
            "name": DECIMAL,
            "version": 1,
            "parameters": {"scale": "2"},
        },
        {"field": "ts", "type": "int64", "name": TIMESTAMP, "version": 1},
        {"field": "day", "type": "int32", "name": DATE, "version": 1, "optional": True},
        {"field": "tags", "type": "array", "items": {"type": "string"}},
        {"field": "attrs", "type": "map", "keys": {"type": "string"}, "values": {"type": "int32"}},
        {"field": "codes", "type": "map", "keys": {"type": "int32"}, "values": {"type": "string"}},
        {
            "field": "addr",
            "type": "struct",
            "fields": [
                {"field": "city", "type": "string"},
                {"field": "zip", "type": "string", "optional": True},
            ],
        },
        {"field": "ratio", "type": "float"},
    ],
}
PAYLOADS = [
    {
        "id": 1,
        "small": -3,
        "note": None,
        "amount": "MDk=",
        "ts": 1700000000123,
        "day": 19000,
        "tags": ["a", "b"],
        "attrs": {"x": 1},
        "codes": [[7, "seven"]],
        "addr": {"city": "Paris", "zip": "75001"},
        "ratio": 0.1,
    },
    {
        "id": 2,
        "small": 5,
        "note": "rush",
        "amount": "/w==",
        "ts": 0,
        "day": None,
        "tags": [],
        "attrs": {},
        "codes": [],
        "addr": {"city": "Oslo", "zip": None},
        "ratio": 2.5,
    },
]


@pytest.fixture
def order_records() -> list[SinkRecord]:
    conv = JsonConverter()
    out = []
    for offset, payload in enumerate(PAYLOADS):
        data = json.dumps({"schema": ENVELOPE_SCHEMA, "payload": payload}).encode()
        value, schema = conv.to_connect("orders", data)
        out.append(SinkRecord("orders", 0, offset, None, None, value, None, schema))
    return out


def test_end_to_end_avro(order_records: list[SinkRecord]) -> None:
    rows, meta = read_avro(write(AvroFormat(), order_records))
    assert meta["avro.codec"] == b"null"
    assert rows == [
        {
            "id": 1,
            "small": -3,
            "note": None,
            "amount": Decimal("123.45"),
            "ts": datetime(2023, 11, 14, 22, 13, 20, 123000, tzinfo=UTC),
            "day": date(2022, 1, 8),
            "tags": ["a", "b"],
            "attrs": {"x": 1},
            "codes": [{"key": 7, "value": "seven"}],
            "addr": {"city": "Paris", "zip": "75001"},
            "ratio": pytest.approx(0.1),
        },
        {
            "id": 2,
            "small": 5,
            "note": "rush",
            "amount": Decimal("-0.01"),
            "ts": datetime(1970, 1, 1, tzinfo=UTC),
            "day": None,
            "tags": [],
            "attrs": {},
            "codes": [],
            "addr": {"city": "Oslo", "zip": None},
            "ratio": 2.5,
        },
    ]


def test_end_to_end_avro_schema_text(order_records: list[SinkRecord]) -> None:
    _, meta = read_avro(write(AvroFormat(), order_records))
    decimal_type = (
        '{"type":"bytes","scale":2,"precision":64,"connect.version":1,'
        '"connect.parameters":{"scale":"2"},"connect.name":"' + DECIMAL + '",'
        '"logicalType":"decimal"}'
    )
    assert meta["avro.schema"].decode() == (
        '{"type":"record","name":"Order","namespace":"com.acme","fields":['
        '{"name":"id","type":"long"},'
        '{"name":"small","type":{"type":"int","connect.type":"int8"}},'
        '{"name":"note","type":["null","string"],"default":null},'
        '{"name":"amount","type":' + decimal_type + "},"
        '{"name":"ts","type":{"type":"long","connect.version":1,"connect.name":"' + TIMESTAMP + '",'
        '"logicalType":"timestamp-millis"}},'
        '{"name":"day","type":["null",{"type":"int","connect.version":1,"connect.name":"'
        + DATE
        + '","logicalType":"date"}],"default":null},'
        '{"name":"tags","type":{"type":"array","items":"string"}},'
        '{"name":"attrs","type":{"type":"map","values":"int"}},'
        '{"name":"codes","type":{"type":"array","items":{"type":"record","name":"MapEntry",'
        '"namespace":"io.confluent.connect.avro","fields":[{"name":"key","type":"int"},'
        '{"name":"value","type":"string"}]}}},'
        '{"name":"addr","type":{"type":"record","name":"ConnectDefault",'
        '"namespace":"io.confluent.connect.avro","fields":[{"name":"city","type":"string"},'
        '{"name":"zip","type":["null","string"],"default":null}]}},'
        '{"name":"ratio","type":"float"}],'
        '"connect.version":2,"connect.name":"com.acme.Order"}'
    )


def test_end_to_end_parquet(order_records: list[SinkRecord]) -> None:
    table = read_parquet(write(ParquetFormat(), order_records))
    assert table.schema.field("id").type == pa.int64()
    assert table.schema.field("small").type == pa.int32()
    assert table.schema.field("amount").type == pa.decimal256(64, 2)
    assert table.schema.field("ts").type == pa.timestamp("ms", tz="UTC")
    assert table.schema.field("day").type == pa.date32()
    assert table.schema.field("ratio").type == pa.float32()
    nullability = {f.name: f.nullable for f in table.schema}
    assert nullability == {
        "id": False,
        "small": False,
        "note": True,
        "amount": False,
        "ts": False,
        "day": True,
        "tags": False,
        "attrs": False,
        "codes": False,
        "addr": False,
        "ratio": False,
    }
    rows = table.to_pylist()
    assert rows[0]["amount"] == Decimal("123.45")
    assert rows[0]["ts"] == datetime(2023, 11, 14, 22, 13, 20, 123000, tzinfo=UTC)
    assert rows[0]["day"] == date(2022, 1, 8)
    assert rows[0]["attrs"] == [("x", 1)]
    assert rows[0]["codes"] == [{"key": 7, "value": "seven"}]
    assert rows[0]["addr"] == {"city": "Paris", "zip": "75001"}
    assert rows[0]["ratio"] == pytest.approx(0.1)
    assert (rows[1]["note"], rows[1]["day"], rows[1]["amount"]) == ("rush", None, Decimal("-0.01"))
    assert rows[1]["tags"] == []
    assert rows[1]["addr"] == {"city": "Oslo", "zip": None}
    meta = pq.ParquetFile(pa.BufferReader(write(ParquetFormat(), order_records))).metadata.metadata
    assert meta[b"writer.model.name"] == b"avro"
    assert meta[b"parquet.avro.schema"].decode() == avro_schema_json(order_records[0].value_schema)  # type: ignore[arg-type]


def test_end_to_end_json(order_records: list[SinkRecord]) -> None:
    data = write(JsonFormat(), order_records)
    assert data == (
        b'{"id":1,"small":-3,"note":null,"amount":"MDk=","ts":1700000000123,"day":19000,'
        b'"tags":["a","b"],"attrs":{"x":1},"codes":[[7,"seven"]],'
        b'"addr":{"city":"Paris","zip":"75001"},"ratio":0.1}\n'
        b'{"id":2,"small":5,"note":"rush","amount":"/w==","ts":0,"day":null,"tags":[],'
        b'"attrs":{},"codes":[],"addr":{"city":"Oslo","zip":null},"ratio":2.5}\n'
    )
    assert [json.loads(line) for line in data.splitlines()][1]["amount"] == "/w=="


def test_json_numeric_decimal(order_records: list[SinkRecord]) -> None:
    lines = write(JsonFormat(decimal_format="NUMERIC"), order_records).splitlines()
    assert [json.loads(line)["amount"] for line in lines] == [123.45, -0.01]
    assert b'"amount":123.45,' in lines[0]


# --------------------------------------------------------------------------------------------
# Avro


@pytest.mark.parametrize("codec", ["null", "deflate", "snappy", "bzip2"])
@pytest.mark.usefixtures("snappy_reader")
def test_avro_codecs_read_back(codec: str) -> None:
    schema = ConnectSchema(Type.STRUCT, fields=(Field("n", INT32), Field("s", STRING)))
    values = [{"n": i, "s": "x" * (i % 50)} for i in range(5000)]
    data = write(AvroFormat(codec), records(values, schema))
    rows, meta = read_avro(data)
    assert meta["avro.codec"] == codec.encode()
    assert rows == values


def test_avro_blocks_flush_every_64000_bytes() -> None:
    schema = ConnectSchema(Type.STRUCT, fields=(Field("s", STRING),))
    values = [{"s": "y" * 1000} for _ in range(200)]  # ~200 KB -> 4 blocks
    data = write(AvroFormat(), records(values, schema))
    reader = fastavro.block_reader(io.BytesIO(data))
    assert [block.num_records for block in reader] == [64, 64, 64, 8]


def test_avro_primitive_value_schema() -> None:
    rows, meta = read_avro(write(AvroFormat(), records(["a", None], OPT_STRING)))
    assert rows == ["a", None]
    assert meta["avro.schema"] == b'["null","string"]'


def test_avro_unnamed_structs_get_numbered_default_names() -> None:
    inner = ConnectSchema(Type.STRUCT, fields=(Field("x", INT32),))
    other = ConnectSchema(Type.STRUCT, fields=(Field("y", INT32),))
    outer = ConnectSchema(
        Type.STRUCT,
        fields=(Field("a", inner), Field("b", inner), Field("c", other)),
    )
    assert avro_schema_json(outer) == (
        '{"type":"record","name":"ConnectDefault","namespace":"io.confluent.connect.avro",'
        '"fields":[{"name":"a","type":{"type":"record","name":"ConnectDefault2",'
        '"fields":[{"name":"x","type":"int"}]}},{"name":"b","type":"ConnectDefault2"},'
        '{"name":"c","type":{"type":"record","name":"ConnectDefault3",'
        '"fields":[{"name":"y","type":"int"}]}}]}'
    )
    value = {"a": {"x": 1}, "b": {"x": 2}, "c": {"y": 3}}
    assert read_avro(write(AvroFormat(), records([value], outer)))[0] == [value]


def test_avro_defaults_and_int16() -> None:
    schema = ConnectSchema(
        Type.STRUCT,
        name="r",
        fields=(
            Field("q", ConnectSchema(Type.INT16, default=4)),
            Field("o", ConnectSchema(Type.INT32, optional=True, default=9)),
            Field("b", ConnectSchema(Type.BYTES, optional=True, default=b"\xe9")),
        ),
    )
    assert avro_schema_json(schema) == (
        '{"type":"record","name":"r","fields":['
        '{"name":"q","type":{"type":"int","connect.default":4,"connect.type":"int16"},'
        '"default":4},'
        '{"name":"o","type":[{"type":"int","connect.default":9},"null"],"default":9},'
        '{"name":"b","type":[{"type":"bytes","connect.default":"\u00e9"},"null"],'
        '"default":"\u00e9"}],"connect.name":"r"}'
    )
    rows, _ = read_avro(write(AvroFormat(), records([{"q": 1, "o": None, "b": None}], schema)))
    assert rows == [{"q": 1, "o": 9, "b": b"\xe9"}]  # null takes the default, as AvroData


ANYTHING = (
    '{"type":"record","name":"Anything","namespace":"io.confluent.connect.avro","fields":['
    '{"name":"boolean","type":["null","boolean"],"default":null},'
    '{"name":"bytes","type":["null","bytes"],"default":null},'
    '{"name":"double","type":["null","double"],"default":null},'
    '{"name":"float","type":["null","float"],"default":null},'
    '{"name":"int","type":["null","int"],"default":null},'
    '{"name":"long","type":["null","long"],"default":null},'
    '{"name":"string","type":["null","string"],"default":null},'
    '{"name":"array","type":["null",{"type":"array","items":"Anything"}],"default":null},'
    '{"name":"map","type":["null",{"type":"array","items":{"type":"record","name":"MapEntry",'
    '"fields":[{"name":"key","type":"Anything"},{"name":"value","type":"Anything"}]}}],'
    '"default":null}]}'
)  # AvroData.ANYTHING_SCHEMA.toString(), built by SchemaBuilder as in AvroData's static block


def _anything(**field: Any) -> dict[str, Any]:
    datum = dict.fromkeys(("boolean", "bytes", "double", "float", "int", "long", "string"))
    datum.update(array=None, map=None)
    datum.update(field)
    return datum


def test_avro_writes_schemaless_data_as_avrodatas_anything_record() -> None:
    # Confluent's AvroFormat: fromConnectSchema(null) is ANYTHING_SCHEMA, and fromConnectData
    # sets the field of the value's Java type (a JSON integer is a Long, a number a Double);
    # a null inside an array or map is a record with no field set.
    values = [{"b": True, "n": 7, "x": 1.5}, "text", [1, None, b"\x00"], -3]
    data = write(AvroFormat(codec="deflate"), records(values, None))
    rows, meta = read_avro(data)
    assert meta["avro.schema"].decode() == ANYTHING
    assert meta["avro.codec"] == b"deflate"
    entries = [
        {"key": _anything(string=k), "value": v}
        for k, v in [("b", _anything(boolean=True)), ("n", _anything(long=7)),
                     ("x", _anything(double=1.5))]
    ]  # fmt: skip
    assert rows == [
        _anything(map=entries),
        _anything(string="text"),
        _anything(array=[_anything(long=1), _anything(), _anything(bytes=b"\x00")]),
        _anything(long=-3),
    ]
    # The source reads it back as AvroData.toConnectData does: schemaless values again, a map
    # in the order of new HashMap<>(3) (4 buckets: "x" 120 in bucket 0, "b" 98 and "n" 110 in 2).
    got = read_file("avro", data, ".avro")
    assert got.schema is None
    assert got.values == values
    assert list(got.values[0]) == ["x", "b", "n"]


def test_avro_refuses_a_schemaless_value_of_no_connect_type() -> None:
    message = "Unknown Java type for schemaless data: class java.math.BigDecimal"
    with pytest.raises(ValueError, match=re.escape(message)):
        write(AvroFormat(), records([{"a": Decimal("1.5")}], None))


def test_avro_rejects_mixed_schemas() -> None:
    recs = [*records([1], INT32), SinkRecord("orders", 0, 9, None, None, "x", None, STRING)]
    with pytest.raises(ValueError, match="offset 9 of orders-0 differs from offset 0"):
        write(AvroFormat(), recs)


def test_avro_rejects_null_for_required_value() -> None:
    with pytest.raises(ValueError, match=r"Found null value for non-optional schema$"):
        write(AvroFormat(), records([None], INT32))


def test_avro_rejects_unknown_codec() -> None:
    with pytest.raises(
        ValueError, match=r"avro\.codec must be one of null, deflate, snappy, bzip2"
    ):
        AvroFormat("zstd")


def test_avro_time_logical_type() -> None:
    schema = ConnectSchema(
        Type.STRUCT,
        fields=(Field("t", ConnectSchema(Type.INT32, name="org.apache.kafka.connect.data.Time")),),
    )
    rows, meta = read_avro(write(AvroFormat(), records([{"t": time(1, 2, 3, 4000)}], schema)))
    assert rows == [{"t": time(1, 2, 3, 4000)}]
    assert b'"logicalType":"time-millis"' in meta["avro.schema"]


# --------------------------------------------------------------------------------------------
# Parquet


@pytest.mark.parametrize(
    ("codec", "extension", "parquet_codec"),
    [
        ("snappy", ".snappy.parquet", "SNAPPY"),
        ("none", ".parquet", "UNCOMPRESSED"),
        ("gzip", ".gz.parquet", "GZIP"),
        ("zstd", ".zstd.parquet", "ZSTD"),
        ("lz4", ".lz4hadoop.parquet", "LZ4"),
        ("brotli", ".br.parquet", "BROTLI"),
    ],
)
def test_parquet_codecs(codec: str, extension: str, parquet_codec: str) -> None:
    schema = ConnectSchema(Type.STRUCT, fields=(Field("n", INT32), Field("s", OPT_STRING)))
    values = [{"n": i, "s": None if i % 3 else f"v{i}"} for i in range(1000)]
    fmt = ParquetFormat(codec)
    data = write(fmt, records(values, schema))
    assert fmt.extension == extension
    assert read_parquet(data).to_pylist() == values
    meta = pq.ParquetFile(pa.BufferReader(data)).metadata
    assert meta.row_group(0).column(0).compression == parquet_codec


def test_parquet_batches_become_row_groups() -> None:
    schema = ConnectSchema(Type.STRUCT, fields=(Field("n", INT32),))
    data = write(ParquetFormat(batch_size=4), records([{"n": i} for i in range(10)], schema))
    parquet_file = pq.ParquetFile(pa.BufferReader(data))
    assert parquet_file.metadata.num_row_groups == 3
    assert parquet_file.read().column("n").to_pylist() == list(range(10))


def test_parquet_array_of_optional_items() -> None:
    items = ConnectSchema(Type.ARRAY, value_schema=ConnectSchema(Type.INT64, optional=True))
    schema = ConnectSchema(Type.STRUCT, fields=(Field("xs", items),))
    table = read_parquet(write(ParquetFormat(), records([{"xs": [1, None, 3]}], schema)))
    assert table.to_pylist() == [{"xs": [1, None, 3]}]
    assert table.schema.field("xs").type.value_field.nullable is True


def test_parquet_rejects_non_struct_and_schemaless() -> None:
    with pytest.raises(ValueError, match="Parquet needs a STRUCT value schema, got STRING"):
        write(ParquetFormat(), records(["a"], STRING))
    with pytest.raises(ValueError, match="ParquetFormat needs records with a struct value schema"):
        write(ParquetFormat(), records([{"a": 1}], None))


def test_parquet_rejects_unknown_codec() -> None:
    with pytest.raises(ValueError, match=r"parquet\.codec must be one of"):
        ParquetFormat("lzo")


# --------------------------------------------------------------------------------------------
# JSON


def test_json_non_struct_values_as_jackson_writes_them() -> None:
    assert write(JsonFormat(), records(["a\tb", None], OPT_STRING)) == b'"a\\tb"\nnull\n'
    assert write(JsonFormat(), records([{"k": [1, 2.0]}, 3], None)) == b'{"k":[1,2.0]}\n3\n'
    floats = ConnectSchema(Type.ARRAY, value_schema=ConnectSchema(Type.FLOAT32))
    assert write(JsonFormat(), records([[0.1, 1e8]], floats)) == b"[0.1,1.0E8]\n"
    assert write(JsonFormat(), records([b"\x01\x02"], ConnectSchema(Type.BYTES))) == b'"AQI="\n'


def test_json_gzip_is_java_gzip_stream() -> None:
    fmt = JsonFormat("gzip", level=9)
    data = write(fmt, records([{"a": i} for i in range(100)], None))
    assert fmt.extension == ".json.gz"
    # GZIPOutputStream(out, 8192) with level 9 on Java 17 (the OS byte is 255 since JDK 16)
    java = bytes.fromhex("1f8b08000000000000ff")
    assert data[:10] == java
    text = gzip.decompress(data).decode()
    assert text == "".join(f'{{"a":{i}}}\n' for i in range(100))
    assert [json.loads(line) for line in text.splitlines()][99] == {"a": 99}


def test_json_struct_with_required_null_fails() -> None:
    schema = ConnectSchema(Type.STRUCT, fields=(Field("a", INT32),))
    with pytest.raises(ValueError, match="null value for field that is required"):
        write(JsonFormat(), records([{"a": None}], schema))


def test_json_rejects_bad_compression() -> None:
    with pytest.raises(ValueError, match="Compression must be one of none, gzip"):
        JsonFormat("snappy")
    with pytest.raises(ValueError, match=r"Compression level must be -1\.\.9"):
        JsonFormat("gzip", level=10)


# --------------------------------------------------------------------------------------------
# ByteArray


def test_bytearray_values_and_separator() -> None:
    fmt = ByteArrayFormat()
    data = write(fmt, records([b"\x00ab", "hé".encode(), bytearray(b"z")], None))
    assert fmt.extension == ".bin"
    assert data == b"\x00ab\nh\xc3\xa9\nz\n"


def test_bytearray_custom_separator_and_gzip() -> None:
    fmt = ByteArrayFormat(extension=".txt", separator="||", compression="gzip")
    data = write(fmt, records([b"a", b"b"], ConnectSchema(Type.BYTES, optional=True)))
    assert fmt.extension == ".txt.gz"
    assert gzip.decompress(data) == b"a||b||"


def test_bytearray_rejects_non_bytes() -> None:
    # Kafka's ByteArrayConverter.fromConnectData, which Confluent's ByteArrayFormat writes
    # each value with: bytes only (a StringConverter string fails on its schema).
    with pytest.raises(ValueError, match="Invalid schema type for ByteArrayConverter: STRING"):
        write(ByteArrayFormat(), records(["hé"], OPT_STRING))
    with pytest.raises(ValueError, match=r"objects of type class java\.lang\.String; offset 0"):
        write(ByteArrayFormat(), records(["hé"], None))
    with pytest.raises(ValueError, match=r"objects of type class java\.util\.HashMap"):
        write(ByteArrayFormat(), records([{"a": 1}], None))
    with pytest.raises(ValueError, match="cannot write a null value"):
        write(ByteArrayFormat(), records([None], None))


# --------------------------------------------------------------------------------------------
# Factory


@pytest.mark.parametrize(
    ("name", "options", "cls", "extension"),
    [
        ("avro", {"codec": "deflate"}, AvroFormat, ".avro"),
        ("io.confluent.connect.s3.format.json.JsonFormat", {}, JsonFormat, ".json"),
        ("parquet", {"codec": "gzip"}, ParquetFormat, ".gz.parquet"),
        ("bytearray", {"compression": "gzip"}, ByteArrayFormat, ".bin.gz"),
    ],
)
def test_make_format(name: str, options: dict[str, Any], cls: type, extension: str) -> None:
    fmt = make_format(name, **options)
    assert isinstance(fmt, cls)
    assert isinstance(fmt, Format)
    assert fmt.extension == extension


def test_make_format_unknown() -> None:
    with pytest.raises(ValueError, match="Unknown format 'orc'; known: avro, bytearray, json"):
        make_format("orc")


def test_empty_file_is_refused() -> None:
    for fmt in (AvroFormat(), JsonFormat(), ParquetFormat(), ByteArrayFormat()):
        with pytest.raises(ValueError, match="A file needs at least one record"):
            write(fmt, [])


# --------------------------------------------------------------------------- AvroData settings

COLOR = ConnectSchema(
    Type.STRING,
    name="com.acme.Color",
    parameters={
        "io.confluent.connect.avro.Enum": "com.acme.Color",
        "io.confluent.connect.avro.Enum.RED": "RED",
        "io.confluent.connect.avro.Enum.GREEN": "GREEN",
    },
)
TAGGED = ConnectSchema(
    Type.STRUCT,
    name="com.acme.Tagged",
    fields=(
        Field("color", COLOR),
        Field("tags", ConnectSchema(Type.MAP, key_schema=OPT_STRING, value_schema=INT32)),
    ),
)
TAGGED_VALUES = [{"color": "GREEN", "tags": {"a": 1}}, {"color": "RED", "tags": {}}]
ENUM_AND_MAPS = AvroDataOptions(enhanced_schema_support=True, allow_optional_map_keys=True)


def test_avro_format_applies_the_avro_data_options() -> None:
    plain = write(AvroFormat(), records(TAGGED_VALUES, TAGGED))
    rows, meta = read_avro(plain)
    assert rows == [{"color": "GREEN", "tags": [{"key": "a", "value": 1}]},
                    {"color": "RED", "tags": []}]  # fmt: skip
    schema = json.loads(meta["avro.schema"])
    assert schema["fields"][0]["type"]["type"] == "string"
    assert schema["fields"][1]["type"]["type"] == "array"

    data = write(AvroFormat(avro_data=ENUM_AND_MAPS), records(TAGGED_VALUES, TAGGED))
    rows, meta = read_avro(data)
    assert rows == TAGGED_VALUES
    assert meta["avro.schema"] == avro_schema_json(TAGGED, ENUM_AND_MAPS).encode()
    schema = json.loads(meta["avro.schema"])
    assert schema["fields"][0]["type"]["type"] == "enum"
    assert schema["fields"][0]["type"]["symbols"] == ["RED", "GREEN"]
    assert schema["fields"][1]["type"] == {"type": "map", "values": "int"}
    # The source reads it back as the Connect string with the enum parameters.
    back = read_file("avro", data, ".avro")
    assert back.values == TAGGED_VALUES
    color = back.schema.field("color") if back.schema else None
    assert color is not None and color.schema == COLOR


def test_parquet_format_applies_the_avro_data_options() -> None:
    data = write(ParquetFormat(avro_data=ENUM_AND_MAPS), records(TAGGED_VALUES, TAGGED))
    table = read_parquet(data)
    footer = table.schema.metadata[b"parquet.avro.schema"]
    assert footer == avro_schema_json(TAGGED, ENUM_AND_MAPS).encode()
    # No ENUM annotation from pyarrow: the enum column is a string column.
    assert table.schema.field("color").type == pa.string()
    tags = table.schema.field("tags").type
    assert isinstance(tags, pa.MapType)
    assert (tags.key_type, tags.item_type) == (pa.string(), pa.int32())
    assert table.to_pylist() == [{"color": "GREEN", "tags": [("a", 1)]},
                                 {"color": "RED", "tags": []}]  # fmt: skip
    assert read_file("parquet", data, ".snappy.parquet").values == TAGGED_VALUES
    plain = read_parquet(write(ParquetFormat(), records(TAGGED_VALUES, TAGGED)))
    element = pa.struct([pa.field("key", pa.string()), pa.field("value", pa.int32(), False)])
    assert plain.schema.field("tags").type == pa.list_(pa.field("element", element, False))
    with pytest.raises(ValueError, match="cannot hold a null key"):
        write(
            ParquetFormat(avro_data=ENUM_AND_MAPS),
            records([{"color": "RED", "tags": {None: 1}}], TAGGED),
        )


def test_lone_surrogates_are_written_as_java_writes_them() -> None:
    """JSON's "\\ud800" reads into a string UTF-8 cannot hold; Avro's and parquet-avro's Java
    string writers (String.getBytes(UTF_8)) write "?" for it, in values and map keys."""
    envelope = {
        "schema": {
            "type": "struct",
            "fields": [
                {"field": "s", "type": "string"},
                {
                    "field": "m",
                    "type": "map",
                    "keys": {"type": "string"},
                    "values": {"type": "string"},
                },
            ],
        },
        "payload": {"s": "a\ud800b\udfff", "m": {"k\udc00": "\ud83d", "ok": "😀"}},
    }
    value, schema = JsonConverter().to_connect("t", json.dumps(envelope).encode())
    assert value["s"] == "a\ud800b\udfff"
    written = {"s": "a?b?", "m": {"k?": "?", "ok": "😀"}}
    avro = fastavro.reader(io.BytesIO(write(AvroFormat(), records([value], schema))))
    assert list(avro) == [written]
    table = read_parquet(write(ParquetFormat(), records([value], schema)))
    assert table.to_pylist() == [{"s": "a?b?", "m": [("k?", "?"), ("ok", "😀")]}]
    assert (
        AvroFormat().datum_encoder(schema)(value)
        == b"\x08a?b?\x04\x04k?\x02?\x04ok\x08\xf0\x9f\x98\x80\x00"
    )


# AvroData.fromConnectData puts a string-keyed map into a new HashMap<>(), whose iteration order
# Avro's and parquet-avro's writers follow: by bucket, (h ^ h >>> 16) & 15 of String.hashCode
# ("BB" and "Aa" both hash to 2112: bucket 0; "a" 97: bucket 1; "b" 98: bucket 2), a bucket's
# keys in the order they were put. A map read by AvroConverter arrives in its datum's order.
_DATUM_ORDER = {"b": 1, "BB": 2, "a": 3, "Aa": 4}
_JAVA_ORDER = ["BB", "Aa", "a", "b"]
_MAP = ConnectSchema(Type.MAP, key_schema=STRING, value_schema=INT32)
_OPT_KEY_MAP = ConnectSchema(Type.MAP, key_schema=OPT_STRING, value_schema=INT32)


@pytest.mark.parametrize("value_schema", [_MAP, _OPT_KEY_MAP])
def test_avro_writes_maps_in_avrodata_hashmap_order(value_schema: ConnectSchema) -> None:
    options = AvroDataOptions(allow_optional_map_keys=True)
    struct = ConnectSchema(Type.STRUCT, fields=(Field("m", value_schema),))
    for schema, value in ((value_schema, _DATUM_ORDER), (struct, {"m": _DATUM_ORDER})):
        data = write(AvroFormat(avro_data=options), records([value], schema))
        (read,) = list(fastavro.reader(io.BytesIO(data)))
        assert list(read if schema is value_schema else read["m"]) == _JAVA_ORDER


@pytest.mark.parametrize("value_schema", [_MAP, _OPT_KEY_MAP])
def test_parquet_writes_maps_in_avrodata_hashmap_order(value_schema: ConnectSchema) -> None:
    options = AvroDataOptions(allow_optional_map_keys=True)
    struct = ConnectSchema(Type.STRUCT, fields=(Field("m", value_schema),))
    data = write(ParquetFormat(avro_data=options), records([{"m": _DATUM_ORDER}], struct))
    entries = read_parquet(data).column("m").to_pylist()[0]
    assert [key for key, _ in entries] == _JAVA_ORDER


def test_avro_and_parquet_rehash_a_connect_map_in_a_table_of_16() -> None:
    # A Connect map ordered as a HashMap of 2 ("e", "a": one bucket of a table of 4) is written
    # in a new HashMap<>()'s order: "a" (bucket 1 of 16) before "e" (bucket 5).
    struct = ConnectSchema(Type.STRUCT, fields=(Field("m", _MAP),))
    value = {"m": {"e": 1, "a": 2}}
    (avro,) = list(fastavro.reader(io.BytesIO(write(AvroFormat(), records([value], struct)))))
    assert list(avro["m"]) == ["a", "e"]
    entries = read_parquet(write(ParquetFormat(), records([value], struct))).column("m")
    assert [key for key, _ in entries.to_pylist()[0]] == ["a", "e"]
