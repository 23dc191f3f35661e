"""A bucket that does not exist (the stack's S3 answers ``404 NoSuchBucket``): the storage, the
sink (at start, as Confluent's S3SinkTask: "Non-existent S3 bucket") and the source fail at
once, never retried (a missing bucket is not transient), with one message naming the endpoint
and the bucket, never the secret; nothing creates the bucket."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError
from confluent_kafka import Producer

from s3connect.app.failures import ExitCode
from s3connect.errors import StorageError
from s3connect.storage.s3 import S3Storage
from tests.conftest import S3_CREDENTIALS, S3_ENDPOINT
from tests.integration.s3faults import S3Faults
from tests.integration.sinkhelp import json_values, produce, sink_keys
from tests.integration.storage.refusalhelp import (
    USES,
    logs_text,
    run_cli,
    s3_storage,
    source_keys_of,
)

pytestmark = pytest.mark.integration

SECRET = S3_CREDENTIALS["aws_secret_access_key"]


@pytest.fixture
def missing(s3: Any) -> Iterator[str]:
    """A bucket name nobody created; still missing after the test."""
    name = f"missing-{uuid.uuid4().hex[:12]}"
    yield name
    with pytest.raises(ClientError) as info:
        s3.head_bucket(Bucket=name)
    assert info.value.response["ResponseMetadata"]["HTTPStatusCode"] == 404


@pytest.fixture
def front() -> Iterator[S3Faults]:
    """A front that counts the requests reaching the S3 server (it injects nothing)."""
    with S3Faults(S3_ENDPOINT) as f:
        yield f


@pytest.mark.parametrize("use", list(USES.values()), ids=list(USES))
def test_storage_fails_at_once_naming_endpoint_and_bucket(
    missing: str, use: Callable[[S3Storage], object], s3connect_log: list[str]
) -> None:
    started = time.monotonic()
    with pytest.raises(StorageError) as info:
        use(s3_storage(missing, S3_CREDENTIALS["aws_access_key_id"], SECRET))
    elapsed = time.monotonic() - started
    message = str(info.value)
    assert "NoSuchBucket (HTTP 404)" in message, message
    assert S3_ENDPOINT in message and f"s3://{missing}/" in message
    assert "1 attempt)" in message and elapsed < 1.0, (message, elapsed)  # a retry: 1 s
    assert not [line for line in s3connect_log if "retrying" in line], s3connect_log
    assert SECRET not in message


def _assert_one_message(code: int, output: str, command: str, endpoint: str, bucket: str) -> None:
    assert code == ExitCode.STORAGE, output
    assert output.count(f"s3connect {command} failed: S3 could not be used") == 1, output
    assert "NoSuchBucket (HTTP 404): The specified bucket does not exist." in output
    assert f"to {endpoint}, 1 attempt)" in output and f"s3://{bucket}/" in output
    assert "Traceback" not in output and SECRET not in output


def test_sink_fails_within_seconds_with_one_clear_message(
    spark: Any, missing: str, front: S3Faults, make_topic: Any, producer: Producer,
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("S3CONNECT_LOG_DIR", str(tmp_path / "logs"))
    topic = make_topic("nobucket")
    produce(producer, topic, json_values({"i": i} for i in range(3)))  # one object's worth
    keys = sink_keys(
        topic, missing, tmp_path, **{"store.url": front.url, "s3.retry.backoff.ms": "5000"}
    )
    code, output, elapsed = run_cli("sink", keys, tmp_path, capsys)
    # S3SinkTask.start: "Non-existent S3 bucket: <name>", before the query starts
    assert code == ExitCode.STORAGE, output
    assert output.count("s3connect sink failed: S3 could not be used") == 1, output
    assert f"Non-existent S3 bucket: {missing} (HeadBucket to {front.url}" in output, output
    assert "Traceback" not in output and SECRET not in output
    assert front.counts() == {"HeadBucket": 1}, front.counts()  # never retried, nothing written
    assert elapsed < 30, elapsed
    for log, text in logs_text(tmp_path / "logs").items():
        assert SECRET not in text, log


def test_source_fails_within_seconds_with_one_clear_message(
    spark: Any, missing: str, front: S3Faults, tmp_path: Path,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("S3CONNECT_LOG_DIR", str(tmp_path / "logs"))
    keys = source_keys_of(
        sink_keys("t", missing, tmp_path, **{"store.url": front.url, "s3.retry.backoff.ms": "5000"})
    )
    code, output, elapsed = run_cli("source", keys, tmp_path, capsys)
    _assert_one_message(code, output, "source", front.url, missing)
    assert front.counts() == {"ListObjectsV2": 1}, front.counts()
    assert elapsed < 5, elapsed  # the first listing, before any query starts
    for log, text in logs_text(tmp_path / "logs").items():
        assert SECRET not in text, log
