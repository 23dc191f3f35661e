"""Config providers end to end: a sink and a source config whose values are ``${env:...}``,
``${file:...}``, ``${directory:...}`` and ``${secrets:...}`` references, run through the CLI on
the real stack. The secret's text appears in no output and no checkpoint file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer

from tests.conftest import KAFKA, S3_CREDENTIALS, S3_ENDPOINT
from tests.integration.sinkhelp import objects, produce

pytestmark = pytest.mark.integration

# The stack's S3 server checks the secret, so the secret is the stack's own (long enough to be
# told from other text if it leaks).
SECRET = S3_CREDENTIALS["aws_secret_access_key"]
assert len(SECRET) >= 12, "set a longer S3_SECRET_ACCESS_KEY: a short one cannot be searched for"


def _files(tmp: Path, topic: str) -> Path:
    """The provider inputs: a properties file, a directory of files, and the config itself."""
    (tmp / "kafka.properties").write_text(f"bootstrap.servers={KAFKA}\n")
    (tmp / "aws").mkdir()
    (tmp / "aws" / "access-key-id").write_text(S3_CREDENTIALS["aws_access_key_id"])
    config = tmp / "sink.properties"
    config.write_text(
        "\n".join(
            [
                f"topics={topic}",
                f"kafka.bootstrap.servers=${{file:{tmp}/kafka.properties:bootstrap.servers}}",
                "s3.bucket.name=${env:PROVIDER_TEST_BUCKET}",
                "s3.region=us-east-1",
                f"store.url={S3_ENDPOINT}",
                f"aws.access.key.id=${{directory:{tmp}/aws:access-key-id}}",
                "aws.secret.access.key=${secrets:aws/secret-key}",
                "format.class=io.confluent.connect.s3.format.json.JsonFormat",
                "value.converter=org.apache.kafka.connect.json.JsonConverter",
                "value.converter.schemas.enable=false",
                "flush.size=2",
            ]
        )
        + "\n"
    )
    return config


def _cli(*args: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "s3connect.app.cli", *args],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    return output


def _leaks(root: Path) -> list[str]:
    """Files under ``root`` holding the secret's text."""
    return [str(p) for p in root.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]


def test_sink_and_source_resolve_provider_references_and_never_show_the_secret(
    s3: Any, bucket: str, make_topic: Callable[..., str], producer: Producer,
    consume: Callable[..., list[Any]], tmp_path: Path,
) -> None:  # fmt: skip
    topic = make_topic("providers")
    produce(producer, topic, [json.dumps({"i": i}).encode() for i in range(5)])
    config = _files(tmp_path, topic)
    env = {
        **os.environ,
        "S3CONNECT_SPARK_MASTER": "local[2]",
        "PROVIDER_TEST_BUCKET": bucket,
        "S3CONNECT_SECRET_AWS_SECRET_KEY": SECRET,
        "S3CONNECT_LOG_DIR": str(tmp_path / "logs"),
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("AWS_SECRET_ACCESS_KEY", None)

    checked = _cli("validate", "--config", str(config), "--set", "checkpoint.location=/ck", env=env)
    assert f"s3.bucket.name = {bucket}" in checked  # resolved, and shown: not a secret
    assert "aws.secret.access.key = [hidden]" in checked
    sink_out = _cli("sink", "--config", str(config), "--once", "--set",
                    f"checkpoint.location={tmp_path / 'sink-ck'}", env=env)  # fmt: skip
    assert {k: v.decode().splitlines() for k, v in objects(s3, bucket).items()} == {
        f"topics/{topic}/partition=0/{topic}+0+0000000000.json": ['{"i":0}', '{"i":1}'],
        f"topics/{topic}/partition=0/{topic}+0+0000000002.json": ['{"i":2}', '{"i":3}'],
    }

    source_out = _cli("source", "--config", str(config), "--once", "--set",
                      f"checkpoint.location={tmp_path / 'source-ck'}", env=env)  # fmt: skip
    copied = consume(f"copy_of_{topic}", 4)
    assert [m.value() for m in copied] == [b'{"i":0}', b'{"i":1}', b'{"i":2}', b'{"i":3}']

    assert SECRET not in checked and SECRET not in sink_out and SECRET not in source_out
    assert _leaks(tmp_path / "sink-ck") == [] and _leaks(tmp_path / "source-ck") == []
    logs = sorted((tmp_path / "logs").glob("*.log"))
    assert [p.name.split("-")[0] for p in logs] == ["sink", "source"]
    assert "aws.secret.access.key = [hidden]" in logs[0].read_text()  # the effective config
    assert _leaks(tmp_path / "logs") == []
