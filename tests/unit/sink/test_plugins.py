"""``partitioner.class`` and ``format.class`` naming Python classes of the user's (see
:mod:`s3connect.config.plugins`), driven through the writer without Spark."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from s3connect.config.sink import SinkConfig
from s3connect.config.source import SourceConfig
from s3connect.connect.records import RawRecord
from s3connect.errors import ConfigError
from s3connect.sink.context import build_writer_context
from s3connect.sink.writer import TopicPartitionWriter

PLUGINS = "tests.unit.sink.plugin_examples"


def _config(tmp_path: Path, **extra: str) -> SinkConfig:
    return SinkConfig.from_mapping(
        {
            "topics": "t",
            "kafka.bootstrap.servers": "broker:9092",
            "checkpoint.location": str(tmp_path / "ck"),
            "s3.bucket.name": "b",
            "store.url": f"file://{tmp_path / 'out'}",
            "format.class": "json",
            "value.converter.schemas.enable": "false",
            "flush.size": "3",
            **extra,
        }
    )


def _records(values: list[dict[str, object]]) -> list[RawRecord]:
    return [RawRecord("t", 0, i, None, None, json.dumps(v).encode()) for i, v in enumerate(values)]


def test_a_python_partitioner_and_format_write_the_objects(tmp_path: Path) -> None:
    config = _config(
        tmp_path,
        **{
            "partitioner.class": f"{PLUGINS}.RegionPartitioner",
            "region.case": "upper",
            "format.class": f"{PLUGINS}.CsvFormat",
            "csv.columns": "id,region",
        },
    )
    assert config.describe()["partitioner.class"] == f"{PLUGINS}.RegionPartitioner"
    writer = TopicPartitionWriter(build_writer_context(config), "t", 0)
    values = [{"id": 1, "region": "eu"}, {"id": 2, "region": "us"}, {"id": 3, "region": "eu"}]
    committed = writer.write(_records(values), 0)
    assert sorted((o.key, o.record_count) for o in committed) == [
        ("topics/t/region=EU/t+0+0000000000.csv", 2),
        ("topics/t/region=US/t+0+0000000001.csv", 1),
    ]
    out = tmp_path / "out" / "topics" / "t"
    assert (out / "region=EU" / "t+0+0000000000.csv").read_text() == "1,eu\n3,eu\n"


def test_a_plugin_partition_error_is_a_dead_letter(tmp_path: Path) -> None:
    config = _config(
        tmp_path,
        **{
            "partitioner.class": f"{PLUGINS}.RegionPartitioner",
            "errors.tolerance": "all",
            "errors.log.enable": "true",
        },
    )
    writer = TopicPartitionWriter(build_writer_context(config), "t", 0)
    writer.write(_records([{"id": 1}, {"id": 2, "region": "eu"}]), 0)
    assert [(d.raw.offset, d.stage, d.exception_class) for d in writer.dead_letters] == [
        (0, "TASK_PUT", "s3connect.errors.PartitionError")
    ]


@pytest.mark.parametrize(
    ("key", "value", "problem"),
    [
        ("partitioner.class", "nowhere.Thing", "cannot import 'nowhere'"),
        ("partitioner.class", f"{PLUGINS}.Missing", "has no class 'Missing'"),
        ("partitioner.class", f"{PLUGINS}.CsvFormat", "needs encode_partition"),
        ("format.class", f"{PLUGINS}.NotAFormat", "needs extension, write"),
        ("format.class", "io.confluent.connect.s3.format.csv.CsvFormat", "must be one of avro"),
    ],
)
def test_a_class_that_is_no_plugin_is_refused_naming_the_key(
    tmp_path: Path, key: str, value: str, problem: str
) -> None:
    with pytest.raises(ConfigError) as info:
        _config(tmp_path, **{key: value})
    assert f"{key}={value} is invalid" in str(info.value) and problem in str(info.value)


def test_the_source_reads_built_in_formats_only(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="the S3 source reads the built-in formats"):
        SourceConfig.from_mapping(
            {
                "kafka.bootstrap.servers": "broker:9092",
                "checkpoint.location": str(tmp_path / "ck"),
                "s3.bucket.name": "b",
                "format.class": f"{PLUGINS}.CsvFormat",
            }
        )
