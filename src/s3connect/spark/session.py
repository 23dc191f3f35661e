"""The one place a SparkSession is made.

On Databricks (``DATABRICKS_RUNTIME_VERSION`` set) the runtime already has Kafka, Avro, Delta and
RocksDB: the existing session is returned and nothing is configured. Locally the session gets the
jars fetched at setup (``.deps/spark-jars``, see ``stack/fetch_jars.py``), Delta's SQL
extension and catalog, and the RocksDB state store. Nothing is resolved or downloaded here.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["get_spark", "local_jars", "on_databricks"]


def on_databricks() -> bool:
    """True inside a Databricks runtime."""
    return "DATABRICKS_RUNTIME_VERSION" in os.environ


def _jars_dir() -> Path:
    env = os.environ.get("S3CONNECT_JARS_DIR")
    if env:
        return Path(env)
    for parent in Path(__file__).resolve().parents:
        candidate = parent / ".deps" / "spark-jars"
        if candidate.is_dir():
            return candidate
    return Path.cwd() / ".deps" / "spark-jars"


def local_jars() -> list[Path]:
    """The locally fetched connector jars; raises if setup has not fetched them."""
    jars = sorted(_jars_dir().glob("*.jar"))
    if not jars:
        raise RuntimeError(
            f"no Spark connector jars in {_jars_dir()}: run `make install` (it fetches them once)"
        )
    return jars


def get_spark(
    app_name: str = "s3connect", *, shuffle_partitions: int | None = None
) -> SparkSession:
    """The active SparkSession on Databricks, else a local one (Kafka, Avro, Delta, RocksDB)."""
    from pyspark.sql import SparkSession

    if on_databricks():
        return SparkSession.builder.getOrCreate()
    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    cores = os.cpu_count() or 2
    # Python workers must import s3connect: run them with this interpreter (the project venv).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = (
        SparkSession.builder.master(os.environ.get("S3CONNECT_SPARK_MASTER", f"local[{cores}]"))
        .appName(app_name)
        .config("spark.jars", ",".join(str(j) for j in local_jars()))
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config(
            "spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog"
        )
        .config(
            "spark.sql.streaming.stateStore.providerClass",
            "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider",
        )
        # Shuffle partitions are the stateful sink's tasks (one holds several topic-partitions,
        # by hash): a few per core even out an uneven hash split across the cores.
        .config("spark.sql.shuffle.partitions", str(shuffle_partitions or 4 * cores))
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.databricks.delta.snapshotPartitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.driver.memory", os.environ.get("S3CONNECT_DRIVER_MEMORY", "4g"))
    )
    log4j = _log4j_config()
    if log4j is None:
        return builder.getOrCreate()
    option = f"-Dlog4j2.configurationFile={log4j.as_uri()}"
    builder = builder.config("spark.driver.extraJavaOptions", option).config(
        "spark.executor.extraJavaOptions", option
    )
    if os.environ.get(VERBOSE_ENV) == "1":
        return builder.getOrCreate()
    with _stderr_into(Path(os.environ[LOG_FILE_ENV])):  # the JVM's own stderr: the log file
        return builder.getOrCreate()


LOG_FILE_ENV = "S3CONNECT_LOG_FILE"
"""Environment variable: the run's log file; Spark's own log lines go there, not the console."""
VERBOSE_ENV = "S3CONNECT_VERBOSE"
"""Environment variable: ``1`` also prints Spark's warnings on the console."""

_LOG4J = """status = error
appender.file.type = File
appender.file.name = file
appender.file.fileName = {log_file}
appender.file.append = true
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = %d{{yy/MM/dd HH:mm:ss}} %p %c{{1}}: %m%n%ex
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{{yy/MM/dd HH:mm:ss}} %p %c{{1}}: %m%n%ex
appender.console.filter.threshold.type = ThresholdFilter
appender.console.filter.threshold.level = {console_level}
rootLogger.level = warn
rootLogger.appenderRef.file.ref = file
rootLogger.appenderRef.console.ref = console
"""


@contextlib.contextmanager
def _stderr_into(log_file: Path) -> Iterator[None]:
    """Point this process's stderr (file descriptor 2) at ``log_file`` while the JVM starts, so
    that the JVM inherits it (its launcher's warnings, uncaught errors); then restore it."""
    sys.stderr.flush()
    saved = os.dup(2)
    with log_file.open("ab") as out:
        os.dup2(out.fileno(), 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def _log4j_config() -> Path | None:
    """A log4j2 configuration sending the JVM's log lines to the run's log file (and to the
    console only with ``S3CONNECT_VERBOSE=1``); None when no log file is set."""
    log_file = os.environ.get(LOG_FILE_ENV)
    if not log_file:
        return None
    console = "warn" if os.environ.get(VERBOSE_ENV) == "1" else "off"
    path = Path(log_file).with_suffix(".log4j2.properties")
    path.write_text(_LOG4J.format(log_file=Path(log_file).resolve(), console_level=console))
    return path
