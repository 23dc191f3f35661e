"""JSON payloads read into Parquet's Arrow columns by Arrow's JSON reader (the sink's line path
into Parquet, :meth:`~s3connect.formats.parquet.ParquetFormat.write_payloads`): the columns
:func:`~s3connect.formats.arrow.compile_to_arrow` gives for the same values."""

from __future__ import annotations

import binascii
from typing import Any

import pyarrow as pa

from s3connect.connect.json_data import as_hashmap

__all__ = ["json_payload_table"]


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
