"""Keys, headers and tombstones: ``store.kafka.keys`` / ``store.kafka.headers``, their formats,
and ``tombstone.encoded.partition``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

from s3connect.config.format import FORMAT_CLASSES, gzip_refusal
from s3connect.config.parsing import bool_text
from s3connect.config.reader import KeyReader, resolve_class

__all__ = ["KeysHeadersConfig"]

_FORMATS = {
    "keys": ("avro", "json", "parquet", "bytearray"),
    "headers": ("avro", "json", "parquet"),
}
_GZIP_FORMATS = ("json", "bytearray")


@dataclass(frozen=True, kw_only=True)
class KeysHeadersConfig:
    """What is written beside the values (Confluent's ``KeyValueHeaderRecordWriterProvider``),
    and where tombstones go."""

    tombstone_encoded_partition: str = "tombstone"
    """The folder of records with a null value (with ``behavior.on.null.values=write``)."""
    store_kafka_keys: bool = False
    store_kafka_headers: bool = False
    keys_format: Literal["avro", "json", "parquet", "bytearray"] = "avro"
    headers_format: Literal["avro", "json", "parquet", "bytearray"] = "avro"
    """Never ``bytearray`` when :attr:`store_kafka_headers` (only stored headers are written)."""

    @classmethod
    def read(
        cls, r: KeyReader, *, compression_type: str, behavior_on_null_values: str
    ) -> KeysHeadersConfig:
        """Read the keys as S3SinkConnectorConfig and S3SinkConnectorValidator do: headers
        cannot be ByteArray, gzip (``compression_type``) only with json/bytearray, tombstones
        (``behavior.on.null.values=write``) need keys."""
        store = {side: r.boolean(f"store.kafka.{side}", False) for side in ("keys", "headers")}
        formats: dict[str, str] = {}
        for side in ("keys", "headers"):
            fmt = _read_format(r, side, store[side])
            formats[side] = fmt or "avro"
            if compression_type == "gzip" and store[side] and fmt and fmt not in _GZIP_FORMATS:
                r.problem(  # S3SinkConnectorValidator.validateCompression
                    f"store.kafka.{side}, {side}.format.class, s3.compression.type: "
                    + gzip_refusal(side, FORMAT_CLASSES[fmt])
                )
        tombstone = r.string("tombstone.encoded.partition", "tombstone")
        if behavior_on_null_values == "write":
            if not store["keys"]:
                r.problem(  # S3SinkConnectorValidator.validateTombstoneWriter
                    "store.kafka.keys, behavior.on.null.values: Writing Kafka record keys to "
                    "storage is mandatory when tombstone writing is enabled."
                )
            if not tombstone:
                r.invalid("tombstone.encoded.partition", "", "must not be empty")
        return cls(
            tombstone_encoded_partition=tombstone,
            store_kafka_keys=store["keys"],
            store_kafka_headers=store["headers"],
            keys_format=cast(Literal["avro", "json", "parquet", "bytearray"], formats["keys"]),
            headers_format=cast(
                Literal["avro", "json", "parquet", "bytearray"], formats["headers"]
            ),
        )

    def describe(self) -> dict[str, str]:
        """The keys under their names, class names in full."""
        return {
            "tombstone.encoded.partition": self.tombstone_encoded_partition,
            "store.kafka.keys": bool_text(self.store_kafka_keys),
            "store.kafka.headers": bool_text(self.store_kafka_headers),
            "keys.format.class": FORMAT_CLASSES[self.keys_format],
            "headers.format.class": FORMAT_CLASSES[self.headers_format],
        }


def _read_format(r: KeyReader, side: str, stored: bool) -> str | None:
    """``keys.format.class`` or ``headers.format.class`` as a short name (``avro`` by default,
    None when refused); Confluent's class accepts any format, but headers cannot be written as
    ByteArray (refused only when they are stored)."""
    key = f"{side}.format.class"
    value = r.get(key)
    if value is None:
        return "avro"
    allowed = _FORMATS[side] if stored else _FORMATS["keys"]
    short = resolve_class(value, FORMAT_CLASSES)
    if short is None or short not in allowed:
        why = " (ByteArrayFormat cannot hold headers)" if short == "bytearray" else ""
        r.invalid(
            key,
            value,
            "must be one of " + ", ".join(f"{a} ({FORMAT_CLASSES[a]})" for a in allowed) + why,
        )
        return None
    return short
