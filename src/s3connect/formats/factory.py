"""File formats: one writer per format, as Confluent's RecordWriterProvider.

Each format writes ONE complete file of the records' values to a binary stream::

    fmt = make_format("parquet", codec="snappy")
    fmt.write(records, out)   # out: BinaryIO; fmt.extension == ".snappy.parquet"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from s3connect.formats.avro import AvroFormat
from s3connect.formats.base import Format
from s3connect.formats.bytearray import ByteArrayFormat
from s3connect.formats.json import JsonFormat
from s3connect.formats.parquet import ParquetFormat

__all__ = [
    "AvroFormat",
    "ByteArrayFormat",
    "JsonFormat",
    "ParquetFormat",
    "format_names",
    "make_format",
    "register_format",
]


_REGISTRY: dict[str, Callable[..., Format]] = {}
_ALIASES = {
    "io.confluent.connect.s3.format.avro.AvroFormat": "avro",
    "io.confluent.connect.s3.format.json.JsonFormat": "json",
    "io.confluent.connect.s3.format.parquet.ParquetFormat": "parquet",
    "io.confluent.connect.s3.format.bytearray.ByteArrayFormat": "bytearray",
}


def register_format(name: str, factory: Callable[..., Format]) -> None:
    """Register a format factory under a short name."""
    _REGISTRY[name.lower()] = factory


def format_names() -> list[str]:
    """The registered short names, sorted."""
    return sorted(_REGISTRY)


def make_format(name: str, **options: Any) -> Format:
    """Build a format by short name (``avro``, ``json``, ``parquet``, ``bytearray``) or by
    Confluent's ``format.class`` name; ``options`` go to its constructor.

    Raises:
        ValueError: unknown name or invalid option value.
    """
    key = _ALIASES.get(name.strip(), name.strip()).lower()
    factory = _REGISTRY.get(key)
    if factory is None:
        raise ValueError(f"Unknown format {name!r}; known: {', '.join(format_names())}")
    return factory(**options)


register_format("avro", AvroFormat)
register_format("json", JsonFormat)
register_format("parquet", ParquetFormat)
register_format("bytearray", ByteArrayFormat)
