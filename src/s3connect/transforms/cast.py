"""``org.apache.kafka.connect.transforms.Cast$Key`` / ``$Value``: cast top-level fields (or the
whole key or value) to int8 ... float64, boolean or string.

``spec`` is ``field:type,...`` or one ``type`` for the whole value. Numbers narrow as Java's
``Number.byteValue()`` ... ``longValue()`` do (wrapping), strings parse as ``Byte.parseByte`` ...
``Double.parseDouble``, booleans are 1/0, anything to string is Java's ``toString`` (bytes as
base64, dates as ``Values.dateFormatFor``). A Date, Time or Timestamp cast to a number is its
Connect integer (days, ms of the day, epoch ms).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from s3connect.connect.java_types import java_class, schemaless_type
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import DATE, TIME, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.transforms.base import (
    KAFKA_PACKAGE,
    DataError,
    Side,
    Transformation,
    operating,
    with_operating,
)
from s3connect.transforms.jvm import (
    decimal_text,
    double_text,
    java_split,
    long_value,
    narrow,
    parse_boolean,
    parse_double,
    parse_integer,
    to_float32,
)
from s3connect.transforms.settings import REQUIRED, Settings
from s3connect.transforms.structs import (
    SchemaCache,
    as_copied_map,
    check_put,
    copy_basics,
    field_value,
    require_map,
    require_struct,
)
from s3connect.transforms.values import date_format_for, is_temporal, temporal_millis
from s3connect.util.java_hashmap import hashmap_order

__all__ = ["Cast"]

_INPUT_TYPES = (
    Type.INT8,
    Type.INT16,
    Type.INT32,
    Type.INT64,
    Type.FLOAT32,
    Type.FLOAT64,
    Type.BOOLEAN,
    Type.STRING,
    Type.BYTES,
)
_OUTPUT_TYPES = _INPUT_TYPES[:-1]
_JAVA_TYPE_NAMES = {t: t.name for t in Type} | {Type.FLOAT32: "FLOAT32", Type.FLOAT64: "FLOAT64"}
_TYPE_BY_JAVA_NAME = {v: k for k, v in _JAVA_TYPE_NAMES.items()}
_SPEC_ALLOWED = (
    "list of colon-delimited pairs, e.g. foo:bar,abc:xyz, or a single type; types: int8, "
    "int16, int32, int64, float32, float64, boolean, string"
)
_PURPOSE = "cast types"


def _java_names(types: tuple[Type, ...]) -> str:
    return "[" + ", ".join(_JAVA_TYPE_NAMES[t] for t in types) + "]"


def parse_cast_spec(items: list[str]) -> tuple[Type | None, dict[str, Type]]:
    """``Cast.parseFieldTypes``: (the whole-value type, or the type of each field).

    Raises:
        ValueError: Kafka's message for an invalid spec.
    """
    if not items:
        raise ValueError("Must specify at least one field to cast.")
    whole: Type | None = None
    fields: dict[str, Type] = {}
    for item in items:
        parts = java_split(item, ":")
        if len(parts) > 2 or not parts:
            raise ValueError(
                f"Invalid rename mapping: {item} (Kafka's words: expected field:type or type)"
            )
        name = parts[-1].strip().upper()
        target = _TYPE_BY_JAVA_NAME.get(name)
        if target is None:
            raise ValueError(f"Invalid type found in casting spec: {parts[-1].strip()}")
        if target not in _OUTPUT_TYPES:
            raise ValueError(
                f"Cast transformation does not support casting to {name}; supported types "
                f"are {_java_names(_OUTPUT_TYPES)}"
            )
        if len(parts) == 1:
            whole = target
        else:
            fields[parts[0].strip()] = target
    if whole is not None and len(items) > 1:
        raise ValueError(
            "Cast transformations that specify a type to cast the entire value to may only "
            "specify a single cast in their spec"
        )
    return whole, fields


@dataclass(eq=False)
class Cast(Transformation):
    """One ``Cast$Key`` / ``Cast$Value``."""

    side: Side
    whole: Type | None
    fields: dict[str, Type]
    replace_null_with_default: bool = True

    def __post_init__(self) -> None:
        self.class_name = f"{KAFKA_PACKAGE}.Cast${self.side.value}"
        self._cache = SchemaCache()

    @classmethod
    def configure(cls, s: Settings, side: Side) -> Cast | None:
        """Read ``spec`` and ``replace.null.with.default``."""
        items = s.str_list("spec", REQUIRED, _SPEC_ALLOWED)
        replace_null = s.boolean("replace.null.with.default", True)
        if items is None:
            return None
        try:
            whole, fields = parse_cast_spec(items)
        except ValueError as exc:
            s.invalid("spec", items, f"{exc}; expected a {_SPEC_ALLOWED}")
            return None
        names = tuple(fields)  # Kafka's casts are a HashMap: schemaless fields cast in its order
        fields = {names[i]: fields[names[i]] for i in hashmap_order(names)}
        return cls(side, whole, fields, replace_null)

    def apply(self, record: SinkRecord) -> SinkRecord:
        schema, value = operating(record, self.side)
        if value is None:
            return record
        if schema is None:
            if self.whole is not None:
                return with_operating(record, self.side, None, cast_value(None, value, self.whole))
            current = require_map(value, _PURPOSE)
            updated = dict(current)
            for name, target in self.fields.items():
                updated[name] = cast_value(None, current.get(name), target)
            updated = as_copied_map(updated, len(current))
            return with_operating(record, self.side, None, updated)
        new_schema = self._schema(schema)
        if self.whole is not None:
            return with_operating(
                record, self.side, new_schema, cast_value(schema, value, self.whole)
            )
        struct = require_struct(schema, value, _PURPOSE)
        out: dict[str, Any] = {}
        for field, new_field in zip(schema.fields, new_schema.fields, strict=True):
            original = field_value(struct, field, self.replace_null_with_default)
            to = self.fields.get(field.name)
            cast = original if to is None else cast_value(field.schema, original, to)
            out[field.name] = check_put(new_field, cast)
        return with_operating(record, self.side, new_schema, out)

    def _schema(self, schema: ConnectSchema) -> ConnectSchema:
        cached: ConnectSchema | None = self._cache.get(schema)
        if cached is not None:
            return cached
        if self.whole is not None:
            built = copy_basics(schema, ConnectSchema(self.whole))
        else:
            if schema.type is not Type.STRUCT:
                raise DataError("Cannot list fields on non-struct type")
            fields = []
            for field in schema.fields:
                target = self.fields.get(field.name)
                if target is None:
                    fields.append(field)
                    continue
                default = field.schema.default
                new = ConnectSchema(
                    target,
                    optional=field.schema.optional,
                    default=None if default is None else cast_value(field.schema, default, target),
                )
                fields.append(Field(field.name, new))
            built = copy_basics(schema, ConnectSchema(Type.STRUCT, fields=tuple(fields)))
        built = replace(built, optional=schema.optional)
        if schema.default is not None:
            built = replace(built, default=cast_value(schema, schema.default, built.type))
        self._cache.put(schema, built)
        return built


def cast_value(schema: ConnectSchema | None, value: Any, target: Type) -> Any:
    """``Cast.castValueToType``.

    Raises:
        DataError: Kafka's message for a value of a type it cannot cast, or out of range.
    """
    if value is None:
        return None
    kind: Type | None = schema.type if schema is not None else schemaless_type(value)
    if kind is None:
        raise DataError(
            f"Cast transformation was passed a value of type class {java_class(value)} which "
            "is not supported by Connect's data API"
        )
    if kind not in _INPUT_TYPES:
        raise DataError(
            f"Cast transformation does not support casting from {_JAVA_TYPE_NAMES[kind]}; "
            f"supported types are {_java_names(_INPUT_TYPES)}"
        )
    if schema is not None and schema.name is not None and target is not Type.STRING:
        value = _encode_logical(schema, value)
    if isinstance(value, float) and kind is Type.FLOAT32:
        value = to_float32(value)  # a Java Float
    try:
        if target is Type.STRING:
            return _to_string(schema, value)
        return _cast_primitive(value, target, schema)
    except DataError:
        raise
    except ValueError:  # Java's NumberFormatException
        raise DataError(f"Value ({value}) was out of range for requested data type") from None


def _encode_logical(schema: ConnectSchema, value: Any) -> Any:
    if schema.name in (DATE, TIME, TIMESTAMP) and is_temporal(value):
        millis = temporal_millis(value)
        return millis // 86_400_000 if schema.name == DATE else millis
    return value


def _cast_primitive(value: Any, target: Type, schema: ConnectSchema | None) -> Any:
    if isinstance(value, bool):
        number: int | float = 1 if value else 0
        if target is Type.BOOLEAN:
            return value
        return float(number) if target in (Type.FLOAT32, Type.FLOAT64) else number
    if isinstance(value, int | float | Decimal):
        if target is Type.BOOLEAN:
            return long_value(value) != 0
        if target is Type.FLOAT32:
            return to_float32(float(value))
        if target is Type.FLOAT64:
            return float(value)
        return narrow(value, target)
    if isinstance(value, str):
        if target is Type.BOOLEAN:
            return parse_boolean(value)
        if target is Type.FLOAT32:
            return to_float32(parse_double(value))
        if target is Type.FLOAT64:
            return parse_double(value)
        return parse_integer(value, target)
    raise DataError(f"Unexpected type in Cast transformation: class {java_class(value, schema)}")


def _to_string(schema: ConnectSchema | None, value: Any) -> str:
    if is_temporal(value):
        return date_format_for(temporal_millis(value))
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return double_text(value, schema is not None and schema.type is Type.FLOAT32)
    if isinstance(value, Decimal):
        return decimal_text(value)
    return str(value)
