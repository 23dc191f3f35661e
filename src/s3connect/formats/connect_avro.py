"""Connect schema/value -> Avro (and Arrow) as Confluent's ``io.confluent.connect.avro.AvroData``.

Defaults of the S3 sink's AvroData: ``connect.meta.data=true``, no enhanced schema support, no
name scrubbing. Avro schemas are built as JSON trees and written as Avro Java's
``Schema.toString()`` writes them (name references for repeated named types, props in insertion
order). Parquet goes through the same Avro schema, as parquet-avro does in Confluent.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

import pyarrow as pa

from s3connect.connect.json_data import dumps_json
from s3connect.connect.logical import (
    date_to_days,
    decimal_scale,
    decimal_to_bytes,
    decimal_unscaled,
    time_to_millis,
    timestamp_to_millis,
)
from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Type
from s3connect.convert.codegen import connect_to_avro_fast
from s3connect.convert.registry.avro import AVRO_UNION as UNION
from s3connect.convert.registry.avro import FIELD_DEFAULT_FLAG as _DEFAULT_FLAG
from s3connect.convert.registry.avro import FIELD_DOC as _FIELD_DOC
from s3connect.convert.registry.avro import RECORD_DOC as _RECORD_DOC

__all__ = [
    "NAMESPACE",
    "arrow_schema",
    "avro_schema",
    "avro_schema_json",
    "compile_to_avro",
    "to_arrow_value",
    "to_avro_value",
]

NAMESPACE = "io.confluent.connect.avro"
_DEFAULT_NAME = "ConnectDefault"
_MAP_ENTRY = "MapEntry"
_PRECISION_PARAM = "connect.decimal.precision"
_PRECISION_DEFAULT = 64
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


@dataclasses.dataclass
class _Context:
    """AvroData's FromConnectContext: resolved non-optional schemas and the default-name index."""

    resolved: list[tuple[ConnectSchema, Any]] = dataclasses.field(default_factory=list)
    name_index: int = 0

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


def _precision(schema: ConnectSchema) -> int:
    return int(schema.parameters.get(_PRECISION_PARAM, _PRECISION_DEFAULT))


def _non_optional(schema: ConnectSchema) -> ConnectSchema:
    return dataclasses.replace(schema, optional=False)


def _from_connect(schema: ConnectSchema, ctx: _Context) -> Any:
    """AvroData.fromConnectSchema(schema, context, ignoreOptional=false)."""
    if not schema.optional:
        cached = ctx.lookup(schema)
        if cached is not None:
            return cached
    t = schema.type
    base: Any
    if t in _PRIMITIVES:
        base = {"type": _PRIMITIVES[t]}
        if schema.name == DECIMAL and t is Type.BYTES:
            base["scale"] = decimal_scale(schema)
            base["precision"] = _precision(schema)
    elif t is Type.ARRAY:
        assert schema.value_schema is not None
        base = {"type": "array", "items": _from_connect(schema.value_schema, ctx)}
    elif t is Type.MAP:
        key, value = schema.key_schema, schema.value_schema
        assert key is not None and value is not None
        if key.type is Type.STRING and not key.optional:
            base = {"type": "map", "values": _from_connect(value, ctx)}
        else:
            if schema.name is None:
                entry = _record(NAMESPACE, _MAP_ENTRY, [])
            else:
                entry = _record(*ctx.name_or_default(schema.name), [])
                entry["connect.internal.type"] = _MAP_ENTRY
            entry["fields"] = [_field("key", key, ctx), _field("value", value, ctx)]
            base = {"type": "array", "items": entry}
    elif schema.name == UNION:  # AvroData's union struct: an Avro union of its fields
        members = [_from_connect(_non_optional(f.schema), ctx) for f in schema.fields]
        return ["null", *members] if schema.optional else members
    elif schema.optional:  # optional struct: a union, no metadata on it
        union = ["null", _from_connect(_non_optional(schema), ctx)]
        return union
    else:
        namespace, name = ctx.name_or_default(schema.name)
        base = _record(namespace, name, [])
        if _RECORD_DOC in schema.parameters:
            base["doc"] = schema.parameters[_RECORD_DOC]
        base["fields"] = [
            _field(f.name, f.schema, ctx, schema.parameters.get(_FIELD_DOC + f.name))
            for f in schema.fields
        ]

    if schema.doc is not None:
        base["connect.doc"] = schema.doc
    if schema.version is not None:
        base["connect.version"] = schema.version
    if schema.parameters:
        params = {k: v for k, v in schema.parameters.items() if k != _DEFAULT_FLAG}
        if params:
            base["connect.parameters"] = params
    if schema.default is not None and _DEFAULT_FLAG not in schema.parameters:
        base["connect.default"] = _default_json(schema, schema.default)
    if schema.name is not None:
        base["connect.name"] = schema.name
    if t in (Type.INT8, Type.INT16):
        base["connect.type"] = t.value
    if schema.name == DECIMAL:
        base["logicalType"] = "decimal"
    elif schema.name in _LOGICAL:
        base["logicalType"] = _LOGICAL[schema.name]
    base.update({k: v for k, v in schema.parameters.items() if k.startswith("avro")})

    final: Any = base
    if schema.optional:
        final = [base, "null"] if schema.default is not None else ["null", base]
    else:
        ctx.resolved.append((schema, final))
    return final


