"""Raw value bytes: Confluent's ByteArrayRecordWriterProvider and the source's reader of them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import BinaryIO

import pyarrow as pa

from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Type
from s3connect.formats.base import FileRecords
from s3connect.formats.common import (
    check_compression,
    check_level,
    gunzip,
    split_column,
    split_records,
    write_parts,
)

__all__ = ["BYTES_SCHEMA", "ByteArrayFormat", "read_bytearray", "read_bytearray_column"]

BYTES_SCHEMA = ConnectSchema(Type.BYTES, optional=True)
"""The schema of ByteArray records (ByteArrayConverter's)."""


class ByteArrayFormat:
    """Writes each value's bytes followed by the separator (ByteArrayConverter.fromConnectData).

    Args:
        extension: ``format.bytearray.extension`` (default ``.bin``).
        separator: ``format.bytearray.separator`` (default ``System.lineSeparator()``: ``"\\n"``).
        compression: ``s3.compression.type``: ``none`` or ``gzip`` (adds ``.gz``).
        level: ``s3.compression.level`` (-1 = zlib default).
    """

    def __init__(
        self,
        extension: str = ".bin",
        separator: str = "\n",
        compression: str = "none",
        level: int = -1,
    ) -> None:
        self.compression = check_compression(compression)
        self.level = check_level(level)
        self.extension = extension + (".gz" if compression == "gzip" else "")
        self.separator = separator.encode("utf-8")

    def write(self, records: Sequence[SinkRecord], out: BinaryIO) -> None:
        """Write one complete file of raw values to ``out``.

        Raises:
            ValueError: no records, or a value that is neither bytes nor str (e.g. a null).
        """
        if not records:
            raise ValueError("A file needs at least one record")
        write_parts(map(self.record_line, records), out, self.compression, self.level)

    def record_line(self, record: SinkRecord) -> bytes:
        """A record's value bytes and the separator.

        Raises:
            ValueError: a value that is neither bytes nor str (e.g. a null).
        """
        value = record.value
        if isinstance(value, str):
            data = value.encode("utf-8")
        elif isinstance(value, bytes | bytearray | memoryview):
            data = bytes(value)
        else:
            raise ValueError(
                "ByteArrayFormat needs bytes values (ByteArrayConverter is not compatible "
                f"with objects of type {type(value).__name__}); offset {record.offset}"
            )
        return data + self.separator

    def write_lines(self, parts: Iterable[bytes | memoryview], out: BinaryIO) -> None:
        """Write one complete file from whole lines (separators included), in order."""
        write_parts(parts, out, self.compression, self.level)


def read_bytearray(data: bytes, extension: str, separator: bytes) -> FileRecords:
    """The records of a ByteArray file (gzip-compressed when ``extension`` ends with ``.gz``):
    the bytes between separators, each record ending with one.

    Raises:
        ValueError: the content does not end with the separator (a truncated object).
    """
    return FileRecords(BYTES_SCHEMA, split_records(gunzip(data, extension), separator))


def read_bytearray_column(data: bytes, extension: str, separator: bytes) -> pa.Array:
    """:func:`read_bytearray`'s records as one Arrow column.

    Raises:
        ValueError: the content does not end with the separator (a truncated object).
    """
    return split_column(gunzip(data, extension), separator)
