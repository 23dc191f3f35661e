"""Unit tests for the S3 source's pure part: listing, ordering, bad names, reading each format."""

from __future__ import annotations

import gzip
import io
import logging
import random
import struct
from datetime import UTC, date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from s3connect.config.source import SourceConfig
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.convert.json import JsonConverter
from s3connect.errors import SourceObjectError
from s3connect.formats.factory import make_format, read_file
from s3connect.source.reader import (
    SourceObject,
    list_objects,
    plain_bytes,
    read_object,
    read_values,
)
from s3connect.storage.local import LocalStorage
from s3connect.storage.naming import object_key

BASE = {
    "kafka.bootstrap.servers": "localhost:9092",
    "checkpoint.location": "/tmp/ckpt",
    "s3.bucket.name": "bucket",
}


def config(fmt: str = "json", **extra: str) -> SourceConfig:
    return SourceConfig.from_mapping({**BASE, "format.class": fmt, **extra})


def put(store: LocalStorage, key: str, data: bytes = b"x\n") -> None:
    with store.open_write(key) as out:
        out.write(data)


def key(topic: str, partition: int, offset: int, ext: str, encoded: str | None = None) -> str:
    return object_key(
        topics_dir="topics",
        topic=topic,
        encoded_partition=encoded or f"partition={partition}",
        kafka_partition=partition,
        start_offset=offset,
        extension=ext,
    )


def write(fmt: str, values: list[Any], schema: ConnectSchema | None, **options: Any) -> bytes:
    out = io.BytesIO()
    records = [SinkRecord("t", 0, i, None, None, v, None, schema) for i, v in enumerate(values)]
    make_format(fmt, **options).write(records, out)
    return out.getvalue()


# --------------------------------------------------------------------------- listing


def test_listing_groups_orders_and_ignores(tmp_path: Path) -> None:
    store = LocalStorage(tmp_path)
    for k in (
        key("a", 0, 10, ".json"),
        key("a", 0, 2, ".json"),
        key("a", 0, 100, ".json.gz"),
        key("a", 1, 0, ".json"),
        key("b", 0, 0, ".json"),
        key("a", 0, 5, ".avro"),  # another format's object: ignored
        "elsewhere/a/partition=0/a+0+0000000000.json",  # outside topics.dir: ignored
        "topics/a/partition=0/README.txt",  # not an object of this format: ignored
    ):
        put(store, k)
    listing = list_objects(store, config())
    assert sorted(listing.objects) == [("a", 0), ("a", 1), ("b", 0)]
    assert [o.start_offset for o in listing.objects[("a", 0)]] == [2, 10, 100]
    assert listing.skipped == []


def test_time_folders_are_ordered_by_start_offset(tmp_path: Path) -> None:
    store = LocalStorage(tmp_path)
    put(store, key("a", 0, 6, ".json", "year=2024/month=02"))
    put(store, key("a", 0, 0, ".json", "year=2024/month=01"))
    put(store, key("a", 0, 3, ".json", "year=2023/month=12"))  # late records, older folder
    objs = list_objects(store, config()).objects[("a", 0)]
    assert [o.start_offset for o in objs] == [0, 3, 6]


def test_topics_filter(tmp_path: Path) -> None:
    store = LocalStorage(tmp_path)
    put(store, key("a", 0, 0, ".json"))
    put(store, key("b", 0, 0, ".json"))
    assert sorted(list_objects(store, config(topics="b")).objects) == [("b", 0)]


def test_companion_keys_and_headers_objects_are_attached(tmp_path: Path) -> None:
    store = LocalStorage(tmp_path)
    put(store, key("a", 0, 0, ".avro"))
    put(store, key("a", 0, 0, ".keys.avro"))
    put(store, key("a", 0, 0, ".headers.avro"))
    (obj,) = list_objects(store, config("avro")).objects[("a", 0)]
    assert obj.keys_key == key("a", 0, 0, ".keys.avro")
    assert obj.headers_key == key("a", 0, 0, ".headers.avro")


BAD = "topics/a/partition=0/not-a-sink-name.json"


