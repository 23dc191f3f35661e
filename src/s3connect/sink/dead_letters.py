"""Dead letters: records the sink could not convert, partition or write (``errors.tolerance=all``).

Kafka Connect's ``DeadLetterQueueReporter`` sends such a record to the DLQ topic with its original
key, value, headers and timestamp, and, with ``errors.deadletterqueue.context.headers.enable``,
adds the context headers below (values are UTF-8 text). This module holds the pure part: what a
dead letter carries and its headers; :mod:`s3connect.spark.dead_letter_queue` publishes them.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from s3connect.connect.records import Header
from s3connect.errors import RecordError, record_place

if TYPE_CHECKING:
    from s3connect.connect.records import RawRecord

__all__ = [
    "CONTEXT_HEADERS",
    "DEAD_LETTER_COLUMNS",
    "DLQ_TABLE_SCHEMA",
    "DeadLetter",
    "DlqRecord",
    "context_headers",
    "dead_letter_row",
    "dlq_record",
    "failure_error",
    "java_stacktrace",
    "log_message",
]

_PREFIX = "__connect.errors."
CONTEXT_HEADERS = tuple(
    _PREFIX + name
    for name in (
        "topic",
        "partition",
        "offset",
        "connector.name",
        "task.id",
        "stage",
        "class.name",
        "exception.class.name",
        "exception.message",
        "exception.stacktrace",
    )
)
"""Kafka Connect's DLQ context header names, in the order it adds them."""


@dataclass(frozen=True, slots=True)
class DeadLetter:
    """One failed record as consumed, with where and why it failed.

    Attributes:
        raw: The original Kafka record (bytes, headers, timestamp).
        stage: Kafka Connect's stage (``KEY_CONVERTER``, ``VALUE_CONVERTER``,
            ``HEADER_CONVERTER``, ``TASK_PUT``).
        class_name: The class that failed at that stage (converter or sink task).
        exception_class: The error's qualified class name.
        message: The error message (names topic, partition and offset); empty for an error
            without one (Java's null ``getMessage()``).
        stacktrace: The error as Java's ``printStackTrace`` prints it (:func:`java_stacktrace`).
    """

    raw: RawRecord
    stage: str
    class_name: str
    exception_class: str
    message: str
    stacktrace: str

    @classmethod
    def of(cls, raw: RawRecord, error: RecordError) -> DeadLetter:
        """The dead letter of ``raw`` failing with ``error``."""
        return cls(
            raw=raw,
            stage=error.stage,
            class_name=error.class_name,
            exception_class=_class_name(error),
            message=str(error),
            stacktrace=java_stacktrace(error),
        )


def _class_name(error: BaseException) -> str:
    """The error's qualified class name (a built-in's bare, as Python prints it)."""
    kind = type(error)
    module = kind.__module__
    return kind.__qualname__ if module == "builtins" else f"{module}.{kind.__qualname__}"


def java_stacktrace(error: BaseException) -> str:
    """``error`` as Java's ``Throwable.printStackTrace`` prints one: ``<class>: <message>``
    (the class alone without a message), its frames innermost first
    (``\tat module.function(file.py:12)``), then each cause (``Caused by: ...``)."""
    lines: list[str] = []
    seen: set[int] = set()
    current: BaseException | None = error
    prefix = ""
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        text = str(current)
        lines.append(f"{prefix}{_class_name(current)}{': ' + text if text else ''}\n")
        frames = list(traceback.walk_tb(current.__traceback__))
        for frame, lineno in reversed(frames):
            module = frame.f_globals.get("__name__", "?")
            where = f"{os.path.basename(frame.f_code.co_filename)}:{lineno}"
            lines.append(f"\tat {module}.{frame.f_code.co_qualname}({where})\n")
        prefix = "Caused by: "
        cause = current.__cause__
        current = (
            cause if cause is not None or current.__suppress_context__ else current.__context__
        )
    return "".join(lines)


def context_headers(letter: DeadLetter, connector_name: str, task_id: int = 0) -> list[Header]:
    """Kafka Connect's ``__connect.errors.*`` headers for ``letter`` (``DeadLetterQueueReporter
    .populateContextHeaders``), in its order, as UTF-8 bytes; an error without a message has a
    null ``exception.message``."""
    raw = letter.raw
    values = (
        raw.topic,
        str(raw.partition),
        str(raw.offset),
        connector_name,
        str(task_id),
        letter.stage,
        letter.class_name,
        letter.exception_class,
        letter.message or None,
        letter.stacktrace,
    )
    return [
        (name, None if value is None else value.encode("utf-8"))
        for name, value in zip(CONTEXT_HEADERS, values, strict=True)
    ]


@dataclass(frozen=True, slots=True)
class DlqRecord:
    """What ``DeadLetterQueueReporter.report`` sends for a dead letter: the original key, value
    and headers (then the context headers, when enabled), and its timestamp (None: the
    record had none, the producer stamps it)."""

    topic: str
    key: bytes | None
    value: bytes | None
    headers: list[Header]
    timestamp: int | None


