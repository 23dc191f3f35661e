"""The sink's dashboard and dead-letter alert in the bundle, without a workspace.

The dashboard (``resources/s3connect.dashboard.yml``) is Lakeview's ``.lvdash.json`` format
inlined as ``serialized_dashboard``; the alert (``resources/dlq_growth.alert.yml``) is the
bundle's ``alerts`` resource. Checked here: the dashboard serializes to JSON; its datasets read
the commit-log and dead-letter tables through the bundle variables, and only columns those tables
have (the schemas the sink writes them with); its widgets are the ones described, on fields their
datasets produce, laid out on Lakeview's 6-column grid; the alert counts the last hour's dead
letters against ``dlq_alert_threshold``; and each target's dashboard, alert and sink job name the
same tables, which differ between targets. Both also go through Databricks' typed models
(``databricks-bundles``); their schema validation is in ``test_bundle_schema.py``. Pure: no
network, no Spark.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from databricks.bundles.alerts import Alert
from databricks.bundles.dashboards import Dashboard

from s3connect.app.widgets import LocalWidgets
from s3connect.sink.dead_letters import DLQ_TABLE_SCHEMA
from s3connect.spark.commit_log import COMMIT_LOG_SCHEMA
from tests.bundle.bundlehelp import (
    ROOT,
    load_bundle,
    notebook_config_builder,
    notebook_declarer,
    resolve,
)
from tests.bundle.bundleschema import format_errors, schema_errors
from tests.bundle.test_bundle import GIVEN, _pruned

BUNDLE = load_bundle()
TARGETS = sorted(BUNDLE.targets)
DASHBOARD = BUNDLE.dashboards["s3connect"]
ALERT = BUNDLE.alerts["dlq_growth"]
LAYOUT_COLUMNS = 6  # Lakeview's grid
# Lakeview's spec version of each widget type (what its editor writes and reads).
SPEC_VERSIONS = {"counter": 2, "table": 2, "bar": 3, "line": 3}
TABLE_OF_DATASET = {
    "commits_hourly": "${var.commit_log_table}",
    "dead_letters_hourly": "${var.dlq_table}",
    "dead_letters_latest": "${var.dlq_table}",
}
SQL_WORDS = {
    "select", "as", "from", "where", "group", "by", "all", "order", "desc", "asc", "limit",
    "interval", "days", "hour", "and", "count", "sum", "date_trunc", "current_timestamp",
}  # fmt: skip


def _split_top_level(text: str, opening: str = "(<", closing: str = ")>") -> list[str]:
    """``text`` split at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += (char in opening) - (char in closing)
        if char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [*parts, text[start:]]


def _ddl_columns(ddl: str) -> set[str]:
    return {part.split()[0] for part in _split_top_level(ddl)}


COLUMNS = {
    "${var.commit_log_table}": _ddl_columns(COMMIT_LOG_SCHEMA),
    "${var.dlq_table}": _ddl_columns(DLQ_TABLE_SCHEMA),
}


def _sql(lines: list[str] | str) -> str:
    return lines if isinstance(lines, str) else "".join(lines)


def _tables(sql: str) -> list[str]:
    return re.findall(r"\bFROM\s+(\S+)", sql, re.IGNORECASE)


def _output_columns(sql: str) -> list[str]:
    """The names of the SELECT list's columns (their alias, else the column itself)."""
    match = re.match(r"\s*SELECT\s+(.*?)\s+FROM\s", sql, re.IGNORECASE | re.DOTALL)
    assert match, sql
    names = []
    for item in _split_top_level(match.group(1), "(", ")"):
        alias = re.search(r"\bAS\s+`?(\w+)`?\s*$", item.strip(), re.IGNORECASE)
        names.append(alias.group(1) if alias else item.strip().strip("`"))
    return names


def _columns_read(sql: str) -> set[str]:
    """The identifiers of ``sql`` that are not SQL words, aliases, strings or references."""
    bare = re.sub(r"'[^']*'|\$\{[^}]*\}|\bAS\s+`?\w+`?", " ", sql, flags=re.IGNORECASE)
    return {w for w in re.findall(r"[A-Za-z_]\w*", bare) if w.lower() not in SQL_WORDS}


def _serialized() -> dict[str, Any]:
    serialized: dict[str, Any] = DASHBOARD["serialized_dashboard"]
    return serialized


def _datasets() -> dict[str, dict[str, Any]]:
    return {d["name"]: d for d in _serialized()["datasets"]}


