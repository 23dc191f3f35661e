"""The S3 source's connector config: Confluent S3 source keys in, one typed SourceConfig out.

It mirrors the sink's keys (``s3.bucket.name``, ``store.url``, ``topics.dir``, ``format.class``,
delimiters, ``partitioner.class``, ...), so a sink config works with minor changes: keys that
only steer writing (``flush.size`` aside, see below; ``rotate.*``, codecs, ``s3.part.size``) are
accepted and listed in :attr:`SourceConfig.ignored_keys`.

Source keys: ``behavior.on.error`` (fail | ignore | log), ``s3.poll.interval.ms``, RegexRouter
``transforms.*`` and ``value.converter`` / ``key.converter`` (how records are serialized back).
Our own keys: ``kafka.bootstrap.servers`` and ``kafka.*`` (Kafka producer properties for Spark's
Kafka sink), ``checkpoint.location``, ``trigger``, ``max.objects.per.trigger``, ``topic.prefix``
(the default renaming, ``copy_of_``), ``source.allow.same.topic`` (allow writing back into the
source topic), ``topic.creation.enable`` / ``topic.creation.default.replication.factor``
(creating missing destination topics), ``topics`` / ``topics.regex`` (read only these source
topics) and ``flush.size`` (when given: no object may hold more records, used to detect
ByteArray records that contain the separator).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from s3connect.config.sink import (
    CONVERTER_CLASSES,
    FORMAT_CLASSES,
    HIDDEN,
    PARTITIONER_CLASSES,
    _bool_text,
    _is_secret,
    _normalise,
    _overrides_mapping,
    _parse_trigger,
    _read_s3,
    _Reader,
    _resolve_class,
    load_config_file,
)
from s3connect.storage.s3 import S3Settings
from s3connect.transforms.regex_router import REGEX_ROUTER, RegexRoute

__all__ = ["SOURCE_CONNECTOR_CLASS", "SourceConfig"]

SOURCE_CONNECTOR_CLASS = "io.confluent.connect.s3.source.S3SourceConnector"
_INT_MAX = 2**31 - 1
_LONG_MAX = 2**63 - 1

# Sink or Kafka Connect keys a copied sink config carries; they have no effect on reading.
_NO_EFFECT_KEYS = frozenset(
    {
        "tasks.max",
        "storage.class",
        "config.action.reload",
        "header.converter",
        "shutdown.timeout.ms",
        "s3.part.size",
        "s3.wan.mode",
        "s3.ssea.name",
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
        "errors.tolerance",
        "errors.log.enable",
        "errors.log.include.messages",
    }
)
_NO_EFFECT_PREFIXES = ("confluent.topic.", "s3.credentials.provider.", "consumer.override.")
# Producer properties Spark's Kafka sink sets itself.
_SPARK_MANAGED = frozenset({"key.serializer", "value.serializer"})
_TOPIC_RE = re.compile(r"^[a-zA-Z0-9._-]{0,249}$")


@dataclass(frozen=True, kw_only=True, repr=False)
class SourceConfig:
    """A validated S3 source connector config; build it with :meth:`from_mapping`."""

    name: str = "S3-source"
    kafka_bootstrap_servers: str
    kafka_options: Mapping[str, str] = field(default_factory=dict)
    """Kafka producer properties (``kafka.`` prefix stripped), e.g. ``security.protocol``."""
    checkpoint_location: str
    trigger: str = "availableNow"
    trigger_interval_ms: int | None = None
    max_objects_per_trigger: int | None = None
    s3_bucket_name: str
    s3_region: str = "us-west-2"
    store_url: str | None = None
    s3_path_style_access: bool = True
    aws_access_key_id: str | None = None
    aws_secret_access_key: str | None = None
    s3_part_retries: int = 3
    s3_retry_backoff_ms: int = 200
    topics_dir: str = "topics"
    directory_delim: str = "/"
    file_delim: str = "+"
    format: Literal["avro", "json", "parquet", "bytearray"]
    format_bytearray_extension: str = ".bin"
    format_bytearray_separator: str = "\n"
    partitioner: Literal["default", "field", "time", "daily", "hourly"] = "default"
    flush_size: int | None = None
    topics: tuple[str, ...] = ()
    topics_regex: str | None = None
    behavior_on_error: Literal["fail", "ignore", "log"] = "fail"
    transforms: tuple[RegexRoute, ...] = ()
    topic_prefix: str = "copy_of_"
    allow_same_topic: bool = False
    topic_creation_enable: bool = True
    topic_replication_factor: int = -1
    key_converter: Literal["json", "string", "bytearray"] = "json"
    value_converter: Literal["json", "string", "bytearray"] = "json"
    key_converter_schemas_enable: bool = True
    value_converter_schemas_enable: bool = True
    value_converter_decimal_format: str = "BASE64"
    ignored_keys: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.kafka_options, MappingProxyType):
            object.__setattr__(self, "kafka_options", MappingProxyType(dict(self.kafka_options)))

    def __reduce__(self) -> tuple[Any, tuple[dict[str, str]]]:
        # Pickled (to Spark's Python workers) as its effective config, validated again there.
        return (SourceConfig.from_mapping, (self.describe(masked=False),))

    @classmethod
    def from_mapping(
        cls,
        mapping: Mapping[str, object],
        overrides: Mapping[str, object] | Iterable[str] | None = None,
    ) -> SourceConfig:
        """Validate a connector config (flat dict) plus overrides (``--set`` / widgets).

        Raises:
            ConfigError: listing every invalid, missing or unknown key.
        """
        raw = _normalise(mapping)
        raw.update(_normalise(_overrides_mapping(overrides)))
        return _build(raw)

    @classmethod
    def from_file(
        cls, path: str | Path, overrides: Mapping[str, object] | Iterable[str] | None = None
    ) -> SourceConfig:
        """Load a JSON or ``.properties`` file and validate it (see :meth:`from_mapping`)."""
        return cls.from_mapping(load_config_file(path), overrides)

    # ----------------------------------------------------------------------------- derived

    def destination(self, topic: str) -> str:
        """The topic ``topic``'s records are published to (transforms, else ``topic.prefix``)."""
        if not self.transforms:
            return self.topic_prefix + topic
        for route in self.transforms:
            topic = route.apply(topic)
        return topic

    def wants_topic(self, topic: str) -> bool:
        """Whether objects of source ``topic`` are read (``topics`` / ``topics.regex``)."""
        if self.topics:
            return topic in self.topics
        if self.topics_regex is not None:
            return re.fullmatch(self.topics_regex, topic) is not None
        return True

    def s3_settings(self) -> S3Settings:
        """Where the objects are read from."""
        return S3Settings(
            bucket=self.s3_bucket_name,
            region=self.s3_region,
            endpoint_url=self.store_url,
            path_style=self.s3_path_style_access,
            access_key_id=self.aws_access_key_id,
            secret_access_key=self.aws_secret_access_key,
            part_retries=self.s3_part_retries,
            retry_backoff_ms=self.s3_retry_backoff_ms,
        )

    def producer_options(self) -> dict[str, str]:
        """Kafka producer properties (no prefix): order-preserving, idempotent by default, and
        batching (``linger.ms``/``batch.size``) for throughput; ``kafka.*`` keys override."""
        options = {
            "bootstrap.servers": self.kafka_bootstrap_servers,
            "enable.idempotence": "true",
            "acks": "all",
            "linger.ms": "20",
            "batch.size": "1048576",
        }
        options.update(self.kafka_options)
        return options

    def spark_kafka_options(self) -> dict[str, str]:
        """Options for ``writeStream.format("kafka")`` (real secret values included)."""
        return {f"kafka.{k}": v for k, v in self.producer_options().items()}

    def describe(self, masked: bool = True) -> dict[str, str]:
        """The effective config under its key names; ``from_mapping`` of it gives it back."""
        d: dict[str, str] = {
            "name": self.name,
            "connector.class": SOURCE_CONNECTOR_CLASS,
            "kafka.bootstrap.servers": self.kafka_bootstrap_servers,
        }
        d.update({f"kafka.{k}": v for k, v in self.kafka_options.items()})
        d["checkpoint.location"] = self.checkpoint_location
        d["trigger"] = self.trigger
        if self.max_objects_per_trigger is not None:
            d["max.objects.per.trigger"] = str(self.max_objects_per_trigger)
        d["s3.bucket.name"] = self.s3_bucket_name
        d["s3.region"] = self.s3_region
        if self.store_url is not None:
            d["store.url"] = self.store_url
        d["s3.path.style.access.enabled"] = _bool_text(self.s3_path_style_access)
        if self.aws_access_key_id is not None:
            d["aws.access.key.id"] = self.aws_access_key_id
        if self.aws_secret_access_key is not None:
            d["aws.secret.access.key"] = self.aws_secret_access_key
        d.update(
            {
                "s3.part.retries": str(self.s3_part_retries),
                "s3.retry.backoff.ms": str(self.s3_retry_backoff_ms),
                "topics.dir": self.topics_dir,
                "directory.delim": self.directory_delim,
                "file.delim": self.file_delim,
                "format.class": FORMAT_CLASSES[self.format],
                "format.bytearray.extension": self.format_bytearray_extension,
                "format.bytearray.separator": self.format_bytearray_separator,
                "partitioner.class": PARTITIONER_CLASSES[self.partitioner],
                "behavior.on.error": self.behavior_on_error,
                "source.allow.same.topic": _bool_text(self.allow_same_topic),
                "topic.creation.enable": _bool_text(self.topic_creation_enable),
                "topic.creation.default.replication.factor": str(self.topic_replication_factor),
                "key.converter": CONVERTER_CLASSES[self.key_converter],
                "key.converter.schemas.enable": _bool_text(self.key_converter_schemas_enable),
                "value.converter": CONVERTER_CLASSES[self.value_converter],
                "value.converter.schemas.enable": _bool_text(self.value_converter_schemas_enable),
                "value.converter.decimal.format": self.value_converter_decimal_format,
            }
        )
        if self.flush_size is not None:
            d["flush.size"] = str(self.flush_size)
        if self.topics:
            d["topics"] = ",".join(self.topics)
        if self.topics_regex is not None:
            d["topics.regex"] = self.topics_regex
        if not self.transforms:
            d["topic.prefix"] = self.topic_prefix
        else:
            aliases = [f"route{i}" for i in range(len(self.transforms))]
            d["transforms"] = ",".join(aliases)
            for alias, route in zip(aliases, self.transforms, strict=True):
                d[f"transforms.{alias}.type"] = REGEX_ROUTER
                d[f"transforms.{alias}.regex"] = route.regex
                d[f"transforms.{alias}.replacement"] = route.replacement
        if masked:
            d = {k: (HIDDEN if _is_secret(k) else v) for k, v in d.items()}
        return d

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v!r}" for k, v in self.describe(masked=True).items())
        return f"SourceConfig({body})"

    __str__ = __repr__


