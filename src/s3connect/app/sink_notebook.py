"""What the notebooks do, so that they stay thin: declare widgets, build the config, run, show.

Widget names are the connector's own keys (``flush.size``, ``format.class``, ...). A non-empty
widget overrides the same key of the whole-config widget ``connector.config`` (JSON, or locally
also a path to a ``.json``/``.properties`` file); an empty one leaves the config's value.
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
from s3connect.config.sink import SinkConfig

__all__ = [
    "SINK_WIDGETS",
    "declare_sink_widgets",
    "show_effective_config",
    "show_sink_result",
    "sink_config_from_widgets",
]

# (name, default, choices or None, label)
SINK_WIDGETS: tuple[WidgetSpec, ...] = (
    ("connector.config", "{}", None, "Whole connector config (JSON)"),
    ("topics", "", None, "Topics (comma-separated)"),
    ("kafka.bootstrap.servers", "", None, "Kafka bootstrap servers"),
    ("s3.bucket.name", "", None, "S3 bucket"),
    ("store.url", "", None, "S3 endpoint URL (blank for AWS; file:// for a local folder)"),
    ("format.class", FROM_CONFIG, (FROM_CONFIG, "json", "avro", "parquet", "bytearray"), "Format"),
    (
        "partitioner.class",
        FROM_CONFIG,
        (FROM_CONFIG, "default", "field", "time", "daily", "hourly"),
        "Partitioner",
    ),
    ("partition.field.name", "", None, "Partition field(s)"),
    ("path.format", "", None, "path.format (time-based)"),
    ("timezone", "", None, "Time zone"),
    ("flush.size", "1000", None, "flush.size"),
    ("rotate.interval.ms", "", None, "rotate.interval.ms"),
    (
        "s3.compression.type",
        FROM_CONFIG,
        (FROM_CONFIG, "none", "gzip"),
        "Compression (JSON, ByteArray)",
    ),
    (
        "behavior.on.null.values",
        FROM_CONFIG,
        (FROM_CONFIG, "fail", "ignore", "write"),
        "Tombstones (null values)",
    ),
    ("store.kafka.keys", FROM_CONFIG, (FROM_CONFIG, "true", "false"), "Store record keys"),
    ("store.kafka.headers", FROM_CONFIG, (FROM_CONFIG, "true", "false"), "Store record headers"),
    (
        "keys.format.class",
        FROM_CONFIG,
        (FROM_CONFIG, "avro", "json", "parquet", "bytearray"),
        "Keys file format",
    ),
    (
        "headers.format.class",
        FROM_CONFIG,
        (FROM_CONFIG, "avro", "json", "parquet"),
        "Headers file format",
    ),
    (
        "value.converter",
        FROM_CONFIG,
        (FROM_CONFIG, "json", "string", "bytearray", "avro", "jsonschema", "protobuf"),
        "Value converter",
    ),
    ("value.converter.schema.registry.url", "", None, "Schema Registry URL (value converter)"),
    (
        "schema.compatibility",
        FROM_CONFIG,
        (FROM_CONFIG, "NONE", "BACKWARD", "FORWARD", "FULL"),
        "Schema evolution",
    ),
    ("errors.tolerance", FROM_CONFIG, (FROM_CONFIG, "none", "all"), "Bad records: fail or DLQ"),
    ("errors.deadletterqueue.topic.name", "", None, "Dead letter queue topic"),
    (
        "errors.deadletterqueue.context.headers.enable",
        FROM_CONFIG,
        (FROM_CONFIG, "true", "false"),
        "DLQ context headers",
    ),
    ("dlq.table", "", None, "Dead letter Delta table (name or path)"),
    ("s3.ssea.name", "", None, "Server-side encryption (AES256 or aws:kms)"),
    ("s3.sse.kms.key.id", "", None, "KMS key id (aws:kms)"),
    ("s3.acl.canned", "", None, "Canned ACL (e.g. bucket-owner-full-control)"),
    ("s3.object.tagging", FROM_CONFIG, (FROM_CONFIG, "true", "false"), "Tag objects with offsets"),
    ("checkpoint.location", "", None, "Checkpoint location"),
    ("trigger", "availableNow", None, "Trigger: availableNow or an interval (e.g. 30 seconds)"),
    ("commit.log.table", "", None, "Commit log Delta table (name or path)"),
    VERBOSE,
)


def declare_sink_widgets(widgets: Widgets) -> None:
    """Declare the sink notebook's widgets."""
    declare_widgets(widgets, SINK_WIDGETS)


def sink_config_from_widgets(
    widgets: Widgets,
    secrets: Mapping[str, str] | None = None,
    lookup: SecretLookup | None = None,
) -> SinkConfig:
    """The effective sink config: the whole-config widget, overridden by non-empty widgets,
    plus credentials from :func:`s3connect.app.secrets.connector_secrets` (never from widgets);
    ``${secrets:...}`` values are read with ``lookup`` (see :func:`.secrets.secret_lookup`)."""
    base = whole_config(widgets.get("connector.config"))
    overrides = widget_overrides(widgets, SINK_WIDGETS)
    return SinkConfig.from_mapping(
        base, overrides={**overrides, **(secrets or {})}, secret_lookup=lookup
    )


def show_effective_config(config: SinkConfig, show: Callable[[str], None] = print) -> None:
    """Print the effective config, secrets masked."""
    show(json.dumps(config.describe(masked=True), indent=2, sort_keys=True))


def show_sink_result(
    spark: Any, config: SinkConfig, summary: Any, display: Callable[[Any], None] | None = None
) -> None:
    """Show records/s and lag per micro-batch, then the latest rows of the commit log and of the
    dead letter table, when configured (the run already printed its summary table)."""
    from s3connect.spark.commit_log import is_table_path

    progress = getattr(summary, "progress", [])
    figure = progress_figure(
        [p.batch for p in progress],
        [p.rows_per_second for p in progress],
        [p.lag for p in progress],
        f"S3 sink {config.name}",
    )
    if figure is not None:
        show_figure(figure, display, run_log_path("sink-chart").with_suffix(".png"))

    queries: list[tuple[str, str]] = []
    if config.streaming.commit_log_table:
        queries.append((config.streaming.commit_log_table, "committed_at DESC, object_key"))
    dead_letters: int = getattr(summary, "dead_letters", 0)
    if config.errors.dlq_table and dead_letters:
        queries.append((config.errors.dlq_table, "failed_at DESC, topic, partition, offset"))
    for table, order in queries:
        source = f"delta.`{table}`" if is_table_path(table) else table
        latest = spark.sql(f"SELECT * FROM {source} ORDER BY {order} LIMIT 20")
        if display is not None:
            display(latest)
        else:
            latest.show(truncate=False)
