"""README's "Compatibility with Kafka Connect configs" table against the code: every key of the S3
sink and source documents and of Kafka Connect's sink settings has a row, and each row's
``yes`` / ``no effect`` / ``refused`` is what the sink and the source config really do."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from s3connect.config.sink import SinkConfig
from s3connect.config.source import SourceConfig
from s3connect.errors import ConfigError

README = Path(__file__).resolve().parents[3] / "README.md"

SINK = {
    "topics": "orders",
    "kafka.bootstrap.servers": "broker:9092",
    "checkpoint.location": "/tmp/ck",
    "s3.bucket.name": "bucket",
    "format.class": "io.confluent.connect.s3.format.avro.AvroFormat",
    "flush.size": "3",
}
SOURCE = {k: v for k, v in SINK.items() if k != "topics"}

# Every key the reference documents (Confluent's S3 sink, S3 source, Cloud sink and overview
# pages) set in their examples or name as config, and Kafka Connect's sink connector settings.
REFERENCE_KEYS = frozenset(
    [
        "avro.codec",
        "aws.access.key.id",
        "aws.secret.access.key",
        "behavior.on.error",
        "compression.codec",
        "confluent.license",
        "confluent.topic.bootstrap.servers",
        "confluent.topic.replication.factor",
        "connector.class",
        "errors.deadletterqueue.context.headers.enable",
        "errors.deadletterqueue.topic.name",
        "errors.deadletterqueue.topic.replication.factor",
        "errors.log.enable",
        "errors.tolerance",
        "flush.size",
        "format.class",
        "input.data.format",
        "kafka.api.key",
        "kafka.api.secret",
        "key.converter",
        "key.converter.schema.registry.url",
        "name",
        "output.data.format",
        "parquet.codec",
        "partition.duration.ms",
        "partition.field.name",
        "partitioner.class",
        "path.format",
        "rotate.interval.ms",
        "rotate.schedule.interval.ms",
        "s3.bucket.name",
        "s3.compression.level",
        "s3.credentials.provider.class",
        "s3.part.retries",
        "s3.part.size",
        "s3.region",
        "s3.retry.backoff.ms",
        "schema.compatibility",
        "schema.generator.class",
        "storage.class",
        "sts.role.arn",
        "sts.role.external.id",
        "sts.role.session.name",
        "tasks.max",
        "time.interval",
        "topics.dir",
        "transforms",
        "value.converter",
        "value.converter.schema.registry.url",
        "value.converter.schemas.enable",
        "topics",
        "topics.regex",
        "header.converter",
        "config.action.reload",
        "predicates",
        "errors.retry.timeout",
        "errors.retry.delay.max.ms",
        "errors.log.include.messages",
    ]
)

_AVRO = "io.confluent.connect.avro.AvroConverter"
_ROUTER = "org.apache.kafka.connect.transforms.RegexRouter"
_PROVIDER = "io.confluent.connect.s3.auth.AwsAssumeRoleCredentialsProvider"
_ASSUME = {
    "s3.credentials.provider.class": _PROVIDER,
    "s3.credentials.provider.sts.role.arn": "arn:aws:iam::012345678901:role/r",
    "s3.credentials.provider.sts.role.session.name": "session",
    "s3.credentials.provider.sts.role.external.id": "external",
}
# The S3 source's document names them without the prefix.
_BARE_ASSUME = {
    "s3.credentials.provider.class": _PROVIDER,
    "sts.role.arn": "arn:aws:iam::012345678901:role/r",
    "sts.role.session.name": "session",
    "sts.role.external.id": "external",
}
_CLOUD: dict[str, str | None] = {
    "connector.class": "S3_SINK",
    "output.data.format": "AVRO",
    "format.class": None,
}

# A valid value for each key (and the keys it needs beside it): a row's claim is checked with it.
SAMPLES: Mapping[str, Mapping[str, str | None]] = {
    "name": {"name": "archive"},
    "connector.class": {"connector.class": "io.confluent.connect.s3.S3SinkConnector"},
    "tasks.max": {"tasks.max": "4"},
    "tasks.max.enforce": {"tasks.max.enforce": "false"},
    "topics": {"topics": "a,b"},
    "topics.regex": {"topics.regex": "a.*"},
    "key.converter": {"key.converter": "org.apache.kafka.connect.storage.StringConverter"},
    "value.converter": {"value.converter": "org.apache.kafka.connect.json.JsonConverter"},
    "value.converter.schemas.enable": {"value.converter.schemas.enable": "true"},
    "value.converter.replace.null.with.default": {
        "value.converter.replace.null.with.default": "false"
    },
    "key.converter.replace.null.with.default": {"key.converter.replace.null.with.default": "false"},
    "value.converter.decimal.format": {"value.converter.decimal.format": "numeric"},
    "key.converter.decimal.format": {"key.converter.decimal.format": "NUMERIC"},
    "value.converter.schemas.cache.size": {"value.converter.schemas.cache.size": "10"},
    "key.converter.schemas.cache.size": {"key.converter.schemas.cache.size": "10"},
    "key.converter.schema.registry.url": {
        "key.converter": _AVRO,
        "key.converter.schema.registry.url": "http://registry:8081",
    },
    "value.converter.schema.registry.url": {
        "value.converter": _AVRO,
        "value.converter.schema.registry.url": "http://registry:8081",
    },
    "header.converter": {
        "header.converter": "org.apache.kafka.connect.storage.SimpleHeaderConverter"
    },
    "config.action.reload": {"config.action.reload": "restart"},
    "config.providers": {"config.providers": "env"},
    "transforms": {
        "transforms": "r",
        "transforms.r.type": _ROUTER,
        "transforms.r.regex": "(.*)",
        "transforms.r.replacement": "x-$1",
    },
    "predicates": {
        "predicates": "p",
        "predicates.p.type": "org.apache.kafka.connect.transforms.predicates.RecordIsTombstone",
    },
    "errors.tolerance": {"errors.tolerance": "all"},
    "errors.log.enable": {"errors.log.enable": "true"},
    "errors.log.include.messages": {"errors.log.include.messages": "true"},
    "errors.deadletterqueue.topic.name": {"errors.deadletterqueue.topic.name": "dlq"},
    "errors.deadletterqueue.topic.replication.factor": {
        "errors.deadletterqueue.topic.replication.factor": "1"
    },
    "errors.deadletterqueue.context.headers.enable": {
        "errors.deadletterqueue.context.headers.enable": "true"
    },
    "errors.retry.timeout": {"errors.retry.timeout": "60000"},
    "errors.retry.delay.max.ms": {"errors.retry.delay.max.ms": "1000"},
    "consumer.override.*": {"consumer.override.max.poll.records": "100"},
    "flush.size": {"flush.size": "100"},
    "rotate.interval.ms": {"rotate.interval.ms": "60000"},
    "rotate.schedule.interval.ms": {"rotate.schedule.interval.ms": "60000", "timezone": "UTC"},
    "rotate.file.on.partition.change": {"rotate.file.on.partition.change": "false"},
    "partitioner.max.open.files": {"partitioner.max.open.files": "5"},
    "max.write.duration.ms": {"max.write.duration.ms": "60000"},
    "format.class": {"format.class": "io.confluent.connect.s3.format.json.JsonFormat"},
    "avro.codec": {"avro.codec": "snappy"},
    "parquet.codec": {"parquet.codec": "gzip"},
    "s3.compression.type": {
        "s3.compression.type": "gzip",
        "format.class": "io.confluent.connect.s3.format.json.JsonFormat",
    },
    "s3.compression.level": {"s3.compression.level": "5"},
    "schema.compatibility": {"schema.compatibility": "BACKWARD"},
    "schemas.cache.config": {"schemas.cache.config": "500"},
    "schema.cache.size": {"schema.cache.size": "500"},
    "allow.optional.map.keys": {"allow.optional.map.keys": "true"},
    "enhanced.avro.schema.support": {"enhanced.avro.schema.support": "false"},
    "connect.meta.data": {"connect.meta.data": "false"},
    "schema.generator.class": {
        "schema.generator.class": "io.confluent.connect.storage.hive.schema.DefaultSchemaGenerator"
    },
    "partitioner.class": {
        "partitioner.class": "io.confluent.connect.storage.partitioner.DefaultPartitioner"
    },
    "partition.field.name": {
        "partition.field.name": "region",
        "partitioner.class": "io.confluent.connect.storage.partitioner.FieldPartitioner",
    },
    "partition.duration.ms": {"partition.duration.ms": "3600000"},
    "path.format": {"path.format": "'year'=YYYY"},
    "locale": {"locale": "en-US"},
    "timezone": {"timezone": "UTC"},
    "timestamp.extractor": {"timestamp.extractor": "Record"},
    "timestamp.field": {"timestamp.field": "ts"},
    "s3.schema.partition.affix.type": {"s3.schema.partition.affix.type": "PREFIX"},
    "behavior.on.null.values": {"behavior.on.null.values": "ignore"},
    "report.null.values.to.dlq": {"report.null.values.to.dlq": "false"},
    "storage.class": {"storage.class": "io.confluent.connect.s3.storage.S3Storage"},
    "s3.bucket.name": {"s3.bucket.name": "other"},
    "s3.region": {"s3.region": "eu-west-1"},
    "store.url": {"store.url": "http://127.0.0.1:9000"},
    "topics.dir": {"topics.dir": "archive"},
    "aws.access.key.id": {"aws.access.key.id": "AKID"},
    "aws.secret.access.key": {"aws.secret.access.key": "secret"},
    "s3.credentials.provider.class": _ASSUME,
    "sts.role.arn": _BARE_ASSUME,
    "sts.role.session.name": _BARE_ASSUME,
    "sts.role.external.id": _BARE_ASSUME,
    "s3.proxy.url": {"s3.proxy.url": "http://proxy:3128"},
    "s3.proxy.user": {"s3.proxy.url": "http://proxy:3128", "s3.proxy.user": "u"},
    "s3.proxy.password": {"s3.proxy.url": "http://proxy:3128", "s3.proxy.password": "p"},
    "s3.part.size": {"s3.part.size": "5242880"},
    "s3.part.retries": {"s3.part.retries": "5"},
    "s3.retry.backoff.ms": {"s3.retry.backoff.ms": "100"},
    "enable.conditional.writes": {"enable.conditional.writes": "false"},
    "s3.ssea.name": {"s3.ssea.name": "AES256"},
    "s3.sse.customer.key": {
        "s3.ssea.name": "AES256",
        "s3.sse.customer.key": "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
    },
    "retry.backoff.ms": {"retry.backoff.ms": "100"},
    "s3.send.digest": {"s3.send.digest": "true"},
    "s3.http.send.expect.continue": {"s3.http.send.expect.continue": "true"},
    "s3.elastic.buffer.enable": {"s3.elastic.buffer.enable": "true"},
    "s3.elastic.buffer.init.capacity": {"s3.elastic.buffer.init.capacity": "8192"},
    "tombstone.encoded.partition": {"tombstone.encoded.partition": "tomb"},
    "record.batch.max.size": {"record.batch.max.size": "200"},
    "s3.acl.canned": {"s3.acl.canned": "private"},
    "s3.object.tagging": {"s3.object.tagging": "true"},
    "input.data.format": {**_CLOUD, "input.data.format": "JSON"},
    "output.data.format": _CLOUD,
    "time.interval": {**_CLOUD, "time.interval": "HOURLY"},
    "compression.codec": {**_CLOUD, "compression.codec": "AVRO - snappy"},
    "kafka.api.key": {"kafka.api.key": "k", "kafka.api.secret": "s"},
    "kafka.api.secret": {"kafka.api.key": "k", "kafka.api.secret": "s"},
    "confluent.license": {"confluent.license": ""},
    "confluent.topic.bootstrap.servers": {"confluent.topic.bootstrap.servers": "broker:9092"},
    "confluent.topic.replication.factor": {"confluent.topic.replication.factor": "1"},
    "behavior.on.error": {"behavior.on.error": "log"},
}


def _rows() -> dict[str, tuple[str, str]]:
    """Key -> (sink, source) claims of the README's compatibility table."""
    text = README.read_text()
    section = text.split("## Compatibility with Kafka Connect configs", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, tuple[str, str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        for key in re.findall(r"`([^`]+)`", cells[0]):
            rows[key] = (cells[1], cells[2])
    return rows


ROWS = _rows()


def _outcome(kind: str, key: str) -> str:
    base, cls = (SINK, SinkConfig) if kind == "sink" else (SOURCE, SourceConfig)
    sample = SAMPLES[key]
    if kind == "source" and key != "compression.codec":
        sample = {k: v for k, v in sample.items() if k != "connector.class"}  # the sink's class
    elif kind == "source":
        sample = {key: sample[key]}  # Cloud's codec key alone: copied from a sink config
    mapping = {k: v for k, v in {**base, **sample}.items() if v is not None}
    if "topics.regex" in mapping:
        mapping.pop("topics", None)
    try:
        config = cls.from_mapping(mapping)
    except ConfigError as exc:
        named = key.removesuffix(".*")
        return "refused" if named in str(exc) else f"refused, not naming it: {exc}"
    set_keys = [k for k in SAMPLES[key] if k.startswith(key.removesuffix("*"))]
    return "no effect" if any(k in config.ignored_keys for k in set_keys) else "yes"


def test_every_reference_key_has_a_row() -> None:
    assert sorted(REFERENCE_KEYS - ROWS.keys()) == []


def test_every_row_has_a_sample() -> None:
    assert sorted(ROWS.keys() - SAMPLES.keys()) == []


@pytest.mark.parametrize("key", sorted(ROWS))
@pytest.mark.parametrize("kind", ["sink", "source"])
def test_the_row_says_what_the_config_does(kind: str, key: str) -> None:
    claim = ROWS[key][0 if kind == "sink" else 1]
    assert _outcome(kind, key) == claim


def _notes(key: str) -> str:
    """The notes cell of ``key``'s row."""
    section = README.read_text().split("## Compatibility with Kafka Connect configs", 1)[1]
    for line in section.split("\n## ", 1)[0].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and key in re.findall(r"`([^`]+)`", cells[0]):
            return cells[3]
    raise AssertionError(f"no row for {key}")


_KAFKA_TYPED = ("Short", "Integer", "Long", "Float", "Double", "Boolean")


@pytest.mark.parametrize("kind", ["sink", "source"])
def test_the_converter_rows_name_what_the_config_takes(kind: str) -> None:
    from s3connect.config.converters import CONVERTER_CLASSES, HEADER_CONVERTER_CLASSES

    notes = _notes("key.converter")
    for name in ("JSON", "String", "ByteArray"):
        assert name in notes
    for name in _KAFKA_TYPED:
        assert f"`{name}Converter`" in notes
        assert CONVERTER_CLASSES[name.lower()].endswith(f".{name}Converter")
        base, cls = (SINK, SinkConfig) if kind == "sink" else (SOURCE, SourceConfig)
        full = CONVERTER_CLASSES[name.lower()]
        config = cls.from_mapping({**base, "key.converter": full, "value.converter": full})
        assert config.converters.describe()["value.converter"] == full
    header_notes = _notes("header.converter")
    assert "number converters and `BooleanConverter`" in header_notes
    for short, full in HEADER_CONVERTER_CLASSES.items():
        named = full.rsplit(".", 1)[1]
        assert named in header_notes or (short.capitalize() in _KAFKA_TYPED)
        if kind == "sink":
            assert SinkConfig.from_mapping({**SINK, "header.converter": full}).converters.header
