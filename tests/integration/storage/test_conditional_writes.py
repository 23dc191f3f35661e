"""``enable.conditional.writes`` against the real S3 server (versitygw honours ``If-None-Match: *``
on ``PutObject`` and ``CompleteMultipartUpload`` with 412 ``PreconditionFailed``, and gives S3's
ETags): a second write of the same bytes counts as committed, other bytes fail and leave the first
object as it was."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer

from s3connect.errors import StorageError
from s3connect.storage.conditional import ObjectDigest
from s3connect.storage.s3 import S3Settings, S3Storage
from tests.conftest import S3_CREDENTIALS, S3_ENDPOINT
from tests.integration.sinkhelp import json_values, produce, run, sink_keys

pytestmark = pytest.mark.integration

MiB = 1024 * 1024
SMALL = b'{"x":1}\n'
LARGE = bytes(range(256)) * (11 * MiB // 256)  # 3 parts of 5 MiB


def _storage(bucket: str, *, conditional: bool = True, part_size: int = 5 * MiB) -> S3Storage:
    return S3Storage(
        S3Settings(
            bucket=bucket,
            region="us-east-1",
            endpoint_url=S3_ENDPOINT,
            access_key_id=S3_CREDENTIALS["aws_access_key_id"],
            secret_access_key=S3_CREDENTIALS["aws_secret_access_key"],
            part_size=part_size,
            part_retries=1,
            retry_backoff_ms=10,
            conditional_writes=conditional,
        )
    )


def _write(storage: S3Storage, key: str, data: bytes) -> None:
    with storage.open_write(key) as out:
        out.write(data[: len(data) // 2])
        out.write(data[len(data) // 2 :])


def _uploads(s3: Any, bucket: str) -> list[Any]:
    return list(s3.list_multipart_uploads(Bucket=bucket).get("Uploads", []))


@pytest.mark.parametrize("data", [SMALL, LARGE], ids=["single-part", "multipart"])
def test_the_same_bytes_again_count_as_committed(
    data: bytes, s3: Any, bucket: str, caplog: pytest.LogCaptureFixture
) -> None:
    storage = _storage(bucket)
    _write(storage, "k", data)
    first = s3.head_object(Bucket=bucket, Key="k")
    ours = ObjectDigest(5 * MiB)
    ours.update(data)
    assert first["ETag"] == f'"{ours.etag()}"'  # recognised by its ETag, without reading it
    with caplog.at_level(logging.INFO, logger="s3connect.storage.conditional"):
        _write(storage, "k", data)
    assert "counted as committed" in caplog.text
    assert s3.head_object(Bucket=bucket, Key="k")["LastModified"] == first["LastModified"]
    assert storage.read("k") == data
    assert _uploads(s3, bucket) == []


@pytest.mark.parametrize(
    ("data", "other"),
    [
        (SMALL, b'{"x":2}\n'),  # same size: the ETag tells
        (SMALL, b'{"x":1}\n{"x":2}\n'),
        (LARGE, LARGE[:-1] + b"!"),  # same size and parts: the ETag tells
        (LARGE, LARGE[: 6 * MiB]),
        (LARGE, SMALL),  # the new one is a single PutObject
    ],
    ids=["single-same-size", "single-longer", "multi-same-size", "multi-shorter", "multi-to-put"],
)
def test_other_bytes_fail_and_the_first_object_is_kept(
    data: bytes, other: bytes, s3: Any, bucket: str
) -> None:
    storage = _storage(bucket)
    _write(storage, "dir/k", data)
    with pytest.raises(StorageError) as info:
        _write(storage, "dir/k", other)
    message = str(info.value)
    assert f"s3://{bucket}/dir/k already exists with other content" in message
    assert "the existing object is kept" in message and "another writer" in message
    assert storage.read("dir/k") == data
    assert _uploads(s3, bucket) == []


def test_another_part_size_is_compared_by_content(s3: Any, bucket: str) -> None:
    """Same bytes in parts of another size: another ETag, so the object is read and compared."""
    _write(_storage(bucket, part_size=5 * MiB), "k", LARGE)
    six = _storage(bucket, part_size=6 * MiB)
    _write(six, "k", LARGE)  # 2 parts, not 3: counted as committed after reading
    with pytest.raises(StorageError, match="already exists with other content"):
        _write(six, "k", LARGE[:-1] + b"!")
    assert six.read("k") == LARGE and _uploads(s3, bucket) == []


def test_without_conditional_writes_an_object_is_overwritten(s3: Any, bucket: str) -> None:
    storage = _storage(bucket, conditional=False)
    _write(storage, "k", SMALL)
    _write(storage, "k", b"other\n")
    assert storage.read("k") == b"other\n"


def test_a_sink_replay_rewrites_the_same_objects_and_a_different_cut_fails(
    spark: Any, make_topic: Any, producer: Producer, s3: Any, bucket: str, tmp_path: Path
) -> None:
    """A fresh checkpoint replays the topic: flush.size=3 cuts the files as before (committed
    again, nothing changes); flush.size=2 cuts them elsewhere and fails on the first."""
    topic = make_topic("cond")
    produce(producer, topic, json_values({"i": i} for i in range(6)))
    keys = {"rotate.schedule.interval.ms": "3600000", "timezone": "UTC"}
    run(spark, sink_keys(topic, bucket, tmp_path / "a", **keys))
    before = {o["Key"]: o["ETag"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"]}
    assert len(before) == 2
    run(spark, sink_keys(topic, bucket, tmp_path / "b", **keys))
    after = {o["Key"]: o["ETag"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"]}
    assert after == before
    with pytest.raises(Exception, match="already exists with other content"):
        run(spark, sink_keys(topic, bucket, tmp_path / "c", **keys, **{"flush.size": "2"}))
    after = {o["Key"]: o["ETag"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"]}
    assert after == before
