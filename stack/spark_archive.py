"""Setup step: a class-data-sharing archive of the local Spark driver (``.deps/spark-cds.jsa``).

A Spark driver JVM loads and verifies its classes before its first query (9 to 10 s on two
cores), and the test suite starts dozens of them (the CLI, the notebooks, local-cluster
executors). An archive of those classes, dumped once here from a session that runs what the
sink and source run (Python Arrow functions, Delta, Avro, JSON), lets each later JVM map them
instead (``-XX:SharedArchiveFile``; JDK 17 has no ``-XX:+AutoCreateSharedArchive``). Only the
tests use it (``tests/conftest.py``); a JVM whose class path does not match the archive ignores
it. Run by ``make install`` after ``fetch_jars.py``; remade when this file or the jars change.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT / ".deps" / "spark-cds.jsa"
JAVA_OPTIONS = "-XX:SharedArchiveFile={archive} -Xlog:cds=off -Xlog:cds+dynamic=off"
"""The JVM options that map the archive, with no warning when a JVM cannot use it (a JVM of
another class path, such as a broker the tests restart)."""
QUICK_JIT = "-XX:TieredStopAtLevel=1"
"""The quick (C1) compiler only: enough for a short run on test-sized data, whose optimising
compiles would otherwise compete with the run for the two cores."""


def java_options(*, quick_jit: bool = True) -> str | None:
    """The JVM options that use the archive (and :data:`QUICK_JIT`); None when it was not made."""
    if not ARCHIVE.is_file():
        return None
    options = JAVA_OPTIONS.format(archive=ARCHIVE)
    return f"{options} {QUICK_JIT}" if quick_jit else options


def _workload(folder: str) -> None:
    """What the sink and the source load: a session, a Python Arrow function, Delta, Avro and
    JSON functions, Parquet; in this process, whose JVM dumps the archive when it exits."""
    from pyspark.sql import functions as f

    from s3connect.spark.session import get_spark

    spark = get_spark("s3connect-archive")
    frame = spark.range(2000, numPartitions=2).selectExpr(
        "id", "cast(id as string) as text", "to_json(named_struct('id', id)) as json"
    )
    mapped = frame.mapInArrow(lambda batches: batches, frame.schema)
    with_avro = mapped.select(
        "id", f.from_json("json", "id long").alias("row"), f.to_json(f.struct("text")).alias("t")
    ).select("id", "row", "t", f.expr("to_avro(row)").alias("avro"))
    with_avro.write.format("delta").save(f"{folder}/delta")
    spark.read.format("delta").load(f"{folder}/delta").groupBy("t").count().collect()
    with_avro.write.parquet(f"{folder}/parquet")
    spark.stop()


def main() -> int:
    """Dump the archive from a child process running :func:`_workload`."""
    dumped = ARCHIVE.with_name(f".{ARCHIVE.name}.{os.getpid()}")  # beside it: renamed in place
    dumped.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "JAVA_TOOL_OPTIONS": f"-XX:ArchiveClassesAtExit={dumped}"}
        env.pop("S3CONNECT_LOG_FILE", None)
        code = f"import sys; sys.path.insert(0, {str(ROOT / 'stack')!r}); "
        code += f"import spark_archive; spark_archive._workload({tmp!r})"
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp
        )
    if done.returncode != 0 or not dumped.is_file():
        dumped.unlink(missing_ok=True)
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n", file=sys.stderr)
        print("spark_archive: the class archive could not be made", file=sys.stderr)
        return 1
    dumped.replace(ARCHIVE)
    print(f"{ARCHIVE.relative_to(ROOT)}: {ARCHIVE.stat().st_size // 2**20} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