def _field(
    name: str, schema: ConnectSchema, ctx: _Context, doc: str | None = None
) -> dict[str, Any]:
    field: dict[str, Any] = {"name": name, "type": _from_connect(schema, ctx)}
    if doc is not None:
        field["doc"] = doc
    if schema.default is not None:
        # Avro validates a default against the first union branch ("null" for optional structs).
        if not (schema.optional and schema.type is Type.STRUCT):
            field["default"] = _default_json(schema, schema.default)
    elif schema.optional:
        field["default"] = None
    return field


def _default_json(schema: ConnectSchema, value: Any) -> Any:
    """AvroData.defaultValueFromConnect: a default as Avro JSON (bytes as ISO-8859-1 text)."""
    if value is None:
        return None
    raw = to_avro_value(schema, value)
    return _avro_json(schema, raw)


def _avro_json(schema: ConnectSchema, raw: Any) -> Any:
    if raw is None:
        return None
    if isinstance(raw, bytes):
        return raw.decode("latin-1")
    t = schema.type
    if t is Type.ARRAY:
        assert schema.value_schema is not None
        return [_avro_json(schema.value_schema, v) for v in raw]
    if t is Type.MAP:
        key, value = schema.key_schema, schema.value_schema
        assert key is not None and value is not None
        if isinstance(raw, dict):
            return {k: _avro_json(value, v) for k, v in raw.items()}
        return [[_avro_json(key, e["key"]), _avro_json(value, e["value"])] for e in raw]
    if t is Type.STRUCT:
        return {f.name: _avro_json(f.schema, raw.get(f.name)) for f in schema.fields}
    return raw


def avro_schema(schema: ConnectSchema) -> Any:
    """The Avro schema of a Connect schema, as a JSON-able tree (fully qualified names).

    Suitable for ``fastavro.parse_schema``.
    """
    return _emit(_from_connect(schema, _Context()), set(), None, qualified=True)


def avro_schema_json(schema: ConnectSchema) -> str:
    """The Avro schema text, as Avro Java's ``Schema.toString()`` writes AvroData's schema."""
    return dumps_json(_emit(_from_connect(schema, _Context()), set(), None, qualified=False))


def _emit(node: Any, names: set[str], space: str | None, *, qualified: bool) -> Any:
    if isinstance(node, list):
        return [_emit(n, names, space, qualified=qualified) for n in node]
    if isinstance(node, str):
        return node
    if node["type"] != "record":
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
    out: dict[str, Any] = {"type": "record", "name": name}
    if qualified:
        if namespace is not None:
            out["namespace"] = namespace
    elif namespace is not None:
        if namespace != space:
            out["namespace"] = namespace
    elif space is not None:
        out["namespace"] = ""
    if "doc" in node:  # Avro Java writes a record's doc before its fields
        out["doc"] = node["doc"]
    out["fields"] = [
        {**f, "type": _emit(f["type"], names, namespace, qualified=qualified)}
        for f in node["fields"]
    ]
    out.update({k: v for k, v in node.items() if k not in ("type", "name", "namespace", "fields")})
    return out


def _null_value(schema: ConnectSchema) -> Any:
    if schema.default is not None:
        return schema.default
    if schema.optional:
        return None
    raise ValueError(f"Found null value for non-optional schema {schema.name or schema.type.name}")


