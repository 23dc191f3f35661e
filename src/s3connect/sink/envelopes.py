"""The line path for JsonConverter envelopes (``schemas.enable=true``): into AvroFormat as Avro
datums, into ParquetFormat as the payloads' JSON text, a batch at a time.

The JVM gives them beside the Kafka value (:mod:`s3connect.spark.jvm_lines`) with a
``schema_id`` naming each envelope's schema: ``s3connect.jvm.JsonAvroDatum`` each datum
(``line``), ``s3connect.jvm.JsonParquetPayload`` where each payload starts (``payload_start``),
when Arrow's JSON reader reads its bytes as they are into what the Python writer writes. Either
way a batch's lines are those of one schema, the first its records have; a record of another
schema, or one the JVM left out (null), goes through the per-record path, which decides its
file, rotation and errors. Without the JVM's columns the Python workers compute the Avro datums
record by record; Parquet payloads all go per record.

A file of runs is written by :meth:`~s3connect.formats.avro.AvroFormat.write_datums` or
:meth:`~s3connect.formats.parquet.ParquetFormat.write_payloads`.
"""

from __future__ import annotations

from collections.abc import Callable

import pyarrow as pa

from s3connect.connect.schema import ConnectSchema
from s3connect.convert.json import JsonConverter
from s3connect.formats.avro import AvroFormat
from s3connect.util.arrow import keep_where

__all__ = ["SchemaLines", "envelope_datums", "envelope_payloads"]

SchemaLines = Callable[[pa.RecordBatch, str], "tuple[pa.Array, ConnectSchema] | None"]
"""A batch of Kafka rows and its topic -> each record's line (null: per record) and the lines'
value schema; None: the whole batch goes per record."""


def envelope_datums(fmt: AvroFormat) -> SchemaLines:
    """The datums of JsonConverter envelopes as ``fmt`` writes them."""
    converter = JsonConverter(schemas_enable=True)

    def datums(rows: pa.RecordBatch, topic: str) -> tuple[pa.Array, ConnectSchema] | None:
        if "line" not in rows.schema.names:
            return _in_python(rows, converter, fmt)
        found = _first_schema(rows, rows.column("line"), converter)
        return None if found is None else (keep_where(found[0], rows.column("line")), found[2])

    return datums


def envelope_payloads() -> SchemaLines:
    """The payloads of JsonConverter envelopes, as the JSON text Arrow's JSON reader reads
    (:meth:`~s3connect.formats.parquet.ParquetFormat.write_payloads`)."""
    import pyarrow.compute as pc  # imports pandas: not at import time (the CLI's status)

    converter = JsonConverter(schemas_enable=True)

    def payloads(rows: pa.RecordBatch, topic: str) -> tuple[pa.Array, ConnectSchema] | None:
        if "payload_start" not in rows.schema.names:
            return None
        starts = rows.column("payload_start")
        found = _first_schema(rows, starts, converter)
        if found is None:
            return None
        same, first, schema = found
        # One schema, one envelope prefix: every payload starts where the first one does.
        text = pc.binary_slice(rows.column("value"), starts[first].as_py(), -1)
        return keep_where(same, text), schema

    return payloads


def _first_schema(
    rows: pa.RecordBatch, known: pa.Array, converter: JsonConverter
) -> tuple[pa.Array, int, ConnectSchema] | None:
    """The records whose ``schema_id`` is that of the first record ``known`` holds a value for
    (the JVM names each distinct envelope prefix by a number it never reuses), that first
    record's index and its schema."""
    import pyarrow.compute as pc

    if known.null_count == len(known):
        return None
    ids = rows.column("schema_id")
    first = pc.index(known.is_valid(), True).as_py()
    try:
        value, schema = converter.to_connect("", rows.column("value")[first].as_py())
    except Exception:  # the per-record path raises it again and decides
        return None
    if value is None or schema is None:
        return None
    return pc.fill_null(pc.equal(ids, ids[first]), False), first, schema


def _in_python(
    rows: pa.RecordBatch, converter: JsonConverter, fmt: AvroFormat
) -> tuple[pa.Array, ConnectSchema] | None:
    """The datums computed here, record by record (no JVM function on the cluster)."""
    datums: list[bytes | None] = []
    schema: ConnectSchema | None = None
    encode: Callable[[object], bytes] | None = None
    for data in rows.column("value").to_pylist():
        datum = None
        try:
            value, found = converter.to_connect("", data)
            if value is not None and found is not None:
                if schema is None:
                    schema, encode = found, fmt.datum_encoder(found)
                if encode is not None and (found is schema or found == schema):
                    datum = encode(value)
        except Exception:  # the per-record path raises it again and decides
            datum = None
        datums.append(datum)
    return None if schema is None else (pa.array(datums, pa.binary()), schema)
