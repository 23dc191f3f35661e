"""The terminal progress bar of ``availableNow`` runs, and the per-batch stats it draws from."""

from __future__ import annotations

import io
import json

from s3connect.app.progress_bar import ProgressBar
from s3connect.sink.summary import BatchStats


def _progress(batch: int, start: dict[str, int], end: dict[str, int], rows: int) -> dict:
    """A ``StreamingQuery.recentProgress`` entry of Spark's Kafka source (offsets as JSON)."""
    latest = {"0": 60, "1": 40}
    return {
        "batchId": batch,
        "numInputRows": rows,
        "processedRowsPerSecond": 1000.0,
        "sources": [
            {
                "startOffset": json.dumps({"t": start}),
                "endOffset": json.dumps({"t": end}),
                "latestOffset": json.dumps({"t": latest}),
                "metrics": {
                    "maxOffsetsBehindLatest": str(sum(latest.values()) - sum(end.values()))
                },
            }
        ],
    }


def test_batch_stats_sum_the_kafka_offsets() -> None:
    stats = BatchStats.of(_progress(0, {"0": 0, "1": 0}, {"0": 30, "1": 20}, 50))
    assert (stats.batch, stats.input_rows, stats.started, stats.consumed, stats.latest) == (
        0,
        50,
        0,
        50,
        100,
    )
    assert stats.lag == 50
    empty = BatchStats.of({"batchId": 3, "numInputRows": 0, "sources": []})
    assert (empty.consumed, empty.lag) == (None, None)


def test_the_bar_shows_records_done_of_the_backlog_rate_and_eta() -> None:
    out = io.StringIO()
    bar = ProgressBar(out)
    bar(BatchStats.of(_progress(0, {"0": 0, "1": 0}, {"0": 30, "1": 20}, 50)))
    bar(BatchStats.of(_progress(1, {"0": 30, "1": 20}, {"0": 60, "1": 40}, 50)))
    bar.close()
    first, second = out.getvalue().split("\r")[1:]
    assert first == ("[###############...............] 50 / 100 records  1,000 records/s  ETA 0 s")
    assert second == "[##############################] 100 / 100 records  1,000 records/s  done\n"


def test_without_kafka_offsets_the_bar_counts_records() -> None:
    out = io.StringIO()
    bar = ProgressBar(out)
    bar(BatchStats(batch=0, input_rows=7, rows_per_second=70.0, lag=None))
    assert out.getvalue() == "\r7 records  70 records/s"
