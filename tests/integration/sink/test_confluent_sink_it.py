"""Confluent's ``S3SinkConnectorIT`` through the real stack (Kafka, S3, the sink on Spark).

Ported from confluentinc/kafka-connect-storage-cloud at 87eb7d39 (2026-07-28):
``kafka-connect-s3/src/test/java/io/confluent/connect/s3/integration/S3SinkConnectorIT.java``
and the helpers of its ``BaseConnectorIT`` (how records are produced, what is asserted of the
object keys, their count and contents, tags, tombstone keys files and DLQ headers), one test
per Java test method.

As in the Java: 30 records (``NUM_RECORDS_INSERT``) to partition 0, ``flush.size=3``, the key
and the value written by ``JsonConverter`` with schemas (the value the six-field struct of
``getSampleStructSchema``), key and value converters ``JsonConverter``. Where the Java
configures a connector and waits for files, these tests run the sink until the topics are
read (``availableNow``); each test has its own topics (``TestTopic-<id>`` for the Java's
``TestTopic``) and bucket. Files are read back with readers independent of s3connect
(``sinkhelp``), and rows compared as ``fileRowMatchesExpectedRow`` compares them: each field's
Java text (``Float.toString`` for the ``float`` read from Avro and Parquet, Jackson's double
text for JSON).
"""

from __future__ import annotations

import json
import re
import struct
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.sinkhelp import objects, read_avro, read_parquet, run, sink_keys

pytestmark = pytest.mark.integration

AVRO_FORMAT = "io.confluent.connect.s3.format.avro.AvroFormat"
PARQUET_FORMAT = "io.confluent.connect.s3.format.parquet.ParquetFormat"
JSON_FORMAT = "io.confluent.connect.s3.format.json.JsonFormat"
JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter"
STRING_CONVERTER = "org.apache.kafka.connect.storage.StringConverter"
AVRO_EXTENSION, PARQUET_EXTENSION, JSON_EXTENSION = "avro", "snappy.parquet", "json"

NUM_RECORDS_INSERT = 30
FLUSH_SIZE_STANDARD = 3
TOPIC_PARTITION = 0
TOMBSTONE_PARTITION = "TOMBSTONE_PARTITION"

# getSampleStructSchema() / getSampleStructVal() as JsonConverter (schemas.enable=true) sends
# them, and the Java text of each field value (Struct.get(field).toString()).
SAMPLE_SCHEMA: dict[str, Any] = {
    "type": "struct",
    "fields": [
        {"type": "int64", "optional": False, "field": "ID"},
        {"type": "boolean", "optional": False, "field": "myBool"},
        {"type": "int32", "optional": False, "field": "myInt32"},
        {"type": "float", "optional": False, "field": "myFloat32"},
        {"type": "double", "optional": False, "field": "myFloat64"},
        {"type": "string", "optional": False, "field": "myString"},
    ],
    "optional": False,
}
SAMPLE_VALUE: dict[str, Any] = {
    "ID": 1, "myBool": True, "myInt32": 32, "myFloat32": 3.2, "myFloat64": 64.64,
    "myString": "theStringVal",
}  # fmt: skip
EXPECTED_ROW = {
    "ID": "1", "myBool": "true", "myInt32": "32", "myFloat32": "3.2", "myFloat64": "64.64",
    "myString": "theStringVal",
}  # fmt: skip
KEY_BYTES = json.dumps(
    {"schema": {"type": "string", "optional": False}, "payload": "key"}, separators=(",", ":")
).encode()
VALUE_BYTES = json.dumps(
    {"schema": SAMPLE_SCHEMA, "payload": SAMPLE_VALUE}, separators=(",", ":")
).encode()
SAMPLE_HEADERS: list[tuple[str, str | bytes | None]] = [
    ("first-header-key", b"first-header-value"),
    ("second-header-key", b"second-header-value"),
]


def _props(topics: list[str], bucket: str, tmp: Path, **keys: str) -> dict[str, str]:
    """``setupProperties()`` and ``before()``: the class's connector config, then ``keys``."""
    return sink_keys(topics, bucket, tmp, **{
        "flush.size": str(FLUSH_SIZE_STANDARD),
        "format.class": AVRO_FORMAT,
        "storage.class": "io.confluent.connect.s3.storage.S3Storage",
        "tasks.max": "3",
        "key.converter": JSON_CONVERTER,
        "value.converter": JSON_CONVERTER,
        "value.converter.schemas.enable": "true",
        **keys,
    })  # fmt: skip


