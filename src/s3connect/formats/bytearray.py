"""Raw value bytes, as Confluent's ByteArrayRecordWriterProvider."""

from __future__ import annotations

from collections.abc import Sequence
from typing import BinaryIO

from s3connect.connect.records import SinkRecord
from s3connect.formats.common import check_compression, check_level, open_stream

__all__ = ["ByteArrayFormat"]


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
        stream = open_stream(out, self.compression, self.level)
        for record in records:
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
            stream.write(data + self.separator)
        stream.close()
