"""What the benches share: measuring a child process with its whole process tree, the bench
topics made once, the stack's S3 server, and a baseline checkout's jars."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

ROOT = Path(__file__).resolve().parent.parent
KAFKA = f"127.0.0.1:{os.environ.get('KAFKA_PORT', '9092')}"

_TICKS = os.sysconf("SC_CLK_TCK")


def tree_sample(pid: int) -> tuple[int, dict[int, float]]:
    """Resident memory (KiB) of a process and all its descendants, and each one's CPU seconds
    so far (user + system)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            ppid = int(fields[1])
            with open(f"/proc/{entry}/status") as f:
                kb = next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
        except (FileNotFoundError, ProcessLookupError, StopIteration, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
        rss[int(entry)] = kb
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / _TICKS
    total, stack, tree = 0, [pid], {}
    while stack:
        p = stack.pop()
        total += rss.get(p, 0)
        tree[p] = cpu.get(p, 0.0)
        stack += children.get(p, [])
    return total, tree


@dataclass(frozen=True)
class Measured:
    """One child process run to its end, measured with its whole process tree."""

    returncode: int
    wall_seconds: float
    """From just before the process is started to its exit."""
    peak_rss_kb: int
    """The largest sum of the tree's resident memory seen in one sample."""
    cpu_seconds: float
    """User + system CPU seconds, each process of the tree at its last sample, summed."""
    reaped_cpu_seconds: float
    """User + system CPU seconds of every descendant reaped by its parent before the child
    exited (``getrusage(RUSAGE_CHILDREN)``): exact for those, blind to any left running."""


def run_measured(
    cmd: list[str], env: dict[str, str], log: Path, interval: float = 0.2, *, tail: bool = False
) -> Measured:
    """Run ``cmd`` (stdout and stderr into ``log``) to its end, sampling its process tree's
    resident memory and CPU seconds every ``interval`` seconds.

    ``tail``: this process becomes a child subreaper (Linux), so descendants that outlive the
    child (PySpark's JVM, which shuts down after its driver exits) are re-parented here; the
    measure then lasts until they have all exited too, and they are reaped here, so that
    ``reaped_cpu_seconds`` covers every process the child started, however short-lived.
    """
    import resource

    if tail:
        _become_subreaper()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu: dict[int, float] = {}
    peak = 0
    started = time.monotonic()
    with log.open("w") as sink:
        child = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT, env=env)
        while child.poll() is None:
            rss, tree = tree_sample(child.pid)
            peak = max(peak, rss)
            cpu.update(tree)
            time.sleep(interval)
    if tail:
        peak = max(peak, _reap_orphans(cpu, interval))
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    reaped = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Measured(child.returncode, wall, peak, sum(cpu.values()), reaped)


def _become_subreaper() -> None:
    import ctypes

    pr_set_child_subreaper = 36
    if ctypes.CDLL(None, use_errno=True).prctl(pr_set_child_subreaper, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def _reap_orphans(cpu: dict[int, float], interval: float, timeout: float = 120.0) -> int:
    """Sample and reap this process's remaining children until none is left (or ``timeout``,
    then they are left running); the peak resident memory (KiB) of those trees."""
    peak, deadline, me = 0, time.monotonic() + timeout, os.getpid()
    while time.monotonic() < deadline:
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            return peak
        rss, tree = tree_sample(me)
        tree.pop(me)
        peak = max(peak, rss - _own_rss_kb())
        cpu.update(tree)
        time.sleep(interval)
    return peak


def _own_rss_kb() -> int:
    with open("/proc/self/status") as f:
        return next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)


def ensure_topic(
    records: int,
    partitions: int,
    record_bytes: int,
    *,
    prefix: str = "bench",
    payload: Callable[[int, int], bytes],
) -> str:
    """The benchmark topic ``<prefix>-<records>-<partitions>p-<record_bytes>b``, produced once
    (reused when it already holds ``records``); record ``i`` is ``payload(i, record_bytes)`` in
    partition ``i % partitions``."""
    from confluent_kafka import Consumer, Producer, TopicPartition
    from confluent_kafka.admin import AdminClient, NewTopic  # type: ignore[attr-defined]

    topic = f"{prefix}-{records}-{partitions}p-{record_bytes}b"
    admin = AdminClient({"bootstrap.servers": KAFKA})
    if topic in admin.list_topics(timeout=10).topics:
        consumer = Consumer({"bootstrap.servers": KAFKA, "group.id": "bench-check"})
        total = sum(
            consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1]
            for p in range(partitions)
        )
        consumer.close()
        if total == records:
            return topic
        admin.delete_topics([topic])[topic].result()
        time.sleep(2)
    admin.create_topics([NewTopic(topic, partitions, 1)])[topic].result()
    producer = Producer(
        {"bootstrap.servers": KAFKA, "linger.ms": 20, "batch.size": 1_000_000,
         "compression.type": "lz4", "queue.buffering.max.messages": 500_000}
    )  # fmt: skip
    started = time.monotonic()
    for i in range(records):
        while True:
            try:
                producer.produce(topic, value=payload(i, record_bytes), partition=i % partitions)
                break
            except BufferError:
                producer.poll(0.1)
        if i % 10_000 == 0:
            producer.poll(0)
    producer.flush(120)
    print(f"produced {records} records to {topic} in {time.monotonic() - started:.1f}s")
    return topic


