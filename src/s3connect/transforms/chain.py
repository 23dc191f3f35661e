"""A connector's chain of single message transforms, built from its config as Kafka Connect's
``ConnectorConfig.transformationStages`` builds it and applied as ``TransformationChain`` /
``TransformationStage`` apply it::

    transforms=tombstones,route
    transforms.tombstones.type=org.apache.kafka.connect.transforms.Filter
    transforms.tombstones.predicate=isTombstone
    transforms.route.type=org.apache.kafka.connect.transforms.RegexRouter
    transforms.route.regex=(.*)
    transforms.route.replacement=copy_of_$1
    predicates=isTombstone
    predicates.isTombstone.type=org.apache.kafka.connect.transforms.predicates.RecordIsTombstone

The transforms run in the order ``transforms`` lists them; a transform with a ``predicate``
runs only on the records the predicate matches (does not match with ``negate=true``); a record
a transform drops (``Filter``) goes no further. Every transform's and predicate's keys are
checked when the chain is built and all problems are reported at once; unlike Kafka, keys a
transform does not know and keys of aliases that are not listed are problems too.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from s3connect.connect.records import SinkRecord
from s3connect.errors import ConfigError, TransformationError
from s3connect.transforms.base import DataError, Predicate, Transformation
from s3connect.transforms.filter import Filter
from s3connect.transforms.jvm import java_trim
from s3connect.transforms.registry import PREDICATES, TRANSFORMATIONS
from s3connect.transforms.settings import Settings, invalid_value

__all__ = [
    "Stage",
    "TransformationChain",
    "build_chain",
    "possible_topics",
    "read_chain",
    "topic_collision",
]

_COMMA = re.compile(r"\s*,\s*")
_STAGE_KEYS = frozenset({"type", "predicate", "negate"})


@dataclass(frozen=True, slots=True)
class Stage:
    """One transform of the chain and the predicate that guards it (Kafka's
    ``TransformationStage``)."""

    alias: str
    transformation: Transformation
    predicate: Predicate | None = None
    predicate_alias: str | None = None
    negate: bool = False

    def apply(self, record: SinkRecord) -> SinkRecord | None:
        """The transform's result when the predicate lets it run, else the record itself."""
        if self.predicate is None or self.negate ^ self.predicate.test(record):
            return self.transformation.apply(record)
        return record


class TransformationChain:
    """The configured transforms, in order; an empty chain returns every record unchanged."""

    def __init__(self, stages: Iterable[Stage] = ()) -> None:
        self.stages = tuple(stages)

    def __len__(self) -> int:
        return len(self.stages)

    def __repr__(self) -> str:
        names = ", ".join(f"{s.alias}={s.transformation.class_name}" for s in self.stages)
        return f"TransformationChain({names})"

    @property
    def renames_topics(self) -> bool:
        """Whether a transform may change a record's topic (``RegexRouter``,
        ``TimestampRouter``, ``ExtractTopic``)."""
        return any(s.transformation.renames_topics for s in self.stages)

    @property
    def may_drop_records(self) -> bool:
        """Whether a transform may drop records (``Filter``)."""
        return any(isinstance(s.transformation, Filter) for s in self.stages)

    @property
    def nondeterminism(self) -> tuple[str, ...]:
        """Why the same record may not always give the same result, per transform.

        Every transform is a function of the record and of the config alone (``InsertField``'s
        timestamp is the record's, ``TimestampRouter`` formats the record's timestamp), except
        ``TimestampConverter`` parsing strings with a two-digit year (``y``/``yy``): like Java's
        ``SimpleDateFormat`` it places the year within the 100 years that start 80 years before
        the chain was built, which moves with the wall clock.
        """
        reasons = []
        for stage in self.stages:
            why = stage.transformation.nondeterminism()
            if why is not None:
                reasons.append(f"transforms.{stage.alias}: {why}")
        return tuple(reasons)

    @property
    def deterministic(self) -> bool:
        """Whether the chain's result depends on the record and the config alone."""
        return not self.nondeterminism

    def apply(self, record: SinkRecord) -> SinkRecord | None:
        """The transformed record, or None when a transform dropped it.

        Raises:
            TransformationError: a transform (or its predicate) failed on the record; it names
                the transform's class and the record's topic, partition and offset.
        """
        current = record
        for stage in self.stages:
            try:
                result = stage.apply(current)
            except Exception as exc:  # Kafka hands any failure to its error handling alike
                reason = str(exc) if isinstance(exc, DataError) else f"{type(exc).__name__}: {exc}"
                raise TransformationError(
                    f"transform {stage.alias!r} failed: {reason}",
                    topic=record.topic,
                    partition=record.partition,
                    offset=record.offset,
                    class_name=stage.transformation.class_name,
                ) from exc
            if result is None:
                return None
            current = result
        return current


