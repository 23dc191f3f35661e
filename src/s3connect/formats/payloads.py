"""Values read a column at a time into Parquet's Arrow columns (the sink's line path into
Parquet, :meth:`~s3connect.formats.parquet.ParquetFormat.write_payloads`): the columns
:func:`~s3connect.formats.arrow.compile_to_arrow` gives for the same values, from JSON payloads
read by Arrow's JSON reader (:func:`json_payload_table`) or from the JVM's rows of Avro datums
(:func:`avro_rows`)."""

from __future__ import annotations

import binascii
from datetime import UTC, date, datetime, time
from typing import Any

import pyarrow as pa

from s3connect.connect.json_data import as_hashmap
from s3connect.connect.logical import date_to_days, time_to_millis, timestamp_to_millis
from s3connect.connect.schema import DATE, TIME, TIMESTAMP, ConnectSchema, Type
from s3connect.convert.avro_data import AvroDataOptions
from s3connect.formats.arrow import arrow_schema
from s3connect.util.arrow import keep_where
from s3connect.util.java_hashmap import SMALL_MAP_KEYS, hashmap_permutation, small_map_bucket

__all__ = ["avro_rows", "json_payload_table"]


_READ_AS = {pa.date32(): pa.int32(), pa.time32("ms"): pa.int32(), pa.binary(): pa.string()}
_ZEROS: dict[pa.DataType, Any] = {pa.bool_(): False, pa.string(): ""}
_READ_ROWS = 50_000  # lines per read: a block of JSON text well under Arrow's 2 GiB


