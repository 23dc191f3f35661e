"""`make demo`: sample events through the real stack, the sink and the source, end to end.

Creates topic ``events`` (3 partitions), produces sample events, runs ``notebooks/s3_sink.py``
as a job would (widget values as parameters) into a bucket on the local S3 server, lists the
objects it wrote and reads one back, then runs ``notebooks/s3_source.py`` to publish them back
to ``copy_of_events`` and counts what arrives there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import boto3
from botocore.config import Config
from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic

# stack/stack.py (this folder is on sys.path when this file runs): the local S3's credentials.
from stack import S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, s3_endpoint

ROOT = Path(__file__).resolve().parent.parent
KAFKA = f"127.0.0.1:{os.environ.get('KAFKA_PORT', '9092')}"
S3_URL = s3_endpoint()
TOPIC, BUCKET, EVENTS = "events", "demo-bucket", 60


def step(text: str) -> None:
    print(f"\n=== {text}", flush=True)


def main() -> int:
    # The stack's S3 checks signatures: its credentials, for boto3 here and the notebooks' chain.
    os.environ["AWS_ACCESS_KEY_ID"] = S3_ACCESS_KEY_ID
    os.environ["AWS_SECRET_ACCESS_KEY"] = S3_SECRET_ACCESS_KEY
    os.environ.pop("AWS_SESSION_TOKEN", None)
    os.environ.pop("AWS_PROFILE", None)
    work = Path(tempfile.mkdtemp(prefix="s3connect-demo-"))

    step(f"Kafka: topic {TOPIC!r} with 3 partitions on {KAFKA}")
    admin = AdminClient({"bootstrap.servers": KAFKA})
    # Start clean: the broker keeps its data between `make up`s, so drop both topics.
    existing = admin.list_topics(timeout=10).topics
    stale = [t for t in (TOPIC, f"copy_of_{TOPIC}") if t in existing]
    if stale:
        for future in admin.delete_topics(stale).values():
            future.result()
        time.sleep(1)
    admin.create_topics([NewTopic(TOPIC, 3, 1)])[TOPIC].result()

    step(f"producing {EVENTS} sample events")
    producer = Producer({"bootstrap.servers": KAFKA})
    kinds = ("click", "view", "purchase")
    for i in range(EVENTS):
        event = {"id": i, "kind": kinds[i % 3], "user": f"u{i % 7}", "amount": i * 1.5}
        producer.produce(TOPIC, key=f"u{i % 7}".encode(), value=json.dumps(event).encode())
    producer.flush(30)

    s3 = boto3.client(
        "s3", endpoint_url=S3_URL, region_name="us-east-1",
        config=Config(s3={"addressing_style": "path"}),
    )  # fmt: skip
    if BUCKET not in [b["Name"] for b in s3.list_buckets()["Buckets"]]:
        s3.create_bucket(Bucket=BUCKET)
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=BUCKET):
        for obj in page.get("Contents", []):
            s3.delete_object(Bucket=BUCKET, Key=obj["Key"])

    step("running notebooks/s3_sink.py as a job would (widget values as parameters)")
    config = {
        "name": "demo-sink",
        "s3.region": "us-east-1",
        "value.converter": "org.apache.kafka.connect.json.JsonConverter",
        "value.converter.schemas.enable": "false",
        "key.converter": "org.apache.kafka.connect.storage.StringConverter",
    }
    params = {
        "connector.config": json.dumps(config),
        "topics": TOPIC,
        "kafka.bootstrap.servers": KAFKA,
        "s3.bucket.name": BUCKET,
        "store.url": S3_URL,
        "format.class": "json",
        "partitioner.class": "field",
        "partition.field.name": "kind",
        "flush.size": "8",
        "checkpoint.location": str(work / "checkpoint"),
        "trigger": "availableNow",
        "commit.log.table": str(work / "commit_log"),
    }
    args = [f"{k}={v}" for k, v in params.items()]
    subprocess.run([sys.executable, str(ROOT / "notebooks" / "s3_sink.py"), *args], check=True)

    step(f"objects in s3://{BUCKET} (Field partitioner on 'kind', flush.size=8)")
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])]
    for key in keys:
        print(" ", key)
    first = s3.get_object(Bucket=BUCKET, Key=keys[0])["Body"].read().decode()
    committed = sum(
        len(s3.get_object(Bucket=BUCKET, Key=k)["Body"].read().splitlines()) for k in keys
    )
    step(f"contents of {keys[0]}")
    print(first, end="")

    step("running notebooks/s3_source.py: the objects back into Kafka as copy_of_events")
    source = {
        "connector.config": json.dumps({"name": "demo-source", "s3.region": "us-east-1"}),
        "kafka.bootstrap.servers": KAFKA,
        "s3.bucket.name": BUCKET,
        "store.url": S3_URL,
        "format.class": "json",
        "value.converter": "json",
        "value.converter.schemas.enable": "false",
        "checkpoint.location": str(work / "source-checkpoint"),
        "trigger": "availableNow",
    }
    args = [f"{k}={v}" for k, v in source.items()]
    subprocess.run([sys.executable, str(ROOT / "notebooks" / "s3_source.py"), *args], check=True)

    step("reading copy_of_events back from Kafka")
    consumer = Consumer(
        {"bootstrap.servers": KAFKA, "group.id": f"demo-{time.time_ns()}",
         "auto.offset.reset": "earliest", "enable.auto.commit": False}
    )  # fmt: skip
    consumer.subscribe([f"copy_of_{TOPIC}"])
    copied: dict[int, int] = {}
    deadline = time.monotonic() + 30
    while sum(copied.values()) < committed and time.monotonic() < deadline:
        msg = consumer.poll(0.5)
        if msg is not None and msg.error() is None:
            copied[msg.partition()] = copied.get(msg.partition(), 0) + 1
    consumer.close()
    for partition, count in sorted(copied.items()):
        print(f"  copy_of_{TOPIC} partition {partition}: {count} records")

    step("done")
    print(
        f"{EVENTS} events produced; {committed} landed in {len(keys)} committed objects (the "
        f"rest stay in the sink's checkpoint until their files rotate); {sum(copied.values())} "
        f"published back to copy_of_{TOPIC}; checkpoints and commit log under {work}"
    )
    return 0 if sum(copied.values()) == committed else 1


if __name__ == "__main__":
    sys.exit(main())
