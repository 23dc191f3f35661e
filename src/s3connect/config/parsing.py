"""Connector config text and values in: JSON (flat or envelope), ``.properties``, overrides.

Every value becomes Kafka's string form once, here (``true``, ``1000``, ``a,b``); the key groups
turn the strings into types.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal, TypeAlias

from s3connect.config.properties import parse_properties
from s3connect.config.providers import SecretLookup, resolve_config
from s3connect.errors import ConfigError

__all__ = [
    "Overrides",
    "bool_text",
    "load_config_file",
    "normalise",
    "overrides_mapping",
    "parse_config_text",
    "raw_config",
]

Overrides: TypeAlias = Mapping[str, object] | Iterable[str] | None
"""``{key: value}`` or ``["key=value", ...]`` (``--set`` / widget values)."""


def bool_text(value: bool) -> str:
    """Kafka's text of a boolean: ``true`` or ``false``."""
    return "true" if value else "false"


def parse_config_text(
    text: str, fmt: Literal["json", "properties"] | None = None
) -> dict[str, str]:
    """Parse a connector config from JSON (flat or ``{"name", "config"}``) or properties text.

    Args:
        text: The file content.
        fmt: ``"json"``, ``"properties"``, or None to detect (JSON when it starts with ``{``).

    Returns:
        Keys to string values (JSON numbers/booleans become Kafka's strings).

    Raises:
        ConfigError: on a syntax error or a JSON document that is not a connector config.
    """
    if fmt is None:
        fmt = "json" if text.lstrip().startswith("{") else "properties"
    if fmt == "properties":
        return parse_properties(text)
    if fmt != "json":
        raise ConfigError(f"config format {fmt!r} is invalid: must be json or properties")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"config JSON is invalid: {exc}") from None
    if not isinstance(doc, dict):
        raise ConfigError("config JSON is invalid: must be an object")
    if isinstance(doc.get("config"), dict):
        return _unwrap_envelope(doc)
    return normalise(doc)


def _unwrap_envelope(doc: dict[str, Any]) -> dict[str, str]:
    extra = sorted(set(doc) - {"name", "config", "tasks", "type"})
    if extra:
        raise ConfigError(
            f"config JSON envelope has unexpected keys {', '.join(extra)}: "
            'allowed are "name" and "config"'
        )
    config = normalise(doc["config"])
    outer = doc.get("name")
    if outer is not None:
        outer = str(outer)
        if config.setdefault("name", outer) != outer:
            raise ConfigError(
                f"name={config['name']} is invalid: the envelope's name is {outer}; they must match"
            )
    return config


def load_config_file(path: str | Path) -> dict[str, str]:
    """Read a connector config file: ``.json`` or Java ``.properties`` (else detected), UTF-8.

    Raises:
        ConfigError: when the file cannot be read or parsed.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"config file {p} cannot be read: {exc.strerror or exc}") from None
    suffix = p.suffix.lower()
    fmt: Literal["json", "properties"] | None = None
    if suffix == ".json":
        fmt = "json"
    elif suffix in (".properties", ".props", ".conf"):
        fmt = "properties"
    return parse_config_text(text, fmt)


def _stringify(key: str, value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return bool_text(value)
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return ",".join(s for v in value if (s := _stringify(key, v)) is not None)
    raise ConfigError(f"{key} is invalid: must be a string, number, boolean or list")


def normalise(mapping: Mapping[str, object]) -> dict[str, str]:
    """Keys stripped, values as Kafka's strings; None values dropped.

    Raises:
        ConfigError: on a key that is not a string or a value that is not a scalar or list.
    """
    out: dict[str, str] = {}
    for key, value in mapping.items():
        if not isinstance(key, str):
            raise ConfigError(f"config key {key!r} is invalid: keys must be strings")
        text = _stringify(key, value)
        if text is not None:
            out[key.strip()] = text
    return out


def overrides_mapping(overrides: Overrides) -> Mapping[str, object]:
    """``--set`` values (``key=value`` strings, one string, or a mapping) as a mapping.

    Raises:
        ConfigError: on an item without ``=`` or with an empty key.
    """
    if overrides is None:
        return {}
    if isinstance(overrides, Mapping):
        return overrides
    if isinstance(overrides, str):
        overrides = [overrides]
    out: dict[str, object] = {}
    for item in overrides:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"override {item!r} is invalid: must be key=value")
        out[key.strip()] = value
    return out


def raw_config(
    mapping: Mapping[str, object],
    overrides: Overrides = None,
    secret_lookup: SecretLookup | None = None,
) -> dict[str, str]:
    """A connector config with ``overrides`` applied on top, every value a string, and every
    config-provider reference (``${provider:[path:]key}``) resolved (see
    :mod:`s3connect.config.providers`; ``secret_lookup`` reads ``${secrets:...}``).

    Raises:
        ConfigError: a reference cannot be resolved (naming key and provider, never a value).
    """
    raw = normalise(mapping)
    raw.update(normalise(overrides_mapping(overrides)))
    return dict(resolve_config(raw, secret_lookup=secret_lookup).config)
