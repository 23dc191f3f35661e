"""S3 storage through boto3: multipart uploads, SSE, ACLs, tags, static or assumed-role keys.

Objects become visible atomically: a writer streams parts of ``s3.part.size`` bytes into an S3
multipart upload and completes it on close (one ``PutObject`` when the object fits in one part,
where Confluent's ``S3OutputStream`` still makes a one-part upload: see :meth:`_S3Writer.commit`);
on error the upload is aborted, so a reader never sees a partial object. Memory held per open
writer is at most one part.

S3 options as Confluent's ``S3OutputStream`` / ``S3Storage`` send them: the canned ACL and SSE
headers on the request that creates the object (``CreateMultipartUpload`` or ``PutObject``), the
SSE-C key also on every ``UploadPart``, with ``s3.send.digest`` a ``Content-MD5`` on every part
(and on a one-part ``PutObject``); object tags with a ``PutObjectTagging`` call after the
object is complete (retried like parts; ``s3.object.behavior.on.tagging.error`` decides whether
a failure fails the write). Every request is retried by :func:`_retrying` alone (botocore's own
retries are off): ``s3.part.retries`` attempts in all for a transient failure, waiting
``s3.retry.backoff.ms`` doubled each time, each retry logged as a warning. Credentials: static
keys, boto3's default chain, or an STS
assume-role session refreshed before it expires (``AwsAssumeRoleCredentialsProvider``).
Every S3 client goes through the proxy of ``s3.proxy.url`` when set (:mod:`.proxy`); with
conditional writes the object is only created where none is (:mod:`.conditional`).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO, TypeVar

from s3connect.errors import StorageError
from s3connect.storage.conditional import (
    ObjectDigest,
    check_existing,
    head_object,
    is_precondition_failed,
)
from s3connect.storage.proxy import S3Proxy

__all__ = [
    "AssumeRole",
    "S3Settings",
    "S3Storage",
    "backoff_ms",
]

T = TypeVar("T")
logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class AssumeRole:
    """``AwsAssumeRoleCredentialsProvider``'s settings (``s3.credentials.provider.sts.*``)."""

    role_arn: str  # sts.role.arn
    session_name: str  # sts.role.session.name
    external_id: str | None = None  # sts.role.external.id
    region: str | None = None  # sts.region (else s3.region)
    endpoint_url: str | None = None  # sts.endpoint.url (ours; AWS's endpoint when unset)


