"""Setup step: fetch the JVM pieces once from Maven Central; runs and tests only read them.

- ``.deps/kafka-libs``: the Apache Kafka broker (``stack/kafka-pom.xml``), run by
  ``stack/stack.py``.
- ``.deps/connect-libs``: Kafka Connect's JsonConverter and transforms, and Joda-Time
  (``stack/connect-pom.xml``), run by the tests beside ours as the reference (``tests/reference/``).
  Fetched again whenever that POM changes (its copy is kept as ``.pom``).
- ``.deps/spark-jars``: the Spark Kafka connector, spark-avro and Delta (``stack/spark-pom.xml``)
  minus every artifact PySpark's own ``jars/`` already has (as ``spark.jars.packages`` would skip
  Spark's modules), put on ``spark.jars`` by :func:`s3connect.spark.session.get_spark`.
- ``.deps/spark-jars/s3connect-jvm.jar``: this project's own JVM code (``jvm/src``, the sink's
  JSON line function), compiled with ``javac`` against PySpark's jars and the ones above.
- ``.deps/schema-registry``: Apicurio Registry, a real server of Confluent's Schema Registry REST
  API (under ``/apis/ccompat/v7``), run by ``stack/stack.py``. Its release is published on Maven
  Central as a ready-to-run Quarkus distribution (``apicurio-registry-app:<v>:tar.gz:all``, a
  runner jar and its ``lib/``); the 2.6 line is kept because it runs on Java 17 (3.x needs 21).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEPS = ROOT / ".deps"
_VERSIONED = re.compile(r"^(?P<name>.+?)-\d[\w.\-]*\.jar$")
MVN = ["mvn", "-q", "-B", "-s", str(ROOT / "stack" / "maven-settings.xml")]
REGISTRY = "io.apicurio:apicurio-registry-app:2.6.13.Final:tar.gz:all"


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
            *MVN, "-f", str(pom), "dependency:copy-dependencies",
            f"-DoutputDirectory={tmp}", "-DincludeScope=runtime",
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


def _build_jvm(src: Path, jar: Path) -> None:
    """Compile ``src`` (Java 17) into ``jar``, against PySpark's jars and those beside ``jar``."""
    import pyspark

    sources = sorted(src.rglob("*.java"))
    classpath = [str(Path(pyspark.__file__).parent / "jars" / "*"), str(jar.parent / "*")]
    with tempfile.TemporaryDirectory() as classes:
        subprocess.run(
            ["javac", "--release", "17", "-nowarn", "-cp", ":".join(classpath), "-d", classes,
             *map(str, sources)],
            check=True,
        )  # fmt: skip
        with zipfile.ZipFile(jar, "w", zipfile.ZIP_DEFLATED) as out:
            for path in sorted(Path(classes).rglob("*.class")):
                out.write(path, path.relative_to(classes).as_posix())
    shown = jar.relative_to(ROOT) if jar.is_relative_to(ROOT) else jar
    print(f"{shown}: {len(sources)} Java sources")


def _schema_registry(coords: str, out: Path) -> None:
    """Fetch the registry distribution with Maven, unpack it into ``out`` (once per version)."""
    stamp = out / ".artifact"
    if stamp.exists() and stamp.read_text() == coords and any(out.glob("*-runner.jar")):
        print(f"{out.relative_to(ROOT)}: up to date")
        return
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    subprocess.run(
        [
            *MVN, "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy",
            f"-Dartifact={coords}", f"-DoutputDirectory={tmp}",
        ],
        check=True, cwd=tmp,
    )  # fmt: skip
    (archive,) = tmp.glob("*.tar.gz")
    with tarfile.open(archive) as tar:
        tar.extractall(tmp, filter="data")
    archive.unlink()
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    stamp.write_text(coords)
    print(f"{out.relative_to(ROOT)}: {coords} ({len(list((out / 'lib').glob('*.jar')))} jars)")


def main() -> int:
    _mvn_copy(ROOT / "stack" / "kafka-pom.xml", DEPS / "kafka-libs")
    _mvn_copy(ROOT / "stack" / "connect-pom.xml", DEPS / "connect-libs")
    _mvn_copy(ROOT / "stack" / "spark-pom.xml", DEPS / "spark-jars-all")
    _spark_extras(DEPS / "spark-jars-all", DEPS / "spark-jars")
    _build_jvm(ROOT / "jvm" / "src", DEPS / "spark-jars" / "s3connect-jvm.jar")
    _schema_registry(REGISTRY, DEPS / "schema-registry")
    return 0


if __name__ == "__main__":
    sys.exit(main())
