"""Soak run: a continuous sink and a continuous source for a long time, with faults on a schedule.

    python bench/soak.py [--minutes 30] [--rate 200] [--partitions 4] [--kill-every 150]
                         [--broker-every 420] [--master local[2]]

With the stack up (``make up``). A producer writes numbered records (``{"p": partition, "n":
sequence, "pad": ...}``) at ``--rate`` records/s into a new topic. ``s3connect sink`` (continuous,
``flush.size`` 100) writes them as JSON objects to a new bucket on the stack's S3 server, and
``s3connect source`` (continuous) publishes those objects to ``copy_of_<topic>``. Each runs as the
console script in its own process group. On a schedule:

- every ``--kill-every`` seconds the sink or the source (in turn) is killed with SIGKILL (driver,
  JVMs and Python workers at once) and started again on the same checkpoint;
- every ``--broker-every`` seconds the Kafka broker is stopped for 10 s and started again.

A query that exits on its own (a fault it did not ride out) is counted and started again. At the
end the producer pads each partition to a multiple of ``flush.size`` (so every record can be
committed), both queries run until the bucket and the copy topic hold everything, and the report
says: records produced, objects written, records in S3 (lost and duplicated: both must be 0),
records published by the source (lost must be 0; duplicates are allowed, at least once, counted),
order per partition, and the faults injected. Written to ``bench/results/soak.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import boto3
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from stack import stack as local_stack  # noqa: E402

KAFKA = f"127.0.0.1:{local_stack.KAFKA.port}"
FLUSH = 100
PAD = "x" * 200


class Query:
    """``s3connect sink|source`` as a console script in its own process group, restartable."""

    def __init__(self, command: str, config: dict[str, str], work: Path, master: str) -> None:
        self.command, self.work = command, work
        self.config = work / f"{command}.json"
        self.config.write_text(json.dumps(config))
        self.env = {
            **os.environ,
            "S3CONNECT_SPARK_MASTER": master,
            "S3CONNECT_LOG_DIR": str(work / "logs"),
        }
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = self.kills = self.exits = 0

    def start(self) -> None:
        out = (self.work / f"{self.command}-{self.starts}.out").open("wb")
        cli = [sys.executable, "-m", "s3connect.app.cli", self.command]
        cli += ["--config", str(self.config)]
        self.proc = subprocess.Popen(
            cli, stdout=out, stderr=subprocess.STDOUT, env=self.env, start_new_session=True
        )
        self.starts += 1

    def kill(self) -> None:
        """SIGKILL the whole process group, then start again."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(60)
            self.kills += 1
        self.start()

    def keep_running(self) -> None:
        """Start it again if it exited by itself (counted)."""
        if self.proc and self.proc.poll() is not None:
            self.exits += 1
            print(f"  {self.command} exited with {self.proc.returncode}: started again")
            self.start()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(60)


class Feed:
    """The producer thread: numbered records at a fixed rate, round-robin over the partitions."""

    def __init__(self, topic: str, partitions: int, rate: float) -> None:
        self.topic, self.partitions, self.rate = topic, partitions, rate
        self.sent = [0] * partitions
        self._stop = threading.Event()
        self._producer = Producer(
            {
                "bootstrap.servers": KAFKA,
                "enable.idempotence": True,
                "linger.ms": 20,
                "log_level": 2,
            }
        )
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _send(self, p: int) -> None:
        value = json.dumps({"p": p, "n": self.sent[p], "pad": PAD}).encode()
        while True:
            try:
                self._producer.produce(self.topic, value, partition=p)
                break
            except BufferError:  # the broker is away: wait for room
                self._producer.poll(0.5)
        self.sent[p] += 1

    def _run(self) -> None:
        start, done = time.monotonic(), 0
        while not self._stop.is_set():
            due = int((time.monotonic() - start) * self.rate)
            while done < due:
                self._send(done % self.partitions)
                done += 1
            self._producer.poll(0.05)

    def start(self) -> None:
        self._thread.start()

    def finish(self) -> None:
        """Stop, pad every partition to a multiple of flush.size, and flush (every ack in)."""
        self._stop.set()
        self._thread.join()
        for p in range(self.partitions):
            while self.sent[p] % FLUSH:
                self._send(p)
        assert self._producer.flush(300) == 0, "records left unacknowledged"


