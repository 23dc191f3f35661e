"""Kafka keys: ``kafka.bootstrap.servers``, the client properties, and ``topics`` /
``topics.regex``."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from s3connect.config.reader import KeyReader
from s3connect.errors import ConfigError
from s3connect.kafka.librdkafka import librdkafka_props

__all__ = ["KafkaConfig", "TopicsConfig", "legal_topic_name"]

_TOPIC_RE = re.compile(r"^[a-zA-Z0-9._-]{1,249}$")


def legal_topic_name(name: str) -> bool:
    """Whether Kafka accepts ``name`` as a topic name."""
    return bool(_TOPIC_RE.match(name)) and name not in (".", "..")


@dataclass(frozen=True)
class _Client:
    """How Spark's Kafka source (a consumer) or sink (a producer) takes client properties."""

    overrides: str
    """Kafka Connect's per-connector override prefix, read before ``kafka.*`` (which wins)."""
    own: frozenset[str]
    """Keys under those prefixes that are not client properties."""
    managed: frozenset[str]
    """Properties Spark sets itself (refused)."""
    client: str
    """The client that takes them, for messages."""
    offset_reset: bool
    """Whether ``auto.offset.reset`` is read (a consumer's: ``starting.offsets``' default)."""


_CONSUMER = _Client(
    "consumer.override.",
    frozenset({"kafka.bootstrap.servers", "kafka.api.key", "kafka.api.secret"}),
    frozenset(
        {"key.deserializer", "value.deserializer", "enable.auto.commit", "interceptor.classes"}
    ),
    "Spark's Kafka source",
    offset_reset=True,
)
_PRODUCER = _Client(
    "producer.override.",
    frozenset({"kafka.bootstrap.servers"}),
    frozenset({"key.serializer", "value.serializer"}),
    "the source's Kafka producer",
    offset_reset=False,
)


@dataclass(frozen=True, kw_only=True)
class KafkaConfig:
    """Where Kafka is and how to reach it: ``kafka.bootstrap.servers``, every other ``kafka.*``
    key (a client property), and the sink's ``starting.offsets``."""

    bootstrap_servers: str
    options: Mapping[str, str] = field(default_factory=dict, repr=False)
    """Client properties (``kafka.`` prefix stripped), e.g. ``security.protocol``."""
    starting_offsets: str = "earliest"
    """Where a new sink checkpoint starts (the source, a producer, leaves it)."""

    def __post_init__(self) -> None:
        if not isinstance(self.options, MappingProxyType):
            object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    @classmethod
    def read_consumer(cls, r: KeyReader) -> KafkaConfig:
        """The sink's keys: consumer properties, Confluent Cloud API keys, ``starting.offsets``."""
        servers = _servers(r)
        starting = r.optional("starting.offsets")
        options, reset = _client_options(r, _CONSUMER)
        api_key, api_secret = r.optional("kafka.api.key"), r.optional("kafka.api.secret")
        if (api_key is None) != (api_secret is None):
            r.problem("kafka.api.key and kafka.api.secret must be set together")
        elif api_key is not None and api_secret is not None:
            # Confluent Cloud API keys: SASL/PLAIN over TLS.
            options.setdefault("security.protocol", "SASL_SSL")
            options.setdefault("sasl.mechanism", "PLAIN")
            options.setdefault(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required "
                f'username="{api_key}" password="{api_secret}";',
            )
        return cls(
            bootstrap_servers=servers,
            options=options,
            starting_offsets=_starting_offsets(r, starting, reset),
        )

    @classmethod
    def read_producer(cls, r: KeyReader) -> KafkaConfig:
        """The source's keys: producer properties."""
        servers = _servers(r)
        options, _ = _client_options(r, _PRODUCER)
        config = cls(bootstrap_servers=servers, options=options)
        config.check_python_client(r)  # the source's topic checks
        return config

    def check_python_client(self, r: KeyReader) -> None:
        """Record a problem when librdkafka (the Python clients of the source's topic checks
        and the dead letter queue) cannot take these properties."""
        try:
            librdkafka_props(self.options)
        except ConfigError as exc:
            r.problem(str(exc))

    def describe(self) -> dict[str, str]:
        """The keys under their names."""
        d = {"kafka.bootstrap.servers": self.bootstrap_servers}
        d.update({f"kafka.{k}": v for k, v in self.options.items()})
        d["starting.offsets"] = self.starting_offsets
        return d


