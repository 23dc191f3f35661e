"""Connect's ``Struct`` and ``SchemaBuilder`` rules in our value model (a struct is a ``dict`` in
field order), and Kafka's ``Requirements`` / ``SchemaUtil`` helpers for transforms."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from s3connect.connect.java_types import java_class
from s3connect.connect.json_data import as_hashmap
from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.connect.validate import validate_value
from s3connect.transforms.base import DataError
from s3connect.util.java_hashmap import copied_capacity, sized_capacity

__all__ = [
    "SchemaCache",
    "as_copied_map",
    "as_sized_map",
    "check_put",
    "copy_basics",
    "field_value",
    "require_map",
    "require_schema",
    "require_struct",
    "struct_schema",
]


def require_struct(schema: ConnectSchema, value: Any, purpose: str) -> Mapping[str, Any]:
    """``Requirements.requireStruct``: the value of a struct schema.

    Raises:
        DataError: Kafka's "Only Struct objects supported for [purpose], found: ..." message.
    """
    if schema.type is not Type.STRUCT or not isinstance(value, Mapping):
        found = java_class(value, schema if value is not None else None)
        raise DataError(f"Only Struct objects supported for [{purpose}], found: {found}")
    return value


def require_map(value: Any, purpose: str) -> Mapping[str, Any]:
    """``Requirements.requireMap``: a schemaless value that is a map.

    Raises:
        DataError: Kafka's "Only Map objects supported in absence of schema ..." message.
    """
    if not isinstance(value, Mapping):
        raise DataError(
            f"Only Map objects supported in absence of schema for [{purpose}], "
            f"found: {java_class(value)}"
        )
    return value


def as_copied_map(updated: dict[str, Any], source_size: int) -> dict[str, Any]:
    """``updated`` in the order of Kafka's ``new HashMap<>(value)`` of a schemaless value of
    ``source_size`` entries, then ``put`` calls (InsertField, Cast, MaskField,
    TimestampConverter): what a JSON writer lists."""
    return as_hashmap(updated, initial=copied_capacity(source_size))


def as_sized_map(updated: dict[str, Any], initial: int) -> dict[str, Any]:
    """``updated`` in the order of Kafka's ``new HashMap<>(initial)`` then ``put`` calls
    (ReplaceField, ValueToKey)."""
    return as_hashmap(updated, initial=sized_capacity(initial))


def require_schema(schema: ConnectSchema | None, purpose: str) -> ConnectSchema:
    """``Requirements.requireSchema``.

    Raises:
        DataError: the value has no schema.
    """
    if schema is None:
        raise DataError(f"Schema required for [{purpose}]")
    return schema


def field_value(struct: Mapping[str, Any], field: Field, with_default: bool = True) -> Any:
    """``Struct.get(field)`` (a null value falls back on the field's default), or
    ``getWithoutDefault`` when ``with_default`` is false."""
    value = struct.get(field.name)
    if value is None and with_default:
        return field.schema.default
    return value


def check_put(field: Field, value: Any) -> Any:
    """``Struct.put(field, value)``'s validation (``ConnectSchema.validateValue``).

    Raises:
        DataError: a value the field's schema does not take (a null for a required field).
    """
    try:
        validate_value(field.schema, value, field.name)
    except ValueError as e:
        raise DataError(str(e)) from None
    return value


def struct_schema(fields: Iterable[Field], basics: ConnectSchema | None = None) -> ConnectSchema:
    """A struct schema of ``fields`` (``SchemaBuilder.field`` rules), with the name, version,
    doc and parameters of ``basics`` (``SchemaUtil.copySchemaBasics``) when given.

    Raises:
        DataError: a duplicate or empty field name.
    """
    seen: set[str] = set()
    built = []
    for field in fields:
        if not field.name:
            raise DataError("fieldName cannot be null.")
        if field.name in seen:
            raise DataError(f"Cannot create field because of field name duplication {field.name}")
        seen.add(field.name)
        built.append(field)
    return copy_basics(basics, ConnectSchema(Type.STRUCT, fields=tuple(built)))


def copy_basics(source: ConnectSchema | None, target: ConnectSchema) -> ConnectSchema:
    """``SchemaUtil.copySchemaBasics(source, builder)``: ``target`` with the name, version, doc
    and parameters of ``source`` (not its optionality nor default)."""
    if source is None:
        return target
    return dataclasses.replace(
        target,
        name=source.name,
        version=source.version,
        doc=source.doc,
        parameters=dict(source.parameters),
    )


class SchemaCache:
    """A transform's small schema cache (Kafka's ``LRUCache(16)``), keyed by schema identity:
    schemas hold dicts, so they cannot be hashed."""

    def __init__(self, size: int = 16) -> None:
        self._size = size
        self._entries: dict[int, tuple[ConnectSchema, Any]] = {}

    def get(self, schema: ConnectSchema) -> Any:
        """The cached value for this very schema object, or None."""
        entry = self._entries.get(id(schema))
        if entry is None or entry[0] is not schema:
            return None
        return entry[1]

    def put(self, schema: ConnectSchema, value: Any) -> None:
        """Cache ``value`` for ``schema`` (dropping the oldest entry when full)."""
        if len(self._entries) >= self._size:
            self._entries.pop(next(iter(self._entries)))
        self._entries[id(schema)] = (schema, value)