def read_topic(topic: str) -> dict[int, list[Any]]:
    """Every value of ``topic`` up to its end, decoded, per partition in offset order."""
    consumer = Consumer({
        "bootstrap.servers": KAFKA, "group.id": f"soak-{uuid.uuid4().hex[:8]}",
        "enable.auto.commit": False,
    })  # fmt: skip
    try:
        partitions = consumer.list_topics(topic, timeout=30).topics[topic].partitions
        ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=30)[1]
                for p in partitions}  # fmt: skip
        consumer.assign([TopicPartition(topic, p, 0) for p in partitions])
        out: dict[int, list[Any]] = {p: [] for p in partitions}
        pos = dict.fromkeys(partitions, 0)
        while any(pos[p] < ends[p] for p in partitions):
            msg = consumer.poll(1.0)
            if msg is None or msg.error():
                continue
            pos[msg.partition()] = msg.offset() + 1
            out[msg.partition()].append(json.loads(msg.value())["n"])
        return out
    finally:
        consumer.close()


def read_bucket(s3: Any, bucket: str) -> tuple[int, dict[int, list[int]]]:
    """The number of objects and the sequence numbers they hold per Kafka partition, in object
    (start offset) order."""
    per: dict[int, list[tuple[int, list[int]]]] = {}
    count = 0
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for o in page.get("Contents", []):
            count += 1
            topic_part_offset = o["Key"].rsplit("/", 1)[1].rsplit(".", 1)[0]
            _, p, offset = topic_part_offset.rsplit("+", 2)
            body = s3.get_object(Bucket=bucket, Key=o["Key"])["Body"].read()
            ns = [json.loads(line)["n"] for line in body.splitlines()]
            per.setdefault(int(p), []).append((int(offset), ns))
    return count, {p: [n for _, ns in sorted(objs) for n in ns] for p, objs in per.items()}


def check(got: list[int], sent: int, *, duplicates_allowed: bool) -> dict[str, int]:
    """Losses, duplicates and order breaks of ``got`` against 0..sent-1."""
    seen = Counter(got)
    lost = sum(1 for n in range(sent) if n not in seen)
    duplicated = sum(c - 1 for c in seen.values())
    # In order: each record is the next one, or (a replay, at-least-once only) an earlier one.
    breaks, reached = 0, 0
    for n in got:
        if n > reached or (n < reached and not duplicates_allowed):
            breaks += 1
        reached = max(reached, n + 1)
    return {"lost": lost, "duplicated": duplicated, "order_breaks": breaks}


def make_topic(name: str, partitions: int) -> None:
    admin = AdminClient({"bootstrap.servers": KAFKA})
    for future in admin.create_topics([NewTopic(name, partitions, 1)]).values():
        future.result(30)


