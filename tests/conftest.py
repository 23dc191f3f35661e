"""Shared fixtures: the real local stack (Kafka broker, S3 server, Schema Registry) and one
SparkSession.

S3 is versitygw (``s3`` / ``bucket``), a real S3 server checking signatures with the stack's
credentials (``S3_CREDENTIALS``, from ``stack/stack.py``: $S3_ACCESS_KEY_ID /
$S3_SECRET_ACCESS_KEY). moto's server (``moto_s3`` / ``moto_bucket``, ``MOTO_ENDPOINT``) is only
for the tests that need what only it reflects: SSE headers echoed, ACL grants, STS AssumeRole.

Integration tests take these fixtures; when the stack is not up (``make up``) they fail loudly,
never skip.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import uuid
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from botocore.config import Config as BotoConfig
from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic
from confluent_kafka.schema_registry import SchemaRegistryClient
from stack import spark_archive
from stack import stack as local_stack

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

KAFKA = f"127.0.0.1:{os.environ.get('KAFKA_PORT', '9092')}"
S3_ENDPOINT = local_stack.s3_endpoint()
S3_CREDENTIALS = {
    "aws_access_key_id": local_stack.S3_ACCESS_KEY_ID,
    "aws_secret_access_key": local_stack.S3_SECRET_ACCESS_KEY,
}
# moto's server: any credentials; S3 and STS on one port.
MOTO_ENDPOINT = local_stack.moto_endpoint()
MOTO_CREDENTIALS = {"aws_access_key_id": "moto", "aws_secret_access_key": "moto"}
# Confluent-compatible base URL of the stack's Schema Registry (see stack/stack.py).
SCHEMA_REGISTRY_URL = os.environ.get(
    "SCHEMA_REGISTRY_URL",
    f"http://127.0.0.1:{os.environ.get('SCHEMA_REGISTRY_PORT', '8081')}/apis/ccompat/v7",
)


# Every JVM the tests start (the CLI's and notebooks' drivers, local-cluster executors, the shared
# session) maps the classes of stack/spark_archive.py's archive instead of loading them; all but
# the shared session, which runs the whole suite, compile with C1 only.
_JAVA_TOOL_OPTIONS = "JAVA_TOOL_OPTIONS"
if _JAVA_TOOL_OPTIONS not in os.environ and (_java_options := spark_archive.java_options()):
    os.environ[_JAVA_TOOL_OPTIONS] = _java_options


@contextlib.contextmanager
def _long_lived_jvm() -> Iterator[None]:
    """While the shared session's JVM starts: the archive and both compilers (it runs the whole
    suite); unchanged when the shell gave its own options."""
    quick, full = spark_archive.java_options(), spark_archive.java_options(quick_jit=False)
    if quick is None or full is None or os.environ.get(_JAVA_TOOL_OPTIONS) != quick:
        yield
        return
    os.environ[_JAVA_TOOL_OPTIONS] = full
    try:
        yield
    finally:
        os.environ[_JAVA_TOOL_OPTIONS] = quick


def _require(port_url: str, what: str) -> None:
    host, port = port_url.replace("http://", "").split(":")
    with socket.socket() as s:
        s.settimeout(1)
        if s.connect_ex((host, int(port))) != 0:
            pytest.fail(f"{what} is not answering on {port_url}: start the stack with `make up`")


@pytest.fixture(scope="session")
def kafka_bootstrap() -> str:
    _require(KAFKA, "Kafka")
    return KAFKA


@pytest.fixture(scope="session")
def kafka_admin(kafka_bootstrap: str) -> AdminClient:
    return AdminClient({"bootstrap.servers": kafka_bootstrap})


@pytest.fixture
def make_topic(kafka_admin: AdminClient) -> Iterator[Callable[..., str]]:
    """Create a uniquely named topic; deleted after the test."""
    created: list[str] = []

    def make(prefix: str = "t", partitions: int = 1) -> str:
        name = f"{prefix}-{uuid.uuid4().hex[:8]}"
        for future in kafka_admin.create_topics([NewTopic(name, partitions, 1)]).values():
            future.result(timeout=30)
        created.append(name)
        return name

    yield make
    if created:
        for future in kafka_admin.delete_topics(created).values():
            future.result(timeout=30)


@pytest.fixture
def dlq_topic(kafka_admin: AdminClient) -> Iterator[str]:
    """A fresh dead letter queue topic name for the sink to create; deleted after the test."""
    name = f"dlq-{uuid.uuid4().hex[:8]}"
    yield name
    for future in kafka_admin.delete_topics([name]).values():
        # A test that failed early never created it.
        with contextlib.suppress(Exception):
            future.result(timeout=30)


@pytest.fixture
def producer(kafka_bootstrap: str) -> Iterator[Producer]:
    p = Producer({"bootstrap.servers": kafka_bootstrap, "linger.ms": 5, "enable.idempotence": True})
    yield p
    assert p.flush(30) == 0


@pytest.fixture
def consume(kafka_bootstrap: str) -> Callable[..., list[Any]]:
    """Read a topic from the beginning (all partitions) until ``expected`` records arrive."""

    def read(topic: str, expected: int, timeout: float = 60.0) -> list[Any]:
        import time

        c = Consumer(
            {
                "bootstrap.servers": kafka_bootstrap,
                "group.id": f"test-{uuid.uuid4().hex[:8]}",
                "auto.offset.reset": "earliest",
                "enable.auto.commit": False,
            }
        )
        c.subscribe([topic])
        out: list[Any] = []
        deadline = time.monotonic() + timeout
        try:
            while len(out) < expected and time.monotonic() < deadline:
                msg = c.poll(0.5)
                if msg is None:
                    continue
                assert msg.error() is None, msg.error()
                out.append(msg)
        finally:
            c.close()
        return out

    return read


@pytest.fixture(scope="session")
def s3(kafka_bootstrap: str) -> Any:
    """A client of the stack's S3 server (versitygw)."""
    _require(S3_ENDPOINT, "The S3 server")
    return boto3.client(
        "s3",
        endpoint_url=S3_ENDPOINT,
        region_name="us-east-1",
        config=BotoConfig(s3={"addressing_style": "path"}),
        **S3_CREDENTIALS,
    )


