"""The asset bundle read offline as the Databricks CLI reads it; the widgets notebooks declare.

``load_bundle`` reads ``databricks.yml`` and the files it includes; ``resolve`` selects a target
and substitutes ``${var.*}``, ``${bundle.*}`` and ``${workspace.current_user.*}`` references as
``databricks bundle validate -t <target>`` would: a variable takes its ``--var`` value, else the
target's value, else its lookup (an ID the CLI finds in the workspace by name: here a
placeholder), else its default; one with none of them is an error ("no value assigned to
required variable"), as in the CLI's ``SetVariables`` mutator. ``notebook_widgets`` finds the
widgets a notebook declares by running its own declaration code against a recorder.
"""

from __future__ import annotations

import ast
import copy
import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_HEADER = "# Databricks notebook source"
REFERENCE = re.compile(r"(?<!\$)\$\{([A-Za-z_][\w\-]*(?:\.[A-Za-z_][\w\-]*|\[\d+\])*)\}")
TEST_USER = "someone@example.com"


class BundleError(Exception):
    """The bundle does not load or resolve (what ``databricks bundle validate`` would report)."""


@dataclass
class Bundle:
    """The root config with every included file's resources merged in."""

    config: dict[str, Any]
    job_files: dict[str, Path] = field(default_factory=dict)  # job key -> file defining it
    files: list[Path] = field(default_factory=list)
    # (kind, key), e.g. ("dashboards", "s3connect") -> the file defining that resource
    resource_files: dict[tuple[str, str], Path] = field(default_factory=dict)

    @property
    def jobs(self) -> dict[str, Any]:
        return dict(self.config.get("resources", {}).get("jobs", {}))

    @property
    def dashboards(self) -> dict[str, Any]:
        return dict(self.config.get("resources", {}).get("dashboards", {}))

    @property
    def alerts(self) -> dict[str, Any]:
        return dict(self.config.get("resources", {}).get("alerts", {}))

    @property
    def targets(self) -> dict[str, Any]:
        return dict(self.config.get("targets", {}))

    def default_target(self) -> str:
        defaults = [name for name, t in self.targets.items() if (t or {}).get("default")]
        if len(defaults) != 1:
            raise BundleError(f"exactly one target must be the default, found {defaults}")
        return defaults[0]

    def notebook_path(self, job: str, task: Mapping[str, Any]) -> Path:
        """A task's notebook file: relative to the YAML file that defines the job."""
        path = task["notebook_task"]["notebook_path"]
        return (self.job_files[job].parent / path).resolve()


def _read_yaml(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text())
    if not isinstance(data, dict):
        raise BundleError(f"{path}: not a YAML mapping")
    return data


def load_bundle(root: Path = ROOT) -> Bundle:
    """``databricks.yml`` plus every file its ``include`` globs match, resources merged."""
    main = root / "databricks.yml"
    config = _read_yaml(main)
    bundle = Bundle(config=config, files=[main])
    for kind, items in config.get("resources", {}).items():
        for key in items:
            bundle.resource_files[(kind, key)] = main
            if kind == "jobs":
                bundle.job_files[key] = main
    for pattern in config.get("include", []):
        matched = sorted(root.glob(pattern))
        if not matched:
            raise BundleError(f"include {pattern!r} matches no file")
        for path in matched:
            bundle.files.append(path)
            extra = _read_yaml(path)
            unknown = set(extra) - {"resources", "targets", "variables"}
            if unknown:
                raise BundleError(f"{path}: unexpected top-level keys {sorted(unknown)}")
            for kind, items in extra.get("resources", {}).items():
                merged = config.setdefault("resources", {}).setdefault(kind, {})
                for key, value in items.items():
                    if key in merged:
                        raise BundleError(f"{path}: resource {kind}.{key} is defined twice")
                    merged[key] = value
                    bundle.resource_files[(kind, key)] = path
                    if kind == "jobs":
                        bundle.job_files[key] = path
    return bundle


def references(node: Any) -> set[str]:
    """Every ``${...}`` reference path in a YAML tree."""
    found: set[str] = set()
    if isinstance(node, str):
        found.update(m.group(1) for m in REFERENCE.finditer(node))
    elif isinstance(node, Mapping):
        for key, value in node.items():
            found |= references(key) | references(value)
    elif isinstance(node, list):
        for item in node:
            found |= references(item)
    return found


def looked_up(lookup: Mapping[str, str]) -> str:
    """What stands, offline, for the ID the CLI would look up in the workspace (``lookup:``)."""
    [(kind, name)] = lookup.items()
    return f"<id of the {kind} named {name}>"


def target_variables(
    bundle: Bundle, target: str, given: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Each declared variable's value in ``target``: ``given`` (--var), target value (a value or
    a lookup), the variable's lookup, its default."""
    declared: dict[str, Any] = bundle.config.get("variables", {})
    target_values: dict[str, Any] = (bundle.targets[target] or {}).get("variables", {}) or {}
    for name in (*target_values, *(given or {})):
        if name not in declared:
            raise BundleError(f"target {target}: variable {name!r} is not declared")
    values: dict[str, Any] = {}
    for name, spec in declared.items():
        if given is not None and name in given:
            values[name] = given[name]
        elif name in target_values:
            value = target_values[name]
            if isinstance(value, dict) and "lookup" in value:
                values[name] = looked_up(value["lookup"])
            else:
                values[name] = (
                    value["default"] if isinstance(value, dict) and "default" in value else value
                )
        elif "lookup" in spec:
            values[name] = looked_up(spec["lookup"])
        elif "default" in spec:
            values[name] = spec["default"]
        else:
            raise BundleError(
                f"no value assigned to required variable {name} in target {target}: give it with "
                f'--var="{name}=..." or BUNDLE_VAR_{name}'
            )
    return values