@dataclass(frozen=True, slots=True)
class S3Settings:
    """The S3 options of a connector config (Confluent's key names in comments)."""

    bucket: str  # s3.bucket.name
    region: str = "us-west-2"  # s3.region
    endpoint_url: str | None = None  # store.url
    path_style: bool = True  # s3.path.style.access.enabled
    access_key_id: str | None = None  # aws.access.key.id
    secret_access_key: str | None = None  # aws.secret.access.key
    part_size: int = 26_214_400  # s3.part.size
    part_retries: int = 3  # s3.part.retries
    retry_backoff_ms: int = 200  # s3.retry.backoff.ms
    sse_algorithm: str = ""  # s3.ssea.name: "", AES256 or aws:kms
    sse_kms_key_id: str = ""  # s3.sse.kms.key.id (with aws:kms)
    sse_customer_key: str | None = None  # s3.sse.customer.key: base64, with AES256 (SSE-C)
    acl: str | None = None  # s3.acl.canned
    object_tagging: bool = False  # s3.object.tagging
    extra_tags: tuple[tuple[str, str], ...] = ()  # s3.object.tagging.key.value.pairs
    fail_on_tagging_error: bool = False  # s3.object.behavior.on.tagging.error=fail
    assume_role: AssumeRole | None = None  # s3.credentials.provider.class
    proxy: S3Proxy | None = None  # s3.proxy.url, s3.proxy.user, s3.proxy.password
    conditional_writes: bool = False  # enable.conditional.writes, when Confluent enables it
    send_digest: bool = False  # s3.send.digest: Content-MD5 on every part

    def __repr__(self) -> str:
        secret = "****" if self.secret_access_key else None
        customer = "****" if self.sse_customer_key else None
        return (
            f"S3Settings(bucket={self.bucket!r}, region={self.region!r}, "
            f"endpoint_url={self.endpoint_url!r}, path_style={self.path_style}, "
            f"access_key_id={self.access_key_id!r}, secret_access_key={secret!r}, "
            f"part_size={self.part_size}, sse_algorithm={self.sse_algorithm!r}, "
            f"sse_kms_key_id={self.sse_kms_key_id!r}, sse_customer_key={customer!r}, "
            f"acl={self.acl!r}, object_tagging={self.object_tagging}, "
            f"assume_role={self.assume_role!r}, proxy={self.proxy!r}, "
            f"conditional_writes={self.conditional_writes}, send_digest={self.send_digest})"
        )

    __str__ = __repr__

    def sse_customer_args(self) -> dict[str, Any]:
        """SSE-C parameters (S3 needs them on create and on every part), or none.

        As ``S3OutputStream``: the customer key counts only with ``s3.ssea.name=AES256``.
        """
        if self.sse_algorithm != "AES256" or not self.sse_customer_key:
            return {}
        # botocore base64-encodes the raw key and adds its MD5 header.
        return {
            "SSECustomerAlgorithm": "AES256",
            "SSECustomerKey": base64.b64decode(self.sse_customer_key),
        }

    def digest_args(self, body: bytes) -> dict[str, Any]:
        """``Content-MD5`` of a part with ``s3.send.digest`` (``S3OutputStream.computeDigest``:
        the base64 MD5 of the part's bytes), or none."""
        if not self.send_digest:
            return {}
        md5 = hashlib.md5(body, usedforsecurity=False).digest()
        return {"ContentMD5": base64.b64encode(md5).decode("ascii")}

    def create_args(self) -> dict[str, Any]:
        """ACL and SSE parameters of ``CreateMultipartUpload`` / ``PutObject``."""
        args: dict[str, Any] = {}
        if self.acl:
            args["ACL"] = self.acl
        # S3OutputStream.newMultipartUpload: SSE-S3, SSE-KMS only with a key id (its doc: "No
        # encryption is used when no key is provided"), or SSE-C; nothing else.
        customer = self.sse_customer_args()
        if customer:
            args.update(customer)
        elif self.sse_algorithm == "AES256":
            args["ServerSideEncryption"] = "AES256"
        elif self.sse_algorithm == "aws:kms" and self.sse_kms_key_id.strip():
            args["ServerSideEncryption"] = "aws:kms"
            args["SSEKMSKeyId"] = self.sse_kms_key_id
        return args


_MAX_BACKOFF_MS = 24 * 3600 * 1000  # Confluent's S3_RETRY_MAX_BACKOFF_TIME_MS
_RETRIES_CEILING = 30  # the SDK's ExponentialDelayWithJitter doubles at most 30 times
# The AWS SDK's default retry condition (Confluent's client): besides 5xx and client-side
# failures (connection reset or refused, timeouts), these codes are transient.
_TRANSIENT_CODES = frozenset(
    {
        "RequestTimeout", "RequestTimeoutException", "PriorRequestNotComplete", "SlowDown",
        "Throttling", "ThrottlingException", "ThrottledException", "RequestThrottled",
        "RequestThrottledException", "TooManyRequestsException", "RequestLimitExceeded",
        "BandwidthLimitExceeded", "ProvisionedThroughputExceededException",
    }
)  # fmt: skip
_calls = threading.local()  # the S3 operation of this thread's latest call (for messages)


def _note_operation(model: Any, **_: Any) -> None:
    """botocore's ``before-call`` hook: remember which S3 operation is being called."""
    _calls.operation = model.name


def _transient(exc: Exception) -> bool:
    """Whether a retry may help: the connection failed (refused, reset, timed out, cut
    mid-body), the bytes arrived damaged, a 5xx, or throttling."""
    from botocore import exceptions as errors

    if not isinstance(exc, errors.ClientError):
        return isinstance(
            exc,
            errors.HTTPClientError
            | errors.ConnectionError
            | errors.IncompleteReadError
            | errors.ChecksumError
            | errors.FlexibleChecksumError,
        )
    status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0
    code = exc.response.get("Error", {}).get("Code", "")
    return bool(status >= 500 or status == 429 or code in _TRANSIENT_CODES)


