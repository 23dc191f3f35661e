"""File formats by name: each format's writer (Confluent's RecordWriterProvider) and reader.

Each format writes ONE complete file of the records' values to a binary stream, and reads one
object's bytes back into its records' schema and Connect values::

    fmt = make_format("parquet", codec="snappy")
    fmt.write(records, out)   # out: BinaryIO; fmt.extension == ".snappy.parquet"
    file = read_file("parquet", data, ".snappy.parquet")
    file.schema, file.values  # ConnectSchema | None, list of Connect values
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import pyarrow as pa

from s3connect.formats.avro import AvroFormat, read_avro
from s3connect.formats.base import FileRecords, Format
from s3connect.formats.bytearray import ByteArrayFormat, read_bytearray, read_bytearray_column
from s3connect.formats.json import JsonFormat, read_json
from s3connect.formats.parquet import ParquetFormat, read_parquet

__all__ = [
    "AvroFormat",
    "ByteArrayFormat",
    "JsonFormat",
    "ParquetFormat",
    "format_names",
    "make_format",
    "read_bytearray_values",
    "read_file",
    "register_format",
]

_READERS: dict[str, Callable[[bytes, str, bytes], FileRecords]] = {
    "avro": read_avro,
    "parquet": read_parquet,
    "json": read_json,
    "bytearray": read_bytearray,
}
_T = TypeVar("_T")
_READ_ERRORS = (ValueError, KeyError, EOFError, OSError, IndexError, pa.ArrowException)


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


def read_file(fmt: str, data: bytes, extension: str, separator: bytes = b"\n") -> FileRecords:
    """Decode one object of format ``fmt`` (``avro``, ``parquet``, ``json``, ``bytearray``);
    ``extension`` tells ``.gz`` compression, ``separator`` splits ByteArray records.

    Raises:
        ValueError: the object is not a valid file of that format.
    """
    return _reading(fmt, lambda: _READERS[fmt](data, extension, separator))


def read_bytearray_values(data: bytes, extension: str, separator: bytes) -> pa.Array:
    """The records of one ByteArray object as one Arrow column (``read_file``'s, column-wise).

    Raises:
        ValueError: the object is not a valid ByteArray file (as ``read_file`` says it).
    """
    return _reading("bytearray", lambda: read_bytearray_column(data, extension, separator))


def _reading(fmt: str, read: Callable[[], _T]) -> _T:
    """``read()``, its failure as ``ValueError("cannot read it as <fmt>: ...")``."""
    try:
        return read()
    except _READ_ERRORS as exc:
        raise ValueError(f"cannot read it as {fmt}: {type(exc).__name__}: {exc}") from exc
