"""The line path into Avro: JsonConverter envelopes (``schemas.enable=true``) as AvroFormat's
datums, a batch at a time.

The Avro datums of a batch come from the JVM (``s3connect.jvm.JsonAvroDatum``, a ``line``
column with a ``schema_id`` naming each envelope's schema: :mod:`s3connect.spark.jvm_lines`) or,
without it, from the Python writer's own conversion, record by record. Either way a batch's datums
are those of one schema, the first its records have; a record of another schema, or one the JVM
left out (null), goes through the per-record path, which decides its file, rotation and errors.
A file of runs of datums is written by :meth:`~s3connect.formats.avro.AvroFormat.write_datums`.
"""

from __future__ import annotations

from collections.abc import Callable

import pyarrow as pa

from s3connect.connect.schema import ConnectSchema
from s3connect.convert.json import JsonConverter
from s3connect.formats.avro import AvroFormat
from s3connect.util.arrow import keep_where

__all__ = ["SchemaDatums", "envelope_datums"]

SchemaDatums = Callable[[pa.RecordBatch], "tuple[pa.Array, ConnectSchema] | None"]
"""A batch of Kafka rows -> each record's datum (null: per record) and the datums' value
schema; None: the whole batch goes per record."""


def envelope_datums(fmt: AvroFormat) -> SchemaDatums:
    """The datums of JsonConverter envelopes as ``fmt`` writes them."""
    converter = JsonConverter(schemas_enable=True)

    def datums(rows: pa.RecordBatch) -> tuple[pa.Array, ConnectSchema] | None:
        if "line" in rows.schema.names:
            return _from_jvm(rows, converter)
        return _in_python(rows, converter, fmt)

    return datums


def _from_jvm(
    rows: pa.RecordBatch, converter: JsonConverter
) -> tuple[pa.Array, ConnectSchema] | None:
    """The JVM's datums of the batch's first schema: the records whose ``schema_id`` is the
    first one's (the JVM names each distinct envelope prefix by a number it never reuses)."""
    import pyarrow.compute as pc  # imports pandas: not at import time (the CLI's status)

    lines, ids = rows.column("line"), rows.column("schema_id")
    if lines.null_count == len(lines):
        return None
    first = pc.index(lines.is_valid(), True).as_py()
    try:
        value, schema = converter.to_connect("", rows.column("value")[first].as_py())
    except Exception:  # the per-record path raises it again and decides
        return None
    if value is None or schema is None:
        return None
    same = pc.fill_null(pc.equal(ids, ids[first]), False)
    return keep_where(same, lines), schema


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
