"""The record model shared by converters, partitioners, rotation and formats."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from s3connect.connect.schema import ConnectSchema

__all__ = [
    "Header",
    "RawRecord",
    "SinkRecord",
]

Header = tuple[str, bytes | None]


# Records are never mutated, but not frozen either: a frozen dataclass costs three times as much
# to build (object.__setattr__ per field), and one or two are built per consumed record.
@dataclass(slots=True)
class SinkRecord:
    """One Kafka record after conversion, as Kafka Connect's ``SinkRecord`` (never mutated).

    ``timestamp`` is the Kafka record timestamp in epoch milliseconds (None when it has none).
    ``key``/``value`` are converted values (their representation: :mod:`s3connect.connect.schema`);
    their schemas are None for schemaless data. ``value`` is None for a tombstone.
    """

    topic: str
    partition: int
    offset: int
    timestamp: int | None
    key: Any
    value: Any
    key_schema: ConnectSchema | None = None
    value_schema: ConnectSchema | None = None
    headers: tuple[Header, ...] = ()

    def new_record(
        self,
        topic: str,
        partition: int,
        key_schema: ConnectSchema | None,
        key: Any,
        value_schema: ConnectSchema | None,
        value: Any,
        timestamp: int | None,
        headers: tuple[Header, ...] | None = None,
    ) -> SinkRecord:
        """``SinkRecord.newRecord``: a record of the same offset with these fields, and these
        headers (this record's when None)."""
        return SinkRecord(
            topic,
            partition,
            self.offset,
            timestamp,
            key,
            value,
            key_schema,
            value_schema,
            self.headers if headers is None else headers,
        )


@dataclass(slots=True)  # not frozen, for speed (see records.SinkRecord)
class RawRecord:
    """One Kafka record as consumed: bytes, before any conversion (never mutated)."""

    topic: str
    partition: int
    offset: int
    timestamp: int | None
    key: bytes | None
    value: bytes | None
    headers: tuple[Header, ...] = ()
