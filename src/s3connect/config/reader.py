"""The key reader: typed values out of a connector config's strings, every problem collected."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import overload

from s3connect.config.masking import shown
from s3connect.errors import ConfigError

__all__ = ["INT_MAX", "INT_MIN", "LONG_MAX", "KeyReader", "one_of_values", "resolve_class"]

INT_MAX = 2**31 - 1
"""Java's ``Integer.MAX_VALUE`` (Kafka's INT type)."""
INT_MIN = -(2**31)
"""Java's ``Integer.MIN_VALUE``."""
LONG_MAX = 2**63 - 1
"""Java's ``Long.MAX_VALUE`` (Kafka's LONG type)."""


class KeyReader:
    """Reads typed values from a config's string map, collecting problems and the keys read.

    Attributes:
        raw: The config, keys to string values.
        problems: One line per invalid, missing or unsupported key, in the order found.
        used: Keys read so far; the others are unknown (see :meth:`finish`).
        ignored: Keys accepted without effect here (for a warning).
    """

    def __init__(self, raw: Mapping[str, str]) -> None:
        self.raw = dict(raw)
        self.problems: list[str] = []
        self.used: set[str] = set()
        self.ignored: list[str] = []

    def has(self, key: str) -> bool:
        """Whether ``key`` is set (it is not marked as read)."""
        return key in self.raw

    def peek(self, key: str) -> str | None:
        """The raw value of ``key`` without marking it as read."""
        return self.raw.get(key)

    def raw_text(self, key: str) -> str:
        """The raw value of ``key`` (empty when absent), for messages."""
        return self.raw.get(key, "")

    def get(self, key: str) -> str | None:
        """The raw value of ``key`` (None when absent), marked as read."""
        self.used.add(key)
        return self.raw.get(key)

    def unread(self, prefix: str) -> list[str]:
        """The keys starting with ``prefix`` not read yet, in config order."""
        return [k for k in self.raw if k.startswith(prefix) and k not in self.used]

    def problem(self, text: str) -> None:
        """Record a problem that is not about one key's value."""
        self.problems.append(text)

    def invalid(self, key: str, value: str, allowed: str) -> None:
        """Record ``key=value is invalid: allowed`` (secret values hidden)."""
        self.problems.append(f"{key}={shown(key, value)} is invalid: {allowed}")

    def missing(self, key: str, allowed: str) -> None:
        """Record ``key is missing: required, allowed``."""
        self.problems.append(f"{key} is missing: required, {allowed}")

    def later(self, key: str, value: str, what: str) -> None:
        """Record ``key=value is not supported yet: what`` (secret values hidden)."""
        self.problems.append(f"{key}={shown(key, value)} is not supported yet: {what}")

    def ignore(self, key: str) -> None:
        """Record ``key`` as accepted without effect."""
        self.ignored.append(key)

    def ignored_keys(self) -> tuple[str, ...]:
        """The keys accepted without effect, sorted, each once."""
        return tuple(sorted(set(self.ignored)))

    def finish(self, what: str, known: str) -> None:
        """Report unread keys as unknown and raise every problem at once.

        Args:
            what: The config's name in the message (``connector config``).
            known: Whose keys are known, for the unknown-keys line.

        Raises:
            ConfigError: listing every problem, one a line.
        """
        unknown = sorted(k for k in self.raw if k not in self.used)
        if unknown:
            self.problems.append(f"unknown keys (not {known} keys): " + ", ".join(unknown))
        if self.problems:
            count = len(self.problems)
            raise ConfigError(
                f"invalid {what} ({count} problem{'s' if count > 1 else ''}):\n  - "
                + "\n  - ".join(self.problems)
            )

    def string(self, key: str, default: str, *, strip: bool = True) -> str:
        """The value of ``key`` (stripped unless ``strip=False``), else ``default``."""
        value = self.get(key)
        if value is None:
            return default
        return value.strip() if strip else value

    def connector_name(self, default: str) -> str:
        """``name``, checked as Kafka's ``NonEmptyStringWithoutControlChars`` checks it (given
        but blank: "String may not be empty"); ``default`` when absent."""
        value = self.get("name")
        if value is None:
            return default
        name = value.strip()
        controls = [str(ord(c)) for c in name if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F]
        if not name:
            self.invalid("name", value, "String may not be empty")
        elif controls:
            self.invalid(
                "name",
                value,
                "String may not contain control sequences but had the following ASCII chars: "
                + ", ".join(controls),
            )
        return name or default

    def optional(self, key: str) -> str | None:
        """The stripped value of ``key``; None when absent or blank."""
        value = self.get(key)
        if value is None or not value.strip():
            return None
        return value.strip()

    @overload
    def integer(self, key: str, default: int, lo: int, hi: int, allowed: str) -> int: ...

    @overload
    def integer(self, key: str, default: None, lo: int, hi: int, allowed: str) -> int | None: ...

    def integer(self, key: str, default: int | None, lo: int, hi: int, allowed: str) -> int | None:
        """The integer value of ``key`` within ``lo..hi``; ``default`` when absent or invalid."""
        value = self.get(key)
        if value is None:
            return default
        text = value.strip()
        if re.fullmatch(r"[+-]?\d+", text) and lo <= int(text) <= hi:
            return int(text)
        self.invalid(key, value, allowed)
        return default

    def ranged(
        self,
        key: str,
        default: int,
        lo: int | None = None,
        hi: int | None = None,
        *,
        kind: str = "INT",
    ) -> int:
        """An ``INT`` or ``LONG`` key with Kafka's ``ConfigDef.Range`` (``atLeast(lo)``,
        ``between(lo, hi)``, or none), refused with Kafka's messages; ``default`` when absent or
        invalid."""
        value = self.get(key)
        if value is None:
            return default
        text = value.strip()
        bits = 31 if kind == "INT" else 63
        if not re.fullmatch(r"[+-]?\d+", text) or not -(2**bits) <= int(text) < 2**bits:
            self.invalid(key, value, f"Not a number of type {kind}")
        elif lo is not None and int(text) < lo:
            self.invalid(key, value, f"Value must be at least {lo}")
        elif hi is not None and int(text) > hi:
            self.invalid(key, value, f"Value must be no more than {hi}")
        else:
            return int(text)
        return default

    def boolean(self, key: str, default: bool) -> bool:
        """``true`` / ``false`` (any case); ``default`` when absent or invalid (Kafka's BOOLEAN
        message)."""
        value = self.get(key)
        if value is None:
            return default
        text = value.strip().lower()
        if text in ("true", "false"):
            return text == "true"
        self.invalid(key, value, "Expected value to be either true or false")
        return default

    def choice(
        self,
        key: str,
        default: str,
        allowed: Iterable[str],
        *,
        exact: bool = False,
        why: str | None = None,
    ) -> str:
        """One of ``allowed`` (any case, returned as spelled there; with ``exact``, spelled as
        there, as Kafka's ``ConfigDef.ValidString``); ``default`` when absent or invalid. ``why``:
        the refusal's text (the validator's own), else ``must be one of ...``."""
        value = self.get(key)
        if value is None:
            return default
        options = tuple(allowed)
        text = value.strip()
        for option in options:
            if option == text or (not exact and option.lower() == text.lower()):
                return option
        allowed_text = why or f"must be one of {', '.join(options)}"
        spelled = [o for o in options if o.lower() == text.lower()]
        if spelled:
            allowed_text += f" (case-sensitive, as Confluent reads it: {spelled[0]!r})"
        self.invalid(key, value, allowed_text)
        return default


def one_of_values(values: Iterable[str]) -> str:
    """Confluent's ``oneOfValuesErrorMessage``: ``Value must be one of: [a, b]``."""
    return f"Value must be one of: [{', '.join(values)}]"


def resolve_class(value: str, table: Mapping[str, str]) -> str | None:
    """Short name (any case), full class name or simple class name -> short name, or None."""
    text = value.strip()
    for short, cls in table.items():
        if text.lower() == short or text == cls or text == cls.rsplit(".", 1)[-1]:
            return short
    return None
