"""``org.apache.kafka.connect.transforms.TimestampConverter$Key`` / ``$Value``: converts a
timestamp (the whole key or value, or its ``field``) between ``string`` (a ``SimpleDateFormat``
pattern, UTC), ``unix`` (epoch seconds, ms, us or ns: ``unix.precision``), ``Date``, ``Time``
and ``Timestamp``.

The input's kind comes from its schema (a Timestamp, Date or Time logical type, else string or
int64) or, without one, from the value (a date-time, an integer, a string). As in Kafka,
everything goes through epoch milliseconds, so finer precision is lost. Parsing a string with
``y`` or ``yy`` reads a two-digit year relative to when the chain was built, so such a chain is
not deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from s3connect.connect.java_types import LONG_MAX, LONG_MIN, java_class
from s3connect.connect.logical import EPOCH, EPOCH_DAY
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
from s3connect.transforms.date_format import DAY_MS
from s3connect.transforms.settings import REQUIRED, Settings
from s3connect.transforms.simple_date_format import SimpleDateFormat
from s3connect.transforms.structs import (
    SchemaCache,
    as_copied_map,
    copy_basics,
    field_value,
    require_map,
    require_struct,
)
from s3connect.transforms.values import is_temporal, temporal_millis
from s3connect.util.javamath import java_div

__all__ = ["TimestampConverter"]

TYPES = ("string", "unix", "Date", "Time", "Timestamp")
PRECISIONS = ("nanoseconds", "microseconds", "milliseconds", "seconds")
_MS_PER_UNIT = {"seconds": 1000, "milliseconds": 1}
_UNITS_PER_MS = {"microseconds": 1000, "nanoseconds": 1_000_000}
_PURPOSE = "converting timestamp formats"


def _saturate(value: int) -> int:
    return max(LONG_MIN, min(LONG_MAX, value))


def type_schema(kind: str, optional: bool) -> ConnectSchema:
    """The schema of a target type (``TimestampTranslator.typeSchema``)."""
    if kind == "string":
        return ConnectSchema(Type.STRING, optional=optional)
    if kind == "unix":
        return ConnectSchema(Type.INT64, optional=optional)
    logical = {"Date": (Type.INT32, DATE), "Time": (Type.INT32, TIME)}
    base, name = logical.get(kind, (Type.INT64, TIMESTAMP))
    return ConnectSchema(base, optional=optional, name=name, version=1)


def kind_of_schema(schema: ConnectSchema) -> str:
    """``timestampTypeFromSchema``.

    Raises:
        DataError: a schema that is not a timestamp type.
    """
    by_name = {TIMESTAMP: "Timestamp", DATE: "Date", TIME: "Time"}
    if schema.name in by_name:
        return by_name[schema.name]
    if schema.type is Type.STRING:
        return "string"
    if schema.type is Type.INT64:
        return "unix"
    raise DataError(
        f"Schema Schema{{{schema.type.name}}} does not correspond to a known timestamp type format"
    )


def kind_of_value(value: Any) -> str:
    """``inferTimestampType``.

    Raises:
        DataError: a value that is no timestamp.
    """
    if is_temporal(value):
        return "Timestamp"
    if isinstance(value, int) and not isinstance(value, bool):
        return "unix"
    if isinstance(value, str):
        return "string"
    raise DataError(
        f"TimestampConverter does not support class {java_class(value)} objects as timestamps"
    )


@dataclass(eq=False)
class TimestampConverter(Transformation):
    """One ``TimestampConverter$Key`` / ``TimestampConverter$Value``."""

    side: Side
    target: str
    field: str = ""
    format: SimpleDateFormat | None = None
    unix_precision: str = "milliseconds"
    replace_null_with_default: bool = True

    def __post_init__(self) -> None:
        self.class_name = f"{KAFKA_PACKAGE}.TimestampConverter${self.side.value}"
        self._cache = SchemaCache()

    @classmethod
    def configure(cls, s: Settings, side: Side) -> TimestampConverter | None:
        """Read ``field``, ``target.type``, ``format``, ``unix.precision`` and
        ``replace.null.with.default``."""
        field = s.string("field", "", "the timestamp field, or empty for the whole value")
        target = s.choice("target.type", TYPES, REQUIRED)
        pattern = s.string("format", "", "a java.text.SimpleDateFormat pattern")
        precision = s.choice("unix.precision", PRECISIONS, "milliseconds")
        replace_null = s.boolean("replace.null.with.default", True)
        formatter = None
        if target == "string" and not pattern:
            s.problem(
                "TimestampConverter requires format option to be specified when using string "
                f"timestamps ({s.key('format')})"
            )
        elif pattern:
            try:
                formatter = SimpleDateFormat(pattern, s.now_ms)
            except ValueError as exc:
                s.invalid(
                    "format",
                    pattern,
                    "TimestampConverter requires a SimpleDateFormat-compatible pattern for "
                    f"string timestamps: {pattern} ({exc})",
                )
        if s.failed or target is None or precision is None or field is None:
            return None
        return cls(side, target, field, formatter, precision, replace_null)

    def nondeterminism(self) -> str | None:
        if self.format is not None and self.format.reads_two_digit_years:
            return (
                f"{self.class_name} parses two-digit years (y or yy in {self.format.pattern!r}) "
                "within the century that starts 80 years before the chain was built"
            )
        return None

    def apply(self, record: SinkRecord) -> SinkRecord:
        schema, value = operating(record, self.side)
        if schema is None:
            if value is None or not self.field:
                return with_operating(record, self.side, None, self._convert(value, None))
            current = require_map(value, _PURPOSE)
            updated = dict(current)
            updated[self.field] = self._convert(updated.get(self.field), None)
            updated = as_copied_map(updated, len(current))
            return with_operating(record, self.side, None, updated)
        if not self.field:
            new_schema = type_schema(self.target, schema.optional)
            converted = self._convert(value, kind_of_schema(schema))
            return with_operating(record, self.side, new_schema, converted)
        struct = None if value is None else require_struct(schema, value, _PURPOSE)
        new_schema = self._struct_schema(schema)
        return with_operating(record, self.side, new_schema, self._convert_struct(schema, struct))

    def _struct_schema(self, schema: ConnectSchema) -> ConnectSchema:
        cached: ConnectSchema | None = self._cache.get(schema)
        if cached is not None:
            return cached
        if schema.type is not Type.STRUCT:
            raise DataError("Cannot list fields on non-struct type")
        fields = tuple(
            Field(f.name, type_schema(self.target, f.schema.optional))
            if f.name == self.field
            else f
            for f in schema.fields
        )
        built = copy_basics(schema, ConnectSchema(Type.STRUCT, fields=fields))
        built = replace(built, optional=schema.optional)
        if schema.default is not None:
            built = replace(built, default=self._convert_struct(schema, schema.default))
        self._cache.put(schema, built)
        return built

    def _convert_struct(
        self, schema: ConnectSchema, struct: Mapping[str, Any] | None
    ) -> dict[str, Any] | None:
        if struct is None:
            return None
        out: dict[str, Any] = {}
        for f in schema.fields:
            item = field_value(struct, f, self.replace_null_with_default)
            if f.name == self.field:
                item = self._convert(item, kind_of_schema(f.schema))
            out[f.name] = item
        return out

    def _convert(self, value: Any, kind: str | None) -> Any:
        """``convertTimestamp``: through epoch milliseconds to the target type."""
        if value is None:
            return None
        try:
            return self._to_target(self._to_millis(value, kind or kind_of_value(value)))
        except OverflowError:
            raise DataError(f"Timestamp {value!r} is out of the supported range") from None

    def _to_millis(self, value: Any, kind: str) -> int:
        if kind == "string":
            if not isinstance(value, str):
                raise DataError(
                    f"Expected string timestamp to be a String, but found class {java_class(value)}"
                )
            if self.format is None:  # Kafka's NullPointerException
                raise DataError(
                    'Cannot invoke "java.text.SimpleDateFormat.parse(String)" because '
                    '"config.format" is null'
                )
            parsed = self.format.parse(value)
            if parsed is None or parsed[1] == 0:
                raise DataError(
                    f"Could not parse timestamp: value ({value}) does not match pattern "
                    f"({self.format.pattern})"
                )
            return parsed[0]
        if kind == "unix":
            if not isinstance(value, int) or isinstance(value, bool):
                raise DataError(
                    f"Expected Unix timestamp to be a Long, but found class {java_class(value)}"
                )
            if self.unix_precision in _UNITS_PER_MS:
                return java_div(value, _UNITS_PER_MS[self.unix_precision])
            return _saturate(value * _MS_PER_UNIT[self.unix_precision])
        if not is_temporal(value):
            raise DataError(
                f"Expected {kind} to be a java.util.Date, but found class {java_class(value)}"
            )
        return temporal_millis(value)

    def _to_target(self, millis: int) -> Any:
        if self.target == "string":
            assert self.format is not None
            return self.format.format(millis)
        if self.target == "unix":
            if self.unix_precision in _UNITS_PER_MS:
                return _saturate(millis * _UNITS_PER_MS[self.unix_precision])
            return java_div(millis, _MS_PER_UNIT[self.unix_precision])
        if self.target == "Date":
            return EPOCH_DAY + timedelta(days=millis // DAY_MS)
        if self.target == "Time":
            return (EPOCH + timedelta(milliseconds=millis % DAY_MS)).time()
        return EPOCH + timedelta(milliseconds=millis)
