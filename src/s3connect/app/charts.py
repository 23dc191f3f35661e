"""The notebooks' picture of a run: records/s (bars) and Kafka lag (a line) per micro-batch."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["progress_figure", "show_figure"]


def progress_figure(
    batches: Sequence[int],
    rates: Sequence[float],
    lags: Sequence[int | None] | None,
    title: str,
) -> Any | None:
    """A matplotlib figure of records/s and lag per micro-batch; None without batches (or
    without matplotlib, which a Databricks runtime has and ``make install`` installs)."""
    if not batches:
        return None
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        return None
    figure, rate_axis = plt.subplots(figsize=(8, 3))
    rate_axis.bar(batches, rates, color="#4c78a8", label="records/s")
    rate_axis.set_xlabel("micro-batch")
    rate_axis.xaxis.set_major_locator(MaxNLocator(integer=True))
    rate_axis.set_ylabel("records/s")
    if lags is not None and any(lag is not None for lag in lags):
        lag_axis = rate_axis.twinx()
        lag_axis.plot(batches, [lag or 0 for lag in lags], color="#e45756", marker="o")
        lag_axis.set_ylabel("lag (records)", color="#e45756")
        lag_axis.set_ylim(bottom=0)
    rate_axis.set_title(title)
    figure.tight_layout()
    return figure


def show_figure(figure: Any, display: Any | None, path: Path) -> None:
    """``display`` the figure in a Databricks notebook; elsewhere save it as ``path`` (PNG) and
    print where."""
    if display is not None:
        display(figure)
        return
    figure.savefig(path, dpi=100)
    print(f"progress chart: {path}")
