"""Helpers of the fault tests: the console script as a subprocess, waiting, reading a whole topic,
checking at-least-once delivery, a clean reference run of the sink, and an S3 proxy that stops
one object's request and names the Spark executor that sent it."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote, urlsplit

from confluent_kafka import Consumer, TopicPartition

from tests.conftest import KAFKA, S3_CREDENTIALS
from tests.integration.sinkhelp import objects, run

T = TypeVar("T")


def wait_for(what: str, probe: Callable[[], T | None], timeout: float, step: float = 0.2) -> T:
    """Poll ``probe`` until it returns something truthy; fail naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        got = probe()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(step)


def cli_env(master: str = "local[2]") -> dict[str, str]:
    """The environment of a console-script subprocess: its Spark master and S3 credentials."""
    return {
        **os.environ,
        "S3CONNECT_SPARK_MASTER": master,
        "AWS_ACCESS_KEY_ID": S3_CREDENTIALS["aws_access_key_id"],
        "AWS_SECRET_ACCESS_KEY": S3_CREDENTIALS["aws_secret_access_key"],
    }


class CliRun:
    """``s3connect <command> --config <file> ...`` in its own process group, output to a file."""

    def __init__(
        self,
        command: str,
        keys: Mapping[str, str],
        tmp: Path,
        *args: str,
        master: str = "local[2]",
    ) -> None:
        name = f"{command}-{uuid.uuid4().hex[:6]}"
        config = tmp / f"{name}.json"
        config.write_text(json.dumps(dict(keys)))
        self.output = tmp / f"{name}.out"
        cli = [sys.executable, "-m", "s3connect.app.cli", command, "--config", str(config)]
        with self.output.open("wb") as out:
            self.proc = subprocess.Popen(
                [*cli, *args], stdout=out, stderr=subprocess.STDOUT,
                env={**cli_env(master), "S3CONNECT_LOG_DIR": str(tmp / "logs")},
                start_new_session=True,
            )  # fmt: skip

    @property
    def log_files(self) -> list[Path]:
        """The run's log files (the trace of a failure, Spark's own lines)."""
        return sorted((self.output.parent / "logs").glob(f"*-{self.proc.pid}.log"))

    def text(self) -> str:
        """What it printed so far."""
        return self.output.read_text(errors="replace")

    def until(self, event: threading.Event, timeout: float) -> None:
        """Wait for ``event``; fail with its output if it ends first or after ``timeout``."""
        deadline = time.monotonic() + timeout
        while not event.wait(0.2):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(
                    f"exited with {self.proc.poll()} or timed out:\n{self.text()[-3000:]}"
                )

    def wait(self, timeout: float) -> int:
        """Its exit code (killed if it has not ended after ``timeout``)."""
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(
                f"still running after {timeout:.0f} s:\n{self.text()[-3000:]}"
            ) from None

    def kill(self) -> None:
        """SIGKILL the whole process group (driver, JVMs, Python workers)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)


def read_topic(topic: str) -> dict[int, list[bytes]]:
    """Every value of ``topic`` up to its current end, per partition in offset order."""
    consumer = Consumer({
        "bootstrap.servers": KAFKA, "group.id": f"faults-{uuid.uuid4().hex[:8]}",
        "enable.auto.commit": False, "auto.offset.reset": "earliest",
    })  # fmt: skip
    try:
        partitions = consumer.list_topics(topic, timeout=30).topics[topic].partitions
        ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=30)[1]
                for p in partitions}  # fmt: skip
        consumer.assign([TopicPartition(topic, p, 0) for p in partitions])
        out: dict[int, list[bytes]] = {p: [] for p in partitions}
        deadline = time.monotonic() + 60
        while any(len(out[p]) < ends[p] for p in partitions) and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            assert msg.error() is None, msg.error()
            out[msg.partition()].append(msg.value())
        return out
    finally:
        consumer.close()


def duplicates(got: list[bytes], expected: list[bytes]) -> int:
    """Assert that ``got`` is ``expected`` published at least once, in order: runs of
    consecutive records of ``expected``, each new run going back (a replay), never ahead of the
    first record not yet published, together covering all of ``expected``. Returns how many
    records came more than once."""
    index = {value: i for i, value in enumerate(expected)}
    assert len(index) == len(expected), "expected values must be distinct"
    reached, previous = 0, -1
    for at, value in enumerate(got):
        assert value in index, f"record {at} was never produced: {value!r}"
        i = index[value]
        assert i <= reached, f"record {at}: {value!r} skips ahead of {expected[reached]!r}"
        assert i == previous + 1 or i <= previous, f"record {at}: {value!r} out of order"
        reached = max(reached, i + 1)
        previous = i
    assert reached == len(expected), f"lost: {expected[reached:]!r}"
    return len(got) - len(expected)


def reference_objects(
    spark: Any, s3: Any, keys: Mapping[str, str], tmp: Path, **overrides: str
) -> dict[str, bytes]:
    """The objects of a clean, uninterrupted availableNow run of the same sink config into a new
    bucket with its own checkpoint."""
    bucket = f"ref-{uuid.uuid4().hex[:12]}"
    s3.create_bucket(Bucket=bucket)
    clean = {
        **keys,
        "s3.bucket.name": bucket,
        "checkpoint.location": str(tmp / f"{bucket}-checkpoint"),
        "trigger": "availableNow",
        **overrides,
    }
    clean.pop("max.offsets.per.trigger", None)
    run(spark, clean)
    return objects(s3, bucket)


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def executor_of(pid: int) -> int:
    """The Spark executor JVM (``CoarseGrainedExecutorBackend``) that ``pid`` (an executor's
    Python worker) descends from."""
    at: int | None = pid
    while at is not None and at > 1:
        if "CoarseGrainedExecutorBackend" in _cmdline(at):
            return at
        at = _parent(at)
    raise AssertionError(f"process {pid} ({_cmdline(pid)!r}) does not run in a Spark executor")


def _client_pid(port: int) -> int | None:
    """The process holding the local end 127.0.0.1:``port`` of a TCP connection."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            for fd in (proc / "fd").iterdir():
                if os.readlink(fd) in inodes:
                    return int(proc.name)
        except OSError:
            continue
    return None


