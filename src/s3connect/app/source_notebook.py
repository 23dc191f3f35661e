"""What the S3 source notebook does, so that it stays thin: widgets, config, run, summary.

Widget names are the connector's own keys; a non-empty widget overrides the same key of the
whole-config widget ``connector.config`` (JSON, or locally also a path to a config file); every
widget is blank by default, so the whole config's values stand.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from s3connect.app.charts import progress_figure, show_figure
from s3connect.app.logs import run_log_path
from s3connect.app.widgets import (
    FROM_CONFIG,
    VERBOSE,
    Widgets,
    WidgetSpec,
    declare_widgets,
    whole_config,
    widget_overrides,
)
from s3connect.config.providers import SecretLookup
from s3connect.config.source import SourceConfig
from s3connect.source.summary import SourceSummary

__all__ = [
    "SOURCE_WIDGETS",
    "declare_source_widgets",
    "show_source_config",
    "show_source_result",
    "source_config_from_widgets",
]

# (name, default, choices or None, label)
SOURCE_WIDGETS: tuple[WidgetSpec, ...] = (
    ("connector.config", "{}", None, "Whole connector config (JSON)"),
    ("kafka.bootstrap.servers", "", None, "Kafka bootstrap servers"),
    ("s3.bucket.name", "", None, "S3 bucket"),
    ("store.url", "", None, "S3 endpoint URL (blank for AWS; file:// for a local folder)"),
    ("topics.dir", "", None, "topics.dir (blank: topics)"),
    ("format.class", FROM_CONFIG, (FROM_CONFIG, "json", "avro", "parquet", "bytearray"), "Format"),
    (
        "value.converter",
        FROM_CONFIG,
        (FROM_CONFIG, "json", "string", "bytearray"),
        "value.converter",
    ),
    (
        "value.converter.schemas.enable",
        FROM_CONFIG,
        (FROM_CONFIG, "true", "false"),
        "value.converter.schemas.enable",
    ),
    ("topic.prefix", "", None, "Destination topic prefix (blank: copy_of_)"),
    (
        "behavior.on.error",
        FROM_CONFIG,
        (FROM_CONFIG, "fail", "ignore", "log"),
        "behavior.on.error",
    ),
    ("checkpoint.location", "", None, "Checkpoint location"),
    ("trigger", "", None, "Trigger: availableNow (blank) or an interval (e.g. 30 seconds)"),
    VERBOSE,
)


def declare_source_widgets(widgets: Widgets) -> None:
    """Declare the source notebook's widgets."""
    declare_widgets(widgets, SOURCE_WIDGETS)


def source_config_from_widgets(
    widgets: Widgets,
    secrets: Mapping[str, str] | None = None,
    lookup: SecretLookup | None = None,
) -> SourceConfig:
    """The effective source config: the whole-config widget, overridden by non-empty widgets,
    plus credentials from :func:`s3connect.app.secrets.connector_secrets` (never from widgets);
    ``${secrets:...}`` values are read with ``lookup`` (see :func:`.secrets.secret_lookup`)."""
    base = whole_config(widgets.get("connector.config"))
    overrides = widget_overrides(widgets, SOURCE_WIDGETS)
    return SourceConfig.from_mapping(
        base, overrides={**overrides, **(secrets or {})}, secret_lookup=lookup
    )


def show_source_config(config: SourceConfig, show: Callable[[str], None] = print) -> None:
    """Print the effective config (secrets masked) and the keys that have no effect."""
    show(json.dumps(config.describe(masked=True), indent=2, sort_keys=True))
    if config.ignored_keys:
        show("keys without effect on the source: " + ", ".join(config.ignored_keys))


def show_source_result(summary: SourceSummary, display: Callable[[Any], None] | None) -> None:
    """The chart of records/s per micro-batch (``display`` on Databricks, else a PNG beside the
    run's log file)."""
    batches = [b for b, _rows, _rate in summary.progress]
    figure = progress_figure(
        batches, [rate for _b, _rows, rate in summary.progress], None, "S3 source"
    )
    if figure is not None:
        show_figure(figure, display, run_log_path("source-chart").with_suffix(".png"))
