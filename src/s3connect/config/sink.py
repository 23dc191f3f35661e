"""The sink's connector config: Confluent S3 sink keys in, one typed, immutable SinkConfig out.

Keys, defaults and class names follow Confluent's ``S3SinkConnectorConfig``,
``StorageSinkConnectorConfig``, ``StorageCommonConfig`` and ``PartitionerConfig``; Confluent
Cloud's keys (``output.data.format``, ``time.interval``, ...) are mapped onto them. Values may
arrive as strings (properties files, widgets, ``--set``): they are converted once, here.

Our own keys (no Confluent equivalent): ``kafka.bootstrap.servers`` and every other ``kafka.*``
key (Kafka consumer properties, handed to Spark's Kafka source as ``kafka.<property>``),
``starting.offsets``, ``checkpoint.location``, ``trigger``, ``max.offsets.per.trigger``,
``commit.log.table`` and ``dlq.table``.

Validation collects every problem and raises one :class:`~s3connect.errors.ConfigError` naming
each key, its value and what is allowed. Secret values never appear in messages or ``repr``.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from s3connect.convert.registry.client import (
    REGISTRY_CONVERTER_CLASSES,
    RegistrySettings,
    display_url,
)
from s3connect.errors import ConfigError
from s3connect.util.timeformat import JodaFormatter, JodaZone, validate_pattern

__all__ = [
    "CANNED_ACLS",
    "CONVERTER_CLASSES",
    "CREDENTIALS_PROVIDER_CLASSES",
    "FORMAT_CLASSES",
    "HIDDEN",
    "PARTITIONER_CLASSES",
    "SINK_CONVERTER_CLASSES",
    "SSE_ALGORITHMS",
    "TIMESTAMP_EXTRACTOR_CLASSES",
    "SinkConfig",
    "load_config_file",
    "parse_config_text",
    "parse_properties",
]

HIDDEN = "[hidden]"
"""What a secret value is shown as (Kafka's ``Password.toString()``)."""

CONNECTOR_CLASS = "io.confluent.connect.s3.S3SinkConnector"
STORAGE_CLASS = "io.confluent.connect.s3.storage.S3Storage"

FORMAT_CLASSES: Mapping[str, str] = MappingProxyType(
    {
        "avro": "io.confluent.connect.s3.format.avro.AvroFormat",
        "json": "io.confluent.connect.s3.format.json.JsonFormat",
        "parquet": "io.confluent.connect.s3.format.parquet.ParquetFormat",
        "bytearray": "io.confluent.connect.s3.format.bytearray.ByteArrayFormat",
    }
)
"""Short format name -> Confluent format class."""

PARTITIONER_CLASSES: Mapping[str, str] = MappingProxyType(
    {
        "default": "io.confluent.connect.storage.partitioner.DefaultPartitioner",
        "field": "io.confluent.connect.storage.partitioner.FieldPartitioner",
        "time": "io.confluent.connect.storage.partitioner.TimeBasedPartitioner",
        "daily": "io.confluent.connect.storage.partitioner.DailyPartitioner",
        "hourly": "io.confluent.connect.storage.partitioner.HourlyPartitioner",
    }
)
"""Short partitioner name -> Confluent partitioner class."""

CONVERTER_CLASSES: Mapping[str, str] = MappingProxyType(
    {
        "json": "org.apache.kafka.connect.json.JsonConverter",
        "string": "org.apache.kafka.connect.storage.StringConverter",
        "bytearray": "org.apache.kafka.connect.converters.ByteArrayConverter",
    }
)
"""Short converter name -> Kafka Connect converter class."""

SINK_CONVERTER_CLASSES: Mapping[str, str] = MappingProxyType(
    {**CONVERTER_CLASSES, **REGISTRY_CONVERTER_CLASSES}
)
"""The sink's converters: Kafka's and Confluent's Schema Registry ones (``avro``,
``jsonschema``, ``protobuf``)."""

TIMESTAMP_EXTRACTOR_CLASSES: Mapping[str, str] = MappingProxyType(
    {
        name: f"io.confluent.connect.storage.partitioner.TimeBasedPartitioner${name}"
        "TimestampExtractor"
        for name in ("Wallclock", "Record", "RecordField")
    }
)
"""Confluent short extractor name -> class (``TimeBasedPartitioner.newTimestampExtractor``)."""

# Confluent Cloud's input.data.format -> converter.
_CLOUD_INPUTS = {
    "JSON": "json",
    "STRING": "string",
    "BYTES": "bytearray",
    "AVRO": "avro",
    "JSON_SR": "jsonschema",
    "PROTOBUF": "protobuf",
}
# Schema Registry converter settings that change the Connect data: accepted at their default.
_SR_CONVERTER_DEFAULTS = {
    "key.subject.name.strategy": "io.confluent.kafka.serializers.subject.TopicNameStrategy",
    "value.subject.name.strategy": "io.confluent.kafka.serializers.subject.TopicNameStrategy",
    "connect.meta.data": "true",
    "enhanced.avro.schema.support": "false",
    "enhanced.protobuf.schema.support": "false",
    "generalized.sum.type.support": "false",
    "scrub.invalid.names": "false",
    "use.latest.version": "false",
    "int.for.enums": "false",
    "optional.for.nullables": "false",
    "optional.for.proto2": "false",
    "wrapper.for.nullables": "false",
    "wrapper.for.raw.primitives": "true",
    "use.optional.for.nonrequired": "false",
}
_TIME_PARTITIONERS = frozenset({"time", "daily", "hourly"})
_DAY_MS = 86_400_000
_HOUR_MS = 3_600_000
_INT_MAX = 2**31 - 1
_LONG_MAX = 2**63 - 1
_PART_SIZE_MIN = 5 * 1024 * 1024

# S3SinkConnectorConfig's SSEA_CONFIG validator: "" or an SDK SSEAlgorithm (case-sensitive).
SSE_ALGORITHMS = ("AES256", "aws:kms")
# CannedAclValidator: the SDK's CannedAccessControlList header values (case-sensitive).
CANNED_ACLS = (
    "private",
    "public-read",
    "public-read-write",
    "authenticated-read",
    "log-delivery-write",
    "bucket-owner-read",
    "bucket-owner-full-control",
    "aws-exec-read",
)
CREDENTIALS_PROVIDER_CLASSES: Mapping[str, str] = MappingProxyType(
    {
        "default": "com.amazonaws.auth.DefaultAWSCredentialsProviderChain",
        "assume_role": "io.confluent.connect.s3.auth.AwsAssumeRoleCredentialsProvider",
    }
)
"""Supported ``s3.credentials.provider.class`` values (short name -> class)."""
_DEFAULT_CHAIN_ALIASES = frozenset(
    {
        "com.amazonaws.auth.DefaultAWSCredentialsProviderChain",
        "software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider",
    }
)
_STS_PREFIX = "s3.credentials.provider."
# AwsAssumeRoleCredentialsProvider's STS_CONFIG_DEF (under s3.credentials.provider.).
_STS_KEYS = ("sts.role.arn", "sts.role.session.name", "sts.role.external.id", "sts.region")
_SESSION_NAME_RE = re.compile(r"^[\w+=,.@-]{2,64}$")
_EXTERNAL_ID_RE = re.compile(r"^[\w+=,.@:/-]{2,1224}$")

# Confluent Cloud's names for formats, used by output.data.format and compression.codec.
_CLOUD_FORMATS = {"AVRO": "avro", "JSON": "json", "PARQUET": "parquet", "BYTES": "bytearray"}
_CLOUD_ONLY_KEYS = frozenset(
    {
        "output.data.format",
        "input.data.format",
        "compression.codec",
        "time.interval",
        "kafka.api.key",
        "kafka.api.secret",
    }
)
_AVRO_CODECS = ("null", "deflate", "snappy", "bzip2")
_PARQUET_CODECS = ("none", "snappy", "gzip", "zstd", "lz4", "brotli")

# Confluent keys accepted but without effect here (Kafka Connect runtime / AWS SDK tuning).
_NO_EFFECT_KEYS = frozenset(
    {
        "tasks.max",
        "config.action.reload",
        "header.converter",
        "retry.backoff.ms",
        "shutdown.timeout.ms",
        "s3.wan.mode",
        "s3.send.digest",
        "s3.http.send.expect.continue",
        "s3.elastic.buffer.enable",
        "s3.elastic.buffer.init.capacity",
    }
)

# Keys of features that come in a later release: accepted only at Confluent's default value.
_LATER: Mapping[str, tuple[str | None, str]] = MappingProxyType(
    {
        "s3.schema.partition.affix.type": ("none", "schema-name path affixes"),
        "s3.proxy.url": ("", "S3 proxies"),
        "s3.proxy.user": (None, "S3 proxies"),
        "s3.proxy.password": (None, "S3 proxies"),
        "transforms": ("", "single message transforms"),
        "predicates": ("", "single message transforms"),
    }
)
# Sub-keys of the features above; consumed without a second message.
_LATER_PREFIXES = ("transforms.", "predicates.")

# Kafka consumer properties that Spark's Kafka source refuses (it manages them itself).
_SPARK_MANAGED = frozenset(
    {"key.deserializer", "value.deserializer", "enable.auto.commit", "interceptor.classes"}
)
_JSON_CONVERTER_LATER = {"decimal.format": "base64", "replace.null.with.default": "true"}

_TOPIC_RE = re.compile(r"^[a-zA-Z0-9._-]{1,249}$")
_LOCALE_RE = re.compile(r"^[A-Za-z]{2,8}([_-][A-Za-z0-9]{1,8})*$")
_REGION_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_TRIGGER_RE = re.compile(r"^(\d+)\s*([a-z]+)$")
_TRIGGER_UNITS = {
    **dict.fromkeys(("ms", "milli", "millis", "millisecond", "milliseconds"), 1),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), 1000),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), 60_000),
    **dict.fromkeys(("h", "hour", "hours"), 3_600_000),
    **dict.fromkeys(("d", "day", "days"), 86_400_000),
}
_TRIGGER_ALLOWED = (
    'must be "availableNow" or a processing-time interval such as "30 seconds", "30s", '
    '"1 minute", "500ms"'
)


