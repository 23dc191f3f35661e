"""Confluent's Schema Registry converters: the shared base and :func:`make_registry_converter`.

Each converter (:mod:`s3connect.avro_data`, :mod:`s3connect.json_schema_data`,
:mod:`s3connect.protobuf_data`) reads the wire format (:mod:`s3connect.registry`), fetches the
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

from s3connect.registry import REGISTRY_CONVERTER_CLASSES, Registry, subject_name, wire_header
from s3connect.schema import ConnectSchema

__all__ = ["Convert", "Decoder", "make_registry_converter"]

Decoder = Callable[[bytes], Any]
Convert = Callable[[Any], Any]


def _identity(v: Any) -> Any:
    return v


@dataclasses.dataclass(frozen=True, slots=True)
class _Prepared:
    """What a (topic, schema id) needs: the Connect schema and the payload decoder."""

    schema: ConnectSchema
    decode: Decoder


@dataclasses.dataclass(frozen=True, slots=True)
class _Broken:
    """A schema that cannot be used (e.g. unsupported): every record with it fails alike."""

    message: str


class _RegistryConverter:
    """Common part: wire header, per-(topic, id) cache, version lookup."""

    schema_type = ""

    def __init__(self, registry: Registry, *, is_key: bool = False) -> None:
        self.registry = registry
        self.is_key = is_key
        self._prepared: dict[tuple[str, int], _Prepared | _Broken] = {}

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
        if isinstance(prepared, _Broken):
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

    def _prepare(self, topic: str, schema_id: int) -> _Prepared | _Broken:
        prepared: _Prepared | _Broken
        try:
            registered = self.registry.schema(schema_id, topic, fmt=self._fmt)
            subject = subject_name(topic, self.is_key)
            version = self.registry.version(subject, registered, schema_id, topic)
            prepared = self._build(registered, version, topic)
        except ValueError as exc:  # about the records (unknown id, unusable schema): cached
            prepared = _Broken(f"schema id {schema_id} ({self.schema_type}): {exc}")
        if len(self._prepared) >= 1000:
            self._prepared.pop(next(iter(self._prepared)))
        self._prepared[(topic, schema_id)] = prepared
        return prepared

    _fmt: str | None = None

    def _build(self, registered: Any, version: int, topic: str) -> _Prepared:
        raise NotImplementedError


def make_registry_converter(
    name: str, registry: Registry, *, is_key: bool = False
) -> _RegistryConverter:
    """The Schema Registry converter ``avro``, ``jsonschema`` or ``protobuf`` (short names or
    Confluent class names)."""
    from s3connect.avro_data import AvroConverter
    from s3connect.json_schema_data import JsonSchemaConverter
    from s3connect.protobuf_data import ProtobufConverter

    short = next((k for k, v in REGISTRY_CONVERTER_CLASSES.items() if name in (k, v)), name.lower())
    factory: dict[str, type[_RegistryConverter]] = {
        "avro": AvroConverter,
        "jsonschema": JsonSchemaConverter,
        "protobuf": ProtobufConverter,
    }
    if short not in factory:
        raise ValueError(f"Unknown Schema Registry converter {name!r}")
    return factory[short](registry, is_key=is_key)
