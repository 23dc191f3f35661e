"""Driving a started streaming query to its end: the one loop the sink and the source share."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pyspark.errors import StreamingQueryException

if TYPE_CHECKING:
    from pyspark.sql.streaming.query import StreamingQuery

__all__ = ["await_query", "failure_text"]


def await_query(
    query: StreamingQuery,
    show_progress: Callable[[int], int],
    *,
    what: str,
    timeout_s: float | None = None,
) -> None:
    """Wait until ``query`` stops (or ``timeout_s``), showing progress as batches complete.

    Args:
        query: The started query.
        show_progress: Given the last batch id shown, shows newer ones and returns the last.
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
            seen = show_progress(seen)
        show_progress(seen)
    finally:
        if query.isActive:
            query.stop()
    exc = query.exception()
    if exc is not None:
        raise RuntimeError(f"the {what} query failed: {failure_text(exc)}") from None


def failure_text(exc: Any) -> str:
    """The query's error, led by the s3connect error line (which names topic, partition and
    offset, or the object key) when it was raised inside a Python worker."""
    text = str(exc)
    ours = re.search(r"^s3connect\.errors\.\w+: .*$", text, re.MULTILINE)
    return f"{ours.group(0)}\n{text}" if ours else text
