"""Notebook widgets: Databricks' ``dbutils.widgets`` in a workspace, a local stand-in elsewhere.

The notebooks declare their widgets through :func:`notebook_widgets` and read values with
``get``. Locally, values come from ``name=value`` command-line arguments (as a job's parameters
would give them), else the declared default, so the same notebook file runs outside Databricks::

    python notebooks/s3_sink.py topics=events flush.size=100
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

__all__ = [
    "FROM_CONFIG",
    "VERBOSE",
    "LocalWidgets",
    "WidgetSpec",
    "Widgets",
    "declare_widgets",
    "notebook_widgets",
    "whole_config",
    "widget_overrides",
]

FROM_CONFIG = "(from config)"
"""Dropdown choice meaning "leave this key to the whole-config widget"."""

WidgetSpec = tuple[str, str, tuple[str, ...] | None, str]
"""(name, default, dropdown choices or None for a text widget, label)."""


class Widgets(Protocol):
    """The part of ``dbutils.widgets`` the notebooks use."""

    def text(self, name: str, defaultValue: str, label: str | None = None) -> None: ...

    def dropdown(
        self, name: str, defaultValue: str, choices: list[str], label: str | None = None
    ) -> None: ...

    def get(self, name: str) -> str: ...


class LocalWidgets:
    """``dbutils.widgets`` outside Databricks: defaults overridden by ``name=value`` args."""

    def __init__(self, args: Sequence[str] | None = None) -> None:
        self._given: dict[str, str] = {}
        for arg in sys.argv[1:] if args is None else args:
            name, sep, value = arg.partition("=")
            if not sep:
                raise ValueError(f"notebook parameter {arg!r} is not name=value")
            self._given[name.lstrip("-")] = value
        self._declared: dict[str, str] = {}
        self._choices: dict[str, list[str]] = {}

    def text(self, name: str, defaultValue: str, label: str | None = None) -> None:
        self._declared[name] = defaultValue

    def dropdown(
        self, name: str, defaultValue: str, choices: list[str], label: str | None = None
    ) -> None:
        if defaultValue not in choices:
            raise ValueError(f"widget {name!r}: default {defaultValue!r} not in {choices}")
        self._declared[name] = defaultValue
        self._choices[name] = list(choices)

    def get(self, name: str) -> str:
        if name not in self._declared:
            raise ValueError(f"no widget named {name!r} is declared")
        value = self._given.get(name, self._declared[name])
        choices = self._choices.get(name)
        if choices is not None and value not in choices:
            raise ValueError(f"widget {name!r}: {value!r} is not one of {choices}")
        return value

    def undeclared(self) -> list[str]:
        """Parameters given on the command line that no widget declares."""
        return sorted(set(self._given) - set(self._declared))


def notebook_widgets(namespace: Mapping[str, Any]) -> Widgets:
    """``dbutils.widgets`` when the notebook runs on Databricks, else a :class:`LocalWidgets`."""
    dbutils = namespace.get("dbutils")
    if dbutils is not None:
        return dbutils.widgets  # type: ignore[no-any-return]
    return LocalWidgets()


def declare_widgets(widgets: Widgets, spec: Sequence[WidgetSpec]) -> None:
    """Declare text and dropdown widgets from a spec."""
    for name, default, choices, label in spec:
        if choices is None:
            widgets.text(name, default, label)
        else:
            widgets.dropdown(name, default, list(choices), label)


VERBOSE: WidgetSpec = ("verbose", "false", ("false", "true"), "Print traces and Spark's logs")
"""The run's own widget (not a connector key): print traces and Spark's own log lines."""

_NOT_KEYS = ("connector.config", VERBOSE[0])


def widget_overrides(widgets: Widgets, spec: Sequence[WidgetSpec]) -> dict[str, str]:
    """The widgets that set a connector key: not blank, not :data:`FROM_CONFIG`, neither the
    whole-config widget nor :data:`VERBOSE`."""
    out: dict[str, str] = {}
    for name, _default, _choices, _label in spec:
        value = widgets.get(name)
        if name not in _NOT_KEYS and value.strip() and value != FROM_CONFIG:
            out[name] = value
    return out


def whole_config(text: str) -> dict[str, str]:
    """The whole-config widget ``connector.config``: JSON text, or locally a path to a
    ``.json``/``.properties`` file; blank is an empty config."""
    from s3connect.config.parsing import load_config_file, parse_config_text

    text = text.strip()
    if not text:
        return {}
    if not text.startswith("{") and Path(text).is_file():
        return load_config_file(text)
    return parse_config_text(text, "json")