# --------------------------------------------------------------------------- validation


def _build(raw: dict[str, str]) -> SourceConfig:
    r = _Reader(raw)
    kw: dict[str, Any] = {}
    _read_framework(r, kw)
    _read_kafka(r, kw)
    sink_kw: dict[str, Any] = {}
    _read_s3(r, sink_kw)  # the sink's S3 keys, validated the same way
    for key in (
        "s3_bucket_name",
        "s3_region",
        "store_url",
        "s3_path_style_access",
        "aws_access_key_id",
        "aws_secret_access_key",
        "s3_part_retries",
        "s3_retry_backoff_ms",
        "topics_dir",
        "directory_delim",
        "file_delim",
    ):
        kw[key] = sink_kw[key]
    _read_format(r, kw)
    _read_routing(r, kw)
    _read_converters(r, kw)
    for key in raw:
        if key in _NO_EFFECT_KEYS or key.startswith(_NO_EFFECT_PREFIXES):
            r.used.add(key)
            r.ignored.append(key)
    kw["ignored_keys"] = r.finish(
        "source connector config", "Confluent S3 source/sink or s3connect"
    )
    return SourceConfig(**kw)


def _read_framework(r: _Reader, kw: dict[str, Any]) -> None:
    kw["name"] = r.string("name", "S3-source") or "S3-source"
    connector = r.get("connector.class")
    allowed_connectors = (SOURCE_CONNECTOR_CLASS, "S3SourceConnector", "S3_SOURCE")
    if connector is not None and connector.strip() not in allowed_connectors:
        r.invalid("connector.class", connector, f"must be {SOURCE_CONNECTOR_CLASS}")
    checkpoint = r.optional("checkpoint.location")
    if checkpoint is None:
        r.missing("checkpoint.location", "a directory for Spark's streaming checkpoint")
    kw["checkpoint_location"] = checkpoint or ""
    trigger, poll = r.get("trigger"), r.get("s3.poll.interval.ms")
    kw["trigger"], kw["trigger_interval_ms"] = "availableNow", None
    if trigger is not None and poll is not None:
        r.problems.append(
            f"trigger={trigger.strip()} and s3.poll.interval.ms={poll.strip()} are both set: "
            "set only one of them"
        )
    elif trigger is not None:
        parsed = _parse_trigger(trigger)
        if parsed is None:
            r.invalid(
                "trigger",
                trigger,
                'must be "availableNow" or an interval such as "30 seconds", "30s", "500ms"',
            )
        else:
            kw["trigger"], kw["trigger_interval_ms"] = parsed
    elif poll is not None:
        ms = r.integer("s3.poll.interval.ms", None, 1, _LONG_MAX, "must be an integer > 0 (ms)")
        if ms is not None:
            kw["trigger"], kw["trigger_interval_ms"] = _parse_trigger(f"{ms}ms") or (None, None)
    kw["max_objects_per_trigger"] = r.integer(
        "max.objects.per.trigger", None, 1, _INT_MAX, "must be an integer > 0"
    )
    kw["behavior_on_error"] = r.choice("behavior.on.error", "fail", ("fail", "ignore", "log"))
    kw["flush_size"] = r.integer("flush.size", None, 1, _INT_MAX, "must be an integer > 0")
    topics = r.optional("topics")
    regex = r.optional("topics.regex")
    if topics is not None and regex is not None:
        r.problems.append("topics and topics.regex are both set: set at most one of them")
    elif topics is not None:
        kw["topics"] = tuple(t.strip() for t in topics.split(",") if t.strip())
    elif regex is not None:
        try:
            re.compile(regex)
        except re.error as exc:
            r.invalid("topics.regex", regex, f"must be a valid regular expression ({exc})")
        kw["topics_regex"] = regex