def json_payload_table(lines: pa.Array, columns: pa.Schema) -> pa.Table:
    """JSON objects, one per line (``lines``, without line ends), as the table of ``columns``
    (:func:`~s3connect.formats.arrow.arrow_schema`'s) that
    :func:`~s3connect.formats.arrow.compile_to_arrow` gives for the same values, read by
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


def avro_rows(rows: pa.StructArray, schema: ConnectSchema, options: AvroDataOptions) -> pa.Array:
    """The JVM's rows of Avro datums (``s3connect.jvm.RegistryAvroRow``: a struct of the datums'
    plain Avro values, enums as their symbols, maps in the datum's order, every field nullable)
    as a struct array of the Arrow columns of ``schema`` (AvroData's Connect schema of the same
    Avro schema), null where ``rows`` is: the values
    :func:`~s3connect.formats.arrow.compile_to_arrow` gives for what the Python reader reads from
    the same datums (maps in AvroData's HashMap order).

    Raises:
        ValueError: a value that reader may read otherwise (a Date, Time or Timestamp out of
            its range, a NaN), a null where the schema has a default (the writer would put the
            default in its place, even under a null struct), or a schema
            whose columns are not those of the rows (a Decimal, a union): those records go
            record by record.
    """
    import numpy as np

    field = pa.field("", pa.struct(list(arrow_schema(schema, options))), nullable=False)
    if not rows.null_count:
        return _avro_column(rows, field, schema)
    valid = rows.is_valid()
    typed = _avro_column(rows.filter(valid), field, schema)  # the nulls' children: not checked
    at = np.cumsum(valid.to_numpy(zero_copy_only=False)) - 1
    return typed.take(pa.array(at, mask=~valid.to_numpy(zero_copy_only=False)))


_RANGES = {  # what the Python reader's datetime, date and time hold
    TIMESTAMP: (
        timestamp_to_millis(datetime.min.replace(tzinfo=UTC)),
        timestamp_to_millis(datetime.max.replace(tzinfo=UTC)),
    ),
    DATE: (date_to_days(date.min), date_to_days(date.max)),
    TIME: (time_to_millis(time.min), time_to_millis(time.max)),
}
_VIEWS = {
    (pa.int32(), pa.date32()),
    (pa.int32(), pa.time32("ms")),
    (pa.int64(), pa.timestamp("ms", tz="UTC")),
}


def _avro_column(array: pa.Array, field: pa.Field, schema: ConnectSchema) -> pa.Array:
    t = field.type
    if schema.default is not None and array.null_count:
        raise ValueError(f"{field.name!r} has a default (written in a null's place)")
    mask = array.is_null() if array.null_count and field.nullable else None
    if pa.types.is_struct(t) and pa.types.is_struct(array.type) and schema.type is Type.STRUCT:
        if array.type.num_fields != t.num_fields:
            raise ValueError(f"{field.name!r}: {array.type.num_fields} fields for {t}")
        children = [
            _avro_column(array.field(i), t.field(i), f.schema) for i, f in enumerate(schema.fields)
        ]
        return pa.StructArray.from_arrays(children, fields=list(t), mask=mask)
    if pa.types.is_list(t) and pa.types.is_list(array.type) and schema.type is Type.ARRAY:
        assert schema.value_schema is not None
        items = _avro_column(array.values, t.value_field, schema.value_schema)
        return pa.ListArray.from_arrays(array.offsets, items, type=t, mask=mask)
    if pa.types.is_map(t) and pa.types.is_map(array.type) and schema.type is Type.MAP:
        assert schema.value_schema is not None
        keys, items = array.keys, _avro_column(array.items, t.item_field, schema.value_schema)
        order = _hashmap_take(array.offsets, keys)
        if order is not None:
            keys, items = keys.take(order), items.take(order)
        return pa.MapArray.from_arrays(array.offsets, keys, items, type=t, mask=mask)
    return _avro_leaf(array, field, schema)


def _hashmap_take(offsets: pa.Array, keys: pa.Array) -> Any:
    """The indices putting each map's entries (in the datum's order) in AvroData's HashMap
    order (:func:`~s3connect.convert.avro_data.avro_map_order`); None: they are in it. Maps of
    at most 8 keys sorted at once by their keys' buckets in a table of 16, larger ones one by
    one."""
    import numpy as np

    bounds = offsets.to_numpy().astype(np.int64)
    sizes = np.diff(bounds)
    if not len(sizes) or sizes.max() < 2:
        return None
    first, last = int(bounds[0]), int(bounds[-1])
    encoded = keys.slice(first, last - first).dictionary_encode()
    buckets = np.array([small_map_bucket(k) for k in encoded.dictionary.to_pylist()], np.int64)
    rows = np.repeat(np.arange(len(sizes)), sizes)
    order = np.lexsort((buckets[encoded.indices.to_numpy()], rows)) + first
    for row in np.flatnonzero(sizes > SMALL_MAP_KEYS).tolist():
        start, end = int(bounds[row]), int(bounds[row + 1])
        names = keys.slice(start, end - start).to_pylist()
        exact = hashmap_permutation(tuple(names)) or range(end - start)
        order[start - first : end - first] = np.asarray(exact) + start
    if (order == np.arange(first, last)).all():
        return None
    take = np.arange(len(keys))
    take[first:last] = order
    return take


def _avro_leaf(array: pa.Array, field: pa.Field, schema: ConnectSchema) -> pa.Array:
    import pyarrow.compute as pc

    t = field.type
    fixed = pa.types.is_fixed_size_binary(t) and array.type == pa.binary()
    if array.type != t and (array.type, t) not in _VIEWS and not fixed:
        raise ValueError(f"{field.name!r}: a {array.type} column for {t}")
    if pa.types.is_floating(t) and pc.any(pc.is_nan(array)).as_py():
        raise ValueError(f"{field.name!r} holds a NaN")
    if schema.name in _RANGES and array.null_count < len(array):
        low, high = _RANGES[schema.name]
        least, most = pc.min_max(array).values()
        if least.as_py() < low or most.as_py() > high:
            raise ValueError(f"{field.name!r} holds a {schema.name} out of range")
    if fixed:  # other sizes only under null structs (Arrow's zero-length children there)
        sized = pc.equal(pc.binary_length(array), t.byte_width)
        array = keep_where(sized, array).cast(t)
    if array.null_count and not field.nullable:  # under a null struct: unseen in Parquet
        zero = bytes(t.byte_width) if fixed else b"" if array.type == pa.binary() else 0
        array = array.fill_null(_ZEROS.get(array.type, zero))
    return array if array.type == t else array.view(t)