def _describe(exc: Exception) -> str:
    """An S3 error in one line: its code and HTTP status, or the client-side error."""
    from botocore.exceptions import ClientError

    if isinstance(exc, ClientError):
        error, meta = exc.response.get("Error", {}), exc.response.get("ResponseMetadata", {})
        status = meta.get("HTTPStatusCode", "?")
        return f"{error.get('Code', 'error')} (HTTP {status}): {error.get('Message', '')}".strip()
    return f"{type(exc).__name__}: {exc}"


def backoff_ms(base_ms: int, retries: int) -> int:
    """The wait before retry ``retries + 1``: ``s3.retry.backoff.ms`` doubled per retry already
    made, at most 30 times, capped at 24 hours (Confluent's ``ExponentialDelayWithJitter`` bound,
    without its jitter); 0 for a negative base."""
    if base_ms <= 0:
        return 0
    return min((1 << min(retries, _RETRIES_CEILING)) * base_ms, _MAX_BACKOFF_MS)


def _retrying(settings: S3Settings, what: str, call: Callable[[], T]) -> T:
    """Run ``call``, retrying a transient failure ``s3.part.retries`` times, waiting
    ``s3.retry.backoff.ms`` before the first retry and twice as long before each next one
    (Confluent's exponential backoff without its jitter, capped at its 24 hours); each retry
    is logged as a warning. Errors a retry cannot help (4xx but throttling) fail at once."""
    from botocore.exceptions import BotoCoreError, ClientError

    attempt = 0
    while True:
        _calls.operation = None
        try:
            return call()
        except (BotoCoreError, ClientError) as exc:
            operation = getattr(_calls, "operation", None) or "S3 request"
            # s3.part.retries is the SDK's maxAttempts: attempts in all (at least one)
            if attempt + 1 >= max(1, settings.part_retries) or not _transient(exc):
                tries = "1 attempt" if attempt == 0 else f"{attempt + 1} attempts"
                # The endpoint and the bucket (in ``what``), never a secret.
                endpoint = settings.endpoint_url or f"s3.{settings.region}.amazonaws.com"
                raise StorageError(
                    f"{what} failed ({operation} to {endpoint}, {tries}): {_describe(exc)}"
                ) from exc
            delay_ms = backoff_ms(settings.retry_backoff_ms, attempt)
            attempt += 1
            logger.warning(
                "%s failed (%s, attempt %d of %d), retrying in %d ms: %s",
                what, operation, attempt, max(1, settings.part_retries), delay_ms, _describe(exc),
            )  # fmt: skip
            time.sleep(delay_ms / 1000.0)


