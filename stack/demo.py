"""`make demo`: sample events through the real stack and the sink notebook, end to end.

Creates topic ``events`` (3 partitions), produces sample events, runs ``notebooks/s3_sink.py``
as a job would (widget values as parameters) into a bucket on the local S3 server, then lists
the objects it wrote, reads one back, and queries the Delta commit log.
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
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

ROOT = Path(__file__).resolve().parent.parent
KAFKA = f"127.0.0.1:{os.environ.get('KAFKA_PORT', '9092')}"
S3_URL = f"http://127.0.0.1:{os.environ.get('S3_PORT', '9000')}"
TOPIC, BUCKET, EVENTS = "events", "demo-bucket", 60


def step(text: str) -> None:
    print(f"\n=== {text}", flush=True)


def main() -> int:
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "demo")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "demo")
    work = Path(tempfile.mkdtemp(prefix="s3connect-demo-"))

    step(f"Kafka: topic {TOPIC!r} with 3 partitions on {KAFKA}")
    admin = AdminClient({"bootstrap.servers": KAFKA})
    if TOPIC in admin.list_topics(timeout=10).topics:
        admin.delete_topics([TOPIC])[TOPIC].result()
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
    step(f"contents of {keys[0]}")
    print(first, end="")

    step("done: records of still-open files stay in the checkpoint until they rotate")
    print(f"{len(keys)} objects written; checkpoint and commit log under {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