def _is_secret(key: str) -> bool:
    k = key.lower()
    return (
        "password" in k
        or "secret" in k
        or k.endswith("jaas.config")
        or "sse.customer" in k
        or k.endswith("user.info")
    )


def _shown(key: str, value: str) -> str:
    if _is_secret(key):
        return HIDDEN
    return value if value != "" else "''"


def _bool_text(value: bool) -> str:
    return "true" if value else "false"


@dataclass(frozen=True, kw_only=True, repr=False)
class SinkConfig:
    """A validated S3 sink connector config; build it with :meth:`from_mapping`.

    Field defaults are Confluent's. Fields without a default are required. Direct construction
    does no validation (handy in tests); :meth:`from_mapping` validates everything.
    """

    name: str = "S3-sink"
    topics: tuple[str, ...] = ()
    topics_regex: str | None = None
    kafka_bootstrap_servers: str
    kafka_options: Mapping[str, str] = field(default_factory=dict)
    """Kafka consumer properties (``kafka.`` prefix stripped), e.g. ``security.protocol``."""
    starting_offsets: str = "earliest"
    checkpoint_location: str
    trigger: str = "availableNow"
    """``availableNow`` or a Spark processing-time interval, normalised (``"30 seconds"``)."""
    trigger_interval_ms: int | None = None
    max_offsets_per_trigger: int | None = None
    commit_log_table: str | None = None
    s3_bucket_name: str
    s3_region: str = "us-west-2"
    store_url: str | None = None
    s3_path_style_access: bool = True
    aws_access_key_id: str | None = None
    aws_secret_access_key: str | None = None
    s3_part_size: int = 26_214_400
    s3_part_retries: int = 3
    s3_retry_backoff_ms: int = 200
    s3_ssea_name: str = ""
    """``""`` (none), ``AES256`` (SSE-S3, or SSE-C with a customer key) or ``aws:kms``."""
    s3_sse_kms_key_id: str = ""
    s3_sse_customer_key: str | None = None
    """Base64 of a 256-bit key (secret); used only with ``s3.ssea.name=AES256``."""
    s3_acl_canned: str | None = None
    s3_object_tagging: bool = False
    s3_object_tagging_extra: tuple[tuple[str, str], ...] = ()
    """``s3.object.tagging.key.value.pairs``: extra tags, after the offset tags."""
    s3_object_behavior_on_tagging_error: Literal["ignore", "fail"] = "ignore"
    s3_credentials_provider: Literal["default", "assume_role"] = "default"
    sts_role_arn: str | None = None
    sts_role_session_name: str | None = None
    sts_role_external_id: str | None = None
    sts_region: str | None = None
    sts_endpoint_url: str | None = None
    """Our key: the STS endpoint for assume-role (AWS's own when unset)."""
    topics_dir: str = "topics"
    directory_delim: str = "/"
    file_delim: str = "+"
    filename_offset_zero_pad_width: int = 10
    format: Literal["avro", "json", "parquet", "bytearray"]
    avro_codec: str = "null"
    parquet_codec: str = "snappy"
    s3_compression_type: str = "none"
    s3_compression_level: int = -1
    format_bytearray_extension: str = ".bin"
    format_bytearray_separator: str = "\n"
    json_decimal_format: str = "BASE64"
    schema_cache_size: int = 1000
    enhanced_avro_schema_support: bool = False
    connect_meta_data: bool = True
    flush_size: int
    rotate_interval_ms: int = -1
    rotate_schedule_interval_ms: int = -1
    rotate_file_on_partition_change: bool = True
    """Not a Confluent key: with ``rotate.interval.ms`` > 0 Confluent always rotates when the
    encoded partition changes (``TopicPartitionWriter.rotateOnTime``); kept for the writer."""
    partitioner: Literal["default", "field", "time", "daily", "hourly"] = "default"
    partition_field_name: tuple[str, ...] = ()
    path_format: str = ""
    partition_duration_ms: int = -1
    locale: str = ""
    timezone: str = ""
    timestamp_extractor: Literal["Wallclock", "Record", "RecordField"] = "Wallclock"
    timestamp_field: str = "timestamp"
    behavior_on_null_values: Literal["fail", "ignore", "write"] = "fail"
    tombstone_encoded_partition: str = "tombstone"
    store_kafka_keys: bool = False
    store_kafka_headers: bool = False
    keys_format: Literal["avro", "json", "parquet", "bytearray"] = "avro"
    headers_format: Literal["avro", "json", "parquet"] = "avro"
    key_converter: Literal["json", "string", "bytearray", "avro", "jsonschema", "protobuf"] = "json"
    value_converter: Literal["json", "string", "bytearray", "avro", "jsonschema", "protobuf"] = (
        "json"
    )
    key_converter_schemas_enable: bool = True
    value_converter_schemas_enable: bool = True
    key_converter_registry: RegistrySettings | None = None
    """``key.converter.schema.registry.url`` and basic auth, for a Schema Registry converter."""
    value_converter_registry: RegistrySettings | None = None
    """``value.converter.schema.registry.url`` and basic auth, for a Schema Registry converter."""
    errors_retry_timeout_ms: int = 0
    """``errors.retry.timeout``: how long a failing Schema Registry call is retried (-1: ever)."""
    errors_retry_delay_max_ms: int = 60_000
    """``errors.retry.delay.max.ms``: the cap of the backoff between those retries."""
    schema_compatibility: Literal["NONE", "BACKWARD", "FORWARD", "FULL"] = "NONE"
    errors_tolerance: Literal["none", "all"] = "none"
    errors_log_enable: bool = False
    errors_log_include_messages: bool = False
    dlq_topic: str | None = None
    """``errors.deadletterqueue.topic.name``; None: no dead letter queue topic."""
    dlq_replication_factor: int = 3
    dlq_context_headers: bool = False
    dlq_table: str | None = None
    """``dlq.table``: a Delta table (name or path) that also receives every dead letter."""
    ignored_keys: tuple[str, ...] = field(default=(), compare=False)
    """Keys that were accepted but have no effect here (for a warning)."""

    def __post_init__(self) -> None:
        if not isinstance(self.kafka_options, MappingProxyType):
            object.__setattr__(self, "kafka_options", MappingProxyType(dict(self.kafka_options)))

    @classmethod
    def from_mapping(
        cls,
        mapping: Mapping[str, object],
        overrides: Mapping[str, object] | Iterable[str] | None = None,
    ) -> SinkConfig:
        """Validate a connector config (flat dict) plus overrides applied on top.

        Args:
            mapping: Connector config keys to values (strings or JSON-like scalars).
            overrides: ``{key: value}`` or ``["key=value", ...]`` (``--set`` / widget values).

        Raises:
            ConfigError: listing every invalid, missing, unknown or unsupported key.
        """
        raw = _normalise(mapping)
        raw.update(_normalise(_overrides_mapping(overrides)))
        return _build(raw)

    @classmethod
    def from_file(
        cls, path: str | Path, overrides: Mapping[str, object] | Iterable[str] | None = None
    ) -> SinkConfig:
        """Load a JSON or ``.properties`` file and validate it (see :meth:`from_mapping`)."""
        return cls.from_mapping(load_config_file(path), overrides)

    @property
    def format_class(self) -> str:
        """Confluent's class name for :attr:`format`."""
        return FORMAT_CLASSES[self.format]

    @property
    def partitioner_class(self) -> str:
        """Confluent's class name for :attr:`partitioner`."""
        return PARTITIONER_CLASSES[self.partitioner]

    def spark_kafka_options(self) -> dict[str, str]:
        """Options for ``spark.readStream.format("kafka")`` (real secret values included)."""
        options = {"kafka.bootstrap.servers": self.kafka_bootstrap_servers}
        options.update({f"kafka.{k}": v for k, v in self.kafka_options.items()})
        if self.topics_regex is not None:
            options["subscribePattern"] = self.topics_regex
        else:
            options["subscribe"] = ",".join(self.topics)
        options["startingOffsets"] = self.starting_offsets
        if self.max_offsets_per_trigger is not None:
            options["maxOffsetsPerTrigger"] = str(self.max_offsets_per_trigger)
        return options

    def describe(self, masked: bool = True) -> dict[str, str]:
        """The effective config under Confluent's key names (class names in full).

        Args:
            masked: Show secret values as ``[hidden]``.
        """
        d: dict[str, str] = {"name": self.name, "connector.class": CONNECTOR_CLASS}
        if self.topics_regex is not None:
            d["topics.regex"] = self.topics_regex
        else:
            d["topics"] = ",".join(self.topics)
        d["kafka.bootstrap.servers"] = self.kafka_bootstrap_servers
        for k, v in self.kafka_options.items():
            d[f"kafka.{k}"] = v
        d["starting.offsets"] = self.starting_offsets
        d["checkpoint.location"] = self.checkpoint_location
        d["trigger"] = self.trigger
        if self.max_offsets_per_trigger is not None:
            d["max.offsets.per.trigger"] = str(self.max_offsets_per_trigger)
        if self.commit_log_table is not None:
            d["commit.log.table"] = self.commit_log_table
        d["storage.class"] = STORAGE_CLASS
        d["s3.bucket.name"] = self.s3_bucket_name
        d["s3.region"] = self.s3_region
        if self.store_url is not None:
            d["store.url"] = self.store_url
        d["s3.path.style.access.enabled"] = _bool_text(self.s3_path_style_access)
        if self.aws_access_key_id is not None:
            d["aws.access.key.id"] = self.aws_access_key_id
        if self.aws_secret_access_key is not None:
            d["aws.secret.access.key"] = self.aws_secret_access_key
        if self.s3_sse_customer_key is not None:
            d["s3.sse.customer.key"] = self.s3_sse_customer_key
        if self.s3_acl_canned is not None:
            d["s3.acl.canned"] = self.s3_acl_canned
        for name in _STS_KEYS:
            value = getattr(self, name.replace(".", "_"))
            if value is not None:
                d[_STS_PREFIX + name] = value
        if self.sts_endpoint_url is not None:
            d["sts.endpoint.url"] = self.sts_endpoint_url
        d.update(
            {
                "s3.part.size": str(self.s3_part_size),
                "s3.part.retries": str(self.s3_part_retries),
                "s3.retry.backoff.ms": str(self.s3_retry_backoff_ms),
                "s3.ssea.name": self.s3_ssea_name,
                "s3.sse.kms.key.id": self.s3_sse_kms_key_id,
                "s3.object.tagging": _bool_text(self.s3_object_tagging),
                "s3.object.tagging.key.value.pairs": ",".join(
                    f"{k}:{v}" for k, v in self.s3_object_tagging_extra
                ),
                "s3.object.behavior.on.tagging.error": self.s3_object_behavior_on_tagging_error,
                "s3.credentials.provider.class": CREDENTIALS_PROVIDER_CLASSES[
                    self.s3_credentials_provider
                ],
                "topics.dir": self.topics_dir,
                "directory.delim": self.directory_delim,
                "file.delim": self.file_delim,
                "filename.offset.zero.pad.width": str(self.filename_offset_zero_pad_width),
                "format.class": self.format_class,
                "avro.codec": self.avro_codec,
                "parquet.codec": self.parquet_codec,
                "s3.compression.type": self.s3_compression_type,
                "s3.compression.level": str(self.s3_compression_level),
                "format.bytearray.extension": self.format_bytearray_extension,
                "format.bytearray.separator": self.format_bytearray_separator,
                "json.decimal.format": self.json_decimal_format,
                "schema.cache.size": str(self.schema_cache_size),
                "enhanced.avro.schema.support": _bool_text(self.enhanced_avro_schema_support),
                "connect.meta.data": _bool_text(self.connect_meta_data),
                "flush.size": str(self.flush_size),
                "rotate.interval.ms": str(self.rotate_interval_ms),
                "rotate.schedule.interval.ms": str(self.rotate_schedule_interval_ms),
                "partitioner.class": self.partitioner_class,
                "partition.field.name": ",".join(self.partition_field_name),
                "path.format": self.path_format,
                "partition.duration.ms": str(self.partition_duration_ms),
                "locale": self.locale,
                "timezone": self.timezone,
                "timestamp.extractor": self.timestamp_extractor,
                "timestamp.field": self.timestamp_field,
                "behavior.on.null.values": self.behavior_on_null_values,
                "tombstone.encoded.partition": self.tombstone_encoded_partition,
                "store.kafka.keys": _bool_text(self.store_kafka_keys),
                "store.kafka.headers": _bool_text(self.store_kafka_headers),
                "keys.format.class": FORMAT_CLASSES[self.keys_format],
                "headers.format.class": FORMAT_CLASSES[self.headers_format],
                "key.converter": SINK_CONVERTER_CLASSES[self.key_converter],
                "key.converter.schemas.enable": _bool_text(self.key_converter_schemas_enable),
                "value.converter": SINK_CONVERTER_CLASSES[self.value_converter],
                "value.converter.schemas.enable": _bool_text(self.value_converter_schemas_enable),
                "schema.compatibility": self.schema_compatibility,
                "errors.tolerance": self.errors_tolerance,
                "errors.log.enable": _bool_text(self.errors_log_enable),
                "errors.log.include.messages": _bool_text(self.errors_log_include_messages),
                "errors.deadletterqueue.topic.name": self.dlq_topic or "",
                "errors.deadletterqueue.topic.replication.factor": str(self.dlq_replication_factor),
                "errors.deadletterqueue.context.headers.enable": _bool_text(
                    self.dlq_context_headers
                ),
            }
        )
        if self.dlq_table is not None:
            d["dlq.table"] = self.dlq_table
        d["errors.retry.timeout"] = str(self.errors_retry_timeout_ms)
        d["errors.retry.delay.max.ms"] = str(self.errors_retry_delay_max_ms)
        for side, registry in (
            ("key", self.key_converter_registry),
            ("value", self.value_converter_registry),
        ):
            if registry is not None:
                prefix = f"{side}.converter."
                d[prefix + "schema.registry.url"] = registry.display_url if masked else registry.url
                d[prefix + "basic.auth.credentials.source"] = registry.credentials_source
                if registry.user_info is not None:
                    d[prefix + "basic.auth.user.info"] = registry.user_info
        if masked:
            d = {k: (HIDDEN if _is_secret(k) else v) for k, v in d.items()}
        return d

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v!r}" for k, v in self.describe(masked=True).items())
        return f"SinkConfig({body})"

    __str__ = __repr__


