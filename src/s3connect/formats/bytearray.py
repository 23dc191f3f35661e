"""Raw value bytes: Confluent's ByteArrayRecordWriterProvider and the source's reader of them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, BinaryIO

import pyarrow as pa

from s3connect.connect.java_types import java_class
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

__all__ = [
    "BYTES_SCHEMA",
    "ByteArrayFormat",
    "bytearray_problem",
    "read_bytearray",
    "read_bytearray_column",
]

BYTES_SCHEMA = ConnectSchema(Type.BYTES, optional=True)
"""The schema of ByteArray records (ByteArrayConverter's)."""


def bytearray_problem(schema: ConnectSchema | None, value: Any) -> str | None:
    """Why Kafka's ``ByteArrayConverter.fromConnectData``, which Confluent's ByteArrayFormat
    writes each value (or key) with, refuses it (its ``DataException`` text), or None: a schema
    other than bytes (StringConverter's strings among them), or a value that is not bytes."""
    if schema is not None and schema.type is not Type.BYTES:
        return f"Invalid schema type for ByteArrayConverter: {schema.type.name}"
    if value is not None and not isinstance(value, bytes | bytearray | memoryview):
        return "ByteArrayConverter is not compatible with objects of type class " + java_class(
            value
        )
    return None


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
            ValueError: no records, or a record :meth:`record_line` refuses.
        """
        if not records:
            raise ValueError("A file needs at least one record")
        write_parts(map(self.record_line, records), out, self.compression, self.level)

    def record_line(self, record: SinkRecord) -> bytes:
        """A record's value bytes and the separator.

        Raises:
            ValueError: what ByteArrayConverter refuses (:func:`bytearray_problem`: a schema
                other than bytes, a value that is not bytes), or a null.
        """
        value = record.value
        problem = bytearray_problem(record.value_schema, value)
        if problem is None and value is None:
            problem = "ByteArrayFormat cannot write a null value"
        if problem is not None:
            raise ValueError(
                f"{problem}; offset {record.offset} of {record.topic}-{record.partition}"
            )
        return bytes(value) + self.separator

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
