"""The line path from Confluent's AvroConverter into ParquetFormat: a batch's Avro datums of one
schema become Parquet's columns at once, not records.

The JVM reads each datum beside the Kafka value (:mod:`s3connect.spark.jvm_lines`,
``s3connect.jvm.RegistryAvroRow``) into a row of its plain Avro values, one column
(``avro_row_<id>``) per schema the query's topics have as their latest value schema, null where
the value is not in that schema or its datum is not read exactly. The rows of a batch's first
such record are typed by its Connect schema (:func:`~s3connect.formats.payloads.avro_rows`);
every other record (another schema, a null row, a batch holding a value the Python reader may
read otherwise) goes through the per-record path, which decides its file, rotation and errors.
Without the JVM's columns every record goes per record.
"""

from __future__ import annotations

import pyarrow as pa

from s3connect.connect.schema import ConnectSchema
from s3connect.convert.avro_data import AvroDataOptions
from s3connect.convert.base import Converter
from s3connect.formats.payloads import avro_rows
from s3connect.sink.envelopes import SchemaLines
from s3connect.sink.registry_columns import first_framed

__all__ = ["AVRO_ROW_PREFIX", "registry_avro_rows"]

AVRO_ROW_PREFIX = "avro_row_"
"""The JVM's columns of rows: ``avro_row_<schema id>``."""


def registry_avro_rows(converter: Converter, options: AvroDataOptions) -> SchemaLines:
    """The rows of AvroConverter's datums (``converter``) as ParquetFormat (AvroData's
    ``options``) writes their values."""

    def rows_of(rows: pa.RecordBatch, topic: str) -> tuple[pa.Array, ConnectSchema] | None:
        found = first_framed(rows, AVRO_ROW_PREFIX)
        if found is None:
            return None
        name, first = found
        try:
            value, schema = converter.to_connect(topic, rows.column("value")[first].as_py())
            if value is None or schema is None:
                return None
            return avro_rows(rows.column(name), schema, options), schema
        except Exception:  # the per-record path raises it again, or writes what this refused
            return None

    return rows_of