# --------------------------------------------------------------------------- input parsing


def parse_config_text(
    text: str, fmt: Literal["json", "properties"] | None = None
) -> dict[str, str]:
    """Parse a connector config from JSON (flat or ``{"name", "config"}``) or properties text.

    Args:
        text: The file content.
        fmt: ``"json"``, ``"properties"``, or None to detect (JSON when it starts with ``{``).

    Returns:
        Keys to string values (JSON numbers/booleans become Kafka's strings).

    Raises:
        ConfigError: on a syntax error or a JSON document that is not a connector config.
    """
    if fmt is None:
        fmt = "json" if text.lstrip().startswith("{") else "properties"
    if fmt == "properties":
        return parse_properties(text)
    if fmt != "json":
        raise ConfigError(f"config format {fmt!r} is invalid: must be json or properties")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"config JSON is invalid: {exc}") from None
    if not isinstance(doc, dict):
        raise ConfigError("config JSON is invalid: must be an object")
    if isinstance(doc.get("config"), dict):
        return _unwrap_envelope(doc)
    return _normalise(doc)


def _unwrap_envelope(doc: dict[str, Any]) -> dict[str, str]:
    extra = sorted(set(doc) - {"name", "config", "tasks", "type"})
    if extra:
        raise ConfigError(
            f"config JSON envelope has unexpected keys {', '.join(extra)}: "
            'allowed are "name" and "config"'
        )
    config = _normalise(doc["config"])
    outer = doc.get("name")
    if outer is not None:
        outer = str(outer)
        if config.setdefault("name", outer) != outer:
            raise ConfigError(
                f"name={config['name']} is invalid: the envelope's name is {outer}; they must match"
            )
    return config