def _read_kafka(r: _Reader, kw: dict[str, Any]) -> None:
    servers = r.optional("kafka.bootstrap.servers")
    if servers is None:
        r.missing("kafka.bootstrap.servers", "a comma-separated list of host:port")
    kw["kafka_bootstrap_servers"] = servers or ""
    options: dict[str, str] = {}
    # producer.override.* (Kafka Connect's per-connector overrides) first, kafka.* wins.
    for prefix in ("producer.override.", "kafka."):
        for key in sorted(k for k in r.raw if k.startswith(prefix)):
            prop = key[len(prefix) :]
            if key == "kafka.bootstrap.servers":
                continue
            value = r.get(key) or ""
            if prop in _SPARK_MANAGED:
                r.invalid(key, value, "Spark's Kafka sink sets this property itself; remove it")
            elif prop == "bootstrap.servers":
                r.invalid(key, value, "set kafka.bootstrap.servers instead")
            else:
                options[prop] = value.strip()
    kw["kafka_options"] = options
    kw["topic_creation_enable"] = r.boolean("topic.creation.enable", True)
    kw["topic_replication_factor"] = r.integer(
        "topic.creation.default.replication.factor",
        -1,
        -1,
        32767,
        "must be -1 (the broker's default) or an integer > 0",
    )
    if kw["topic_replication_factor"] == 0:
        r.invalid("topic.creation.default.replication.factor", "0", "must be -1 or > 0")


