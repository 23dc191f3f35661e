"""The Format protocol (writes one complete file of records' values) and what a format's
reader gives back (:class:`FileRecords`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, Protocol, runtime_checkable

from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema

__all__ = [
    "FileRecords",
    "Format",
    "LineFormat",
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


@runtime_checkable
class LineFormat(Format, Protocol):
    """A format whose files are lines, one per record (JSON, ByteArray): a file can be written
    from lines made elsewhere (the sink's line path) and single records' lines."""

    def record_line(self, record: SinkRecord) -> bytes:
        """The line of ``record`` (not a Struct), separator included."""
        ...

    def write_lines(self, parts: Iterable[bytes | memoryview], out: BinaryIO) -> None:
        """Write one complete file of ``parts`` (whole lines, separators included), in order."""
        ...


@dataclass(frozen=True, slots=True)
class FileRecords:
    """The records of one object: their shared value schema (None: schemaless) and values."""

    schema: ConnectSchema | None
    values: list[Any]