def test_companions_of_another_formats_objects_are_not_tombstones(tmp_path: Path) -> None:
    # JSON configured: the Avro value object is another format's, so are its keys and headers
    # objects; only a keys object with no value object at all holds tombstones.
    store = LocalStorage(tmp_path)
    folder = "topics/t/partition=0/"
    for name in ("t+0+0000000000.avro", "t+0+0000000000.keys.avro", "t+0+0000000000.headers.avro"):
        put(store, folder + name)
    put(store, folder + "t+0+0000000005.json")
    put(store, folder + "t+0+0000000005.keys.json")
    put(store, "topics/t/tombstone/t+0+0000000007.keys.json")
    objs = list_objects(store, config("json")).objects[("t", 0)]
    assert [(o.key.rpartition("/")[2], o.keys_key is not None, o.tombstones) for o in objs] == [
        ("t+0+0000000005.json", True, False),
        ("t+0+0000000007.keys.json", True, True),
    ]


def test_a_topic_named_like_a_companion_holds_value_objects(tmp_path: Path) -> None:
    store = LocalStorage(tmp_path)
    folder = "topics/orders.keys.v1/partition=0/"
    put(store, folder + "orders.keys.v1+0+0000000000.json", b'{"a":1}\n')
    put(store, folder + "orders.keys.v1+0+0000000000.keys.json", b'"k"\n')
    json_converters = {
        "value.converter": "org.apache.kafka.connect.json.JsonConverter",
        "value.converter.schemas.enable": "false",
        "key.converter": "org.apache.kafka.connect.json.JsonConverter",
        "key.converter.schemas.enable": "false",
    }
    source = config("json", **json_converters)
    (obj,) = list_objects(store, source).objects[("orders.keys.v1", 0)]
    assert (obj.key, obj.tombstones) == (folder + "orders.keys.v1+0+0000000000.json", False)
    assert obj.keys_key == folder + "orders.keys.v1+0+0000000000.keys.json"
    [record] = read_object(store, source, obj, destination="copy")
    assert (record.key, record.value) == (b'"k"', b'{"a":1}')


def test_bad_name_fails_naming_the_key(tmp_path: Path) -> None:
    store = LocalStorage(tmp_path)
    put(store, key("a", 0, 0, ".json"))
    put(store, BAD)
    with pytest.raises(SourceObjectError) as info:
        list_objects(store, config())
    assert BAD in str(info.value) and info.value.key == BAD


@pytest.mark.parametrize(("mode", "level"), [("ignore", logging.INFO), ("log", logging.ERROR)])
def test_bad_name_is_skipped_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, mode: str, level: int
) -> None:
    store = LocalStorage(tmp_path)
    put(store, key("a", 0, 0, ".json"))
    put(store, BAD)
    caplog.set_level(logging.INFO, logger="s3connect.source")
    listing = list_objects(store, config(**{"behavior.on.error": mode}))
    assert [o.start_offset for o in listing.objects[("a", 0)]] == [0]
    assert listing.skipped == [BAD]
    (entry,) = [r for r in caplog.records if BAD in r.getMessage()]
    assert entry.levelno == level


def test_object_in_another_topics_folder_is_read_as_its_file_names_topic(tmp_path: Path) -> None:
    # Confluent's source document: "A file with the correct extension and a valid name format
    # ..., placed in a folder of a different topic will be read normally and written to
    # whatever topic as defined by its filename."
    store = LocalStorage(tmp_path)
    put(store, key("a", 0, 0, ".json"))
    put(store, "topics/a/partition=0/b+0+0000000004.json")
    put(store, key("b", 0, 0, ".json"))
    listing = list_objects(store, config())
    assert [o.key for o in listing.objects[("b", 0)]] == [
        key("b", 0, 0, ".json"),
        "topics/a/partition=0/b+0+0000000004.json",
    ]
    assert [o.key for o in listing.objects[("a", 0)]] == [key("a", 0, 0, ".json")]
    assert listing.skipped == []


# --------------------------------------------------------------------------- reading formats

