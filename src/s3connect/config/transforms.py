"""Single message transform keys: ``transforms``, ``transforms.<alias>.*``, ``predicates`` and
``predicates.<alias>.*``, as Kafka Connect reads them (:mod:`s3connect.transforms`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from s3connect.config.kafka import TopicsConfig
from s3connect.config.reader import KeyReader
from s3connect.errors import ConfigError
from s3connect.transforms.chain import (
    TransformationChain,
    build_chain,
    read_chain,
    topic_collision,
)

__all__ = ["TransformsConfig"]

_ROOTS = ("transforms", "predicates")
_PREFIXES = ("transforms.", "predicates.")


@dataclass(frozen=True, kw_only=True)
class TransformsConfig:
    """The transform chain's keys, checked when read; :meth:`chain` builds it where it runs."""

    settings: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def read(cls, r: KeyReader) -> TransformsConfig:
        """Read and check every transform and predicate."""
        keys = [k for k in r.raw if k in _ROOTS or k.startswith(_PREFIXES)]
        settings = {k: v for k in keys if (v := r.get(k)) is not None}
        _chain, problems = read_chain(settings)
        for problem in problems:
            r.problem(problem)
        return cls(settings=MappingProxyType(settings))

    @classmethod
    def read_sink(cls, r: KeyReader, topics: TopicsConfig) -> TransformsConfig:
        """:meth:`read`; a topic rename that could give two consumed topic-partitions one
        object name is a problem too (objects are named after the renamed topic)."""
        config = cls.read(r)
        if config.active:
            try:
                chain = config.chain()
            except ConfigError:  # already reported by read
                return config
            clash = topic_collision(chain, None if topics.regex is not None else topics.names)
            if clash is not None:
                r.problem(
                    f"transforms: {clash}: objects are named after the renamed topic, so two "
                    "consumed topic-partitions would write the same object names; list the "
                    "topics in topics and rename them apart, or run one connector per topic"
                )
        return config

    @property
    def active(self) -> bool:
        """Whether any transform is configured."""
        return bool(self.settings.get("transforms", "").strip())

    def chain(self) -> TransformationChain:
        """The chain (built anew: it runs where the records are, e.g. in a Spark task)."""
        return build_chain(self.settings)

    def describe(self) -> dict[str, str]:
        """The keys under their names, as given."""
        return dict(self.settings)
