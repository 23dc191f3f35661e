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

import binascii
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

import pyarrow as pa

from s3connect.connect.json_data import as_hashmap
from s3connect.connect.logical import decimal_scale, decimal_unscaled
from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Type
from s3connect.convert.avro_data import (
    FIXED_SIZE,
    AvroDataOptions,
    decimal_precision,
    is_fixed,
    resolve_null,
    to_avro_value,
)
from s3connect.convert.codegen import connect_to_arrow_fast

__all__ = [
    "arrow_schema",
    "compile_to_arrow",
    "from_arrow_value",
    "json_payload_table",
    "to_arrow_value",
]

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
        value = resolve_null(schema)
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
        return [to_arrow_value(schema.value_schema, v, options) for v in value]
    if t is Type.MAP:
        key, item = schema.key_schema, schema.value_schema
        assert key is not None and item is not None
        pairs = [
            (to_arrow_value(key, k, options), to_arrow_value(item, v, options))
            for k, v in value.items()
        ]
        if _native_map(key, options):
            if any(k is None for k, _ in pairs):
                raise ValueError(
                    "An Avro map cannot hold a null key (allow.optional.map.keys=true)"
                )
            return pairs
        return [{"key": k, "value": v} for k, v in pairs]
    if not isinstance(value, Mapping):
        raise ValueError(f"Expected a dict for STRUCT, got {type(value).__name__}")
    return {f.name: to_arrow_value(f.schema, value.get(f.name), options) for f in schema.fields}


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


_READ_AS = {pa.date32(): pa.int32(), pa.time32("ms"): pa.int32(), pa.binary(): pa.string()}
_ZEROS: dict[pa.DataType, Any] = {pa.bool_(): False, pa.string(): ""}
_READ_ROWS = 50_000  # lines per read: a block of JSON text well under Arrow's 2 GiB


def json_payload_table(lines: pa.Array, columns: pa.Schema) -> pa.Table:
    """JSON objects, one per line (``lines``, without line ends), as the table of ``columns``
    (:func:`arrow_schema`'s) that :func:`compile_to_arrow` gives for the same values, read by
    Arrow's JSON reader: Dates, Times and Timestamps are read as their numbers, bytes as their
    base64 text, fields missing from an object are null, fields beyond ``columns`` are ignored;
    map columns (which Arrow's JSON reader cannot read) are read apart, object by object.

    The text must hold values of exactly their field's kind, in range, bytes as base64 that
    reads back to itself, maps only as columns of plain values
    (``s3connect.jvm.JsonParquetPayload`` says which payloads do).

    Raises:
        ValueError: text that is not such JSON objects.
    """
    import pyarrow.compute as pc
    import pyarrow.json as pj

    readable = pa.schema([_read_as(f) for f in columns if not pa.types.is_map(f.type)])
    options = pj.ParseOptions(explicit_schema=readable, unexpected_field_behavior="ignore")
    pieces = []
    for start in range(0, len(lines), _READ_ROWS):
        piece = lines.slice(start, _READ_ROWS)
        as_list = pa.ListArray.from_arrays(pa.array([0, len(piece)], pa.int32()), piece)
        text = pc.binary_join(as_list, pa.scalar(b"\n", pa.binary()))[0].as_buffer()
        read = pj.ReadOptions(use_threads=False, block_size=max(text.size, 1) + 1)
        table = pj.read_json(pa.BufferReader(text), read_options=read, parse_options=options)
        if table.num_rows != len(piece):
            raise ValueError(f"{len(piece)} JSON payloads read as {table.num_rows} rows")
        pieces.append(table.combine_chunks())
    read_all = pa.concat_tables(pieces) if pieces else readable.empty_table()
    maps = _map_columns(lines, [f for f in columns if pa.types.is_map(f.type)])
    arrays = [
        maps[f.name] if f.name in maps else _retyped(read_all.column(f.name).combine_chunks(), f)
        for f in columns
    ]
    return pa.Table.from_arrays(arrays, schema=columns)


def _map_columns(lines: pa.Array, fields: list[pa.Field]) -> dict[str, pa.Array]:
    """The map columns ``fields`` of JSON objects: each map's entries in JsonConverter's HashMap
    order, as :func:`compile_to_arrow` gives them."""
    if not fields:
        return {}
    import orjson

    objects = [orjson.loads(line) for line in lines.to_pylist()]
    return {f.name: _map_column([o.get(f.name) for o in objects], f.type) for f in fields}


def _map_column(maps: list[dict[str, Any] | None], t: pa.MapType) -> pa.MapArray:
    offsets, nulls = [0], []
    keys: list[str] = []
    items: list[Any] = []
    for entries in maps:
        if entries is not None:
            ordered = as_hashmap(entries)
            keys += ordered
            items += ordered.values()
        offsets.append(len(keys))
        nulls.append(entries is None)
    if pa.types.is_floating(t.item_type):  # JSON integers too, rounded as JsonConverter does
        items = [None if v is None else float(v) for v in items]
    return pa.MapArray.from_arrays(
        pa.array(offsets, pa.int32()),
        pa.array(keys, t.key_type),
        pa.array(items, t.item_type),
        type=t,
        mask=pa.array(nulls) if any(nulls) else None,
    )


def _read_as(field: pa.Field) -> pa.Field:
    """``field`` as Arrow's JSON reader reads it: nullable (nulls under a null struct), logical
    types as their numbers, bytes as their base64 text."""
    t = field.type
    if pa.types.is_struct(t):
        t = pa.struct([_read_as(f) for f in t])
    elif pa.types.is_list(t):
        t = pa.list_(_read_as(t.value_field))
    elif pa.types.is_timestamp(t):
        t = pa.int64()
    return pa.field(field.name, _READ_AS.get(t, t), nullable=True)


def _retyped(array: pa.Array, field: pa.Field) -> pa.Array:
    """``array`` (as :func:`_read_as` read it) of ``field``'s type: not null where ``field``
    is not nullable (a null struct's children, unseen in Parquet, become zeros)."""
    t = field.type
    mask = array.is_null() if array.null_count and field.nullable else None
    if pa.types.is_struct(t):
        children = [_retyped(array.field(i), t.field(i)) for i in range(t.num_fields)]
        return pa.StructArray.from_arrays(children, fields=list(t), mask=mask)
    if pa.types.is_list(t):
        items = _retyped(array.values, t.value_field)
        return pa.ListArray.from_arrays(array.offsets, items, type=t, mask=mask)
    if array.null_count and not field.nullable:
        array = array.fill_null(_ZEROS.get(array.type, 0))
    if t == pa.binary():
        return pa.array([_base64(text) for text in array.to_pylist()], pa.binary())
    return array if array.type == t else array.view(t)


def _base64(text: str | None) -> bytes | None:
    return None if text is None else binascii.a2b_base64(text, strict_mode=True)
