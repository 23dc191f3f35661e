"""Shared pieces of the formats: the record check and ``s3.compression.type`` streams for the
writers; gunzip and separator splitting for the readers."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterable, Sequence
from typing import BinaryIO

import pyarrow as pa
import pyarrow.compute as pc

from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema

__all__ = [
    "COMPRESSIONS",
    "GzipStream",
    "PlainStream",
    "check_compression",
    "check_level",
    "file_schema",
    "gunzip",
    "open_stream",
    "split_column",
    "split_records",
    "write_parts",
]

COMPRESSIONS = ("none", "gzip")
# java.util.zip.GZIPOutputStream's fixed header: no name, mtime 0, XFL 0, OS 255 ("unknown",
# since JDK 16, JDK-8244706; Confluent Platform runs on Java 17 or 21; JDK 8-15 wrote 0).
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"


def file_schema(records: Sequence[SinkRecord]) -> ConnectSchema | None:
    """The value schema shared by every record of one file.

    Raises:
        ValueError: no records, or the records disagree on the value schema.
    """
    if not records:
        raise ValueError("A file needs at least one record")
    schema = records[0].value_schema
    same = {id(schema)}  # schema objects found equal (records share a few, as a rule)
    for record in records[1:]:
        if id(record.value_schema) in same:
            continue
        if record.value_schema == schema:
            same.add(id(record.value_schema))
        else:
            raise ValueError(
                f"Records of one file must share one value schema; offset {record.offset} of "
                f"{record.topic}-{record.partition} differs from offset {records[0].offset}"
            )
    return schema


def check_level(level: int) -> int:
    """Validate an ``s3.compression.level`` (-1 for the zlib default, else 0..9)."""
    if not -1 <= level <= 9:
        raise ValueError(f"Compression level must be -1..9, got {level}")
    return level


def check_compression(compression: str) -> str:
    """Validate an ``s3.compression.type`` (``none`` or ``gzip``)."""
    if compression not in COMPRESSIONS:
        raise ValueError(
            f"Compression must be one of {', '.join(COMPRESSIONS)}, got {compression!r}"
        )
    return compression


class GzipStream:
    """Writes a gzip member to ``out`` as java.util.zip.GZIPOutputStream does (byte for byte).

    Call :meth:`close` to write the trailer; ``out`` itself stays open.
    """

    def __init__(self, out: BinaryIO, level: int = -1) -> None:
        self._out = out
        self._deflate = zlib.compressobj(check_level(level), zlib.DEFLATED, -zlib.MAX_WBITS)
        self._crc = 0
        self._size = 0
        out.write(_GZIP_HEADER)

    def write(self, data: bytes | memoryview) -> None:
        """Compress ``data`` into the stream."""
        self._crc = zlib.crc32(data, self._crc)
        self._size += len(data)
        self._out.write(self._deflate.compress(data))

    def close(self) -> None:
        """Finish the deflate stream and write CRC32 and size (little endian)."""
        self._out.write(self._deflate.flush())
        self._out.write(self._crc.to_bytes(4, "little"))
        self._out.write((self._size & 0xFFFFFFFF).to_bytes(4, "little"))


class PlainStream:
    """An uncompressed pass-through with the same interface as :class:`GzipStream`."""

    def __init__(self, out: BinaryIO) -> None:
        self._out = out

    def write(self, data: bytes | memoryview) -> None:
        """Write ``data`` as is."""
        self._out.write(data)

    def close(self) -> None:
        """Nothing to finish; ``out`` stays open."""


def open_stream(out: BinaryIO, compression: str, level: int) -> GzipStream | PlainStream:
    """Wrap ``out`` for ``s3.compression.type``, as S3OutputStream.wrapForCompression does."""
    return GzipStream(out, level) if compression == "gzip" else PlainStream(out)


def write_parts(
    parts: Iterable[bytes | memoryview], out: BinaryIO, compression: str, level: int
) -> None:
    """Write ``parts`` in order as one complete (optionally gzipped) file."""
    stream = open_stream(out, compression, level)
    for part in parts:
        stream.write(part)
    stream.close()


def gunzip(data: bytes, extension: str) -> bytes:
    """``data`` decompressed when ``extension`` ends with ``.gz`` (``s3.compression.type=gzip``)."""
    return gzip.decompress(data) if extension.endswith(".gz") else data


def split_records(data: bytes, separator: bytes) -> list[bytes]:
    """Split content at ``separator``; every record ends with one.

    Raises:
        ValueError: the content does not end with the separator (a truncated object).
    """
    if not data:
        return []
    return data[: _body_size(data, separator)].split(separator)


_BINARY_LIMIT = 2**31
"""Bytes an Arrow binary column can hold (32-bit offsets); a larger object's is large binary."""


def split_column(data: bytes, separator: bytes) -> pa.Array:
    """:func:`split_records` as one Arrow column (binary; large binary from 2 GiB), split by
    Arrow: no Python object per record, the same pieces (non-overlapping separators from the
    left).

    Raises:
        ValueError: the content does not end with the separator (a truncated object).
    """
    if not data or not separator:
        return pa.array(split_records(data, separator), pa.binary())
    end = _body_size(data, separator)
    small = end < _BINARY_LIMIT
    kind, offsets = (pa.binary(), pa.int32()) if small else (pa.large_binary(), pa.int64())
    size = pa.array([0, end], offsets).buffers()[1]
    whole = pa.Array.from_buffers(kind, 1, [None, size, pa.py_buffer(data)])
    pieces: pa.Array = pc.split_pattern(whole, pattern=separator).flatten()
    return pieces


def _body_size(data: bytes, separator: bytes) -> int:
    """The length of ``data`` without its final separator."""
    if not data.endswith(separator):
        raise ValueError("The object does not end with the separator: it is truncated")
    return len(data) - len(separator)
