"""Ports of Confluent's S3 sink config tests (kafka-connect-storage-cloud 87eb7d39, 2026-07-28):
``S3SinkConnectorConfigTest``, ``S3SinkConnectorValidatorTest`` and ``S3SinkConnectorTest``, one
test per Java test method, asserting the same values.

``new S3SinkConnectorConfig(props)`` is our :meth:`SinkConfig.from_mapping` on
``S3SinkConnectorTestBase.createProps`` (:data:`PROPS`); its ``ConfigException`` is our
:class:`ConfigError`, whose problems read ``<key>=<value> is invalid: <why>`` with Kafka's or
Confluent's ``<why>``; ``S3SinkConnectorValidator``'s errors are problems naming the keys it adds
them to, then its message. Getters are our config's fields.

Already ported elsewhere: ``testConditionalWritesEnabledConfig``
(``test_proxy_and_conditional_writes.py``); storage-common's ``PartitionerConfigTest`` and
``FieldPartitionerValidatorTest`` (``tests/unit/sink/test_confluent_partitioners.py``).
"""

from __future__ import annotations

import importlib.metadata
import itertools

import pytest

from s3connect.config.sink import CONNECTOR_CLASS, STORAGE_CLASS, SinkConfig
from s3connect.errors import ConfigError

LA = "America/Los_Angeles"
AVRO = "io.confluent.connect.s3.format.avro.AvroFormat"
JSON = "io.confluent.connect.s3.format.json.JsonFormat"
BYTEARRAY = "io.confluent.connect.s3.format.bytearray.ByteArrayFormat"
PARQUET = "io.confluent.connect.s3.format.parquet.ParquetFormat"
CUSTOM = "tests.unit.sink.plugin_examples.CsvFormat"  # the test's CustomFormatClass
ASSUME_ROLE = "io.confluent.connect.s3.auth.AwsAssumeRoleCredentialsProvider"
PREFIX = "s3.credentials.provider."  # CREDENTIALS_PROVIDER_CONFIG_PREFIX
DUMMY = "io.confluent.connect.s3.DummyAssertiveCredentialsProvider"

PROPS = {  # S3SinkConnectorTestBase.createProps (and StorageSinkTestBase's)
    "topics": "test-topic",
    "kafka.bootstrap.servers": "127.0.0.1:9092",
    "checkpoint.location": "/tmp/ckpt",
    "store.url": "http://127.0.0.1:8181",
    "flush.size": "3",
    "storage.class": STORAGE_CLASS,
    "s3.bucket.name": "kafka.bucket",
    "format.class": AVRO,
    "s3.path.style.access.enabled": "false",
    "partitioner.class": "io.confluent.connect.storage.partitioner.DefaultPartitioner",
    "partition.field.name": "int",
    "path.format": "'year'=YYYY_'month'=MM_'day'=dd_'hour'=HH",
    "locale": "en",
    "timezone": LA,
}


def config(extra: dict[str, str] | None = None, drop: tuple[str, ...] = ()) -> SinkConfig:
    """``new S3SinkConnectorConfig(properties)`` with ``extra`` put and ``drop`` removed."""
    props = {k: v for k, v in PROPS.items() if k not in drop}
    props.update(extra or {})
    return SinkConfig.from_mapping(props)


def refused(extra: dict[str, str], drop: tuple[str, ...] = ()) -> str:
    """The ``ConfigException`` (our problems) of a config Confluent refuses."""
    with pytest.raises(ConfigError) as info:
        config(extra, drop)
    return str(info.value)


# ------------------------------------------------------------------ S3SinkConnectorConfigTest


def test_storage_class() -> None:
    assert config().describe()["storage.class"] == STORAGE_CLASS


def test_undefined_url() -> None:
    assert config(drop=("store.url",)).s3.store_url is None


def test_avro_data_config_supported() -> None:
    c = config({"enhanced.avro.schema.support": "true", "connect.meta.data": "false"})
    assert c.format.enhanced_avro_schema_support is True
    assert c.format.connect_meta_data is False


