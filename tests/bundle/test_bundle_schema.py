"""The bundle's YAML files checked against Databricks' own JSON schema of bundle configuration.

``tests/bundle/bundle-schema.json`` is vendored unchanged from ``databricks bundle schema``
(databricks/cli, the v1.14 line, development snapshot of August 2026; that repository's
``bundle/schema/jsonschema.json``): CI has no Databricks CLI. Each file is validated as the
document the CLI merges: ``databricks.yml`` whole, each ``resources/*.yml`` as a partial bundle
document (``resources:``); then each target's resolved resources. A failure lists the path of
every leaf error (:mod:`tests.bundle.bundleschema`). Pure: no network, no Spark.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from typing import Any

import pytest
import yaml

from tests.bundle.bundlehelp import ROOT, load_bundle, references, resolve
from tests.bundle.bundleschema import (
    MODES,
    SCHEMA_PATH,
    SchemaError,
    bundle_schema,
    format_errors,
    schema_errors,
)
from tests.bundle.test_bundle import GIVEN

BUNDLE = load_bundle()
TARGETS = sorted(BUNDLE.targets)
FILES = [path.relative_to(ROOT).as_posix() for path in BUNDLE.files]
# sha256 of the vendored schema: it is Databricks' file, byte for byte, never edited here.
SCHEMA_SHA256 = "c3e8df8f2e1372d7dfbdb614242c8fbd4c20fe7c81f5ae2d935833b6953546ca"


def _document(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / name).read_text())
    return data


def _assert_valid(errors: list[SchemaError], what: str) -> None:
    assert errors == [], f"{what} does not match the bundle schema:\n{format_errors(errors)}"


def test_the_vendored_schema_is_databricks_bundle_schema() -> None:
    assert hashlib.sha256(SCHEMA_PATH.read_bytes()).hexdigest() == SCHEMA_SHA256
    schema = bundle_schema()
    assert {"bundle", "include", "resources", "targets", "variables"} <= set(schema["properties"])


def test_every_file_of_the_bundle_is_checked() -> None:
    assert FILES[0] == "databricks.yml"
    assert sorted(FILES[1:]) == sorted(
        p.relative_to(ROOT).as_posix() for p in (ROOT / "resources").glob("*.yml")
    )
    assert {"resources/s3connect.dashboard.yml", "resources/dlq_growth.alert.yml"} <= set(FILES)


@pytest.mark.parametrize("name", FILES)
def test_file_validates_against_the_bundle_schema(name: str) -> None:
    _assert_valid(schema_errors(_document(name)), name)


@pytest.mark.parametrize("target", TARGETS)
def test_resolved_resources_validate_against_the_bundle_schema(target: str) -> None:
    """After substitution too: numbers where numbers go, lists of objects where they go."""
    config = resolve(BUNDLE, target, GIVEN)
    assert references(config["resources"]) == set()
    _assert_valid(schema_errors({"resources": config["resources"]}), f"target {target}")


def test_every_target_mode_is_development_or_production() -> None:
    modes = {name: (t or {}).get("mode") for name, t in BUNDLE.targets.items()}
    assert set(modes.values()) <= set(MODES), modes


# ---------------------------------------------------------------------------------------------
# The validation is not vacuous: each deliberate mistake below is reported at its own path, as
# its leaf error (not as "is not valid under any of the given schemas").


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A mutation setting the value at a dotted path (``[i]`` for list items)."""

    def apply(doc: dict[str, Any]) -> None:
        keys: list[str | int] = []
        for part in path.split("."):
            name, _, index = part.partition("[")
            keys.append(name)
            if index:
                keys.append(int(index.rstrip("]")))
        node: Any = doc
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value

    return apply


def _drop(path: str) -> Callable[[dict[str, Any]], None]:
    parent, _, key = path.rpartition(".")

    def apply(doc: dict[str, Any]) -> None:
        node: Any = doc
        for part in parent.split("."):
            node = node[part]
        del node[key]

    return apply