def to_avro_value(schema: ConnectSchema, value: Any) -> Any:
    """AvroData.fromConnectData: a Connect value as a fastavro datum (logical types raw).

    Raises:
        ValueError: the value does not match the schema.
    """
    if value is None:
        value = _null_value(schema)
        if value is None:
            return None
    name, t = schema.name, schema.type
    if name == DECIMAL:
        return decimal_to_bytes(decimal_unscaled(schema, value))
    if name == DATE:
        return date_to_days(value)
    if name == TIME:
        return time_to_millis(value)
    if name == TIMESTAMP:
        return timestamp_to_millis(value)
    if t in (Type.INT8, Type.INT16, Type.INT32, Type.INT64):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"Expected an integer for {t.name}, got {type(value).__name__}")
        return value
    if t in (Type.FLOAT32, Type.FLOAT64):
        return float(value)
    if t is Type.BOOLEAN:
        if not isinstance(value, bool):
            raise ValueError(f"Expected a bool for BOOLEAN, got {type(value).__name__}")
        return value
    if t is Type.STRING:
        if not isinstance(value, str):
            raise ValueError(f"Expected a str for STRING, got {type(value).__name__}")
        return value
    if t is Type.BYTES:
        if not isinstance(value, bytes | bytearray | memoryview):
            raise ValueError(f"Expected bytes for BYTES, got {type(value).__name__}")
        return bytes(value)
    if t is Type.ARRAY:
        assert schema.value_schema is not None
        return [to_avro_value(schema.value_schema, v) for v in value]
    if t is Type.MAP:
        key, item = schema.key_schema, schema.value_schema
        assert key is not None and item is not None
        if key.type is Type.STRING and not key.optional:
            return {k: to_avro_value(item, v) for k, v in value.items()}
        return [
            {"key": to_avro_value(key, k), "value": to_avro_value(item, v)}
            for k, v in value.items()
        ]
    if not isinstance(value, Mapping):
        raise ValueError(f"Expected a dict for STRUCT, got {type(value).__name__}")
    if schema.name == UNION:
        return _union_value(schema, value)
    return {f.name: to_avro_value(f.schema, value.get(f.name)) for f in schema.fields}


def _union_value(schema: ConnectSchema, value: Mapping[str, Any]) -> Any:
    """AvroData.fromConnectData of a union struct: its first non-null member (records as
    fastavro's ``(name, datum)`` union notation)."""
    for f in schema.fields:
        member = value.get(f.name)
        if member is not None:
            datum = to_avro_value(f.schema, member)
            if f.schema.type is Type.STRUCT and f.schema.name not in (None, UNION):
                return (f.schema.name, datum)
            return datum
    return None


def _has_union(schema: ConnectSchema | None) -> bool:
    if schema is None:
        return False
    if schema.name == UNION:
        return True
    children = [f.schema for f in schema.fields] + [schema.key_schema, schema.value_schema]
    return any(_has_union(c) for c in children)


def compile_to_avro(schema: ConnectSchema) -> Callable[[Any], Any]:
    """:func:`to_avro_value` specialised once for ``schema``: the same results and errors,
    without re-dispatching on the schema for every value (the sink's hot path).

    Structs and arrays get generated straight-line code (:mod:`s3connect.convert.codegen`) for the
    common case, falling back to the closures of :func:`_compile_reference` for the rest."""
    fast = None if _has_union(schema) else connect_to_avro_fast(schema, _compile_reference)
    return fast if fast is not None else _compile_reference(schema)


def _compile_reference(schema: ConnectSchema) -> Callable[[Any], Any]:
    """The closure tree behind :func:`compile_to_avro`."""
    name, t = schema.name, schema.type
    if name in (DECIMAL, DATE, TIME, TIMESTAMP, UNION) or t is Type.MAP:
        return lambda value: to_avro_value(schema, value)
    convert: Callable[[Any], Any]
    if t in (Type.INT8, Type.INT16, Type.INT32, Type.INT64):

        def convert(value: Any) -> Any:
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"Expected an integer for {t.name}, got {type(value).__name__}")
            return value

    elif t in (Type.FLOAT32, Type.FLOAT64):
        convert = float
    elif t is Type.BOOLEAN or t is Type.STRING:
        expected, label = (bool, "a bool") if t is Type.BOOLEAN else (str, "a str")

        def convert(value: Any) -> Any:
            if not isinstance(value, expected):
                raise ValueError(f"Expected {label} for {t.name}, got {type(value).__name__}")
            return value

    elif t is Type.BYTES:
        return lambda value: to_avro_value(schema, value)
    elif t is Type.ARRAY:
        assert schema.value_schema is not None
        item = _compile_reference(schema.value_schema)

        def convert(value: Any) -> Any:
            return [item(v) for v in value]

    else:
        fields = [(f.name, _compile_reference(f.schema)) for f in schema.fields]

        def convert(value: Any) -> Any:
            if not isinstance(value, Mapping):
                raise ValueError(f"Expected a dict for STRUCT, got {type(value).__name__}")
            get = value.get
            return {field: conv(get(field)) for field, conv in fields}

    if schema.default is None and schema.optional:
        inner = convert
        return lambda value: None if value is None else inner(value)
    if schema.default is None:
        return lambda value: convert(_null_value(schema) if value is None else value)
    default = schema.default
    inner2 = convert
    return lambda value: inner2(default if value is None else value)


