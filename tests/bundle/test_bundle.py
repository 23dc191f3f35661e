"""The asset bundle without a workspace: files, widgets, variables, targets, typed job models.

Pure: no network, no Spark. Jobs are validated with Databricks' own typed models
(``databricks.bundles.jobs.Job`` from the ``databricks-bundles`` package), before and after the
variables of each target are substituted. Every file is also validated against Databricks' JSON
schema (``bundle-schema.json``: from ``databricks bundle schema``, databricks/cli, v1.14 line,
August 2026) in ``test_bundle_schema.py``; the dashboard and alert in ``test_dashboard_alert.py``.
"""

from __future__ import annotations

import copy
import fnmatch
import re
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from databricks.bundles.jobs import Job, JobsHealthMetric, PauseStatus, TaskRetryMode

from s3connect.app.sink_notebook import SINK_WIDGETS
from s3connect.app.source_notebook import SOURCE_WIDGETS
from s3connect.app.widgets import LocalWidgets
from tests.bundle.bundlehelp import (
    NOTEBOOK_HEADER,
    ROOT,
    BundleError,
    load_bundle,
    notebook_config_builder,
    notebook_declarer,
    notebook_tasks,
    notebook_widgets,
    references,
    resolve,
)

BUNDLE = load_bundle()
TARGETS = sorted(BUNDLE.targets)
TASKS = notebook_tasks(BUNDLE)
TASK_IDS = [f"{job}.{task['task_key']}" for job, task in TASKS]

# What a deployer gives with --var / BUNDLE_VAR_* (the variables without a default).
GIVEN = {
    "kafka_bootstrap_servers": "b-1.kafka.example.com:9092,b-2.kafka.example.com:9092",
    "topics": "orders,payments",
    "s3_bucket": "acme-kafka-archive",
    "service_principal_id": "6f3c2a1e-0000-4000-8000-000000000001",
}
REQUIRED = {"kafka_bootstrap_servers", "topics", "s3_bucket", "service_principal_id"}
CREDENTIAL_KEYS = re.compile(
    r"aws\.access\.key\.id|aws\.secret\.access\.key|kafka\.api\.(key|secret)|password|"
    r"jaas\.config|sse\.customer\.key",
    re.IGNORECASE,
)


def _pruned(node: Any) -> Any:
    """Drop empty lists, mappings and None: what ``as_dict`` of a typed model leaves out."""
    if isinstance(node, Mapping):
        out = {k: _pruned(v) for k, v in node.items()}
        return {k: v for k, v in out.items() if v not in (None, [], {})}
    if isinstance(node, list):
        return [_pruned(v) for v in node]
    return node


def _widgets(job: str, task: Mapping[str, Any]) -> dict[str, Any]:
    return notebook_widgets(BUNDLE.notebook_path(job, task))


# ---------------------------------------------------------------------------------------------
# Files


def test_one_resource_file_per_job_and_both_connectors_deployed() -> None:
    assert set(BUNDLE.jobs) == {"s3_sink", "s3_source"}
    assert {job: path.name for job, path in BUNDLE.job_files.items()} == {
        "s3_sink": "s3_sink.job.yml",
        "s3_source": "s3_source.job.yml",
    }


@pytest.mark.parametrize(("job", "task"), TASKS, ids=TASK_IDS)
def test_notebook_path_exists_in_databricks_source_format(job: str, task: dict[str, Any]) -> None:
    path = BUNDLE.notebook_path(job, task)
    assert path.is_file(), path
    assert path.is_relative_to(ROOT / "notebooks")
    text = path.read_text()
    assert text.splitlines()[0] == NOTEBOOK_HEADER
    assert "\n# COMMAND ----------\n" in text
    assert "\n# MAGIC %md\n" in text or text.startswith(f"{NOTEBOOK_HEADER}\n# MAGIC %md\n")


# ---------------------------------------------------------------------------------------------
# Widgets <-> base_parameters


@pytest.mark.parametrize(("job", "task"), TASKS, ids=TASK_IDS)
def test_every_base_parameter_is_a_declared_widget(job: str, task: dict[str, Any]) -> None:
    widgets = _widgets(job, task)
    params = task["notebook_task"]["base_parameters"]
    assert sorted(set(params) - set(widgets)) == []


@pytest.mark.parametrize(("job", "task"), TASKS, ids=TASK_IDS)
def test_every_widget_is_given_by_the_job(job: str, task: dict[str, Any]) -> None:
    widgets = _widgets(job, task)
    params = task["notebook_task"]["base_parameters"]
    without_default = [w.name for w in widgets.values() if not w.default]
    assert sorted(set(without_default) - set(params)) == []  # the minimum
    assert list(params) == list(widgets)  # every widget, in the notebook's order


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("job", "task"), TASKS, ids=TASK_IDS)
def test_dropdown_parameters_are_among_the_choices(
    job: str, task: dict[str, Any], target: str
) -> None:
    widgets = _widgets(job, task)
    resolved = resolve(BUNDLE, target, GIVEN)["resources"]["jobs"][job]
    [same] = [t for t in resolved["tasks"] if t["task_key"] == task["task_key"]]
    for name, value in same["notebook_task"]["base_parameters"].items():
        assert isinstance(value, str), (name, value)
        choices = widgets[name].choices
        assert choices is None or value in choices, (name, value, choices)


