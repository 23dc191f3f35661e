"""Confluent's partitioners and timestamp extractors (kafka-connect-storage-common).

``DefaultPartitioner`` writes ``partition=<n>``; ``FieldPartitioner`` writes ``<field>=<value>`` per
configured field; ``TimeBasedPartitioner`` (and its ``Daily``/``Hourly`` presets) buckets the
extractor's timestamp exactly as ``TimeBasedPartitioner.getPartition`` does (Joda zone arithmetic,
Java's truncating division) and formats the bucket with the Joda ``path.format``.
``SchemaPartitioner`` (kafka-connect-s3's, ``s3.schema.partition.affix.type``) wraps any of them
and puts ``schema_name=<value schema name>`` before or after its encoded partition.
:func:`build_partitioner` makes the one a config names.

Field values are written raw, as Confluent writes them (a ``/`` in a value makes one folder
more), except a value that would put a ``.`` or ``..`` segment into the key (``a/../b``) or holds
a control character (U+0000-U+001F, U+007F-U+009F): that one is percent-encoded (``%``, ``/`` and
the control characters as their UTF-8 ``%XX`` bytes; :func:`urllib.parse.unquote` restores it),
so no value can climb out of its folder.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Protocol

from s3connect.config.plugins import load_plugin
from s3connect.config.sink import SinkConfig
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.errors import ConfigError, PartitionError
from s3connect.transforms.jvm import java_trim
from s3connect.transforms.settings import invalid_value
from s3connect.util.javamath import java_div
from s3connect.util.timeformat import JodaFormatter, JodaZone, parse_iso_datetime

__all__ = [
    "DailyPartitioner",
    "DefaultPartitioner",
    "FieldPartitioner",
    "HourlyPartitioner",
    "Partitioner",
    "RecordFieldTimestampExtractor",
    "RecordTimestampExtractor",
    "SchemaPartitioner",
    "TimeBasedPartitioner",
    "TimestampExtractor",
    "WallclockTimestampExtractor",
    "bucket_start",
    "build_extractor",
    "build_partitioner",
    "encode_path_value",
    "map_field_path",
]

_TIMESTAMP_LOGICAL = "org.apache.kafka.connect.data.Timestamp"
_INT_TYPES = (Type.INT8, Type.INT16, Type.INT32, Type.INT64)
# DataUtils.QUOTED_DOT_PATTERN: a dot outside double quotes (map field names may hold dots).
_QUOTED_DOT = re.compile(r'\.(?=(?:[^"]*"[^"]*")*[^"]*$)')
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_UNSAFE = re.compile("[%/\x00-\x1f\x7f-\x9f]")
_LONG_MIN, _LONG_MAX = -(2**63), 2**63 - 1


class Partitioner(Protocol):
    """Confluent's ``Partitioner``: encodes a record's partition and the directory it goes to."""

    def encode_partition(self, record: SinkRecord, now_ms: int) -> str:
        """The encoded partition (``partition=0``, ``year=2024/month=03``) for one record."""
        ...

    def partitioned_path(self, topic: str, encoded: str) -> str:
        """``generatePartitionedPath``: ``<topic><directory.delim><encoded>``."""
        ...


class TimestampExtractor(Protocol):
    """Confluent's ``TimestampExtractor``: the epoch-millisecond time a record is bucketed by."""

    def extract(self, record: SinkRecord, now_ms: int) -> int:
        """The record's timestamp in epoch milliseconds.

        Raises:
            PartitionError: the record has no usable timestamp.
        """
        ...


_NUMERIC_TIMESTAMP = re.compile(r"-?[0-9]{1,19}\Z")
"""``TimeBasedPartitioner.NUMERIC_TIMESTAMP_PATTERN``: a string of epoch milliseconds."""


def _error(record: SinkRecord, message: str, *, reportable: bool = True) -> PartitionError:
    return PartitionError(
        message,
        topic=record.topic,
        partition=record.partition,
        offset=record.offset,
        reportable=reportable,
    )


class _PathMixin:
    directory_delim: str

    def partitioned_path(self, topic: str, encoded: str) -> str:
        """``generatePartitionedPath``: ``<topic><directory.delim><encoded>``."""
        return f"{topic}{self.directory_delim}{encoded}"


