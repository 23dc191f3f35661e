"""A key that may not write the bucket, refused by versitygw's own access control: the stack
runs it with an internal IAM (``--iam-dir``), so a test creates an account of role ``user``
(through versitygw's admin API, as ``versitygw admin create-user``) besides the root one. Such an
account may do nothing in a bucket the root owns (``403 AccessDenied``) unless a bucket policy
allows it: here reading and listing (``s3:GetObject``, ``s3:ListBucket``), never writing.

The storage, the sink and the source fail at once, never retried (a refusal is not transient),
with one message naming the endpoint and the bucket, never a secret; nothing is written."""

from __future__ import annotations

import json
import os
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.config import Config as BotoConfig
from botocore.exceptions import ClientError
from confluent_kafka import Producer
from stack import stack as local_stack

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
    write_one,
)

pytestmark = pytest.mark.integration

ROOT_SECRET = S3_CREDENTIALS["aws_secret_access_key"]
OBJECT = "topics/t/partition=0/t+0+0000000000.json"


@dataclass(frozen=True)
class Account:
    """An IAM account of the stack's S3 server."""

    access_key_id: str
    secret: str

    def client(self) -> Any:
        return boto3.client(
            "s3",
            endpoint_url=S3_ENDPOINT,
            region_name="us-east-1",
            config=BotoConfig(s3={"addressing_style": "path"}, retries={"total_max_attempts": 1}),
            aws_access_key_id=self.access_key_id,
            aws_secret_access_key=self.secret,
        )

    def keys(self) -> dict[str, str]:
        """Its connector keys."""
        return {"aws.access.key.id": self.access_key_id, "aws.secret.access.key": self.secret}


def _admin(*args: str) -> subprocess.CompletedProcess[str]:
    """``versitygw admin <args>`` as the root account (its keys in the environment)."""
    env = {
        **os.environ,
        "ADMIN_ACCESS_KEY_ID": S3_CREDENTIALS["aws_access_key_id"],
        "ADMIN_SECRET_ACCESS_KEY": ROOT_SECRET,
    }
    command = [str(local_stack.VERSITYGW), "admin", "--endpoint-url", S3_ENDPOINT, *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=30)


@pytest.fixture(scope="module")
def user(s3: Any) -> Iterator[Account]:
    """A fresh account of role ``user``: it owns nothing, so it may do only what a policy
    allows it in the root's buckets."""
    account = Account(f"reader-{uuid.uuid4().hex[:8]}", f"reader-secret-{uuid.uuid4().hex}")
    created = _admin(
        "create-user", "--access", account.access_key_id, "--secret", account.secret,
        "--role", "user",
    )  # fmt: skip
    if created.returncode != 0:
        pytest.fail(
            f"versitygw admin create-user failed ({created.stderr.strip()}): the S3 server needs "
            "its internal IAM (--iam-dir, as stack/stack.py starts it); restart it: make down up"
        )
    yield account
    _admin("delete-user", "--access", account.access_key_id)


def _read_only_policy(bucket: str, account: Account) -> str:
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Effect": "Allow",
                    "Principal": {"AWS": [account.access_key_id]},
                    "Action": ["s3:GetObject", "s3:ListBucket"],
                    "Resource": [f"arn:aws:s3:::{bucket}", f"arn:aws:s3:::{bucket}/*"],
                }
            ],
        }
    )


def _root_bucket(s3: Any, prefix: str) -> str:
    name = f"{prefix}-{uuid.uuid4().hex[:12]}"
    s3.create_bucket(Bucket=name)
    return name


@pytest.fixture
def read_only(s3: Any, user: Account) -> str:
    """A bucket of the root's, holding one object ``k``, that ``user`` may read and list."""
    bucket = _root_bucket(s3, "read-only")
    s3.put_object(Bucket=bucket, Key="k", Body=b"x")
    s3.put_bucket_policy(Bucket=bucket, Policy=_read_only_policy(bucket, user))
    return bucket


@pytest.fixture
def private(s3: Any) -> str:
    """A bucket of the root's, holding one object ``k`` and the source's object, without policy:
    closed to ``user``."""
    bucket = _root_bucket(s3, "private")
    s3.put_object(Bucket=bucket, Key="k", Body=b"x")
    s3.put_object(Bucket=bucket, Key=OBJECT, Body=b'{"i":0}\n')
    return bucket


@pytest.fixture
def front() -> Iterator[S3Faults]:
    """A front that counts the requests reaching the S3 server (it injects nothing)."""
    with S3Faults(S3_ENDPOINT) as f:
        yield f


def _refused(call: Callable[[], object]) -> dict[str, Any]:
    with pytest.raises(ClientError) as info:
        call()
    return info.value.response


