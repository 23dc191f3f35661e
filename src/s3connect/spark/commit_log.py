"""The commit log: one Delta table row per committed object, written idempotently.

Each micro-batch appends its rows with Delta's idempotent-write options (``txnAppId`` = the sink's
id, ``txnVersion`` = the batch id), so a replayed batch adds nothing twice. Query it with SQL::

    SELECT topic, partition, count(*), sum(record_count) FROM delta.`<path>` GROUP BY 1, 2
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from s3connect.sink.output import COMMIT_COLUMNS, ddl

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["COMMIT_LOG_SCHEMA", "append_commit_log", "append_once", "is_table_path"]

COMMIT_LOG_SCHEMA = ddl({**COMMIT_COLUMNS, "committed_at": "TIMESTAMP"})


def is_table_path(table: str) -> bool:
    """True when ``table`` names a storage path rather than a catalog table."""
    return "/" in table or "://" in table


def append_commit_log(
    spark: SparkSession, table: str, rows: list[dict[str, Any]], app_id: str, batch_id: int
) -> None:
    """Append ``rows`` (committed objects) to the Delta table, once per (app_id, batch_id)."""
    now = datetime.now(UTC).replace(tzinfo=None)
    df = spark.createDataFrame(
        [(*(r[name] for name in COMMIT_COLUMNS), now) for r in rows], COMMIT_LOG_SCHEMA
    )
    append_once(df, table, app_id, batch_id)


def append_once(df: DataFrame, table: str, app_id: str, batch_id: int) -> None:
    """Append ``df`` to the Delta table (name or path) unless (app_id, batch_id) already did:
    Delta's idempotent writes (``txnAppId`` / ``txnVersion``)."""
    writer = (
        df.write.format("delta")
        .mode("append")
        .option("txnAppId", app_id)
        .option("txnVersion", batch_id)
    )
    if is_table_path(table):
        writer.save(table)
    else:
        writer.saveAsTable(table)
