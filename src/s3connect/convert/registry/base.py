"""Confluent's Schema Registry converters: the shared base.

Each converter (:mod:`~s3connect.convert.registry.avro`, :mod:`~.json_schema`,
:mod:`~.protobuf`) reads the wire format (:mod:`~s3connect.convert.registry.client`), fetches the
writer schema by id, and turns schema and value into Connect's as Confluent's ``AvroData``,
``JsonSchemaData`` and ``ProtobufData`` do with their default settings. The Connect schema's
version is the registry's version of the schema under the record's subject
(``<topic>-value``/``<topic>-key``), as the Confluent converters set it.

Per (topic, schema id) everything is prepared once: the parsed schema, the Connect schema (one
object, so equal records share it) and a decoder. A record then costs one dict lookup and its
decode.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from s3connect.connect.schema import ConnectSchema
from s3connect.convert.registry.client import (
    Registry,
    subject_name,
    wire_header,
)

__all__ = [
    "Convert",
    "Decoder",
]

Decoder = Callable[[bytes], Any]
Convert = Callable[[Any], Any]


def identity(v: Any) -> Any:
    return v


@dataclasses.dataclass(frozen=True, slots=True)
class Prepared:
    """What a (topic, schema id) needs: the Connect schema and the payload decoder."""

    schema: ConnectSchema | None
    decode: Decoder


@dataclasses.dataclass(frozen=True, slots=True)
class Broken:
    """A schema that cannot be used (e.g. unsupported): every record with it fails alike."""

    message: str


class RegistryConverter:
    """Common part: wire header, per-(topic, id) cache, version lookup."""

    schema_type = ""

    def __init__(self, registry: Registry, *, is_key: bool = False) -> None:
        self.registry = registry
        self.is_key = is_key
        self._prepared: dict[tuple[str, int], Prepared | Broken] = {}

    def to_connect(self, topic: str, data: bytes | None) -> tuple[Any, ConnectSchema | None]:
        """Decode one framed record; null (a tombstone) gives ``(None, None)``.

        Raises:
            ValueError: not in the wire format, unknown schema id, undecodable payload.
            SchemaRegistryError: the registry cannot be used (after retries).
        """
        if data is None:
            return None, None
        schema_id = wire_header(data, topic)
        prepared = self._prepared.get((topic, schema_id))
        if prepared is None:
            prepared = self._prepare(topic, schema_id)
        if isinstance(prepared, Broken):
            raise ValueError(prepared.message)
        try:
            return prepared.decode(data), prepared.schema
        except ValueError:
            raise
        except Exception as exc:  # decoders' own errors (EOF, protobuf DecodeError, ...)
            raise ValueError(
                f"Failed to deserialize data for topic {topic} with schema id {schema_id} "
                f"to {self.schema_type}: {type(exc).__name__}: {exc}"
            ) from exc

    def _prepare(self, topic: str, schema_id: int) -> Prepared | Broken:
        prepared: Prepared | Broken
        try:
            registered = self.registry.schema(schema_id, topic, fmt=self._fmt)
            subject = subject_name(topic, self.is_key)
            version = self.registry.version(subject, registered, schema_id, topic)
            prepared = self._build(registered, version, topic)
        except ValueError as exc:  # about the records (unknown id, unusable schema): cached
            prepared = Broken(f"schema id {schema_id} ({self.schema_type}): {exc}")
        if len(self._prepared) >= 1000:
            self._prepared.pop(next(iter(self._prepared)))
        self._prepared[(topic, schema_id)] = prepared
        return prepared

    _fmt: str | None = None

    def _build(self, registered: Any, version: int, topic: str) -> Prepared:
        raise NotImplementedError
