"""Ports of Confluent's S3 storage tests with a server in the loop (kafka-connect-storage-cloud
87eb7d39, 2026-07-28): ``S3OutputStreamTest``, ``S3OutputStreamDigestTest``, ``S3FileUtilsTest``
(but its blank bucket, in ``tests/unit/storage/test_confluent_storage.py``) and
``S3SinkConnectorFaultyS3Test``, one test per Java test method.

Where Java mocks ``S3Client``, ours talks to the stack's S3 server through the fault-injecting
front of :mod:`tests.integration.s3faults`: it records each request with its headers (the
``CreateMultipartUploadRequest`` / ``UploadPartRequest`` / ``CompleteMultipartUploadRequest``
fields a Mockito captor reads) and answers what the mock was told to throw. ``new
S3OutputStream(key, connectorConfig, s3)`` is ``build_storage(SinkConfig)``'s ``open_write(key)``
on the connector keys, ``commit()`` the end of its ``with`` block; Java's ``IOException`` /
``ConnectException`` is our ``StorageError``. As the README documents, an object smaller than
``s3.part.size`` is one ``PutObject`` here (Confluent's stream makes a one-part upload even of
nothing), so the tests that need Confluent's ``CreateMultipartUpload`` write one part and a byte.
"""

from __future__ import annotations

import base64
import hashlib
import os
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer

from s3connect.config.sink import SinkConfig
from s3connect.errors import QueryFailedError, StorageError
from s3connect.sink.context import build_storage
from s3connect.storage.s3 import S3Storage
from tests.conftest import S3_ENDPOINT
from tests.integration.s3faults import INTERNAL_ERROR, RESET, Fault, S3Faults
from tests.integration.sinkhelp import objects, produce, run, sink_keys

pytestmark = pytest.mark.integration

