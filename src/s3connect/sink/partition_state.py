"""Open-file state of each topic-partition in the checkpoint, keyed by Kafka offset.

The shuffle-free sink (see :mod:`s3connect.sink.task`) writes each topic-partition in the Spark
task that reads it, so no state store travels with the task. After a micro-batch, that task
saves the rotator state and the records of still-open files as
``<root>/<topic>/<partition>/<next>.state``, where ``<next>`` is one past the last offset it
handled. The task of the next micro-batch, whose first record has offset ``f``, loads the state
with the greatest ``<next>`` at or below ``f``.

Why this is exactly-once: Spark logs a micro-batch's offset ranges before running it and replays
the same ranges after a crash, so a replayed task loads the same state (the one it wrote is named
past its own first offset) and writes identical files and an identical new state. A state is
deleted only once a later micro-batch has loaded its successor, which Spark starts only after the
earlier micro-batch committed. A state file appears atomically (written aside, then renamed).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from s3connect.sink.rotation import RotatorState

__all__ = ["PartitionStateStore", "SavedState", "local_state_root"]

_NAME = re.compile(r"^(\d{20})\.state$")
_MAGIC = b"S3CS2\n"


def local_state_root(checkpoint_location: str) -> Path | None:
    """Where the state files go inside ``checkpoint.location``; None when it is not a path the
    tasks can reach as files (a local path, ``file:``, or ``dbfs:`` through ``/dbfs``)."""
    location = checkpoint_location
    if location.startswith("file:"):
        location = re.sub(r"^file:(//)?", "", location)
        location = "/" + location.lstrip("/")
    elif location.startswith("dbfs:"):
        location = "/dbfs/" + location[len("dbfs:") :].lstrip("/")
    elif re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", location):
        return None
    return Path(location) / "s3connect-state"


@dataclass(frozen=True, slots=True)
class SavedState:
    """A loaded state: the rotator's, the still-open records (encoded pending chunks, in offset
    order), and the next offset it was saved at."""

    rotator: RotatorState
    chunks: list[bytes]
    next_offset: int


class PartitionStateStore:
    """State files of one sink under ``root`` (see the module docstring)."""

    def __init__(self, root: Path) -> None:
        self._root = root

    def _dir(self, topic: str, partition: int) -> Path:
        return self._root / quote(topic, safe="") / str(partition)

    def load(self, topic: str, partition: int, first_offset: int) -> SavedState | None:
        """The state to resume from before the record at ``first_offset``; None: none yet."""
        directory = self._dir(topic, partition)
        try:
            names = os.listdir(directory)
        except FileNotFoundError:
            return None
        saved = [int(m.group(1)) for m in map(_NAME.match, names) if m]
        candidates = [n for n in saved if n <= first_offset]
        if not candidates:
            return None
        next_offset = max(candidates)
        data = (directory / _file_name(next_offset)).read_bytes()
        if not data.startswith(_MAGIC):
            raise ValueError(f"{directory / _file_name(next_offset)} is not an s3connect state")
        header_end = data.index(b"\n", len(_MAGIC))
        header = json.loads(data[len(_MAGIC) : header_end])
        chunks, at = [], header_end + 1
        for size in header["chunks"]:
            chunks.append(data[at : at + size])
            at += size
        return SavedState(RotatorState.from_dict(header["rotator"]), chunks, next_offset)

    def saved_rotator(
        self, topic: str, partition: int, at_or_below: int
    ) -> tuple[int, RotatorState] | None:
        """Read-only: the next offset and rotator state of the file :meth:`load` would pick for
        ``at_or_below``, without reading its records; None: none. Tolerates a sink running
        beside it (a file deleted between listing and reading is looked for again)."""
        directory = self._dir(topic, partition)
        for _ in range(5):
            try:
                names = os.listdir(directory)
            except FileNotFoundError:
                return None
            saved = [int(m.group(1)) for m in map(_NAME.match, names) if m]
            candidates = [n for n in saved if n <= at_or_below]
            if not candidates:
                return None
            path = directory / _file_name(max(candidates))
            try:
                with path.open("rb") as data:
                    magic, header = data.read(len(_MAGIC)), data.readline()
            except FileNotFoundError:
                continue
            if magic != _MAGIC:
                raise ValueError(f"{path} is not an s3connect state")
            return max(candidates), RotatorState.from_dict(json.loads(header)["rotator"])
        return None

    def save(
        self,
        topic: str,
        partition: int,
        next_offset: int,
        rotator: RotatorState,
        chunks: list[bytes],
        *,
        loaded: int | None,
    ) -> None:
        """Save the state after the record at ``next_offset - 1``; delete the states older than
        ``loaded`` (the one this micro-batch started from, which a replay of it needs).

        ``chunks`` are the open records, encoded: a micro-batch that commits nothing passes the
        loaded chunks on as they are, plus one of its own, so open records are not re-encoded."""
        directory = self._dir(topic, partition)
        directory.mkdir(parents=True, exist_ok=True)
        header = {"rotator": rotator.to_dict(), "chunks": [len(c) for c in chunks]}
        target = directory / _file_name(next_offset)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{uuid.uuid4().hex}", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(_MAGIC + json.dumps(header, separators=(",", ":")).encode() + b"\n")
                for chunk in chunks:
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, target)
        except OSError as exc:  # e.g. a full disk: leave no partial file, name the state file
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise OSError(exc.errno, exc.strerror, str(target)) from exc
        if loaded is None:
            return
        for name in os.listdir(directory):
            m = _NAME.match(name)
            if m and int(m.group(1)) < loaded:
                (directory / name).unlink(missing_ok=True)


def _file_name(next_offset: int) -> str:
    return f"{next_offset:020d}.state"
