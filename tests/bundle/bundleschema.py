"""Databricks' own JSON schema of bundle configuration, applied offline.

``bundle-schema.json`` beside this module is what ``databricks bundle schema`` prints (see the
provenance in ``test_bundle_schema.py``). :func:`schema_errors` validates one YAML document of the
bundle (``databricks.yml``, or a ``resources/*.yml`` file: a partial bundle document the CLI
merges into the root) and returns one :class:`SchemaError` per leaf problem, each with the path
of the offending value.

Two adaptations to Python's ``jsonschema``:

- the schema's ``pattern`` values are Go regular expressions (``\\p{L}``, ``\\p{N}``), which
  ``re`` cannot compile: ``pattern`` is checked with the ``regex`` package instead;
- nearly every field is a ``oneOf`` of "its value" (the first branch) or "a ``${...}`` reference
  string" (the other branches), so a failed ``oneOf`` is reported through the value branch's own
  leaf errors (an unknown key, a bad enum value, a wrong type), not as "is not valid under any of
  the given schemas"; a ``${...}``-looking string that fits no reference branch is reported as
  such.

The schema accepts any top-level key and any string as a target's ``mode``; :func:`schema_errors`
also reports an unknown top-level key (the CLI warns "unknown field") and a mode other than
``development`` or ``production`` (the CLI fails: "unsupported value ... specified for 'mode'").
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import regex
from jsonschema import Draft202012Validator, ValidationError, validators

SCHEMA_PATH = Path(__file__).with_name("bundle-schema.json")
MODES = ("development", "production")
_SHORT = reprlib.Repr()  # values in messages, cut short
_SHORT.maxstring = _SHORT.maxother = 80


@dataclass(frozen=True, order=True)
class SchemaError:
    """One leaf error: where (``resources.jobs.s3_sink.tasks[0].task_key``) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path or '(document)'}: {self.message}"


@cache
def _compiled(pattern: str) -> Any:
    return regex.compile(pattern)


def _go_pattern(
    validator: Any, pattern: str, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    """``pattern`` with Go's regular-expression classes (``regex`` knows ``\\p{L}``)."""
    if validator.is_type(instance, "string") and not _compiled(pattern).search(instance):
        yield ValidationError(f"{_SHORT.repr(instance)} does not match {pattern!r}")


_BundleValidator = validators.extend(Draft202012Validator, {"pattern": _go_pattern})


@cache
def bundle_schema() -> dict[str, Any]:
    """The vendored schema."""
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text())
    return schema


@cache
def _validator() -> Any:
    return _BundleValidator(bundle_schema())


def _path(parts: Iterable[str | int]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _is_reference_branch(schema: Mapping[str, Any]) -> bool:
    return schema.get("type") == "string" and str(schema.get("pattern", "")).startswith(r"\$\{")


def leaf_errors(error: ValidationError) -> Iterator[SchemaError]:
    """The errors under ``error`` worth reporting: through every failed ``oneOf``/``anyOf``, the
    branch the value was meant for (the value branch, unless the value is a ``${...}`` string)."""
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        yield SchemaError(_path(error.absolute_path), _message(error))
        return
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    options: list[Mapping[str, Any]] = list(error.validator_value)
    references = sorted(
        str(o["pattern"]).split("(", 2)[1] for o in options if _is_reference_branch(o)
    )
    if isinstance(error.instance, str) and "${" in error.instance and references:
        accepted = ", ".join(f"${{{prefix}.*}}" for prefix in references)
        yield SchemaError(
            _path(error.absolute_path),
            f"{_SHORT.repr(error.instance)} is not a reference this field accepts ({accepted})",
        )
        return
    for sub in branches[min(branches)]:
        yield from leaf_errors(sub)


def _extra_errors(document: Mapping[str, Any]) -> Iterator[SchemaError]:
    """What the CLI rejects or warns about but the schema lets through: a top-level key it does
    not know (the schema's root allows any), a target mode other than the two it knows."""
    known = bundle_schema()["properties"]
    for key in document:
        if key not in known:
            yield SchemaError("", f"unknown top-level field {key!r}")
    targets = document.get("targets")
    if not isinstance(targets, Mapping):
        return
    for name, target in targets.items():
        if isinstance(target, Mapping) and "mode" in target and target["mode"] not in MODES:
            yield SchemaError(
                f"targets.{name}.mode", f"{target['mode']!r} is not one of {list(MODES)}"
            )


def schema_errors(document: Mapping[str, Any]) -> list[SchemaError]:
    """Every leaf error of ``document`` (one YAML file of the bundle) against the schema."""
    found: set[SchemaError] = set(_extra_errors(document))
    for error in _validator().iter_errors(document):
        found.update(leaf_errors(error))
    return sorted(found)


def _message(error: ValidationError) -> str:
    if error.validator == "type":
        return f"{_SHORT.repr(error.instance)} is not of type {error.validator_value!r}"
    if error.validator == "enum":
        return f"{_SHORT.repr(error.instance)} is not one of {error.validator_value}"
    return error.message


def format_errors(errors: Iterable[SchemaError]) -> str:
    """One error a line, for an assertion message."""
    return "\n".join(f"  {e}" for e in errors)
