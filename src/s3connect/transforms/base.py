"""What every transform and predicate is: the two interfaces, the key/value side a ``$Key`` /
``$Value`` transform works on, and the error a transform raises for one record.

Kafka's ``Transformation.apply`` returns a new record (or null to drop it) and never mutates its
input; so do ours: a :class:`~s3connect.connect.records.SinkRecord` and the dicts and lists in it
are never changed in place.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from enum import Enum
from typing import Any

from s3connect.connect.records import Header, SinkRecord
from s3connect.connect.schema import ConnectSchema

__all__ = [
    "KAFKA_PACKAGE",
    "DataError",
    "Predicate",
    "Side",
    "Transformation",
    "operating",
    "with_headers",
    "with_key",
    "with_operating",
    "with_topic",
    "with_value",
]

KAFKA_PACKAGE = "org.apache.kafka.connect.transforms"
"""The package of Kafka's built-in transforms (predicates are in its ``.predicates``)."""


class DataError(ValueError):
    """A transform cannot handle a record (Kafka's ``DataException`` and the other runtime
    exceptions of a transform); the chain wraps it into a
    :class:`~s3connect.errors.TransformationError` that names the record."""


class Side(Enum):
    """Which part of the record a ``$Key`` / ``$Value`` transform works on."""

    KEY = "Key"
    VALUE = "Value"


class Transformation(ABC):
    """One configured single message transform (Kafka's ``Transformation``)."""

    class_name: str
    """The Kafka class name, as ``transforms.<alias>.type`` spells it."""

    renames_topics: bool = False
    """Whether :meth:`apply` may change a record's topic."""

    @abstractmethod
    def apply(self, record: SinkRecord) -> SinkRecord | None:
        """The transformed record, or None to drop it.

        Raises:
            DataError: the record cannot be transformed.
        """

    def nondeterminism(self) -> str | None:
        """Why the same record may not always give the same result (None: it always does)."""
        return None

    def topic_names(self, topic: str) -> frozenset[str] | None:
        """Every topic a record of ``topic`` may come out with; None when that depends on more
        than the topic (the record's timestamp or content)."""
        return None if self.renames_topics else frozenset({topic})

    def keeps_topics_apart(self) -> bool:
        """Whether records of different topics always come out with different topics."""
        return not self.renames_topics


class Predicate(ABC):
    """One configured predicate (Kafka's ``Predicate``)."""

    class_name: str

    @abstractmethod
    def test(self, record: SinkRecord) -> bool:
        """Whether the record matches."""


def with_key(record: SinkRecord, schema: ConnectSchema | None, key: Any) -> SinkRecord:
    """The record with another key and key schema."""
    return record.new_record(
        record.topic,
        record.partition,
        schema,
        key,
        record.value_schema,
        record.value,
        record.timestamp,
    )


def with_value(record: SinkRecord, schema: ConnectSchema | None, value: Any) -> SinkRecord:
    """The record with another value and value schema."""
    return record.new_record(
        record.topic,
        record.partition,
        record.key_schema,
        record.key,
        schema,
        value,
        record.timestamp,
    )


def with_operating(
    record: SinkRecord, side: Side, schema: ConnectSchema | None, value: Any
) -> SinkRecord:
    """The record with its key (``Side.KEY``) or value replaced."""
    if side is Side.KEY:
        return with_key(record, schema, value)
    return with_value(record, schema, value)


def with_headers(record: SinkRecord, headers: tuple[Header, ...]) -> SinkRecord:
    """The record with other headers."""
    return record.new_record(
        record.topic,
        record.partition,
        record.key_schema,
        record.key,
        record.value_schema,
        record.value,
        record.timestamp,
        headers,
    )


def with_topic(record: SinkRecord, topic: str) -> SinkRecord:
    """The record routed to another topic."""
    return record.new_record(
        topic,
        record.partition,
        record.key_schema,
        record.key,
        record.value_schema,
        record.value,
        record.timestamp,
    )


def operating(record: SinkRecord, side: Side) -> tuple[ConnectSchema | None, Any]:
    """The schema and value a ``$Key`` / ``$Value`` transform works on."""
    if side is Side.KEY:
        return record.key_schema, record.key
    return record.value_schema, record.value
