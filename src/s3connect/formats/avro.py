"""Avro object container files, as Confluent's AvroRecordWriterProvider (Avro DataFileWriter)."""

from __future__ import annotations

import bz2
import hashlib
import io
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import BinaryIO

import fastavro
import pyarrow as pa

from s3connect.connect.records import SinkRecord
from s3connect.formats.common import file_schema
from s3connect.formats.connect_avro import avro_schema, avro_schema_json, compile_to_avro

__all__ = ["AVRO_CODECS", "AvroFormat"]

AVRO_CODECS = ("null", "deflate", "snappy", "bzip2")
_MAGIC = b"Obj\x01"
_SYNC_INTERVAL = 64_000  # DataFileConstants.DEFAULT_SYNC_INTERVAL (4000 * 16)


def _long(n: int) -> bytes:
    """Avro's zig-zag varint encoding of a long."""
    n = (n << 1) ^ (n >> 63)
    out = bytearray()
    while n & ~0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _snappy(data: bytes) -> bytes:
    # Avro's snappy codec: raw snappy block followed by the big-endian CRC32 of the input.
    compressed = pa.compress(data, codec="snappy", asbytes=True)
    return bytes(compressed) + zlib.crc32(data).to_bytes(4, "big")


def _deflate(level: int) -> Callable[[bytes], bytes]:
    def compress(data: bytes) -> bytes:
        deflater = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
        return deflater.compress(data) + deflater.flush()

    return compress


class AvroFormat:
    """Writes the records' values to one Avro container file (extension ``.avro``).

    The writer schema is ``AvroData.fromConnectSchema(value schema)``; values are converted with
    ``AvroData.fromConnectData``. Blocks are flushed every 64000 bytes as Avro Java does.

    Args:
        codec: ``avro.codec``: ``null``, ``deflate``, ``snappy`` or ``bzip2``.
        deflate_level: zlib level for ``deflate`` (-1 = default, as CodecFactory.fromString).
    """

    extension = ".avro"

    def __init__(self, codec: str = "null", *, deflate_level: int = -1) -> None:
        if codec not in AVRO_CODECS:
            raise ValueError(f"avro.codec must be one of {', '.join(AVRO_CODECS)}, got {codec!r}")
        self.codec = codec
        self._compress: Callable[[bytes], bytes] = {
            "null": lambda data: data,
            "deflate": _deflate(deflate_level),
            "snappy": _snappy,
            "bzip2": lambda data: bz2.compress(data, 9),
        }[codec]

    def write(self, records: Sequence[SinkRecord], out: BinaryIO) -> None:
        """Write one complete Avro file of the records' values to ``out``.

        Raises:
            ValueError: schemaless records (Avro needs a schema), or a value not matching it.
        """
        schema = file_schema(records)
        if schema is None:
            raise ValueError(
                "AvroFormat needs records with a value schema; got schemaless data (use a "
                "converter with schemas, e.g. JsonConverter with schemas.enable=true)"
            )
        parsed = fastavro.parse_schema(avro_schema(schema))
        sync = _sync_marker(records)
        header = io.BytesIO()
        header.write(_MAGIC)
        meta = {
            "avro.schema": avro_schema_json(schema).encode("utf-8"),
            "avro.codec": self.codec.encode("ascii"),
        }
        header.write(_long(len(meta)))
        for key, value in meta.items():
            header.write(_long(len(key)) + key.encode("ascii"))
            header.write(_long(len(value)) + value)
        header.write(_long(0) + sync)
        out.write(header.getvalue())

        # fastavro's container writer encodes all records in one call and cuts blocks as Avro
        # Java does (a block ends after the record that takes it to >= 64000 bytes). Its header
        # is not AvroData's and its codecs are not ours: it writes uncompressed blocks, which are
        # re-framed behind our header with our codec.
        convert = compile_to_avro(schema)
        plain = io.BytesIO()
        fastavro.writer(
            plain,
            parsed,
            map(convert, [record.value for record in records]),
            codec="null",
            sync_interval=_SYNC_INTERVAL,
            sync_marker=sync,
        )
        for count, data in _plain_blocks(plain.getbuffer(), sync):
            self._write_block(out, data, count, sync)

    def _write_block(self, out: BinaryIO, block: bytes, count: int, sync: bytes) -> None:
        data = self._compress(block)
        out.write(_long(count) + _long(len(data)))
        out.write(data)
        out.write(sync)


def _read_long(buf: memoryview, pos: int) -> tuple[int, int]:
    """Avro's zig-zag varint at ``pos``: (value, next position)."""
    shift = n = 0
    while True:
        b = buf[pos]
        pos += 1
        n |= (b & 0x7F) << shift
        if not b & 0x80:
            return (n >> 1) ^ -(n & 1), pos
        shift += 7


def _plain_blocks(buf: memoryview, sync: bytes) -> Iterator[tuple[int, bytes]]:
    """(record count, block bytes) of each block of an uncompressed Avro container file."""
    pos = 4  # magic
    while True:  # the metadata map, in blocks
        entries, pos = _read_long(buf, pos)
        if entries == 0:
            break
        if entries < 0:
            entries = -entries
            _, pos = _read_long(buf, pos)
        for _ in range(2 * entries):  # key, value
            size, pos = _read_long(buf, pos)
            pos += size
    pos += len(sync)
    end = len(buf)
    while pos < end:
        count, pos = _read_long(buf, pos)
        size, pos = _read_long(buf, pos)
        block = bytes(buf[pos : pos + size])
        pos += size
        if buf[pos : pos + len(sync)] != sync:
            raise AssertionError("fastavro wrote an unexpected block layout")
        pos += len(sync)
        yield count, block


def _sync_marker(records: Sequence[SinkRecord]) -> bytes:
    """A sync marker derived from the records' Kafka coordinates, not random: the same input
    gives a byte-identical file, so a replayed micro-batch rewrites an identical object."""
    first, last = records[0], records[-1]
    ident = f"{first.topic}\0{first.partition}\0{first.offset}\0{last.offset}\0{len(records)}"
    return hashlib.md5(ident.encode("utf-8"), usedforsecurity=False).digest()