PART_SIZE = 5_242_880
KEY = "key"  # S3_TEST_KEY_NAME
TWO_PARTS = bytes(range(256)) * (PART_SIZE // 256) + b"!"  # one part and a byte
CUSTOMER_KEY = base64.b64encode(bytes(range(32))).decode()  # SSE-C needs a 256-bit key
ACCESS_DENIED = Fault("error", 403, "AccessDenied", "Access Denied")
SSE = "x-amz-server-side-encryption"


@pytest.fixture
def front() -> Iterator[S3Faults]:
    with S3Faults(S3_ENDPOINT) as f:
        yield f


def _storage(front: S3Faults, bucket: str, tmp: Path, **keys: str) -> S3Storage:
    """The sink's storage on ``createProps()`` and ``keys``, through the front."""
    config = sink_keys(
        "test-topic", bucket, tmp,
        **{"store.url": front.url, "s3.part.size": str(PART_SIZE), "s3.retry.backoff.ms": "10",
           "timezone": "UTC", **keys},
    )  # fmt: skip
    storage = build_storage(SinkConfig.from_mapping(config))
    assert isinstance(storage, S3Storage)
    return storage


def _commit(storage: S3Storage, data: bytes, key: str = KEY) -> None:
    """``stream.write(data); stream.commit()``."""
    with storage.open_write(key) as out:
        out.write(data)


def _nothing_left(s3: Any, bucket: str) -> None:
    assert "Contents" not in s3.list_objects_v2(Bucket=bucket)
    assert s3.list_multipart_uploads(Bucket=bucket).get("Uploads", []) == []


def _md5(data: bytes) -> str:
    return base64.b64encode(hashlib.md5(data, usedforsecurity=False).digest()).decode()


# ------------------------------------------------------------------------- S3OutputStreamTest


def test_propagate_unretriable_s3_exceptions(
    front: S3Faults, s3: Any, bucket: str, tmp_path: Path
) -> None:
    storage = _storage(front, bucket, tmp_path)
    front.fail("CreateMultipartUpload", ACCESS_DENIED)
    with pytest.raises(StorageError) as failed:
        _commit(storage, TWO_PARTS)
    assert str(failed.value) == (
        f"starting the multipart upload of s3://{bucket}/{KEY} failed (CreateMultipartUpload to "
        f"{front.url}, 1 attempt): AccessDenied (HTTP 403): Access Denied"
    )
    assert front.counts() == {"CreateMultipartUpload": 1}  # not retried
    _nothing_left(s3, bucket)


def test_propagate_retriable_s3_exceptions(
    front: S3Faults, s3: Any, bucket: str, tmp_path: Path
) -> None:
    storage = _storage(front, bucket, tmp_path)  # s3.part.retries=3: attempts in all
    front.outage("CreateMultipartUpload", INTERNAL_ERROR)
    with pytest.raises(StorageError) as failed:
        _commit(storage, TWO_PARTS)
    assert str(failed.value) == (
        f"starting the multipart upload of s3://{bucket}/{KEY} failed (CreateMultipartUpload to "
        f"{front.url}, 3 attempts): InternalError (HTTP 500): We encountered an internal error. "
        "Please try again."
    )
    assert front.counts() == {"CreateMultipartUpload": 3}
    _nothing_left(s3, bucket)


def test_propagate_other_retriable_s3_exceptions(
    front: S3Faults, s3: Any, bucket: str, tmp_path: Path
) -> None:
    storage = _storage(front, bucket, tmp_path, **{"s3.part.retries": "2"})
    front.outage("CreateMultipartUpload", RESET)  # a client-side failure (SdkClientException)
    with pytest.raises(StorageError) as failed:
        _commit(storage, TWO_PARTS)
    assert str(failed.value).startswith(
        f"starting the multipart upload of s3://{bucket}/{KEY} failed (CreateMultipartUpload to "
        f"{front.url}, 2 attempts): ConnectionClosedError"
    )
    assert front.counts() == {"CreateMultipartUpload": 2}
    _nothing_left(s3, bucket)


def _create_headers(storage: S3Storage, front: S3Faults) -> dict[str, str]:
    """The headers of the ``CreateMultipartUpload`` a two-part object starts with."""
    _commit(storage, TWO_PARTS)
    [create] = front.seen("CreateMultipartUpload")
    assert create.status == 200
    return dict(create.headers)


def test_new_multipart_upload_aessse(front: S3Faults, bucket: str, tmp_path: Path) -> None:
    storage = _storage(front, bucket, tmp_path, **{"s3.ssea.name": "AES256"})
    headers = _create_headers(storage, front)
    assert headers[SSE] == "AES256"
    assert f"{SSE}-customer-key" not in headers
    assert f"{SSE}-aws-kms-key-id" not in headers


def test_new_multipart_upload_kmssse(front: S3Faults, bucket: str, tmp_path: Path) -> None:
    keys = {"s3.ssea.name": "aws:kms", "s3.sse.kms.key.id": "key1"}
    headers = _create_headers(_storage(front, bucket, tmp_path, **keys), front)
    assert headers[SSE] == "aws:kms"
    assert headers[f"{SSE}-aws-kms-key-id"] == "key1"
    assert f"{SSE}-customer-key" not in headers


def test_new_multipart_upload_customer_key_sse(
    front: S3Faults, bucket: str, tmp_path: Path
) -> None:
    keys = {"s3.ssea.name": "AES256", "s3.sse.customer.key": CUSTOMER_KEY}
    headers = _create_headers(_storage(front, bucket, tmp_path, **keys), front)
    assert headers[f"{SSE}-customer-algorithm"] == "AES256"
    assert headers[f"{SSE}-customer-key"] == CUSTOMER_KEY
    assert headers[f"{SSE}-customer-key-md5"] == _md5(bytes(range(32)))
    assert f"{SSE}-aws-kms-key-id" not in headers
    assert SSE not in headers
    for part in front.seen("UploadPart"):  # MultipartUpload.uploadPart: SSE-C on every part
        assert part.headers[f"{SSE}-customer-key"] == CUSTOMER_KEY


def test_new_multipart_upload_default_sse(front: S3Faults, bucket: str, tmp_path: Path) -> None:
    headers = _create_headers(_storage(front, bucket, tmp_path), front)
    assert SSE not in headers
    assert f"{SSE}-customer-key" not in headers
    assert f"{SSE}-aws-kms-key-id" not in headers
    assert "x-amz-acl" not in headers  # no s3.acl.canned


def _conditional(front: S3Faults, bucket: str, tmp: Path, enable: str = "true") -> S3Storage:
    keys = {"enable.conditional.writes": enable, "rotate.schedule.interval.ms": "100"}
    return _storage(front, bucket, tmp, **keys)


def test_complete_multipart_upload_with_conditional_writes(
    front: S3Faults, s3: Any, bucket: str, tmp_path: Path
) -> None:
    storage = _conditional(front, bucket, tmp_path)
    _commit(storage, TWO_PARTS)
    [complete] = front.seen("CompleteMultipartUpload")
    assert complete.headers["if-none-match"] == "*"
    assert s3.get_object(Bucket=bucket, Key=KEY)["Body"].read() == TWO_PARTS
    # an empty commit is one PutObject here (README), with the same condition
    _commit(storage, b"", key="empty")
    [put] = front.seen("PutObject")
    assert put.headers["if-none-match"] == "*"


def test_complete_multipart_upload_without_conditional_writes(
    front: S3Faults, bucket: str, tmp_path: Path
) -> None:
    _commit(_conditional(front, bucket, tmp_path, enable="false"), TWO_PARTS)
    [complete] = front.seen("CompleteMultipartUpload")
    assert complete.status == 200
    assert "if-none-match" not in complete.headers


def _file_exists(s3: Any, bucket: str, front: S3Faults, failed: pytest.ExceptionInfo[Any]) -> None:
    """Confluent's FileExistsException("File already exists"): ours fails naming the object
    (README: Confluent seeks to the next free offset instead), which is kept as it was."""
    assert str(failed.value).startswith(
        f"File already exists: s3://{bucket}/{KEY} already exists with other content"
    )
    assert [h.status for h in front.seen("HeadObject")] == [200]  # the fileExists check
    assert s3.get_object(Bucket=bucket, Key=KEY)["Body"].read() == b"theirs"
    assert s3.list_multipart_uploads(Bucket=bucket).get("Uploads", []) == []


def test_complete_multipart_upload_throws_exception_when_file_exists(
    front: S3Faults, s3: Any, bucket: str, tmp_path: Path
) -> None:
    s3.put_object(Bucket=bucket, Key=KEY, Body=b"theirs")
    storage = _conditional(front, bucket, tmp_path)
    with pytest.raises(StorageError) as failed:
        _commit(storage, TWO_PARTS)
    [complete] = front.seen("CompleteMultipartUpload")
    assert (complete.status, complete.headers["if-none-match"]) == (412, "*")  # the server's
    _file_exists(s3, bucket, front, failed)


def test_complete_multipart_upload_throws_exception_when_s3_returns200_with_precondition_failed_error(  # noqa: E501
    front: S3Faults, s3: Any, bucket: str, tmp_path: Path
) -> None:
    s3.put_object(Bucket=bucket, Key=KEY, Body=b"theirs")
    storage = _conditional(front, bucket, tmp_path)
    refused = Fault("error", 200, "PreconditionFailed", "At least one of the pre-conditions")
    front.fail("CompleteMultipartUpload", refused)
    with pytest.raises(StorageError) as failed:
        _commit(storage, TWO_PARTS)
    assert [c.status for c in front.seen("CompleteMultipartUpload")] == [200]  # not retried
    _file_exists(s3, bucket, front, failed)


def test_complete_multipart_upload_rethrows_exception_when_amazon_s3_exception(
    front: S3Faults, s3: Any, bucket: str, tmp_path: Path
) -> None:
    storage = _conditional(front, bucket, tmp_path)
    conflict = Fault("error", 409, "ConditionalRequestConflict", "file conflict")
    front.fail("CompleteMultipartUpload", conflict)
    with pytest.raises(StorageError) as failed:
        _commit(storage, TWO_PARTS)
    assert str(failed.value) == (
        f"completing the multipart upload of s3://{bucket}/{KEY} failed (CompleteMultipartUpload "
        f"to {front.url}, 1 attempt): ConditionalRequestConflict (HTTP 409): file conflict"
    )
    assert front.seen("HeadObject") == []  # rethrown as is, no fileExists check
    assert [a.status for a in front.seen("AbortMultipartUpload")] == [204]
    _nothing_left(s3, bucket)


def test_complete_multipart_upload_with_incorrect_s3_response_throws_connect_exception(
    front: S3Faults, s3: Any, bucket: str, tmp_path: Path
) -> None:
    storage = _conditional(front, bucket, tmp_path)
    front.fail("CompleteMultipartUpload", Fault("error", 412, "PreconditionFailed", "file exists"))
    with pytest.raises(StorageError) as failed:
        _commit(storage, TWO_PARTS)
    assert str(failed.value).startswith(
        "Unexpected state - Contradicting response from conditional upload and file exists call "
        f"in S3: S3 refused the conditional write of s3://{bucket}/{KEY}"
    )
    assert [h.status for h in front.seen("HeadObject")] == [404]
    _nothing_left(s3, bucket)


# ------------------------------------------------------------------- S3OutputStreamDigestTest


def _payload(size: int) -> bytes:
    return random.Random(1).randbytes(size)


def test_digest_one_part_is_correct(front: S3Faults, s3: Any, bucket: str, tmp_path: Path) -> None:
    payload = _payload(PART_SIZE - 1)
    _commit(_storage(front, bucket, tmp_path, **{"s3.send.digest": "true"}), payload)
    # one PutObject here (README), where Confluent uploads one part: the same Content-MD5
    [put] = front.seen("PutObject")
    assert put.headers["content-md5"] == _md5(payload)
    assert front.seen("UploadPart") == []
    assert s3.get_object(Bucket=bucket, Key=KEY)["Body"].read() == payload


def test_digest_multi_part_is_correct(
    front: S3Faults, s3: Any, bucket: str, tmp_path: Path
) -> None:
    payload = _payload(PART_SIZE + 1)
    _commit(_storage(front, bucket, tmp_path, **{"s3.send.digest": "true"}), payload)
    parts = front.seen("UploadPart")
    assert len(parts) == 2
    assert parts[0].headers["content-md5"] == _md5(payload[:PART_SIZE])
    assert parts[1].headers["content-md5"] == _md5(payload[PART_SIZE:])
    assert s3.get_object(Bucket=bucket, Key=KEY)["Body"].read() == payload


# ---------------------------------------------------------------------------- S3FileUtilsTest


def _bucket_check(
    front: S3Faults, bucket: str, tmp: Path, fault: Fault | None = None, times: int | None = None
) -> None:
    storage = _storage(front, bucket, tmp)
    if fault is not None and times is None:
        front.outage("HeadBucket", fault)
    elif fault is not None:
        front.fail("HeadBucket", fault, times=times)
    storage.check_bucket()


def test_bucket_exists_with_valid_bucket(front: S3Faults, bucket: str, tmp_path: Path) -> None:
    _bucket_check(front, bucket, tmp_path)
    assert [h.status for h in front.seen("HeadBucket")] == [200]


def test_bucket_exists_with_not_found_error(front: S3Faults, tmp_path: Path) -> None:
    missing = f"non-existent-bucket-{uuid.uuid4().hex[:8]}"
    with pytest.raises(StorageError) as failed:
        _bucket_check(front, missing, tmp_path)
    assert str(failed.value).startswith(f"Non-existent S3 bucket: {missing} ")
    assert [h.status for h in front.seen("HeadBucket")] == [404]


def test_bucket_exists_with_redirect_error(front: S3Faults, bucket: str, tmp_path: Path) -> None:
    redirect = Fault("error", 301, "PermanentRedirect", "The bucket ... specified endpoint")
    _bucket_check(front, bucket, tmp_path, redirect, times=1)
    # botocore's redirector then asks HeadBucket for the bucket's region (and follows it when
    # the answer names one): either way the bucket counts as there
    first, *then = [h.status for h in front.seen("HeadBucket")]
    assert (first, set(then)) == (301, {200})


def test_bucket_exists_with_access_denied_error(
    front: S3Faults, bucket: str, tmp_path: Path
) -> None:
    _bucket_check(front, bucket, tmp_path, Fault("error", 403, "Forbidden", "Forbidden"))
    assert [h.status for h in front.seen("HeadBucket")] == [403]


def test_bucket_exists_with_other_aws_service_exception(
    front: S3Faults, bucket: str, tmp_path: Path
) -> None:
    with pytest.raises(StorageError) as failed:
        _bucket_check(front, bucket, tmp_path, INTERNAL_ERROR)
    assert str(failed.value).startswith(
        f"checking the bucket s3://{bucket}/ failed (HeadBucket to {front.url}, 3 attempts): "
    )
    assert "(HTTP 500)" in str(failed.value)
    assert [h.status for h in front.seen("HeadBucket")] == [500] * 3  # retried, then thrown


def test_file_exists_with_existing_file(
    front: S3Faults, s3: Any, bucket: str, tmp_path: Path
) -> None:
    s3.put_object(Bucket=bucket, Key="test/file.txt", Body=b"x")
    assert _storage(front, bucket, tmp_path).exists("test/file.txt") is True


def test_file_exists_with_non_existent_file(front: S3Faults, bucket: str, tmp_path: Path) -> None:
    assert _storage(front, bucket, tmp_path).exists("non-existent/file.txt") is False
    assert [h.status for h in front.seen("HeadObject")] == [404]  # NoSuchKey: the only absent


def test_file_exists_with_various_keys(
    front: S3Faults, s3: Any, bucket: str, tmp_path: Path
) -> None:
    keys = [
        "simple-file.txt",
        "path/to/file.json",
        "deep/nested/path/file.avro",
        "file-with-special-chars_123.parquet",
    ]
    for key in keys:
        s3.put_object(Bucket=bucket, Key=key, Body=b"x")
    storage = _storage(front, bucket, tmp_path)
    assert [storage.exists(key) for key in keys] == [True] * 4


def test_file_exists_with_empty_strings(front: S3Faults, bucket: str, tmp_path: Path) -> None:
    # S3Storage.exists: a blank name is no file, asked of no one (Java's S3FileUtils test has
    # its mock answer a HeadObject of "", which S3 cannot be asked)
    assert _storage(front, bucket, tmp_path).exists("") is False
    assert front.seen("HeadObject") == []


# ------------------------------------------------------------------ S3SinkConnectorFaultyS3Test

FLUSH_SIZE_SMALL = 30  # ~3 MB: below the part size
FLUSH_SIZE_BIG = 70  # ~7 MB: two parts
FAULTS = {"500": INTERNAL_ERROR, "reset": RESET}
# Confluent's 72 cases are every format x operation x failure x size; the storage is the same
# for every format, so here a multipart object and a small one (a case is three Spark runs,
# ~20 s; tests/integration/storage/test_s3_faults.py has every transient fault on every
# operation, each retried by the client).
CASES = [
    ("UploadPart", "500", FLUSH_SIZE_BIG),
    ("PutObject", "reset", FLUSH_SIZE_SMALL),  # a small object is one PutObject here (README)
]


@pytest.mark.parametrize(("operation", "fault", "flush_size"), CASES)
def test_error_is_retried_by_connect_framework(
    operation: str, fault: str, flush_size: int, spark: Any, make_topic: Any, producer: Producer,
    s3: Any, bucket: str, front: S3Faults, tmp_path: Path,
) -> None:  # fmt: skip
    """s3.part.retries=1 (no retry by the client), the failure injected twice. Confluent's task
    throws a RetriableException and Connect redelivers the batch; here the run fails and a rerun
    on the same checkpoint redoes its micro-batch (README "Faults"): the third run writes."""
    topic = make_topic("faulty")
    produce(producer, topic, [os.urandom(100 * 1024) for _ in range(flush_size)], partition=0)
    keys = sink_keys(
        topic, bucket, tmp_path,
        **{"format.class": "io.confluent.connect.s3.format.bytearray.ByteArrayFormat",
           "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
           "s3.part.retries": "1", "s3.part.size": str(PART_SIZE),
           "flush.size": str(flush_size), "store.url": front.url},
    )  # fmt: skip
    front.fail(operation, FAULTS[fault], times=2)
    for _ in range(2):
        with pytest.raises(QueryFailedError) as failed:
            run(spark, keys)
        assert failed.value.error_class == "s3connect.errors.StorageError"
        assert f"({operation} to {front.url}, 1 attempt)" in str(failed.value)
    run(spark, keys)
    found = objects(s3, bucket)
    assert list(found) == [f"topics/{topic}/partition=0/{topic}+0+0000000000.bin"]
    assert len(next(iter(found.values()))) > flush_size * 100 * 1024
    statuses = [s.status for s in front.seen(operation)]
    assert statuses[:2] == [FAULTS[fault].status or None] * 2
    assert set(statuses[2:]) == {200}  # once (twice: the two parts of UploadPart)
    assert s3.list_multipart_uploads(Bucket=bucket).get("Uploads", []) == []