def _produce_records(
    producer: Producer,
    topic: str,
    count: int,
    *,
    with_key: bool = True,
    with_value: bool = True,
    with_headers: bool = False,
) -> None:
    """``produceRecords``: ``count`` copies of the sample record to partition 0."""
    for _ in range(count):
        producer.produce(
            topic,
            key=KEY_BYTES if with_key else None,
            value=VALUE_BYTES if with_value else None,
            headers=SAMPLE_HEADERS if with_headers else None,
            partition=TOPIC_PARTITION,
        )
    assert producer.flush(30) == 0


def _file_path(topic: str, offset: int, extension: str) -> str:
    """``getFilePath``: ``topics/<topic>/partition=<p>/<topic>+<p>+<offset>.<extension>``."""
    p = TOPIC_PARTITION
    return f"topics/{topic}/partition={p}/{topic}+{p}+{offset:010d}.{extension}"


def _expected_filenames(topic: str, start_offset: int, extension: str) -> list[str]:
    """``getExpectedFilenames(topic, 0, FLUSH_SIZE_STANDARD, startOffset, 30, extension)``."""
    end = NUM_RECORDS_INSERT // FLUSH_SIZE_STANDARD * FLUSH_SIZE_STANDARD
    return [
        _file_path(topic, offset, extension)
        for offset in range(start_offset, end, FLUSH_SIZE_STANDARD)
    ]


def _expected_tags(topic: str, extension: str) -> dict[str, dict[str, str]]:
    """``getExpectedTags``: each file's startOffset, endOffset and recordCount."""
    return {
        _file_path(topic, offset, extension): {
            "startOffset": str(offset),
            "endOffset": str(offset + FLUSH_SIZE_STANDARD - 1),
            "recordCount": str(FLUSH_SIZE_STANDARD),
        }
        for offset in range(0, NUM_RECORDS_INSERT, FLUSH_SIZE_STANDARD)
    }


def _java_float_text(value: float) -> str:
    """``Float.toString`` of a float32: the shortest decimal that reads back as the same float."""
    f32 = struct.unpack("f", struct.pack("f", value))[0]
    for digits in range(1, 10):
        text = f"{f32:.{digits}g}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == f32:
            return text if "." in text or "e" in text else f"{text}.0"
    raise AssertionError(value)


def _row_text(row: dict[str, Any], float32: bool) -> dict[str, str]:
    """The Java text of each field as ``fileRowMatchesExpectedRow`` compares it."""
    out: dict[str, str] = {}
    for name, value in row.items():
        if isinstance(value, bool):
            out[name] = str(value).lower()
        elif isinstance(value, float):
            out[name] = _java_float_text(value) if float32 and name == "myFloat32" else repr(value)
        else:
            out[name] = str(value)
    return out


def _extension_of(key: str) -> str:
    """``getExtensionFromKey``: ``snappy.parquet``, else what follows the file name's last dot."""
    name = key.rsplit("/", 1)[-1]
    return PARQUET_EXTENSION if name.endswith("." + PARQUET_EXTENSION) else name.rsplit(".", 1)[1]


def _rows(key: str, data: bytes) -> list[dict[str, str]]:
    """The ``contentGetters``: a value file's rows by its extension, as Java text."""
    extension = _extension_of(key)
    if extension == AVRO_EXTENSION:
        return [_row_text(r, True) for r in read_avro(data)[2]]
    if extension == PARQUET_EXTENSION:
        return [_row_text(r, True) for r in read_parquet(data)[0].to_pylist()]
    assert extension == JSON_EXTENSION, key
    return [_row_text(json.loads(line), False) for line in data.decode().splitlines()]


def _value_files(got: dict[str, bytes]) -> dict[str, bytes]:
    """``getS3FileListValues``: every object but the ``.headers.avro``/``.keys.avro`` ones."""
    return {k: v for k, v in got.items() if not k.endswith((".headers.avro", ".keys.avro"))}


