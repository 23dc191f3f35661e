"""S3 faults the sink and the source survive: errors injected between the connectors and the real
S3 server by the front of :mod:`tests.integration.s3faults`.

- Transient faults (``500 InternalError``, ``503 SlowDown``, a connection reset, a slow answer)
  on each S3 operation the sink uses leave objects byte-identical to a clean run (same keys,
  bytes and tags); the source still publishes every record once, in order.
- ``s3.part.retries`` and ``s3.retry.backoff.ms`` are honoured exactly (the attempts the front
  saw, the waits between them) and each retry is a warning in the run's log; botocore adds none.
- An outage (faults beyond the retries) fails the run clearly, naming the operation, bucket and
  key (the CLI exits with 4); a rerun on the same checkpoint completes, with the clean run's
  objects (sink) or with duplicates from the failed batch only (source, at-least-once).
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from s3connect.errors import QueryFailedError, StorageError
from s3connect.storage.s3 import S3Settings, S3Storage
from tests.conftest import S3_CREDENTIALS, S3_ENDPOINT
from tests.integration.s3faults import (
    INTERNAL_ERROR,
    LOST_ANSWER,
    RESET,
    SLOW_DOWN,
    Fault,
    S3Faults,
    Seen,
    delay,
)
from tests.integration.sinkhelp import envelope, json_values, objects, produce, run, sink_keys
from tests.integration.source.test_source import by_partition, run_src, source_keys

pytestmark = pytest.mark.integration

MiB = 1024 * 1024
SINK_OPERATIONS = (
    "HeadBucket",
    "PutObject",
    "CreateMultipartUpload",
    "UploadPart",
    "CompleteMultipartUpload",
    "PutObjectTagging",
)
TRANSIENT = [INTERNAL_ERROR, SLOW_DOWN, RESET, delay(0.3)]
PAD = 100_000  # characters of a large record: 60 of them make a 2-part object of 5 MiB parts
BIG_SCHEMA: dict[str, Any] = {
    "type": "struct",
    "optional": False,
    "fields": [
        {"field": "id", "type": "int32", "optional": False},
        {"field": "pad", "type": "string", "optional": False},
    ],
}


def _ids(fault: Fault) -> str:
    return fault.name.replace(" ", "-")


@pytest.fixture
def front() -> Iterator[S3Faults]:
    with S3Faults(S3_ENDPOINT) as f:
        yield f


# ----------------------------------------------------------------------------------------------
# The sink's data: a clean run per format


@dataclass
class Clean:
    """A topic, the sink keys of its format, and what a clean run through the front made."""

    fmt: str
    topic: str
    keys: dict[str, str]
    objects: dict[str, bytes]
    tags: dict[str, list[tuple[str, str]]]
    counts: dict[str, int]  # requests per S3 operation


def _tags(s3: Any, bucket: str, keys: Any) -> dict[str, list[tuple[str, str]]]:
    """Each object's tags (a server may list them in any order)."""
    return {
        k: sorted(
            (t["Key"], t["Value"]) for t in s3.get_object_tagging(Bucket=bucket, Key=k)["TagSet"]
        )
        for k in keys
    }


def _new_bucket(s3: Any) -> str:
    name = f"b-{uuid.uuid4().hex[:12]}"
    s3.create_bucket(Bucket=name)
    return name


