"""Connect schemas and values as JSON trees, as Kafka's JsonConverter maps them
(``asJsonSchema``, ``asConnectSchema``, ``convertToJson``, ``convertToConnect``), and plain values
as Jackson writes them. The JSON converter, the JSON format and the rotator's saved state use it."""

from __future__ import annotations

import base64
import dataclasses
import functools
import math
import operator
from collections.abc import Callable, Mapping
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from s3connect.connect.logical import (
    EPOCH,
    EPOCH_DAY,
    MS_PER_DAY,
    bytes_to_decimal,
    date_to_days,
    decimal_scale,
    decimal_to_bytes,
    decimal_unscaled,
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
from s3connect.util.jackson import Float32, dump
from s3connect.util.java_hashmap import hashmap_order, hashmap_permutation

__all__ = [
    "NotProvable",
    "as_hashmap",
    "dumps_json",
    "java_double",
    "keyed_hashmap",
    "parse_json_schema",
    "schema_to_json",
]


def json_type_name(node: Any) -> str:
    if node is None:
        return "NULL"
    if isinstance(node, bool):
        return "BOOLEAN"
    if isinstance(node, int | float | Decimal):
        return "NUMBER"
    if isinstance(node, str):
        return "STRING"
    if isinstance(node, list):
        return "ARRAY"
    return "OBJECT"


def parse_json_schema(node: Any) -> ConnectSchema | None:
    """Parse a Connect JSON schema (the envelope's ``schema``), as JsonConverter.asConnectSchema.

    Args:
        node: the decoded JSON schema object, or None (schemaless).

    Raises:
        ValueError: the schema is malformed.
    """
    if node is None:
        return None
    if not isinstance(node, dict):
        raise ValueError("Schema must be a JSON object")
    type_name = node.get("type")
    if not isinstance(type_name, str):
        raise ValueError("Schema must contain 'type' field")
    try:
        schema_type = Type(type_name)
    except ValueError:
        raise ValueError(f"Unknown schema type: {type_name}") from None
    fields: tuple[Field, ...] = ()
    key_schema = value_schema = None
    if schema_type is Type.ARRAY:
        if "items" not in node or node["items"] is None:
            raise ValueError("Array schema did not specify the element type")
        value_schema = parse_json_schema(node["items"])
    elif schema_type is Type.MAP:
        if node.get("keys") is None:
            raise ValueError("Map schema did not specify the key type")
        if node.get("values") is None:
            raise ValueError("Map schema did not specify the value type")
        key_schema = parse_json_schema(node["keys"])
        value_schema = parse_json_schema(node["values"])
    elif schema_type is Type.STRUCT:
        raw_fields = node.get("fields")
        if not isinstance(raw_fields, list):
            raise ValueError('Struct schema\'s "fields" argument is not an array.')
        parsed = []
        for raw in raw_fields:
            name = raw.get("field") if isinstance(raw, dict) else None
            if not isinstance(name, str):
                raise ValueError("Struct schema's field name not specified properly")
            field_schema = parse_json_schema(raw)
            assert field_schema is not None
            parsed.append(Field(name, field_schema))
        fields = tuple(parsed)
    optional = node.get("optional", False)
    if not isinstance(optional, bool):
        raise ValueError("Schema 'optional' must be a boolean")
    name = node.get("name")
    version = node.get("version")
    doc = node.get("doc")
    params = node.get("parameters", {}) or {}
    if not isinstance(params, dict):
        raise ValueError("Schema parameters must be a JSON object")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise ValueError("Schema version must be an integer")
    schema = ConnectSchema(
        type=schema_type,
        optional=optional,
        name=name if isinstance(name, str) else None,
        version=version,
        doc=doc if isinstance(doc, str) else None,
        parameters={str(k): str(v) for k, v in params.items()},
        fields=fields,
        key_schema=key_schema,
        value_schema=value_schema,
    )
    if node.get("default") is not None:
        default = json_to_connect(schema, node["default"], replace_null_with_default=False)
        schema = dataclasses.replace(schema, default=default)
    return schema


def expect_json(ok: bool, schema: ConnectSchema, node: Any) -> None:
    if not ok:
        label = schema.name or schema.type.name
        raise ValueError(
            f"Invalid JSON {json_type_name(node)} for Connect {label} schema: {node!r}"
        )


def json_to_connect(
    schema: ConnectSchema | None, node: Any, replace_null_with_default: bool
) -> Any:
    """JsonConverter.convertToConnect."""
    if schema is None:
        return schemaless_to_connect(node)
    if node is None:
        if replace_null_with_default and schema.default is not None:
            return schema.default
        if schema.optional:
            return None
        raise ValueError(f"Invalid null value for required {schema.type.name} field")
    name = schema.name
    if name == DECIMAL:
        scale = decimal_scale(schema)
        if isinstance(node, str):
            try:
                raw = base64.b64decode(node, validate=True)
            except ValueError as e:
                raise ValueError(f"Invalid base64 for Decimal: {node!r}") from e
            return bytes_to_decimal(raw, scale)
        expect_json(isinstance(node, int | Decimal) and not isinstance(node, bool), schema, node)
        return Decimal(decimal_unscaled(schema, Decimal(node))).scaleb(-scale)
    if name in (DATE, TIME, TIMESTAMP):
        expect_json(isinstance(node, int) and not isinstance(node, bool), schema, node)
        if name == DATE:
            return EPOCH_DAY + timedelta(days=node)
        if name == TIME:
            if not 0 <= node < MS_PER_DAY:
                raise ValueError(f"Time value {node} is outside 0..86399999 milliseconds")
            return (datetime.min + timedelta(milliseconds=node)).time()
        return EPOCH + timedelta(milliseconds=node)
    return _typed(schema, node, replace_null_with_default)


def _typed(schema: ConnectSchema, node: Any, replace: bool) -> Any:
    t = schema.type
    if t in INT_RANGES:
        expect_json(isinstance(node, int) and not isinstance(node, bool), schema, node)
        low, high = INT_RANGES[t]
        if not low <= node <= high:
            raise ValueError(f"Value {node} out of range for {t.name}")
        return node
    if t in (Type.FLOAT32, Type.FLOAT64):
        expect_json(isinstance(node, int | Decimal) and not isinstance(node, bool), schema, node)
        return java_double(node)
    if t is Type.BOOLEAN:
        expect_json(isinstance(node, bool), schema, node)
        return node
    if t is Type.STRING:
        expect_json(isinstance(node, str), schema, node)
        return node
    if t is Type.BYTES:
        expect_json(isinstance(node, str), schema, node)
        try:
            return base64.b64decode(node, validate=True)
        except ValueError as e:
            raise ValueError(f"Invalid base64 for BYTES: {node!r}") from e
    if t is Type.ARRAY:
        expect_json(isinstance(node, list), schema, node)
        return [json_to_connect(schema.value_schema, item, replace) for item in node]
    if t is Type.MAP:
        key_schema, value_schema = schema.key_schema, schema.value_schema
        if key_schema is not None and key_schema.type is Type.STRING:
            expect_json(isinstance(node, dict), schema, node)
            entries = {k: json_to_connect(value_schema, v, replace) for k, v in node.items()}
            return as_hashmap(entries)
        expect_json(isinstance(node, list), schema, node)
        result: dict[Any, Any] = {}
        for entry in node:
            if not isinstance(entry, list) or len(entry) != 2:
                raise ValueError(f"Found invalid map entry instead of array tuple: {entry!r}")
            key = json_to_connect(key_schema, entry[0], replace)
            result[key] = json_to_connect(value_schema, entry[1], replace)
        return keyed_hashmap(result, key_schema)
    # STRUCT
    if not isinstance(node, dict):
        raise ValueError(
            f"Structs should be encoded as JSON objects, but found {json_type_name(node)}"
        )
    return {f.name: json_to_connect(f.schema, node.get(f.name), replace) for f in schema.fields}


def keyed_hashmap(result: dict[Any, Any], key_schema: ConnectSchema | None) -> dict[Any, Any]:
    """A map read from entry pairs in its ``HashMap`` order, where the key's ``hashCode`` is
    modelled: integers, and Date/Time/Timestamp keys (``java.util.Date``: its millis' ``Long``
    hash). Other keys (Decimal, bytes, structs...) keep the input order."""
    if key_schema is None or len(result) < 2:
        return result
    if key_schema.name in (DATE, TIME, TIMESTAMP):
        millis = tuple(_date_millis(k) for k in result)
        if None in millis:
            return result
        keys = tuple(result)
        return {keys[i]: result[keys[i]] for i in hashmap_order(millis, True)}
    if key_schema.type in _HASHED_KEY_TYPES and key_schema.name is None:
        return as_hashmap(result, long=key_schema.type is Type.INT64)
    return result


def _date_millis(key: Any) -> int | None:
    """A ``java.util.Date`` key's epoch millis (None for a null key)."""
    if isinstance(key, datetime):
        return timestamp_to_millis(key)
    if isinstance(key, date):
        return date_to_days(key) * MS_PER_DAY
    if isinstance(key, time):
        return time_to_millis(key)
    return None


def java_double(number: Decimal | int) -> float:
    """``BigDecimal.doubleValue()`` (and ``BigInteger``'s) of a JSON number as Jackson reads
    it: a zero is ``0.0`` whatever its sign (``-0.0`` in the text), but a negative number too
    small for a double is ``-0.0``."""
    return float(number) if number else 0.0


def schemaless_to_connect(node: Any) -> Any:
    """JsonConverter's value for JSON without a schema: an integer as a ``Long`` (wrapping
    beyond 64 bits, as ``BigInteger.longValue``), any other number as a ``Double`` (from a
    ``BigDecimal``: :func:`java_double`), an object as a ``HashMap`` (its order)."""
    if isinstance(node, Decimal):
        return java_double(node)
    if isinstance(node, list):
        return [schemaless_to_connect(item) for item in node]
    if isinstance(node, dict):
        return as_hashmap({k: schemaless_to_connect(v) for k, v in node.items()})
    if node.__class__ is int and not _LONG_MIN <= node <= _LONG_MAX:
        return (node + 2**63) % 2**64 - 2**63
    return node


class NotProvable(Exception):
    """orjson's value may not be what Kafka reads: the caller takes the exact path."""


def schemaless_from_parsed(node: Any) -> Any:
    """:func:`schemaless_to_connect` of what orjson parsed (floats, not Decimals), in place:
    objects into ``HashMap`` order. The caller makes sure that every integer of the text fits
    in 64 bits (orjson reads a bigger one as a float or unwrapped).

    Raises:
        NotProvable: a negative zero, which Kafka reads as ``0.0`` when the text says ``-0.0``
            but as ``-0.0`` for an underflow (``-1e-400``): only the text tells.
    """
    cls = node.__class__
    if cls is dict:
        return _parsed_object(node)
    if cls is list:
        return _parsed_array(node)
    if cls is float and node == 0 and math.copysign(1.0, node) < 0:
        raise NotProvable  # "-0.0" (0.0 in Java) or an underflow (-0.0 in Java)?
    return node


def _parsed_object(node: dict[str, Any]) -> dict[str, Any]:
    if len(node) > 1:
        reorder = _reorderer(tuple(node))
        if reorder is not None:
            node = dict(zip(reorder[0], reorder[1](node)))  # noqa: B905 (same length)
    for key, value in node.items():
        cls = value.__class__
        if cls is dict:
            node[key] = _parsed_object(value)
        elif cls is list:
            node[key] = _parsed_array(value)
        elif cls is float and value == 0 and math.copysign(1.0, value) < 0:
            raise NotProvable
    return node


@functools.lru_cache(maxsize=8192)
def _reorderer(keys: tuple[str, ...]) -> tuple[tuple[str, ...], Callable[[Any], Any]] | None:
    """The keys in ``HashMap`` order and a getter of their values in that order; None: the
    insertion order is the map's."""
    order = hashmap_permutation(keys)
    if order is None:
        return None
    ordered = tuple(keys[i] for i in order)
    return ordered, operator.itemgetter(*ordered)


def _parsed_array(node: list[Any]) -> list[Any]:
    for i, value in enumerate(node):
        cls = value.__class__
        if cls is dict:
            node[i] = _parsed_object(value)
        elif cls is list:
            node[i] = _parsed_array(value)
        elif cls is float and value == 0 and math.copysign(1.0, value) < 0:
            raise NotProvable
    return node


_LONG_MIN, _LONG_MAX = -(2**63), 2**63 - 1
_EPOCH = datetime(1970, 1, 1)
_HASHED_KEY_TYPES = frozenset({Type.INT8, Type.INT16, Type.INT32, Type.INT64, Type.STRING})


def as_hashmap(entries: dict[Any, Any], long: bool = False, initial: int = 16) -> dict[Any, Any]:
    """``entries`` in the iteration order of a ``java.util.HashMap`` they were put into (as
    Kafka's JsonConverter builds every map): what Jackson then writes. ``long``: integer keys
    are ``Long`` (else ``Integer``); ``initial``: the map's first table size (16 for
    ``new HashMap<>()``; see :mod:`s3connect.util.java_hashmap` for the other constructors)."""
    if len(entries) < 2:
        return entries
    keys = tuple(entries)
    order = hashmap_order(keys, long, initial)
    if order == tuple(range(len(keys))):
        return entries
    return {keys[i]: entries[keys[i]] for i in order}


def connect_to_json(
    schema: ConnectSchema | None, value: Any, decimal_format: str, replace: bool
) -> Any:
    """JsonConverter.convertToJson."""
    if value is None:
        if schema is None:
            return None
        if replace and schema.default is not None:
            return connect_to_json(schema, schema.default, decimal_format, replace)
        if schema.optional:
            return None
        raise ValueError(
            "Conversion error: null value for field that is required and has no default"
        )
    if schema is None:
        return _jackson_tree(value, None)
    name = schema.name
    if name == DECIMAL:
        if decimal_format == "NUMERIC":
            return Decimal(decimal_unscaled(schema, value)).scaleb(-decimal_scale(schema))
        raw = decimal_to_bytes(decimal_unscaled(schema, value))
        return base64.b64encode(raw).decode("ascii")
    if name == DATE:
        return date_to_days(value)
    if name == TIME:
        return time_to_millis(value)
    if name == TIMESTAMP:
        return timestamp_to_millis(value)
    t = schema.type
    if t in INT_RANGES:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"Invalid type for {t.name}: {type(value).__name__}")
        return value
    if t is Type.FLOAT32:
        return Float32(value)
    if t is Type.FLOAT64:
        return float(value)
    if t is Type.BOOLEAN or t is Type.STRING:
        return value
    if t is Type.BYTES:
        return base64.b64encode(bytes(value)).decode("ascii")
    if t is Type.ARRAY:
        return [connect_to_json(schema.value_schema, v, decimal_format, replace) for v in value]
    if t is Type.MAP:
        key_schema = schema.key_schema
        if key_schema is not None and key_schema.type is Type.STRING:
            return {  # a null key of an optional string schema: NullNode.asText(), "null"
                "null" if k is None else k: connect_to_json(
                    schema.value_schema, v, decimal_format, replace
                )
                for k, v in value.items()
            }
        return [
            [
                connect_to_json(key_schema, k, decimal_format, replace),
                connect_to_json(schema.value_schema, v, decimal_format, replace),
            ]
            for k, v in value.items()
        ]
    if not isinstance(value, Mapping):
        raise ValueError(f"Struct value must be a dict, got {type(value).__name__}")
    return {
        f.name: connect_to_json(f.schema, value.get(f.name), decimal_format, replace)
        for f in schema.fields
    }