def _substitute(node: Any, context: Mapping[str, Any]) -> Any:
    if isinstance(node, str):
        whole = REFERENCE.fullmatch(node)
        if whole:
            path = whole.group(1)
            if path not in context:
                raise BundleError(f"reference ${{{path}}} does not resolve")
            return context[path]

        def one(m: re.Match[str]) -> str:
            if m.group(1) not in context:
                raise BundleError(f"reference ${{{m.group(1)}}} does not resolve")
            return str(context[m.group(1)])

        return REFERENCE.sub(one, node)
    if isinstance(node, Mapping):
        return {key: _substitute(value, context) for key, value in node.items()}
    if isinstance(node, list):
        return [_substitute(item, context) for item in node]
    return node


def resolve(
    bundle: Bundle, target: str | None = None, given: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The bundle as deployed to ``target`` (default: the default target), references resolved."""
    target = target or bundle.default_target()
    if target not in bundle.targets:
        raise BundleError(f"no target {target!r}")
    spec = copy.deepcopy(bundle.targets[target] or {})
    config = copy.deepcopy({k: v for k, v in bundle.config.items() if k != "targets"})
    for key in ("mode", "run_as", "permissions", "presets", "artifacts"):
        if key in spec:
            config[key] = spec[key]
    config["workspace"] = {**config.get("workspace", {}), **spec.get("workspace", {})}
    for kind, items in spec.get("resources", {}).items():
        for key, value in items.items():
            config.setdefault("resources", {}).setdefault(kind, {}).setdefault(key, {}).update(
                value
            )
    config["bundle"] = {**config["bundle"], "target": target}

    context: dict[str, Any] = {
        "bundle.name": config["bundle"]["name"],
        "bundle.target": target,
        "workspace.current_user.userName": TEST_USER,
        "workspace.current_user.short_name": TEST_USER.split("@")[0],
    }
    variables = target_variables(bundle, target, given)
    # Variable values may refer to bundle fields or other variables: resolve until stable.
    for _ in range(len(variables) + 1):
        context.update({f"var.{name}": value for name, value in variables.items()})
        resolved = {name: _substitute(value, context) for name, value in variables.items()}
        if resolved == variables:
            break
        variables = resolved
    config["variables"] = variables
    context.update({f"var.{name}": value for name, value in variables.items()})
    return dict(_substitute(config, context))


# ---------------------------------------------------------------------------------------------
# Notebooks


@dataclass(frozen=True)
class Widget:
    name: str
    default: str
    choices: tuple[str, ...] | None


class WidgetRecorder:
    """Implements the notebooks' ``Widgets`` protocol, recording each declaration."""

    def __init__(self) -> None:
        self.widgets: dict[str, Widget] = {}

    def _add(self, name: str, default: str, choices: tuple[str, ...] | None) -> None:
        if name in self.widgets:
            raise BundleError(f"widget {name!r} declared twice")
        self.widgets[name] = Widget(name, default, choices)

    def text(self, name: str, defaultValue: str, label: str | None = None) -> None:
        self._add(name, defaultValue, None)

    def dropdown(
        self, name: str, defaultValue: str, choices: list[str], label: str | None = None
    ) -> None:
        self._add(name, defaultValue, tuple(choices))

    def get(self, name: str) -> str:
        raise BundleError("the widget declaration step read a widget value")


def _imported_functions(tree: ast.Module) -> dict[str, Callable[..., Any]]:
    found: dict[str, Callable[..., Any]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            module = importlib.import_module(node.module)
            for alias in node.names:
                found[alias.asname or alias.name] = getattr(module, alias.name)
    return found


def _called_names(tree: ast.Module) -> list[str]:
    return [
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    ]


def notebook_widgets(path: Path) -> dict[str, Widget]:
    """The widgets a notebook declares, in order.

    Runs the ``declare_*widgets`` functions the notebook imports and calls (its own declaration
    code) against a recorder, and adds any literal ``dbutils.widgets.text/dropdown`` calls.
    """
    tree = ast.parse(path.read_text(), str(path))
    functions = _imported_functions(tree)
    recorder = WidgetRecorder()
    for name in _called_names(tree):
        if name.startswith("declare_") and name.endswith("widgets"):
            functions[name](recorder)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("text", "dropdown")
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "widgets"
        ):
            args = [ast.literal_eval(a) for a in node.args]
            choices = tuple(args[2]) if node.func.attr == "dropdown" else None
            recorder._add(args[0], args[1], choices)
    return recorder.widgets


def notebook_config_builder(path: Path) -> Callable[[Any], Any]:
    """The ``*config_from_widgets`` function the notebook calls to build its connector config."""
    tree = ast.parse(path.read_text(), str(path))
    functions = _imported_functions(tree)
    names = [n for n in _called_names(tree) if n.endswith("config_from_widgets")]
    if len(names) != 1:
        raise BundleError(f"{path}: expected one *config_from_widgets call, found {names}")
    return functions[names[0]]


def notebook_declarer(path: Path) -> Callable[[Any], None]:
    """The ``declare_*widgets`` function the notebook calls."""
    tree = ast.parse(path.read_text(), str(path))
    functions = _imported_functions(tree)
    names = [n for n in _called_names(tree) if n.startswith("declare_") and n.endswith("widgets")]
    if len(names) != 1:
        raise BundleError(f"{path}: expected one declare_*widgets call, found {names}")
    return functions[names[0]]


def notebook_tasks(bundle: Bundle) -> list[tuple[str, dict[str, Any]]]:
    """(job key, task) for every notebook task of every job."""
    return [
        (job, task)
        for job, spec in bundle.jobs.items()
        for task in spec.get("tasks", [])
        if "notebook_task" in task
    ]
