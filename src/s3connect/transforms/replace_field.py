"""``org.apache.kafka.connect.transforms.ReplaceField$Key`` / ``$Value``: keeps (``include``) or
drops (``exclude``, which wins) top-level fields and renames them (``renames=old:new,...``).

The legacy names ``whitelist`` / ``blacklist`` (Kafka 3.x; removed in 4.0) are read as
``include`` / ``exclude`` when those are not set, as Kafka 3.x's ``translateDeprecatedConfigs``
did. A null key or value passes unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Field
from s3connect.transforms.base import (
    KAFKA_PACKAGE,
    DataError,
    Side,
    Transformation,
    operating,
    with_operating,
)
from s3connect.transforms.jvm import java_split
from s3connect.transforms.settings import Settings
from s3connect.transforms.structs import (
    SchemaCache,
    as_sized_map,
    check_put,
    field_value,
    require_map,
    require_struct,
    struct_schema,
)

__all__ = ["ReplaceField", "parse_renames"]

_PURPOSE = "field replacement"
_RENAMES_ALLOWED = "list of colon-delimited pairs, e.g. foo:bar,abc:xyz"


def parse_renames(items: list[str]) -> dict[str, str]:
    """``ReplaceField.parseRenameMappings``.

    Raises:
        ValueError: an item that is not ``old:new``.
    """
    renames: dict[str, str] = {}
    for item in items:
        parts = java_split(item, ":")
        if len(parts) != 2:
            raise ValueError(f"Invalid rename mapping: {item}")
        renames[parts[0]] = parts[1]
    return renames


def _read_list_with_legacy(s: Settings, name: str, legacy: str, allowed: str) -> list[str]:
    current = s.str_list(name, None, allowed)
    old = s.str_list(legacy, None, f"deprecated: use {s.key(name)}")
    if current is not None:
        return current
    return old if old is not None else []


@dataclass(eq=False)
class ReplaceField(Transformation):
    """One ``ReplaceField$Key`` / ``ReplaceField$Value``."""

    side: Side
    exclude: frozenset[str] = frozenset()
    include: frozenset[str] = frozenset()
    renames: dict[str, str] = field(default_factory=dict)
    replace_null_with_default: bool = True

    def __post_init__(self) -> None:
        self.class_name = f"{KAFKA_PACKAGE}.ReplaceField${self.side.value}"
        self._reverse = {new: old for old, new in self.renames.items()}
        self._cache = SchemaCache()

    @classmethod
    def configure(cls, s: Settings, side: Side) -> ReplaceField | None:
        """Read ``exclude``, ``include``, ``renames`` (and ``blacklist``, ``whitelist``) and
        ``replace.null.with.default``."""
        exclude = _read_list_with_legacy(s, "exclude", "blacklist", "fields to drop")
        include = _read_list_with_legacy(s, "include", "whitelist", "the only fields to keep")
        items = s.str_list("renames", [], _RENAMES_ALLOWED) or []
        replace_null = s.boolean("replace.null.with.default", True)
        try:
            renames = parse_renames(items)
        except ValueError as exc:
            s.invalid("renames", items, f"{exc}; expected a {_RENAMES_ALLOWED}")
            return None
        if s.failed:
            return None
        return cls(side, frozenset(exclude), frozenset(include), renames, replace_null)

    def _kept(self, name: str) -> bool:
        return name not in self.exclude and (not self.include or name in self.include)

    def apply(self, record: SinkRecord) -> SinkRecord:
        schema, value = operating(record, self.side)
        if value is None:
            return record
        if schema is None:
            updated: dict[str, Any] = {}
            current = require_map(value, _PURPOSE)
            for name, item in current.items():
                if self._kept(name):
                    updated[self.renames.get(name, name)] = item
            updated = as_sized_map(updated, len(current))
            return with_operating(record, self.side, None, updated)
        struct = require_struct(schema, value, _PURPOSE)
        new_schema = self._schema(schema)
        out: dict[str, Any] = {}
        for new_field in new_schema.fields:
            name = self._reverse.get(new_field.name, new_field.name)
            original = schema.field(name)
            if original is None:
                raise DataError(f"{name} is not a valid field name")
            item = field_value(struct, original, self.replace_null_with_default)
            out[new_field.name] = check_put(new_field, item)
        return with_operating(record, self.side, new_schema, out)

    def _schema(self, schema: ConnectSchema) -> ConnectSchema:
        cached: ConnectSchema | None = self._cache.get(schema)
        if cached is None:
            kept = [
                Field(self.renames.get(f.name, f.name), f.schema)
                for f in schema.fields
                if self._kept(f.name)
            ]
            cached = struct_schema(kept, basics=schema)
            self._cache.put(schema, cached)
        return cached
