"""``org.apache.kafka.connect.transforms.MaskField$Key`` / ``$Value``: replaces fields with the
null value of their type (0, false, "", the epoch, an empty list or map) or with
``replacement`` converted to the field's numeric or string type.

As in Kafka, the key or value must be a struct or a map: a null one (a tombstone) is an error
(guard the transform with the ``RecordIsTombstone`` predicate and ``negate=true``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, time
from decimal import Decimal
from typing import Any

from s3connect.connect.java_types import java_class
from s3connect.connect.logical import EPOCH, EPOCH_DAY
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import DATE, TIME, ConnectSchema, Type
from s3connect.transforms.base import (
    KAFKA_PACKAGE,
    DataError,
    Side,
    Transformation,
    operating,
    with_operating,
)
from s3connect.transforms.jvm import parse_big_decimal
from s3connect.transforms.settings import Settings
from s3connect.transforms.structs import (
    as_copied_map,
    check_put,
    field_value,
    require_map,
    require_struct,
)
from s3connect.transforms.values import convert_number
from s3connect.util.java_hashmap import hashmap_order, sized_capacity

__all__ = ["MaskField"]

_PURPOSE = "mask fields"


def _java_kind(schema: ConnectSchema | None, value: Any) -> str:
    """The Java class of a value that decides how it is masked."""
    return java_class(value, schema)


def masked_null(schema: ConnectSchema | None, value: Any) -> Any:
    """``maskWithNullValue``: the type's null value.

    Raises:
        DataError: a value Kafka does not mask (bytes, a struct).
    """
    kind = _java_kind(schema, value)
    if kind == "java.util.Date":
        if (schema is not None and schema.name == DATE) or (schema is None and type(value) is date):
            return EPOCH_DAY
        if (schema is not None and schema.name == TIME) or isinstance(value, time):
            return time(0)
        return EPOCH
    nulls: dict[str, Any] = {
        "java.lang.Boolean": False,
        "java.lang.Byte": 0,
        "java.lang.Short": 0,
        "java.lang.Integer": 0,
        "java.lang.Long": 0,
        "java.lang.Float": 0.0,
        "java.lang.Double": 0.0,
        "java.math.BigDecimal": Decimal(0),
        "java.lang.String": "",
    }
    if kind in nulls:
        return nulls[kind]
    if kind == "java.util.ArrayList":
        return []
    if kind == "java.util.HashMap":
        return {}
    raise DataError(f"Cannot mask value of type: class {kind}")


def masked_replacement(schema: ConnectSchema | None, value: Any, replacement: str) -> Any:
    """``maskWithCustomReplacement``: ``replacement`` as the value's number or string type.

    Raises:
        DataError: a type that takes no replacement, or a replacement that is not a number.
    """
    kind = _java_kind(schema, value)
    by_class = {
        "java.lang.Byte": Type.INT8,
        "java.lang.Short": Type.INT16,
        "java.lang.Integer": Type.INT32,
        "java.lang.Long": Type.INT64,
        "java.lang.Float": Type.FLOAT32,
        "java.lang.Double": Type.FLOAT64,
    }
    if kind in by_class:
        return convert_number(replacement, by_class[kind])
    if kind == "java.lang.String":
        return replacement
    if kind == "java.math.BigDecimal":
        try:
            return parse_big_decimal(replacement)
        except ValueError:
            raise DataError(
                f"Unable to convert {replacement} (class java.lang.String) to number"
            ) from None
    raise DataError(f"Cannot mask value of type class {kind} with custom replacement.")


def hashset_order(names: list[str]) -> tuple[str, ...]:
    """``names`` in the iteration order of Kafka's ``new HashSet<>(names)`` (which field a
    schemaless value fails on first)."""
    distinct = tuple(dict.fromkeys(names))
    initial = sized_capacity(max(int(len(names) / 0.75) + 1, 16))  # duplicates count
    return tuple(distinct[i] for i in hashmap_order(distinct, initial=initial))


@dataclass(eq=False)
class MaskField(Transformation):
    """One ``MaskField$Key`` / ``MaskField$Value``."""

    side: Side
    fields: tuple[str, ...]
    """The fields in ``HashSet`` order."""
    replacement: str | None = None
    replace_null_with_default: bool = True

    def __post_init__(self) -> None:
        self.class_name = f"{KAFKA_PACKAGE}.MaskField${self.side.value}"

    @classmethod
    def configure(cls, s: Settings, side: Side) -> MaskField | None:
        """Read ``fields``, ``replacement`` and ``replace.null.with.default``."""
        fields = s.non_empty_list("fields", "the names of the fields to mask")
        replacement = s.non_empty("replacement", None, "a replacement for numeric or string fields")
        replace_null = s.boolean("replace.null.with.default", True)
        if fields is None or s.failed:
            return None
        return cls(side, hashset_order(fields), replacement, replace_null)

    def _masked(self, schema: ConnectSchema | None, value: Any) -> Any:
        if value is None:
            return None
        if self.replacement is None:
            return masked_null(schema, value)
        return masked_replacement(schema, value, self.replacement)

    def apply(self, record: SinkRecord) -> SinkRecord:
        schema, value = operating(record, self.side)
        if schema is None:
            current: Mapping[str, Any] = require_map(value, _PURPOSE)
            updated = dict(current)
            for name in self.fields:
                updated[name] = self._masked(None, current.get(name))
            updated = as_copied_map(updated, len(current))
            return with_operating(record, self.side, None, updated)
        struct = require_struct(schema, value, _PURPOSE)
        out: dict[str, Any] = {}
        for field in schema.fields:
            original = field_value(struct, field, self.replace_null_with_default)
            new = self._masked(field.schema, original) if field.name in self.fields else original
            out[field.name] = check_put(field, new)
        return with_operating(record, self.side, schema, out)
