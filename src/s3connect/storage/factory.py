"""The storage a config's ``store.url`` names: S3, or a local folder for ``file://``."""

from __future__ import annotations

from urllib.parse import urlparse

from s3connect.storage.base import Storage
from s3connect.storage.local import LocalStorage
from s3connect.storage.s3 import S3Settings, S3Storage

__all__ = [
    "make_storage",
]


def make_storage(settings: S3Settings) -> Storage:
    """S3 storage, or a local folder when ``store.url`` is a ``file://`` URL."""
    if settings.endpoint_url and settings.endpoint_url.startswith("file://"):
        return LocalStorage(urlparse(settings.endpoint_url).path)
    return S3Storage(settings)