def build_chain(config: Mapping[str, Any], *, now_ms: int | None = None) -> TransformationChain:
    """The chain a connector config describes (its ``transforms``, ``transforms.*``,
    ``predicates`` and ``predicates.*`` keys; other keys are ignored).

    Args:
        config: The connector config, as flat dotted keys.
        now_ms: The wall clock (epoch ms) two-digit years are read against; default: now.

    Raises:
        ConfigError: every problem found, each naming its key, the value and what is allowed.
    """
    chain, problems = read_chain(config, now_ms=now_ms)
    if problems:
        count = len(problems)
        raise ConfigError(
            f"invalid transforms config ({count} problem{'s' if count > 1 else ''}):\n  - "
            + "\n  - ".join(problems)
        )
    return chain


def read_chain(
    config: Mapping[str, Any], *, now_ms: int | None = None
) -> tuple[TransformationChain, list[str]]:
    """The chain and every problem of its config (the chain is complete only without any)."""
    clock = int(time.time() * 1000) if now_ms is None else now_ms
    problems: list[str] = []
    transform_aliases = _aliases(config, "transforms", problems)
    predicate_aliases = _aliases(config, "predicates", problems)
    predicates = {alias: _predicate(config, alias, clock, problems) for alias in predicate_aliases}
    stages = [_stage(config, alias, predicates, clock, problems) for alias in transform_aliases]
    problems += _orphan_keys(config, "transforms", transform_aliases)
    problems += _orphan_keys(config, "predicates", predicate_aliases)
    return TransformationChain(s for s in stages if s is not None), problems


def topic_collision(chain: TransformationChain, topics: Sequence[str] | None) -> str | None:
    """Why renaming topics could give records of two consumed topics one topic (and so two
    topic-partitions one object name), or None when it cannot; ``topics`` None: ``topics.regex``
    (the consumed topics are not known in advance)."""
    renamers = [s for s in chain.stages if s.transformation.renames_topics]
    if not renamers or (topics is not None and len(set(topics)) == 1):
        return None
    if all(s.transformation.keeps_topics_apart() for s in renamers):
        return None
    names = _possible_names(chain, topics) if topics is not None else None
    if names is not None:
        seen: dict[str, str] = {}
        for topic, possible in names.items():
            for name in sorted(possible):
                if seen.setdefault(name, topic) != topic:
                    return f"topics {seen[name]!r} and {topic!r} can both become {name!r}"
        return None
    aliases = ", ".join(f"transforms.{s.alias}" for s in renamers)
    consumed = "topics.regex" if topics is None else f"the {len(set(topics))} topics"
    return (
        f"{aliases} may give records of two of {consumed} the same topic (it renames by the "
        "record's timestamp or content, or RegexRouter with topics.regex)"
    )


def _possible_names(
    chain: TransformationChain, topics: Sequence[str]
) -> dict[str, frozenset[str]] | None:
    """Per consumed topic, every topic its records may end with (None: not known in advance)."""
    out = {}
    for topic in topics:
        names = possible_topics(chain, topic)
        if names is None:
            return None
        out[topic] = names
    return out


def possible_topics(chain: TransformationChain, topic: str) -> frozenset[str] | None:
    """Every topic a record of ``topic`` may come out of the chain with; None when that depends
    on the record (its timestamp or content)."""
    names = frozenset({topic})
    for stage in chain.stages:
        after: set[str] = set() if stage.predicate is None else set(names)
        for name in names:
            renamed = stage.transformation.topic_names(name)
            if renamed is None:
                return None
            after |= renamed
        names = frozenset(after)
    return names


def _aliases(config: Mapping[str, Any], key: str, problems: list[str]) -> list[str]:
    raw = config.get(key)
    if raw is None:
        return []
    if isinstance(raw, list | tuple):
        aliases = [java_trim(str(a)) for a in raw]
    elif isinstance(raw, str):
        trimmed = java_trim(raw)
        aliases = [] if trimmed == "" else _COMMA.split(trimmed)
    else:
        problems.append(invalid_value(key, raw, "must be a comma-separated list of aliases"))
        return []
    if "" in aliases:
        problems.append(invalid_value(key, aliases, "an alias is empty"))
    if len(set(aliases)) < len(aliases):
        problems.append(invalid_value(key, aliases, "Duplicate alias provided."))
    return [a for a in dict.fromkeys(aliases) if a]


def _settings(config: Mapping[str, Any], prefix: str, now_ms: int) -> Settings:
    sub = {k[len(prefix) :]: v for k, v in config.items() if k.startswith(prefix)}
    return Settings(prefix, sub, now_ms)