def test_configurable_credential_provider() -> None:
    # Documented difference (README "Configuration"): credentials providers other than the
    # default chain and AwsAssumeRoleCredentialsProvider are refused as "not supported yet"; a
    # Java provider class cannot be loaded here.
    msg = refused(
        {
            "s3.credentials.provider.class": DUMMY,
            PREFIX + "access_key": "AKIAAAAAKKKKIIIIAAAA",
            PREFIX + "secret_key": "WhoIsJohnGalt?",
            PREFIX + "configs_num": "5",
        }
    )
    assert f"s3.credentials.provider.class={DUMMY} is not supported yet" in msg
    assert "WhoIsJohnGalt?" not in msg


def test_configurable_aws_assume_role_credentials_provider() -> None:
    c = config(
        {
            "s3.credentials.provider.class": ASSUME_ROLE,
            PREFIX + "sts.role.arn": "arn:aws:iam::012345678901:role/my-restricted-role",
            PREFIX + "sts.role.session.name": "my-session-name",
            PREFIX + "sts.role.external.id": "my-external-id",
        }
    )
    role = c.s3.assume_role()
    assert role is not None
    assert (role.role_arn, role.session_name, role.external_id) == (
        "arn:aws:iam::012345678901:role/my-restricted-role",
        "my-session-name",
        "my-external-id",
    )
    assert c.describe()["s3.credentials.provider.class"] == ASSUME_ROLE


def test_configurable_credential_provider_missing_configs() -> None:
    # Documented difference, as test_configurable_credential_provider: refused at start.
    msg = refused({"s3.credentials.provider.class": DUMMY, PREFIX + "configs_num": "2"})
    assert f"s3.credentials.provider.class={DUMMY} is not supported yet" in msg


def test_configurable_aws_assume_role_credentials_provider_missing_configs() -> None:
    # configure(properties) gets the keys without their prefix: AwsAssumeRoleCredentialsProvider's
    # STS_CONFIG_DEF misses them. Ours reads the prefixed keys when the config is built.
    msg = refused({"s3.credentials.provider.class": ASSUME_ROLE})
    for key in ("sts.role.arn", "sts.role.session.name", "sts.role.external.id"):
        assert f'Missing required configuration "{key}" which has no default value.' in msg
        assert f"{PREFIX}{key} is missing" in msg


def test_configurable_s3_object_tagging_configs() -> None:
    assert config().s3.object_tagging is False
    c = config({"s3.object.tagging": "true"})
    assert c.s3.object_tagging is True
    assert c.s3.object_tagging_extra == ()
    pairs = {"s3.object.tagging.key.value.pairs": "key1:value1,key2:value2"}
    c = config({"s3.object.tagging": "true", **pairs})
    assert c.s3.object_tagging_extra == (("key1", "value1"), ("key2", "value2"))
    assert c.describe()["s3.object.tagging.key.value.pairs"] == "key1:value1,key2:value2"
    c = config({"s3.object.tagging": "false", **pairs})
    assert c.s3.object_tagging is False
    on_error = "s3.object.behavior.on.tagging.error"
    assert config({**pairs, on_error: "ignore"}).s3.object_behavior_on_tagging_error == "ignore"
    assert config({**pairs, on_error: "fail"}).s3.object_behavior_on_tagging_error == "fail"


def test_s3_part_retries_negative() -> None:
    assert "s3.part.retries=-1 is invalid: Value must be at least 0" in refused(
        {"s3.part.retries": "-1"}
    )


def test_s3_retry_backoff_negative() -> None:
    assert "s3.retry.backoff.ms=-1 is invalid: Value must be at least 0" in refused(
        {"s3.retry.backoff.ms": "-1"}
    )


def test_invalid_high_compression_level() -> None:
    assert "s3.compression.level=10 is invalid: Value must be no more than 9" in refused(
        {"s3.compression.level": "10"}
    )


