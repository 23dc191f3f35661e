"""The sink's connector config: Confluent S3 sink keys in, one typed, immutable SinkConfig out.

Keys, defaults and class names follow Confluent's ``S3SinkConnectorConfig``,
``StorageSinkConnectorConfig``, ``StorageCommonConfig`` and ``PartitionerConfig``; Confluent
Cloud's keys (``output.data.format``, ``time.interval``, ...) are mapped onto them. Each group of
keys is read, validated and described by its own config class; :class:`SinkConfig` composes them.

Our own keys (no Confluent equivalent): ``kafka.bootstrap.servers`` and every other ``kafka.*``
key (Kafka consumer properties, handed to Spark's Kafka source as ``kafka.<property>``),
``starting.offsets``, ``checkpoint.location``, ``trigger``, ``max.offsets.per.trigger``,
``commit.log.table``, ``sts.endpoint.url`` and ``dlq.table``.

Validation collects every problem and raises one :class:`~s3connect.errors.ConfigError` naming
each key, its value and what is allowed. Secret values never appear in messages or ``repr``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from s3connect.config.converters import ConvertersConfig
from s3connect.config.error_handling import ErrorsConfig
from s3connect.config.format import FormatConfig
from s3connect.config.kafka import KafkaConfig, TopicsConfig
from s3connect.config.keys_headers import KeysHeadersConfig
from s3connect.config.layout import LayoutConfig
from s3connect.config.masking import masked as mask
from s3connect.config.parsing import Overrides, load_config_file, raw_config
from s3connect.config.partitioner import PartitionerConfig
from s3connect.config.providers import SecretLookup
from s3connect.config.reader import KeyReader
from s3connect.config.registry import RegistryConfig
from s3connect.config.rotation import RotationConfig
from s3connect.config.s3 import S3Config, S3WriteConfig
from s3connect.config.streaming import StreamingConfig
from s3connect.config.transforms import TransformsConfig

__all__ = ["CONNECTOR_CLASS", "LATER_KEYS", "NO_EFFECT_KEYS", "STORAGE_CLASS", "SinkConfig"]

CONNECTOR_CLASS = "io.confluent.connect.s3.S3SinkConnector"
STORAGE_CLASS = "io.confluent.connect.s3.storage.S3Storage"

NO_EFFECT_KEYS = frozenset(
    {
        "tasks.max",
        "tasks.max.enforce",
        "config.action.reload",
        "retry.backoff.ms",
        "shutdown.timeout.ms",
        "s3.wan.mode",
        "s3.http.send.expect.continue",
        "s3.elastic.buffer.enable",
        "s3.elastic.buffer.init.capacity",
        "max.write.duration.ms",
        "schema.generator.class",
    }
)
"""Confluent keys accepted but without effect here (Kafka Connect runtime / AWS SDK tuning)."""

LATER_KEYS: Mapping[str, tuple[str | None, str]] = MappingProxyType({})
"""Keys of features that come in a later release -> (Confluent's default, the only value
accepted, None for any blank value; the feature)."""

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


@dataclass(frozen=True, kw_only=True, repr=False)
class SinkConfig:
    """A validated S3 sink connector config; build it with :meth:`from_mapping`.

    Each group's defaults are Confluent's. Direct construction does no validation (handy in
    tests); :meth:`from_mapping` validates everything.
    """

    name: str = "S3-sink"
    topics: TopicsConfig = field(default_factory=TopicsConfig)
    kafka: KafkaConfig
    streaming: StreamingConfig
    s3: S3WriteConfig
    layout: LayoutConfig = field(default_factory=LayoutConfig)
    format: FormatConfig
    rotation: RotationConfig
    partitioner: PartitionerConfig = field(default_factory=PartitionerConfig)
    keys_headers: KeysHeadersConfig = field(default_factory=KeysHeadersConfig)
    converters: ConvertersConfig = field(default_factory=ConvertersConfig)
    registry: RegistryConfig = field(default_factory=RegistryConfig)
    errors: ErrorsConfig = field(default_factory=ErrorsConfig)
    transforms: TransformsConfig = field(default_factory=TransformsConfig)
    ignored_keys: tuple[str, ...] = field(default=(), compare=False)
    """Keys that were accepted but have no effect here (for a warning)."""

    @classmethod
    def from_mapping(
        cls,
        mapping: Mapping[str, object],
        overrides: Overrides = None,
        *,
        secret_lookup: SecretLookup | None = None,
    ) -> SinkConfig:
        """Validate a connector config (flat dict) plus overrides applied on top.

        Args:
            mapping: Connector config keys to values (strings or JSON-like scalars).
            overrides: ``{key: value}`` or ``["key=value", ...]`` (``--set`` / widget values).
            secret_lookup: ``(scope, key) -> secret`` for ``${secrets:...}`` references
                (``dbutils.secrets.get``); None: the local places (see :mod:`.providers`).

        Raises:
            ConfigError: listing every invalid, missing, unknown or unsupported key.
        """
        reader = KeyReader(raw_config(mapping, overrides, secret_lookup))
        config = cls.read(reader)
        reader.finish("connector config", "Confluent S3 sink or s3connect")
        return config

    @classmethod
    def from_file(
        cls,
        path: str | Path,
        overrides: Overrides = None,
        *,
        secret_lookup: SecretLookup | None = None,
    ) -> SinkConfig:
        """Load a JSON or ``.properties`` file and validate it (see :meth:`from_mapping`)."""
        return cls.from_mapping(load_config_file(path), overrides, secret_lookup=secret_lookup)

    @classmethod
    def read(cls, r: KeyReader) -> SinkConfig:
        """Read every key group from ``r``; problems are collected in it, not raised."""
        cloud = (r.raw_text("connector.class").strip() == "S3_SINK") or bool(
            _CLOUD_ONLY_KEYS & r.raw.keys()
        )
        name = _read_connector(r)
        topics = TopicsConfig.read(r, subscribe=True)
        streaming = StreamingConfig.read_sink(r)
        kafka = KafkaConfig.read_consumer(r)
        s3 = S3Config.read(r)
        layout = LayoutConfig.read(r)
        s3_write = S3WriteConfig.read_onto(r, s3)
        fmt = FormatConfig.read(r)
        rotation = RotationConfig.read(r, cloud=cloud)
        partitioner = PartitionerConfig.read(
            r,
            directory_delim=layout.directory_delim,
            rotate_schedule_interval_ms=rotation.rotate_schedule_interval_ms,
            cloud=cloud,
        )
        converters = ConvertersConfig.read(r)
        registry = RegistryConfig.read(r, converters)
        keys_headers = KeysHeadersConfig.read(
            r,
            compression_type=fmt.compression_type,
            behavior_on_null_values=partitioner.behavior_on_null_values,
        )
        errors = ErrorsConfig.read(r, topics)
        if errors.dlq_topic:  # produced to by a Python (librdkafka) client
            kafka.check_python_client(r)
        transforms = TransformsConfig.read_sink(r, topics)
        _read_later(r)
        return cls(
            name=name,
            topics=topics,
            kafka=kafka,
            streaming=streaming,
            s3=s3_write,
            layout=layout,
            format=fmt,
            rotation=rotation,
            partitioner=partitioner,
            keys_headers=keys_headers,
            converters=converters,
            registry=registry,
            errors=errors,
            transforms=transforms,
            ignored_keys=r.ignored_keys(),
        )

    @property
    def format_class(self) -> str:
        """Confluent's class name of the format."""
        return self.format.class_name

    @property
    def partitioner_class(self) -> str:
        """Confluent's class name of the partitioner."""
        return self.partitioner.class_name

    @property
    def conditional_writes(self) -> bool:
        """Confluent's ``shouldEnableConditionalWrites()``: ``enable.conditional.writes``, a
        ``rotate.schedule.interval.ms`` other than -1, and neither keys nor headers stored."""
        return (
            self.s3.enable_conditional_writes
            and self.rotation.rotate_schedule_interval_ms != -1
            and not self.keys_headers.store_kafka_keys
            and not self.keys_headers.store_kafka_headers
        )

    def spark_kafka_options(self) -> dict[str, str]:
        """Options for ``spark.readStream.format("kafka")`` (real secret values included)."""
        options = {"kafka.bootstrap.servers": self.kafka.bootstrap_servers}
        options.update({f"kafka.{k}": v for k, v in self.kafka.options.items()})
        if self.topics.regex is not None:
            options["subscribePattern"] = self.topics.regex
        else:
            options["subscribe"] = ",".join(self.topics.names)
        options["startingOffsets"] = self.kafka.starting_offsets
        if self.streaming.max_offsets_per_trigger is not None:
            options["maxOffsetsPerTrigger"] = str(self.streaming.max_offsets_per_trigger)
        return options

    def describe(self, masked: bool = True) -> dict[str, str]:
        """The effective config under Confluent's key names (class names in full).

        Args:
            masked: Show secret values as ``[hidden]``.
        """
        d = {"name": self.name, "connector.class": CONNECTOR_CLASS}
        for part in (self.topics.describe(), self.kafka.describe(), self.streaming.describe()):
            d.update(part)
        d["storage.class"] = STORAGE_CLASS
        for part in (
            self.s3.describe(),
            self.layout.describe(),
            self.format.describe(),
            self.rotation.describe(),
            self.partitioner.describe(),
            self.keys_headers.describe(),
            self.converters.describe(),
            self.errors.describe(),
        ):
            d.update(part)
        d.update(self.registry.describe(masked))
        d.update(self.transforms.describe())
        return mask(d) if masked else d

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v!r}" for k, v in self.describe(masked=True).items())
        return f"SinkConfig({body})"

    __str__ = __repr__


