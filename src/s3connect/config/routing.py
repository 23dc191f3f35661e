"""The source's destination keys: renaming (``topic.prefix`` or Kafka Connect's RegexRouter
``transforms``) and the destination topics (``source.allow.same.topic``, ``topic.creation.*``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from s3connect.config.parsing import bool_text
from s3connect.config.reader import KeyReader
from s3connect.transforms.regex_router import REGEX_ROUTER, RegexRoute

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
    """Where a source topic's records are published: RegexRouter ``transforms`` when set, else
    ``topic.prefix`` + the topic."""

    topic_prefix: str = "copy_of_"
    transforms: tuple[RegexRoute, ...] = ()

    @classmethod
    def read(cls, r: KeyReader, *, allow_same_topic: bool) -> RoutingConfig:
        """Read the keys; an empty prefix (writing back into the source topics) needs
        ``allow_same_topic``."""
        prefix = r.string("topic.prefix", "copy_of_")
        if not _PREFIX_RE.match(prefix):
            r.invalid(
                "topic.prefix", prefix, "must be legal in a topic name (letters, digits, ._-)"
            )
        routes = _read_routes(r)
        if r.has("transforms") and r.has("topic.prefix") and routes:
            r.problem("transforms and topic.prefix are both set: set only one of them")
        for key in r.raw:
            if key.startswith(("transforms.", "predicates")) and key not in r.used:
                r.invalid(key, r.raw[key], "not part of a transform listed in transforms")
        if not routes and not prefix and not allow_same_topic:
            r.invalid(
                "topic.prefix",
                "",
                "an empty prefix writes back into the source topics (a feedback loop with the "
                "sink); set source.allow.same.topic=true if that is intended",
            )
        return cls(topic_prefix=prefix, transforms=routes)

    def destination(self, topic: str) -> str:
        """The topic ``topic``'s records are published to."""
        if not self.transforms:
            return self.topic_prefix + topic
        for route in self.transforms:
            topic = route.apply(topic)
        return topic

    def describe(self) -> dict[str, str]:
        """The keys under their names (the routes as ``route0``, ``route1``, ...)."""
        if not self.transforms:
            return {"topic.prefix": self.topic_prefix}
        aliases = [f"route{i}" for i in range(len(self.transforms))]
        d = {"transforms": ",".join(aliases)}
        for alias, route in zip(aliases, self.transforms, strict=True):
            d[f"transforms.{alias}.type"] = REGEX_ROUTER
            d[f"transforms.{alias}.regex"] = route.regex
            d[f"transforms.{alias}.replacement"] = route.replacement
        return d


def _read_routes(r: KeyReader) -> tuple[RegexRoute, ...]:
    """The RegexRouter transforms listed in ``transforms``, in order."""
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
    return tuple(routes)