class _S3Writer(io.RawIOBase):
    """A write-only stream that uploads one part every ``part_size`` bytes."""

    def __init__(self, client: Any, settings: S3Settings, key: str) -> None:
        super().__init__()
        self._client, self._settings, self._key = client, settings, key
        self._buffer = bytearray()
        self._upload_id: str | None = None
        self._parts: list[dict[str, Any]] = []
        self.bytes_written = 0
        # What we write, as its ETag, to recognise our own object after a refused write.
        self._digest = ObjectDigest(settings.part_size) if settings.conditional_writes else None

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        self._buffer += view
        self.bytes_written += len(view)
        while len(self._buffer) >= self._settings.part_size:
            part = bytes(self._buffer[: self._settings.part_size])
            del self._buffer[: self._settings.part_size]
            self._upload_part(part)
        return len(view)

    def _upload_part(self, body: bytes) -> None:
        s, key = self._settings, self._key
        if self._digest is not None:
            self._digest.update(body)
        if self._upload_id is None:
            created = _retrying(
                s,
                f"starting the multipart upload of s3://{s.bucket}/{key}",
                lambda: self._client.create_multipart_upload(
                    Bucket=s.bucket, Key=key, **s.create_args()
                ),
            )
            self._upload_id = created["UploadId"]
        number = len(self._parts) + 1
        try:
            response = _retrying(
                s,
                f"uploading part {number} of s3://{s.bucket}/{key}",
                lambda: self._client.upload_part(
                    Bucket=s.bucket,
                    Key=key,
                    UploadId=self._upload_id,
                    PartNumber=number,
                    Body=body,
                    **s.sse_customer_args(),
                    **s.digest_args(body),
                ),
            )
        except StorageError as exc:  # S3OutputStream.uploadPart's IOException text
            raise StorageError(f"Part upload failed: {exc}") from exc.__cause__
        self._parts.append({"PartNumber": number, "ETag": response["ETag"]})

    def commit(self) -> None:
        """Make the object visible; with conditional writes, only where no object is (an
        object that holds the same bytes counts as committed, see :mod:`.conditional`)."""
        s, key = self._settings, self._key
        body = bytes(self._buffer)
        self._buffer.clear()
        condition = {"IfNoneMatch": "*"} if self._digest is not None else {}
        # Confluent's S3OutputStream always completes a multipart upload (create, the rest as
        # a last part, complete). An object smaller than a part is one PutObject here: the same
        # bytes, tags and atomicity in a third of the requests (bench/s3_objects.py: 2-3x the
        # objects per second); only its ETag differs (an MD5, not "-1").
        if self._upload_id is None:
            if self._digest is not None:
                self._digest.update(body)
            created = self._create(
                f"writing s3://{s.bucket}/{key}",
                lambda: self._client.put_object(
                    Bucket=s.bucket,
                    Key=key,
                    Body=body,
                    **s.create_args(),
                    **s.digest_args(body),
                    **condition,
                ),
            )
        else:
            if body:
                self._upload_part(body)
            created = self._create(
                f"completing the multipart upload of s3://{s.bucket}/{key}",
                lambda: self._client.complete_multipart_upload(
                    Bucket=s.bucket,
                    Key=key,
                    UploadId=self._upload_id,
                    MultipartUpload={"Parts": self._parts},
                    **condition,
                ),
            )
        if not created:
            assert self._digest is not None
            check_existing(
                self._client,
                s.bucket,
                key,
                self._digest,
                sse_args=s.sse_customer_args(),
                retry=self._retry,
            )
            self.abort()

    def _create(self, what: str, call: Callable[[], object]) -> bool:
        """Run the request that creates the object (retried); False when S3 refused it for
        ``If-None-Match: *`` (the key holds an object), which is not retried."""
        from botocore.exceptions import ClientError

        def attempt() -> bool:
            try:
                call()
            except ClientError as exc:
                if self._digest is not None and is_precondition_failed(exc):
                    return False
                raise
            return True

        return _retrying(self._settings, what, attempt)

    def _retry(self, what: str, call: Callable[[], T]) -> T:
        return _retrying(self._settings, what, call)

    def abort(self) -> None:
        """Drop every uploaded part; the object never appears."""
        self._buffer.clear()
        if self._upload_id is not None:
            # Best effort: the error that led here matters more than a failed abort.
            s, key, upload_id = self._settings, self._key, self._upload_id
            with contextlib.suppress(Exception):
                _retrying(
                    s,
                    f"aborting the multipart upload of s3://{s.bucket}/{key}",
                    lambda: self._client.abort_multipart_upload(
                        Bucket=s.bucket, Key=key, UploadId=upload_id
                    ),
                )


