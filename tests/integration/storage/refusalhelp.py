"""Helpers of the tests where the stack's S3 refuses a request for good (wrong credentials, a
missing bucket, a bucket the key may not write): the storage with retries that would show, its
three uses, and one CLI run timed with its console output."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from s3connect.app.cli import main as cli_main
from s3connect.storage.s3 import S3Settings, S3Storage
from tests.conftest import S3_ENDPOINT

__all__ = ["USES", "logs_text", "run_cli", "s3_storage", "source_keys_of", "write_one"]

# A refusal must not be retried: with these settings retries would take 1 + 2 + 4 s.
_RETRIES = {"part_retries": 3, "retry_backoff_ms": 1000}


def s3_storage(bucket: str, access_key_id: str, secret: str) -> S3Storage:
    """The stack's S3 as ``access_key_id`` / ``secret``, retrying transient failures 3 times."""
    return S3Storage(
        S3Settings(
            bucket=bucket,
            region="us-east-1",
            endpoint_url=S3_ENDPOINT,
            access_key_id=access_key_id,
            secret_access_key=secret,
            **_RETRIES,
        )
    )


def write_one(storage: S3Storage) -> None:
    """Write one small sink object (one ``PutObject``)."""
    with storage.open_write("topics/t/partition=0/t+0+0000000000.json") as out:
        out.write(b'{"i":0}\n')


# The storage's three uses, as pytest parameters (``ids=list(USES)``).
USES: dict[str, Callable[[S3Storage], object]] = {
    "write": write_one,
    "read": lambda storage: storage.read("k"),
    "list": lambda storage: list(storage.list_keys("topics/")),
}


def source_keys_of(keys: dict[str, str]) -> dict[str, str]:
    """A sink config of ``sinkhelp.sink_keys`` as a source's (as ``test_source.py`` does)."""
    source = dict(keys)
    del source["topics"], source["flush.size"]
    return source


def run_cli(
    command: str, keys: dict[str, str], tmp: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, float]:
    """``s3connect <command> --config <keys as JSON> --once``: its exit code, what it printed
    (stdout and stderr) and how long it took, in seconds."""
    config = tmp / f"{command}.json"
    config.write_text(json.dumps(keys))
    started = time.monotonic()
    code = cli_main([command, "--config", str(config), "--once"])
    elapsed = time.monotonic() - started
    captured = capsys.readouterr()
    return code, captured.out + captured.err, elapsed


def logs_text(folder: Path) -> dict[Path, str]:
    """Every run log under ``folder`` (``$S3CONNECT_LOG_DIR``), by path."""
    return {log: log.read_text(errors="replace") for log in sorted(folder.glob("*"))}
