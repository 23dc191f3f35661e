"""``org.apache.kafka.connect.transforms.Flatten$Key`` / ``$Value``: nested structs (or maps)
become top-level fields named ``outer<delimiter>inner``; arrays are left as they are.

With a schema, a field under an optional struct becomes optional, and takes its default from
the field or else from the parent's default struct; a map field is an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from s3connect.connect.java_types import java_class, schemaless_type
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.transforms.base import (
    KAFKA_PACKAGE,
    DataError,
    Side,
    Transformation,
    operating,
    with_operating,
)
from s3connect.transforms.settings import Settings
from s3connect.transforms.structs import (
    SchemaCache,
    check_put,
    copy_basics,
    field_value,
    require_map,
    require_struct,
    struct_schema,
)

__all__ = ["Flatten"]

_PURPOSE = "flattening"
_LEAF_TYPES = frozenset(
    {
        Type.INT8,
        Type.INT16,
        Type.INT32,
        Type.INT64,
        Type.FLOAT32,
        Type.FLOAT64,
        Type.BOOLEAN,
        Type.STRING,
        Type.BYTES,
        Type.ARRAY,
    }
)


@dataclass(eq=False)
class Flatten(Transformation):
    """One ``Flatten$Key`` / ``Flatten$Value``."""

    side: Side
    delimiter: str = "."

    def __post_init__(self) -> None:
        self.class_name = f"{KAFKA_PACKAGE}.Flatten${self.side.value}"
        self._cache = SchemaCache()

    @classmethod
    def configure(cls, s: Settings, side: Side) -> Flatten | None:
        """Read ``delimiter`` (default ``.``)."""
        delimiter = s.string("delimiter", ".", "the text between field names")
        return None if delimiter is None else cls(side, delimiter)

    def _name(self, prefix: str, name: str) -> str:
        return name if not prefix else prefix + self.delimiter + name

    def apply(self, record: SinkRecord) -> SinkRecord:
        schema, value = operating(record, self.side)
        if value is None:
            return record
        if schema is None:
            out: dict[str, Any] = {}
            self._flatten_map(require_map(value, _PURPOSE), "", out)
            return with_operating(record, self.side, None, out)
        struct = require_struct(schema, value, _PURPOSE)
        flat: ConnectSchema | None = self._cache.get(schema)
        if flat is None:
            fields: list[Field] = []
            self._flatten_schema(schema, "", fields, schema.optional, schema.default)
            flat = struct_schema(fields, basics=schema)
            self._cache.put(schema, flat)
        values: dict[str, Any] = {}
        self._flatten_struct(schema, struct, "", values)
        for field in flat.fields:
            if field.name in values:  # only the fields Kafka puts are checked
                check_put(field, values[field.name])
        out = {f.name: values.get(f.name) for f in flat.fields}
        return with_operating(record, self.side, flat, out)

    def _flatten_map(self, value: Mapping[str, Any], prefix: str, out: dict[str, Any]) -> None:
        for key, item in value.items():
            name = self._name(prefix, key)
            if item is None:
                out[name] = None
                continue
            kind = schemaless_type(item)
            if kind is None:
                raise DataError(
                    f"Flatten transformation was passed a value of type class "
                    f"{java_class(item)} which is not supported by Connect's data API"
                )
            if kind is Type.MAP:
                self._flatten_map(require_map(item, _PURPOSE), name, out)
            else:
                out[name] = item

    def _flatten_schema(
        self,
        schema: ConnectSchema,
        prefix: str,
        out: list[Field],
        optional: bool,
        parent_default: Mapping[str, Any] | None,
    ) -> None:
        for field in schema.fields:
            name = self._name(prefix, field.name)
            field_optional = optional or field.schema.optional
            default = field.schema.default
            if default is None and parent_default is not None:
                default = field_value(parent_default, field)
            kind = field.schema.type
            if kind in _LEAF_TYPES:
                flat = copy_basics(field.schema, ConnectSchema(kind))
                if kind is Type.ARRAY:
                    flat = replace(flat, value_schema=field.schema.value_schema)
                out.append(Field(name, replace(flat, optional=field_optional, default=default)))
            elif kind is Type.STRUCT:
                self._flatten_schema(field.schema, name, out, field_optional, default)
            else:
                raise DataError(
                    f"Flatten transformation does not support {kind.name} for record with "
                    f"schemas (for field {name})."
                )

    def _flatten_struct(
        self,
        schema: ConnectSchema,
        struct: Mapping[str, Any] | None,
        prefix: str,
        out: dict[str, Any],
    ) -> None:
        if struct is None:
            return
        for field in schema.fields:
            name = self._name(prefix, field.name)
            kind = field.schema.type
            if kind in _LEAF_TYPES:
                out[name] = field_value(struct, field)
            elif kind is Type.STRUCT:
                self._flatten_struct(field.schema, field_value(struct, field), name, out)
            else:
                raise DataError(
                    f"Flatten transformation does not support {kind.name} for record with "
                    f"schemas (for field {name})."
                )
