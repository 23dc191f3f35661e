"""The sink's JVM line functions alone, in Spark: JVM CPU seconds per pass over the bench values.

    python bench/line_functions.py [--records 1020000] [--rounds 3] [--functions value,line,...]
                                   [--ascii] [--baseline DIR]

Writes ``--records`` values of ``bench/json_sink.py`` (1 KB schemaless JSON, ``json_payload``)
once to ``bench/results/line-values-<records>.parquet``, then for each function starts a fresh
Spark session in its own child process (``local[<cores>]``, the sink's session), caches the values
and runs ``sum(length(f(value)))`` ``--rounds`` times, printing the JVM's CPU seconds (from
``/proc``) and wall time of each pass: the first pass of a fresh JVM (while the JIT compiles)
and the warm ones. Functions: ``value`` (no function: the scan alone), ``line``
(``SchemalessJsonLine``, what the sink runs), ``reference`` (``JsonConverterLine``: Kafka's
JsonConverter and ObjectMapper); and the hand-off of the values to the Python workers
(``mapInArrow`` into a function that counts rows), measured as the whole machine's busy CPU
(run nothing else): ``handoff-value`` (the value column), ``handoff-both`` (the value and a copy
of it, as the line path carries a value and its line). With ``--baseline DIR`` (a checkout of an
earlier commit), each line function runs also with that checkout's ``s3connect-jvm.jar``
(``json_sink.baseline_jars``), as ``<function>-baseline``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent / "src"), str(BENCH)]

KNOWN = ("value", "handoff-value", "handoff-both")
CLASSES = {
    "line": "s3connect.jvm.SchemalessJsonLine",
    "reference": "s3connect.jvm.JsonConverterLine",
}


def values_file(records: int, ascii: bool) -> Path:
    """The bench values as a Parquet file, written once; with ``ascii``, every non-ASCII
    character written as a ``\\u`` escape (as Python's ``json.dumps`` writes by default)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from json_sink import json_payload

    path = BENCH / "results" / f"line-values-{records}{'-ascii' if ascii else ''}.parquet"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        payloads = (json_payload(i, 1024) for i in range(records))
        if ascii:
            payloads = (json.dumps(json.loads(p), separators=(",", ":")).encode() for p in payloads)
        values = pa.array(list(payloads), pa.binary())
        pq.write_table(pa.table({"value": values}), path, row_group_size=50_000)
    return path


def _jvm_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_cpu() -> float:
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")  # but idle, iowait


def _count(batches: Iterator[Any]) -> Iterator[Any]:
    import pyarrow as pa

    yield pa.RecordBatch.from_pydict({"n": [sum(batch.num_rows for batch in batches)]})


def child(function: str, label: str, path: Path, rounds: int) -> None:
    """One fresh session: ``rounds`` passes of ``function`` over the cached values."""
    from s3connect.spark.session import get_spark

    spark = get_spark("bench-line-functions")
    cores = os.cpu_count() or 2
    values = spark.read.parquet(str(path)).repartition(3 * cores).cache()
    values.selectExpr("sum(length(value))").collect()  # read and cached
    query, clock = _pass(spark, values, function)
    for r in range(rounds):
        cpu, wall = clock(), time.monotonic()
        query().collect()  # a new DataFrame: one that ran once reuses its shuffle's output
        print(
            f"{label:<18} pass {r}: {'all' if function.startswith('handoff') else 'JVM'} CPU "
            f"{clock() - cpu:5.1f} s  wall {time.monotonic() - wall:5.1f} s",
            flush=True,
        )


def _pass(spark: Any, values: Any, function: str) -> tuple[Callable[[], Any], Callable[[], float]]:
    """The query of a pass of ``function`` (made anew for each) and the CPU clock it is
    measured with."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import BinaryType

    pid = int(spark.sparkContext._jvm.ProcessHandle.current().pid())
    if function.startswith("handoff"):
        columns = [F.col("value")]
        if function == "handoff-both":
            columns.append(F.concat("value", F.lit(b"\n")).alias("line"))
        query = partial(values.select(*columns).mapInArrow, _count, "n long")
        return lambda: query().agg(F.sum("n")), _machine_cpu
    if function in CLASSES:
        spark.udf.registerJavaFunction("f", CLASSES[function], BinaryType())
        return partial(values.selectExpr, "sum(length(f(value)))"), partial(_jvm_cpu, pid)
    return partial(values.selectExpr, "sum(length(value))"), partial(_jvm_cpu, pid)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_020_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--functions", default="value,line,reference")
    parser.add_argument("--baseline", type=Path, help="a checkout for the -baseline runs")
    parser.add_argument("--ascii", action="store_true", help="values with \\u escapes")
    parser.add_argument("--child")
    parser.add_argument("--label")
    args = parser.parse_args()
    path = values_file(args.records, args.ascii)
    if args.child:
        child(args.child, args.label or args.child, path, args.rounds)
        return 0
    command = [
        sys.executable,
        __file__,
        "--records",
        str(args.records),
        "--rounds",
        str(args.rounds),
    ]
    unknown = set(args.functions.split(",")) - {*KNOWN, *CLASSES}
    if unknown:
        parser.error(f"unknown functions {sorted(unknown)}; known: {', '.join([*KNOWN, *CLASSES])}")
    for function in args.functions.split(","):
        subprocess.run([*command, "--child", function], check=True)
        if args.baseline and function in CLASSES:
            from json_sink import baseline_jars

            jars = {"S3CONNECT_JARS_DIR": str(baseline_jars(args.baseline.resolve()))}
            label = ["--label", f"{function}-baseline"]
            subprocess.run(
                [*command, "--child", function, *label], check=True, env={**os.environ, **jars}
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
