"""JSON lines files: Confluent's JsonRecordWriterProvider and the source's reader of them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, BinaryIO

from s3connect.connect.json_data import dumps_json
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Type
from s3connect.convert.json import JsonConverter
from s3connect.formats.base import FileRecords
from s3connect.formats.common import (
    check_compression,
    check_level,
    file_schema,
    gunzip,
    open_stream,
    split_records,
    write_parts,
)
from s3connect.util.jackson import dumps_fast

__all__ = ["JsonFormat", "json_line", "read_json"]

_LINE_SEPARATOR = b"\n"  # System.lineSeparator() on the Linux workers Confluent runs on


class JsonFormat:
    """Writes one JSON document per record value, each followed by ``"\\n"``.

    Struct values go through Kafka's JsonConverter with ``schemas.enable=false`` (logical types
    as numbers, decimals per ``json.decimal.format``, bytes as base64); other values are written
    as Jackson's ObjectMapper writes them, as Confluent does.

    Args:
        compression: ``s3.compression.type``: ``none`` or ``gzip`` (extension ``.json.gz``).
        level: ``s3.compression.level`` (-1 = zlib default).
        decimal_format: ``json.decimal.format``: ``BASE64`` (default) or ``NUMERIC``.
    """

    def __init__(
        self, compression: str = "none", level: int = -1, *, decimal_format: str = "BASE64"
    ) -> None:
        self.compression = check_compression(compression)
        self.level = check_level(level)
        self.extension = ".json" + (".gz" if compression == "gzip" else "")
        self.decimal_format = decimal_format
        self._converter = JsonConverter(schemas_enable=False, decimal_format=decimal_format)

    def write(self, records: Sequence[SinkRecord], out: BinaryIO) -> None:
        """Write one complete (optionally gzipped) JSON lines file to ``out``.

        Raises:
            ValueError: a value cannot be serialized (e.g. a required field is null).
        """
        schema = file_schema(records)
        stream = open_stream(out, self.compression, self.level)
        is_struct = schema is not None and schema.type is Type.STRUCT
        for record in records:
            if is_struct and record.value is not None:
                line = self._converter.from_connect(record.topic, schema, record.value)
                assert line is not None
            else:
                line = json_line(record.value, schema)
            stream.write(line + _LINE_SEPARATOR)
        stream.close()

    def record_line(self, record: SinkRecord) -> bytes:
        """The line of a record whose value is not a Struct, separator included."""
        return json_line(record.value, record.value_schema) + _LINE_SEPARATOR

    def write_lines(self, parts: Iterable[bytes | memoryview], out: BinaryIO) -> None:
        """Write one complete file from whole lines (separators included), in order."""
        write_parts(parts, out, self.compression, self.level)


def json_line(value: Any, schema: ConnectSchema | None) -> bytes:
    """A value that is not a Struct as Jackson's ObjectMapper writes it (no line separator)."""
    plain = schema is None or schema.type is Type.STRING  # what orjson may write
    if not plain or (line := dumps_fast(value)) is None:
        line = dumps_json(value, schema).encode("utf-8")
    return line


def read_json(data: bytes, extension: str, separator: bytes) -> FileRecords:
    """The records of a JSON lines file (gzip-compressed when ``extension`` ends with ``.gz``),
    schemaless, as JsonConverter with ``schemas.enable=false`` reads them (``separator`` is not
    used: lines end with ``"\\n"``).

    Raises:
        ValueError: a line is not JSON, or the file does not end with a line separator.
    """
    converter = JsonConverter(schemas_enable=False)
    lines = split_records(gunzip(data, extension), _LINE_SEPARATOR)
    return FileRecords(None, [converter.to_connect("", line)[0] for line in lines])


def read_json_each(data: bytes, extension: str) -> list[Any]:
    """:func:`read_json`'s values, each line read on its own: a line that is not JSON gives its
    :class:`ValueError` in its place (the source then skips that record alone).

    Raises:
        ValueError: the file cannot be split into lines (not gzip, no final line separator).
    """
    converter = JsonConverter(schemas_enable=False)
    values: list[Any] = []
    for line in split_records(gunzip(data, extension), _LINE_SEPARATOR):
        try:
            values.append(converter.to_connect("", line)[0])
        except ValueError as exc:
            values.append(exc)
    return values