def load_config_file(path: str | Path) -> dict[str, str]:
    """Read a connector config file: ``.json`` or Java ``.properties`` (else detected), UTF-8.

    Raises:
        ConfigError: when the file cannot be read or parsed.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"config file {p} cannot be read: {exc.strerror or exc}") from None
    suffix = p.suffix.lower()
    fmt: Literal["json", "properties"] | None = None
    if suffix == ".json":
        fmt = "json"
    elif suffix in (".properties", ".props", ".conf"):
        fmt = "properties"
    return parse_config_text(text, fmt)


def parse_properties(text: str) -> dict[str, str]:
    """Parse Java ``.properties`` text exactly as ``java.util.Properties.load`` does.

    Handles ``key=value``, ``key: value`` and ``key value``, ``#``/``!`` comment lines,
    backslash line continuations and the escapes ``\\t \\n \\r \\f \\uXXXX`` (any other
    escaped character stands for itself). Later keys win.
    """
    result: dict[str, str] = {}
    lines = re.split(r"\r\n|\r|\n", text)
    i = 0
    while i < len(lines):
        line = lines[i].lstrip(" \t\f")
        i += 1
        if not line or line[0] in "#!":
            continue
        while _continues(line):
            line = line[:-1]
            if i >= len(lines):
                break
            line += lines[i].lstrip(" \t\f")
            i += 1
        key, value = _split_property(line)
        result[_unescape(key)] = _unescape(value)
    return result


def _continues(line: str) -> bool:
    n = len(line) - len(line.rstrip("\\"))
    return n % 2 == 1


def _split_property(line: str) -> tuple[str, str]:
    j, n = 0, len(line)
    has_sep = False
    while j < n:
        c = line[j]
        if c == "\\":
            j += 2
            continue
        if c in "=:":
            has_sep = True
            break
        if c in " \t\f":
            break
        j += 1
    key = line[:j]
    j += 1
    while j < n:
        c = line[j]
        if c not in " \t\f":
            if not has_sep and c in "=:":
                has_sep = True
            else:
                break
        j += 1
    return key, line[j:]


_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def _unescape(s: str) -> str:
    if "\\" not in s:
        return s
    out: list[str] = []
    j, n = 0, len(s)
    while j < n:
        c = s[j]
        if c != "\\" or j + 1 >= n:
            if c != "\\":
                out.append(c)
            j += 1
            continue
        c = s[j + 1]
        if c == "u":
            digits = s[j + 2 : j + 6]
            if len(digits) != 4 or not all(ch in "0123456789abcdefABCDEF" for ch in digits):
                raise ConfigError(f"properties text is invalid: malformed \\uxxxx escape in {s!r}")
            out.append(chr(int(digits, 16)))
            j += 6
        else:
            out.append(_ESCAPES.get(c, c))
            j += 2
    return "".join(out)


def _stringify(key: str, value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return _bool_text(value)
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return ",".join(s for v in value if (s := _stringify(key, v)) is not None)
    raise ConfigError(f"{key} is invalid: must be a string, number, boolean or list")


def _normalise(mapping: Mapping[str, object]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in mapping.items():
        if not isinstance(key, str):
            raise ConfigError(f"config key {key!r} is invalid: keys must be strings")
        text = _stringify(key, value)
        if text is not None:
            out[key.strip()] = text
    return out


def _overrides_mapping(
    overrides: Mapping[str, object] | Iterable[str] | None,
) -> Mapping[str, object]:
    if overrides is None:
        return {}
    if isinstance(overrides, Mapping):
        return overrides
    if isinstance(overrides, str):
        overrides = [overrides]
    out: dict[str, object] = {}
    for item in overrides:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"override {item!r} is invalid: must be key=value")
        out[key.strip()] = value
    return out


# --------------------------------------------------------------------------- validation


class _Reader:
    """Reads typed values from the raw string map, collecting problems and consumed keys."""

    def __init__(self, raw: dict[str, str]) -> None:
        self.raw = raw
        self.problems: list[str] = []
        self.used: set[str] = set()
        self.ignored: list[str] = []

    def has(self, key: str) -> bool:
        return key in self.raw

    def get(self, key: str) -> str | None:
        self.used.add(key)
        return self.raw.get(key)

    def invalid(self, key: str, value: str, allowed: str) -> None:
        self.problems.append(f"{key}={_shown(key, value)} is invalid: {allowed}")

    def missing(self, key: str, allowed: str) -> None:
        self.problems.append(f"{key} is missing: required, {allowed}")

    def finish(self, what: str, known: str) -> tuple[str, ...]:
        """Report unread keys as unknown and raise every problem at once; else return the
        accepted keys that have no effect.

        Args:
            what: The config's name in the message (``connector config``).
            known: Whose keys are known, for the unknown-keys line.
        """
        unknown = sorted(k for k in self.raw if k not in self.used)
        if unknown:
            self.problems.append(f"unknown keys (not {known} keys): " + ", ".join(unknown))
        if self.problems:
            count = len(self.problems)
            raise ConfigError(
                f"invalid {what} ({count} problem{'s' if count > 1 else ''}):\n  - "
                + "\n  - ".join(self.problems)
            )
        return tuple(sorted(set(self.ignored)))

    def later(self, key: str, value: str, what: str) -> None:
        self.problems.append(f"{key}={_shown(key, value)} is not supported yet: {what}")

    def string(self, key: str, default: str, *, strip: bool = True) -> str:
        value = self.get(key)
        if value is None:
            return default
        return value.strip() if strip else value

    def optional(self, key: str) -> str | None:
        value = self.get(key)
        if value is None or not value.strip():
            return None
        return value.strip()

    def integer(
        self,
        key: str,
        default: int | None,
        lo: int,
        hi: int,
        allowed: str,
    ) -> int | None:
        value = self.get(key)
        if value is None:
            return default
        text = value.strip()
        if re.fullmatch(r"[+-]?\d+", text) and lo <= int(text) <= hi:
            return int(text)
        self.invalid(key, value, allowed)
        return default

    def boolean(self, key: str, default: bool) -> bool:
        value = self.get(key)
        if value is None:
            return default
        text = value.strip().lower()
        if text in ("true", "false"):
            return text == "true"
        self.invalid(key, value, "must be true or false")
        return default

    def choice(self, key: str, default: str, allowed: Iterable[str]) -> str:
        value = self.get(key)
        if value is None:
            return default
        options = tuple(allowed)
        text = value.strip().lower()
        for option in options:
            if option.lower() == text:
                return option
        self.invalid(key, value, f"must be one of {', '.join(options)}")
        return default


def _resolve_class(value: str, table: Mapping[str, str]) -> str | None:
    """Short name (any case), full class name or simple class name -> short name."""
    text = value.strip()
    for short, cls in table.items():
        if text.lower() == short or text == cls or text == cls.rsplit(".", 1)[-1]:
            return short
    return None


def _build(raw: dict[str, str]) -> SinkConfig:
    r = _Reader(raw)
    cloud = (raw.get("connector.class", "").strip() == "S3_SINK") or bool(
        _CLOUD_ONLY_KEYS & raw.keys()
    )
    kw: dict[str, Any] = {}
    _read_framework(r, kw)
    _read_kafka(r, kw)
    _read_s3(r, kw)
    _read_s3_security(r, kw)
    _read_format(r, kw)
    _read_rotation(r, kw, cloud)
    _read_partitioner(r, kw, cloud)
    _read_converters(r, kw)
    _read_keys_headers(r, kw)
    _read_errors(r, kw)
    _read_later(r)
    kw["ignored_keys"] = r.finish("connector config", "Confluent S3 sink or s3connect")
    return SinkConfig(**kw)


def _read_framework(r: _Reader, kw: dict[str, Any]) -> None:
    kw["name"] = r.string("name", "S3-sink") or "S3-sink"
    connector = r.get("connector.class")
    if connector is not None and connector.strip() not in (
        CONNECTOR_CLASS,
        "S3SinkConnector",
        "S3_SINK",
    ):
        r.invalid("connector.class", connector, f"must be {CONNECTOR_CLASS} (or S3_SINK)")
    storage = r.get("storage.class")
    if storage is not None and storage.strip() not in (STORAGE_CLASS, "S3Storage"):
        r.invalid("storage.class", storage, f"must be {STORAGE_CLASS}")
    for key in _NO_EFFECT_KEYS:
        if r.get(key) is not None:
            r.ignored.append(key)
    if r.has("tasks.max"):
        r.integer("tasks.max", 1, 1, _INT_MAX, "must be an integer > 0")
    kw["schema_cache_size"] = r.integer(
        "schema.cache.size", 1000, 0, _INT_MAX, "must be an integer >= 0"
    )
    topics = r.optional("topics")
    regex = r.optional("topics.regex")
    if topics is not None and regex is not None:
        r.problems.append("topics and topics.regex are both set: set exactly one of them")
    elif topics is None and regex is None:
        r.missing("topics", "a comma-separated list of topic names (or set topics.regex)")
    if topics is not None:
        names = tuple(t.strip() for t in topics.split(",") if t.strip())
        bad = [t for t in names if not _TOPIC_RE.match(t) or t in (".", "..")]
        if bad:
            r.invalid(
                "topics",
                topics,
                f"{', '.join(bad)} not a legal topic name (letters, digits, '.', '_', '-')",
            )
        kw["topics"] = names
    if regex is not None:
        try:
            re.compile(regex)
        except re.error as exc:
            r.invalid("topics.regex", regex, f"must be a valid regular expression ({exc})")
        kw["topics_regex"] = regex
    checkpoint = r.optional("checkpoint.location")
    if checkpoint is None:
        r.missing("checkpoint.location", "a directory for Spark's streaming checkpoint")
    kw["checkpoint_location"] = checkpoint or ""
    trigger = r.get("trigger")
    kw["trigger"], kw["trigger_interval_ms"] = "availableNow", None
    if trigger is not None:
        parsed = _parse_trigger(trigger)
        if parsed is None:
            r.invalid("trigger", trigger, _TRIGGER_ALLOWED)
        else:
            kw["trigger"], kw["trigger_interval_ms"] = parsed
    kw["max_offsets_per_trigger"] = r.integer(
        "max.offsets.per.trigger", None, 1, _LONG_MAX, "must be an integer > 0"
    )
    kw["commit_log_table"] = r.optional("commit.log.table")


def _read_errors(r: _Reader, kw: dict[str, Any]) -> None:
    """Kafka Connect's error handling keys (ConnectorConfig / SinkConnectorConfig) and dlq.table."""
    kw["errors_tolerance"] = r.choice("errors.tolerance", "none", ("none", "all"))
    kw["errors_log_enable"] = r.boolean("errors.log.enable", False)
    kw["errors_log_include_messages"] = r.boolean("errors.log.include.messages", False)
    # Used for Schema Registry calls (RetryWithToleranceOperator's semantics).
    kw["errors_retry_timeout_ms"] = r.integer(
        "errors.retry.timeout", 0, -1, _LONG_MAX, "must be an integer >= -1 (ms; -1: retry forever)"
    )
    kw["errors_retry_delay_max_ms"] = r.integer(
        "errors.retry.delay.max.ms", 60_000, 0, _LONG_MAX, "must be an integer >= 0 (ms)"
    )
    kw["dlq_context_headers"] = r.boolean("errors.deadletterqueue.context.headers.enable", False)
    kw["dlq_replication_factor"] = r.integer(
        "errors.deadletterqueue.topic.replication.factor",
        3,
        -1,
        32767,
        "must be a positive replication factor, or -1 for the broker's default",
    )
    if kw["dlq_replication_factor"] == 0:
        r.invalid(
            "errors.deadletterqueue.topic.replication.factor",
            "0",
            "must be a positive replication factor, or -1 for the broker's default",
        )
    dlq = r.optional("errors.deadletterqueue.topic.name")
    kw["dlq_topic"] = dlq
    kw["dlq_table"] = r.optional("dlq.table")
    if dlq is None:
        return
    if not _TOPIC_RE.match(dlq) or dlq in (".", ".."):
        r.invalid(
            "errors.deadletterqueue.topic.name",
            dlq,
            "must be a legal topic name (letters, digits, '.', '_', '-')",
        )
    # SinkConnectorConfig.validate: the DLQ may not be one of the consumed topics.
    regex = kw.get("topics_regex")
    if dlq in kw.get("topics", ()) or (regex is not None and _full_match(regex, dlq)):
        r.invalid(
            "errors.deadletterqueue.topic.name",
            dlq,
            "may not be one of the topics this sink consumes (topics / topics.regex)",
        )