class S3Storage:
    """Amazon S3 or any S3-compatible endpoint (``store.url``), through boto3."""

    def __init__(self, settings: S3Settings) -> None:
        from botocore.config import Config

        self.settings = settings
        self._client = _session(settings).client(
            "s3",
            region_name=settings.region,
            endpoint_url=settings.endpoint_url,
            config=Config(
                # S3Storage: forcePathStyle(s3.path.style.access.enabled); false is
                # virtual-hosted, also on a store.url (an IP endpoint stays path-style)
                s3={"addressing_style": "path" if settings.path_style else "virtual"},
                # One attempt per call: _retrying alone applies s3.part.retries.
                retries={"total_max_attempts": 1, "mode": "standard"},
                **(settings.proxy.botocore_options() if settings.proxy else {}),
            ),
        )
        self._client.meta.events.register("before-call.s3", _note_operation)

    @property
    def client(self) -> Any:
        """The boto3 S3 client."""
        return self._client

    def check_bucket(self) -> None:
        """S3SinkTask.start's check: ``HeadBucket`` (retried when transient); a 404 fails with
        Confluent's "Non-existent S3 bucket", a 301 or 403 counts as there (S3FileUtils), and
        so does any other 4xx: a HEAD answer has no body to say more (e.g. a region the server
        refuses to sign for, which botocore redirects on the writes), so the writes will tell.

        Raises:
            StorageError: the bucket does not exist, or S3 cannot be reached.
        """
        from botocore.exceptions import ClientError

        s = self.settings
        if not s.bucket.strip():  # S3FileUtils.bucketExists: a blank name is no bucket
            raise StorageError(f"Non-existent S3 bucket: {s.bucket}")

        def head() -> bool:
            try:
                self._client.head_bucket(Bucket=s.bucket)
            except ClientError as exc:
                status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
                if status == 404:
                    return False
                if isinstance(status, int) and 300 <= status < 500:
                    return True
                raise
            return True

        if not _retrying(s, f"checking the bucket s3://{s.bucket}/", head):
            endpoint = s.endpoint_url or f"s3.{s.region}.amazonaws.com"
            raise StorageError(
                f"Non-existent S3 bucket: {s.bucket} (HeadBucket to {endpoint} answered HTTP "
                f"404 for s3://{s.bucket}/): create it, or fix s3.bucket.name / store.url"
            )

    @contextmanager
    def open_write(self, key: str, tags: Mapping[str, str] | None = None) -> Iterator[BinaryIO]:
        writer = _S3Writer(self._client, self.settings, key)
        try:
            yield writer  # type: ignore[misc]
        except BaseException:
            writer.abort()
            raise
        try:
            writer.commit()
        except BaseException:
            writer.abort()
            raise
        if tags and self.settings.object_tagging:
            self._tag(key, tags)

    def exists(self, key: str) -> bool:
        """``S3Storage.exists``: whether ``key`` holds an object (``HeadObject``, retried); a
        blank key is none, and so is S3's 404 (``S3FileUtils.fileExists``); other errors raise.

        Raises:
            StorageError: S3 answered anything else than the object or 404.
        """
        if not key.strip():
            return False
        s = self.settings
        head = head_object(self._client, s.bucket, key, s.sse_customer_args(), self._retry)
        return head is not None

    def _retry(self, what: str, call: Callable[[], T]) -> T:
        return _retrying(self.settings, what, call)

    def _tag(self, key: str, tags: Mapping[str, str]) -> None:
        """``TopicPartitionWriter.tagFile``: ``PutObjectTagging`` on the committed object."""
        s = self.settings
        tag_set = [{"Key": k, "Value": v} for k, v in (*tags.items(), *s.extra_tags)]
        try:
            _retrying(
                s,
                f"tagging s3://{s.bucket}/{key}",
                lambda: self._client.put_object_tagging(
                    Bucket=s.bucket, Key=key, Tagging={"TagSet": tag_set}
                ),
            )
        except Exception as exc:  # tagFile catches any exception (SdkClientException or not)
            if s.fail_on_tagging_error:
                raise StorageError(f"Unable to tag S3 object {key}: {exc}") from exc
            logger.warning("Unable to tag S3 object %s. Ignoring. (%s)", key, exc)

    def read(self, key: str) -> bytes:
        s = self.settings
        # The body is read inside the retried call: a connection lost mid-body is retried too.
        return _retrying(
            s,
            f"reading s3://{s.bucket}/{key}",
            lambda: bytes(
                self._client.get_object(Bucket=s.bucket, Key=key, **s.sse_customer_args())[
                    "Body"
                ].read()
            ),
        )

    def list_keys(self, prefix: str = "") -> Iterator[str]:
        s = self.settings
        args: dict[str, str] = {"Bucket": s.bucket, "Prefix": prefix}
        while True:  # ListObjectsV2 page by page, each page retried
            page = _retrying(
                s,
                f"listing s3://{s.bucket}/{prefix}",
                lambda: self._client.list_objects_v2(**args),
            )
            for item in page.get("Contents", []):
                yield item["Key"]
            token = page.get("NextContinuationToken")
            if not page.get("IsTruncated") or not token:
                return
            args["ContinuationToken"] = token

    def describe(self) -> str:
        endpoint = f" at {self.settings.endpoint_url}" if self.settings.endpoint_url else ""
        proxy = f" via {self.settings.proxy.describe()}" if self.settings.proxy else ""
        return f"s3://{self.settings.bucket}{endpoint}{proxy}"


