"""The source's summary from its micro-batches' progress: the counts its tasks return (an
observed metric) give the records per destination, the total and each batch's rate."""

from __future__ import annotations

from typing import Any

from pyspark.sql import Row

from s3connect.source.summary import SourceSummary
from s3connect.spark.source_query import SourceRun


def _progress(batch: int, counts: list[tuple[str, int, int]], millis: int) -> dict[str, Any]:
    rows = [Row(topic=t, partition=p, records=n) for t, p, n in counts]
    return {
        "batchId": batch,
        "numInputRows": len(rows),  # rows of counts, not records
        "durationMs": {"triggerExecution": millis},
        "observedMetrics": {"published": Row(counts=rows)},
    }


def test_counts_give_records_per_destination_total_and_rate() -> None:
    run = SourceRun(query=None, summary=SourceSummary())  # type: ignore[arg-type]
    run.count_batch(_progress(0, [("copy_of_a", 0, 300), ("copy_of_a", 1, 100)], 2000))
    run.count_batch(_progress(1, [], 50))  # a batch that found nothing new
    run.count_batch(_progress(2, [("copy_of_a", 1, 50), ("b2", 1, 25)], 500))
    summary = run.summary
    assert summary.records == {("copy_of_a", 0): 300, ("copy_of_a", 1): 150, ("b2", 1): 25}
    assert summary.total == 475
    assert summary.batches == 2
    assert summary.progress == [(0, 400, 200.0), (2, 75, 150.0)]
