"""Connect schemas and values as Arrow, for Parquet: the Avro schema as parquet-avro maps it.

Confluent's ParquetRecordWriterProvider writes AvroData's Avro schema through parquet-avro; here
the same Connect schema becomes Arrow columns directly: int8/int16 as int32, optional as
nullable, Timestamp as timestamp[ms, UTC], Date as date32, Time as time32[ms], Decimal as
decimal(precision, scale), fixed bytes as fixed_size_binary, lists with ``element`` items, maps
with non-string (or, unless ``allow.optional.map.keys``, optional string) keys as lists of
``{key, value}`` structs, union structs as structs. Enums (``enhanced.avro.schema.support``) stay
string columns: pyarrow cannot write Parquet's ENUM annotation (parquet-avro writes BINARY/ENUM);
the footer's Avro schema has the enum.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

import pyarrow as pa

from s3connect.connect.java_types import java_class
from s3connect.connect.logical import decimal_scale, decimal_unscaled
from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Type
from s3connect.convert.avro_data import (
    FIXED_SIZE,
    AvroDataOptions,
    avro_map_order,
    check_null,
    decimal_precision,
    is_fixed,
    struct_get,
    to_avro_value,
)
from s3connect.convert.codegen import connect_to_arrow_fast

__all__ = ["arrow_schema", "compile_to_arrow", "from_arrow_value", "to_arrow_value"]

_SIMPLE = {
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


_DEFAULTS = AvroDataOptions()


def _native_map(key: ConnectSchema, options: AvroDataOptions) -> bool:
    """AvroData's rule: string keys (optional ones with ``allow.optional.map.keys``) make an
    Avro map, anything else an array of MapEntry records."""
    return key.type is Type.STRING and (not key.optional or options.allow_optional_map_keys)


def _arrow_type(schema: ConnectSchema, options: AvroDataOptions) -> pa.DataType:
    name, t = schema.name, schema.type
    if name == DECIMAL:
        precision, scale = decimal_precision(schema), decimal_scale(schema)
        return (
            pa.decimal128(precision, scale) if precision <= 38 else pa.decimal256(precision, scale)
        )
    if name == DATE:
        return pa.date32()
    if name == TIME:
        return pa.time32("ms")
    if name == TIMESTAMP:
        return pa.timestamp("ms", tz="UTC")
    if is_fixed(schema):
        return pa.binary(int(schema.parameters[FIXED_SIZE]))
    if t in _SIMPLE:
        return _SIMPLE[t]
    if t is Type.ARRAY:
        assert schema.value_schema is not None
        return pa.list_(_arrow_field("element", schema.value_schema, options))
    if t is Type.MAP:
        key, value = schema.key_schema, schema.value_schema
        assert key is not None and value is not None
        if _native_map(key, options):
            return pa.map_(pa.string(), _arrow_field("value", value, options))
        entry = pa.struct(
            [_arrow_field("key", key, options), _arrow_field("value", value, options)]
        )
        return pa.list_(pa.field("element", entry, nullable=False))
    return pa.struct([_arrow_field(f.name, f.schema, options) for f in schema.fields])


def _arrow_field(name: str, schema: ConnectSchema, options: AvroDataOptions) -> pa.Field:
    return pa.field(name, _arrow_type(schema, options), nullable=schema.optional)


def arrow_schema(schema: ConnectSchema, options: AvroDataOptions = _DEFAULTS) -> pa.Schema:
    """The Arrow schema of a Connect struct schema (one column per field), maps as AvroData
    with ``options`` makes them.

    Raises:
        ValueError: the schema is not a struct (Parquet rows must be records).
    """
    if schema.type is not Type.STRUCT:
        raise ValueError(
            f"Parquet needs a STRUCT value schema, got {schema.type.name}: Confluent's "
            "ParquetRecordWriterProvider writes only Avro records"
        )
    return pa.schema([_arrow_field(f.name, f.schema, options) for f in schema.fields])


def to_arrow_value(schema: ConnectSchema, value: Any, options: AvroDataOptions = _DEFAULTS) -> Any:
    """A Connect value as a Python value ``pyarrow`` accepts for :func:`arrow_schema`'s type
    (with the same ``options``).

    Raises:
        ValueError: the value does not match the schema (as ``AvroData.fromConnectData``).
    """
    if value is None:
        check_null(schema)
        return None
    name, t = schema.name, schema.type
    if name == DECIMAL:
        unscaled = decimal_unscaled(schema, value)
        return Decimal(unscaled).scaleb(-decimal_scale(schema))
    if name in (DATE, TIME, TIMESTAMP) or t not in (Type.ARRAY, Type.MAP, Type.STRUCT):
        return to_avro_value(schema, value)
    if t is Type.ARRAY:
        assert schema.value_schema is not None
        return [to_arrow_value(schema.value_schema, v, options) for v in value]
    if t is Type.MAP:
        key, item = schema.key_schema, schema.value_schema
        assert key is not None and item is not None
        native = _native_map(key, options)
        if native and None not in value:
            value = avro_map_order(value)
        pairs = [
            (to_arrow_value(key, k, options), to_arrow_value(item, v, options))
            for k, v in value.items()
        ]
        if native:
            if any(k is None for k, _ in pairs):
                raise ValueError(
                    "An Avro map cannot hold a null key (allow.optional.map.keys=true)"
                )
            return pairs
        return [{"key": k, "value": v} for k, v in pairs]
    if not isinstance(value, Mapping):
        raise ValueError(f"Invalid type for STRUCT: class {java_class(value)}")
    return {f.name: to_arrow_value(f.schema, struct_get(value, f), options) for f in schema.fields}


def compile_to_arrow(
    schema: ConnectSchema, options: AvroDataOptions = _DEFAULTS
) -> Callable[[Any], Any]:
    """:func:`to_arrow_value` specialised once for ``schema``: the same results and errors.

    Structs, arrays, maps with string keys, primitives and the epoch-based logical types get
    generated straight-line code (:func:`~s3connect.convert.codegen.connect_to_arrow_fast`);
    decimals, bytes, other maps and any value it does not decide go to :func:`to_arrow_value`."""

    def reference(sub: ConnectSchema) -> Callable[[Any], Any]:
        return lambda value: to_arrow_value(sub, value, options)

    fast = connect_to_arrow_fast(schema, reference)
    return fast if fast is not None else reference(schema)


def from_arrow_value(schema: ConnectSchema, value: Any) -> Any:
    """A value of ``pyarrow``'s ``to_pylist()`` as the Connect value for ``schema``.

    Logical types arrive decoded (datetime, date, time, Decimal); this rebuilds maps (Arrow's
    key/value tuples or ``{key, value}`` structs) and struct dicts.
    """
    if value is None:
        return None
    t = schema.type
    if t is Type.STRUCT:
        return {f.name: from_arrow_value(f.schema, value.get(f.name)) for f in schema.fields}
    if t is Type.ARRAY:
        assert schema.value_schema is not None
        return [from_arrow_value(schema.value_schema, v) for v in value]
    if t is Type.MAP:
        key, item = schema.key_schema, schema.value_schema
        assert key is not None and item is not None
        out: dict[Any, Any] = {}
        for pair in value:
            k, v = (pair["key"], pair["value"]) if isinstance(pair, Mapping) else pair
            out[from_arrow_value(key, k)] = from_arrow_value(item, v)
        return out
    return value
