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
import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from s3connect.connect.schema import ConnectSchema
from s3connect.convert.registry.client import (
    ReadSettings,
    Registry,
    SchemaRef,
    header_schema_id,
    schema_id_of,
    subject_name,
)

__all__ = [
    "Convert",
    "Decoder",
]

Decoder = Callable[[bytes], Any]
Convert = Callable[[Any], Any]
_T = TypeVar("_T")


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
    """Common part: wire header, per-(topic, id) cache, subject and version lookup."""

    schema_type = ""
    failure = "Failed to deserialize data for topic {topic} to {schema_type}:"
    """The converter's ``DataException`` text (``toConnectData``), before its cause's."""

    def __init__(
        self, registry: Registry, *, is_key: bool = False, settings: ReadSettings | None = None
    ) -> None:
        self.registry = registry
        self.is_key = is_key
        self.settings = settings or ReadSettings()
        self._prepared: dict[tuple[str, SchemaRef], Prepared | Broken] = {}

    def to_connect(
        self, topic: str, data: bytes | None, headers: Iterable[tuple[str, bytes | None]] = ()
    ) -> tuple[Any, ConnectSchema | None]:
        """Decode one record (its schema id in ``headers`` or framing the value); null (a
        tombstone) gives ``(None, None)``.

        Raises:
            ValueError: not in the wire format, unknown schema id, undecodable payload; the
                message starts with the converter's ``DataException`` text.
            SchemaRegistryError: the registry cannot be used (after retries).
        """
        if data is None:
            return None, None
        try:
            schema_id, data = self._schema_id(data, headers)
            prepared = self._prepared.get((topic, schema_id))
            if prepared is None:
                prepared = self._prepare(topic, schema_id)
            if isinstance(prepared, Broken):
                raise ValueError(prepared.message)
            try:
                return prepared.decode(data), prepared.schema
            except Exception as exc:  # decoders' errors (EOF, protobuf DecodeError, ...)
                raise ValueError(self._message_error(schema_id, exc)) from exc
        except ValueError as exc:
            raise ValueError(f"{self.failed(topic)} {exc}") from exc.__cause__

    def _schema_id(
        self, data: bytes, headers: Iterable[tuple[str, bytes | None]]
    ) -> tuple[SchemaRef, bytes]:
        """``DualSchemaIdDeserializer``: the schema id (or GUID) of the header, else of the
        value's prefix; and the value as the decoders read it (5 bytes, then the payload)."""
        header = header_schema_id(headers, self.is_key)
        if header is not None:
            return schema_id_of(header)[0], bytes(5) + data
        schema_id, start = schema_id_of(data)
        return schema_id, data if start == 5 else bytes(5) + data[start:]

    def failed(self, topic: str) -> str:
        """The converter's ``DataException`` text for ``topic``."""
        return self.failure.format(topic=topic, schema_type=self.schema_type)

    def _message_error(self, schema_id: SchemaRef, cause: Exception | None = None) -> str:
        """The deserializers' text for a payload they cannot read (with its cause's)."""
        text = f"Error deserializing {self.schema_type} message for id {schema_id}"
        if cause is None:
            return text
        kind = "" if isinstance(cause, ValueError) else f"{type(cause).__name__}: "
        return f"{text}: {kind}{cause}"

    def _prepare(self, topic: str, schema_id: SchemaRef) -> Prepared | Broken:
        prepared: Prepared | Broken
        try:
            registered = self._retrieving("schema", schema_id, self._schema, schema_id, topic)
            strategy = self.settings.subject_name_strategy
            subject = subject_name(topic, self.is_key, strategy, self._record_name(registered))
            latest = None
            if self.settings.use_latest_version:
                try:
                    latest = self.registry.latest(subject, topic)
                except ValueError as exc:
                    raise ValueError(self._message_error(schema_id, exc)) from None
            version = self._retrieving(
                "schema version", schema_id, self._version, subject, registered, schema_id, topic
            )
            prepared = self._build(registered, version, topic, latest, schema_id)
        except ValueError as exc:  # about the records (unknown id, unusable schema): cached
            prepared = Broken(str(exc))
        if len(self._prepared) >= 1000:
            self._prepared.pop(next(iter(self._prepared)))
        self._prepared[(topic, schema_id)] = prepared
        return prepared

    def _retrieving(self, what: str, schema_id: SchemaRef, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(*args)``; its ``ValueError`` as the deserializers' "Error retrieving" one."""
        try:
            return fn(*args)
        except ValueError as exc:
            side = "key" if self.is_key else "value"
            raise ValueError(
                f"Error retrieving {self.schema_type} {side} {what} for id {schema_id}: {exc}"
            ) from None

    def _schema(self, schema_id: SchemaRef, topic: str) -> Any:
        return self.registry.schema(schema_id, topic, fmt=self._fmt)

    def _version(self, subject: str, registered: Any, schema_id: SchemaRef, topic: str) -> int:
        """The schema's ``confluent:version`` metadata property, else its version under
        ``subject`` (the deserializers' ``schemaVersion``)."""
        properties = getattr(getattr(registered, "metadata", None), "properties", None)
        properties = getattr(properties, "properties", properties) or {}  # MetadataProperties
        text = properties.get("confluent:version")
        if text is not None and re.fullmatch(r"[+-]?\d+", str(text)):
            number = int(text)
            if -(2**31) <= number < 2**31:  # Integer.parseInt
                return number
        return self.registry.version(subject, registered, schema_id, topic)

    def _record_name(self, registered: Any) -> str | None:
        """The schema's record name (``ParsedSchema.name()``) for the record name strategies."""
        return None

    _fmt: str | None = None

    def _build(
        self, registered: Any, version: int, topic: str, latest: Any, schema_id: SchemaRef
    ) -> Prepared:
        """What records of ``registered`` (read with ``latest``'s schema if given) need."""
        raise NotImplementedError
