"""Kafka's own single message transforms (``connect-transforms`` 4.1.1, in
``.deps/connect-libs``) beside ours on generated records and configs: the same topic and the
same value written back by the JsonConverter, byte for byte (schemaless maps in the order of the
``HashMap`` each transform builds), or an error on both sides."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from s3connect.connect.records import SinkRecord
from s3connect.convert.json import JsonConverter
from s3connect.transforms.chain import build_chain
from tests.reference.java import transform_results
from tests.reference.random_transforms import cases

TIMESTAMP = 1_700_000_000_000
# Kafka's JsonConverter cannot write a schemaless java.util.Date (TimestampConverter to a Date,
# Time or Timestamp without a schema); we write its epoch milliseconds.
REMOVED_LIMIT = "does not have corresponding schema type"
# Java 17's Float.toString is not always the shortest text (JDK-4511638, fixed in Java 19); we
# print what Java 19 and later print, so floats of nine digits are not compared.
JAVA17_FLOAT = re.compile(rb"[0-9]\.[0-9]{8}E")


def ours(case: dict[str, Any]) -> tuple[str, bytes] | str | None:
    config = {"transforms": "t", **{f"transforms.t.{k}": v for k, v in case["config"].items()}}
    converter = JsonConverter(schemas_enable=case["schemas"])
    try:
        chain = build_chain(config, now_ms=TIMESTAMP)
        value, schema = converter.to_connect("topic", json.dumps(case["value"]).encode())
        out = chain.apply(SinkRecord("topic", 0, 42, TIMESTAMP, None, value, None, schema))
        if out is None:
            return None
        data = converter.from_connect(out.topic, out.value_schema, out.value)
        return out.topic, b"null" if data is None else data
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("seed", range(3))
def test_transforms_do_what_kafkas_do(seed: int, tmp_path: Path) -> None:
    generated = cases(seed, 600)
    reference = transform_results(generated, tmp_path)
    compared, mismatched = 0, []
    for case, want in zip(generated, reference, strict=True):
        if isinstance(want, str) and REMOVED_LIMIT in want:
            continue
        if isinstance(want, tuple) and JAVA17_FLOAT.search(want[1]):
            continue
        compared += 1
        got = ours(case)
        if got != want and not (isinstance(got, str) and isinstance(want, str)):
            mismatched.append((case, want, got))
    shown = (
        f"{c['config']}\n  {c['value']}\n  java: {w!r}\n  ours: {g!r}" for c, w, g in mismatched
    )
    assert not mismatched, "\n".join(list(shown)[:4])
    assert compared > 500, compared
