"""``org.apache.kafka.connect.transforms.InsertField$Key`` / ``$Value``: adds the record's topic,
partition, offset, timestamp or a static string as fields.

A field name ending in ``!`` makes a required field, ``?`` (the default) an optional one. With
a schema the fields are a string, an int32, an int64, a Connect Timestamp and a string; a record
whose key or value is null passes unchanged; nothing here depends on the wall clock (the
timestamp is the record's).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from s3connect.connect.logical import EPOCH
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import TIMESTAMP, ConnectSchema, Field, Type
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
    as_copied_map,
    check_put,
    field_value,
    require_map,
    require_struct,
    struct_schema,
)

__all__ = ["InsertField", "InsertionSpec"]

_PURPOSE = "field insertion"
_KINDS = {
    "topic.field": Type.STRING,
    "partition.field": Type.INT32,
    "offset.field": Type.INT64,
    "timestamp.field": Type.INT64,
    "static.field": Type.STRING,
}


@dataclass(frozen=True, slots=True)
class InsertionSpec:
    """A field to insert: its name and whether it is optional."""

    name: str
    optional: bool

    @classmethod
    def parse(cls, spec: str | None) -> InsertionSpec | None:
        """``InsertionSpec.parse``: a trailing ``?`` or ``!`` sets optionality."""
        if spec is None:
            return None
        if spec.endswith("?"):
            return cls(spec[:-1], True)
        if spec.endswith("!"):
            return cls(spec[:-1], False)
        return cls(spec, True)


@dataclass(eq=False)
class InsertField(Transformation):
    """One ``InsertField$Key`` / ``InsertField$Value``."""

    side: Side
    specs: dict[str, InsertionSpec]
    """By config key (``topic.field`` ...), the fields configured."""
    static_value: str | None = None
    replace_null_with_default: bool = True

    def __post_init__(self) -> None:
        self.class_name = f"{KAFKA_PACKAGE}.InsertField${self.side.value}"
        self._cache = SchemaCache()

    @classmethod
    def configure(cls, s: Settings, side: Side) -> InsertField | None:
        """Read the ``*.field`` keys, ``static.value`` and ``replace.null.with.default``."""
        specs: dict[str, InsertionSpec] = {}
        for key in _KINDS:
            spec = InsertionSpec.parse(s.string(key, None, "a field name, ending ! or ?"))
            if spec is not None:
                specs[key] = spec
        static_value = s.string("static.value", None, "the static field's value")
        replace_null = s.boolean("replace.null.with.default", True)
        if not specs:
            s.problem(
                f"{s.prefix}*: No field insertion configured: set at least one of "
                + ", ".join(s.key(k) for k in _KINDS)
            )
        if "static.field" in specs and static_value is None:
            static_name = specs["static.field"].name
            s.invalid("static.value", None, f"No value specified for static field: {static_name}")
        if s.failed:
            return None
        return cls(side, specs, static_value, replace_null)

    def _inserted(self, record: SinkRecord, with_schema: bool) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for key, spec in self.specs.items():
            if key == "topic.field":
                values[spec.name] = record.topic
            elif key == "partition.field" and record.partition is not None:
                values[spec.name] = record.partition
            elif key == "offset.field":
                values[spec.name] = record.offset
            elif key == "timestamp.field" and record.timestamp is not None:
                ts = record.timestamp
                values[spec.name] = EPOCH + timedelta(milliseconds=ts) if with_schema else ts
            elif key == "static.field" and self.static_value is not None:
                values[spec.name] = self.static_value
        return values

    def apply(self, record: SinkRecord) -> SinkRecord:
        schema, value = operating(record, self.side)
        if value is None:
            return record
        if schema is None:
            current = require_map(value, _PURPOSE)
            updated = dict(current)
            updated.update(self._inserted(record, with_schema=False))
            updated = as_copied_map(updated, len(current))
            return with_operating(record, self.side, None, updated)
        struct = require_struct(schema, value, _PURPOSE)
        new_schema = self._schema(schema)
        out: dict[str, Any] = {}
        for field in schema.fields:
            out[field.name] = field_value(struct, field, self.replace_null_with_default)
        try:
            out.update(self._inserted(record, with_schema=True))
        except OverflowError:
            raise DataError(f"timestamp {record.timestamp} is out of range") from None
        for field in new_schema.fields:
            if field.name in out:  # Kafka checks the values it puts, not the fields left unset
                check_put(field, out[field.name])
        out = {f.name: out.get(f.name) for f in new_schema.fields}
        return with_operating(record, self.side, new_schema, out)

    def _schema(self, schema: ConnectSchema) -> ConnectSchema:
        cached: ConnectSchema | None = self._cache.get(schema)
        if cached is not None:
            return cached
        fields = list(schema.fields)
        for key, spec in self.specs.items():
            kind = _KINDS[key]
            name = TIMESTAMP if key == "timestamp.field" else None
            version = 1 if name else None
            added = ConnectSchema(kind, optional=spec.optional, name=name, version=version)
            fields.append(Field(spec.name, added))
        built = struct_schema(fields, basics=schema)
        self._cache.put(schema, built)
        return built
