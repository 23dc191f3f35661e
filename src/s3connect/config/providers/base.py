"""What every config provider shares: the provider protocol, the two signals a provider raises
(a reference without a value, an invalid parameter) and Kafka's ``allowed.paths``."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import ClassVar, Protocol, Self, TypeAlias

__all__ = [
    "AllowedPaths",
    "ConfigProvider",
    "InvalidParam",
    "ProviderContext",
    "SecretLookup",
    "Unresolved",
]

SecretLookup: TypeAlias = Callable[[str, str], str]
"""``(scope, key) -> value``: ``dbutils.secrets.get`` on Databricks."""


class Unresolved(Exception):
    """A provider has no value for a reference. The message says why and names paths and
    variables, never a value."""


class InvalidParam(Exception):
    """A provider parameter (``config.providers.<name>.param.<param>``) is invalid."""

    def __init__(self, param: str, value: str, reason: str) -> None:
        super().__init__(f"{param}={value} is invalid: {reason}")
        self.param = param
        self.value = value
        self.reason = reason


@dataclass(frozen=True)
class ProviderContext:
    """What providers may read besides their parameters: the environment and the secret
    lookup the caller injected (``None`` off Databricks)."""

    environ: Mapping[str, str]
    secret_lookup: SecretLookup | None = None


class ConfigProvider(Protocol):
    """Kafka's ``ConfigProvider``: the value of a ``${name:[path:]key}`` reference."""

    CLASS_NAME: ClassVar[str]
    """The class name users write in ``config.providers.<name>.class``."""
    PARAMS: ClassVar[tuple[str, ...]]
    """The parameters it takes (``config.providers.<name>.param.<param>``)."""

    @classmethod
    def configure(cls, params: Mapping[str, str], context: ProviderContext) -> Self:
        """A provider with these parameters (only names in ``PARAMS``).

        Raises:
            InvalidParam: on a parameter value the provider cannot use.
        """

    def get(self, path: str, key: str) -> str:
        """The value of ``key`` at ``path`` (``""`` when the reference has no path).

        Raises:
            Unresolved: when there is none (missing, not allowed, unreadable).
        """


def _normalised(path: str) -> PurePath:
    """``path`` with ``.`` and ``..`` collapsed lexically, as Java's ``Path.normalize``."""
    text = os.path.normpath(path)
    if text.startswith("//"):  # POSIX keeps a leading "//"; Java's UnixPath does not
        text = "/" + text.lstrip("/")
    return PurePath(text)


class AllowedPaths:
    """Kafka's ``AllowedPaths``: the ``allowed.paths`` parameter of the file and directory
    providers, a comma-separated list of absolute, existing paths.

    A path is allowed when, normalised lexically, it lies under one of them (component by
    component), as Kafka checks; we also require its real path (symbolic links followed) to lie
    under one of theirs, which Kafka does not check. Without the parameter every path is
    allowed, as given.
    """

    PARAM: ClassVar[str] = "allowed.paths"

    def __init__(self, value: str | None) -> None:
        """Read the parameter's value (``None`` or empty: every path is allowed).

        Raises:
            InvalidParam: on an entry that is not absolute or does not exist.
        """
        self.allowed: tuple[PurePath, ...] | None = None
        self._real: tuple[PurePath, ...] = ()
        if not value:
            return
        allowed = []
        for entry in (e.strip() for e in value.split(",")):
            if not entry:
                continue
            path = _normalised(entry)
            if not path.is_absolute():
                raise InvalidParam(self.PARAM, value, f"{path} is not absolute")
            if not os.path.exists(path):
                raise InvalidParam(self.PARAM, value, f"{path} does not exist")
            allowed.append(path)
        self.allowed = tuple(allowed)
        self._real = tuple(PurePath(os.path.realpath(p)) for p in allowed)

    def check(self, path: str) -> str:
        """``path`` as it is to be read (normalised when ``allowed.paths`` is set).

        Raises:
            Unresolved: when the path lies outside ``allowed.paths``.
        """
        if "\0" in path:
            raise Unresolved(f"path {path!r} is not a valid path")
        if self.allowed is None:
            return path
        normalised = _normalised(path)
        if not any(normalised.is_relative_to(a) for a in self.allowed):
            raise Unresolved(f"path {path} is outside allowed.paths")
        self.check_real(str(normalised))
        return str(normalised)

    def check_real(self, path: str) -> None:
        """Raise :class:`Unresolved` when ``path`` leads outside ``allowed.paths`` through a
        symbolic link."""
        if self.allowed is None:
            return
        real = PurePath(os.path.realpath(path))
        if not any(real.is_relative_to(a) for a in self._real):
            raise Unresolved(f"path {path} leads outside allowed.paths (a symbolic link)")
