"""Moving data between levels: ``ExtractField$Key``/``$Value`` (a field becomes the whole key or
value), ``HoistField$Key``/``$Value`` (the whole key or value becomes a field) and ``ValueToKey``
(fields of the value become the key)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.transforms.base import (
    KAFKA_PACKAGE,
    DataError,
    Side,
    Transformation,
    operating,
    with_key,
    with_operating,
)
from s3connect.transforms.field_path import FIELD_SYNTAX_VERSION, SingleFieldPath
from s3connect.transforms.settings import REQUIRED, Settings
from s3connect.transforms.structs import (
    SchemaCache,
    as_sized_map,
    check_put,
    field_value,
    require_map,
    require_struct,
    struct_schema,
)

__all__ = ["ExtractField", "HoistField", "ValueToKey"]


def read_field_path(s: Settings, key: str) -> SingleFieldPath | None:
    """A field path key read with ``field.syntax.version`` (reported when invalid)."""
    text = s.string(key, REQUIRED, "a field name (a dotted path with field.syntax.version=V2)")
    version = s.choice(FIELD_SYNTAX_VERSION, ("V1", "V2"), "V1", ignore_case=True)
    if text is None or version is None:
        return None
    try:
        return SingleFieldPath.of(text, version)
    except ValueError as exc:
        s.invalid(key, text, str(exc))
        return None


@dataclass(eq=False)
class ExtractField(Transformation):
    """``ExtractField``: the key or value becomes one of its fields (null stays null)."""

    side: Side
    path: SingleFieldPath
    replace_null_with_default: bool = True

    def __post_init__(self) -> None:
        self.class_name = f"{KAFKA_PACKAGE}.ExtractField${self.side.value}"

    @classmethod
    def configure(cls, s: Settings, side: Side) -> ExtractField | None:
        """Read ``field``, ``field.syntax.version`` and ``replace.null.with.default``."""
        path = read_field_path(s, "field")
        replace_null = s.boolean("replace.null.with.default", True)
        return None if path is None else cls(side, path, replace_null)

    def apply(self, record: SinkRecord) -> SinkRecord:
        schema, value = operating(record, self.side)
        purpose = "field extraction"
        if schema is None:
            current = None if value is None else require_map(value, purpose)
            return with_operating(record, self.side, None, self.path.value_from_map(current))
        struct = None if value is None else require_struct(schema, value, purpose)
        if schema.type is not Type.STRUCT:
            raise DataError("Cannot look up fields on non-struct type")
        field = self.path.field_from(schema)
        if field is None:
            raise DataError(f"Unknown field: {self.path.text}")
        extracted = self.path.value_from_struct(schema, struct, self.replace_null_with_default)
        return with_operating(record, self.side, field.schema, extracted)


@dataclass(eq=False)
class HoistField(Transformation):
    """``HoistField``: the key or value becomes the one field of a new struct (or map)."""

    side: Side
    field: str

    def __post_init__(self) -> None:
        self.class_name = f"{KAFKA_PACKAGE}.HoistField${self.side.value}"
        self._cache = SchemaCache()

    @classmethod
    def configure(cls, s: Settings, side: Side) -> HoistField | None:
        """Read ``field``."""
        name = s.string("field", REQUIRED, "the name of the field to wrap the data in")
        return None if name is None else cls(side, name)

    def apply(self, record: SinkRecord) -> SinkRecord:
        schema, value = operating(record, self.side)
        if schema is None:
            return with_operating(record, self.side, None, {self.field: value})
        hoisted: ConnectSchema | None = self._cache.get(schema)
        if hoisted is None:
            hoisted = struct_schema([Field(self.field, schema)])
            self._cache.put(schema, hoisted)
        check_put(hoisted.fields[0], value)
        return with_operating(record, self.side, hoisted, {self.field: value})


@dataclass(eq=False)
class ValueToKey(Transformation):
    """``ValueToKey``: the key becomes a struct (or map) of some of the value's fields."""

    fields: list[str]
    replace_null_with_default: bool = True
    class_name = f"{KAFKA_PACKAGE}.ValueToKey"

    def __post_init__(self) -> None:
        self._cache = SchemaCache()

    @classmethod
    def configure(cls, s: Settings) -> ValueToKey | None:
        """Read ``fields`` and ``replace.null.with.default``."""
        fields = s.non_empty_list("fields", "the value's fields to copy into the key")
        replace_null = s.boolean("replace.null.with.default", True)
        return None if fields is None else cls(fields, replace_null)

    def apply(self, record: SinkRecord) -> SinkRecord:
        purpose = "copying fields from value to key"
        schema, value = record.value_schema, record.value
        if schema is None:
            current = require_map(value, purpose)
            copied = as_sized_map({f: current.get(f) for f in self.fields}, len(self.fields))
            return with_key(record, None, copied)  # new HashMap<>(fields.size()), then put
        struct = require_struct(schema, value, purpose)
        key_schema: ConnectSchema | None = self._cache.get(schema)
        if key_schema is None:
            picked = []
            for name in self.fields:
                found = schema.field(name)
                if found is None:
                    raise DataError(f"Field does not exist: {name}")
                picked.append(found)
            key_schema = struct_schema(picked)
            self._cache.put(schema, key_schema)
        key: dict[str, Any] = {}
        for field in key_schema.fields:
            found = schema.field(field.name)
            assert found is not None
            key[field.name] = check_put(
                field, field_value(struct, found, self.replace_null_with_default)
            )
        return with_key(record, key_schema, key)