def _jackson_tree(value: Any, schema: ConnectSchema | None) -> Any:
    """What Jackson's ``ObjectMapper.writeObject`` writes for a plain Java value.

    ``schema`` (optional) only tells float32 numbers apart from doubles.
    """
    if value is None or isinstance(value, bool | int | str | Decimal):
        return value
    if isinstance(value, float):
        is_f32 = schema is not None and schema.type is Type.FLOAT32
        return Float32(value) if is_f32 else value
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, datetime):  # java.util.Date -> epoch millis
        return timestamp_to_millis(value)
    if isinstance(value, date):
        return date_to_days(value) * MS_PER_DAY
    if isinstance(value, time):
        return time_to_millis(value)
    item_schema = schema.value_schema if schema is not None else None
    if isinstance(value, list | tuple):
        return [_jackson_tree(v, item_schema) for v in value]
    if isinstance(value, Mapping):
        if schema is not None and schema.type is Type.STRUCT:
            return {f.name: _jackson_tree(value.get(f.name), f.schema) for f in schema.fields}
        return {_jackson_key(k): _jackson_tree(v, item_schema) for k, v in value.items()}
    raise ValueError(f"Cannot convert {type(value).__name__} to JSON")


def _jackson_key(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    if isinstance(key, date | time):
        return _jackson_date_key(_date_millis(key) or 0)
    return key if isinstance(key, str) else str(key)


def _jackson_date_key(millis: int) -> str:
    """A ``java.util.Date`` map key as Jackson writes it by default (StdDateFormat, UTC)."""
    at = _EPOCH + timedelta(milliseconds=millis)
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}+00:00"


