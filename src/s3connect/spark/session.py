"""The one place a SparkSession is made.

On Databricks (``DATABRICKS_RUNTIME_VERSION`` set) the runtime already has Kafka, Avro, Delta and
RocksDB: the existing session is returned and nothing is configured. Locally the session gets the
jars fetched at setup (``.deps/spark-jars``, see ``stack/fetch_jars.py``), Delta's SQL
extension and catalog, and the RocksDB state store, plus the confs of ``S3CONNECT_SPARK_CONF``
(:data:`SPARK_CONF_ENV`). Nothing is resolved or downloaded here.

:func:`redact_secret_options` widens which data source options Spark shows as
``*********(redacted)`` in a plan: the Kafka client's secrets are necessarily options of Spark's
Kafka source and sink.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = [
    "SECRET_OPTIONS_REGEX",
    "SPARK_CONF_ENV",
    "extra_confs",
    "get_spark",
    "local_jars",
    "on_databricks",
    "redact_secret_options",
]

logger = logging.getLogger(__name__)

_OPTIONS_REDACTION = "spark.sql.redaction.options.regex"
SECRET_OPTIONS_REGEX = (
    r"(?i)kafka[.](?:sasl|ssl)[.]|jaas|password|secret|token|credential|access[.]?key"
    r"|basic[.]auth|user[.]info|sse[.]customer"
)
"""Options Spark redacts in plans, matched (as Spark does) against each option's key and value:
every Kafka SASL and TLS client property (the JAAS line, key store passwords, a PEM private key
in ``kafka.ssl.keystore.key``, OAuth client secrets), whatever names a password, secret, token or
credential, and our secret keys should one ever become an option. Spark's own
``spark.redaction.regex`` (default ``(?i)secret|password|token|access[.]?key``) misses a PEM key
and a JAAS line without ``password``."""


def on_databricks() -> bool:
    """True inside a Databricks runtime."""
    return "DATABRICKS_RUNTIME_VERSION" in os.environ


def redact_secret_options(spark: SparkSession) -> None:
    """Add :data:`SECRET_OPTIONS_REGEX` to the session's ``spark.sql.redaction.options.regex``
    (a runtime SQL conf, so on Databricks too), keeping what it already redacts. Call it before
    a query is defined: a streaming query runs with a copy of the session's confs."""
    current = spark.conf.get(_OPTIONS_REDACTION, None) or ""
    if SECRET_OPTIONS_REGEX in current:
        return
    wanted = f"{current}|{SECRET_OPTIONS_REGEX}" if current else SECRET_OPTIONS_REGEX
    try:
        spark.conf.set(_OPTIONS_REDACTION, wanted)
    except Exception as exc:  # a runtime that does not let sessions set it (serverless)
        logger.warning(
            "could not set %s: Spark redacts options with its own rules only (%s)",
            _OPTIONS_REDACTION, exc,
        )  # fmt: skip


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
    for key, value in extra_confs().items():
        builder = builder.config(key, value)
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


SPARK_CONF_ENV = "S3CONNECT_SPARK_CONF"
"""Environment variable: more Spark confs for a local session, ``key=value`` pairs separated by
commas (e.g. ``spark.eventLog.enabled=true,spark.eventLog.dir=/tmp/events``)."""


def extra_confs() -> dict[str, str]:
    """The confs of :data:`SPARK_CONF_ENV`, in order.

    Raises:
        ValueError: A pair without ``=``.
    """
    confs: dict[str, str] = {}
    for pair in os.environ.get(SPARK_CONF_ENV, "").split(","):
        if not pair.strip():
            continue
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"{SPARK_CONF_ENV}: {pair.strip()!r} is not key=value")
        confs[key.strip()] = value.strip()
    return confs


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