def test_invalid_low_compression_level() -> None:
    assert "s3.compression.level=-2 is invalid: Value must be at least -1" in refused(
        {"s3.compression.level": "-2"}
    )


def test_json_decimal_format() -> None:
    assert config().format.json_decimal_format == "BASE64"
    assert config({"json.decimal.format": "NUMERIC"}).format.json_decimal_format == "NUMERIC"


def test_valid_compression_levels() -> None:
    for level in range(-1, 9):  # IntStream.range(-1, 9)
        assert config({"s3.compression.level": str(level)}).format.compression_level == level


@pytest.mark.parametrize(
    ("codec", "expected"),
    [
        ("none", "none"),  # CompressionCodecName.UNCOMPRESSED
        ("gzip", "gzip"),
        ("snappy", "snappy"),
        ("lz4", "lz4"),
        ("zstd", "zstd"),
        ("brotli", "brotli"),
        ("lzo", None),
    ],
)
def test_parquet_compression_type_supported(codec: str, expected: str | None) -> None:
    props = {"format.class": PARQUET, "parquet.codec": codec}
    if expected is not None:
        assert config(props).format.parquet_codec == expected
    else:
        # Documented difference (README "Configuration"): there is no LZO Parquet writer here.
        assert "parquet.codec=lzo is not supported yet" in refused(props)


def test_unsupported_parquet_compression_type() -> None:
    msg = refused({"parquet.codec": "uncompressed"})
    assert "parquet.codec=uncompressed is invalid: Value must be one of: [" in msg


def test_valid_timezone_with_schedule_interval_accepted() -> None:
    c = config({"timezone": "CET", "rotate.schedule.interval.ms": "30"})
    assert (c.partitioner.timezone, c.rotation.rotate_schedule_interval_ms) == ("CET", 30)


def test_empty_timezone_throws_exception_on_schedule_interval() -> None:
    with pytest.raises(ConfigError):
        config({"timezone": "", "rotate.schedule.interval.ms": "30"})


def test_empty_timezone_exception_message() -> None:
    msg = refused({"timezone": "", "rotate.schedule.interval.ms": "30"})
    assert "timezone configuration must be set when using rotate.schedule.interval.ms" in msg


def test_key_storage_default_false() -> None:
    assert config().keys_headers.store_kafka_keys is False


def test_key_storage_supported() -> None:
    assert config({"store.kafka.keys": "true"}).keys_headers.store_kafka_keys is True


def test_key_format_class_default() -> None:
    c = config()
    assert c.keys_headers.keys_format == "avro"
    assert c.describe()["keys.format.class"] == AVRO


def test_key_format_class_supported() -> None:
    for cls in (AVRO, JSON, BYTEARRAY, PARQUET):
        assert config({"keys.format.class": cls}).describe()["keys.format.class"] == cls


def test_header_storage_default_false() -> None:
    assert config().keys_headers.store_kafka_headers is False


def test_header_storage_supported() -> None:
    assert config({"store.kafka.headers": "true"}).keys_headers.store_kafka_headers is True


def test_header_format_class_default() -> None:
    c = config()
    assert c.keys_headers.headers_format == "avro"
    assert c.describe()["headers.format.class"] == AVRO


def test_header_format_class_supported() -> None:
    # store.kafka.headers is false: any format class is accepted, ByteArrayFormat too.
    for cls in (AVRO, JSON, BYTEARRAY, PARQUET):
        assert config({"headers.format.class": cls}).describe()["headers.format.class"] == cls


def test_schema_partitioner_affix_typ_default() -> None:
    c = config(drop=("s3.schema.partition.affix.type",))
    assert c.partitioner.schema_partition_affix_type == "NONE"


def test_schema_partitioner_affix_type() -> None:
    for affix in ("NONE", "PREFIX", "SUFFIX"):
        c = config({"s3.schema.partition.affix.type": affix})
        assert c.partitioner.schema_partition_affix_type == affix


