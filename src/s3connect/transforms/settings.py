"""One transform's or predicate's keys (``transforms.<alias>.*``), read as Kafka's ``ConfigDef``
reads them: strings are trimmed, lists split on commas (``\\s*,\\s*``), booleans are ``true`` or
``false`` in any case. Problems are collected, each naming the full key, the value and what is
allowed, so that a chain reports all of them at once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from s3connect.transforms.jvm import java_trim
from s3connect.transforms.values import java_text

__all__ = ["REQUIRED", "Settings", "invalid_value", "shown"]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Final = _Required()
"""The default of a key that has none (Kafka's ``NO_DEFAULT_VALUE``)."""

_COMMA = re.compile(r"\s*,\s*")


def shown(value: Any) -> str:
    """A config value as problems show it (``''`` when empty, lists joined by commas)."""
    if isinstance(value, list | tuple):
        value = ",".join(str(v) for v in value)
    if isinstance(value, bool):
        value = "true" if value else "false"
    text = str(value)
    return text if text != "" else "''"


def invalid_value(key: str, value: Any, message: str) -> str:
    """Kafka's ``ConfigException(name, value, message)`` text."""
    return f"Invalid value {java_text(value)} for configuration {key}: {message}"


class Settings:
    """The keys under one prefix, typed on reading; every key read is remembered as known.

    Args:
        prefix: The keys' common prefix, such as ``transforms.mask.``.
        raw: The keys without the prefix, and their values.
        now_ms: When the chain is built (epoch ms); see ``SimpleDateFormat``'s two-digit years.
    """

    def __init__(self, prefix: str, raw: Mapping[str, Any], now_ms: int = 0) -> None:
        self.prefix = prefix
        self.raw = raw
        self.now_ms = now_ms
        self.problems: list[str] = []
        self.known: set[str] = set()

    @property
    def failed(self) -> bool:
        """Whether any problem was found."""
        return bool(self.problems)

    def key(self, name: str) -> str:
        """The full key of ``name``."""
        return self.prefix + name

    def has(self, name: str) -> bool:
        """Whether the key is set."""
        return name in self.raw

    def invalid(self, name: str, value: Any, allowed: str) -> None:
        """Report an invalid value, as Kafka's ``ConfigException(name, value, msg)`` words it."""
        self.problems.append(invalid_value(self.key(name), value, allowed))

    def missing(self, name: str, allowed: str) -> None:
        """Report a required key that is not set, as Kafka's ``ConfigDef`` does (``allowed``
        follows as a hint)."""
        self.problems.append(
            f'Missing required configuration "{self.key(name)}" which has no default value. '
            f"({allowed})"
        )

    def problem(self, text: str) -> None:
        """Report a problem that is about several keys."""
        self.problems.append(text)

    def _get(self, name: str, default: Any, allowed: str) -> tuple[bool, Any]:
        self.known.add(name)
        if name not in self.raw or self.raw[name] is None:
            if default is REQUIRED:
                self.missing(name, allowed)
                return False, None
            return False, default
        return True, self.raw[name]

    def string(self, name: str, default: str | _Required | None, allowed: str) -> str | None:
        """A STRING key, trimmed (None when missing and required: a problem is reported)."""
        found, value = self._get(name, default, allowed)
        if not found:
            return value  # type: ignore[no-any-return]
        if not isinstance(value, str):
            self.invalid(name, value, f"must be a string: {allowed}")
            return None
        return java_trim(value)

    def non_empty(self, name: str, default: str | _Required | None, allowed: str) -> str | None:
        """A STRING key that may not be empty (``ConfigDef.NonEmptyString``)."""
        value = self.string(name, default, allowed)
        if value == "":
            self.invalid(name, value, f"String must be non-empty ({allowed})")
            return None
        return value

    def str_list(
        self, name: str, default: Sequence[str] | _Required | None, allowed: str
    ) -> list[str] | None:
        """A LIST key: comma-separated, items trimmed, ``''`` the empty list."""
        found, value = self._get(name, default, allowed)
        if not found:
            return None if value is None else list(value)
        if isinstance(value, list | tuple):
            return [java_trim(str(v)) for v in value]
        if not isinstance(value, str):
            self.invalid(name, value, f"must be a comma-separated list: {allowed}")
            return None
        trimmed = java_trim(value)
        return [] if trimmed == "" else _COMMA.split(trimmed)

    def non_empty_list(self, name: str, allowed: str) -> list[str] | None:
        """A required LIST key that may not be empty (``NonEmptyListValidator``: a null value is
        as empty as ``[]``)."""
        if self.has(name) and self.raw[name] is None:
            self.known.add(name)
            self.invalid(name, None, f"Empty list: {allowed}")
            return None
        value = self.str_list(name, REQUIRED, allowed)
        if value == []:
            self.invalid(name, value, f"Empty list: {allowed}")
            return None
        return value

    def boolean(self, name: str, default: bool) -> bool:
        """A BOOLEAN key."""
        found, value = self._get(name, default, "true or false")
        if not found or isinstance(value, bool):
            return bool(value)
        if isinstance(value, str) and java_trim(value).lower() in ("true", "false"):
            return java_trim(value).lower() == "true"
        self.invalid(name, value, "Expected value to be either true or false")
        return default

    def integer(self, name: str, default: int | None, allowed: str) -> int | None:
        """An INT key (a 32-bit integer)."""
        found, value = self._get(name, default, allowed)
        if not found:
            return value  # type: ignore[no-any-return]
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and re.fullmatch(r"[+-]?\d+", java_trim(value)):
            number = int(java_trim(value))
        else:
            self.invalid(name, value, f"Not a number of type INT: {allowed}")
            return None
        if not -(2**31) <= number < 2**31:
            self.invalid(name, value, f"Not a number of type INT: {allowed}")
            return None
        return number

    def choice(
        self,
        name: str,
        options: Sequence[str],
        default: str | _Required,
        ignore_case: bool = False,
    ) -> str | None:
        """A STRING key that must be one of ``options`` (``ValidString`` /
        ``CaseInsensitiveValidString``); returned as the option spells it."""
        allowed = ", ".join(options)
        value = self.string(name, default, f"one of {allowed}")
        if value is None:
            return None
        for option in options:
            if value == option or (ignore_case and value.upper() == option.upper()):
                return option
        how = " (case insensitive)" if ignore_case else ""
        self.invalid(name, value, f"String must be one of{how}: {allowed}")
        return None
