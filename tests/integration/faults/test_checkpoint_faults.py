"""The checkpoint cannot be written (read-only, or its file system full): the run fails with exit
code 2 and a message naming the checkpoint and what to change; once that is fixed, a rerun on the
same checkpoint loses nothing (the sink: the objects of a clean run; the source: every record at
least once, in order).

Each fault is a real one, also for root (whom permission bits do not stop): a read-only bind
mount, a small tmpfs filled up. Mounting needs root; without it, "read-only" takes the write
permission away instead, and "full" is skipped.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import json
import logging
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient

from s3connect.app.cli import main as cli_main
from s3connect.app.failures import ExitCode
from tests.integration.faults.faulthelp import (
    duplicates,
    read_topic,
    reference_objects,
    source_config,
)
from tests.integration.sinkhelp import json_values, objects, produce, run, sink_keys

pytestmark = pytest.mark.integration

REASONS = {
    "read-only": ("Read-only file system", "Permission denied"),
    "full": ("No space left on device",),
}


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The console script run in this process (its warm SparkSession): its log files under
    ``tmp_path``, and the ``s3connect`` logger as it was afterwards (the script adds a handler
    on this test's captured stdout)."""
    monkeypatch.setenv("S3CONNECT_LOG_DIR", str(tmp_path / "logs"))
    for name in ("S3CONNECT_LOG_FILE", "S3CONNECT_VERBOSE"):  # the script sets them
        monkeypatch.setenv(name, "")
    logger = logging.getLogger("s3connect")
    handlers, level, propagate = list(logger.handlers), logger.level, logger.propagate
    yield
    for handler in logger.handlers:
        if handler not in handlers:
            handler.close()
    logger.handlers[:] = handlers
    logger.setLevel(level)
    logger.propagate = propagate


def unmount(folder: Path) -> None:
    """Unmount ``folder``; lazily if a file on it is still open (the JVM may keep the file whose
    write failed open until a garbage collection)."""
    if subprocess.run(["umount", str(folder)], capture_output=True).returncode != 0:
        subprocess.run(["umount", "--lazy", str(folder)], check=True)


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """``folder`` and everything under it read-only: a read-only bind mount as root, else no
    write permission on its folders."""
    if os.geteuid() == 0:
        subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True)
        try:
            subprocess.run(["mount", "-o", "remount,ro,bind", str(folder)], check=True)
            yield
        finally:
            unmount(folder)
        return
    folders = [folder, *(p for p in folder.rglob("*") if p.is_dir())]
    for f in folders:
        f.chmod(0o500)
    try:
        yield
    finally:
        for f in folders:
            f.chmod(0o700)


@contextlib.contextmanager
def small_file_system(folder: Path, size: str) -> Iterator[None]:
    """A tmpfs of ``size`` mounted on ``folder`` (needs root)."""
    if os.geteuid() != 0:
        pytest.skip("a full checkpoint is a small tmpfs filled up, and mounting one needs root")
    folder.mkdir(parents=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], check=True)
    try:
        yield
    finally:
        unmount(folder)


