"""Object keys as Confluent's TopicPartitionWriter names them, and the parser for them."""

from __future__ import annotations

import pytest

from s3connect.storage.naming import ObjectKey, object_key, parse_object_key


def test_default_key() -> None:
    key = object_key(
        topics_dir="topics",
        topic="orders",
        encoded_partition="partition=3",
        kafka_partition=3,
        start_offset=42,
        extension=".avro",
    )
    assert key == "topics/orders/partition=3/orders+3+0000000042.avro"


def test_blank_topics_dir_custom_delims_and_padding() -> None:
    key = object_key(
        topics_dir="  ",
        topic="t",
        encoded_partition="year=2024_month=03",
        kafka_partition=0,
        start_offset=7,
        extension="json.gz",
        directory_delim="_",
        file_delim="#",
        zero_pad_width=3,
    )
    assert key == "t_year=2024_month=03_t#0#007.json.gz"


def test_offset_wider_than_pad_is_printed_whole() -> None:
    key = object_key(
        topics_dir="a/b",
        topic="t",
        encoded_partition="partition=1",
        kafka_partition=1,
        start_offset=123456789012,
        extension=".parquet",
    )
    assert key == "a/b/t/partition=1/t+1+123456789012.parquet"
    with pytest.raises(ValueError, match="zero_pad_width"):
        object_key(
            topics_dir="",
            topic="t",
            encoded_partition="p",
            kafka_partition=0,
            start_offset=0,
            extension="",
            zero_pad_width=-1,
        )


def test_parse_round_trip() -> None:
    key = "topics/my+topic/year=2024/month=03/my+topic+12+0000000100.snappy.parquet"
    assert parse_object_key(key, topics_dir="topics") == ObjectKey(
        topic="my+topic",
        encoded_partition="year=2024/month=03",
        kafka_partition=12,
        start_offset=100,
        extension=".snappy.parquet",
    )
    assert (
        parse_object_key(key, topics_dir="topics", extension=".snappy.parquet").start_offset == 100
    )


def test_parse_custom_delims_without_prefix() -> None:
    key = "t_partition=0_t#0#007.json"
    parsed = parse_object_key(key, topics_dir="", directory_delim="_", file_delim="#")
    assert parsed == ObjectKey("t", "partition=0", 0, 7, ".json")


@pytest.mark.parametrize(
    ("key", "kwargs"),
    [
        ("other/t/partition=0/t+0+0000000000.avro", {"topics_dir": "topics"}),
        (
            "topics/t/partition=0/t+0+0000000000.avro",
            {"topics_dir": "topics", "extension": ".json"},
        ),
        ("topics/t/partition=0/u+0+0000000000.avro", {"topics_dir": "topics"}),
        ("topics/t/partition=0/t+x+0000000000.avro", {"topics_dir": "topics"}),
        ("topics/t+0+0000000000.avro", {"topics_dir": "topics"}),
    ],
)
def test_parse_rejects_foreign_keys(key: str, kwargs: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        parse_object_key(key, **kwargs)
