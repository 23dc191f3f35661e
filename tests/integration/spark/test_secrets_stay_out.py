"""Secrets stay out of Spark: the sink and the source run through the console script with
sentinel secrets (the S3 secret, an SSE-C key, a SASL password inside ``kafka.sasl.jaas.config``,
Schema Registry basic-auth credentials) and an uncompressed Spark event log, and no sentinel may
show up in the console output, the runs' log files, the event logs, the checkpoints, the bucket,
the commit-log and dead-letter Delta tables or the topics written; nor, redacted, in the plan of
the Kafka source (whose options necessarily hold the Kafka client's secrets).

The stack does not check most values it is given: Kafka has no SASL (with
``security.protocol=PLAINTEXT`` the client ignores the JAAS line) and the registry has no
authentication (it ignores the header). The S3 secret is a sentinel when the stack's S3 accepts
any, else the stack's real secret (searched for when it is long enough to be told from other
text; one holding a word Spark redacts by, like the stack's default, is hidden by Spark where
Spark redacts, so it tests the other places only). The SSE-C key encrypts the objects when the
stack's S3 takes SSE-C; else it is set without ``s3.ssea.name=AES256`` (ignored by the writer,
but carried in the config like any other).
"""

from __future__ import annotations

import base64
import json
import os
import struct
import subprocess
import sys
import uuid
import warnings
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import boto3
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from botocore.config import Config as BotoConfig
from botocore.exceptions import ClientError
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroSerializer
from confluent_kafka.serialization import MessageField, SerializationContext

from s3connect.config.sink import SinkConfig
from s3connect.sink.partition_state import PartitionStateStore
from s3connect.spark.session import redact_secret_options
from s3connect.spark.sink_query import kafka_source
from tests.conftest import KAFKA, S3_CREDENTIALS, S3_ENDPOINT
from tests.integration.sinkhelp import produce

pytestmark = pytest.mark.integration

SSE_C_KEY = b"sentinel-sse-c-customer-key-32by"
"""The SSE-C key (32 bytes): its base64 text is the config value; both forms are searched."""
# No sentinel holds a word Spark redacts by (secret, password, token, access key): a value
# hiding itself would hide a leak too.
SASL_PASSWORD = "sentinel-sasl-pw-5e1f0a"
REGISTRY_PASSWORD = "sentinel-registry-pw-9c4b7d"
S3_SECRET = "sentinel-s3-sk-73d2e8"
_MIN_SEARCHABLE = 12
"""A real S3 secret shorter than this is not searched for (it would match unrelated text)."""

USER = {
    "type": "record",
    "name": "User",
    "namespace": "s3connect.hush",
    "fields": [{"name": "id", "type": "int"}, {"name": "name", "type": "string"}],
}


# ---------------------------------------------------------------------------------------------
# Sentinels and where they are looked for


