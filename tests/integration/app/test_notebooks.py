"""The notebooks end to end, run as their jobs run them, against the real local stack.

Each notebook runs as ``python notebooks/<name>.py name=value ...`` in a subprocess with the
``base_parameters`` of its job in the bundle, resolved for the dev target with the local stack's
values given as bundle variables (``--var`` style): Kafka on 127.0.0.1, the S3 server as
``s3_endpoint_url``, a temporary checkpoint root and commit-log path. Nothing else is changed.
S3 credentials come from the environment through boto3's chain, as the job clusters get them
from the secret scope.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient

from tests.bundle.bundlehelp import ROOT, load_bundle, resolve
from tests.conftest import KAFKA, S3_CREDENTIALS, S3_ENDPOINT
from tests.integration.sinkhelp import end_offsets, envelope, objects, produce, user

pytestmark = pytest.mark.integration

RECORDS = 2_100  # the sink job's flush.size is 1000: objects at offsets 0 and 1000, 100 open
ENV = {
    **os.environ,
    "S3CONNECT_SPARK_MASTER": "local[2]",
    "AWS_ACCESS_KEY_ID": S3_CREDENTIALS["aws_access_key_id"],
    "AWS_SECRET_ACCESS_KEY": S3_CREDENTIALS["aws_secret_access_key"],
    "AWS_DEFAULT_REGION": "us-east-1",
    "PYTHONUNBUFFERED": "1",
}


def job_parameters(job: str, variables: Mapping[str, Any]) -> dict[str, str]:
    """The job's notebook base_parameters in the dev target with these variable values."""
    bundle = load_bundle()
    spec = resolve(bundle, "dev", variables)["resources"]["jobs"][job]
    [task] = spec["tasks"]
    params = task["notebook_task"]["base_parameters"]
    assert all(isinstance(v, str) for v in params.values())
    return dict(params)


def notebook_command(notebook: str, params: Mapping[str, str]) -> list[str]:
    args = [f"{name}={value}" for name, value in params.items()]
    return [sys.executable, str(ROOT / "notebooks" / notebook), *args]


def local_variables(topic: str, bucket: str, tmp: Path, **more: str) -> dict[str, str]:
    return {
        "kafka_bootstrap_servers": KAFKA,
        "topics": topic,
        "s3_bucket": bucket,
        "s3_endpoint_url": S3_ENDPOINT,
        "checkpoint_root": str(tmp / "checkpoints"),
        "commit_log_table": str(tmp / "commit_log"),
        **more,
    }


def expected_objects(topic: str) -> dict[str, list[dict[str, Any]]]:
    """What the sink job writes for RECORDS user envelopes: JSON lines of the payloads."""
    return {
        f"topics/{topic}/partition=0/{topic}+0+{start:010d}.json": [
            user(i) for i in range(start, start + 1000)
        ]
        for start in (0, 1000)
    }


def decoded(got: Mapping[str, bytes]) -> dict[str, list[dict[str, Any]]]:
    return {key: [json.loads(line) for line in body.splitlines()] for key, body in got.items()}


def run_notebook(command: list[str], log: Path, timeout: float = 600) -> str:
    with log.open("wb") as out:
        done = subprocess.run(
            command, stdout=out, stderr=subprocess.STDOUT, env=ENV, cwd=ROOT, timeout=timeout
        )
    text = log.read_text()
    assert done.returncode == 0, text[-5000:]
    return text


def test_sink_notebook_as_the_job_runs_it_continuously(
    s3: Any, bucket: str, make_topic: Callable[..., str], producer: Producer, tmp_path: Path
) -> None:
    """The job's own parameters, trigger included (30 seconds: it never stops by itself)."""
    topic = make_topic("nb-sink")
    produce(producer, topic, [envelope(user(i)) for i in range(RECORDS)])
    params = job_parameters("s3_sink", local_variables(topic, bucket, tmp_path))
    assert params["trigger"] == "30 seconds"
    log = tmp_path / "sink.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            notebook_command("s3_sink.py", params),
            stdout=out, stderr=subprocess.STDOUT, env=ENV, cwd=ROOT, start_new_session=True,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline and proc.poll() is None:
                listed = s3.list_objects_v2(Bucket=bucket).get("Contents", [])
                if len(listed) >= 2 and "progress: batch 0" in log.read_text():
                    break
                time.sleep(1)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)  # as a cancelled run: the whole process group
            proc.wait(60)
    text = log.read_text()
    assert decoded(objects(s3, bucket)) == expected_objects(topic), text[-5000:]
    # The effective config was shown before the stream started.
    shown = json.loads(text[text.index("{") : text.index("\n}\n") + 2])
    assert shown["topics"] == topic and shown["trigger"] == "30 seconds"
    assert shown["flush.size"] == "1000" and shown["store.url"] == S3_ENDPOINT
    assert "progress: batch 0" in text


def test_sink_then_source_notebooks_with_available_now(
    s3: Any,
    bucket: str,
    make_topic: Callable[..., str],
    producer: Producer,
    consume: Callable[..., list[Any]],
    kafka_admin: AdminClient,
    tmp_path: Path,
) -> None:
    """The sink job with sink_trigger=availableNow (summary + commit log), then the source job."""
    topic = make_topic("nb-both")
    produce(producer, topic, [envelope(user(i)) for i in range(RECORDS)])
    variables = local_variables(topic, bucket, tmp_path, sink_trigger="availableNow")
    sink_params = job_parameters("s3_sink", variables)
    text = run_notebook(notebook_command("s3_sink.py", sink_params), tmp_path / "sink.log")
    got = objects(s3, bucket)
    assert decoded(got) == expected_objects(topic), text[-5000:]
    # The end-of-run summary table, then the latest commit-log rows (one per object).
    total = sum(len(body) for body in got.values())
    assert re.search(rf"^{topic} +0 +2 +2000 +{total}$", text, re.MULTILINE), text[-5000:]
    for key, body in got.items():
        start = int(key[-15:-5])
        row = rf"^\|{re.escape(key)} *\|{topic} *\|0 *\|partition=0 *\|{start} *\|{start + 999} *\|"
        assert re.search(rf"{row}1000 *\|{len(body)} *\|", text, re.MULTILINE), key

    source_params = job_parameters("s3_source", variables)
    assert source_params["trigger"] == "availableNow"
    dest = f"copy_of_{topic}"
    try:
        text = run_notebook(notebook_command("s3_source.py", source_params), tmp_path / "src.log")
        records = consume(dest, 2000)
        assert len(records) == 2000, text[-5000:]
        assert re.search(rf"^{dest} +0 +2000$", text, re.MULTILINE), text[-5000:]
        assert {r.partition() for r in records} == {0}
        payloads = [json.loads(r.value())["payload"] for r in records]
        assert payloads == [user(i) for i in range(2000)]
        assert end_offsets(dest) == {0: 2000}  # nothing more: the open file stays
    finally:
        kafka_admin.delete_topics([dest])