# Hop-by-hop headers are not forwarded (and Expect: the proxy answers 100-continue itself).
_HOP = {"proxy-connection", "connection", "keep-alive", "transfer-encoding", "expect",
        "content-length", "proxy-authorization"}  # fmt: skip


class HoldingProxy:
    """A forwarding HTTP proxy to the S3 server (``s3.proxy.url``) that stops the first request
    for an object whose key ends with ``hold_suffix`` and keeps it, unanswered, until
    :meth:`drop`: the Spark task sending it is then known to be mid-way (``held`` is set, and
    ``client_pid`` is the process that sent it). Every other request is forwarded."""

    def __init__(self, hold_suffix: str) -> None:
        self.hold_suffix = hold_suffix
        self.held = threading.Event()
        self.client_pid: int | None = None
        self._dropped = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> HoldingProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._dropped.set()
        self._server.shutdown()
        self._server.server_close()

    def drop(self) -> None:
        """Close the held request's connection without an answer (its sender is gone)."""
        self._dropped.set()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Forward(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def forward(self) -> None:
                target = urlsplit(self.path)  # a forwarding proxy gets absolute URIs
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if unquote(target.path).endswith(proxy.hold_suffix) and not proxy.held.is_set():
                    proxy.client_pid = _client_pid(self.client_address[1])
                    proxy.held.set()
                    proxy._dropped.wait(120)
                    self.close_connection = True
                    return
                headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP}
                headers["Content-Length"] = str(len(body))
                upstream = http.client.HTTPConnection(
                    target.hostname or "", target.port, timeout=60
                )
                try:
                    path = target.path + (f"?{target.query}" if target.query else "")
                    upstream.request(self.command, path, body=body, headers=headers)
                    response = upstream.getresponse()
                    data = response.read()
                finally:
                    upstream.close()
                self.send_response(response.status, response.reason)
                for name, value in response.getheaders():
                    if name.lower() not in _HOP:
                        self.send_header(name, value)
                length = (
                    response.getheader("Content-Length", "0") if self.command == "HEAD" else None
                )
                self.send_header("Content-Length", length or str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            do_GET = do_PUT = do_POST = do_HEAD = do_DELETE = forward

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Forward


def source_config(sink: Mapping[str, str], tmp: Path, **keys: str) -> dict[str, str]:
    """The sink's config as the source's: the same keys, its own checkpoint and name."""
    config = {k: v for k, v in sink.items() if k not in ("topics", "max.offsets.per.trigger")}
    config["checkpoint.location"] = str(tmp / "source-checkpoint")
    config["name"] = "source-" + config["name"]
    config["listing.settle.ms"] = "200"  # the sink commits before a listing can see its objects
    config.update(keys)
    return config
