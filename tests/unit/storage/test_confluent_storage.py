"""Ports of Confluent's S3 storage tests that need no S3 server (kafka-connect-storage-cloud
87eb7d39, 2026-07-28): ``S3StorageTest``, ``S3FileUtilsTest.testBucketExistsWithBlankBucketName``
and ``UtilsTest``, one test per Java test method.

``new S3Storage(connectorConfig, url)`` is our ``build_storage(SinkConfig)`` on
``S3SinkConnectorTestBase.createProps`` (``tests/unit/config/test_confluent_config.py``'s
``PROPS``); its ``newCredentialsProvider`` is the boto3 session's credentials, its S3 client our
``S3Storage.client``. The tests with a server in the loop (``S3OutputStreamTest``,
``S3OutputStreamDigestTest``, the rest of ``S3FileUtilsTest``, ``S3SinkConnectorFaultyS3Test``)
are in ``tests/integration/storage/test_confluent_storage.py``. ``ElasticByteBufferTest`` has no
counterpart (our writer buffers a part in a ``bytearray``), nor ``FileRotationTrackerTest`` (no
rotation-count log).
"""

from __future__ import annotations

import pytest

from s3connect.errors import StorageError
from s3connect.formats.factory import make_format
from s3connect.formats.views import ViewFormat
from s3connect.sink.context import build_storage
from s3connect.storage.s3 import S3Settings, S3Storage, _session, backoff_ms
from tests.unit.config.test_confluent_config import DUMMY, PREFIX, config, refused

# ------------------------------------------------------------------------------ S3StorageTest

MAX_RETRIES = 30
S3_RETRY_MAX_BACKOFF_TIME_MS = 24 * 3600 * 1000


def _storage(extra: dict[str, str]) -> S3Storage:
    storage = build_storage(config(extra))
    assert isinstance(storage, S3Storage)
    return storage


def _calculate_exponential_delay(retries_attempted: int, base_delay: int) -> int:
    retries = min(retries_attempted, MAX_RETRIES)
    return min((1 << retries) * base_delay, S3_RETRY_MAX_BACKOFF_TIME_MS)


def _assert_compute_retry_in_range(retry_attempts: int, retry_backoff_ms: int) -> None:
    base = config({"s3.retry.backoff.ms": str(retry_backoff_ms)}).s3.retry_backoff_ms
    assert base == retry_backoff_ms
    for retries in range(retry_attempts + 1):
        max_result = _calculate_exponential_delay(retries, retry_backoff_ms)
        result = backoff_ms(base, retries)
        # Confluent's full jitter waits anywhere in [0, max_result]; ours (no jitter, README
        # "Faults") waits max_result itself.
        assert 0 <= result <= max_result
        assert result == max_result


def test_retry_policy_delay_ranges() -> None:
    _assert_compute_retry_in_range(10, 10)
    _assert_compute_retry_in_range(10, 100)
    _assert_compute_retry_in_range(10, 1000)
    _assert_compute_retry_in_range(MAX_RETRIES + 1, 1000)
    _assert_compute_retry_in_range(100, S3_RETRY_MAX_BACKOFF_TIME_MS + 1)
    _assert_compute_retry_in_range(MAX_RETRIES + 1, S3_RETRY_MAX_BACKOFF_TIME_MS + 1)