def _full_match(regex: str, text: str) -> bool:
    try:
        return re.fullmatch(regex, text) is not None
    except re.error:
        return False


def _extra_tags(r: _Reader) -> tuple[tuple[str, str], ...]:
    """``s3.object.tagging.key.value.pairs``: a list of ``key:value`` (Confluent's LIST type),
    within S3's tag limits (10 tags an object, 3 of them the offset tags; key <= 128 and value
    <= 256 characters)."""
    key = "s3.object.tagging.key.value.pairs"
    text = r.optional(key)
    if text is None:
        return ()
    tags: dict[str, str] = {}
    for item in (part.strip() for part in text.split(",")):
        name, sep, value = item.partition(":")
        name, value = name.strip(), value.strip()
        if not sep or not name or len(name) > 128 or len(value) > 256:
            r.invalid(key, text, f"{item!r} is not key:value (key 1..128, value 0..256 chars)")
            return ()
        if name in ("startOffset", "endOffset", "recordCount") or name in tags:
            r.invalid(key, text, f"tag {name!r} is given twice (or is an offset tag)")
            return ()
        tags[name] = value
    if len(tags) > 7:
        r.invalid(key, text, "at most 7 extra tags (S3 allows 10 an object, 3 are offset tags)")
        return ()
    return tuple(tags.items())


def _parse_trigger(value: str) -> tuple[str, int | None] | None:
    text = value.strip()
    if text.lower() in ("availablenow", "available_now", "available-now"):
        return "availableNow", None
    m = _TRIGGER_RE.match(text.lower())
    if not m or m.group(2) not in _TRIGGER_UNITS or int(m.group(1)) <= 0:
        return None
    ms = int(m.group(1)) * _TRIGGER_UNITS[m.group(2)]
    spark = f"{ms // 1000} seconds" if ms % 1000 == 0 else f"{ms} milliseconds"
    return spark, ms


def _read_kafka(r: _Reader, kw: dict[str, Any]) -> None:
    servers = r.optional("kafka.bootstrap.servers")
    if servers is None:
        r.missing("kafka.bootstrap.servers", "a comma-separated list of host:port")
    kw["kafka_bootstrap_servers"] = servers or ""
    options: dict[str, str] = {}
    starting = r.optional("starting.offsets")
    reset: str | None = None
    # consumer.override.* (Kafka Connect's per-connector overrides) first, kafka.* wins.
    for prefix in ("consumer.override.", "kafka."):
        for key in sorted(k for k in r.raw if k.startswith(prefix)):
            prop = key[len(prefix) :]
            if key in ("kafka.bootstrap.servers", "kafka.api.key", "kafka.api.secret"):
                continue
            value = r.get(key) or ""
            if prop == "auto.offset.reset":
                if value.strip().lower() in ("earliest", "latest"):
                    reset = value.strip().lower()
                else:
                    r.invalid(key, value, "must be earliest or latest (or use starting.offsets)")
            elif prop in _SPARK_MANAGED:
                r.invalid(key, value, "Spark's Kafka source sets this property itself; remove it")
            elif prop == "bootstrap.servers":
                r.invalid(key, value, "set kafka.bootstrap.servers instead")
            else:
                options[prop] = value.strip()
    api_key, api_secret = r.optional("kafka.api.key"), r.optional("kafka.api.secret")
    if (api_key is None) != (api_secret is None):
        r.problems.append("kafka.api.key and kafka.api.secret must be set together")
    elif api_key is not None and api_secret is not None:
        # Confluent Cloud API keys: SASL/PLAIN over TLS.
        options.setdefault("security.protocol", "SASL_SSL")
        options.setdefault("sasl.mechanism", "PLAIN")
        options.setdefault(
            "sasl.jaas.config",
            "org.apache.kafka.common.security.plain.PlainLoginModule required "
            f'username="{api_key}" password="{api_secret}";',
        )
    kw["kafka_options"] = options
    if starting is None:
        starting = reset or "earliest"
    elif starting.lower() in ("earliest", "latest"):
        starting = starting.lower()
    else:
        try:
            ok = isinstance(json.loads(starting), dict)
        except json.JSONDecodeError:
            ok = False
        if not ok:
            r.invalid(
                "starting.offsets",
                starting,
                'must be earliest, latest or a JSON object like {"topic":{"0":23}}',
            )
    kw["starting_offsets"] = starting


