"""Kafka's ``EnvVarConfigProvider``: ``${env:VARIABLE}``, an environment variable."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import ClassVar, Self

from s3connect.config.providers.base import InvalidParam, ProviderContext, Unresolved

__all__ = ["EnvVarConfigProvider"]


class EnvVarConfigProvider:
    """Environment variables; ``allowlist.pattern`` (a regular expression the whole name must
    match, default ``.*``) limits which ones. References take no path."""

    CLASS_NAME: ClassVar[str] = "org.apache.kafka.common.config.provider.EnvVarConfigProvider"
    PARAMS: ClassVar[tuple[str, ...]] = ("allowlist.pattern",)

    def __init__(self, environ: Mapping[str, str], allowlist: re.Pattern[str] | None) -> None:
        self._environ = environ
        self._allowlist = allowlist

    @classmethod
    def configure(cls, params: Mapping[str, str], context: ProviderContext) -> Self:
        """A provider of the variables ``allowlist.pattern`` matches (all without it).

        Raises:
            InvalidParam: when ``allowlist.pattern`` is not a regular expression.
        """
        pattern = params.get("allowlist.pattern")
        if pattern is None:
            return cls(context.environ, None)
        try:
            return cls(context.environ, re.compile(pattern))
        except re.error as exc:
            raise InvalidParam(
                "allowlist.pattern", pattern, f"not a regular expression ({exc.msg})"
            ) from None

    def get(self, path: str, key: str) -> str:
        """The variable ``key``; Kafka's provider also rejects a path."""
        if path:
            raise Unresolved(f"takes no path, got {path} (EnvVarConfigProvider)")
        if self._allowlist is not None and self._allowlist.fullmatch(key) is None:
            raise Unresolved(
                f"environment variable {key} does not match allowlist.pattern "
                f"{self._allowlist.pattern}"
            )
        value = self._environ.get(key)
        if value is None:
            raise Unresolved(f"environment variable {key} is not set")
        return value
