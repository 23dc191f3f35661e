"""Keys and headers files: Confluent's ``RecordViews`` (KeyRecordView, HeaderRecordView).

With ``store.kafka.keys`` / ``store.kafka.headers`` Confluent's
``KeyValueHeaderRecordWriterProvider`` writes, beside each value file, a keys file and a
headers file through the record-writer provider of ``keys.format.class`` /
``headers.format.class`` set to a record view: the same writer, fed each record's key (or
headers) instead of its value. :class:`ViewFormat` does that here by wrapping a value format::

    keys = ViewFormat(make_format("avro"), "keys", "avro")
    keys.extension      # ".keys.avro"; the file is <topic>+<partition>+<offset>.keys.avro
    keys.write(records, out)

What each view holds, as Confluent's views make it:

- keys: the record key with its key schema. Parquet needs a record, so it is enveloped as a
  struct ``RecordKey`` with one field ``key``; the other formats write the key as is.
- headers: one array per record of ``{key: string, value: string}`` structs (an unnamed struct:
  ``io.confluent.connect.avro.ConnectDefault`` in Avro), each value converted to a string
  (``Values.convertToString`` of what ``SimpleHeaderConverter`` reads, done by the sink's
  record converter: :func:`s3connect.sink.converters.header_text`; here each value is text).
  JSON and Parquet envelope it in a struct ``RecordHeaders`` with one field ``headers``.
  ByteArray cannot hold headers (Confluent rejects it too).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, BinaryIO, Literal

from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.formats.base import Format

__all__ = [
    "HEADERS_SCHEMA",
    "HEADER_SCHEMA",
    "ViewFormat",
    "header_texts",
    "headers_view",
    "key_view",
    "unwrap_headers",
    "unwrap_keys",
]

View = Literal["keys", "headers"]

HEADER_SCHEMA = ConnectSchema(
    Type.STRUCT,
    fields=(Field("key", ConnectSchema(Type.STRING)), Field("value", ConnectSchema(Type.STRING))),
)
"""``HeaderRecordView.SINGLE_HEADER_SCHEMA``: required ``key`` and ``value`` strings."""

HEADERS_SCHEMA = ConnectSchema(Type.ARRAY, value_schema=HEADER_SCHEMA)
"""The headers view of one record: an array of :data:`HEADER_SCHEMA`."""

_KEY_STRUCT = "RecordKey"
_HEADERS_STRUCT = "RecordHeaders"


def enveloped(view: View, fmt: str) -> bool:
    """Whether Confluent wraps the view in a struct for ``fmt`` (Parquet always; JSON headers)."""
    return fmt == "parquet" or (fmt == "json" and view == "headers")


def key_view(record: SinkRecord, envelop: bool) -> SinkRecord:
    """``KeyRecordView``: the record with its key (and key schema) in place of its value."""
    schema, value = record.key_schema, record.key
    if envelop:
        if schema is None:
            raise ValueError(
                f"a keys file in Parquet needs keys with a schema; offset {record.offset} of "
                f"{record.topic}-{record.partition} has a schemaless key"
            )
        schema = ConnectSchema(Type.STRUCT, name=_KEY_STRUCT, fields=(Field("key", schema),))
        value = {"key": value}
    return _with_value(record, schema, value)


def header_texts(record: SinkRecord) -> list[dict[str, str]]:
    """The record's headers as ``{key, value}`` string pairs, in order.

    Raises:
        ValueError: a null header value (a required field in Confluent's schema) or one that
            is not UTF-8 text (it could not be restored byte for byte).
    """
    out: list[dict[str, str]] = []
    for name, data in record.headers:
        if data is None:
            raise ValueError(
                f"header {name!r} of offset {record.offset} of {record.topic}-"
                f"{record.partition} is null: the headers file's value field is required"
            )
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(
                f"header {name!r} of offset {record.offset} of {record.topic}-"
                f"{record.partition} is not UTF-8 text: {exc}"
            ) from exc
        out.append({"key": name, "value": text})
    return out


def headers_view(record: SinkRecord, envelop: bool) -> SinkRecord:
    """``HeaderRecordView``: the record with its headers array in place of its value."""
    schema, value = HEADERS_SCHEMA, header_texts(record)
    if envelop:
        schema = ConnectSchema(
            Type.STRUCT, name=_HEADERS_STRUCT, fields=(Field("headers", HEADERS_SCHEMA),)
        )
        return _with_value(record, schema, {"headers": value})
    return _with_value(record, schema, value)


def _with_value(record: SinkRecord, schema: ConnectSchema | None, value: Any) -> SinkRecord:
    return record.new_record(
        record.topic, record.partition, record.key_schema, record.key, schema, value,
        record.timestamp,
    )  # fmt: skip


class ViewFormat:
    """A value format writing a record view instead (Confluent's ``RecordViewSetter``).

    Args:
        inner: The format of ``keys.format.class`` / ``headers.format.class``.
        view: ``keys`` or ``headers``.
        fmt: The inner format's short name (``avro``, ``json``, ``parquet``, ``bytearray``).
    """

    def __init__(self, inner: Format, view: View, fmt: str) -> None:
        if view == "headers" and fmt == "bytearray":
            raise ValueError("ByteArrayFormat cannot hold headers")
        self.inner = inner
        self.view: View = view
        self.fmt = fmt
        self.extension = f".{view}{inner.extension}"
        self._envelop = enveloped(view, fmt)

    def write(self, records: Sequence[SinkRecord], out: BinaryIO) -> None:
        """Write one complete keys or headers file of ``records`` to ``out``.

        Raises:
            ValueError: a record the view or the format cannot hold.
        """
        make = key_view if self.view == "keys" else headers_view
        self.inner.write([make(r, self._envelop) for r in records], out)


def unwrap_keys(fmt: str, values: list[Any]) -> list[Any]:
    """The keys of a keys file's values (removing the Parquet envelope)."""
    if enveloped("keys", fmt):
        return [v["key"] if isinstance(v, dict) else None for v in values]
    return values


def unwrap_headers(fmt: str, values: list[Any]) -> list[tuple[tuple[str, bytes | None], ...]]:
    """The headers of a headers file's values, as Kafka headers (text back to UTF-8 bytes, as
    ``SimpleHeaderConverter`` serializes a string)."""
    out: list[tuple[tuple[str, bytes | None], ...]] = []
    for value in values:
        items = (
            value.get("headers") if enveloped("headers", fmt) and isinstance(value, dict) else value
        )
        out.append(
            tuple(
                (str(h["key"]), None if h["value"] is None else str(h["value"]).encode("utf-8"))
                for h in items or ()
            )
        )
    return out
