"""What a user sees from the console script on the real stack: the whole output of a run that
meets one bad record, and the progress in a terminal and in a pipe."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer

from tests.integration.sinkhelp import produce, sink_keys

pytestmark = pytest.mark.integration


def _cli_env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "S3CONNECT_SPARK_MASTER": "local[2]",
        "S3CONNECT_LOG_DIR": str(tmp_path / "logs"),
        "PYTHONUNBUFFERED": "1",
    }


def _config(tmp_path: Path, keys: dict[str, str]) -> str:
    path = tmp_path / "sink.json"
    path.write_text(json.dumps(keys))
    return str(path)


def test_one_bad_record_ends_the_run_with_one_short_message(
    bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("bad")
    produce(producer, t, [b'{"i":0}', b"{not json", b'{"i":2}'])
    config = _config(tmp_path, sink_keys(t, bucket, tmp_path, **{"flush.size": "1"}))
    done = subprocess.run(
        [sys.executable, "-m", "s3connect.app.cli", "sink", "--config", config, "--once"],
        env=_cli_env(tmp_path), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    output = (done.stdout + done.stderr).splitlines()
    assert done.returncode == 3
    assert len(output) <= 20, "\n".join(output)
    [log] = (tmp_path / "logs").glob("sink-*.log")
    failed = output.index("s3connect sink failed: a record could not be handled "
                          "(s3connect.errors.ConversionError)")  # fmt: skip
    assert output[failed + 1].startswith(  # RetryWithToleranceOperator's words, then why
        "  Tolerance exceeded in error handler: value could not be converted by json converter"
    )
    assert output[failed + 1].endswith(f"(topic='{t}', partition=0, offset=1)")
    assert "errors.tolerance=all" in output[failed + 2]
    assert output[failed + 3] == f"  full trace: {log} (or run with --verbose)"
    text = log.read_text()
    assert "Traceback" in text and "ERROR" in text  # Spark's and ours, in the file only
    assert not any("WARN" in line or "Traceback" in line for line in output)


def test_progress_is_a_bar_on_a_terminal_and_lines_in_a_pipe(
    bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("progress")
    produce(producer, t, [json.dumps({"i": i}).encode() for i in range(40)])
    keys = sink_keys(t, bucket, tmp_path, **{"flush.size": "10", "max.offsets.per.trigger": "20"})
    command = [sys.executable, "-m", "s3connect.app.cli", "sink", "--config",
               _config(tmp_path, keys), "--once"]  # fmt: skip

    piped = subprocess.run(command, env=_cli_env(tmp_path), capture_output=True, text=True,
                           timeout=300)  # fmt: skip
    assert piped.returncode == 0, piped.stderr
    assert "progress: batch 0, 20 input records" in piped.stdout
    assert "progress: batch 1, 20 input records" in piped.stdout
    assert "\r" not in piped.stdout

    more = [json.dumps({"i": i}).encode() for i in range(40, 80)]
    produce(producer, t, more)
    leader, follower = pty.openpty()
    with subprocess.Popen(command, env=_cli_env(tmp_path), stdout=follower,
                          stderr=subprocess.DEVNULL) as proc:  # fmt: skip
        os.close(follower)
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closed: the run ended
                break
            if not chunk:
                break
            seen += chunk
        assert proc.wait(timeout=300) == 0
    os.close(leader)
    screen = seen.decode()
    assert "\r[" in screen and "20 / 40 records" in screen and "40 / 40 records" in screen
    assert "progress: batch" not in screen  # the bar instead of lines
    assert "total" in screen  # the summary table after the bar


def test_the_sink_notebook_shows_the_same_short_message(
    bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    t = make_topic("nbbad")
    produce(producer, t, [b'{"i":0}', b"{not json"])
    keys = sink_keys(t, bucket, tmp_path, **{"flush.size": "1"})
    notebook = Path(__file__).resolve().parents[3] / "notebooks" / "s3_sink.py"
    done = subprocess.run(
        [sys.executable, str(notebook), f"connector.config={json.dumps(keys)}",
         f"checkpoint.location={tmp_path / 'ck'}", "trigger=availableNow"],
        env=_cli_env(tmp_path), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode != 0
    err = done.stderr
    headline = "s3connect sink failed: a record could not be handled"
    assert err.count(headline) == 2  # printed, then the RunFailed the job fails with
    assert f"RunFailed: {headline}" in err
    assert f"(topic='{t}', partition=0, offset=1)" in err
    assert "WARN" not in err and "py4j" not in err
