"""Setup step: fetch the JVM pieces once from Maven Central; runs and tests only read them.

- ``.deps/kafka-libs``: the Apache Kafka broker (``stack/kafka-pom.xml``), run by
  ``stack/stack.py``.
- ``.deps/spark-jars``: the Spark Kafka connector, spark-avro and Delta (``stack/spark-pom.xml``)
  minus every artifact PySpark's own ``jars/`` already has (as ``spark.jars.packages`` would skip
  Spark's modules), put on ``spark.jars`` by :func:`s3connect.spark.get_spark`.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEPS = ROOT / ".deps"
_VERSIONED = re.compile(r"^(?P<name>.+?)-\d[\w.\-]*\.jar$")


def _artifact(jar: str) -> str:
    match = _VERSIONED.match(jar)
    return match.group("name") if match else jar


def _mvn_copy(pom: Path, out: Path) -> None:
    stamp = out / ".pom"
    if stamp.exists() and stamp.read_text() == pom.read_text():
        print(f"{out.relative_to(ROOT)}: up to date")
        return
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    subprocess.run(
        [
            "mvn", "-q", "-B", "-s", str(ROOT / "stack" / "maven-settings.xml"), "-f", str(pom),
            "dependency:copy-dependencies", f"-DoutputDirectory={tmp}", "-DincludeScope=runtime",
        ],
        check=True,
    )  # fmt: skip
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    stamp.write_text(pom.read_text())
    print(f"{out.relative_to(ROOT)}: {len(list(out.glob('*.jar')))} jars")


def _spark_extras(all_jars: Path, out: Path) -> None:
    import pyspark

    shipped = {_artifact(j.name) for j in (Path(pyspark.__file__).parent / "jars").glob("*.jar")}
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    kept = [j for j in sorted(all_jars.glob("*.jar")) if _artifact(j.name) not in shipped]
    for jar in kept:
        shutil.copy2(jar, out / jar.name)
    print(f"{out.relative_to(ROOT)}: {len(kept)} jars beside PySpark's own")


def main() -> int:
    _mvn_copy(ROOT / "stack" / "kafka-pom.xml", DEPS / "kafka-libs")
    _mvn_copy(ROOT / "stack" / "spark-pom.xml", DEPS / "spark-jars-all")
    _spark_extras(DEPS / "spark-jars-all", DEPS / "spark-jars")
    return 0


if __name__ == "__main__":
    sys.exit(main())
