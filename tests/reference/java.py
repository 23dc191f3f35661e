"""Kafka Connect's own Java code run beside ours: ``JsonFormatReference.java`` compiled once per
test session against ``.deps/connect-libs`` (``make install``) and fed values on stdin."""

from __future__ import annotations

import base64
import subprocess
from collections.abc import Sequence
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIBS = ROOT / ".deps" / "connect-libs"
SOURCE = Path(__file__).with_name("JsonFormatReference.java")


@cache
def _classes(out: Path) -> str:
    """The classpath of the compiled reference (compiled into ``out`` on first use)."""
    assert any(LIBS.glob("connect-json-*.jar")), f"no Kafka Connect jars in {LIBS}: make install"
    classpath = f"{out}:{LIBS}/*"
    subprocess.run(["javac", "-cp", f"{LIBS}/*", "-d", str(out), str(SOURCE)], check=True)
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
