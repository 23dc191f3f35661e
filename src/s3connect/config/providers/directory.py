"""Kafka's ``DirectoryConfigProvider``: ``${directory:/path/to/dir:filename}``, the whole
content of a file in a directory (Kubernetes and Docker secret mounts)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import ClassVar, Self

from s3connect.config.providers.base import (
    AllowedPaths,
    ProviderContext,
    Unresolved,
)

__all__ = ["DirectoryConfigProvider"]


class DirectoryConfigProvider:
    """Regular files directly in a directory, keyed by file name, valued by their whole content
    (UTF-8, nothing stripped, as Kafka); ``allowed.paths`` limits which directories."""

    CLASS_NAME: ClassVar[str] = "org.apache.kafka.common.config.provider.DirectoryConfigProvider"
    PARAMS: ClassVar[tuple[str, ...]] = (AllowedPaths.PARAM,)

    def __init__(self, allowed: AllowedPaths) -> None:
        self._allowed = allowed

    @classmethod
    def configure(cls, params: Mapping[str, str], context: ProviderContext) -> Self:
        """A provider reading the directories ``allowed.paths`` allows.

        Raises:
            InvalidParam: on an ``allowed.paths`` entry that is not absolute or does not exist.
        """
        return cls(AllowedPaths(params.get(AllowedPaths.PARAM)))

    def get(self, path: str, key: str) -> str:
        """The content of the regular file ``key`` directly in the directory ``path``."""
        if not path:
            raise Unresolved("needs a directory: ${<provider>:<directory>:<file name>}")
        directory = self._allowed.check(path)
        if not os.path.isdir(directory):
            raise Unresolved(f"{path} is not a directory")
        # Kafka lists the directory: a key is a plain file name, never a path into another one
        file = os.path.join(directory, key)
        if key in ("", ".", "..") or "/" in key or os.sep in key or not os.path.isfile(file):
            raise Unresolved(f"directory {path} has no file {key}")
        self._allowed.check_real(file)
        try:
            with open(file, "rb") as f:
                return f.read().decode("utf-8", errors="replace")
        except OSError as exc:
            raise Unresolved(
                f"cannot read {key} in {path}: {exc.strerror or type(exc).__name__}"
            ) from None
