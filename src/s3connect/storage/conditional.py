"""Conditional writes (``enable.conditional.writes``): an object is created only where none is.

When Confluent's ``shouldEnableConditionalWrites()`` holds (the flag, a scheduled rotation, no
keys or headers files), the request that makes an object visible (``PutObject`` for a
single-part object, ``CompleteMultipartUpload`` otherwise; Confluent always uses multipart and
puts it on the latter) carries ``If-None-Match: *``. S3 answers ``412 PreconditionFailed`` when
the key already holds an object. We then look at that object:

- the same bytes (its ETag is the one of what we were writing, or, when the ETag cannot tell,
  e.g. under SSE-KMS or SSE-C or another part size, its streamed content gives our ETag): it is
  ours, from an earlier attempt of this micro-batch (Spark replays a micro-batch with the same
  offsets, and our objects are a function of the records). The write counts as committed.
- other bytes: it is never overwritten, and the write fails with a
  :class:`~s3connect.errors.StorageError` naming the bucket and key.

Confluent instead seeks the consumer to the next offset whose file name is free and rewrites
from there, which gives at-least-once with duplicate records across files. We stop instead: a
Spark query cannot move its Kafka offsets from inside a micro-batch, and a file starting at an
offset that another writer or a differently cut replay already used means the layout is no
longer one object per record; a person should look before anything more is written.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from s3connect.errors import StorageError

__all__ = ["ObjectDigest", "Retry", "check_existing", "head_object", "is_precondition_failed"]

T = TypeVar("T")
logger = logging.getLogger(__name__)


class Retry(Protocol):
    """Runs an S3 call with the storage's retries (``what`` names it in the error)."""

    def __call__(self, what: str, call: Callable[[], T]) -> T: ...


def is_precondition_failed(exc: BaseException) -> bool:
    """Whether a botocore ``ClientError`` is S3's refusal of ``If-None-Match: *``: HTTP 412,
    or the ``PreconditionFailed`` code (S3 may send it in a 200 ``CompleteMultipartUpload``)."""
    response: dict[str, Any] = getattr(exc, "response", None) or {}
    status = response.get("ResponseMetadata", {}).get("HTTPStatusCode")
    code = response.get("Error", {}).get("Code")
    return bool(status == 412 or code == "PreconditionFailed")


class ObjectDigest:
    """The ETag S3 gives an object written in parts of ``part_size`` bytes: the MD5 hex of a
    single-part object (one ``PutObject``, smaller than a part), else the MD5 of the parts'
    MD5 digests followed by ``-<parts>``. Feed it the bytes in order."""

    def __init__(self, part_size: int) -> None:
        self.part_size = part_size
        self._parts: list[bytes] = []
        self._current = hashlib.md5(usedforsecurity=False)
        self._in_part = 0
        self.size = 0

    def update(self, data: bytes | memoryview) -> None:
        """Add the next bytes of the object."""
        view = memoryview(data).cast("B")
        self.size += len(view)
        while len(view):
            take = min(len(view), self.part_size - self._in_part)
            self._current.update(view[:take])
            self._in_part += take
            view = view[take:]
            if self._in_part == self.part_size:
                self._parts.append(self._current.digest())
                self._current = hashlib.md5(usedforsecurity=False)
                self._in_part = 0

    def etag(self) -> str:
        """The ETag (without quotes); multipart when the object is at least one part long."""
        if self.size < self.part_size:
            return self._current.hexdigest()
        digests = self._parts + ([self._current.digest()] if self._in_part else [])
        joined = hashlib.md5(b"".join(digests), usedforsecurity=False).hexdigest()
        return f"{joined}-{len(digests)}"


def check_existing(
    client: Any,
    bucket: str,
    key: str,
    ours: ObjectDigest,
    *,
    sse_args: dict[str, Any],
    retry: Retry,
) -> None:
    """After a refused conditional write: return when the object at ``key`` holds what we were
    writing (logged at INFO), else raise.

    Raises:
        StorageError: the object holds other bytes (it is kept), or is not there although S3
            refused the write.
    """
    where = f"s3://{bucket}/{key}"
    head = head_object(client, bucket, key, sse_args, retry)
    if head is None:
        raise StorageError(
            "Unexpected state - Contradicting response from conditional upload and file exists "
            f"call in S3: S3 refused the conditional write of {where} (the key is taken) but "
            "the object is not there; retry the query"
        )
    etag, size = str(head.get("ETag", "")).strip('"'), int(head.get("ContentLength", -1))
    same = etag == ours.etag() or (
        size == ours.size and _streamed_etag(client, bucket, key, ours, sse_args, retry)
    )
    if same:
        logger.info(
            "%s already holds these %d bytes (written by an earlier attempt of this "
            "micro-batch); counted as committed",
            where,
            ours.size,
        )
        return
    raise StorageError(
        f"File already exists: {where} already exists with other content (ETag {etag}, "
        f"{size} bytes; ours {ours.etag()}, {ours.size} bytes) and "
        "enable.conditional.writes never overwrites: the existing object is kept and this "
        "micro-batch fails. Either another writer uses this bucket and topics.dir (give "
        "each writer its own), or a replay of this micro-batch cut the file elsewhere than "
        "the earlier attempt did (rotate.schedule.interval.ms rotates on wall-clock time). "
        "Check the object; if it is from an earlier attempt of this query, delete it (or "
        "set enable.conditional.writes=false) and restart: the query rewrites it from its "
        "checkpoint."
    )


def head_object(
    client: Any, bucket: str, key: str, sse_args: dict[str, Any], retry: Retry
) -> dict[str, Any] | None:
    """``HeadObject`` of ``key``, None when S3 says it is not there: a 404, which is all
    ``S3FileUtils.fileExists`` takes for absent (``NoSuchKeyException``); other errors raise."""

    def head() -> dict[str, Any] | None:
        from botocore.exceptions import ClientError

        try:
            return dict(client.head_object(Bucket=bucket, Key=key, **sse_args))
        except ClientError as exc:
            if exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode") == 404:
                return None
            raise

    return retry(f"checking s3://{bucket}/{key}", head)


def _streamed_etag(
    client: Any, bucket: str, key: str, ours: ObjectDigest, sse_args: dict[str, Any], retry: Retry
) -> bool:
    """Whether the object's bytes, read in chunks, give our ETag (for ETags that are not
    content digests: SSE-KMS, SSE-C, or an object written with another part size)."""

    def read() -> str:
        theirs = ObjectDigest(ours.part_size)
        body = client.get_object(Bucket=bucket, Key=key, **sse_args)["Body"]
        for chunk in body.iter_chunks(1024 * 1024):
            theirs.update(chunk)
        return theirs.etag()

    return retry(f"reading s3://{bucket}/{key} to compare it", read) == ours.etag()