class DefaultPartitioner(_PathMixin):
    """``partition=<kafkaPartition>`` (Confluent's ``DefaultPartitioner``)."""

    def __init__(self, directory_delim: str = "/") -> None:
        self.directory_delim = directory_delim

    def encode_partition(self, record: SinkRecord, now_ms: int) -> str:
        """``partition=<n>``."""
        return f"partition={record.partition}"


class SchemaPartitioner:
    """Confluent's ``SchemaPartitioner``: ``schema_name=<name>`` joined to the wrapped
    partitioner's encoded partition by ``directory.delim``, before it (``PREFIX``) or after it
    (``SUFFIX``). The name is the value schema's (``null`` when schemaless or unnamed), made
    path-safe as field values are; the directory is the wrapped partitioner's.

    Tombstones written with ``behavior.on.null.values=write`` never reach it: as Confluent's
    ``TombstoneSupportedPartitioner``, the writer puts them in their own partition, outside.
    """

    def __init__(self, delegate: Partitioner, affix: str, directory_delim: str = "/") -> None:
        if affix not in ("PREFIX", "SUFFIX"):
            raise ConfigError(
                f"s3.schema.partition.affix.type: invalid value {affix!r}: SchemaPartitioner "
                "needs PREFIX or SUFFIX"
            )
        self.delegate = delegate
        self.affix = affix
        self.directory_delim = directory_delim

    def encode_partition(self, record: SinkRecord, now_ms: int) -> str:
        """The wrapped encoded partition with ``schema_name=<name>`` before or after it."""
        encoded = self.delegate.encode_partition(record, now_ms)
        schema = record.value_schema
        name = "null" if schema is None or schema.name is None else schema.name
        part = "schema_name=" + encode_path_value(name)
        if self.affix == "PREFIX":
            return f"{part}{self.directory_delim}{encoded}"
        return f"{encoded}{self.directory_delim}{part}"

    def partitioned_path(self, topic: str, encoded: str) -> str:
        """The wrapped partitioner's ``generatePartitionedPath``."""
        return self.delegate.partitioned_path(topic, encoded)


# ------------------------------------------------------------------------------------------
# Field values


def encode_path_value(value: str) -> str:
    """A field value as the key holds it: raw, or percent-encoded when unsafe (see the module
    docstring)."""
    dots = "/" in value and any(seg in (".", "..") for seg in value.split("/")[1:])
    if not dots and not _CONTROL.search(value):
        return value
    return _UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode("utf-8")), value)


def _java_double(x: float) -> str:
    """Java's ``Double.toString`` (shortest digits, as JDK 19+; plain in [1e-3, 1e7))."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign, digits_t, exp = Decimal(repr(x)).normalize().as_tuple()
    assert isinstance(exp, int)
    digits = "".join(map(str, digits_t))
    e = len(digits) + exp - 1  # value = d.ddd x 10^e
    prefix = "-" if sign else ""
    if -3 <= e < 7:
        if e >= 0:
            whole = digits[: e + 1].ljust(e + 1, "0")
            frac = digits[e + 1 :] or "0"
            return f"{prefix}{whole}.{frac}"
        return f"{prefix}0.{'0' * (-e - 1)}{digits}"
    return f"{prefix}{digits[0]}.{digits[1:] or '0'}E{e}"


def _java_long(x: float) -> int:
    """Java's ``Number.longValue()`` of a double: truncation, NaN -> 0, saturating."""
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return _LONG_MAX if x > 0 else _LONG_MIN
    return max(_LONG_MIN, min(_LONG_MAX, int(x)))


def _struct_field(
    record: SinkRecord, schema: ConnectSchema, value: Any, name: str
) -> tuple[ConnectSchema, Any]:
    """``DataUtils.getNestedFieldValue`` + ``getNestedField`` on a struct: dotted names, a null
    field read as its schema's default (``Struct.get``)."""
    current_schema, current = schema, value
    for token in name.split("."):
        field = current_schema.field(token) if current_schema.type == Type.STRUCT else None
        if field is None or not isinstance(current, Mapping):
            raise _error(record, f"The nested field named '{name}' does not exist.")
        current_schema, current = field.schema, _struct_get(current, field)
    return current_schema, current


