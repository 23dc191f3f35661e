"""What a user is told when a run fails: one short message (what failed, where, what to change)
and an exit code per kind of failure; the full trace goes to the run's log file.

- 0: success;
- 1: an internal error (a bug: please report it with the log file);
- 2: an invalid config (``ConfigError``);
- 3: a record could not be handled (``RecordError``: conversion, partitioning, schema
  projection, transformation, null values);
- 4: S3: an object could not be written or read (``StorageError``, ``SourceObjectError``);
- 5: Kafka or the Schema Registry (``DestinationError``, ``SchemaRegistryError``, Kafka's
  client errors).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path

from s3connect.errors import (
    ConfigError,
    DestinationError,
    QueryFailedError,
    RecordError,
    SchemaRegistryError,
    SourceObjectError,
    StorageError,
)

__all__ = ["ExitCode", "Failure", "describe_failure"]


class ExitCode(IntEnum):
    """The console script's exit codes (see the module docstring)."""

    OK = 0
    INTERNAL = 1
    CONFIG = 2
    RECORD = 3
    STORAGE = 4
    KAFKA = 5


_HINTS = {
    ExitCode.CONFIG: "fix the keys named above (s3connect validate --config FILE checks a config "
    "without starting Spark)",
    ExitCode.RECORD: "fix the record's producer or the key named above, or let such records go "
    "to a dead letter queue: errors.tolerance=all with errors.deadletterqueue.topic.name "
    "(or dlq.table); a rerun resumes from the failed micro-batch",
    ExitCode.STORAGE: "check s3.bucket.name, store.url, s3.region and the credentials "
    "(aws.access.key.id / the default chain / s3.credentials.provider.class)",
    ExitCode.KAFKA: "check kafka.bootstrap.servers, the kafka.* security keys and, for the "
    "Schema Registry converters, *.converter.schema.registry.url",
    ExitCode.INTERNAL: "this is a bug in s3connect: please report it with the log file",
}

_BY_CLASS: tuple[tuple[type[BaseException], ExitCode, str], ...] = (
    (ConfigError, ExitCode.CONFIG, "invalid config"),
    (RecordError, ExitCode.RECORD, "a record could not be handled"),
    (SchemaRegistryError, ExitCode.KAFKA, "the Schema Registry could not be used"),
    (StorageError, ExitCode.STORAGE, "S3 could not be used"),
    (SourceObjectError, ExitCode.STORAGE, "an S3 object could not be read"),
    (DestinationError, ExitCode.KAFKA, "a destination topic could not be used"),
)
# Errors raised in Spark tasks reach the driver as text: their class names.
_BY_NAME = {cls.__name__: (code, what) for cls, code, what in _BY_CLASS}
_RECORD_KINDS = (
    "ConversionError",
    "PartitionError",
    "SchemaProjectionError",
    "TransformationError",
)


@dataclass(frozen=True)
class Failure:
    """What to print for a failed run."""

    code: ExitCode
    what: str
    cause: str

    def message(self, command: str, log_file: Path | None) -> str:
        """The lines shown to the user (the trace is in ``log_file``)."""
        lines = [f"s3connect {command} failed: {self.what}", f"  {self.cause}"]
        lines.append(f"  what to do: {_HINTS[self.code]}")
        if log_file is not None:
            lines.append(f"  full trace: {log_file} (or run with --verbose)")
        return "\n".join(lines)


def describe_failure(exc: BaseException) -> Failure:
    """The kind, headline and cause of ``exc`` (a query failure is described by the error that
    stopped it)."""
    if isinstance(exc, QueryFailedError):
        return _from_query(exc)
    for cls, code, what in _BY_CLASS:
        if isinstance(exc, cls):
            return Failure(code, what, _one_line(str(exc)) if code != ExitCode.CONFIG else str(exc))
    return Failure(ExitCode.INTERNAL, "internal error", f"{type(exc).__name__}: {exc}")


def _from_query(exc: QueryFailedError) -> Failure:
    name = (exc.error_class or "").rsplit(".", 1)[-1]
    if name in _RECORD_KINDS:
        name = "RecordError"
    if exc.error_class and exc.error_class.startswith("s3connect.") and name in _BY_NAME:
        code, what = _BY_NAME[name]
        return Failure(code, f"{what} ({exc.error_class})", _one_line(exc.cause))
    if exc.error_class and exc.error_class.startswith("org.apache.kafka."):
        return Failure(ExitCode.KAFKA, f"Kafka ({exc.error_class})", _one_line(exc.cause))
    if exc.error_class and "s3" in exc.error_class.lower():
        return Failure(ExitCode.STORAGE, f"S3 ({exc.error_class})", _one_line(exc.cause))
    return Failure(ExitCode.INTERNAL, f"the {exc.what} query failed", _one_line(str(exc)))


def _one_line(text: str, limit: int = 600) -> str:
    """The first line of ``text``, shortened to ``limit`` characters."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"