@pytest.fixture
def chain_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys for the default chain's environment provider, and no shared files."""
    for name in ("AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_ACCESS_KEY", "AWS_SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "env-id")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "env-secret")


@pytest.mark.usefixtures("chain_env")
def test_default_credentials_provider() -> None:
    # DefaultAWSCredentialsProviderChain: boto3's chain (here its environment provider)
    for extra in ({}, {"aws.access.key.id": "", "aws.secret.access.key": ""}):
        storage = _storage(extra)
        assert storage.settings.access_key_id is None
        credentials = _session(storage.settings).get_credentials()
        assert credentials.method == "env"
        assert (credentials.access_key, credentials.secret_key) == ("env-id", "env-secret")


def test_user_defined_credentials_provider() -> None:
    # Documented difference (README "Configuration"): a Java provider class cannot be loaded;
    # providers other than the default chain and AwsAssumeRoleCredentialsProvider are refused.
    msg = refused(
        {
            PREFIX + "access_key": "foo_key",
            PREFIX + "secret_key": "bar_secret",
            PREFIX + "configs_num": "5",
            "s3.credentials.provider.class": DUMMY,
        }
    )
    assert f"s3.credentials.provider.class={DUMMY} is not supported yet" in msg


@pytest.mark.usefixtures("chain_env")
def test_user_supplied_credentials() -> None:
    storage = _storage({"aws.access.key.id": "foo_key", "aws.secret.access.key": "bar_secret"})
    credentials = _session(storage.settings).get_credentials()
    assert credentials.method == "explicit"  # StaticCredentialsProvider
    assert (credentials.access_key, credentials.secret_key) == ("foo_key", "bar_secret")


def _validate_s3_scheme(url: str) -> S3Storage:
    storage = _storage({"s3.region": "us-east-1", "store.url": url})
    assert storage.client is not None
    assert storage.client.meta.region_name == "us-east-1"
    return storage


def test_s3_client_without_uri_scheme() -> None:
    storage = _validate_s3_scheme("s3.amazonaws.com")
    assert storage.client.meta.endpoint_url == "https://s3.amazonaws.com"  # DEFAULT_URL_SCHEME


def test_s3_client_with_https_uri_scheme() -> None:
    storage = _validate_s3_scheme("https://s3.amazonaws.com")
    assert storage.client.meta.endpoint_url == "https://s3.amazonaws.com"


def test_s3_client_with_http_uri_scheme() -> None:
    storage = _validate_s3_scheme("http://localhost:9000")
    assert storage.client.meta.endpoint_url == "http://localhost:9000"


def test_s3_client_with_s3_uri_scheme() -> None:
    # Documented difference (README "Values are read as Confluent's validators read them"):
    # Confluent builds a client on s3://s3bucket/object that fails on its first request; the
    # config refuses it here.
    msg = refused({"s3.region": "us-east-1", "store.url": "s3://s3bucket/object"})
    assert (
        "store.url=s3://s3bucket/object is invalid: must be an http://, https:// or file:// URL"
    ) in msg


# ---------------------------------------------------------------------------- S3FileUtilsTest


@pytest.mark.parametrize("bucket", ["", "   "])
def test_bucket_exists_with_blank_bucket_name(bucket: str) -> None:
    # bucketExists is false before any request: S3SinkTask.start's "Non-existent S3 bucket"
    # (the endpoint is a closed port: a request would fail otherwise)
    storage = S3Storage(
        S3Settings(bucket=bucket, endpoint_url="http://127.0.0.1:9", part_retries=1)
    )
    with pytest.raises(StorageError) as failed:
        storage.check_bucket()
    assert str(failed.value) == f"Non-existent S3 bucket: {bucket}"


# ---------------------------------------------------------------------------------- UtilsTest
# getAdjustedFilename(view, filename, extension): our object names are built, not adjusted; the
# view's extension (ViewFormat.extension) follows the name the value file would have without
# its extension, as Confluent inserts the view's before the format's.

GIVEN_FILENAMES = [
    "x.avro",
    "asdf.avro",
    "keys.avro",
    "key.avro",
    "headers.avro",
    "header.avro",
    "sample-filename.avro",
    "sample.filename.avro",
    "sample.file.name.avro",
    "sample.file.avro.RawEvent.avro",
    "x",
    "avro",
    ".avro",
    "fooavrobar.txt",
]


def _adjusted(extension: str, filename: str, initial_extension: str) -> str:
    """The file name with the format's ``initial_extension`` replaced by ``extension``."""
    stem = filename.removesuffix(initial_extension)
    return stem + extension


def test_get_adjusted_filename_for_values() -> None:
    expected = [
        "x.avro", "asdf.avro", "keys.avro", "key.avro", "headers.avro", "header.avro",
        "sample-filename.avro", "sample.filename.avro", "sample.file.name.avro",
        "sample.file.avro.RawEvent.avro", "x.avro", "avro.avro", ".avro", "fooavrobar.txt.avro",
    ]  # fmt: skip
    extension = make_format("avro").extension
    assert [_adjusted(extension, f, ".avro") for f in GIVEN_FILENAMES] == expected


def test_get_adjusted_filename_for_keys() -> None:
    expected = [
        "x.keys.avro", "asdf.keys.avro", "keys.keys.avro", "key.keys.avro", "headers.keys.avro",
        "header.keys.avro", "sample-filename.keys.avro", "sample.filename.keys.avro",
        "sample.file.name.keys.avro", "sample.file.avro.RawEvent.keys.avro", "x.keys.avro",
        "avro.keys.avro", ".keys.avro", "fooavrobar.txt.keys.avro",
    ]  # fmt: skip
    extension = ViewFormat(make_format("avro"), "keys", "avro").extension
    assert [_adjusted(extension, f, ".avro") for f in GIVEN_FILENAMES] == expected


def test_get_adjusted_filename_for_headers() -> None:
    expected = [
        "x.headers.avro", "asdf.headers.avro", "keys.headers.avro", "key.headers.avro",
        "headers.headers.avro", "header.headers.avro", "sample-filename.headers.avro",
        "sample.filename.headers.avro", "sample.file.name.headers.avro",
        "sample.file.avro.RawEvent.headers.avro", "x.headers.avro", "avro.headers.avro",
        ".headers.avro", "fooavrobar.txt.headers.avro",
    ]  # fmt: skip
    extension = ViewFormat(make_format("avro"), "headers", "avro").extension
    assert [_adjusted(extension, f, ".avro") for f in GIVEN_FILENAMES] == expected


def test_parquet_encoding_extensions() -> None:
    given = [
        "x.snappy.parquet",
        "sample-filename.snappy.parquet",
        "sample.filename.snappy.parquet",
        "sample.file.name.snappy.parquet",
    ]
    expected = [
        "x.headers.snappy.parquet",
        "sample-filename.headers.snappy.parquet",
        "sample.filename.headers.snappy.parquet",
        "sample.file.name.headers.snappy.parquet",
    ]
    parquet = make_format("parquet", codec="snappy")
    assert parquet.extension == ".snappy.parquet"
    extension = ViewFormat(parquet, "headers", "parquet").extension
    assert [_adjusted(extension, f, ".snappy.parquet") for f in given] == expected
