"""The S3 source's connector config: Confluent S3 source keys in, one typed SourceConfig out.

It reads the sink's key groups (S3, layout, format, partitioner, Kafka, topics), so a sink
config works with minor changes: keys that only steer writing (``rotate.*``, codecs,
``s3.part.size``, ...) are accepted and listed in :attr:`SourceConfig.ignored_keys`.

Source keys: ``behavior.on.error`` (fail | ignore | log), ``s3.poll.interval.ms``, RegexRouter
``transforms.*`` and ``value.converter`` / ``key.converter`` (how records are serialized back).
Our own keys: ``kafka.bootstrap.servers`` and ``kafka.*`` (Java Kafka producer properties, which
the source's librdkafka producer takes as :func:`~s3connect.kafka.librdkafka.producer_props`
names them), ``checkpoint.location``, ``trigger``, ``max.objects.per.trigger``, ``topic.prefix``
(the default renaming, ``copy_of_``), ``source.allow.same.topic`` (allow writing back into the
source topic), ``topic.creation.enable`` / ``topic.creation.default.replication.factor``
(creating missing destination topics), ``topics`` / ``topics.regex`` (read only these source
topics) and ``flush.size`` (when given: no object may hold more records, used to detect
ByteArray records that contain the separator).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

from s3connect.config.converters import SourceConvertersConfig
from s3connect.config.format import FormatConfig
from s3connect.config.kafka import KafkaConfig, TopicsConfig
from s3connect.config.layout import LayoutConfig
from s3connect.config.masking import masked as mask
from s3connect.config.parsing import Overrides, load_config_file, raw_config
from s3connect.config.partitioner import PartitionerConfig
from s3connect.config.providers import SecretLookup
from s3connect.config.reader import INT_MAX, KeyReader
from s3connect.config.routing import DestinationConfig, RoutingConfig
from s3connect.config.s3 import S3Config, read_sse
from s3connect.config.streaming import StreamingConfig
from s3connect.storage.s3 import S3Settings

__all__ = ["NO_EFFECT_KEYS", "SOURCE_CONNECTOR_CLASS", "SourceConfig"]

SOURCE_CONNECTOR_CLASS = "io.confluent.connect.s3.source.S3SourceConnector"

NO_EFFECT_KEYS = frozenset(
    {
        "tasks.max",
        "tasks.max.enforce",
        "storage.class",
        "config.action.reload",
        "header.converter",
        "shutdown.timeout.ms",
        "s3.part.size",
        "s3.wan.mode",
        "s3.acl.canned",
        "s3.compression.type",
        "s3.compression.level",
        "avro.codec",
        "parquet.codec",
        "compression.codec",
        "filename.offset.zero.pad.width",
        "rotate.interval.ms",
        "rotate.schedule.interval.ms",
        "schema.compatibility",
        "schema.cache.size",
        "behavior.on.null.values",
        "enhanced.avro.schema.support",
        "connect.meta.data",
        "json.decimal.format",
        "path.format",
        "partition.duration.ms",
        "partition.field.name",
        "locale",
        "timezone",
        "timestamp.extractor",
        "timestamp.field",
        "starting.offsets",
        "max.offsets.per.trigger",
        "commit.log.table",
        "store.kafka.keys",
        "store.kafka.headers",
        "keys.format.class",
        "headers.format.class",
        "confluent.license",
        "enable.conditional.writes",
        "s3.object.tagging",
        "s3.object.tagging.key.value.pairs",
        "s3.object.behavior.on.tagging.error",
        "s3.sse.kms.key.id",
        "rotate.file.on.partition.change",
        "partitioner.max.open.files",
        "max.write.duration.ms",
        "report.null.values.to.dlq",
        "s3.schema.partition.affix.type",
        "allow.optional.map.keys",
        "schemas.cache.config",
        "schema.generator.class",
        "errors.tolerance",
        "errors.log.enable",
        "errors.log.include.messages",
        "retry.backoff.ms",
        "s3.send.digest",
        "s3.http.send.expect.continue",
        "s3.elastic.buffer.enable",
        "s3.elastic.buffer.init.capacity",
        "tombstone.encoded.partition",
        "record.batch.max.size",
    }
)
"""Sink or Kafka Connect keys a copied sink config carries, and Confluent's source's
``record.batch.max.size`` (a micro-batch is what the trigger reads); they have no effect on
reading (and are not described)."""
_NO_EFFECT_PREFIXES = ("confluent.topic.", "consumer.override.")


@dataclass(frozen=True, kw_only=True, repr=False)
class SourceConfig:
    """A validated S3 source connector config; build it with :meth:`from_mapping`."""

    name: str = "S3-source"
    kafka: KafkaConfig
    streaming: StreamingConfig
    s3: S3Config
    layout: LayoutConfig = field(default_factory=LayoutConfig)
    format: FormatConfig
    partitioner: PartitionerConfig = field(default_factory=PartitionerConfig)
    behavior_on_error: Literal["fail", "ignore", "log"] = "fail"
    destinations: DestinationConfig = field(default_factory=DestinationConfig)
    converters: SourceConvertersConfig = field(default_factory=SourceConvertersConfig)
    flush_size: int | None = None
    """When set, no object may hold more records (detects separators inside ByteArray records)."""
    sse_customer_key: str | None = field(default=None, repr=False)
    """``s3.sse.customer.key`` with ``s3.ssea.name=AES256``: the objects were written with SSE-C
    and every read sends the key (base64, secret)."""
    topics: TopicsConfig = field(default_factory=TopicsConfig)
    routing: RoutingConfig = field(default_factory=RoutingConfig)
    ignored_keys: tuple[str, ...] = field(default=(), compare=False)

    def __reduce__(self) -> tuple[Any, tuple[dict[str, str]]]:
        # Pickled (to Spark's Python workers) as its effective config, validated again there.
        return (SourceConfig.from_mapping, (self.describe(masked=False),))

    @classmethod
    def from_mapping(
        cls,
        mapping: Mapping[str, object],
        overrides: Overrides = None,
        *,
        secret_lookup: SecretLookup | None = None,
    ) -> SourceConfig:
        """Validate a connector config (flat dict) plus overrides (``--set`` / widgets).

        Raises:
            ConfigError: listing every invalid, missing or unknown key.
        """
        reader = KeyReader(raw_config(mapping, overrides, secret_lookup))
        config = cls.read(reader)
        reader.finish("source connector config", "Confluent S3 source/sink or s3connect")
        return config

    @classmethod
    def from_file(
        cls,
        path: str | Path,
        overrides: Overrides = None,
        *,
        secret_lookup: SecretLookup | None = None,
    ) -> SourceConfig:
        """Load a JSON or ``.properties`` file and validate it (see :meth:`from_mapping`)."""
        return cls.from_mapping(load_config_file(path), overrides, secret_lookup=secret_lookup)

    @classmethod
    def read(cls, r: KeyReader) -> SourceConfig:
        """Read every key group from ``r``; problems are collected in it, not raised."""
        name = r.connector_name("S3-source")
        connector = r.get("connector.class")
        allowed_connectors = (SOURCE_CONNECTOR_CLASS, "S3SourceConnector", "S3_SOURCE")
        if connector is not None and connector.strip() not in allowed_connectors:
            r.invalid("connector.class", connector, f"must be {SOURCE_CONNECTOR_CLASS}")
        streaming = StreamingConfig.read_source(r)
        behavior = r.choice("behavior.on.error", "fail", ("fail", "ignore", "log"))
        flush_size = r.integer("flush.size", None, 1, INT_MAX, "must be an integer > 0")
        topics = TopicsConfig.read(r, subscribe=False)
        kafka = KafkaConfig.read_producer(r)
        destinations = DestinationConfig.read(r)
        s3, layout = S3Config.read(r), LayoutConfig.read(r)
        ssea, _, customer_key = read_sse(r)
        fmt, partitioner = FormatConfig.read_source(r), PartitionerConfig.read_source(r)
        routing = RoutingConfig.read(r, allow_same_topic=destinations.allow_same_topic)
        converters = SourceConvertersConfig.read(r)
        for key in r.raw:
            if key in NO_EFFECT_KEYS or key.startswith(_NO_EFFECT_PREFIXES):
                r.used.add(key)
                r.ignore(key)
        return cls(
            name=name,
            kafka=kafka,
            streaming=streaming,
            s3=s3,
            layout=layout,
            format=fmt,
            partitioner=partitioner,
            behavior_on_error=cast(Literal["fail", "ignore", "log"], behavior),
            destinations=destinations,
            converters=converters,
            flush_size=flush_size,
            sse_customer_key=customer_key if ssea == "AES256" else None,
            topics=topics,
            routing=routing,
            ignored_keys=r.ignored_keys(),
        )

    def destination(self, topic: str) -> str | None:
        """The topic ``topic``'s records are published to (transforms, else ``topic.prefix``);
        None when the transforms choose it record by record."""
        return self.routing.destination(topic)

    def wants_topic(self, topic: str) -> bool:
        """Whether objects of source ``topic`` are read (``topics`` / ``topics.regex``)."""
        return self.topics.matches(topic)

    def s3_settings(self) -> S3Settings:
        """Where the objects are read from."""
        return S3Settings(
            bucket=self.s3.bucket_name,
            region=self.s3.region,
            endpoint_url=self.s3.store_url,
            path_style=self.s3.path_style_access,
            access_key_id=self.s3.access_key_id,
            secret_access_key=self.s3.secret_access_key,
            part_retries=self.s3.part_retries,
            retry_backoff_ms=self.s3.retry_backoff_ms,
            assume_role=self.s3.assume_role(),
            proxy=self.s3.proxy,
            sse_algorithm="AES256" if self.sse_customer_key else "",
            sse_customer_key=self.sse_customer_key,
        )

    def producer_options(self) -> dict[str, str]:
        """Kafka producer properties (no prefix): order-preserving, idempotent by default, and
        batching (``linger.ms``/``batch.size``) for throughput; ``kafka.*`` keys override."""
        options = {
            "bootstrap.servers": self.kafka.bootstrap_servers,
            "enable.idempotence": "true",
            "acks": "all",
            "linger.ms": "20",
            "batch.size": "1048576",
        }
        options.update(self.kafka.options)
        return options

    def describe(self, masked: bool = True) -> dict[str, str]:
        """The effective config under its key names; ``from_mapping`` of it gives it back.

        Args:
            masked: Show secret values as ``[hidden]``.
        """
        d = {"name": self.name, "connector.class": SOURCE_CONNECTOR_CLASS}
        for part in (
            self.kafka.describe(),
            self.streaming.describe(),
            self.s3.describe(),
            self.layout.describe(),
            self.format.describe(),
            self.partitioner.describe(),
            {"behavior.on.error": self.behavior_on_error},
            self.destinations.describe(),
            self.converters.describe(),
            {} if self.flush_size is None else {"flush.size": str(self.flush_size)},
            {}
            if self.sse_customer_key is None
            else {"s3.ssea.name": "AES256", "s3.sse.customer.key": self.sse_customer_key},
            self.topics.describe(),
            self.routing.describe(),
        ):
            d.update(part)
        d = {k: v for k, v in d.items() if k not in NO_EFFECT_KEYS}
        return mask(d) if masked else d

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v!r}" for k, v in self.describe(masked=True).items())
        return f"SourceConfig({body})"

    __str__ = __repr__
