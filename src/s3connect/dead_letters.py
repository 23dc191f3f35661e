"""Dead letters: records the sink could not convert, partition or write (``errors.tolerance=all``).

Kafka Connect's ``DeadLetterQueueReporter`` sends such a record to the DLQ topic with its original
key, value, headers and timestamp, and, with ``errors.deadletterqueue.context.headers.enable``,
adds the context headers below (values are UTF-8 text). This module holds the pure part: what a
dead letter carries and its headers; :mod:`s3connect.dead_letter_queue` publishes them.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from typing import TYPE_CHECKING

from s3connect.errors import RecordError
from s3connect.records import Header

if TYPE_CHECKING:
    from s3connect.writer import RawRecord

__all__ = ["CONTEXT_HEADERS", "DeadLetter", "context_headers"]

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
        stage: Kafka Connect's stage (``KEY_CONVERTER``, ``VALUE_CONVERTER``, ``TASK_PUT``).
        class_name: The class that failed at that stage (converter or sink task).
        exception_class: The error's qualified class name.
        message: The error message (names topic, partition and offset).
        stacktrace: The formatted traceback.
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
        kind = type(error)
        return cls(
            raw=raw,
            stage=error.stage,
            class_name=error.class_name,
            exception_class=f"{kind.__module__}.{kind.__qualname__}",
            message=str(error),
            stacktrace="".join(traceback.format_exception(error)),
        )


def context_headers(letter: DeadLetter, connector_name: str, task_id: int = 0) -> list[Header]:
    """Kafka Connect's ``__connect.errors.*`` headers for ``letter``, as UTF-8 bytes."""
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
        letter.message,
        letter.stacktrace,
    )
    return [
        (name, value.encode("utf-8")) for name, value in zip(CONTEXT_HEADERS, values, strict=True)
    ]
