"""The Format protocol: writes one complete file of records' values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import BinaryIO, Protocol, runtime_checkable

from s3connect.connect.records import SinkRecord

__all__ = [
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