def drop_topics(*topics: str) -> None:
    """Delete a bench's own topics (GBs of records the broker would otherwise keep)."""
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": KAFKA})
    for future in admin.delete_topics(list(topics), request_timeout=60).values():
        try:
            future.result()
        except Exception as exc:  # a topic a failed run never made
            print(f"(not deleted: {exc})", flush=True)


def local_stack() -> Any:
    """``stack/stack.py``: the local S3 server's endpoint and account."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from stack import stack

    return stack


def s3_client() -> S3Client:
    import boto3

    stack = local_stack()
    client: S3Client = boto3.client(
        "s3", endpoint_url=stack.s3_endpoint(), region_name=stack.S3_REGION,
        aws_access_key_id=stack.S3_ACCESS_KEY_ID,
        aws_secret_access_key=stack.S3_SECRET_ACCESS_KEY,
    )  # fmt: skip
    return client


def output_files(data: Path) -> Iterator[Path]:
    """The files a sink wrote under ``data``: not Spark's ``_spark_metadata`` log, ``.crc``
    checksums or ``_SUCCESS`` markers."""
    if not data.exists():
        return
    for path in data.rglob("*"):
        rel = path.relative_to(data).parts
        if path.is_file() and not any(p.startswith(("_", ".")) for p in rel):
            yield path


def count_lines(path: Path) -> int:
    opener = gzip.open if path.name.endswith(".gz") else open
    lines = 0
    with opener(path, "rb") as f:
        while chunk := f.read(1 << 22):
            lines += chunk.count(b"\n")
    return lines


def bucket_size(s3: S3Client, bucket: str) -> tuple[int, int]:
    """Bytes and objects in ``bucket``."""
    size = count = 0
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for obj in page.get("Contents", []):
            size += obj["Size"]
            count += 1
    return size, count


def drop_bucket(s3: S3Client, bucket: str) -> None:
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        keys = [{"Key": obj["Key"]} for obj in page.get("Contents", [])]
        if keys:
            s3.delete_objects(Bucket=bucket, Delete={"Objects": keys, "Quiet": True})  # type: ignore[typeddict-item]
    s3.delete_bucket(Bucket=bucket)


def baseline_jars(checkout: Path) -> Path:
    """The Spark jars for a baseline checkout: its own ``.deps/spark-jars`` when it has them, else
    this checkout's with ``s3connect-jvm.jar`` built from the baseline's ``jvm/src`` (once, in
    ``checkout/.deps/bench-jars``), so each side runs its own JVM code."""
    own = checkout / ".deps" / "spark-jars"
    if own.is_dir():
        return own
    built = checkout / ".deps" / "bench-jars"
    if not (built / "s3connect-jvm.jar").exists():
        sys.path.insert(0, str(ROOT / "stack"))
        from fetch_jars import _build_jvm

        shutil.rmtree(built, ignore_errors=True)
        shutil.copytree(ROOT / ".deps" / "spark-jars", built)
        (built / "s3connect-jvm.jar").unlink()
        _build_jvm(checkout / "jvm" / "src", built / "s3connect-jvm.jar")
    return built


def child_result(
    run: Measured, log: Path, data: Path, s3: Any = None, bucket: str | None = None, *, lines: bool
) -> dict[str, Any]:
    """A bench child's measures: what ``run`` measured, its query time and code (the lines
    ``QUERY_SECONDS`` and ``S3CONNECT_FROM`` it printed), and its output (objects in
    ``bucket``, else files under ``data``: bytes, count and, with ``lines``, lines); its log's
    tail if it failed."""
    text = log.read_text(errors="replace")
    result: dict[str, Any] = {
        "dest": f"s3://{bucket}" if bucket else "local",
        "process_seconds": run.wall_seconds,
        "peak_rss_mb": run.peak_rss_kb / 1024,
        "cpu_seconds": run.cpu_seconds,
        "reaped_cpu_seconds": run.reaped_cpu_seconds,
    }
    for line in text.splitlines():
        if line.startswith("QUERY_SECONDS "):
            result["query_seconds"] = float(line.split()[1])
        elif line.startswith("S3CONNECT_FROM "):
            result["code"] = line.split(maxsplit=1)[1]
    if run.returncode != 0:
        result["error"] = text[-4000:]
    elif s3 is not None and bucket is not None:
        result["output_bytes"], result["objects"] = bucket_size(s3, bucket)
    else:
        files = list(output_files(data))
        result["output_bytes"] = sum(p.stat().st_size for p in files)
        result["objects"] = len(files)
        if lines:
            result["records_out"] = sum(count_lines(p) for p in files)
    return result


def median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run of median whole-process time among those that did not fail (else all)."""
    ok = sorted([r for r in runs if "error" not in r] or runs, key=lambda r: r["process_seconds"])
    return ok[(len(ok) - 1) // 2]
