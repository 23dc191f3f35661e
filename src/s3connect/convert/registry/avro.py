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
from s3connect.convert.registry.client import SchemaRef
from s3connect.util.avro_varint import encode_long

__all__ = ["AvroConverter"]


class AvroConverter(RegistryConverter):
    """Confluent's ``io.confluent.connect.avro.AvroConverter`` (reading)."""

    schema_type = "Avro"

    def _build(
        self, registered: Any, version: int, topic: str, latest: Any, schema_id: SchemaRef
    ) -> Prepared:
        root = _schema_json(registered)
        named = self._references(registered, topic)
        reader = connect_reader(root, version=version, named=named)
        read = reader.read
        if latest is not None and _schema_json(latest.schema) != root:
            latest_root = _schema_json(latest.schema)
            latest_named = self._references(latest.schema, topic)
            reader = connect_reader(latest_root, version=version, named=latest_named)
            read = _resolving(_parsed(root, named), _parsed(latest_root, latest_named), reader)
        raw_bytes = (root.get("type") if isinstance(root, dict) else root) == "bytes"
        strict = self.settings.fail_on_trailing_data

        def decode(data: bytes) -> Any:
            if raw_bytes:  # the serializers write a bytes schema's value as it is
                buf = io.BytesIO(encode_long(len(data) - 5) + data[5:])
            else:
                buf = io.BytesIO(data)
                buf.seek(5)
            value = read(buf)
            if strict and buf.tell() != len(buf.getbuffer()):
                # (sic: two spaces, as AbstractKafkaAvroDeserializer writes it)
                raise ValueError(
                    f"Trailing data found after deserializing Avro  message for id {schema_id}"
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


def _parsed(root: Any, named: dict[str, Any]) -> Any:
    """fastavro's parsed schema of ``root`` (its references' named types first)."""
    known: dict[str, Any] = {}
    try:
        for schema in named.values():
            fastavro.parse_schema(schema, named_schemas=known)
        return fastavro.parse_schema(root, named_schemas=known)
    except Exception as exc:
        raise ValueError(f"fastavro cannot read the schema: {exc}") from None


def _resolving(writer: Any, latest: Any, reader: ConnectReader) -> Any:
    """Read a datum of the ``writer`` schema as one of ``latest`` (Avro's schema resolution,
    its defaults included), then as ``reader`` (of ``latest``) reads that datum's bytes."""

    def read(buffer: io.BytesIO) -> Any:
        datum = fastavro.schemaless_reader(buffer, writer, latest, return_record_name=True)
        resolved = io.BytesIO()
        fastavro.schemaless_writer(resolved, latest, datum)
        resolved.seek(0)
        return reader.read(resolved)

    return read