def _read_s3(r: _Reader, kw: dict[str, Any]) -> None:
    bucket = r.optional("s3.bucket.name")
    if bucket is None:
        r.missing("s3.bucket.name", "the S3 bucket name")
    kw["s3_bucket_name"] = bucket or ""
    region = r.string("s3.region", "us-west-2").lower()
    if not _REGION_RE.match(region):
        r.invalid("s3.region", _raw_or(r, "s3.region"), "must be an AWS region such as us-west-2")
    kw["s3_region"] = region
    url = r.optional("store.url")
    if url is not None and not re.match(r"^(https?|file)://[^\s]+$", url):
        r.invalid("store.url", url, "must be an http://, https:// or file:// URL")
    kw["store_url"] = url
    kw["s3_path_style_access"] = r.boolean("s3.path.style.access.enabled", True)
    kw["aws_access_key_id"] = r.optional("aws.access.key.id")
    kw["aws_secret_access_key"] = r.optional("aws.secret.access.key")
    kw["s3_part_size"] = r.integer(
        "s3.part.size",
        26_214_400,
        _PART_SIZE_MIN,
        _INT_MAX,
        f"must be an integer between {_PART_SIZE_MIN} (5 MiB) and {_INT_MAX} (~2 GiB)",
    )
    kw["s3_part_retries"] = r.integer("s3.part.retries", 3, 0, _INT_MAX, "must be an integer >= 0")
    kw["s3_retry_backoff_ms"] = r.integer(
        "s3.retry.backoff.ms", 200, 0, _LONG_MAX, "must be an integer >= 0 (milliseconds)"
    )
    kw["topics_dir"] = r.string("topics.dir", "topics")
    for key, default, attr in (
        ("directory.delim", "/", "directory_delim"),
        ("file.delim", "+", "file_delim"),
    ):
        value = r.string(key, default)
        if not value:
            r.invalid(key, _raw_or(r, key), "must not be empty")
            value = default
        kw[attr] = value
    kw["filename_offset_zero_pad_width"] = r.integer(
        "filename.offset.zero.pad.width", 10, 0, _INT_MAX, "must be an integer >= 0"
    )


def _read_s3_security(r: _Reader, kw: dict[str, Any]) -> None:
    """SSE, canned ACL, object tagging and the credentials provider, validated as
    S3SinkConnectorConfig and AwsAssumeRoleCredentialsProvider do (S3OutputStream uses the
    customer key only with ``AES256`` and the KMS key id only with ``aws:kms``)."""
    ssea = r.string("s3.ssea.name", "")
    if ssea and ssea not in SSE_ALGORITHMS:
        r.invalid("s3.ssea.name", ssea, "must be empty, " + " or ".join(SSE_ALGORITHMS))
        ssea = ""
    kw["s3_ssea_name"] = ssea
    kw["s3_sse_kms_key_id"] = r.string("s3.sse.kms.key.id", "")
    if kw["s3_sse_kms_key_id"] and ssea != "aws:kms":
        r.ignored.append("s3.sse.kms.key.id")
    customer = r.optional("s3.sse.customer.key")
    if customer is not None:
        if not _is_aes256_key(customer):
            r.invalid("s3.sse.customer.key", customer, "must be a base64-encoded 256-bit key")
        elif ssea != "AES256":
            r.ignored.append("s3.sse.customer.key")
    kw["s3_sse_customer_key"] = customer
    acl = r.optional("s3.acl.canned")
    if acl is not None and acl not in CANNED_ACLS:
        r.invalid("s3.acl.canned", acl, "must be one of " + ", ".join(CANNED_ACLS))
    kw["s3_acl_canned"] = acl
    kw["s3_object_tagging"] = r.boolean("s3.object.tagging", False)
    kw["s3_object_tagging_extra"] = _extra_tags(r)
    kw["s3_object_behavior_on_tagging_error"] = r.choice(
        "s3.object.behavior.on.tagging.error", "ignore", ("ignore", "fail")
    )
    provider = r.get("s3.credentials.provider.class")
    kw["s3_credentials_provider"] = "default"
    if provider is not None and provider.strip() not in _DEFAULT_CHAIN_ALIASES:
        if provider.strip() in (
            CREDENTIALS_PROVIDER_CLASSES["assume_role"],
            "AwsAssumeRoleCredentialsProvider",
        ):
            kw["s3_credentials_provider"] = "assume_role"
        else:
            r.later(
                "s3.credentials.provider.class",
                provider,
                "only " + " and ".join(CREDENTIALS_PROVIDER_CLASSES.values()) + " are supported",
            )
    values = {name: r.optional(_STS_PREFIX + name) for name in _STS_KEYS}
    if kw["s3_credentials_provider"] == "assume_role":
        what = "needed by AwsAssumeRoleCredentialsProvider"
        arn = values["sts.role.arn"]
        if arn is None:
            r.missing(_STS_PREFIX + "sts.role.arn", f"the ARN of the role to assume ({what})")
        elif not arn.startswith("arn:") or len(arn) < 20:
            r.invalid(_STS_PREFIX + "sts.role.arn", arn, "must be a role ARN (arn:aws:iam::...)")
        name = values["sts.role.session.name"]
        if name is None:
            r.missing(_STS_PREFIX + "sts.role.session.name", f"a session name ({what})")
        elif not _SESSION_NAME_RE.match(name):
            r.invalid(
                _STS_PREFIX + "sts.role.session.name",
                name,
                "must be 2 to 64 characters of letters, digits and +=,.@_-",
            )
        external = values["sts.role.external.id"]
        if external is None:
            r.missing(_STS_PREFIX + "sts.role.external.id", f"the role's external ID ({what})")
        elif not _EXTERNAL_ID_RE.match(external):
            r.invalid(
                _STS_PREFIX + "sts.role.external.id",
                external,
                "must be 2 to 1224 characters of letters, digits and +=,.@:/_-",
            )
        region = values["sts.region"]
        if region is not None and not _REGION_RE.match(region.lower()):
            r.invalid(_STS_PREFIX + "sts.region", region, "must be an AWS region such as us-west-2")
        for name, value in values.items():
            kw[name.replace(".", "_")] = value
        kw["sts_endpoint_url"] = r.optional("sts.endpoint.url")
        url = kw["sts_endpoint_url"]
        if url is not None and not re.match(r"^https?://[^\s]+$", url):
            r.invalid("sts.endpoint.url", url, "must be an http:// or https:// URL")
    else:
        for name, value in values.items():
            if value is not None:
                r.ignored.append(_STS_PREFIX + name)
        if r.get("sts.endpoint.url") is not None:
            r.ignored.append("sts.endpoint.url")
    # Other s3.credentials.provider.* keys configure a provider class; ours take none.
    for key in r.raw:
        if key.startswith(_STS_PREFIX) and key not in r.used:
            r.get(key)
            r.ignored.append(key)


def _is_aes256_key(text: str) -> bool:
    try:
        return len(base64.b64decode(text, validate=True)) == 32
    except (binascii.Error, ValueError):
        return False


def _raw_or(r: _Reader, key: str) -> str:
    """The raw value of ``key`` (empty when absent), for messages."""
    return r.raw.get(key, "")


def _read_format(r: _Reader, kw: dict[str, Any]) -> None:
    fmt: str | None = None
    fc = r.get("format.class")
    if fc is not None:
        fmt = _resolve_class(fc, FORMAT_CLASSES)
        if fmt is None:
            r.invalid(
                "format.class",
                fc,
                "must be one of avro, json, parquet, bytearray or "
                + ", ".join(FORMAT_CLASSES.values()),
            )
    odf = r.get("output.data.format")
    if odf is not None:
        cloud_fmt = _CLOUD_FORMATS.get(odf.strip().upper())
        if cloud_fmt is None:
            r.invalid("output.data.format", odf, "must be one of AVRO, JSON, PARQUET, BYTES")
        elif fc is not None and fmt is not None and fmt != cloud_fmt:
            r.problems.append(
                f"format.class={fc.strip()} and output.data.format={odf.strip()} disagree: "
                "set only one of them"
            )
        else:
            fmt = cloud_fmt
    if fmt is None and fc is None and odf is None:
        r.missing("format.class", "one of avro, json, parquet, bytearray or a Confluent class")
    kw["format"] = fmt or "json"
    kw["avro_codec"] = r.choice("avro.codec", "null", _AVRO_CODECS)
    kw["parquet_codec"] = r.choice("parquet.codec", "snappy", (*_PARQUET_CODECS, "lzo", "lz4_raw"))
    if kw["parquet_codec"] in ("lzo", "lz4_raw"):
        allowed = ", ".join(_PARQUET_CODECS)
        name = {"lzo": "LZO", "lz4_raw": "LZ4_RAW"}[kw["parquet_codec"]]
        r.later(
            "parquet.codec",
            kw["parquet_codec"],
            f"there is no {name} Parquet writer; use one of {allowed}",
        )
    kw["s3_compression_type"] = r.choice("s3.compression.type", "none", ("none", "gzip"))
    codec = r.get("compression.codec")
    if codec is not None:
        _apply_cloud_codec(r, kw, codec, fmt)
    kw["s3_compression_level"] = r.integer(
        "s3.compression.level",
        -1,
        -1,
        9,
        "must be -1 (default) or an integer from 0 (none) to 9 (best compression)",
    )
    if kw["s3_compression_type"] == "gzip" and fmt in ("avro", "parquet"):
        key = "s3.compression.type" if r.has("s3.compression.type") else "compression.codec"
        r.invalid(
            key,
            _raw_or(r, key),
            f"gzip applies only to json and bytearray formats, not {fmt} "
            f"(use {'avro' if fmt == 'avro' else 'parquet'}.codec)",
        )
    kw["format_bytearray_extension"] = r.string("format.bytearray.extension", ".bin")
    # Whitespace is significant here: Confluent reads the original, untrimmed value.
    kw["format_bytearray_separator"] = r.string("format.bytearray.separator", "\n", strip=False)
    kw["json_decimal_format"] = r.choice("json.decimal.format", "BASE64", ("BASE64", "NUMERIC"))
    kw["enhanced_avro_schema_support"] = r.boolean("enhanced.avro.schema.support", False)
    kw["connect_meta_data"] = r.boolean("connect.meta.data", True)


