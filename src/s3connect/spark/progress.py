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

if TYPE_CHECKING:
    from pyspark.sql.streaming.query import StreamingQuery

__all__ = ["BatchProgress", "await_query", "failure_text"]

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
        RuntimeError: the query failed; the message leads with the s3connect error, if any.
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
        raise RuntimeError(f"the {what} query failed: {failure_text(exc)}") from None


def _report(query: StreamingQuery, seen: int, on_batch: Callable[[BatchProgress], None]) -> int:
    """Report the batches after ``seen``; the last batch id reported."""
    for progress in query.recentProgress:
        batch = int(progress["batchId"])
        if batch > seen:
            on_batch(progress)
            seen = batch
    return seen


def failure_text(exc: Any) -> str:
    """The query's error, led by the s3connect error line (which names topic, partition and
    offset, or the object key) when it was raised inside a Python worker."""
    text = str(exc)
    ours = re.search(r"^s3connect\.errors\.\w+: .*$", text, re.MULTILINE)
    return f"{ours.group(0)}\n{text}" if ours else text
