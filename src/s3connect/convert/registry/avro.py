"""Confluent's ``io.confluent.connect.avro.AvroConverter`` (reading).

The wire format (magic byte, schema id), the registry lookups (the writer schema by id, its
references, the subject of ``key.subject.name.strategy`` / ``value.subject.name.strategy``, the
version: the schema's ``confluent:version`` metadata, else its version under the subject) and
``AbstractKafkaAvroDeserializer``'s reading: a top-level ``bytes`` schema is the payload as it
is; bytes after the datum are ignored unless ``avro.fail.on.trailing.data``; with
``use.latest.version`` datums are resolved to the subject's latest schema. Schema and datum
become Connect's through :mod:`s3connect.convert.avro_data` (``AvroData`` with its default
settings); values are decoded with fastavro's ``schemaless_reader``.
"""

from __future__ import annotations

import io
import json
from typing import Any

import fastavro

from s3connect.convert.avro_data import ConnectReader, connect_reader
from s3connect.convert.registry.base import Prepared, RegistryConverter

__all__ = ["AvroConverter"]


class AvroConverter(RegistryConverter):
    """Confluent's ``io.confluent.connect.avro.AvroConverter`` (reading)."""

    schema_type = "Avro"

    def _build(self, registered: Any, version: int, topic: str, latest: Any = None) -> Prepared:
        root = _schema_json(registered)
        writer = connect_reader(root, version=version, named=self._references(registered, topic))
        reader = writer
        resolve = latest is not None and _schema_json(latest.schema) != root
        if resolve:
            named = self._references(latest.schema, topic)
            reader = connect_reader(_schema_json(latest.schema), version=version, named=named)
        read = _resolving(writer, reader) if resolve else reader.read
        raw_bytes = (root.get("type") if isinstance(root, dict) else root) == "bytes"
        strict = self.settings.fail_on_trailing_data

        def decode(data: bytes) -> Any:
            if raw_bytes:  # the serializers write a bytes schema's value as it is
                buf = io.BytesIO(_long(len(data) - 5) + data[5:])
            else:
                buf = io.BytesIO(data)
                buf.seek(5)
            value = read(buf)
            if strict and buf.tell() != len(buf.getbuffer()):
                sid = int.from_bytes(data[1:5], "big")
                # (sic: two spaces, as AbstractKafkaAvroDeserializer writes it)
                raise ValueError(
                    f"Trailing data found after deserializing Avro  message for id {sid}"
                )
            return value

        return Prepared(reader.schema, decode)

    def _record_name(self, registered: Any) -> str | None:
        """A record schema's full name (``AvroSchema.name()``), else None."""
        try:
            root = _schema_json(registered)
        except ValueError:
            return None
        if not isinstance(root, dict) or root.get("type") != "record" or "name" not in root:
            return None
        name = str(root["name"])
        namespace = root.get("namespace")
        return name if "." in name or not namespace else f"{namespace}.{name}"

    def _references(self, registered: Any, topic: str) -> dict[str, Any]:
        """Named types of the schema's references (depth first), by full name."""
        out: dict[str, Any] = {}

        def visit(schema: Any, seen: set[tuple[str, int]]) -> None:
            for ref in schema.references or []:
                key = (ref.subject, int(ref.version))
                if key in seen:
                    continue
                seen.add(key)
                found = self.registry.referenced(ref.subject, int(ref.version), topic)
                visit(found.schema, seen)
                out[str(ref.name)] = json.loads(found.schema.schema_str)

        visit(registered, set())
        return out


def _schema_json(registered: Any) -> Any:
    try:
        return json.loads(registered.schema_str)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the registered schema is not JSON: {exc}") from None


def _resolving(writer: ConnectReader, reader: ConnectReader) -> Any:
    """Read a datum written with ``writer``'s schema as ``reader``'s (Avro schema resolution)."""
    writer_schema, reader_schema = writer.fastavro_schema, reader.fastavro_schema
    named, convert = reader.return_named_type, reader.convert

    def read(buffer: io.BytesIO) -> Any:
        datum = fastavro.schemaless_reader(
            buffer, writer_schema, reader_schema, return_named_type=named
        )
        return datum if convert is None else convert(datum)

    return read


def _long(n: int) -> bytes:
    """Avro's zig-zag varint of ``n`` (a bytes value's length)."""
    z = (n << 1) ^ (n >> 63)
    out = bytearray()
    while z > 0x7F:
        out.append((z & 0x7F) | 0x80)
        z >>= 7
    out.append(z)
    return bytes(out)
