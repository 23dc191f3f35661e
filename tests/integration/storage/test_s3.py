"""S3 storage against the real S3 server: multipart parts, atomic visibility, abort on failure."""

from __future__ import annotations

from typing import Any

import pytest

from s3connect.storage.s3 import S3Settings, S3Storage
from tests.conftest import S3_CREDENTIALS, S3_ENDPOINT

pytestmark = pytest.mark.integration

MiB = 1024 * 1024


def _storage(bucket: str, part_size: int = 5 * MiB) -> S3Storage:
    return S3Storage(
        S3Settings(
            bucket=bucket,
            region="us-east-1",
            endpoint_url=S3_ENDPOINT,
            access_key_id=S3_CREDENTIALS["aws_access_key_id"],
            secret_access_key=S3_CREDENTIALS["aws_secret_access_key"],
            part_size=part_size,
        )
    )


def test_large_object_goes_up_in_parts_and_appears_only_on_close(s3: Any, bucket: str) -> None:
    storage = _storage(bucket)
    data = bytes(range(256)) * (11 * MiB // 256)
    with storage.open_write("topics/t/partition=0/t+0+0000000000.bin") as out:
        out.write(data[: 6 * MiB])
        out.write(data[6 * MiB :])
        uploads = s3.list_multipart_uploads(Bucket=bucket).get("Uploads", [])
        assert [u["Key"] for u in uploads] == ["topics/t/partition=0/t+0+0000000000.bin"]
        assert "Contents" not in s3.list_objects_v2(Bucket=bucket)
    head = s3.head_object(Bucket=bucket, Key="topics/t/partition=0/t+0+0000000000.bin")
    assert head["ContentLength"] == len(data)
    assert head["ETag"].endswith('-3"')  # 5 MiB + 5 MiB + 1 MiB
    assert storage.read("topics/t/partition=0/t+0+0000000000.bin") == data


def test_small_object_is_one_put(s3: Any, bucket: str) -> None:
    storage = _storage(bucket)
    with storage.open_write("a/b.json") as out:
        out.write(b'{"x":1}\n')
    assert s3.get_object(Bucket=bucket, Key="a/b.json")["Body"].read() == b'{"x":1}\n'
    assert list(storage.list_keys("a/")) == ["a/b.json"]


def test_failure_aborts_the_upload_and_leaves_no_object(s3: Any, bucket: str) -> None:
    storage = _storage(bucket)
    with pytest.raises(RuntimeError, match="boom"), storage.open_write("x/y.bin") as out:
        out.write(b"z" * (6 * MiB))
        raise RuntimeError("boom")
    assert "Contents" not in s3.list_objects_v2(Bucket=bucket)
    assert s3.list_multipart_uploads(Bucket=bucket).get("Uploads", []) == []