def _clean_run(
    fmt: str, spark: Any, s3: Any, kafka_admin: AdminClient, kafka_bootstrap: str, tmp: Path
) -> Iterator[Clean]:
    """Partition 0: 60 records of 100 KB (one object of two 5 MiB parts: multipart); partition
    1: 120 small records (two single-part objects). flush.size=60, every object tagged; the
    sink checks the bucket at start."""
    topic = f"faults-{fmt}-{uuid.uuid4().hex[:8]}"
    for future in kafka_admin.create_topics([NewTopic(topic, 2, 1)]).values():
        future.result(timeout=30)
    producer = Producer({"bootstrap.servers": kafka_bootstrap, "linger.ms": 5})
    rows = [(0, {"id": i, "pad": f"{i:06d}" * (PAD // 6)}) for i in range(60)]
    rows += [(1, {"id": i, "pad": f"small-{i}"}) for i in range(120)]
    for partition in (0, 1):
        payloads = [r for p, r in rows if p == partition]
        if fmt == "json":
            values = json_values(payloads)
        else:
            values = [envelope(r, BIG_SCHEMA) for r in payloads]
        produce(producer, topic, values, partition=partition)
    keys = {
        "format.class": fmt,
        "flush.size": "60",
        "s3.part.size": str(5 * MiB),
        "s3.object.tagging": "true",
        "s3.retry.backoff.ms": "20",
        **({"value.converter.schemas.enable": "true"} if fmt == "avro" else {}),
    }
    bucket = _new_bucket(s3)
    with S3Faults(S3_ENDPOINT) as front:
        run(spark, _sink(topic, bucket, tmp, front, keys))
    found = objects(s3, bucket)
    assert len(found) == 3
    big = [k for k in found if "+0+" in k]
    assert len(found[big[0]]) > 5 * MiB, "partition 0's object is a multipart one"
    counts = front.counts()
    assert counts == {
        "HeadBucket": 1,
        "PutObject": 2,
        "CreateMultipartUpload": 1,
        "UploadPart": 2,
        "CompleteMultipartUpload": 1,
        "PutObjectTagging": 3,
    }
    yield Clean(fmt, topic, keys, found, _tags(s3, bucket, found), counts)
    for future in kafka_admin.delete_topics([topic]).values():
        future.result(timeout=30)


def _sink(topic: str, bucket: str, tmp: Path, front: S3Faults, keys: dict[str, str]) -> Any:
    return sink_keys(topic, bucket, tmp, **{"store.url": front.url, **keys})


@pytest.fixture(scope="module")
def clean_json(
    spark: Any, s3: Any, kafka_admin: AdminClient, kafka_bootstrap: str, tmp_path_factory: Any
) -> Iterator[Clean]:
    tmp = tmp_path_factory.mktemp("clean-json")
    yield from _clean_run("json", spark, s3, kafka_admin, kafka_bootstrap, tmp)


@pytest.fixture(scope="module")
def clean_avro(
    spark: Any, s3: Any, kafka_admin: AdminClient, kafka_bootstrap: str, tmp_path_factory: Any
) -> Iterator[Clean]:
    tmp = tmp_path_factory.mktemp("clean-avro")
    yield from _clean_run("avro", spark, s3, kafka_admin, kafka_bootstrap, tmp)


@pytest.fixture(params=["json", "avro"])
def clean(request: pytest.FixtureRequest) -> Clean:
    return request.getfixturevalue(f"clean_{request.param}")  # type: ignore[no-any-return]


def _assert_same_objects(s3: Any, bucket: str, clean: Clean) -> None:
    found = objects(s3, bucket)
    assert list(found) == list(clean.objects)
    for key, data in found.items():
        assert data == clean.objects[key], f"{key} differs from the clean run's"
    assert _tags(s3, bucket, found) == clean.tags
    assert s3.list_multipart_uploads(Bucket=bucket).get("Uploads", []) == []


# ----------------------------------------------------------------------------------------------
# Sink: transient faults


@pytest.mark.parametrize("fault", TRANSIENT, ids=_ids)
def test_transient_faults_on_each_sink_operation_leave_the_clean_objects(
    clean: Clean, fault: Fault, front: S3Faults, spark: Any, s3: Any, bucket: str, tmp_path: Path
) -> None:
    """The first two requests of every operation fail (or answer late): with s3.part.retries=3
    each failed one is retried once more by s3connect (never by botocore), a late one is waited
    for."""
    front.fail(SINK_OPERATIONS, fault, times=2)
    run(spark, _sink(clean.topic, bucket, tmp_path, front, clean.keys))
    _assert_same_objects(s3, bucket, clean)
    for op in SINK_OPERATIONS:
        seen = front.seen(op)
        faulted = [s for s in seen if s.fault]
        if fault.kind == "delay":
            assert len(faulted) == min(2, clean.counts[op]), op
            assert len(seen) == clean.counts[op], f"{op}: a slow answer is not retried"
            assert all(s.took >= fault.seconds and s.status == 200 for s in faulted)
        else:
            assert len(faulted) == 2, op
            assert len(seen) == clean.counts[op] + 2, f"{op}: one more attempt per fault"
            assert [s.status for s in faulted] == [fault.status or None] * 2
            for bad in faulted:  # then retried (two tasks write at once: in any order)
                later = seen[seen.index(bad) + 1 :]
                assert any(s.key == bad.key and s.status == 200 for s in later), op
        assert all(s.status == 200 for s in seen if not s.fault)


# ----------------------------------------------------------------------------------------------
# Sink: an outage, through the CLI and through run_sink


def _cli(config: Path, tmp: Path) -> tuple[subprocess.CompletedProcess[str], str]:
    """Run ``s3connect sink --once``: the process and its log file's text."""
    logs = tmp / f"logs-{uuid.uuid4().hex[:6]}"
    env = {**os.environ, "S3CONNECT_LOG_DIR": str(logs), "PYTHONUNBUFFERED": "1"}
    env.setdefault("S3CONNECT_SPARK_MASTER", "local[2]")
    done = subprocess.run(
        [sys.executable, "-m", "s3connect.app.cli", "sink", "--config", str(config), "--once"],
        env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    [log] = logs.glob("sink-*.log")
    return done, log.read_text()


def _gaps(seen: list[Seen]) -> list[float]:
    """Seconds between one attempt's answer and the next attempt."""
    return [b.at - (a.at + a.took) for a, b in itertools.pairwise(seen)]


def test_an_outage_fails_the_cli_run_and_a_rerun_completes_identically(
    clean_json: Clean, front: S3Faults, spark: Any, s3: Any, bucket: str, tmp_path: Path
) -> None:
    """UploadPart down: exit 4 after exactly s3.part.retries attempts, backoff doubling
    from s3.retry.backoff.ms, each retry a WARNING in the run's log file. Then a rerun on the
    same checkpoint (in this process: a second CLI run would start another JVM), two faults
    within the retries: the clean run's objects."""
    keys = _sink(
        clean_json.topic, bucket, tmp_path, front,
        {**clean_json.keys, "s3.part.retries": "3", "s3.retry.backoff.ms": "300"},
    )  # fmt: skip
    config = tmp_path / "sink.json"
    config.write_text(json.dumps(keys))
    topic = clean_json.topic
    big = f"topics/{topic}/partition=0/{topic}+0+0000000000.json"  # one task's object
    outage = front.outage("UploadPart", key=big)
    done, log = _cli(config, tmp_path)
    attempts = [s for s in front.seen("UploadPart") if s.key == big]
    key = big
    assert done.returncode == 4, done.stdout + done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == "s3connect sink failed: S3 could not be used (s3connect.errors.StorageError)"
    assert lines[1].startswith(
        f"  Part upload failed: uploading part 1 of s3://{bucket}/{key} failed (UploadPart to "
        f"{front.url}, 3 attempts): "
        "InternalError (HTTP 500)"
    )
    assert len(attempts) == 3, "s3.part.retries=3: three attempts, none added by botocore"
    first, second = _gaps(attempts)
    assert 0.3 <= first < 1.3 and 0.6 <= second < 1.6, (first, second)
    for attempt, wait in ((1, 300), (2, 600)):
        assert (
            f"uploading part 1 of s3://{bucket}/{key} failed (UploadPart, attempt {attempt} "
            f"of 3), retrying in {wait} ms: InternalError (HTTP 500)"
        ) in log

    outage.end()
    front.clear()
    front.fail("UploadPart", SLOW_DOWN, times=2)
    run(spark, keys)
    _assert_same_objects(s3, bucket, clean_json)
    statuses = [s.status for s in front.seen("UploadPart")]  # two tasks: in any order
    assert sorted(statuses) == [200] * clean_json.counts["UploadPart"] + [503, 503], statuses


@pytest.mark.parametrize("operation", ["PutObject", "CompleteMultipartUpload"])
def test_an_outage_fails_run_sink_and_a_rerun_completes_identically(
    clean_avro: Clean, operation: str, front: S3Faults, spark: Any, s3: Any, bucket: str,
    tmp_path: Path,
) -> None:  # fmt: skip
    keys = _sink(clean_avro.topic, bucket, tmp_path, front, clean_avro.keys)
    topic = clean_avro.topic
    partition = 1 if operation == "PutObject" else 0  # a small object, or the multipart one
    key = f"topics/{topic}/partition={partition}/{topic}+{partition}+0000000000.avro"
    outage = front.outage(operation, RESET, key=key)
    with pytest.raises(QueryFailedError) as failed:
        run(spark, keys)
    assert failed.value.error_class == "s3connect.errors.StorageError"
    assert (
        f"s3://{bucket}/{key} failed ({operation} to {front.url}, 3 attempts): "
        "ConnectionClosedError"
    ) in str(failed.value)
    # s3.part.retries=3: the SDK's maxAttempts
    assert len([s for s in front.seen(operation) if s.key == key]) == 3
    outage.end()
    run(spark, keys)
    _assert_same_objects(s3, bucket, clean_avro)


def test_lost_answers_with_conditional_writes_count_the_objects_as_committed(
    clean_json: Clean, front: S3Faults, spark: Any, s3: Any, bucket: str, tmp_path: Path
) -> None:
    """The server wrote the object but its answer was lost: the retry meets If-None-Match: *
    (412), HeadObject (retried past a 500) finds our bytes there, and the write counts."""
    keys = {**clean_json.keys, "rotate.schedule.interval.ms": "86400000", "timezone": "UTC"}
    front.fail(["PutObject", "CompleteMultipartUpload"], LOST_ANSWER, times=1)
    front.fail("HeadObject", INTERNAL_ERROR, times=1)
    run(spark, _sink(clean_json.topic, bucket, tmp_path, front, keys))
    _assert_same_objects(s3, bucket, clean_json)
    for op in ("PutObject", "CompleteMultipartUpload"):
        lost, *rest = front.seen(op)
        assert (lost.fault, lost.status, lost.upstream) == ("lost", None, 200)
        assert any(again.key == lost.key for again in rest)
    retried = [p for p in front.seen("PutObject")[1:] if p.key == front.seen("PutObject")[0].key]
    assert retried[0].status == 412  # If-None-Match: * on the retry
    # A completed upload completed again: 200 (moto, versitygw: idempotent) or 412 (checked).
    assert front.seen("CompleteMultipartUpload")[1].status in (200, 412)
    assert [s.status for s in front.seen("HeadObject")][:2] == [500, 200]


# ----------------------------------------------------------------------------------------------
# Storage: the retry keys, exactly


def _storage(bucket: str, front: S3Faults, retries: int, backoff_ms: int) -> S3Storage:
    return S3Storage(
        S3Settings(
            bucket=bucket,
            region="us-east-1",
            endpoint_url=front.url,
            access_key_id=S3_CREDENTIALS["aws_access_key_id"],
            secret_access_key=S3_CREDENTIALS["aws_secret_access_key"],
            part_size=5 * MiB,
            part_retries=retries,
            retry_backoff_ms=backoff_ms,
        )
    )


@pytest.mark.parametrize("retries", [0, 1, 3])
def test_part_retries_and_backoff_are_honoured_exactly(
    retries: int, front: S3Faults, bucket: str, caplog: pytest.LogCaptureFixture
) -> None:
    # s3.part.retries is the AWS SDK's maxAttempts in Confluent's S3Storage: attempts in all
    # (0 counts as 1, as "1" means "try once and no retries" in its fault test)
    attempts = max(1, retries)
    storage = _storage(bucket, front, retries, backoff_ms=100)
    front.fail("PutObject", INTERNAL_ERROR, times=attempts - 1)  # the last attempt succeeds
    with (
        caplog.at_level(logging.WARNING, logger="s3connect.storage.s3"),
        storage.open_write("k/ok.json") as out,
    ):
        out.write(b'{"x":1}\n')
    seen = front.seen("PutObject")
    assert [s.status for s in seen] == [500] * (attempts - 1) + [200]
    for i, gap in enumerate(_gaps(seen)):
        assert 0.1 * 2**i <= gap < 0.1 * 2**i + 1.0, (i, gap)
    assert [r.getMessage() for r in caplog.records] == [
        f"writing s3://{bucket}/k/ok.json failed (PutObject, attempt {i + 1} of {attempts}), "
        f"retrying in {100 * 2**i} ms: InternalError (HTTP 500): We encountered an internal "
        "error. Please try again."
        for i in range(attempts - 1)
    ]
    front.clear()
    front.outage("PutObject", SLOW_DOWN)
    with pytest.raises(StorageError) as failed, storage.open_write("k/down.json") as out:
        out.write(b'{"x":2}\n')
    assert len(front.seen("PutObject")) == attempts
    tries = "1 attempt" if attempts == 1 else f"{attempts} attempts"
    assert str(failed.value) == (
        f"writing s3://{bucket}/k/down.json failed (PutObject to {front.url}, {tries}): "
        "SlowDown (HTTP 503): Please reduce your request rate."
    )


def test_an_error_a_retry_cannot_help_fails_at_once(front: S3Faults, bucket: str) -> None:
    storage = _storage(bucket, front, retries=3, backoff_ms=100)
    with pytest.raises(StorageError, match=r"\(GetObject .*, 1 attempt\): NoSuchKey \(HTTP 404\)"):
        storage.read("missing.json")
    assert [s.status for s in front.seen("GetObject")] == [404]


def test_a_multipart_upload_survives_faults_and_an_outage_aborts_it(
    front: S3Faults, s3: Any, bucket: str
) -> None:
    storage = _storage(bucket, front, retries=3, backoff_ms=20)
    data = bytes(range(256)) * (11 * MiB // 256)  # 3 parts
    front.fail("CreateMultipartUpload", RESET)
    front.fail("UploadPart", SLOW_DOWN, times=2)
    front.fail("CompleteMultipartUpload", INTERNAL_ERROR)
    front.fail("GetObject", RESET)
    front.fail("ListObjectsV2", INTERNAL_ERROR)
    with storage.open_write("m/big.bin") as out:
        out.write(data)
    assert storage.read("m/big.bin") == data
    assert list(storage.list_keys("m/")) == ["m/big.bin"]
    assert front.counts() == {
        "CreateMultipartUpload": 2,
        "UploadPart": 5,
        "CompleteMultipartUpload": 2,
        "GetObject": 2,
        "ListObjectsV2": 2,
    }
    front.clear()
    front.fail("AbortMultipartUpload", INTERNAL_ERROR)
    outage = front.outage("UploadPart", key="m/down.bin")
    with (
        pytest.raises(StorageError, match=r"uploading part 1 .* \(UploadPart .*, 3 attempts\)"),
        storage.open_write("m/down.bin") as out,
    ):
        out.write(data)
    outage.end()
    assert [s.status for s in front.seen("AbortMultipartUpload")] == [500, 204]
    assert s3.list_multipart_uploads(Bucket=bucket).get("Uploads", []) == []
    assert "m/down.bin" not in [o["Key"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"]]


# ----------------------------------------------------------------------------------------------
# Source: GetObject and ListObjectsV2


@dataclass
class Objects:
    """A topic the sink wrote (directly, no faults) as 5 objects of 3 JSON records."""

    topic: str
    sink: dict[str, str]
    values: list[bytes]


@pytest.fixture(scope="module")
def source_objects(
    spark: Any, s3: Any, kafka_admin: AdminClient, kafka_bootstrap: str, tmp_path_factory: Any
) -> Iterator[Objects]:
    tmp = tmp_path_factory.mktemp("source")
    topic = f"faults-src-{uuid.uuid4().hex[:8]}"
    for future in kafka_admin.create_topics([NewTopic(topic, 1, 1)]).values():
        future.result(timeout=30)
    # keys in the order of a Java HashMap (JsonConverter's), so the copy is byte-identical
    values = json_values({"name": f"n{i}", "id": i} for i in range(15))
    produce(Producer({"bootstrap.servers": kafka_bootstrap}), topic, values)
    sink = sink_keys(topic, _new_bucket(s3), tmp)
    run(spark, sink)
    yield Objects(topic, sink, values)
    for future in kafka_admin.delete_topics([topic]).values():
        future.result(timeout=30)


def _source(data: Objects, front: S3Faults, tmp: Path, **keys: Any) -> tuple[dict[str, str], str]:
    """A source config reading ``data`` through the front, with its own destination topic."""
    prefix = f"copy{uuid.uuid4().hex[:6]}_"
    config = source_keys({**data.sink, "store.url": front.url}, tmp, **keys)
    config.update({"topic.prefix": prefix, "s3.retry.backoff.ms": "20"})
    return config, prefix + data.topic


def _end(kafka_bootstrap: str, topic: str) -> int:
    """The end offset of ``topic``'s partition 0 (what was published)."""
    c = Consumer({"bootstrap.servers": kafka_bootstrap, "group.id": f"end-{uuid.uuid4().hex}"})
    try:
        return int(c.get_watermark_offsets(TopicPartition(topic, 0), timeout=30)[1])
    finally:
        c.close()


@pytest.fixture
def drop_topics(kafka_admin: AdminClient) -> Iterator[list[str]]:
    names: list[str] = []
    yield names
    if names:
        kafka_admin.delete_topics(names)


@pytest.mark.parametrize("fault", TRANSIENT, ids=_ids)
def test_transient_source_faults_publish_every_record_once_in_order(
    source_objects: Objects, fault: Fault, front: S3Faults, spark: Any, tmp_path: Path,
    consume: Callable[..., list[Any]], drop_topics: list[str], kafka_bootstrap: str,
) -> None:  # fmt: skip
    config, dest = _source(source_objects, front, tmp_path)
    drop_topics.append(dest)
    front.fail(["ListObjectsV2", "GetObject"], fault, times=2)
    summary = run_src(spark, config)
    assert _end(kafka_bootstrap, dest) == 15
    got = by_partition(consume(dest, 15))
    assert got == {0: source_objects.values}, "each record once, in order"
    assert summary.total == 15
    for op in ("ListObjectsV2", "GetObject"):
        seen = front.seen(op)
        assert [s.fault for s in seen[:2]] == [fault.name] * 2
        if fault.kind != "delay":
            assert seen[2].key == seen[0].key and seen[2].status == 200, "retried"
    assert len(front.seen("GetObject")) == 5 + (0 if fault.kind == "delay" else 2)


def test_a_source_outage_fails_clearly_and_a_rerun_publishes_at_least_once(
    source_objects: Objects, front: S3Faults, spark: Any, s3: Any, tmp_path: Path,
    consume: Callable[..., list[Any]], drop_topics: list[str], kafka_bootstrap: str,
) -> None:  # fmt: skip
    """Batches of 2 objects (max.objects.per.trigger=2). ListObjectsV2 down: nothing published.
    GetObject of the 4th object down: batch 1 fails, maybe after publishing (some of) the 3rd
    object's records. The rerun redoes batch 1, then batch 2: duplicates come from batch 1."""
    config, dest = _source(source_objects, front, tmp_path, **{"max.objects.per.trigger": "2"})
    drop_topics.append(dest)
    values = source_objects.values
    listing = front.outage("ListObjectsV2", SLOW_DOWN)
    with pytest.raises((StorageError, QueryFailedError)) as failed:
        run_src(spark, config)
    bucket = source_objects.sink["s3.bucket.name"]
    assert (
        f"listing s3://{bucket}/topics/ failed (ListObjectsV2 to {front.url}, 3 attempts): SlowDown"
    ) in str(failed.value)
    listing.end()

    fourth = sorted(o["Key"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"])[3]
    reading = front.outage("GetObject", INTERNAL_ERROR, key=fourth)
    with pytest.raises(QueryFailedError) as failed:
        run_src(spark, config)
    assert failed.value.error_class == "s3connect.errors.StorageError"
    assert (
        f"reading s3://{bucket}/{fourth} failed (GetObject to {front.url}, 3 attempts): "
        "InternalError"
    ) in failed.value.cause
    reading.end()

    run_src(spark, config)
    got = by_partition(consume(dest, _end(kafka_bootstrap, dest)))[0]
    again = len(got) - len(values)
    assert 0 <= again <= 3, "at most the 3rd object's records"
    assert got == values[:6] + values[6 : 6 + again] + values[6:], "duplicates: batch 1 only"