def test_schema_partitioner_affix_type_exception_on_wrong_value() -> None:
    assert (
        "s3.schema.partition.affix.type=Random is invalid: String must be one of: SUFFIX, "
        "PREFIX, NONE"
    ) in refused({"s3.schema.partition.affix.type": "Random"})


def test_send_digest_config_default() -> None:
    assert config(drop=("s3.send.digest",)).s3.send_digest is False


def test_send_digest_config() -> None:
    assert config({"s3.send.digest": "true"}).s3.send_digest is True
    assert config({"s3.send.digest": "false"}).s3.send_digest is False


def test_send_digest_config_on_wrong_value() -> None:
    assert (
        "s3.send.digest=Random is invalid: Expected value to be either true or false"
    ) in refused({"s3.send.digest": "Random"})


# --------------------------------------------------------------- S3SinkConnectorValidatorTest

_FORMATS = (AVRO, PARQUET, JSON, BYTEARRAY)
_GZIP_OK = (JSON, BYTEARRAY)  # COMPRESSION_SUPPORTED_FORMATS[GZIP]


def _validator_message(compression: str, side: str, cls: str) -> str:
    """``String.format(FORMAT_CONFIG_ERROR_MESSAGE, compression, side, cls)``."""
    return f"Compression Type {compression} not valid for {side} format class: ( {cls} )."


def _expected_errors(case: tuple[str, ...]) -> list[str]:
    """S3SinkConnectorValidator.validateCompression's errors of one case, as problem lines."""
    fmt, keys, keys_fmt, headers, headers_fmt, compression = case
    if compression == "none":
        return []
    errors = []
    if fmt not in _GZIP_OK:
        errors.append(
            "format.class, s3.compression.type: " + _validator_message("gzip", "data", fmt)
        )
    if keys == "true" and keys_fmt not in _GZIP_OK:
        errors.append(
            "store.kafka.keys, keys.format.class, s3.compression.type: "
            + _validator_message("gzip", "keys", keys_fmt)
        )
    if headers == "true" and headers_fmt not in _GZIP_OK:
        errors.append(
            "store.kafka.headers, headers.format.class, s3.compression.type: "
            + _validator_message("gzip", "headers", headers_fmt)
        )
    return errors


def test_validate() -> None:
    # FORMAT_CLASS, STORE_KEY, KEY_FORMAT, STORE_HEADER, HEADER_FORMAT, COMPRESSION_TYPE
    cases = itertools.product(
        (*_FORMATS, CUSTOM),
        ("true", "false"),
        _FORMATS,
        ("true", "false"),
        _FORMATS,
        ("none", "gzip"),
    )
    for case in cases:
        fmt, keys, keys_fmt, headers, headers_fmt, compression = case
        props = {
            "format.class": fmt,
            "store.kafka.keys": keys,
            "keys.format.class": keys_fmt,
            "store.kafka.headers": headers,
            "headers.format.class": headers_fmt,
            "s3.compression.type": compression,
            **({"csv.columns": "int"} if fmt == CUSTOM else {}),
        }
        expected = _expected_errors(case)
        if headers == "true" and headers_fmt == BYTEARRAY:
            # Documented difference (README "Keys, headers and tombstones"): headers files
            # cannot be ByteArray (Confluent's ByteArrayConverter fails on each record's
            # headers array at write time); refused when headers are stored.
            msg = refused(props)
            assert f"headers.format.class={BYTEARRAY} is invalid" in msg, case
            assert all(error in msg for error in expected), case
            assert msg.count("Compression Type") == len(expected), case
            continue
        if not expected:
            config(props)
            continue
        msg = refused(props)
        assert all(error in msg for error in expected), case
        assert msg.count("Compression Type") == len(expected), case


# ------------------------------------------------------------------------ S3SinkConnectorTest


def test_version() -> None:
    version = importlib.metadata.version("s3connect")
    assert isinstance(version, str) and version


def test_connector_type() -> None:
    assert config().describe()["connector.class"] == CONNECTOR_CLASS
