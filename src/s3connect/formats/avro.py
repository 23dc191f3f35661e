"""Avro object container files: Confluent's AvroRecordWriterProvider (Avro DataFileWriter) and
the source's reader of them.

The writer schema is ``AvroData.fromConnectSchema`` of the value schema and the reader's Connect
schema ``AvroData.toConnectSchema`` of the file's (:mod:`s3connect.convert.avro_data`).
"""

from __future__ import annotations

import bz2
import hashlib
import io
import json
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, BinaryIO

import fastavro
import numpy as np
import pyarrow as pa

from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema
from s3connect.convert.avro_anything import ANYTHING_SCHEMA_JSON, anything_datum
from s3connect.convert.avro_anything import PARSED as ANYTHING_PARSED
from s3connect.convert.avro_data import (
    AvroDataOptions,
    avro_schema,
    avro_schema_json,
    compile_to_avro,
    connect_reader,
)
from s3connect.formats.base import FileRecords
from s3connect.formats.common import file_schema
from s3connect.util.avro_varint import encode_long, read_long, read_varint
from s3connect.util.java_utf8 import java_utf8_ready

__all__ = ["AVRO_CODECS", "AvroFormat", "read_avro", "sync_marker"]

AVRO_CODECS = ("null", "deflate", "snappy", "bzip2")
_MAGIC = b"Obj\x01"
_SYNC_SIZE = 16
_SYNC_INTERVAL = 64_000  # DataFileConstants.DEFAULT_SYNC_INTERVAL (4000 * 16)


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
        avro_data: AvroData's settings (``enhanced.avro.schema.support``,
            ``allow.optional.map.keys``); AvroData's defaults when not given.
    """

    extension = ".avro"

    def __init__(
        self,
        codec: str = "null",
        *,
        deflate_level: int = -1,
        avro_data: AvroDataOptions | None = None,
    ) -> None:
        if codec not in AVRO_CODECS:
            raise ValueError(f"avro.codec must be one of {', '.join(AVRO_CODECS)}, got {codec!r}")
        self.codec = codec
        self.avro_data = avro_data or AvroDataOptions()
        self._compress: Callable[[bytes], bytes] = {
            "null": lambda data: data,
            "deflate": _deflate(deflate_level),
            "snappy": _snappy,
            "bzip2": lambda data: bz2.compress(data, 9),
        }[codec]

    def write(self, records: Sequence[SinkRecord], out: BinaryIO) -> None:
        """Write one complete Avro file of the records' values to ``out``; schemaless values
        in AvroData's ``Anything`` record (``fromConnectSchema(null)``), as Confluent's.

        Raises:
            ValueError: a value not matching the schema, or of no schemaless Connect type.
        """
        schema = file_schema(records)
        first, last = records[0], records[-1]
        sync = sync_marker(first.topic, first.partition, first.offset, last.offset, len(records))
        convert: Callable[[Any], Any]
        if schema is None:
            text, parsed, convert = ANYTHING_SCHEMA_JSON, ANYTHING_PARSED, anything_datum
        else:
            text = avro_schema_json(schema, self.avro_data)
            parsed = fastavro.parse_schema(avro_schema(schema, self.avro_data))
            convert = compile_to_avro(schema, self.avro_data)
        self._write_header(out, text, sync)
        # fastavro's container writer encodes all records in one call and cuts blocks as Avro
        # Java does (a block ends after the record that takes it to >= 64000 bytes). Its header
        # is not AvroData's and its codecs are not ours: it writes uncompressed blocks, which are
        # re-framed behind our header with our codec.
        values = [record.value for record in records]
        try:
            plain = self._plain(parsed, map(convert, values), sync)
        except UnicodeEncodeError:  # a lone surrogate: "?", as Avro's Java strings write it
            plain = self._plain(parsed, (java_utf8_ready(convert(v)) for v in values), sync)
        for count, data in _plain_blocks(plain, sync):
            self._write_block(out, data, count, sync)

    def datum_encoder(self, schema: ConnectSchema) -> Callable[[Any], bytes]:
        """The Avro datum of a value of ``schema``, as :meth:`write` encodes it."""
        convert = compile_to_avro(schema, self.avro_data)
        parsed = fastavro.parse_schema(avro_schema(schema, self.avro_data))

        def encode(value: Any) -> bytes:
            out = io.BytesIO()
            datum = convert(value)
            try:
                fastavro.schemaless_writer(out, parsed, datum)
            except UnicodeEncodeError:  # a lone surrogate: "?", as in write()
                out = io.BytesIO()
                fastavro.schemaless_writer(out, parsed, java_utf8_ready(datum))
            return out.getvalue()

        return encode

    @staticmethod
    def _plain(parsed: Any, datums: Iterable[Any], sync: bytes) -> io.BytesIO:
        """The datums in fastavro's container, uncompressed (blocks cut as Avro Java cuts)."""
        plain = io.BytesIO()
        fastavro.writer(
            plain, parsed, datums, codec="null", sync_interval=_SYNC_INTERVAL, sync_marker=sync
        )
        return plain

    def write_datums(
        self, schema: ConnectSchema, datums: Sequence[pa.Array], sync: bytes, out: BinaryIO
    ) -> None:
        """Write one complete Avro file of values already encoded as ``schema``'s datums (Arrow
        binary arrays, in order, no nulls), in the blocks :meth:`write` cuts."""
        self._write_header(out, avro_schema_json(schema, self.avro_data), sync)
        joined = pa.concat_arrays(list(datums)) if len(datums) > 1 else datums[0]
        n = len(joined)
        ends = np.frombuffer(joined.buffers()[1], np.int32)[joined.offset : joined.offset + n + 1]
        data = joined.buffers()[2]
        start = 0
        while start < n:
            # a block ends after the record that takes it to >= _SYNC_INTERVAL bytes
            cut = int(np.searchsorted(ends[start + 1 :], ends[start] + _SYNC_INTERVAL))
            end = min(start + 1 + cut, n)
            block = data[int(ends[start]) : int(ends[end])].to_pybytes()
            self._write_block(out, block, end - start, sync)
            start = end

    def _write_header(self, out: BinaryIO, schema_json: str, sync: bytes) -> None:
        header = io.BytesIO()
        header.write(_MAGIC)
        meta = {
            "avro.schema": schema_json.encode("utf-8"),
            "avro.codec": self.codec.encode("ascii"),
        }
        header.write(encode_long(len(meta)))
        for key, value in meta.items():
            header.write(encode_long(len(key)) + key.encode("ascii"))
            header.write(encode_long(len(value)) + value)
        header.write(encode_long(0) + sync)
        out.write(header.getvalue())

    def _write_block(self, out: BinaryIO, block: bytes, count: int, sync: bytes) -> None:
        data = self._compress(block)
        out.write(encode_long(count) + encode_long(len(data)))
        out.write(data)
        out.write(sync)


