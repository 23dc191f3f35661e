"""Driving a started streaming query to its end and reporting its progress: the one loop the sink
and the source share. Progress lines go to the ``s3connect`` logger (the CLI and the notebooks
print them)."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pyspark.errors import StreamingQueryException

from s3connect.errors import QueryFailedError

if TYPE_CHECKING:
    from pyspark.sql.streaming.query import StreamingQuery

__all__ = ["BatchProgress", "await_query", "query_failure"]

logger = logging.getLogger(__name__)

BatchProgress = Mapping[str, Any]
"""One entry of ``StreamingQuery.recentProgress`` (Spark's ``StreamingQueryProgress`` as JSON)."""


def await_query(
    query: StreamingQuery,
    on_batch: Callable[[BatchProgress], None],
    *,
    what: str,
    timeout_s: float | None = None,
) -> None:
    """Wait until ``query`` stops (or ``timeout_s``), calling ``on_batch`` once per completed
    micro-batch, in order.

    Args:
        query: The started query.
        on_batch: Reports one micro-batch's progress.
        what: Names the query in the error (``sink``, ``source``).
        timeout_s: Stop the query after this long.

    Raises:
        QueryFailedError: the query failed, naming the error raised in a task, if any.
    """
    seen = -1
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    try:
        while query.isActive and (deadline is None or time.monotonic() < deadline):
            try:
                query.awaitTermination(1)
            except StreamingQueryException:
                break  # reported below from query.exception()
            seen = _report(query, seen, on_batch)
        _report(query, seen, on_batch)
    finally:
        if query.isActive:
            query.stop()
    exc = query.exception()
    if exc is not None:
        raise query_failure(what, exc) from None


def _report(query: StreamingQuery, seen: int, on_batch: Callable[[BatchProgress], None]) -> int:
    """Report the batches after ``seen``; the last batch id reported."""
    for progress in query.recentProgress:
        batch = int(progress["batchId"])
        if batch > seen:
            on_batch(progress)
            seen = batch
    return seen


_OURS = re.compile(r"^s3connect\.errors\.(\w+): (.*)$", re.MULTILINE)
_JAVA = re.compile(
    r"^((?:org\.apache|java|com|io)\.[\w.$]+(?:Exception|Error)): ?(.*)$", re.MULTILINE
)


def query_failure(what: str, exc: Any) -> QueryFailedError:
    """The query's error: the s3connect error raised in a Python worker (its line names topic,
    partition and offset, or the object key) when there is one, else the first Java error."""
    text = str(exc)
    ours = _OURS.search(text)
    if ours is not None:
        error_class = f"s3connect.errors.{ours.group(1)}"
        return QueryFailedError(what, ours.group(2), error_class=error_class, details=text)
    java = _JAVA.search(text)
    if java is not None:
        return QueryFailedError(what, java.group(2), error_class=java.group(1), details=text)
    first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    return QueryFailedError(what, first, details=text)