OPT_DOUBLE = ConnectSchema(Type.FLOAT64, optional=True)
INNER = ConnectSchema(
    Type.STRUCT, fields=(Field("a", ConnectSchema(Type.INT16)), Field("b", OPT_DOUBLE))
)
RICH = ConnectSchema(
    Type.STRUCT,
    name="com.example.Rich",
    version=2,
    doc="all types",
    fields=(
        Field("i8", ConnectSchema(Type.INT8)),
        Field("i32", ConnectSchema(Type.INT32)),
        Field("i64", ConnectSchema(Type.INT64)),
        Field("f32", ConnectSchema(Type.FLOAT32)),
        Field("f64", OPT_DOUBLE),
        Field("flag", ConnectSchema(Type.BOOLEAN)),
        Field("text", ConnectSchema(Type.STRING, optional=True, default="dflt")),
        Field("raw", ConnectSchema(Type.BYTES)),
        # Kafka's Decimal.schema(2), Date.SCHEMA, Time.SCHEMA, Timestamp.SCHEMA: version 1, which
        # AvroData.toConnectSchema gives these logical types whether the file says so or not.
        Field(
            "price",
            ConnectSchema(Type.BYTES, name=DECIMAL, version=1, parameters={"scale": "2"}),
        ),
        Field("day", ConnectSchema(Type.INT32, name=DATE, version=1)),
        Field("at", ConnectSchema(Type.INT32, name=TIME, version=1)),
        Field("ts", ConnectSchema(Type.INT64, name=TIMESTAMP, version=1)),
        Field("tags", ConnectSchema(Type.ARRAY, value_schema=ConnectSchema(Type.STRING))),
        Field(
            "counts",
            ConnectSchema(
                Type.MAP,
                key_schema=ConnectSchema(Type.STRING),
                value_schema=ConnectSchema(Type.INT64),
            ),
        ),
        Field(
            "by_id",
            ConnectSchema(
                Type.MAP,
                key_schema=ConnectSchema(Type.INT32),
                value_schema=ConnectSchema(Type.STRING),
            ),
        ),
        Field("inner", INNER),
        Field("maybe", ConnectSchema(Type.STRUCT, optional=True, fields=INNER.fields)),
    ),
)


def rich(i: int) -> dict[str, Any]:
    return {
        "i8": -i,
        "i32": i * 1000,
        "i64": 2**40 + i,
        "f32": 1.5,
        "f64": None if i % 2 else i / 3,
        "flag": bool(i % 2),
        "text": f"t{i}",
        "raw": bytes([i, 0, 255]),
        "price": Decimal(f"{i}.25"),
        "day": date(2024, 1, 1 + i),
        "at": time(12, 30, i, 125000),
        "ts": datetime(2024, 5, 1, 8, 0, i, 250000, tzinfo=UTC),
        "tags": ["x", f"y{i}"],
        "counts": {"a": i},
        "by_id": {i: "one", i + 1: "two"},
        "inner": {"a": i, "b": 0.5},
        "maybe": None if i % 2 else {"a": 1, "b": None},
    }


def envelope(schema: ConnectSchema, value: Any) -> bytes:
    out = JsonConverter(schemas_enable=True).from_connect("t", schema, value)
    assert out is not None
    return out


@pytest.mark.parametrize("codec", ["null", "deflate", "snappy", "bzip2"])
def test_avro_reads_back_schema_and_values(codec: str) -> None:
    values = [rich(i) for i in range(4)]
    file = read_file("avro", write("avro", values, RICH, codec=codec), ".avro")
    assert file.schema is not None
    assert file.values == values
    # What a JsonConverter would publish is byte-identical to the original record's.
    assert [envelope(file.schema, v) for v in file.values] == [envelope(RICH, v) for v in values]


@pytest.mark.parametrize("codec", ["none", "snappy", "gzip", "zstd", "lz4", "brotli"])
def test_parquet_reads_back_schema_and_values(codec: str) -> None:
    values = [rich(i) for i in range(4)]
    fmt = make_format("parquet", codec=codec)
    file = read_file("parquet", write("parquet", values, RICH, codec=codec), fmt.extension)
    assert file.schema is not None
    assert file.values == values
    assert [envelope(file.schema, v) for v in file.values] == [envelope(RICH, v) for v in values]


@pytest.mark.parametrize("compression", ["none", "gzip"])
def test_json_lines_read_back(compression: str) -> None:
    values = [{"id": 1, "x": 1.5, "s": "é\n"}, [1, 2], "text", 7]
    fmt = make_format("json", compression=compression)
    file = read_file("json", write("json", values, None, compression=compression), fmt.extension)
    assert file.schema is None and file.values == values