def test_widget_discovery_matches_the_widget_modules() -> None:
    sink = notebook_widgets(ROOT / "notebooks" / "s3_sink.py")
    source = notebook_widgets(ROOT / "notebooks" / "s3_source.py")
    assert [(w.name, w.default, w.choices) for w in sink.values()] == [
        (name, default, choices) for name, default, choices, _ in SINK_WIDGETS
    ]
    assert [(w.name, w.default, w.choices) for w in source.values()] == [
        (name, default, choices) for name, default, choices, _ in SOURCE_WIDGETS
    ]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("job", "task"), TASKS, ids=TASK_IDS)
def test_job_parameters_make_a_valid_connector_config(
    job: str, task: dict[str, Any], target: str
) -> None:
    """The notebook's own code accepts the parameters: widgets, then config validation."""
    path = BUNDLE.notebook_path(job, task)
    resolved = resolve(BUNDLE, target, GIVEN)["resources"]["jobs"][job]
    [same] = [t for t in resolved["tasks"] if t["task_key"] == task["task_key"]]
    params = same["notebook_task"]["base_parameters"]
    widgets = LocalWidgets([f"{k}={v}" for k, v in params.items()])
    notebook_declarer(path)(widgets)
    assert widgets.undeclared() == []
    config = notebook_config_builder(path)(widgets)  # raises ConfigError naming every problem
    described = config.describe(masked=True)
    assert described["kafka.bootstrap.servers"] == GIVEN["kafka_bootstrap_servers"]
    assert described["s3.bucket.name"] == GIVEN["s3_bucket"]
    assert described["checkpoint.location"].endswith(f"/{target}/{job.removeprefix('s3_')}")


# ---------------------------------------------------------------------------------------------
# Variables and references


def test_every_variable_used_is_declared_and_every_declared_one_is_used() -> None:
    declared = set(BUNDLE.config["variables"])
    used = {ref.removeprefix("var.") for ref in references(BUNDLE.config) if ref.startswith("var.")}
    assert sorted(used - declared) == []
    assert sorted(declared - used) == []


def test_references_are_to_variables_bundle_or_workspace_fields() -> None:
    allowed = re.compile(r"var\.\w+|bundle\.(name|target)|workspace\.current_user\.\w+")
    assert sorted(r for r in references(BUNDLE.config) if not allowed.fullmatch(r)) == []


def test_variables_are_described_and_typed() -> None:
    for name, spec in BUNDLE.config["variables"].items():
        assert set(spec) <= {"description", "default", "type", "lookup"}, name
        assert not ("default" in spec and "lookup" in spec), name  # the lookup would win
        assert spec.get("description", "").strip(), f"variable {name} has no description"
        default = spec.get("default")
        if isinstance(default, (list, dict)):
            assert spec.get("type") == "complex", name
        else:
            assert "type" not in spec, name
    required = {
        n for n, spec in BUNDLE.config["variables"].items() if not {"default", "lookup"} & set(spec)
    }
    assert required == REQUIRED


def test_a_missing_required_variable_is_named_as_the_cli_names_it() -> None:
    given = {k: v for k, v in GIVEN.items() if k != "s3_bucket"}
    with pytest.raises(BundleError, match="no value assigned to required variable s3_bucket"):
        resolve(BUNDLE, "prod", given)
    with pytest.raises(BundleError, match="required variable service_principal_id"):
        resolve(BUNDLE, "staging", {k: v for k, v in GIVEN.items() if k != "service_principal_id"})
    # dev runs as the deploying user: it needs no service principal.
    dev = resolve(BUNDLE, None, {k: v for k, v in GIVEN.items() if k != "service_principal_id"})
    assert dev["bundle"]["target"] == "dev"


# ---------------------------------------------------------------------------------------------
# Targets


def test_dev_is_the_default_development_target() -> None:
    assert TARGETS == ["dev", "prod", "staging"]
    assert BUNDLE.default_target() == "dev"
    dev = resolve(BUNDLE, None, GIVEN)
    assert dev["mode"] == "development"
    assert "run_as" not in dev and "permissions" not in dev
    assert "root_path" not in dev["workspace"]  # the deploying user's home folder


