"""Unit tests for s3connect.config.source and the RegexRouter renaming."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from s3connect.app.cli import main
from s3connect.app.source_notebook import declare_source_widgets, source_config_from_widgets
from s3connect.app.widgets import LocalWidgets
from s3connect.config.source import SourceConfig
from s3connect.errors import ConfigError
from s3connect.transforms.regex_router import REGEX_ROUTER, RegexRoute

MINIMAL = {
    "kafka.bootstrap.servers": "localhost:9092",
    "checkpoint.location": "/tmp/ckpt",
    "s3.bucket.name": "bucket",
    "format.class": "io.confluent.connect.s3.format.avro.AvroFormat",
}
ADD_PREFIX = {
    "transforms": "AddPrefix",
    "transforms.AddPrefix.type": REGEX_ROUTER,
    "transforms.AddPrefix.regex": ".*",
    "transforms.AddPrefix.replacement": "copy_of_$0",
}


def build(**extra: object) -> SourceConfig:
    return SourceConfig.from_mapping(
        {**MINIMAL, **{k.replace("_", "."): v for k, v in extra.items()}}
    )


def problems(mapping: dict[str, object]) -> str:
    with pytest.raises(ConfigError) as info:
        SourceConfig.from_mapping(mapping)
    return str(info.value)


def test_defaults_mirror_the_sink() -> None:
    c = SourceConfig.from_mapping(MINIMAL)
    assert c.format.name == "avro"
    assert (
        c.layout.topics_dir == "topics"
        and c.layout.directory_delim == "/"
        and c.layout.file_delim == "+"
    )
    assert c.behavior_on_error == "fail"
    assert c.streaming.trigger == "availableNow"
    assert c.converters.value == "json" and c.converters.value_schemas_enable
    assert c.destination("orders") == "copy_of_orders"
    assert c.destinations.creation_enable


def test_a_sink_config_works_with_its_writing_keys_ignored() -> None:
    sink = {
        **MINIMAL,
        "connector.class": "io.confluent.connect.s3.source.S3SourceConnector",
        "flush.size": "3",
        "rotate.interval.ms": "60000",
        "avro.codec": "snappy",
        "s3.part.size": "5242880",
        "partitioner.class": "io.confluent.connect.storage.partitioner.TimeBasedPartitioner",
        "path.format": "'year'=YYYY",
        "partition.duration.ms": "3600000",
        "locale": "en",
        "timezone": "UTC",
        "tasks.max": "1",
        "confluent.topic.bootstrap.servers": "localhost:9092",
    }
    c = SourceConfig.from_mapping(sink)
    assert c.partitioner.name == "time"
    assert c.flush_size == 3
    assert {"avro.codec", "rotate.interval.ms", "path.format", "tasks.max"} <= set(c.ignored_keys)


def test_the_sinks_sdk_and_runtime_keys_and_the_sources_batch_size_have_no_effect() -> None:
    keys = {
        "retry.backoff.ms": "100", "s3.send.digest": "true", "s3.http.send.expect.continue": "true",
        "s3.elastic.buffer.enable": "true", "s3.elastic.buffer.init.capacity": "1024",
        "tombstone.encoded.partition": "tomb", "record.batch.max.size": "200",
    }  # fmt: skip
    c = SourceConfig.from_mapping({**MINIMAL, **keys})
    assert set(keys) <= set(c.ignored_keys)


def test_sse_c_objects_are_read_with_their_key() -> None:
    import base64

    key = base64.b64encode(bytes(range(32))).decode()
    c = build(**{"s3.ssea.name": "AES256", "s3.sse.customer.key": key})
    assert c.s3_settings().sse_customer_args() == {
        "SSECustomerAlgorithm": "AES256",
        "SSECustomerKey": bytes(range(32)),
    }
    assert pickle.loads(pickle.dumps(c)).s3_settings().sse_customer_args() != {}
    assert key not in json.dumps(c.describe()) and key not in repr(c)
    # The customer key counts only with AES256 (Confluent's S3OutputStream), as in the sink.
    other = build(**{"s3.ssea.name": "aws:kms", "s3.sse.customer.key": key})
    assert other.s3_settings().sse_customer_args() == {}
    assert "s3.sse.customer.key" in other.ignored_keys


def test_regex_router_keys_are_accepted_as_they_are() -> None:
    c = SourceConfig.from_mapping({**MINIMAL, **ADD_PREFIX})
    assert [s.transformation.class_name for s in c.routing.chain().stages] == [REGEX_ROUTER]
    assert c.destination("s3_topic") == "copy_of_s3_topic"


def test_chained_routers_and_groups() -> None:
    c = SourceConfig.from_mapping(
        {
            **MINIMAL,
            "transforms": "a, b",
            "transforms.a.type": REGEX_ROUTER,
            "transforms.a.regex": "(.*)-(\\d+)",
            "transforms.a.replacement": "$2_$1",
            "transforms.b.type": REGEX_ROUTER,
            "transforms.b.regex": ".*",
            "transforms.b.replacement": "copy.$0",
        }
    )
    assert c.destination("orders-7") == "copy.7_orders"
    assert c.destination("plain") == "copy.plain"


@pytest.mark.parametrize(
    ("regex", "replacement", "topic", "expected"),
    [
        (".*", "copy_of_$0", "t", "copy_of_t"),
        ("(a)(b)", "$12", "ab", "a2"),  # Java: group 12 does not exist, so group 1 then "2"
        ("(?<name>.*)-x", "${name}!", "t-x", "t!"),
        (".*", "\\$0", "t", "$0"),
        ("orders", "copy", "payments", "payments"),  # no full match: unchanged
        ("ord", "copy", "orders", "orders"),  # matches() needs the whole topic
    ],
)
def test_java_replacement_semantics(
    regex: str, replacement: str, topic: str, expected: str
) -> None:
    assert RegexRoute(regex, replacement).apply(topic) == expected


@pytest.mark.parametrize("replacement", ["$3", "${nope}", "x\\", "$"])
def test_bad_replacements_are_refused(replacement: str) -> None:
    message = problems({**MINIMAL, **ADD_PREFIX, "transforms.AddPrefix.replacement": replacement})
    assert "transforms.AddPrefix.replacement" in message


def test_any_kafka_transform_and_extract_topic_are_accepted_unknown_classes_refused() -> None:
    c = SourceConfig.from_mapping(
        {
            **MINIMAL,
            "transforms": "route,by",
            "transforms.route.type": REGEX_ROUTER,
            "transforms.route.regex": "(.*)",
            "transforms.route.replacement": "copy_of_$1",
            "transforms.by.type": "io.confluent.connect.transforms.ExtractTopic$Value",
            "transforms.by.field": "table",
        }
    )
    assert c.destination("orders") is None  # ExtractTopic: chosen record by record
    message = problems({**MINIMAL, **ADD_PREFIX, "transforms.AddPrefix.type": "com.acme.Nope"})
    assert "Invalid value com.acme.Nope for configuration transforms.AddPrefix.type" in message


def test_writing_back_into_the_source_topic_needs_an_explicit_key() -> None:
    message = problems({**MINIMAL, "topic.prefix": ""})
    assert "topic.prefix=''" in message and "source.allow.same.topic" in message
    c = build(topic_prefix="", source_allow_same_topic="true")
    assert c.destination("orders") == "orders"


def test_prefix_and_transforms_together_are_refused() -> None:
    assert "set only one" in problems({**MINIMAL, **ADD_PREFIX, "topic.prefix": "x_"})


def test_behavior_on_error_values() -> None:
    assert build(behavior_on_error="LOG").behavior_on_error == "log"
    message = problems({**MINIMAL, "behavior.on.error": "skip"})
    assert "behavior.on.error=skip is invalid: must be one of fail, ignore, log" in message


def test_poll_interval_is_the_trigger() -> None:
    c = build(s3_poll_interval_ms="15000")
    assert c.streaming.trigger == "15 seconds" and c.streaming.trigger_interval_ms == 15000
    assert "set only one" in problems({**MINIMAL, "s3.poll.interval.ms": "1", "trigger": "1s"})


def test_converters() -> None:
    c = build(
        value_converter="org.apache.kafka.connect.converters.ByteArrayConverter",
        key_converter="string",
    )
    assert c.converters.value == "bytearray" and c.converters.key == "string"
    message = problems({**MINIMAL, "value.converter": "io.confluent.connect.avro.AvroConverter"})
    assert "value.converter=io.confluent.connect.avro.AvroConverter is invalid" in message
    assert "org.apache.kafka.connect.converters.DoubleConverter" in message
    typed = build(
        key_converter="org.apache.kafka.connect.converters.LongConverter",
        value_converter="DoubleConverter",
    )
    assert (typed.converters.key, typed.converters.value) == ("long", "double")
    assert typed.converters.describe()["value.converter"] == (
        "org.apache.kafka.connect.converters.DoubleConverter"
    )


def test_missing_and_unknown_keys_are_all_reported() -> None:
    message = problems({"format.class": "nope", "bogus.key": "1"})
    for part in (
        "kafka.bootstrap.servers is missing",
        "checkpoint.location is missing",
        "s3.bucket.name is missing",
        "format.class=nope is invalid",
        "unknown keys (not Confluent S3 source/sink or s3connect keys): bogus.key",
    ):
        assert part in message


def test_empty_bytearray_separator_is_refused() -> None:
    message = problems({**MINIMAL, "format.class": "bytearray", "format.bytearray.separator": ""})
    assert "format.bytearray.separator" in message


def test_producer_options_and_secrets() -> None:
    c = build(kafka_security_protocol="SSL", aws_secret_access_key="s3cr3t")
    assert c.producer_options()["security.protocol"] == "SSL"
    assert c.producer_options()["enable.idempotence"] == "true"
    assert "s3cr3t" not in repr(c)
    assert "kafka.value.serializer=x is invalid" in problems(
        {**MINIMAL, "kafka.value.serializer": "x"}
    )


def test_describe_and_pickle_round_trip() -> None:
    c = SourceConfig.from_mapping(
        {**MINIMAL, **ADD_PREFIX, "topics": "a,b", "flush.size": "5", "kafka.acks": "1"}
    )
    assert SourceConfig.from_mapping(c.describe(masked=False)) == c
    assert pickle.loads(pickle.dumps(c)) == c


def test_topics_filter() -> None:
    assert build(topics="a, b").wants_topic("a") and not build(topics="a").wants_topic("b")
    assert build(topics_regex="o.*").wants_topic("orders")
    assert not build(topics_regex="o.*").wants_topic("payments")


def test_cli_source_rejects_an_invalid_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "source.properties"
    path.write_text("format.class=nope\n", encoding="utf-8")
    assert main(["source", "--config", str(path), "--set", "behavior.on.error=log"]) == 2
    assert "format.class=nope is invalid" in capsys.readouterr().err


def test_notebook_widgets_override_the_whole_config() -> None:
    widgets = LocalWidgets([f"connector.config={json.dumps(MINIMAL)}", "topic.prefix=mirror_"])
    declare_source_widgets(widgets)
    config = source_config_from_widgets(widgets)
    assert config.destination("orders") == "mirror_orders"
    assert config.format.name == "avro"


def test_the_source_reads_through_the_credentials_provider_and_the_proxy() -> None:
    c = SourceConfig.from_mapping(
        {
            **MINIMAL,
            # As the S3 source's document writes them: the sts keys without their prefix.
            "s3.credentials.provider.class": "AwsAssumeRoleCredentialsProvider",
            "sts.role.arn": "arn:aws:iam::012345678901:role/my-restricted-role",
            "sts.role.session.name": "session-name",
            "sts.role.external.id": "external-id",
            "s3.proxy.url": "http://proxy.example.com:3128",
            "s3.proxy.user": "u",
            "s3.proxy.password": "p-SENTINEL",
        }
    )
    settings = c.s3_settings()
    assert settings.assume_role is not None
    assert (settings.assume_role.role_arn, settings.assume_role.session_name) == (
        "arn:aws:iam::012345678901:role/my-restricted-role",
        "session-name",
    )
    assert settings.proxy is not None and settings.proxy.host == "proxy.example.com"
    assert "p-SENTINEL" not in repr(c)
    assert "s3.credentials.provider.class" not in c.ignored_keys


def test_sink_only_avro_data_and_affix_keys_are_accepted_without_effect() -> None:
    keys = {
        "schemas.cache.config": "10",
        "allow.optional.map.keys": "true",
        "s3.schema.partition.affix.type": "PREFIX",
    }
    c = SourceConfig.from_mapping({**MINIMAL, **keys})
    assert c.ignored_keys == tuple(sorted(keys))
    assert SourceConfig.from_mapping(c.describe(masked=False)) == c


def test_json_converter_config_keys_write_the_records() -> None:
    from decimal import Decimal

    from s3connect.connect.schema import ConnectSchema, Type
    from s3connect.source.reader import key_serializer_for, value_serializer

    c = build(
        **{
            "key.converter.decimal.format": "numeric",
            "value.converter.replace.null.with.default": "false",
            "value.converter.schemas.cache.size": "10",
        }
    )
    assert (c.converters.key_decimal_format, c.converters.value_decimal_format) == (
        "NUMERIC",
        "BASE64",
    )
    assert "value.converter.schemas.cache.size" in c.ignored_keys
    decimal = ConnectSchema(
        Type.BYTES, name="org.apache.kafka.connect.data.Decimal", parameters={"scale": "2"}
    )
    assert key_serializer_for(c)("t", decimal, Decimal("1.56")).endswith(b',"payload":1.56}')
    optional = ConnectSchema(Type.STRING, optional=True, default="d")
    assert value_serializer(c)("t", optional, None).endswith(b',"payload":null}')
    assert value_serializer(build())("t", optional, None).endswith(b',"payload":"d"}')
    text = problems({**MINIMAL, "key.converter.decimal.format": "HEX"})
    assert "key.converter.decimal.format=HEX is invalid" in text