# ---------------------------------------------------------------------------------------------
# Arrow (Parquet): the Avro schema as parquet-avro maps it


def _arrow_type(schema: ConnectSchema) -> pa.DataType:
    name, t = schema.name, schema.type
    if name == DECIMAL:
        precision, scale = _precision(schema), decimal_scale(schema)
        return (
            pa.decimal128(precision, scale) if precision <= 38 else pa.decimal256(precision, scale)
        )
    if name == DATE:
        return pa.date32()
    if name == TIME:
        return pa.time32("ms")
    if name == TIMESTAMP:
        return pa.timestamp("ms", tz="UTC")
    simple = {
        Type.INT8: pa.int32(),
        Type.INT16: pa.int32(),
        Type.INT32: pa.int32(),
        Type.INT64: pa.int64(),
        Type.FLOAT32: pa.float32(),
        Type.FLOAT64: pa.float64(),
        Type.BOOLEAN: pa.bool_(),
        Type.STRING: pa.string(),
        Type.BYTES: pa.binary(),
    }
    if t in simple:
        return simple[t]
    if t is Type.ARRAY:
        assert schema.value_schema is not None
        return pa.list_(_arrow_field("element", schema.value_schema))
    if t is Type.MAP:
        key, value = schema.key_schema, schema.value_schema
        assert key is not None and value is not None
        if key.type is Type.STRING and not key.optional:
            return pa.map_(pa.string(), _arrow_field("value", value))
        entry = pa.struct([_arrow_field("key", key), _arrow_field("value", value)])
        return pa.list_(pa.field("element", entry, nullable=False))
    return pa.struct([_arrow_field(f.name, f.schema) for f in schema.fields])


def _arrow_field(name: str, schema: ConnectSchema) -> pa.Field:
    return pa.field(name, _arrow_type(schema), nullable=schema.optional)


def arrow_schema(schema: ConnectSchema) -> pa.Schema:
    """The Arrow schema of a Connect struct schema (one column per field).

    Raises:
        ValueError: the schema is not a struct (Parquet rows must be records).
    """
    if schema.type is not Type.STRUCT:
        raise ValueError(
            f"Parquet needs a STRUCT value schema, got {schema.type.name}: Confluent's "
            "ParquetRecordWriterProvider writes only Avro records"
        )
    return pa.schema([_arrow_field(f.name, f.schema) for f in schema.fields])


def to_arrow_value(schema: ConnectSchema, value: Any) -> Any:
    """A Connect value as a Python value ``pyarrow`` accepts for :func:`arrow_schema`'s type."""
    if value is None:
        value = _null_value(schema)
        if value is None:
            return None
    name, t = schema.name, schema.type
    if name == DECIMAL:
        unscaled = decimal_unscaled(schema, value)
        return Decimal(unscaled).scaleb(-decimal_scale(schema))
    if name in (DATE, TIME, TIMESTAMP) or t not in (Type.ARRAY, Type.MAP, Type.STRUCT):
        return to_avro_value(schema, value)
    if t is Type.ARRAY:
        assert schema.value_schema is not None
        return [to_arrow_value(schema.value_schema, v) for v in value]
    if t is Type.MAP:
        key, item = schema.key_schema, schema.value_schema
        assert key is not None and item is not None
        pairs = [(to_arrow_value(key, k), to_arrow_value(item, v)) for k, v in value.items()]
        if key.type is Type.STRING and not key.optional:
            return pairs
        return [{"key": k, "value": v} for k, v in pairs]
    if not isinstance(value, Mapping):
        raise ValueError(f"Expected a dict for STRUCT, got {type(value).__name__}")
    return {f.name: to_arrow_value(f.schema, value.get(f.name)) for f in schema.fields}
