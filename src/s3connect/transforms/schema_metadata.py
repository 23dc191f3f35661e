"""``org.apache.kafka.connect.transforms.SetSchemaMetadata$Key`` / ``$Value``: sets the name
and/or version of the key's or value's schema (a schema is required unless the key or value is
null too)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import Type
from s3connect.transforms.base import (
    KAFKA_PACKAGE,
    Side,
    Transformation,
    operating,
    with_operating,
)
from s3connect.transforms.settings import Settings
from s3connect.transforms.structs import check_put, field_value, require_schema

__all__ = ["SetSchemaMetadata"]


@dataclass(eq=False)
class SetSchemaMetadata(Transformation):
    """One ``SetSchemaMetadata$Key`` / ``SetSchemaMetadata$Value``."""

    side: Side
    name: str | None
    version: int | None
    replace_null_with_default: bool = True

    def __post_init__(self) -> None:
        self.class_name = f"{KAFKA_PACKAGE}.SetSchemaMetadata${self.side.value}"

    @classmethod
    def configure(cls, s: Settings, side: Side) -> SetSchemaMetadata | None:
        """Read ``schema.name``, ``schema.version`` and ``replace.null.with.default``."""
        name = s.string("schema.name", None, "the schema name to set")
        version = s.integer("schema.version", None, "the schema version to set")
        replace_null = s.boolean("replace.null.with.default", True)
        if s.failed:
            return None
        if name is None and version is None:
            s.problem(
                f"{s.key('schema.name')} and {s.key('schema.version')} are both missing: "
                "Neither schema name nor version configured; set at least one"
            )
            return None
        return cls(side, name, version, replace_null)

    def apply(self, record: SinkRecord) -> SinkRecord:
        schema, value = operating(record, self.side)
        if value is None and schema is None:
            return record
        schema = require_schema(schema, "updating schema metadata")
        updated = replace(
            schema,
            name=self.name if self.name is not None else schema.name,
            version=self.version if self.version is not None else schema.version,
        )
        new_value: Any = value
        if schema.type is Type.STRUCT and isinstance(value, dict):
            new_value = {
                f.name: check_put(f, field_value(value, f, self.replace_null_with_default))
                for f in updated.fields
            }
        return with_operating(record, self.side, updated, new_value)