@pytest.mark.parametrize("compression", ["none", "gzip"])
def test_bytearray_split_at_the_separator(compression: str) -> None:
    values = [b"a", b"", b"\x00\xff"]
    fmt = make_format("bytearray", separator="|", compression=compression)
    data = write("bytearray", values, None, separator="|", compression=compression)
    assert read_file("bytearray", data, fmt.extension, b"|").values == values


def test_truncated_objects_are_errors() -> None:
    with pytest.raises(ValueError, match="cannot read it as bytearray"):
        read_file("bytearray", b"a\nb", ".bin")
    with pytest.raises(ValueError, match="cannot read it as avro"):
        read_file("avro", b"Obj\x01 broken", ".avro")


# --------------------------------------------------------------------------- read_object


def stored(
    tmp_path: Path, fmt: str, values: list[Any], offset: int = 0, **options: Any
) -> tuple[LocalStorage, SourceObject]:
    store = LocalStorage(tmp_path)
    ext = make_format(fmt, **options).extension
    k = key("t", 0, offset, ext)
    put(store, k, write(fmt, values, ConnectSchema(Type.BYTES, optional=True), **options))
    return store, SourceObject(k, "t", 0, offset, ext)


def test_read_object_serializes_with_the_converter_and_slices(tmp_path: Path) -> None:
    store, obj = stored(tmp_path, "bytearray", [b"r0", b"r1", b"r2", b"r3"])
    c = config("bytearray", **{"value.converter": "bytearray"})
    got = list(read_object(store, c, obj, destination="copy_of_t", skip=1, stop=3))
    assert [(r.topic, r.partition, r.value, r.index, r.key) for r in got] == [
        ("copy_of_t", 0, b"r1", 1, None),
        ("copy_of_t", 0, b"r2", 2, None),
    ]
    as_json = config("bytearray", **{"value.converter.schemas.enable": "false"})
    (first,) = list(read_object(store, as_json, obj, destination="d", stop=1))
    assert first.value == b'"cjA="'  # JsonConverter writes bytes as base64


def test_separator_inside_records_is_detected(tmp_path: Path) -> None:
    store, obj = stored(tmp_path, "bytearray", [b"one", b"line\nbreak", b"three"])
    c = config("bytearray", **{"value.converter": "bytearray"})
    with pytest.raises(SourceObjectError, match="some records contain the separator") as info:
        list(read_object(store, c, obj, destination="d", bound=3))
    assert info.value.key == obj.key
    assert len(list(read_object(store, c, obj, destination="d", bound=None))) == 4  # undetectable
    skipping = config("bytearray", **{"value.converter": "bytearray", "behavior.on.error": "log"})
    assert list(read_object(store, skipping, obj, destination="d", bound=3)) == []


def test_unreadable_object_per_behavior_on_error(tmp_path: Path) -> None:
    store = LocalStorage(tmp_path)
    k = key("t", 0, 0, ".avro")
    put(store, k, b"garbage")
    obj = SourceObject(k, "t", 0, 0, ".avro")
    with pytest.raises(SourceObjectError, match="cannot read it as avro"):
        list(read_object(store, config("avro"), obj, destination="d"))
    ignoring = config("avro", **{"behavior.on.error": "ignore"})
    assert list(read_object(store, ignoring, obj, destination="d")) == []