def _read_format(r: _Reader, kw: dict[str, Any]) -> None:
    fc = r.get("format.class")
    fmt = None if fc is None else _resolve_class(fc, FORMAT_CLASSES)
    if fc is None:
        r.missing("format.class", "one of avro, json, parquet, bytearray or a Confluent class")
    elif fmt is None:
        r.invalid(
            "format.class",
            fc,
            "must be one of avro, json, parquet, bytearray or "
            + ", ".join(FORMAT_CLASSES.values()),
        )
    kw["format"] = fmt or "json"
    kw["format_bytearray_extension"] = r.string("format.bytearray.extension", ".bin")
    separator = r.string("format.bytearray.separator", "\n", strip=False)
    if fmt == "bytearray" and not separator:
        r.invalid(
            "format.bytearray.separator", "", "must not be empty: records could not be told apart"
        )
    kw["format_bytearray_separator"] = separator
    pc = r.get("partitioner.class")
    kw["partitioner"] = "default"
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
            kw["partitioner"] = resolved


def _read_routing(r: _Reader, kw: dict[str, Any]) -> None:
    prefix = r.string("topic.prefix", "copy_of_")
    if not _TOPIC_RE.match(prefix):
        r.invalid("topic.prefix", prefix, "must be legal in a topic name (letters, digits, ._-)")
    kw["topic_prefix"] = prefix
    kw["allow_same_topic"] = r.boolean("source.allow.same.topic", False)
    aliases = [a.strip() for a in (r.get("transforms") or "").split(",") if a.strip()]
    routes: list[RegexRoute] = []
    for alias in aliases:
        base = f"transforms.{alias}."
        kind = r.get(base + "type")
        regex, replacement = r.get(base + "regex"), r.get(base + "replacement")
        if kind is None:
            r.missing(base + "type", f"{REGEX_ROUTER} (the only transform supported)")
            continue
        if kind.strip() != REGEX_ROUTER:
            r.invalid(base + "type", kind, f"only {REGEX_ROUTER} is supported")
            continue
        if regex is None or replacement is None:
            missing = base + ("regex" if regex is None else "replacement")
            r.missing(missing, "RegexRouter needs regex and replacement")
            continue
        try:
            routes.append(RegexRoute(regex.strip(), replacement.strip()))
        except ValueError as exc:
            r.invalid(base + "regex/replacement", f"{regex} -> {replacement}", str(exc))
    if r.has("transforms") and r.has("topic.prefix") and routes:
        r.problems.append("transforms and topic.prefix are both set: set only one of them")
    for key in r.raw:
        if key.startswith(("transforms.", "predicates")) and key not in r.used:
            r.invalid(key, r.raw[key], "not part of a transform listed in transforms")
    kw["transforms"] = tuple(routes)
    if not routes and not prefix and not kw["allow_same_topic"]:
        r.invalid(
            "topic.prefix",
            "",
            "an empty prefix writes back into the source topics (a feedback loop with the "
            "sink); set source.allow.same.topic=true if that is intended",
        )


def _read_converters(r: _Reader, kw: dict[str, Any]) -> None:
    for side in ("key", "value"):
        key = f"{side}.converter"
        value = r.get(key)
        kw[f"{side}_converter"] = "json"
        if value is not None:
            short = _resolve_class(value, CONVERTER_CLASSES)
            if short is None:
                r.invalid(
                    key, value, "must be one of json, string, bytearray or their converter classes"
                )
            else:
                kw[f"{side}_converter"] = short
        kw[f"{side}_converter_schemas_enable"] = r.boolean(f"{key}.schemas.enable", True)
    kw["value_converter_decimal_format"] = r.choice(
        "value.converter.decimal.format", "BASE64", ("BASE64", "NUMERIC")
    )
    for key in (
        "key.converter.decimal.format",
        "key.converter.schemas.cache.size",
        "value.converter.schemas.cache.size",
    ):
        if r.get(key) is not None:
            r.ignored.append(key)