def _assert_file_contents_as_expected(got: dict[str, bytes]) -> None:
    """``fileContentsAsExpected(bucket, FLUSH_SIZE_STANDARD, recordValueStruct)``."""
    for key, data in _value_files(got).items():
        assert _rows(key, data) == [EXPECTED_ROW] * FLUSH_SIZE_STANDARD, key


@pytest.fixture
def named_topics(kafka_admin: AdminClient) -> Iterator[Callable[[str], str]]:
    """Create a topic of one partition with exactly this name; deleted after the test."""
    created: list[str] = []

    def make(name: str) -> str:
        for future in kafka_admin.create_topics([NewTopic(name, 1, 1)]).values():
            future.result(timeout=30)
        created.append(name)
        return name

    yield make
    if created:
        for future in kafka_admin.delete_topics(created).values():
            future.result(timeout=30)


def _basic_records_written(
    spark: Any, s3: Any, bucket: str, tmp: Path, producer: Producer,
    topics: list[str], extension: str, keys: dict[str, str], *, validate_tagging: bool = False,
) -> None:  # fmt: skip
    """``testBasicRecordsWrittenToSink``: 30 records a topic, 10 files each, named by their
    start offsets, 3 sample rows in each (and, if asked, each file's offset tags)."""
    for topic in topics:
        _produce_records(producer, topic, NUM_RECORDS_INSERT)
    run(spark, _props(topics, bucket, tmp, **keys))

    count_per_topic = NUM_RECORDS_INSERT // FLUSH_SIZE_STANDARD
    expected: set[str] = set()
    tags: dict[str, dict[str, str]] = {}
    for topic in sorted(topics):
        tags.update(_expected_tags(topic, extension))
        these = _expected_filenames(topic, 0, extension)
        assert len(these) == count_per_topic
        expected.update(these)
    assert len(expected) == count_per_topic * len(topics)
    got = objects(s3, bucket)
    assert sorted(got) == sorted(expected)
    _assert_file_contents_as_expected(got)
    if validate_tagging:
        for key, tag_set in tags.items():
            actual = s3.get_object_tagging(Bucket=bucket, Key=key)["TagSet"]
            assert len(actual) == len(tag_set)
            assert {t["Key"]: t["Value"] for t in actual} == tag_set


def _with_ext_topic(make_topic: Any, named_topics: Any, extension: str) -> list[str]:
    """``TestTopic`` and ``other.<ext>.topic.<ext>`` (made unique in its middle, still ending
    in the extension)."""
    other = named_topics(f"other.{extension}.topic-{uuid.uuid4().hex[:8]}.{extension}")
    return [make_topic("TestTopic"), other]


# ---------------------------------------------------------------------------------------------
# testBasicRecordsWritten*, testFilesWrittenToBucket*WithExtInTopic