@pytest.mark.parametrize("mode", ["ignore", "log"])
def test_a_corrupted_json_line_is_one_record_skipped(
    tmp_path: Path, mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    # "The corrupted record is ignored. The connector continues processing the next record."
    store = LocalStorage(tmp_path)
    k = key("t", 0, 10, ".json")
    put(store, k, b'{"a":1}\n{"a":\n{"a":3}\n')
    obj = SourceObject(k, "t", 0, 10, ".json")
    source = config("json", **{
        "behavior.on.error": mode,
        "value.converter": "org.apache.kafka.connect.json.JsonConverter",
        "value.converter.schemas.enable": "false",
    })  # fmt: skip
    with caplog.at_level("INFO", logger="s3connect"):
        records = list(read_object(store, source, obj, destination="d"))
    assert [(r.value, r.index) for r in records] == [(b'{"a":1}', 0), (b'{"a":3}', 2)]
    assert f"skipping {k}: record 1: " in caplog.text
    with pytest.raises(SourceObjectError, match=r"serialization error"):
        list(read_object(store, config("json"), obj, destination="d"))


# --------------------------------------------------------------------------- keys and headers


def _sink_then_read(
    tmp_path: Path, keys_format: str, headers_format: str, key_converter: str
) -> list[tuple[bytes | None, bytes | None, tuple[tuple[str, bytes | None], ...]]]:
    from s3connect.config.sink import SinkConfig
    from s3connect.connect.records import RawRecord
    from s3connect.sink.context import build_writer_context
    from s3connect.sink.writer import TopicPartitionWriter

    common = {
        "s3.bucket.name": "b",
        "store.url": f"file://{tmp_path / 'out'}",
        "format.class": "json",
        "value.converter.schemas.enable": "false",
        "key.converter": key_converter,
        "key.converter.schemas.enable": "false",
    }
    sink = SinkConfig.from_mapping(
        {
            **common,
            "topics": "t",
            "kafka.bootstrap.servers": "127.0.0.1:9092",
            "checkpoint.location": str(tmp_path / "ck"),
            "flush.size": "3",
            "store.kafka.keys": "true",
            "store.kafka.headers": "true",
            "keys.format.class": keys_format,
            "headers.format.class": headers_format,
            "behavior.on.null.values": "write",
        }
    )
    records = [
        RawRecord("t", 0, 0, None, b'"a"', b'{"i":0}', (("h", b"1"), ("h", b"2"))),
        RawRecord("t", 0, 1, None, b'"b"', None, (("gone", b"yes"),)),
        RawRecord("t", 0, 2, None, b'"c"', b'{"i":2}', (("u", "é".encode()),)),
    ]
    TopicPartitionWriter(build_writer_context(sink), "t", 0).write(records, 0)
    store = LocalStorage(tmp_path / "out")
    source = SourceConfig.from_mapping({**BASE, **common})
    objs = list_objects(store, source).objects[("t", 0)]
    assert [(o.start_offset, o.tombstones) for o in objs] == [(0, False), (1, True)]
    return [
        (r.key, r.value, r.headers)
        for o in objs
        for r in read_object(store, source, o, destination="copy_of_t")
    ]


@pytest.mark.parametrize(
    ("keys_format", "headers_format"),
    [("avro", "avro"), ("json", "json"), ("parquet", "parquet"), ("bytearray", "avro")],
)
def test_keys_headers_and_tombstones_read_back(
    tmp_path: Path, keys_format: str, headers_format: str
) -> None:
    # Avro and Parquet keys need a key schema (StringConverter's); JSON keys may be schemaless.
    converter = {"bytearray": "bytearray", "json": "json"}.get(keys_format, "string")
    assert _sink_then_read(tmp_path, keys_format, headers_format, converter) == [
        (b'"a"', b'{"i":0}', (("h", b"1"), ("h", b"2"))),
        (b'"c"', b'{"i":2}', (("u", "é".encode()),)),
        (b'"b"', None, (("gone", b"yes"),)),
    ]


def test_companion_with_wrong_record_count_is_reported(tmp_path: Path) -> None:
    store = LocalStorage(tmp_path)
    put(store, key("a", 0, 0, ".json"), b'{"i":0}\n{"i":1}\n')
    put(store, key("a", 0, 0, ".keys.json"), b'"only-one"\n')
    (obj,) = list_objects(store, config()).objects[("a", 0)]
    with pytest.raises(SourceObjectError, match="keys object holds 1 records, the value object 2"):
        list(read_object(store, config(), obj, destination="copy_of_a"))


# --------------------------------------------------------------------------- transforms


def test_source_transforms_run_on_connect_values_before_the_converter(tmp_path: Path) -> None:
    store = LocalStorage(tmp_path)
    values = [{"id": 1, "table": "users", "ssn": "1"}, {"id": 2, "table": "skip"},
              {"id": 3, "table": "orders", "ssn": "3"}]  # fmt: skip
    put(store, key("t", 0, 40, ".json"), write("json", values, None))
    transforms = {
        "transforms": "drop,mask,by",
        "transforms.drop.type": "org.apache.kafka.connect.transforms.Filter",
        "transforms.drop.predicate": "skipped",
        "transforms.mask.type": "org.apache.kafka.connect.transforms.MaskField$Value",
        "transforms.mask.fields": "ssn",
        "transforms.by.type": "io.confluent.connect.transforms.ExtractTopic$Value",
        "transforms.by.field": "table",
        "predicates": "skipped",
        "predicates.skipped.type": (
            "org.apache.kafka.connect.transforms.predicates.TopicNameMatches"
        ),
        "predicates.skipped.pattern": "never",
    }
    cfg = config(**transforms, **{"value.converter.schemas.enable": "false"})
    [obj] = list_objects(store, cfg).objects[("t", 0)]
    got = list(read_object(store, cfg, obj, destination=None, chain=cfg.routing.chain()))
    assert [(r.topic, r.partition, r.value, r.index) for r in got] == [
        ("users", 0, b'{"id":1,"table":"users","ssn":""}', 0),
        ("skip", 0, b'{"table":"skip","id":2,"ssn":null}', 1),  # new HashMap<>(value), then put
        ("orders", 0, b'{"id":3,"table":"orders","ssn":""}', 2),
    ]
    negated = config(**transforms, **{"transforms.drop.negate": "true",
                                      "value.converter.schemas.enable": "false"})  # fmt: skip
    assert list(read_object(store, negated, obj, destination=None,
                            chain=negated.routing.chain())) == []  # fmt: skip


# --------------------------------------------------------------------------- read_values


def _outcome(call: Any) -> tuple[str, Any]:
    """("values", list) or ("error", the SourceObjectError's message and key)."""
    try:
        return "values", call()
    except SourceObjectError as exc:
        return "error", (str(exc), exc.key)


@pytest.mark.parametrize("seed", range(60))
def test_read_values_equals_read_object_record_by_record(
    tmp_path: Path, seed: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Column-wise reading of ByteArray objects gives exactly the records (and the same errors
    and skips) as reading them one by one: separators of one or more bytes (some that overlap
    themselves), records holding the separator or parts of it, gzip, truncated objects, slices
    and bounds."""
    rng = random.Random(seed)
    separator = rng.choice(["\n", "\r\n", "|", "XX", "§", "abab"])
    sep = separator.encode()
    alphabet = [b"a", b"b", b"X", b"\n", b"\r", b"|", b"\xc2", b"\xa7", b"\x00", b"\xff"]
    values = [
        b"".join(rng.choice(alphabet) for _ in range(rng.choice([0, 1, 3, 12])))
        for _ in range(rng.randint(0, 40))
    ]
    compression = rng.choice(["none", "gzip"])
    ext = ".bin" + (".gz" if compression == "gzip" else "")
    data = b"".join(v + sep for v in values)
    if rng.random() < 0.15 and data:
        data = data[: -len(sep)] + b"?"  # truncated
    if compression == "gzip":
        data = gzip.compress(data)
    store = LocalStorage(tmp_path)
    k = key("t", 0, 100, ext)
    put(store, k, data)
    obj = SourceObject(k, "t", 0, 100, ext)
    on_error = rng.choice(["fail", "ignore", "log"])
    c = config(
        "bytearray",
        **{
            "value.converter": "bytearray",
            "format.bytearray.separator": separator,
            "behavior.on.error": on_error,
        },
    )
    assert plain_bytes(c)
    skip = rng.randint(0, 5)
    stop = rng.choice([None, rng.randint(0, 45)])
    bound = rng.choice([None, len(values), max(0, len(values) - 1), len(values) + 3])
    slicing = {"skip": skip, "stop": stop, "bound": bound}

    def by_record() -> list[bytes | None]:
        return [r.value for r in read_object(store, c, obj, destination="d", **slicing)]

    def by_column() -> list[bytes | None]:
        column = read_values(store, c, obj, **slicing)
        return [] if column is None else column.to_pylist()

    caplog.set_level(logging.INFO)
    expected = _outcome(by_record)
    expected_log = [r.getMessage() for r in caplog.records]
    caplog.clear()
    assert _outcome(by_column) == expected
    assert [r.getMessage() for r in caplog.records] == expected_log


def test_plain_bytes_needs_bytearray_format_converter_and_no_transforms() -> None:
    plain = {"value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter"}
    assert plain_bytes(config("bytearray", **plain))
    assert not plain_bytes(config("bytearray"))  # JsonConverter writes the bytes as base64
    assert not plain_bytes(config("json", **plain))
    dropping = {
        "transforms": "drop",
        "transforms.drop.type": "org.apache.kafka.connect.transforms.Filter",
    }
    assert not plain_bytes(config("bytearray", **plain, **dropping))


# --------------------------------------------------------------- Kafka's number converters

_LONG = "org.apache.kafka.connect.converters.LongConverter"
_DOUBLE = "org.apache.kafka.connect.converters.DoubleConverter"


@pytest.mark.parametrize(("fmt", "keys_format"), [("avro", "avro"), ("json", "json")])
def test_long_keys_and_double_values_are_published_as_kafka_serializes_them(
    tmp_path: Path, fmt: str, keys_format: str
) -> None:
    # Sink with LongConverter keys (a keys object) and DoubleConverter values, then the source
    # publishes them with the same converters: the bytes Kafka's LongSerializer and
    # DoubleSerializer wrote (NumberConverter.fromConnectData).
    from s3connect.config.sink import SinkConfig
    from s3connect.connect.records import RawRecord
    from s3connect.sink.context import build_writer_context
    from s3connect.sink.writer import TopicPartitionWriter

    common = {
        "s3.bucket.name": "b", "store.url": f"file://{tmp_path / 'out'}", "format.class": fmt,
        "key.converter": _LONG, "value.converter": _DOUBLE,
    }  # fmt: skip
    sink = SinkConfig.from_mapping({
        **common, "topics": "t", "kafka.bootstrap.servers": "127.0.0.1:9092",
        "checkpoint.location": str(tmp_path / "ck"), "flush.size": "3",
        "store.kafka.keys": "true", "keys.format.class": keys_format,
    })  # fmt: skip
    pairs = [(-2, 1234.31), (2**63 - 1, 1e300), (7, -0.5)]
    records = [
        RawRecord("t", 0, o, None, struct.pack(">q", k), struct.pack(">d", v))
        for o, (k, v) in enumerate(pairs)
    ]
    TopicPartitionWriter(build_writer_context(sink), "t", 0).write(records, 0)
    store = LocalStorage(tmp_path / "out")
    source = SourceConfig.from_mapping({**BASE, **common})
    (obj,) = list_objects(store, source).objects[("t", 0)]
    got = list(read_object(store, source, obj, destination="copy_of_t"))
    assert [(r.key, r.value) for r in got] == [(r.key, r.value) for r in records]
    # A value of another class is refused with NumberConverter's message (ClassCastException).
    as_int = SourceConfig.from_mapping({
        **BASE, **common, "value.converter": "IntegerConverter", "behavior.on.error": "fail",
    })  # fmt: skip
    with pytest.raises(SourceObjectError) as info:
        list(read_object(store, as_int, obj, destination="copy_of_t"))
    assert "Failed to serialize to integer (was class java.lang.Double): " in str(info.value)


def test_boolean_converter_publishes_one_byte_and_refuses_other_schemas(tmp_path: Path) -> None:
    store = LocalStorage(tmp_path)
    put(store, key("t", 0, 0, ".json"), b"true\nfalse\nnull\n")
    cfg = config(**{"value.converter": "org.apache.kafka.connect.converters.BooleanConverter"})
    (obj,) = list_objects(store, cfg).objects[("t", 0)]
    got = list(read_object(store, cfg, obj, destination="d"))
    assert [r.value for r in got] == [b"\x01", b"\x00", None]
    put(store, key("t", 0, 0, ".avro"), write("avro", [1], ConnectSchema(Type.INT32)))
    avro = config("avro", **{
        "value.converter": "org.apache.kafka.connect.converters.BooleanConverter",
        "behavior.on.error": "fail",
    })  # fmt: skip
    (obj,) = list_objects(store, avro).objects[("t", 0)]
    with pytest.raises(SourceObjectError, match="Invalid schema type for BooleanConverter: INT32"):
        list(read_object(store, avro, obj, destination="d"))
