"""Kafka's predicates (``org.apache.kafka.connect.transforms.predicates``): ``HasHeaderKey``,
``RecordIsTombstone`` and ``TopicNameMatches``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from s3connect.connect.records import SinkRecord
from s3connect.transforms.base import KAFKA_PACKAGE, Predicate
from s3connect.transforms.regex_router import compile_java_regex
from s3connect.transforms.settings import REQUIRED, Settings

__all__ = ["PREDICATE_PACKAGE", "HasHeaderKey", "RecordIsTombstone", "TopicNameMatches"]

PREDICATE_PACKAGE = f"{KAFKA_PACKAGE}.predicates"


@dataclass(eq=False)
class HasHeaderKey(Predicate):
    """True for a record with at least one header called ``name``."""

    name: str
    class_name = f"{PREDICATE_PACKAGE}.HasHeaderKey"

    @classmethod
    def configure(cls, s: Settings) -> HasHeaderKey | None:
        """Read ``name``."""
        name = s.non_empty("name", REQUIRED, "the header name")
        return None if name is None else cls(name)

    def test(self, record: SinkRecord) -> bool:
        return any(header == self.name for header, _ in record.headers)


class RecordIsTombstone(Predicate):
    """True for a record whose value is null."""

    class_name = f"{PREDICATE_PACKAGE}.RecordIsTombstone"

    @classmethod
    def configure(cls, s: Settings) -> RecordIsTombstone:
        """``RecordIsTombstone`` has no keys."""
        return cls()

    def test(self, record: SinkRecord) -> bool:
        return record.value is None


@dataclass(eq=False)
class TopicNameMatches(Predicate):
    """True for a record whose whole topic name the Java regular expression ``pattern`` matches."""

    pattern: re.Pattern[str]
    class_name = f"{PREDICATE_PACKAGE}.TopicNameMatches"

    @classmethod
    def configure(cls, s: Settings) -> TopicNameMatches | None:
        """Read ``pattern``."""
        text = s.non_empty("pattern", REQUIRED, "a Java regular expression for topic names")
        if text is None:
            return None
        try:
            return cls(compile_java_regex(text))
        except ValueError as exc:
            s.invalid("pattern", text, f"Invalid regex: {exc}")
            return None

    def test(self, record: SinkRecord) -> bool:
        return record.topic is not None and self.pattern.fullmatch(record.topic) is not None
