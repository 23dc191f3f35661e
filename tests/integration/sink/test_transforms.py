"""Single message transforms in the sink, on the real stack: a chain with a predicate, a filter,
field masking, a header and a topic rename; a record a transform fails on goes to the DLQ."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer

from tests.integration.sinkhelp import objects, run, sink_keys

pytestmark = pytest.mark.integration

T0 = 1_710_036_300_000
KAFKA_TRANSFORMS = "org.apache.kafka.connect.transforms"


def _chain(dlq_topic: str) -> dict[str, str]:
    return {
        "transforms": "drafts,mask,cast,route",
        "transforms.drafts.type": f"{KAFKA_TRANSFORMS}.Filter",
        "transforms.drafts.predicate": "isDraft",
        "transforms.mask.type": f"{KAFKA_TRANSFORMS}.MaskField$Value",
        "transforms.mask.fields": "ssn",
        "transforms.cast.type": f"{KAFKA_TRANSFORMS}.Cast$Value",
        "transforms.cast.spec": "amount:float64",
        "transforms.route.type": f"{KAFKA_TRANSFORMS}.RegexRouter",
        "transforms.route.regex": "(.*)",
        "transforms.route.replacement": "archive-$1",
        "predicates": "isDraft",
        "predicates.isDraft.type": f"{KAFKA_TRANSFORMS}.predicates.HasHeaderKey",
        "predicates.isDraft.name": "draft",
        "errors.tolerance": "all",
        "errors.deadletterqueue.topic.name": dlq_topic,
        "errors.deadletterqueue.topic.replication.factor": "1",
        "errors.deadletterqueue.context.headers.enable": "true",
    }


def test_a_transform_chain_filters_masks_renames_and_dead_letters(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, consume: Any,
    dlq_topic: str, tmp_path: Path,
) -> None:  # fmt: skip
    t = make_topic("orders")
    for i in range(8):
        value = {"id": i, "ssn": f"123-45-{i:04d}", "amount": "x" if i == 5 else str(i * 10)}
        headers = [("draft", b"yes")] if i in (2, 3) else []
        producer.produce(t, value=json.dumps(value).encode(), partition=0, timestamp=T0 + i,
                         headers=headers)  # fmt: skip
    assert producer.flush(30) == 0

    summary = run(spark, sink_keys(t, bucket, tmp_path, **_chain(dlq_topic)))

    # Offsets 2 and 3 are drafts (filtered), 5 fails Cast (dead letter): files of 3 from the
    # others, named after the renamed topic; their start offsets are the records' own.
    got = {k: [json.loads(line) for line in v.decode().splitlines()] for k, v in
           objects(s3, bucket).items()}  # fmt: skip
    new = f"archive-{t}"
    assert got == {
        f"topics/{new}/partition=0/{new}+0+0000000000.json": [
            {"id": 0, "ssn": "", "amount": 0.0},
            {"id": 1, "ssn": "", "amount": 10.0},
            {"id": 4, "ssn": "", "amount": 40.0},
        ],
    }  # 6 and 7 wait in an open file (flush.size=3)
    assert summary.dead_letters == 1

    [letter] = consume(dlq_topic, 1)
    headers = dict(letter.headers())
    assert json.loads(letter.value())["amount"] == "x"  # the original record, as consumed
    assert headers["__connect.errors.stage"] == b"TRANSFORMATION"
    assert headers["__connect.errors.class.name"] == f"{KAFKA_TRANSFORMS}.Cast$Value".encode()
    assert headers["__connect.errors.offset"] == b"5"
    assert headers["__connect.errors.topic"] == t.encode()
