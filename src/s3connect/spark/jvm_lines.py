"""The sink's line path computed in the query, beside the Kafka value column, by this project's
JVM functions (``jvm/src/s3connect/jvm``, in ``s3connect-jvm.jar``): the JSON lines of
JsonConverter (``schemas.enable=false``) into JsonFormat as Kafka's own JsonConverter and Jackson
give them (``SchemalessJsonLine``), and the Avro datums of JsonConverter envelopes
(``schemas.enable=true``) into AvroFormat (``JsonAvroDatum``) or where their payloads start, for
Arrow's JSON reader, into ParquetFormat (``JsonParquetPayload``), and Confluent's AvroConverter's
datums as rows of their values into ParquetFormat (``RegistryAvroRow``) or whether AvroFormat
writes them as they are (``RegistryAvroDatum``), one column per latest value schema of the
query's topics (:func:`s3connect.sink.registry_columns.latest_value_schemas`).

When the jar is not on the cluster (a Databricks cluster without the library, serverless
compute), the Python workers compute the same lines and datums (:mod:`s3connect.sink.lines`,
:mod:`s3connect.sink.envelopes`; Parquet payloads go per record); so they do, record by record,
wherever a JVM function returns null.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from s3connect.config.sink import SinkConfig
from s3connect.sink.avro_datums import AVRO_DATUM_PREFIX
from s3connect.sink.avro_rows import AVRO_ROW_PREFIX
from s3connect.sink.lines import (
    AVRO_DATUMS_PLAN,
    AVRO_ROWS_PLAN,
    DATUM_PLAN,
    PAYLOAD_PLAN,
    line_plan,
)
from s3connect.sink.registry_columns import latest_value_schemas, wire_prefix

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import DataType

__all__ = [
    "DATUM_FUNCTION",
    "FIELD_FUNCTION",
    "FUNCTION",
    "JVM_LINES_ENV",
    "PAYLOAD_FUNCTION",
    "registered",
    "with_jvm_lines",
]

logger = logging.getLogger(__name__)

FUNCTION = "s3connect_schemaless_json_line"
FIELD_FUNCTION = "s3connect_schemaless_json_field_line"
DATUM_FUNCTION = "s3connect_json_avro_datum"
PAYLOAD_FUNCTION = "s3connect_json_parquet_payload"
_CLASSES = {
    FUNCTION: "s3connect.jvm.SchemalessJsonLine",
    FIELD_FUNCTION: "s3connect.jvm.SchemalessJsonFieldLine",
    DATUM_FUNCTION: "s3connect.jvm.JsonAvroDatum",
    PAYLOAD_FUNCTION: "s3connect.jvm.JsonParquetPayload",
}
_ENVELOPE_COLUMNS = {DATUM_FUNCTION: "line", PAYLOAD_FUNCTION: "payload_start"}
JVM_LINES_ENV = "S3CONNECT_JVM_LINES"
"""Set to ``off`` to compute every line in the Python workers (to compare, or to rule it out)."""

_told = False  # whether the missing function was logged (once per process)
_LINE_FIELDS = "_s3connect_line_fields"


def with_jvm_lines(rows: DataFrame, config: SinkConfig) -> DataFrame:
    """``rows`` with a ``line`` column from Kafka's JsonConverter (and for the FieldPartitioner
    a ``fields`` column) when the config's line path is JSON to JSON and the function is on
    the cluster; else ``rows`` as they are."""
    plan = line_plan(config)
    if plan is None or os.environ.get(JVM_LINES_ENV) == "off":
        return rows
    from pyspark.sql import functions as F

    if plan.name == AVRO_ROWS_PLAN:
        return _with_registry_columns(rows, config, _avro_row_function, AVRO_ROW_PREFIX)
    if plan.name == AVRO_DATUMS_PLAN:
        return _with_registry_columns(rows, config, _avro_datum_function, AVRO_DATUM_PREFIX)
    if plan.name in (DATUM_PLAN, PAYLOAD_PLAN):
        return _with_envelope_lines(
            rows, DATUM_FUNCTION if plan.name == DATUM_PLAN else PAYLOAD_FUNCTION
        )
    if plan.name != "json-json":
        return rows

    if not plan.field_paths:
        if not registered(rows.sparkSession, FUNCTION):
            return rows
        return rows.withColumn("line", F.call_function(FUNCTION, F.col("value")))
    if not registered(rows.sparkSession, FIELD_FUNCTION):
        return rows
    paths = F.lit(json.dumps([list(path) for path in plan.field_paths]))
    both = rows.withColumn(_LINE_FIELDS, F.call_function(FIELD_FUNCTION, F.col("value"), paths))
    return both.select(  # Spark evaluates the function once (it does not inline it twice)
        *rows.columns,
        F.col(f"{_LINE_FIELDS}.line").alias("line"),
        F.col(f"{_LINE_FIELDS}.fields").alias("fields"),
    )


def _with_envelope_lines(rows: DataFrame, function: str) -> DataFrame:
    """``rows`` with the Avro datums of JsonConverter envelopes (``line``:
    ``s3connect.jvm.JsonAvroDatum``) or where their payloads start (``payload_start``:
    ``s3connect.jvm.JsonParquetPayload``), and the number of each one's schema
    (``schema_id``)."""
    from pyspark.sql import functions as F

    if not registered(rows.sparkSession, function):
        return rows
    column = _ENVELOPE_COLUMNS[function]
    both = rows.withColumn(_LINE_FIELDS, F.call_function(function, F.col("value")))
    return both.select(
        *rows.columns,
        F.col(f"{_LINE_FIELDS}.{column}").alias(column),
        F.col(f"{_LINE_FIELDS}.schema_id").alias("schema_id"),
    )


_AVRO_ROW_CLASS = "s3connect.jvm.RegistryAvroRow"
_AVRO_DATUM_CLASS = "s3connect.jvm.RegistryAvroDatum"
SchemaFunction = Callable[["SparkSession", str], "str | None"]


def _with_registry_columns(
    rows: DataFrame, config: SinkConfig, function_of: SchemaFunction, prefix: str
) -> DataFrame:
    """``rows`` with a column ``<prefix><id>`` per latest value schema of the config's topics:
    the rows of its Avro datums (``s3connect.jvm.RegistryAvroRow``) or whether the datum is
    written as it is (``s3connect.jvm.RegistryAvroDatum``); null for a record whose schema id is
    in its ``__value_schema_id`` header (its value is no framed datum: read record by record)."""
    from pyspark.sql import functions as F

    # (the headers are JSON text here: processor_input)
    framed = F.coalesce(~F.col("headers").contains('"key":"__value_schema_id"'), F.lit(True))
    for schema_id, text in latest_value_schemas(config):
        function = function_of(rows.sparkSession, text)
        if function is not None:
            argument = wire_prefix(schema_id) + text.encode()
            checked = F.call_function(function, F.col("value"), F.lit(bytearray(argument)))
            rows = rows.withColumn(f"{prefix}{schema_id}", F.when(framed, checked))
    return rows


def _avro_datum_function(spark: SparkSession, schema: str) -> str | None:
    """The registered function checking datums of ``schema``; None when the JVM does not check
    such a schema or the class is not on the cluster."""
    from pyspark.sql.types import BooleanType

    def returns(jvm_class: Any) -> DataType | None:
        return BooleanType() if jvm_class.checks(schema) else None

    return _schema_function(spark, schema, "avro_datum", _AVRO_DATUM_CLASS, returns)


def _avro_row_function(spark: SparkSession, schema: str) -> str | None:
    """The registered function reading datums of ``schema`` into rows; None when the JVM does
    not read such a schema or the class is not on the cluster."""
    from pyspark.sql.types import _parse_datatype_json_string

    def returns(jvm_class: Any) -> DataType | None:
        text = jvm_class.sparkTypeJson(schema)
        return None if text is None else _parse_datatype_json_string(text)

    return _schema_function(spark, schema, "avro_row", _AVRO_ROW_CLASS, returns)


def _schema_function(
    spark: SparkSession,
    schema: str,
    kind: str,
    class_name: str,
    returns: Callable[[Any], DataType | None],
) -> str | None:
    """The JVM class's function registered for one schema (named by its hash), returning what
    ``returns`` (given the class) says; None when that is None (the class does not take such a
    schema) or the class is not on the cluster."""
    name = f"s3connect_{kind}_" + hashlib.sha256(schema.encode()).hexdigest()[:16]
    if spark.catalog.functionExists(name):
        return name
    try:
        jvm_class: Any = spark._jvm
        for part in class_name.split("."):
            jvm_class = getattr(jvm_class, part)
        data_type = returns(jvm_class)
    except Exception as exc:  # no py4j (Spark Connect) or no class
        _tell(class_name, exc)
        return None
    if data_type is None:
        return None
    spark.udf.registerJavaFunction(name, class_name, data_type)
    return name


def registered(spark: SparkSession, function: str) -> bool:
    """Whether the JVM ``function`` is in ``spark``, registering it when it is not; False when
    its jar is not there (said once in the log)."""
    from pyspark.sql.types import (
        BinaryType,
        IntegerType,
        LongType,
        StructField,
        StructType,
    )

    if spark.catalog.functionExists(function):
        return True
    returns: DataType = BinaryType()
    if function == FIELD_FUNCTION:
        returns = StructType([StructField(f, BinaryType()) for f in ("line", "fields")])
    elif function == DATUM_FUNCTION:
        returns = StructType(
            [StructField("line", BinaryType()), StructField("schema_id", LongType())]
        )
    elif function == PAYLOAD_FUNCTION:
        returns = StructType(
            [StructField("payload_start", IntegerType()), StructField("schema_id", LongType())]
        )
    try:
        spark.udf.registerJavaFunction(function, _CLASSES.get(function, function), returns)
    except Exception as exc:  # the class or Kafka's connect-json is missing
        _tell(_CLASSES.get(function, function), exc)
        return False
    return True


def _tell(name: str, exc: Exception) -> None:
    """Log once per process that a JVM class is missing."""
    global _told
    if not _told:
        logger.info(
            "JSON lines and Avro datums are computed in the Python workers: %s is not on the "
            "cluster (add s3connect-jvm.jar and org.apache.kafka:connect-json to its "
            "libraries to compute them in the JVM): %s",
            name,
            str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
        )
        _told = True