def _struct_get(struct: Mapping[Any, Any], field: Field) -> Any:
    """Kafka's ``Struct.get(field)``: the value, or the field schema's default when null."""
    value = struct.get(field.name)
    return field.schema.default if value is None else value


def _nested_schema(schema: ConnectSchema, name: str) -> ConnectSchema | None:
    """``DataUtils.getNestedField``'s schema: None where a field on the dotted path is missing."""
    current: ConnectSchema | None = schema
    for token in name.split("."):
        is_struct = current is not None and current.type == Type.STRUCT
        field = current.field(token) if current is not None and is_struct else None
        current = field.schema if field is not None else None
    return current


def _nested_value(schema: ConnectSchema, value: Any, name: str) -> Any:
    """The struct value at a dotted path whose fields the schema has (a null read as its
    default, as ``Struct.get``); None past a null."""
    current, current_schema = value, schema
    for token in name.split("."):
        field = current_schema.field(token)
        if field is None or not isinstance(current, Mapping):
            return None
        current, current_schema = _struct_get(current, field), field.schema
    return current


def _map_field(
    record: SinkRecord, value: Mapping[Any, Any], name: str, schema: ConnectSchema | None = None
) -> Any:
    """``DataUtils.getNestedFieldValue`` on a map: quoted-dot aware; a null counts as missing.
    Where ``schema`` (the value's) says a level is a struct, a null field is read as its
    default (``Struct.get``)."""
    current: Any = value
    for key in map_field_path(name):
        field = schema.field(key) if schema is not None and schema.type == Type.STRUCT else None
        if not isinstance(current, Mapping):
            found = None
        elif field is not None:
            found = _struct_get(current, field)
        else:
            found = current.get(key)
        if found is None:
            raise _error(record, f"The nested field named '{name}' does not exist.")
        current = found
        schema = _child_schema(schema, field)
    return current


def _child_schema(schema: ConnectSchema | None, field: Field | None) -> ConnectSchema | None:
    """The schema one level down a map walk: the struct field's, or a map's value schema."""
    if field is not None:
        return field.schema
    if schema is not None and schema.type == Type.MAP:
        return schema.value_schema
    return None


def map_field_path(name: str) -> list[str]:
    """The keys a map field name walks through (``DataUtils``: dots outside double quotes)."""
    return [token.replace('"', "") for token in _QUOTED_DOT.split(name)]


def _is_struct(record: SinkRecord) -> bool:
    schema = record.value_schema
    return schema is not None and schema.type == Type.STRUCT and isinstance(record.value, Mapping)