def _apply_cloud_codec(r: _Reader, kw: dict[str, Any], codec: str, fmt: str | None) -> None:
    """Confluent Cloud's ``compression.codec``: ``"AVRO - snappy"``, ``"JSON - gzip"``, ..."""
    allowed = (
        "must be <FORMAT> - <codec>: AVRO - null|deflate|snappy|bzip2, "
        "PARQUET - none|snappy|gzip|zstd|lz4|brotli, JSON - none|gzip, BYTES - none|gzip"
    )
    m = re.fullmatch(r"\s*([A-Za-z]+)\s*-\s*([A-Za-z0-9_]+)\s*", codec)
    codec_fmt = _CLOUD_FORMATS.get(m.group(1).upper()) if m else None
    if m is None or codec_fmt is None:
        r.invalid("compression.codec", codec, allowed)
        return
    name = m.group(2).lower()
    if fmt is not None and codec_fmt != fmt:
        r.invalid("compression.codec", codec, f"its format must match the output format ({fmt})")
        return
    if codec_fmt == "avro" and name in _AVRO_CODECS:
        target, attr = "avro.codec", "avro_codec"
    elif codec_fmt == "parquet" and name in _PARQUET_CODECS:
        target, attr = "parquet.codec", "parquet_codec"
    elif codec_fmt in ("json", "bytearray") and name in ("none", "gzip"):
        target, attr = "s3.compression.type", "s3_compression_type"
    else:
        r.invalid("compression.codec", codec, allowed)
        return
    if r.has(target) and kw[attr] != name:
        r.problems.append(
            f"compression.codec={codec.strip()} and {target}={_raw_or(r, target).strip()} "
            "disagree: set only one of them"
        )
        return
    kw[attr] = name


def _read_rotation(r: _Reader, kw: dict[str, Any], cloud: bool) -> None:
    flush = r.integer("flush.size", None, 1, _INT_MAX, "must be an integer > 0")
    if flush is None and not r.has("flush.size"):
        if cloud:
            flush = 1000  # Confluent Cloud's documented default
        else:
            r.missing("flush.size", "must be an integer > 0")
    kw["flush_size"] = flush or 1
    kw["rotate_interval_ms"] = r.integer(
        "rotate.interval.ms", -1, -(2**63), _LONG_MAX, "must be an integer (milliseconds)"
    )
    kw["rotate_schedule_interval_ms"] = r.integer(
        "rotate.schedule.interval.ms", -1, -(2**63), _LONG_MAX, "must be an integer (milliseconds)"
    )


def _read_partitioner(r: _Reader, kw: dict[str, Any], cloud: bool) -> None:
    pc = r.get("partitioner.class")
    partitioner = "default"
    if pc is not None:
        resolved = _resolve_class(pc, PARTITIONER_CLASSES)
        if resolved is None:
            r.invalid(
                "partitioner.class",
                pc,
                "must be one of default, field, time, daily, hourly or "
                + ", ".join(PARTITIONER_CLASSES.values()),
            )
        else:
            partitioner = resolved
    delim = kw["directory_delim"]
    path_format = r.string("path.format", "")
    duration = r.integer(
        "partition.duration.ms", -1, -(2**63), _LONG_MAX, "must be an integer (milliseconds)"
    )
    ti = r.get("time.interval")
    interval_ms: int | None = None
    if ti is not None:
        interval_ms = {"HOURLY": _HOUR_MS, "DAILY": _DAY_MS}.get(ti.strip().upper())
        if interval_ms is None:
            r.invalid("time.interval", ti, "must be HOURLY or DAILY")
        elif pc is not None:
            r.problems.append(
                f"time.interval={ti.strip()} and partitioner.class={pc.strip()} are both set: "
                "set only one of them"
            )
        elif path_format:
            partitioner, duration = "time", interval_ms
        else:
            partitioner = "hourly" if interval_ms == _HOUR_MS else "daily"
    if partitioner in ("daily", "hourly"):
        # DailyPartitioner/HourlyPartitioner.configure overwrite both keys.
        fixed = f"'year'=YYYY{delim}'month'=MM{delim}'day'=dd"
        fixed_ms = _DAY_MS
        if partitioner == "hourly":
            fixed, fixed_ms = f"{fixed}{delim}'hour'=HH", _HOUR_MS
        if r.has("path.format") and path_format != fixed:
            r.ignored.append("path.format")
        if r.has("partition.duration.ms") and duration != fixed_ms:
            r.ignored.append("partition.duration.ms")
        path_format, duration = fixed, fixed_ms
    kw["partitioner"] = partitioner
    kw["partition_duration_ms"] = duration
    timed = partitioner in _TIME_PARTITIONERS
    cloud_timed = cloud and ti is not None
    fields = tuple(f.strip() for f in r.string("partition.field.name", "").split(",") if f.strip())
    kw["partition_field_name"] = fields
    if partitioner == "field" and not fields:
        r.missing("partition.field.name", "a comma-separated list of fields for FieldPartitioner")
    pending_pattern: str | None = None
    what = f"partitioner.class={PARTITIONER_CLASSES[partitioner].rsplit('.', 1)[-1]}"
    if partitioner == "time":
        if not path_format:
            r.missing(
                "path.format", f"a Joda pattern such as 'year'=YYYY{delim}'month'=MM ({what})"
            )
        elif path_format == delim:
            r.invalid("path.format", path_format, f"Path format cannot be empty ({what})")
        else:
            if path_format.endswith(delim):  # Confluent strips one trailing delimiter
                path_format = path_format[: -len(delim)]
            pending_pattern = path_format
        if not r.has("partition.duration.ms") and interval_ms is None:
            r.missing("partition.duration.ms", f"an integer > 0 (milliseconds) ({what})")
        elif duration is not None and duration <= 0:
            r.invalid("partition.duration.ms", str(duration), f"must be an integer > 0 ({what})")
    kw["path_format"] = path_format
    locale = r.string("locale", "en" if cloud_timed else "")
    if timed and not locale:
        r.missing("locale", f"a locale such as en or en-US ({what})")
    elif timed and not _LOCALE_RE.match(locale):
        r.invalid("locale", locale, "must be a locale such as en, en-US or fr_FR")
    kw["locale"] = locale
    timezone = r.string("timezone", "UTC" if cloud_timed else "")
    if timezone and not _valid_timezone(timezone):
        r.invalid(
            "timezone",
            timezone,
            "must be a timezone ID such as UTC, Europe/Paris or a fixed offset like +02:00",
        )
    elif timed and not timezone:
        r.missing("timezone", f"a timezone ID such as UTC or Europe/Paris ({what})")
    kw["timezone"] = timezone
    if pending_pattern is not None:
        problem = _check_joda_pattern(pending_pattern, timezone, locale)
        if problem:
            r.invalid("path.format", pending_pattern, problem)
    if kw["rotate_schedule_interval_ms"] > 0 and not timezone:
        r.problems.append(
            "timezone configuration must be set when using rotate.schedule.interval.ms"
        )
    if cloud_timed and interval_ms is not None and not r.has("rotate.interval.ms"):
        kw["rotate_interval_ms"] = interval_ms  # Cloud: defaults to the time.interval
    kw["timestamp_field"] = r.string("timestamp.field", "timestamp")
    default_extractor = "Wallclock"
    if cloud_timed:
        default_extractor = "RecordField" if r.has("timestamp.field") else "Record"
    extractor = r.get("timestamp.extractor")
    kw["timestamp_extractor"] = default_extractor
    if extractor is not None:
        resolved = next(
            (
                short
                for short, cls in TIMESTAMP_EXTRACTOR_CLASSES.items()
                if extractor.strip() in (short, cls)
            ),
            None,
        )
        if resolved is None:
            r.invalid(
                "timestamp.extractor", extractor, "must be one of Wallclock, Record, RecordField"
            )
        else:
            kw["timestamp_extractor"] = resolved
    if kw["timestamp_extractor"] == "RecordField" and not kw["timestamp_field"]:
        r.invalid("timestamp.field", "", "must name a field for the RecordField extractor")
    kw["behavior_on_null_values"] = r.choice(
        "behavior.on.null.values", "fail", ("fail", "ignore", "write")
    )
    kw["schema_compatibility"] = r.choice(
        "schema.compatibility", "NONE", ("NONE", "BACKWARD", "FORWARD", "FULL")
    )


