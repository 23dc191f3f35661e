"""S3 options end to end: SSE, canned ACLs, object tagging and assume-role credentials.

Each test runs the sink once against the real stack and asks the S3 server what it received.
The stack's S3 (versitygw) holds Confluent's tags (``get_object_tagging``) and takes SSE-C
headers (checked on the wire); what it cannot reflect is asked of moto's server (``moto_s3`` /
``moto_bucket``, ``store.url`` pointing at it): SSE-S3 / SSE-KMS headers echoed by
``head_object``, the canned ACL's grants by ``get_object_acl``, and STS ``AssumeRole``.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
from pathlib import Path
from typing import Any

import boto3
import pytest
from confluent_kafka import Producer

from s3connect.config.sink import SinkConfig
from s3connect.errors import StorageError
from s3connect.sink.context import build_storage
from s3connect.storage.s3 import S3Storage
from tests.conftest import MOTO_CREDENTIALS, MOTO_ENDPOINT, S3_CREDENTIALS
from tests.integration.sinkhelp import json_values, keys_of, produce, run, sink_keys

pytestmark = pytest.mark.integration

SSE_C_KEY = bytes(range(32))
SSE_C_B64 = base64.b64encode(SSE_C_KEY).decode()
SSE_C = {"SSECustomerAlgorithm": "AES256", "SSECustomerKey": SSE_C_KEY}
ROLE_ARN = "arn:aws:iam::123456789012:role/s3-sink-writer"


# The sink against moto's server (SSE echo, ACL grants, STS): its endpoint and credentials.
ON_MOTO = {
    "store.url": MOTO_ENDPOINT,
    "aws.access.key.id": MOTO_CREDENTIALS["aws_access_key_id"],
    "aws.secret.access.key": MOTO_CREDENTIALS["aws_secret_access_key"],
}


def _run_six(spark: Any, make_topic: Any, producer: Producer, s3: Any, bucket: str, tmp: Path,
              **keys: str) -> tuple[str, list[str]]:  # fmt: skip
    """Six records, flush.size=3: two committed objects (``s3`` is the client of the server
    that ``keys`` point the sink at: the stack's S3 unless they say moto's)."""
    topic = make_topic("opt")
    produce(producer, topic, json_values({"i": i} for i in range(6)))
    run(spark, sink_keys(topic, bucket, tmp, **keys))
    return topic, sorted(o["Key"] for o in s3.list_objects_v2(Bucket=bucket).get("Contents", []))


def test_sse_s3_aes256_reaches_server(
    spark: Any, make_topic: Any, producer: Producer, moto_s3: Any, moto_bucket: str,
    tmp_path: Path,
) -> None:  # fmt: skip
    _, keys = _run_six(
        spark, make_topic, producer, moto_s3, moto_bucket, tmp_path,
        **ON_MOTO, **{"s3.ssea.name": "AES256"},
    )  # fmt: skip
    assert len(keys) == 2
    for key in keys:
        assert moto_s3.head_object(Bucket=moto_bucket, Key=key)["ServerSideEncryption"] == "AES256"


def test_sse_kms_with_key_id_reaches_server(
    spark: Any, make_topic: Any, producer: Producer, moto_s3: Any, moto_bucket: str,
    tmp_path: Path,
) -> None:  # fmt: skip
    kms_key = "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab"
    _, keys = _run_six(
        spark, make_topic, producer, moto_s3, moto_bucket, tmp_path,
        **ON_MOTO, **{"s3.ssea.name": "aws:kms", "s3.sse.kms.key.id": kms_key},
    )  # fmt: skip
    assert len(keys) == 2
    for key in keys:
        head = moto_s3.head_object(Bucket=moto_bucket, Key=key)
        assert head["ServerSideEncryption"] == "aws:kms"
        assert head["SSEKMSKeyId"] == kms_key


def test_sse_c_sink_objects_readable_with_the_customer_key(
    spark: Any, make_topic: Any, producer: Producer, s3: Any, bucket: str, tmp_path: Path
) -> None:
    """The stack's S3 (versitygw) accepts SSE-C headers but does not enforce them (a GET without
    the key succeeds too), so the headers themselves are checked on the wire in the next test."""
    _, keys = _run_six(
        spark, make_topic, producer, s3, bucket, tmp_path,
        **{"s3.ssea.name": "AES256", "s3.sse.customer.key": SSE_C_B64},
    )  # fmt: skip
    assert len(keys) == 2
    body = s3.get_object(Bucket=bucket, Key=keys[0], **SSE_C)["Body"].read()
    assert body == b'{"i":0}\n{"i":1}\n{"i":2}\n'


def _record_headers(storage: S3Storage) -> list[tuple[str, dict[str, str]]]:
    """(operation, request headers) of every request the storage's client sends."""
    sent: list[tuple[str, dict[str, str]]] = []

    def name_op(params: Any, model: Any, context: Any, **_: Any) -> None:
        context["s3_operation"] = model.name

    def before_send(request: Any, **_: Any) -> None:
        op = request.context.get("s3_operation") or request.method
        headers = {
            k.lower(): v.decode() if isinstance(v, bytes) else str(v)
            for k, v in request.headers.items()
        }
        sent.append((str(op), headers))

    storage.client.meta.events.register("before-parameter-build.s3", name_op)
    storage.client.meta.events.register("before-send.s3", before_send)
    return sent