def test_basic_records_written_avro(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    topics = [make_topic("TestTopic")]
    _basic_records_written(
        spark, s3, bucket, tmp_path, producer, topics, AVRO_EXTENSION,
        {"format.class": AVRO_FORMAT},
    )  # fmt: skip


def test_basic_records_written_parquet(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    topics = [make_topic("TestTopic")]
    _basic_records_written(
        spark, s3, bucket, tmp_path, producer, topics, PARQUET_EXTENSION,
        {"format.class": PARQUET_FORMAT},
    )  # fmt: skip


def test_basic_records_written_json(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    topics = [make_topic("TestTopic")]
    _basic_records_written(
        spark, s3, bucket, tmp_path, producer, topics, JSON_EXTENSION,
        {"format.class": JSON_FORMAT},
    )  # fmt: skip


# s3.send.digest is accepted and changes nothing in what is written (README, "Compatibility with
# Kafka Connect configs": AWS SDK tuning); the Java asserts the same files as without it.


def test_basic_records_written_with_digest_avro(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    topics = [make_topic("TestTopic")]
    _basic_records_written(
        spark, s3, bucket, tmp_path, producer, topics, AVRO_EXTENSION,
        {"format.class": AVRO_FORMAT, "s3.send.digest": "true"},
    )  # fmt: skip


def test_basic_records_written_with_digest_parquet(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    topics = [make_topic("TestTopic")]
    _basic_records_written(
        spark, s3, bucket, tmp_path, producer, topics, PARQUET_EXTENSION,
        {"format.class": PARQUET_FORMAT, "s3.send.digest": "true"},
    )  # fmt: skip


def test_basic_records_written_with_digest_json(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    topics = [make_topic("TestTopic")]
    _basic_records_written(
        spark, s3, bucket, tmp_path, producer, topics, JSON_EXTENSION,
        {"format.class": JSON_FORMAT, "s3.send.digest": "true"},
    )  # fmt: skip


def test_files_written_to_bucket_avro_with_ext_in_topic(
    spark: Any, s3: Any, bucket: str, make_topic: Any, named_topics: Any, producer: Producer,
    tmp_path: Path,
) -> None:  # fmt: skip
    topics = _with_ext_topic(make_topic, named_topics, AVRO_EXTENSION)
    _basic_records_written(
        spark, s3, bucket, tmp_path, producer, topics, AVRO_EXTENSION,
        {"format.class": AVRO_FORMAT},
    )  # fmt: skip


def test_files_written_to_bucket_parquet_with_ext_in_topic(
    spark: Any, s3: Any, bucket: str, make_topic: Any, named_topics: Any, producer: Producer,
    tmp_path: Path,
) -> None:  # fmt: skip
    topics = _with_ext_topic(make_topic, named_topics, PARQUET_EXTENSION)
    _basic_records_written(
        spark, s3, bucket, tmp_path, producer, topics, PARQUET_EXTENSION,
        {"format.class": PARQUET_FORMAT},
    )  # fmt: skip


def test_files_written_to_bucket_json_with_ext_in_topic(
    spark: Any, s3: Any, bucket: str, make_topic: Any, named_topics: Any, producer: Producer,
    tmp_path: Path,
) -> None:  # fmt: skip
    topics = _with_ext_topic(make_topic, named_topics, JSON_EXTENSION)
    _basic_records_written(
        spark, s3, bucket, tmp_path, producer, topics, JSON_EXTENSION,
        {"format.class": JSON_FORMAT},
    )  # fmt: skip


def test_files_written_to_bucket_with_tags_enabled(
    spark: Any, s3: Any, bucket: str, make_topic: Any, named_topics: Any, producer: Producer,
    tmp_path: Path,
) -> None:  # fmt: skip
    topics = _with_ext_topic(make_topic, named_topics, JSON_EXTENSION)
    _basic_records_written(
        spark, s3, bucket, tmp_path, producer, topics, JSON_EXTENSION,
        {"format.class": JSON_FORMAT, "s3.object.tagging": "true"}, validate_tagging=True,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# testTombstoneRecordsWrittenJson


def test_tombstone_records_written_json(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    topic = make_topic("TestTopic")
    _produce_records(producer, topic, NUM_RECORDS_INSERT, with_value=False, with_headers=True)
    run(spark, _props([topic], bucket, tmp_path, **{
        "format.class": JSON_FORMAT,
        "behavior.on.null.values": "write",
        "store.kafka.keys": "true",
        "keys.format.class": JSON_FORMAT,
        "tombstone.encoded.partition": TOMBSTONE_PARTITION,
    }))  # fmt: skip

    # getExpectedTombstoneFilenames: keys files only, in the tombstone partition.
    expected = [
        f"topics/{topic}/{TOMBSTONE_PARTITION}/{topic}+{TOPIC_PARTITION}+{offset:010d}.keys.json"
        for offset in range(0, NUM_RECORDS_INSERT, FLUSH_SIZE_STANDARD)
    ]
    assert len(expected) == NUM_RECORDS_INSERT // FLUSH_SIZE_STANDARD
    got = objects(s3, bucket)
    assert sorted(got) == sorted(expected)
    # keyfileContentsAsExpected(bucket, FLUSH_SIZE_STANDARD, "\"key\""): every line of every
    # .keys. file is the JSON string "key".
    for key in (k for k in got if ".keys." in k):
        assert got[key].decode().splitlines() == ['"key"'] * FLUSH_SIZE_STANDARD, key


# ---------------------------------------------------------------------------------------------
# testConnectorWithConditionalWrites


def test_connector_with_conditional_writes(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    topic = make_topic("TestTopic")
    # writeDummyFile: the first file, as another task instance would have written it.
    seed_key = f"topics/{topic}/partition=0/{topic}+0+0000000000.json"
    seed = (
        b'{"ID":1,"myBool":true,"myInt32":32,"myFloat32":3.2,"myFloat64":64.64,"myString":'
        b'"theStringVal"}\n'
        b'{"ID":1,"myBool":true,"myInt32":32,"myFloat32":3.2,"myFloat64":64.64,"myString":'
        b'"theStringVal"}'
    )
    s3.put_object(Bucket=bucket, Key=seed_key, Body=seed)
    _produce_records(producer, topic, NUM_RECORDS_INSERT)
    props = _props([topic], bucket, tmp_path, **{
        "enable.conditional.writes": "true",
        "rotate.schedule.interval.ms": "60000",
        "store.kafka.headers": "false",
        "store.kafka.keys": "false",
        "timezone": "UTC",
        "locale": "en-GB",
        "format.class": JSON_FORMAT,
    })  # fmt: skip
    # Deliberately not as Confluent (README, enable.conditional.writes): Confluent's writer,
    # refused at offset 0, seeks ahead and writes files from offset 1 (1, 4, ..., 28: 31 records
    # with the seed's duplicate). Ours never overwrites nor duplicates: the batch fails naming
    # the key taken by other bytes, and the seed stays as it was.
    with pytest.raises(Exception, match=re.escape(f"{seed_key} already exists with other content")):
        run(spark, props)
    assert objects(s3, bucket) == {seed_key: seed}


# ---------------------------------------------------------------------------------------------
# testFaultyRecordsReportedToDLQ


def test_faulty_records_reported_to_dlq(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, consume: Any,
    dlq_topic: str, tmp_path: Path,
) -> None:  # fmt: skip
    topic = make_topic("TestTopic")
    props = _props([topic], bucket, tmp_path, **{
        "key.converter": STRING_CONVERTER,
        "behavior.on.null.values": "ignore",
        "store.kafka.keys": "true",
        "store.kafka.headers": "true",
        "errors.deadletterqueue.topic.name": dlq_topic,
        "errors.deadletterqueue.context.headers.enable": "true",
        "errors.tolerance": "all",
        "errors.deadletterqueue.topic.replication.factor": "1",
    })  # fmt: skip

    # The first batch of valid records: values, keys and headers files.
    _produce_records(producer, topic, NUM_RECORDS_INSERT, with_headers=True)
    run(spark, props)
    expected_file_count = NUM_RECORDS_INSERT // FLUSH_SIZE_STANDARD * 3
    assert len(objects(s3, bucket)) == expected_file_count

    # One record without a key, one without a value, one without headers (offsets 30-32), then
    # the second batch of valid records (33-62).
    _produce_records(producer, topic, 1, with_key=False, with_headers=True)
    _produce_records(producer, topic, 1, with_value=False, with_headers=True)
    _produce_records(producer, topic, 1)
    _produce_records(producer, topic, NUM_RECORDS_INSERT, with_headers=True)
    run(spark, props)

    got = objects(s3, bucket)
    assert len(got) == expected_file_count * 2
    # The errant records are in no file nor counted in flush.size (TopicPartitionWriter drops
    # the start offset an errant record set): the second batch's files start at 33.
    starts = [*range(0, 30, 3), *range(33, 63, 3)]
    base = f"topics/{topic}/partition=0/{topic}+0+"
    assert sorted(got) == sorted(
        f"{base}{s:010d}.{ext}" for s in starts for ext in ("avro", "keys.avro", "headers.avro")
    )

    dlq_records = consume(dlq_topic, 3, timeout=30)
    expected_errors = sorted([
        "Key cannot be null for SinkRecord",
        "Skipping null value record",
        "Headers cannot be null for SinkRecord",
    ])  # fmt: skip
    assert len(dlq_records) == 3
    messages = sorted(
        dict(r.headers())["__connect.errors.exception.message"].decode() for r in dlq_records
    )
    for actual, wanted in zip(messages, expected_errors, strict=True):
        assert actual.startswith(wanted)
    _assert_file_contents_as_expected(got)
