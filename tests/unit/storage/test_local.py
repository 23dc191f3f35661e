"""The local-folder destination: same keys, atomic rename, nothing left on failure."""

from __future__ import annotations

from pathlib import Path

import pytest

from s3connect.storage.factory import make_storage
from s3connect.storage.local import LocalStorage
from s3connect.storage.s3 import S3Settings


def test_file_url_gives_local_storage_with_the_same_layout(tmp_path: Path) -> None:
    storage = make_storage(S3Settings(bucket="ignored", endpoint_url=f"file://{tmp_path}"))
    assert isinstance(storage, LocalStorage)
    with storage.open_write("topics/t/partition=0/t+0+0000000000.json") as out:
        out.write(b"{}\n")
    assert (tmp_path / "topics/t/partition=0/t+0+0000000000.json").read_bytes() == b"{}\n"
    assert list(storage.list_keys("topics/")) == ["topics/t/partition=0/t+0+0000000000.json"]


def test_failed_write_leaves_nothing(tmp_path: Path) -> None:
    storage = LocalStorage(tmp_path)
    with pytest.raises(ValueError), storage.open_write("a/b.bin") as out:
        out.write(b"partial")
        raise ValueError("stop")
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == []


def test_settings_repr_masks_the_secret() -> None:
    s = S3Settings(bucket="b", access_key_id="AKIA", secret_access_key="s3cr3t")
    assert "s3cr3t" not in repr(s)
    assert "****" in repr(s)


SSE_C_B64 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="


def test_settings_repr_masks_the_sse_customer_key() -> None:
    s = S3Settings(bucket="b", sse_algorithm="AES256", sse_customer_key=SSE_C_B64)
    assert SSE_C_B64 not in repr(s) and SSE_C_B64 not in str(s)
    assert "sse_customer_key='****'" in repr(s)


def test_create_args_as_s3_output_stream() -> None:
    assert S3Settings(bucket="b").create_args() == {}
    assert S3Settings(bucket="b", acl="public-read", sse_algorithm="AES256").create_args() == {
        "ACL": "public-read",
        "ServerSideEncryption": "AES256",
    }
    assert S3Settings(bucket="b", sse_algorithm="aws:kms", sse_kms_key_id="k").create_args() == {
        "ServerSideEncryption": "aws:kms",
        "SSEKMSKeyId": "k",
    }
    # S3OutputStream sends aws:kms only with a key id ("No encryption is used when no key is
    # provided"), and nothing for aws:kms:dsse
    assert S3Settings(bucket="b", sse_algorithm="aws:kms").create_args() == {}
    assert (
        S3Settings(bucket="b", sse_algorithm="aws:kms:dsse", sse_kms_key_id="k").create_args() == {}
    )
    # the KMS key id counts only with aws:kms, the customer key only with AES256
    assert S3Settings(bucket="b", sse_kms_key_id="k").create_args() == {}
    assert S3Settings(bucket="b", sse_customer_key=SSE_C_B64).create_args() == {}
    sse_c = S3Settings(bucket="b", sse_algorithm="AES256", sse_customer_key=SSE_C_B64)
    assert (
        sse_c.create_args()
        == sse_c.sse_customer_args()
        == {
            "SSECustomerAlgorithm": "AES256",
            "SSECustomerKey": bytes(range(32)),
        }
    )


def test_local_storage_accepts_and_ignores_tags(tmp_path: Path) -> None:
    storage = LocalStorage(tmp_path)
    with storage.open_write("a/b.json", {"startOffset": "0"}) as out:
        out.write(b"x")
    assert storage.read("a/b.json") == b"x"
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["b.json"]
