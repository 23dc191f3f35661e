"""The sink's converters (sink/converters.py): the tasks a Python worker runs share one registry
client per registry, credentials and retry settings, so a schema read by one task is not asked
for again by the next (a Connect task's converter keeps its cache for its life)."""

from __future__ import annotations

from pathlib import Path

from s3connect.config.sink import SinkConfig
from s3connect.convert.registry.base import RegistryConverter
from s3connect.sink.converters import build_converter


def _config(tmp: Path, **keys: str) -> SinkConfig:
    return SinkConfig.from_mapping(
        {
            "name": "t",
            "topics": "a",
            "flush.size": "10",
            "kafka.bootstrap.servers": "127.0.0.1:1",
            "checkpoint.location": str(tmp / "cp"),
            "s3.bucket.name": "b",
            "store.url": f"file://{tmp / 'data'}",
            "value.converter": "io.confluent.connect.avro.AvroConverter",
            "value.converter.schema.registry.url": "http://127.0.0.1:1",
            "format.class": "io.confluent.connect.s3.format.avro.AvroFormat",
            **keys,
        }
    )


def _client_of(config: SinkConfig) -> object:
    converter = build_converter(config, is_key=False)
    assert isinstance(converter, RegistryConverter)
    return converter.registry


def test_tasks_share_the_registry_client_of_the_same_settings(tmp_path: Path) -> None:
    one, two = _client_of(_config(tmp_path)), _client_of(_config(tmp_path / "other"))
    assert one is two  # another checkpoint, the same registry
    assert _client_of(_config(tmp_path, **{"errors.retry.timeout": "5000"})) is not one
    other = {"value.converter.schema.registry.url": "http://127.0.0.1:2"}
    assert _client_of(_config(tmp_path, **other)) is not one
    secret = {
        "value.converter.basic.auth.credentials.source": "USER_INFO",
        "value.converter.basic.auth.user.info": "u:p",
    }
    assert _client_of(_config(tmp_path, **secret)) is not one
