"""The source's destination keys: renaming (``topic.prefix`` or Kafka Connect's ``transforms``)
and the destination topics (``source.allow.same.topic``, ``topic.creation.*``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from s3connect.config.parsing import bool_text
from s3connect.config.reader import KeyReader
from s3connect.config.transforms import TransformsConfig
from s3connect.transforms.chain import TransformationChain, possible_topics

__all__ = ["DestinationConfig", "RoutingConfig"]

_PREFIX_RE = re.compile(r"^[a-zA-Z0-9._-]{0,249}$")


@dataclass(frozen=True, kw_only=True)
class DestinationConfig:
    """Which destination topics the source may publish to, and whether it creates them."""

    allow_same_topic: bool = False
    """``source.allow.same.topic``: may records go back into the topic they came from."""
    creation_enable: bool = True
    """``topic.creation.enable``: create a missing destination topic."""
    replication_factor: int = -1
    """``topic.creation.default.replication.factor`` of a created topic (-1: the broker's)."""

    @classmethod
    def read(cls, r: KeyReader) -> DestinationConfig:
        """Read the keys."""
        creation = r.boolean("topic.creation.enable", True)
        replication = r.integer(
            "topic.creation.default.replication.factor",
            -1,
            -1,
            32767,
            "must be -1 (the broker's default) or an integer > 0",
        )
        if replication == 0:
            r.invalid("topic.creation.default.replication.factor", "0", "must be -1 or > 0")
        return cls(
            allow_same_topic=r.boolean("source.allow.same.topic", False),
            creation_enable=creation,
            replication_factor=replication,
        )

    def describe(self) -> dict[str, str]:
        """The keys under their names."""
        return {
            "source.allow.same.topic": bool_text(self.allow_same_topic),
            "topic.creation.enable": bool_text(self.creation_enable),
            "topic.creation.default.replication.factor": str(self.replication_factor),
        }


@dataclass(frozen=True, kw_only=True)
class RoutingConfig:
    """Where a source topic's records are published: the topic a ``transforms`` chain gives
    them (Kafka Connect's source transforms: RegexRouter, Confluent's ExtractTopic, ...), else
    ``topic.prefix`` + the topic."""

    topic_prefix: str = "copy_of_"
    transforms: TransformsConfig = field(default_factory=TransformsConfig)

    @classmethod
    def read(cls, r: KeyReader, *, allow_same_topic: bool) -> RoutingConfig:
        """Read the keys; an empty prefix (writing back into the source topics) needs
        ``allow_same_topic``."""
        prefix = r.string("topic.prefix", "copy_of_")
        if not _PREFIX_RE.match(prefix):
            r.invalid(
                "topic.prefix", prefix, "must be legal in a topic name (letters, digits, ._-)"
            )
        transforms = TransformsConfig.read(r)
        if transforms.active and r.has("topic.prefix"):
            r.problem("transforms and topic.prefix are both set: set only one of them")
        if not transforms.active and not prefix and not allow_same_topic:
            r.invalid(
                "topic.prefix",
                "",
                "an empty prefix writes back into the source topics (a feedback loop with the "
                "sink); set source.allow.same.topic=true if that is intended",
            )
        return cls(topic_prefix=prefix, transforms=transforms)

    def chain(self) -> TransformationChain | None:
        """The transform chain, or None without ``transforms``."""
        return self.transforms.chain() if self.transforms.active else None

    def destination(self, topic: str) -> str | None:
        """The topic ``topic``'s records are published to; None when the transforms choose it
        record by record (ExtractTopic, TimestampRouter, a predicate on the record)."""
        if not self.transforms.active:
            return self.topic_prefix + topic
        names = possible_topics(self.transforms.chain(), topic)
        return next(iter(names)) if names is not None and len(names) == 1 else None

    def describe(self) -> dict[str, str]:
        """The keys under their names."""
        if not self.transforms.active:
            return {"topic.prefix": self.topic_prefix}
        return self.transforms.describe()
