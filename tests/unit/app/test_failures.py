"""What a failed run prints and exits with (app/failures.py): each kind of error, errors that
reach the driver as a Spark query's text, and local writes (the checkpoint) that failed."""

from __future__ import annotations

from pathlib import Path

import pytest

from s3connect.app.failures import ExitCode, describe_failure
from s3connect.errors import (
    ConfigError,
    ConversionError,
    DestinationError,
    QueryFailedError,
    SchemaRegistryError,
    SourceObjectError,
    StorageError,
)


@pytest.mark.parametrize(
    ("exc", "code", "what"),
    [
        (ConfigError("flush.size=x is invalid: a positive integer"), ExitCode.CONFIG,
         "invalid config"),
        (ConversionError("bad JSON", topic="t", partition=1, offset=7), ExitCode.RECORD,
         "a record could not be handled"),
        (StorageError("writing s3://b/k failed"), ExitCode.STORAGE, "S3 could not be used"),
        (SourceObjectError("not JSON", key="k"), ExitCode.STORAGE,
         "an S3 object could not be read"),
        (DestinationError("topic x missing"), ExitCode.KAFKA,
         "a destination topic could not be used"),
        (SchemaRegistryError("503", url="http://sr:8081"), ExitCode.KAFKA,
         "the Schema Registry could not be used"),
        (KeyError("boom"), ExitCode.INTERNAL, "internal error"),
    ],
)  # fmt: skip
def test_each_kind_of_error_has_its_exit_code(exc: Exception, code: ExitCode, what: str) -> None:
    failure = describe_failure(exc)
    assert (failure.code, failure.what) == (code, what)


def test_the_message_has_what_cause_hint_and_log_file() -> None:
    failure = describe_failure(StorageError("writing s3://b/k failed\nsecond line"))
    lines = failure.message("sink", Path("/tmp/logs/sink-1.log")).splitlines()
    assert lines == [
        "s3connect sink failed: S3 could not be used",
        "  writing s3://b/k failed",
        "  what to do: check s3.bucket.name, store.url, s3.region and the credentials "
        "(aws.access.key.id / the default chain / s3.credentials.provider.class)",
        "  full trace: /tmp/logs/sink-1.log (or run with --verbose)",
    ]


def test_a_long_cause_is_cut_to_one_line_of_600_characters() -> None:
    failure = describe_failure(StorageError("x" * 1000))
    assert len(failure.cause) == 600 and failure.cause.endswith("…")


@pytest.mark.parametrize(
    ("error_class", "code", "what"),
    [
        ("s3connect.errors.ConversionError", ExitCode.RECORD,
         "a record could not be handled (s3connect.errors.ConversionError)"),
        ("s3connect.errors.StorageError", ExitCode.STORAGE,
         "S3 could not be used (s3connect.errors.StorageError)"),
        ("org.apache.kafka.common.errors.TimeoutException", ExitCode.KAFKA,
         "Kafka (org.apache.kafka.common.errors.TimeoutException)"),
        ("software.amazon.awssdk.services.s3.model.S3Exception", ExitCode.STORAGE,
         "S3 (software.amazon.awssdk.services.s3.model.S3Exception)"),
        ("java.lang.IllegalStateException", ExitCode.INTERNAL, "the sink query failed"),
    ],
)  # fmt: skip
def test_a_query_failure_is_told_by_the_error_class_in_its_text(
    error_class: str, code: ExitCode, what: str
) -> None:
    exc = QueryFailedError("sink", "it broke\nat line 2", error_class=error_class)
    failure = describe_failure(exc)
    assert (failure.code, failure.what) == (code, what)
    if code != ExitCode.INTERNAL:
        assert failure.cause == "it broke"


@pytest.mark.parametrize(
    ("text", "what", "cause"),
    [
        # the JVM's "<path> (<reason>)"
        ("java.io.FileNotFoundException: /cp/offsets/.1.tmp (Read-only file system)",
         "the checkpoint could not be written (Read-only file system)",
         "/cp/offsets/.1.tmp: Read-only file system"),
        # Python's "[Errno n] <reason>: '<path>'"
        ("OSError: [Errno 28] No space left on device: '/cp/s3connect/state/t-0.tmp'",
         "the checkpoint could not be written (No space left on device)",
         "/cp/s3connect/state/t-0.tmp: No space left on device"),
        # outside the checkpoint
        ("OSError: [Errno 13] Permission denied: '/elsewhere/x'",
         "a local file could not be written (Permission denied)",
         "/elsewhere/x: Permission denied"),
        # Hadoop's message names no path
        ("java.io.IOException: No space left on device",
         "a local file could not be written (No space left on device)",
         "java.io.IOException: No space left on device"),
    ],
)  # fmt: skip
def test_a_local_write_that_failed_is_a_config_failure_naming_the_checkpoint(
    text: str, what: str, cause: str
) -> None:
    exc = QueryFailedError("sink", "write failed", error_class="java.io.IOException", details=text)
    failure = describe_failure(exc, checkpoint="file:///cp")
    assert (failure.code, failure.what, failure.cause) == (ExitCode.CONFIG, what, cause)
    assert failure.hint is not None
    assert failure.hint.startswith("give checkpoint.location file:///cp (or the path named above)")


def test_an_internal_error_without_a_file_system_reason_stays_internal() -> None:
    exc = QueryFailedError("source", "NullPointerException", error_class="java.lang.NPE")
    assert describe_failure(exc, checkpoint="/cp").code == ExitCode.INTERNAL
