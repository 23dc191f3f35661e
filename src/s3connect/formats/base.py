"""The Format protocol (writes one complete file of records' values) and what a format's
reader gives back (:class:`FileRecords`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, Protocol, runtime_checkable

from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema

__all__ = [
    "FileRecords",
    "Format",
]


@runtime_checkable
class Format(Protocol):
    """Writes the values of one file's records; ``extension`` ends the object name."""

    @property
    def extension(self) -> str:
        """What the object name ends with (``.avro``, ``.snappy.parquet``, ``.json.gz``...)."""
        ...

    def write(self, records: Sequence[SinkRecord], out: BinaryIO) -> None:
        """Write one complete file of ``records``' values to ``out`` (which stays open)."""
        ...


@dataclass(frozen=True, slots=True)
class FileRecords:
    """The records of one object: their shared value schema (None: schemaless) and values."""

    schema: ConnectSchema | None
    values: list[Any]
