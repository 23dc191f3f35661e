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
from typing import Any, TypeVar

from s3connect.connect.java_types import java_class, schemaless_type
from s3connect.connect.logical import (
    EPOCH,
    EPOCH_DAY,
    MS_PER_DAY,
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
from s3connect.util.jackson import Float32, dump
from s3connect.util.java_hashmap import hashmap_order, hashmap_permutation
from s3connect.util.javamath import java_narrow

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
    """Parse a Connect JSON schema (the envelope's ``schema``), as JsonConverter.asConnectSchema:
    ``optional`` only when it is ``true``, a ``version`` or ``name`` or ``doc`` of another JSON
    type ignored, a ``default`` (even ``null``) read as a value of the schema.

    Args:
        node: the decoded JSON schema object, or None (schemaless).

    Raises:
        ValueError: the schema is malformed (Kafka's messages).
    """
    if node is None:
        return None
    type_name = node.get("type") if isinstance(node, dict) else None
    if not isinstance(type_name, str):
        raise ValueError("Schema must contain 'type' field")
    try:
        schema_type = Type(type_name)
    except ValueError:
        raise ValueError(f"Unknown schema type: {type_name}") from None
    fields: tuple[Field, ...] = ()
    key_schema = value_schema = None
    if schema_type is Type.ARRAY:
        if node.get("items") is None:
            raise ValueError("Array schema did not specify the element type")
        value_schema = parse_json_schema(node["items"])
    elif schema_type is Type.MAP:
        if "keys" not in node:
            raise ValueError("Map schema did not specify the key type")
        if "values" not in node:
            raise ValueError("Map schema did not specify the value type")
        key_schema = parse_json_schema(node["keys"])
        value_schema = parse_json_schema(node["values"])
        if key_schema is None or value_schema is None:
            side = "keySchema" if key_schema is None else "valueSchema"
            raise ValueError(f"{side} cannot be null.")
    elif schema_type is Type.STRUCT:
        fields = _struct_fields(node.get("fields"))
    name, version, doc = node.get("name"), node.get("version"), node.get("doc")
    schema = ConnectSchema(
        type=schema_type,
        optional=node.get("optional") is True,
        name=name if isinstance(name, str) else None,
        version=java_narrow(version, 32) if _is_integral(version) else None,
        doc=doc if isinstance(doc, str) else None,
        parameters=_parameters(node.get("parameters")),
        fields=fields,
        key_schema=key_schema,
        value_schema=value_schema,
    )
    if "default" in node:
        default = json_to_connect(schema, node["default"], replace_null_with_default=False)
        if default is not None:
            schema = dataclasses.replace(schema, default=default)
    return schema


def _struct_fields(raw_fields: Any) -> tuple[Field, ...]:
    """A struct schema's ``fields`` (``SchemaBuilder.field`` refuses a name twice)."""
    if not isinstance(raw_fields, list):
        raise ValueError('Struct schema\'s "fields" argument is not an array.')
    parsed: dict[str, Field] = {}
    for raw in raw_fields:
        name = raw.get("field") if isinstance(raw, dict) else None
        if not isinstance(name, str):
            raise ValueError("Struct schema's field name not specified properly")
        if name in parsed:
            raise ValueError(f"Cannot create field because of field name duplication {name}")
        field_schema = parse_json_schema(raw)
        assert field_schema is not None
        parsed[name] = Field(name, field_schema)
    return tuple(parsed.values())


def _parameters(node: Any) -> dict[str, str]:
    """A schema's ``parameters``: an object of strings (anything else but an object ignored)."""
    if not isinstance(node, dict):
        return {}
    if not all(isinstance(v, str) for v in node.values()):
        raise ValueError("Schema parameters must have string values.")
    return dict(node)


def _is_integral(node: Any) -> bool:
    """``JsonNode.isIntegralNumber``."""
    return node.__class__ is int


def _long_value(node: Any) -> int:
    """``JsonNode.longValue`` (before Java narrows it): a number without its fraction, any
    other node 0."""
    if node.__class__ is int:
        return node
    return int(node) if node.__class__ is Decimal else 0


def _double_value(node: Any) -> float:
    """``JsonNode.doubleValue``: a number as a double, any other node 0.0."""
    if node.__class__ is int or node.__class__ is Decimal:
        return java_double(node)
    return 0.0


def _int_converter(bits: int) -> Callable[[Any], Any]:
    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1

    def convert(node: Any) -> int:
        if node.__class__ is int and low <= node <= high:
            return node
        return java_narrow(_long_value(node), bits)

    return convert


def jackson_base64(text: str) -> bytes:
    """``TextNode.binaryValue``: Jackson's MIME-NO-LINEFEEDS Base64, padding required, white
    space allowed between 4-character units only.

    Raises:
        ValueError: not such Base64.
    """
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        if not any(ch <= " " for ch in text):
            raise
    units, unit = [], ""
    for ch in text:
        if ch <= " " and not unit:
            continue
        unit += ch
        if len(unit) == 4:
            units.append(unit)
            unit = ""
    if unit:
        raise ValueError("Unexpected end of base64-encoded String")
    return base64.b64decode("".join(units), validate=True)


def _bytes_value(node: Any) -> bytes | None:
    """``JsonNode.binaryValue``: text as Base64, any other node null."""
    if not isinstance(node, str):
        return None
    try:
        return jackson_base64(node)
    except ValueError as e:
        raise ValueError("Invalid bytes field") from e


PRIMITIVE_TO_CONNECT: dict[Type, Callable[[Any], Any]] = {
    Type.INT8: _int_converter(8),
    Type.INT16: _int_converter(16),
    Type.INT32: _int_converter(32),
    Type.INT64: _int_converter(64),
    Type.FLOAT32: _double_value,
    Type.FLOAT64: _double_value,
    Type.BOOLEAN: lambda node: node if node.__class__ is bool else False,
    Type.STRING: lambda node: node if isinstance(node, str) else None,
    Type.BYTES: _bytes_value,
}
"""JsonConverter's conversion of a non-null JSON node for each primitive type: Jackson's
``intValue()``, ``textValue()``... which give 0, false or null for a node of another JSON type
(``"abc"`` for an int32 is 0), drop a number's fraction and narrow it as Java casts do."""


def json_to_connect(
    schema: ConnectSchema | None, node: Any, replace_null_with_default: bool
) -> Any:
    """JsonConverter.convertToConnect."""
    if schema is None:
        return schemaless_to_connect(node)
    if node is None:
        return null_to_connect(schema, replace_null_with_default)
    if schema.name in LOGICAL_TO_CONNECT:
        return LOGICAL_TO_CONNECT[schema.name](schema, node)
    t = schema.type
    if t in PRIMITIVE_TO_CONNECT:
        return PRIMITIVE_TO_CONNECT[t](node)
    return _container(schema, node, replace_null_with_default)


def null_to_connect(schema: ConnectSchema, replace: bool) -> Any:
    """A JSON null for ``schema``: its default (with ``replace``), else null if optional."""
    if replace and schema.default is not None:
        return schema.default
    if schema.optional:
        return None
    raise ValueError(f"Invalid null value for required {schema.type.name} field")


def _decimal_to_connect(schema: ConnectSchema, node: Any) -> Decimal:
    """A Decimal as JsonConverter reads it: a number as it is (its own scale), text as the
    Base64 of the unscaled bytes."""
    if node.__class__ is int or node.__class__ is Decimal:
        number = Decimal(node)
        return number if number else number.copy_abs()  # a BigDecimal has no -0.00
    if isinstance(node, str):
        try:
            raw = jackson_base64(node)
        except ValueError as e:
            raise ValueError("Invalid bytes for Decimal field") from e
        if not raw:  # new BigInteger(new byte[0]): "Zero length BigInteger"
            raise ValueError("Invalid bytes for Decimal field")
        return bytes_to_decimal(raw, decimal_scale(schema))
    raise ValueError(
        "Invalid type for Decimal, underlying representation should be numeric or bytes but "
        f"was {json_type_name(node)}"
    )


def _is_int(node: Any) -> bool:
    """``JsonNode.isInt``: an integer Jackson reads as an ``int``."""
    return node.__class__ is int and _INT_MIN <= node <= _INT_MAX


def _date_to_connect(schema: ConnectSchema, node: Any) -> date:
    if not _is_int(node):
        raise ValueError(
            "Invalid type for Date, underlying representation should be integer but was "
            f"{json_type_name(node)}"
        )
    return _in_years(lambda: EPOCH_DAY + timedelta(days=node), "Date", node)


def _in_years(make: Callable[[], _T], label: str, node: int) -> _T:
    """A Date or Timestamp Python can hold (years 1 to 9999; Java's Date holds more)."""
    try:
        return make()
    except OverflowError as e:
        raise ValueError(f"{label} value {node} is outside the years 1 to 9999") from e


def _time_to_connect(schema: ConnectSchema, node: Any) -> time | datetime:
    if not _is_int(node):
        raise ValueError(
            "Invalid type for Time, underlying representation should be integer but was "
            f"{json_type_name(node)}"
        )
    return millis_to_time(node)


def _timestamp_to_connect(schema: ConnectSchema, node: Any) -> datetime:
    if not _is_integral(node):
        raise ValueError(
            "Invalid type for Timestamp, underlying representation should be integral but was "
            f"{json_type_name(node)}"
        )
    millis = java_narrow(node, 64)
    return _in_years(lambda: EPOCH + timedelta(milliseconds=millis), "Timestamp", millis)


LOGICAL_TO_CONNECT: dict[str | None, Callable[[ConnectSchema, Any], Any]] = {
    DECIMAL: _decimal_to_connect,
    DATE: _date_to_connect,
    TIME: _time_to_connect,
    TIMESTAMP: _timestamp_to_connect,
}
"""JsonConverter's logical type converters (``toConnect``) of a non-null JSON node."""


def json_items(node: Any) -> list[Any]:
    """What iterating a JSON node gives (an array's elements, an object's values, else none):
    JsonConverter's array of a node of another type."""
    if node.__class__ is list:
        return node
    return list(node.values()) if isinstance(node, dict) else []


def _container(schema: ConnectSchema, node: Any, replace: bool) -> Any:
    t = schema.type
    if t is Type.ARRAY:
        return [json_to_connect(schema.value_schema, item, replace) for item in json_items(node)]
    if t is Type.MAP:
        key_schema, value_schema = schema.key_schema, schema.value_schema
        if key_schema is not None and key_schema.type is Type.STRING:
            expect_object(node, "Maps with string fields should be encoded as JSON objects")
            entries = {k: json_to_connect(value_schema, v, replace) for k, v in node.items()}
            return as_hashmap(entries)
        result: dict[Any, Any] = {}
        for entry in map_entries(node):
            key = json_to_connect(key_schema, entry[0], replace)
            result[key] = json_to_connect(value_schema, entry[1], replace)
        return keyed_hashmap(result, key_schema)
    expect_object(node, "Structs should be encoded as JSON objects")
    struct = {f.name: json_to_connect(f.schema, node.get(f.name), replace) for f in schema.fields}
    for f in schema.fields:
        check_struct_value(f, struct[f.name])
    return struct


def expect_object(node: Any, what: str) -> None:
    """Raise ``"<what>, but found <node type>"`` unless ``node`` is a JSON object."""
    if not isinstance(node, dict):
        raise ValueError(f"{what}, but found {json_type_name(node)}")


def map_entries(node: Any) -> list[Any]:
    """The ``[key, value]`` pairs of a map with keys other than strings (Kafka's errors)."""
    if not isinstance(node, list):
        raise ValueError(
            "Maps with non-string fields should be encoded as JSON array of tuples, but found "
            + json_type_name(node)
        )
    for entry in node:
        if not isinstance(entry, list):
            raise ValueError(
                f"Found invalid map entry instead of array tuple: {json_type_name(entry)}"
            )
        if len(entry) != 2:
            raise ValueError(f"Found invalid map entry, expected length 2 but found :{len(entry)}")
    return node


def check_struct_value(field: Field, value: Any) -> None:
    """``Struct.put``'s validation of a converted field value: a null (a string or bytes
    schema's reading of another JSON type) only where the schema is optional, in arrays and
    maps too (``ConnectSchema.validateValue``)."""
    validate_value(field.schema, value, field.name)


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
_T = TypeVar("_T")
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1
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
    """JsonConverter.convertToJson (Kafka's errors: a value of another type than its schema's,
    a schemaless value of no Connect type such as a Decimal)."""
    if value is None:
        if schema is None:
            return None
        if replace and schema.default is not None:
            return connect_to_json(schema, schema.default, decimal_format, replace)
        if schema.optional:
            return None
        raise ValueError(
            "Conversion error: null value for field that is required and has no default value"
        )
    if schema is None:
        return _schemaless_to_json(value, decimal_format, replace)
    if schema.name in _LOGICAL_TO_JSON:
        return _LOGICAL_TO_JSON[schema.name](schema, value, decimal_format)
    t = schema.type
    if t in _PRIMITIVE_TO_JSON:
        expected, to_json = _PRIMITIVE_TO_JSON[t]
        if not isinstance(value, expected) or isinstance(value, bool) is not (t is Type.BOOLEAN):
            raise ValueError(f"Invalid type for {t.name}: class {java_class(value)}")
        if t in INT_RANGES and not INT_RANGES[t][0] <= value <= INT_RANGES[t][1]:
            raise ValueError(f"Invalid type for {t.name}: class {java_class(value)}")
        return to_json(value)
    if t is Type.ARRAY:
        _expect_type(value, list | tuple, t)
        return [connect_to_json(schema.value_schema, v, decimal_format, replace) for v in value]
    _expect_type(value, Mapping, t)
    if t is Type.MAP:
        key_schema, item_schema = schema.key_schema, schema.value_schema
        pairs = [
            (
                connect_to_json(key_schema, k, decimal_format, replace),
                connect_to_json(item_schema, v, decimal_format, replace),
            )
            for k, v in value.items()
        ]
        if key_schema is not None and key_schema.type is Type.STRING:
            return {_as_text(k): v for k, v in pairs}
        return [[k, v] for k, v in pairs]
    return {  # Struct.getWithoutDefault: the converter's null handling decides
        f.name: connect_to_json(f.schema, value.get(f.name), decimal_format, replace)
        for f in schema.fields
    }


def _expect_type(value: Any, expected: Any, t: Type) -> None:
    if not isinstance(value, expected):
        raise ValueError(f"Invalid type for {t.name}: class {java_class(value)}")


def _as_text(node: Any) -> str:
    """``JsonNode.asText`` of a written map key (a null one is ``"null"``)."""
    if node is None:
        return "null"
    if isinstance(node, bool):
        return "true" if node else "false"
    return node if isinstance(node, str) else str(node)


def _bytes_to_json(value: Any) -> str:
    return base64.b64encode(bytes(value)).decode("ascii")


_PRIMITIVE_TO_JSON: dict[Type, tuple[Any, Callable[[Any], Any]]] = {
    Type.INT8: (int, int),
    Type.INT16: (int, int),
    Type.INT32: (int, int),
    Type.INT64: (int, int),
    Type.FLOAT32: (float | int, Float32),
    Type.FLOAT64: (float | int, float),
    Type.BOOLEAN: (bool, bool),
    Type.STRING: (str, str),
    Type.BYTES: (bytes | bytearray | memoryview, _bytes_to_json),
}
"""Each primitive type's Python values (a float type takes an int too) and its JSON node."""


def _decimal_to_json(schema: ConnectSchema, value: Any, decimal_format: str) -> Any:
    """A Decimal: NUMERIC as the number it is, BASE64 as its unscaled bytes at the schema's
    scale (``Decimal.fromLogical``)."""
    if not isinstance(value, Decimal):
        raise ValueError(
            f"Invalid type for Decimal, expected BigDecimal but was class {java_class(value)}"
        )
    if decimal_format == "NUMERIC":
        return value
    return _bytes_to_json(decimal_to_bytes(decimal_unscaled(schema, value)))


def _epoch_to_json(
    label: str, to_int: Callable[[Any], int]
) -> Callable[[ConnectSchema, Any, str], int]:
    def convert(schema: ConnectSchema, value: Any, decimal_format: str) -> int:
        if not isinstance(value, date | time) or isinstance(value, bool):
            raise ValueError(
                f"Invalid type for {label}, expected Date but was class {java_class(value)}"
            )
        return to_int(value)

    return convert


_LOGICAL_TO_JSON: dict[str | None, Callable[[ConnectSchema, Any, str], Any]] = {
    DECIMAL: _decimal_to_json,
    DATE: _epoch_to_json("Date", date_to_days),
    TIME: _epoch_to_json("Time", time_to_millis),
    TIMESTAMP: _epoch_to_json("Timestamp", timestamp_to_millis),
}
"""JsonConverter's logical type converters (``toJson``) of a non-null value."""


def _schemaless_to_json(value: Any, decimal_format: str, replace: bool) -> Any:
    """convertToJson without a schema: the value's Java class gives its Connect type (an
    integer a Long, a float a Double); a map whose keys are not all strings is written as
    ``[key, value]`` pairs."""
    kind = schemaless_type(value)
    if kind is None:
        raise ValueError(
            f"Java class class {java_class(value)} does not have corresponding schema type."
        )
    if kind is Type.BYTES:
        return _bytes_to_json(value)
    if kind is Type.ARRAY:
        return [connect_to_json(None, v, decimal_format, replace) for v in value]
    if kind is Type.MAP:
        if all(isinstance(k, str) for k in value):
            return {k: connect_to_json(None, v, decimal_format, replace) for k, v in value.items()}
        return [
            [
                connect_to_json(None, k, decimal_format, replace),
                connect_to_json(None, v, decimal_format, replace),
            ]
            for k, v in value.items()
        ]
    return value  # a Long, Double (or Float32), Boolean or String


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