def _s3_secret() -> str:
    """The sentinel when the stack's S3 accepts any secret, else the stack's real one."""
    probe = boto3.client(
        "s3",
        endpoint_url=S3_ENDPOINT,
        region_name="us-east-1",
        config=BotoConfig(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
        aws_access_key_id=S3_CREDENTIALS["aws_access_key_id"],
        aws_secret_access_key=S3_SECRET,
    )
    try:
        probe.list_buckets()
    except ClientError:
        return S3_CREDENTIALS["aws_secret_access_key"]
    return S3_SECRET


@pytest.fixture
def sentinels(s3: Any) -> dict[str, bytes]:
    """What to search for, by name (``s3``: the stack's S3 is up)."""
    found = {
        "SSE-C key": SSE_C_KEY,
        "SSE-C key (base64)": base64.b64encode(SSE_C_KEY),
        "SASL password": SASL_PASSWORD.encode(),
        "Schema Registry password": REGISTRY_PASSWORD.encode(),
    }
    secret = _s3_secret()
    if len(secret) >= _MIN_SEARCHABLE:
        found["S3 secret"] = secret.encode()
    else:
        warnings.warn(
            f"the stack's S3 checks secrets and its secret is shorter than {_MIN_SEARCHABLE} "
            "characters: not searched for",
            stacklevel=1,
        )
    return found


@dataclass(frozen=True)
class _Store:
    """The test's bucket on the stack's S3, and the SSE-C arguments its objects need."""

    client: Any
    name: str
    sse_c: Mapping[str, Any]
    """Empty when the stack's S3 does not take SSE-C."""

    def objects(self) -> dict[str, bytes]:
        """Every object, key -> bytes."""
        listed = self.client.list_objects_v2(Bucket=self.name).get("Contents", [])
        return {o["Key"]: self.read(o["Key"]) for o in listed}

    def read(self, key: str) -> bytes:
        body = self.client.get_object(Bucket=self.name, Key=key, **self.sse_c)["Body"]
        return bytes(body.read())

    def put(self, key: str, data: bytes) -> None:
        self.client.put_object(Bucket=self.name, Key=key, Body=data, **self.sse_c)


@pytest.fixture
def store(s3: Any, bucket: str) -> _Store:
    """``bucket``, with SSE-C when the stack's S3 takes it."""
    sse_c = {"SSECustomerAlgorithm": "AES256", "SSECustomerKey": SSE_C_KEY}
    probe = _Store(s3, bucket, sse_c)
    try:
        probe.put("probe", b"probe")
        assert probe.read("probe") == b"probe"
    except ClientError:
        return _Store(s3, bucket, {})
    finally:
        s3.delete_object(Bucket=bucket, Key="probe")
    return probe


@pytest.fixture
def made_topics(kafka_admin: AdminClient) -> Iterator[list[str]]:
    """Topics the runs create (dead letter queue, copies); deleted after the test."""
    created: list[str] = []
    yield created
    if created:
        for future in kafka_admin.delete_topics(created).values():
            future.result(timeout=30)


def _forms(secret: bytes) -> list[bytes]:
    """The secret's bytes and its base64 text at each of the three alignments (whole groups)."""
    forms = [secret]
    for shift in range(3):
        padded = b"\0" * shift + secret
        text = base64.b64encode(padded)
        forms.append(text[4 if shift else 0 : 4 * (len(padded) // 3)])
    return forms


def _leaks(name: str, data: bytes, sentinels: Mapping[str, bytes]) -> list[str]:
    """``name: sentinel`` for each sentinel found in ``data`` (in any of its forms)."""
    return [
        f"{name}: {what}"
        for what, secret in sentinels.items()
        if any(form in data for form in _forms(secret))
    ]


def _file_contents(root: Path) -> Iterator[tuple[str, bytes]]:
    """Every file under ``root``; a Parquet file also as its decoded rows, a zip file (RocksDB's
    checkpoint) also as its members."""
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        yield str(path), path.read_bytes()
        if path.suffix == ".parquet":
            yield f"{path} (rows)", repr(pq.read_table(path).to_pylist()).encode()
        elif path.suffix == ".zip":
            with zipfile.ZipFile(path) as archive:
                for member in archive.namelist():
                    yield f"{path}!{member}", archive.read(member)
        elif path.suffix == ".state":
            yield from _open_records(path)


_CONVERTED = b"S3CPEND1"
_SIZES = struct.Struct("<QQQ")


def _open_records(path: Path) -> Iterator[tuple[str, bytes]]:
    """A shuffle-free state file's open records, decompressed: each chunk's Arrow stream (raw
    records) and pickle (converted records, schemas and all); layout in
    :mod:`s3connect.sink.pending`. The stateful shape keeps the same chunks in RocksDB."""
    offset = int(path.stem)
    store = PartitionStateStore(path.parents[2])
    saved = store.load(unquote(path.parent.parent.name), int(path.parent.name), offset)
    assert saved is not None, path
    for i, chunk in enumerate(saved.chunks):
        arrow, pickled = chunk, b""
        if chunk.startswith(_CONVERTED):
            at = len(_CONVERTED) + _SIZES.size
            arrow_size, pickled_size, packed_size = _SIZES.unpack(chunk[len(_CONVERTED) : at])
            arrow = chunk[at : at + arrow_size]
            packed = chunk[at + arrow_size : at + arrow_size + packed_size]
            pickled = pa.decompress(packed, pickled_size, codec="lz4", asbytes=True)
        rows = pa.ipc.open_stream(arrow).read_all().to_pylist()
        yield f"{path} chunk {i} (records)", repr(rows).encode()
        yield f"{path} chunk {i} (converted)", pickled


def _topic_contents(topics: Iterable[str]) -> Iterator[tuple[str, bytes]]:
    """Every record (key, value, headers) of ``topics``."""
    consumer = Consumer({"bootstrap.servers": KAFKA, "group.id": f"hush-{uuid.uuid4().hex[:8]}"})
    try:
        for topic in topics:
            meta = consumer.list_topics(topic, timeout=30).topics[topic]
            for partition in meta.partitions:
                low, high = consumer.get_watermark_offsets(
                    TopicPartition(topic, partition), timeout=30
                )
                if high <= low:
                    continue
                consumer.assign([TopicPartition(topic, partition, low)])
                while True:
                    msg = consumer.poll(10)
                    assert msg is not None and msg.error() is None, f"{topic}-{partition}"
                    offset = msg.offset()
                    assert offset is not None
                    # repr keeps printable bytes as they are
                    record = repr((msg.key(), msg.value(), msg.headers())).encode()
                    yield f"{topic}-{partition}@{offset}", record
                    if offset >= high - 1:
                        break
    finally:
        consumer.close()


def _search(
    tmp: Path, outputs: Mapping[str, str], store: _Store, topics: list[str]
) -> list[tuple[str, bytes]]:
    """What the runs left: their outputs, every file they wrote, the bucket, the topics."""
    places = [(name, text.encode()) for name, text in outputs.items()]
    for folder in sorted(p for p in tmp.iterdir() if p.is_dir() and p.name != "config"):
        places += _file_contents(folder)
    places += [(f"s3://{store.name}/{key}", data) for key, data in store.objects().items()]
    places += _topic_contents(topics)
    return places


# ---------------------------------------------------------------------------------------------
# The runs


def _produce_users(registry_url: str, topic: str) -> None:
    """Seven Avro records framed for the stack's registry and, fourth, one that is not (a dead
    letter)."""
    serializer = AvroSerializer(SchemaRegistryClient({"url": registry_url}), json.dumps(USER))
    ctx = SerializationContext(topic, MessageField.VALUE)
    values = [serializer({"id": i, "name": f"user-{i}"}, ctx) for i in range(7)]
    producer = Producer({"bootstrap.servers": KAFKA})
    produce(producer, topic, [*values[:3], b"not avro", *values[3:]])


def _cli(command: str, config: Mapping[str, str], tmp: Path) -> tuple[int, str]:
    """Run ``s3connect <command> --config F --once`` with an event log; (exit code, output)."""
    path = tmp / "config" / f"{command}-{uuid.uuid4().hex[:6]}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(config))
    events = tmp / "events"
    events.mkdir(exist_ok=True)
    confs = {
        "spark.eventLog.enabled": "true",
        "spark.eventLog.dir": events.as_uri(),
        "spark.eventLog.compress": "false",  # searchable as written
        "spark.sql.ui.explainMode": "extended",  # the logical plans too
        "spark.sql.streaming.stateStore.rocksdb.compression": "none",
    }
    env = {
        **os.environ,
        "S3CONNECT_SPARK_MASTER": "local[2]",
        "S3CONNECT_LOG_DIR": str(tmp / "logs"),
        "S3CONNECT_SPARK_CONF": ",".join(f"{k}={v}" for k, v in confs.items()),
        "PYTHONUNBUFFERED": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "s3connect.app.cli", command, "--config", str(path), "--once"],
        env=env, capture_output=True, timeout=600,
    )  # fmt: skip
    return done.returncode, (done.stdout + done.stderr).decode(errors="replace")


def _jaas(password: str) -> str:
    return (
        "org.apache.kafka.common.security.plain.PlainLoginModule required "
        f'username="s3connect" password="{password}";'
    )


def _sink_config(topic: str, store: _Store, tmp: Path, registry_url: str) -> dict[str, str]:
    sse = {"s3.ssea.name": "AES256"} if store.sse_c else {}
    return {
        "name": f"hush-{topic}",
        "topics": topic,
        "kafka.bootstrap.servers": KAFKA,
        "kafka.security.protocol": "PLAINTEXT",
        "kafka.sasl.jaas.config": _jaas(SASL_PASSWORD),
        "checkpoint.location": str(tmp / "sink-checkpoint"),
        "commit.log.table": str(tmp / "tables" / "commit-log"),
        "s3.bucket.name": store.name,
        "s3.region": "us-east-1",
        "store.url": S3_ENDPOINT,
        "aws.access.key.id": S3_CREDENTIALS["aws_access_key_id"],
        "aws.secret.access.key": _s3_secret(),
        **sse,
        "s3.sse.customer.key": base64.b64encode(SSE_C_KEY).decode(),
        "format.class": "io.confluent.connect.s3.format.avro.AvroFormat",
        "value.converter": "io.confluent.connect.avro.AvroConverter",
        "value.converter.schema.registry.url": registry_url,
        "value.converter.basic.auth.credentials.source": "USER_INFO",
        "value.converter.basic.auth.user.info": f"s3connect:{REGISTRY_PASSWORD}",
        "flush.size": "3",
        "errors.tolerance": "all",
        "errors.log.enable": "true",
        "errors.log.include.messages": "true",
        "errors.deadletterqueue.topic.name": f"dlq-{topic}",
        "errors.deadletterqueue.topic.replication.factor": "1",
        "errors.deadletterqueue.context.headers.enable": "true",
        "dlq.table": str(tmp / "tables" / "dead-letters"),
    }


_SINK_ONLY = ("topics", "errors.", "dlq.", "value.converter", "commit.log.", "flush.size")


def _source_config(sink: Mapping[str, str], tmp: Path) -> dict[str, str]:
    """The sink's S3 and Kafka keys (the secrets), its objects back to ``copy_of_<topic>`` as
    JSON (the source serializes with JSON, String or ByteArray only)."""
    source = {k: v for k, v in sink.items() if not k.startswith(_SINK_ONLY)}
    source.update(
        {
            "name": f"source-{sink['topics']}",
            "checkpoint.location": str(tmp / "source-checkpoint"),
            "value.converter": "org.apache.kafka.connect.json.JsonConverter",
            "value.converter.schemas.enable": "false",
        }
    )
    return source


def _check_sink_ran(tmp: Path, store: _Store, output: str) -> None:
    """Objects (7 good records, flush.size=3), both tables, plans in the event log."""
    assert len(store.objects()) == 2, output
    for table in ("commit-log", "dead-letters"):
        assert any((tmp / "tables" / table).rglob("*.parquet")), table
    logs = [p.read_bytes() for p in (tmp / "events").rglob("*") if p.is_file()]
    assert any(
        b"SparkListenerSQLExecutionStart" in log
        and (b"PartitionTask(" in log or b"transformWithStateUDF(" in log)
        for log in logs
    ), "no plan of the sink's Python function in the event log"


# ---------------------------------------------------------------------------------------------
# The tests


def test_sink_and_source_leave_no_sentinel_anywhere(
    make_topic: Any,
    store: _Store,
    schema_registry_url: str,
    sentinels: dict[str, bytes],
    made_topics: list[str],
    tmp_path: Path,
) -> None:
    """Sink, source, then a source run that fails on a corrupt object (its log has the trace
    and the query's plan)."""
    topic = make_topic("hush")
    made_topics += [f"dlq-{topic}", f"copy_of_{topic}"]
    _produce_users(schema_registry_url, topic)
    sink = _sink_config(topic, store, tmp_path, schema_registry_url)
    source = _source_config(sink, tmp_path)
    outputs: dict[str, str] = {}

    code, outputs["sink"] = _cli("sink", sink, tmp_path)
    assert code == 0, outputs["sink"]
    _check_sink_ran(tmp_path, store, outputs["sink"])
    code, outputs["source"] = _cli("source", source, tmp_path)
    assert code == 0, outputs["source"]
    assert len(list(_topic_contents([f"copy_of_{topic}"]))) == 6
    corrupt = f"topics/{topic}/partition=0/{topic}+0+0000000100.avro"
    store.put(corrupt, b"not an Avro file")
    code, outputs["failed source"] = _cli("source", source, tmp_path)
    assert code == 4, outputs["failed source"]
    assert len(list((tmp_path / "events").iterdir())) == 3
    # The search finds every sentinel where it is: the configs given.
    configs = b"\n".join(p.read_bytes() for p in (tmp_path / "config").iterdir())
    assert len(_leaks("configs", configs, sentinels)) == len(sentinels)

    places = _search(tmp_path, outputs, store, made_topics)
    leaks = [leak for name, data in places for leak in _leaks(name, data, sentinels)]
    assert not leaks, "\n".join(leaks)


def test_stateful_sink_leaves_no_sentinel_anywhere(
    make_topic: Any,
    store: _Store,
    schema_registry_url: str,
    sentinels: dict[str, bytes],
    made_topics: list[str],
    tmp_path: Path,
) -> None:
    """The stateful shape (``transformWithStateInPandas``: the processor, config and all, pickled
    into the plan; open files in the RocksDB state store), chosen by a checkpoint that has
    Spark's ``state`` folder."""
    topic = make_topic("hush")
    made_topics.append(f"dlq-{topic}")
    _produce_users(schema_registry_url, topic)
    sink = _sink_config(topic, store, tmp_path, schema_registry_url)
    (tmp_path / "sink-checkpoint" / "state").mkdir(parents=True)

    code, output = _cli("sink", sink, tmp_path)
    assert code == 0, output
    _check_sink_ran(tmp_path, store, output)
    assert any((tmp_path / "sink-checkpoint" / "state").rglob("*.zip")), "no RocksDB state"

    places = _search(tmp_path, {"sink": output}, store, made_topics)
    leaks = [leak for name, data in places for leak in _leaks(name, data, sentinels)]
    assert not leaks, "\n".join(leaks)


def test_kafka_options_are_redacted_in_plans(spark: Any, tmp_path: Path) -> None:
    """Spark's Kafka source needs the client's secrets as options; its plan (``explain``, the
    Spark UI) shows them redacted, including what Spark's own ``spark.redaction.regex`` misses:
    a JAAS line naming no password, a PEM private key."""
    keys = {
        "topics": "hush",
        "kafka.bootstrap.servers": KAFKA,
        "kafka.security.protocol": "SASL_SSL",
        "kafka.sasl.jaas.config": f'com.example.LoginModule required apiKey="{SASL_PASSWORD}";',
        "kafka.ssl.keystore.key": f"-----BEGIN PRIVATE KEY-----\n{S3_SECRET}",
        "kafka.ssl.key.password": REGISTRY_PASSWORD,
        "checkpoint.location": str(tmp_path / "checkpoint"),
        "s3.bucket.name": "hush",
        "store.url": S3_ENDPOINT,
        "format.class": "io.confluent.connect.s3.format.json.JsonFormat",
        "flush.size": "3",
    }
    redact_secret_options(spark)
    frame = kafka_source(spark, SinkConfig.from_mapping(keys))
    plans = str(frame._jdf.queryExecution().toString())
    assert "kafka.sasl.jaas.config=*********(redacted)" in plans, plans
    for secret in (SASL_PASSWORD, S3_SECRET, REGISTRY_PASSWORD):
        assert secret not in plans, plans