class FieldPartitioner(_PathMixin):
    """``<field>=<value>`` joined by ``directory.delim`` (Confluent's ``FieldPartitioner``).

    Struct fields of type int8-64, string and boolean are accepted (a null of any type prints
    ``null``, as Confluent does); map values may be any number (Java ``toString``), string or
    boolean. Anything else, a missing field or a value that is neither struct nor map raises
    :class:`PartitionError` naming the field. Values are made path-safe (module docstring).
    """

    def __init__(self, field_names: Sequence[str] | str, directory_delim: str = "/") -> None:
        names = [field_names] if isinstance(field_names, str) else list(field_names)
        names = [n.strip() for n in names if n.strip()]
        if not names:
            raise ConfigError(
                "partition.field.name: Partition field name cannot be null or empty when using "
                "FieldPartitioner."
            )
        self.field_names = tuple(names)  # as the config lists them (Confluent: duplicates too)
        self.directory_delim = directory_delim

    def encode_partition(self, record: SinkRecord, now_ms: int) -> str:
        """``name=value`` for every configured field, in order."""
        parts = []
        for name in self.field_names:
            text = self._value_text(record, name)
            parts.append(f"{name}={encode_path_value(text)}")
        return self.directory_delim.join(parts)

    def _value_text(self, record: SinkRecord, name: str) -> str:
        if _is_struct(record):
            assert record.value_schema is not None
            schema = _nested_schema(record.value_schema, name)
            if schema is None:  # Confluent's DataException, thrown past its errant-record reporter
                message = f"Field '{name}' is not present in the schema."
                raise _error(record, message, reportable=False)
            value = _nested_value(record.value_schema, record.value, name)  # None past a null
            if value is None:  # before the type, whatever it is (Confluent's null check)
                return "null"
            if schema.type in _INT_TYPES and _is_int(value):
                return str(value)
            if schema.type == Type.STRING and isinstance(value, str):
                return value
            if schema.type == Type.BOOLEAN and isinstance(value, bool):
                return "true" if value else "false"
            kind = (
                schema.type.value if schema.name is None else f"{schema.type.value} {schema.name}"
            )
            got = "null" if value is None else type(value).__name__
            raise _error(  # Confluent's PartitionException message first
                record,
                f"Error encoding partition. Field '{name}' of type {kind} ({got}) is not "
                "supported as a partition key",
            )
        if isinstance(record.value, Mapping):
            return self._map_value_text(record, name, _map_field(record, record.value, name))
        raise _error(  # Confluent's PartitionException message first
            record,
            f"Error encoding partition. Value is not of Struct or Map type (partition field "
            f"'{name}')",
        )

    def encode_map_values(self, record: SinkRecord, values: Sequence[Any]) -> str:
        """The encoded partition of a map value whose fields (:attr:`field_names`, in order)
        hold ``values`` (each found, not null); ``record`` names the record in errors."""
        parts = []
        for name, value in zip(self.field_names, values, strict=True):
            text = self._map_value_text(record, name, value)
            parts.append(f"{name}={encode_path_value(text)}")
        return self.directory_delim.join(parts)

    @staticmethod
    def _map_value_text(record: SinkRecord, name: str, value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):
            return _java_double(value)
        if isinstance(value, Decimal):
            return str(value)  # same algorithm as BigDecimal.toString
        if isinstance(value, str):
            return value
        raise _error(
            record,
            f"Field '{name}' of type {type(value).__name__} is not supported as a partition key",
        )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ------------------------------------------------------------------------------------------
# Timestamp extractors


class WallclockTimestampExtractor:
    """``Wallclock``: the caller's ``now_ms`` (one clock reading per batch, as Confluent)."""

    def extract(self, record: SinkRecord, now_ms: int) -> int:
        """``now_ms``."""
        return now_ms


class RecordTimestampExtractor:
    """``Record``: the Kafka record timestamp."""

    def extract(self, record: SinkRecord, now_ms: int) -> int:
        """The record's Kafka timestamp; a record without one raises PartitionError."""
        if record.timestamp is None:
            raise _error(record, "Unable to determine timestamp using timestamp.extractor Record")
        return record.timestamp


def _datetime_ms(value: datetime) -> int:
    aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    delta = aware - datetime(1970, 1, 1, tzinfo=UTC)
    return delta.days * 86_400_000 + delta.seconds * 1000 + delta.microseconds // 1000