def _class_name(s: Settings, kind: str, allowed: Iterable[str]) -> str | None:
    names = sorted(allowed)
    listing = f"a {kind} class: " + ", ".join(names)
    base = "Transformation" if kind == "transformation" else "Predicate"
    if not s.has("type"):  # Kafka's validation: missing; its ConnectorConfig: the class is null
        s.missing("type", f"Not a {base}; {listing}")
        return None
    name = s.string("type", None, listing)
    if name is None:
        return None
    if name not in names:
        s.invalid(
            "type",
            name,
            _not_a_class(name, base) or f"Class {name} could not be found. Must be {listing}",
        )
        return None
    return name


_INTERFACES = {
    "Transformation": "org.apache.kafka.connect.transforms.Transformation",
    "Predicate": "org.apache.kafka.connect.transforms.predicates.Predicate",
}
_CONNECTORS = frozenset(
    {"io.confluent.connect.s3.S3SinkConnector", "io.confluent.connect.s3.source.S3SourceConnector"}
)


def _not_a_class(name: str, base: str) -> str | None:
    """Kafka's ``Utils.ensureConcreteSubclass`` message for a known Java class that is not a
    concrete ``base`` (``Transformation`` or ``Predicate``); None for a class not known."""
    own, other = (
        (TRANSFORMATIONS, PREDICATES) if base == "Transformation" else (PREDICATES, TRANSFORMATIONS)
    )
    if name == _INTERFACES[base]:
        return "This class is abstract and cannot be created."
    children = [n for n in own if n.startswith(f"{name}$")]
    if children:  # an abstract transform whose $Key / $Value forms are the concrete ones
        return f"This class is abstract and cannot be created. Did you mean {', '.join(children)}?"
    interface = name in _INTERFACES.values()
    if (
        interface
        or name in other
        or name in _CONNECTORS
        or any(n.startswith(f"{name}$") for n in other)
    ):
        what = "interface" if interface else "class"
        return f"Class {what} {name} does not implement the {base} interface"
    return None


def _unknown_keys(s: Settings, class_name: str, allowed_extra: frozenset[str]) -> None:
    known = sorted(s.known - {"type"})
    for key in sorted(set(s.raw) - s.known - allowed_extra):
        keys = f"its keys: {', '.join(known)}" if known else "it has no keys"
        s.invalid(key, s.raw[key], f"not a key of {class_name} ({keys})")


def _predicate(
    config: Mapping[str, Any], alias: str, now_ms: int, problems: list[str]
) -> Predicate | None:
    s = _settings(config, f"predicates.{alias}.", now_ms)
    name = _class_name(s, "predicate", PREDICATES)
    predicate = None
    if name is not None:
        predicate = PREDICATES[name](s)
        _unknown_keys(s, name, frozenset({"type"}))
    problems += s.problems
    return None if s.failed else predicate


def _stage(
    config: Mapping[str, Any],
    alias: str,
    predicates: Mapping[str, Predicate | None],
    now_ms: int,
    problems: list[str],
) -> Stage | None:
    s = _settings(config, f"transforms.{alias}.", now_ms)
    name = _class_name(s, "transformation", TRANSFORMATIONS)
    predicate_alias = s.string("predicate", None, "the alias of a predicate listed in predicates")
    negate = s.boolean("negate", False)
    if s.has("negate") and not s.has("predicate"):
        s.problem(
            f"Config '{s.key('negate')}' was provided but there is no config "
            f"'{s.key('predicate')}' defining a predicate to be negated."
        )
    if predicate_alias is not None and predicate_alias not in predicates:
        listed = ", ".join(predicates) or "none are"
        s.invalid("predicate", predicate_alias, f"must be an alias listed in predicates ({listed})")
    transformation = None
    if name is not None:
        own = Settings(s.prefix, {k: v for k, v in s.raw.items() if k not in _STAGE_KEYS}, now_ms)
        transformation = TRANSFORMATIONS[name](own)
        s.problems += own.problems
        s.known |= own.known
        _unknown_keys(s, name, _STAGE_KEYS)
    problems += s.problems
    if s.failed or transformation is None:
        return None
    predicate = predicates.get(predicate_alias) if predicate_alias is not None else None
    return Stage(alias, transformation, predicate, predicate_alias, negate)


def _orphan_keys(config: Mapping[str, Any], key: str, aliases: list[str]) -> list[str]:
    prefixes = tuple(f"{key}.{alias}." for alias in aliases)
    return [
        invalid_value(k, v, f"not a key of an alias listed in {key}")
        for k, v in config.items()
        if k.startswith(f"{key}.") and not k.startswith(prefixes)
    ]
