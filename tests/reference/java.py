"""Kafka Connect's own Java code run beside ours: ``JsonFormatReference.java``,
``TransformReference.java``, ``JodaReference.java`` and ``ValuesReference.java`` compiled once
per build folder against ``.deps/connect-libs`` (``make install``) and fed values on stdin."""

from __future__ import annotations

import base64
import json
import subprocess
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LIBS = ROOT / ".deps" / "connect-libs"
SOURCES = [
    Path(__file__).with_name(n)
    for n in (
        "JsonFormatReference.java",
        "TransformReference.java",
        "JodaReference.java",
        "ValuesReference.java",
    )
]


@cache
def _classes(out: Path) -> str:
    """The classpath of the compiled reference (compiled into ``out`` on first use)."""
    assert any(LIBS.glob("connect-json-*.jar")), f"no Kafka Connect jars in {LIBS}: make install"
    assert any(LIBS.glob("joda-time-*.jar")), f"no Joda-Time jar in {LIBS}: make install"
    classpath = f"{out}:{LIBS}/*"
    subprocess.run(["javac", "-cp", f"{LIBS}/*", "-d", str(out), *map(str, SOURCES)], check=True)
    return classpath


def json_format_lines(
    values: Sequence[bytes | None], build: Path, config: dict[str, str] | None = None
) -> list[bytes | str]:
    """For each value: the line Confluent's JsonFormat writes for it after Kafka's JsonConverter
    (``schemas.enable=false`` unless ``config`` says otherwise; ``format.*`` keys configure the
    format's own converter), or the converter's error text."""
    stdin = "".join("-\n" if v is None else base64.b64encode(v).decode() + "\n" for v in values)
    args = [f"{k}={v}" for k, v in (config or {}).items()]
    done = subprocess.run(
        ["java", "-cp", _classes(build), "JsonFormatReference", *args],
        input=stdin, capture_output=True, text=True, check=True,
    )  # fmt: skip
    out: list[bytes | str] = []
    for line in done.stdout.splitlines():
        status, _, rest = line.partition(" ")
        out.append(base64.b64decode(rest) if status == "OK" else rest)
    assert len(out) == len(values), done.stderr[-2000:]
    return out


def transform_results(
    cases: Sequence[dict[str, Any]], build: Path
) -> list[tuple[str, bytes] | str | None]:
    """For each case (``{"config": {"type": CLASS, ...}, "schemas": bool, "value": JSON}``):
    Kafka's transform applied to the record its JsonConverter reads from ``value``: (topic, the
    value written back by the converter), None when dropped, or the error text."""
    stdin = "".join(base64.b64encode(json.dumps(c).encode()).decode() + "\n" for c in cases)
    done = subprocess.run(
        ["java", "-cp", _classes(build), "TransformReference"],
        input=stdin, capture_output=True, text=True, check=True,
    )  # fmt: skip
    out: list[tuple[str, bytes] | str | None] = []
    for line in done.stdout.splitlines():
        status, _, rest = line.partition(" ")
        if status == "OK":
            topic, _, data = rest.partition(" ")
            out.append((topic, base64.b64decode(data)))
        else:
            out.append(None if status == "DROPPED" else rest)
    assert len(out) == len(cases), done.stderr[-2000:]
    return out


def joda_results(cases: Sequence[Sequence[str | int]], build: Path) -> list[tuple[bool, str]]:
    """For each case, Joda-Time's answer as ``JodaReference`` computes it: (True, the text) or
    (False, "<exception class>: <message>"). A case is ``("F", pattern, zone, locale, millis)``
    (``DateTimeFormat`` printing), ``("P", path_format, duration_ms, zone, locale, millis)``
    (``TimeBasedPartitioner``'s encoded partition), ``("Z", zone, millis)`` (``forID``'s
    ``getID()`` and ``getOffset``, spaced) or ``("I", text)`` (the RecordField extractor's epoch
    millis for a string)."""

    def line(case: Sequence[str | int]) -> str:
        kind, text, *rest = case
        encoded = base64.b64encode(str(text).encode()).decode()
        return "\t".join([str(kind), encoded, *map(str, rest)]) + "\n"

    done = subprocess.run(
        ["java", "-cp", _classes(build), "JodaReference"],
        input="".join(map(line, cases)), capture_output=True, text=True, check=True,
    )  # fmt: skip
    out: list[tuple[bool, str]] = []
    for answer in done.stdout.splitlines():
        status, _, rest = answer.partition(" ")
        out.append((True, base64.b64decode(rest).decode()) if status == "OK" else (False, rest))
    assert len(out) == len(cases), done.stderr[-2000:]
    return out


def values_results(cases: Sequence[tuple[str, str]], build: Path) -> list[str]:
    """For each (op, text), Kafka's ``Values`` answer as ``ValuesReference`` writes it: ``OK
    <result>`` or ``ERR <exception class>: <message>`` (line breaks written ``\\n``)."""
    stdin = "".join(f"{op} {base64.b64encode(text.encode()).decode()}\n" for op, text in cases)
    done = subprocess.run(
        ["java", "-cp", _classes(build), "ValuesReference"],
        input=stdin, capture_output=True, text=True, check=True,
    )  # fmt: skip
    out = done.stdout.splitlines()
    assert len(out) == len(cases), done.stderr[-2000:]
    return out