def test_the_server_lets_the_user_read_and_list_but_not_write(
    s3: Any, read_only: str, private: str, user: Account
) -> None:
    client = user.client()
    assert [o["Key"] for o in client.list_objects_v2(Bucket=read_only)["Contents"]] == ["k"]
    assert client.get_object(Bucket=read_only, Key="k")["Body"].read() == b"x"
    writes = ((client.put_object, {"Body": b"y"}), (client.create_multipart_upload, {}))
    refused = [
        partial(write, Bucket=bucket, Key="other", **body)
        for bucket in (read_only, private)
        for write, body in writes
    ]
    refused += [
        partial(client.list_objects_v2, Bucket=private),
        partial(client.get_object, Bucket=private, Key="k"),
    ]
    for call in refused:
        response = _refused(call)
        assert response["Error"]["Code"] == "AccessDenied", response
        assert response["ResponseMetadata"]["HTTPStatusCode"] == 403
    assert [o["Key"] for o in s3.list_objects_v2(Bucket=read_only)["Contents"]] == ["k"]


def _assert_denied(message: str, endpoint: str, bucket: str, user: Account) -> None:
    assert "AccessDenied (HTTP 403)" in message, message
    assert f"to {endpoint}, 1 attempt)" in message and f"s3://{bucket}/" in message
    assert user.secret not in message and ROOT_SECRET not in message


def _timed(use: Callable[[S3Storage], object], storage: S3Storage) -> tuple[str, float]:
    started = time.monotonic()
    with pytest.raises(StorageError) as info:
        use(storage)
    return str(info.value), time.monotonic() - started


def test_storage_write_fails_at_once_where_it_may_only_read(
    s3: Any, read_only: str, user: Account, s3connect_log: list[str]
) -> None:
    storage = s3_storage(read_only, user.access_key_id, user.secret)
    assert storage.read("k") == b"x" and list(storage.list_keys()) == ["k"]
    message, elapsed = _timed(write_one, storage)
    _assert_denied(message, S3_ENDPOINT, read_only, user)
    assert "writing s3://" in message and "PutObject" in message
    assert elapsed < 1.0, elapsed  # refused once: a retry would wait 1 s
    assert not [line for line in s3connect_log if "retrying" in line], s3connect_log
    assert [o["Key"] for o in s3.list_objects_v2(Bucket=read_only)["Contents"]] == ["k"]


@pytest.mark.parametrize("use", list(USES.values()), ids=list(USES))
def test_storage_fails_at_once_where_it_may_do_nothing(
    private: str, user: Account, use: Callable[[S3Storage], object], s3connect_log: list[str]
) -> None:
    message, elapsed = _timed(use, s3_storage(private, user.access_key_id, user.secret))
    _assert_denied(message, S3_ENDPOINT, private, user)
    assert elapsed < 1.0, elapsed
    assert not [line for line in s3connect_log if "retrying" in line], s3connect_log


def _through(front: S3Faults, user: Account) -> dict[str, str]:
    """Connector keys: ``user``'s, through ``front``, retries that would take 5 + 10 + 20 s."""
    return {"store.url": front.url, "s3.retry.backoff.ms": "5000", **user.keys()}


def _assert_one_message(
    code: int, output: str, command: str, front: S3Faults, bucket: str, user: Account
) -> None:
    assert code == ExitCode.STORAGE, output
    assert output.count(f"s3connect {command} failed: S3 could not be used") == 1, output
    _assert_denied(output, front.url, bucket, user)
    assert "Traceback" not in output


def test_sink_fails_within_seconds_with_one_clear_message(
    spark: Any, s3: Any, read_only: str, user: Account, front: S3Faults, make_topic: Any,
    producer: Producer, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("S3CONNECT_LOG_DIR", str(tmp_path / "logs"))
    topic = make_topic("denied")
    produce(producer, topic, json_values({"i": i} for i in range(3)))  # one object's worth
    keys = sink_keys(topic, read_only, tmp_path, **_through(front, user))
    code, output, elapsed = run_cli("sink", keys, tmp_path, capsys)
    _assert_one_message(code, output, "sink", front, read_only, user)
    # the bucket is there (it may read it), then the write is refused once, never retried
    assert front.counts() == {"HeadBucket": 1, "PutObject": 1}, front.counts()
    assert elapsed < 30, elapsed  # the query's start and one refused request
    assert [o["Key"] for o in s3.list_objects_v2(Bucket=read_only)["Contents"]] == ["k"]
    for log, text in logs_text(tmp_path / "logs").items():
        assert user.secret not in text and ROOT_SECRET not in text, log


def test_source_fails_within_seconds_with_one_clear_message(
    spark: Any, private: str, user: Account, front: S3Faults, tmp_path: Path,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("S3CONNECT_LOG_DIR", str(tmp_path / "logs"))
    keys = source_keys_of(sink_keys("t", private, tmp_path, **_through(front, user)))
    code, output, elapsed = run_cli("source", keys, tmp_path, capsys)
    _assert_one_message(code, output, "source", front, private, user)
    assert front.counts() == {"ListObjectsV2": 1}, front.counts()
    assert elapsed < 5, elapsed  # the first listing, before any query starts
    for log, text in logs_text(tmp_path / "logs").items():
        assert user.secret not in text and ROOT_SECRET not in text, log