def _servers(r: KeyReader) -> str:
    servers = r.optional("kafka.bootstrap.servers")
    if servers is None:
        r.missing("kafka.bootstrap.servers", "a comma-separated list of host:port")
    return servers or ""


def _client_options(r: KeyReader, client: _Client) -> tuple[dict[str, str], str | None]:
    """The client properties, and a consumer's ``auto.offset.reset`` (not one of them)."""
    options: dict[str, str] = {}
    reset: str | None = None
    for prefix in (client.overrides, "kafka."):
        for key in sorted(k for k in r.raw if k.startswith(prefix)):
            prop = key[len(prefix) :]
            if key in client.own:
                continue
            value = r.get(key) or ""
            if prop == "auto.offset.reset" and client.offset_reset:
                if value.strip().lower() in ("earliest", "latest"):
                    reset = value.strip().lower()
                else:
                    r.invalid(key, value, "must be earliest or latest (or use starting.offsets)")
            elif prop in client.managed:
                r.invalid(key, value, f"{client.client} sets this property itself; remove it")
            elif prop == "bootstrap.servers":
                r.invalid(key, value, "set kafka.bootstrap.servers instead")
            else:
                options[prop] = value.strip()
    return options, reset


def _starting_offsets(r: KeyReader, starting: str | None, reset: str | None) -> str:
    if starting is None:
        return reset or "earliest"
    if starting.lower() in ("earliest", "latest"):
        return starting.lower()
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
    return starting


@dataclass(frozen=True, kw_only=True)
class TopicsConfig:
    """``topics`` / ``topics.regex``: what the sink subscribes to, or which topics' objects the
    source reads (all when neither is set)."""

    names: tuple[str, ...] = ()
    regex: str | None = None
    subscribe: bool = False
    """The sink's topics: exactly one key is required, and described."""

    @classmethod
    def read(cls, r: KeyReader, *, subscribe: bool) -> TopicsConfig:
        """Read the keys; ``subscribe`` (the sink) wants exactly one, with legal topic names."""
        topics, regex = r.optional("topics"), r.optional("topics.regex")
        if topics is not None and regex is not None:
            if not subscribe:
                r.problem("topics and topics.regex are both set: set at most one of them")
                return cls()
            both = "topics and topics.regex are mutually exclusive options, but both are set."
            r.invalid("topics", topics, both)  # SinkConnectorConfig.validate: on each key
            r.invalid("topics.regex", regex, both)
        elif topics is None and regex is None and subscribe:
            for key in ("topics", "topics.regex"):
                r.problem(f"{key}: Must configure one of topics or topics.regex")
        names: tuple[str, ...] = ()
        if topics is not None:
            names = tuple(t.strip() for t in topics.split(",") if t.strip())
            bad = [t for t in names if not legal_topic_name(t)]
            if bad and subscribe:
                r.invalid(
                    "topics",
                    topics,
                    f"{', '.join(bad)} not a legal topic name (letters, digits, '.', '_', '-')",
                )
        if regex is not None:
            try:
                re.compile(regex)
            except re.error as exc:
                r.invalid("topics.regex", regex, f"must be a valid regular expression ({exc})")
        return cls(names=names, regex=regex, subscribe=subscribe)

    def matches(self, topic: str) -> bool:
        """Whether ``topic`` is one of these topics (every topic when none is set)."""
        if self.names:
            return topic in self.names
        if self.regex is not None:
            return re.fullmatch(self.regex, topic) is not None
        return True

    def describe(self) -> dict[str, str]:
        """The keys under their names (a subscription names its topics even when empty)."""
        d: dict[str, str] = {}
        if self.names or (self.subscribe and self.regex is None):
            d["topics"] = ",".join(self.names)
        if self.regex is not None:
            d["topics.regex"] = self.regex
        return d