def _java_env_keys() -> tuple[str, str] | None:
    """The keys the Java SDK's ``EnvironmentVariableCredentialsProvider`` reads and boto3 does
    not: ``AWS_ACCESS_KEY`` beside ``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_KEY`` beside
    ``AWS_SECRET_ACCESS_KEY`` (each first name first); None where boto3's own names hold both."""
    env = os.environ
    if env.get("AWS_ACCESS_KEY_ID") and env.get("AWS_SECRET_ACCESS_KEY"):
        return None
    access = env.get("AWS_ACCESS_KEY_ID") or env.get("AWS_ACCESS_KEY")
    secret = env.get("AWS_SECRET_KEY") or env.get("AWS_SECRET_ACCESS_KEY")
    return (access, secret) if access and secret else None


def _session(settings: S3Settings) -> Any:
    """The boto3 session of ``settings``' credentials (as ``getCredentialsProvider``).

    Static keys when both are set, else boto3's default chain; with an assume-role provider,
    those credentials call STS ``AssumeRole`` and the S3 client gets the role's session,
    refreshed by botocore before it expires.
    """
    import boto3

    static = bool(settings.access_key_id and settings.secret_access_key)
    keys = (settings.access_key_id, settings.secret_access_key) if static else _java_env_keys()
    source = boto3.Session(
        aws_access_key_id=keys[0] if keys else None,
        aws_secret_access_key=keys[1] if keys else None,
        aws_session_token=os.environ.get("AWS_SESSION_TOKEN") if keys and not static else None,
        region_name=settings.region,
    )
    role = settings.assume_role
    if role is None:
        return source
    import botocore.session
    from botocore.credentials import (
        AssumeRoleCredentialFetcher,
        CredentialProvider,
        CredentialResolver,
        DeferredRefreshableCredentials,
    )

    source_credentials = source.get_credentials()
    if source_credentials is None:
        raise StorageError(
            f"assuming role {role.role_arn} needs AWS credentials: set aws.access.key.id and "
            "aws.secret.access.key, or provide them to boto3's default chain"
        )
    sts_region = role.region or settings.region

    def sts_client(
        service: str,
        aws_access_key_id: str | None = None,
        aws_secret_access_key: str | None = None,
        aws_session_token: str | None = None,
    ) -> Any:
        assert service == "sts"
        return source.client(
            "sts",
            region_name=sts_region,
            endpoint_url=role.endpoint_url,
            aws_access_key_id=aws_access_key_id,
            aws_secret_access_key=aws_secret_access_key,
            aws_session_token=aws_session_token,
        )

    extra: dict[str, Any] = {"RoleSessionName": role.session_name}
    if role.external_id:
        extra["ExternalId"] = role.external_id
    fetcher = AssumeRoleCredentialFetcher(
        client_creator=sts_client,
        source_credentials=source_credentials,
        role_arn=role.role_arn,
        extra_args=extra,
    )
    credentials = DeferredRefreshableCredentials(
        refresh_using=fetcher.fetch_credentials, method="assume-role"
    )

    class _AssumedRole(CredentialProvider):
        METHOD = "assume-role"

        def load(self) -> Any:
            return credentials

    core = botocore.session.get_session()
    core.register_component("credential_provider", CredentialResolver([_AssumedRole()]))
    return boto3.Session(botocore_session=core, region_name=settings.region)
