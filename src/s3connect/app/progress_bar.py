"""A progress bar for ``availableNow`` runs on a terminal: records done of the backlog, the
rate and the time left, redrawn in place after each micro-batch."""

from __future__ import annotations

from typing import TextIO

from s3connect.sink.summary import BatchStats

__all__ = ["ProgressBar"]

_WIDTH = 30


class ProgressBar:
    """Draws one line on ``stream`` per micro-batch (``\\r``: in place); :meth:`close` ends it.

    The backlog is what Kafka held when the first micro-batch started: the newest offsets then,
    less the offsets the run started from (both summed over partitions).
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._origin: int | None = None
        self._total: int | None = None
        self._done = 0
        self._drawn = False

    def __call__(self, stats: BatchStats) -> None:
        if self._origin is None and stats.started is not None:
            self._origin = stats.started
        if self._total is None and self._origin is not None and stats.latest is not None:
            self._total = max(0, stats.latest - self._origin)
        if self._origin is not None and stats.consumed is not None:
            self._done = stats.consumed - self._origin
        else:
            self._done += stats.input_rows
        self._stream.write("\r" + self.render(stats.rows_per_second))
        self._stream.flush()
        self._drawn = True

    def render(self, rate: float) -> str:
        """The bar's text: ``[#####.....]  50,000 / 100,000 records  12,345 records/s  ETA 4 s``."""
        if not self._total:
            return f"{self._done:,} records  {rate:,.0f} records/s"
        share = min(1.0, self._done / self._total)
        filled = int(share * _WIDTH)
        left = max(0, self._total - self._done)
        eta = f"ETA {left / rate:,.0f} s" if rate > 0 and left else "done" if not left else ""
        bar = "#" * filled + "." * (_WIDTH - filled)
        return f"[{bar}] {self._done:,} / {self._total:,} records  {rate:,.0f} records/s  {eta}"

    def close(self) -> None:
        """End the bar's line."""
        if self._drawn:
            self._stream.write("\n")
            self._stream.flush()
