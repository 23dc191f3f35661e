"""What a user is told when a run fails: one short message (what failed, where, what to change)
and an exit code per kind of failure; the full trace goes to the run's log file.

- 0: success;
- 1: an internal error (a bug: please report it with the log file);
- 2: an invalid config (``ConfigError``), or a local path, the checkpoint above all, that cannot
  be written (read-only, no permission, no space left);
- 3: a record could not be handled (``RecordError``: conversion, partitioning, schema
  projection, transformation, null values);
- 4: S3: an object could not be written or read (``StorageError``, ``SourceObjectError``);
- 5: Kafka or the Schema Registry (``DestinationError``, ``SchemaRegistryError``, Kafka's
  client errors).
"""

from __future__ import annotations

import os
import re
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
    hint: str | None = None
    """What to change, when more precise than the code's general hint."""

    def message(self, command: str, log_file: Path | None) -> str:
        """The lines shown to the user (the trace is in ``log_file``)."""
        lines = [f"s3connect {command} failed: {self.what}", f"  {self.cause}"]
        lines.append(f"  what to do: {self.hint or _HINTS[self.code]}")
        if log_file is not None:
            lines.append(f"  full trace: {log_file} (or run with --verbose)")
        return "\n".join(lines)


def describe_failure(exc: BaseException, checkpoint: str | None = None) -> Failure:
    """The kind, headline and cause of ``exc`` (a query failure is described by the error that
    stopped it); ``checkpoint`` (the run's ``checkpoint.location``) is named when a local
    write failed."""
    failure = _describe(exc)
    if failure.code == ExitCode.INTERNAL:
        details = exc.details if isinstance(exc, QueryFailedError) else ""
        return _local_write_failure(f"{exc}\n{details}", checkpoint) or failure
    return failure


def _describe(exc: BaseException) -> Failure:
    if isinstance(exc, QueryFailedError):
        return _from_query(exc)
    for cls, code, what in _BY_CLASS:
        if isinstance(exc, cls):
            return Failure(code, what, _one_line(str(exc)) if code != ExitCode.CONFIG else str(exc))
    return Failure(ExitCode.INTERNAL, "internal error", f"{type(exc).__name__}: {exc}")


_FS_REASON = (
    r"Read-only file system|Permission denied|Operation not permitted|No space left on device"
    r"|Disk quota exceeded"
)
# The JVM's "<path> (<reason>)" and Python's "[Errno n] <reason>: '<path>'"; Hadoop's
# "java.io.IOException: No space left on device" names no path.
_FS_PATH = re.compile(rf"(/[^\s()']+) \(({_FS_REASON})\)|\[Errno \d+\] ({_FS_REASON}): '([^']+)'")
_FS_ERROR = re.compile(_FS_REASON)


def _local_write_failure(text: str, checkpoint: str | None) -> Failure | None:
    """A failure to write a local file (the checkpoint, most likely), or None: exit code 2,
    since the remedy is to fix where ``checkpoint.location`` points, then run again."""
    found = _FS_PATH.search(text)
    if found is not None:
        path, reason = found.group(1) or found.group(4), found.group(2) or found.group(3)
    else:
        error = _FS_ERROR.search(text)
        if error is None:
            return None
        path, reason = None, error.group(0)
    folder = os.path.abspath(re.sub(r"^file:/*", "/", checkpoint)) if checkpoint else None
    if path is not None and folder is not None and path.startswith(folder.rstrip("/") + "/"):
        what = "the checkpoint could not be written"
    else:
        what = "a local file could not be written"
    where = f"checkpoint.location {checkpoint}" if checkpoint else "checkpoint.location"
    hint = (
        f"give {where} (or the path named above) write access and free space, then run again "
        "with the same checkpoint.location: the run resumes from its last committed micro-batch "
        "and loses nothing (a new checkpoint.location would start over from starting.offsets)"
    )
    line = next(line for line in text.splitlines() if reason in line)
    cause = f"{path}: {reason}" if path else _one_line(line)
    return Failure(ExitCode.CONFIG, f"{what} ({reason})", cause, hint)


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