@pytest.mark.parametrize("target", ["staging", "prod"])
def test_production_targets_run_as_a_service_principal(target: str) -> None:
    config = resolve(BUNDLE, target, GIVEN)
    assert config["mode"] == "production"
    assert config["workspace"]["root_path"] == f"/Workspace/Shared/.bundle/s3connect/{target}"
    sp = GIVEN["service_principal_id"]
    assert config["run_as"] == {"service_principal_name": sp}
    levels = {(p["level"], p.get("service_principal_name") or p.get("group_name")) for p in
              config["permissions"]}  # fmt: skip
    assert levels == {("CAN_MANAGE", sp), ("CAN_VIEW", "users")}
    for p in config["permissions"]:  # bundle-level permission levels
        assert p["level"] in {"CAN_VIEW", "CAN_RUN", "CAN_MANAGE"}
        assert len({"user_name", "group_name", "service_principal_name"} & set(p)) == 1


@pytest.mark.parametrize("target", TARGETS)
def test_target_resolves_completely(target: str) -> None:
    config = resolve(BUNDLE, target, GIVEN)
    assert references(config) == set()
    assert "{{secrets/" in str(config)  # secret references are Databricks', left for the cluster
    sink = config["resources"]["jobs"]["s3_sink"]
    params = sink["tasks"][0]["notebook_task"]["base_parameters"]
    assert (
        params["checkpoint.location"] == f"{config['variables']['checkpoint_root']}/{target}/sink"
    )
    assert sink["name"] == f"s3connect-sink-{target}"
    pause = sink["continuous"]["pause_status"]
    assert pause == ("PAUSED" if target == "dev" else "UNPAUSED")


def test_targets_keep_state_apart() -> None:
    resolved = [resolve(BUNDLE, t, GIVEN) for t in TARGETS]
    for key in ("checkpoint_root", "commit_log_table", "dlq_table"):
        values = [r["variables"][key] for r in resolved]
        assert len(set(values)) == len(TARGETS), (key, values)


# ---------------------------------------------------------------------------------------------
# Databricks' typed job models


@pytest.mark.parametrize("job", sorted(BUNDLE.jobs))
def test_job_as_written_validates_with_the_typed_model(job: str) -> None:
    spec = BUNDLE.jobs[job]
    model = Job.from_dict(copy.deepcopy(spec))
    assert model.as_dict() == _pruned(spec)  # no field dropped or renamed


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("job", sorted(BUNDLE.jobs))
def test_resolved_job_validates_with_the_typed_model(job: str, target: str) -> None:
    spec = resolve(BUNDLE, target, GIVEN)["resources"]["jobs"][job]
    model = Job.from_dict(copy.deepcopy(spec))
    assert model.as_dict() == _pruned(spec)
    assert model.max_concurrent_runs == 1
    for cluster in model.job_clusters:
        assert cluster.new_cluster is not None
        assert isinstance(cluster.new_cluster.num_workers, int)


def test_the_typed_model_rejects_what_the_api_would() -> None:
    """The typed validation is not vacuous: unknown fields and bad enum values fail."""
    spec = copy.deepcopy(BUNDLE.jobs["s3_sink"])
    spec["continuous"]["pause_status"] = "STOPPED"
    with pytest.raises(ValueError, match="STOPPED"):
        Job.from_dict(spec)
    spec = copy.deepcopy(BUNDLE.jobs["s3_sink"])
    spec["email_notifications"]["on_backlog"] = ["x@example.com"]
    with pytest.raises(ValueError, match="on_backlog"):
        Job.from_dict(spec)


# ---------------------------------------------------------------------------------------------
# What the jobs do


def test_sink_job_runs_continuously_with_retries_alerts_and_rocksdb() -> None:
    prod = resolve(BUNDLE, "prod", {**GIVEN, "notification_emails": ["oncall@example.com"]})
    model = Job.from_dict(copy.deepcopy(prod["resources"]["jobs"]["s3_sink"]))
    assert model.continuous is not None and model.schedule is None
    assert model.continuous.pause_status == PauseStatus.UNPAUSED
    assert model.continuous.task_retry_mode == TaskRetryMode.ON_FAILURE
    [task] = model.tasks
    assert task.max_retries == 3 and task.min_retry_interval_millis == 60_000
    assert model.health is not None
    [rule] = model.health.rules
    assert (rule.metric, rule.value) == (JobsHealthMetric.STREAMING_BACKLOG_SECONDS, 900)
    assert model.email_notifications is not None
    assert model.email_notifications.on_failure == ["oncall@example.com"]
    assert model.email_notifications.on_streaming_backlog_exceeded == ["oncall@example.com"]
    assert task.notebook_task is not None and task.notebook_task.base_parameters is not None
    assert task.notebook_task.base_parameters["trigger"] == "30 seconds"  # not availableNow
    _assert_cluster_and_wheel(prod["resources"]["jobs"]["s3_sink"])