class RecordFieldTimestampExtractor:
    """``RecordField``: the value field ``timestamp.field`` (dotted names reach nested fields).

    A struct field may be a Connect ``Timestamp`` (a ``datetime``; naive means UTC), an int32/int64
    of epoch millis, or a string parsed as Joda's ISO ``dateTimeParser`` (no offset means UTC); a
    map value may be any number (truncated to a long), an ISO string or a ``datetime``. Anything
    else raises :class:`PartitionError`.
    """

    def __init__(self, field_name: str) -> None:
        if not field_name.strip():
            raise ConfigError(
                "timestamp.field: must name a field for timestamp.extractor=RecordField"
            )
        self.field_name = field_name

    def extract(self, record: SinkRecord, now_ms: int) -> int:
        """The field's value in epoch milliseconds.

        Raises:
            PartitionError: not reportable: Confluent's ``TopicPartitionWriter`` extracts the
                timestamp before its errant-record reporting, so the failure stops the task.
        """
        try:
            return self._extract(record)
        except PartitionError as error:
            error.reportable = False
            raise

    def _extract(self, record: SinkRecord) -> int:
        name = self.field_name
        if _is_struct(record):
            assert record.value_schema is not None
            schema, value = _struct_field(record, record.value_schema, record.value, name)
            if schema.name == _TIMESTAMP_LOGICAL and isinstance(value, datetime):
                return _datetime_ms(value)
            if schema.name == _TIMESTAMP_LOGICAL and _is_int(value):
                return int(value)
            if schema.type in (Type.INT32, Type.INT64) and _is_int(value):  # named too
                return int(value)
            if schema.type == Type.STRING and isinstance(value, str):
                return self._parse(record, value)
        elif isinstance(record.value, Mapping):
            value = _map_field(record, record.value, name, record.value_schema)
            if _is_int(value):
                return int(value)
            if isinstance(value, float | Decimal):
                return _java_long(float(value))
            if isinstance(value, str):
                return self._parse(record, value)
            if isinstance(value, datetime):
                return _datetime_ms(value)
        else:
            raise _error(record, "Error encoding partition. Value is not of Struct or Map type.")
        raise _error(record, f"Error extracting timestamp from record field: {name}")

    def _parse(self, record: SinkRecord, text: str) -> int:
        """``extractTimestampFromString``: whole digits (that fit a long) are epoch
        milliseconds, anything else an ISO date-time."""
        if _NUMERIC_TIMESTAMP.match(text) and -(2**63) <= int(text) < 2**63:
            return int(text)
        try:
            return parse_iso_datetime(text)
        except ValueError as e:  # Joda's message first (an IllegalArgumentException there)
            raise _error(record, f"{e} (timestamp.field '{self.field_name}')") from e


# ------------------------------------------------------------------------------------------
# Time-based


def _config_error(key: str, value: object, message: str) -> ConfigError:
    """Kafka's ``ConfigException(name, value, message)``: names the key and the value."""
    return ConfigError(invalid_value(key, value, message))


def bucket_start(duration_ms: int, timestamp_ms: int, zone: JodaZone) -> int:
    """``TimeBasedPartitioner.getPartition``: the bucket's start instant, Joda arithmetic."""
    adjusted = zone.convert_utc_to_local(timestamp_ms)
    partitioned = java_div(adjusted, duration_ms) * duration_ms
    return zone.convert_local_to_utc(partitioned, False)


class TimeBasedPartitioner(_PathMixin):
    """Confluent's ``TimeBasedPartitioner``: bucket the extracted time, format it with Joda.

    Args:
        path_format: ``path.format`` (Joda pattern); one trailing ``directory.delim`` is dropped.
        partition_duration_ms: ``partition.duration.ms``, > 0.
        locale: ``locale`` (Java ``new Locale(value)``).
        timezone: ``timezone`` (``DateTimeZone.forID``).
        extractor: the ``timestamp.extractor``.
        directory_delim: ``directory.delim``.

    Raises:
        ConfigError: a blank or invalid value, naming the key.
    """

    def __init__(
        self,
        path_format: str,
        partition_duration_ms: int,
        locale: str,
        timezone: str,
        extractor: TimestampExtractor,
        directory_delim: str = "/",
    ) -> None:
        if partition_duration_ms <= 0:  # Confluent refuses < 0; 0 fails every record there
            raise _config_error(
                "partition.duration.ms",
                partition_duration_ms,
                "Partition duration needs to be a positive.",
            )
        # Confluent's StringUtils.isBlank: Java's trim (every character up to U+0020) leaves "".
        if not java_trim(path_format) or path_format == directory_delim:
            raise _config_error("path.format", path_format, "Path format cannot be empty.")
        if java_trim(directory_delim) and path_format.endswith(directory_delim):
            path_format = path_format[: -len(directory_delim)]
        if not java_trim(locale):
            raise _config_error("locale", locale, "Locale cannot be empty.")
        if not java_trim(timezone):
            raise _config_error("timezone", timezone, "Timezone cannot be empty.")
        try:
            zone = JodaZone.for_id(timezone)
        except ValueError as e:
            raise _config_error("timezone", timezone, str(e)) from e
        try:
            self.formatter = JodaFormatter(path_format, zone, locale)
        except ValueError as e:
            raise _config_error("path.format", path_format, str(e)) from e
        self.path_format = path_format
        self.partition_duration_ms = partition_duration_ms
        self.zone = zone
        self.extractor = extractor
        self.directory_delim = directory_delim

    def encode_partition(self, record: SinkRecord, now_ms: int) -> str:
        """The formatted start of the record's time bucket."""
        timestamp = self.extractor.extract(record, now_ms)
        try:
            return self.encode_timestamp(timestamp)
        except ValueError as e:
            raise _error(record, f"Cannot encode timestamp {timestamp}: {e}") from e

    def encode_timestamp(self, timestamp: int) -> str:
        """The formatted start of the time bucket of ``timestamp`` (ValueError: out of range)."""
        return self.formatter.format(bucket_start(self.partition_duration_ms, timestamp, self.zone))