def test_sse_c_headers_on_create_every_part_and_put(s3: Any, bucket: str, tmp_path: Path) -> None:
    """As S3OutputStream: SSE-C on CreateMultipartUpload and on every UploadPart (S3 needs it
    there), not on CompleteMultipartUpload; and on PutObject for a one-part object."""
    keys = {"s3.ssea.name": "AES256", "s3.sse.customer.key": SSE_C_B64, "s3.part.size": "5242880"}
    storage = build_storage(SinkConfig.from_mapping(sink_keys("t", bucket, tmp_path, **keys)))
    assert isinstance(storage, S3Storage)
    sent = _record_headers(storage)
    data = os.urandom(2 * 5 * 1024 * 1024 + 123)
    with storage.open_write("big/object.bin") as out:
        out.write(data)
    with storage.open_write("small/object.bin") as out:
        out.write(b"small")
    key_md5 = base64.b64encode(hashlib.md5(SSE_C_KEY).digest()).decode()
    assert [op for op, _ in sent] == [
        "CreateMultipartUpload", "UploadPart", "UploadPart", "UploadPart",
        "CompleteMultipartUpload", "PutObject",
    ]  # fmt: skip
    for op, headers in sent:
        carries = op != "CompleteMultipartUpload"
        algorithm = headers.get("x-amz-server-side-encryption-customer-algorithm")
        assert (algorithm == "AES256") is carries
        assert (headers.get("x-amz-server-side-encryption-customer-key") == SSE_C_B64) is carries
        assert (headers.get("x-amz-server-side-encryption-customer-key-md5") == key_md5) is carries
        assert "x-amz-server-side-encryption" not in headers
    head = s3.head_object(Bucket=bucket, Key="big/object.bin", **SSE_C)
    assert head["ContentLength"] == len(data)
    assert head["ETag"].endswith('-3"')  # three parts
    assert s3.get_object(Bucket=bucket, Key="big/object.bin", **SSE_C)["Body"].read() == data


@pytest.mark.parametrize(
    ("acl", "grants"),
    [
        ("public-read", {("CanonicalUser", "FULL_CONTROL"), ("Group:AllUsers", "READ")}),
        ("authenticated-read", {("CanonicalUser", "FULL_CONTROL"),
                                ("Group:AuthenticatedUsers", "READ")}),
    ],
)  # fmt: skip
def test_canned_acl_reaches_server(
    spark: Any, make_topic: Any, producer: Producer, moto_s3: Any, moto_bucket: str,
    tmp_path: Path, acl: str, grants: set[tuple[str, str]],
) -> None:  # fmt: skip
    _, keys = _run_six(
        spark, make_topic, producer, moto_s3, moto_bucket, tmp_path,
        **ON_MOTO, **{"s3.acl.canned": acl},
    )  # fmt: skip
    assert len(keys) == 2
    for key in keys:
        got = set()
        for g in moto_s3.get_object_acl(Bucket=moto_bucket, Key=key)["Grants"]:
            grantee = g["Grantee"]
            who = grantee["Type"]
            if who == "Group":
                who = "Group:" + grantee["URI"].rsplit("/", 1)[-1]
            got.add((who, g["Permission"]))
        assert got == grants


def test_default_acl_is_private(
    spark: Any, make_topic: Any, producer: Producer, moto_s3: Any, moto_bucket: str,
    tmp_path: Path,
) -> None:  # fmt: skip
    _, keys = _run_six(spark, make_topic, producer, moto_s3, moto_bucket, tmp_path, **ON_MOTO)
    grants = moto_s3.get_object_acl(Bucket=moto_bucket, Key=keys[0])["Grants"]
    assert [(g["Grantee"]["Type"], g["Permission"]) for g in grants] == [
        ("CanonicalUser", "FULL_CONTROL")
    ]


def test_object_tagging_start_end_count(
    spark: Any, make_topic: Any, producer: Producer, s3: Any, bucket: str, tmp_path: Path
) -> None:
    topic = make_topic("tag")
    produce(producer, topic, json_values({"i": i} for i in range(7)))
    run(spark, sink_keys(topic, bucket, tmp_path, **{"s3.object.tagging": "true"}))
    keys = keys_of(s3, bucket)
    assert keys == [
        f"topics/{topic}/partition=0/{topic}+0+0000000000.json",
        f"topics/{topic}/partition=0/{topic}+0+0000000003.json",
    ]  # offset 6 stays open (flush.size=3)
    expected = [
        {"startOffset": "0", "endOffset": "2", "recordCount": "3"},
        {"startOffset": "3", "endOffset": "5", "recordCount": "3"},
    ]
    for key, tags in zip(keys, expected, strict=True):
        tag_set = s3.get_object_tagging(Bucket=bucket, Key=key)["TagSet"]
        assert {t["Key"]: t["Value"] for t in tag_set} == tags
        assert len(tag_set) == 3


