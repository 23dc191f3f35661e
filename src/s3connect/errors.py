"""The error tree: one root, a shallow hierarchy; each docstring says when it is raised."""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "ConversionError",
    "DestinationError",
    "PartitionError",
    "RecordError",
    "S3ConnectError",
    "SourceObjectError",
    "StorageError",
]


class S3ConnectError(Exception):
    """Root of every error s3connect raises on purpose."""


class ConfigError(S3ConnectError, ValueError):
    """A connector config is invalid: raised before any query starts, naming key, value, allowed."""


class RecordError(S3ConnectError):
    """One Kafka record could not be handled; the message names topic, partition and offset."""

    def __init__(self, message: str, *, topic: str, partition: int, offset: int) -> None:
        super().__init__(f"{message} (topic={topic!r}, partition={partition}, offset={offset})")
        self.topic = topic
        self.partition = partition
        self.offset = offset


class ConversionError(RecordError):
    """A record's key, value or headers could not be converted by the configured converter."""


class PartitionError(RecordError):
    """The partitioner could not encode a record (missing field, bad timestamp, ...)."""


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