def _valid_timezone(tz: str) -> bool:
    """Joda's ``DateTimeZone.forID``: ``UTC``, tz database IDs and fixed ``[+-]hh:mm`` offsets."""
    try:
        JodaZone.for_id(tz)
    except ValueError:
        return False
    return True


def _check_joda_pattern(pattern: str, timezone: str, locale: str) -> str | None:
    """Return why ``pattern`` cannot be formatted as Joda's ``DateTimeFormat`` would, or None."""
    try:
        validate_pattern(pattern)
    except ValueError as exc:
        return f"{exc} (quote literal text with '')"
    if timezone and locale and _valid_timezone(timezone):
        try:
            JodaFormatter(pattern, timezone, locale)
        except ValueError as exc:
            return str(exc)
    return None


def _read_converters(r: _Reader, kw: dict[str, Any]) -> None:
    sr_converters: set[str] = set()
    allowed = (
        f"must be one of {', '.join(SINK_CONVERTER_CLASSES)} or their converter classes "
        f"({', '.join(SINK_CONVERTER_CLASSES.values())})"
    )
    for side in ("key", "value"):
        key = f"{side}.converter"
        kw[key.replace(".", "_")] = "json"
        value = r.get(key)
        if value is None:
            continue
        short = _resolve_class(value, SINK_CONVERTER_CLASSES)
        if short is not None:
            kw[key.replace(".", "_")] = short
            if short in REGISTRY_CONVERTER_CLASSES:
                sr_converters.add(side)
        else:
            r.invalid(key, value, allowed)
    idf = r.get("input.data.format")
    value_schemas_default = True
    if idf is not None:
        mapped = _CLOUD_INPUTS.get(idf.strip().upper())
        if mapped is None:
            r.invalid(
                "input.data.format",
                idf,
                "must be one of AVRO, JSON_SR, PROTOBUF, JSON, STRING, BYTES",
            )
        elif r.has("value.converter") and kw["value_converter"] != mapped:
            r.problems.append(
                f"input.data.format={idf.strip()} and value.converter="
                f"{_raw_or(r, 'value.converter').strip()} disagree: set only one of them"
            )
        else:
            kw["value_converter"] = mapped
            value_schemas_default = mapped != "json"  # Cloud's JSON input is schemaless
            if mapped in REGISTRY_CONVERTER_CLASSES:
                sr_converters.add("value")
    kw["key_converter_schemas_enable"] = r.boolean("key.converter.schemas.enable", True)
    kw["value_converter_schemas_enable"] = r.boolean(
        "value.converter.schemas.enable", value_schemas_default
    )
    for side in sorted(sr_converters):
        kw[f"{side}_converter_registry"] = _read_registry(r, side, kw[f"{side}_converter"])
    for side in ("key", "value"):
        prefix = f"{side}.converter."
        for key in [k for k in r.raw if k.startswith(prefix) and k not in r.used]:
            suffix = key[len(prefix) :]
            value = r.get(key) or ""
            if side in sr_converters and suffix in _SR_CONVERTER_DEFAULTS:
                if value.strip().lower() != _SR_CONVERTER_DEFAULTS[suffix].lower():
                    r.later(key, value, f"only the default {_SR_CONVERTER_DEFAULTS[suffix]}")
            elif side in sr_converters or suffix == "schemas.cache.size":
                r.ignored.append(key)
            elif suffix in _JSON_CONVERTER_LATER:
                if value.strip().lower() != _JSON_CONVERTER_LATER[suffix]:
                    r.later(key, value, "only the JsonConverter default is supported")
            elif suffix.startswith(("schema.registry.", "basic.auth.")):
                r.ignored.append(key)  # the converter is not a Schema Registry one
            else:
                r.used.discard(key)  # reported as unknown


def _read_registry(r: _Reader, side: str, converter: str) -> RegistrySettings | None:
    """``<side>.converter.schema.registry.url`` and basic auth of a Schema Registry converter."""
    prefix = f"{side}.converter."
    what = f"for {SINK_CONVERTER_CLASSES[converter]}"
    url = r.optional(prefix + "schema.registry.url")
    if url is None:
        r.missing(prefix + "schema.registry.url", f"the Schema Registry base URL {what}")
        return None
    if not all(re.match(r"^https?://\S+$", u.strip()) for u in url.split(",")):
        r.invalid(prefix + "schema.registry.url", display_url(url), "must be http(s) URLs")
    source = r.choice(
        prefix + "basic.auth.credentials.source", "URL", ("URL", "USER_INFO", "SASL_INHERIT")
    )
    if source == "SASL_INHERIT":
        r.later(prefix + "basic.auth.credentials.source", source, "only URL and USER_INFO")
    user_info = r.optional(prefix + "basic.auth.user.info")
    if source == "USER_INFO":
        if user_info is None:
            r.missing(prefix + "basic.auth.user.info", f"user:password with USER_INFO {what}")
        elif ":" not in user_info:
            r.invalid(prefix + "basic.auth.user.info", user_info, "must be user:password")
        elif "@" in url.split("//", 1)[-1].split("/", 1)[0]:
            r.problems.append(
                f"{prefix}schema.registry.url has user info and "
                f"{prefix}basic.auth.credentials.source=USER_INFO: keep the credentials in one "
                "place"
            )
    elif user_info is not None:
        r.ignored.append(prefix + "basic.auth.user.info")
    return RegistrySettings(url=url, credentials_source=source, user_info=user_info)


def _read_keys_headers(r: _Reader, kw: dict[str, Any]) -> None:
    """``store.kafka.keys`` / ``store.kafka.headers`` and their formats, validated as
    S3SinkConnectorConfig and S3SinkConnectorValidator do (headers cannot be ByteArray; gzip
    only with json/bytearray; tombstones need keys)."""
    kw["store_kafka_keys"] = r.boolean("store.kafka.keys", False)
    kw["store_kafka_headers"] = r.boolean("store.kafka.headers", False)
    gzip = kw.get("s3_compression_type") == "gzip"
    for side, allowed in (
        ("keys", ("avro", "json", "parquet", "bytearray")),
        ("headers", ("avro", "json", "parquet")),
    ):
        key = f"{side}.format.class"
        kw[f"{side}_format"] = "avro"
        value = r.get(key)
        if value is not None:
            short = _resolve_class(value, FORMAT_CLASSES)
            if short is None or short not in allowed:
                why = " (ByteArrayFormat cannot hold headers)" if short == "bytearray" else ""
                r.invalid(
                    key,
                    value,
                    "must be one of "
                    + ", ".join(f"{a} ({FORMAT_CLASSES[a]})" for a in allowed)
                    + why,
                )
            else:
                kw[f"{side}_format"] = short
        if gzip and kw[f"store_kafka_{side}"] and kw[f"{side}_format"] not in ("json", "bytearray"):
            r.problems.append(
                f"Compression Type gzip not valid for {side} format class: "
                f"( {FORMAT_CLASSES[kw[f'{side}_format']]} ): set {key} to json or bytearray, "
                "or s3.compression.type=none"
            )
    kw["tombstone_encoded_partition"] = r.string("tombstone.encoded.partition", "tombstone")
    if kw["behavior_on_null_values"] == "write":
        if not kw["store_kafka_keys"]:
            r.problems.append(
                "behavior.on.null.values=write needs store.kafka.keys=true: Writing Kafka record "
                "keys to storage is mandatory when tombstone writing is enabled."
            )
        if not kw["tombstone_encoded_partition"]:
            r.invalid("tombstone.encoded.partition", "", "must not be empty")


def _read_later(r: _Reader) -> None:
    for key, (default, what) in _LATER.items():
        value = r.get(key)
        if value is None:
            continue
        text = value.strip().lower()
        if default is not None and text == default.lower():
            continue
        if default is None and not text:
            continue
        r.later(key, value, f"{what} comes in a later release")
    for key in r.raw:
        if key.startswith(_LATER_PREFIXES):
            r.used.add(key)
