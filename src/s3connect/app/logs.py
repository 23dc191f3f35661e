"""Where a run's log lines go when it runs as the CLI or a notebook.

- The ``s3connect`` loggers' records (progress, summaries, dead letters with
  ``errors.log.enable``) are printed on stdout as plain lines; with ``verbose`` also DEBUG ones
  (e.g. each rotation and its reason).
- Everything, ours at DEBUG and Spark's, Hadoop's and py4j's own lines (the JVM's, through the
  log4j2 configuration :func:`s3connect.spark.session.get_spark` writes), goes to the run's log
  file, whose path a failure message names. On the console Spark, Hadoop and py4j stay quiet
  unless ``verbose``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = ["LOG_DIR_ENV", "configure_logging", "console_level", "run_log_path"]

LOG_DIR_ENV = "S3CONNECT_LOG_DIR"
"""Environment variable: the folder of the runs' log files (default: the temp folder's
``s3connect``)."""

_HANDLER_NAME = "s3connect-stdout"
_FILE_HANDLER_NAME = "s3connect-file"
_QUIET = ("py4j", "pyspark")


class _StdoutHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stdout`` is at each record (a notebook cell's or a test's capture
    replaces it; a handler holding the first one would write to a closed stream)."""

    @property
    def stream(self) -> object:
        return sys.stdout

    @stream.setter
    def stream(self, _value: object) -> None:
        pass


def run_log_path(command: str) -> Path:
    """A new log file path for one run of ``command`` (``sink``, ``source``, ...)."""
    folder = Path(os.environ.get(LOG_DIR_ENV) or Path(tempfile.gettempdir()) / "s3connect")
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    return folder / f"{command}-{stamp}-{os.getpid()}.log"


def configure_logging(verbose: bool = False, log_file: Path | None = None) -> None:
    """Print the ``s3connect`` loggers' records on stdout (once per process), and write every
    record to ``log_file`` when given.

    Args:
        verbose: Also print DEBUG records, and py4j's and PySpark's own.
        log_file: The run's log file (see :func:`run_log_path`).
    """
    ours = logging.getLogger("s3connect")
    ours.setLevel(logging.DEBUG if (verbose or log_file is not None) else logging.INFO)
    if not any(h.get_name() == _HANDLER_NAME for h in ours.handlers):
        console = _StdoutHandler()
        console.set_name(_HANDLER_NAME)
        console.setFormatter(logging.Formatter("%(message)s"))
        ours.addHandler(console)
        ours.propagate = False
    for handler in ours.handlers:
        if handler.get_name() == _HANDLER_NAME:
            handler.setLevel(logging.DEBUG if verbose else logging.INFO)
    for name in _QUIET:
        logging.getLogger(name).setLevel(logging.INFO if verbose else logging.ERROR)
    if log_file is not None:
        _add_file(log_file)


def _add_file(log_file: Path) -> None:
    file_handler = logging.FileHandler(log_file, encoding="utf-8")
    file_handler.set_name(_FILE_HANDLER_NAME)
    file_handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in ("s3connect", *_QUIET):
        logger = logging.getLogger(name)
        for old in [h for h in logger.handlers if h.get_name() == _FILE_HANDLER_NAME]:
            logger.removeHandler(old)
        logger.addHandler(file_handler)


@contextlib.contextmanager
def console_level(level: int) -> Iterator[None]:
    """Print only records of ``level`` and above on the console meanwhile (the log file keeps
    every record)."""
    handlers = [h for h in logging.getLogger("s3connect").handlers if h.get_name() == _HANDLER_NAME]
    before = [h.level for h in handlers]
    for handler in handlers:
        handler.setLevel(max(level, handler.level))
    try:
        yield
    finally:
        for handler, old in zip(handlers, before, strict=True):
            handler.setLevel(old)