def fill(folder: Path, leave: int) -> Path:
    """Fill ``folder``'s file system up, then free ``leave`` bytes; returns the filler file."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    os.truncate(filler, max(0, filler.stat().st_size - leave))
    return filler


def check_message(message: str, checkpoint: Path, fault: str) -> None:
    """The one message of a run that could not write its checkpoint."""
    lines = message.strip().splitlines()
    assert lines[0].startswith("s3connect ") and " failed: " in lines[0], message
    assert any(reason in lines[0] for reason in REASONS[fault]), message
    if str(checkpoint) in lines[1]:  # the failing file is named (the JVM's ENOSPC names none)
        assert "failed: the checkpoint could not be written (" in lines[0], message
    assert lines[2].startswith(f"  what to do: give checkpoint.location {checkpoint} "), message
    assert "run again with the same checkpoint.location" in lines[2], message
    assert lines[3].startswith("  full trace: "), message


@pytest.mark.parametrize("fault", ["read-only", "full"])
@pytest.mark.parametrize(
    "where",
    [
        "checkpoint",  # Spark's offset log fails first, in the driver
        "s3connect-state",  # Spark's logs are written, the state files of the tasks are not
    ],
)
def test_sink_checkpoint_cannot_be_written(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path,
    capsys: pytest.CaptureFixture[str], cli: None, fault: str, where: str,
) -> None:  # fmt: skip
    t = make_topic("ckpt", partitions=2)

    def send(first: int, count: int) -> None:
        # 20 kB of incompressible padding a record: open records make the state files large.
        for p in (0, 1):
            rows = (
                {"p": p, "i": i, "pad": base64.b64encode(os.urandom(15_000)).decode()}
                for i in range(first, first + count)
            )
            produce(producer, t, json_values(rows), partition=p)

    keys = sink_keys(t, bucket, tmp_path, **{"flush.size": "4"})
    checkpoint = tmp_path / "checkpoint"
    config = tmp_path / "sink.json"
    config.write_text(json.dumps(keys))
    command = ["sink", "--config", str(config), "--once"]
    with contextlib.ExitStack() as stack:
        if fault == "full":
            stack.enter_context(small_file_system(checkpoint, "1m"))
        send(0, 6)
        run(spark, keys)  # the object at 0 of each partition; 4 and 5 open in the checkpoint
        send(6, 9)  # the objects at 4 and 8; 12, 13 and 14 open: 60 kB a partition
        capsys.readouterr()
        if fault == "full":
            # With "s3connect-state", room for Spark's logs of the next batch, not for the states.
            filler = fill(checkpoint, 48 * 1024 if where == "s3connect-state" else 0)
            code = cli_main(command)
            filler.unlink()  # the fix: free space
        else:
            with read_only(checkpoint / where if where != "checkpoint" else checkpoint):
                code = cli_main(command)
        message = capsys.readouterr().err
        print(f"\n{fault} {where}: exit {code}\n{message}")
        assert code == ExitCode.CONFIG, message
        check_message(message, checkpoint, fault)
        assert not list((checkpoint / "s3connect-state").rglob("*.tmp"))  # no partial state
        assert cli_main(command) == 0  # the same checkpoint, fixed
    assert objects(s3, bucket) == reference_objects(spark, s3, keys, tmp_path)


def test_source_checkpoint_read_only(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer,
    kafka_admin: AdminClient, tmp_path: Path, capsys: pytest.CaptureFixture[str], cli: None,
) -> None:  # fmt: skip
    t = make_topic("ckptsrc", partitions=2)
    dest = f"copy_of_{t}"
    sent = {p: json_values({"p": p, "i": i} for i in range(12)) for p in (0, 1)}
    for p, values in sent.items():
        produce(producer, t, values[:6], partition=p)
    keys = sink_keys(t, bucket, tmp_path, **{"flush.size": "3"})
    run(spark, keys)
    source = source_config(keys, tmp_path)
    checkpoint = Path(source["checkpoint.location"])
    config = tmp_path / "source.json"
    config.write_text(json.dumps(source))
    command = ["source", "--config", str(config), "--once"]
    try:
        assert cli_main(command) == 0
        for p, values in sent.items():
            produce(producer, t, values[6:], partition=p)
        run(spark, keys)
        capsys.readouterr()
        with read_only(checkpoint):
            code = cli_main(command)
        message = capsys.readouterr().err
        print(f"\nread-only source checkpoint: exit {code}\n{message}")
        assert code == ExitCode.CONFIG, message
        check_message(message, checkpoint, "read-only")
        assert cli_main(command) == 0  # the same checkpoint, writable again
        got = read_topic(dest)
    finally:
        kafka_admin.delete_topics([dest])
    dupes = {p: duplicates(got[p], sent[p]) for p in (0, 1)}  # at least once, in order
    assert dupes == {0: 0, 1: 0}  # the failed batch published nothing