def dlq_record(
    letter: DeadLetter, topic: str, connector_name: str, *, context: bool, task_id: int = 0
) -> DlqRecord:
    """The record sent to the DLQ ``topic`` for ``letter``; ``context``:
    ``errors.deadletterqueue.context.headers.enable`` (the headers are appended to the
    record's own, even where these have the same names)."""
    raw = letter.raw
    headers = list(raw.headers)
    if context:
        headers += context_headers(letter, connector_name, task_id)
    timestamp = raw.timestamp if raw.timestamp is not None and raw.timestamp >= 0 else None
    return DlqRecord(topic, raw.key, raw.value, headers, timestamp)


def log_message(
    letter: DeadLetter, connector_name: str, *, include_messages: bool, task_id: int = 0
) -> str:
    """``LogReporter.message``: ``Error encountered in task <name>-<task>. Executing stage
    '<stage>' with class '<class>'.``; ``errors.log.include.messages`` adds where the record
    was consumed (never its key, value or headers)."""
    text = (
        f"Error encountered in task {connector_name}-{task_id}. Executing stage "
        f"'{letter.stage}' with class '{letter.class_name}'"
    )
    if include_messages:
        raw = letter.raw
        text += (
            f", where consumed record is {{topic='{raw.topic}', partition={raw.partition}, "
            f"offset={raw.offset}"
            + ("" if raw.timestamp is None or raw.timestamp < 0 else f", timestamp={raw.timestamp}")
            + "}"
        )
    return text + "."


def failure_error(letter: DeadLetter) -> RecordError:
    """The error that fails the batch once ``letter`` is reported under ``errors.tolerance=none``
    (Kafka Connect's "Tolerance exceeded in error handler"), saying what to change."""
    raw = letter.raw
    reason = letter.message.removesuffix(" " + record_place(raw.topic, raw.partition, raw.offset))
    hint = "set errors.tolerance=all to skip such records into the dead letter queue"
    if reason == "Skipping null value record.":
        reason = "a null (tombstone) value skipped by behavior.on.null.values=ignore"
        hint += ", or report.null.values.to.dlq=false to skip null values silently"
    return RecordError(
        f"Tolerance exceeded in error handler: {reason}; the record was reported (dead letter "
        f"queue / error log) and errors.tolerance=none stops the sink on it; {hint}",
        topic=raw.topic,
        partition=raw.partition,
        offset=raw.offset,
        stage=letter.stage,
        class_name=letter.class_name,
    )


DEAD_LETTER_COLUMNS: Mapping[str, str] = {
    "offset": "LONG",
    "timestamp": "LONG",
    "key": "BINARY",
    "value": "BINARY",
    "header_keys": "ARRAY<STRING>",
    "header_values": "ARRAY<BINARY>",
    "stage": "STRING",
    "class_name": "STRING",
    "exception_class": "STRING",
    "exception_message": "STRING",
    "exception_stacktrace": "STRING",
}
"""Columns of a dead-letter row of the processor output (besides ``topic`` and ``partition``)."""

DLQ_TABLE_SCHEMA = (
    "topic STRING, partition INT, offset LONG, timestamp TIMESTAMP, key BINARY, value BINARY, "
    "headers ARRAY<STRUCT<key: STRING, value: BINARY>>, stage STRING, class_name STRING, "
    "exception_class STRING, exception_message STRING, exception_stacktrace STRING, "
    "connector_name STRING, failed_at TIMESTAMP"
)


def dead_letter_row(letter: DeadLetter) -> dict[str, Any]:
    """The processor-output row of ``letter``."""
    raw = letter.raw
    return {
        "topic": raw.topic,
        "partition": raw.partition,
        "offset": raw.offset,
        "timestamp": raw.timestamp,
        "key": raw.key,
        "value": raw.value,
        "header_keys": [k for k, _ in raw.headers],
        "header_values": [v for _, v in raw.headers],
        "stage": letter.stage,
        "class_name": letter.class_name,
        "exception_class": letter.exception_class,
        "exception_message": letter.message,
        "exception_stacktrace": letter.stacktrace,
    }


def dead_letter_from_row(row: Mapping[str, Any]) -> DeadLetter:
    from s3connect.connect.records import RawRecord

    keys = row["header_keys"] or []
    values = row["header_values"] or []
    raw = RawRecord(
        topic=row["topic"],
        partition=int(row["partition"]),
        offset=int(row["offset"]),
        timestamp=row["timestamp"],
        key=None if row["key"] is None else bytes(row["key"]),
        value=None if row["value"] is None else bytes(row["value"]),
        headers=tuple(
            (k, None if v is None else bytes(v)) for k, v in zip(keys, values, strict=True)
        ),
    )
    return DeadLetter(
        raw=raw,
        stage=row["stage"],
        class_name=row["class_name"],
        exception_class=row["exception_class"],
        message=row["exception_message"],
        stacktrace=row["exception_stacktrace"],
    )