SINK = "resources.jobs.s3_sink"
DASHBOARD = "resources.dashboards.s3connect"
ALERT = "resources.alerts.dlq_growth"
MISTAKES = [
    # (file, mutation, path reported, words of the message)
    ("resources/s3_sink.job.yml", _set(f"{SINK}.max_concurent_runs", 1), SINK,
     "'max_concurent_runs' was unexpected"),
    ("resources/s3_sink.job.yml", _set(f"{SINK}.continuous.pause_status", "STOPPED"),
     f"{SINK}.continuous.pause_status", "'STOPPED' is not one of ['UNPAUSED', 'PAUSED']"),
    ("resources/s3_sink.job.yml", _set(f"{SINK}.job_clusters[0].new_cluster.num_workers", "two"),
     f"{SINK}.job_clusters[0].new_cluster.num_workers", "'two' is not of type 'integer'"),
    ("resources/s3_sink.job.yml", _set(f"{SINK}.tasks[0].max_retries", "${vars.retries}"),
     f"{SINK}.tasks[0].max_retries", "is not a reference this field accepts"),
    ("resources/s3_sink.job.yml", _set(f"{SINK}.tasks[0].notebook_task.notebook_pat", "x.py"),
     f"{SINK}.tasks[0].notebook_task", "'notebook_pat' was unexpected"),
    ("resources/s3_source.job.yml", _set("resources.job", {}), "resources",
     "'job' was unexpected"),
    ("resources/s3connect.dashboard.yml", _set(f"{DASHBOARD}.warehouse", "abc"), DASHBOARD,
     "'warehouse' was unexpected"),
    ("resources/s3connect.dashboard.yml", _set(f"{DASHBOARD}.embed_credentials", "no"),
     f"{DASHBOARD}.embed_credentials", "'no' is not of type 'boolean'"),
    ("resources/dlq_growth.alert.yml",
     _set(f"{ALERT}.evaluation.comparison_operator", "MORE_THAN"),
     f"{ALERT}.evaluation.comparison_operator", "'MORE_THAN' is not one of"),
    ("resources/dlq_growth.alert.yml", _drop(f"{ALERT}.schedule"), ALERT,
     "'schedule' is a required property"),
    ("resources/dlq_growth.alert.yml",
     _set(f"{ALERT}.evaluation.threshold.value.double_value", "zero"),
     f"{ALERT}.evaluation.threshold.value.double_value", "'zero' is not of type 'number'"),
    ("resources/dlq_growth.alert.yml",
     _set(f"{ALERT}.evaluation.notification.subscriptions", ["ops@example.com"]),
     f"{ALERT}.evaluation.notification.subscriptions[0]",
     "'ops@example.com' is not of type 'object'"),
    ("databricks.yml", _set("targets.dev.mode", "dev"), "targets.dev.mode",
     "'dev' is not one of ['development', 'production']"),
    ("databricks.yml", _set("variables.dlq_table.defualt", "x"), "variables.dlq_table",
     "'defualt' was unexpected"),
    ("databricks.yml", _set("targets.prod.run_as.service_principal", "x"),
     "targets.prod.run_as", "'service_principal' was unexpected"),
    ("databricks.yml", _set("resource", {}), "", "unknown top-level field 'resource'"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "mutate", "path", "words"),
    MISTAKES,
    ids=[f"{name}:{path or '(document)'}:{words[:24]}" for name, _, path, words in MISTAKES],
)
def test_a_mistake_is_reported_at_its_path(
    name: str, mutate: Callable[[dict[str, Any]], None], path: str, words: str
) -> None:
    document = copy.deepcopy(_document(name))
    mutate(document)
    errors = schema_errors(document)
    assert [e for e in errors if e.path == path and words in e.message], format_errors(errors)
    assert len(errors) == 1, format_errors(errors)  # the leaf alone, not its oneOf ancestors
    assert "is not valid under any of the given schemas" not in str(errors[0])


def test_go_regular_expression_classes_are_understood() -> None:
    """The schema's ``\\p{L}`` patterns compile and match: a reference in an integer field."""
    document = copy.deepcopy(_document("resources/s3_sink.job.yml"))
    task = document["resources"]["jobs"]["s3_sink"]["tasks"][0]
    task["max_retries"] = "${var.sink_max_retries}"
    assert schema_errors(document) == []
    task["max_retries"] = "${var.sink-}"  # a name ends with a letter or a digit
    assert [e.path for e in schema_errors(document)] == [
        "resources.jobs.s3_sink.tasks[0].max_retries"
    ]


def test_failure_output_names_each_path() -> None:
    document = copy.deepcopy(_document("resources/dlq_growth.alert.yml"))
    alert = document["resources"]["alerts"]["dlq_growth"]
    alert["evaluation"]["comparison_operator"] = "MORE_THAN"
    alert["schedule"]["timezone"] = "UTC"
    assert format_errors(schema_errors(document)).splitlines() == [
        "  resources.alerts.dlq_growth.evaluation.comparison_operator: 'MORE_THAN' is not one of "
        "['LESS_THAN', 'GREATER_THAN', 'EQUAL', 'NOT_EQUAL', 'GREATER_THAN_OR_EQUAL', "
        "'LESS_THAN_OR_EQUAL', 'IS_NULL', 'IS_NOT_NULL']",
        "  resources.alerts.dlq_growth.schedule: Additional properties are not allowed "
        "('timezone' was unexpected)",
    ]