def test_source_job_runs_on_demand_or_on_schedule_with_available_now() -> None:
    prod = resolve(BUNDLE, "prod", GIVEN)
    spec = prod["resources"]["jobs"]["s3_source"]
    model = Job.from_dict(copy.deepcopy(spec))
    assert model.continuous is None
    assert model.schedule is not None and model.schedule.pause_status == PauseStatus.PAUSED
    [task] = model.tasks
    assert task.notebook_task is not None and task.notebook_task.base_parameters is not None
    assert task.notebook_task.base_parameters["trigger"] == "availableNow"
    assert task.max_retries is not None and task.max_retries > 0
    _assert_cluster_and_wheel(spec)


def _assert_cluster_and_wheel(spec: Mapping[str, Any]) -> None:
    [cluster] = spec["job_clusters"]
    assert [t["job_cluster_key"] for t in spec["tasks"]] == [cluster["job_cluster_key"]]
    conf = cluster["new_cluster"]["spark_conf"]
    assert conf["spark.sql.streaming.stateStore.providerClass"].endswith(
        ".RocksDBStateStoreProvider"
    )
    # The wheel the artifact builds is the library every task installs.
    artifacts = BUNDLE.config["artifacts"]
    artifact = artifacts["s3connect_wheel"]
    assert artifact["type"] == "whl" and artifact["path"] == "."
    build = shlex.split(artifact["build"])
    wheel_dir = build[build.index("--wheel-dir") + 1]
    for task in spec["tasks"]:
        [library] = [lib for lib in task["libraries"] if "whl" in lib]
        wheel = (BUNDLE.job_files["s3_sink"].parent / library["whl"]).resolve()
        assert wheel.parent == (ROOT / artifact["path"] / wheel_dir).resolve()
        assert fnmatch.fnmatch("s3connect-0.1.0-py3-none-any.whl", wheel.name)


def test_the_sink_gets_the_jvm_line_function_and_the_converter_it_runs() -> None:
    jar = BUNDLE.config["artifacts"]["s3connect_jvm"]
    assert jar["type"] == "jar" and jar["build"] == "make jvm-jar"
    [built] = jar["files"]
    makefile = (ROOT / "Makefile").read_text()
    assert f"cp .deps/spark-jars/s3connect-jvm.jar {Path(built['source']).parent}/" in makefile
    [task] = BUNDLE.jobs["s3_sink"]["tasks"]
    jars = [lib["jar"] for lib in task["libraries"] if "jar" in lib]
    assert [(BUNDLE.job_files["s3_sink"].parent / j).resolve() for j in jars] == [
        (ROOT / built["source"]).resolve()
    ]
    # The same connect-json as the local stack's (the kafka-clients of Spark's Kafka connector).
    pom = (ROOT / "stack" / "spark-pom.xml").read_text()
    [maven] = [lib["maven"] for lib in task["libraries"] if "maven" in lib]
    group, artifact_id, version = maven["coordinates"].split(":")
    assert f"<artifactId>{artifact_id}</artifactId>\n      <version>{version}</version>" in pom
    assert group == "org.apache.kafka"


# ---------------------------------------------------------------------------------------------
# Credentials


def test_no_credentials_in_any_yaml() -> None:
    for path in BUNDLE.files:
        text = path.read_text()
        assert not CREDENTIAL_KEYS.search(text), f"{path}: a credential key"
        assert not re.search(r"AKIA[0-9A-Z]{16}", text), f"{path}: an AWS access key id"
    for job, spec in BUNDLE.jobs.items():
        for cluster in spec["job_clusters"]:
            env = cluster["new_cluster"]["spark_env_vars"]
            for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
                assert re.fullmatch(r"\{\{secrets/\$\{var\.secret_scope\}/[\w-]+\}\}", env[name]), (
                    job,
                    name,
                )
            assert env["S3CONNECT_SECRET_SCOPE"] == "${var.secret_scope}"


def test_the_secret_keys_in_yaml_are_the_ones_the_secrets_module_reads() -> None:
    from s3connect.app.secrets import SCOPE_ENV, SECRET_KEYS

    names = {name for _, name, _ in SECRET_KEYS}
    for spec in BUNDLE.jobs.values():
        for cluster in spec["job_clusters"]:
            env = cluster["new_cluster"]["spark_env_vars"]
            assert SCOPE_ENV in env
            for value in env.values():
                for m in re.finditer(r"\{\{secrets/[^/]+/([\w-]+)\}\}", value):
                    assert m.group(1) in names


def test_readme_documents_every_variable() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Deploy to Databricks") :]
    for name in BUNDLE.config["variables"]:
        assert f"`{name}`" in section, name
    commands = (
        "databricks bundle validate -t dev",
        "databricks bundle deploy -t dev",
        "databricks secrets create-scope",
        "databricks secrets put-secret",
    )
    for command in commands:
        assert command in section, command
