"""The Storage protocol: where the sink writes and the source reads objects."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol

__all__ = [
    "Storage",
]


class Storage(Protocol):
    """Where the sink writes and the source reads objects."""

    def open_write(self, key: str, tags: Mapping[str, str] | None = None) -> Any:
        """A context manager yielding a binary file; the object appears when it exits cleanly.

        ``tags`` are the object's Confluent tags (``startOffset``, ``endOffset``,
        ``recordCount``); a storage applies them only when configured to (``s3.object.tagging``).
        """

    def read(self, key: str) -> bytes:
        """The whole object at ``key``."""

    def list_keys(self, prefix: str = "") -> Iterator[str]:
        """Every key under ``prefix``, in lexicographic order."""

    def describe(self) -> str:
        """Where this storage points, for logs (no secrets)."""