def _plain_blocks(fo: io.BytesIO, sync: bytes) -> Iterator[tuple[int, bytes]]:
    """(record count, block bytes) of each block of an uncompressed Avro container file."""
    end = fo.seek(0, io.SEEK_END)
    fo.seek(0)
    if _header(fo)[1] != sync:
        raise AssertionError("fastavro wrote an unexpected sync marker")
    return _blocks(fo, sync, end)


def sync_marker(topic: str, partition: int, start: int, end: int, count: int) -> bytes:
    """A file's sync marker derived from its records' Kafka coordinates, not random: the same
    input gives a byte-identical file, so a replayed micro-batch rewrites an identical object."""
    ident = f"{topic}\0{partition}\0{start}\0{end}\0{count}"
    return hashlib.md5(ident.encode("utf-8"), usedforsecurity=False).digest()


# ---------------------------------------------------------------------------------------------
# Reading (the source)


def _header(fo: BinaryIO) -> tuple[dict[str, bytes], bytes]:
    """The metadata map and sync marker of an Avro container file, ``fo`` left after them.

    Raises:
        ValueError: no Avro magic; EOFError: the header is cut short.
    """
    if fo.read(4) != _MAGIC:
        raise ValueError("not an Avro object container file (no Obj\\x01 magic)")
    meta: dict[str, bytes] = {}
    while True:  # the metadata map, in blocks
        entries = read_long(fo)
        if entries == 0:
            break
        if entries < 0:
            entries = -entries
            read_long(fo)  # the block's size in bytes
        for _ in range(entries):
            key = fo.read(read_long(fo)).decode("utf-8")
            meta[key] = fo.read(read_long(fo))
    sync = fo.read(_SYNC_SIZE)
    if len(sync) != _SYNC_SIZE:
        raise EOFError("the Avro header ends before its sync marker")
    return meta, sync


def _blocks(fo: BinaryIO, sync: bytes, end: int) -> Iterator[tuple[int, bytes]]:
    """(record count, stored bytes) of each data block from ``fo``'s position to ``end``.

    Raises:
        ValueError: a block is cut short or not followed by the file's sync marker.
    """
    while fo.tell() < end:
        count = read_long(fo)
        size = read_long(fo)
        block = fo.read(size)
        if len(block) != size or fo.read(_SYNC_SIZE) != sync:
            raise ValueError("an Avro block is truncated or not followed by the sync marker")
        yield count, block


def _unsnappy(data: bytes) -> bytes:
    """Avro's snappy codec: a raw snappy block then the big-endian CRC32 of the plain data."""
    size = read_varint(io.BytesIO(data[:10]))  # snappy's preamble: the uncompressed length
    raw = pa.decompress(data[:-4], decompressed_size=size, codec="snappy", asbytes=True)
    if zlib.crc32(raw) != int.from_bytes(data[-4:], "big"):
        raise ValueError("Avro snappy block CRC mismatch")
    return bytes(raw)


_DECOMPRESS: dict[str, Callable[[bytes], bytes]] = {
    "null": bytes,
    "deflate": lambda data: zlib.decompress(data, -zlib.MAX_WBITS),
    "snappy": _unsnappy,
    "bzip2": bz2.decompress,
}


def read_avro(data: bytes, extension: str, separator: bytes) -> FileRecords:
    """The records of an Avro container file (any codec the sink writes): the Connect schema
    ``AvroData.toConnectSchema`` makes of the file's schema, and the values as
    ``AvroData.toConnectData`` makes them (``extension`` and ``separator`` are not used).

    Raises:
        ValueError: not an Avro file of a known codec, or a schema AvroData rejects.
    """
    fo = io.BytesIO(data)
    meta, sync = _header(fo)
    codec = meta.get("avro.codec", b"null").decode("utf-8")
    decompress = _DECOMPRESS.get(codec)
    if decompress is None:
        raise ValueError(f"Avro codec {codec!r} is not supported (only {', '.join(_DECOMPRESS)})")
    reader = connect_reader(json.loads(meta["avro.schema"]))
    values: list[Any] = []
    for count, block in _blocks(fo, sync, len(data)):
        buffer = io.BytesIO(decompress(block))
        values.extend(reader.read(buffer) for _ in range(count))
    return FileRecords(reader.schema, values)
