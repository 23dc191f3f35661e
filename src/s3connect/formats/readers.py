"""Format readers for the S3 source: one object's bytes -> its records' Connect values.

The reverse of the writers in this package, and of Confluent's: Avro container files (every
codec the sink writes: null, deflate, snappy, bzip2), Parquet (every codec pyarrow reads), JSON
lines and ByteArray (both optionally gzip-compressed, told by the ``.gz`` extension)::

    file = read_file("avro", data, ".avro")
    file.schema, file.values   # ConnectSchema | None, list of Connect values
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import fastavro
import fastavro.read
import pyarrow as pa
import pyarrow.parquet as pq

from s3connect.connect.schema import ConnectSchema, Type
from s3connect.convert.json import JsonConverter
from s3connect.formats.connect_from_avro import connect_schema, connect_value

__all__ = ["BYTES_SCHEMA", "FileRecords", "read_file", "split_records"]

BYTES_SCHEMA = ConnectSchema(Type.BYTES, optional=True)
"""The schema of ByteArray records (ByteArrayConverter's)."""


@dataclass(frozen=True, slots=True)
class FileRecords:
    """The records of one object: their shared value schema (None: schemaless) and values."""

    schema: ConnectSchema | None
    values: list[Any]


def _varint(data: bytes) -> int:
    shift = out = 0
    for b in data:
        out |= (b & 0x7F) << shift
        if not b & 0x80:
            break
        shift += 7
    return out


def _read_long(fo: Any) -> int:
    shift = n = 0
    while True:
        b = fo.read(1)[0]
        n |= (b & 0x7F) << shift
        if not b & 0x80:
            return int((n >> 1) ^ -(n & 1))
        shift += 7


def _snappy_block(fo: Any) -> io.BytesIO:
    """Avro's snappy codec: a raw snappy block then the big-endian CRC32 of the plain data."""
    length = _read_long(fo)
    data = fo.read(length - 4)
    crc = int.from_bytes(fo.read(4), "big")
    raw = pa.decompress(data, decompressed_size=_varint(data[:10]), codec="snappy", asbytes=True)
    if zlib.crc32(raw) != crc:
        raise ValueError("Avro snappy block CRC mismatch")
    return io.BytesIO(raw)


# fastavro's own snappy reader needs cramjam; pyarrow ships snappy.
fastavro.read.BLOCK_READERS["snappy"] = _snappy_block


def _gunzip(data: bytes, extension: str) -> bytes:
    return gzip.decompress(data) if extension.endswith(".gz") else data


def split_records(data: bytes, separator: bytes) -> list[bytes]:
    """Split ByteArray content at ``separator``; every record ends with one.

    Raises:
        ValueError: the content does not end with the separator (a truncated object).
    """
    if not data:
        return []
    if not data.endswith(separator):
        raise ValueError("ByteArray object does not end with the separator: it is truncated")
    return data[: -len(separator)].split(separator)


def _avro(data: bytes, extension: str, separator: bytes) -> FileRecords:
    reader = fastavro.reader(io.BytesIO(data))
    schema = connect_schema(json.loads(reader.metadata["avro.schema"]))
    return FileRecords(schema, [connect_value(schema, v) for v in reader])


def _parquet(data: bytes, extension: str, separator: bytes) -> FileRecords:
    # ParquetFile over a buffer: pq.read_table crashes this interpreter at exit.
    parquet = pq.ParquetFile(pa.BufferReader(data))
    metadata = parquet.schema_arrow.metadata or {}
    avro = metadata.get(b"parquet.avro.schema")
    if avro is None:
        raise ValueError("Parquet object has no parquet.avro.schema footer key (not a sink file)")
    schema = connect_schema(json.loads(avro))
    rows = parquet.read().to_pylist()
    return FileRecords(schema, [connect_value(schema, row) for row in rows])


def _json(data: bytes, extension: str, separator: bytes) -> FileRecords:
    converter = JsonConverter(schemas_enable=False)
    lines = split_records(_gunzip(data, extension), b"\n")
    return FileRecords(None, [converter.to_connect("", line)[0] for line in lines])


def _bytearray(data: bytes, extension: str, separator: bytes) -> FileRecords:
    return FileRecords(BYTES_SCHEMA, split_records(_gunzip(data, extension), separator))


_READERS: dict[str, Callable[[bytes, str, bytes], FileRecords]] = {
    "avro": _avro,
    "parquet": _parquet,
    "json": _json,
    "bytearray": _bytearray,
}


def read_file(fmt: str, data: bytes, extension: str, separator: bytes = b"\n") -> FileRecords:
    """Decode one object of format ``fmt`` (its ``extension`` tells ``.gz`` compression).

    Raises:
        ValueError: the object is not a valid file of that format.
    """
    try:
        return _READERS[fmt](data, extension, separator)
    except (ValueError, KeyError, EOFError, OSError, IndexError, pa.ArrowException) as exc:
        raise ValueError(f"cannot read it as {fmt}: {type(exc).__name__}: {exc}") from exc
