"""The error tree: one root, a shallow hierarchy; each docstring says when it is raised."""

from __future__ import annotations

__all__ = [
    "SINK_TASK_CLASS",
    "ConfigError",
    "ConversionError",
    "DestinationError",
    "PartitionError",
    "PublishError",
    "QueryFailedError",
    "RecordError",
    "S3ConnectError",
    "SchemaProjectionError",
    "SchemaRegistryError",
    "SourceObjectError",
    "StorageError",
    "TransformationError",
    "record_place",
]


class S3ConnectError(Exception):
    """Root of every error s3connect raises on purpose."""


class ConfigError(S3ConnectError, ValueError):
    """A connector config is invalid: raised before any query starts, naming key, value, allowed."""


SINK_TASK_CLASS = "org.apache.kafka.connect.sink.SinkTask"
"""The class Kafka Connect reports a sink task's errant records for (``TASK_PUT``)."""


def record_place(topic: str, partition: int | None, offset: int | None) -> str:
    """How errors name a record: ``(topic='t', partition=0, offset=42)``."""
    return f"(topic={topic!r}, partition={partition}, offset={offset})"


class RecordError(S3ConnectError):
    """One Kafka record could not be handled; the message names topic, partition and offset.

    ``stage`` and ``class_name`` say where, in Kafka Connect's terms (the dead letter queue's
    ``__connect.errors.stage`` / ``.class.name`` headers): ``KEY_CONVERTER`` or
    ``VALUE_CONVERTER`` (or ``HEADER_CONVERTER``) with the converter class, ``TRANSFORMATION``
    with the transform's, else ``TASK_PUT`` with ``SinkTask``, the class Kafka Connect's
    ``WorkerErrantRecordReporter`` reports every record a sink task hands it for. ``reportable``
    is false for what Confluent's task throws past its errant-record reporter: it fails the
    batch whatever ``errors.tolerance`` says.
    """

    def __init__(
        self,
        message: str,
        *,
        topic: str,
        partition: int,
        offset: int,
        stage: str = "TASK_PUT",
        class_name: str = SINK_TASK_CLASS,
        reportable: bool = True,
    ) -> None:
        super().__init__(f"{message} {record_place(topic, partition, offset)}")
        self.reason = message
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.stage = stage
        self.class_name = class_name
        self.reportable = reportable

    def reworded(self, message: str) -> RecordError:
        """The same error (class, record, stage, class name) with ``message`` as its reason."""
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.args = (f"{message} {record_place(self.topic, self.partition, self.offset)}",)
        new.reason = message
        return new


class ConversionError(RecordError):
    """A record's key, value or headers could not be converted by the configured converter."""


class TransformationError(RecordError):
    """A single message transform (or the predicate guarding it) failed on a record: stage
    ``TRANSFORMATION``, ``class_name`` the transform's Kafka class name
    (``org.apache.kafka.connect.transforms.InsertField$Value``)."""

    def __init__(
        self, message: str, *, topic: str, partition: int, offset: int, class_name: str
    ) -> None:
        super().__init__(
            message,
            topic=topic,
            partition=partition,
            offset=offset,
            stage="TRANSFORMATION",
            class_name=class_name,
        )


class PartitionError(RecordError):
    """The partitioner could not encode a record (missing field, bad timestamp, ...)."""


class SchemaProjectionError(RecordError):
    """``schema.compatibility`` BACKWARD/FORWARD/FULL cannot handle a record's value schema: the
    schema or the open file's has no version, or the value cannot be projected onto the file's
    schema (Kafka Connect's ``SchemaProjectorException``)."""


class SchemaRegistryError(S3ConnectError):
    """The Schema Registry is down or answers with an error that is not about the record (5xx,
    refused connection, timeout, 401/403), still after the retries ``errors.retry.timeout``
    allows: fails the query. Names the registry URL (never its credentials) and the record's
    topic, partition and offset. A record the registry cannot describe (bad magic byte, unknown
    schema id) is a :class:`ConversionError` instead."""

    def __init__(
        self,
        message: str,
        *,
        url: str,
        topic: str | None = None,
        partition: int | None = None,
        offset: int | None = None,
    ) -> None:
        where = "" if topic is None else " " + record_place(topic, partition, offset)
        super().__init__(f"Schema Registry {url}: {message}{where}")
        self.reason = message
        self.url = url
        self.topic = topic
        self.partition = partition
        self.offset = offset

    def at(self, topic: str, partition: int, offset: int) -> SchemaRegistryError:
        """The same error, naming the record it was raised for."""
        return SchemaRegistryError(
            self.reason, url=self.url, topic=topic, partition=partition, offset=offset
        )


class StorageError(S3ConnectError):
    """Writing to or reading from the object store failed after its retries."""


class SourceObjectError(S3ConnectError):
    """The S3 source met an object it must not skip (badly named, unreadable, or a ByteArray
    object whose records contain the separator) with ``behavior.on.error=fail``; names the key."""

    def __init__(self, message: str, *, key: str) -> None:
        super().__init__(f"{message} (object {key!r})")
        self.key = key


class DestinationError(S3ConnectError):
    """A destination topic of the S3 source is missing (and may not be created) or has fewer
    partitions than a source partition number; raised before anything is published to it."""


class PublishError(S3ConnectError):
    """The S3 source could not publish records to Kafka (the producer gave up on them after its
    retries, or could not be made from the ``kafka.*`` properties); names the destination."""


class QueryFailedError(S3ConnectError, RuntimeError):
    """A streaming query stopped on an error. ``error_class`` names the error raised in a Spark
    task (``s3connect.errors.RecordError``, ...; a Java class for Spark's or Kafka's own errors;
    None when the text names none), ``cause`` is that error's message, and ``details`` Spark's
    whole report (for the log file)."""

    def __init__(
        self, what: str, cause: str, *, error_class: str | None = None, details: str = ""
    ) -> None:
        named = f"{error_class}: {cause}" if error_class else cause
        super().__init__(f"the {what} query failed: {named}")
        self.what = what
        self.cause = cause
        self.error_class = error_class
        self.details = details