def dumps_json(value: Any, schema: ConnectSchema | None = None) -> str:
    """Serialize a Connect value as Jackson's ObjectMapper writes it (compact, Java number text).

    Used by the JSON format for values that are not structs (Confluent hands those straight to
    Jackson rather than to the JsonConverter).
    """
    out: list[str] = []
    dump(_jackson_tree(value, schema), out)
    return "".join(out)


def schema_to_json(schema: ConnectSchema | None, decimal_format: str = "BASE64") -> Any:
    """A Connect schema as the JSON envelope's ``schema`` object (JsonConverter.asJsonSchema):
    defaults written as the converter writes values (``decimal_format`` for decimals)."""
    if schema is None:
        return None
    node: dict[str, Any] = {"type": schema.type.value}
    if schema.type is Type.ARRAY:
        node["items"] = schema_to_json(schema.value_schema, decimal_format)
    elif schema.type is Type.MAP:
        node["keys"] = schema_to_json(schema.key_schema, decimal_format)
        node["values"] = schema_to_json(schema.value_schema, decimal_format)
    elif schema.type is Type.STRUCT:
        node["fields"] = [
            {**schema_to_json(f.schema, decimal_format), "field": f.name} for f in schema.fields
        ]
    node["optional"] = schema.optional
    if schema.name is not None:
        node["name"] = schema.name
    if schema.version is not None:
        node["version"] = schema.version
    if schema.doc is not None:
        node["doc"] = schema.doc
    if schema.parameters:
        node["parameters"] = dict(schema.parameters)
    if schema.default is not None:
        node["default"] = connect_to_json(schema, schema.default, decimal_format, True)
    return node
