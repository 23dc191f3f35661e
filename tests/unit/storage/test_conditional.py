"""Conditional writes, the parts that need no S3: the ETag of what we write and what counts as
S3's refusal of ``If-None-Match: *`` (against the S3 server: tests/integration/storage)."""

from __future__ import annotations

import hashlib

import pytest
from botocore.exceptions import ClientError

from s3connect.storage.conditional import ObjectDigest, is_precondition_failed


def _md5(data: bytes) -> bytes:
    return hashlib.md5(data, usedforsecurity=False).digest()


def test_single_part_etag_is_the_md5_hex() -> None:
    d = ObjectDigest(part_size=10)
    d.update(b"abc")
    d.update(memoryview(b"def"))
    assert d.etag() == hashlib.md5(b"abcdef", usedforsecurity=False).hexdigest()
    assert d.size == 6
    assert ObjectDigest(part_size=10).etag() == "d41d8cd98f00b204e9800998ecf8427e"


@pytest.mark.parametrize("chunks", [[b"a" * 25], [b"a" * 7, b"a" * 18], [b"a"] * 25])
def test_multipart_etag_is_the_md5_of_the_part_digests(chunks: list[bytes]) -> None:
    d = ObjectDigest(part_size=10)
    for chunk in chunks:
        d.update(chunk)
    parts = _md5(b"a" * 10) + _md5(b"a" * 10) + _md5(b"a" * 5)
    assert d.etag() == hashlib.md5(parts, usedforsecurity=False).hexdigest() + "-3"


def test_an_object_of_whole_parts_has_no_empty_last_part() -> None:
    d = ObjectDigest(part_size=4)
    d.update(b"abcdefgh")
    parts = _md5(b"abcd") + _md5(b"efgh")
    assert d.etag() == hashlib.md5(parts, usedforsecurity=False).hexdigest() + "-2"


def _client_error(status: int, code: str) -> ClientError:
    return ClientError(
        {"Error": {"Code": code, "Message": "m"}, "ResponseMetadata": {"HTTPStatusCode": status}},
        "CompleteMultipartUpload",
    )


@pytest.mark.parametrize(
    ("status", "code", "expected"),
    [
        (412, "PreconditionFailed", True),
        (200, "PreconditionFailed", True),  # S3 may answer a complete with 200 and an error
        (412, "Other", True),
        (409, "ConditionalRequestConflict", False),
        (500, "InternalError", False),
    ],
)
def test_what_counts_as_a_refused_conditional_write(status: int, code: str, expected: bool) -> None:
    assert is_precondition_failed(_client_error(status, code)) is expected
    assert is_precondition_failed(ValueError("x")) is False