@pytest.fixture
def bucket(s3: Any) -> str:
    name = f"b-{uuid.uuid4().hex[:12]}"
    s3.create_bucket(Bucket=name)
    return name


@pytest.fixture(scope="session")
def moto_s3(kafka_bootstrap: str) -> Any:
    """A client of moto's server: only for SSE echo, ACL grants and STS (see the module doc)."""
    _require(MOTO_ENDPOINT, "moto's server")
    return boto3.client(
        "s3",
        endpoint_url=MOTO_ENDPOINT,
        region_name="us-east-1",
        config=BotoConfig(s3={"addressing_style": "path"}),
        **MOTO_CREDENTIALS,
    )


@pytest.fixture
def moto_bucket(moto_s3: Any) -> str:
    name = f"b-{uuid.uuid4().hex[:12]}"
    moto_s3.create_bucket(Bucket=name)
    return name


@pytest.fixture(scope="session")
def schema_registry_url() -> str:
    """The stack's Schema Registry base URL, for ``SchemaRegistryClient({"url": ...})``."""
    _require(SCHEMA_REGISTRY_URL.split("/apis/", 1)[0], "The Schema Registry")
    return SCHEMA_REGISTRY_URL


@pytest.fixture(scope="session")
def schema_registry(schema_registry_url: str) -> SchemaRegistryClient:
    return SchemaRegistryClient({"url": schema_registry_url})


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    os.environ.setdefault("S3CONNECT_SPARK_MASTER", "local[2]")
    # The default chain's keys are the stack's (its S3 checks them), whatever the shell holds.
    os.environ["AWS_ACCESS_KEY_ID"] = S3_CREDENTIALS["aws_access_key_id"]
    os.environ["AWS_SECRET_ACCESS_KEY"] = S3_CREDENTIALS["aws_secret_access_key"]
    from s3connect.spark.session import get_spark

    with _long_lived_jvm():
        session = get_spark("s3connect-tests", shuffle_partitions=2)
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture
def s3connect_log() -> Iterator[list[str]]:
    """The messages of the ``s3connect`` loggers (INFO and up) while the test runs."""
    logger = logging.getLogger("s3connect")
    handler, level = _Lines(), logger.level
    logger.addHandler(handler)
    logger.setLevel(min(level or logging.INFO, logging.INFO))
    try:
        yield handler.lines
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
