"""A local folder (``file://``) as storage: the same key layout as S3, each object written aside
and renamed into place."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

__all__ = [
    "LocalStorage",
]


class LocalStorage:
    """A local folder with the same key layout, for trying the sink without S3."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    @contextmanager
    def open_write(self, key: str, tags: Mapping[str, str] | None = None) -> Iterator[BinaryIO]:
        """As :meth:`Storage.open_write`; a folder has no object tags, so ``tags`` is unused."""
        path = self.root / key
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
        try:
            with tmp.open("wb") as out:
                yield out
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)

    def read(self, key: str) -> bytes:
        return (self.root / key).read_bytes()

    def list_keys(self, prefix: str = "") -> Iterator[str]:
        if not self.root.exists():
            return
        keys = (
            p.relative_to(self.root).as_posix()
            for p in self.root.rglob("*")
            if p.is_file() and not p.name.startswith(".")
        )
        yield from sorted(k for k in keys if k.startswith(prefix))

    def describe(self) -> str:
        return f"file://{self.root}"
