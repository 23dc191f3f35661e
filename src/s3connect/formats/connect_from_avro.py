"""Avro schema -> Connect schema, and decoded Avro/Arrow values -> Connect values.

The reverse of :mod:`s3connect.formats.connect_avro`, as Confluent's ``AvroData.toConnectSchema``
and ``toConnectData`` with ``connect.meta.data=true``: ``connect.name``, ``connect.version``,
``connect.doc``, ``connect.parameters``, ``connect.default`` and ``connect.type`` (int8/int16)
restore what Avro cannot say; the ``io.confluent.connect.avro.ConnectDefault<n>`` record names
AvroData invents for unnamed structs become unnamed again; arrays of ``MapEntry`` records are
maps with non-string keys. Parquet files carry the same Avro schema (``parquet.avro.schema``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from s3connect.connect.logical import decimal_scale
from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.formats.connect_avro import NAMESPACE

__all__ = ["connect_schema", "connect_value"]

_PRIMITIVES = {
    "int": Type.INT32,
    "long": Type.INT64,
    "float": Type.FLOAT32,
    "double": Type.FLOAT64,
    "boolean": Type.BOOLEAN,
    "string": Type.STRING,
    "bytes": Type.BYTES,
    "enum": Type.STRING,
    "fixed": Type.BYTES,
}
_PRECISION_DEFAULT = 64  # AvroData leaves connect.decimal.precision out at this value
_LOGICAL = {"date": DATE, "time-millis": TIME, "timestamp-millis": TIMESTAMP}
_DEFAULT_NAME = re.compile(re.escape(NAMESPACE) + r"\.(ConnectDefault\d*|MapEntry)")


def connect_schema(avro: Any) -> ConnectSchema:
    """The Connect schema of an Avro schema given as parsed JSON (a file's ``avro.schema``).

    Raises:
        ValueError: a construct AvroData's writer never produces (general unions, unknown names).
    """
    return _walk(avro, None, {})


def _full_name(name: str, space: str | None) -> str:
    return name if "." in name or not space else f"{space}.{name}"


def _walk(node: Any, space: str | None, names: dict[str, ConnectSchema]) -> ConnectSchema:
    if isinstance(node, str):
        if node in _PRIMITIVES:
            return ConnectSchema(_PRIMITIVES[node])
        full = _full_name(node, space)
        if full not in names:
            raise ValueError(f"Avro schema refers to unknown type {node!r}")
        return names[full]
    if isinstance(node, list):
        branches = [b for b in node if b != "null"]
        if len(branches) != 1 or len(node) != 2:
            raise ValueError(f"Avro union {node!r} is not [null, T]: not written by the S3 sink")
        return dataclasses.replace(_walk(branches[0], space, names), optional=True)
    if not isinstance(node, Mapping):
        raise ValueError(f"Avro schema node {node!r} is not valid")
    kind = node.get("type")
    if isinstance(kind, list | Mapping):
        return _walk(kind, space, names)
    schema = _typed(node, str(kind), space, names)
    meta: dict[str, Any] = {}
    if "connect.version" in node:
        meta["version"] = int(node["connect.version"])
    if "connect.doc" in node:
        meta["doc"] = str(node["connect.doc"])
    if isinstance(node.get("connect.parameters"), Mapping):
        params = dict(schema.parameters)
        params.update({str(k): str(v) for k, v in node["connect.parameters"].items()})
        meta["parameters"] = params
    if "connect.name" in node:
        meta["name"] = str(node["connect.name"])
    if meta:
        schema = dataclasses.replace(schema, **meta)
    if node.get("connect.default") is not None:
        default = _default(schema, node["connect.default"])
        schema = dataclasses.replace(schema, default=default)
    if kind == "record":
        names[_full_name(str(node["name"]), node.get("namespace", space))] = schema
    return schema


def _typed(
    node: Mapping[str, Any], kind: str, space: str | None, names: dict[str, ConnectSchema]
) -> ConnectSchema:
    logical = node.get("logicalType")
    if kind == "bytes" and logical == "decimal":
        params = {"scale": str(node.get("scale", 0))}
        if "precision" in node and int(node["precision"]) != _PRECISION_DEFAULT:
            params["connect.decimal.precision"] = str(node["precision"])
        return ConnectSchema(Type.BYTES, name=DECIMAL, parameters=params)
    if kind in ("int", "long") and logical in _LOGICAL:
        base = Type.INT64 if logical == "timestamp-millis" else Type.INT32
        return ConnectSchema(base, name=_LOGICAL[str(logical)])
    if kind == "int" and node.get("connect.type") in ("int8", "int16"):
        return ConnectSchema(Type(node["connect.type"]))
    if kind in _PRIMITIVES:
        return ConnectSchema(_PRIMITIVES[kind])
    if kind == "map":
        return ConnectSchema(
            Type.MAP,
            key_schema=ConnectSchema(Type.STRING),
            value_schema=_walk(node["values"], space, names),
        )
    if kind == "array":
        items = node["items"]
        item = _walk(items, space, names)
        if _is_map_entry(items, space) and item.field("key") and item.field("value"):
            key, value = item.field("key"), item.field("value")
            assert key is not None and value is not None
            return ConnectSchema(Type.MAP, key_schema=key.schema, value_schema=value.schema)
        return ConnectSchema(Type.ARRAY, value_schema=item)
    if kind == "record":
        namespace = node.get("namespace", space)
        full = _full_name(str(node["name"]), namespace)
        fields = []
        for f in node.get("fields", []):
            field_schema = _walk(f["type"], namespace, names)
            if f.get("default") is not None and field_schema.default is None:
                field_schema = dataclasses.replace(
                    field_schema, default=_default(field_schema, f["default"])
                )
            fields.append(Field(str(f["name"]), field_schema))
        name = None if _DEFAULT_NAME.fullmatch(full) else full
        return ConnectSchema(Type.STRUCT, name=name, fields=tuple(fields))
    raise ValueError(f"Avro type {kind!r} is not supported")


def _is_map_entry(items: Any, space: str | None) -> bool:
    if not isinstance(items, Mapping) or items.get("type") != "record":
        return False
    if items.get("connect.internal.type") == "MapEntry":
        return True
    return _full_name(str(items["name"]), items.get("namespace", space)) == f"{NAMESPACE}.MapEntry"


def _default(schema: ConnectSchema, raw: Any) -> Any:
    """An Avro JSON default (bytes as ISO-8859-1 text) as a Connect value."""
    if raw is None:
        return None
    if schema.type is Type.BYTES and isinstance(raw, str):
        raw = raw.encode("latin-1")
        if schema.name == DECIMAL:
            unscaled = int.from_bytes(raw, "big", signed=True)
            return Decimal(unscaled).scaleb(-decimal_scale(schema))
        return raw
    return connect_value(schema, raw)


def connect_value(schema: ConnectSchema, value: Any) -> Any:
    """A value decoded by fastavro or pyarrow (``to_pylist``) as a Connect value for ``schema``.

    Logical types arrive already decoded (datetime, date, time, Decimal) from both libraries;
    this rebuilds maps (dicts, Arrow's key/value tuples or MapEntry records) and struct dicts.
    """
    if value is None:
        return None
    t = schema.type
    if t is Type.STRUCT:
        return {f.name: connect_value(f.schema, value.get(f.name)) for f in schema.fields}
    if t is Type.ARRAY:
        assert schema.value_schema is not None
        return [connect_value(schema.value_schema, v) for v in value]
    if t is Type.MAP:
        key, item = schema.key_schema, schema.value_schema
        assert key is not None and item is not None
        pairs = value.items() if isinstance(value, Mapping) else value
        out: dict[Any, Any] = {}
        for pair in pairs:
            k, v = (pair["key"], pair["value"]) if isinstance(pair, Mapping) else pair
            out[connect_value(key, k)] = connect_value(item, v)
        return out
    if t in (Type.FLOAT32, Type.FLOAT64) and schema.name is None:
        return float(value)
    if t is Type.BYTES and schema.name is None:
        return bytes(value)
    return value
