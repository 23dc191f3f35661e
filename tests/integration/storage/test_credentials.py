"""Wrong credentials against the stack's S3 (versitygw checks SigV4 signatures, which moto never
did): the server refuses them, and the storage, the sink and the source fail at once (no retries)
with a message naming the endpoint and the bucket, never the secret."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.config import Config as BotoConfig
from botocore.exceptions import ClientError
from confluent_kafka import Producer

from s3connect.errors import StorageError
from s3connect.storage.s3 import S3Storage
from tests.conftest import S3_CREDENTIALS, S3_ENDPOINT
from tests.integration.sinkhelp import json_values, produce, sink_keys
from tests.integration.storage.refusalhelp import USES, run_cli, s3_storage, source_keys_of

pytestmark = pytest.mark.integration

WRONG_SECRET = "sentinel-wrong-secret-4d1c"
UNKNOWN_KEY = "sentinel-unknown-access-key"


def _client(access_key_id: str, secret: str) -> Any:
    return boto3.client(
        "s3",
        endpoint_url=S3_ENDPOINT,
        region_name="us-east-1",
        config=BotoConfig(s3={"addressing_style": "path"}, retries={"total_max_attempts": 1}),
        aws_access_key_id=access_key_id,
        aws_secret_access_key=secret,
    )


@pytest.mark.parametrize(
    ("access_key_id", "secret"),
    [(S3_CREDENTIALS["aws_access_key_id"], WRONG_SECRET), (UNKNOWN_KEY, WRONG_SECRET)],
    ids=["wrong-secret", "unknown-access-key"],
)
def test_the_server_refuses_wrong_credentials(
    s3: Any, bucket: str, access_key_id: str, secret: str
) -> None:
    s3.put_object(Bucket=bucket, Key="k", Body=b"x")
    wrong = _client(access_key_id, secret)
    for call in (
        lambda: wrong.list_objects_v2(Bucket=bucket),
        lambda: wrong.get_object(Bucket=bucket, Key="k"),
        lambda: wrong.put_object(Bucket=bucket, Key="other", Body=b"y"),
    ):
        with pytest.raises(ClientError) as info:
            call()
        # AWS and versitygw with its internal IAM (the stack's): 403 SignatureDoesNotMatch /
        # InvalidAccessKeyId; versitygw with its root account alone answers an unknown key with
        # 404 XAdminUserNotFound.
        status = info.value.response["ResponseMetadata"]["HTTPStatusCode"]
        assert status in {403, 404}, info.value.response
    assert [o["Key"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"]] == ["k"]


@pytest.mark.parametrize("use", list(USES.values()), ids=list(USES))
def test_storage_fails_at_once_naming_endpoint_and_bucket(
    s3: Any, bucket: str, use: Callable[[S3Storage], object]
) -> None:
    s3.put_object(Bucket=bucket, Key="k", Body=b"x")
    started = time.monotonic()
    with pytest.raises(StorageError) as info:
        use(s3_storage(bucket, S3_CREDENTIALS["aws_access_key_id"], WRONG_SECRET))
    assert time.monotonic() - started < 1.0  # refused once, not retried
    message = str(info.value)
    assert "SignatureDoesNotMatch" in message
    assert S3_ENDPOINT in message and bucket in message
    assert WRONG_SECRET not in message and S3_CREDENTIALS["aws_secret_access_key"] not in message
    assert s3.list_objects_v2(Bucket=bucket)["KeyCount"] == 1  # nothing written


def _assert_refused(code: int, output: str, elapsed: float, bucket: str, command: str) -> None:
    assert code == 4, output  # S3
    assert f"s3connect {command} failed:" in output
    assert "SignatureDoesNotMatch" in output and S3_ENDPOINT in output and bucket in output
    assert WRONG_SECRET not in output
    assert elapsed < 60, elapsed  # the query's start, one refused request: no retry loop


def test_sink_with_a_wrong_secret_fails_with_one_clear_message(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("S3CONNECT_LOG_DIR", str(tmp_path / "logs"))
    topic = make_topic("wrongsecret")
    produce(producer, topic, json_values({"i": i} for i in range(3)))
    keys = sink_keys(topic, bucket, tmp_path, **{"aws.secret.access.key": WRONG_SECRET})
    code, output, elapsed = run_cli("sink", keys, tmp_path, capsys)
    _assert_refused(code, output, elapsed, bucket, "sink")
    assert "Contents" not in s3.list_objects_v2(Bucket=bucket)
    for log in (tmp_path / "logs").glob("*"):
        assert WRONG_SECRET not in log.read_text(errors="replace"), log


def test_source_with_a_wrong_secret_fails_with_one_clear_message(
    spark: Any, s3: Any, bucket: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("S3CONNECT_LOG_DIR", str(tmp_path / "logs"))
    s3.put_object(Bucket=bucket, Key="topics/t/partition=0/t+0+0000000000.json", Body=b"{}\n")
    keys = source_keys_of(
        sink_keys("t", bucket, tmp_path, **{"aws.secret.access.key": WRONG_SECRET})
    )
    code, output, elapsed = run_cli("source", keys, tmp_path, capsys)
    _assert_refused(code, output, elapsed, bucket, "source")