class DailyPartitioner(TimeBasedPartitioner):
    """``'year'=YYYY/'month'=MM/'day'=dd`` buckets of one day (``DailyPartitioner``)."""

    def __init__(
        self,
        locale: str,
        timezone: str,
        extractor: TimestampExtractor,
        directory_delim: str = "/",
    ) -> None:
        d = directory_delim
        fmt = f"'year'=YYYY{d}'month'=MM{d}'day'=dd"
        super().__init__(fmt, 86_400_000, locale, timezone, extractor, directory_delim)


class HourlyPartitioner(TimeBasedPartitioner):
    """``'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH`` buckets of one hour (``HourlyPartitioner``)."""

    def __init__(
        self,
        locale: str,
        timezone: str,
        extractor: TimestampExtractor,
        directory_delim: str = "/",
    ) -> None:
        d = directory_delim
        fmt = f"'year'=YYYY{d}'month'=MM{d}'day'=dd{d}'hour'=HH"
        super().__init__(fmt, 3_600_000, locale, timezone, extractor, directory_delim)


# ------------------------------------------------------------------------------------------
# From the config


def build_extractor(config: SinkConfig) -> TimestampExtractor:
    """The ``timestamp.extractor`` of a time-based partitioner."""
    match config.partitioner.timestamp_extractor:
        case "Record":
            return RecordTimestampExtractor()
        case "RecordField":
            return RecordFieldTimestampExtractor(config.partitioner.timestamp_field)
    return WallclockTimestampExtractor()


def build_partitioner(config: SinkConfig) -> tuple[Partitioner, TimestampExtractor | None]:
    """The ``partitioner.class`` (in a ``SchemaPartitioner`` with an
    ``s3.schema.partition.affix.type``) and, for time-based ones, its timestamp extractor."""
    partitioner, extractor = _base_partitioner(config)
    affix = config.partitioner.schema_partition_affix_type
    if affix != "NONE":
        partitioner = SchemaPartitioner(partitioner, affix, config.layout.directory_delim)
    return partitioner, extractor


def _base_partitioner(config: SinkConfig) -> tuple[Partitioner, TimestampExtractor | None]:
    """The ``partitioner.class`` and, for time-based ones, its timestamp extractor."""
    if config.partitioner.plugin is not None:
        cls = load_plugin("partitioner", config.partitioner.plugin)
        return cls(config.partitioner.plugin_settings), None
    delim = config.layout.directory_delim
    match config.partitioner.name:
        case "field":
            return FieldPartitioner(config.partitioner.field_names, directory_delim=delim), None
        case "time":
            extractor = build_extractor(config)
            return TimeBasedPartitioner(
                config.partitioner.path_format,
                config.partitioner.duration_ms,
                config.partitioner.locale,
                config.partitioner.timezone,
                extractor,
                directory_delim=delim,
            ), extractor
        case "daily" | "hourly" as name:
            extractor = build_extractor(config)
            preset = DailyPartitioner if name == "daily" else HourlyPartitioner
            return preset(
                config.partitioner.locale,
                config.partitioner.timezone,
                extractor,
                directory_delim=delim,
            ), extractor
    return DefaultPartitioner(directory_delim=delim), None
