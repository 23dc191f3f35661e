"""What the ports of Confluent's S3 sink tests share: ``S3SinkConnectorTestBase`` and
``TestWithMockedS3``'s connector config, and ``StorageSinkTestBase``'s schemas."""

from __future__ import annotations

from pathlib import Path

from s3connect.config.sink import SinkConfig
from s3connect.connect.schema import ConnectSchema, Field, Type

TOPIC = "test-topic"
LA = "America/Los_Angeles"
AVRO = "io.confluent.connect.s3.format.avro.AvroFormat"

STRING = ConnectSchema(Type.STRING)
INT32 = ConnectSchema(Type.INT32)
PRIMITIVES = (
    Field("boolean", ConnectSchema(Type.BOOLEAN)),
    Field("int", INT32),
    Field("long", ConnectSchema(Type.INT64)),
    Field("float", ConnectSchema(Type.FLOAT32)),
    Field("double", ConnectSchema(Type.FLOAT64)),
)
"""``createSchema``'s fields."""
SCHEMA = ConnectSchema(Type.STRUCT, name="record", version=1, fields=PRIMITIVES)  # createSchema
NEW_SCHEMA = ConnectSchema(  # createNewSchema: version 2, a string field with a default
    Type.STRUCT,
    name="record",
    version=2,
    fields=(*PRIMITIVES, Field("string", ConnectSchema(Type.STRING, default="abc"))),
)
SCHEMA_NO_VERSION = ConnectSchema(  # createSchemaNoVersion
    Type.STRUCT, name="record", fields=PRIMITIVES
)

AVRO_RECORD = {  # the Avro schema AvroData makes of SCHEMA
    "type": "record",
    "name": "record",
    "fields": [
        {"name": "boolean", "type": "boolean"},
        {"name": "int", "type": "int"},
        {"name": "long", "type": "long"},
        {"name": "float", "type": "float"},
        {"name": "double", "type": "double"},
    ],
    "connect.version": 1,
    "connect.name": "record",
}


def confluent_config(tmp_path: Path, fmt: str = AVRO, **extra: str) -> SinkConfig:
    """``S3SinkConnectorTestBase.createProps`` + ``TestWithMockedS3.createProps`` (format
    ``fmt``, flush.size 3, ``_`` and ``#`` delimiters, Los Angeles time), plus ``extra``."""
    return SinkConfig.from_mapping(
        {
            "topics": TOPIC,
            "kafka.bootstrap.servers": "127.0.0.1:9092",
            "checkpoint.location": str(tmp_path / "ck"),
            "s3.bucket.name": "kafka.bucket",
            "store.url": f"file://{tmp_path / 'out'}",
            "format.class": fmt,
            "flush.size": "3",
            "partitioner.class": "io.confluent.connect.storage.partitioner.DefaultPartitioner",
            "partition.field.name": "int",
            "path.format": "'year'=YYYY_'month'=MM_'day'=dd_'hour'=HH",
            "locale": "en",
            "timezone": LA,
            "directory.delim": "_",
            "file.delim": "#",
            **extra,
        }
    )
