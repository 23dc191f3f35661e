"""Confluent's ``io.confluent.connect.avro.AvroConverter`` (reading).

The wire format (magic byte, schema id) and the registry lookups: the writer schema by id, its
references, and its version under the record's subject. Schema and datum become Connect's
through :mod:`s3connect.convert.avro_data` (``AvroData`` with its default settings); values are
decoded with fastavro's ``schemaless_reader``.
"""

from __future__ import annotations

import io
import json
from typing import Any

from s3connect.convert.avro_data import connect_reader
from s3connect.convert.registry.base import Prepared, RegistryConverter

__all__ = ["AvroConverter"]


class AvroConverter(RegistryConverter):
    """Confluent's ``io.confluent.connect.avro.AvroConverter`` (reading)."""

    schema_type = "Avro"

    def _build(self, registered: Any, version: int, topic: str) -> Prepared:
        named = self._references(registered, topic)
        try:
            root = json.loads(registered.schema_str)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"the registered schema is not JSON: {exc}") from None
        reader = connect_reader(root, version=version, named=named)
        read = reader.read

        def decode(data: bytes) -> Any:
            buf = io.BytesIO(data)
            buf.seek(5)
            value = read(buf)
            if buf.tell() != len(data):
                raise ValueError(
                    f"{len(data) - buf.tell()} bytes left after the Avro datum (wrong schema?)"
                )
            return value

        return Prepared(reader.schema, decode)

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
