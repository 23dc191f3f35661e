"""Spark's checkpoint logs as files: the offsets and commits logs of a streaming query."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from s3connect.sink.partition_state import local_state_root

__all__ = [
    "CheckpointLog",
    "LoggedBatch",
    "checkpoint_folder",
    "read_checkpoint_log",
]


@dataclass(frozen=True, slots=True)
class LoggedBatch:
    """One micro-batch of Spark's offsets log: its id and its (first) source's offsets JSON."""

    batch_id: int
    offsets: Any


@dataclass(frozen=True, slots=True)
class CheckpointLog:
    """The last committed batch and the one logged after it, not committed yet (in flight)."""

    committed: LoggedBatch | None = None
    in_flight: LoggedBatch | None = None


def checkpoint_folder(location: str) -> Path | None:
    """``checkpoint.location`` as a local folder; None when it cannot be read as files here
    (``s3a://``, ``abfss://``; ``dbfs:`` or ``/Volumes/`` off Databricks)."""
    root = local_state_root(location)
    if root is None:
        return None
    folder = root.parent
    for mount in ("/dbfs", "/Volumes"):
        if folder.parts[:2] == ("/", mount[1:]) and not Path(mount).is_dir():
            return None
    return folder


def _batch_ids(folder: Path) -> list[int]:
    try:
        return sorted(int(name) for name in (p.name for p in folder.iterdir()) if name.isdigit())
    except OSError:  # not there (yet)
        return []


def _read_batch(folder: Path, batch_id: int) -> LoggedBatch | None:
    """The offsets log entry ``batch_id``; None when missing or not (yet) whole."""
    try:
        lines = (folder / "offsets" / str(batch_id)).read_text("utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    if len(lines) < 3 or not lines[0].startswith("v"):
        return None
    text = lines[2].strip()
    try:
        return LoggedBatch(batch_id, None if text == "-" else json.loads(text))
    except ValueError:
        return None


def read_checkpoint_log(folder: Path) -> CheckpointLog:
    """The last committed batch of the checkpoint at ``folder`` and the one in flight."""
    logged = _batch_ids(folder / "offsets")
    last = max(_batch_ids(folder / "commits"), default=-1)
    committed = in_flight = None
    for batch_id in reversed(logged):
        batch = _read_batch(folder, batch_id)
        if batch is None:
            continue
        if batch_id > last:
            in_flight = in_flight or batch
        else:
            committed = batch
            break
    return CheckpointLog(committed, in_flight)


def kafka_offsets_of(batch: LoggedBatch | None) -> dict[tuple[str, int], int]:
    """The Kafka source's next offset per topic-partition in ``batch``."""
    doc = batch.offsets if batch is not None and isinstance(batch.offsets, dict) else {}
    return {(t, int(p)): int(o) for t, parts in doc.items() for p, o in parts.items()}


def batches_line(log: CheckpointLog) -> str:
    if log.committed is None and log.in_flight is None:
        return "batches: none yet (not started)"
    text = "batches: " + (
        f"last committed {log.committed.batch_id}" if log.committed else "none committed yet"
    )
    if log.in_flight is not None:
        text += f"; batch {log.in_flight.batch_id} in flight (offsets logged, not committed)"
    return text
