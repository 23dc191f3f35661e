"""Running the sink or the source from a notebook as the CLI runs them: Spark's own log lines
and the traces in the run's log file (on the console with the ``verbose`` widget), and a failure
shown as one short message, raised as :class:`RunFailed` so that a job fails with it."""

from __future__ import annotations

import logging
import os
import sys
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from s3connect.app.failures import describe_failure
from s3connect.app.logs import configure_logging, run_log_path
from s3connect.errors import QueryFailedError
from s3connect.spark.session import LOG_FILE_ENV, VERBOSE_ENV, get_spark, on_databricks

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["RunFailed", "run_in_notebook"]

T = TypeVar("T")
logger = logging.getLogger(__name__)


class RunFailed(Exception):
    """A notebook's run failed; the message says what, where and what to change."""


def run_in_notebook(command: str, run: Callable[[SparkSession], T], *, verbose: bool) -> T:
    """``run(spark)`` with the run's logging set up as the CLI's.

    Raises:
        RunFailed: the run failed; the message (also printed) names the log file.
    """
    log_file = run_log_path(command)
    if not on_databricks():  # a cluster's Spark keeps its own logging
        os.environ[LOG_FILE_ENV] = str(log_file)
        os.environ[VERBOSE_ENV] = "1" if verbose else "0"
    configure_logging(verbose, log_file)
    try:
        return run(get_spark(f"s3connect-{command}"))
    except Exception as exc:
        failure = describe_failure(exc)
        details = exc.details if isinstance(exc, QueryFailedError) else ""
        trace = "".join(traceback.format_exception(exc))
        logger.debug("%s failed:\n%s\n%s", command, trace, details)
        message = failure.message(command, log_file)
        print(message, file=sys.stderr)
        raise RunFailed(message) from None