def _read_connector(r: KeyReader) -> str:
    """``name``, ``connector.class``, ``storage.class`` and the keys without effect."""
    name = r.connector_name("S3-sink")
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
    for key in NO_EFFECT_KEYS:
        if r.get(key) is not None:
            r.ignore(key)
    _check_no_effect_types(r)
    return name


_TYPED_NO_EFFECT = {
    "tasks.max.enforce": "boolean",
    "s3.http.send.expect.continue": "boolean",
    "s3.elastic.buffer.enable": "boolean",
    "retry.backoff.ms": "long",
    "shutdown.timeout.ms": "long",
}


def _check_no_effect_types(r: KeyReader) -> None:
    """Keys without effect still have Confluent's types and checks (a config Connect refuses is
    refused here too)."""
    if r.has("tasks.max"):
        r.ranged("tasks.max", 1, 1)
    reload = r.get("config.action.reload")
    if reload is not None and reload.strip() not in ("none", "restart"):  # ValidString.in
        r.invalid("config.action.reload", reload, "String must be one of: none, restart")
    for key, kind in _TYPED_NO_EFFECT.items():
        if r.has(key) and kind == "boolean":
            r.boolean(key, False)
        elif r.has(key):
            r.ranged(key, 0, kind="LONG")
    if r.has("s3.elastic.buffer.init.capacity"):
        r.ranged("s3.elastic.buffer.init.capacity", 131072, 4096)
    path_style = (r.peek("s3.path.style.access.enabled") or "true").strip().lower() != "false"
    if r.boolean("s3.wan.mode", False) and path_style:
        r.problem(  # S3SinkConnectorValidator.validateWanModeAndPathStyleCompatibility
            "s3.wan.mode, s3.path.style.access.enabled: Both accelerate mode and path style "
            "access are being enabled. These options are mutually exclusive and cannot be "
            "enabled together. Please disable one of them"
        )


def _read_later(r: KeyReader) -> None:
    """Keys of later features: accepted at Confluent's default only."""
    for key, (default, what) in LATER_KEYS.items():
        value = r.get(key)
        if value is None:
            continue
        text = value.strip().lower()
        if default is not None and text == default.lower():
            continue
        if default is None and not text:
            continue
        r.later(key, value, f"{what} comes in a later release")
