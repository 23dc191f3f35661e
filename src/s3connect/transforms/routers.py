"""Topic routers: Kafka's ``RegexRouter`` and ``TimestampRouter``."""

from __future__ import annotations

from dataclasses import dataclass

from s3connect.connect.records import SinkRecord
from s3connect.transforms.base import KAFKA_PACKAGE, DataError, Transformation, with_topic
from s3connect.transforms.regex_router import REGEX_ROUTER, RegexRoute, compile_java_regex
from s3connect.transforms.settings import REQUIRED, Settings
from s3connect.transforms.simple_date_format import SimpleDateFormat

__all__ = ["RegexRouter", "TimestampRouter"]


@dataclass(eq=False)
class RegexRouter(Transformation):
    """``RegexRouter``: a topic the ``regex`` matches entirely is renamed by ``replacement``
    (``Matcher.replaceFirst``: ``$1``, ``${name}``, ``\\`` escapes)."""

    route: RegexRoute
    class_name = REGEX_ROUTER
    renames_topics = True

    @classmethod
    def configure(cls, s: Settings) -> RegexRouter | None:
        """Read ``regex`` and ``replacement``."""
        regex = s.string("regex", REQUIRED, "a Java regular expression matching whole topics")
        replacement = s.string("replacement", REQUIRED, "the new topic ($1 for a group)")
        if regex is None or replacement is None:
            return None
        try:
            compile_java_regex(regex)
        except ValueError as exc:
            s.invalid("regex", regex, f"Invalid regex: {exc}")
            return None
        try:
            return cls(RegexRoute(regex, replacement))
        except ValueError as exc:
            s.invalid("replacement", replacement, f"{exc} (for regex {regex})")
            return None

    def apply(self, record: SinkRecord) -> SinkRecord:
        topic = self.route.apply(record.topic)
        return record if topic == record.topic else with_topic(record, topic)

    def topic_names(self, topic: str) -> frozenset[str] | None:
        return frozenset({self.route.apply(topic)})


@dataclass(eq=False)
class TimestampRouter(Transformation):
    """``TimestampRouter``: the topic becomes ``topic.format`` with ``${topic}`` and
    ``${timestamp}`` (the record's timestamp in ``timestamp.format``, UTC) replaced."""

    topic_format: str
    timestamp_format: SimpleDateFormat
    class_name = f"{KAFKA_PACKAGE}.TimestampRouter"
    renames_topics = True

    @classmethod
    def configure(cls, s: Settings) -> TimestampRouter | None:
        """Read ``topic.format`` and ``timestamp.format``."""
        topic_format = s.string(
            "topic.format", "${topic}-${timestamp}", "text with ${topic} and ${timestamp}"
        )
        pattern = s.string("timestamp.format", "yyyyMMdd", "a java.text.SimpleDateFormat pattern")
        if topic_format is None or pattern is None:
            return None
        try:
            formatter = SimpleDateFormat(pattern, s.now_ms)
        except ValueError as exc:
            s.invalid("timestamp.format", pattern, f"not a SimpleDateFormat pattern: {exc}")
            return None
        return cls(topic_format, formatter)

    def keeps_topics_apart(self) -> bool:
        """True when ``topic.format`` holds ``${topic}`` and the timestamp's text has one length
        (numeric fields only): two topics then can never give the same name."""
        if "${topic}" not in self.topic_format:
            return False
        samples = (0, 951_782_400_000, 978_307_199_999, 1_700_000_000_123, 253_402_300_799_000)
        return len({len(self.timestamp_format.format(ms)) for ms in samples}) == 1

    def apply(self, record: SinkRecord) -> SinkRecord:
        if record.timestamp is None:
            raise DataError(
                f"Timestamp missing on record: SinkRecord{{topic='{record.topic}', "
                f"kafkaPartition={record.partition}, kafkaOffset={record.offset}, timestamp=null}}"
            )
        formatted = self.timestamp_format.format(record.timestamp)
        topic = self.topic_format.replace("${topic}", record.topic)
        return with_topic(record, topic.replace("${timestamp}", formatted))
