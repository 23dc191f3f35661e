"""Parquet files: Confluent's ParquetRecordWriterProvider (parquet-avro over AvroData) and the
source's reader of them.

Columns come from :mod:`s3connect.formats.arrow`; the footer keeps AvroData's Avro schema
(``parquet.avro.schema``), from which the reader takes the Connect schema as
``AvroData.toConnectSchema`` makes it.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from typing import Any, BinaryIO

import pyarrow as pa
import pyarrow.parquet as pq

from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema
from s3connect.convert.avro_data import AvroDataOptions, avro_schema_json, to_connect_schema
from s3connect.formats.arrow import arrow_schema, compile_to_arrow, from_arrow_value
from s3connect.formats.base import FileRecords
from s3connect.formats.common import file_schema
from s3connect.formats.payloads import json_payload_table
from s3connect.util.java_utf8 import java_utf8_ready

__all__ = ["PARQUET_CODECS", "ParquetFormat", "read_parquet"]

# parquet.codec -> (pyarrow compression, CompressionCodecName.getExtension()).
# "lz4": Arrow writes the LZ4 codec with Hadoop framing, which parquet-mr reads. There is no
# "lz4_raw": pyarrow cannot write the LZ4_RAW codec, and a file named .lz4raw must hold it.
PARQUET_CODECS: dict[str, tuple[str, str]] = {
    "none": ("none", ""),
    "uncompressed": ("none", ""),
    "snappy": ("snappy", ".snappy"),
    "gzip": ("gzip", ".gz"),
    "brotli": ("brotli", ".br"),
    "lz4": ("lz4", ".lz4hadoop"),
    "zstd": ("zstd", ".zstd"),
}
_PAGE_SIZE = 64 * 1024  # ParquetRecordWriterProvider.PAGE_SIZE


class ParquetFormat:
    """Writes the records' values (structs) to one Parquet file, ``.<codec>.parquet``.

    Columns follow the Avro schema AvroData derives (int8/int16 as int32, optional fields
    nullable, Timestamp as timestamp[ms, UTC], Date as date32, Time as time32[ms], Decimal as
    decimal(precision, scale)). Dictionary encoding on, 64 KiB pages, and the Avro schema kept in
    the ``parquet.avro.schema`` footer key as parquet-avro does.

    Args:
        codec: ``parquet.codec``: ``snappy`` (default), ``none``, ``gzip``, ``zstd``, ``lz4`` or
            ``brotli``.
        batch_size: records per Arrow batch (one row group each).
        avro_data: AvroData's settings (``enhanced.avro.schema.support``,
            ``allow.optional.map.keys``); AvroData's defaults when not given.
    """

    def __init__(
        self,
        codec: str = "snappy",
        *,
        batch_size: int = 50_000,
        avro_data: AvroDataOptions | None = None,
    ) -> None:
        key = codec.lower()
        if key not in PARQUET_CODECS:
            raise ValueError(
                f"parquet.codec must be one of {', '.join(PARQUET_CODECS)}, got {codec!r}"
            )
        self.codec = key
        self._compression, codec_extension = PARQUET_CODECS[key]
        self.extension = codec_extension + ".parquet"
        if batch_size < 1:
            raise ValueError(f"batch_size must be positive, got {batch_size}")
        self.batch_size = batch_size
        self.avro_data = avro_data or AvroDataOptions()

    def write(self, records: Sequence[SinkRecord], out: BinaryIO) -> None:
        """Write one complete Parquet file of the records' values to ``out``.

        Raises:
            ValueError: schemaless or non-struct values, or a value not matching the schema.
        """
        schema = file_schema(records)
        if schema is None:
            raise ValueError(
                "ParquetFormat needs records with a struct value schema; got schemaless data"
            )
        columns = self._columns(schema)
        convert = compile_to_arrow(schema, self.avro_data)
        with self._writer(out, columns) as writer:
            for start in range(0, len(records), self.batch_size):
                batch = records[start : start + self.batch_size]
                rows = [_row(convert, record) for record in batch]
                writer.write_batch(_rows_batch(rows, columns))

    def write_payloads(
        self, schema: ConnectSchema, parts: Sequence[pa.Array | SinkRecord], out: BinaryIO
    ) -> None:
        """Write one Parquet file of records of the value schema ``schema``, in order: runs of
        their payloads' JSON text (binary arrays, read by
        :func:`~s3connect.formats.payloads.json_payload_table`) or of their values as Arrow
        columns already (struct arrays, from :func:`~s3connect.formats.payloads.avro_rows`), and
        single records; the same bytes :meth:`write` writes for those records."""
        columns = self._columns(schema)
        convert = compile_to_arrow(schema, self.avro_data)
        tables = []
        for single, group in itertools.groupby(parts, key=lambda p: isinstance(p, SinkRecord)):
            if single:
                rows = [_row(convert, record) for record in group]
                tables.append(pa.Table.from_batches([_rows_batch(rows, columns)]))
            else:
                tables += [_run_table(lines, columns) for lines in group]
        whole = pa.concat_tables(tables)
        with self._writer(out, columns) as writer:
            for start in range(0, whole.num_rows, self.batch_size):
                writer.write_table(whole.slice(start, self.batch_size).combine_chunks())

    def _columns(self, schema: ConnectSchema) -> pa.Schema:
        """The Arrow schema of ``schema``'s values, with AvroData's Avro schema as its footer."""
        options = self.avro_data
        return arrow_schema(schema, options).with_metadata(
            {"parquet.avro.schema": avro_schema_json(schema, options), "writer.model.name": "avro"}
        )

    def _writer(self, out: BinaryIO, columns: pa.Schema) -> pq.ParquetWriter:
        return pq.ParquetWriter(
            out,
            columns,
            compression=self._compression,
            use_dictionary=True,
            data_page_size=_PAGE_SIZE,
        )


def _run_table(run: pa.Array, columns: pa.Schema) -> pa.Table:
    if pa.types.is_struct(run.type):
        return pa.Table.from_arrays(run.flatten(), schema=columns)
    return json_payload_table(run, columns)


def _rows_batch(rows: list[Any], columns: pa.Schema) -> pa.RecordBatch:
    try:
        return pa.RecordBatch.from_pylist(rows, schema=columns)
    except UnicodeEncodeError:  # a lone surrogate: "?", as parquet-avro's Java strings write it
        return pa.RecordBatch.from_pylist(java_utf8_ready(rows), schema=columns)


def _row(convert: Callable[[Any], Any], record: SinkRecord) -> Any:
    if record.value is None:
        raise ValueError(f"Parquet cannot write a null value (offset {record.offset})")
    return convert(record.value)


def read_parquet(data: bytes, extension: str, separator: bytes) -> FileRecords:
    """The records of a Parquet file the sink wrote (any codec pyarrow reads): the Connect schema
    of its ``parquet.avro.schema`` footer key and the rows as Connect values (``extension`` and
    ``separator`` are not used).

    Raises:
        ValueError: not a Parquet file, or one without the Avro schema (not a sink file).
    """
    # ParquetFile over a buffer: pq.read_table crashes this interpreter at exit.
    parquet = pq.ParquetFile(pa.BufferReader(data))
    metadata = parquet.schema_arrow.metadata or {}
    avro = metadata.get(b"parquet.avro.schema")
    if avro is None:
        raise ValueError("Parquet object has no parquet.avro.schema footer key (not a sink file)")
    schema = to_connect_schema(json.loads(avro))
    rows = parquet.read().to_pylist()
    return FileRecords(schema, [from_arrow_value(schema, row) for row in rows])