def test_extra_object_tags_follow_the_offset_tags(
    spark: Any, make_topic: Any, producer: Producer, s3: Any, bucket: str, tmp_path: Path
) -> None:
    topic = make_topic("tagx")
    produce(producer, topic, json_values({"i": i} for i in range(3)))
    run(spark, sink_keys(topic, bucket, tmp_path, **{
        "s3.object.tagging": "true",
        "s3.object.tagging.key.value.pairs": "team:data,env:test",
    }))  # fmt: skip
    (key,) = keys_of(s3, bucket)
    tag_set = s3.get_object_tagging(Bucket=bucket, Key=key)["TagSet"]
    assert {t["Key"]: t["Value"] for t in tag_set} == {
        "startOffset": "0", "endOffset": "2", "recordCount": "3", "team": "data", "env": "test",
    }  # fmt: skip


def test_object_tagging_only_the_value_file_with_keys_files(
    spark: Any, make_topic: Any, producer: Producer, s3: Any, bucket: str, tmp_path: Path
) -> None:
    topic = make_topic("tagk")
    produce(producer, topic, json_values({"i": i} for i in range(3)), keys=[b"a", b"b", b"c"])
    run(spark, sink_keys(topic, bucket, tmp_path, **{
        "s3.object.tagging": "true", "store.kafka.keys": "true",
        "keys.format.class": "io.confluent.connect.s3.format.json.JsonFormat",
        "key.converter": "org.apache.kafka.connect.storage.StringConverter",
    }))  # fmt: skip
    value_key = f"topics/{topic}/partition=0/{topic}+0+0000000000.json"
    keys_key = f"topics/{topic}/partition=0/{topic}+0+0000000000.keys.json"
    assert keys_of(s3, bucket) == [value_key, keys_key]
    tags = s3.get_object_tagging(Bucket=bucket, Key=value_key)["TagSet"]
    assert {t["Key"]: t["Value"] for t in tags} == {
        "startOffset": "0", "endOffset": "2", "recordCount": "3"
    }  # fmt: skip
    assert s3.get_object_tagging(Bucket=bucket, Key=keys_key)["TagSet"] == []


def test_no_tags_by_default(
    spark: Any, make_topic: Any, producer: Producer, s3: Any, bucket: str, tmp_path: Path
) -> None:
    _, keys = _run_six(spark, make_topic, producer, s3, bucket, tmp_path)
    assert s3.get_object_tagging(Bucket=bucket, Key=keys[0])["TagSet"] == []


ASSUME_ROLE = {
    **ON_MOTO,
    "s3.credentials.provider.class": (
        "io.confluent.connect.s3.auth.AwsAssumeRoleCredentialsProvider"
    ),
    "s3.credentials.provider.sts.role.arn": ROLE_ARN,
    "s3.credentials.provider.sts.role.session.name": "s3connect-test",
    "s3.credentials.provider.sts.role.external.id": "ext-1234",
    "sts.endpoint.url": MOTO_ENDPOINT,  # moto's server answers STS on the same port
}


def test_assume_role_client_uses_the_role_session(moto_bucket: str, tmp_path: Path) -> None:
    config = SinkConfig.from_mapping(sink_keys("t", moto_bucket, tmp_path, **ASSUME_ROLE))
    storage = build_storage(config)
    assert isinstance(storage, S3Storage)
    creds = storage.client._get_credentials().get_frozen_credentials()
    assert creds.access_key not in {
        MOTO_CREDENTIALS["aws_access_key_id"], S3_CREDENTIALS["aws_access_key_id"]
    }  # fmt: skip
    assert creds.token  # a session token: temporary STS credentials
    sts = boto3.client(
        "sts", endpoint_url=MOTO_ENDPOINT, region_name="us-east-1",
        aws_access_key_id=creds.access_key, aws_secret_access_key=creds.secret_key,
        aws_session_token=creds.token,
    )  # fmt: skip
    arn = sts.get_caller_identity()["Arn"]
    assert arn == "arn:aws:sts::123456789012:assumed-role/s3-sink-writer/s3connect-test"


def test_assume_role_sink_writes(
    spark: Any, make_topic: Any, producer: Producer, moto_s3: Any, moto_bucket: str,
    tmp_path: Path,
) -> None:  # fmt: skip
    topic, keys = _run_six(
        spark, make_topic, producer, moto_s3, moto_bucket, tmp_path, **ASSUME_ROLE
    )  # fmt: skip
    assert keys == [
        f"topics/{topic}/partition=0/{topic}+0+0000000000.json",
        f"topics/{topic}/partition=0/{topic}+0+0000000003.json",
    ]


def test_assume_role_unreachable_sts_fails_clearly(moto_bucket: str, tmp_path: Path) -> None:
    keys = {**ASSUME_ROLE, "sts.endpoint.url": "http://127.0.0.1:9", "s3.part.retries": "0"}
    storage = build_storage(
        SinkConfig.from_mapping(sink_keys("t", moto_bucket, tmp_path, **keys))
    )  # fmt: skip
    with pytest.raises(StorageError, match=re.escape("http://127.0.0.1:9/")):
        storage.read("nothing")
