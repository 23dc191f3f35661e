"""The console script without Spark: ``validate``, the exit codes and the failure message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from s3connect.app.cli import main
from s3connect.app.failures import ExitCode, describe_failure
from s3connect.errors import (
    ConfigError,
    DestinationError,
    QueryFailedError,
    RecordError,
    StorageError,
)

SINK = {
    "topics": "orders",
    "kafka.bootstrap.servers": "broker:9092",
    "checkpoint.location": "/tmp/ck",
    "s3.bucket.name": "bucket",
    "format.class": "io.confluent.connect.s3.format.json.JsonFormat",
    "flush.size": "3",
    "aws.secret.access.key": "SENTINEL-secret",
}


def _write(tmp_path: Path, config: dict[str, str]) -> str:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(config))
    return str(path)


def test_validate_prints_the_masked_effective_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", "--config", _write(tmp_path, {**SINK, "tasks.max": "2"})]) == 0
    out = capsys.readouterr().out
    assert "sink config" in out and "valid" in out
    assert "  flush.size = 3" in out and "  aws.secret.access.key = [hidden]" in out
    assert "keys without effect here: tasks.max" in out
    assert "SENTINEL" not in out


def test_validate_lists_every_problem_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {**SINK, "flush.size": "ten", "s3.region": "Mars!", "nope.key": "1"}
    assert main(["validate", "--config", _write(tmp_path, bad)]) == ExitCode.CONFIG == 2
    err = capsys.readouterr().err
    assert "3 problems" in err
    assert "flush.size=ten is invalid" in err and "s3.region=Mars! is invalid" in err
    assert "unknown keys" in err and "nope.key" in err


def test_validate_detects_a_source_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = {k: v for k, v in SINK.items() if k not in ("topics", "flush.size")}
    source["connector.class"] = "io.confluent.connect.s3.source.S3SourceConnector"
    assert main(["validate", "--config", _write(tmp_path, source)]) == 0
    assert "source config" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("error", "code", "headline"),
    [
        (ConfigError("flush.size=0 is invalid"), ExitCode.CONFIG, "invalid config"),
        (
            RecordError("bad", topic="t", partition=0, offset=4),
            ExitCode.RECORD,
            "a record could not be handled",
        ),
        (StorageError("no such bucket: b"), ExitCode.STORAGE, "S3 could not be used"),
        (DestinationError("topic x missing"), ExitCode.KAFKA, "destination topic"),
        (
            QueryFailedError(
                "sink",
                "value could not be converted (topic='t', partition=0, offset=1)",
                error_class="s3connect.errors.ConversionError",
            ),
            ExitCode.RECORD,
            "a record could not be handled (s3connect.errors.ConversionError)",
        ),
        (
            QueryFailedError(
                "sink",
                "Timeout of 60000ms expired before the position could be determined",
                error_class="org.apache.kafka.common.errors.TimeoutException",
            ),
            ExitCode.KAFKA,
            "Kafka (org.apache.kafka.common.errors.TimeoutException)",
        ),
        (KeyError("x"), ExitCode.INTERNAL, "internal error"),
    ],
)
def test_each_failure_kind_has_its_exit_code_and_headline(
    error: Exception, code: ExitCode, headline: str
) -> None:
    failure = describe_failure(error)
    assert failure.code == code
    assert headline in failure.what
    text = failure.message("sink", Path("/tmp/s3connect/sink.log"))
    assert text.splitlines()[0] == f"s3connect sink failed: {failure.what}"
    assert "what to do: " in text and "full trace: /tmp/s3connect/sink.log" in text
