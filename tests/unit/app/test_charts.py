"""The notebooks' chart of records/s and lag per micro-batch."""

from __future__ import annotations

from pathlib import Path

from s3connect.app.charts import progress_figure, show_figure


def test_the_figure_has_rates_and_lag_on_two_axes(tmp_path: Path) -> None:
    figure = progress_figure([0, 1, 2], [1000.0, 1500.0, 900.0], [500, 200, None], "S3 sink")
    assert figure is not None
    rates, lags = figure.axes
    assert [round(bar.get_height()) for bar in rates.patches] == [1000, 1500, 900]
    assert list(lags.lines[0].get_ydata()) == [500, 200, 0]
    assert rates.get_title() == "S3 sink"
    show_figure(figure, None, tmp_path / "chart.png")
    assert (tmp_path / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_source_chart_has_no_lag_axis_and_nothing_is_drawn_without_batches() -> None:
    figure = progress_figure([0], [12.0], None, "S3 source")
    assert figure is not None and len(figure.axes) == 1
    assert progress_figure([], [], None, "S3 sink") is None


def test_on_databricks_the_figure_goes_to_display(tmp_path: Path) -> None:
    shown: list[object] = []
    figure = progress_figure([0], [1.0], [0], "S3 sink")
    show_figure(figure, shown.append, tmp_path / "unused.png")
    assert shown == [figure] and not (tmp_path / "unused.png").exists()