def _widgets(dashboard: Mapping[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    for page in (dashboard or _serialized())["pages"]:
        yield from page["layout"]


def _nulls(node: Any, path: str = "") -> Iterator[str]:
    if node is None:
        yield path
    elif isinstance(node, Mapping):
        for key, value in node.items():
            yield from _nulls(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _nulls(value, f"{path}[{i}]")


def _field_names(spec: Mapping[str, Any]) -> set[str]:
    encodings = spec["encodings"]
    names = {e["fieldName"] for e in encodings.values() if isinstance(e, Mapping)}
    return names | {c["fieldName"] for c in encodings.get("columns", [])}


# ---------------------------------------------------------------------------------------------
# Files


def test_the_dashboard_and_the_alert_are_deployed_from_their_own_files() -> None:
    assert set(BUNDLE.dashboards) == {"s3connect"}
    assert set(BUNDLE.alerts) == {"dlq_growth"}
    files = BUNDLE.resource_files
    assert files[("dashboards", "s3connect")] == ROOT / "resources" / "s3connect.dashboard.yml"
    assert files[("alerts", "dlq_growth")] == ROOT / "resources" / "dlq_growth.alert.yml"


def test_both_run_on_the_warehouse_variable_which_is_looked_up_unless_given() -> None:
    assert DASHBOARD["warehouse_id"] == ALERT["warehouse_id"] == "${var.warehouse_id}"
    variable = BUNDLE.config["variables"]["warehouse_id"]
    assert set(variable["lookup"]) == {"warehouse"} and "default" not in variable
    dev = resolve(BUNDLE, "dev", GIVEN)
    assert dev["resources"]["dashboards"]["s3connect"]["warehouse_id"].startswith("<id of")
    given = resolve(BUNDLE, "prod", {**GIVEN, "warehouse_id": "0123456789abcdef"})
    assert given["resources"]["alerts"]["dlq_growth"]["warehouse_id"] == "0123456789abcdef"


@pytest.mark.parametrize("target", [None, *TARGETS])
def test_dashboard_and_alert_validate_with_the_typed_models(target: str | None) -> None:
    """As written (target None) and resolved: no field dropped or renamed, enums known."""
    config = BUNDLE.config if target is None else resolve(BUNDLE, target, GIVEN)
    resources = config["resources"]
    dashboard = resources["dashboards"]["s3connect"]
    assert Dashboard.from_dict(copy.deepcopy(dashboard)).as_dict() == _pruned(dashboard)
    alert = resources["alerts"]["dlq_growth"]
    assert Alert.from_dict(copy.deepcopy(alert)).as_dict() == _pruned(alert)


# ---------------------------------------------------------------------------------------------
# The dashboard


def test_the_dashboard_serializes_to_json_as_the_cli_sends_it() -> None:
    serialized = _serialized()
    assert "file_path" not in DASHBOARD  # the CLI would not substitute ${var.*} in a file
    assert json.loads(json.dumps(serialized)) == serialized
    assert sorted(serialized) == ["datasets", "pages"]
    # A null is a YAML slip (a comma in a flow mapping, a key with no value), never Lakeview's.
    assert list(_nulls(serialized)) == []
    assert DASHBOARD["embed_credentials"] is False  # viewers query as themselves


def test_dashboard_datasets_read_the_tables_through_the_bundle_variables() -> None:
    datasets = _datasets()
    assert list(datasets) == list(TABLE_OF_DATASET)
    for name, dataset in datasets.items():
        assert dataset["displayName"].strip(), name
        lines = dataset["queryLines"]
        assert all(isinstance(line, str) for line in lines) and lines[-1], name
        sql = _sql(lines)
        assert _tables(sql) == [TABLE_OF_DATASET[name]], (name, sql)
        assert re.findall(r"\$\{([^}]*)\}", sql) == [TABLE_OF_DATASET[name][2:-1]], name


def test_dashboard_datasets_read_only_columns_their_table_has() -> None:
    for name, dataset in _datasets().items():
        sql = _sql(dataset["queryLines"])
        table_columns = COLUMNS[TABLE_OF_DATASET[name]]
        assert _columns_read(sql) - table_columns == set(), (name, sql)
        assert _columns_read(sql), name


def test_hourly_datasets_bucket_by_commit_and_failure_time() -> None:
    datasets = _datasets()
    commits = _sql(datasets["commits_hourly"]["queryLines"])
    assert "date_trunc('HOUR', committed_at) AS hour" in commits
    assert _output_columns(commits) == ["hour", "topic", "objects", "records", "bytes"]
    assert "sum(record_count) AS records" in commits and "sum(bytes) AS bytes" in commits
    dead = _sql(datasets["dead_letters_hourly"]["queryLines"])
    assert "date_trunc('HOUR', failed_at) AS hour" in dead
    assert _output_columns(dead) == ["hour", "topic", "stage", "exception_class", "dead_letters"]
    for sql in (commits, dead):
        assert "GROUP BY ALL" in sql and "INTERVAL 30 DAYS" in sql


def test_every_widget_reads_fields_its_dataset_produces() -> None:
    datasets = _datasets()
    names: set[str] = set()
    for item in _widgets():
        widget = item["widget"]
        assert widget["name"] not in names, widget["name"]
        names.add(widget["name"])
        if "textbox_spec" in widget:
            continue
        spec = widget["spec"]
        assert spec["version"] == SPEC_VERSIONS[spec["widgetType"]], widget["name"]
        assert spec["frame"]["showTitle"] is True and spec["frame"]["title"].strip()
        fields: set[str] = set()
        for named in widget["queries"]:
            query = named["query"]
            produced = _output_columns(_sql(datasets[query["datasetName"]]["queryLines"]))
            for field in query["fields"]:
                used = re.findall(r"`(\w+)`", field["expression"])
                assert used and set(used) <= set(produced), (widget["name"], field)
                fields.add(field["name"])
            assert query["disaggregated"] is (spec["widgetType"] == "table"), widget["name"]
        assert _field_names(spec) <= fields, widget["name"]


def test_the_widgets_described() -> None:
    charts, counters, tables = set(), set(), []
    for item in _widgets():
        widget = item["widget"]
        if "spec" not in widget:
            continue
        spec = widget["spec"]
        [named] = widget["queries"]
        query = named["query"]
        expression = {f["name"]: f["expression"] for f in query["fields"]}
        encodings = spec["encodings"]
        if spec["widgetType"] in ("bar", "line"):
            assert expression[encodings["x"]["fieldName"]] == "`hour`"
            assert encodings["x"]["scale"]["type"] == "temporal"
            assert encodings["y"]["scale"]["type"] == "quantitative"
            assert encodings["color"]["scale"]["type"] == "categorical"
            y = re.fullmatch(r"SUM\(`(\w+)`\)", expression[encodings["y"]["fieldName"]])
            color = expression[encodings["color"]["fieldName"]].strip("`")
            assert y, widget["name"]
            charts.add((spec["widgetType"], query["datasetName"], y.group(1), color))
        elif spec["widgetType"] == "counter":
            value = re.fullmatch(r"SUM\(`(\w+)`\)", expression[encodings["value"]["fieldName"]])
            assert value, widget["name"]
            counters.add((query["datasetName"], value.group(1)))
        else:
            tables.append((query["datasetName"], [c["fieldName"] for c in encodings["columns"]]))
    assert charts == {
        # objects, records and bytes per topic over time (committed_at)
        ("bar", "commits_hourly", "objects", "topic"),
        ("line", "commits_hourly", "records", "topic"),
        ("line", "commits_hourly", "bytes", "topic"),
        # dead letters by error class and stage over time (failed_at)
        ("bar", "dead_letters_hourly", "dead_letters", "exception_class"),
        ("bar", "dead_letters_hourly", "dead_letters", "stage"),
        ("bar", "dead_letters_hourly", "dead_letters", "topic"),
    }
    assert counters == {
        ("commits_hourly", "records"),
        ("commits_hourly", "bytes"),
        ("dead_letters_hourly", "dead_letters"),
    }
    [(dataset, columns)] = tables
    assert dataset == "dead_letters_latest"
    assert {"failed_at", "topic", "partition", "offset", "stage", "exception_class"} <= set(columns)


def test_widgets_fit_the_grid_without_overlapping() -> None:
    cells: dict[tuple[int, int], str] = {}
    for item in _widgets():
        name, position = item["widget"]["name"], item["position"]
        assert set(position) == {"x", "y", "width", "height"}, name
        assert all(isinstance(v, int) and v >= 0 for v in position.values()), name
        assert position["width"] > 0 and position["height"] > 0, name
        assert position["x"] + position["width"] <= LAYOUT_COLUMNS, name
        for x in range(position["x"], position["x"] + position["width"]):
            for y in range(position["y"], position["y"] + position["height"]):
                assert (x, y) not in cells, (name, cells.get((x, y)))
                cells[(x, y)] = name


# ---------------------------------------------------------------------------------------------
# The alert


def test_the_alert_counts_the_last_hour_of_dead_letters_against_the_threshold() -> None:
    sql = ALERT["query_text"]
    assert _tables(sql) == ["${var.dlq_table}"]
    assert _columns_read(sql) <= COLUMNS["${var.dlq_table}"]
    assert re.search(r"WHERE failed_at >= current_timestamp\(\) - INTERVAL 1 HOUR\s*$", sql)
    evaluation = ALERT["evaluation"]
    assert _output_columns(sql) == [evaluation["source"]["name"]] == ["dead_letters"]
    assert evaluation["comparison_operator"] == "GREATER_THAN"
    assert evaluation["threshold"] == {"value": {"double_value": "${var.dlq_alert_threshold}"}}
    assert BUNDLE.config["variables"]["dlq_alert_threshold"]["default"] == 0
    notification = evaluation["notification"]
    assert notification["subscriptions"] == "${var.dlq_alert_subscriptions}"
    assert notification["retrigger_seconds"] == 3600 and notification["notify_on_ok"] is True


def test_the_alert_runs_every_ten_minutes_paused_only_by_development_mode() -> None:
    schedule = ALERT["schedule"]
    assert schedule == {"quartz_cron_schedule": "0 */10 * * * ?", "timezone_id": "UTC"}
    # No pause_status: the CLI's development mode pauses it in dev; production leaves it running.


def test_alert_subscribers_and_threshold_resolve_to_what_the_api_takes() -> None:
    given = {
        **GIVEN,
        "dlq_alert_threshold": 25,
        "dlq_alert_subscriptions": [{"user_email": "oncall@example.com"}],
    }
    prod = resolve(BUNDLE, "prod", given)
    alert = prod["resources"]["alerts"]["dlq_growth"]
    notification = alert["evaluation"]["notification"]
    assert notification["subscriptions"] == [{"user_email": "oncall@example.com"}]
    assert alert["evaluation"]["threshold"]["value"]["double_value"] == 25
    assert "more than 25 dead letters" in alert["custom_summary"]
    errors = schema_errors({"resources": prod["resources"]})
    assert errors == [], format_errors(errors)
    dev = resolve(BUNDLE, "dev", GIVEN)["resources"]["alerts"]["dlq_growth"]
    assert dev["evaluation"]["threshold"]["value"]["double_value"] == 0
    assert dev["evaluation"]["notification"]["subscriptions"] == []


# ---------------------------------------------------------------------------------------------
# One set of tables per target


def _target_tables(target: str) -> dict[str, Any]:
    config = resolve(BUNDLE, target, GIVEN)
    resources = config["resources"]
    [task] = resources["jobs"]["s3_sink"]["tasks"]
    params = task["notebook_task"]["base_parameters"]
    dashboard = resources["dashboards"]["s3connect"]["serialized_dashboard"]
    return {
        "variables": (config["variables"]["commit_log_table"], config["variables"]["dlq_table"]),
        "job": (params["commit.log.table"], params["dlq.table"]),
        "datasets": {d["name"]: _tables(_sql(d["queryLines"])) for d in dashboard["datasets"]},
        "alert": _tables(resources["alerts"]["dlq_growth"]["query_text"]),
        "title": next(_widgets(dashboard))["widget"]["textbox_spec"],
        "display_names": (
            resources["dashboards"]["s3connect"]["display_name"],
            resources["alerts"]["dlq_growth"]["display_name"],
        ),
    }


@pytest.mark.parametrize("target", TARGETS)
def test_the_dashboard_and_alert_read_the_tables_the_sink_job_writes(target: str) -> None:
    got = _target_tables(target)
    commit_log, dlq = got["variables"]
    assert got["job"] == (commit_log, dlq)
    assert got["datasets"] == {
        "commits_hourly": [commit_log],
        "dead_letters_hourly": [dlq],
        "dead_letters_latest": [dlq],
    }
    assert got["alert"] == [dlq]
    assert commit_log in got["title"] and dlq in got["title"]
    assert all(f"({target})" in name for name in got["display_names"])


def test_each_target_has_its_own_tables() -> None:
    tables = {target: _target_tables(target)["variables"] for target in TARGETS}
    assert len({commit_log for commit_log, _ in tables.values()}) == len(TARGETS), tables
    assert len({dlq for _, dlq in tables.values()}) == len(TARGETS), tables
    assert all(commit_log != dlq for commit_log, dlq in tables.values()), tables


@pytest.mark.parametrize("target", TARGETS)
def test_the_sink_job_gives_the_notebook_the_dead_letter_table(target: str) -> None:
    """``dlq.table`` reaches the connector config: the sink appends dead letters there."""
    [(job, task)] = [
        (job, t) for job, spec in BUNDLE.jobs.items() for t in spec["tasks"] if job == "s3_sink"
    ]
    assert task["notebook_task"]["base_parameters"]["dlq.table"] == "${var.dlq_table}"
    path = BUNDLE.notebook_path(job, task)
    config = resolve(BUNDLE, target, GIVEN)
    [resolved] = config["resources"]["jobs"][job]["tasks"]
    params = resolved["notebook_task"]["base_parameters"]
    widgets = LocalWidgets([f"{k}={v}" for k, v in params.items()])
    notebook_declarer(path)(widgets)
    sink = notebook_config_builder(path)(widgets)
    assert sink.errors.dlq_table == config["variables"]["dlq_table"]