def configs(topic: str, bucket: str, work: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The sink's and the source's connector configs."""
    sink = {
        "name": f"soak-{topic}",
        "topics": topic,
        "kafka.bootstrap.servers": KAFKA,
        "checkpoint.location": str(work / "sink-checkpoint"),
        "s3.bucket.name": bucket,
        "s3.region": local_stack.S3_REGION,
        "store.url": local_stack.s3_endpoint(),
        "aws.access.key.id": local_stack.S3_ACCESS_KEY_ID,
        "aws.secret.access.key": local_stack.S3_SECRET_ACCESS_KEY,
        "format.class": "io.confluent.connect.s3.format.json.JsonFormat",
        "value.converter": "org.apache.kafka.connect.json.JsonConverter",
        "value.converter.schemas.enable": "false",
        "flush.size": str(FLUSH),
        "trigger": "5 seconds",
    }
    source = {k: v for k, v in sink.items() if k not in ("topics", "flush.size")}
    source.update({
        "name": f"soak-source-{topic}",
        "checkpoint.location": str(work / "source-checkpoint"),
        "trigger": "5 seconds",
    })  # fmt: skip
    return sink, source


def broker_bounce(outage: float = 10.0) -> None:
    """Stop the stack's Kafka broker for ``outage`` seconds and start it again."""
    local_stack.stop("kafka")
    time.sleep(outage)
    local_stack.start("kafka")


def run_faults(sink: Query, source: Query, args: argparse.Namespace) -> dict[str, int]:
    """The fault schedule until ``--minutes`` are up; returns how many of each were injected."""
    end = time.monotonic() + args.minutes * 60
    next_kill = time.monotonic() + args.kill_every
    next_bounce = time.monotonic() + args.broker_every
    bounces, turn = 0, 0
    while time.monotonic() < end:
        time.sleep(1)
        sink.keep_running()
        source.keep_running()
        now = time.monotonic()
        if now >= next_kill:
            victim = (sink, source)[turn % 2]
            print(f"  {time.strftime('%H:%M:%S')} SIGKILL {victim.command}")
            victim.kill()
            turn, next_kill = turn + 1, now + args.kill_every
        if now >= next_bounce:
            print(f"  {time.strftime('%H:%M:%S')} broker stopped for 10 s")
            broker_bounce()
            bounces, next_bounce = bounces + 1, time.monotonic() + args.broker_every
    return {"broker_restarts": bounces}


def drain(sink: Query, source: Query, s3: Any, bucket: str, feed: Feed, copy: str) -> float:
    """Keep both queries running until S3 and the copy topic hold every record; seconds taken."""
    started, total = time.monotonic(), sum(feed.sent)
    while time.monotonic() - started < 900:
        sink.keep_running()
        source.keep_running()
        _, stored = read_bucket(s3, bucket)
        in_s3 = sum(len(set(v)) for v in stored.values())
        published = _published(copy)
        if in_s3 >= total and published >= in_s3:
            return time.monotonic() - started
        time.sleep(10)
    raise SystemExit("the sink and source did not catch up within 15 minutes")


def _published(topic: str) -> int:
    consumer = Consumer({"bootstrap.servers": KAFKA, "group.id": "soak-watermarks"})
    try:
        meta = consumer.list_topics(topic, timeout=30).topics.get(topic)
        if meta is None or meta.error is not None:
            return 0
        return sum(
            consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=30)[1]
            for p in meta.partitions
        )
    finally:
        consumer.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--rate", type=float, default=200, help="records/s produced")
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--kill-every", type=float, default=150, help="seconds between SIGKILLs")
    parser.add_argument("--broker-every", type=float, default=420, help="seconds between restarts")
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()

    run_id = uuid.uuid4().hex[:8]
    topic, bucket, work = f"soak-{run_id}", f"soak-{run_id}", Path(tempfile.mkdtemp("-soak"))
    s3 = boto3.client(
        "s3", endpoint_url=local_stack.s3_endpoint(), region_name=local_stack.S3_REGION,
        aws_access_key_id=local_stack.S3_ACCESS_KEY_ID,
        aws_secret_access_key=local_stack.S3_SECRET_ACCESS_KEY,
    )  # fmt: skip
    s3.create_bucket(Bucket=bucket)
    make_topic(topic, args.partitions)
    sink_config, source_config = configs(topic, bucket, work)
    sink = Query("sink", sink_config, work, args.master)
    source = Query("source", source_config, work, args.master)
    feed = Feed(topic, args.partitions, args.rate)
    print(f"soak {run_id}: {args.minutes} min, {args.rate} records/s, work folder {work}")
    started = time.monotonic()
    feed.start()
    sink.start()
    source.start()
    faults = run_faults(sink, source, args)
    feed.finish()
    drain_s = drain(sink, source, s3, bucket, feed, f"copy_of_{topic}")
    sink.stop()
    source.stop()
    report = _report(s3, bucket, topic, feed, sink, source, faults)
    report.update(minutes=args.minutes, rate=args.rate, drain_seconds=round(drain_s, 1),
                  wall_seconds=round(time.monotonic() - started, 1))  # fmt: skip
    print(json.dumps(report, indent=2))
    out = ROOT / "bench" / "results" / "soak.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    ok = report["sink"]["lost"] == report["sink"]["duplicated"] == report["source"]["lost"] == 0
    return 0 if ok else 1


def _report(
    s3: Any, bucket: str, topic: str, feed: Feed, sink: Query, source: Query, faults: dict[str, int]
) -> dict[str, Any]:
    """What came out, against what went in, per connector, summed over the partitions."""
    objects, stored = read_bucket(s3, bucket)
    published = read_topic(f"copy_of_{topic}")
    totals: dict[str, dict[str, int]] = {}
    for name, got, dups in (("sink", stored, False), ("source", published, True)):
        sums: Counter[str] = Counter()
        for p in range(feed.partitions):
            sums.update(check(got.get(p, []), feed.sent[p], duplicates_allowed=dups))
            sums["records"] += len(got.get(p, []))
        totals[name] = {k: sums[k] for k in ("records", "lost", "duplicated", "order_breaks")}
    return {
        "records_produced": sum(feed.sent),
        "objects": objects,
        "sink": {**totals["sink"], "sigkills": sink.kills, "exited_by_itself": sink.exits},
        "source": {**totals["source"], "sigkills": source.kills, "exited_by_itself": source.exits},
        **faults,
    }


if __name__ == "__main__":
    sys.exit(main())
