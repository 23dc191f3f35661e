"""Confluent's ``io.confluent.connect.avro.AvroData``: Connect <-> Avro schemas and values.

The package's one Avro mapping, with AvroData's default settings (:data:`AVRO_DATA_CONFIG`), as
Confluent Platform 8.3.1 has it, plus schema-registry 8.4's field-level ``connect.parameters`` of a
named type written again by name. The Schema Registry ``AvroConverter`` reads with it, the S3 sink
writes Avro and Parquet files with it, and the S3 source reads those files back with it. The
Connect -> Avro direction also takes the two settings the sink's connector config changes
(:class:`AvroDataOptions`: ``enhanced.avro.schema.support``, ``allow.optional.map.keys``)::

    avro_schema_json(schema)          # fromConnectSchema, as Avro Java's Schema.toString()
    to_avro_value(schema, value)      # fromConnectData, a fastavro datum
    avro_schema_json(schema, AvroDataOptions(enhanced_schema_support=True))
    to_connect_schema(avro_json)      # toConnectSchema
    reader = connect_reader(avro_json)
    reader.read(buffer)               # one fastavro-decoded datum, as toConnectData gives it

Avro schemas are JSON trees; Connect values are this package's (dicts for structs, ``Decimal``,
``date``, ``time``, UTC ``datetime``). Known differences: recursive Avro schemas are rejected
(Connect's cyclic schemas have no equivalent here); in a union of both ``int`` and ``long`` (or
``float`` and ``double``) a value that fits takes ``int`` (``double``), as Python decodes both
alike; the ``variant`` logical type is read as a plain record.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from functools import partial
from types import MappingProxyType
from typing import Any, BinaryIO, NamedTuple, TypeGuard

import fastavro

from s3connect.connect.java_types import java_class
from s3connect.connect.json_data import as_hashmap, dumps_json
from s3connect.connect.logical import (
    EPOCH,
    EPOCH_DAY,
    bytes_to_decimal,
    date_to_days,
    decimal_scale,
    decimal_to_bytes,
    decimal_unscaled,
    millis_to_time,
    time_to_millis,
    timestamp_to_millis,
)
from s3connect.connect.schema import (
    DATE,
    DECIMAL,
    INT_RANGES,
    TIME,
    TIMESTAMP,
    ConnectSchema,
    Field,
    Type,
)
from s3connect.connect.validate import validate_value
from s3connect.convert.avro_anything import PARSED as ANYTHING_PARSED
from s3connect.convert.avro_anything import anything_value, is_anything
from s3connect.convert.codegen import connect_to_avro_fast
from s3connect.util.java_hashmap import sized_capacity
from s3connect.util.javamath import java_narrow

__all__ = [
    "AVRO_DATA_CONFIG",
    "AVRO_ENUM",
    "AVRO_UNION",
    "DECIMAL_PRECISION",
    "DEFAULT_SCHEMA_FULL_NAME",
    "ENUM_DEFAULT",
    "ENUM_DOC",
    "FIELD_DEFAULT_FLAG",
    "FIELD_DOC",
    "FIXED_SIZE",
    "NAMESPACE",
    "NULL_FOR_REQUIRED",
    "RECORD_DOC",
    "AvroDataOptions",
    "ConnectReader",
    "avro_schema",
    "avro_schema_json",
    "check_null",
    "compile_to_avro",
    "connect_reader",
    "decimal_precision",
    "is_fixed",
    "struct_get",
    "to_avro_value",
    "to_connect_schema",
]

NAMESPACE = "io.confluent.connect.avro"
DEFAULT_SCHEMA_FULL_NAME = f"{NAMESPACE}.ConnectDefault"
"""Unnamed structs become records named this (then ``ConnectDefault2``, ...); names starting
with it are dropped again when read."""
AVRO_UNION = f"{NAMESPACE}.Union"
AVRO_ENUM = f"{NAMESPACE}.Enum"
RECORD_DOC = f"{NAMESPACE}.record.doc"
FIELD_DOC = f"{NAMESPACE}.field.doc."
FIELD_DEFAULT_FLAG = f"{NAMESPACE}.field.default"
"""Parameter marking a Connect default that came from an Avro field default."""
ENUM_DOC = f"{NAMESPACE}.enum.doc."
ENUM_DEFAULT = f"{NAMESPACE}.enum.default."
DECIMAL_PRECISION = "connect.decimal.precision"
FIXED_SIZE = "connect.fixed.size"

AVRO_DATA_CONFIG: Mapping[str, str] = MappingProxyType(
    {
        "connect.meta.data": "true",
        "enhanced.avro.schema.support": "false",
        "generalized.sum.type.support": "false",
        "scrub.invalid.names": "false",
        "discard.type.doc.default": "false",
        "allow.optional.map.keys": "false",
        "flatten.singleton.unions": "true",
        "ignore.default.for.nullables": "false",
    }
)
"""The ``AvroDataConfig`` settings this module implements (Confluent's defaults)."""


@dataclasses.dataclass(frozen=True, slots=True)
class AvroDataOptions:
    """The ``AvroDataConfig`` settings the Connect -> Avro direction takes (AvroData's defaults;
    the S3 sink passes its connector config's, whose enhanced default is true).

    Attributes:
        enhanced_schema_support: ``enhanced.avro.schema.support``: a Connect string with the
            ``io.confluent.connect.avro.Enum`` parameter becomes an Avro ``enum`` (named by that
            parameter, symbols from its ``io.confluent.connect.avro.Enum.<symbol>`` keys) instead
            of a ``string``; its values are written as enum symbols.
        allow_optional_map_keys: ``allow.optional.map.keys``: a map with optional string keys
            becomes an Avro ``map`` instead of an array of ``MapEntry`` records.
        connect_meta_data: ``connect.meta.data``: the Avro schema carries the Connect schema's
            ``connect.doc``, ``.version``, ``.parameters``, ``.default``, ``.name`` and
            ``.type`` properties (false: none of them; logical types and ``avro*`` parameters
            stay).
    """

    enhanced_schema_support: bool = False
    allow_optional_map_keys: bool = False
    connect_meta_data: bool = True


_DEFAULTS = AvroDataOptions()

_DEFAULT_NAME = "ConnectDefault"
_MAP_ENTRY = "MapEntry"
_MAP_ENTRY_FULL_NAME = f"{NAMESPACE}.{_MAP_ENTRY}"
_PRECISION_DEFAULT = 64
_CONNECT_NAME = "connect.name"
_CONNECT_DOC = "connect.doc"
_CONNECT_VERSION = "connect.version"
_CONNECT_DEFAULT = "connect.default"
_CONNECT_PARAMETERS = "connect.parameters"
_CONNECT_TYPE = "connect.type"
_CONNECT_INTERNAL_TYPE = "connect.internal.type"
_PRIMITIVES = {
    Type.INT8: "int",
    Type.INT16: "int",
    Type.INT32: "int",
    Type.INT64: "long",
    Type.FLOAT32: "float",
    Type.FLOAT64: "double",
    Type.BOOLEAN: "boolean",
    Type.STRING: "string",
    Type.BYTES: "bytes",
}
_LOGICAL = {TIME: "time-millis", TIMESTAMP: "timestamp-millis", DATE: "date"}
_LOGICAL_NAMES = (DECIMAL, DATE, TIME, TIMESTAMP)
_CONTAINERS = (Type.ARRAY, Type.MAP, Type.STRUCT)
_ABSENT: Any = object()  # a JSON property or field default that is not there


def decimal_precision(schema: ConnectSchema) -> int:
    """A Connect Decimal's ``connect.decimal.precision`` parameter (AvroData's default: 64)."""
    return int(schema.parameters.get(DECIMAL_PRECISION, _PRECISION_DEFAULT))


def is_fixed(schema: ConnectSchema) -> bool:
    """AvroData.isFixedSchema: named bytes with a ``connect.fixed.size`` parameter (an Avro
    ``fixed`` of that size)."""
    return schema.type is Type.BYTES and schema.name is not None and FIXED_SIZE in schema.parameters


def _non_optional(schema: ConnectSchema) -> ConnectSchema:
    return dataclasses.replace(schema, optional=False)


# ---------------------------------------------------------------------------------------------
# Connect -> Avro schema (fromConnectSchema)


@dataclasses.dataclass
class _FromConnect:
    """AvroData's FromConnectContext: resolved non-optional schemas, the default-name index and
    the names of the fields' schemas seen so far."""

    options: AvroDataOptions = _DEFAULTS
    resolved: list[tuple[ConnectSchema, Any]] = dataclasses.field(default_factory=list)
    name_index: int = 0
    seen_named: set[str] = dataclasses.field(default_factory=set)

    def lookup(self, schema: ConnectSchema) -> Any:
        for known, avro in self.resolved:
            if known == schema:
                return avro
        return None

    def name_or_default(self, name: str | None) -> tuple[str | None, str]:
        if name is not None:
            namespace, _, short = name.rpartition(".")
            return namespace or None, short
        self.name_index += 1
        return NAMESPACE, _DEFAULT_NAME + (str(self.name_index) if self.name_index > 1 else "")


def _record(namespace: str | None, name: str, fields: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "record", "name": name, "namespace": namespace, "fields": fields}


def _from_connect(schema: ConnectSchema, ctx: _FromConnect) -> Any:
    """AvroData.fromConnectSchema(schema, context, ignoreOptional=false)."""
    if not schema.optional:
        cached = ctx.lookup(schema)
        if cached is not None:
            return cached
    if schema.name == AVRO_UNION:  # AvroData's union struct: an Avro union of its fields
        members = [_from_connect(_non_optional(f.schema), ctx) for f in schema.fields]
        return ["null", *members] if schema.optional else members
    if schema.type is Type.STRUCT and schema.optional:  # a union, no metadata on it
        return ["null", _from_connect(_non_optional(schema), ctx)]
    base = _avro_base(schema, ctx)
    _add_metadata(base, schema, ctx.options)
    if schema.optional:
        return [base, "null"] if schema.default is not None else ["null", base]
    ctx.resolved.append((schema, base))
    return base


def _avro_base(schema: ConnectSchema, ctx: _FromConnect) -> dict[str, Any]:
    """The ``switch (schema.type())`` of fromConnectSchema: the Avro type without metadata."""
    t = schema.type
    if t is Type.ARRAY:
        assert schema.value_schema is not None
        return {"type": "array", "items": _from_connect(schema.value_schema, ctx)}
    if t is Type.MAP:
        return _avro_map(schema, ctx)
    if t is Type.STRUCT:
        namespace, name = ctx.name_or_default(schema.name)
        base = _record(namespace, name, [])
        if RECORD_DOC in schema.parameters:
            base["doc"] = schema.parameters[RECORD_DOC]
        base["fields"] = [
            _field(f.name, f.schema, ctx, schema.parameters.get(FIELD_DOC + f.name))
            for f in schema.fields
        ]
        return base
    if _is_enum(schema, ctx.options):
        return _avro_enum(schema, ctx)
    if is_fixed(schema):
        namespace, name = ctx.name_or_default(schema.name)
        size = int(schema.parameters[FIXED_SIZE])
        base = {"type": "fixed", "name": name, "namespace": namespace, "size": size}
    else:
        base = {"type": _PRIMITIVES[t]}
    if schema.name == DECIMAL and t is Type.BYTES:
        base["scale"] = decimal_scale(schema)
        base["precision"] = decimal_precision(schema)
    return base


def _avro_enum(schema: ConnectSchema, ctx: _FromConnect) -> dict[str, Any]:
    """An enum-carrying string with enhanced schema support: an Avro enum named by the
    ``io.confluent.connect.avro.Enum`` parameter, symbols from its ``.<symbol>`` keys in order,
    doc and default from the ``enum.doc.`` / ``enum.default.`` parameters of the schema's short
    name (which, unnamed, uses up a ``ConnectDefault`` name as AvroData's getNameOrDefault)."""
    params = schema.parameters
    prefix = AVRO_ENUM + "."
    symbols = [k[len(prefix) :] for k in params if k.startswith(prefix)]
    short = ctx.name_or_default(schema.name)[1]
    namespace, _, name = params[AVRO_ENUM].rpartition(".")
    base: dict[str, Any] = {"type": "enum", "name": name, "namespace": namespace or None}
    if ENUM_DOC + short in params:
        base["doc"] = params[ENUM_DOC + short]
    base["symbols"] = symbols
    if ENUM_DEFAULT + short in params:
        base["default"] = params[ENUM_DEFAULT + short]
    return base


def _native_map(key: ConnectSchema, options: AvroDataOptions) -> bool:
    """Whether a map with this key schema is an Avro map (string keys, not optional unless
    ``allow.optional.map.keys``), not an array of MapEntry records."""
    return key.type is Type.STRING and (not key.optional or options.allow_optional_map_keys)


def _avro_map(schema: ConnectSchema, ctx: _FromConnect) -> dict[str, Any]:
    """A map: an Avro map for (non-optional) string keys, else an array of MapEntry records."""
    key, value = schema.key_schema, schema.value_schema
    assert key is not None and value is not None
    if _native_map(key, ctx.options):
        return {"type": "map", "values": _from_connect(value, ctx)}
    if schema.name is None:
        entry = _record(NAMESPACE, _MAP_ENTRY, [])
    else:
        entry = _record(*ctx.name_or_default(schema.name), [])
        entry[_CONNECT_INTERNAL_TYPE] = _MAP_ENTRY
    entry["fields"] = [_field("key", key, ctx), _field("value", value, ctx)]
    return {"type": "array", "items": entry}


def _add_metadata(base: dict[str, Any], schema: ConnectSchema, options: AvroDataOptions) -> None:
    """The ``connect.*`` properties (with connect.meta.data), logical types and ``avro*`` ones."""
    if options.connect_meta_data:
        _add_connect_properties(base, schema, options)
    if schema.name == DECIMAL:
        base["logicalType"] = "decimal"
    elif schema.name in _LOGICAL:
        base["logicalType"] = _LOGICAL[schema.name]
    base.update({k: v for k, v in schema.parameters.items() if k.startswith("avro")})


def _add_connect_properties(
    base: dict[str, Any], schema: ConnectSchema, options: AvroDataOptions
) -> None:
    if schema.doc is not None:
        base[_CONNECT_DOC] = schema.doc
    if schema.version is not None:
        base[_CONNECT_VERSION] = schema.version
    params = {k: v for k, v in schema.parameters.items() if k != FIELD_DEFAULT_FLAG}
    if params:
        base[_CONNECT_PARAMETERS] = params
    if schema.default is not None and FIELD_DEFAULT_FLAG not in schema.parameters:
        base[_CONNECT_DEFAULT] = _default_json(schema, schema.default, options)
    if schema.name is not None:
        base[_CONNECT_NAME] = schema.name
    if schema.type in (Type.INT8, Type.INT16):
        base[_CONNECT_TYPE] = schema.type.value


def _field(
    name: str, schema: ConnectSchema, ctx: _FromConnect, doc: str | None = None
) -> dict[str, Any]:
    """AvroData.addAvroRecordField: the field, its doc and default; a field whose schema's name
    was seen before, so that Avro writes its named type by name only, carries the schema's
    parameters as its own ``connect.parameters`` (connect.meta.data)."""
    seen = schema.name is not None and schema.name in ctx.seen_named
    if schema.name is not None:
        ctx.seen_named.add(schema.name)
    avro = _from_connect(schema, ctx)
    field: dict[str, Any] = {"name": name, "type": avro}
    if doc is not None:
        field["doc"] = doc
    _add_field_default(field, schema, ctx)
    params = {k: v for k, v in schema.parameters.items() if k != FIELD_DEFAULT_FLAG}
    if ctx.options.connect_meta_data and seen and params and _is_named(avro):
        field[_CONNECT_PARAMETERS] = params
    return field


def _is_named(avro: Any) -> bool:
    """AvroData.isNamedAvroType: a record, enum or fixed, or a union holding one."""
    if isinstance(avro, list):
        return any(_is_named(member) for member in avro)
    return isinstance(avro, Mapping) and avro.get("type") in _NAMED


def _add_field_default(field: dict[str, Any], schema: ConnectSchema, ctx: _FromConnect) -> None:
    """The field's ``default``: the schema's (its first member's for a union), null for an
    optional schema without one."""
    if schema.default is not None:
        # Avro validates a default against the first union branch ("null" for optional structs
        # and unions; a union's JSON default is its first member's value, which may be null).
        if schema.name == AVRO_UNION and not schema.optional:
            default = _default_json(schema, schema.default, ctx.options)
            if default is not None:
                field["default"] = default
        elif not (schema.optional and schema.type is Type.STRUCT):
            field["default"] = _default_json(schema, schema.default, ctx.options)
    elif schema.optional:
        field["default"] = None


def _default_json(schema: ConnectSchema, value: Any, options: AvroDataOptions) -> Any:
    """AvroData.defaultValueFromConnect: a default as Avro JSON (bytes as ISO-8859-1 text); a
    union's is its first member's; a null is null (a struct's fields fall back on their own
    defaults, as ``Struct.get``)."""
    if value is None:
        return None
    t = schema.type
    if schema.name == AVRO_UNION:
        first = schema.fields[0] if schema.fields else None
        return (
            None
            if first is None
            else _default_json(first.schema, struct_get(value, first), options)
        )
    if schema.name in _LOGICAL_NAMES or t not in _CONTAINERS:
        raw = to_avro_value(schema, value, options)
        return raw.decode("latin-1") if isinstance(raw, bytes) else raw
    if t is Type.STRUCT:
        if not isinstance(value, Mapping):
            raise ValueError(_invalid_type(Type.STRUCT, value))
        return {
            f.name: _default_json(f.schema, struct_get(value, f), options) for f in schema.fields
        }
    if t is Type.ARRAY:
        assert schema.value_schema is not None
        return [_default_json(schema.value_schema, v, options) for v in value]
    key, item = schema.key_schema, schema.value_schema
    assert key is not None and item is not None
    if _native_map(key, options):
        return {k: _default_json(item, v, options) for k, v in value.items()}
    return [
        [_default_json(key, k, options), _default_json(item, v, options)] for k, v in value.items()
    ]


def avro_schema(schema: ConnectSchema, options: AvroDataOptions = _DEFAULTS) -> Any:
    """The Avro schema of a Connect schema, as a JSON-able tree (fully qualified names).

    Suitable for ``fastavro.parse_schema``: a decimal whose scale is negative or above its
    precision has no ``logicalType`` here (Avro Java ignores one it cannot read; fastavro
    refuses the schema), its datums being raw bytes either way.
    """
    return _emit(_from_connect(schema, _FromConnect(options)), set(), None, qualified=True)


def avro_schema_json(schema: ConnectSchema, options: AvroDataOptions = _DEFAULTS) -> str:
    """The Avro schema text, as Avro Java's ``Schema.toString()`` writes AvroData's schema."""
    tree = _emit(_from_connect(schema, _FromConnect(options)), set(), None, qualified=False)
    return dumps_json(tree)


def _emit(node: Any, names: set[str], space: str | None, *, qualified: bool) -> Any:
    """A schema tree as Avro Java writes it: a named type once, then by name."""
    if isinstance(node, list):
        return [_emit(n, names, space, qualified=qualified) for n in node]
    if isinstance(node, str):
        return node
    kind = node["type"]
    if qualified and node.get("logicalType") == "decimal" and not _valid_decimal(node):
        node = {k: v for k, v in node.items() if k != "logicalType"}
    if kind not in ("record", "enum", "fixed"):
        extra = {
            k: _emit(v, names, space, qualified=qualified) if k in ("items", "values") else v
            for k, v in node.items()
        }
        return extra["type"] if len(extra) == 1 else extra
    namespace, name = node["namespace"], node["name"]
    full = f"{namespace}.{name}" if namespace else name
    if full in names:
        return name if not qualified and (namespace is None or namespace == space) else full
    names.add(full)
    out: dict[str, Any] = {"type": kind, "name": name}
    if qualified:
        if namespace is not None:
            out["namespace"] = namespace
    elif namespace is not None:
        if namespace != space:
            out["namespace"] = namespace
    elif space is not None:
        out["namespace"] = ""
    if "doc" in node:  # Avro Java writes a named type's doc before its fields or symbols
        out["doc"] = node["doc"]
    if kind == "record":
        out["fields"] = [
            {**f, "type": _emit(f["type"], names, namespace, qualified=qualified)}
            for f in node["fields"]
        ]
    out.update({k: v for k, v in node.items() if k not in ("type", "name", "namespace", "fields")})
    return out


def _valid_decimal(node: Mapping[str, Any]) -> bool:
    """Whether Avro's decimal logical type takes the node's scale and precision."""
    scale, precision = node.get("scale", 0), node.get("precision", 0)
    return isinstance(scale, int) and isinstance(precision, int) and 0 <= scale <= precision


# ---------------------------------------------------------------------------------------------
# Connect -> Avro values (fromConnectData)


NULL_FOR_REQUIRED = "Found null value for non-optional schema"


def check_null(schema: ConnectSchema) -> None:
    """AvroData.validateSchemaValue of a null: only an optional schema takes one (its default
    does not stand in for it: only a struct's fields fall back on theirs, :func:`struct_get`).

    Raises:
        ValueError: a required schema.
    """
    if not schema.optional:
        raise ValueError(NULL_FOR_REQUIRED)


def struct_get(struct: Mapping[str, Any], field: Field) -> Any:
    """Kafka's ``Struct.get(field)``, as AvroData reads a struct's fields: the value, or the
    field schema's default when null."""
    value = struct.get(field.name)
    return field.schema.default if value is None else value


def to_avro_value(schema: ConnectSchema, value: Any, options: AvroDataOptions = _DEFAULTS) -> Any:
    """AvroData.fromConnectData: a Connect value as a fastavro datum (logical types raw).

    Raises:
        ValueError: the value does not match the schema.
    """
    if value is None:
        check_null(schema)
        return None
    name, t = schema.name, schema.type
    if name in _LOGICAL_NAMES:
        return _logical_to_avro(schema, value)
    if t in INT_RANGES:
        return _integer(t, value)
    if t in (Type.FLOAT32, Type.FLOAT64):
        return _float(t, value)
    if t is Type.BOOLEAN or t is Type.STRING:
        expected = bool if t is Type.BOOLEAN else str
        if not isinstance(value, expected):
            raise ValueError(_invalid_type(t, value))
        return value
    if t is Type.BYTES:
        if not isinstance(value, bytes | bytearray | memoryview):
            raise ValueError(_invalid_type(t, value))
        return _fixed_size(schema, bytes(value))
    if t is Type.ARRAY:
        assert schema.value_schema is not None
        return [to_avro_value(schema.value_schema, v, options) for v in value]
    if t is Type.MAP:
        return _map_datum(schema, value, options)
    if not isinstance(value, Mapping):
        raise ValueError(_invalid_type(Type.STRUCT, value))
    if name == AVRO_UNION:
        return _union_datum(schema, value, options)
    return {f.name: to_avro_value(f.schema, struct_get(value, f), options) for f in schema.fields}


def _integer(t: Type, value: Any) -> int:
    """An integer of the type's Java class (a Byte for INT8, ...): one out of its range is
    another class, which AvroData's cast refuses."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(_invalid_type(t, value))
    low, high = INT_RANGES[t]
    if not low <= value <= high:
        raise ValueError(_invalid_type(t, value))
    return value


def _float(t: Type, value: Any) -> float:
    if not isinstance(value, float | int) or isinstance(value, bool):
        raise ValueError(_invalid_type(t, value))
    return float(value)


def _invalid_type(t: Type, value: Any) -> str:
    """AvroData.fromConnectData's message for a value of the wrong class."""
    return f"Invalid type for {t.name}: class {java_class(value)}"


def avro_map_order(entries: Mapping[str, Any]) -> Mapping[str, Any]:
    """A string-keyed map in the order AvroData.fromConnectData writes it: the iteration order
    of the ``new HashMap<>()`` it fills in the Connect map's order (the datum's order for a map
    read by AvroConverter), which Avro's and parquet-avro's writers follow."""
    return as_hashmap(entries)  # type: ignore[arg-type]


def _map_datum(schema: ConnectSchema, value: Any, options: AvroDataOptions) -> Any:
    """A map as an Avro map (a null key fails, as Avro's writer), or as MapEntry records."""
    key, item = schema.key_schema, schema.value_schema
    assert key is not None and item is not None
    if _native_map(key, options):
        if None in value:
            raise ValueError("An Avro map cannot hold a null key (allow.optional.map.keys=true)")
        if not all(isinstance(k, str) for k in value):  # AvroData's (String) cast of a key
            raise ValueError(_invalid_type(Type.MAP, value))
        return {k: to_avro_value(item, v, options) for k, v in avro_map_order(value).items()}
    return [
        {"key": to_avro_value(key, k, options), "value": to_avro_value(item, v, options)}
        for k, v in value.items()
    ]


def _logical_to_avro(schema: ConnectSchema, value: Any) -> Any:
    name = schema.name
    if name == DECIMAL:
        raw = decimal_to_bytes(decimal_unscaled(schema, value))
        if not is_fixed(schema):
            return raw
        size = int(schema.parameters[FIXED_SIZE])  # AvroData.padToFixedSize: sign-extended
        if len(raw) > size:
            raise ValueError(
                f"Unscaled value byte array length {len(raw)} is greater than fixed size {size}"
            )
        return (b"\xff" if raw[0] & 0x80 else b"\x00") * (size - len(raw)) + raw
    if name == DATE:
        return date_to_days(value)
    if name == TIME:
        return time_to_millis(value)
    return timestamp_to_millis(value)


def _fixed_size(schema: ConnectSchema, raw: bytes) -> bytes:
    if is_fixed(schema) and len(raw) != int(schema.parameters[FIXED_SIZE]):
        raise ValueError(
            f"{len(raw)} bytes for the fixed type {schema.name} of "
            f"{schema.parameters[FIXED_SIZE]} bytes"
        )
    return raw


def _union_datum(schema: ConnectSchema, value: Mapping[str, Any], options: AvroDataOptions) -> Any:
    """AvroData.fromConnectData of a union struct: its first non-null member (records, fixed
    and, with enhanced schema support, enums in fastavro's ``(name, datum)`` union notation)."""
    for f in schema.fields:
        member = struct_get(value, f)
        if member is not None:
            datum = to_avro_value(f.schema, member, options)
            if _is_enum(f.schema, options):
                return (f.schema.parameters[AVRO_ENUM], datum)
            named = is_fixed(f.schema) or f.schema.type is Type.STRUCT
            if named and f.schema.name not in (None, AVRO_UNION):
                return (f.schema.name, datum)
            return datum
    return None


def _is_enum(schema: ConnectSchema, options: AvroDataOptions) -> bool:
    """Whether AvroData writes the schema as an Avro enum (enhanced schema support)."""
    return (
        options.enhanced_schema_support
        and schema.type is Type.STRING
        and AVRO_ENUM in schema.parameters
    )


def _has_union(schema: ConnectSchema | None) -> bool:
    if schema is None:
        return False
    if schema.name == AVRO_UNION:
        return True
    children = [f.schema for f in schema.fields] + [schema.key_schema, schema.value_schema]
    return any(_has_union(c) for c in children)


def compile_to_avro(
    schema: ConnectSchema, options: AvroDataOptions = _DEFAULTS
) -> Callable[[Any], Any]:
    """:func:`to_avro_value` specialised once for ``schema``: the same results and errors,
    without re-dispatching on the schema for every value (the sink's hot path).

    Structs and arrays get generated straight-line code (:mod:`s3connect.convert.codegen`) for the
    common case, falling back to the closures of :func:`_compile_reference` for the rest."""

    def reference(sub: ConnectSchema) -> Callable[[Any], Any]:
        return _compile_reference(sub, options)

    fast = None if _has_union(schema) else connect_to_avro_fast(schema, reference)
    return fast if fast is not None else reference(schema)


def _compile_reference(schema: ConnectSchema, options: AvroDataOptions) -> Callable[[Any], Any]:
    """The closure tree behind :func:`compile_to_avro`."""
    name, t = schema.name, schema.type
    if name in (*_LOGICAL_NAMES, AVRO_UNION) or t in (Type.MAP, Type.BYTES):
        return lambda value: to_avro_value(schema, value, options)
    convert: Callable[[Any], Any]
    if t in INT_RANGES:
        convert = partial(_integer, t)
    elif t in (Type.FLOAT32, Type.FLOAT64):
        convert = partial(_float, t)
    elif t is Type.BOOLEAN or t is Type.STRING:
        expected = bool if t is Type.BOOLEAN else str

        def convert(value: Any) -> Any:
            if not isinstance(value, expected):
                raise ValueError(_invalid_type(t, value))
            return value

    elif t is Type.ARRAY:
        assert schema.value_schema is not None
        item = _compile_reference(schema.value_schema, options)

        def convert(value: Any) -> Any:
            return [item(v) for v in value]

    else:
        fields = [(f, _compile_reference(f.schema, options)) for f in schema.fields]

        def convert(value: Any) -> Any:
            if not isinstance(value, Mapping):
                raise ValueError(_invalid_type(Type.STRUCT, value))
            return {field.name: conv(struct_get(value, field)) for field, conv in fields}

    return _with_null(schema, convert)


def _with_null(schema: ConnectSchema, convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``convert`` preceded by :func:`check_null`'s handling of a null."""
    if schema.optional:
        return lambda value: None if value is None else convert(value)

    def required(value: Any) -> Any:
        if value is None:
            check_null(schema)
        return convert(value)

    return required


# ---------------------------------------------------------------------------------------------
# Avro schemas as parsed JSON

_AVRO_PRIMITIVES = ("null", "boolean", "int", "long", "float", "double", "bytes", "string")
_RESERVED = frozenset(
    {"doc", "fields", "items", "name", "namespace", "size", "symbols", "values", "type", "aliases"}
)
_NAMED = ("record", "enum", "fixed")


@dataclasses.dataclass(eq=False)
class _Avro:
    """A parsed Avro schema node (names resolved, props kept in order)."""

    kind: str
    props: dict[str, Any] = dataclasses.field(default_factory=dict)
    name: str | None = None
    doc: str | None = None
    fields: list[_AvroField] = dataclasses.field(default_factory=list)
    items: _Avro | None = None
    members: list[_Avro] = dataclasses.field(default_factory=list)
    symbols: list[str] = dataclasses.field(default_factory=list)
    enum_default: str | None = None
    size: int = 0

    @property
    def short_name(self) -> str:
        assert self.name is not None
        return self.name.rpartition(".")[2]

    @property
    def logical(self) -> str | None:
        """``getProp("logicalType")`` (a string only), lower case: AvroData ignores its case."""
        value = self.props.get("logicalType")
        return value.lower() if isinstance(value, str) else None

    def text(self, prop: str) -> str | None:
        """Avro's ``getProp``: a property's value when it is a string, else None."""
        value = self.props.get(prop)
        return value if isinstance(value, str) else None


@dataclasses.dataclass(eq=False)
class _AvroField:
    name: str
    type: _Avro
    doc: str | None
    default: Any  # the JSON default, _ABSENT when the field has none
    params: Any = _ABSENT  # the field's own connect.parameters property


def _full(name: str, space: str | None) -> str:
    return name if "." in name or not space else f"{space}.{name}"


def _parse_avro(node: Any, space: str | None, named: dict[str, _Avro], busy: set[str]) -> _Avro:
    if isinstance(node, str):
        if node in _AVRO_PRIMITIVES:
            return _Avro(node)
        full = _full(node, space)
        if full in busy or node in busy:
            raise ValueError(f"recursive Avro schemas are not supported ({full} refers to itself)")
        found = named.get(full) or named.get(node)
        if found is None:
            raise ValueError(f"Avro schema refers to an unknown type {node!r}")
        return found
    if isinstance(node, list):
        return _Avro("union", members=[_parse_avro(m, space, named, busy) for m in node])
    if not isinstance(node, Mapping):
        raise ValueError(f"Avro schema node {node!r} is not valid")
    kind = node.get("type")
    if isinstance(kind, list | Mapping):
        return _parse_avro(kind, space, named, busy)
    if not isinstance(kind, str):
        raise ValueError(f"Avro schema {dict(node)!r} has no type")
    props = {k: v for k, v in node.items() if k not in _RESERVED}
    if kind in _AVRO_PRIMITIVES:
        return _Avro(kind, props)
    if kind == "array":
        return _Avro("array", props, items=_parse_avro(node.get("items"), space, named, busy))
    if kind == "map":
        return _Avro("map", props, items=_parse_avro(node.get("values"), space, named, busy))
    if kind not in (*_NAMED, "error"):
        return _parse_avro(kind, space, named, busy)  # a named type referenced as {"type": N}
    return _parse_named(node, kind, props, space, named, busy)


def _parse_named(
    node: Mapping[str, Any],
    kind: str,
    props: dict[str, Any],
    space: str | None,
    named: dict[str, _Avro],
    busy: set[str],
) -> _Avro:
    raw_name = node.get("name")
    if not isinstance(raw_name, str) or not raw_name:
        raise ValueError(f"Avro {kind} has no name")
    namespace = node.get("namespace")
    if "." in raw_name:
        full = raw_name
    elif isinstance(namespace, str):
        full = f"{namespace}.{raw_name}" if namespace else raw_name
    else:
        full = _full(raw_name, space)
    doc = node.get("doc") if isinstance(node.get("doc"), str) else None
    if kind == "enum":
        props.pop("default", None)
        out = _Avro("enum", props, name=full, doc=doc)
        out.symbols = [str(s) for s in node.get("symbols", [])]
        default = node.get("default")
        out.enum_default = default if isinstance(default, str) else None
    elif kind == "fixed":
        out = _Avro("fixed", props, name=full, doc=doc, size=int(node.get("size", 0)))
    else:
        out = _Avro("record", props, name=full, doc=doc)
        busy.add(full)
        inner = full.rpartition(".")[0] or None
        for f in node.get("fields", []):
            field_doc = f.get("doc") if isinstance(f.get("doc"), str) else None
            field_type = _parse_avro(f.get("type"), inner, named, busy)
            out.fields.append(
                _AvroField(
                    str(f["name"]),
                    field_type,
                    field_doc,
                    f.get("default", _ABSENT),
                    f.get(_CONNECT_PARAMETERS, _ABSENT),
                )
            )
        busy.discard(full)
    named[full] = out
    return out


def _parse_root(avro: Any, named_json: Mapping[str, Any]) -> _Avro:
    named: dict[str, _Avro] = {}
    for ref in named_json.values():
        _parse_avro(ref, None, named, set())
    return _parse_avro(avro, None, named, set())


# ---------------------------------------------------------------------------------------------
# Avro -> Connect schema (toConnectSchema)


def to_connect_schema(
    avro: Any, version: int | None = None, named: Mapping[str, Any] | None = None
) -> ConnectSchema:
    """The Connect schema of an Avro schema (parsed JSON), as AvroData.toConnectSchema.

    Args:
        avro: the Avro schema as parsed JSON.
        version: the registry version (used unless the schema carries ``connect.version``).
        named: referenced named types (``{"full.Name": schema JSON}``), from schema references.

    Raises:
        ValueError: a schema AvroData rejects, or a recursive one.
    """
    return _to_connect(_parse_root(avro, named or {}), version=version)


def _to_connect(
    a: _Avro, optional: bool = False, field_default: Any = None, version: int | None = None
) -> ConnectSchema:
    """AvroData.toConnectSchema(schema, forceOptional, fieldDefaultVal, docDefault, version).

    ``field_default`` is the record field's ``Field.defaultVal()``: None when there is none,
    else the Java object Avro makes of the JSON default (:func:`_java_object`).
    """
    if a.kind == "union":
        members = a.members
        if len(members) == 1:  # flatten.singleton.unions=true
            return _to_connect(members[0])
        if len(members) == 2 and any(m.kind == "null" for m in members):
            return _to_connect(next(m for m in members if m.kind != "null"), True)
    schema = _with_properties(_type_schema(a), a, version)
    schema = _with_name(_with_default(schema, a, field_default), a)
    return dataclasses.replace(schema, optional=True) if optional else schema


def _type_schema(a: _Avro) -> ConnectSchema:
    """toConnectSchema's ``switch (schema.getType())``: type, logical name and parameters."""
    kind, logical = a.kind, a.logical
    if kind in ("bytes", "fixed"):
        return _bytes_schema(a)
    if kind == "int":
        return _int_schema(a)
    if kind == "long":
        if logical == "timestamp-millis":
            return ConnectSchema(Type.INT64, name=TIMESTAMP, version=1)
        return ConnectSchema(Type.INT64)
    simple = {"boolean": Type.BOOLEAN, "float": Type.FLOAT32, "double": Type.FLOAT64}
    if kind in simple or kind == "string":
        return ConnectSchema(simple.get(kind, Type.STRING))
    if kind == "array":
        assert a.items is not None
        return _array_schema(a.items)
    if kind == "map":
        assert a.items is not None
        return ConnectSchema(
            Type.MAP, key_schema=ConnectSchema(Type.STRING), value_schema=_to_connect(a.items)
        )
    if kind == "record":
        return _record_schema(a)
    if kind == "enum":
        return _enum_schema(a)
    if kind == "union":
        return _union_schema(a)
    if kind == "null":
        raise ValueError("Standalone null schemas are not supported by this converter")
    raise ValueError(f"Couldn't translate unsupported schema type {kind}.")


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _bytes_schema(a: _Avro) -> ConnectSchema:
    """Bytes or fixed: a Decimal (scale 0 when not given) or plain bytes; fixed adds its size."""
    params: dict[str, str] = {}
    name = version = None
    if a.logical == "decimal":
        name, version = DECIMAL, 1
        params["scale"] = str(_decimal_scale(a))
        precision = a.props.get("precision", _ABSENT)
        if precision is not _ABSENT:
            if not _is_number(precision):
                raise ValueError(
                    "precision property must be a JSON Integer. "
                    "https://avro.apache.org/docs/1.9.1/spec.html#Decimal"
                )
            if int(precision) != _PRECISION_DEFAULT:
                params[DECIMAL_PRECISION] = str(int(precision))
    if a.kind == "fixed":
        params[FIXED_SIZE] = str(a.size)
    return ConnectSchema(Type.BYTES, name=name, version=version, parameters=params)


def _int_schema(a: _Avro) -> ConnectSchema:
    """An Avro int: Date, Time, int8/int16 (``connect.type``) or int32."""
    connect_type, logical = a.text(_CONNECT_TYPE), a.logical
    if logical is not None:
        if logical in ("date", "time-millis"):
            return ConnectSchema(Type.INT32, name=DATE if logical == "date" else TIME, version=1)
        return ConnectSchema(Type.INT32)
    if connect_type is None:
        return ConnectSchema(Type.INT32)
    if connect_type not in ("int8", "int16"):
        raise ValueError("Connect type annotation for Avro int field is null")
    return ConnectSchema(Type(connect_type))


def _is_map_entry(a: _Avro) -> bool:
    """AvroData.isMapEntry: a record named io.confluent.connect.avro.MapEntry or so marked."""
    if a.kind != "record":
        return False
    return a.name == _MAP_ENTRY_FULL_NAME or a.text(_CONNECT_INTERNAL_TYPE) == _MAP_ENTRY


def _array_schema(item: _Avro) -> ConnectSchema:
    """An array, or a map with non-string keys (an array of MapEntry records)."""
    if not _is_map_entry(item):
        return ConnectSchema(Type.ARRAY, value_schema=_to_connect(item))
    names = [f.name for f in item.fields]
    if len(names) != 2 or "key" not in names or "value" not in names:
        raise ValueError(
            "Found map encoded as array of key-value pairs, but array elements do not match "
            "the expected format."
        )
    key = next(f for f in item.fields if f.name == "key")
    value = next(f for f in item.fields if f.name == "value")
    return ConnectSchema(
        Type.MAP, key_schema=_to_connect(key.type), value_schema=_to_connect(value.type)
    )


def _record_schema(a: _Avro) -> ConnectSchema:
    """A struct; record and field docs become parameters."""
    params: dict[str, str] = {}
    if a.doc is not None:
        params[RECORD_DOC] = a.doc
    fields = []
    for f in a.fields:
        if f.doc is not None:
            params[FIELD_DOC + f.name] = f.doc
        schema = _to_connect(f.type, False, _field_default(f))
        if isinstance(f.params, Mapping):
            schema = _with_field_params(schema, f.params)
        fields.append(Field(f.name, schema))
    return ConnectSchema(Type.STRUCT, parameters=params, fields=tuple(fields))


def _with_field_params(schema: ConnectSchema, field_params: Mapping[str, Any]) -> ConnectSchema:
    """AvroData.applyFieldLevelParams: a field's own ``connect.parameters`` over its (shared,
    named) type's, as Java's ``toString()`` of each value."""
    extra = {str(k): _java_string(v) for k, v in field_params.items()}
    if all(schema.parameters.get(k) == v for k, v in extra.items()):
        return schema
    return dataclasses.replace(schema, parameters={**schema.parameters, **extra})


def _enum_schema(a: _Avro) -> ConnectSchema:
    """A string; the enum's name, symbols, doc and default become parameters."""
    params: dict[str, str] = {}
    if a.doc is not None:
        params[ENUM_DOC + a.short_name] = a.doc
    if a.enum_default is not None:
        params[ENUM_DEFAULT + a.short_name] = a.enum_default
    params[AVRO_ENUM] = a.name or ""
    for symbol in a.symbols:
        params[f"{AVRO_ENUM}.{symbol}"] = symbol
    return ConnectSchema(Type.STRING, parameters=params)


def _union_field_name(member: _Avro) -> str:
    """AvroData.unionMemberFieldName (no enhanced schema support)."""
    return member.short_name if member.kind in _NAMED else member.kind


def _union_schema(a: _Avro) -> ConnectSchema:
    """A general union: an ``io.confluent.connect.avro.Union`` struct, one optional field per
    member (optional itself when a member is null)."""
    optional = False
    seen: set[str] = set()
    fields = []
    for member in a.members:
        if member.kind == "null":
            optional = True
            continue
        name = _union_field_name(member)
        if name in seen:
            raise ValueError("Multiple union schemas map to the Connect union field name")
        seen.add(name)
        fields.append(Field(name, _to_connect(member, True)))
    return ConnectSchema(Type.STRUCT, optional=optional, name=AVRO_UNION, fields=tuple(fields))


def _java_string(value: Any) -> str:
    """Java's ``toString()`` of the object Avro makes of a JSON property value."""
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, bool):
        return "null" if value is None else str(value).lower()
    if isinstance(value, list):
        return "[" + ", ".join(_java_string(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}={_java_string(v)}" for k, v in value.items()) + "}"
    return str(value)


def _with_properties(schema: ConnectSchema, a: _Avro, version: int | None) -> ConnectSchema:
    """``connect.doc``, ``connect.version`` (else the registry's), ``connect.parameters`` and
    the ``avro*`` properties (as parameters)."""
    props = a.props
    changes: dict[str, Any] = {}
    doc = a.text(_CONNECT_DOC)
    if doc is not None:
        changes["doc"] = doc
    raw_version = props.get(_CONNECT_VERSION, _ABSENT)
    if raw_version is not _ABSENT and not _is_number(raw_version):
        raise ValueError(f"Invalid Connect version found: {_java_string(raw_version)}")
    wanted = int(raw_version) if raw_version is not _ABSENT else version
    if wanted is not None and wanted >= 0:
        if schema.version is not None and schema.version != wanted:
            raise ValueError(
                f"Mismatched versions: version already added to SchemaBuilder ({schema.version})"
                f" differs from version in source schema ({wanted})"
            )
        changes["version"] = wanted
    params = dict(schema.parameters)
    raw_params = props.get(_CONNECT_PARAMETERS, _ABSENT)
    if raw_params is not _ABSENT:
        if not isinstance(raw_params, Mapping):
            raise ValueError(f"Expected JSON object for schema parameters but found: {raw_params}")
        for key, value in raw_params.items():
            if not isinstance(value, str):
                raise ValueError(
                    f"Expected schema parameter values to be strings but found: {value}"
                )
            params[str(key)] = value
    for prop, value in props.items():
        if prop.startswith("avro"):
            params[prop] = _java_string(value)
    return dataclasses.replace(schema, parameters=params, **changes)


def _with_name(schema: ConnectSchema, a: _Avro) -> ConnectSchema:
    """``connect.name``, else a record's, enum's or (non-decimal) fixed's full name; names
    starting with ``io.confluent.connect.avro.ConnectDefault`` are dropped."""
    raw = a.props.get(_CONNECT_NAME, _ABSENT)
    name: str | None = None
    if raw is not _ABSENT:
        if not isinstance(raw, str):
            raise ValueError(f"Invalid schema name: {_java_string(raw)}")
        name = raw
    elif a.kind in ("record", "enum") or (a.kind == "fixed" and schema.name != DECIMAL):
        name = a.name
    if name is None or name.startswith(DEFAULT_SCHEMA_FULL_NAME):
        return schema
    if schema.name is not None and schema.name != name:
        raise ValueError(
            f"Mismatched names: name already added to SchemaBuilder ({schema.name}) differs "
            f"from name in source schema ({name})"
        )
    return dataclasses.replace(schema, name=name)


# ---------------------------------------------------------------------------------------------
# Avro -> Connect defaults (defaultValueFromAvro)
#
# A record field's default reaches AvroData as ``Field.defaultVal()``: the Java object Avro's
# JacksonUtils.toObject makes of the JSON (Integer or Long by the Avro type, byte[] for bytes,
# null when the JSON does not fit), converted by ``toConnectData``. A ``connect.default``
# property reaches it as JSON, converted by ``defaultValueFromAvroWithoutLogical``. A default
# that cannot be converted is ignored (AvroData logs "Ignoring invalid default").


class _Num(NamedTuple):
    """A Java number: its class (int, long, float or double) and value."""

    kind: str
    value: int | float


_JNULL: Any = object()  # JsonProperties.NULL_VALUE: a JSON null default
_INT32 = INT_RANGES[Type.INT32]
_INT64 = INT_RANGES[Type.INT64]


def _field_default(f: _AvroField) -> Any:
    """``Field.defaultVal()``: None without a default or when Avro cannot read it."""
    if f.default is _ABSENT:
        return None
    try:
        return _java_object(f.default, f.type)
    except ValueError:
        return None


def _java_object(node: Any, a: _Avro | None) -> Any:
    """Avro's ``JacksonUtils.toObject(node, schema)``."""
    if a is not None and a.kind == "union":
        return _java_object(node, a.members[0])
    kind = None if a is None else a.kind
    if node is None:
        return _JNULL
    if isinstance(node, bool):
        return node
    if isinstance(node, int):
        if _INT32[0] <= node <= _INT32[1]:
            if kind in (None, "int", "long"):
                return _Num("long" if kind == "long" else "int", node)
            return None
        return _Num("long", node) if _INT64[0] <= node <= _INT64[1] else None
    if isinstance(node, float):
        if kind in (None, "float", "double"):
            return _Num(kind or "double", node)
        return None
    if isinstance(node, str):
        if kind in (None, "string", "enum"):
            return node
        return node.encode("latin-1", "replace") if kind in ("bytes", "fixed") else None
    if isinstance(node, list):
        if a is not None and kind != "array":
            raise ValueError(f"Not an array: {kind}")
        return [_java_object(x, None if a is None else a.items) for x in node]
    if isinstance(node, Mapping):
        return {str(k): _java_object(v, _member_type(a, str(k))) for k, v in node.items()}
    return None


def _member_type(a: _Avro | None, key: str) -> _Avro | None:
    if a is not None and a.kind == "map":
        return a.items
    if a is not None and a.kind == "record":
        for f in a.fields:
            if f.name == key:
                return f.type
        raise ValueError(f"no field {key!r} in {a.name}")
    return None


_JAVA_CLASSES = {
    Type.INT8: "int",
    Type.INT16: "int",
    Type.INT32: "int",
    Type.INT64: "long",
    Type.FLOAT32: "float",
    Type.FLOAT64: "double",
}


def _object_default(schema: ConnectSchema, obj: Any) -> Any:
    """AvroData.toConnectData(schema, object) of a field default, then its logical type."""
    if obj is None or obj is _JNULL:
        if obj is None and not schema.optional:
            raise ValueError("Found null value for non-optional schema")
        return None
    t = schema.type
    value: Any
    if t in _JAVA_CLASSES:
        if not isinstance(obj, _Num) or obj.kind != _JAVA_CLASSES[t]:
            raise ValueError(f"Invalid type for {t.name}: {obj!r}")
        value = obj.value
    elif t in (Type.BOOLEAN, Type.STRING, Type.BYTES):
        expected = {Type.BOOLEAN: bool, Type.STRING: str, Type.BYTES: bytes}[t]
        if not isinstance(obj, expected):
            raise ValueError(f"Invalid type for {t.name}: {obj!r}")
        value = obj
    elif t is Type.ARRAY:
        assert schema.value_schema is not None
        if not isinstance(obj, list):
            raise ValueError(f"Invalid type for ARRAY: {obj!r}")
        value = [_object_default(schema.value_schema, x) for x in obj]
    elif t is Type.MAP:
        key, item = schema.key_schema, schema.value_schema
        assert key is not None and item is not None
        if key.type is Type.STRING and not key.optional and isinstance(obj, dict):
            value = {k: _object_default(item, v) for k, v in obj.items()}
        elif not (key.type is Type.STRING and not key.optional) and obj == []:
            value = {}  # an empty array of MapEntry records (a non-empty one holds Maps)
        else:
            raise ValueError("Invalid type for MAP")
    elif schema.name == AVRO_UNION:
        value = _object_union(schema, obj)
    else:
        value = _object_struct(schema, obj)
    return _to_logical(schema, value)


def _object_struct(schema: ConnectSchema, obj: Any) -> dict[str, Any]:
    """A record default (a Map); a field it lacks takes the field's Connect default."""
    if not isinstance(obj, dict):
        raise ValueError("Invalid type for STRUCT")
    out = {}
    for f in schema.fields:
        if f.name in obj:
            out[f.name] = _object_default(f.schema, obj[f.name])
        elif f.schema.default is None or _takes_connect_default(f.schema):
            out[f.name] = f.schema.default
        else:
            raise ValueError(f"Invalid default for field {f.name}")
    return out


def _takes_connect_default(schema: ConnectSchema) -> bool:
    """Whether toConnectData accepts the schema's Connect default as a Java object: not a
    logical type, a struct, an int8 or an int16 (Java's Byte and Short are not Integers)."""
    if schema.name in _LOGICAL_NAMES:
        return False
    if schema.type in (Type.STRUCT, Type.INT8, Type.INT16):
        return False
    if schema.type in (Type.ARRAY, Type.MAP):
        assert schema.value_schema is not None
        return _takes_connect_default(schema.value_schema)
    return True


def _object_union(schema: ConnectSchema, obj: Any) -> dict[str, Any]:
    """A union default: the first member whose Java class the object has
    (``isInstanceOfAvroSchemaTypeForSimpleSchema``; never a record, enum, int8 or int16)."""
    for f in schema.fields:
        s = f.schema
        t = s.type
        if t in (Type.INT32, Type.INT64, Type.FLOAT32, Type.FLOAT64):
            match = isinstance(obj, _Num) and obj.kind == _JAVA_CLASSES[t]
        elif t is Type.STRING:
            match = isinstance(obj, str) and AVRO_ENUM not in s.parameters
        elif t is Type.BYTES:
            match = isinstance(obj, bytes) and (
                not is_fixed(s) or len(obj) == int(s.parameters[FIXED_SIZE])
            )
        else:
            simple = {Type.BOOLEAN: bool, Type.ARRAY: list, Type.MAP: dict}
            match = t in simple and isinstance(obj, simple[t])
        if match:
            out: dict[str, Any] = {g.name: None for g in schema.fields}
            out[f.name] = _object_default(s, obj)
            return out
    raise ValueError("Did not find matching union field for data")


def _json_default(schema: ConnectSchema, a: _Avro, node: Any) -> Any:
    """AvroData.defaultValueFromAvro of a JSON default (``connect.default``)."""
    return _to_logical(schema, _json_value(schema, a, node))


def _json_value(schema: ConnectSchema, a: _Avro, node: Any) -> Any:
    """defaultValueFromAvroWithoutLogical's JSON branch, by the Avro type."""
    if node is None:
        return None
    kind, t = a.kind, schema.type
    if kind in ("int", "long"):
        if not _is_number(node) or (kind == "int" and t not in _JAVA_CLASSES):
            raise ValueError(f"Invalid JSON for {kind} default value: {node!r}")
        return int(node)
    if kind in ("float", "double"):
        return float(node)
    if kind == "boolean":  # Jackson's asBoolean()
        if isinstance(node, bool) or _is_number(node):
            return bool(node)
        return isinstance(node, str) and node.strip() == "true"
    if kind in ("string", "enum"):
        return _java_string(node) if not isinstance(node, list | Mapping) else ""
    if kind in ("bytes", "fixed"):
        return node.encode("latin-1", "replace") if isinstance(node, str) else None
    if kind == "array":
        assert a.items is not None and schema.value_schema is not None
        if not isinstance(node, list):
            raise ValueError("Invalid JSON for array default value")
        return [_json_default(schema.value_schema, a.items, x) for x in node]
    if kind == "map":
        assert a.items is not None and schema.value_schema is not None
        if not isinstance(node, Mapping):
            raise ValueError("Invalid JSON for map default value")
        return {k: _json_default(schema.value_schema, a.items, v) for k, v in node.items()}
    if kind == "record":
        if not isinstance(node, Mapping) or t is not Type.STRUCT:
            raise ValueError("Invalid JSON for record default value")
        out = {}
        for af in a.fields:
            f = schema.field(af.name)
            assert f is not None
            out[af.name] = _json_default(f.schema, af.type, node.get(af.name))
        return out
    if kind == "union" and a.members[0].kind != "null":
        # The first member's value, which the union's struct schema (or the optional member's
        # own schema) then refuses.
        raise ValueError("Invalid JSON for union default value")
    return None


def _to_logical(schema: ConnectSchema, value: Any) -> Any:
    """AvroData.toConnectLogical: a Decimal, Date, Time or Timestamp from its Avro value."""
    name = schema.name
    if value is None or name not in _LOGICAL_NAMES:
        return value
    if name == DECIMAL:
        if not isinstance(value, bytes):
            raise ValueError("Invalid type for Decimal, underlying representation should be bytes")
        return bytes_to_decimal(value, decimal_scale(schema))
    if not isinstance(value, int):
        raise ValueError(f"Invalid type for {name}: {value!r}")
    if name == DATE:
        return EPOCH_DAY + timedelta(days=value)
    if name == TIME:
        return millis_to_time(value)
    return EPOCH + timedelta(milliseconds=value)


def _with_default(schema: ConnectSchema, a: _Avro, field_default: Any) -> ConnectSchema:
    """The default: the field's (flagged as such without a ``connect.default``), else the
    ``connect.default`` property."""
    connect_default = a.props.get(_CONNECT_DEFAULT, _ABSENT)
    try:
        if field_default is not None:
            if connect_default is _ABSENT:
                params = {**schema.parameters, FIELD_DEFAULT_FLAG: "true"}
                schema = dataclasses.replace(schema, parameters=params)
            value = _object_default(schema, field_default)
        elif connect_default is not _ABSENT:
            value = _json_default(schema, a, connect_default)
        else:
            return schema
        if value is None:
            return schema
        validate_value(_non_optional(schema), value)  # SchemaBuilder.defaultValue
    except (ValueError, TypeError, OverflowError):  # "Ignoring invalid default"
        return schema
    return dataclasses.replace(schema, default=value)


# ---------------------------------------------------------------------------------------------
# Avro -> Connect values (toConnectData)

Convert = Callable[[Any], Any]


def _identity(value: Any) -> Any:
    return value


@dataclasses.dataclass(frozen=True, slots=True)
class ConnectReader:
    """Reads an Avro schema's datums as Connect data, as ``AvroData.toConnectData`` does.

    Attributes:
        schema: the Connect schema (``toConnectSchema``).
        fastavro_schema: the parsed schema fastavro decodes datums with: the Avro schema with
            only AvroData's logical types (decimal, date, time-millis, timestamp-millis), so the
            others arrive raw.
        return_named_type: what to pass to fastavro's readers: the schema has general unions,
            whose named members are told apart by name.
    """

    schema: ConnectSchema | None
    fastavro_schema: Any
    return_named_type: bool
    convert: Convert | None

    def read(self, buffer: BinaryIO) -> Any:
        """Decode one datum at the buffer's position, as its Connect value."""
        datum = fastavro.schemaless_reader(
            buffer, self.fastavro_schema, None, return_named_type=self.return_named_type
        )
        return datum if self.convert is None else self.convert(datum)


def connect_reader(
    avro: Any, version: int | None = None, named: Mapping[str, Any] | None = None
) -> ConnectReader:
    """A :class:`ConnectReader` for an Avro schema (arguments as :func:`to_connect_schema`).

    AvroData's ``ANYTHING_SCHEMA`` is schemaless data (a None schema), as ``toConnectData``
    reads it.

    Raises:
        ValueError: a schema AvroData rejects, a recursive one, or one fastavro cannot read.
    """
    if is_anything(avro):
        return ConnectReader(None, ANYTHING_PARSED, False, anything_value)
    root = _parse_root(avro, named or {})
    schema = _to_connect(root, version=version)
    named_types = _has_general_union(root)
    try:
        parsed = fastavro.parse_schema(_fastavro_schema(root, set()))
    except Exception as exc:
        raise ValueError(f"fastavro cannot read the schema: {exc}") from None
    return ConnectReader(schema, parsed, named_types, _avro_value(root, schema, named_types))


def _fastavro_schema(a: _Avro, emitted: set[str]) -> Any:
    """The schema handed to fastavro: AvroData's logical types only (others read raw)."""
    kind = a.kind
    if kind == "union":
        return [_fastavro_schema(m, emitted) for m in a.members]
    if kind in _NAMED:
        assert a.name is not None
        if a.name in emitted:
            return a.name
        emitted.add(a.name)
    node: dict[str, Any] = {"type": kind}
    logical = a.logical
    decimal = _fastavro_decimal(a)
    if decimal is not None:
        node.update(logicalType="decimal", scale=decimal[0], precision=decimal[1])
    elif (kind, logical) in _FASTAVRO_LOGICAL:
        node["logicalType"] = logical
    if kind == "record":
        node["name"] = a.name
        node["fields"] = [
            {"name": f.name, "type": _fastavro_schema(f.type, emitted)} for f in a.fields
        ]
    elif kind in ("enum", "fixed"):
        node["name"] = a.name
        node["symbols" if kind == "enum" else "size"] = a.symbols if kind == "enum" else a.size
    elif kind in ("array", "map"):
        assert a.items is not None
        node["items" if kind == "array" else "values"] = _fastavro_schema(a.items, emitted)
    return node if len(node) > 1 else kind


_FASTAVRO_LOGICAL = (("int", "date"), ("int", "time-millis"), ("long", "timestamp-millis"))


def _fastavro_logical(a: _Avro) -> bool:
    """Whether fastavro decodes the node's logical type (else its values arrive raw)."""
    return _fastavro_decimal(a) is not None or (a.kind, a.logical) in _FASTAVRO_LOGICAL


def _decimal_scale(a: _Avro) -> int:
    scale = a.props.get("scale")
    return int(scale) if _is_number(scale) else 0


def _fastavro_decimal(a: _Avro) -> tuple[int, int] | None:
    """(scale, precision) for fastavro to decode an Avro decimal with, None when the node is no
    decimal or fastavro would refuse it (a negative scale, or one above what the size holds)."""
    if a.kind not in ("bytes", "fixed") or a.logical != "decimal":
        return None
    fits = len(str(2 ** (8 * a.size - 1) - 1)) - 1 if a.kind == "fixed" else _PRECISION_DEFAULT
    precision = min(fits, _PRECISION_DEFAULT)  # not used to decode, but fastavro checks it
    scale = _decimal_scale(a)
    return (scale, precision) if 0 <= scale <= precision else None


def _has_general_union(a: _Avro, seen: set[int] | None = None) -> bool:
    seen = set() if seen is None else seen
    if id(a) in seen:
        return False
    seen.add(id(a))
    if a.kind == "union" and not (len(a.members) == 2 and any(m.kind == "null" for m in a.members)):
        return len(a.members) != 1 or _has_general_union(a.members[0], seen)
    children = [f.type for f in a.fields] + a.members + ([a.items] if a.items else [])
    return any(_has_general_union(c, seen) for c in children)


def _avro_value(a: _Avro, s: ConnectSchema, named: bool) -> Convert | None:
    """fastavro's datum -> the Connect value; None when they are the same already."""
    kind = a.kind
    if kind == "union":
        if s.name == AVRO_UNION and len(a.members) != 1:
            return _union_value(a, s, named)
        member = next(m for m in a.members if m.kind != "null")
        inner = _avro_value(member, _non_optional(s), named)
        if named and member.kind in _NAMED:
            conv = inner or _identity
            return lambda v: None if v is None else conv(v[1])
        if inner is None:
            return None
        conv2 = inner
        return lambda v: None if v is None else conv2(v)
    if kind == "record":
        convs = [
            (f.name, _avro_value(af.type, f.schema, named))
            for f, af in zip(s.fields, a.fields, strict=True)
        ]
        if all(c is None for _, c in convs):
            return None

        def record(v: Any) -> Any:
            return {n: (v[n] if c is None else c(v[n])) for n, c in convs}

        return record
    if kind in ("array", "map"):
        return _container_value(a, s, named)
    if s.name in _LOGICAL_NAMES and not _fastavro_logical(a):
        # A logical type fastavro does not decode (from connect.name, or a decimal fastavro
        # refuses): the raw value, as AvroData's toConnectLogical converts it.
        return lambda v: _to_logical(s, v)
    if s.type in _NARROW_INTS:  # toConnectData's ((Integer) value).byteValue()/shortValue()
        bits = _NARROW_INTS[s.type]
        return lambda v: java_narrow(v, bits)
    return None


_NARROW_INTS = {Type.INT8: 8, Type.INT16: 16}
"""The bits of the Connect types an Avro int narrows into, as Java's casts wrap."""


def _container_value(a: _Avro, s: ConnectSchema, named: bool) -> Convert | None:
    """Arrays, maps, and arrays of MapEntry records (maps with non-string keys)."""
    assert a.items is not None and s.value_schema is not None
    if a.kind == "array" and s.type is Type.MAP:
        assert s.key_schema is not None
        entry = a.items
        kf = next(f for f in entry.fields if f.name == "key")
        vf = next(f for f in entry.fields if f.name == "value")
        kc = _avro_value(kf.type, s.key_schema, named) or _identity
        vc = _avro_value(vf.type, s.value_schema, named) or _identity
        return lambda v: {kc(e["key"]): vc(e["value"]) for e in v}
    inner = _avro_value(a.items, s.value_schema, named)
    if a.kind == "map":  # AvroData: a new HashMap<>(size) filled in the datum's order
        if inner is None:
            return _connect_map
        conv = inner
        return lambda v: _connect_map({k: conv(x) for k, x in v.items()})
    if inner is None:
        return None
    item = inner
    return lambda v: [item(x) for x in v]


def _connect_map(entries: dict[str, Any]) -> dict[str, Any]:
    """A map as AvroData.toConnectData makes it: the iteration order of the
    ``new HashMap<>(size)`` it fills in the Avro map's (the datum's) order."""
    return as_hashmap(entries, initial=sized_capacity(len(entries)))


_PYTHON_KINDS: tuple[tuple[type, tuple[str, ...]], ...] = (
    (bool, ("boolean",)),
    (float, ("double", "float")),
    (str, ("string",)),
    (datetime, (TIMESTAMP,)),
    (date, (DATE,)),
    (time, (TIME,)),
    (Decimal, (DECIMAL,)),
    (bytes, ("bytes",)),
    (list, ("array",)),
    (dict, ("map",)),
)


def _union_value(a: _Avro, s: ConnectSchema, named: bool) -> Convert:
    """A general union's datum -> the io.confluent.connect.avro.Union struct value."""
    by_name: dict[str, tuple[str, Convert | None]] = {}
    by_kind: dict[str, tuple[str, Convert | None]] = {}
    for m in a.members:
        if m.kind == "null":
            continue
        field_name = _union_field_name(m)
        f = s.field(field_name)
        assert f is not None
        conv = _avro_value(m, _non_optional(f.schema), named)
        if m.kind in _NAMED:
            assert m.name is not None
            by_name[m.name] = (field_name, conv)
        key, name = m.kind, f.schema.name
        if name is not None and name in _LOGICAL_NAMES and _fastavro_logical(m):
            key = name  # decoded by fastavro to its Python type; else raw, by its Avro type
        by_kind.setdefault(key, (field_name, conv))
    empty = {f.name: None for f in s.fields}

    def pick(v: Any) -> tuple[str, Convert | None, Any]:
        if v.__class__ is tuple and len(v) == 2 and v[0] in by_name:
            return (*by_name[v[0]], v[1])
        if isinstance(v, int) and not isinstance(v, bool):
            keys: tuple[str, ...] = ("int", "long") if _INT32[0] <= v <= _INT32[1] else ("long",)
        else:
            keys = next((k for cls, k in _PYTHON_KINDS if isinstance(v, cls)), ())
        for k in keys:
            if k in by_kind:
                return (*by_kind[k], v)
        raise ValueError(f"Did not find matching union field for data: {v!r}")

    def union(v: Any) -> Any:
        if v is None:
            return None
        field_name, conv, inner = pick(v)
        out = dict(empty)
        out[field_name] = inner if conv is None else conv(inner)
        return out

    return union
